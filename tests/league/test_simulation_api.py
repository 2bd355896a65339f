"""The simulation jobs API: start, read, poll progress, cancel, resume, download logs.

Chunks are queued on commit, which these `django_db` tests never reach unless a test lets
the hooks run (`django_capture_on_commit_callbacks(execute=True)`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league import simulation
from league.models import SimulationChunk, SimulationJob

pytestmark = pytest.mark.django_db

URL = "/api/simulations/"
BODY = {"game": "super_showdown", "bots": ["random", "heuristic"], "matches": 6, "chunk": 2,
        "seed": 9}


@pytest.fixture
def sam_api(client_for: Any, django_user_model: Any) -> APIClient:
    """A season organizer who is not staff."""
    sam = django_user_model.objects.create_user(username="sam")
    sam.organized_seasons.create(name="Spring", game="super_showdown")
    return client_for(sam)


def test_staff_start_a_job_and_read_it(organizer_api: APIClient, organizer: Any) -> None:
    response = organizer_api.post(URL, {**BODY, "options": {"best_of": 3}, "balance": True},
                                  format="json")
    data = response.json()
    job = SimulationJob.objects.get()
    assert response.status_code == 201, data
    assert (data["id"], data["status"], data["planned"], data["matches"], data["chunks"]) == (
        job.pk, "queued", 6, 0, 3)
    assert (data["bots"], data["options"], data["balance"], data["logs"], data["seed"]) == (
        ["random", "heuristic"], {"best_of": 3}, True, False, 9)
    assert data["created_by"] == "organizer"
    assert data["summary"]["matches"] == 0 and data["summary"]["planned"] == 6
    assert [row["bot"] for row in data["summary"]["by_seat"]] == ["random", "heuristic"]
    assert organizer_api.get(f"{URL}{job.pk}/").json()["id"] == job.pk
    listed = organizer_api.get(URL).json()
    assert [row["id"] for row in listed["results"]] == [job.pk]
    assert "summary" not in listed["results"][0]


@pytest.mark.parametrize("chunk", [None, "absent"])
def test_a_job_without_a_chunk_takes_the_default(organizer_api: APIClient, chunk: Any) -> None:
    body = {k: v for k, v in BODY.items() if k != "chunk"}
    if chunk is None:
        body["chunk"] = None
    response = organizer_api.post(URL, {**body, "matches": 120}, format="json")
    assert response.status_code == 201, response.json()
    assert SimulationJob.objects.get().chunk_size == simulation.DEFAULT_CHUNK
    assert response.json()["chunks"] == 3


def test_progress_follows_the_chunks(organizer_api: APIClient, organizer: Any) -> None:
    job = simulation.create_job(**{**BODY, "bots": ["random", "random"]}, by=organizer)
    progress = organizer_api.get(f"{URL}{job.pk}/progress/").json()
    assert (progress["status"], progress["matches"], progress["percent"]) == ("queued", 0, 0)
    simulation.run_chunk(job.pk, 0)
    progress = organizer_api.get(f"{URL}{job.pk}/progress/").json()
    assert (progress["status"], progress["matches"], progress["planned"], progress["percent"],
            progress["chunks_done"], progress["finished"]) == ("running", 2, 6, 33, 1, False)


def test_a_finished_job_has_its_summary(organizer_api: APIClient,
                                        django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer_api.post(URL, {**BODY, "game": "superstar_showdown",
                                            "bots": ["random", "random"], "matches": 4,
                                            "balance": True}, format="json")
    data = organizer_api.get(f"{URL}{response.json()['id']}/").json()
    assert data["status"] == "done" and data["matches"] == 4
    summary = data["summary"]
    assert summary["matches"] == 4 and sum(r["games"] for r in summary["by_entity"]) == 8
    assert {r["kind"] for r in summary["by_entity"]} == {"superstar"}
    assert set(summary["length"]) == {"mean", "min", "max", "histogram"}


@pytest.mark.parametrize(("body", "code"), [
    ({"game": "chess"}, "unknown_game"),
    ({"bots": ["random", "hal"]}, "unknown_bot"),
    ({"bots": ["random"]}, "bad_seat_count"),
    ({"matches": 0}, "bad_matches"),
    ({"matches": -1}, "bad_matches"),
    ({"options": {"best_of": 7}}, "bad_option"),
    ({"options": {"board": "big"}}, "unknown_option"),
    ({"options": [1, 2]}, "invalid"),  # (not an object)
    ({"chunk": 0}, "bad_chunk"),
    ({"seed": -4}, "bad_seed"),
    ({"bots": "random"}, "invalid"),
])
def test_a_refused_job_is_a_400_with_its_code_and_writes_nothing(
        organizer_api: APIClient, django_capture_on_commit_callbacks: Any,
        body: dict[str, Any], code: str) -> None:
    with django_capture_on_commit_callbacks() as queued:
        response = organizer_api.post(URL, {**BODY, **body}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["detail"]
    assert queued == []
    assert not SimulationJob.objects.exists() and not SimulationChunk.objects.exists()


def test_cancel_keeps_what_finished_and_a_second_cancel_is_a_conflict(
        organizer_api: APIClient, organizer: Any) -> None:
    job = simulation.create_job(**{**BODY, "bots": ["random", "random"]}, by=organizer)
    simulation.run_chunk(job.pk, 0)
    response = organizer_api.post(f"{URL}{job.pk}/cancel/")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["matches"]) == ("cancelled", 2)
    again = organizer_api.post(f"{URL}{job.pk}/cancel/")
    assert again.status_code == 409 and again.json()["code"] == "job_finished"
    resume = organizer_api.post(f"{URL}{job.pk}/resume/")
    assert resume.status_code == 409 and resume.json()["code"] == "job_cancelled"


def test_resume_requeues_the_unfinished_chunks(organizer_api: APIClient, organizer: Any,
                                               django_capture_on_commit_callbacks: Any) -> None:
    job = simulation.create_job(**{**BODY, "bots": ["random", "random"]}, by=organizer)
    simulation.run_chunk(job.pk, 0)
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer_api.post(f"{URL}{job.pk}/resume/")
    assert response.status_code == 200
    job.refresh_from_db()
    assert job.status == "done" and job.done_matches == 6


def test_the_logs_download_as_json_lines(organizer_api: APIClient,
                                         django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        job_id = organizer_api.post(URL, {**BODY, "logs": True}, format="json").json()["id"]
    response = organizer_api.get(f"{URL}{job_id}/logs/")
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    rows = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    assert [row["match"] for row in rows] == list(range(6))
    assert set(rows[0]) == {"match", "seed", "options", "rules_version", "placements",
                            "events"}
    without = organizer_api.post(URL, BODY, format="json").json()["id"]
    response = organizer_api.get(f"{URL}{without}/logs/")
    assert response.status_code == 404 and response.json()["code"] == "no_logs"
    # A client that asks for the documented media type alone gets the lines, or an error
    # as one JSON line.
    lines = organizer_api.get(f"{URL}{job_id}/logs/", HTTP_ACCEPT="application/x-ndjson")
    assert lines.status_code == 200 and lines["Content-Type"] == "application/x-ndjson"
    assert len(b"".join(lines.streaming_content).splitlines()) == 6
    refused = organizer_api.get(f"{URL}{without}/logs/", HTTP_ACCEPT="application/x-ndjson")
    assert refused.status_code == 404 and refused["Content-Type"].startswith(
        "application/x-ndjson")
    assert json.loads(refused.content)["code"] == "no_logs"


def test_an_unknown_job_is_a_404(organizer_api: APIClient) -> None:
    response = organizer_api.get(f"{URL}999/")
    assert response.status_code == 404 and response.json() == {
        "code": "not_found", "detail": "No such simulation."}


# -- who may -----------------------------------------------------------------------------

@pytest.mark.parametrize(("role", "read", "write"), [
    ("anon_api", 401, 401), ("outsider_api", 403, 403), ("player_api", 403, 403),
    ("sam_api", 200, 201), ("organizer_api", 200, 201)])
def test_only_staff_and_organizers_use_simulations(request: pytest.FixtureRequest,
                                                   organizer: Any, role: str, read: int,
                                                   write: int) -> None:
    client: APIClient = request.getfixturevalue(role)
    job = simulation.create_job(**BODY, by=organizer)
    assert client.get(URL).status_code == read
    assert client.get(f"{URL}{job.pk}/").status_code == read
    assert client.get(f"{URL}{job.pk}/progress/").status_code == read
    response = client.post(URL, BODY, format="json")
    assert response.status_code == write
    if write != 201:
        assert response.json()["code"] in {"not_authenticated", "not_organizer"}


def test_only_the_creator_or_staff_cancel_or_resume(sam_api: APIClient, organizer: Any) -> None:
    job = simulation.create_job(**BODY, by=organizer)
    for verb in ("cancel", "resume"):
        response = sam_api.post(f"{URL}{job.pk}/{verb}/")
        assert response.status_code == 403 and response.json()["code"] == "not_organizer"
    own = sam_api.post(URL, BODY, format="json").json()["id"]
    assert sam_api.post(f"{URL}{own}/cancel/").json()["status"] == "cancelled"


def test_the_schema_documents_the_simulation_endpoints(anon_api: APIClient) -> None:
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = doc["paths"]
    for path in ("/api/simulations/", "/api/simulations/{id}/",
                 "/api/simulations/{id}/progress/", "/api/simulations/{id}/cancel/",
                 "/api/simulations/{id}/resume/", "/api/simulations/{id}/logs/"):
        assert path in paths
    summary = doc["components"]["schemas"]["SimulationSummary"]["properties"]
    assert {"by_seat", "by_entity", "first_player", "length"} <= set(summary)


def test_a_job_sent_again_with_its_key_answers_with_the_first_and_queues_nothing_more(
        organizer_api: APIClient, django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone resending the create after a timeout: one job, its chunks queued once."""
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(simulation, "enqueue", lambda task, *args: queued.append(args))
    body = {**BODY, "idempotency_key": "tuesday-run"}
    with django_capture_on_commit_callbacks(execute=True):
        first = organizer_api.post(URL, body, format="json")
    job = SimulationJob.objects.get()
    assert queued == [(job.pk, 0), (job.pk, 1), (job.pk, 2)]
    with django_capture_on_commit_callbacks(execute=True) as hooks:
        again = organizer_api.post(URL, body, format="json")
    assert (first.status_code, again.status_code) == (201, 201), again.json()
    assert again.json()["id"] == first.json()["id"] == job.pk
    assert (hooks, len(queued)) == ([], 3)
    assert (SimulationJob.objects.count(), SimulationChunk.objects.count()) == (1, 3)
    other = organizer_api.post(URL, {**body, "idempotency_key": "wednesday-run"},
                               format="json")
    assert other.status_code == 201 and SimulationJob.objects.count() == 2


