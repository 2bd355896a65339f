"""OPTIONS: each write describes the body it takes (DRF's metadata, config.api_metadata)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import URLPattern, get_resolver
from rest_framework.test import APIClient

from league import events
from league.api_views import EventViewSet
from league.models import Event, SimulationJob
from league.permissions import EVENT
from league.serializers import (
    SeasonCreateSerializer,
    SeedSerializer,
    SimulationCreateSerializer,
    StartSerializer,
)
from matches.models import Match
from matches.serializers import ActionSerializer, MatchCreateSerializer, ResignSerializer

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organizer: Any) -> Event:
    """A draft Event the (staff) organizer made."""
    return events.create_event(name="Night", game="super_showdown", format="round_robin",
                               by=organizer)


@pytest.fixture
def job(organizer: Any) -> SimulationJob:
    return SimulationJob.objects.create(game="super_showdown", bots=["random", "random"],
                                        seed=1, planned=10, chunk_size=10, chunk_count=1,
                                        created_by=organizer)


def writable(serializer_class: type[Any]) -> set[str]:
    return {name for name, field in serializer_class().fields.items() if not field.read_only}


def post_fields(client: APIClient, url: str) -> dict[str, Any] | None:
    response = client.options(url)
    assert response.status_code == 200
    return response.json().get("actions", {}).get("POST")


@pytest.mark.parametrize(("path", "body"), [
    ("/api/matches/", MatchCreateSerializer),
    ("/api/matches/{match}/actions/", ActionSerializer),
    ("/api/matches/{match}/resign/", ResignSerializer),
    ("/api/matches/{match}/join/", None),
    ("/api/matches/{match}/rematch/", None),
    ("/api/simulations/", SimulationCreateSerializer),
    ("/api/simulations/{job}/cancel/", None),
    ("/api/simulations/{job}/resume/", None),
    ("/api/seasons/", SeasonCreateSerializer),
    ("/api/events/{event}/seed/", SeedSerializer),
    ("/api/events/{event}/start/", StartSerializer),
])
def test_options_describes_the_body_a_write_takes(
        organizer_api: APIClient, toy_match: Match, event: Event, job: SimulationJob,
        path: str, body: type[Any] | None) -> None:
    fields = post_fields(organizer_api, path.format(match=toy_match.pk, event=event.pk,
                                                    job=job.pk))
    assert fields is not None
    assert set(fields) == (writable(body) if body else set())
    assert not any(field["read_only"] for field in fields.values())


def test_the_body_fields_say_what_they_take(player_api: APIClient, toy_match: Match) -> None:
    fields = post_fields(player_api, f"/api/matches/{toy_match.pk}/actions/")
    assert fields is not None
    assert (fields["seat"]["type"], fields["seat"]["required"]) == ("integer", True)
    assert fields["expected_seq"]["required"] is False


def test_options_leaves_out_a_write_the_caller_may_not_make(
        outsider_api: APIClient, organizer_api: APIClient) -> None:
    assert post_fields(outsider_api, "/api/seasons/") is None  # staff only
    assert post_fields(organizer_api, "/api/seasons/") is not None


ORGANIZER_WRITES = sorted(action for action, scope in EventViewSet.organizer_scopes.items()
                          if scope == EVENT)


def _write_path(event: Event, action: str) -> str:
    """The path of one of the Event's writes (an entrant's, e1's)."""
    paths = {"withdraw": "entrants/e1/withdraw", "reinstate": "entrants/e1/reinstate",
             "open_entry": "open-entry",
             "seat_to_bot": "seat-to-bot", "change_settings": "settings"}
    return f"/api/events/{event.pk}/{paths.get(action, action)}/"


@pytest.mark.parametrize("action", ORGANIZER_WRITES)
def test_an_events_organizer_write_is_described_to_its_organizers_alone(
        event: Event, player: Any, player_api: APIClient, outsider_api: APIClient,
        organizer_api: APIClient, action: str) -> None:
    """Anyone signed in was told the body of a write the API then refuses them (403
    not_organizer); now, as DRF leaves out a PUT the caller may not make, only the
    Event's organizers (its own, its season's, staff) see it."""
    event.organizers.add(player)
    path = _write_path(event, action)
    assert outsider_api.post(path, {}, format="json").status_code == 403
    assert post_fields(outsider_api, path) is None
    assert post_fields(player_api, path) is not None  # one of its organizers
    assert post_fields(organizer_api, path) is not None  # staff


def test_a_write_any_player_may_try_is_still_described_to_them(
        event: Event, outsider_api: APIClient) -> None:
    """Entering an Event is every signed-in player's (the service says whether entry is
    open): its body is described to them."""
    assert post_fields(outsider_api, f"/api/events/{event.pk}/enter/") is not None


def test_a_write_on_an_event_there_is_not_describes_no_body(
        organizer_api: APIClient) -> None:
    assert post_fields(organizer_api, "/api/events/999999/start/") is None


def _viewset_routes() -> list[URLPattern]:
    def walk(patterns: list[Any]) -> list[URLPattern]:
        found = []
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                found += walk(pattern.url_patterns)
            elif getattr(pattern.callback, "actions", None):
                found.append(pattern)
        return found

    return walk(get_resolver().url_patterns)


def test_every_write_of_every_viewset_names_its_body() -> None:
    writes = [(route.callback.cls, action) for route in _viewset_routes()
              for method, action in route.callback.actions.items()
              if method in ("post", "put", "patch", "delete")]
    assert writes
    missing = [f"{cls.__name__}.{action}" for cls, action in writes
               if action not in getattr(cls, "request_serializers", {})]
    assert missing == []
