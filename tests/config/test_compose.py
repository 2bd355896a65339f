"""compose.yaml's start order and healthchecks: the schema is migrated once, before
anything that reads it starts, and web and worker say when they are healthy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
APP = ("web", "worker", "beat")


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


def test_web_and_worker_have_healthchecks() -> None:
    found = services()
    assert "/healthz" in " ".join(found["web"]["healthcheck"]["test"])
    assert "inspect ping" in " ".join(found["worker"]["healthcheck"]["test"])


def test_every_setting_the_app_reads_reaches_its_containers() -> None:
    """Compose passes its own list to the containers: DJANGO_SSL_REDIRECT and
    DJANGO_HSTS_SECONDS (the README's HTTPS step) and the tunables were left out."""
    import re

    read = set(re.findall(r'env_(?:str|int|bool|list)\("([A-Z_]+)"',
                          (ROOT / "config" / "settings.py").read_text()))
    passed = set(services()["web"]["environment"])
    assert read and read <= passed, sorted(read - passed)
