"""A page for a signed-in player says it is for them alone (config.private_answers), as
the API's answers do: no shared cache keeps one player's lobby, seat or invitations for
the next asker. A page that states its own caching keeps it, and the static files and
the pages for nobody signed in stay as they were."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match
from tests.api.test_private_answers import cache_control, vary

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def live(player: Any) -> Match:
    return services.create_match(game="super_showdown", options={}, created_by=player,
                                 seats=[{"player": "alice"}, {"bot": "random"}])


@pytest.mark.parametrize(("name", "args", "headers"), [
    ("lobby", [], {}),
    ("lobby_live", [], HTMX),
    ("match_play", ["match"], {}),
    ("match_state", ["match"], HTMX),
    ("match_replay", ["match"], {}),
    ("account", [], {}),
    ("league:seasons", [], {}),
])
def test_a_signed_in_players_page_is_private_and_varies_by_cookie(
        alice_client: Client, live: Match, name: str, args: list[str],
        headers: dict[str, str]) -> None:
    url = reverse(name, args=[live.pk for _ in args])
    response = alice_client.get(url, **headers)
    assert response.status_code in (200, 204), url
    assert "private" in cache_control(response) and "public" not in cache_control(response)
    assert "cookie" in vary(response)
    assert "authorization" not in vary(response)  # the pages take no token


def test_a_signed_in_post_and_its_redirect_are_private(alice_client: Client,
                                                       live: Match) -> None:
    response = alice_client.post(reverse("match_resign", args=[live.pk]),
                                 {"confirmed": "yes", "status": live.status})
    assert response.status_code == 302
    assert "private" in cache_control(response) and "cookie" in vary(response)


def test_a_page_stating_its_own_caching_keeps_it(alice_client: Client) -> None:
    response = alice_client.get(reverse("account_data"))
    assert cache_control(response) == {"private", "no-store"}


@pytest.mark.parametrize("name", ["register", "password_forgot", "league:seasons"])
def test_a_page_for_nobody_signed_in_is_left_as_it_was(client: Client, name: str) -> None:
    response = client.get(reverse(name))  # (the league's pages send them to sign in)
    assert response.status_code in (200, 302)
    assert not response.has_header("Cache-Control")


def test_a_static_file_keeps_its_own_caching_for_a_signed_in_player(
        settings: Any, player: Any) -> None:
    settings.WHITENOISE_USE_FINDERS = True  # no collectstatic here: read static/ itself
    browser = Client()
    browser.force_login(player)
    response = browser.get("/static/js/league.js")
    assert response.status_code == 200
    assert "private" not in cache_control(response)
    assert "max-age" in response["Cache-Control"]
    assert "cookie" not in vary(response)
