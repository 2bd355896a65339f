"""The round's Draw, Play and Compare steps: types, ties, Blocks (SS-014..SS-032)."""

from __future__ import annotations

import pytest
from ss_helpers import RULES, C, build, do, ids, legal, play, showdown

from engine.games.superstar_showdown.cards import CardType, Outcome, compare
from engine.games.superstar_showdown.state import Phase
from engine.protocol import Event

SLAM = C("Big Drop", "slam", "Attack 1")
GRAPPLE = C("Hold", "grapple", "Attack 1")
STRIKE = C("Jab", "strike", "Attack 1")
MANEUVER = C("Hop", "maneuver", "Attack 1")
BLOCK = C("Guard", "block", "Move 1")
FAR = {"red_pos": (2, 2), "blue_pos": (6, 6)}  # never adjacent: no Actions get in the way


@pytest.mark.parametrize(("first", "second", "expected"), [
    ("grapple", "strike", Outcome.FIRST), ("strike", "maneuver", Outcome.FIRST),
    ("maneuver", "grapple", Outcome.FIRST), ("strike", "grapple", Outcome.SECOND),
    ("maneuver", "strike", Outcome.SECOND), ("grapple", "maneuver", Outcome.SECOND),
])
def test_grapple_beats_strike_beats_maneuver_beats_grapple(first, second, expected) -> None:
    """SS-021: the three-way cycle, each reversed pairing loses."""
    assert compare(CardType(first), CardType(second)) is expected


@pytest.mark.parametrize("other", ["grapple", "strike", "maneuver", "block"])
def test_a_slam_beats_every_other_type(other: str) -> None:
    """SS-022: Slams always win."""
    assert compare(CardType.SLAM, CardType(other)) is Outcome.FIRST
    assert compare(CardType(other), CardType.SLAM) is Outcome.SECOND


@pytest.mark.parametrize("other", ["slam", "grapple", "strike", "maneuver"])
def test_a_block_loses_to_every_type(other: str) -> None:
    """SS-023: Blocks always lose."""
    assert compare(CardType.BLOCK, CardType(other)) is Outcome.SECOND


def test_there_are_exactly_five_card_types() -> None:
    """SS-020."""
    assert [str(t) for t in CardType] == ["slam", "grapple", "strike", "maneuver", "block"]


def test_block_against_block_is_two_losers_not_a_tie() -> None:
    """SS-025: both Blocks go to their discard piles and nobody wins the position."""
    s = build([BLOCK, BLOCK, BLOCK], [BLOCK, BLOCK, BLOCK], **FAR)
    s = play(s, ids(s, 0), ids(s, 1))
    assert [r["winner"] for r in s.last_outcomes] == [None, None, None]
    assert [r["tie"] for r in s.last_outcomes] == [False, False, False]
    assert len(s.sides[0].discard) == 3 and len(s.sides[1].discard) == 3


def test_a_round_draws_to_six_then_waits_for_both_plays() -> None:
    """SS-014/SS-015/SS-017/SS-018: draw up to six (2 held: draw 4), both commit first."""
    s = build([GRAPPLE, STRIKE], [MANEUVER, SLAM, BLOCK, BLOCK, BLOCK, BLOCK], phase=Phase.DRAW)
    RULES._advance(s)
    assert len(s.sides[0].hand) == 6 and len(s.sides[1].hand) == 6
    assert RULES.pending(s).seats == (0, 1)
    s = do(s, 1, {"type": "play_spots", "cards": ids(s, 1)[:3]})
    assert s.phase is Phase.PLAY and RULES.pending(s).seats == (0,)
    assert all(stack == [] for stack in s.sides[1].stacks)  # nothing revealed yet
    assert len(legal(s, 0)) == 120  # 6 cards into 3 ordered spots


def test_positions_are_compared_in_order_and_losers_are_discarded() -> None:
    """SS-019/SS-024: 1, then 2, then 3; the winner stays, the loser is discarded."""
    s = build([GRAPPLE, STRIKE, MANEUVER], [STRIKE, MANEUVER, GRAPPLE], **FAR)
    red, blue = ids(s, 0), ids(s, 1)
    s = play(s, red, blue)
    assert [r["position"] for r in s.last_outcomes] == [1, 2, 3]
    assert [r["winner"] for r in s.last_outcomes] == [0, 0, 0]
    assert s.sides[1].discard == blue
    assert sorted(s.sides[0].discard) == sorted(red)  # round end: winners discarded too


def test_a_tie_reveals_from_the_decks_until_someone_wins() -> None:
    """SS-028/SS-029/SS-030/SS-031: Slam-Slam, Strike-Strike, then Grapple beats Strike;
    the loser discards the whole stack; the winner's top card acts."""
    top = C("Tie Breaker", "grapple", "Move 1")
    s = build([SLAM, BLOCK, BLOCK], [SLAM, BLOCK, BLOCK], red_deck=[STRIKE, top],
              blue_deck=[STRIKE, STRIKE], **FAR)
    s = play(s, ids(s, 0), ids(s, 1))
    record = s.outcomes[0]
    assert record["tie"] and record["winner"] == 0
    assert [s.card(c).name for c in record["cards"][0]] == ["Big Drop", "Jab", "Tie Breaker"]
    assert len(s.sides[1].discard) == 3 and s.sides[1].stacks[0] == []
    assert s.current is not None and s.card(s.current.card).name == "Tie Breaker"


