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


def test_two_sweeps_forfeiting_every_late_seat_together_record_one_forfeit_and_one_result(
        race: Any, organizer: Any, player: Any, player2: Any, monkeypatch: Any,
        caplog: pytest.LogCaptureFixture) -> None:
    """Both players are late at the opening decision, which Superstar Showdown's seats
    make at once, so each sweep forfeits them
    together: of two sweeps that read them late at the same instant, one forfeits the pair
    and ends the match, and the other, refused, records nothing a second time."""
    event = events.create_event(name="Night", game="superstar_showdown", format="round_robin",
                                by=organizer, turn_deadline_minutes=5,
                                deadline_policy="forfeit")
    for person in (player, player2):
        events.add_entrant(event=event, by=organizer, player=person.username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    Match.objects.filter(pk=link.match_id).update(
        updated_at=timezone.now() - timedelta(minutes=30))
    read, both_read = events._late_people, threading.Barrier(2, timeout=30)
    late: list[list[int]] = []

    def late_as_both_read(match: Match) -> list[int]:
        late.append(read(match))
        both_read.wait()
        return late[-1]

    monkeypatch.setattr(events, "_late_people", late_as_both_read)
    with caplog.at_level(logging.ERROR, logger="league.events"):
        answers, errors = race([events.enforce_deadlines, events.enforce_deadlines])
    assert errors == []
    assert late == [[0, 1], [0, 1]]  # both sweeps found both seats late
    assert sorted(answers) == [0, 2]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    forfeits = list(event.records.filter(kind="forfeited").values_list("payload", flat=True))
    assert len(forfeits) == 1 and sorted(forfeits[0]["entrants"]) == sorted(link.entrants)
    kinds = Counter(event.records.values_list("kind", flat=True))
    assert (kinds["result_recorded"], kinds["seat_to_bot"]) == (1, 0)
    match = Match.objects.get(pk=link.match_id)
    assert match.status == Match.Status.FINISHED
    assert sorted(match.result["forfeited"]) == [0, 1] and match.result["winners"] == []
