"""The league in the Django admin: every model listed; the stream and the projections
are read-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from league import events
from league.models import Event, EventRecord

pytestmark = pytest.mark.django_db

MODELS = ["player", "team", "season", "event", "eventrecord", "entrant", "eventmatch",
          "standing", "seasonstanding", "rating", "ratinghistory"]
READ_ONLY = ["eventrecord", "entrant", "eventmatch", "standing", "seasonstanding", "rating",
             "ratinghistory"]


@pytest.fixture
def admin_browser(django_user_model: Any) -> Client:
    root = django_user_model.objects.create_superuser("league-root", password="x-admin-pass-2")
    client = Client()
    client.force_login(root)
    return client


@pytest.mark.parametrize("model", MODELS)
def test_every_league_model_is_listed(admin_browser: Client, cup: Event, model: str) -> None:
    assert admin_browser.get(f"/admin/league/{model}/").status_code == 200


@pytest.mark.parametrize("model", READ_ONLY)
def test_records_and_projections_cannot_be_added(admin_browser: Client, model: str) -> None:
    assert admin_browser.get(f"/admin/league/{model}/add/").status_code == 403


def test_an_event_shows_its_records_inline_and_they_stay_as_written(
        admin_browser: Client, cup: Event) -> None:
    page = admin_browser.get(f"/admin/league/event/{cup.pk}/change/").content.decode()
    assert "entrant_added" in page
    record = EventRecord.objects.filter(event=cup).first()
    assert record is not None
    before = record.payload
    changed = admin_browser.post(f"/admin/league/eventrecord/{record.pk}/change/",
                                 {"payload": "{}"})
    assert changed.status_code == 403
    assert admin_browser.get(f"/admin/league/eventrecord/{record.pk}/delete/").status_code == 403
    record.refresh_from_db()
    assert record.payload == before


def test_events_are_made_on_the_dashboard_not_in_the_admin(admin_browser: Client,
                                                           organizer: Any) -> None:
    assert admin_browser.get("/admin/league/event/add/").status_code == 403
    event = events.create_event(name="Named", game="super_showdown", format="swiss",
                                by=organizer)
    assert admin_browser.get(f"/admin/league/event/{event.pk}/change/").status_code == 200
