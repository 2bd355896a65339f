"""Creation forms that make one thing however often they are sent.

Each rendered creation form carries a fresh token (`{% once_field %}`). The first post
with a token claims it in the cache shared by the web processes; a second post of the same
form (a double click, a resent request) is sent where the first one went instead of making
a second Event, season or simulation. A post without a token is handled as it comes.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

FIELD = "once"
PENDING = ""  # claimed: the first post is still being handled
TIMEOUT = 60 * 60


def new_token() -> str:
    return secrets.token_urlsafe(16)


def _key(request: HttpRequest, token: str) -> str:
    return f"league:once:{request.user.pk}:{token}"


def handle(request: HttpRequest, make: Callable[[], HttpResponse],
           again: Callable[[], HttpResponse]) -> HttpResponse:
    """`make()`'s answer to the first post of a form; to a repeat, a redirect where the first
    went, or `again()` while the first is still being handled. A refused first post (any
    answer but a redirect) frees its token, so the same form may be sent again."""
    token = request.POST.get(FIELD, "")
    if not token:
        return make()
    key = _key(request, token)
    if not cache.add(key, PENDING, TIMEOUT):
        went = cache.get(key, PENDING)
        if went:
            return HttpResponse(status=303, headers={"Location": went})
        return again()
    try:
        response = make()
    except BaseException:
        cache.delete(key)
        raise
    if response.status_code in (301, 302, 303) and response.get("Location"):
        cache.set(key, response["Location"], TIMEOUT)
    else:
        cache.delete(key)
    return response
