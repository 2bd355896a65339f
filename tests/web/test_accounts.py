"""Log in, log out and sign up."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_the_lobby_sends_a_visitor_to_log_in(client: Client) -> None:
    response = client.get(reverse("lobby"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_logging_in_lands_in_the_lobby(client: Client, player: Any) -> None:
    page = client.get(reverse("login"))
    assert page.status_code == 200 and b'name="password"' in page.content
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert client.get(reverse("lobby")).status_code == 200


def test_a_name_typed_in_other_capitals_logs_in_as_its_account(
        client: Client, player: Any) -> None:
    response = client.post(reverse("login"), {"username": "Alice", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert client.get(reverse("lobby")).wsgi_request.user.username == "alice"


def test_a_wrong_password_is_refused_on_the_login_page(client: Client, player: Any) -> None:
    response = client.post(reverse("login"), {"username": "alice", "password": "nope-nope"})
    assert response.status_code == 200
    assert b"enter a correct username and password" in response.content
    # The page comes back with focus on the username, not on the refusal: it is an alert,
    # read out on arrival.
    assert re.search(r'<ul class="errors" role="alert"><li>Please enter a correct username',
                     response.content.decode())


def test_logging_out_is_a_post_that_ends_the_session(alice_client: Client) -> None:
    assert alice_client.get(reverse("logout")).status_code == 405
    response = alice_client.post(reverse("logout"))
    assert response.status_code == 302 and response["Location"] == reverse("login")
    assert alice_client.get(reverse("lobby")).status_code == 302


AWAY = ["https://evil.example/", "//evil.example/", "/\\evil.example", "\\\\evil.example",
        "javascript:alert(1)", "http:evil.example", "https:///evil.example"]


@pytest.mark.parametrize("away", AWAY)
def test_a_next_that_leaves_the_site_is_not_followed(client: Client, player: Any,
                                                     away: str) -> None:
    """Logging in, logging out, or opening the login page signed in, with `next` naming
    another site: the answer stays on this one."""
    logged_in = client.post(reverse("login"), {"username": "alice", "password": PASSWORD,
                                               "next": away})
    assert logged_in.status_code == 302 and logged_in["Location"] == reverse("lobby")
    again = client.get(reverse("login"), {"next": away})
    assert again.status_code == 302 and again["Location"] == reverse("lobby")
    logged_out = client.post(reverse("logout"), {"next": away})
    assert logged_out.status_code == 302 and logged_out["Location"] == reverse("login")
    page = client.get(reverse("login"), {"next": away}).content.decode()
    assert "evil.example" not in page and "javascript:" not in page


def test_a_next_on_the_site_is_followed(client: Client, player: Any) -> None:
    league = reverse("league:seasons")
    logged_in = client.post(reverse("login"), {"username": "alice", "password": PASSWORD,
                                               "next": league})
    assert logged_in["Location"] == league


def test_a_visitor_signs_up_and_lands_logged_in_in_the_lobby(client: Client) -> None:
    response = client.post(reverse("register"), {
        "username": "newcomer", "display_name": "New Comer",
        "password": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    user = get_user_model().objects.get(username="newcomer")
    assert user.player.display_name == "New Comer"
    lobby = client.get(reverse("lobby"))
    assert lobby.status_code == 200 and b"newcomer" in lobby.content


def test_closed_sign_up_says_so_and_creates_nobody(client: Client, settings: Any) -> None:
    settings.SIGNUP_OPEN = False
    page = client.get(reverse("register"))
    assert b"Sign-up is closed" in page.content and b'name="password"' not in page.content
    response = client.post(reverse("register"), {
        "username": "latecomer", "password": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 403 and b"Sign-up is closed" in response.content
    assert not get_user_model().objects.filter(username="latecomer").exists()
    assert b"Sign up" not in client.get(reverse("login")).content


def test_a_weak_password_is_refused_with_its_reason(client: Client) -> None:
    response = client.post(reverse("register"), {
        "username": "weakling", "password": "password", "password2": "password",
    })
    assert response.status_code == 400
    assert b"This password is too common." in response.content
    assert not get_user_model().objects.filter(username="weakling").exists()


def test_a_taken_name_is_refused(client: Client, player: Any) -> None:
    response = client.post(reverse("register"), {
        "username": "Alice", "password": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 400 and b"That username is taken." in response.content
    assert get_user_model().objects.filter(username__iexact="alice").count() == 1


def test_two_different_passwords_are_refused(client: Client) -> None:
    response = client.post(reverse("register"), {
        "username": "typo", "password": PASSWORD, "password2": PASSWORD + "x",
    })
    assert response.status_code == 400 and b"The two passwords differ." in response.content
    assert not get_user_model().objects.filter(username="typo").exists()
    # The field points at its error (aria-describedby) and the error carries that id, so a
    # screen reader reads it with the field.
    page = response.content.decode()
    described = page.split('name="password2"')[1].split(">")[0]
    assert 'aria-describedby="id_password2_error"' in described
    assert '<div class="error" id="id_password2_error"><div>The two passwords differ.' in page


@pytest.fixture
def clean_signin_counts() -> Iterator[None]:
    """Wrong-password counts live in the cache, which outlives a test."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def test_ten_wrong_passwords_lock_the_name_out_of_the_page_and_the_api(
        client: Client, anon_api: Any, player: Any, clean_signin_counts: None) -> None:
    from config import signin

    for _ in range(signin.FAILURES - 1):
        client.post(reverse("login"), {"username": "alice", "password": "nope-nope"})
    right = {"username": "alice", "password": PASSWORD}
    assert anon_api.post("/api/auth/token/", right, format="json").status_code == 200
    wrong = anon_api.post("/api/auth/token/", {"username": "ALICE", "password": "nope"},
                          format="json")
    assert wrong.json()["code"] == "bad_credentials"  # the tenth: the count ignores case
    locked = anon_api.post("/api/auth/token/", right, format="json")
    assert (locked.status_code, locked.json()["code"]) == (429, "too_many_attempts")
    page = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert page.status_code == 200 and b"Too many wrong passwords" in page.content
    other = anon_api.post("/api/auth/token/", {"username": "bruno", "password": PASSWORD},
                          format="json")
    assert other.status_code in (200, 400) and other.json().get("code") != "too_many_attempts"


