"""A list's text filter left empty or blank (`?search=`, `?game=`) is left out, as a form's
empty field is, and the schema says so: no `minLength` on it. The schema said
`minLength: 1` for `search` while `?search=` was taken, and `?search=%20` was 400."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league.services import player_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("url", "name"), [
    ("/api/players/", "search"), ("/api/ratings/", "search"), ("/api/ratings/", "game"),
    ("/api/matches/", "game"), ("/api/matches/", "player"), ("/api/matches/", "invited"),
    ("/api/matches/", "awaiting"), ("/api/events/", "game"), ("/api/round-scores/", "game"),
    ("/api/players/{me}/matches/", "opponent"), ("/api/players/{me}/matches/", "game"),
    ("/api/players/{me}/ratings/history/", "game"),
])
@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_or_blank_text_filter_is_left_out(
        player_api: APIClient, player: Any, player2: Any, toy_match: Any, url: str,
        name: str, value: str) -> None:
    url = url.format(me=player_for(player).pk)
    unfiltered = player_api.get(url)
    response = player_api.get(url, {name: value})
    assert response.status_code == 200, response.content
    assert response.json() == unfiltered.json()


def test_the_schema_does_not_forbid_an_empty_text_filter(anon_api: APIClient) -> None:
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    texts = [(op["operationId"], p["name"], p["schema"])
             for ops in doc["paths"].values() for op in ops.values()
             for p in op.get("parameters", [])
             if p["in"] == "query" and p["schema"].get("type") == "string"
             and "enum" not in p["schema"]]
    assert {name for _, name, _ in texts} >= {"search", "game", "player", "opponent"}
    assert [t for t in texts if "minLength" in t[2]] == []
