"""The admin: matches with their seats; the event stream can be read but not changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(django_user_model: Any) -> Client:
    admin = django_user_model.objects.create_superuser("root-admin", password="x-admin-pass-1")
    client = Client()
    client.force_login(admin)
    return client


def test_a_match_and_its_events_are_shown_in_the_admin(admin_client_: Client,
                                                        toy_match: Match) -> None:
    event = toy_match.events.get(seq=1)
    assert admin_client_.get(f"/admin/matches/match/{toy_match.pk}/change/").status_code == 200
    assert admin_client_.get("/admin/matches/matchevent/").status_code == 200
    assert admin_client_.get(f"/admin/matches/matchevent/{event.pk}/change/").status_code == 200


def test_the_admin_can_neither_add_change_nor_delete_an_event(admin_client_: Client,
                                                              toy_match: Match) -> None:
    event = toy_match.events.get(seq=1)
    before = event.payload
    assert admin_client_.get("/admin/matches/matchevent/add/").status_code == 403
    assert admin_client_.get(
        f"/admin/matches/matchevent/{event.pk}/delete/").status_code == 403
    changed = admin_client_.post(f"/admin/matches/matchevent/{event.pk}/change/",
                                 {"payload": '{"outcome": {}}'})
    assert changed.status_code == 403
    event.refresh_from_db()
    assert event.payload == before
