"""Deployment: the CloudFormation/SAM template and the Lambda package (``make package``)."""
