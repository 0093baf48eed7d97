"""Refusals of the use cases. Each carries a Japanese sentence for the player and an HTTP status."""


class ServiceError(ValueError):
    status = 400


class InvalidInput(ServiceError):
    status = 400


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class RateLimited(ServiceError):
    status = 429
