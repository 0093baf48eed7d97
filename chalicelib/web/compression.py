"""gzip for text responses of 1 KB or more, when the client accepts it.

In AWS, API Gateway compresses (the REST API's ``MinimumCompressionSize``, or the HTTP
API's Lambda front, which has no compression of its own); ``make run`` compresses with this
too, so pages weigh locally what they weigh in AWS.
"""

import gzip

MINIMUM_SIZE = 1024  # bytes; smaller answers gain little and cost a round of CPU
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml")


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip (``gzip`` or ``*``, q > 0)."""
    for part in (accept_encoding or "").split(","):
        coding, _, parameters = part.partition(";")
        if coding.strip().lower() not in ("gzip", "*"):
            continue
        quality = parameters.strip().lower()
        if quality.startswith("q="):
            try:
                return float(quality[2:]) > 0
            except ValueError:
                return False
        return True
    return False


def should_compress(headers: dict, body: bytes, accept_encoding: str | None) -> bool:
    """A text body of ``MINIMUM_SIZE`` or more, not yet encoded, for a client that takes gzip."""
    lowered = {name.lower(): value for name, value in headers.items()}
    content_type = str(lowered.get("content-type", "")).lower()
    return (
        len(body) >= MINIMUM_SIZE
        and "content-encoding" not in lowered
        and content_type.startswith(COMPRESSIBLE)
        and accepts_gzip(accept_encoding)
    )


def compress(body: bytes) -> bytes:
    # mtime=0: the same body always gives the same bytes.
    return gzip.compress(body, compresslevel=6, mtime=0)


def vary(headers: dict) -> None:
    """Adds ``Accept-Encoding`` to ``Vary``: caches must key on it."""
    for name, value in headers.items():
        if name.lower() == "vary":
            if "accept-encoding" not in str(value).lower():
                headers[name] = f"{value}, Accept-Encoding"
            return
    headers["Vary"] = "Accept-Encoding"
