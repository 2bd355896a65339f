"""GET /api/games/ and the API's own documentation."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("who", ["anon_api", "outsider_api", "organizer_api"])
def test_anyone_may_list_the_games_with_their_options_and_bots(
        request: pytest.FixtureRequest, who: str) -> None:
    client: APIClient = request.getfixturevalue(who)
    response = client.get("/api/games/")
    assert response.status_code == 200
    toy = next(g for g in response.json() if g["key"] == "toy_showdown")
    assert toy["title"] == "Toy Showdown"
    assert (toy["min_seats"], toy["max_seats"]) == (2, 2)
    assert toy["options"]["rounds"]["default"] == 3
    assert "random" in toy["bots"]


@pytest.mark.parametrize("url", ["/api/schema/", "/api/docs/"])
def test_the_schema_and_its_browsable_docs_are_served(anon_api: APIClient, url: str) -> None:
    assert anon_api.get(url).status_code == 200


def test_the_schema_documents_the_action_body_and_error_bodies(anon_api: APIClient) -> None:
    schema: Any = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    doc = schema.json()
    post = doc["paths"]["/api/matches/{id}/actions/"]["post"]
    assert set(post["responses"]) >= {"201", "400", "403", "404", "409"}
    fields = doc["components"]["schemas"]["Action"]["properties"]
    assert set(fields) == {"seat", "action", "expected_seq", "idempotency_key"}
    assert set(doc["components"]["schemas"]["Error"]["properties"]) == {"code", "detail"}
