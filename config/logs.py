"""Log filters, the request line and its handler (settings.LOGGING)."""

from __future__ import annotations

import atexit
import logging
import logging.handlers
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject, empty


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


# Path parts that carry a secret (a reset link's account and token, an address's
# confirmation token): a request line shows `*` for them.
SECRET_PARTS = frozenset({"token", "uidb64"})

requests_log = logging.getLogger("config.requests")


class RequestLineMiddleware:
    """One line per request on `config.requests` (REQUEST_LOG): its method, its path
    (without the query string, and without the secret parts of a link: SECRET_PARTS),
    the answer's status, how long the site took (to the answer's first byte: a streamed
    download goes on after it) and the signed-in account's id (`-`: none, or none read).
    The health probe is not logged (HealthMiddleware answers before it). The line goes
    through `BackgroundHandler`: the request does not wait on the log's output."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        began = time.monotonic()
        response = self.get_response(request)
        if requests_log.isEnabledFor(logging.INFO):
            requests_log.info("%s %s %s %.0fms user=%s", request.method, shown_path(request),
                              response.status_code, (time.monotonic() - began) * 1000,
                              _account(request))
        return response


def shown_path(request: HttpRequest) -> str:
    """The request's path as a log may show it: SECRET_PARTS of its route as `*`."""
    path = request.path
    match = getattr(request, "resolver_match", None)
    for name, value in (match.kwargs.items() if match is not None else ()):
        if name in SECRET_PARTS and value:
            path = path.replace(f"/{value}/", "/*/")
    return path


def _account(request: HttpRequest) -> str:
    """The id of the account the request was signed in as, if the site read it (the
    session's user is read lazily: not read here, which would cost a query)."""
    user: Any = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject):
        user = None if user._wrapped is empty else user._wrapped
    return str(user.pk) if getattr(user, "is_authenticated", False) else "-"


class BackgroundHandler(logging.handlers.QueueHandler):
    """A handler that formats a record where it is logged and leaves writing it (stderr)
    to a thread of its own, started in each process on its first line (gunicorn's
    workers are forked): a request does not wait on a slow or blocked log pipe. Lines
    still queued as the process ends are written then."""

    def __init__(self) -> None:
        super().__init__(queue.SimpleQueue())
        self._started = 0  # the process whose thread writes: none yet, or a forked one
        self._start_lock = threading.Lock()
        self.listener: logging.handlers.QueueListener | None = None

    def enqueue(self, record: logging.LogRecord) -> None:
        if self._started != os.getpid():
            self.start()
        super().enqueue(record)

    def start(self) -> None:
        """Start this process's writing thread, unless it runs."""
        with self._start_lock:
            if self._started == os.getpid():
                return
            self.queue = queue.SimpleQueue()  # not the parent's, nor its lines
            out = logging.StreamHandler()
            out.setFormatter(logging.Formatter("%(message)s"))
            self.listener = logging.handlers.QueueListener(self.queue, out)
            self.listener.start()
            atexit.register(self.stop)
            self._started = os.getpid()

    def stop(self) -> None:
        """Write the lines queued, then end the writing thread (once)."""
        with self._start_lock:
            if self.listener is not None and self._started == os.getpid():
                self.listener.stop()
                self._started = 0
