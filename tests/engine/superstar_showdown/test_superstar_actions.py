"""Card Actions: moving, shoving, bouncing, attacking, Corner Attacks, Throws, hits."""

from __future__ import annotations

import random

from ss_helpers import RULES, C, build, do, ids, legal, play, refused, resolve, steps

from engine.games.superstar_showdown import HeuristicBot
from engine.games.superstar_showdown.state import Phase

BLOCK = C("Guard", "block", "Move 1")
STRIKE = C("Jab", "strike", "Attack 1")


def win_first(card, red_pos, blue_pos, blue_extra=(), blue_first=STRIKE, **kw):
    """Red's Slam-type `card` wins position 1 over Blue's Strike; 2 and 3 are Block-Block."""
    s = build([card, BLOCK, BLOCK], [blue_first, BLOCK, BLOCK, *blue_extra],
              red_pos=red_pos, blue_pos=blue_pos, **kw)
    return play(s, ids(s, 0)[:3], ids(s, 1)[:3])


def acts(s, seat=0):
    return {a.get("action") for a in legal(s, seat) if a["type"] == "resolve"}


def targets(s, seat=0):
    return {tuple(a["to"]) for a in legal(s, seat) if a["type"] == "step"}


MOVER = C("Runner", "slam", "Move 3")


def test_a_move_goes_any_direction_and_through_the_rival() -> None:
    """SS-053/SS-055: eight directions, diagonals included, through an occupied square."""
    s = win_first(MOVER, (4, 2), (4, 3))
    s = resolve(s, 0, "move")
    assert targets(s) == {(3, 1), (3, 2), (3, 3), (4, 1), (4, 3), (5, 1), (5, 2), (5, 3)}
    s = steps(s, 0, (4, 3), (4, 4), (3, 5))
    assert s.sides[0].pos == (3, 5) and s.sides[1].pos == (4, 3)


def test_a_move_may_stop_short() -> None:
    """SS-054 (decision): the Move value is a maximum."""
    s = win_first(MOVER, (4, 2), (6, 6))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (4, 3))
    s = do(s, 0, {"type": "stop"})
    assert s.sides[0].pos == (4, 3) and s.motion is None


def test_a_move_enters_turnbuckles_and_leaves_the_ring() -> None:
    """SS-056: Ropes and Turnbuckle squares can be entered, and the ring left."""
    s = win_first(MOVER, (2, 2), (6, 6))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (1, 1))
    # SS-059: a Turnbuckle is not a Ropes square: no bounce is offered.
    assert {"type": "bounce"} not in legal(s, 0)
    s = steps(s, 0, (0, 0))
    assert s.sides[0].pos == (0, 0)


def test_a_move_must_finish_before_another_action() -> None:
    """SS-057: no other Action in the middle of a move."""
    card = C("Runner Hitter", "slam", "Move 2", "Attack 2")
    s = win_first(card, (4, 2), (4, 4))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (4, 3))
    assert refused(s, 0, {"type": "resolve", "action": "attack"}) == "out_of_order"


def test_shoving_one_square_never_across_the_ropes() -> None:
    """SS-060/SS-061: end on the rival, shove one square, never into or out of the ring."""
    card = C("Runner", "slam", "Move 1")
    s = win_first(card, (2, 3), (1, 3))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (1, 3))
    s = do(s, 0, {"type": "stop"})  # a Ropes square: the move could still bounce
    assert s.phase is Phase.SHOVE
    options = {tuple(a["to"]) for a in legal(s, 0) if a["type"] == "shove"}
    assert options == {(1, 2), (1, 4), (2, 2), (2, 3), (2, 4)}  # not the floor above
    s = do(s, 0, {"type": "shove", "to": [2, 4]})
    assert s.sides[1].pos == (2, 4)


def test_a_rival_outside_is_shoved_only_along_the_floor() -> None:
    """SS-061: from the floor a shove cannot put the rival back into the ring."""
    card = C("Runner", "slam", "Move 1")
    s = win_first(card, (1, 3), (0, 3))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (0, 3))
    assert {tuple(a["to"]) for a in legal(s, 0) if a["type"] == "shove"} == {(0, 2), (0, 4)}


