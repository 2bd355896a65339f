"""POST /api/auth/register/ and /api/auth/token/: accounts and API tokens."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.models import Player
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

REGISTER = "/api/auth/register/"
TOKEN = "/api/auth/token/"


def test_registering_creates_a_user_and_player_and_returns_a_working_token(
        anon_api: APIClient) -> None:
    response = anon_api.post(REGISTER, {"username": "carla", "password": PASSWORD},
                             format="json")
    assert response.status_code == 201, response.content
    assert Player.objects.filter(user__username="carla").exists()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/matches/").status_code == 200


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"username": "no spaces!", "password": PASSWORD}, "bad_username"),
        ({"username": "alice", "password": PASSWORD}, "username_taken"),
        ({"username": "ALICE", "password": PASSWORD}, "username_taken"),
        ({"username": "\u0430lice", "password": PASSWORD}, "bad_username"),  # Cyrillic a
        ({"username": "dora", "password": "short"}, "weak_password"),
        ({"username": "dora"}, "invalid"),
    ],
)
def test_a_refused_registration_is_400_with_its_code(
        anon_api: APIClient, player: Any, body: dict[str, str], code: str) -> None:
    response = anon_api.post(REGISTER, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert "detail" in response.json()


def test_registration_is_403_signup_closed_when_sign_up_is_off(
        anon_api: APIClient, settings: Any) -> None:
    settings.SIGNUP_OPEN = False
    response = anon_api.post(REGISTER, {"username": "carla", "password": PASSWORD},
                             format="json")
    assert (response.status_code, response.json()["code"]) == (403, "signup_closed")
    assert not get_user_model().objects.filter(username="carla").exists()


def test_the_right_password_gets_the_accounts_token_every_time(
        anon_api: APIClient, player: Any) -> None:
    first = anon_api.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json")
    again = anon_api.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json")
    assert first.status_code == again.status_code == 200
    assert first.json()["token"] == again.json()["token"]


def test_a_name_typed_in_other_capitals_signs_in_as_its_account(
        anon_api: APIClient, player: Any) -> None:
    # Sign-up keeps names unique ignoring case and "ALICE" is alice wherever a name is
    # read; a phone's keyboard capitals the first letter.
    mine = anon_api.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json")
    typed = anon_api.post(TOKEN, {"username": "Alice", "password": PASSWORD}, format="json")
    assert typed.status_code == 200, typed.content
    assert typed.json()["token"] == mine.json()["token"]
    wrong = anon_api.post(TOKEN, {"username": "ALICE", "password": "wrong-password-1"},
                          format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "bad_credentials")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"username": "alice", "password": "wrong-password-1"}, "bad_credentials"),
        ({"username": "nobody", "password": PASSWORD}, "bad_credentials"),
        ({"username": "alice"}, "invalid"),
    ],
)
def test_a_wrong_or_missing_password_is_400_with_a_code(
        anon_api: APIClient, player: Any, body: dict[str, str], code: str) -> None:
    response = anon_api.post(TOKEN, body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, code)


@pytest.mark.parametrize("url", [REGISTER, TOKEN])
def test_a_malformed_json_body_is_400_parse_error(anon_api: APIClient, url: str) -> None:
    response = anon_api.post(url, '{"username": ', content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")


def test_a_bad_token_is_401_with_a_code() -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get("/api/matches/")
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")


def test_a_refused_registration_lists_every_problem_at_once(
        anon_api: APIClient, player: Any) -> None:
    """A name taken (in other capitals) and a weak password: both on the first try, each
    naming its field; the answer's own code is the first of them."""
    response = anon_api.post(REGISTER, {"username": "ALICE", "password": "password"},
                             format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "username_taken"
    assert [(each["code"], each["field"]) for each in body["problems"]] == [
        ("username_taken", "username"), ("weak_password", "password")]
    assert body["problems"][0]["detail"] == body["detail"]
    assert get_user_model().objects.filter(username__iexact="alice").count() == 1


@pytest.mark.parametrize(("sent", "problems"), [
    ({"username": "ALICE", "password": 12345678},
     [("invalid", "password", "Not a valid string."), ("username_taken", "username", None)]),
    ({"username": 7, "password": "password"},
     [("invalid", "username", "Not a valid string."), ("weak_password", "password", None)]),
    ({"password": "a long enough passphrase 9", "display_name": ["Ann"]},
     [("invalid", "username", "This field is required."),
      ("invalid", "display_name", "Not a valid string.")]),
    (["alice"], [("invalid", "", "Invalid data. Expected a dictionary, but got list.")]),
])
def test_a_registration_with_a_field_it_cannot_read_lists_every_problem_too(
        anon_api: APIClient, player: Any, sent: Any,
        problems: list[tuple[str, str, str | None]]) -> None:
    """The fields it cannot read first, each sentence of the `invalid` answer's detail
    with its field, then what the service says of the fields it read."""
    response = anon_api.post(REGISTER, sent, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert [(each["code"], each["field"], each["detail"] if each["code"] == "invalid"
             else None) for each in body["problems"]] == problems
    assert {each["field"] or "non_field_errors" for each in body["problems"]
            if each["code"] == "invalid"} == set(body["detail"])
    assert get_user_model().objects.count() == 1
