"""Refused events: each raises IllegalAction with its code and changes nothing."""

from __future__ import annotations

import copy
import random

import pytest

from engine.games.super_showdown.state import Phase, parse_action
from engine.protocol import Event, EventKind, IllegalAction

APART = ((1, 1), (6, 6))


def _refused(ss, state, event, code):
    """Apply must refuse with `code` and leave the state as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        ss.rules.apply(state, event)
    assert caught.value.code == code
    assert state == before
    return caught.value


def test_the_wrong_seat_is_refused(ss):
    """Only the pending seat may move."""
    state = ss.state(phase=Phase.STARTER_MOVE, starter=1, dice=(None, 2))
    _refused(ss, state, Event.decision(0, {"type": "move", "to": [1, 1]}), "not_your_turn")
    _refused(ss, state, Event.decision(7, {"type": "move", "to": [1, 1]}), "not_your_turn")


def test_a_seat_that_already_played_is_not_pending(ss):
    """A face-down card is final: the same seat cannot play twice."""
    state = ss.play(ss.state(phase=Phase.PLAY), 0, "jet-flight")
    _refused(ss, state, Event.decision(0, {"type": "play_card", "card": "titan-grip"}),
             "not_your_turn")


def test_decisions_and_chance_out_of_turn_are_refused(ss):
    """A decision while a roll is pending, and a roll while a decision is pending."""
    rolling = ss.state(phase=Phase.FIRST_ROLL)
    _refused(ss, rolling, Event.decision(1, {"type": "move", "to": [6, 6]}), "chance_pending")
    moving = ss.state(phase=Phase.STARTER_MOVE, dice=(None, 2))
    _refused(ss, moving, Event.chance({"face": 3}), "not_chance")


@pytest.mark.parametrize(
    "action",
    [
        {},
        {"type": "move"},
        {"type": "move", "to": "f6"},
        {"type": "move", "to": [6]},
        {"type": "move", "to": [6, 5, 1]},
        {"type": "move", "to": [6.0, 5.0]},
        {"type": "move", "to": [6, 5], "extra": True},
        {"type": "move", "to": [4, 4]},  # three spaces from (6, 6): too far
        {"type": "move", "to": [5, 5, {"nested": []}]},
        {"type": "fly", "to": [6, 5]},
        {"type": "play_card", "card": "ice-blast"},  # a card, but no card is due now
        ["move", [6, 5]],
        "move",
        None,
    ],
)
def test_a_malformed_or_illegal_action_is_refused(ss, action):
    """Wrong-shaped dicts are refused with a code, never a KeyError or TypeError."""
    state = ss.state(phase=Phase.STARTER_MOVE, starter=1, dice=(None, 2))
    _refused(ss, state, Event(kind=EventKind.DECISION, seat=1, action=action),
             "illegal_action")


def test_playing_a_card_you_do_not_hold_reveals_nothing(ss):
    """An illegal play is refused without naming any card of the other hand."""
    state = ss.state(phase=Phase.PLAY)
    error = _refused(ss, state, Event.decision(0, {"type": "play_card", "card": "doom-cannon"}),
                     "illegal_action")
    for card in ss.rules.cards.ids:
        assert card not in str(error)


def test_a_speed_choice_that_is_not_offered_is_refused(ss):
    """Same-colour cards share one fate, so splitting them is refused (SU-35)."""
    state = ss.reveal(("wall-crawl", "jet-flight"), ((1, 1), (3, 4)), to=(3, 3))
    action = {"type": "choose_outcome", "victorious": ["wall-crawl"], "defeated": ["jet-flight"]}
    _refused(ss, state, Event.decision(1, action), "illegal_action")
    _refused(ss, state, Event.decision(1, {"type": "choose_outcome", "victorious": "all"}),
             "illegal_action")


@pytest.mark.parametrize("outcome", [{}, {"face": 0}, {"face": 7}, {"face": True},
                                     {"face": "3"}, {"deal": []}])
def test_a_bad_die_outcome_is_refused(ss, outcome):
    """A die roll needs a face from 1 to 6."""
    _refused(ss, ss.state(phase=Phase.FIRST_ROLL), Event.chance(outcome), "bad_outcome")


def test_a_chance_outcome_that_is_not_an_object_is_refused(ss):
    """A stored outcome must be a JSON object."""
    event = Event(kind=EventKind.CHANCE, outcome=[3])
    _refused(ss, ss.state(phase=Phase.FIRST_ROLL), event, "bad_outcome")


def test_a_bad_deal_is_refused(ss):
    """A deal must order all 18 ids once."""
    state = ss.fresh()
    ids = list(ss.rules.cards.ids)
    for deal in (ids[:17], [*ids[:17], ids[0]], [*ids[:17], 5], "shuffled", None):
        _refused(ss, state, Event.chance({"deal": deal}), "bad_outcome")


def test_anything_after_the_game_is_over_is_refused(ss):
    """Once the game is over every event is refused."""
    over = ss.reveal(("titan-grip", "ice-blast"), APART,
                     victory=("decoy-white", "force-field", "sonic-hearing", "scanner-sight"))
    assert over.phase is Phase.OVER
    _refused(ss, over, Event.decision(0, {"type": "play_card", "card": "solar-flare"}),
             "match_over")
    _refused(ss, over, Event.chance({"face": 2}), "match_over")
    assert ss.rules.legal_actions(over, 0) == [] and ss.rules.legal_actions(over, 1) == []
    with pytest.raises(IllegalAction) as caught:
        ss.rules.sample_chance(over, random.Random(1))
    assert caught.value.code == "not_chance"


def test_stored_json_with_a_wrong_shape_is_refused_on_decoding():
    """Event.from_json refuses a malformed stored event with a code."""
    for data, code in (({"kind": "decision", "seat": "0", "action": {}}, "malformed_event"),
                       ({"kind": "decision", "seat": 0, "action": []}, "malformed_action"),
                       ({"kind": "roll"}, "malformed_event")):
        with pytest.raises(IllegalAction) as caught:
            Event.from_json(data)
        assert caught.value.code == code


def test_the_typed_edge_refuses_bad_shapes_with_a_code():
    """parse_action turns JSON into typed actions or raises malformed_action."""
    assert parse_action({"type": "move", "to": [2, 3]}).to == (2, 3)
    for bad in ({"type": "move", "to": [True, 1]}, {"type": "play_card"},
                {"type": "choose_outcome", "victorious": [1], "defeated": []}, {"type": 3}, []):
        with pytest.raises(IllegalAction) as caught:
            parse_action(bad)
        assert caught.value.code == "malformed_action"


def test_bad_options_and_seat_counts_are_refused(ss):
    """best_of is 1 or 3, and the game takes exactly two seats."""
    for options, n_seats, code in (({"best_of": 2}, 2, "bad_option"),
                                   ({"rounds": 5}, 2, "unknown_option"),
                                   ({}, 3, "bad_seat_count"), ({}, 1, "bad_seat_count")):
        with pytest.raises(IllegalAction) as caught:
            ss.rules.start(options, n_seats)
        assert caught.value.code == code
