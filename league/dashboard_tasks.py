"""The dashboard's "re-run scoring" job: rebuild every projection on a worker.

Progress lives in Django's cache under the job's id, so the polled progress partial can
read it from any process that shares the cache (the in-process LocMem cache when Celery
runs eagerly; a shared cache such as Redis when a real worker runs the task). A job not
heard of for `LOST_AFTER` (its task lost on the way, its worker gone) reads "lost", and
the next request queues a new one instead of following it. While the cache is away
(Redis down) no job is started and the progress reads failed, saying why (`CACHE_AWAY`).
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from celery import shared_task
from django.core.cache import cache

from config.cache_down import CACHE_DOWN
from config.queue import enqueue
from league import projections

log = logging.getLogger(__name__)

CACHE_AWAY = ("the cache (Redis) that keeps its progress is away, so scoring cannot be "
              "re-run or followed now: try again once it is back")

TIMEOUT = 60 * 60  # a finished job's progress is kept for an hour


def _key(job: str) -> str:
    return f"league:rescore:{job}"


LOST_AFTER = 10 * 60  # a queued or running job not heard of for this long is lost


def progress(job: str) -> dict[str, Any] | None:
    """What the job has done so far: percent, state (queued/running/done/failed/lost),
    counts."""
    try:
        note = cache.get(_key(job))
    except CACHE_DOWN as exc:
        log.warning("Re-scoring progress unread (cache away: %s)", exc)
        return {"percent": 100, "state": "failed", "error": CACHE_AWAY}
    if note is not None and note["state"] in {"queued", "running"} \
            and time.time() - note.get("at", time.time()) > LOST_AFTER:
        return {**note, "state": "lost"}
    return note


def _note(job: str, percent: int, state: str, **extra: Any) -> None:
    cache.set(_key(job), {"percent": percent, "state": state, "at": time.time(), **extra},
              TIMEOUT)


CURRENT = "league:rescore:current"  # the job queued or running, if any


def start_rescore() -> str:
    """Queue a rebuild of every projection; the id to follow its progress by. While one is
    queued or running, asking again (a second click, a second organizer) follows that one
    rather than queuing another. While the cache is away nothing is queued (its progress
    could not be kept), and the id's progress says so."""
    job = uuid.uuid4().hex
    try:
        return _claim(job)
    except CACHE_DOWN as exc:
        log.warning("Re-scoring not started (cache away: %s)", exc)
        return job


def _claim(job: str) -> str:
    """Queue `job`, or name the one queued or running that it follows (`start_rescore`)."""
    for _ in range(3):
        if cache.add(CURRENT, job, TIMEOUT):
            return _queue(job)
        current = cache.get(CURRENT)
        if current is None:
            continue  # it expired meanwhile
        # No progress yet: it was claimed a moment ago and is being queued.
        if (progress(current) or {"state": "queued"})["state"] in {"queued", "running"}:
            return str(current)
        # It is over: one caller makes its successor, the others follow that one.
        if cache.add(f"{CURRENT}:after:{current}", job, TIMEOUT):
            cache.set(CURRENT, job, TIMEOUT)
            return _queue(job)
        successor = cache.get(f"{CURRENT}:after:{current}")
        if successor:
            return str(successor)
    cache.set(CURRENT, job, TIMEOUT)
    return _queue(job)


def _queue(job: str) -> str:
    """Queue the claimed job; one that cannot be queued reads failed, not queued forever."""
    _note(job, 0, "queued")
    try:
        enqueue(rescore, job)
    except Exception as exc:
        _note(job, 100, "failed", error=f"it could not be queued: {exc or type(exc).__name__}")
        log.exception("the rescore job %s could not be queued", job)
    return job


@shared_task(acks_late=True)
def rescore(job: str) -> dict[str, int]:
    """Rebuild all projections from the streams, noting progress as it goes; nothing when
    the job was given up as lost and a later one queued in its place."""
    if cache.get(CURRENT) not in (None, job):
        _note(job, 100, "failed", error="a later re-run took its place")
        return {}
    _note(job, 1, "running")

    def step(done: int, total: int) -> None:
        _note(job, max(1, min(99, 100 * done // max(total, 1))), "running")

    try:
        counts = projections.rebuild_all(progress=step)
    except Exception as exc:
        _note(job, 100, "failed", error=str(exc) or type(exc).__name__)
        raise
    _note(job, 100, "done", counts=counts)
    return counts
