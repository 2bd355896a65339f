"""`?format=` picks how the API answers (json, or api for the browsable page): one no
operation answers in is refused as an Accept header none satisfies is, 406
`not_acceptable`, naming the formats it does answer in. It was 404 (a match's address
said "No such match."), as if the address answered nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/api/matches/", "/api/matches/{id}/", "/api/games/",
                                 "/api/events/", "/api/auth/me/"])
def test_an_unknown_format_is_406_not_acceptable_naming_those_served(
        player_api: APIClient, toy_match: Match, url: str) -> None:
    url = url.format(id=toy_match.pk)
    response = player_api.get(url, {"format": "xml"})
    assert response.status_code == 406, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"code": "not_acceptable", "detail": "No format 'xml' here: "
                                                                   "`format` is api or json, "
                                                                   "or left out."}
    assert player_api.get(url, {"format": "json"}).status_code == 200


def test_a_write_with_an_unknown_format_writes_nothing(player_api: APIClient) -> None:
    response = player_api.post("/api/matches/?format=xml", {
        "game": "toy_showdown", "seats": [{"player": "alice"}, {"open": True}]},
        format="json")
    assert (response.status_code, response.json()["code"]) == (406, "not_acceptable")
    assert not Match.objects.exists()


def test_the_schema_documents_the_406_and_the_400_on_every_operation(
        anon_api: APIClient) -> None:
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for operations in doc["paths"].values():
        for operation in operations.values():
            assert "not_acceptable" in operation["responses"]["406"]["description"]
            assert "400" in operation["responses"]


@pytest.mark.parametrize("url", ["/api/matches/", "/api/matches/{id}/", "/api/auth/me/",
                                 "/api/matches/{id}/state/"])
def test_a_format_given_twice_is_400_repeated_parameter(
        player_api: APIClient, toy_match: Match, url: str) -> None:
    """DRF answered in the last of them: the client meant one."""
    response = player_api.get(f"{url.format(id=toy_match.pk)}?format=api&format=json")
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"code": "repeated_parameter",
                               "detail": "format is given 2 times: give it once."}


def test_a_write_with_a_format_given_twice_writes_nothing(player_api: APIClient) -> None:
    response = player_api.post("/api/matches/?format=json&format=json", {
        "game": "toy_showdown", "seats": [{"player": "alice"}, {"open": True}]},
        format="json")
    assert (response.status_code, response.json()["code"]) == (400, "repeated_parameter")
    assert not Match.objects.exists()
