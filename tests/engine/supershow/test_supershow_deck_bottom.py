"""Cards that go under a deck in sight stay known there (issue #9, item 3).

SH-023/024: a buried card goes from the public discard pile to the bottom of the deck;
SH-045: a Mulligan shows the hand before it goes under; SH-063: a Protect's hand goes
under unseen by the others. Until the deck runs down to them or is shuffled, everybody
knows where the seen ones lie (the owner knows all of them): the view lists them, and a
determinized state keeps them in place instead of shuffling them into the deck.
"""

from __future__ import annotations

import random

from supershow_helpers import RULES, build, do

from engine.games.supershow.state import Player
from engine.protocol import Event


def bottom_ids(view_player: dict) -> list[str | None]:
    return [c and c["id"] for c in view_player["deck_bottom"]]


def test_a_buried_card_stays_at_the_bottom_in_every_determinized_state() -> None:
    """SH-023/024."""
    s = do(build(((1,), (2,)), discards=((28,), ())), 0, {"type": "bury", "card": "A28"})
    assert s.players[0].deck[-1] == "A28"
    for viewer in (0, 1, None):
        assert bottom_ids(RULES.view(s, viewer)["players"][0]) == ["A28"]
    for seed in range(20):
        for seat in (0, 1):
            guess = RULES.determinize(s, seat, random.Random(seed))
            assert guess.players[0].deck[-1] == "A28"
    shuffled = {tuple(RULES.determinize(s, 0, random.Random(k)).players[0].deck[:-1])
                for k in range(5)}
    assert len(shuffled) > 1  # the rest of the deck is still resampled


def test_the_deck_running_down_to_them_and_a_shuffle_forget_them() -> None:
    p = Player(competitor="ox_valdane", deck=["A01", "A02", "A03"])
    p.put_under(["A28", "A29"], seen=True)
    assert p.take_top(4) == ["A01", "A02", "A03", "A28"] and p.tail == [True]
    p.put_under(["A30"], seen=False)
    p.take("A29")
    assert p.deck == ["A30"] and p.tail == [False]
    p.put_under(["A27"], seen=True)
    p.take("A27")
    assert p.deck == ["A30"] and p.tail == [False]
    p.reorder(["A30"])
    assert p.tail == []


def test_a_search_shuffle_forgets_what_lay_under_the_deck() -> None:
    s = do(build(((1,), (2,)), discards=((28,), ())), 0, {"type": "bury", "card": "A28"})
    order = list(reversed(s.players[0].deck))
    s.shuffles = [0]
    s = RULES.apply(s, Event.chance({"shuffle": {"seat": 0, "order": order}}))
    assert s.players[0].tail == []
    assert RULES.view(s, 1)["players"][0]["deck_bottom"] == []


def test_a_mulligan_shows_the_hand_that_goes_under() -> None:
    """SH-045."""
    s = build(((13, 14, 15), (2,)), decks=((1, 2, 3), ()), turns=(0, 1))
    s = do(s, 0, {"type": "mulligan"})
    under = ["A13", "A14", "A15"]
    assert s.players[0].deck[-3:] == under
    assert bottom_ids(RULES.view(s, 1)["players"][0]) == under
    guess = RULES.determinize(s, 1, random.Random(0))
    assert guess.players[0].deck[-3:] == under


def test_cards_that_went_under_face_down_are_kept_by_their_owner_alone() -> None:
    """SH-063: a Protect's hand goes under unseen by the others."""
    s = build(((1,), (2,)), decks=((), (3, 4)), rest=False)
    s.players[1].put_under(["B13", "B14"], seen=False)
    assert bottom_ids(RULES.view(s, 1)["players"][1]) == ["B13", "B14"]
    assert bottom_ids(RULES.view(s, 0)["players"][1]) == [None, None]
    assert bottom_ids(RULES.view(s, None)["players"][1]) == [None, None]
    for seed in range(10):
        assert RULES.determinize(s, 1, random.Random(seed)).players[1].deck[-2:] == [
            "B13", "B14"]
    redealt = {tuple(RULES.determinize(s, 0, random.Random(k)).players[1].deck[-2:])
               for k in range(20)}
    assert len(redealt) > 1  # the others may not know which cards those are


def test_a_search_does_not_tell_the_table_which_card_it_took() -> None:
    """Seat 1's B13 went under its deck in sight; seat 1 searches (Mat Scramble, B08) and
    takes B13 or B14. The table's view of the deck bottom is the same either way: it was
    the searcher who went through the deck, so nothing under it is known any more."""
    bottoms = []
    for pick in ("B13", "B14"):
        s = build(hands=((1, 2), (8,)), decks=((3, 4), (5, 6, 7)), active=1, turns=(1, 1))
        seat1 = s.players[1]
        seat1.deck.remove("B13")
        seat1.put_under(["B13"], seen=True)
        assert bottom_ids(RULES.view(s, 0)["players"][1]) == ["B13"]
        s = do(s, 1, {"type": "play", "card": "B08"})
        if RULES.pending(s).seats == (0,):
            s = do(s, 0, {"type": "no_stop"})
        s = do(s, 1, {"type": "choose", "card": pick})
        bottoms.append(bottom_ids(RULES.view(s, 0)["players"][1]))
    assert bottoms == [[], []]
