"""Refusals: a clear code, nothing changed, never a KeyError or TypeError."""

from __future__ import annotations

import pytest
from supershow_helpers import RULES, build, do, refused

from engine.games.supershow.state import Phase
from engine.protocol import Event, IllegalAction


def test_a_card_not_in_hand_is_refused() -> None:
    s = build(((1,), (2,)))
    assert refused(s, 0, {"type": "play", "card": "A02"}) == "card_not_in_hand"
    assert refused(s, 0, {"type": "play", "card": "B02"}) == "card_not_in_hand"
    assert refused(s, 0, {"type": "bury", "card": "A09"}) == "card_not_in_discard"


def test_an_action_out_of_order_is_refused() -> None:
    s = build(((1,), (2,)))
    assert refused(s, 0, {"type": "no_stop"}) == "out_of_order"
    assert refused(s, 0, {"type": "choose", "card": "A01"}) == "out_of_order"


def test_a_stop_without_the_symbol_is_refused() -> None:
    s = do(build(((2,), (1, 5))), 0, {"type": "play", "card": "A02"})
    assert refused(s, 1, {"type": "stop", "card": "B01"}) == "not_a_stop"


def test_the_wrong_seat_is_refused() -> None:
    s = build(((1,), (2,)))
    with pytest.raises(IllegalAction) as error:
        RULES.apply(s, Event.decision(1, {"type": "play", "card": "B02"}))
    assert error.value.code == "not_your_turn"


def test_a_choice_not_offered_is_refused() -> None:
    s = build(((17,), (1, 2)), in_play=((1,), ()))
    s = do(do(s, 0, {"type": "play", "card": "A17"}), 1, {"type": "no_stop"})
    assert refused(s, 1, {"type": "choose", "card": "B09"}) == "bad_choice"


@pytest.mark.parametrize("action", [
    [], "play", 3, None, {}, {"type": 5}, {"type": "fly"}, {"type": "play"},
    {"type": "play", "card": 7}, {"type": "play", "card": None}, {"type": "play", "card": []},
    {"type": "play", "card": "A01", "extra": 1}, {"type": "pass", "card": "A01"},
    {"type": "play", "card": ""}, {"type": "play", "card": "Z99"}, {"type": "bury", "card": "x"},
    {1: 2},
])
def test_malformed_actions_are_refused_cleanly(action) -> None:
    code = refused(build(((1,), (2,))), 0, action)
    assert code in {"malformed_action", "illegal_action", "card_not_in_hand",
                    "card_not_in_discard"}


def test_a_bad_chance_outcome_is_refused() -> None:
    s = RULES.start({}, 2)
    for outcome in ({"shuffle": {"seat": 0, "order": ["A01"]}}, {"nonsense": 1},
                    {"shuffle": {"seat": 1, "order": []}}, {"shuffle": None},
                    {"shuffle": {"seat": 0, "order": [1, 2]}}):
        with pytest.raises(IllegalAction) as error:
            RULES.apply(s, Event.chance(outcome))
        assert error.value.code == "bad_outcome"
    r = build(((1,), (2,)), phase=Phase.ROLL, active=None)
    for outcome in ({"dice": ["power"]}, {"dice": ["power", "kick"]}, {"dice": "power"},
                    {"dice": [1, 2]}, {}):
        with pytest.raises(IllegalAction) as error:
            RULES.apply(r, Event.chance(outcome))
        assert error.value.code == "bad_outcome"
        # counted in words: it read "Expected 2 die face(s)."
        assert error.value.message == "Expected 2 die faces."


def test_bad_options_are_refused() -> None:
    for options in ({"competitors": ["ox_valdane"]}, {"competitors": ["nobody", "ox_valdane"]},
                    {"turn_limit": 0}, {"match_type": "birdcage"}, {"decks": "mine"},
                    {"decks": [[1, 2], None]}, {"colour": "red"}):
        with pytest.raises(IllegalAction):
            RULES.start(options, 2)
    with pytest.raises(IllegalAction) as error:
        RULES.start({}, 3)
    assert error.value.code == "bad_seat_count"


def test_messages_never_name_hidden_cards() -> None:
    """A refusal names only what the actor sent."""
    s = build(((1,), (2,)))
    with pytest.raises(IllegalAction) as error:
        do(s, 0, {"type": "play", "card": "B02"})
    assert "Shoulder Charge" not in error.value.message and "A01" not in error.value.message
