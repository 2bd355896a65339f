"""Two turn-deadline sweeps at once (beat's run overlapping the last, a sweep task
delivered twice), each on a connection of its own (PostgreSQL: `on_postgres`)."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from league import events
from league.models import EventMatch
from matches.models import Match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("on_postgres")]


@pytest.mark.parametrize("policy", ["bot", "forfeit"])
def test_two_sweeps_that_both_found_a_seat_late_apply_the_policy_once_and_log_no_failure(
        race: Any, organizer: Any, player: Any, player2: Any, monkeypatch: Any,
        caplog: pytest.LogCaptureFixture, policy: str) -> None:
    """The second sweep to reach the seat was refused (the bot plays it already) and logged
    that refusal as a failure to apply the deadline."""
    event = events.create_event(name="Night", game="super_showdown", format="round_robin",
                                by=organizer, turn_deadline_minutes=5, deadline_policy=policy)
    for person in (player, player2):
        events.add_entrant(event=event, by=organizer, player=person.username)
    events.start_event(event=event, by=organizer)
    match = EventMatch.objects.get(event=event).match
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=30))
    read, both_read = events._late_people, threading.Barrier(2, timeout=30)

    def late_as_both_read(match: Match) -> list[int]:
        late = read(match)
        both_read.wait()
        return late

    monkeypatch.setattr(events, "_late_people", late_as_both_read)
    with caplog.at_level(logging.ERROR, logger="league.events"):
        answers, errors = race([events.enforce_deadlines, events.enforce_deadlines])
    assert errors == []
    assert sorted(answers) == [0, 1]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    kinds = Counter(event.records.values_list("kind", flat=True))
    assert kinds["forfeited"] + kinds["seat_to_bot"] == 1
