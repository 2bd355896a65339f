"""Names told apart ignoring case stay unique when the requests arrive at once."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.models import Team

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def test_sign_ups_of_one_name_in_several_cases_at_once_make_one_account(race: Any) -> None:
    name = f"Racer{uuid.uuid4().hex[:6]}"
    variants = [name, name.lower(), name.upper(), name.swapcase()]

    def sign_up(i: int) -> tuple[int, str]:
        response = APIClient().post("/api/auth/register/", {
            "username": variants[i % len(variants)], "password": "a-long-test-password-9"},
            format="json")
        return response.status_code, response.json().get("code", "")

    answers, errors = race([lambda i=i: sign_up(i) for i in range(THREADS)])
    assert errors == []
    assert Counter(status for status, _ in answers) == {201: 1, 400: THREADS - 1}, answers
    assert {code for status, code in answers if status == 400} == {"username_taken"}
    assert get_user_model().objects.filter(username__iexact=name).count() == 1


def test_teams_of_one_name_in_several_cases_at_once_make_one_team(race: Any) -> None:
    staff = get_user_model().objects.create_user(username=f"staff-{uuid.uuid4().hex[:6]}",
                                                 is_staff=True)
    name = f"Reds {uuid.uuid4().hex[:6]}"

    def make_team(i: int) -> tuple[int, str]:
        client = APIClient()
        client.force_authenticate(staff)
        response = client.post("/api/teams/", {
            "name": name.upper() if i % 2 else name, "members": [staff.username]},
            format="json")
        return response.status_code, response.json().get("code", "")

    answers, errors = race([lambda i=i: make_team(i) for i in range(THREADS)])
    assert errors == []
    assert Counter(status for status, _ in answers) == {201: 1, 409: THREADS - 1}, answers
    assert {code for status, code in answers if status == 409} == {"team_exists"}
    assert Team.objects.filter(name__iexact=name).count() == 1
