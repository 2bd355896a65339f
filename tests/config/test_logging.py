"""Logging: every line once, on the root's handler, at LOG_LEVEL, Django's own included
(the demo's console printed each of Django's lines twice)."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from config.logs import BackgroundHandler

ROOT = Path(__file__).resolve().parents[2]
# What a request for an unknown path and the autoreloader write, in a process set up as
# manage.py sets it up.
LOG = """
import logging, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
logging.getLogger("django.request").warning("Not Found: /no-such-page/")
logging.getLogger("django.utils.autoreload").info("Watching for file changes")
logging.getLogger("django.server").info('"GET /lobby/ HTTP/1.1" 200 5')
"""


def logged(**env: str) -> str:
    """What a fresh process set up with these variables writes on its stderr."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "LOG_LEVEL")}
    done = subprocess.run([sys.executable, "-c", LOG], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_a_django_warning_is_written_once_on_the_demo_console() -> None:
    assert logged(DJANGO_DEBUG="true").count("Not Found: /no-such-page/") == 1


def test_djangos_info_lines_follow_log_level() -> None:
    assert "Watching for file changes" not in logged(DJANGO_DEBUG="true")
    assert logged(DJANGO_DEBUG="true", LOG_LEVEL="INFO").count("Watching for file changes") == 1


def test_a_django_error_still_reaches_the_log_with_debug_off() -> None:
    production = logged(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="x" * 50)
    assert production.count("Not Found: /no-such-page/") == 1


def test_runserver_still_writes_each_request_once() -> None:
    assert logged(DJANGO_DEBUG="true").count('"GET /lobby/ HTTP/1.1" 200 5') == 1


def test_a_line_says_when_how_bad_and_from_where() -> None:
    """Gunicorn's and Celery's own lines carry a time and a level; Django's and the site's
    were the bare message ("Not Found: /no-such-page/"), not to be told apart from an
    error nor placed in time in the web container's log."""
    production = logged(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="x" * 50)
    line = next(line for line in production.splitlines() if "/no-such-page/" in line)
    assert re.fullmatch(r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] WARNING django\.request: "
                        r"Not Found: /no-such-page/", line), line


REFUSED = """
import logging, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.test import Client
assert Client().get("/", HTTP_HOST="scanner.example").status_code == 400
try:
    raise ValueError("a real bug")
except ValueError:
    logging.getLogger("django.request").exception("Internal Server Error: /lobby/")
"""


def test_a_refused_host_is_one_warning_line_and_a_real_error_keeps_its_traceback() -> None:
    """A request naming a Host not in DJANGO_ALLOWED_HOSTS (scanners send them all day)
    was an ERROR with fourteen lines of Django's traceback."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "LOG_LEVEL")}
    done = subprocess.run([sys.executable, "-c", REFUSED], cwd=ROOT, timeout=60, text=True,
                          capture_output=True, env={**clean, "DJANGO_DEBUG": "false",
                                                    "DJANGO_SECRET_KEY": "x" * 50,
                                                    # its request line aside (below)
                                                    "REQUEST_LOG": "false",
                                                    # no collectstatic run: whitenoise says so
                                                    "PYTHONWARNINGS": "ignore:No directory at"})
    assert done.returncode == 0, done.stderr
    refused, error = done.stderr.split("Internal Server Error: /lobby/")
    assert refused.count("\n") == 1 and "Traceback" not in refused, refused
    assert "WARNING django.security.DisallowedHost: Invalid HTTP_HOST header: " \
           "'scanner.example'" in refused
    assert "Traceback" in error and "ValueError: a real bug" in error


REQUESTS = """
import os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
from django.conf import settings
settings.STORAGES = {**settings.STORAGES, "staticfiles": {  # no collectstatic run here
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
django.setup()
from django.test import Client
assert Client().get("/no-such-page/?email=alice@example.org&key=s3cret").status_code == 404
# No tables in this database: these two answer 500, and are logged all the same.
Client(raise_request_exception=False).get("/password/reset/MQ/s3cret-token/")
Client(raise_request_exception=False).get("/account/email/s3cret.signed:token/")
"""


def requests_logged(**env: str) -> str:
    """What a fresh production process writes on its stderr for the requests above."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "LOG_LEVEL")}
    done = subprocess.run([sys.executable, "-c", REQUESTS], cwd=ROOT, timeout=60, text=True,
                          capture_output=True,
                          env={**clean, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "x" * 50,
                               "PYTHONWARNINGS": "ignore:No directory at", **env})
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_production_writes_a_line_per_request_without_its_query_or_secrets() -> None:
    """Web wrote no line per request (gunicorn's access log is off): a request was seen
    only when it failed. Now each is one line, at the default LOG_LEVEL too, without the
    query string nor a link's token."""
    lines = [line for line in requests_logged().splitlines() if "config.requests" in line]
    assert len(lines) == 3, lines
    assert re.fullmatch(r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] INFO config\.requests: "
                        r"GET /no-such-page/ 404 \d+ms user=-", lines[0]), lines[0]
    assert " GET /password/reset/*/*/ " in lines[1]
    assert " GET /account/email/*/ " in lines[2]
    assert "s3cret" not in "".join(lines) and "alice" not in "".join(lines)


def test_request_lines_can_be_turned_off() -> None:
    assert "config.requests" not in requests_logged(REQUEST_LOG="false")


@pytest.mark.django_db
def test_a_request_line_names_the_signed_in_account(client: Client, player: Any) -> None:
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())  # type: ignore[method-assign]
    log = logging.getLogger("config.requests")
    kept = log.level
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        client.force_login(player)
        assert client.get("/").status_code == 200
        Client().get("/")
    finally:
        log.removeHandler(handler)
        log.setLevel(kept)
    assert re.fullmatch(rf"GET / 200 \d+ms user={player.pk}", lines[0]), lines
    assert lines[1].endswith(" user=-") and len(lines) == 2


class BlockedStream(io.StringIO):
    """A log pipe nobody reads: a write waits until `free`."""

    free = threading.Event()

    def write(self, text: str) -> int:
        assert self.free.wait(30)
        return super().write(text)


def test_a_blocked_log_pipe_does_not_hold_the_request() -> None:
    """The request lines are written from a thread of their own (BackgroundHandler)."""
    handler = BackgroundHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    record = logging.LogRecord("config.requests", logging.INFO, __file__, 1,
                               "GET %s 200", ("/lobby/",), None)
    handler.start()  # its thread, writing to stderr: to the blocked pipe here
    assert handler.listener is not None
    (out,) = handler.listener.handlers
    stream = BlockedStream()
    out.setStream(stream)  # type: ignore[attr-defined]
    began = time.monotonic()
    handler.handle(record)
    assert time.monotonic() - began < 1
    BlockedStream.free.set()
    handler.stop()
    assert stream.getvalue() == "INFO GET /lobby/ 200\n"
