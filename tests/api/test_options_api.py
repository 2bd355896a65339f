"""OPTIONS: each write describes the body it takes (DRF's metadata, config.api_metadata)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import URLPattern, get_resolver
from rest_framework.test import APIClient

from league.serializers import (
    SeasonCreateSerializer,
    SeedSerializer,
    SimulationCreateSerializer,
    StartSerializer,
)
from matches.models import Match
from matches.serializers import ActionSerializer, MatchCreateSerializer, ResignSerializer

pytestmark = pytest.mark.django_db


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
    ("/api/simulations/1/cancel/", None),
    ("/api/simulations/1/resume/", None),
    ("/api/seasons/", SeasonCreateSerializer),
    ("/api/events/1/seed/", SeedSerializer),
    ("/api/events/1/start/", StartSerializer),
])
def test_options_describes_the_body_a_write_takes(
        organizer_api: APIClient, toy_match: Match, path: str, body: type[Any] | None) -> None:
    fields = post_fields(organizer_api, path.format(match=toy_match.pk))
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