def test_declining_the_shove_shares_the_square() -> None:
    """SS-062 (decision): both Superstars share the square; no Attack from there."""
    card = C("Runner Hitter", "slam", "Move 1", "Attack 2")
    s = win_first(card, (3, 3), (3, 4))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (3, 4))
    s = do(s, 0, {"type": "no_shove"})
    assert s.sides[0].pos == s.sides[1].pos == (3, 4)
    assert "attack" not in acts(s)


def test_bouncing_off_the_ropes_runs_straight_and_never_leaves_the_ring() -> None:
    """SS-063/SS-064/SS-065: bounce, run any distance straight away, bounce again."""
    card = C("Runner", "slam", "Move 2")
    s = win_first(card, (3, 3), (6, 6))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (3, 2), (3, 1))
    s = do(s, 0, {"type": "bounce"})
    assert targets(s) == {(3, c) for c in range(2, 8)}  # up to the far ropes, not (3, 8)
    s = steps(s, 0, (3, 7))
    assert {"type": "bounce"} in legal(s, 0)
    s = do(s, 0, {"type": "bounce"})
    s = steps(s, 0, (3, 4))
    assert s.sides[0].pos == (3, 4) and s.motion is None


def test_momentum_power_is_the_straight_line_into_the_rival() -> None:
    """SS-066: squares in a straight line before stopping side by side."""
    card = C("Charger", "slam", "Move 3", "Momentum Attack")
    s = win_first(card, (2, 2), (6, 2))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (3, 2), (4, 2), (5, 2))
    s = resolve(s, 0, "momentum_attack")
    assert s.hit is not None and s.hit.power == 3


def test_a_turn_breaks_the_momentum_line() -> None:
    """SS-066: only the last straight stretch counts."""
    card = C("Charger", "slam", "Move 3", "Momentum Attack")
    s = win_first(card, (2, 3), (6, 2))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (3, 2), (4, 2), (5, 2))  # diagonal, then two straight down
    s = resolve(s, 0, "momentum_attack")
    assert s.hit.power == 2


def test_off_the_ropes_momentum_counts_only_after_the_last_bounce() -> None:
    """SS-067: power is the run after the last bounce."""
    card = C("Charger", "slam", "Move 1", "Momentum Attack")
    s = win_first(card, (3, 2), (3, 6))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (3, 1))
    s = do(s, 0, {"type": "bounce"})
    s = steps(s, 0, (3, 5))
    s = resolve(s, 0, "momentum_attack")
    assert s.hit.power == 4


def test_diagonal_lines_count_but_the_stop_must_be_side_by_side() -> None:
    """SS-068 (decision): a diagonal straight line counts; a diagonal stop does not."""
    card = C("Charger", "slam", "Move 3", "Momentum Attack")
    s = win_first(card, (2, 2), (5, 4))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (3, 3), (4, 4))  # two diagonal squares, now above the rival
    s = do(s, 0, {"type": "stop"})
    s = resolve(s, 0, "momentum_attack")
    assert s.hit.power == 2
    s2 = win_first(card, (2, 2), (5, 5))
    s2 = resolve(s2, 0, "move")
    s2 = steps(s2, 0, (3, 3), (4, 4))  # diagonal neighbour of the rival
    s2 = do(s2, 0, {"type": "stop"})
    assert "momentum_attack" not in acts(s2)


def test_no_momentum_from_a_stop_away_from_the_rival() -> None:
    """SS-066/SS-068 (decision): the line counts only for a stop side by side with the
    rival: stopping diagonal to it, then Throwing it beside you, gives no Momentum Attack;
    Throwing the rival away after a good stop takes the Momentum Attack away too."""
    card = C("Combo", "slam", "Move 3", "Throw", "Momentum Attack")
    s = win_first(card, (2, 3), (6, 4))
    s = resolve(s, 0, "move")
    s = steps(s, 0, (3, 3), (4, 3), (5, 3))  # a line of 3, diagonal to the rival
    assert acts(s) == {"throw"}
    s = resolve(s, 0, "throw")
    s = steps(s, 0, (6, 3))
    s = do(s, 0, {"type": "stop"}) if s.phase is Phase.MOTION else s
    assert s.sides[1].pos == (6, 3) and "momentum_attack" not in acts(s)
    s2 = win_first(card, (2, 3), (6, 3))
    s2 = resolve(s2, 0, "move")
    s2 = steps(s2, 0, (3, 3), (4, 3), (5, 3))  # side by side: Momentum 3 is ready
    assert acts(s2) == {"throw", "momentum_attack"}
    s2 = resolve(s2, 0, "throw")
    s2 = steps(s2, 0, (6, 4), (5, 4))  # thrown to another square beside the mover
    s2 = do(s2, 0, {"type": "stop"}) if s2.phase is Phase.MOTION else s2
    assert s2.sides[1].pos == (5, 4) and "momentum_attack" not in acts(s2)