def test_blocks_revealed_in_a_tie_break_keep_the_tie_going() -> None:
    """SS-032 (decision): Block against Block in a tie-break is not an end: reveal again."""
    s = build([STRIKE, BLOCK, BLOCK], [STRIKE, BLOCK, BLOCK], red_deck=[BLOCK, MANEUVER],
              blue_deck=[BLOCK, GRAPPLE], **FAR)
    s = play(s, ids(s, 0), ids(s, 1))
    assert showdown(s)[0]["winner"] == 0 and len(showdown(s)[0]["cards"][0]) == 3


def test_the_buried_tied_cards_actions_are_not_used() -> None:
    """SS-032 (decision): only the tie-breaking top card's Actions count."""
    buried = C("Buried", "slam", "Move 3", "Attack 3")
    top = C("Top", "strike", "Attack 1")
    s = build([buried, BLOCK, BLOCK], [SLAM, BLOCK, BLOCK], red_deck=[top],
              blue_deck=[MANEUVER], **FAR)
    s = play(s, ids(s, 0), ids(s, 1))
    # Top has only Attack 1 and the rival is far away: nothing to take, so no decision
    # (the buried Slam's Move 3 is not offered) and the round runs to its end.
    assert showdown(s)[0]["winner"] == 0 and s.round == 2


def test_a_tie_break_reshuffles_an_empty_deck_first() -> None:
    """SS-007/SS-008: an empty deck is rebuilt from the discard pile to break a tie."""
    s = build([SLAM, BLOCK, BLOCK], [SLAM, BLOCK, BLOCK], red_discard=[STRIKE],
              blue_deck=[MANEUVER], rest="discard", **FAR)
    s.sides[1].deck, s.sides[1].discard = s.sides[1].deck[:1], s.sides[1].deck[1:] + s.sides[1].discard
    s = play(s, ids(s, 0), ids(s, 1))
    assert RULES.pending(s).kind == "chance" and s.shuffles == [(0, "empty")]
    order = sorted(s.sides[0].discard)
    s = RULES.apply(s, Event.chance({"shuffle": {"seat": 0, "order": order}}))
    assert showdown(s)[0]["tie"]


def test_a_side_with_no_card_to_reveal_loses_the_tie() -> None:
    """SS-008 (decision): with deck and discard both empty, that side loses the tie."""
    s = build([SLAM, BLOCK, BLOCK], [SLAM, BLOCK, BLOCK], blue_deck=[MANEUVER], **FAR)
    s.sides[0].deck, s.sides[0].discard = [], []
    s.sides[0].hand += []  # Red's other 27 cards are out of the game
    s.sides[1].performance = [f"r{i:02d}" for i in range(4, 31)]
    s = play(s, ids(s, 0), ids(s, 1))
    assert showdown(s)[0]["winner"] == 1


def test_a_tie_lost_for_want_of_a_card_is_recorded_as_a_tie_without_a_reversal() -> None:
    """SS-008 decision with SS-028/101: at position 1 Red reverses; at position 2 the
    Strikes tie and Red, with no card to reveal, loses it. The record of position 2 says
    a tie and no Reversal (it kept position 1's Reversal and said no tie)."""
    rev_jab = C("Rev Jab", "strike", "Attack 1", "Reversal")
    slip, jab, hold = (C("Slip", "maneuver", "Move 1"), C("Jab", "strike", "Attack 1"),
                       C("Hold", "grapple", "Attack 1"))
    s = build([rev_jab, slip, jab, hold, hold, hold], [hold, jab, hold, hold, hold, hold],
              red_pos=(2, 2), blue_pos=(6, 6))
    s.sides[1].performance, s.sides[0].deck = list(s.sides[0].deck), []
    red, blue = s.sides[0].hand, s.sides[1].hand
    s = play(s, [red[0], red[2], red[3]], [blue[0], blue[1], blue[2]])
    s = do(s, 0, {"type": "reverse", "card": red[1]})  # the Maneuver beats the Grapple
    while s.phase in (Phase.ACTIONS, Phase.MOTION):
        assert s.current is not None
        s = do(s, s.current.seat,
               {"type": "done"} if s.phase is Phase.ACTIONS else {"type": "stop"})
    first, second = showdown(s)[:2]
    assert (first["winner"], first["reversed_by"], first["tie"]) == (0, [0], False)
    assert (second["winner"], second["reversed_by"], second["tie"]) == (1, [], True)


def test_hands_are_hidden_from_the_rival() -> None:
    """SS-016: a view shows its own hand and only the rival's hand size."""
    s = build([SLAM, GRAPPLE, STRIKE], [BLOCK, BLOCK, MANEUVER])
    red_view = RULES.view(s, 0)
    assert [c["id"] for c in red_view["sides"][0]["hand"]] == sorted(ids(s, 0))
    assert red_view["sides"][1]["hand"] is None and red_view["sides"][1]["hand_count"] == 3
