"""The API's JSON body parser, and the JSON-lines renderer of its log downloads."""

from __future__ import annotations

import json
from typing import Any

from rest_framework import exceptions, parsers, renderers


class JSONParser(parsers.JSONParser):
    """DRF's parser (NaN and Infinity refused); a body nested past Python's recursion
    limit is a 400 `parse_error` like any other unreadable body, not a 500."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deep.") from None


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
