"""Every test here can use the toy game."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from engine import registry
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


class Thoughts(list[int]):
    """The seats the `counting` bot was asked for, one entry a decision thought; it thinks
    `seconds` each time (long enough for a second task to arrive while it does)."""

    seconds = 0.0


@pytest.fixture
def counting_bot(_toy: Any, monkeypatch: pytest.MonkeyPatch) -> Thoughts:
    """A toy-game bot called `counting` that plays its first legal card and writes down
    each decision it is asked to think."""
    thoughts = Thoughts()

    class CountingBot:
        name = "counting"

        def choose(self, rules: Any, state: Any, seat: int, rng: Any) -> Any:
            thoughts.append(seat)
            time.sleep(thoughts.seconds)
            return rules.legal_actions(state, seat)[0]

    monkeypatch.setitem(registry._BOTS[_toy.TOY_KEY], "counting", CountingBot)
    return thoughts
