"""Setups, Stuns and Reversals (SS-084..SS-102)."""

from __future__ import annotations

import pytest
from ss_helpers import RULES, C, build, do, ids, legal, play, refused, resolve, showdown, steps

from engine.games.superstar_showdown.state import Phase

BLOCK = C("Guard", "block", "Move 1")
STRIKE = C("Jab", "strike", "Attack 1")
SLAM = C("Drop", "slam", "Attack 1")


def acts(s, seat=0):
    return {a.get("action") for a in legal(s, seat) if a["type"] == "resolve"}


def test_movement_setup_gives_the_next_winning_card_a_move_one() -> None:
    """SS-084/SS-086: +1 movement; a card without Move counts as Move 1."""
    setup = C("Prep", "slam", "Movement Setup")
    plain = C("Plain Slam", "slam", "Attack 1")
    s = build([setup, plain, BLOCK], [STRIKE, STRIKE, BLOCK], red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0), ids(s, 1))
    s = resolve(s, 0, "movement_setup")
    assert s.current is not None and s.current.position == 1 and s.current.move == 1
    assert acts(s) == {"move"}


def test_power_setup_gives_the_next_winning_card_an_attack_one() -> None:
    """SS-087: +1 power; a card without an Attack counts as Attack 1."""
    setup = C("Prep", "slam", "Power Setup")
    mover = C("Walker", "slam", "Move 1")
    s = build([setup, mover, BLOCK], [STRIKE, STRIKE, BLOCK], red_pos=(3, 3), blue_pos=(3, 4))
    s = play(s, ids(s, 0), ids(s, 1))
    s = resolve(s, 0, "power_setup")
    assert s.current.attack == 1 and "attack" in acts(s)
    s = resolve(s, 0, "attack")
    assert s.hit.power == 1


def test_power_setup_adds_one_to_a_momentum_attack() -> None:
    """SS-087 (decision: +1 to every attack of the next winning card) with SS-066: three
    squares in a straight line and a Power Setup make a power-4 Momentum Attack."""
    setup = C("Prep", "slam", "Power Setup")
    runner = C("Runner", "slam", "Move 3", "Momentum Attack")
    s = build([setup, runner, BLOCK], [STRIKE, STRIKE, BLOCK], red_pos=(3, 2), blue_pos=(3, 6))
    s = play(s, ids(s, 0), ids(s, 1))
    s = resolve(s, 0, "power_setup")
    assert s.current.position == 1 and s.current.power_bonus == 1
    s = resolve(s, 0, "move")
    s = steps(s, 0, (3, 3), (3, 4), (3, 5))
    assert "momentum_attack" in acts(s)
    s = resolve(s, 0, "momentum_attack")
    assert s.phase is Phase.HIT and s.hit.power == 4


def test_setup_bonus_skips_a_lost_position() -> None:
    """SS-088: card 1 sets up, card 2 loses, card 3 still gets the bonus."""
    setup = C("Prep", "slam", "Power Setup")
    hitter = C("Hitter", "slam", "Attack 2")
    s = build([setup, BLOCK, hitter], [STRIKE, STRIKE, STRIKE], red_pos=(3, 3), blue_pos=(3, 4))
    s = play(s, ids(s, 0), ids(s, 1))
    s = resolve(s, 0, "power_setup")
    # position 2: Blue's Strike beats Red's Block; Blue's Jab attacks or not
    if s.current is not None and s.current.seat == 1:
        s = do(s, 1, {"type": "done"})
    assert s.current.seat == 0 and s.current.position == 2 and s.current.attack == 3


def test_a_setup_in_the_third_spot_has_no_effect() -> None:
    """SS-085: the Setup icon is not offered on the position-3 card."""
    setup = C("Prep", "slam", "Power Setup", "Move 1")
    s = build([BLOCK, BLOCK, setup], [BLOCK, BLOCK, STRIKE], red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0), ids(s, 1))
    assert s.current.position == 2 and acts(s) == {"move"}


STUNNER = C("Stunner", "slam", "Attack 1", "Stun")


def stun_state(red_extra=(), blue_hand=(STRIKE, BLOCK, BLOCK, BLOCK)):
    s = build([STUNNER, BLOCK, BLOCK, *red_extra], list(blue_hand), red_pos=(3, 3),
              blue_pos=(3, 4))
    return play(s, ids(s, 0)[:3], ids(s, 1)[:3])


