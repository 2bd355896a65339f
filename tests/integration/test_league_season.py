"""A 16-bot Swiss season of Super Showdown runs to its end through the real worker."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model

from league import events
from league.models import Event, EventMatch, Standing

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_sixteen_bot_swiss_season_runs_to_its_end_on_the_worker() -> None:
    organizer = get_user_model().objects.create_user(username="season-organizer",
                                                     is_staff=True)
    season = events.create_season(name="Integration season", game="super_showdown",
                                  by=organizer)
    event = events.create_event(name="Swiss of sixteen", game="super_showdown",
                                format="swiss", by=organizer, season=season)
    for i in range(16):
        events.add_entrant(event=event, by=organizer, bot=("heuristic", "random")[i % 2],
                           name=f"Bot {i + 1:02d}")
    events.seed_event(event=event, by=organizer, method="random")
    events.start_event(event=event, by=organizer)

    deadline = time.monotonic() + 600
    while Event.objects.get(pk=event.pk).status != Event.Status.FINISHED:
        if time.monotonic() > deadline:
            pytest.fail(f"the season stalled: {list(event.records.values_list('kind'))[-5:]}")
        time.sleep(0.5)

    links = EventMatch.objects.filter(event=event)
    assert links.count() == 4 * 8  # four rounds of eight pairings
    pairs = [frozenset(link.entrants) for link in links]
    assert len(set(pairs)) == len(pairs), "a rematch was paired"
    standings = list(Standing.objects.filter(event=event).order_by("rank"))
    assert len(standings) == 16
    assert all(s.wins + s.draws + s.losses == 4 for s in standings)
    assert season.standings.count() == 16
