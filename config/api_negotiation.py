"""Which renderer answers: DRF's negotiation, where a `?format=` no renderer of the view
serves is refused as an Accept header none serves is (406 `not_acceptable`), naming the
formats it does serve, rather than a 404 that read as if the address answered nothing."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation

from engine.protocol import quoted


class ContentNegotiation(DefaultContentNegotiation):
    def filter_renderers(self, renderers: list[Any], format: str) -> list[Any]:
        served = [renderer for renderer in renderers if renderer.format == format]
        if not served:
            offered = " or ".join(sorted({renderer.format for renderer in renderers}))
            raise exceptions.NotAcceptable(
                f"No format {quoted(format)} here: `format` is {offered}, or left out.")
        return served
