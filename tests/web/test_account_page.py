"""The account page: a new display name, a new password, the API token revoked."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.authtoken.models import Token

from config import signin
from league.models import Player
from league.services import player_for, set_time_zone
from tests.conftest import PASSWORD

NEW = "another-long-password-7"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clean_signin_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def _change_password(client: Client, old: str, new: str, again: str | None = None) -> Any:
    return client.post(reverse("account"), {
        "form": "password", "old_password": old, "new_password": new,
        "new_password2": new if again is None else again})


def test_the_account_page_asks_a_visitor_to_log_in_and_is_linked_from_every_page(
        client: Client, alice_client: Client) -> None:
    visitor = Client().get(reverse("account"))
    assert visitor.status_code == 302 and visitor["Location"].startswith(reverse("login"))
    lobby = alice_client.get(reverse("lobby")).content.decode()
    assert f'href="{reverse("account")}"' in lobby
    page = alice_client.get(reverse("account"))
    assert page.status_code == 200
    assert 'name="display_name" value="alice"' in page.content.decode()


def test_a_new_display_name_shows_on_the_players_page(alice_client: Client,
                                                       player: Any) -> None:
    response = alice_client.post(reverse("account"),
                                 {"form": "name", "display_name": "  Alice the Bold "})
    assert response.status_code == 302 and response["Location"] == reverse("account") + "#content"
    assert Player.objects.get(user=player).display_name == "Alice the Bold"
    page = alice_client.get(reverse("league:player", args=[player_for(player).pk]))
    assert b"<h1>Alice the Bold</h1>" in page.content


@pytest.mark.parametrize("name", ["   ", "x" * 65, "Alice\u202eevil", "two\nlines"])
def test_a_display_name_blank_too_long_or_with_hidden_characters_is_refused(
        alice_client: Client, player: Any, name: str) -> None:
    response = alice_client.post(reverse("account"), {"form": "name", "display_name": name})
    assert response.status_code == 400
    assert Player.objects.get(user=player).display_name == "alice"


def test_a_new_password_keeps_this_session_and_ends_the_others_and_the_token(
        alice_client: Client, player: Any, client_for: Any) -> None:
    other_browser = Client()
    other_browser.force_login(player)
    api = client_for(player)
    assert api.get("/api/matches/").status_code == 200
    response = _change_password(alice_client, PASSWORD, NEW)
    assert response.status_code == 302
    assert alice_client.get(reverse("lobby")).status_code == 200
    assert other_browser.get(reverse("lobby")).status_code == 302  # signed out
    assert api.get("/api/matches/").status_code == 401
    assert not Token.objects.filter(user=player).exists()
    fresh = Client()
    assert fresh.login(username="alice", password=NEW)
    assert not Client().login(username="alice", password=PASSWORD)


@pytest.mark.parametrize(("old", "new", "again", "field", "said"), [
    ("wrong-password-0", NEW, None, "old_password", "The present password is wrong."),
    (PASSWORD, "short", None, "new_password", "too short"),
    (PASSWORD, NEW, NEW + "x", "new_password2", "The two passwords differ."),
])
def test_a_refused_password_change_says_why_at_its_field_and_changes_nothing(
        alice_client: Client, player: Any, old: str, new: str, again: str | None,
        field: str, said: str) -> None:
    Token.objects.create(user=player)
    response = _change_password(alice_client, old, new, again)
    assert response.status_code == 400
    page = response.content.decode()
    assert f'id="id_{field}_error"' in page and said in page
    user = get_user_model().objects.get(pk=player.pk)
    assert user.check_password(PASSWORD)
    assert Token.objects.filter(user=player).exists()


def test_wrong_present_passwords_count_against_the_sign_in_brake(
        alice_client: Client, player: Any) -> None:
    """A session left open on a shared computer cannot be used to guess the password."""
    for _ in range(signin.FAILURES):
        _change_password(alice_client, "wrong-password-0", NEW)
    response = _change_password(alice_client, PASSWORD, NEW)
    assert response.status_code == 429 and b"Too many wrong passwords" in response.content
    assert get_user_model().objects.get(pk=player.pk).check_password(PASSWORD)


def test_a_password_with_spaces_at_its_ends_is_kept_as_typed(client: Client) -> None:
    """Signing in takes a password as typed, so signing up and changing it must too."""
    spaced = "  a spaced password 5 "
    client.post(reverse("register"), {"username": "spacey", "password": spaced,
                                      "password2": spaced})
    assert Client().login(username="spacey", password=spaced)
    again = " " + spaced + "x "
    _change_password(client, spaced, again)
    assert Client().login(username="spacey", password=again)


def test_revoking_the_api_token_signs_it_out(alice_client: Client, player: Any,
                                             client_for: Any) -> None:
    api = client_for(player)
    made = Token.objects.get(user=player).created
    page = alice_client.get(reverse("account")).content.decode()
    assert made.strftime("%Y") in page and "Revoke API token" in page
    response = alice_client.post(reverse("account"), {"form": "token"})
    assert response.status_code == 302
    assert api.get("/api/matches/").status_code == 401
    assert "You have no API token" in alice_client.get(reverse("account")).content.decode()


@pytest.mark.parametrize(("zone", "day"), [
    ("", "6 Dec 2026"), ("Europe/London", "6 Dec 2026"), ("Pacific/Kiritimati", "7 Dec 2026")])
def test_the_token_is_dated_in_the_players_own_zone(alice_client: Client, player: Any,
                                                    client_for: Any, zone: str,
                                                    day: str) -> None:
    """Made at 23:30 UTC, the token was made the next day for a player at UTC+14."""
    client_for(player)
    Token.objects.filter(user=player).update(
        created=datetime(2026, 12, 6, 23, 30, tzinfo=UTC))
    set_time_zone(player_for(player), zone)
    page = alice_client.get(reverse("account")).content.decode()
    assert f'made <time datetime="2026-12-06T23:30:00+00:00">{day}</time>' in page


@override_settings(TURN_MAIL=False)
def test_a_site_without_turn_mail_still_offers_the_zone_that_dates_the_token(
        alice_client: Client, player: Any, client_for: Any) -> None:
    """The zone sat in the turn-mail card, which such a site hides, so the token's date
    stayed in UTC for good; the zone has its own card while there is a token to date."""
    page = alice_client.get(reverse("account")).content.decode()
    assert 'id="mails"' not in page and 'id="time-zone"' not in page  # nothing to date
    client_for(player)
    Token.objects.filter(user=player).update(
        created=datetime(2026, 12, 6, 23, 30, tzinfo=UTC))
    page = alice_client.get(reverse("account")).content.decode()
    assert 'id="mails"' not in page and 'id="time-zone"' in page and "id_time_zone" in page
    done = alice_client.post(reverse("account"), {"form": "time_zone",
                                                  "time_zone": "Pacific/Kiritimati"})
    assert done.status_code == 302
    assert player_for(player).time_zone == "Pacific/Kiritimati"
    page = alice_client.get(reverse("account")).content.decode()
    assert 'made <time datetime="2026-12-06T23:30:00+00:00">7 Dec 2026</time>' in page
