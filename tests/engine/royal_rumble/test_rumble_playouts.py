"""Seeded random playouts at 2, 6 and 10 seats with the invariants checked at each step.

SHOWDOWN_PLAYOUTS sets how many games in all (default 50; CI runs 1000), shared among
the seat counts in inverse proportion to the seats: a ten-seat game asks every seat at
every attack (RR-28 decision) and costs some ten times a two-seat one, so each seat count
gets about the same time (1000: 652, 217 and 130 games).
"""

from __future__ import annotations

import copy
import json
import os
import random
import re

import pytest

from engine.games.royal_rumble import RULES
from engine.games.royal_rumble.cards import ACTION_IDS, ROSTER
from engine.games.royal_rumble.state import Phase, State, Step
from engine.protocol import Event, EventKind, PendingKind

PLAYOUTS = int(os.environ.get("SHOWDOWN_PLAYOUTS", "50"))
ID = re.compile(r'"(a\d{3})"')
SEAT_COUNTS = (2, 6, 10)
VIEW_EVERY = 17  # every view of every seat is checked this often and at each phase change


def hidden_from(state: State, viewer: int | None) -> set[str]:
    """Card ids the viewer may not see: the deck, other hands, others' face-down plans."""
    hidden = set(state.deck) | set(state.withdrawn)
    for seat, p in enumerate(state.players):
        if seat != viewer:
            hidden |= set(p.hand)
            if state.phase is Phase.PLAN:
                hidden |= set(p.plan_cards())
    return hidden


def check_conservation(state: State) -> None:
    """Every Action card is in exactly one place; Signatures never in the discard pile."""
    if state.phase is Phase.SETUP:
        return
    places = list(state.deck) + state.discard + state.withdrawn
    for p in state.players:
        places += p.hand + p.plan_cards() + [c for c in p.damage if not c.startswith("sig_")]
    if state.current is not None and state.step in (Step.DEFEND, Step.INTERVENE):  # not hit yet
        places += [c for c in (state.current.card, state.current.boost)
                   if c and not c.startswith("sig_")]
    assert sorted(places) == sorted(ACTION_IDS), (len(places), state.phase, state.step)
    sigs = [c for c in state.box] + [p.signature for p in state.players if p.signature]
    assert len(sigs) == len(set(sigs))


def check_views(state: State) -> None:
    for viewer in [*range(state.n), None]:
        text = json.dumps(RULES.view(state, viewer))
        shown = set(ID.findall(text))
        assert not shown & hidden_from(state, viewer), (viewer, shown & hidden_from(state, viewer))
        assert not any(f'"{key}"' in text for key in state.reserve)


def playout(seed: int, n: int, forfeits: bool = False) -> None:
    """`forfeits`: now and then a seat forfeits (at three seats or more), at any step."""
    rng = random.Random(seed)
    options = {"round_limit": 40}
    state = RULES.start(options, n)
    log: list[Event] = []
    check_views(state)
    while True:
        pending = RULES.pending(state)
        if pending.kind is PendingKind.END:
            break
        assert len(log) < RULES.spec.longest_game
        if pending.kind is PendingKind.CHANCE:
            event = Event.chance(RULES.sample_chance(state, rng))
        elif forfeits and rng.random() < 0.02 and at_table(state):
            event = Event.forfeit(rng.choice(at_table(state)))
        else:
            for seat in pending.seats:
                assert RULES.legal_actions(state, seat), (seat, state.step)
            seat = pending.seats[0]
            event = Event.decision(seat, rng.choice(RULES.legal_actions(state, seat)))
        snapshot = copy.deepcopy(state) if len(log) % 29 == 0 else None
        after = RULES.apply(state, event)
        if snapshot is not None:
            assert snapshot == state, "apply mutated its input"
        if (len(log) % VIEW_EVERY == 0 or after.phase is not state.phase
                or event.kind is EventKind.FORFEIT):
            check_views(after)
        if event.kind is EventKind.FORFEIT:
            assert f"Seat {event.seat + 1} forfeited and is out." in RULES.narrate(state, event)
        assert not set(forfeited(after)) & set(RULES.pending(after).seats)
        for viewer in (event.seat, (event.seat or 0) + 1, None, *forfeited(after)):
            viewer = viewer % n if viewer is not None else None
            shown = set(ID.findall(json.dumps(RULES.redact(state, event, viewer))))
            # A card hidden before and after the event (a face-down plan) never shows.
            assert not shown & hidden_from(state, viewer) & hidden_from(after, viewer), event
        check_conservation(after)
        log.append(event)
        state = after
    replayed = RULES.replay(options, n, (Event.from_json(e.to_json()) for e in log))
    assert replayed == state
    result = RULES.result(state)
    assert result is not None and len(result.placements) == n
    assert min(result.placements) == 1
    assert all(set(f) >= {"placards", "bragging_rights"} for f in result.figures.values())
    assert sum(f["placards"] for f in result.figures.values()) <= 3 * n
    assert set(state.players[0].legends_used) <= set(ROSTER)


def forfeited(state: State) -> list[int]:
    return [seat for seat, p in enumerate(state.players) if p.forfeited]


def at_table(state: State) -> list[int]:
    """The seats a forfeit would eliminate now."""
    return [seat for seat in state.at_table() if RULES.forfeit_eliminates(state, seat)]


@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_random_playouts_keep_every_invariant(n: int) -> None:
    """RR-11/14/19/36/37 and the contract: conservation, hiding before the reveal, replay,
    liveness, termination within spec.longest_game."""
    share = max(1, round(PLAYOUTS / n / sum(1 / k for k in SEAT_COUNTS)))
    for seed in range(share):
        playout(seed, n)


@pytest.mark.parametrize("n", (3, 6))
def test_random_playouts_with_forfeits_keep_every_invariant(n: int) -> None:
    """The forfeit decision (package docstring): a seat forfeiting at any step leaves the
    cards conserved, hides its hand and face-down plan, is never asked again, and the
    game still ends (RR-55/56) and replays to the same state."""
    for seed in range(max(1, PLAYOUTS // 5)):
        playout(seed, n, forfeits=True)
