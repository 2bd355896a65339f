"""An htmx request that finds its session gone goes to the login page as a whole page.

`login_required` answers with a redirect to the login page, which htmx follows and swaps
into the fragment it was refreshing (a match's polled state), and `next` then names that
fragment's URL. For an htmx request the redirect becomes `HX-Redirect` to the login page
with `next` set to the page the browser shows (`HX-Current-URL`).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect


class HtmxLoginMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or response.status_code != 302:
            return response  # every other request pays nothing more
        login = resolve_url(settings.LOGIN_URL)
        if urlsplit(response.get("Location", "")).path != login:
            return response
        page = urlsplit(request.headers.get("HX-Current-URL", ""))
        same_site = not page.netloc or page.netloc == request.get_host()
        back = page.path if same_site and page.path.startswith("/") else "/"
        return HttpResponseClientRedirect(f"{login}?{urlencode({'next': back})}")