def test_attacks_need_a_side_by_side_rival() -> None:
    """SS-069/SS-070: orthogonally adjacent only, never diagonally."""
    card = C("Hitter", "slam", "Attack 2", "Move 1")
    assert "attack" in acts(win_first(card, (3, 3), (3, 4)))
    assert "attack" not in acts(win_first(card, (3, 3), (4, 4)))


def test_an_attack_on_a_rival_in_a_turnbuckle_gets_plus_one() -> None:
    """SS-058: +1 power against a Superstar in a Turnbuckle square."""
    card = C("Hitter", "slam", "Attack 2")
    s = win_first(card, (2, 1), (1, 1))
    s = resolve(s, 0, "attack")
    assert s.hit.power == 3


def test_a_hit_is_blocked_from_hand_or_paid_from_hand_and_deck() -> None:
    """SS-071/SS-072/SS-073: one Block from hand, or power cards from hand and/or deck,
    into the attacker's Performance Stack."""
    card = C("Hitter", "slam", "Attack 3")
    s = win_first(card, (3, 3), (3, 4), blue_extra=[BLOCK, STRIKE])
    s = resolve(s, 0, "attack")
    hand = ids(s, 1)
    options = legal(s, 1)
    assert {"type": "block", "card": hand[0]} in options
    assert {"type": "give_up", "card": hand[1]} in options and {"type": "give_up_deck"} in options
    blocked = do(s, 1, {"type": "block", "card": hand[0]})
    assert blocked.sides[0].performance == [hand[0]] and blocked.hit is None
    s = do(s, 1, {"type": "give_up", "card": hand[1]})
    assert not [a for a in legal(s, 1) if a["type"] == "block"]  # no Block once paying
    top = s.sides[1].deck[0]
    s = do(s, 1, {"type": "give_up_deck"})
    s = do(s, 1, {"type": "give_up", "card": hand[0]})
    assert s.sides[0].performance == [hand[1], top, hand[0]] and s.hit is None


def test_a_board_block_stops_damage_but_not_the_other_actions() -> None:
    """SS-026/SS-027: against a Block no Attack, but Move and Throw still work."""
    card = C("Thrower", "slam", "Attack 3", "Throw", "Move 1")
    s = win_first(card, (3, 3), (3, 4), blue_first=BLOCK)
    assert s.current is not None and s.current.blocked
    assert acts(s) == {"move", "throw"}


def test_a_board_block_stops_a_corner_attacks_hit_but_not_its_move() -> None:
    """SS-026/SS-027 with SS-075: the Corner Attack's move is taken against a Block, but
    its power-3 hit is damage, so ending side by side offers no hit."""
    card = C("Top Rope", "slam", "Corner Attack")
    s = win_first(card, (1, 1), (3, 2), blue_first=BLOCK)
    assert s.current.blocked and acts(s) == {"corner_attack"}
    s = resolve(s, 0, "corner_attack")
    s = steps(s, 0, (2, 2))
    s = do(s, 0, {"type": "stop"})
    assert s.sides[0].pos == (2, 2) and s.phase is not Phase.CORNER and s.hit is None
    assert {"type": "corner_hit"} not in legal(s, 0)
    assert s.sides[1].performance == []


def test_actions_in_any_order_or_not_at_all() -> None:
    """SS-033: the winner picks the order and may stop at once."""
    card = C("Thrower", "slam", "Throw", "Move 1", "Attack 2")
    s = win_first(card, (3, 3), (3, 4))
    assert acts(s) == {"move", "throw", "attack"}
    done = do(s, 0, {"type": "done"})
    assert done.current is None or done.position > 0
    s = resolve(s, 0, "attack")
    assert s.phase is Phase.HIT


