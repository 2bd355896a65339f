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
