"""Which renderer answers: DRF's negotiation, where a `?format=` no renderer of the view
serves is refused as an Accept header none serves is (406 `not_acceptable`), naming the
formats it does serve, rather than a 404 that read as if the address answered nothing.
A `format` given twice (`?format=api&format=json`) is 400 `repeated_parameter`, as any
parameter of one value is (config.api_strict), where DRF answered in the last. A read's
query parameter its operation does not take is 400 `unknown_parameter`
(config.api_parameters), checked here as every view of the API chooses its renderer."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request

from config.api_parameters import refuse_unknown
from config.api_strict import RepeatedParameter
from engine.protocol import quoted


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request: Request, renderers: list[Any],
                        format_suffix: str | None = None) -> tuple[Any, str]:
        name = self.settings.URL_FORMAT_OVERRIDE
        count = len(request.query_params.getlist(name)) if name else 0
        if count > 1:
            raise RepeatedParameter(f"{name} is given {count} times: give it once.")
        refuse_unknown(request, request.parser_context.get("view"))
        return super().select_renderer(request, renderers, format_suffix)

    def filter_renderers(self, renderers: list[Any], format: str) -> list[Any]:
        served = [renderer for renderer in renderers if renderer.format == format]
        if not served:
            offered = " or ".join(sorted({renderer.format for renderer in renderers}))
            raise exceptions.NotAcceptable(
                f"No format {quoted(format)} here: `format` is {offered}, or left out.")
        return served
