"""Determinization against The Supershow's hidden information (issue #9, item 3).

Hidden (SH-002, SH-023/024, SH-045): every hand from everyone but its owner (team-mates
too), every deck's order and content from everyone. Over seeded random playouts of
several match types, each sampled state is determinized for every seat and checked:

(a) the seat's view of the determinized state equals its view of the real one;
(b) the hidden parts are really resampled: several rng seeds give different hands of
    the others and different deck orders;
(c) conservation: every card is still in the state once, the seat's own hand and every
    public pile are untouched, and each other seat's unseen cards (hand and deck) only
    moved between its hand and its deck, hand sizes kept; a card that went under a deck
    in the seat's sight (a bury, a shown Mulligan, its own Protect) still lies there;
(d) the seat's legal actions are the same; who is asked to stop a card (its target,
    then Protecting team-mates, SH-063, or interfering bystanders, SH-069) follows from
    public facts only, so `stoppers` is exactly the real one, and an asked player's
    resampled hand need not hold a matching Stop (without one, `no_stop` is its only
    action);
(e) the determinized state plays on: random decisions and sampled chance for a while.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from supershow_helpers import build, do, legal

from engine.bots import RandomBot
from engine.games.supershow import RULES
from engine.games.supershow.state import Phase, Player, State, card_id
from engine.playout import play_match, play_on
from engine.protocol import Event

EVERY = 4  # check every fourth state of a playout
ATTEMPTS = 8  # rng seeds tried where the hidden parts must differ
SPOT = 3  # ... at every third check
PLAY_ON = 25  # events played on a determinized state
RANDOM = [RandomBot()] * RULES.spec.max_seats


def constructed() -> list[list[str]]:
    """SH-050: each default Competitor's deck built of the other's commons and its own
    Finishes."""
    from engine.games.supershow.cards import CATALOG

    ox, mira = CATALOG.competitors["ox_valdane"], CATALOG.competitors["mira_quickstep"]
    return [[c.key for c in mira.deck[:27]] + [c.key for c in ox.deck[27:]],
            [c.key for c in ox.deck[:27]] + [c.key for c in mira.deck[27:]]]


KINDS = [("one_on_one", 2, {}), ("tag_team", 3, {}), ("tornado_tag_team", 4, {}),
         ("fatal_four_way_elimination", 4, {"dq": "on"}), ("birdcage", 4, {}),
         ("one_on_one", 2, {"decks": constructed()})]


def all_cards(state: State) -> Counter[str]:
    """Every card id anywhere in the state, with its multiplicity."""
    cards = [c for p in state.players for c in p.deck + p.hand + p.discard + p.all_in_play()]
    return Counter(cards + ([state.played] if state.played else []))


def public_piles(p: Player) -> Any:
    """Everything of a seat that every seat sees, as it is."""
    return (p.discard, p.in_play, p.turns, p.mulliganed, p.boosts, p.competitor)


def check(state: State, seat: int, rng: random.Random, stats: Counter[str]) -> None:
    """(a)-(e) for one seat at one state."""
    stats["checks"] += 1
    guess = RULES.determinize(state, seat, random.Random(rng.random()))
    assert RULES.view(guess, seat) == RULES.view(state, seat)  # (a)
    assert all_cards(guess) == all_cards(state)  # (c)
    assert guess.played == state.played
    for other, (p, q) in enumerate(zip(state.players, guess.players, strict=True)):
        assert public_piles(q) == public_piles(p)
        assert len(q.hand) == len(p.hand) and len(q.deck) == len(p.deck)
        assert Counter(q.hand + q.deck) == Counter(p.hand + p.deck)
        if other == seat:
            assert q.hand == p.hand
        assert q.tail == p.tail
        for (cid, seen), (guessed, _) in zip(p.under(), q.under(), strict=True):
            if seen or other == seat:
                stats["kept_under"] += 1
                assert guessed == cid
    assert RULES.legal_actions(guess, seat) == RULES.legal_actions(state, seat)  # (d)
    assert guess.decks[seat] == state.decks[seat]  # its own designs: known
    for other, p in enumerate(state.players):  # the others' designs in sight: kept
        unseen = set(p.hand + p.deck) if other != seat else set()
        for n, design in enumerate(state.decks[other], start=1):
            if card_id(other, n) not in unseen:
                assert guess.decks[other][n - 1] == design
    if state.phase is Phase.STOP and state.played:
        stats["stop"] += 1
        assert guess.stoppers == state.stoppers  # public: no hand decides who is asked
        assert guess.target == state.target
        played = state.card(state.played)
        for o in state.stoppers:
            if o == state.target:
                continue
            stats["stop_others"] += 1  # a Protecting team-mate or a bystander (DQ)
            if not any((stop := state.card(c).stop) and stop.matches(played)
                       for c in state.players[o].hand):
                stats["stop_others_without"] += 1  # asked all the same (SH-063, SH-069)
    others = [p for o, p in enumerate(state.players) if o != seat and p.hand and len(p.deck) > 2]
    if stats["checks"] % SPOT == 0 and others:  # (b)
        stats["hidden"] += 1
        seen = {repr([(p.hand, p.deck) for p in
                      RULES.determinize(state, seat, random.Random(k)).players])
                for k in range(ATTEMPTS)}
        assert len(seen) > 1, "the hidden cards are never resampled"
    play_on(RULES, guess, RANDOM, rng, PLAY_ON)  # (e)


def run(match_type: str, n_seats: int, extra: dict[str, Any], seed: int) -> Counter[str]:
    """One seeded random playout with the checks on every EVERY-th state."""
    stats: Counter[str] = Counter()
    rng = random.Random(seed * 7919)

    def on_event(state: State, event: Event) -> None:
        stats["events"] += 1
        if stats["events"] % EVERY == 0:
            for seat in range(n_seats):
                check(state, seat, rng, stats)

    options = {"match_type": match_type, **extra}
    play_match(RULES, [RandomBot()] * n_seats, random.Random(seed), options, on_event)
    return stats


@pytest.mark.parametrize(("match_type", "n_seats", "extra"), KINDS)
def test_determinize_resamples_only_what_the_seat_cannot_see(
        match_type: str, n_seats: int, extra: dict[str, Any]) -> None:
    """Hands and decks of the others are redealt, the seat's own deck reordered."""
    stats: Counter[str] = Counter()
    for seed in range(3):
        stats += run(match_type, n_seats, extra, seed)
    assert stats["hidden"] > 20 and stats["stop"] > 0 and stats["kept_under"] > 0
    assert (stats["stop_others"] > 0 and stats["stop_others_without"] > 0) or n_seats == 2


