"""The API's JSON body parser."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, parsers


class JSONParser(parsers.JSONParser):
    """DRF's parser (NaN and Infinity refused); a body nested past Python's recursion
    limit is a 400 `parse_error` like any other unreadable body, not a 500."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deep.") from None
