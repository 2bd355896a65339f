"""Refusals: a clear code, nothing changed, never a KeyError or TypeError."""

from __future__ import annotations

import pytest
from ss_helpers import RULES, C, build, do, ids, play, refused, resolve, steps

from engine.protocol import Event, IllegalAction

BLOCK = C("Guard", "block", "Move 1")
STRIKE = C("Jab", "strike", "Attack 1")
MOVER = C("Runner", "slam", "Move 3", "Movement Setup")


def play_state():
    return build([STRIKE, STRIKE, BLOCK, BLOCK], [BLOCK, BLOCK, BLOCK])


def moving_state():
    s = build([MOVER, BLOCK, BLOCK], [STRIKE, BLOCK, BLOCK], red_pos=(1, 1), blue_pos=(6, 6))
    s = play(s, ids(s, 0), ids(s, 1))
    return resolve(s, 0, "move")


def test_a_card_not_in_hand_is_refused() -> None:
    s = play_state()
    assert refused(s, 0, {"type": "play_spots", "cards": ["r01", "r02", "b01"]}) == "card_not_in_hand"


def test_the_same_card_in_two_spots_is_refused() -> None:
    s = play_state()
    assert refused(s, 0, {"type": "play_spots", "cards": ["r01", "r01", "r02"]}) == "duplicate_card"


def test_two_or_four_cards_are_refused() -> None:
    s = play_state()
    assert refused(s, 0, {"type": "play_spots", "cards": ["r01", "r02"]}) == "wrong_card_count"


def test_a_move_off_the_grid_is_refused() -> None:
    s = steps(moving_state(), 0, (0, 0))
    assert refused(s, 0, {"type": "step", "to": [-1, 0]}) == "off_grid"
    assert refused(s, 0, {"type": "step", "to": [0, 9]}) == "off_grid"


def test_a_step_too_far_is_refused() -> None:
    assert refused(moving_state(), 0, {"type": "step", "to": [3, 3]}) == "bad_square"


def test_an_action_out_of_order_is_refused() -> None:
    s = moving_state()
    assert refused(s, 0, {"type": "resolve", "action": "attack"}) == "out_of_order"
    assert refused(play_state(), 0, {"type": "done"}) == "out_of_order"


def test_an_action_used_twice_or_unavailable_is_refused() -> None:
    s = do(moving_state(), 0, {"type": "stop"})
    assert refused(s, 0, {"type": "resolve", "action": "move"}) == "action_used"
    assert refused(s, 0, {"type": "resolve", "action": "throw"}) == "action_unavailable"


def test_the_wrong_seat_is_refused() -> None:
    s = moving_state()
    with pytest.raises(IllegalAction) as error:
        RULES.apply(s, Event.decision(1, {"type": "stop"}))
    assert error.value.code == "not_your_turn"


@pytest.mark.parametrize("action", [
    [], "play", 3, {}, {"type": 5}, {"type": "fly"},
    {"type": "play_spots"}, {"type": "play_spots", "cards": "r01"},
    {"type": "play_spots", "cards": [1, 2, 3]}, {"type": "play_spots", "cards": None},
    {"type": "play_spots", "cards": ["r01", "r02", "r03"], "extra": 1},
    {"type": "step", "to": [1]}, {"type": "step", "to": "a1"}, {"type": "step", "to": [1.5, 2]},
    {"type": "step", "to": [True, 2]}, {"type": "resolve", "action": "fly"},
    {"type": "resolve"}, {"type": "give_up", "card": 7}, {"type": "done", "card": "r01"},
])
def test_malformed_actions_are_refused_cleanly(action) -> None:
    code = refused(play_state(), 0, action)
    assert code in {"malformed_action", "malformed_event"}


def test_a_reversal_with_a_card_that_does_not_win_is_refused() -> None:
    reverser = C("Counter", "grapple", "Reversal")
    loser = C("Loser", "grapple", "Attack 1")
    s = build([reverser, BLOCK, BLOCK, loser, STRIKE], [C("Hop", "maneuver", "Move 1"), BLOCK, BLOCK],
              red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0)[:3], ids(s, 1)[:3])
    assert refused(s, 0, {"type": "reverse", "card": ids(s, 0)[0]}) == "reversal_must_win"


def test_a_block_that_is_not_a_block_is_refused() -> None:
    s = build([C("Hit", "slam", "Attack 2"), BLOCK, BLOCK], [STRIKE, BLOCK, BLOCK, STRIKE],
              red_pos=(3, 3), blue_pos=(3, 4))
    s = play(s, ids(s, 0), ids(s, 1)[:3])
    s = resolve(s, 0, "attack")
    assert refused(s, 1, {"type": "block", "card": ids(s, 1)[0]}) == "cannot_block"


def test_a_bad_chance_outcome_is_refused() -> None:
    s = RULES.start({}, 2)
    with pytest.raises(IllegalAction) as error:
        RULES.apply(s, Event.chance({"shuffle": {"seat": 0, "order": ["r01"]}}))
    assert error.value.code == "bad_outcome"
    with pytest.raises(IllegalAction):
        RULES.apply(s, Event.chance({"nonsense": 1}))


def test_messages_never_name_hidden_cards() -> None:
    """A refusal names only what the actor sent."""
    s = play_state()
    with pytest.raises(IllegalAction) as error:
        do(s, 0, {"type": "play_spots", "cards": ["b01", "r01", "r02"]})
    assert "b02" not in error.value.message and "Guard" not in error.value.message
