"""Open entry through the API: an organizer opens it, players enter and leave themselves
(`enter`, `leave`), and every refusal is `{code, detail}` with nothing written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from league_api_helpers import GAME, record_count
from rest_framework.test import APIClient

from league import events
from league.models import Entrant, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_night(organizer: Any, season: Any) -> Event:
    return events.create_event(name="Open night", game=GAME, format="swiss", by=organizer,
                               season=season, open_entry=True)


def post(client: APIClient, event: Event, tail: str, body: dict[str, Any] | None = None
         ) -> tuple[int, dict[str, Any]]:
    answer = client.post(f"/api/events/{event.pk}/{tail}/", body or {}, format="json")
    return answer.status_code, answer.json()


def refusal(client: APIClient, event: Event, tail: str,
            body: dict[str, Any] | None = None) -> tuple[int, str]:
    """The status and code of a refused call, once it is checked that nothing was written."""
    before = record_count(event)
    status, answer = post(client, event, tail, body)
    assert record_count(event) == before
    assert set(answer) - {"seq"} == {"code", "detail"}
    assert ("seq" in answer) == (answer["code"] == "stale_seq")
    return status, answer["code"]


def test_an_event_is_made_with_open_entry_and_shows_it(organizer_api: APIClient,
                                                       season: Any) -> None:
    body = {"name": "Open night", "game": GAME, "format": "swiss", "season": season.pk}
    made = organizer_api.post("/api/events/", {**body, "open_entry": True}, format="json")
    plain = organizer_api.post("/api/events/", body, format="json")
    assert (made.status_code, made.json()["open_entry"]) == (201, True)
    assert plain.json()["open_entry"] is False
    assert organizer_api.get(f"/api/events/{made.json()['id']}/").json()["open_entry"]


def test_a_player_enters_and_leaves_themselves(open_night: Event, player2_api: APIClient,
                                              player2: Any) -> None:
    status, entrant = post(player2_api, open_night, "enter")
    assert status == 201
    assert (entrant["key"], entrant["name"], entrant["withdrawn"]) == ("e1", "bruno", False)
    assert Entrant.objects.get(event=open_night, key="e1").player.user == player2
    status, event = post(player2_api, open_night, "leave")
    assert status == 200
    assert [(e["key"], e["withdrawn"]) for e in event["entrants"]] == [("e1", True)]
    stream = player2_api.get(f"/api/events/{open_night.pk}/records/").json()["results"]
    assert [(r["kind"], r["actor"]) for r in stream] == [("entrant_added", "bruno"),
                                                         ("entrant_withdrawn", "bruno")]


def test_an_organizer_switches_open_entry_before_the_start(
        open_night: Event, organizer_api: APIClient, player2_api: APIClient,
        outsider_api: APIClient) -> None:
    status, event = post(organizer_api, open_night, "open-entry", {"open_entry": False})
    assert (status, event["open_entry"]) == (200, False)
    assert refusal(player2_api, open_night, "enter") == (409, "entry_closed")
    assert refusal(outsider_api, open_night, "open-entry", {"open_entry": True}) == (
        403, "not_organizer")
    assert refusal(organizer_api, open_night, "open-entry", {}) == (400, "invalid")
    assert post(organizer_api, open_night, "open-entry", {"open_entry": True})[0] == 200
    stream = organizer_api.get(f"/api/events/{open_night.pk}/records/").json()["results"]
    assert [(r["kind"], r["actor"]) for r in stream] == [("entry_closed", "organizer"),
                                                         ("entry_opened", "organizer")]
    for bot in ("random", "heuristic"):
        events.add_entrant(event=open_night, by=open_night.created_by, bot=bot)
    events.start_event(event=open_night, by=open_night.created_by)
    assert refusal(organizer_api, open_night, "open-entry", {"open_entry": False}) == (
        409, "event_started")
    assert refusal(player2_api, open_night, "enter") == (409, "event_started")


def test_each_refusal_of_an_entry_says_why(open_night: Event, player2_api: APIClient,
                                          outsider_api: APIClient, anon_api: APIClient,
                                          organizer: Any) -> None:
    assert refusal(anon_api, open_night, "enter") == (401, "not_authenticated")
    assert post(player2_api, open_night, "enter")[0] == 201
    assert refusal(player2_api, open_night, "enter") == (409, "entrant_twice")
    assert refusal(outsider_api, open_night, "enter", {"picks": {"competitors": "x"}}) == (
        400, "no_picks")
    assert refusal(outsider_api, open_night, "enter", {"expected_seq": 0}) == (
        409, "stale_seq")
    team_event = events.create_showdown_event(by=organizer, preset="full_card")
    Event.objects.filter(pk=team_event.pk).update(open_entry=True)
    assert refusal(outsider_api, team_event, "enter") == (409, "teams_only")


def test_a_player_leaves_only_their_own_entry(open_night: Event, player2_api: APIClient,
                                             outsider_api: APIClient,
                                             anon_api: APIClient) -> None:
    post(player2_api, open_night, "enter")
    assert refusal(outsider_api, open_night, "leave") == (404, "not_entered")
    assert refusal(outsider_api, open_night, "entrants/e1/withdraw") == (
        403, "not_organizer")
    assert refusal(anon_api, open_night, "leave") == (401, "not_authenticated")
    assert not Entrant.objects.get(event=open_night, key="e1").withdrawn


def test_a_player_brings_their_picks(organizer: Any, player2_api: APIClient) -> None:
    event = events.create_event(name="Supershow night", game="supershow",
                                format="round_robin", by=organizer, open_entry=True)
    status, entrant = post(player2_api, event, "enter",
                           {"picks": {"competitors": "velvet_vendetta"}})
    assert (status, entrant["picks"]) == (201, {"competitors": "velvet_vendetta"})


@pytest.mark.parametrize("role", ["anonymous", "outsider", "season_organizer", "staff"])
def test_anyone_signed_in_enters_an_event_with_open_entry(
        as_role: Callable[[str], APIClient], open_night: Event, role: str) -> None:
    status, answer = post(as_role(role), open_night, "enter")
    assert (status, answer.get("code")) == ((401, "not_authenticated") if role == "anonymous"
                                            else (201, None))
