"""League page fixtures: a season with a non-staff organizer, Events, and clients by role.

The shared users come from tests/conftest.py: `organizer` (staff), `player` (alice),
`player2` (bruno) and `outsider` (olga). `sam` organizes the season without being staff.
Bot seats only move in on_commit hooks, so outside a transactional test (or
`django_capture_on_commit_callbacks(execute=True)`) every match an Event creates stays
live, which is what the organizer-page tests want.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from league import events, formats
from league.models import Event, EventMatch, Season
from matches import services

GAME = "super_showdown"
HTMX = {"HTTP_HX_REQUEST": "true"}
ROLES = ["anonymous", "outsider", "season_organizer", "staff"]


@pytest.fixture(autouse=True)
def _fresh_replay_cache() -> Iterator[None]:
    services.clear_state_cache()
    yield
    services.clear_state_cache()


@pytest.fixture
def sam(django_user_model: Any) -> Any:
    """A season organizer who is not staff."""
    return django_user_model.objects.create_user(username="sam", password="x-test-pass-77")


@pytest.fixture
def season(organizer: Any, sam: Any) -> Season:
    created = events.create_season(name="Spring league", game=GAME, by=organizer)
    created.organizers.add(sam)
    return created


@pytest.fixture
def make_event(season: Season, sam: Any) -> Callable[..., Event]:
    """A draft Event of the season (made by sam), with the given bots entered."""

    def make(*, format: str = "single_elimination", bots: int = 0, **kwargs: Any) -> Event:
        event = events.create_event(name=kwargs.pop("name", "Cup"), game=GAME, format=format,
                                    season=season, by=sam, **kwargs)
        for i in range(bots):
            events.add_entrant(event=event, by=sam, bot="random", name=f"Bot {i + 1}")
        event.refresh_from_db()
        return event

    return make


@pytest.fixture
def started_with_four(make_event: Callable[..., Event], sam: Any, player: Any,
                      player2: Any, outsider: Any, organizer: Any) -> Callable[..., Event]:
    """An Event of `make_event`'s options, four people entered (alice first) and started."""

    def start(**options: Any) -> Event:
        event = make_event(**options)
        for user in (player, player2, outsider, organizer):
            events.add_entrant(event=event, by=sam, player=user.username)
        events.start_event(event=event, by=sam)
        return event

    return start


@pytest.fixture
def cup(make_event: Callable[..., Event]) -> Event:
    """A draft single-elimination Event with two bots entered (e1, e2)."""
    return make_event(bots=2)


def _client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def as_role(request: pytest.FixtureRequest) -> Callable[[str], Client]:
    """A logged-in browser for a role of the permission tables."""
    users = {"anonymous": None, "outsider": "outsider", "season_organizer": "sam",
             "staff": "organizer"}

    def make(role: str) -> Client:
        name = users[role]
        return _client(request.getfixturevalue(name) if name else None)

    return make


@pytest.fixture
def staff_client(organizer: Any) -> Client:
    return _client(organizer)


@pytest.fixture
def sam_client(sam: Any) -> Client:
    return _client(sam)


@pytest.fixture
def alice_client(player: Any) -> Client:
    return _client(player)


@pytest.fixture
def duel(make_event: Callable[..., Event], sam: Any, player: Any, player2: Any) -> Event:
    """A started two-player final: alice (e1) against bruno (e2)."""
    event = make_event(name="Duel")
    events.add_entrant(event=event, by=sam, player="alice")
    events.add_entrant(event=event, by=sam, player="bruno")
    events.start_event(event=event, by=sam)
    event.refresh_from_db()
    return event


@pytest.fixture
def started_and_decided(sam: Any, django_capture_on_commit_callbacks: Any
                        ) -> Callable[..., None]:
    """Start an Event; its first round's matches (or those `pairings`) won by their first
    entrant, the second forfeiting."""
    def decide(event: Event, pairings: list[str] | None = None) -> None:
        events.start_event(event=event, by=sam)
        for link in EventMatch.objects.filter(event=event):
            if pairings is None or link.pairing in pairings:
                with django_capture_on_commit_callbacks(execute=True):
                    events.forfeit(event=event, by=sam, pairing=link.pairing,
                                   entrant=link.entrants[1])
    return decide


@pytest.fixture
def held_swiss(make_event: Callable[..., Event],
               started_and_decided: Callable[..., None]) -> Event:
    """A 4-bot Swiss that holds its rounds, round 1 played (seeds 1 and 2 won)."""
    event = make_event(format="swiss", bots=4, hold_rounds=True,
                       format_options={"rounds": 2})
    started_and_decided(event)
    event.refresh_from_db()
    return event


@pytest.fixture
def swiss_revision_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Swiss Events start under revision 2, as those started before revision 3 did: a
    round held for the organizer stays as drawn when its field changes."""
    monkeypatch.setattr(formats.get_format("swiss"), "revision", 2)
