"""The organizer page's Season card: a select of the seasons of the Event's game its
organizer organizes, which moves the Event (and its results) to the one chosen."""

from __future__ import annotations

import html as entities
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import events
from league.models import Event, EventMatch, Season, SeasonStanding
from matches import services as match_services

pytestmark = pytest.mark.django_db

GAME = "super_showdown"
HTMX = {"HTTP_HX_REQUEST": "true"}


def offered(html: str) -> list[str]:
    select = re.search(r'<select id="season-season".*?</select>', html, re.S)
    assert select is not None, "no season select"
    return [entities.unescape(name)
            for name in re.findall(r">([^<]+)</option>", select.group(0))]


@pytest.fixture
def autumn(organizer: Any, sam: Any) -> Season:
    made = events.create_season(name="Autumn league", game=GAME, by=organizer)
    made.organizers.add(sam)
    return made


def test_the_card_offers_the_seasons_of_its_game_its_organizer_organizes(
        cup: Event, autumn: Season, organizer: Any, sam_client: Client,
        staff_client: Client) -> None:
    events.create_season(name="Nobody's league", game=GAME, by=organizer)  # sam's not
    events.create_season(name="Rumble league", game="royal_rumble", by=organizer)
    url = reverse("league:event_admin", args=[cup.pk])
    assert offered(sam_client.get(url).content.decode()) == ["Autumn league", "Spring league"]
    assert offered(staff_client.get(url).content.decode()) == [
        "Nobody's league", "Autumn league", "Spring league", "No season"]


def test_an_organizer_of_no_other_season_is_told_so(cup: Event, sam_client: Client) -> None:
    html = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    assert 'id="season-season"' not in html
    assert "Filed under Spring league: you organize no other season" in html


def test_the_card_moves_a_finished_event_and_its_results(
        make_event: Any, sam: Any, season: Season, autumn: Season,
        sam_client: Client) -> None:
    event = make_event(bots=2)
    events.start_event(event=event, by=sam)
    final = EventMatch.objects.select_related("match").get(event=event)
    match_services.forfeit_seat(match=final.match, seat=1)
    assert events.record_match_result(match=final.match)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert SeasonStanding.objects.filter(season=season).count() == 2
    response = sam_client.post(reverse("league:event_season", args=[event.pk]),
                               {"season": str(autumn.pk), "seq": str(event.seq)}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Saved: the Event counts in Autumn league&#x27;s table." in html
    assert Event.objects.get(pk=event.pk).season == autumn
    assert SeasonStanding.objects.filter(season=season).count() == 0
    assert SeasonStanding.objects.filter(season=autumn).count() == 2


def test_a_refused_move_says_why_beside_the_select(cup: Event, autumn: Season,
                                                   sam_client: Client) -> None:
    """No season is for staff to choose; a season id that is no season is refused too."""
    url = reverse("league:event_season", args=[cup.pk])
    for asked, why in (("", "Only staff keep an Event outside a season"),
                       ("999999", "No such season."), ("x1", "No such season.")):
        response = sam_client.post(url, {"season": asked, "seq": str(cup.seq)}, **HTMX)
        html = response.content.decode()
        assert why in html and 'id="season-error"' in html
    assert Event.objects.get(pk=cup.pk).season is not None
