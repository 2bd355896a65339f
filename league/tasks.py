"""Celery tasks of the league: thin wrappers around its services."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.core.cache import cache
from django.db import OperationalError

from league import dashboard_tasks, event_mail, events, projections, services, turn_mail
from league.sim_tasks import run_chunk, sweep_simulations  # noqa: F401 (registered)
from matches.models import Match


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             retry_backoff_max=60, retry_jitter=True, max_retries=8)
def record_result(match_id: int) -> bool:
    """Record a finished match in its Event (advancing the bracket) and rate it."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.FINISHED:
        return False
    # The match's own projections first, its Event's result last: once the Event shows as
    # finished its page stops following it, and once the result is recorded the sweep of
    # missed results (which writes these too) passes the match by, so a failure here
    # leaves the result for the retry or the sweep instead of the ratings for nobody.
    projections.refresh_finished(match)
    return events.record_match_result(match=match)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             retry_backoff_max=60, retry_jitter=True, max_retries=8)
def record_round_scores(match_id: int) -> int:
    """Project the scored rounds of a match (idempotent: the rows are recomputed)."""
    from league.receivers import round_scores_due

    cache.delete(round_scores_due(match_id))  # appends from now on queue a fresh refresh
    match = Match.objects.filter(pk=match_id).first()
    return 0 if match is None else projections.refresh_round_scores(match)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             retry_backoff_max=60, retry_jitter=True, max_retries=8)
def record_ranking_points(match_id: int) -> int:
    """Project a Superstar Showdown Event's Ranking Points (idempotent: recomputed whole)."""
    from league.receivers import ranking_points_due

    cache.delete(ranking_points_due(match_id))  # appends from now on queue a fresh refresh
    match = Match.objects.filter(pk=match_id).first()
    return 0 if match is None else projections.refresh_ranking_points(match)


@shared_task(acks_late=True)
def enforce_deadlines() -> int:
    """Apply each running Event's turn-deadline policy to seats that waited too long."""
    return events.enforce_deadlines()


@shared_task(acks_late=True)
def sweep_results() -> int:
    """Record any finished Event match whose result was missed (a lost task), and rate
    any finished match whose rating was."""
    return events.sweep_results() + projections.sweep_unrated()


@shared_task(acks_late=True)
def mail_password_reset(owed_id: int) -> int:
    """Mail the password reset links owed (league.services.send_password_reset)."""
    return services.mail_password_reset(owed_id)


@shared_task(acks_late=True)
def mail_password_resets() -> int:
    """Mail the password reset links still owed (their task lost, or refused)."""
    return services.mail_password_resets()


@shared_task(acks_late=True)
def mail_reset_link(email: str, domain: str, use_https: bool) -> None:
    """A reset asked before reset mails were owed in the database, its address carried
    by the task: owed now, and mailed."""
    services.owe_password_reset(email, f"{'https' if use_https else 'http'}://{domain}")


@shared_task(acks_late=True)
def mail_awaited_players() -> int:
    """Mail the players who asked for it the matches that wait for their move."""
    return turn_mail.mail_awaited_players()


@shared_task(acks_late=True)
def mail_event_reminders() -> int:
    """Remind the entrants who asked for it that their Event starts soon."""
    return event_mail.mail_event_reminders()


@shared_task(acks_late=True)
def mail_event_moved(event_id: int, now_at: str | None) -> int:
    """Tell the players reminded of an Event's start that it moved where no reminder tells
    of it: beyond the reminders' window, to a time gone by, or to no time said."""
    return event_mail.mail_event_moved(event_id, now_at)


@shared_task(acks_late=True)
def mail_email_confirmation(user_id: int, *_queued_before: Any) -> bool:
    """Mail the link owed to an account that confirms its new address
    (league.services.set_email). A task queued before links were owed on the player's row
    carried the link and its site too: it is taken, and mails what the row owes (nothing;
    the player gives the address again), rather than failing on its arguments."""
    return services.mail_email_confirmation(user_id)


@shared_task(acks_late=True)
def mail_email_confirmations() -> int:
    """Mail the links confirming a new address still owed (their task lost, or refused)."""
    return services.mail_email_confirmations()


# The dashboard's re-run scoring job lives beside its progress notes; named here so that
# a worker's autodiscovery of `league.tasks` registers it too.
rescore = dashboard_tasks.rescore
