"""A 201 answer names what it made in its Location header, as HTTP has a client expect."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import services

pytestmark = pytest.mark.django_db

TOY = "toy_showdown"


def followed(client: APIClient, response: Any) -> Any:
    """The resource the 201's Location names, read back through the API."""
    assert response.status_code == 201, response.content
    location = response["Location"]
    assert location.startswith("http://testserver/api/")
    again = client.get(location)
    assert again.status_code == 200
    return again.json()


def test_a_created_match_is_at_its_location(player_api: APIClient, player: Any) -> None:
    made = player_api.post("/api/matches/", {"game": TOY, "seats": [
        {"player": "alice"}, {"open": True}], "idempotency_key": "m-1"}, format="json")
    assert made["Location"] == f"http://testserver/api/matches/{made.json()['id']}/"
    assert followed(player_api, made) == made.json()
    resent = player_api.post("/api/matches/", {"game": TOY, "seats": [
        {"player": "alice"}, {"open": True}], "idempotency_key": "m-1"}, format="json")
    assert resent["Location"] == made["Location"]  # a retry names the same match


def test_a_rematch_made_is_at_its_location_and_one_joined_has_none(
        player_api: APIClient, player2_api: APIClient, player: Any, player2: Any) -> None:
    match = services.create_match(game=TOY, options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    services.resign(match=match, user=player)
    made = player2_api.post(f"/api/matches/{match.pk}/rematch/")
    assert followed(player2_api, made)["rematch_of"] == match.pk
    joined = player_api.post(f"/api/matches/{match.pk}/rematch/")
    assert joined.status_code == 200 and not joined.has_header("Location")


def test_a_created_season_team_and_event_are_at_their_locations(
        organizer_api: APIClient, player: Any, player2: Any) -> None:
    season = organizer_api.post("/api/seasons/", {"name": "Autumn", "game": TOY},
                                format="json")
    assert followed(organizer_api, season)["id"] == season.json()["id"]
    team = organizer_api.post("/api/teams/", {"name": "Reds", "members": ["alice", "bruno"]},
                              format="json")
    assert followed(organizer_api, team)["name"] == "Reds"
    event = organizer_api.post("/api/events/", {
        "name": "Cup", "game": TOY, "format": "round_robin", "deadline_bot": "random",
        "season": season.json()["id"]}, format="json")
    assert followed(organizer_api, event)["name"] == "Cup"


def test_a_created_simulation_job_is_at_its_location(organizer_api: APIClient) -> None:
    job = organizer_api.post("/api/simulations/", {
        "game": "super_showdown", "bots": ["random", "random"], "matches": 1, "seed": 1},
        format="json")
    assert followed(organizer_api, job)["id"] == job.json()["id"]


def test_a_refused_create_names_no_location(player_api: APIClient, player: Any) -> None:
    refused = player_api.post("/api/matches/", {"game": "nope", "seats": [
        {"player": "alice"}]}, format="json")
    assert refused.status_code == 400 and not refused.has_header("Location")


def test_a_new_account_names_its_player_in_location(anon_api: APIClient) -> None:
    made = anon_api.post("/api/auth/register/", {"username": "dora",
                                                 "password": "a long pass phrase 7"},
                         format="json")
    assert made.status_code == 201, made.content
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Token {made.json()['token']}")
    assert followed(reader, made)["username"] == "dora"


def test_a_new_entrant_names_its_event_which_lists_it(
        organizer_api: APIClient, player_api: APIClient, player: Any) -> None:
    """An entrant has no address of its own: the Location is its Event's, whose
    `entrants` hold it by its key, for an organizer's entry and a player's own alike."""
    event = organizer_api.post("/api/events/", {
        "name": "Cup", "game": TOY, "format": "round_robin", "deadline_bot": "random",
        "open_entry": True}, format="json").json()
    url = f"/api/events/{event['id']}/"
    bot = organizer_api.post(f"{url}entrants/", {"bot": "random", "idempotency_key": "b"},
                             format="json")
    assert bot["Location"] == f"http://testserver{url}"
    assert bot.json()["key"] in {e["key"] for e in followed(organizer_api, bot)["entrants"]}
    resent = organizer_api.post(f"{url}entrants/", {"bot": "random", "idempotency_key": "b"},
                                format="json")
    assert (resent.json()["key"], resent["Location"]) == (bot.json()["key"], bot["Location"])
    entered = player_api.post(f"{url}enter/", {}, format="json")
    assert entered["Location"] == bot["Location"]
    assert entered.json()["key"] in {e["key"] for e in followed(player_api, entered)[
        "entrants"]}
