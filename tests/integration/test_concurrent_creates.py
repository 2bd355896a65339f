"""An Event create resent while the first is still being made (a phone that timed out):
one Event, every answer naming it."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.models import Event, EventRecord

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 6


def create(staff: Any, path: str, body: dict[str, Any]) -> tuple[int, int]:
    client = APIClient()
    client.force_authenticate(staff)
    response = client.post(path, body, format="json")
    return response.status_code, response.json().get("id", 0)


@pytest.mark.parametrize(("path", "body"), [
    ("/api/events/", {"name": "Night", "game": "super_showdown", "format": "round_robin"}),
    ("/api/events/showdown/", {"preset": "full_card",
                               "sides": [{"bot": "random"}, {"bot": "random"}]}),
])
def test_a_create_sent_several_times_at_once_with_its_key_makes_one_event(
        race: Any, path: str, body: dict[str, Any]) -> None:
    staff = get_user_model().objects.create_user(username=f"org-{uuid.uuid4().hex[:6]}",
                                                 is_staff=True)
    sent = {**body, "idempotency_key": "league-night"}
    answers, errors = race([lambda: create(staff, path, sent)] * THREADS)
    assert errors == []
    (event,) = Event.objects.filter(created_by=staff)
    assert Counter(answers) == {(201, event.pk): THREADS}
    kinds = Counter(EventRecord.objects.filter(event=event).values_list("kind", flat=True))
    assert kinds["started"] == (1 if "sides" in body else 0)
    assert kinds["entrant_added"] == len(body.get("sides", []))
