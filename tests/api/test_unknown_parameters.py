"""A read takes the query parameters its schema documents (a list its pages' too) and
`format`, and no other (config.api_parameters): a filter misspelt or another list's is
400 `unknown_parameter`, naming it, where it was left unread and the whole list answered
as if it had been filtered, and a single object's read as if it had been read."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league import events
from league.services import player_for
from matches.models import Match

pytestmark = pytest.mark.django_db

OPENAPI_JSON = "application/vnd.oai.openapi+json"


def _lists(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every paginated read of the schema: its path and its operation."""
    found = []
    for path, operations in schema["paths"].items():
        operation = operations.get("get")
        ok = (operation or {}).get("responses", {}).get("200", {})
        ref = ok.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref")
        if ref and "Paginated" in ref:
            found.append((path, operation))
    return found


@pytest.fixture
def lists(organizer_api: APIClient, organizer: Any, player: Any,
          toy_match: Match) -> list[tuple[str, dict[str, Any]]]:
    """Every list of the schema with its path's ids those of real rows."""
    events.create_event(name="Lists", game="super_showdown", format="round_robin",
                        by=organizer)
    player_id = player_for(player).pk
    schema = organizer_api.get("/api/schema/", HTTP_ACCEPT=OPENAPI_JSON).json()
    return [(path.replace("{id}", str(player_id)), operation)
            for path, operation in _lists(schema)]


def test_every_list_refuses_a_parameter_it_does_not_take_naming_it(
        organizer_api: APIClient, lists: list[tuple[str, dict[str, Any]]]) -> None:
    assert len(lists) >= 8
    for url, operation in lists:
        assert organizer_api.get(url).status_code == 200, url
        response = organizer_api.get(url, {"stauts": "active", "page": 1})
        assert response.status_code == 400, (url, response.content)
        body = response.json()
        assert body["code"] == "unknown_parameter", (url, body)
        assert body["detail"].startswith("This list takes no parameter 'stauts': it takes "), body
        assert "unknown_parameter" in operation["responses"]["400"]["description"], url


def test_every_list_takes_the_parameters_it_documents_its_pages_and_format(
        organizer_api: APIClient, lists: list[tuple[str, dict[str, Any]]]) -> None:
    """Each documented parameter given as the empty text: read as left out (a text
    filter), or refused as `invalid` (a number's), but never unknown."""
    for url, operation in lists:
        names = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
        assert {"page", "page_size"} <= set(names), url
        for name in names:
            response = organizer_api.get(url, {name: ""})
            assert response.status_code in (200, 400), (url, name, response.content)
            assert response.json().get("code") != "unknown_parameter", (url, name)
        response = organizer_api.get(url, {"format": "json", "page": 1, "page_size": 5})
        assert response.status_code == 200, (url, response.content)


def test_several_unknown_parameters_are_named_together(organizer_api: APIClient) -> None:
    response = organizer_api.get("/api/teams/?q=reds&sort=name&page=1")
    assert response.json() == {
        "code": "unknown_parameter",
        "detail": "This list takes no parameter 'q', 'sort': it takes format, page, "
                  "page_size."}


def test_a_list_filter_misspelt_no_longer_answers_the_whole_list(
        player_api: APIClient, toy_match: Match) -> None:
    assert player_api.get("/api/matches/", {"status": "finished"}).json()["count"] == 0
    response = player_api.get("/api/matches/", {"statu": "finished"})
    assert (response.status_code, response.json()["code"]) == (400, "unknown_parameter")


def test_a_single_object_read_refuses_a_parameter_it_does_not_take_too(
        player_api: APIClient, toy_match: Match) -> None:
    """A match's state read `?seet=0` as if it had read the seat asked for."""
    state = f"/api/matches/{toy_match.pk}/state/"
    assert player_api.get(state, {"seat": 0, "format": "json"}).status_code == 200
    for url in (state, f"/api/matches/{toy_match.pk}/", "/api/auth/me/", "/api/games/"):
        response = player_api.get(url, {"seet": 0})
        assert response.status_code == 400, (url, response.content)
        assert response.json()["code"] == "unknown_parameter", url
    assert player_api.get(state, {"seet": 0}).json()["detail"] == (
        "This read takes no parameter 'seet': it takes format, seat.")
    assert player_api.head(state, {"seet": 0}).status_code == 400


def test_every_read_of_the_schema_documents_the_refusal(organizer_api: APIClient) -> None:
    schema = organizer_api.get("/api/schema/", HTTP_ACCEPT=OPENAPI_JSON).json()
    reads = [(path, operations["get"]) for path, operations in schema["paths"].items()
             if "get" in operations]
    assert len(reads) >= 20
    for path, operation in reads:
        assert "unknown_parameter" in operation["responses"]["400"]["description"], path


def test_a_conditional_read_with_the_parameters_it_takes_is_still_304(
        player_api: APIClient, toy_match: Match) -> None:
    url = f"/api/matches/{toy_match.pk}/state/"
    first = player_api.get(url, {"seat": 0})
    again = player_api.get(url, {"seat": 0}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    refused = player_api.get(url, {"seat": 0, "sete": 1}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert refused.status_code == 400


def test_the_schema_and_its_docs_take_their_own_parameters(organizer_api: APIClient) -> None:
    assert organizer_api.get("/api/schema/", {"format": "json", "lang": "en"}).status_code == 200
    assert organizer_api.get("/api/docs/").status_code == 200
