"""Who may write through the league API: a permission table for every write endpoint.

Anonymous callers get 401, an outsider 403 `not_organizer`; a season's organizer runs
the season's Events and teams (but makes no seasons), staff do everything. A refusal
writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from league_api_helpers import GAME, ROLES, first_link, record_count
from rest_framework.test import APIClient

from league.models import Event, Season, Team

pytestmark = pytest.mark.django_db

Setup = Callable[[pytest.FixtureRequest], tuple[str, dict[str, Any]]]


def _event(request: pytest.FixtureRequest, name: str = "draft_event") -> Event:
    return request.getfixturevalue(name)


def _withdrawn(request: pytest.FixtureRequest) -> Event:
    """The draft Event with its first entrant withdrawn."""
    from league import events

    event = _event(request)
    events.withdraw_entrant(event=event, by=request.getfixturevalue("organizer"), key="e1")
    return event


def _held(request: pytest.FixtureRequest) -> Event:
    return request.getfixturevalue("held_event")("swiss")


def _played(request: pytest.FixtureRequest) -> tuple[Event, Any]:
    event = _event(request, "running_event")
    link = first_link(event)
    request.getfixturevalue("finish")(link, link.entrants[1])
    return event, link


def _corrections(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    event, link = _played(request)
    first, second = link.entrants
    return (f"/api/events/{event.pk}/corrections/",
            {"pairing": link.pairing, "placements": {first: 2, second: 1}})


def _seat(request: pytest.FixtureRequest, path: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    event = _event(request, "running_event")
    link = first_link(event)
    return (f"/api/events/{event.pk}/{path}/",
            {"pairing": link.pairing, "entrant": link.entrants[0], **extra})


def _season_id(request: pytest.FixtureRequest) -> int:
    return int(request.getfixturevalue("season").pk)


def _moved(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    """The draft Event to another season of its game, made by staff, that alice
    organizes too."""
    from league import events

    spring = events.create_season(name="Spring league", game=GAME,
                                  by=request.getfixturevalue("organizer"))
    spring.organizers.add(request.getfixturevalue("player"))
    return f"/api/events/{_event(request).pk}/season/", {"season": spring.pk}


# endpoint -> (setup giving the url and a valid body, status for those allowed, who is)
WRITES: dict[str, tuple[Setup, int, set[str]]] = {
    "create a season": (lambda r: ("/api/seasons/", {"name": "Winter", "game": GAME}),
                        201, {"staff"}),
    "create a team": (lambda r: ("/api/teams/", {"name": "Reds", "members": ["bruno"]}),
                      201, {"staff", "season_organizer"}),
    "create an Event": (lambda r: ("/api/events/", {"name": "Week 2", "game": GAME,
                                                    "format": "swiss",
                                                    "season": _season_id(r)}),
                        201, {"staff", "season_organizer"}),
    "add an entrant": (lambda r: (f"/api/events/{_event(r).pk}/entrants/", {"bot": "random"}),
                       201, {"staff", "season_organizer"}),
    "withdraw an entrant": (lambda r: (f"/api/events/{_event(r).pk}/entrants/e1/withdraw/", {}),
                            200, {"staff", "season_organizer"}),
    "reinstate an entrant": (
        lambda r: (f"/api/events/{_withdrawn(r).pk}/entrants/e1/reinstate/", {}),
        200, {"staff", "season_organizer"}),
    "open entry": (lambda r: (f"/api/events/{_event(r).pk}/open-entry/", {"open_entry": True}),
                   200, {"staff", "season_organizer"}),
    "change the settings": (lambda r: (f"/api/events/{_event(r).pk}/settings/",
                                       {"format": "swiss", "turn_deadline_minutes": 10}),
                            200, {"staff", "season_organizer"}),
    "change the season": (_moved, 200, {"staff", "season_organizer"}),
    "seed": (lambda r: (f"/api/events/{_event(r).pk}/seed/", {"method": "random"}),
             200, {"staff", "season_organizer"}),
    "start": (lambda r: (f"/api/events/{_event(r).pk}/start/", {}),
              200, {"staff", "season_organizer"}),
    "pair by hand": (lambda r: (f"/api/events/{_held(r).pk}/pairings/",
                                {"pairings": [["e1", "e2"], ["e3", "e4"]]}),
                     200, {"staff", "season_organizer"}),
    "release a round": (lambda r: (f"/api/events/{_held(r).pk}/release/", {}),
                        200, {"staff", "season_organizer"}),
    "forfeit": (lambda r: _seat(r, "forfeit"), 200, {"staff", "season_organizer"}),
    "seat to bot": (lambda r: _seat(r, "seat-to-bot", bot="heuristic"),
                    200, {"staff", "season_organizer"}),
    "correct a result": (_corrections, 200, {"staff", "season_organizer"}),
}


def _expected(role: str, allowed: int, who: set[str]) -> tuple[int, str | None]:
    if role == "anonymous":
        return 401, "not_authenticated"
    return (allowed, None) if role in who else (403, "not_organizer")


def _written() -> tuple[int, int, int, int]:
    return record_count(), Season.objects.count(), Event.objects.count(), Team.objects.count()


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", list(WRITES))
def test_who_may_write(request: pytest.FixtureRequest, as_role: Callable[[str], APIClient],
                       endpoint: str, role: str, player2: Any) -> None:
    setup, allowed, who = WRITES[endpoint]
    client = as_role(role)
    url, body = setup(request)
    before = _written()
    response = client.post(url, body, format="json")
    status, code = _expected(role, allowed, who)
    assert response.status_code == status, response.content
    if code is not None:
        assert response.json()["code"] == code
        assert _written() == before
    else:
        assert _written() != before


def test_an_event_organizer_outside_the_season_runs_that_event_only(
        outsider_api: APIClient, outsider: Any, draft_event: Event,
        make_event: Callable[..., Event]) -> None:
    draft_event.organizers.add(outsider)
    other = make_event(bots=0)
    client = outsider_api
    mine = client.post(f"/api/events/{draft_event.pk}/entrants/", {"bot": "random"},
                       format="json")
    theirs = client.post(f"/api/events/{other.pk}/entrants/", {"bot": "random"}, format="json")
    assert (mine.status_code, theirs.status_code) == (201, 403)


def test_a_season_organizer_cannot_make_events_in_another_season(
        player_api: APIClient, organizer: Any) -> None:
    from league import events

    elsewhere = events.create_season(name="Spring", game=GAME, by=organizer)
    before = Event.objects.count()
    response = player_api.post("/api/events/", {"name": "Sneaky", "game": GAME,
                                                "format": "swiss", "season": elsewhere.pk},
                               format="json")
    assert (response.status_code, response.json()["code"]) == (403, "not_organizer")
    assert Event.objects.count() == before


def test_without_a_season_only_staff_make_events(
        as_role: Callable[[str], APIClient]) -> None:
    body = {"name": "Open night", "game": GAME, "format": "swiss"}
    assert as_role("season_organizer").post("/api/events/", body,
                                            format="json").status_code == 403
    assert as_role("staff").post("/api/events/", body, format="json").status_code == 201


def test_a_season_organizer_refused_an_event_is_told_what_would_allow_it(
        as_role: Callable[[str], APIClient], organizer: Any) -> None:
    """Not "an organizer of this Event": there is no Event yet to organize."""
    from league import events

    elsewhere = events.create_season(name="Spring", game=GAME, by=organizer)
    client = as_role("season_organizer")
    alone = client.post("/api/events/", {"name": "Open night", "game": GAME,
                                         "format": "swiss"}, format="json")
    there = client.post("/api/events/", {"name": "Sneaky", "game": GAME, "format": "swiss",
                                         "season": elsewhere.pk}, format="json")
    assert alone.json() == {"code": "not_organizer", "detail": "Only staff make an Event "
                            "outside a season: name a season you organize."}
    assert there.json() == {"code": "not_organizer",
                            "detail": "Only an organizer of this season makes its Events."}


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_a_method_an_endpoint_does_not_take_is_405_for_anyone(
        as_role: Callable[[str], APIClient], season: Season, draft_event: Event,
        method: str) -> None:
    """Not 403 not_organizer: no role could do it. Nothing is changed or removed."""
    for role in ("outsider", "staff"):
        client = as_role(role)
        for url in (f"/api/seasons/{season.pk}/", f"/api/events/{draft_event.pk}/"):
            response = getattr(client, method)(url, {"name": "Renamed"}, format="json")
            assert response.status_code == 405, (role, url)
            assert response.json()["code"] == "method_not_allowed"
        response = client.post("/api/players/", {}, format="json")
        assert (response.status_code, response.json()["code"]) == (405, "method_not_allowed")
    assert Season.objects.get(pk=season.pk).name == season.name
    assert Event.objects.filter(pk=draft_event.pk).exists()
