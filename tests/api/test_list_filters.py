"""Every list's filters refuse a bad value the same way: a value not of the parameter's
form (not one of its listed values, not a number) is 400 `invalid` naming the parameter,
as a body's bad field is; a game key the site does not know is 400 `unknown_game`, as in a
body, on every list that filters by game.

The match list answered a bad status 400 `bad_status` in a sentence where the Event list
answered `invalid` with a field map; an unknown game was 400 on the ratings table and an
empty page on every other list."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import registry
from league import events
from league.services import player_for
from matches.models import Match
from tests.conftest import event_match

pytestmark = pytest.mark.django_db


def game_lists(player: Any) -> list[str]:
    """Every list that filters by game."""
    me = player_for(player).pk
    return ["/api/matches/", "/api/events/", "/api/ratings/", "/api/round-scores/",
            f"/api/players/{me}/matches/", f"/api/players/{me}/ratings/history/"]


def test_an_unknown_game_is_400_unknown_game_on_every_list(
        organizer_api: APIClient, player: Any) -> None:
    for url in game_lists(player):
        response = organizer_api.get(url, {"game": "chess"})
        assert response.status_code == 400, (url, response.content)
        assert response.json() == {"code": "unknown_game", "detail": "No game called 'chess'."}
        known = organizer_api.get(url, {"game": "super_showdown"})
        assert known.status_code == 200, (url, known.content)


@pytest.mark.parametrize(("url", "query", "name"), [
    ("/api/matches/", "status=bogus", "status"),
    ("/api/matches/", "event=x", "event"),
    ("/api/matches/", "event=0", "event"),
    ("/api/events/", "status=bogus", "status"),
    ("/api/events/", "season=x", "season"),
    ("/api/events/", "open_entry=maybe", "open_entry"),
    ("/api/round-scores/", "match=x", "match"),
    ("/api/ratings/", "search=" + "x" * 65, "search"),
])
def test_a_value_not_of_the_parameters_form_is_400_invalid_naming_it(
        organizer_api: APIClient, url: str, query: str, name: str) -> None:
    response = organizer_api.get(f"{url}?{query}")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid" and list(body["detail"]) == [name], body


def test_a_players_history_refuses_a_bad_result_as_the_lists_refuse_a_bad_status(
        organizer_api: APIClient, player: Any) -> None:
    me = player_for(player).pk
    for url, query in ((f"/api/players/{me}/matches/", "result=victory"),
                       ("/api/matches/", "status=victory")):
        body = organizer_api.get(f"{url}?{query}").json()
        assert body["code"] == "invalid" and list(body["detail"]) == [query.split("=")[0]]


def test_a_game_this_site_plays_no_more_still_filters_the_rows_it_kept(
        toy_match: Match, organizer: Any, outsider_api: APIClient) -> None:
    event = events.create_event(name="Old times", game=toy_match.game,
                                format="round_robin", by=organizer, deadline_bot="random")
    registry._GAMES.pop(toy_match.game)
    registry._BOTS.pop(toy_match.game, None)
    matches = outsider_api.get("/api/matches/", {"game": toy_match.game}).json()
    assert [m["id"] for m in matches["results"]] == [toy_match.pk]
    listed = outsider_api.get("/api/events/", {"game": toy_match.game}).json()
    assert [e["id"] for e in listed["results"]] == [event.pk]
    assert outsider_api.get("/api/ratings/", {"game": toy_match.game}).json()["code"] == \
        "unknown_game"  # (none was rated)


@pytest.mark.parametrize(("url", "query", "name"), [
    ("/api/matches/", "game=super_showdown&game=supershow", "game"),
    ("/api/matches/", "status=active&player=alice&status=finished", "status"),
    ("/api/matches/", "event=1&event=2", "event"),
    ("/api/events/", "season=1&season=2", "season"),
    ("/api/events/", "open_entry=true&open_entry=false", "open_entry"),
    ("/api/players/", "search=a&search=b", "search"),
    ("/api/ratings/", "game=super_showdown&game=super_showdown", "game"),
    ("/api/round-scores/", "match=1&match=2", "match"),
    ("/api/matches/", "page=1&page=2", "page"),
    ("/api/events/", "page_size=5&page_size=50", "page_size"),
])
def test_a_filter_given_twice_is_400_repeated_parameter_naming_it(
        organizer_api: APIClient, url: str, query: str, name: str) -> None:
    """DRF keeps the last of the values: the client meant one of them, which is not said."""
    response = organizer_api.get(f"{url}?{query}")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "repeated_parameter", body
    assert body["detail"].startswith(f"{name} is given 2 times"), body


def test_a_players_history_and_a_matchs_state_refuse_a_parameter_given_twice(
        player_api: APIClient, player: Any, toy_match: Match) -> None:
    me = player_for(player).pk
    for url in (f"/api/players/{me}/matches/?result=win&result=loss",
                f"/api/matches/{toy_match.pk}/state/?seat=0&seat=1",
                f"/api/matches/{toy_match.pk}/events/?after=0&after=3"):
        response = player_api.get(url)
        assert (response.status_code, response.json()["code"]) == (400, "repeated_parameter")


def test_a_filter_given_once_among_others_is_read(organizer_api: APIClient) -> None:
    response = organizer_api.get("/api/matches/?game=super_showdown&status=active&page=1")
    assert response.status_code == 200, response.content


def test_the_match_list_filters_by_event_and_an_unknown_one_answers_an_empty_page(
        organizer: Any, player: Any, toy_match: Match, outsider_api: APIClient) -> None:
    first, second = event_match(organizer, player), event_match(organizer, player)
    event = first.event_match.event
    listed = outsider_api.get("/api/matches/", {"event": event.pk})
    assert listed.status_code == 200, listed.content
    assert [m["id"] for m in listed.json()["results"]] == [first.pk]
    assert listed.json()["results"][0]["event"]["id"] == event.pk
    everything = outsider_api.get("/api/matches/").json()
    assert {m["id"] for m in everything["results"]} == {first.pk, second.pk, toy_match.pk}
    unknown = outsider_api.get("/api/matches/", {"event": second.event_match.event_id + 1})
    assert unknown.status_code == 200, unknown.content
    assert unknown.json()["count"] == 0 and unknown.json()["results"] == []


def test_the_schema_documents_the_match_lists_event_filter(anon_api: APIClient) -> None:
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    params = {p["name"]: p for p in doc["paths"]["/api/matches/"]["get"]["parameters"]}
    assert params["event"]["in"] == "query"
    assert params["event"]["schema"]["type"] == "integer"
    assert params["event"]["schema"]["minimum"] == 1
