"""`POST /api/events/{id}/season/`: an Event filed under the wrong season is moved, its
results leaving the old season's table for the new one's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from league_api_helpers import GAME, first_link
from rest_framework.test import APIClient

from league import events
from league.models import Event, EventMatch, Season

pytestmark = pytest.mark.django_db


def test_a_played_event_moves_with_its_results(
        organizer: Any, player_api: APIClient, season: Season,
        running_event: Event, finish: Callable[[EventMatch, str], None]) -> None:
    link = first_link(running_event)
    finish(link, link.entrants[1])
    spring = events.create_season(name="Spring league", game=GAME, by=organizer)
    spring.organizers.add(season.organizers.exclude(pk=organizer.pk).get())  # alice
    old = player_api.get(f"/api/seasons/{season.pk}/standings/").json()
    assert sum(row["wins"] for row in old) == 1
    response = player_api.post(f"/api/events/{running_event.pk}/season/",
                               {"season": spring.pk, "expected_seq": running_event.seq},
                               format="json")
    assert response.status_code == 200, response.content
    assert response.json()["season"] == spring.pk
    assert player_api.get(f"/api/seasons/{season.pk}/standings/").json() == []
    assert player_api.get(f"/api/seasons/{spring.pk}/standings/").json() == old
    shown = player_api.get(f"/api/events/{running_event.pk}/records/").json()["results"]
    assert [(r["kind"], r["payload"]) for r in shown if r["kind"] == "season_changed"] == [
        ("season_changed", {"season": spring.pk, "was": season.pk})]


def test_staff_file_an_event_under_no_season(organizer_api: APIClient,
                                             draft_event: Event) -> None:
    response = organizer_api.post(f"/api/events/{draft_event.pk}/season/", {"season": None},
                                  format="json")
    assert response.status_code == 200, response.content
    assert response.json()["season"] is None
    assert Event.objects.get(pk=draft_event.pk).season is None
