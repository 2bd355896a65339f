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
    while True:
        pending = rules.pending(state)
        if pending.kind is PendingKind.END:
            return state, log
        if pending.kind is PendingKind.CHANCE:
            event = Event.chance(rules.sample_chance(state, rng))
        else:
            seat = pending.seats[0]
            event = Event.decision(seat, bots[seat].choose(rules, state, seat, rng))
        if on_event is not None:
            on_event(state, event)
        state = rules.apply(state, event)
        log.append(event)
        if len(log) > rules.spec.longest_game:
            raise RunawayMatch(f"{rules.spec.key}: a match ran past {rules.spec.longest_game} "
                               "events")
