"""Two reminder sweeps at once remind each entry once (league.event_mail), on PostgreSQL."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone

from league import events
from league.event_mail import mail_event_reminders
from league.models import Event
from league.services import player_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def night(organizer: Any, player: Any, player2: Any) -> Any:
    """Starting in two hours, alice and bruno entered, both asking for reminders."""
    for user in (player, player2):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
        row = player_for(user)
        row.event_mail = True
        row.save(update_fields=["event_mail"])
    event = events.create_event(name="Thursday Night", game="super_showdown",
                                format="round_robin", by=organizer,
                                starts_at=timezone.now() + timedelta(hours=2))
    events.add_entrant(event=event, by=organizer, player="alice")
    events.add_entrant(event=event, by=organizer, player="bruno")
    with override_settings(TURN_MAIL=True, SITE_URL="https://league.example.org",
                           EVENT_MAIL_HOURS=3):
        yield event


def test_two_sweeps_at_once_remind_once(night: Event) -> None:
    """Both read the Event due, then claim its entries under its row lock, which the test
    holds until both wait for it: the second finds them reminded."""
    answers: dict[str, Any] = {}

    def sweep(name: str) -> threading.Thread:
        def run() -> None:
            try:
                answers[name] = mail_event_reminders()
            finally:
                connection.close()

        thread = threading.Thread(target=run)
        thread.start()
        return thread

    with transaction.atomic():
        Event.objects.select_for_update().get(pk=night.pk)
        sweeps = [sweep("first"), sweep("second")]
        time.sleep(1)  # both read the Event due and wait for its row
    for thread in sweeps:
        thread.join(timeout=30)
    assert sorted(answers.values()) == [0, 2] and len(mail.outbox) == 2
