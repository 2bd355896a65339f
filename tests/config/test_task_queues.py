"""Celery's queues: simulation chunks go to a queue of their own, so a chunk that plays
for minutes never stands in front of the Events' bot seats on the default queue."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings

from config.celery import app
from config.queue import enqueue
from league import tasks as league_tasks
from league.sim_tasks import run_chunk, sweep_simulations
from matches.tasks import play_bot_seat, sweep_bot_seats

DEFAULT = "celery"


def fresh_pools() -> None:
    """Let the app take its connections to the broker it names now (as Celery does after a
    fork): it keeps those it took first (kombu's pools, one per broker, left open)."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def broker(settings: Any) -> Iterator[None]:
    """Celery with a broker (no eager tasks) held in this process's memory."""
    kept = app.conf.broker_url, app.conf.task_always_eager
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.broker_url, app.conf.task_always_eager = "memory://", False
    fresh_pools()
    try:
        yield
    finally:
        with app.connection_for_read() as conn:
            for name in (DEFAULT, django_settings.SIMULATION_QUEUE):
                conn.default_channel.queue_purge(name)
        fresh_pools()
        app.conf.broker_url, app.conf.task_always_eager = kept


def queued(name: str) -> list[str]:
    """The task names waiting in queue `name`, taken off it."""
    found = []
    with app.connection_for_read() as conn:
        queue = conn.SimpleQueue(name, no_ack=True)
        while True:
            try:
                message = queue.get(block=False)
            except queue.Empty:
                return found
            found.append(message.headers["task"])


def test_the_queues_are_the_default_and_the_simulations() -> None:
    assert app.conf.task_default_queue == DEFAULT
    assert django_settings.SIMULATION_QUEUE == "simulations"


def test_a_worker_started_without_naming_queues_consumes_both() -> None:
    """Celery's worker consumes the queues it is told of: without them, one started as
    before (`celery -A config worker`, the benchmarks' and other machines') consumed the
    default queue alone, and a job's chunks waited for ever."""
    assert set(app.amqp.queues.consume_from) == {DEFAULT, django_settings.SIMULATION_QUEUE}


def test_a_simulation_chunk_goes_to_the_simulations_queue_and_a_bot_seat_to_the_default(
        broker: None) -> None:
    enqueue(run_chunk, 1, 0)
    enqueue(play_bot_seat, 1, 0, 5)
    assert queued(django_settings.SIMULATION_QUEUE) == ["league.sim_tasks.run_chunk"]
    assert queued(DEFAULT) == ["matches.tasks.play_bot_seat"]


@pytest.mark.parametrize("task", [sweep_simulations, sweep_bot_seats,
                                  league_tasks.record_result, league_tasks.enforce_deadlines,
                                  league_tasks.mail_awaited_players])
def test_the_sweeps_results_and_mails_stay_on_the_default_queue(broker: None, task: Any) -> None:
    """The chunks' sweep too: it only queues chunks, and must run while chunks fill the
    simulations' workers."""
    task.apply_async(args=[1] if task is league_tasks.record_result else [])
    assert queued(DEFAULT) == [task.name]
    assert queued(django_settings.SIMULATION_QUEUE) == []
