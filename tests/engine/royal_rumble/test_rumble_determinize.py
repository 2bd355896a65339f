"""Determinization against the Royal Rumble's hidden information (issue #9, item 3).

Hidden (RR-09..RR-11, RR-15, RR-17, RR-42): every hand from everyone else, the deck's
order, the face-down reserve Legends (which of the box's Legends were chosen at all,
when fewer than ten play), and the face-down Attack and Boost of a plan until the
Reveal (their target and whether a Boost lies there are public, RR-16). Over seeded
random games at 2, 4 and 7 seats, each sampled state is determinized for every seat:

(a) the seat's view of the determinized state equals its view of the real one;
(b) the hidden parts are really resampled: several rng seeds give different hands,
    deck orders, face-down plans and reserve Legends;
(c) conservation: every Action card is still in the state once, the seat's own hand
    and plan and every public pile untouched, the others' hands keep their sizes, a
    face-down Attack stays an Attack and a Boost a Boost, the reserve keeps its size and
    holds only Legends nobody has seen;
(d) the seat's legal actions are the same; being asked to Defend, intervene or Hold On
    tells nothing about a hand (RR-28 decision: every seat the rules let answer is asked,
    whatever it holds), so an asked rival's resampled hand is not made to hold an answer:
    some come out with the decline as their only action;
(e) the determinized state plays on: random decisions and sampled chance for a while.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from rr_helpers import Table, plan

from engine.bots import RandomBot
from engine.games.royal_rumble import RULES
from engine.games.royal_rumble.cards import ROSTER, Kind, card
from engine.games.royal_rumble.state import Phase, Player, State, Step
from engine.playout import play_match, play_on
from engine.protocol import Event

EVERY = 11  # check every eleventh state of a game
EVERY_ASKED = 4  # and every fourth one where a seat is asked to Defend, intervene or Hold On
ATTEMPTS = 8  # rng seeds tried where the hidden parts must differ
SPOT = 3  # ... at every third check
PLAY_ON = 25  # events played on a determinized state
RANDOM = [RandomBot()] * RULES.spec.max_seats
ASKED = (Step.DEFEND, Step.INTERVENE, Step.HOLD_ON)  # asked whatever it holds (RR-28)


def all_cards(state: State) -> Counter[str]:
    """Every Action and Signature card id anywhere in the state, with its multiplicity."""
    cards = state.deck + state.discard + state.box
    for p in state.players:
        cards += p.hand + p.plan_cards() + p.damage + ([p.signature] if p.signature else [])
    if state.current is not None:
        cards += [c for c in (state.current.card, state.current.boost) if c]
    return Counter(cards)


def seen_legends(state: State) -> set[str]:
    """Legends that have been face up: every one that entered the ring."""
    return {k for p in state.players for k in p.legends_used + p.placards}


def public_part(p: Player) -> Any:
    """Everything of a seat that every seat sees, as it is."""
    return (p.legend, p.signature, p.damage, p.strain, p.placards, p.legends_used, p.target,
            p.planned, p.breather, p.fallen, p.out, p.attack is None, p.boost is None)


def hidden_part(state: State, seat: int) -> Any:
    """What a determinization for `seat` may change."""
    return (state.deck, state.reserve,
            [(p.hand, p.attack, p.boost) for o, p in enumerate(state.players) if o != seat])


def check(state: State, seat: int, rng: random.Random, stats: Counter[str]) -> None:
    """(a)-(e) for one seat at one state."""
    stats["checks"] += 1
    guess = RULES.determinize(state, seat, random.Random(rng.random()))
    assert RULES.view(guess, seat) == RULES.view(state, seat)  # (a)
    assert all_cards(guess) == all_cards(state)  # (c)
    assert (guess.discard, guess.box, guess.reveal, guess.last_reveal) == \
        (state.discard, state.box, state.reveal, state.last_reveal)
    for other, (p, q) in enumerate(zip(state.players, guess.players, strict=True)):
        assert public_part(q) == public_part(p) and len(q.hand) == len(p.hand)
        if other == seat or state.phase is not Phase.PLAN:
            assert (q.attack, q.boost) == (p.attack, p.boost)
        if other == seat:
            assert q.hand == p.hand
        for slot, kind in (("attack", Kind.ATTACK), ("boost", Kind.BOOST)):
            if getattr(q, slot) is not None:
                assert card(getattr(q, slot)).kind is kind
    assert len(guess.reserve) == len(state.reserve)
    assert not set(guess.reserve) & seen_legends(state)
    assert set(guess.reserve) <= set(ROSTER)
    assert len(set(guess.reserve)) == len(guess.reserve)
    pending = RULES.pending(state)
    for s in pending.seats:
        if s == seat:  # (d)
            assert RULES.legal_actions(guess, s) == RULES.legal_actions(state, s)
        elif state.step in ASKED:
            stats["asked"] += 1
            stats["asked_empty"] += len(RULES.legal_actions(guess, s)) == 1
    if stats["checks"] % SPOT == 0 and state.phase is not Phase.SETUP:  # (b)
        stats["hidden"] += 1
        seen = {repr(hidden_part(RULES.determinize(state, seat, random.Random(k)), seat))
                for k in range(ATTEMPTS)}
        assert len(seen) > 1, "the hidden cards are never resampled"
        if state.reserve and len(ROSTER) - len(seen_legends(state)) > len(state.reserve):
            stats["reserve"] += 1
            picks = {tuple(sorted(RULES.determinize(state, seat, random.Random(k)).reserve))
                     for k in range(ATTEMPTS)}
            assert len(picks) > 1, "the reserve Legends are never resampled"
    play_on(RULES, guess, RANDOM, rng, PLAY_ON)  # (e)


def run(n_seats: int, seed: int, stats: Counter[str]) -> None:
    """One seeded random game with the checks along the way."""
    rng = random.Random(seed * 7919)

    def on_event(state: State, event: Event) -> None:
        stats["events"] += 1
        if (stats["events"] % EVERY == 0
                or (state.step in ASKED and stats["events"] % EVERY_ASKED == 0)):
            for seat in range(n_seats):
                check(state, seat, rng, stats)

    play_match(RULES, [RandomBot()] * n_seats, random.Random(seed), {"round_limit": 15},
               on_event)


@pytest.mark.parametrize("n_seats", [2, 4, 7])
def test_determinize_resamples_only_what_the_seat_cannot_see(n_seats: int) -> None:
    """Hands, deck, face-down plans and the reserve are resampled; nothing else moves."""
    stats: Counter[str] = Counter()
    for seed in range(2):
        run(n_seats, seed, stats)
    assert stats["hidden"] > 10 and stats["reserve"] > 5
    assert stats["asked"] > 0 and stats["asked_empty"] > 0, stats  # (d) no rejection


def test_a_rivals_face_down_plan_is_resampled_during_plan() -> None:
    """RR-15/RR-17/RR-42: seat 0's Attack and Boost lie face down until the Reveal, so a
    determinization for seat 1 draws them anew (an Attack stays an Attack, a Boost a
    Boost); only the seat's own plan is kept as it is."""
    s = Table().build(["ironhide", "vesper", "bramble"],
                      {0: ["Body Slam", "Adrenaline Rush"], 1: ["Snap Kick"]})
    s = plan(s, 0, "Body Slam", 1, "Adrenaline Rush")
    s = plan(s, 1, "Snap Kick", 0)
    assert s.phase is Phase.PLAN and s.players[0].planned
    mine = (s.players[1].attack, s.players[1].boost)
    plans = set()
    for k in range(ATTEMPTS):
        guess = RULES.determinize(s, 1, random.Random(k))
        p = guess.players[0]
        assert p.attack is not None and card(p.attack).kind is Kind.ATTACK
        assert p.boost is not None and card(p.boost).kind is Kind.BOOST
        assert (guess.players[1].attack, guess.players[1].boost) == mine
        plans.add((p.attack, p.boost))
    assert len(plans) > 1, "seat 0's face-down plan is never resampled"
