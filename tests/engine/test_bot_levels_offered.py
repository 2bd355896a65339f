"""Every level of `bot_names` is offered wherever a bot is picked, for every game.

The lobby's opponent list, `GET /api/games/`, a seat spec `{"bot": name}` at match
creation, the organizer dashboard's deadline bot, and an Event's panel (bot entrants)
all read the registry, so the search levels appear there without a list of their own.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from engine import registry
from league import events
from matches.models import Match

pytestmark = pytest.mark.django_db

GAMES = ["royal_rumble", "super_showdown", "supershow", "superstar_showdown",
         "ultimate_showdown"]
SEARCH = ["search-easy", "search-hard"]


def test_the_lobby_offers_every_level_as_an_opponent(client: Client, player: Any) -> None:
    client.force_login(player)
    page = client.get(reverse("lobby")).content.decode()
    names = {name for game in GAMES for name in registry.bot_names(game)}
    assert names >= {"random", "heuristic", *SEARCH}
    for name in names:
        assert f'value="bot:{name}"' in page


def test_the_games_api_lists_every_level_of_each_game(anon_api: APIClient) -> None:
    listed = {g["key"]: g["bots"] for g in anon_api.get("/api/games/").json()}
    for game in GAMES:
        assert listed[game] == registry.bot_names(game)
        assert set(SEARCH) <= set(listed[game])


@pytest.mark.parametrize("bot", SEARCH)
def test_a_search_level_takes_a_seat_through_the_api(player_api: APIClient, bot: str) -> None:
    created = player_api.post("/api/matches/", {"game": "super_showdown",
                                                "seats": [{"player": "alice"}, {"bot": bot}]},
                              format="json")
    assert created.status_code == 201, created.content
    match = Match.objects.get(pk=created.json()["id"])
    assert match.seats.get(index=1).bot == bot


def test_the_dashboard_offers_every_level_as_the_deadline_bot(client: Client,
                                                              organizer: Any) -> None:
    client.force_login(organizer)
    page = client.get(reverse("league:dashboard")).content.decode()
    for name in SEARCH:
        assert f'<option value="{name}"' in page


def test_an_events_panel_offers_every_level_of_its_game_as_a_bot_entrant(
        client: Client, organizer: Any) -> None:
    event = events.create_event(name="Ladder cup", game="royal_rumble", format="swiss",
                                by=organizer)
    events.add_entrant(event=event, by=organizer, bot="search-hard", name="Deep Blue-ish")
    client.force_login(organizer)
    page = client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    for name in registry.bot_names("royal_rumble"):
        assert f'<option value="{name}">' in page
    assert "Deep Blue-ish" in page
