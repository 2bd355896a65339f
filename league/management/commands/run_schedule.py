"""Run the periodic sweeps in this process: what Celery beat does in production, for a
site on its embedded defaults (`make demo`: no broker, tasks in-process).

Each entry of CELERY_BEAT_SCHEDULE (bot seats left waiting, turn deadlines, missed
results, turn mails, Event reminders and moved mails, address confirmation links and
password reset links still owed, stalled simulation chunks) runs on its interval; `--once` runs each once and
stops; `--reload` restarts the loop when the code changes, as runserver does (`make demo`).
A sweep that fails is reported and the others go on; `-v 2` reports each run.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections
from django.utils import autoreload

from config.celery import app


class Command(BaseCommand):
    help = ("Run the periodic sweeps (turn deadlines, waiting bots, missed results, mails, "
            "simulation chunks) in-process.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="Run each sweep once and stop.")
        parser.add_argument("--reload", action="store_true",
                            help="Restart when the code changes, as runserver does.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["reload"] and not options["once"]:
            autoreload.run_with_reloader(self._loop, **options)
        else:
            self._loop(**options)

    def _loop(self, **options: Any) -> None:
        app.loader.import_default_modules()  # registers every app's tasks
        schedule = {name: (entry["task"], float(entry["schedule"]))
                    for name, entry in settings.CELERY_BEAT_SCHEDULE.items()}
        self.verbose = options["verbosity"] > 1
        due = {name: 0.0 for name in schedule}
        while True:
            now = time.monotonic()
            for name, (task, every) in schedule.items():
                if due[name] <= now:
                    self._run(name, task)
                    due[name] = now + every
            if options["once"]:
                return
            close_old_connections()
            time.sleep(max(0.5, min(due.values()) - time.monotonic()))

    def _run(self, name: str, task: str) -> None:
        result = app.tasks[task].apply()
        if result.failed():
            self.stderr.write(f"{name}: failed: {result.result!r}")
        elif self.verbose:
            self.stdout.write(f"{name}: {result.result}")
