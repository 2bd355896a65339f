"""Determinization against Superstar Showdown's hidden information (issue #9, item 3).

Hidden (SS-016, SS-018, SS-012/SS-007, SS-133, SS-148): a side's hand and face-down
spots from the other team, every deck's order (bench decks too) from everyone, and in an
Event a team's face-down Send In until both have chosen. Teammates (`state.teams`)
share what they see. Over seeded random playouts, Core Rules and Full Card Events with
two and four seats, each sampled state is determinized for every seat and checked:

(a) the seat's view of the determinized state equals its view of the real one;
(b) the hidden parts are really resampled: several rng seeds give different rival hands
    or spots, deck orders and face-down Send Ins;
(c) conservation: every card is still in the state once, the seat's own hand, spots and
    every public pile are untouched, and each Superstar's unseen cards (hand, deck,
    face-down spots) only moved among its hidden places;
(d) the seat's legal actions are the same, and so is who is asked: a rival is asked to
    Reverse on the face-up cards alone (SS-097..SS-100), whatever its resampled hand;
(e) the determinized state plays on: random decisions and sampled chance for a while.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from ss_helpers import C, build, do, play

from engine.bots import RandomBot
from engine.games.superstar_showdown import RULES
from engine.games.superstar_showdown.cards import CardType
from engine.games.superstar_showdown.state import Phase, Side, State
from engine.playout import play_match, play_on
from engine.protocol import Event

SEEDS = range(6)
EVERY = 7  # check every seventh state of a playout
ATTEMPTS = 8  # rng seeds tried where the hidden parts must differ
SPOT = 3  # ... at every third check
PLAY_ON = 25  # events played on a determinized state
RANDOM = [RandomBot()] * RULES.spec.max_seats


def all_cards(state: State) -> Counter[str]:
    """Every card id anywhere in the state, with its multiplicity."""
    cards: list[str] = []
    for side in state.sides:
        cards += side.deck + side.hand + side.discard + side.on_board() + side.performance
        cards += [c for m in side.bench for c in m.deck + m.discard]
    return Counter(cards)


def unseen(side: Side) -> Counter[str]:
    """The cards of a side the other team cannot place: hand, deck, face-down spots."""
    return Counter(side.hand + side.deck + [c for c in side.spots if c])


def public_piles(side: Side) -> Any:
    """Everything of a side that every seat sees, as it is."""
    return (side.discard, side.stacks, side.extras, side.performance, side.pos,
            [(m.superstar, m.pos, sorted(m.deck), m.discard) for m in side.bench])


def hidden_part(state: State, team: int) -> Any:
    """What a determinization for `team` may change."""
    rival = state.sides[1 - team]
    return (rival.hand, rival.spots, rival.deck, state.sides[team].deck,
            [m.deck for side in state.sides for m in side.bench], state.send_in[1 - team])


def check(state: State, seat: int, rng: random.Random, stats: Counter[str]) -> None:
    """(a)-(e) for one seat at one state."""
    stats["checks"] += 1
    team = state.teams[seat]
    guess = RULES.determinize(state, seat, random.Random(rng.random()))
    assert RULES.view(guess, seat) == RULES.view(state, seat)  # (a)
    assert all_cards(guess) == all_cards(state)  # (c)
    mine, theirs = state.sides[team], state.sides[1 - team]
    assert guess.sides[team].hand == mine.hand and guess.sides[team].spots == mine.spots
    assert sorted(guess.sides[team].deck) == sorted(mine.deck)
    assert [c is None for c in guess.sides[1 - team].spots] == [c is None for c in theirs.spots]
    assert len(guess.sides[1 - team].hand) == len(theirs.hand)
    for t in (0, 1):
        assert unseen(guess.sides[t]) == unseen(state.sides[t])
        assert public_piles(guess.sides[t]) == public_piles(state.sides[t])
    assert guess.send_in[team] == state.send_in[team]
    for s in range(len(state.teams)):  # (d)
        if state.teams[s] == team:
            assert RULES.legal_actions(guess, s) == RULES.legal_actions(state, s)
        elif state.phase is Phase.REVERSAL and s in RULES.pending(state).seats:
            stats["reversal"] += 1  # asked whatever its hand holds (SS-097..SS-100)
            assert {"type": "no_reverse"} in RULES.legal_actions(guess, s)
    assert RULES.pending(guess).seats == RULES.pending(state).seats
    hidden = len(unseen(theirs)) >= 4 and (theirs.hand or any(theirs.spots))
    if stats["checks"] % SPOT == 0 and hidden:  # (b)
        stats["hidden"] += 1
        seen = {repr(hidden_part(RULES.determinize(state, seat, random.Random(k)), team))
                for k in range(ATTEMPTS)}
        assert len(seen) > 1, "the hidden cards are never resampled"
    if state.phase is Phase.SEND_IN and state.send_in[1 - team] is not None:
        stats["send_in"] += 1
        picks = {tuple(RULES.determinize(state, seat, random.Random(k)).send_in[1 - team] or ())
                 for k in range(ATTEMPTS)}
        assert len(picks) > 1, "the rival's face-down Send In is never resampled"
    play_on(RULES, guess, RANDOM, rng, PLAY_ON)  # (e)


def run(options: dict[str, Any], n_seats: int, seed: int, every: int = EVERY) -> Counter[str]:
    """One seeded random playout with the checks on every `every`-th state."""
    stats: Counter[str] = Counter()
    rng = random.Random(seed * 7919)

    def on_event(state: State, event: Event) -> None:
        stats["events"] += 1
        chosen = state.phase is Phase.SEND_IN and state.send_in != [None, None]
        if stats["events"] % every and not chosen and state.phase is not Phase.REVERSAL:
            return
        for seat in range(n_seats):
            check(state, seat, rng, stats)

    play_match(RULES, [RandomBot()] * n_seats, random.Random(seed), options, on_event)
    return stats


@pytest.mark.parametrize("seed", SEEDS)
def test_core_rules_determinize_resamples_only_what_the_seat_cannot_see(seed: int) -> None:
    """Core Rules, two seats: hands, spots and decks (SS-012, SS-016, SS-018)."""
    stats = run({}, 2, seed, every=3)
    assert stats["hidden"] > 10 and stats["reversal"] > 0


@pytest.mark.parametrize(("n_seats", "seed"), [(2, 0), (2, 1), (4, 2), (4, 3)])
def test_event_determinize_resamples_only_what_the_team_cannot_see(n_seats: int,
                                                                  seed: int) -> None:
    """A Full Card Event: teammates share a view, bench decks and a rival team's
    face-down Send In are resampled too (SS-114, SS-133, SS-148)."""
    stats = run({"event": "full_card"}, n_seats, seed, every=25)
    assert stats["hidden"] > 10 and stats["send_in"] >= 1


def test_a_hit_the_target_cannot_pay_keeps_its_block_in_the_redealt_hand() -> None:
    """SS-071/SS-008: a target hit for more cards than its hand, deck and discard hold is
    Knocked Out at once unless it holds a Block, so such a hit tells the table the hand
    holds one: every determinized state keeps it, gives the target a legal action and
    agrees with the determinizing seat's view."""
    slam = C("Big Slam", "slam", "Attack 4")
    hold = C("Hold", "grapple", "Attack 1")
    guard = C("Guard", "block", "Kick Out")
    state = build([slam] * 6, [guard, hold, hold, hold], blue_deck=[hold],
                  red_pos=(4, 4), blue_pos=(4, 5))
    blue = state.sides[1]
    state.sides[0].performance, blue.deck = blue.deck[1:], blue.deck[:1]  # Given Up before
    state = play(state, state.sides[0].hand[:3], blue.hand[1:4])  # Blue keeps the Block
    state = do(state, 0, {"type": "resolve", "action": "attack"})
    target = state.sides[1]
    assert state.phase is Phase.HIT and state.hit is not None
    assert len(target.hand) + len(target.deck) + len(target.discard) < state.hit.power
    assert RULES.legal_actions(state, 1) == [{"type": "block", "card": "b01"}]
    for k in range(60):
        for seat in (0, 1):
            guess = RULES.determinize(state, seat, random.Random(k))
            assert RULES.view(guess, seat) == RULES.view(state, seat)
            assert RULES.pending(guess).seats == (1,)
            assert RULES.legal_actions(guess, 1), (seat, k, guess.sides[1].hand)
            assert any(guess.card(c).type is CardType.BLOCK for c in guess.sides[1].hand)
