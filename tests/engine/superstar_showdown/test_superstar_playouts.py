"""Seeded random playouts with the invariants checked at every step.

SHOWDOWN_PLAYOUTS sets how many games (default 50; CI runs 1000).
"""

from __future__ import annotations

import copy
import json
import os
import random
import re

import pytest

from engine.games.superstar_showdown import RULES
from engine.games.superstar_showdown.cards import ROSTER
from engine.games.superstar_showdown.state import State
from engine.protocol import Event, PendingKind

PLAYOUTS = int(os.environ.get("SHOWDOWN_PLAYOUTS", "50"))
KEYS = sorted(ROSTER)
ID = re.compile(r'"([rb]\d\d)"')


def hidden_from(state: State, viewer: int | None) -> set[str]:
    """Card ids the viewer may not see: rival hands, face-down spots, every deck."""
    hidden: set[str] = set()
    for seat, side in enumerate(state.sides):
        hidden |= set(side.deck)
        if seat != viewer:
            hidden |= set(side.hand) | {c for c in side.spots if c}
    return hidden


def visible_ids(payload: object) -> set[str]:
    return set(ID.findall(json.dumps(payload)))


def check_conservation(state: State) -> None:
    """SS-004/005: every card is in exactly one place; 30 per Superstar."""
    for seat, side in enumerate(state.sides):
        places = side.deck + side.hand + side.discard + side.on_board() + state.rival(seat).performance
        assert len(places) == 30 and len(set(places)) == 30, (seat, state.phase)
        assert {c[0] for c in places} == {"rb"[seat]}


def check_views(state: State) -> dict[int | None, set[str]]:
    """No view shows a card its viewer may not see; returns the ids each view shows."""
    seen = {}
    for viewer in (0, 1, None):
        text = json.dumps(RULES.view(state, viewer))
        shown = set(ID.findall(text))
        assert not shown & hidden_from(state, viewer), viewer
        seen[viewer] = shown
        if viewer is None:
            seen[-1] = text  # type: ignore[assignment]
    return seen


def playout(seed: int) -> None:
    rng = random.Random(seed)
    options = {"superstars": rng.sample(KEYS, 2) if seed % 3 else [KEYS[seed % 6]] * 2,
               "round_limit": 20 + seed % 31}  # random play rarely ends early
    state = RULES.start(options, 2)
    log: list[Event] = []
    seen = check_views(state)
    names = {c.name for deck in state.decks for c in deck}
    while True:
        pending = RULES.pending(state)
        if pending.kind is PendingKind.END:
            break
        assert len(log) < RULES.spec.longest_game
        if pending.kind is PendingKind.CHANCE:
            event = Event.chance(RULES.sample_chance(state, rng))
        else:
            for seat in pending.seats:
                assert RULES.legal_actions(state, seat), (seat, state.phase)
            seat = rng.choice(pending.seats)
            event = Event.decision(seat, rng.choice(RULES.legal_actions(state, seat)))
        snapshot = copy.deepcopy(state) if len(log) % 11 == 0 else None
        after = RULES.apply(state, event)
        if snapshot is not None:
            assert snapshot == state, "apply mutated its input"
        seen_after = check_views(after)
        for viewer in (0, 1, None):
            redacted = visible_ids(RULES.redact(state, event, viewer))
            assert redacted <= seen[viewer] | seen_after[viewer], (viewer, event)
        public = str(seen[-1]) + str(seen_after[-1])
        for line in after.journal:
            for card_name in names:
                if f'"{card_name}"' in line:  # narration names a card: it must be public
                    assert f'"name": {json.dumps(card_name)}' in public, line
        check_conservation(after)
        log.append(event)
        state, seen = after, seen_after
    replayed = RULES.replay(options, 2, (Event.from_json(e.to_json()) for e in log))
    assert replayed == state
    result = RULES.result(state)
    assert result is not None and sorted(result.placements) in ([1, 1], [1, 2])


@pytest.mark.parametrize("chunk", range(4))
def test_random_playouts_keep_every_invariant(chunk: int) -> None:
    """SS-003/004/005/007/016/018: conservation, hiding, replay, liveness, termination."""
    for seed in range(chunk, PLAYOUTS, 4):
        playout(seed)
