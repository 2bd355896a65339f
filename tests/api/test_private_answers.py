"""An API answer to a signed-in request says it is for the asker alone
(config.private_answers); a public one stays as it was, and a token is kept by no cache."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.models import Match
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def cache_control(response: Any) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part}


def vary(response: Any) -> set[str]:
    return {part.strip().lower() for part in response.get("Vary", "").split(",") if part}


def test_a_seats_state_by_token_is_private_and_varies_by_token(
        player_api: APIClient, toy_match: Match) -> None:
    response = player_api.get(f"/api/matches/{toy_match.pk}/state/")
    assert response.status_code == 200 and response.json()["legal_actions"]
    assert "private" in cache_control(response) and "public" not in cache_control(response)
    assert {"authorization", "cookie"} <= vary(response)


def test_an_answer_by_session_is_private_and_varies_by_cookie(player: Any) -> None:
    client = Client()
    assert client.login(username=player.username, password=PASSWORD)
    response = client.get("/api/auth/me/")
    assert response.status_code == 200
    assert "private" in cache_control(response)
    assert "cookie" in vary(response)


@pytest.mark.parametrize("path", ["/api/matches/{match}/", "/api/matches/{match}/events/",
                                  "/api/events/", "/api/players/", "/api/auth/me/"])
def test_every_signed_in_read_is_private(player_api: APIClient, toy_match: Match,
                                         path: str) -> None:
    response = player_api.get(path.format(match=toy_match.pk))
    assert response.status_code == 200
    assert "private" in cache_control(response)


def test_a_write_by_token_is_private_and_a_refusal_too(player_api: APIClient,
                                                       toy_match: Match) -> None:
    refused = player_api.post(f"/api/matches/{toy_match.pk}/actions/",
                              {"seat": 1, "action": {}}, format="json")
    assert refused.status_code == 403 and "private" in cache_control(refused)


def test_an_answer_stating_its_own_caching_keeps_it(player_api: APIClient) -> None:
    response = player_api.get("/api/auth/me/data/")
    assert cache_control(response) == {"private", "no-store"}


def test_a_public_answer_to_no_one_in_particular_is_not_private_but_varies_by_asker(
        anon_api: APIClient) -> None:
    """The games and the schema read the same to everyone, but for their ETag, the
    asker's: a cache may keep them, by who asked."""
    for path in ("/api/games/", "/api/schema/", "/api/"):
        response = anon_api.get(path)
        assert response.status_code == 200
        assert "private" not in cache_control(response)
        assert {"authorization", "cookie"} <= vary(response)


def test_a_not_modified_answer_to_no_one_in_particular_varies_by_asker(
        anon_api: APIClient) -> None:
    etag = anon_api.get("/api/games/")["ETag"]
    response = anon_api.get("/api/games/", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert {"authorization", "cookie"} <= vary(response)


@pytest.mark.parametrize("path", ["/api/matches/{match}/", "/api/events/", "/api/players/",
                                  "/api/matches/{match}/state/", "/api/nothing-here/"])
def test_an_anonymous_refusal_varies_by_asker(anon_api: APIClient, toy_match: Match,
                                              path: str) -> None:
    """A 401 to nobody, where a token's request for the same address reads its answer:
    no cache hands the one to the other."""
    response = anon_api.get(path.format(match=toy_match.pk))
    assert response.status_code in (401, 404)
    assert {"authorization", "cookie"} <= vary(response)


def test_an_anonymous_write_varies_by_asker(anon_api: APIClient) -> None:
    response = anon_api.post("/api/auth/token/", {"username": "nobody", "password": "x"},
                             format="json")
    assert response.status_code == 400
    assert {"authorization", "cookie"} <= vary(response)


def test_a_signed_in_answer_is_still_private_and_varies_once_by_each(
        player_api: APIClient) -> None:
    response = player_api.get("/api/games/")
    assert "private" in cache_control(response)
    names = [part.strip().lower() for part in response["Vary"].split(",")]
    assert names.count("authorization") == names.count("cookie") == 1


def test_a_token_is_kept_by_no_cache(player: Any, anon_api: APIClient) -> None:
    response = anon_api.post("/api/auth/token/", {"username": player.username,
                                                  "password": PASSWORD}, format="json")
    assert response.status_code == 200 and response.json()["token"]
    assert "no-store" in cache_control(response)
