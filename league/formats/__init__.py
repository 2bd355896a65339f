"""Tournament formats: pure, deterministic, event-sourced state machines.

Single and double elimination, round robin, Swiss, free-for-all heats, multi-stage events
and the two-entrant Showdown series share one contract (`base.Format`);
`registry.get_format(key)` finds one and `events.replay` rebuilds a state from its start
and stored events. No Django, no I/O, no clock, no random numbers: the caller seeds the
field and passes the order in.
"""

from __future__ import annotations

from league.formats.base import (
    Format,
    FormatError,
    MatchResult,
    OptionSpec,
    Pairing,
    Scoring,
    StandingRow,
    entrant_places,
    entrant_sides,
    first_sides,
    no_winner,
    outcomes,
    side_key,
)
from league.formats.events import (
    EntrantAdded,
    EntrantWithdrawn,
    Event,
    PairedByHand,
    ResultRecorded,
    apply,
    event_from_json,
    event_to_json,
    replay,
)
from league.formats.registry import FORMATS, describe_options, game_of, get_format

__all__ = [
    "FORMATS",
    "EntrantAdded",
    "EntrantWithdrawn",
    "Event",
    "Format",
    "FormatError",
    "MatchResult",
    "OptionSpec",
    "PairedByHand",
    "Pairing",
    "ResultRecorded",
    "Scoring",
    "StandingRow",
    "apply",
    "describe_options",
    "entrant_places",
    "entrant_sides",
    "event_from_json",
    "event_to_json",
    "first_sides",
    "game_of",
    "get_format",
    "no_winner",
    "outcomes",
    "replay",
    "side_key",
]
