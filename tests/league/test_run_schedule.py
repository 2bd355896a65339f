"""`manage.py run_schedule`: the periodic sweeps in-process, for a site without beat."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from league import events
from league.models import Event, EventMatch
from matches import services as match_services

pytestmark = pytest.mark.django_db


def test_once_runs_every_sweep_and_records_a_missed_result(organizer: Any, player: Any,
                                                           player2: Any) -> None:
    event = events.create_event(name="Duel", game="super_showdown", format="round_robin",
                                by=organizer)
    for user in (player, player2):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    match_services.forfeit_seat(match=link.match, seat=1)  # its commit hook never runs here
    assert not event.records.filter(kind="result_recorded").exists()

    out = io.StringIO()
    call_command("run_schedule", "--once", verbosity=2, stdout=out)

    assert event.records.filter(kind="result_recorded").count() == 1
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    ran = {line.split(":")[0] for line in out.getvalue().splitlines()}
    assert ran == {"sweep-waiting-bot-seats", "enforce-turn-deadlines", "sweep-missed-results",
                   "sweep-simulation-chunks", "mail-awaited-players", "mail-event-reminders"}
    assert "sweep-missed-results: 1" in out.getvalue()
