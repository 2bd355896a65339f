"""The play page of an Event's match names the pairing it plays and links to its Event,
where the player finds the standings and their next match once this one ends; a match
made outside Events names none."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import events
from league.models import EventMatch
from matches import services

pytestmark = pytest.mark.django_db


def test_an_events_match_links_to_its_event_before_and_after_it_ends(
        alice_client: Client, player: Any, player2: Any, organizer: Any) -> None:
    cup = events.create_event(name="Friday night cup", game="super_showdown",
                              format="single_elimination", by=organizer)
    for user in (player, player2):
        events.add_entrant(event=cup, by=organizer, player=user.username)
    events.start_event(event=cup, by=organizer)
    made = EventMatch.objects.get(event=cup)
    event_page = reverse("league:event", args=[cup.pk])
    named = (f'{made.label or made.pairing} of <a class="tap-link" id="match-event" '
             f'href="{event_page}">Friday night cup</a>')
    play = reverse("match_play", args=[made.match_id])
    assert named in alice_client.get(play).content.decode()
    events.forfeit(event=cup, by=organizer, pairing=made.pairing, entrant=made.entrants[1])
    made.match.refresh_from_db()
    assert made.match.status == "finished"
    assert named in alice_client.get(play).content.decode()


def test_a_match_made_outside_events_names_no_event(alice_client: Client,
                                                    player: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"}])
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert 'id="match-event"' not in page
