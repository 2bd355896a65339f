"""Bad input is refused with a clear code and changes nothing; malformed never crashes."""

from __future__ import annotations

import pytest
from rr_helpers import RULES, Table, breathe, card_of, do, plan, refused, settle

from engine.games.royal_rumble.state import Step
from engine.protocol import Event, IllegalAction

L3 = ["ironhide", "vesper", "bramble"]


def picked(attack: str = "Roundhouse") -> object:
    s = Table().build(L3, {0: [attack, "Power Surge", "Second Wind", "Duck Under"]},
                      reserve=["rook"])
    return do(s, 0, {"type": "plan_attack", "card": card_of(s, 0, attack)})


def test_an_attack_at_yourself_is_refused() -> None:
    assert refused(picked(), 0, {"type": "target", "seat": 0}) == "self_target"


def test_an_attack_at_an_eliminated_legend_is_refused() -> None:
    s = Table().build(["ironhide", "vesper", None, "bramble"], {0: ["Roundhouse"]}, out=[2])
    s = do(s, 0, {"type": "plan_attack", "card": card_of(s, 0, "Roundhouse")})
    assert refused(s, 0, {"type": "target", "seat": 2}) == "target_eliminated"
    assert refused(s, 0, {"type": "target", "seat": 9}) == "bad_target"


def test_two_boosts_are_refused() -> None:
    s = do(picked(), 0, {"type": "target", "seat": 1})
    s = do(s, 0, {"type": "boost", "card": card_of(s, 0, "Power Surge")})
    assert refused(s, 0, {"type": "boost", "card": card_of(s, 0, "Second Wind")}) == \
        "one_boost_only"


def test_a_second_attack_is_refused() -> None:
    s = Table().build(L3, {0: ["Roundhouse", "Snap Kick"]})
    s = plan(s, 0, "Roundhouse", 1)
    assert refused(s, 0, {"type": "plan_attack", "card": card_of(s, 0, "Snap Kick")}) == \
        "one_attack_only"


def test_a_boost_that_is_not_a_boost_or_an_attack_that_is_not_an_attack() -> None:
    s = do(picked(), 0, {"type": "target", "seat": 1})
    assert refused(s, 0, {"type": "boost", "card": card_of(s, 0, "Duck Under")}) == "not_a_boost"
    s = Table().build(L3, {0: ["Roundhouse", "Duck Under"]})
    assert refused(s, 0, {"type": "plan_attack", "card": card_of(s, 0, "Duck Under")}) == \
        "not_an_attack"
    assert refused(s, 0, {"type": "plan_attack", "card": "a150"}) == "card_not_in_hand"


def test_a_defense_against_a_type_it_does_not_cancel_is_refused() -> None:
    s = Table().build(L3, {0: ["Roundhouse"], 1: ["Leg Catch", "Duck Under"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = breathe(s, 1)
    s = breathe(s, 2)
    assert s.step is Step.DEFEND
    assert refused(s, 1, {"type": "defend", "card": card_of(s, 1, "Duck Under")}) == \
        "defense_cannot_cancel"


def test_a_defense_against_an_unblockable_attack_is_refused() -> None:
    s = Table().build(L3, {0: ["Whirlwind Kick", "Blind Side", "Snap Kick"],
                           1: ["Leg Catch"]})
    s = plan(s, 0, "Whirlwind Kick", 1, "Blind Side")
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.step is Step.FOLLOW
    s = do(s, 0, {"type": "follow_up", "card": card_of(s, 0, "Snap Kick"), "seat": 1})
    assert s.step is Step.DEFEND  # the follow-up does not carry the Boost's unblockable
    s2 = Table().build(L3, {0: ["Roundhouse", "Blind Side"], 1: ["Leg Catch"],
                            2: ["Run-In"]})
    s2 = plan(s2, 0, "Roundhouse", 1, "Blind Side")
    s2 = breathe(s2, 1)
    s2 = breathe(s2, 2)
    assert s2.step is Step.INTERVENE
    assert refused(s2, 1, {"type": "defend", "card": card_of(s2, 1, "Leg Catch")}) == \
        "not_your_turn"


def test_a_signature_without_a_trigger_is_refused() -> None:
    s = Table().build(L3, {0: ["Roundhouse"]})
    assert refused(s, 0, {"type": "signature", "seat": 1}) == "no_signature_trigger"


def test_a_ref_against_an_ordinary_attack_is_refused() -> None:
    s = Table().build(L3, {0: ["Roundhouse"], 2: ["Ref's Eye", "Run-In"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.step is Step.INTERVENE
    assert refused(s, 2, {"type": "ref", "card": card_of(s, 2, "Ref's Eye")}) == \
        "not_a_cheap_trick"


@pytest.mark.parametrize("action", [
    None, 3, "plan", [], {}, {"type": 7}, {"type": "fly"}, {"type": "plan_attack"},
    {"type": "plan_attack", "card": 5}, {"type": "plan_attack", "card": None},
    {"type": "target", "seat": "1"}, {"type": "target", "seat": True},
    {"type": "target", "seat": 1, "card": "a001"}, {"type": "breather", "x": 1},
    {"type": "follow_up", "card": "a001"}, {"type": "plan_attack", "card": "zzz"},
    {"type": "plan_attack", "card": "sig_nobody"},
])
def test_malformed_actions_never_crash(action: object) -> None:
    s = Table().build(L3, {0: ["Roundhouse"]})
    with pytest.raises(IllegalAction) as error:
        RULES.apply(s, Event(kind=Event.decision(0, {}).kind, seat=0,
                             action=action))  # type: ignore[arg-type]
    assert error.value.code in {"malformed_action", "illegal_action", "card_not_in_hand",
                                "out_of_order"}


def test_the_wrong_seat_and_a_chance_event_are_refused() -> None:
    s = Table().build(L3, {0: ["Roundhouse"]})
    assert refused(s, 1, {"type": "breather"}) == "not_your_turn"
    with pytest.raises(IllegalAction):
        RULES.apply(s, Event.chance({"order": []}))


def test_a_target_past_the_table_is_named_from_seat_1() -> None:
    """The refusal repeated the seat as the action gave it, from 0 ("There is no seat 3"
    at a table of three), where every sentence counts seats from 1."""
    try:
        RULES.apply(picked(), Event.decision(0, {"type": "target", "seat": 3}))
    except IllegalAction as error:
        assert (error.code, error.message) == (
            "bad_target", "There is no Seat 4: the table's seats are Seat 1 to Seat 3.")
    else:
        raise AssertionError("a target past the table was accepted")
