"""A create resent while the first is still being made (a phone that timed out): one
Event, season, team or simulation job, every answer naming it."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league import simulation
from league.models import Event, EventRecord, Season, SimulationJob, Team

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 6


def create(staff: Any, path: str, body: dict[str, Any]) -> tuple[int, int]:
    client = APIClient()
    client.force_authenticate(staff)
    response = client.post(path, body, format="json")
    return response.status_code, response.json().get("id", 0)


@pytest.mark.parametrize(("path", "body"), [
    ("/api/events/", {"name": "Night", "game": "super_showdown", "format": "round_robin"}),
    ("/api/events/showdown/", {"preset": "full_card",
                               "sides": [{"bot": "random"}, {"bot": "random"}]}),
])
def test_a_create_sent_several_times_at_once_with_its_key_makes_one_event(
        race: Any, path: str, body: dict[str, Any]) -> None:
    staff = get_user_model().objects.create_user(username=f"org-{uuid.uuid4().hex[:6]}",
                                                 is_staff=True)
    sent = {**body, "idempotency_key": "league-night"}
    answers, errors = race([lambda: create(staff, path, sent)] * THREADS)
    assert errors == []
    (event,) = Event.objects.filter(created_by=staff)
    assert Counter(answers) == {(201, event.pk): THREADS}
    kinds = Counter(EventRecord.objects.filter(event=event).values_list("kind", flat=True))
    assert kinds["started"] == (1 if "sides" in body else 0)
    assert kinds["entrant_added"] == len(body.get("sides", []))


def make_staff() -> Any:
    return get_user_model().objects.create_user(username=f"org-{uuid.uuid4().hex[:6]}",
                                                is_staff=True)


def test_a_season_create_sent_several_times_at_once_with_its_key_makes_one_season(
        race: Any) -> None:
    staff = make_staff()
    sent = {"name": "Spring", "game": "super_showdown", "idempotency_key": "spring"}
    answers, errors = race([lambda: create(staff, "/api/seasons/", sent)] * THREADS)
    assert errors == []
    (season,) = Season.objects.filter(created_by=staff)
    assert Counter(answers) == {(201, season.pk): THREADS}
    assert list(season.organizers.all()) == [staff]


def test_a_team_create_sent_several_times_at_once_with_its_key_makes_one_team(
        race: Any) -> None:
    staff = make_staff()
    name = f"Reds {uuid.uuid4().hex[:6]}"
    sent = {"name": name, "members": [staff.username], "idempotency_key": "reds"}
    answers, errors = race([lambda: create(staff, "/api/teams/", sent)] * THREADS)
    assert errors == []
    (team,) = Team.objects.filter(name=name)
    assert Counter(answers) == {(201, team.pk): THREADS}
    assert team.members.count() == 1


def test_a_simulation_sent_several_times_at_once_with_its_key_runs_once(
        race: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    staff = make_staff()
    queued: list[tuple[Any, ...]] = []
    real = simulation.enqueue

    def counted(task: Any, *args: Any) -> None:
        queued.append(args)
        real(task, *args)

    monkeypatch.setattr(simulation, "enqueue", counted)
    sent = {"game": "super_showdown", "bots": ["random", "random"], "matches": 40,
            "chunk": 10, "seed": 5, "idempotency_key": "tuesday-run"}
    answers, errors = race([lambda: create(staff, "/api/simulations/", sent)] * THREADS)
    assert errors == []
    (job,) = SimulationJob.objects.filter(created_by=staff)
    assert Counter(answers) == {(201, job.pk): THREADS}
    assert sorted(queued) == [(job.pk, index) for index in range(4)]
    deadline = time.monotonic() + 60
    while not job.finished and time.monotonic() < deadline:
        time.sleep(0.2)
        job.refresh_from_db()
    assert (job.status, job.done_matches) == (SimulationJob.Status.DONE, 40)
    assert list(job.chunks.values_list("attempts", flat=True)) == [1] * 4
