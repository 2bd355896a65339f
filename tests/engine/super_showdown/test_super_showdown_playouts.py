"""Seeded random playouts: replay, liveness, conservation, no leaks, termination.

SHOWDOWN_PLAYOUTS sets the number of games (default 50; CI sets 1000).
"""

from __future__ import annotations

import copy
import os
import random

import pytest

from engine.games.super_showdown import RULES
from engine.games.super_showdown.state import SEATS, Phase, State
from engine.protocol import Event, PendingKind, replay_json

PLAYOUTS = int(os.environ.get("SHOWDOWN_PLAYOUTS", "50"))
ALL_IDS = sorted(RULES.cards.ids)


def _strings(value) -> set[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *(_strings(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(set(), *(_strings(v) for v in value))
    return set()


def _hidden_from(state: State, viewer: int | None) -> set[str]:
    """Card ids `viewer` must not see: other hands and unrevealed face-down cards."""
    hidden: set[str] = set()
    for seat in SEATS:
        if seat == viewer:
            continue
        hidden |= set(state.hands[seat])
        if state.played[seat] and not state.revealed:
            hidden.add(state.played[seat])
    return hidden


def _labels(ids: set[str]) -> set[str]:
    return {RULES.cards[c].label for c in ids}


def _check_state(state: State) -> None:
    """Liveness and conservation at one step."""
    pending = RULES.pending(state)
    if pending.kind is PendingKind.DECISION:
        for seat in pending.seats:
            assert RULES.legal_actions(state, seat), "a pending seat has no legal action"
    for seat in SEATS:
        if seat not in pending.seats:
            assert RULES.legal_actions(state, seat) == []
    held = _held(state)
    if state.phase is Phase.DEAL:
        assert held == []
    else:
        assert held == ALL_IDS, "the 18 cards are not all accounted for"


def _held(state: State) -> list[str]:
    """Every card in hands, face down and on the piles."""
    return sorted([*state.hands[0], *state.hands[1], *(c for c in state.played if c),
                   *state.victory, *state.defeat])


def _check_views(state: State) -> None:
    """No view holds another seat's hand or unrevealed card."""
    for viewer in (0, 1, None):
        leaked = _hidden_from(state, viewer) & _strings(RULES.view(state, viewer))
        assert not leaked, f"view of {viewer} leaks {leaked}"


def _check_event(before: State, after: State, event: Event) -> None:
    """Redaction and narration of one event leak nothing still hidden."""
    for viewer in (0, 1, None):
        hidden = _hidden_from(before, viewer) | _hidden_from(after, viewer)
        if event.action and event.action.get("type") == "play_card" and event.seat != viewer:
            hidden.add(event.action["card"])
        leaked = hidden & _strings(RULES.redact(before, event, viewer))
        assert not leaked, f"redact for {viewer} leaks {leaked}"
    public_hidden = _hidden_from(after, None)
    told = " ".join(RULES.narrate(before, event))
    assert not any(label in told for label in _labels(public_hidden)), told


def _playout(seed: int) -> None:
    rng = random.Random(seed)
    options = {"best_of": 3 if seed % 3 == 0 else 1}
    state = RULES.start(options, 2)
    log: list[dict] = []
    while not RULES.pending(state).is_over:
        _check_state(state)
        pending = RULES.pending(state)
        if pending.kind is PendingKind.CHANCE:
            event = Event.chance(RULES.sample_chance(state, rng))
        else:
            seat = rng.choice(pending.seats)
            event = Event.decision(seat, rng.choice(RULES.legal_actions(state, seat)))
        snapshot = copy.deepcopy(state)
        after = RULES.apply(state, event)
        assert state == snapshot, "apply changed the state it was given"
        _check_event(state, after, event)
        state = after
        log.append(event.to_json())
        assert len(log) <= RULES.spec.longest_game
        replayed = replay_json(RULES, options, 2, log)
        assert replayed == state
        assert RULES.view(replayed, seat_or_none(seed, len(log))) == \
            RULES.view(state, seat_or_none(seed, len(log)))
        _check_views(state)
        if state.phase is Phase.PLAY and len(log) % 2:
            _check_determinize(state, rng)
    result = RULES.result(state)
    assert result is not None and sorted(result.placements) in ([1, 1], [1, 2])


def seat_or_none(seed: int, step: int) -> int | None:
    """Rotate the viewer checked after each step."""
    return (None, 0, 1)[(seed + step) % 3]


def _check_determinize(state: State, rng: random.Random) -> None:
    """A determinized state looks the same to the seat it was made for."""
    for seat in SEATS:
        guess = RULES.determinize(state, seat, rng)
        assert RULES.view(guess, seat) == RULES.view(state, seat)
        assert _held(guess) == ALL_IDS


@pytest.mark.parametrize("block", range(10))
def test_seeded_random_playouts_keep_every_invariant(block):
    """Random legal play ends every game, replays exactly and never leaks a hidden card."""
    for seed in range(block, PLAYOUTS, 10):
        _playout(seed)
