"""Format key -> implementation, and the options each takes."""

from __future__ import annotations

from typing import Any

from engine.protocol import quoted
from league.formats import (
    double_elim,
    heats,
    multistage,
    round_robin,
    showdown_series,
    single_elim,
    swiss,
)
from league.formats.base import Format, FormatError

FORMATS: dict[str, Format[Any]] = {
    fmt.key: fmt
    for fmt in (
        single_elim.FORMAT,
        double_elim.FORMAT,
        round_robin.FORMAT,
        swiss.FORMAT,
        heats.FORMAT,
        multistage.FORMAT,
        showdown_series.FORMAT,
    )
}


def get_format(key: str) -> Format[Any]:
    """The format called `key`; an unknown key is refused with code `unknown_format`."""
    try:
        return FORMATS[key]
    except KeyError:
        raise FormatError("unknown_format", f"No format called {quoted(key)}.") from None


def describe_options(key: str) -> list[dict[str, Any]]:
    """The options a format takes, with defaults and help, as a form or the API shows them."""
    return [spec.to_json() for spec in get_format(key).options]
