"""GET/PATCH /api/auth/me/, POST /api/auth/password/ and password/reset/, DELETE
/api/auth/token/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config import signin
from league.models import Player
from league.services import RESETS_FROM_CLIENT, player_for
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "another-long-password-7"
ME = "/api/auth/me/"
CHANGE = "/api/auth/password/"
TOKEN = "/api/auth/token/"
RESET = "/api/auth/password/reset/"


@pytest.fixture(autouse=True)
def clean_signin_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def test_the_account_shows_its_names_and_player(player_api: APIClient, player: Any) -> None:
    response = player_api.get(ME)
    assert response.status_code == 200
    assert response.json() == {"username": "alice", "display_name": "alice",
                               "player": Player.objects.get(user=player).pk, "email": "",
                               "email_pending": "", "turn_mail": False,
                               "event_mail": False, "time_zone": "UTC"}


@pytest.mark.parametrize("url", [ME, CHANGE, TOKEN])
def test_the_account_endpoints_need_a_token(anon_api: APIClient, url: str) -> None:
    method = {ME: anon_api.get, CHANGE: anon_api.post, TOKEN: anon_api.delete}[url]
    response = method(url, {}, format="json")
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")


def test_a_new_display_name_is_stored_trimmed(player_api: APIClient, player: Any) -> None:
    response = player_api.patch(ME, {"display_name": " Alice the Bold "}, format="json")
    assert response.status_code == 200 and response.json()["display_name"] == "Alice the Bold"
    assert Player.objects.get(user=player).display_name == "Alice the Bold"


@pytest.mark.parametrize(("body", "code"), [
    ({"display_name": "  "}, "bad_display_name"),
    ({"display_name": "Al\u200bice"}, "bad_display_name"),
    ({"display_name": "x" * 65}, "invalid"),
    ({"display_name": None}, "invalid"),
])
def test_a_bad_display_name_is_400_with_its_code(player_api: APIClient, player: Any,
                                                 body: dict[str, str], code: str) -> None:
    response = player_api.patch(ME, body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, code)
    assert player_for(player).display_name == "alice"


def test_a_display_name_may_not_be_another_players_username(
        player_api: APIClient, player: Any, player2: Any) -> None:
    """Or a rival could enter an Event looking like them."""
    refused = player_api.patch(ME, {"display_name": "BRUNO"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_display_name")
    assert "another player's username" in refused.json()["detail"]
    own = player_api.patch(ME, {"display_name": "Alice"}, format="json")
    assert own.status_code == 200 and own.json()["display_name"] == "Alice"
    taken = APIClient().post("/api/auth/register/", {
        "username": "carla", "password": PASSWORD, "display_name": "alice"}, format="json")
    assert (taken.status_code, taken.json()["code"]) == (400, "bad_display_name")


@pytest.mark.parametrize("name", ["bot: heuristic", "Bot:random", "invited: bruno", "Open"])
def test_a_display_name_may_not_read_as_a_seat_no_player_holds(
        player_api: APIClient, player: Any, name: str) -> None:
    """A player named "bot: heuristic" would sit at the table looking like a bot."""
    refused = player_api.patch(ME, {"display_name": name}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_display_name")
    assert player_for(player).display_name == "alice"
    taken = APIClient().post("/api/auth/register/", {
        "username": "carla", "password": PASSWORD, "display_name": name}, format="json")
    assert (taken.status_code, taken.json()["code"]) == (400, "bad_display_name")
    assert not Player.objects.filter(user__username="carla").exists()


@pytest.mark.parametrize("username", ["open", "Open", "OPEN"])
def test_a_username_may_not_read_as_an_open_seat(anon_api: APIClient, username: str) -> None:
    """Seats and invitations show the username: a player "open" sat at the table as an
    open seat, display name or none. Refused at sign-up, on the web form as in the API;
    an account so named before keeps its name and signs in."""
    refused = anon_api.post("/api/auth/register/", {
        "username": username, "password": PASSWORD, "display_name": "Olga"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_username")
    assert "seat" in refused.json()["detail"]
    page = Client().post(reverse("register"), {
        "username": username, "password": PASSWORD, "password2": PASSWORD})
    assert page.status_code == 400 and "a seat no player holds" in page.content.decode()
    assert not Player.objects.filter(user__username__iexact="open").exists()
    assert anon_api.post("/api/auth/register/", {
        "username": "opener", "password": PASSWORD}, format="json").status_code == 201


def test_an_account_named_open_before_is_kept(anon_api: APIClient) -> None:
    older = get_user_model().objects.create_user(username="open", password=PASSWORD)
    Player.objects.create(user=older, display_name="open")
    signed_in = anon_api.post("/api/auth/token/", {"username": "open", "password": PASSWORD},
                              format="json")
    assert signed_in.status_code == 200 and signed_in.json()["token"]


def test_a_display_name_may_hold_bot_past_its_start(player_api: APIClient) -> None:
    response = player_api.patch(ME, {"display_name": "Robot: the sequel"}, format="json")
    assert response.status_code == 200


@pytest.mark.parametrize("name", ["\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
                                  "\U0001f469\u200d\U0001f4bb Dana"])
def test_a_display_name_keeps_the_joiners_scripts_and_emoji_need(
        player_api: APIClient, name: str) -> None:
    response = player_api.patch(ME, {"display_name": name}, format="json")
    assert response.status_code == 200 and response.json()["display_name"] == name


def test_a_patch_without_a_display_name_changes_nothing(player_api: APIClient,
                                                         player: Any) -> None:
    response = player_api.patch(ME, {}, format="json")
    assert response.status_code == 200 and response.json()["display_name"] == "alice"


def test_registering_through_the_api_takes_a_display_name(anon_api: APIClient) -> None:
    response = anon_api.post("/api/auth/register/", {
        "username": "carla", "password": PASSWORD, "display_name": "Carla C."}, format="json")
    assert response.status_code == 201
    assert Player.objects.get(user__username="carla").display_name == "Carla C."
    refused = anon_api.post("/api/auth/register/", {
        "username": "dora", "password": PASSWORD, "display_name": "\u202edora"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_display_name")
    assert not Player.objects.filter(user__username="dora").exists()


def test_a_new_password_answers_a_new_token_and_signs_the_old_one_out(
        player_api: APIClient, player: Any) -> None:
    browser = Client()
    browser.force_login(player)
    old = Token.objects.get(user=player).key
    response = player_api.post(CHANGE, {"old_password": PASSWORD, "new_password": NEW},
                               format="json")
    assert response.status_code == 200
    new = response.json()["token"]
    assert new != old
    assert player_api.get("/api/matches/").status_code == 401  # still sends the old one
    fresh = APIClient()
    fresh.credentials(HTTP_AUTHORIZATION=f"Token {new}")
    assert fresh.get(ME).json()["username"] == "alice"
    assert browser.get("/").status_code == 302  # the web session ended with it
    assert APIClient().post(TOKEN, {"username": "alice", "password": NEW},
                            format="json").json()["token"] == new


@override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.ScryptPasswordHasher",
                                     "django.contrib.auth.hashers.MD5PasswordHasher"])
def test_a_password_stored_by_an_older_hasher_is_changed_and_signs_in(player_api: APIClient,
                                                         player: Any) -> None:
    """Checking the password stores it again under the preferred hasher first (Django
    does, after an upgrade): neither the change nor the token is taken for one made
    meanwhile."""
    from django.contrib.auth.hashers import make_password

    type(player).objects.filter(pk=player.pk).update(
        password=make_password(PASSWORD, hasher="md5"))
    player.refresh_from_db()
    response = player_api.post(CHANGE, {"old_password": PASSWORD, "new_password": NEW},
                               format="json")
    assert response.status_code == 200, response.content
    player.refresh_from_db()
    assert player.check_password(NEW)
    type(player).objects.filter(pk=player.pk).update(password=make_password(NEW, hasher="md5"))
    signed_in = APIClient().post(TOKEN, {"username": player.username, "password": NEW},
                                 format="json")
    assert signed_in.status_code == 200, signed_in.content


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"old_password": "wrong-password-0", "new_password": NEW}, 400, "bad_credentials"),
    ({"old_password": PASSWORD, "new_password": "alice"}, 400, "weak_password"),
    ({"old_password": PASSWORD}, 400, "invalid"),
])
def test_a_refused_password_change_keeps_the_password_and_token(
        player_api: APIClient, player: Any, body: dict[str, str], status: int,
        code: str) -> None:
    response = player_api.post(CHANGE, body, format="json")
    assert (response.status_code, response.json()["code"]) == (status, code)
    player.refresh_from_db()
    assert player.check_password(PASSWORD)
    assert player_api.get(ME).status_code == 200


def test_guessing_the_present_password_with_a_token_meets_the_sign_in_brake(
        player_api: APIClient, player: Any) -> None:
    for _ in range(signin.FAILURES):
        player_api.post(CHANGE, {"old_password": "wrong-password-0", "new_password": NEW},
                        format="json")
    response = player_api.post(CHANGE, {"old_password": PASSWORD, "new_password": NEW},
                               format="json")
    assert (response.status_code, response.json()["code"]) == (429, "too_many_attempts")
    assert response["Retry-After"] == str(signin.WINDOW)  # when the count has run out
    locked = APIClient().post(TOKEN, {"username": "alice", "password": PASSWORD},
                              format="json")
    assert locked.status_code == 429  # the same count as signing in from here
    assert locked["Retry-After"] == str(signin.WINDOW)


def test_revoking_the_token_signs_it_out_and_signing_in_makes_another(
        player_api: APIClient, player: Any) -> None:
    old = Token.objects.get(user=player).key
    assert player_api.delete(TOKEN).status_code == 204
    assert player_api.get(ME).status_code == 401
    again = APIClient().post(TOKEN, {"username": "alice", "password": PASSWORD},
                             format="json")
    assert again.status_code == 200 and again.json()["token"] != old


def test_a_stale_token_sent_along_does_not_stop_getting_a_new_one(player: Any) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 200


def test_the_account_keeps_an_email_address_once_confirmed(
        player_api: APIClient, player: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = player_api.patch(ME, {"email": " Alice@EXAMPLE.org ",
                                         "password": PASSWORD}, format="json")
    assert response.status_code == 200
    assert (response.json()["email"], response.json()["email_pending"]) == (
        "", "Alice@example.org")
    (sent,) = mail.outbox
    assert sent.to == ["Alice@example.org"]
    link = re.search(r"http://testserver(/account/email/\S+/)", sent.body).group(1)  # type: ignore[union-attr]
    assert Client().post(link).status_code == 200
    player.refresh_from_db()
    assert player.email == "Alice@example.org"
    assert player_api.get(ME).json()["email"] == "Alice@example.org"
    assert player_api.patch(ME, {"email": ""}, format="json").json()["email"] == ""


def test_a_refused_change_changes_neither_field(player_api: APIClient, player: Any) -> None:
    """The display name is valid and the address is not: nothing is written."""
    response = player_api.patch(ME, {"display_name": "Alice B.", "email": "alice@"},
                                format="json")
    assert (response.status_code, response.json()["code"]) == (400, "bad_email")
    assert player_for(player).display_name == "alice"
    refused = player_api.patch(ME, {"display_name": "\u202e", "email": "a@example.org",
                                    "password": PASSWORD}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_display_name")
    player.refresh_from_db()
    assert player.email == ""


def test_registering_through_the_api_takes_an_email_address(anon_api: APIClient) -> None:
    response = anon_api.post("/api/auth/register/", {
        "username": "carla", "password": PASSWORD, "email": "carla@example.org"},
        format="json")
    assert response.status_code == 201
    carla = Player.objects.get(user__username="carla")
    assert (carla.user.email, carla.pending_email) == ("", "carla@example.org")
    refused = anon_api.post("/api/auth/register/", {
        "username": "dora", "password": PASSWORD, "email": "dora"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_email")
    assert not Player.objects.filter(user__username="dora").exists()


@pytest.mark.django_db(transaction=True)  # a mail would go on commit
@override_settings(RESET_BY_MAIL=False)
def test_a_site_that_sends_no_mail_takes_no_new_address(
        player_api: APIClient, player: Any, anon_api: APIClient) -> None:
    """Answered 200 with the address pending for good, as at sign-up: no mail goes from
    such a site. Refused (501 no_mail) with nothing written; a kept address stays, and
    goes when removed."""
    refused = player_api.patch(ME, {"display_name": "Alice B.", "email": "a@example.org",
                                    "password": PASSWORD}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (501, "no_mail")
    assert player_api.get(ME).json() | {"player": 0} == {
        "username": "alice", "display_name": "alice", "player": 0, "email": "",
        "email_pending": "", "turn_mail": False, "event_mail": False, "time_zone": "UTC"}
    signed_up = anon_api.post("/api/auth/register/", {
        "username": "carla", "password": PASSWORD, "email": "carla@example.org"},
        format="json")
    assert (signed_up.status_code, signed_up.json()["code"]) == (501, "no_mail")
    assert not Player.objects.filter(user__username="carla").exists()
    assert anon_api.post("/api/auth/register/", {
        "username": "carla", "password": PASSWORD, "email": " "},
        format="json").status_code == 201
    assert not mail.outbox
    player.email = "alice@example.org"
    player.save(update_fields=["email"])
    kept = player_api.patch(ME, {"email": "alice@example.org"}, format="json")
    assert (kept.status_code, kept.json()["email"]) == (200, "alice@example.org")
    removed = player_api.patch(ME, {"email": ""}, format="json")
    assert (removed.status_code, removed.json()["email"]) == (200, "")


def test_a_reset_link_is_mailed_and_the_answer_says_nothing_of_whose(
        anon_api: APIClient, player: Any) -> None:
    player.email = "alice@example.org"
    player.save(update_fields=["email"])
    known = anon_api.post(RESET, {"email": "alice@example.org"}, format="json")
    unknown = anon_api.post(RESET, {"email": "nobody@example.org"}, format="json")
    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json()
    (sent,) = mail.outbox
    assert sent.to == ["alice@example.org"] and "/password/reset/" in sent.body


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"email": "alice"}, 400, "bad_email"),
    ({"email": " "}, 400, "invalid"),
    ({}, 400, "invalid"),
])
def test_a_reset_asked_for_no_address_is_refused(anon_api: APIClient, body: dict[str, str],
                                                 status: int, code: str) -> None:
    response = anon_api.post(RESET, body, format="json")
    assert (response.status_code, response.json()["code"]) == (status, code)


def test_resets_are_counted_by_address(anon_api: APIClient, player: Any) -> None:
    player.email = "alice@example.org"
    player.save(update_fields=["email"])
    for _ in range(3):
        assert anon_api.post(RESET, {"email": "alice@example.org"}).status_code == 202
    refused = anon_api.post(RESET, {"email": "ALICE@example.org"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (429, "too_many_requests")
    assert refused["Retry-After"] == "3600"  # the hour the count runs for
    assert len(mail.outbox) == 3
    assert anon_api.post(RESET, {"email": "other@example.org"}).status_code == 202


@override_settings(RESET_BY_MAIL=False)
def test_a_site_that_sends_no_mail_answers_no_mail(anon_api: APIClient, player: Any) -> None:
    player.email = "alice@example.org"
    player.save(update_fields=["email"])
    response = anon_api.post(RESET, {"email": "alice@example.org"}, format="json")
    assert (response.status_code, response.json()["code"]) == (501, "no_mail")
    assert not mail.outbox


def test_one_client_asks_for_a_bounded_number_of_links(anon_api: APIClient) -> None:
    """Whatever the addresses: nobody works through a list of them from one place."""
    for n in range(RESETS_FROM_CLIENT):
        assert anon_api.post(RESET, {"email": f"p{n}@example.org"}).status_code == 202
    refused = anon_api.post(RESET, {"email": "one-more@example.org"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (429, "too_many_requests")


def test_a_new_address_needs_the_present_password(player_api: APIClient, player: Any,
                                                  anon_api: APIClient) -> None:
    """A stolen token cannot send the account's reset links to its thief (and so choose its
    password, which the password change guards with the present one)."""
    cache.clear()
    for given, message in (({}, "Give your present password"),
                           ({"password": "wrong-password-1"}, "wrong")):
        refused = player_api.patch(ME, {"email": "thief@example.org", **given}, format="json")
        assert (refused.status_code, refused.json()["code"]) == (400, "bad_credentials")
        assert message in refused.json()["detail"] and "password" not in refused.json()
    player.refresh_from_db()
    assert player.email == ""
    for _ in range(signin.FAILURES - 1):  # the wrong one counted: guessing is braked
        player_api.patch(ME, {"email": "thief@example.org", "password": "guess"},
                         format="json")
    braked = player_api.patch(ME, {"email": "thief@example.org", "password": PASSWORD},
                              format="json")
    assert (braked.status_code, braked.json()["code"]) == (429, "too_many_attempts")
    cache.clear()
