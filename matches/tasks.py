"""Celery tasks: thin wrappers around the match service.

`play_bot_seat` is idempotent: it carries the seq it was enqueued at, and a task that finds
the stream moved on does nothing, unless the broker delivers it again after its worker died
or it is retried after a database error (then it plays on from where the stream stands, the
moves its first run made included; an append is checked against the seq it read, so two
runs never both move). Each decision is claimed before its bot thinks, so a second task
for it (a copy queued twice, a redelivery, a task another seat's move queued while the
bot thinks a decision the seats make at once) does nothing while the first run thinks: a
search bot thinks a decision once. Tasks are acknowledged late and retried with backoff
on a database error, the retry taking back its run's claims; the beat sweep re-enqueues
any bot seat that was left waiting (one whose match has not moved for a sweep's interval:
a task was queued on each move's commit) and that no run holds: a run beats on its claim
while its bot thinks, and a claim without a beat for BOT_CLAIM_SECONDS is a dead
worker's. A task delivered again after its worker died waits that out and takes the
decision over; it cannot tell its dead run's claim from a live one's (Redis marks every
message it restores as delivered again, a live run's too), so it takes over only a claim
whose beats stopped.
"""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from celery.utils.time import get_exponential_backoff_interval
from django.conf import settings
from django.db import OperationalError

from config.queue import enqueue
from matches import services
from matches.models import Match

RETRIES = 5


@shared_task(bind=True, acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             retry_backoff_max=60, retry_jitter=True, max_retries=RETRIES)
def play_bot_seat(self: Task, match_id: int, seat: int, expected_seq: int,
                  claim: int | None = None) -> bool:
    """Play a bot seat's pending decision (and the bot decisions right after it); after a
    database error the retry names the claim its run held, so it takes it back."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return False
    try:
        return services.play_bot_turns(
            match=match, seat=seat, expected_seq=expected_seq, claim=claim,
            resume=redelivered(self.request) or retried(self.request),
            outwait=redelivered(self.request))
    except services.BotClaimInterrupted as exc:
        raise self.retry(exc=exc, kwargs={"claim": exc.claim}, max_retries=RETRIES,
                         countdown=get_exponential_backoff_interval(
                             1, self.request.retries, 60, full_jitter=True)) from exc


def redelivered(request: Any) -> bool:
    """Whether the broker delivers this task again (its worker died before it ended): the
    bots it was playing stopped somewhere after the seq it carries."""
    return bool((getattr(request, "delivery_info", None) or {}).get("redelivered"))


def retried(request: Any) -> bool:
    """Whether this is a retry after a database error: its first run may have moved some
    bots before the error, past the seq it carries."""
    return bool(getattr(request, "retries", 0))


@shared_task(acks_late=True)
def sweep_bot_seats() -> int:
    """Re-enqueue every bot seat left waiting, a decision pending in a match that has not
    moved for BOT_SWEEP_SECONDS and that no run holds (a beat within BOT_CLAIM_SECONDS); how
    many were enqueued. A seat whose match moved within that had a task queued on the
    move's commit, and a claimed one has a task thinking it; a lost task's seat is queued
    by a later sweep. A copy queued all the same (its task waited in the queue longer)
    finds the decision claimed or played, and thinks nothing."""
    waiting = services.waiting_bot_seats(quiet_seconds=settings.BOT_SWEEP_SECONDS)
    for match_id, seat, seq in waiting:
        enqueue(play_bot_seat, match_id, seat, seq)
    return len(waiting)
