"""Celery tasks of simulation jobs: thin wrappers around `league.simulation`.

`run_chunk` is acks-late and idempotent per chunk (a rerun of a done chunk, or of one
another worker is playing, does nothing; one whose worker fell silent is taken over), so a
redelivery is safe; `sweep_simulations` (beat) re-queues chunks
whose worker was lost.
"""

from __future__ import annotations

from celery import Task, shared_task
from celery.utils.time import get_exponential_backoff_interval
from django.db import OperationalError

from league import simulation

RETRIES = 8


@shared_task(bind=True, acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             retry_backoff_max=60, retry_jitter=True, max_retries=RETRIES)
def run_chunk(self: Task, job_id: int, index: int, claim: int | None = None) -> bool:
    """Play one chunk of a simulation job and write its result once; after a database
    error the retry names the claim it held, so it takes the chunk back."""
    try:
        return simulation.run_chunk(job_id, index, claim)
    except simulation.ClaimInterrupted as exc:
        raise self.retry(exc=exc, kwargs={"claim": exc.claim}, max_retries=RETRIES,
                         countdown=get_exponential_backoff_interval(
                             1, self.request.retries, 60, full_jitter=True)) from exc


@shared_task(acks_late=True)
def sweep_simulations() -> int:
    """Re-queue the chunks of live simulation jobs that a lost worker left unfinished."""
    return simulation.sweep()
