"""Password changes at once with each other or with a sign-in on the old password: one
order of them, as if one after the other."""

from __future__ import annotations

import uuid
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.test import APIClient

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

TRIALS = 12
NEW = "another-long-password-7"


def sign_in(username: str) -> tuple[int, str, str]:
    response = APIClient().post("/api/auth/token/", {"username": username,
                                                     "password": PASSWORD}, format="json")
    body = response.json()
    return response.status_code, body.get("code", ""), body.get("token", "")


def change(user: Any, new: str) -> tuple[int, str]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post("/api/auth/password/", {"old_password": PASSWORD,
                                                   "new_password": new}, format="json")
    return response.status_code, response.json().get("code", "")


def account() -> Any:
    return get_user_model().objects.create_user(username=f"signer-{uuid.uuid4().hex[:8]}",
                                                password=PASSWORD)


def test_a_token_asked_for_on_the_old_password_as_it_changes_does_not_work_after(
        race: Any) -> None:
    """Either the sign-in came first and the change revoked its token, or it is refused."""
    for _ in range(TRIALS):
        user = account()
        answers, errors = race([partial(sign_in, user.username), partial(change, user, NEW)])
        assert errors == []
        assert answers[1] == (200, "")
        status, code, token = answers[0]
        assert (status, code) in ((200, ""), (400, "bad_credentials")), answers
        if status == 200:
            probe = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
            assert probe.get("/api/auth/me/").status_code == 401, "the old password's token works"


def test_two_changes_on_one_present_password_at_once_make_one(race: Any) -> None:
    """The second finds the present password changed, as it would one after the other:
    the account keeps the password whose change was answered 200."""
    for _ in range(TRIALS):
        user = account()
        answers, errors = race([partial(change, user, f"{NEW}-{i}") for i in range(2)])
        assert errors == []
        assert sorted(answers) == [(200, ""), (400, "bad_credentials")], answers
        kept = f"{NEW}-{answers.index((200, ''))}"
        user.refresh_from_db()
        assert user.check_password(kept)


def opened(link: str) -> tuple[Client, str]:
    """A browser that opened the reset `link` (Django moves its token into the session),
    and where it posts the new password."""
    browser = Client()
    answer = browser.get(link)
    assert answer.status_code == 302
    return browser, answer["Location"]


def reset(browser: Client, form: str, new: str) -> tuple[int, str]:
    answer = browser.post(form, {"new_password": new, "new_password2": new})
    return answer.status_code, answer.get("Location", "")


def test_a_reset_link_sent_twice_at_once_sets_one_password(race: Any) -> None:
    """The link works once: of two tabs posting it together, one sets the password and
    the other is refused, and the account has the password the first was told it has."""
    for _ in range(TRIALS):
        user = account()
        link = reverse("password_reset_confirm", kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user)})
        tabs = [opened(link) for _ in range(2)]
        answers, errors = race([partial(reset, browser, form, f"{NEW}-{i}")
                                for i, (browser, form) in enumerate(tabs)])
        assert errors == []
        done = [i for i, answer in enumerate(answers) if answer == (302, reverse("lobby"))]
        assert len(done) == 1, answers
        assert answers[1 - done[0]][0] == 200
        user.refresh_from_db()
        assert user.check_password(f"{NEW}-{done[0]}")
