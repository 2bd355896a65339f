"""Creation forms that make one thing however often they are sent.

Each rendered creation form carries a fresh token (`{% once_field %}`). The first post
with a token claims it in the cache shared by the web processes; a second post of the same
form (a double click, a resent request) is sent where the first one went instead of making
a second Event, season or simulation. A post without a token is handled as it comes, and
so is every post while the cache is away (Redis down, a warning logged): a double click
then may make two, as without a token, rather than no form working at all.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from config.cache_down import CACHE_DOWN

log = logging.getLogger(__name__)

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
    try:
        claimed = cache.add(key, PENDING, TIMEOUT)
        went = "" if claimed else cache.get(key, PENDING)
    except CACHE_DOWN as exc:
        log.warning("Once-token not kept (cache away: %s): the post is handled as it comes",
                    exc)
        return make()
    if not claimed:
        if went:
            return HttpResponse(status=303, headers={"Location": went})
        return again()
    try:
        response = make()
    except BaseException:
        _forget(key)
        raise
    try:
        if response.status_code in (301, 302, 303) and response.get("Location"):
            cache.set(key, response["Location"], TIMEOUT)
        else:
            cache.delete(key)
    except CACHE_DOWN as exc:
        # What `make()` wrote is stored: its answer stands; the claim expires on its own.
        log.warning("Once-token not recorded (cache away: %s)", exc)
    return response


def _forget(key: str) -> None:
    try:
        cache.delete(key)
    except CACHE_DOWN as exc:
        log.warning("Once-token not freed (cache away: %s)", exc)
