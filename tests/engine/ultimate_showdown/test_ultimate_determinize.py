"""Determinization against Ultimate Showdown's hidden information (issue #9, item 3).

Hidden (US-05, US-11, US-14..US-20, US-21..US-24, US-43): the Contender deck and the
Challenge deck's unknown part, every hand but your own, who played which Contenders face
down into the boxes (and so who owns each slot, but your own, and the Box B leftovers),
secret votes until everyone has voted and bets until the round is scored. Over seeded
random games at 3, 5 and 8 seats, each sampled state is determinized for every seat:

(a) the seat's view of the determinized state equals its view of the real one;
(b) the hidden parts are really resampled: several rng seeds give different hands,
    decks, boxes, owners, ballots or bets;
(c) conservation: every Contender and Challenge card is still in the state, as often;
    the seat's own hand, boxes, ballots, bets and slots are untouched, every public
    pile and revealed vote as it was, a vote or bet not yet cast stays uncast; the
    boxes, owners and Box B leftovers agree (each seat's hidden pile, less this round's
    leftovers, keeps its size: the discards it made are public counts);
(d) the seat's legal actions are the same;
(e) the determinized state plays on: random decisions and sampled chance for a while.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from engine.bots import RandomBot
from engine.games.ultimate_showdown import RULES
from engine.games.ultimate_showdown.state import Phase, State
from engine.playout import play_match, play_on
from engine.protocol import Event

EVERY = 3  # check every third state of a game
ATTEMPTS = 8  # rng seeds tried where the hidden parts must differ
SPOT = 3  # ... at every third check
PLAY_ON = 25  # events played on a determinized state
RANDOM = [RandomBot()] * RULES.spec.max_seats


def contenders(state: State) -> Counter[str]:
    """Every Contender id anywhere in the state, each place once (a played Contender
    stays in its box when it is dealt to a slot or, a Box B leftover, to its owner's
    hidden discard pile, until the round ends)."""
    hidden = [c for h in state.hidden_discard for c in h]
    placed = {*state.slots, *hidden}
    boxes = [c for b in state.boxes if b for c in (*b[0], *b[1]) if c not in placed]
    return Counter([*state.deck, *(c for h in state.hands for c in h), *state.discard,
                    *hidden, *boxes, *state.slots, *state.kept])


def challenges(state: State) -> Counter[str]:
    """Every Challenge card anywhere in the state."""
    sudden = [state.sudden.card] if state.sudden else []
    return Counter([*state.challenge_deck, *state.challenge_discard, *state.drawn, *sudden])


def own_part(state: State, seat: int) -> Any:
    """What the seat itself put down or holds."""
    def at(values: tuple[Any, ...]) -> Any:
        return values[seat] if values else None

    return (at(state.hands), at(state.boxes), at(state.hidden_discard), at(state.bets),
            at(state.ballots), at(state.challenge_ballots),
            state.sudden.ballots[seat] if state.sudden else None,
            [i for i, o in enumerate(state.owners) if o == seat],
            [[i for i, o in enumerate(r.owners) if o == seat] for r in state.history])


def public_part(state: State) -> Any:
    """What every seat sees, as it is."""
    cast = (tuple(b is None for b in state.ballots),
            tuple(b is None for b in state.challenge_ballots),
            tuple(b is None for b in state.sudden.ballots) if state.sudden else None,
            tuple(tuple(b is None for b in bet) for bet in state.bets),
            tuple(b is None for b in state.boxes))
    sudden = state.sudden and (state.sudden.tied, state.sudden.orange, state.sudden.blue,
                               state.sudden.queue, state.sudden.card, state.sudden.votes)
    # A scored round shows only the Champion's owner (US-20).
    history = tuple(replace(r, owners=(r.owners[r.champion - 1],)) for r in state.history)
    return (state.phase, state.round, state.pow_holder, state.discard, state.drawn,
            state.choices, state.challenge, state.challenge_vote, state.slots, state.winners,
            state.votes, state.kept, history, state.discarded, state.challenge_discard,
            tuple(len(h) for h in state.hands), cast, sudden)


def hidden_part(state: State) -> Any:
    return (state.deck, state.hands, state.boxes, state.owners, state.hidden_discard,
            state.ballots, state.challenge_ballots, state.bets, state.challenge_deck,
            state.sudden and state.sudden.ballots)


def leftovers(state: State, seat: int) -> list[str]:
    """The seat's Box B Contenders this round that did not reach the slots."""
    box = state.boxes[seat] if state.slots and state.boxes else None
    return [] if box is None else [c for c in box[1] if c not in state.slots]


def consistent(state: State, real: State) -> None:
    """(c) Boxes, owners and hidden piles tell one story."""
    if state.slots and None not in state.boxes:
        owner = {c: s for s, b in enumerate(state.boxes) if b for c in (*b[0], *b[1])}
        assert state.owners == tuple(owner[c] for c in state.slots)
        assert all(set(b[0]) <= set(state.slots) for b in state.boxes if b)
        if state.phase is Phase.DISCARD:
            assert state.history[-1].owners == state.owners
    for s in range(state.n):
        assert set(leftovers(state, s)) <= set(state.hidden_discard[s])
        assert (len(state.hidden_discard[s]) - len(leftovers(state, s))
                == len(real.hidden_discard[s]) - len(leftovers(real, s)))


