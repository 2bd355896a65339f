"""compose.yaml's start order and healthchecks: the schema is migrated once, before
anything that reads it starts, and web and worker say when they are healthy."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
APP = ("web", "worker", "simulator", "beat")


def services() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]


def test_migrate_runs_once_after_the_database_is_healthy() -> None:
    migrate = services()["migrate"]
    assert migrate["command"] == "python manage.py migrate --noinput"
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_web_worker_and_beat_wait_for_the_migration_and_do_not_migrate() -> None:
    found = services()
    for name in APP:
        needs = found[name]["depends_on"]
        assert needs["migrate"]["condition"] == "service_completed_successfully", name
        assert needs["postgres"]["condition"] == "service_healthy", name
        assert needs["redis"]["condition"] == "service_healthy", name
        assert "migrate" not in str(found[name]["command"]), name


def test_web_and_workers_have_healthchecks() -> None:
    found = services()
    assert "/healthz" in " ".join(found["web"]["healthcheck"]["test"])
    for name in ("worker", "simulator"):
        assert "inspect ping" in " ".join(found[name]["healthcheck"]["test"]), name


def consumed(name: str) -> list[str]:
    """The queues a compose service's Celery worker consumes (`-Q`), in order."""
    command = services()[name]["command"].split()
    assert command[:4] == ["celery", "-A", "config", "worker"], command
    return command[command.index("-Q") + 1].split(",")


def test_the_bots_have_a_worker_no_simulation_chunk_can_fill() -> None:
    """Simulation chunks and the Events' bot seats shared the one default queue: a worker
    whose processes each played a chunk for minutes left every bot seat of a league night
    waiting. The bots' worker takes the default queue alone; the simulator takes the
    chunks, and the default queue's tasks when a process of it is free."""
    from django.conf import settings

    assert consumed("worker") == ["celery"]
    assert set(consumed("simulator")) == {settings.SIMULATION_QUEUE, "celery"}
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert routed <= set(consumed("worker")) | set(consumed("simulator"))


def _dockerignore_regex(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern as Docker matches it: from the context's root, `*` and `?`
    within one path part, `**` across any number of them; a folder keeps out what it holds."""
    out = ""
    for token in re.split(r"(\*\*/?|\*|\?)", pattern.strip("/")):
        if token.startswith("**"):
            out += "(?:.*/)?" if token.endswith("/") else ".*"
        elif token == "*":
            out += "[^/]*"
        elif token == "?":
            out += "[^/]"
        else:
            out += re.escape(token)
    return re.compile(out + "(?:/.*)?")


def _kept_out(path: str) -> bool:
    """Whether .dockerignore keeps `path` (relative to the build context) out of the image;
    the last pattern that matches decides (`!` lets a path back in)."""
    kept_out = False
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") \
                and _dockerignore_regex(line.lstrip("!")).fullmatch(path):
            kept_out = not line.startswith("!")
    return kept_out


@pytest.mark.parametrize("path", [
    ".env", ".env.production", "db.sqlite3", "demo.sqlite3", ".venv/bin/python", ".git/config",
    "league/__pycache__/views.cpython-311.pyc",
])
def test_secrets_and_local_files_stay_out_of_the_image(path: str) -> None:
    """The Dockerfile copies the whole build context, and compose reads the secret key and
    the database password from a .env file beside it: the image must not carry them."""
    assert _kept_out(path), path


@pytest.mark.parametrize("path", ["manage.py", "config/settings.py", "engine/registry.py",
                                  "static/js/league.js", "benchmarks/reports/supershow.json"])
def test_what_the_site_runs_goes_into_the_image(path: str) -> None:
    assert not _kept_out(path), path


def test_the_image_runs_with_debug_off_unless_told_otherwise() -> None:
    """`docker run` of the image without compose's environment: debug on would serve
    tracebacks and sign sessions with the development key, known to all."""
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    env = dict(re.findall(r"(\w+)=(\S+)", " ".join(line for line in lines
                                                   if line.startswith("ENV "))))
    assert env.get("DJANGO_DEBUG") == "false"


def test_web_serves_a_long_download_to_its_end() -> None:
    """gunicorn's sync workers (its default) kill a request that runs past --timeout (30 s):
    a simulation's logs download (tens of MB) to a slow client stopped part way, its
    worker SIGKILLed. A threaded worker (gthread, --threads above 1) keeps telling the
    master it lives while a thread streams, in compose and in the image's own command."""
    command = services()["web"]["command"].split()
    assert int(command[command.index("--threads") + 1]) > 1, command
    cmd = next(line for line in (ROOT / "Dockerfile").read_text().splitlines()
               if line.startswith("CMD "))
    assert '"--threads"' in cmd, cmd


def test_balance_reports_are_written_outside_the_read_only_code_in_a_container() -> None:
    """The image's code (/app) is read-only for the process: `manage.py balance_report`
    needed `--out /tmp/...` there. Compose and the image name a folder under /tmp."""
    for name in APP:
        given = services()[name]["environment"]["BALANCE_REPORT_DIR"]
        assert re.fullmatch(r"\$\{BALANCE_REPORT_DIR:-/tmp/[^}]+\}", given), (name, given)
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"BALANCE_REPORT_DIR=/tmp/\S+", dockerfile)


def test_gunicorn_is_required_at_a_version_with_the_control_socket_the_image_houses() -> None:
    """The image gives its user a home for gunicorn's control socket, which gunicorn has
    from 25.1: `gunicorn>=22` let in versions the image and compose were never run on."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (gunicorn,) = [Requirement(line) for line in project["dependencies"]
                   if Requirement(line).name == "gunicorn"]
    assert Version("25.0.9") not in gunicorn.specifier
    assert Version("25.1.0") in gunicorn.specifier
    assert "control socket" in (ROOT / "Dockerfile").read_text()
