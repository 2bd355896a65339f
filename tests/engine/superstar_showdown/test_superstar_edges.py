"""Edge cases where two rules meet: countout on Blocks and Reversals, tie-breaks nobody
can break, nothing to reverse a Slam with, a Stun's extra card evening the Pin count."""

from __future__ import annotations

from ss_helpers import RULES, C, build, do, ids, play, resolve, showdown

from engine.games.superstar_showdown.state import Phase

BLOCK = C("Guard", "block", "Move 1")
STRIKE = C("Jab", "strike", "Attack 1")
SLAM = C("Drop", "slam", "Attack 1")
QUIET = C("Quiet Slam", "slam", "Kick Out")  # wins, and has no Action to take
STUNNER = C("Stunner", "grapple", "Attack 1", "Stun")
REVERSER = C("Counter", "grapple", "Reversal", "Attack 1")
OUTSIDE = (0, 4)  # the floor by Red's side of the ring


def test_blocks_that_meet_outside_the_ropes_are_given_up() -> None:
    """SS-025 with SS-050: Block against Block is two losing cards, so the Superstar
    outside the ring Gives Up its Block (countout); the one inside discards its own."""
    s = build([BLOCK, QUIET, QUIET], [BLOCK, QUIET, QUIET], red_pos=OUTSIDE, blue_pos=(6, 6))
    red, blue = ids(s, 0), ids(s, 1)
    s = play(s, red, blue)
    first = showdown(s)[0]
    assert first["winner"] is None and not first["tie"] and first["countout"] == [0]
    assert s.sides[1].performance == [red[0]]
    assert blue[0] in s.sides[1].discard and red[0] not in s.sides[0].discard


def test_a_tie_nobody_can_break_has_no_winner() -> None:
    """SS-008 (decision) with SS-030: Slam against Slam and neither side has a card in
    deck or discard to reveal: nobody wins the position, both tied cards are discarded."""
    s = build([SLAM, BLOCK, BLOCK], [SLAM, BLOCK, BLOCK], rest="none",
              red_pos=(2, 2), blue_pos=(6, 6))
    red, blue = ids(s, 0), ids(s, 1)
    s = play(s, red, blue)
    first = showdown(s)[0]
    assert first["tie"] and first["winner"] is None
    assert first["cards"] == [[red[0]], [blue[0]]]
    assert red[0] in s.sides[0].discard and blue[0] in s.sides[1].discard
    assert s.sides[0].performance == s.sides[1].performance == []


def test_nothing_reverses_a_slam() -> None:
    """SS-099: a Reversal needs a card from hand that beats the winner; nothing beats a
    Slam (Slam against Slam ties), so the losing Reversal card is not even asked."""
    s = build([REVERSER, QUIET, QUIET, SLAM], [SLAM, QUIET, QUIET],
              red_pos=(2, 2), blue_pos=(6, 6))
    held = ids(s, 0)[3]
    s = play(s, ids(s, 0)[:3], ids(s, 1))
    assert showdown(s)[0]["winner"] == 1 and showdown(s)[0]["reversed_by"] == []
    assert held in s.sides[0].hand


def test_a_reversed_card_outside_the_ropes_is_given_up() -> None:
    """SS-102 (decision) with SS-050: the card a Reversal beats is a losing card, so its
    owner, outside the ring, Gives Up that card to the reverser's Performance Stack; the
    Reversal card itself stays under the winner."""
    kick = C("Kick", "maneuver", "Move 2")
    answer = C("Answer", "strike", "Move 1")  # a Strike beats the Maneuver
    s = build([REVERSER, QUIET, QUIET, answer], [kick, QUIET, QUIET],
              red_pos=(2, 2), blue_pos=(8, 4))
    blue = ids(s, 1)
    s = play(s, ids(s, 0)[:3], blue)
    assert s.phase is Phase.REVERSAL
    s = do(s, 0, {"type": "reverse", "card": ids(s, 0)[0]})
    first = showdown(s)[0]
    assert first["winner"] == 0 and first["countout"] == [1]
    assert s.sides[0].performance == [blue[0]] and blue[0] not in s.sides[1].discard
    assert len(s.sides[0].stacks[0]) == 2  # Reversal card under the answer


def _stun_then_two_quiet_slams(red_extra):
    """Red wins position 1 with a Stun and may add an extra card; Blue's Quiet Slams win
    positions 2 and 3 against Red's Blocks."""
    s = build([STUNNER, BLOCK, BLOCK, *red_extra], [STRIKE, QUIET, QUIET],
              red_pos=(3, 3), blue_pos=(3, 4))
    s = play(s, ids(s, 0)[:3], ids(s, 1))
    s = resolve(s, 0, "attack")
    return do(s, 1, {"type": "give_up_deck"})


def test_a_stun_extra_card_evens_the_winning_cards_and_nobody_may_pin() -> None:
    """SS-091 with SS-042: without an extra card Blue has 2 winning cards to Red's 1 and
    may Pin; with Red's extra card it is 2 against 2, and nobody may Pin."""
    alone = _stun_then_two_quiet_slams(())
    assert alone.phase is Phase.PIN and RULES.pending(alone).seats == (1,)
    s = _stun_then_two_quiet_slams((QUIET,))
    s = resolve(s, 0, "stun")
    s = do(s, 0, {"type": "extra_card", "card": ids(s, 0)[0]})
    assert [r["winner"] for r in showdown(s)] == [0, 1, 1]
    assert s.phase is Phase.PLAY and s.round == 2  # no Pin: the next round began
    assert s.sides[0].pins == s.sides[1].pins == 0

