"""Migrating to entrant keys (league 0023): the records written before keep what they
say, with no key (no earlier entry is taken for a resend), and back."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league import events
from league.models import EventRecord

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(*targets: tuple[str, str]) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets))
    executor.loader.build_graph()
    return executor.loader.project_state(list(targets)).apps


def test_records_written_before_have_no_key(organizer: Any) -> None:
    event = events.create_event(name="Thursday Night", game="super_showdown",
                                format="round_robin", by=organizer)
    events.add_entrant(event=event, by=organizer, bot="random")
    payload = EventRecord.objects.get(event=event, kind="entrant_added").payload
    before, after = ("league", "0022_email_domains_in_ascii"), ("league", "0023_entrant_keys")
    try:
        migrate(before)
        apps = migrate(after)
        (row,) = apps.get_model("league", "EventRecord").objects.filter(
            event_id=event.pk, kind="entrant_added")
        assert (row.payload, row.actor_id, row.idempotency_key) == (payload, organizer.pk, "")
        apps = migrate(before)
        row = apps.get_model("league", "EventRecord").objects.get(pk=row.pk)
        assert row.payload == payload
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    again = events.add_entrant(event=event, by=organizer, bot="random", key="k")
    assert again.key == "e2"
