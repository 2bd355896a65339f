"""A 2,000-match simulation job runs through the real worker, its progress visible as it goes.

Super Showdown between two random bots, the fastest pair measured (about 550 matches a
second per core on the 2-core development machine, 8 times the heuristic's pace): the
job's 80 chunks take a few seconds on two idle worker processes and stay well inside the
deadline on a loaded machine; polling every 0.1 s still sees it move.
"""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league.models import SimulationJob

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

MATCHES = 2000
DEADLINE_SECONDS = 150


def test_a_2000_match_simulation_runs_on_the_worker_with_visible_progress() -> None:
    organizer = get_user_model().objects.create_user(username="sim-organizer", is_staff=True)
    api = APIClient()
    api.force_authenticate(organizer)
    browser = Client()
    browser.force_login(organizer)
    response = api.post("/api/simulations/", {
        "game": "super_showdown", "bots": ["random", "random"], "matches": MATCHES,
        "chunk": 25, "seed": 2026}, format="json")
    assert response.status_code == 201, response.content
    job_id = response.json()["id"]

    seen: list[int] = []
    fragments: list[str] = []
    deadline = time.monotonic() + DEADLINE_SECONDS
    while True:
        progress = api.get(f"/api/simulations/{job_id}/progress/").json()
        seen.append(progress["matches"])
        if progress["finished"]:
            break
        if progress["matches"] > 0 and len(fragments) < 3:
            page = browser.get(reverse("league:simulation_progress", args=[job_id]),
                               HTTP_HX_REQUEST="true")
            fragments.append(page.content.decode())
        if time.monotonic() > deadline:
            pytest.fail(f"the job stalled at {progress}")
        time.sleep(0.1)

    assert progress["status"] == "done", progress
    assert seen == sorted(seen), "progress went back"
    assert len({n for n in seen if 0 < n < MATCHES}) >= 3, f"no progress seen: {seen}"
    assert fragments and all(f"of {MATCHES} matches" in f for f in fragments)
    assert all('hx-trigger="every 1s"' in f for f in fragments)  # still polling mid-run

    job = SimulationJob.objects.get(pk=job_id)
    summary = job.summary
    assert (job.done_matches, job.done_chunks, summary["matches"]) == (MATCHES, 80, MATCHES)
    assert [row["games"] for row in summary["by_seat"]] == [MATCHES, MATCHES]
    assert sum(count for _, count in summary["length"]["histogram"]) == MATCHES
    assert set(job.chunks.values_list("status", flat=True)) == {"done"}
    assert sum(row["points"] for row in summary["by_seat"]) == pytest.approx(MATCHES, abs=0.01)
    assert summary["first_player"]["fair"] == 0.5
