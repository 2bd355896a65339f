"""Every test here can use the toy game."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from matches.models import Match


@pytest.fixture(autouse=True)
def _toy(toy_game: Any) -> Any:
    return toy_game


@pytest.fixture
def left_waiting() -> Callable[..., None]:
    """Set the matches' last move back past the bot sweep's interval: the sweep leaves a
    seat whose match moved within it (a task was queued on that move's commit)."""
    def back(*matches: Match) -> None:
        gone = timezone.now() - timedelta(seconds=settings.BOT_SWEEP_SECONDS + 1)
        Match.objects.filter(pk__in=[m.pk for m in matches]).update(updated_at=gone)
    return back
