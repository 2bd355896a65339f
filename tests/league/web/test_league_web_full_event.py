"""A whole 4-bot single-elimination Event run from the dashboard.

With no broker Celery runs eagerly in-process: starting the Event creates the semifinals,
the bots play them in on_commit hooks, each result records through the match_finished
signal and makes the final, which the bots play too. So a real (transactional) database.
The dice and the bots' choices come from seeded generators here: Super Showdown can end in
a draw, which a knockout cannot record, and a random draw would make the test flaky.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import events
from league.models import Event, EventMatch, Standing
from matches.models import Match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("seeded_chance")]

HTMX = {"HTTP_HX_REQUEST": "true"}
BOTS = ["Ada", "Brick", "Cobalt", "Dyna"]


def test_a_four_bot_cup_plays_itself_and_the_event_page_shows_the_champion(
        sam_client: Client, season: Any) -> None:
    response = sam_client.post(reverse("league:event_create"), {
        "event-name": "Bot cup", "event-season": str(season.pk),
        "event-game": "super_showdown", "event-format": "single_elimination",
        "event-format_options": "{}", "event-match_options": "{}",
        "event-deadline_policy": "bot", "event-deadline_bot": "random"})
    event = Event.objects.get(name="Bot cup")
    assert response.status_code == 302
    for name in BOTS:
        panel = sam_client.post(reverse("league:entrant_add", args=[event.pk]),
                                {"bot": "random", "name": name}, **HTMX).content.decode()
        assert "error-banner" not in panel
    sam_client.post(reverse("league:event_seed", args=[event.pk]),
                    {"method": "hand", "order": "e1 e2 e3 e4"}, **HTMX)

    started = sam_client.post(reverse("league:event_start", args=[event.pk]), **HTMX)
    assert started.status_code == 200 and "error-banner" not in started.content.decode()

    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    links = EventMatch.objects.filter(event=event).select_related("match")
    assert sorted(link.pairing for link in links) == ["W1-1", "W1-2", "W2-1"]
    assert all(link.match.status == Match.Status.FINISHED for link in links)
    champion = Standing.objects.get(event=event, rank=1).entrant.name
    assert champion in BOTS

    page = sam_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="bracket"' in page
    assert f"Champion: {champion}" in page
    assert '<text class="champ-name"' in page
    assert page.count('class="bx bx-done"') == 3
    assert 'class="standings"' in page and all(name in page for name in BOTS)
    assert "every 4s" not in page  # a finished Event stops polling
    live = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX)
    assert live.content.decode().count("status-finished") == 3


def test_a_double_elimination_lists_its_matches_in_the_order_they_were_made(
        sam_client: Client, make_event: Any, organizer: Any) -> None:
    """The grand final (round 1 of its own stage) comes last, not first among round 1."""
    event = make_event(format="double_elimination", bots=4,
                       format_options={"grand_final_reset": False})
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    live = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX).content.decode()
    made = [link.pairing for link in EventMatch.objects.filter(event=event).order_by("match_id")]
    assert made[-1] == "GF" and made[0] == "W1-1"
    assert sorted(made, key=lambda p: live.index(f'<span class="muted small">{p}</span>')) \
        == made
