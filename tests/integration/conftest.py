"""Integration tests run against the real PostgreSQL and Redis with a real Celery worker.

`.ci/run` creates the database, migrates it, starts the worker against the same
DATABASE_URL and CELERY_BROKER_URL, then runs `pytest -m integration tests/integration`.
The tests use that database as it is (no test database), so the worker sees every commit.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from django.conf import settings


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/integration" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def django_db_setup() -> None:
    """Use the database .ci/run prepared; refuse to run on the embedded SQLite."""
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        pytest.fail("integration tests need DATABASE_URL pointing at PostgreSQL")
    if not os.environ.get("CELERY_BROKER_URL") or settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.fail("integration tests need CELERY_BROKER_URL and a running worker")


@pytest.fixture(autouse=True)
def _worker_idle_before_flush(transactional_db: None) -> Iterator[None]:
    """Let the worker finish what a test queued before the database is flushed."""
    yield
    from config.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        inspect = app.control.inspect(timeout=1.0)
        busy = [*(inspect.active() or {}).values(), *(inspect.reserved() or {}).values()]
        with app.connection_for_read() as conn:
            client = conn.default_channel.client
            queued = sum(client.llen(name) for name in (app.conf.task_default_queue,
                                                         settings.SIMULATION_QUEUE))
        if not any(busy) and not queued:
            return
        time.sleep(0.5)
