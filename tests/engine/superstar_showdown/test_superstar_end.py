"""Pins, Kick Outs, Knock Outs, countout, Catching Your Breath and the round's end."""

from __future__ import annotations

import pytest
from ss_helpers import RULES, C, IllegalAction, build, do, ids, legal, play, resolve, showdown

from engine.games.superstar_showdown.state import EndReason, Phase
from engine.protocol import Event

BLOCK = C("Guard", "block", "Move 1")
STRIKE = C("Jab", "strike", "Attack 1")
SLAM = C("Drop", "slam", "Attack 1")
KICKER = C("Kicker", "maneuver", "Move 1", "Kick Out")
DUD = C("Dud", "grapple", "Attack 1")


def pin_state(red_pos=(3, 3), blue_pos=(3, 4), blue_hand_extra=(), blue_deck=(DUD, DUD, DUD)):
    """Red wins position 1 (no Actions to take), 2 and 3 are Block-Block."""
    quiet = C("Quiet Slam", "slam", "Kick Out")
    s = build([quiet, BLOCK, BLOCK], [STRIKE, BLOCK, BLOCK, *blue_hand_extra],
              red_pos=red_pos, blue_pos=blue_pos, blue_deck=list(blue_deck))
    return play(s, ids(s, 0), ids(s, 1)[:3])


def test_more_winning_cards_side_by_side_in_the_ring_may_pin() -> None:
    """SS-040/SS-041: the side with more winning cards decides whether to Pin."""
    s = pin_state()
    assert s.phase is Phase.PIN and RULES.pending(s).seats == (0,)
    assert legal(s, 0) == [{"type": "pin"}, {"type": "no_pin"}]
    skipped = do(s, 0, {"type": "no_pin"})
    assert skipped.round == 2 and skipped.phase is Phase.PLAY


def test_no_pin_diagonally_or_apart() -> None:
    """SS-041: diagonal neighbours cannot Pin."""
    assert pin_state(blue_pos=(4, 4)).round == 2


def test_no_pin_with_equal_winning_cards() -> None:
    """SS-042."""
    s = build([SLAM, BLOCK, STRIKE], [STRIKE, BLOCK, SLAM], red_pos=(3, 3), blue_pos=(3, 4))
    s = play(s, ids(s, 0), ids(s, 1))
    while s.phase is Phase.ACTIONS:
        s = do(s, s.current.seat, {"type": "done"})
    assert s.round == 2


def test_a_superstar_outside_the_ring_cannot_be_pinned() -> None:
    """SS-043."""
    assert pin_state(red_pos=(1, 3), blue_pos=(0, 3)).round == 2


def test_the_pinner_must_be_in_the_ring_too() -> None:
    """SS-044 (decision): both Superstars inside the ring."""
    assert pin_state(red_pos=(0, 3), blue_pos=(1, 3)).round == 2


def test_kick_out_from_hand_gives_up_the_card() -> None:
    """SS-045: Give Up a Kick Out card from hand, or take the Three Count instead."""
    s = pin_state(blue_hand_extra=[KICKER])
    s = do(s, 0, {"type": "pin"})
    kicker = ids(s, 1)[0]
    assert legal(s, 1) == [{"type": "kick_out", "card": kicker}, {"type": "three_count"}]
    s = do(s, 1, {"type": "kick_out", "card": kicker})
    assert s.sides[0].performance == [kicker] and s.round == 2 and s.sides[1].kick_outs == 1


def test_the_three_count_stops_at_a_kick_out() -> None:
    """SS-046/SS-048: reveal and Give Up one at a time; the saving card is Given Up too."""
    s = pin_state(blue_deck=(DUD, KICKER, DUD))
    s = do(s, 0, {"type": "pin"})
    s = do(s, 1, {"type": "three_count"})
    assert [s.card(c).name for c in s.sides[0].performance] == ["Dud", "Kicker"]
    assert s.phase is Phase.PLAY and s.round == 2


def test_three_cards_without_a_kick_out_is_defeat() -> None:
    """SS-047/SS-049/SS-037: the rulebook's Three Count example: no Kick Out, defeated."""
    s = pin_state()
    s = do(s, 0, {"type": "pin"})
    s = do(s, 1, {"type": "three_count"})
    assert s.phase is Phase.OVER and s.winner == 0 and s.end_reason is EndReason.PINNED
    result = RULES.result(s)
    assert result.placements == (1, 2) and result.winners == (0,)
    assert result.figures[0]["performance_stack"] == 3 and result.figures[0]["pins"] == 1


def test_the_three_count_reshuffles_an_empty_deck() -> None:
    """SS-008 (decision): the count draws on a reshuffled discard pile before a Knock Out."""
    s = pin_state(blue_deck=(DUD,))
    s.sides[1].discard, s.sides[1].deck = s.sides[1].deck[1:], s.sides[1].deck[:1]
    s = do(s, 0, {"type": "pin"})
    s = do(s, 1, {"type": "three_count"})
    assert RULES.pending(s).kind == "chance" and s.count == 1


def test_knocked_out_when_three_cards_cannot_be_played() -> None:
    """SS-038."""
    s = build([SLAM, STRIKE], [STRIKE, BLOCK, BLOCK, BLOCK], phase=Phase.DRAW)
    s.sides[1].performance = list(s.sides[0].deck)
    s.sides[0].deck = []
    RULES._advance(s)
    assert s.phase is Phase.OVER and s.winner == 1 and s.end_reason is EndReason.KNOCKED_OUT


