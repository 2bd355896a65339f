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


# A format made for one game, by its key: any other game's Event is refused it. The
# Showdown series is the league's side of a Superstar Showdown Event (league/showdown.py);
# for another game it would be a single match standing for a whole Event.
FORMAT_GAMES: dict[str, str] = {showdown_series.FORMAT.key: "superstar_showdown"}


def game_of(key: str) -> str | None:
    """The one game the format `key` is made for, or None when any game takes it."""
    return FORMAT_GAMES.get(key)


def get_format(key: str) -> Format[Any]:
    """The format called `key`; an unknown key is refused with code `unknown_format`."""
    try:
        return FORMATS[key]
    except KeyError:
        raise FormatError("unknown_format", f"No format called {quoted(key)}.") from None


def describe_options(key: str) -> list[dict[str, Any]]:
    """The options a format takes, with defaults and help, as a form or the API shows them."""
    return [spec.to_json() for spec in get_format(key).options]
