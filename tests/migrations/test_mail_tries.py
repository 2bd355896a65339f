"""Migrating to the counted tries of refused mails (matches 0010, league 0021): a seat
mailed or claimed before, and an Event's players reminded before, keep what they had, with
no refusal counted, and back."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league import events
from league.models import Event
from matches.models import Match, Seat

pytestmark = pytest.mark.django_db(transaction=True)

STAMP = "2037-12-10T18:30:00+00:00"


def migrate(*targets: tuple[str, str]) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets))
    executor.loader.build_graph()
    return executor.loader.project_state(list(targets)).apps


def test_what_was_mailed_stays_and_no_refusal_is_counted(toy_match: Match,
                                                         organizer: Any) -> None:
    Seat.objects.filter(match=toy_match, index=0).update(mailed_seq=toy_match.seq)
    event = events.create_event(name="Thursday Night", game="super_showdown",
                                format="round_robin", by=organizer)
    Event.objects.filter(pk=event.pk).update(reminded={"7": STAMP})
    before = (("matches", "0009_seat_mailed_seq"), ("league", "0020_reminders_by_player"))
    after = (("matches", "0010_mail_tries"), ("league", "0021_reminder_tries"))
    try:
        migrate(*before)
        apps = migrate(*after)
        seat = apps.get_model("matches", "Seat").objects.get(match_id=toy_match.pk, index=0)
        row = apps.get_model("league", "Event").objects.get(pk=event.pk)
        assert (seat.mailed_seq, seat.mail_tries) == (toy_match.seq, 0)
        assert (row.reminded, row.reminder_tries) == ({"7": STAMP}, {})
        Seat.objects.filter(pk=seat.pk).update(mail_tries=2)
        apps = migrate(*before)
        seat = apps.get_model("matches", "Seat").objects.get(pk=seat.pk)
        assert seat.mailed_seq == toy_match.seq
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