def test_a_guess_while_another_seat_searches_keeps_a_card_for_it_to_find() -> None:
    """Seat 1's search (Mat Scramble) found its only Follow-Up, B13, in the deck. Seat 0's
    guesses redeal seat 1's hand and deck, where B13 may land in the hand; but the search
    found a card, so a guess keeps one in the deck (here B13 itself) and the search has a
    choice to make (it had none in 31 of 200 guesses)."""
    follow_ups = [14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26]
    s = build(hands=((1, 2), (8, 1, 2)), decks=((3, 4), (13, 5, 6)),
              discards=((), follow_ups), active=1, turns=(1, 1))
    s = do(do(s, 1, {"type": "play", "card": "B08"}), 0, {"type": "no_stop"})
    assert legal(s, 1)
    hands = set()
    for seed in range(200):
        guess = RULES.determinize(s, 0, random.Random(seed))
        assert legal(guess, 1) == [{"type": "choose", "card": "B13"}], seed
        assert sorted(guess.players[1].hand + guess.players[1].deck) == sorted(
            s.players[1].hand + s.players[1].deck)
        hands.add(tuple(sorted(guess.players[1].hand)))
    assert len(hands) > 1  # the hand is still redealt


def test_a_rivals_constructed_deck_is_guessed_not_read() -> None:
    """SH-050 decks are a secret option: the designs of a rival's cards out of sight were
    kept in every guess, so a search bot played as if it had read the human's deck list.
    Now each is drawn from what its number may be, and public cards keep theirs."""
    found: list[State] = []

    def watch(s: State, event: Event) -> None:
        if not found and len(s.players[1].discard) > 2 and len(s.players[1].hand) > 2:
            found.append(s)

    play_match(RULES, [RandomBot()] * 2, random.Random(4),
               {"match_type": "one_on_one", "decks": constructed()}, watch)
    state = found[0]
    rival = state.players[1]
    unseen = rival.hand + rival.deck
    real = {cid: state.card(cid).key for cid in unseen}
    guessed: Counter[str] = Counter()
    for seed in range(40):
        guess = RULES.determinize(state, 0, random.Random(seed))
        guessed.update(cid for cid in unseen if guess.card(cid).key != real[cid])
        assert all(guess.card(cid) == state.card(cid) for cid in rival.discard)
        assert guess.decks[0] == state.decks[0]
    assert len(guessed) > len(unseen) // 2  # most unseen cards were guessed otherwise
    honest = RULES.start({"match_type": "one_on_one"}, 2)
    assert not honest.secret_decks  # the default decks are public: nothing to guess
