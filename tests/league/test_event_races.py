"""An Event's result coming in as its organizers act on it, and its last places taken at
once, each on a connection of its own (PostgreSQL: `on_postgres`): each happens once or
is refused with a code, and the Event's stream replays to what was answered."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league import events, receivers
from league.models import EventMatch
from league.tasks import record_result
from matches import services as match_services
from tests.conftest import stream_is_whole

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("on_postgres")]

TRIALS = 3


def post(who: Any, path: str, body: dict[str, Any] | None = None) -> tuple[int, str]:
    client = APIClient()
    client.force_authenticate(who)
    response = client.post(path, body or {}, format="json")
    return response.status_code, response.json().get("code", "")


def recorded(match_id: int) -> Any:
    """The worker's result task, run here; what it raised is raised."""
    return record_result.apply(args=(match_id,)).get()


@pytest.mark.parametrize("fmt", ["round_robin", "single_elimination"])
def test_withdrawals_while_a_finished_matchs_result_is_recorded_record_it_once(
        race: Any, organizer: Any, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """The worker records the result of a match just ended while the organizer withdraws
    both its entrants: the result is written once or the withdrawal decides the pairing,
    never both, and the Event's stream stays whole."""
    held: list[int] = []  # the result task, held back until the race
    monkeypatch.setattr(receivers, "enqueue", lambda task, *args: held.append(args[0]))
    for trial in range(TRIALS):
        cup = events.create_event(name="Night", game="super_showdown", format=fmt,
                                  by=organizer)
        for name in "abcd":
            person = get_user_model().objects.create_user(username=f"{name}-{fmt}-{trial}")
            events.add_entrant(event=cup, by=organizer, player=person.username)
        events.start_event(event=cup, by=organizer)
        link = EventMatch.objects.filter(event=cup).order_by("pk").first()
        assert link is not None
        held.clear()
        match_services.forfeit_seat(match=link.match, seat=1)
        assert held == [link.match_id]
        path = f"/api/events/{cup.pk}/entrants"
        answers, errors = race([
            partial(recorded, link.match_id),
            *(partial(post, organizer, f"{path}/{key}/withdraw/") for key in link.entrants)])
        assert errors == []
        assert set(answers[1:]) <= {(200, ""), (409, "event_finished")}, answers
        records = stream_is_whole(cup)
        results = Counter(r.payload["pairing"] for r in records if r.kind == "result_recorded")
        assert results[link.pairing] <= 1 and set(results.values()) <= {1}, results


def test_three_sides_entered_at_once_for_a_showdown_events_two_take_two(
        race: Any, organizer: Any) -> None:
    for trial in range(TRIALS):
        cup = events.create_showdown_event(by=organizer, preset="full_card")
        people = [get_user_model().objects.create_user(username=f"side-{trial}-{i}")
                  for i in range(3)]
        answers, errors = race([
            partial(post, organizer, f"/api/events/{cup.pk}/entrants/",
                    {"player": person.username}) for person in people])
        assert errors == []
        assert sorted(answers) == [(201, ""), (201, ""), (409, "too_many_entrants")], answers
        records = stream_is_whole(cup)
        assert [r.kind for r in records].count("entrant_added") == 2
