"""Play a match to its end in memory: chance drawn from a seeded generator, bots decide.

The one loop that bot benchmarks, balance runs, simulations and tests share; the match
service does the same over the database, one stored event at a time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.bots import Bot
from engine.protocol import BaseRules, Event, PendingKind


class RunawayMatch(RuntimeError):
    """A match went past its game's `longest_game`: a bug in the rules."""


def play_match(
    rules: BaseRules[Any],
    bots: Sequence[Bot],
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
    on_event: Callable[[Any, Event], None] | None = None,
) -> tuple[Any, list[Event]]:
    """Play one match to its end with one bot per seat; the final state and the log.

    Simultaneous decisions are taken seat by seat in seat order (each bot sees only its
    own view, so the order changes nothing it knows). `on_event(state_before, event)` is
    called before each event is applied, for checks along the way.
    """
    state = rules.start(options or {}, len(bots))
    log: list[Event] = []
    while (event := next_event(rules, state, bots, rng)) is not None:
        if on_event is not None:
            on_event(state, event)
        state = rules.apply(state, event)
        log.append(event)
        if len(log) > rules.spec.longest_game:
            raise RunawayMatch(f"{rules.spec.key}: a match ran past {rules.spec.longest_game} "
                               "events")
    return state, log


def play_on(rules: BaseRules[Any], state: Any, bots: Sequence[Bot], rng: random.Random,
            events: int) -> Any:
    """Play at most `events` more events from `state` (one bot per seat); the state reached."""
    for _ in range(events):
        event = next_event(rules, state, bots, rng)
        if event is None:
            break
        state = rules.apply(state, event)
    return state


def next_event(rules: BaseRules[Any], state: Any, bots: Sequence[Bot],
               rng: random.Random) -> Event | None:
    """The event that comes next (chance drawn from `rng`, or the first pending seat's bot's
    decision); None when the match is over."""
    pending = rules.pending(state)
    if pending.kind is PendingKind.END:
        return None
    if pending.kind is PendingKind.CHANCE:
        return Event.chance(rules.sample_chance(state, rng))
    seat = pending.seats[0]
    return Event.decision(seat, bots[seat].choose(rules, state, seat, rng))