def test_knocked_out_when_a_hit_cannot_be_paid() -> None:
    """SS-039: no Block and fewer cards than the power: Knocked Out at once."""
    hitter = C("Hitter", "slam", "Attack 5")
    s = build([hitter, BLOCK, BLOCK], [STRIKE, BLOCK, BLOCK, DUD], red_pos=(3, 3),
              blue_pos=(3, 4), blue_deck=[DUD])
    s.sides[0].performance = s.sides[1].deck[1:]
    s.sides[1].deck = s.sides[1].deck[:1]
    s = play(s, ids(s, 0), ids(s, 1)[:3])
    s = resolve(s, 0, "attack")
    assert s.phase is Phase.OVER and s.winner == 0 and s.end_reason is EndReason.KNOCKED_OUT


def test_countout_gives_up_a_losing_card_outside_the_ropes() -> None:
    """SS-050/SS-006: the losing card goes to the rival's Performance Stack."""
    s = build([STRIKE, BLOCK, BLOCK], [SLAM, BLOCK, BLOCK], red_pos=(0, 4), blue_pos=(6, 6))
    s = play(s, ids(s, 0), ids(s, 1))
    assert showdown(s)[0]["countout"] == [0]
    assert len(s.sides[1].performance) == 3  # the Strike and both Blocks
    assert s.sides[0].discard == []


def test_countout_in_a_tie_gives_up_the_whole_stack() -> None:
    """SS-051."""
    s = build([SLAM, BLOCK, BLOCK], [SLAM, BLOCK, BLOCK], red_deck=[STRIKE], blue_deck=[SLAM],
              red_pos=(0, 4), blue_pos=(6, 6))
    s = play(s, ids(s, 0), ids(s, 1))
    lost = showdown(s)[0]["cards"][0]
    assert len(lost) == 2 and set(lost) <= set(s.sides[1].performance)


def test_catching_your_breath_outside_the_ropes() -> None:
    """SS-052: outside at the round's start: the discard pile is shuffled into the deck."""
    s = build([], [STRIKE] * 6, red_discard=[STRIKE, STRIKE], red_pos=(0, 4), phase=Phase.DRAW)
    RULES._advance(s)
    assert s.shuffles == [(0, "breath")]
    cards = sorted(s.sides[0].deck + s.sides[0].discard)
    s = RULES.apply(s, Event.chance({"shuffle": {"seat": 0, "order": cards}}))
    assert s.sides[0].discard == [] and len(s.sides[0].hand) == 6


def test_a_draw_reshuffles_the_discard_pile_mid_draw() -> None:
    """SS-007: the deck runs out mid-draw: shuffle the discard, keep drawing."""
    s = build([], [STRIKE] * 6, red_deck=[STRIKE, STRIKE], rest="discard", phase=Phase.DRAW)
    RULES._advance(s)
    assert len(s.sides[0].hand) == 2 and s.shuffles == [(0, "empty")]
    order = sorted(s.sides[0].discard)
    s = RULES.apply(s, Event.chance({"shuffle": {"seat": 0, "order": order}}))
    assert len(s.sides[0].hand) == 6


def test_winning_cards_are_discarded_at_every_round_end() -> None:
    """SS-035/SS-036 (decision): Pin or not, the board is cleared into discard piles."""
    s = pin_state()
    s = do(s, 0, {"type": "no_pin"})
    assert all(side.on_board() == [] for side in s.sides)
    assert len(s.sides[0].discard) == 3


def test_given_up_cards_never_come_back() -> None:
    """SS-004/SS-005: the cards a hit takes from the deck are out of the match: when the
    deck runs out, the new deck is the discard pile alone; a shuffle that brings a Given
    Up card back is refused."""
    hitter = C("Hitter", "slam", "Attack 3")
    s = build([hitter, BLOCK, BLOCK], [STRIKE, BLOCK, BLOCK], red_deck=[DUD] * 3,
              blue_deck=[DUD] * 3, rest="discard", red_pos=(3, 3), blue_pos=(3, 4))
    s = play(s, ids(s, 0), ids(s, 1))
    s = resolve(s, 0, "attack")
    for _ in range(3):
        s = do(s, 1, {"type": "give_up_deck"})
    given = list(s.sides[0].performance)
    assert len(given) == 3 and s.sides[1].deck == []
    s = do(s, 0, {"type": "no_pin"})
    s = RULES.apply(s, Event.chance({"shuffle": {"seat": 0, "order": sorted(s.sides[0].discard)}}))
    assert s.shuffles == [(1, "empty")]
    pile = sorted(s.sides[1].discard)
    assert not set(given) & set(pile)
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(s, Event.chance({"shuffle": {"seat": 1, "order": pile + given}}))
    assert refused.value.code == "bad_outcome"
    s = RULES.apply(s, Event.chance({"shuffle": {"seat": 1, "order": pile}}))
    blue = s.sides[1]
    assert len(blue.hand) == 6 and not set(given) & set(blue.hand + blue.deck + blue.discard)
    assert s.sides[0].performance == given


def test_the_round_limit_ends_the_match_on_performance_stacks() -> None:
    """SS-003 (decision): after `round_limit` rounds the bigger Performance Stack wins."""
    s = pin_state()
    s.round_limit = 1
    s.sides[0].performance = [s.sides[1].deck.pop()]
    s = do(s, 0, {"type": "no_pin"})
    assert s.phase is Phase.OVER and s.winner == 0 and s.end_reason is EndReason.TIME_LIMIT


def test_both_short_of_three_cards_is_a_draw() -> None:
    """SS-038 (decision): a double Knock Out is a draw."""
    s = build([SLAM], [STRIKE], phase=Phase.DRAW)
    s.sides[1].performance, s.sides[0].deck = s.sides[0].deck, []
    s.sides[0].performance, s.sides[1].deck = s.sides[1].deck, []
    RULES._advance(s)
    assert s.phase is Phase.OVER and s.draw and RULES.result(s).placements == (1, 1)