def test_stun_plays_an_extra_card_that_acts_and_counts_as_a_win() -> None:
    """SS-089/SS-090/SS-091: after a Give Up, an extra card from hand, resolved as a winner."""
    extra = C("Follow Up", "grapple", "Attack 2")
    s = stun_state(red_extra=[extra])
    s = resolve(s, 0, "attack")
    s = do(s, 1, {"type": "give_up_deck"})
    assert "stun" in acts(s)
    s = resolve(s, 0, "stun")
    assert s.phase is Phase.STUN
    card = ids(s, 0)[0]
    s = do(s, 0, {"type": "extra_card", "card": card})
    assert s.sides[0].extras == [card] and s.sides[0].wins == 2
    assert s.current.extra and acts(s) == {"attack"}
    s = resolve(s, 0, "attack")
    # SS-095: a Stunned rival may not Block the extra card's damage.
    assert not [a for a in legal(s, 1) if a["type"] == "block"]


def test_stun_chains_through_extra_cards_with_stun() -> None:
    """SS-092/SS-096 (decision): each Stun in the chain needs its own Give Up."""
    s = stun_state(red_extra=[STUNNER, C("Last", "strike", "Attack 1")])
    s = resolve(s, 0, "attack")
    s = do(s, 1, {"type": "give_up_deck"})
    s = resolve(s, 0, "stun")
    s = do(s, 0, {"type": "extra_card", "card": ids(s, 0)[0]})
    assert "stun" not in acts(s)  # not before this card's own hit is paid
    s = resolve(s, 0, "attack")
    s = do(s, 1, {"type": "give_up_deck"})
    assert "stun" in acts(s)


def test_no_stun_with_an_empty_hand() -> None:
    """SS-093: no cards in hand, no Stun."""
    s = stun_state()
    s = resolve(s, 0, "attack")
    s = do(s, 1, {"type": "give_up_deck"})
    # Stun is not offered, the card ends, and the round goes on to the Pin.
    assert s.sides[0].hand == [] and s.sides[0].extras == [] and s.phase is Phase.PIN


def test_a_blocked_stun_gives_no_extra_card() -> None:
    """SS-094: a Block from hand avoids the Stun."""
    s = stun_state(red_extra=[STRIKE], blue_hand=(STRIKE, BLOCK, BLOCK, BLOCK))
    s = resolve(s, 0, "attack")
    s = do(s, 1, {"type": "block", "card": ids(s, 1)[0]})
    assert s.sides[0].extras == [] and s.phase is Phase.PIN  # the Stun card just ended


REVERSER = C("Counter", "grapple", "Reversal", "Attack 1")


def test_a_losing_reversal_card_is_reversed_with_a_winning_card_from_hand() -> None:
    """SS-097/SS-098/SS-099/SS-102 (decision)."""
    weak = C("Weak", "grapple", "Move 1")  # a Grapple loses to the Maneuver
    answer = C("Answer", "strike", "Move 1")  # a Strike beats it
    s = build([REVERSER, BLOCK, BLOCK, weak, answer], [C("Kick", "maneuver", "Move 2"), BLOCK, BLOCK],
              red_pos=(2, 2), blue_pos=(6, 6))
    # Red's Grapple loses to Blue's Maneuver; Red may reverse with a card beating a Maneuver.
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    assert s.phase is Phase.REVERSAL and set(map(str, [a["type"] for a in legal(s, 0)])) == {
        "reverse", "no_reverse"}
    hand = ids(s, 0)
    assert refused(s, 0, {"type": "reverse", "card": hand[0]}) == "reversal_must_win"
    s = do(s, 0, {"type": "reverse", "card": hand[1]})
    assert showdown(s)[0]["winner"] == 0 and showdown(s)[0]["reversed_by"] == [0]
    # The beaten card is discarded; the Reversal card stays under the winner.
    assert len(s.sides[1].discard) == 1 and len(s.sides[0].stacks[0]) == 2
    assert s.current.card == hand[1] and s.sides[0].wins == 1


