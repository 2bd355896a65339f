"""An answer to a signed-in request is for the one who asked, and says so.

Most pages and most of the API answer by who asks: a seat's view and legal actions, the
event stream redacted for that seat, the lobby and its invitations, the account, an
Event's picks that only its people read, the messages a page shows once. Without
`Cache-Control: private` a shared cache (a proxy, a CDN) may keep such an answer and
serve it to the next client asking for the same URL; RFC 9111 keeps it from answers to a
request with an Authorization header, but not from those to a session's cookie. `Vary`
names the headers the answer depends on (the session's cookie, and the API's token too),
so a browser's own cache does not give one account's answer to another either.

An answer that states its own caching is left as it is: it knows whether it depends on
who asks (the account data is `private, no-store`; a page cached for everyone on purpose
says so). An answer to nobody signed in is left as it was, as are the static files,
which WhiteNoise serves (with their own caching) before this middleware sees the request.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers


class PrivateAnswersMiddleware:
    """`Cache-Control: private` and `Vary: Cookie` on every answer to a signed-in request
    (a session, or the API's token) that says nothing of its caching; an `/api/` answer
    varies by `Authorization` too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        # DRF sets the user it authenticated (by token too) on the request it wraps.
        user = getattr(request, "user", None)
        if (user is not None and user.is_authenticated
                and not response.has_header("Cache-Control")):
            patch_cache_control(response, private=True)
            patch_vary_headers(response, ("Authorization", "Cookie")
                               if request.path_info.startswith("/api/") else ("Cookie",))
        return response
