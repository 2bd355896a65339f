"""Two deliveries of one simulation chunk's task at once, on real connections.

A worker process each: the threads claim through PostgreSQL's row locks, which SQLite
has not, so the module runs only there (DATABASE_URL naming PostgreSQL).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from league import simulation
from league.models import SimulationJob

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                       reason="row locks between connections need PostgreSQL"),
]


def race(calls: list[Callable[[], Any]]) -> tuple[list[Any], list[str]]:
    """The calls in threads let go at one barrier, a connection each: what each returned
    and what they raised."""
    start = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)
    errors: list[str] = []

    def run(i: int) -> None:
        try:
            start.wait()
            answers[i] = calls[i]()
        except Exception as exc:
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return answers, errors


def test_a_chunk_delivered_twice_at_once_is_played_by_one_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    queued: list[tuple[int, int]] = []  # the broker's messages, delivered by the test
    monkeypatch.setattr(simulation, "_enqueue_chunk",
                        lambda job_id, index: queued.append((job_id, index)))
    job = simulation.create_job(game="super_showdown", bots=["random", "random"],
                                matches=2, chunk=2, seed=9)
    assert queued == [(job.pk, 0)]
    real_play, played = simulation.play_one, []

    def slow_play(*args: Any) -> Any:  # a match that takes a while, as real ones do
        played.append(1)
        time.sleep(0.05)
        return real_play(*args)

    monkeypatch.setattr(simulation, "play_one", slow_play)
    answers, errors = race([lambda: simulation.run_chunk(job.pk, 0)] * 2)
    assert errors == []
    assert sorted(answers) == [False, True]
    assert len(played) == 2  # the chunk's two matches, once
    job.refresh_from_db()
    assert (job.status, job.done_matches, job.totals["matches"]) == (
        SimulationJob.Status.DONE, 2, 2)
    assert job.chunks.get().attempts == 1