def test_no_reversal_without_a_card_that_wins() -> None:
    """SS-099: nothing in hand beats the rival's card, so declining is all Red may do;
    but Red is asked all the same, as it would be holding one (the table sees who is
    asked, and a hand is nobody's business but its owner's)."""
    weak = C("Weak", "grapple", "Move 1")  # loses to the Maneuver; Blocks cannot beat it
    s = build([REVERSER, BLOCK, BLOCK, BLOCK, weak], [C("Kick", "maneuver", "Move 2"),
                                                      BLOCK, BLOCK],
              red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    assert s.phase is Phase.REVERSAL and legal(s, 0) == [{"type": "no_reverse"}]
    s = do(s, 0, {"type": "no_reverse"})
    assert showdown(s)[0]["winner"] == 1 and showdown(s)[0]["reversed_by"] == []


def test_who_is_asked_to_reverse_tells_nothing_of_the_hand() -> None:
    """SS-097/SS-099: with or without a card that wins in hand, Red is asked, and the
    rival's view and the log read the same until Red answers."""
    kick = C("Kick", "maneuver", "Move 2")
    answer = C("Answer", "strike", "Move 1")  # beats the Maneuver
    weak = C("Weak", "grapple", "Move 1")  # does not
    with_one, without = (
        play(s, ids(s, 0)[:3], ids(s, 1)[:3])
        for s in (build([REVERSER, BLOCK, BLOCK, last], [kick, BLOCK, BLOCK],
                        red_pos=(2, 2), blue_pos=(6, 6)) for last in (answer, weak)))
    assert with_one.phase is without.phase is Phase.REVERSAL
    assert RULES.pending(with_one).seats == RULES.pending(without).seats == (0,)
    for seat in (1, None):
        assert RULES.view(with_one, seat) == RULES.view(without, seat)
    declined = [do(s, 0, {"type": "no_reverse"}) for s in (with_one, without)]
    assert RULES.view(declined[0], 1) == RULES.view(declined[1], 1)


def test_reversal_is_only_used_when_the_card_loses() -> None:
    """SS-097: a winning Reversal card offers no Reversal."""
    s = build([REVERSER, BLOCK, BLOCK, SLAM], [STRIKE, BLOCK, BLOCK], red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    assert showdown(s)[0]["winner"] == 0 and showdown(s)[0]["reversed_by"] == []


def test_both_reversals_loser_first_then_the_other() -> None:
    """SS-100: the losing side reverses first; then the other side may reverse back."""
    blue_reverser = C("Blue Counter", "maneuver", "Reversal", "Move 1")
    s = build([REVERSER, BLOCK, BLOCK, C("Red Answer", "slam", "Attack 1")],
              [blue_reverser, BLOCK, BLOCK, C("Blue Answer", "slam", "Attack 1")],
              red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    assert s.phase is Phase.REVERSAL and s.reversal_winner == 1
    s = do(s, 0, {"type": "reverse", "card": ids(s, 0)[0]})
    # Red's Slam now wins; Blue's Reversal card lost: Blue may answer, but a Slam cannot
    # be beaten (Slam against Slam is a tie), so no second Reversal is possible.
    assert showdown(s)[0]["winner"] == 0


def test_the_other_side_may_reverse_back() -> None:
    """SS-100: after the loser reverses, the other Reversal card may answer."""
    blue_reverser = C("Blue Counter", "maneuver", "Reversal", "Move 1")
    red_answer = C("Red Answer", "strike", "Attack 1")  # beats the Maneuver
    blue_answer = C("Blue Answer", "grapple", "Attack 1")  # beats the Strike
    s = build([REVERSER, BLOCK, BLOCK, red_answer], [blue_reverser, BLOCK, BLOCK, blue_answer],
              red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    s = do(s, 0, {"type": "reverse", "card": ids(s, 0)[0]})
    assert s.phase is Phase.REVERSAL and RULES_pending_seat(s) == 1
    s = do(s, 1, {"type": "reverse", "card": ids(s, 1)[0]})
    record = showdown(s)[0]
    assert record["winner"] == 1 and record["reversed_by"] == [0, 1]
    assert set(record["cards"][0]) <= set(s.sides[0].discard)  # Red's stack lost


def test_a_card_played_to_reverse_does_not_reverse_again() -> None:
    """SS-100 (decision): each side's first revealed card may Reverse once; Red's answer
    carries a Reversal icon of its own, but when Blue reverses back Red is not asked again,
    though its hand holds a card that beats Blue's answer."""
    blue_reverser = C("Blue Counter", "maneuver", "Reversal", "Move 1")
    red_answer = C("Red Answer", "strike", "Reversal", "Attack 1")
    blue_answer = C("Blue Answer", "grapple", "Attack 1")
    red_third = C("Red Third", "maneuver", "Attack 1")  # would beat Blue's Grapple
    s = build([REVERSER, BLOCK, BLOCK, red_answer, red_third],
              [blue_reverser, BLOCK, BLOCK, blue_answer], red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    s = do(s, 0, {"type": "reverse", "card": ids(s, 0)[0]})
    s = do(s, 1, {"type": "reverse", "card": ids(s, 1)[0]})
    assert s.phase is not Phase.REVERSAL
    record = showdown(s)[0]
    assert record["winner"] == 1 and record["reversed_by"] == [0, 1]


BLOCK_REVERSER = C("Slip", "block", "Reversal")


@pytest.mark.parametrize("red_reverses", [True, False])
def test_a_reversal_block_that_loses_to_a_block_may_reverse(red_reverses: bool) -> None:
    """SS-025 with SS-097/098: Block against Block is two losing cards, so a Reversal
    Block among them may reverse with a card that beats the other Block (any but a Block);
    declining leaves the position with no winner. (It was never asked.)"""
    grip = C("Grip", "grapple", "Attack 1")
    s = build([BLOCK_REVERSER, BLOCK, BLOCK, grip], [BLOCK, BLOCK, BLOCK, grip],
              red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    assert s.phase is Phase.REVERSAL and RULES_pending_seat(s) == 0
    if red_reverses:
        s = do(s, 0, {"type": "reverse", "card": ids(s, 0)[0]})
        assert showdown(s)[0]["winner"] == 0 and showdown(s)[0]["reversed_by"] == [0]
    else:
        s = do(s, 0, {"type": "no_reverse"})
        assert showdown(s)[0]["winner"] is None and showdown(s)[0]["reversed_by"] == []


def test_when_two_reversal_blocks_meet_red_is_asked_then_blue() -> None:
    """SS-025/097/100 (decision): Red first; if Red declines, Blue may reverse; after a
    reversal the other side may reverse back, as after any other."""
    kick = C("Kick", "maneuver", "Move 2")  # beats a Grapple
    grip = C("Grip", "grapple", "Attack 1")
    s = build([BLOCK_REVERSER, BLOCK, BLOCK, kick], [BLOCK_REVERSER, BLOCK, BLOCK, grip],
              red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    assert RULES_pending_seat(s) == 0
    s = do(s, 0, {"type": "no_reverse"})
    assert s.phase is Phase.REVERSAL and RULES_pending_seat(s) == 1
    s = do(s, 1, {"type": "reverse", "card": ids(s, 1)[0]})
    assert s.phase is Phase.REVERSAL and RULES_pending_seat(s) == 0  # Red may answer now
    s = do(s, 0, {"type": "reverse", "card": ids(s, 0)[0]})
    record = showdown(s)[0]
    assert record["reversed_by"] == [1, 0] and record["winner"] == 0


def RULES_pending_seat(s) -> int:
    from ss_helpers import RULES

    return RULES.pending(s).seats[0]


def test_tied_reversal_cards_resolve_as_a_normal_tie() -> None:
    """SS-101: no Reversal in a tie."""
    s = build([REVERSER, BLOCK, BLOCK, SLAM], [C("Blue Counter", "grapple", "Reversal"), BLOCK, BLOCK],
              red_deck=[STRIKE], blue_deck=[C("Grip", "grapple", "Attack 1")],
              red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    record = showdown(s)[0]
    assert record["tie"] and record["winner"] == 1 and record["reversed_by"] == []
    assert s.phase is not Phase.REVERSAL


def test_movement_setup_reaches_a_stun_extra_card() -> None:
    """SS-096 (decision): a waiting Setup bonus goes to the next winning card, an extra too."""
    card = C("Setup Stunner", "slam", "Attack 1", "Stun", "Movement Setup")
    extra = C("Extra", "grapple", "Attack 1")
    s = build([card, BLOCK, BLOCK, extra], [STRIKE, BLOCK, BLOCK], red_pos=(3, 3), blue_pos=(3, 4))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    s = resolve(s, 0, "movement_setup")
    s = resolve(s, 0, "attack")
    s = do(s, 1, {"type": "give_up_deck"})
    s = resolve(s, 0, "stun")
    s = do(s, 0, {"type": "extra_card", "card": ids(s, 0)[0]})
    assert s.current.extra and s.current.move == 1
    s = resolve(s, 0, "move")
    s = steps(s, 0, (2, 4))
    assert s.sides[0].pos == (2, 4)


def test_a_setup_on_an_extra_card_from_the_third_spot_reaches_the_next_extra_card() -> None:
    """SS-085 with SS-092/SS-096 (decision): the position-3 limit is for the card in the
    third spot; an extra card Stunned in from it may still Set Up the next extra card."""
    chain = C("Setup Stun", "grapple", "Attack 1", "Stun", "Power Setup")
    last = C("Finisher", "grapple", "Attack 1")
    s = build([BLOCK, BLOCK, STUNNER, chain, last], [BLOCK, BLOCK, STRIKE],
              red_pos=(3, 3), blue_pos=(3, 4))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    assert s.current.position == 2 and not s.current.extra
    s = resolve(s, 0, "attack")
    s = do(s, 1, {"type": "give_up_deck"})
    s = resolve(s, 0, "stun")
    s = do(s, 0, {"type": "extra_card", "card": ids(s, 0)[0]})
    assert s.current.extra and "power_setup" in acts(s)
    s = resolve(s, 0, "power_setup")
    s = resolve(s, 0, "attack")
    s = do(s, 1, {"type": "give_up_deck"})
    s = resolve(s, 0, "stun")
    s = do(s, 0, {"type": "extra_card", "card": ids(s, 0)[0]})
    assert s.current.attack == 2
