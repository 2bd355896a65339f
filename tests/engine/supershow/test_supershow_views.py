"""Views, redaction, narration and determinization: nobody sees a hidden card."""

from __future__ import annotations

import copy
import json
import random

from supershow_helpers import RULES, build, do

from engine.protocol import Event


def test_the_view_describes_the_whole_table() -> None:
    s = build(((1, 13), (2,)), in_play=((3,), (4,)), discards=((5,), ()))
    view = RULES.view(s, 0)
    me, them = view["players"]
    assert me["competitor"]["skills"]["power"] == 10 and me["competitor"]["gimmick"]
    assert [c["id"] for c in me["hand"]] == ["A01", "A13"] and them["hand"] is None
    assert them["hand_count"] == 1 and me["deck_count"] == 26
    assert me["in_play"] == [{"against": 1, "cards": [me["in_play"][0]["cards"][0]]}]
    assert me["in_play"][0]["cards"][0]["name"] == "Chop Flurry"
    assert view["decision"]["seats"] == [0] and view["decision"]["asked"] == "turn"
    assert view["crowd_meter"]["next"]["name"]
    json.dumps(view)


def test_a_spectator_sees_no_hand() -> None:
    s = build(((1, 13), (2,)))
    assert all(p["hand"] is None for p in RULES.view(s, None)["players"])


def test_the_dice_and_the_finish_are_in_the_view() -> None:
    s = build(((30,), (2,)), in_play=((1, 13), ()))
    s = do(do(s, 0, {"type": "play", "card": "A30"}), 1, {"type": "no_stop"})
    s = RULES.apply(s, Event.chance({"dice": ["power"]}))
    view = RULES.view(s, 1)
    assert view["finish"]["roll"] == {"seat": 0, "skill": "power", "value": 11}
    assert view["waiting_for"] == "chance"


def test_redaction_hides_shuffles_and_a_searched_card() -> None:
    start = RULES.start({}, 2)
    shuffle = Event.chance(RULES.sample_chance(start, random.Random(1)))
    for viewer in (0, 1, None):
        assert RULES.redact(start, shuffle, viewer) == {
            "kind": "chance", "outcome": {"shuffle": {"seat": 0, "cards": 30}}}
    s = build(((21,), (1,)), in_play=((1,), ()))
    s = do(do(s, 0, {"type": "play", "card": "A21"}), 1, {"type": "no_stop"})
    pick = Event.decision(0, {"type": "choose", "card": "A28"})
    assert RULES.redact(s, pick, 0) == pick.to_json()
    assert RULES.redact(s, pick, 1)["action"] == {"type": "choose"}
    assert RULES.redact(s, pick, None)["action"] == {"type": "choose"}
    lines = RULES.narrate(s, pick)
    assert lines and not any("Valley Driver" in line for line in lines)


def test_narration_tells_plays_stops_and_rolls() -> None:
    s = build(((3,), (5, 1)))
    lines = RULES.narrate(s, Event.decision(0, {"type": "play", "card": "A03"}))
    assert lines == ['Ox Valdane plays Lead Strike "Chop Flurry" (#3).']
    s = do(s, 0, {"type": "play", "card": "A03"})
    lines = RULES.narrate(s, Event.decision(1, {"type": "stop", "card": "B05"}))
    assert 'Mira Quickstep STOPS it with Lead Technique "Side Headlock" (#5)!' in lines
    s = do(s, 1, {"type": "stop", "card": "B05"})
    lines = RULES.narrate(s, Event.chance({"dice": ["power", "agility"]}))
    assert lines[:2] == ["Ox Valdane rolls POWER for 10.", "Mira Quickstep rolls AGILITY for 10."]


def test_determinize_keeps_what_the_seat_knows() -> None:
    s = build(((1, 2, 3), (4, 5, 6, 7)), discards=((8,), (9,)), in_play=((10,), (11,)))
    d = RULES.determinize(s, 0, random.Random(3))
    assert d.players[0].hand == s.players[0].hand
    assert sorted(d.players[0].deck) == sorted(s.players[0].deck)
    assert len(d.players[1].hand) == 4
    assert sorted(d.players[1].hand + d.players[1].deck) == sorted(
        s.players[1].hand + s.players[1].deck)
    assert RULES.view(d, 0) == RULES.view(s, 0)
    before = copy.deepcopy(s)
    RULES.determinize(s, 0, random.Random(4))
    assert s == before
