"""Reinstating a withdrawn entrant through the API: `entrants/{key}/reinstate/`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from league import events
from league.models import Event, Walkover

pytestmark = pytest.mark.django_db


def entrants(answer: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(e["key"], e["withdrawn"]) for e in answer["entrants"]]


def test_an_organizer_reinstates_a_withdrawn_entrant(organizer_api: APIClient,
                                                     draft_event: Event) -> None:
    url = f"/api/events/{draft_event.pk}/entrants/e1/"
    assert organizer_api.post(url + "withdraw/", {}, format="json").status_code == 200
    seq = Event.objects.get(pk=draft_event.pk).seq
    stale = organizer_api.post(url + "reinstate/", {"expected_seq": seq - 1}, format="json")
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_seq")
    answer = organizer_api.post(url + "reinstate/", {"expected_seq": seq}, format="json")
    assert answer.status_code == 200, answer.content
    assert ("e1", False) in entrants(answer.json())
    again = organizer_api.post(url + "reinstate/", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (404, "not_withdrawn")


def test_a_started_events_walkovers_go_with_the_withdrawal(
        organizer_api: APIClient, organizer: Any, held_event: Callable[..., Event]) -> None:
    """A round robin whose round 2 waits: the withdrawal's walkovers in it are undone."""
    event = held_event("round_robin")
    events.withdraw_entrant(event=event, by=organizer, key="e1")
    assert Walkover.objects.filter(event=event).exists()
    answer = organizer_api.post(f"/api/events/{event.pk}/entrants/e1/reinstate/", {},
                                format="json")
    assert answer.status_code == 200, answer.content
    assert ("e1", False) in entrants(answer.json())
    assert not Walkover.objects.filter(event=event).exists()
