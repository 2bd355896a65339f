"""`manage.py run_schedule`: the periodic sweeps in-process, for a site without beat."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
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
                   "sweep-simulation-chunks", "mail-awaited-players", "mail-event-reminders",
                   "mail-email-confirmations", "mail-password-resets"}
    assert "sweep-missed-results: 1" in out.getvalue()


def test_reload_restarts_the_sweeps_when_the_code_changes_and_stops_with_them(
        tmp_path: Path) -> None:
    """`make demo` runs `run_schedule --reload` beside runserver and stops it with a SIGTERM
    when the server stops: an edited module restarts the loop (each sweep runs again at
    once, long before its interval), and the SIGTERM takes the restarted loop down too."""
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items()
           if k not in ("CELERY_BROKER_URL", "CACHE_URL")}
    # No tables in this database: each sweep fails and is reported, a report a run.
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", BOT_SWEEP_SECONDS="600")
    log = tmp_path / "sweeps.log"
    with log.open("w") as out:
        sweeps = subprocess.Popen([sys.executable, "manage.py", "run_schedule", "--reload"],
                                  cwd=root, env=env, stdout=out, stderr=out)

    def runs_of_the_bot_sweep(at_least: int) -> int:
        deadline = time.monotonic() + 60
        while True:
            runs = log.read_text().count("sweep-waiting-bot-seats: failed")
            if runs >= at_least or sweeps.poll() is not None or time.monotonic() > deadline:
                return runs
            time.sleep(0.2)

    def children() -> list[str]:
        found = subprocess.run(["pgrep", "-P", str(sweeps.pid)], capture_output=True,
                               text=True)
        return found.stdout.split()

    try:
        assert runs_of_the_bot_sweep(1) == 1, log.read_text()
        [loop] = children()
        time.sleep(3)  # the reloader's first look at the files
        command = root / "league" / "management" / "commands" / "run_schedule.py"
        later = time.time() + 2
        os.utime(command, (later, later))
        assert runs_of_the_bot_sweep(2) == 2, log.read_text()
        restarted = children()
        assert restarted and restarted != [loop]

        sweeps.send_signal(signal.SIGTERM)
        sweeps.wait(timeout=30)
        time.sleep(0.5)
        assert all(not Path(f"/proc/{pid}").exists() for pid in [*restarted, loop])
    finally:
        if sweeps.poll() is None:
            sweeps.kill()
