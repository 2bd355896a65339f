"""Log filters (settings.LOGGING)."""

from __future__ import annotations

import logging


class RefusedRequestFilter(logging.Filter):
    """A request Django refused as suspicious (`django.security.*`: a Host not in
    ALLOWED_HOSTS, too many fields, a body too large) is the client's doing, answered 400:
    one WARNING line, not an ERROR with the traceback of Django's own check. Scanners send
    such requests all day; their tracebacks buried the site's real errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.security.") and record.exc_info:
            record.exc_info = None
            record.exc_text = None
            if record.levelno > logging.WARNING:
                record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
