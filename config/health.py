"""`/healthz`: whether this web process answers and reaches its database.

For the container's healthcheck and a proxy's probe. It answers before the rest of the
middleware, so it needs no allowed `Host` (a probe from inside the container says
`127.0.0.1`, which a production `DJANGO_ALLOWED_HOSTS` does not list), no HTTPS redirect
and no session. It tells nothing but up or down: 200 `{"status": "ok"}`, or 503
`{"code": "database_unavailable", ...}` when a `SELECT 1` fails.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse

PATH = "/healthz"
log = logging.getLogger(__name__)


class HealthMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return JsonResponse({"code": "method_not_allowed",
                                 "detail": "Only GET and HEAD."}, status=405,
                                headers={"Allow": "GET, HEAD"})
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
        except DatabaseError:
            log.exception("health check: the database does not answer")
            down = JsonResponse({"code": "database_unavailable",
                                 "detail": "The database does not answer."}, status=503)
            # Logged above, with why: not again as "Service Unavailable" by Django.
            down._has_been_logged = True  # type: ignore[attr-defined]
            return down
        return JsonResponse({"status": "ok"})
