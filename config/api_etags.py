"""An API read carries an ETag, and one sent back unchanged (If-None-Match) is a 304; a
HEAD answers with the ETag (and the 304) of its GET.

A phone polling a match's state or its history every few seconds gets the answer again
only when it changed. The ETag is a digest of the answer's bytes and of who asked (the
signed-in account, else nobody): every answer is already built for its asker (a seat's
view and legal actions, the history redacted for that seat), so an ETag says nothing its
asker cannot read, and two askers never share one, even where their answers agree (a
spectator's and a seat's view of a match whose hands are all played). Answers kept by no
cache (`no-store`: a token, the account's data) get none, as Django's own middleware does,
nor do refusals and streamed answers (a simulation's logs, not all there to digest).
The 304 keeps the answer's Cache-Control and Vary (config.private_answers then makes a
signed-in one private, as the 200 is).

Every `/api/` answer, an anonymous one too, names `Authorization` and `Cookie` in its
Vary: each is its asker's (its ETag at least, and for most paths its body: a 401 to
nobody, a 200 to a token), so no cache hands one asker's answer to another, where an
anonymous answer, kept by a shared cache or a browser's, would otherwise be served to a
signed-in request for the same address.
"""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponseBase
from django.middleware.http import ConditionalGetMiddleware
from django.utils.cache import get_conditional_response, patch_vary_headers, quote_etag

# The headers that say who asks: an API token, a session's cookie.
ASKER_HEADERS = ("Authorization", "Cookie")
# The reads an answer's ETag is given to: a HEAD answers a GET's headers.
READS = ("GET", "HEAD")


class ApiETagMiddleware(ConditionalGetMiddleware):
    """ConditionalGetMiddleware for `/api/` alone, its ETag a digest of the answer and of
    its asker."""

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        if not request.path_info.startswith("/api/"):
            return response
        # Before the 304 is made: it keeps the answer's Vary.
        patch_vary_headers(response, ASKER_HEADERS)
        # A refusal is no version of what was asked: no ETag, nothing to compare.
        if (request.method not in READS
                or not 200 <= response.status_code < 300 or response.streaming):
            return response
        if self.needs_etag(response) and not response.has_header("ETag"):
            response.headers["ETag"] = etag_of(request, response.content)  # type: ignore[attr-defined]
        etag = response.get("ETag")
        if etag is None:
            return response
        # Django's middleware compares a GET's alone; a HEAD, whose body the view writes
        # in full as for a GET (the server leaves it out), is answered alike.
        return get_conditional_response(request, etag=etag, response=response)


def etag_of(request: HttpRequest, content: bytes) -> str:
    """The answer's ETag: a digest of its bytes and of the account it was made for."""
    # DRF sets the user it authenticated (by token too) on the request it wraps.
    user = getattr(request, "user", None)
    asker = f"user:{user.pk}" if user is not None and user.is_authenticated else "anyone"
    digest = hashlib.sha256(asker.encode() + b"\0" + content).hexdigest()
    return quote_etag(digest[:32])
