"""An API read carries an ETag, and a client that sends it back (If-None-Match) while
nothing changed gets a 304 with no body (config.api_etags): a phone polling a match's
state or history downloads it again only when it moved. The ETag is its asker's own: a
seat's, another seat's and a spectator's never match, and a 304 stays private."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match

pytestmark = pytest.mark.django_db


def cache_control(response: Any) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part}


def vary(response: Any) -> set[str]:
    return {part.strip().lower() for part in response.get("Vary", "").split(",") if part}


@pytest.mark.parametrize("path", ["state/", "events/", ""])
def test_a_read_sent_again_with_its_etag_is_304_until_the_match_moves(
        player_api: APIClient, toy_match: Match, path: str) -> None:
    url = f"/api/matches/{toy_match.pk}/{path}"
    first = player_api.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"')
    again = player_api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again.content) == (304, b"")
    assert again["ETag"] == etag
    assert "private" in cache_control(again) and {"authorization", "cookie"} <= vary(again)
    action = player_api.get(f"/api/matches/{toy_match.pk}/state/").json()["legal_actions"][0]
    assert player_api.post(f"/api/matches/{toy_match.pk}/actions/",
                           {"seat": 0, "action": action}, format="json").status_code == 201
    moved = player_api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag


def test_no_two_askers_share_an_etag(player_api: APIClient, player2_api: APIClient,
                                     outsider_api: APIClient, organizer_api: APIClient,
                                     toy_match: Match) -> None:
    url = f"/api/matches/{toy_match.pk}/state/"
    answers = {name: client.get(url) for name, client in [
        ("alice", player_api), ("bruno", player2_api), ("olga", outsider_api),
        ("staff", organizer_api)]}
    # Two spectators read the same answer, yet each has an ETag of their own.
    assert answers["olga"].json() == answers["staff"].json()
    assert len({answer["ETag"] for answer in answers.values()}) == 4
    # Another's ETag is no match: the answer comes in full.
    for name, client in [("bruno", player2_api), ("olga", outsider_api)]:
        other = client.get(url, HTTP_IF_NONE_MATCH=answers["alice"]["ETag"])
        assert other.status_code == 200 and other["ETag"] == answers[name]["ETag"]


def test_an_answer_kept_by_no_cache_has_no_etag(player_api: APIClient) -> None:
    response = player_api.get("/api/auth/me/data/")
    assert response.status_code == 200 and not response.has_header("ETag")


def test_a_refusal_has_no_etag(outsider_api: APIClient) -> None:
    response = outsider_api.get("/api/matches/999999/state/")
    assert response.status_code == 404 and not response.has_header("ETag")


def test_a_public_read_is_304_for_anyone_sending_its_etag(anon_api: APIClient) -> None:
    first = anon_api.get("/api/games/")
    assert first.status_code == 200
    again = APIClient().get("/api/games/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert "private" not in cache_control(again)


def test_a_head_answers_the_etag_of_the_get_and_its_304(player_api: APIClient,
                                                        toy_match: Match) -> None:
    """A client asking only whether a match moved (HEAD) reads the ETag its GET has."""
    url = f"/api/matches/{toy_match.pk}/state/"
    etag = player_api.get(url)["ETag"]
    head = player_api.head(url)
    assert (head.status_code, head.get("ETag"), head.content) == (200, etag, b"")
    again = player_api.head(url, HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again["ETag"]) == (304, etag)
    assert "private" in cache_control(again) and {"authorization", "cookie"} <= vary(again)