def test_reversal_and_kick_out_are_not_actions_of_a_winning_card() -> None:
    """SS-034: only Reversal and Kick Out work without winning; they are not offered."""
    card = C("Odd One", "slam", "Move 1", "Reversal", "Kick Out")
    assert acts(win_first(card, (3, 3), (6, 6))) == {"move"}


def test_corner_attack_only_from_a_turnbuckle_then_three_squares_and_power_three() -> None:
    """SS-074/SS-075/SS-077: from a Turnbuckle, move up to 3, then a power 3 Attack."""
    card = C("Diver", "slam", "Corner Attack")
    assert "corner_attack" not in acts(win_first(card, (2, 2), (4, 4)))
    s = win_first(card, (1, 1), (4, 4))
    s = resolve(s, 0, "corner_attack")
    # SS-076: no bounce, even on entering a Ropes square.
    s = steps(s, 0, (1, 2))
    assert {"type": "bounce"} not in legal(s, 0)
    s = steps(s, 0, (2, 3), (3, 4))
    assert s.phase is Phase.CORNER
    s = do(s, 0, {"type": "corner_hit"})
    assert s.phase is Phase.HIT and s.hit.power == 3


def test_the_corner_attacks_hit_may_be_declined() -> None:
    """SS-033/SS-075: every Action is optional ("you may move 3 squares and then make a
    power 3 attack"): a Corner Attack's move that ends side by side asks whether to hit;
    declining leaves the card's other Actions to take."""
    card = C("Top Rope", "slam", "Corner Attack", "Power Setup")
    s = win_first(card, (1, 1), (3, 2))
    s = resolve(s, 0, "corner_attack")
    s = steps(s, 0, (2, 2))
    s = do(s, 0, {"type": "stop"})
    assert s.phase is Phase.CORNER and s.hit is None
    assert legal(s, 0) == [{"type": "corner_hit"}, {"type": "no_corner_hit"}]
    assert legal(s, 1) == []
    hit = do(s, 0, {"type": "corner_hit"})
    assert hit.phase is Phase.HIT and hit.hit.power == 3
    declined = do(s, 0, {"type": "no_corner_hit"})
    assert declined.phase is Phase.ACTIONS and declined.hit is None
    assert declined.sides[1].performance == [] and acts(declined) == {"power_setup"}
    assert refused(declined, 0, {"type": "corner_hit"}) == "out_of_order"
    assert HeuristicBot().choose(RULES, s, 0, random.Random(0)) == {"type": "corner_hit"}


def test_throw_an_adjacent_rival_up_to_three_squares_out_of_the_ring() -> None:
    """SS-078/SS-079/SS-082 (diagonal counts)/SS-083 (no bounce)."""
    card = C("Tosser", "slam", "Throw")
    assert "throw" not in acts(win_first(card, (3, 3), (5, 5)))
    s = win_first(card, (3, 3), (2, 2))  # diagonal neighbour
    s = resolve(s, 0, "throw")
    s = steps(s, 0, (2, 1))
    assert {"type": "bounce"} not in legal(s, 0)
    s = steps(s, 0, (2, 0))
    s = do(s, 0, {"type": "stop"})
    assert s.sides[1].pos == (2, 0) and s.sides[0].pos == (3, 3)


def test_throwing_the_rival_onto_the_thrower_shoves_the_thrower() -> None:
    """SS-080: landing the rival on another Superstar shoves that one."""
    card = C("Tosser", "slam", "Throw")
    s = win_first(card, (3, 3), (3, 4))
    s = resolve(s, 0, "throw")
    s = steps(s, 0, (3, 3))
    s = do(s, 0, {"type": "stop"})
    assert s.phase is Phase.SHOVE
    s = do(s, 0, {"type": "shove", "to": [4, 3]})
    assert s.sides[0].pos == (4, 3) and s.sides[1].pos == (3, 3)


def test_move_then_throw_or_throw_then_move() -> None:
    """SS-081: the order of Actions is free, a Throw can come first."""
    card = C("Tosser", "slam", "Throw", "Move 2", "Attack 1")
    s = win_first(card, (3, 3), (3, 4))
    s = resolve(s, 0, "throw")
    s = steps(s, 0, (4, 4))
    s = do(s, 0, {"type": "stop"})
    s = resolve(s, 0, "move")
    s = steps(s, 0, (4, 3))
    s = do(s, 0, {"type": "stop"})
    assert "attack" in acts(s)
