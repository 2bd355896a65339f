"""Helpers for the format tests: seeded fields, results in a line, playing an event out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from league.formats import FormatError, MatchResult, Pairing

Chooser = Callable[[Pairing], MatchResult]


def seeds(n: int) -> list[str]:
    """Entrants s1..sN, in seed order."""
    return [f"s{i}" for i in range(1, n + 1)]


def seed_number(entrant: str) -> int:
    """The number in an `sN` id."""
    return int(entrant[1:])


def finish(pairing_id: str, *order: str, **figures: dict[str, float]) -> MatchResult:
    """A result with the entrants placed 1, 2, 3 ... in the order given."""
    return MatchResult(pairing_id, {e: i for i, e in enumerate(order, start=1)}, figures)


def draw(pairing_id: str, a: str, b: str) -> MatchResult:
    """A drawn two-seat result."""
    return MatchResult(pairing_id, {a: 1, b: 1})


def better_seed_wins(pairing: Pairing) -> MatchResult:
    """The result where the lower seed number places higher."""
    return finish(pairing.id, *sorted(pairing.entrants, key=seed_number))


def ids(pairings: Sequence[Pairing]) -> list[str]:
    """The ids of some pairings, in order."""
    return [p.id for p in pairings]


def slots(pairings: Sequence[Pairing]) -> dict[str, tuple[str | None, ...]]:
    """Pairing id -> slots."""
    return {p.id: p.slots for p in pairings}


def play_out(fmt: Any, state: Any, choose: Chooser = better_seed_wins, limit: int = 1000) -> Any:
    """Record a result for the first ready pairing until the event is complete."""
    for _ in range(limit):
        if fmt.is_complete(state):
            return state
        ready = fmt.ready(state)
        assert ready, "an unfinished event must have a ready pairing"
        state = fmt.record(state, choose(ready[0]))
    raise AssertionError("the event did not finish")


def ranks(fmt: Any, state: Any) -> dict[str, int]:
    """Entrant -> rank."""
    return {row.entrant: row.rank for row in fmt.standings(state)}


def refused(code: str, call: Callable[..., Any], *args: Any) -> None:
    """Assert the call raises FormatError with this code."""
    with pytest.raises(FormatError) as caught:
        call(*args)
    assert caught.value.code == code, caught.value
