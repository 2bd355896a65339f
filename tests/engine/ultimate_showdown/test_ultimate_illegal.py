"""Bad input is refused with a clear code and changes nothing; malformed dicts never crash."""

from __future__ import annotations

import copy

import pytest

from engine.games.ultimate_showdown import RULES
from engine.protocol import Event, IllegalAction


def refused(ut, state, seat, action):
    """The code of the refusal; the state is left as it was."""
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        ut.decide(state, seat, action)
    assert state == snapshot
    return err.value.code


def test_a_bet_on_a_slot_that_does_not_exist(ut):
    state = ut.to_bets(4)
    for slot in (0, 9, -1, "3", 2.0, True, None):
        assert refused(ut, state, 0, {"type": "bet", "box": "semi", "slot": slot}) in (
            "no_such_slot", "illegal_action")
    assert refused(ut, state, 0, {"type": "bet", "box": "semi", "slot": 9}) == "no_such_slot"


def test_two_bets_in_one_box(ut):
    state = ut.decide(ut.to_bets(4), 0, {"type": "bet", "box": "final", "slot": 2})
    assert refused(ut, state, 0, {"type": "bet", "box": "final", "slot": 5}) == \
        "box_already_bet"
    assert refused(ut, state, 0, {"type": "bet", "box": "semi", "slot": 2}) == \
        "chip_already_used"
    assert refused(ut, state, 0, {"type": "bet", "box": "jackpot", "slot": 5}) == "no_such_box"


def test_a_vote_for_a_contender_not_in_the_match(ut):
    state = ut.bet_all(ut.to_bets(4), ut.default_bets(4))
    assert refused(ut, state, 0, {"type": "vote_match", "slot": 3}) == "not_in_match"
    assert refused(ut, state, 0, {"type": "vote_match", "slot": "1"}) == "not_in_match"


def test_playing_a_contender_not_in_hand(ut):
    state = ut.vote_challenge(ut.sides(ut.fresh(4)), ["A"] * 4)
    theirs = state.hands[1][0]
    mine = sorted(state.hands[0])
    code = refused(ut, state, 0, {"type": "play_contenders", "box_a": [theirs],
                                  "box_b": [mine[0]]})
    assert code == "not_in_hand"


def test_the_wrong_number_of_contenders_for_the_player_count(ut):
    state = ut.vote_challenge(ut.sides(ut.fresh(4)), ["A"] * 4)
    mine = sorted(state.hands[0])
    action = {"type": "play_contenders", "box_a": mine[:2], "box_b": [mine[2]]}
    assert refused(ut, state, 0, action) == "wrong_count"
    action = {"type": "play_contenders", "box_a": [mine[0]], "box_b": [mine[0]]}
    assert refused(ut, state, 0, action) == "duplicate_contender"
    three = ut.vote_challenge(ut.sides(ut.fresh(3)), ["A"] * 3)
    hand = sorted(three.hands[0])
    action = {"type": "play_contenders", "box_a": [hand[0]], "box_b": [hand[1]]}
    assert refused(ut, three, 0, action) == "wrong_count"


def test_the_wrong_kind_of_action_and_the_wrong_seat(ut):
    state = ut.fresh(4)
    assert refused(ut, state, 0, {"type": "vote_challenge", "space": "A"}) == "wrong_action"
    assert refused(ut, state, 1, {"type": "choose_sides", "sides": ["front", "front"]}) == \
        "not_your_turn"
    assert refused(ut, state, 0, {"type": "choose_sides", "sides": ["up", "down"]}) == \
        "no_such_side"
    voted = ut.decide(ut.sides(state), 2, {"type": "vote_challenge", "space": "A"})
    assert refused(ut, voted, 2, {"type": "vote_challenge", "space": "B"}) == "not_your_turn"
    assert refused(ut, voted, 1, {"type": "vote_challenge", "space": "C"}) == "no_such_space"


def test_a_refusal_message_reveals_no_hidden_card(ut):
    state = ut.vote_challenge(ut.sides(ut.fresh(4)), ["A"] * 4)
    theirs = state.hands[1][0]
    with pytest.raises(IllegalAction) as err:
        ut.decide(state, 0, {"type": "play_contenders", "box_a": [theirs], "box_b": ["x"]})
    for card in (*state.hands[1], *state.hands[2], *state.hands[3]):
        assert card not in err.value.message
        assert RULES.cards.contenders[card].name not in err.value.message


MALFORMED = [
    {}, {"type": None}, {"type": 3}, {"type": ["bet"]}, {"type": "bet"},
    {"type": "bet", "box": None, "slot": None}, {"type": "bet", "box": ["x"], "slot": [1]},
    {"type": "bet", "box": {"a": 1}, "slot": {}}, {"type": "vote_match"},
    {"type": "vote_match", "slot": [1]}, {"type": "vote_match", "slot": {"x": 1}},
    {"type": "play_contenders"}, {"type": "play_contenders", "box_a": "abc", "box_b": None},
    {"type": "play_contenders", "box_a": [1, 2], "box_b": [{}]},
    {"type": "discard", "cards": "all"}, {"type": "discard", "cards": [[1]]},
    {"type": "choose_sides", "sides": None}, {"type": "choose_sides", "sides": [[], {}]},
    {"type": "vote_challenge", "space": ["A"]}, {"type": "vote_player", "seat": [0]},
]


@pytest.mark.parametrize("action", MALFORMED)
def test_malformed_actions_are_refused_in_every_phase_without_a_crash(ut, action):
    states = [ut.fresh(4), ut.sides(ut.fresh(4)),
              ut.vote_challenge(ut.sides(ut.fresh(4)), ["A"] * 4), ut.to_bets(4),
              ut.bet_all(ut.to_bets(4), ut.default_bets(4)),
              ut.finish_round(ut.to_bets(4))]
    for state in states:
        for seat in RULES.pending(state).seats[:1]:
            with pytest.raises(IllegalAction):
                ut.decide(state, seat, action)
    with pytest.raises(IllegalAction):
        Event.from_json({"kind": "decision", "seat": 0, "action": "bet"})


def test_a_bad_chance_outcome_is_refused(ut):
    start = RULES.start({}, 4)
    for outcome in ({}, {"contenders": "x"}, {"contenders": ut.people[:-1],
                                              "challenges": ut.cards, "pow": 0},
                    {"contenders": ut.people, "challenges": ut.cards, "pow": 9}):
        with pytest.raises(IllegalAction):
            ut.chance(start, outcome)
    state = ut.play_all(ut.vote_challenge(ut.sides(ut.fresh(4)), ["A"] * 4))
    for outcome in ({}, {"box_b": [], "slots": []}, {"box_b": "x", "slots": None}):
        with pytest.raises(IllegalAction):
            ut.chance(state, outcome)
