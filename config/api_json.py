"""JSON as the site reads it (the API's body parser, the pages' JSON fields), and the
JSON-lines renderer of the API's log downloads."""

from __future__ import annotations

import json
import math
from typing import Any

from django.conf import settings
from rest_framework import exceptions, parsers, renderers

# Every number a JSON column stores and the league reads as a float or a 64-bit id.
LARGEST_INT = 2**63 - 1


def loads(text: str) -> Any:
    """`text` read as JSON that every store takes: ValueError for NaN or Infinity (none
    is JSON, and `1e400` reads as Infinity), an integer past 64 bits, a NUL character
    (no PostgreSQL text holds one), or nesting past Python's recursion limit."""
    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not a JSON number")

    def finite(literal: str) -> float:
        value = float(literal)
        if not math.isfinite(value):
            refuse(literal[:20])
        return value

    def bounded(literal: str) -> int:
        value = int(literal)
        if abs(value) > LARGEST_INT:
            raise ValueError(f"{literal[:20]}... is past a 64-bit integer")
        return value

    try:
        value = json.loads(text, parse_constant=refuse, parse_float=finite, parse_int=bounded)
    except RecursionError:
        raise ValueError("nested too deep") from None
    if "\\u0000" in text:  # (a NUL character itself is no JSON)
        _refuse_nul(value)
    return value


def _refuse_nul(value: Any) -> None:
    """ValueError if a string or key anywhere in `value` holds a NUL character."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValueError("a string holds a NUL character")
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class JSONParser(parsers.JSONParser):
    """JSON bodies read by `loads`: what it refuses, like any unreadable body, is a 400
    `parse_error`, not a 500 or a row half-written."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return loads(stream.read().decode(encoding))
        except (ValueError, LookupError) as exc:  # (a charset no text is in: LookupError)
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None


class FormParser(parsers.FormParser):
    """DRF's parser; a body in a charset Python cannot read text in is a 400
    `parse_error`, not a 500."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except (ValueError, LookupError) as exc:
            raise exceptions.ParseError(f"Form parse error - {exc}") from None


class MultiPartParser(parsers.MultiPartParser):
    """DRF's parser; a field name or a text field holding a NUL character is a 400
    `parse_error`, as in a JSON body (no PostgreSQL text holds one)."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        try:
            _refuse_nul(dict(parsed.data.lists()))
            _refuse_nul(list(parsed.files))
        except ValueError as exc:
            raise exceptions.ParseError(f"Multipart form parse error - {exc}") from None
        return parsed


class JSONLinesRenderer(renderers.BaseRenderer):
    """`application/x-ndjson`: a view streams its lines itself; what goes through here is
    an error body, one JSON line, for a client that asked for the lines alone."""

    media_type = "application/x-ndjson"
    format = "jsonl"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: dict[str, Any] | None = None) -> bytes:
        if data is None:
            return b""
        return json.dumps(data, separators=(",", ":")).encode() + b"\n"
