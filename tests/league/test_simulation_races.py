"""Two deliveries of one simulation chunk's task at once, each on a connection of its own
(PostgreSQL: `on_postgres`)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from league import simulation
from league.models import SimulationJob

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("on_postgres")]


def test_a_chunk_delivered_twice_at_once_is_played_by_one_worker(
        race: Any, monkeypatch: pytest.MonkeyPatch) -> None:
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


def test_a_failing_chunk_waits_for_its_job_before_it_locks_the_chunk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Recording a chunk's result locks its job, then the chunk; a failure took them the
    other way round, so a chunk's failure and another claim's result could each hold the
    row the other waited on (a deadlock). With the job held elsewhere, a failure now waits
    holding nothing: the chunk's row stays free."""
    import threading

    from django.db import DatabaseError, connection, transaction

    from league.models import SimulationChunk

    monkeypatch.setattr(simulation, "_enqueue_chunk", lambda job_id, index: None)
    job = simulation.create_job(game="super_showdown", bots=["random", "random"],
                                matches=2, chunk=2, seed=9)
    chunk = job.chunks.get()
    held, release = threading.Event(), threading.Event()

    def hold_the_job() -> None:
        try:
            with transaction.atomic():
                SimulationJob.objects.select_for_update().get(pk=job.pk)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    def fail_the_chunk() -> None:
        try:
            held.wait(10)
            simulation._fail(job.pk, chunk.index, chunk.attempts, "the worker broke")
        finally:
            connection.close()

    threads = [threading.Thread(target=hold_the_job), threading.Thread(target=fail_the_chunk)]
    for thread in threads:
        thread.start()
    try:
        assert held.wait(10)
        time.sleep(0.5)  # the failure is under way, waiting for the job
        with transaction.atomic():
            try:
                SimulationChunk.objects.select_for_update(nowait=True).get(pk=chunk.pk)
                free = True
            except DatabaseError:
                free = False
    finally:
        release.set()
        for thread in threads:
            thread.join(30)
    assert free, "the failing chunk's row was locked while its job was waited for"
    chunk.refresh_from_db()
    job.refresh_from_db()
    assert (chunk.status, job.status) == ("failed", SimulationJob.Status.FAILED)
