"""Logging: every line once, on the root's handler, at LOG_LEVEL, Django's own included
(the demo's console printed each of Django's lines twice)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

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
                                                    # no collectstatic run: whitenoise says so
                                                    "PYTHONWARNINGS": "ignore:No directory at"})
    assert done.returncode == 0, done.stderr
    refused, error = done.stderr.split("Internal Server Error: /lobby/")
    assert refused.count("\n") == 1 and "Traceback" not in refused, refused
    assert "WARNING django.security.DisallowedHost: Invalid HTTP_HOST header: " \
           "'scanner.example'" in refused
    assert "Traceback" in error and "ValueError: a real bug" in error
