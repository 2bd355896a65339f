"""A request whose path, query or form fields hold a NUL character is a 400.

No PostgreSQL text holds one: a lookup by such a value (a player's name, a game's key)
would fail in the database, a 500, where SQLite answers nothing found. The API's JSON
and multipart bodies are checked by their parsers (`config.api_json`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, QueryDict

NUL = "\x00"


class NulCharsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # An API view reads a multipart body itself (its stream, once read here, would be
        # spent): its parser (`config.api_json.MultiPartParser`) refuses a NUL character.
        form = request.method == "POST" and (
            request.content_type == "application/x-www-form-urlencoded"
            or (request.content_type == "multipart/form-data"
                and not request.path_info.startswith("/api/")))
        try:
            nul = NUL in request.path_info or _holds_nul(request.GET) or (
                form and _holds_nul(request.POST))
        except SuspiciousOperation:
            nul = False  # too many fields, too big a body: the view tells it its own way
        if nul:
            raise BadRequest("The request holds a NUL character.")
        return self.get_response(request)


def _holds_nul(query: QueryDict) -> bool:
    items: Iterable[tuple[str, list[str]]] = query.lists()
    return any(NUL in key or any(NUL in value for value in values) for key, values in items)