@pytest.mark.parametrize("change", [{"game": "royal_rumble",
                                     "bots": ["random", "random", "random"]},
                                    {"bots": ["heuristic", "random"]}])
def test_a_job_key_reused_for_another_game_or_other_bots_is_refused(
        organizer_api: APIClient, change: dict[str, Any]) -> None:
    body = {**BODY, "idempotency_key": "k"}
    assert organizer_api.post(URL, body, format="json").status_code == 201
    refused = organizer_api.post(URL, {**body, **change}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "key_reused")
    assert (SimulationJob.objects.count(), SimulationChunk.objects.count()) == (1, 3)


def test_a_constructed_deck_in_a_job_is_read_by_its_creator_and_superusers_alone(
        sam_api: APIClient, organizer_api: APIClient, client_for: Any, django_user_model: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """SH-050 decks are secret options: an organizer who tries a deck out in a simulation
    may meet another organizer (or staff) across the table, who reads every job. Its decks
    read "hidden" to them, on the page too, and its logs (which replay the decks) are
    refused; its creator and superusers read them, as an Event's decks."""
    from engine.games.supershow.cards import CATALOG

    ox, mira = CATALOG.competitors["ox_valdane"], CATALOG.competitors["mira_quickstep"]
    deck = [c.key for c in mira.deck[:27]] + [c.key for c in ox.deck[27:]]
    body = {"game": "supershow", "bots": ["random", "random"], "matches": 1, "seed": 3,
            "logs": True, "options": {"competitors": ["ox_valdane", "mira_quickstep"],
                                      "decks": [deck, None]}}
    with django_capture_on_commit_callbacks(execute=True):
        job_id = sam_api.post(URL, body, format="json").json()["id"]
    kim = django_user_model.objects.create_user(username="kim", password="pw-kim-1234")
    kim.organized_events.create(name="Winter", game="supershow")
    kim_api = client_for(kim)
    assert kim_api.get(f"{URL}{job_id}/").json()["options"]["decks"] == ["hidden", "hidden"]
    assert kim_api.get(URL).json()["results"][0]["options"]["decks"] == ["hidden", "hidden"]
    refused = kim_api.get(f"{URL}{job_id}/logs/")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_organizer")
    kim_api.force_authenticate(None)
    assert kim_api.login(username="kim", password="pw-kim-1234")
    page = kim_api.get(reverse("league:simulation", args=[job_id])).content.decode()
    assert deck[0] not in page and "hidden" in page
    assert kim_api.get(reverse("league:simulation_logs", args=[job_id])).status_code == 403
    assert organizer_api.get(f"{URL}{job_id}/").json()["options"]["decks"] == [
        "hidden", "hidden"]  # (staff who may play in an Event too)
    root = django_user_model.objects.create_superuser(username="root", password="pw-root-1")
    for reader in (sam_api, client_for(root)):
        assert reader.get(f"{URL}{job_id}/").json()["options"]["decks"] == [deck, None]
        assert reader.get(f"{URL}{job_id}/logs/").status_code == 200
