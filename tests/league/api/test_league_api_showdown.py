"""Superstar Showdown Events through the API: create from a preset or composed, refusals as
`{code, detail}`, and the Ranking Points read."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league import events
from league.models import Event, EventMatch, RankingPoints, RankingTotal

pytestmark = pytest.mark.django_db

URL = "/api/events/showdown/"


def test_ss162_staff_create_ultimate_endurance_with_both_sides_and_it_starts(
        organizer_api: APIClient) -> None:
    """SS-162: the Ultimate Endurance preset, a bot on each side, started at once."""
    response = organizer_api.post(URL, {"preset": "ultimate_endurance",
                                        "sides": [{"bot": "random"}, {"bot": "heuristic",
                                                                      "name": "Blue bot"}]},
                                  format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["name"], body["format"], body["status"]) == (
        "Ultimate Endurance", "showdown_series", "running")
    assert body["match_options"]["event"] == "ultimate_endurance"
    assert [e["name"] for e in body["entrants"]] == ["random bot", "Blue bot"]


def test_ss127_a_composed_event_is_made_as_asked(organizer_api: APIClient) -> None:
    """SS-127..SS-129: Matches composed one by one, null drawn at random."""
    matches = [{"match": "head_to_head", "stipulation": "fast_count"},
               {"match": None, "stipulation": None}]
    response = organizer_api.post(URL, {"name": "Two falls", "matches": matches,
                                        "superstars_per_team": 1,
                                        "match_options": {"round_limit": 10}}, format="json")
    assert response.status_code == 201, response.json()
    options = response.json()["match_options"]
    assert options["event"] == {"matches": matches, "superstars_per_team": 1}
    assert options["round_limit"] == 10


@pytest.mark.parametrize(("body", "code"), [
    ({"matches": [{"match": "tag_team", "stipulation": None}]}, "too_few_matches"),
    ({"matches": [{"match": "ladder", "stipulation": None}] * 2}, "unknown_match_card"),
    ({"matches": [{"match": None, "stipulation": "mud"}] * 2}, "unknown_stipulation"),
    ({"matches": [{"match": None, "stipulation": None}] * 2, "superstars_per_team": 5},
     "bad_superstars_per_team"),
    ({"preset": "royal"}, "unknown_preset"),
    ({}, "bad_event"),
    ({"preset": "full_card", "sides": [{"bot": "random"}]}, "two_sides"),
    ({"preset": "full_card", "sides": [{"bot": "random"}, {"bot": "random", "team": "X"}]},
     "bad_entrant"),
])
def test_ss127_refusals_are_code_and_detail_and_write_nothing(organizer_api: APIClient,
                                                              body: dict[str, Any],
                                                              code: str) -> None:
    """SS-127 and the other refusals come back as {code, detail}; no Event is left."""
    response = organizer_api.post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["detail"]
    assert not Event.objects.exists()


@pytest.mark.parametrize(("role", "status"), [("anonymous", 401), ("outsider", 403),
                                              ("season_organizer", 201), ("staff", 201)])
def test_who_may_create_one_in_a_season(as_role: Any, organizer: Any, player: Any, role: str,
                                        status: int) -> None:
    ring = events.create_season(name="Ring season", game="superstar_showdown", by=organizer)
    ring.organizers.add(player)
    response = as_role(role).post(URL, {"preset": "full_card", "season": ring.pk},
                                  format="json")
    assert response.status_code == status
    assert Event.objects.exists() == (status == 201)


def test_a_season_organizer_needs_a_season_of_the_game(player_api: APIClient,
                                                       season: Any) -> None:
    assert player_api.post(URL, {"preset": "full_card"}, format="json").status_code == 403
    wrong = player_api.post(URL, {"preset": "full_card", "season": season.pk}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "wrong_game")


def test_ss130_ss134_the_ranking_points_are_read_per_team_and_match(
        organizer: Any, player_api: APIClient) -> None:
    """SS-130 totals and SS-134 points per Match, as projected."""
    event = events.create_showdown_event(
        by=organizer, sides=[{"bot": "random"}, {"bot": "random"}],
        matches=[{"match": "head_to_head", "stipulation": None}] * 2, superstars_per_team=1)
    match = EventMatch.objects.get(event=event).match
    RankingTotal.objects.create(match=match, event=event, entrant="e1", team=0, name="Red",
                                match_points=30, total=30, matches_won=1)
    RankingPoints.objects.create(match=match, event=event, team=0, number=1,
                                 card="head_to_head", stipulation="steel_cage", status="done",
                                 outcome="won", points=30)
    body = player_api.get(f"/api/events/{event.pk}/ranking-points/").json()
    assert body["teams"][0] | {"superstars": []} == {
        "match": match.pk, "team": 0, "name": "Red", "entrant": "e1", "superstars": [],
        "match_points": 30, "bonus_points": 0, "total": 30, "matches_won": 1,
        "winner": False}
    assert body["matches"][0]["card"] == "head_to_head"
    assert body["matches"][0]["outcome"] == "won"
