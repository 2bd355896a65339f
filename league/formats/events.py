"""The organizer's decisions and match results as events, and the fold that replays them.

The league stores the start (format key, entrants in seed order, options) and then an
append-only list of these events; the state is never stored as truth, only replayed:

    {"kind": "result_recorded", "pairing_id": "W1-1", "placements": {...}, "figures": {...},
     "sides": {...}}  (sides only where entrants played as one side: a tag team)
    {"kind": "entrant_withdrawn", "entrant": "..."}
    {"kind": "entrant_added", "entrant": "..."}
    {"kind": "paired_by_hand", "pairings": [["a", "b"], ["c", null]]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.protocol import quoted
from league.formats.base import Format, FormatError, MatchResult

S = TypeVar("S")


@dataclass(frozen=True)
class ResultRecorded:
    """A pairing's result came in."""

    result: MatchResult


@dataclass(frozen=True)
class EntrantWithdrawn:
    """An entrant left the event."""

    entrant: str


@dataclass(frozen=True)
class EntrantAdded:
    """A late entrant joined."""

    entrant: str


@dataclass(frozen=True)
class PairedByHand:
    """The organizer paired the round about to be played."""

    pairings: tuple[tuple[str | None, ...], ...]


Event = ResultRecorded | EntrantWithdrawn | EntrantAdded | PairedByHand


def apply(fmt: Format[S], state: S, event: Event) -> S:
    """The state after one event; a refused event raises FormatError."""
    if isinstance(event, ResultRecorded):
        return fmt.record(state, event.result)
    if isinstance(event, EntrantWithdrawn):
        return fmt.withdraw(state, event.entrant)
    if isinstance(event, EntrantAdded):
        return fmt.add_entrant(state, event.entrant)
    return fmt.pair_by_hand(state, event.pairings)


def replay(
    fmt: Format[S],
    entrants: Sequence[str],
    options: Mapping[str, Any] | None,
    events: Sequence[Event],
) -> S:
    """The state after the start and every event in order."""
    state = fmt.start(entrants, options)
    for event in events:
        state = apply(fmt, state, event)
    return state


def result_to_json(result: MatchResult) -> dict[str, Any]:
    """A result as stored."""
    stored = {
        "pairing_id": result.pairing_id,
        "placements": dict(result.placements),
        "figures": {e: dict(f) for e, f in result.figures.items()},
    }
    return {**stored, "sides": dict(result.sides)} if result.sides else stored


def result_from_json(data: Mapping[str, Any]) -> MatchResult:
    """A stored result; a malformed one is refused with code `bad_event`."""
    pairing_id, placements = data.get("pairing_id"), data.get("placements")
    figures, sides = data.get("figures") or {}, data.get("sides") or {}
    if (
        not isinstance(pairing_id, str)
        or not isinstance(placements, dict)
        or not isinstance(figures, dict)
        or not isinstance(sides, dict)
    ):
        raise FormatError("bad_event", "A result needs a pairing_id and placements.")
    return MatchResult(pairing_id, dict(placements), {e: dict(f) for e, f in figures.items()},
                       dict(sides))


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as stored."""
    if isinstance(event, ResultRecorded):
        return {"kind": "result_recorded", **result_to_json(event.result)}
    if isinstance(event, EntrantWithdrawn):
        return {"kind": "entrant_withdrawn", "entrant": event.entrant}
    if isinstance(event, EntrantAdded):
        return {"kind": "entrant_added", "entrant": event.entrant}
    return {"kind": "paired_by_hand", "pairings": [list(p) for p in event.pairings]}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """A stored event; a malformed one is refused with code `bad_event`."""
    kind = data.get("kind")
    if kind == "result_recorded":
        return ResultRecorded(result_from_json(data))
    if kind in ("entrant_withdrawn", "entrant_added") and isinstance(data.get("entrant"), str):
        cls = EntrantWithdrawn if kind == "entrant_withdrawn" else EntrantAdded
        return cls(data["entrant"])
    if kind == "paired_by_hand" and isinstance(data.get("pairings"), list):
        return PairedByHand(tuple(tuple(p) for p in data["pairings"] if isinstance(p, list)))
    raise FormatError("bad_event", f"Not a format event: {quoted(dict(data))}.")
