"""Hidden information, generically, in all five games: what a viewer reads depends only
on what it may know.

At every step of random playouts (their seeds drawn by hypothesis) the event that
happened is set beside others that could have happened in its place (another legal
decision of the same seat, another draw of the chance node). Where a viewer's view after
both is the same and so is the narration, the viewer cannot tell them apart, so its
history entry must be the same too. The narration, which every viewer reads, must be the
same while a decision made at once by several seats is still open (nothing is revealed
before the last of them). And in every state a seat cannot tell from the real one
(`determinize`) its view is the same, and so are who is asked (every page shows it:
being asked must not tell what a hand holds, RR-28, SS-097) and its own legal actions.

What the narration tells is public (a die roll, a choice made in the open), whatever the
view keeps of it. SHOWDOWN_PLAYOUTS sets the size (default 50 gives one playout a table;
CI's 1000 gives twenty).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import registry
from engine.bots import RandomBot
from engine.playout import next_event
from engine.protocol import Event, EventKind, IllegalAction, PendingKind
from tests.engine.test_refusals_tell_nothing import CASES

PLAYOUTS = max(1, int(os.environ.get("SHOWDOWN_PLAYOUTS", "50")) // 50)  # seeds a table
STEPS = 300  # events a playout
OTHERS = 4  # events set beside each real one


def others_in_its_place(rules: Any, state: Any, event: Event,
                        rng: random.Random) -> list[Event]:
    """Other events that could stand where `event` stands, each legal in `state`."""
    if event.kind is EventKind.CHANCE:
        found = [Event.chance(rules.sample_chance(state, random.Random(rng.random())))
                 for _ in range(OTHERS)]
    else:
        assert event.seat is not None
        legal = rules.legal_actions(state, event.seat)
        found = [Event.decision(event.seat, a) for a in rng.sample(legal, min(OTHERS, len(legal)))]
    return [e for e in found if e.to_json() != event.to_json()]


def check_told_alike(rules: Any, n: int, state: Any, event: Event,
                     rng: random.Random) -> int:
    """Compare `event` with the others in its place for every viewer but its author."""
    after, compared = rules.apply(state, event), 0
    for other in others_in_its_place(rules, state, event, rng):
        try:
            after_other = rules.apply(state, other)
        except IllegalAction:
            continue
        for viewer in [None, *(s for s in range(n) if s != event.seat)]:
            if rules.view(after, viewer) != rules.view(after_other, viewer):
                continue
            told = rules.narrate(state, event), rules.narrate(state, other)
            if viewer is None and still_open(rules, state, after, after_other):
                assert told[0] == told[1], (event, other)
            if told[0] == told[1]:
                compared += 1
                assert rules.redact(state, event, viewer) == \
                    rules.redact(state, other, viewer), (viewer, event, other)
    return compared


def still_open(rules: Any, state: Any, *afters: Any) -> bool:
    """Whether a decision made at once by several seats waits on others after both."""
    before = rules.pending(state)
    return all(rules.pending(after).kind is PendingKind.DECISION
               and 0 < len(rules.pending(after).seats) < len(before.seats)
               and set(rules.pending(after).seats) < set(before.seats) for after in afters)


@pytest.mark.parametrize("case", sorted(CASES))
@settings(max_examples=PLAYOUTS, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_viewer_reads_the_same_of_events_it_cannot_tell_apart(case: str, seed: int) -> None:
    game, options, n = CASES[case]
    rules = registry.get_rules(game)
    rng, bots = random.Random(seed), [RandomBot()] * n
    state, compared = rules.start(options, n), 0
    for step in range(STEPS):
        if rules.pending(state).kind is PendingKind.END:
            break
        event = next_event(rules, state, bots, rng)
        assert event is not None
        compared += check_told_alike(rules, n, state, event, rng)
        pending = rules.pending(state)
        for seat in range(n):
            world = rules.determinize(state, seat, random.Random(step))
            assert rules.view(world, seat) == rules.view(state, seat), (seat, step)
            assert rules.pending(world).to_json() == pending.to_json(), (seat, step)
            if seat in pending.seats:
                assert rules.legal_actions(world, seat) == \
                    rules.legal_actions(state, seat), (seat, step)
        state = rules.apply(state, event)
    assert compared > 0
