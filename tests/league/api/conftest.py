"""League API fixtures: a season that alice organizes, Events in each stage, role clients.

Celery runs eagerly, but bot seats and result recording move in on_commit hooks, which
only fire on a real commit: in these `django_db` tests bot matches stay waiting, and a
test finishes a match itself (`finish`) when it needs a result. The end-to-end flow uses
a transactional database so the bots play everything out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from league_api_helpers import GAME
from rest_framework.test import APIClient

from league import events
from league.models import Event, EventMatch, Season
from matches import services as match_services


@pytest.fixture
def as_role(request: pytest.FixtureRequest) -> Callable[[str], APIClient]:
    """The API client of a role; the season organizer is alice (see `season`)."""
    fixtures = {"anonymous": "anon_api", "outsider": "outsider_api",
                "season_organizer": "player_api", "staff": "organizer_api"}

    def client(role: str) -> APIClient:
        request.getfixturevalue("season")
        return request.getfixturevalue(fixtures[role])

    return client


@pytest.fixture
def season(organizer: Any, player: Any) -> Season:
    """A super_showdown season made by staff; alice organizes it too."""
    season = events.create_season(name="Autumn league", game=GAME, by=organizer)
    season.organizers.add(player)
    return season


@pytest.fixture
def make_event(organizer: Any, season: Season) -> Callable[..., Event]:
    """A draft Event of the season (round robin unless told), with `bots` bot entrants."""

    def make(fmt: str = "round_robin", bots: int = 4, **kwargs: Any) -> Event:
        event = events.create_event(name=f"{fmt} night", game=GAME, format=fmt, by=organizer,
                                    season=season, **kwargs)
        for i in range(bots):
            events.add_entrant(event=event, by=organizer, bot=["random", "heuristic"][i % 2],
                               name=f"Bot {i + 1}")
        return event

    return make


@pytest.fixture
def draft_event(make_event: Callable[..., Event]) -> Event:
    return make_event()


@pytest.fixture
def running_event(make_event: Callable[..., Event], organizer: Any) -> Event:
    """A started round robin of four bots; its first matches wait for their bots."""
    event = make_event()
    events.start_event(event=event, by=organizer)
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def held_event(make_event: Callable[..., Event], organizer: Any,
               finish: Callable[[EventMatch, str], None]) -> Callable[[str], Event]:
    """An Event of four bots that holds its rounds, its first round played (each first
    seat won), so the second round waits for the organizer."""

    def make(fmt: str = "swiss") -> Event:
        event = make_event(fmt, hold_rounds=True)
        events.start_event(event=event, by=organizer)
        for link in EventMatch.objects.filter(event=event).select_related("match"):
            finish(link, link.entrants[1])
        return Event.objects.get(pk=event.pk)

    return make


@pytest.fixture
def finish() -> Callable[[EventMatch, str], None]:
    """End an Event match by a forfeit of `loser` and record the result, as the
    match_finished hook would after a commit."""

    def run(link: EventMatch, loser: str) -> None:
        match_services.forfeit_seat(match=link.match, seat=link.entrants.index(loser))
        assert events.record_match_result(match=link.match)

    return run
