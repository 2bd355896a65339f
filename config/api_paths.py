"""An API path typed without its trailing slash is served as if it had one.

Django's APPEND_SLASH would redirect it, and a client that follows a 301 after a POST
turns it into a GET: the match it meant to create lists matches instead, and it looks
like success. Under `/api/`, a path that resolves only with the slash is served with it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import is_valid_path


class ApiSlashMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path.startswith("/api/") and not path.endswith("/"):
            urlconf = getattr(request, "urlconf", None)
            if not is_valid_path(path, urlconf) and is_valid_path(f"{path}/", urlconf):
                request.path_info = f"{path}/"
                request.path = f"{request.path}/"
        return self.get_response(request)
