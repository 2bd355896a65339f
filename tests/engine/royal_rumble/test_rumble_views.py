"""Views, redaction, narration and determinization (RR-16, RR-19 and hidden cards)."""

from __future__ import annotations

import copy
import json
import random

from rr_helpers import RULES, Table, breathe, card_of, do, plan

from engine.games.royal_rumble.cards import card
from engine.protocol import Event

L3 = ["ironhide", "vesper", "bramble"]


def test_the_view_is_self_describing_json() -> None:
    s = Table().build(L3, {0: ["Roundhouse", "Power Surge"]})
    view = RULES.view(s, 0)
    json.dumps(view)
    assert view["game"] == "royal_rumble" and view["decision"]["seats"] == [0]
    assert view["decision"]["step"] == "choose" and view["decision"]["prompt"]
    me = view["players"][0]
    assert me["legend"]["name"] == "Cast-Iron Haskell" and me["health"] == 12
    assert [c["name"] for c in me["hand"]] == ["Roundhouse", "Power Surge"]
    assert view["players"][1]["hand"] is None and view["players"][1]["hand_count"] == 0
    assert RULES.view(s, None)["players"][0]["hand"] is None


def test_face_down_plans_are_hidden_until_the_reveal() -> None:
    """RR-16 decision, RR-19: target public, cards hidden, then all flipped at once."""
    s = Table().build(L3, {0: ["Roundhouse", "Power Surge"], 1: ["Lariat"], 2: ["Leg Catch"]})
    s = plan(s, 0, "Roundhouse", 2, "Power Surge")
    for viewer in (1, 2, None):
        text = json.dumps(RULES.view(s, viewer))
        assert "Roundhouse" not in text and "Power Surge" not in text
        assert RULES.view(s, viewer)["players"][0]["plan"]["target"] == 2
    s = plan(s, 1, "Lariat", 0)
    s = breathe(s, 2)  # the reveal: seat 2 may now defend
    view = RULES.view(s, 1)
    assert [r["attack"]["name"] for r in view["reveal"]] == ["Roundhouse", "Lariat"]
    assert view["players"][0]["plan"]["attack"] is None  # now resolving
    assert view["current"]["card"]["name"] == "Roundhouse"


def test_redaction_hides_face_down_cards_and_shuffles() -> None:
    s = Table().build(L3, {0: ["Roundhouse", "Power Surge"]})
    pick = Event.decision(0, {"type": "plan_attack", "card": card_of(s, 0, "Roundhouse")})
    assert RULES.redact(s, pick, 0) == pick.to_json()
    assert RULES.redact(s, pick, 1)["action"] == {"type": "plan_attack"}
    assert RULES.redact(s, pick, None)["action"] == {"type": "plan_attack"}
    start = RULES.start({}, 3)
    deal = Event.chance(RULES.sample_chance(start, random.Random(1)))
    shown = RULES.redact(start, deal, None)["outcome"]
    assert shown["reserve"] == 6 and len(shown["legends"]) == 3
    after = RULES.apply(start, deal)
    shuffle = Event.chance(RULES.sample_chance(after, random.Random(1)))
    assert RULES.redact(after, shuffle, 0) == {"kind": "chance", "outcome": {"shuffled": 150}}


def test_narration_names_public_facts_only() -> None:
    s = Table().build(L3, {0: ["Roundhouse"], 1: ["Lariat"]})
    pick = Event.decision(0, {"type": "plan_attack", "card": card_of(s, 0, "Roundhouse")})
    lines = RULES.narrate(s, pick)
    assert lines == ["Seat 1 picks an Attack card."]
    s = do(s, 0, pick.action or {})
    lines = RULES.narrate(s, Event.decision(0, {"type": "target", "seat": 1}))
    assert lines == ["Seat 1 points the Attack card at a Legend."]
    s = do(s, 0, {"type": "target", "seat": 1})
    lines = RULES.narrate(s, Event.decision(0, {"type": "no_boost"}))
    assert lines == ["Seat 1 places an Attack face down pointed at Seat 2."]


def test_determinize_keeps_what_the_seat_knows() -> None:
    s = Table().build(L3, {0: ["Roundhouse"], 1: ["Lariat", "Power Surge", "Duck Under"]},
                      reserve=["rook", "cobalt"])
    s = breathe(s, 0)
    s = plan(s, 1, "Lariat", 2, "Power Surge")
    before = copy.deepcopy(s)
    d = RULES.determinize(s, 0, random.Random(3))
    assert s == before
    assert d.players[0].hand == s.players[0].hand
    assert card(d.players[1].attack or "").kind == card(s.players[1].attack or "").kind
    assert card(d.players[1].boost or "").kind == card(s.players[1].boost or "").kind
    assert len(d.players[1].hand) == len(s.players[1].hand)
    pool = sorted(s.deck + s.players[1].hand + s.players[1].plan_cards() + s.players[2].hand)
    assert sorted(d.deck + d.players[1].hand + d.players[1].plan_cards()
                  + d.players[2].hand) == pool
    # the reserve is redrawn from the Legends nobody has seen (which were chosen is hidden)
    assert len(d.reserve) == len(s.reserve)
    assert not set(d.reserve) & {k for p in s.players for k in p.legends_used}
    assert RULES.view(d, 0) == RULES.view(s, 0)
