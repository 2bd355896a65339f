"""The league listens to matches (matches never imports league)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from config.queue import enqueue
from matches.models import Match
from matches.signals import match_finished


@receiver(match_finished, dispatch_uid="league.match_finished")
def on_match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    """A finished match's result goes to its Event and the ratings, on a worker."""
    from league.tasks import record_result

    enqueue(record_result, match.pk)
