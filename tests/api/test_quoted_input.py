"""A refusal quotes what the client sent cut short (engine.protocol.quoted), never whole."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework import relations
from rest_framework import serializers as drf
from rest_framework.test import APIClient

from engine.protocol import QUOTED_LENGTH, quoted
from league import serializers as league_serializers
from matches import serializers as match_serializers
from matches.models import Match
from matches.serializers import QuotesCut

pytestmark = pytest.mark.django_db

LONG = "x" * 10_000
# A refusal's body: its code, a sentence or two, the value quoted (and the JSON around it).
SHORT_BODY = 500
TOY = "toy_showdown"


def test_quoted_cuts_a_long_value_with_an_ellipsis() -> None:
    assert quoted("bob") == "'bob'"
    assert quoted(LONG) == "'" + "x" * QUOTED_LENGTH + "…'"
    assert quoted([LONG, LONG]) == "['" + "x" * (QUOTED_LENGTH - 2) + "…"
    assert quoted(7) == "7"


def refused(response: Any, code: str) -> str:
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] == code
    assert len(response.content) < SHORT_BODY, response.content[:300]
    return json.dumps(body["detail"], ensure_ascii=False)


@pytest.mark.parametrize(("body", "code"), [
    ({"game": TOY, "seats": [{"player": "alice"}, {"player": LONG}]}, "unknown_player"),
    ({"game": TOY, "seats": [{"player": "alice"}, {"bot": LONG}]}, "unknown_bot"),
    ({"game": TOY, "seats": [{"player": "alice"}, {LONG: 1}]}, "bad_seat"),
    ({"game": TOY, "options": {LONG: 1}, "seats": [{"player": "alice"}, {"open": True}]},
     "unknown_option"),
    ({"game": "supershow", "options": {f"{n}{LONG}": 1 for n in range(20)},
      "seats": [{"player": "alice"}, {"open": True}]}, "unknown_option"),
])
def test_a_match_refused_quotes_the_value_cut(player_api: APIClient, body: dict[str, Any],
                                              code: str) -> None:
    detail = refused(player_api.post("/api/matches/", body, format="json"), code)
    assert "x…" in detail


def test_an_action_of_an_unknown_type_quotes_it_cut(player_api: APIClient,
                                                    player2_api: APIClient) -> None:
    made = player_api.post("/api/matches/", {"game": "supershow", "seats": [
        {"player": "alice"}, {"player": "bruno"}]}, format="json").json()
    player2_api.post(f"/api/matches/{made['id']}/join/")
    url = f"/api/matches/{made['id']}"
    client, state = next((client, state) for client in (player_api, player2_api)
                         if (state := client.get(f"{url}/state/").json())["legal_actions"])
    detail = refused(client.post(f"{url}/actions/", {
        "seat": state["seat"], "action": {"type": LONG}}, format="json"), "malformed_action")
    assert "x…" in detail


@pytest.mark.parametrize(("url", "code"), [
    (f"/api/events/?status={LONG}", "invalid"),
    (f"/api/ratings/?game={LONG}", "unknown_game"),
])
def test_a_query_refused_quotes_the_value_cut(organizer_api: APIClient, url: str,
                                              code: str) -> None:
    detail = refused(organizer_api.get(url), code)
    assert "x…" in detail


def test_a_players_history_refuses_an_outcome_quoting_it_cut(
        organizer_api: APIClient, player_api: APIClient, toy_match: Match) -> None:
    me = player_api.get("/api/auth/me/").json()["player"]
    detail = refused(organizer_api.get(f"/api/players/{me}/matches/?result={LONG}"),
                     "invalid")
    assert "x…" in detail


@pytest.mark.parametrize("body", [
    {"name": "e", "game": TOY, "format": "round_robin", "format_options": {LONG: 1}},
    {"name": "e", "game": TOY, "format": "round_robin",
     "format_options": {"tiebreaks": [LONG]}},
    {"name": "e", "game": TOY, "format": "round_robin", "season": "9" * 4000},
])
def test_an_event_refused_quotes_the_value_cut(organizer_api: APIClient,
                                               body: dict[str, Any]) -> None:
    response = organizer_api.post("/api/events/", body, format="json")
    assert response.status_code == 400
    assert len(response.content) < SHORT_BODY, response.content[:300]


def test_a_simulation_refused_quotes_the_options_cut(organizer_api: APIClient) -> None:
    detail = refused(organizer_api.post("/api/simulations/", {
        "game": TOY, "bots": ["random", "random"], "matches": 1, "options": {LONG: 1}},
        format="json"), "unknown_option")
    assert "x…" in detail


QUOTING_FIELDS = (drf.ChoiceField, relations.RelatedField)


def _writable_fields(serializer: drf.Serializer) -> list[tuple[str, drf.Field]]:
    found = []
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        if isinstance(field, drf.ListSerializer):
            field = field.child
        if isinstance(field, drf.Serializer):
            found += _writable_fields(field)
            continue
        found += [(name, f) for f in (field, getattr(field, "child", None),
                                      getattr(field, "child_relation", None)) if f]
    return found


def test_no_field_a_client_writes_quotes_its_value_whole() -> None:
    """DRF's choice and related fields quote what was sent whole in their refusals."""
    whole = []
    for module in (match_serializers, league_serializers):
        for name in dir(module):
            made = getattr(module, name)
            if (isinstance(made, type) and issubclass(made, drf.Serializer)
                    and made.__module__ == module.__name__):
                whole += [f"{name}.{field_name}" for field_name, field in
                          _writable_fields(made())
                          if isinstance(field, QUOTING_FIELDS)
                          and not isinstance(field, QuotesCut)]
    assert whole == []
