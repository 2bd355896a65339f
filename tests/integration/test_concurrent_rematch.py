"""Players who ask for a rematch at the same moment get one rematch, all of them in it."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def test_both_players_asking_at_once_make_one_rematch_and_both_sit_in_it(race: Any) -> None:
    tag = uuid.uuid4().hex[:6]
    users = [get_user_model().objects.create_user(username=f"{name}-{tag}")
             for name in ("ann", "ben")]
    match = services.create_match(game="super_showdown", options={}, created_by=users[0],
                                  seats=[{"player": u.username} for u in users])
    services.join_match(match=match, user=users[1])
    services.resign(match=match, user=users[0])

    def ask(i: int) -> tuple[int, int]:
        client = APIClient()
        client.force_authenticate(users[i % 2])
        response = client.post(f"/api/matches/{match.pk}/rematch/")
        return response.status_code, response.json().get("id", 0)

    answers, errors = race([lambda i=i: ask(i) for i in range(THREADS)])
    assert errors == []
    made = Match.objects.get(rematch_of=match)
    assert Counter(status for status, _ in answers) == {201: 1, 200: THREADS - 1}, answers
    assert {made_id for _, made_id in answers} == {made.pk}
    assert made.status == Match.Status.ACTIVE
    assert sorted(made.seats.values_list("user__username", flat=True)) == sorted(
        u.username for u in users)