def check(state: State, seat: int, rng: random.Random, stats: Counter[str]) -> None:
    """(a)-(e) for one seat at one state."""
    stats["checks"] += 1
    guess = RULES.determinize(state, seat, random.Random(rng.random()))
    assert RULES.view(guess, seat) == RULES.view(state, seat)  # (a)
    assert contenders(guess) == contenders(state)  # (c)
    assert challenges(guess) == challenges(state)
    assert own_part(guess, seat) == own_part(state, seat)
    assert public_part(guess) == public_part(state)
    consistent(guess, state)
    assert RULES.legal_actions(guess, seat) == RULES.legal_actions(state, seat)  # (d)
    if stats["checks"] % SPOT == 0 and state.phase not in (Phase.SETUP, Phase.OVER):  # (b)
        stats["hidden"] += 1
        seen = {repr(hidden_part(RULES.determinize(state, seat, random.Random(k))))
                for k in range(ATTEMPTS)}
        assert len(seen) > 1, "the hidden parts are never resampled"
    play_on(RULES, guess, RANDOM, rng, PLAY_ON)  # (e)


@pytest.mark.parametrize("n_seats", [3, 5, 8])
def test_determinize_resamples_only_what_the_seat_cannot_see(n_seats: int) -> None:
    """Hands, decks, boxes and owners, votes and bets are resampled; nothing else moves."""
    stats: Counter[str] = Counter()
    rng = random.Random(n_seats * 7919)

    def on_event(state: State, event: Event) -> None:
        stats["events"] += 1
        if stats["events"] % EVERY == 0 or state.phase is Phase.SUDDEN_DEATH:
            for seat in range(n_seats):
                check(state, seat, rng, stats)

    play_match(RULES, [RandomBot()] * n_seats, random.Random(n_seats), {}, on_event)
    assert stats["hidden"] > 50


def test_the_challenge_decks_unknown_order_is_resampled_and_its_known_bottom_kept(
        ut: Any) -> None:
    """US-09/US-43: the Challenge deck is shuffled face down, so no seat knows the order
    of its undrawn cards; only the used card put on its bottom is known, and stays put."""
    s = ut.play_round(ut.fresh(4))  # round 2 waits for its side choice; one card used
    assert s.round == 2 and s.phase is Phase.CHOOSE_SIDES
    bottom = s.challenge_deck[-1]
    orders = set()
    for k in range(ATTEMPTS):
        guess = RULES.determinize(s, 1, random.Random(k))
        assert sorted(guess.challenge_deck) == sorted(s.challenge_deck)
        assert guess.challenge_deck[-1] == bottom
        orders.add(guess.challenge_deck[:-1])
    assert len(orders) > 1, "the Challenge deck's order is never resampled"


def test_a_rivals_discarded_contenders_are_resampled(ut: Any) -> None:
    """US-44: a player discards Contenders from hand face down; another seat knows how
    many, not which, so a determinization for it draws them anew (and may deal a
    discarded one into a hand or the deck)."""
    s = ut.finish_round(ut.to_bets(4))
    assert s.phase is Phase.DISCARD
    gone = tuple(sorted(s.hands[0])[:2])
    s = ut.decide(s, 0, {"type": "discard", "cards": list(gone)})
    for seat in (1, 2, 3):
        s = ut.decide(s, seat, {"type": "discard", "cards": []})
    assert s.round == 2 and s.hidden_discard[0] == gone
    piles = set()
    for k in range(ATTEMPTS):
        guess = RULES.determinize(s, 1, random.Random(k))
        assert len(guess.hidden_discard[0]) == 2
        piles.add(guess.hidden_discard[0])
    assert len(piles) > 1, "seat 0's discarded Contenders are never resampled"


def test_rivals_secret_match_votes_are_resampled(ut: Any) -> None:
    """US-27: match votes are hidden in closed hands until all reveal together, so a
    seat still to vote cannot know the others' votes: a determinization draws them anew
    (a vote not yet cast stays uncast, the seat's own stays as it is)."""
    s = ut.bet_all(ut.to_bets(4), ut.default_bets(4))
    assert s.phase is Phase.MATCH and s.match == 0
    s = ut.decide(s, 0, {"type": "vote_match", "slot": 1})
    s = ut.decide(s, 1, {"type": "vote_match", "slot": 2})
    ballots = set()
    for k in range(ATTEMPTS):
        guess = RULES.determinize(s, 1, random.Random(k))
        assert guess.ballots[1] == 2 and guess.ballots[2:] == (None, None)
        assert guess.ballots[0] in (1, 2)
        ballots.add(guess.ballots[0])
    assert ballots == {1, 2}, "seat 0's secret vote is never resampled"


def test_rivals_face_down_bets_are_resampled(ut: Any) -> None:
    """US-21..US-24: Betting chips lie face down until scoring; a determinization for
    another seat draws them anew, three different chips as a player holds one of each,
    and a box not yet bet stays empty."""
    s = ut.to_bets(4)
    for box, slot in (("champion", 1), ("final", 2)):
        s = ut.decide(s, 0, {"type": "bet", "box": box, "slot": slot})
    bets = set()
    for k in range(ATTEMPTS):
        guess = RULES.determinize(s, 1, random.Random(k))
        champion, final, semi = guess.bets[0]
        assert champion is not None and final is not None and semi is None
        assert champion != final
        bets.add((champion, final))
    assert len(bets) > 1, "seat 0's face-down bets are never resampled"
