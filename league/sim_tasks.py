"""Celery tasks of simulation jobs: thin wrappers around `league.simulation`.

`run_chunk` is acks-late and idempotent per chunk (a rerun of a done chunk, or of one
another worker is playing, does nothing; one whose worker fell silent is taken over), so a
redelivery is safe; `sweep_simulations` (beat) re-queues chunks
whose worker was lost.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from league import simulation


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             retry_backoff_max=60, retry_jitter=True, max_retries=8)
def run_chunk(job_id: int, index: int) -> bool:
    """Play one chunk of a simulation job and write its result once."""
    return simulation.run_chunk(job_id, index)


@shared_task(acks_late=True)
def sweep_simulations() -> int:
    """Re-queue the chunks of live simulation jobs that a lost worker left unfinished."""
    return simulation.sweep()
