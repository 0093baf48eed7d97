"""Run with the deployment package first on sys.path: renders the lounge as Lambda would."""

import json
import os
import sys

from moto import mock_aws

os.environ.update(
    AWS_DEFAULT_REGION="ap-northeast-1",
    AWS_ACCESS_KEY_ID="test",
    AWS_SECRET_ACCESS_KEY="test",
    MOBIUS_SECRET="package-test",
    MOBIUS_STAGE="dev",
)

with mock_aws():
    import app  # from the package
    from chalicelib.storage import db

    db.configure()
    db.create_table()
    event = {
        "resource": "/",
        "path": "/",
        "httpMethod": "GET",
        "headers": {"Host": "example.jp"},
        "multiValueHeaders": {"Host": ["example.jp"]},
        "queryStringParameters": None,
        "multiValueQueryStringParameters": None,
        "pathParameters": None,
        "stageVariables": None,
        "requestContext": {
            "resourcePath": "/",
            "httpMethod": "GET",
            "identity": {"sourceIp": "127.0.0.1"},
        },
        "body": None,
        "isBase64Encoded": False,
    }
    response = app.app(event, None)
    # The same request as an HTTP API (payload format 1.0) sends it.
    http_event = {
        **event,
        "version": "1.0",
        "headers": {"host": "example.jp"},
        "multiValueHeaders": {"host": ["example.jp"]},
        "requestContext": {**event["requestContext"], "routeKey": "GET /", "stage": "$default"},
    }
    http_response = app.http_api(http_event, None)
    missing = app.http_api(
        {**http_event, "path": "/nowhere", "resource": "$default", "requestContext": {}}, None
    )
    print(
        json.dumps(
            {
                "app_file": app.__file__,
                "status": response["statusCode"],
                "body": response["body"],
                "http_status": http_response["statusCode"],
                "http_body": http_response["body"],
                "http_missing_status": missing["statusCode"],
            },
            ensure_ascii=False,
        )
    )
    sys.stdout.flush()
