"""The local village: ``make run`` (an embedded moto AWS, the app, the scheduler loop)."""