def test_guessing_at_a_name_does_not_lock_its_player_out_from_elsewhere(
        anon_api: Any, player: Any, clean_signin_counts: None) -> None:
    """A rival's wrong passwords from their address lock the name out there alone; the
    player signs in from their own."""
    from config import signin

    rival = {"REMOTE_ADDR": "198.51.100.7"}
    for _ in range(signin.FAILURES):
        anon_api.post("/api/auth/token/", {"username": "alice", "password": "nope"},
                      format="json", **rival)
    right = {"username": "alice", "password": PASSWORD}
    assert anon_api.post("/api/auth/token/", right, format="json", **rival).status_code == 429
    home = anon_api.post("/api/auth/token/", right, format="json", REMOTE_ADDR="203.0.113.9")
    assert home.status_code == 200 and "token" in home.json()


def test_an_address_guessing_at_many_names_is_locked_out_for_every_name(
        anon_api: Any, player: Any, clean_signin_counts: None) -> None:
    from config import signin

    rival = {"REMOTE_ADDR": "198.51.100.7"}
    for n in range(signin.ADDRESS_FAILURES):
        anon_api.post("/api/auth/token/", {"username": f"name{n}", "password": "nope"},
                      format="json", **rival)
    right = {"username": "alice", "password": PASSWORD}
    assert anon_api.post("/api/auth/token/", right, format="json", **rival).status_code == 429
    assert anon_api.post("/api/auth/token/", right, format="json").status_code == 200


@pytest.mark.parametrize(("behind_proxy", "counted"), [(True, "203.0.113.9"),
                                                        (False, "10.0.0.2")])
def test_behind_the_proxy_the_address_it_appended_is_counted(
        rf: Any, settings: Any, behind_proxy: bool, counted: str) -> None:
    """The client may write X-Forwarded-For itself; the last address is the proxy's own
    entry, and without the proxy the header is not read at all."""
    from config import signin

    settings.BEHIND_TLS_PROXY = behind_proxy
    request = rf.post("/", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9", REMOTE_ADDR="10.0.0.2")
    assert signin.client_address(request) == counted


def test_a_refused_field_alone_has_focus_when_the_form_comes_back(
        client: Client, player: Any) -> None:
    """Sign-up refused for a name taken: the page comes back with focus (autofocus) on
    that field, the first one refused, whose reason a screen reader then reads beside it;
    no other field takes focus."""
    response = client.post(reverse("register"), {
        "username": "alice", "password": "a long enough pass 1", "password2":
        "a long enough pass 1"})
    assert response.status_code == 400
    page = response.content.decode()
    focused = re.findall(r'<input[^>]*\bautofocus\b[^>]*>', page)
    assert len(focused) == 1 and 'name="username"' in focused[0]
    assert 'aria-invalid="true"' in focused[0]


def test_sign_up_says_every_problem_at_once_each_beside_its_field(
        client: Client, player: Any) -> None:
    """A name taken (in other capitals) and two passwords that differ: both are said on
    the first try, the name's beside the username and the passwords' beside theirs."""
    response = client.post(reverse("register"), {
        "username": "ALICE", "password": "password", "password2": PASSWORD})
    assert response.status_code == 400
    page = response.content.decode()
    assert '<div class="error" id="id_username_error"><div>That username is taken.' in page
    assert '<div class="error" id="id_password_error"><div>This password is too common.' \
        in page
    assert '<div class="error" id="id_password2_error"><div>The two passwords differ.' in page
    assert get_user_model().objects.filter(username__iexact="alice").count() == 1


def test_a_name_taken_between_the_forms_check_and_the_sign_up_is_refused_cleanly(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """The form found the name free, and another sign-up took it before this one was
    made: register_player, the final guard, refuses it beside the username field."""
    from league.services import register_player
    from matches import forms as forms_module
    checked = forms_module.signup_refusals

    def then_taken(**kwargs: Any) -> Any:
        refusals = checked(**kwargs)
        register_player(username="Racer", password=PASSWORD)
        return refusals

    monkeypatch.setattr(forms_module, "signup_refusals", then_taken)
    response = client.post(reverse("register"), {
        "username": "racer", "password": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 400
    assert '<div class="error" id="id_username_error"><div>That username is taken.' \
        in response.content.decode()
    assert list(get_user_model().objects.filter(username__iexact="racer")
                .values_list("username", flat=True)) == ["Racer"]
