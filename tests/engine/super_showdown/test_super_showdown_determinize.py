"""Determinization against Super Showdown's hidden information (issue #9, item 3).

All 18 Superpower cards are dealt, nine a seat, so a seat knows its nemesis' hand as the
complement of its own and of the piles; the one thing it cannot see is which of those
cards lies face down this round (SU-09, SU-18) until the reveal. Over seeded random
best-of-three series, each sampled state is determinized for both seats and checked:

(a) the seat's view of the determinized state equals its view of the real one;
(b) the face-down card is really resampled: several rng seeds give different ones
    whenever the nemesis holds another card;
(c) conservation: every card is still in the state once, the seat's own hand and card,
    the victory and defeat piles untouched, the nemesis' cards only moved between its
    hand and its face-down card;
(d) the seat's legal actions are the same;
(e) the determinized state plays on: random decisions and sampled chance for a while.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.bots import RandomBot
from engine.games.super_showdown import RULES
from engine.games.super_showdown.state import SEATS, State
from engine.playout import play_match, play_on
from engine.protocol import Event

ATTEMPTS = 8  # rng seeds tried where the face-down card must differ
PLAY_ON = 15  # events played on a determinized state
RANDOM = [RandomBot()] * RULES.spec.max_seats


def all_cards(state: State) -> Counter[str]:
    """Every card id anywhere in the state, with its multiplicity."""
    played = [c for c in state.played if c is not None]
    return Counter([*state.hands[0], *state.hands[1], *played, *state.victory, *state.defeat])


def check(state: State, seat: int, rng: random.Random) -> bool:
    """(a)-(e) for one seat at one state; whether a face-down card was hidden from it."""
    other = 1 - seat
    guess = RULES.determinize(state, seat, random.Random(rng.random()))
    assert RULES.view(guess, seat) == RULES.view(state, seat)  # (a)
    assert all_cards(guess) == all_cards(state)  # (c)
    assert guess.hands[seat] == state.hands[seat] and guess.played[seat] == state.played[seat]
    assert (guess.victory, guess.defeat) == (state.victory, state.defeat)
    assert Counter([*guess.hands[other], guess.played[other]]) == \
        Counter([*state.hands[other], state.played[other]])
    assert RULES.legal_actions(guess, seat) == RULES.legal_actions(state, seat)  # (d)
    hidden = state.played[other] is not None and not state.revealed
    if hidden and state.hands[other]:  # (b)
        seen = {RULES.determinize(state, seat, random.Random(k)).played[other]
                for k in range(ATTEMPTS)}
        assert len(seen) > 1, "the face-down card is never resampled"
    elif not hidden:
        assert guess == state  # nothing is hidden from the seat
    play_on(RULES, guess, RANDOM, rng, PLAY_ON)  # (e)
    return hidden


def run(seed: int) -> int:
    """One seeded random best-of-three series, every state checked for both seats; how
    often a face-down card was hidden."""
    rng = random.Random(seed * 7919)
    hidden = 0

    def on_event(state: State, event: Event) -> None:
        nonlocal hidden
        for seat in SEATS:
            hidden += check(state, seat, rng)

    play_match(RULES, [RandomBot()] * 2, random.Random(seed), {"best_of": 3}, on_event)
    return hidden


@pytest.mark.parametrize("block", range(3))
def test_determinize_resamples_only_the_face_down_card(block: int) -> None:
    """Every state of ten random series, both seats."""
    assert sum(run(seed) for seed in range(block, 30, 3)) > 20
