"""Simulation jobs on the organizer dashboard: the form, the polled progress, cancel, logs.

A job's chunks are queued on commit, which these `django_db` tests never reach: a test
plays chunks itself (`simulation.run_chunk`) to move a job along, or lets the hooks run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from league import simulation
from league.models import Season, SimulationChunk, SimulationJob

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def form(**fields: str) -> dict[str, str]:
    data = {"game": "super_showdown", "bots": "random, heuristic", "matches": "6",
            "options": "{}", "chunk": "2", "seed": "42", **fields}
    return {f"sim-{k}": v for k, v in data.items()}


def new_job(by: Any = None, **kwargs: Any) -> SimulationJob:
    return simulation.create_job(**{"game": "super_showdown", "bots": ["random", "random"],
                                    "matches": 6, "chunk": 2, "seed": 3, "by": by, **kwargs})


def poll_url(page: str) -> str | None:
    """The URL the progress fragment polls, if it polls."""
    found = re.search(r'hx-get="([^"]+)" hx-trigger="every 1s"', page)
    return found[1].replace("&amp;", "&") if found else None


def test_the_dashboard_links_to_the_simulations(staff_client: Client) -> None:
    page = staff_client.get(reverse("league:dashboard")).content.decode()
    assert reverse("league:simulations") in page


def test_staff_start_a_job_from_the_form_and_see_its_page(staff_client: Client,
                                                           organizer: Any) -> None:
    page = staff_client.get(reverse("league:simulations")).content.decode()
    assert "New simulation" in page and 'name="sim-bots"' in page and "heuristic" in page
    response = staff_client.post(reverse("league:simulation_create"),
                                 form(balance="on", logs="on", options='{"best_of": 3}'))
    job = SimulationJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("league:simulation", args=[job.pk])
    assert (job.game, job.bots, job.planned, job.chunk_size, job.seed) == (
        "super_showdown", ["random", "heuristic"], 6, 2, 42)
    assert (job.options, job.balance, job.logs, job.created_by) == (
        {"best_of": 3}, True, True, organizer)
    page = staff_client.get(response["Location"]).content.decode()
    assert f"Simulation {job.pk}: Super Showdown" in page
    assert "6 in 3 chunks of 2" in page
    assert "0 of 6 matches (0%)" in page and "Cancel the job" in page
    assert poll_url(page) is not None
    listing = staff_client.get(reverse("league:simulations")).content.decode()
    assert f"Simulation {job.pk}" in listing and "0/6 (0%)" in listing


def test_a_jobs_start_says_its_time_zone(staff_client: Client, organizer: Any) -> None:
    """When a job started, on its page and in the list: in UTC, which it says, for the
    page's script to give in the reader's own zone (it read as a local time, unmarked)."""
    job = new_job(by=organizer)
    at = job.created_at.astimezone(UTC)
    said = (f'<time datetime="{at.isoformat()}" data-local>'
            f'{at:%Y-%m-%d %H:%M} UTC</time>')
    assert said in staff_client.get(reverse("league:simulation",
                                            args=[job.pk])).content.decode()
    assert said in staff_client.get(reverse("league:simulations")).content.decode()


def test_the_progress_fragment_polls_and_shows_progress(staff_client: Client,
                                                        organizer: Any) -> None:
    job = new_job(organizer)
    url = poll_url(staff_client.get(reverse("league:simulation", args=[job.pk]))
                   .content.decode())
    assert url is not None
    assert staff_client.get(url, **HTMX).status_code == 204  # nothing changed yet
    assert simulation.run_chunk(job.pk, 0)
    response = staff_client.get(url, **HTMX)
    fragment = response.content.decode()
    assert response.status_code == 200
    assert "2 of 6 matches (33%)" in fragment and "chunks 1/3" in fragment
    assert '<progress class="progress" aria-label="Matches played" max="6" value="2">33%' \
        '</progress>' in fragment
    assert "By seat" in fragment
    url = poll_url(fragment)
    assert url is not None and staff_client.get(url, **HTMX).status_code == 204
    for index in (1, 2):
        assert simulation.run_chunk(job.pk, index)
    fragment = staff_client.get(url, **HTMX).content.decode()
    assert "6 of 6 matches (100%)" in fragment and 'data-status="done"' in fragment
    assert poll_url(fragment) is None  # a finished job stops polling
    assert "Cancel the job" not in fragment


def told(fragment: str) -> str | None:
    """What the answer tells a screen reader from the page's live region, if anything."""
    found = re.search(r'<div id="simulation-announce" hx-swap-oob="innerHTML">(.*?)</div>',
                      fragment, re.S)
    return " ".join(found[1].split()) if found else None


def test_a_screen_reader_hears_how_a_job_ended_and_what_cancel_did(
        staff_client: Client, organizer: Any) -> None:
    """The box and its words changed in silence at every poll: a screen reader user heard
    neither the end of a job nor the answer to Cancel. A live region outside the polled
    box reads the poll that ends it and the answer to a press; the polls between say
    nothing."""
    job = new_job(organizer)
    page = staff_client.get(reverse("league:simulation", args=[job.pk])).content.decode()
    assert '<div id="simulation-announce" class="visually-hidden" role="status" ' \
           'aria-live="polite"></div>' in page
    url = poll_url(page)
    assert url is not None and simulation.run_chunk(job.pk, 0)
    fragment = staff_client.get(url, **HTMX).content.decode()
    assert told(fragment) is None
    for index in (1, 2):
        assert simulation.run_chunk(job.pk, index)
    url = poll_url(fragment)
    assert url is not None
    assert told(staff_client.get(url, **HTMX).content.decode()) \
        == f"Simulation {job.pk}: Done, 6 of 6 matches."
    other = new_job(organizer)
    pressed = staff_client.post(reverse("league:simulation_cancel", args=[other.pk]), **HTMX)
    assert told(pressed.content.decode()) == f"Simulation {other.pk}: Cancelled, 0 of 6 matches."


def test_the_cancel_button_stops_the_job_and_keeps_what_finished(staff_client: Client,
                                                                 organizer: Any) -> None:
    job = new_job(organizer)
    assert simulation.run_chunk(job.pk, 0)
    response = staff_client.post(reverse("league:simulation_cancel", args=[job.pk]), **HTMX)
    fragment = response.content.decode()
    job.refresh_from_db()
    assert response.status_code == 200 and job.status == "cancelled"
    assert "Cancelled: the finished chunks are kept." in fragment
    assert "2 of 6 matches" in fragment and poll_url(fragment) is None
    assert not simulation.run_chunk(job.pk, 1)
    again = staff_client.post(reverse("league:simulation_cancel", args=[job.pk]), **HTMX)
    assert "cancelled already" in again.content.decode()


def test_the_resume_button_requeues_the_chunks_a_crashed_worker_left(
        staff_client: Client, organizer: Any, django_capture_on_commit_callbacks: Any) -> None:
    job = new_job(organizer)
    assert simulation.run_chunk(job.pk, 0)
    assert simulation._claim(job.pk, 1) is not None  # its worker died mid-chunk
    page = staff_client.get(reverse("league:simulation", args=[job.pk])).content.decode()
    assert "Resume stalled chunks" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(reverse("league:simulation_resume", args=[job.pk]),
                                     **HTMX)
    job.refresh_from_db()
    assert response.status_code == 200 and "error" not in response.content.decode()
    assert (job.status, job.done_matches) == ("done", 6)  # the requeued chunks ran
    assert list(job.chunks.values_list("attempts", flat=True)) == [1, 2, 1]
    simulation.cancel_job(job=new_job(organizer), by=organizer)
    cancelled = SimulationJob.objects.order_by("-pk").first()
    refused = staff_client.post(reverse("league:simulation_resume", args=[cancelled.pk]),
                                **HTMX)
    assert "(job_cancelled)" in refused.content.decode()


def test_cancel_without_htmx_redirects_to_the_job(staff_client: Client, organizer: Any) -> None:
    job = new_job(organizer)
    response = staff_client.post(reverse("league:simulation_cancel", args=[job.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("league:simulation", args=[job.pk])


def test_the_simulation_form_sent_twice_starts_one_job(staff_client: Client) -> None:
    page = staff_client.get(reverse("league:simulations")).content.decode()
    token = page.split('name="once" value="')[1].split('"')[0]
    first = staff_client.post(reverse("league:simulation_create"), {**form(), "once": token})
    second = staff_client.post(reverse("league:simulation_create"), {**form(), "once": token})
    job = SimulationJob.objects.get()
    assert first["Location"] == second["Location"] == reverse("league:simulation",
                                                              args=[job.pk])


@pytest.mark.parametrize(("fields", "code"), [
    ({"bots": "random"}, "bad_seat_count"),
    ({"bots": "random, skynet"}, "unknown_bot"),
    ({"matches": "0"}, "bad_matches"),
    ({"options": '{"best_of": 2}'}, "bad_option"),
    ({"chunk": "0"}, "bad_chunk"),
])
def test_a_refused_job_shows_its_code_and_writes_nothing(staff_client: Client,
                                                         fields: dict[str, str],
                                                         code: str) -> None:
    response = staff_client.post(reverse("league:simulation_create"), form(**fields))
    page = response.content.decode()
    assert response.status_code == 400
    assert f'data-code="{code}"' in page and f"<code>{code}</code>" in page
    assert not SimulationJob.objects.exists() and not SimulationChunk.objects.exists()


def test_options_that_are_not_json_are_a_form_error(staff_client: Client) -> None:
    response = staff_client.post(reverse("league:simulation_create"), form(options="{x"))
    assert response.status_code == 400
    assert "Options are not valid JSON" in response.content.decode()
    assert "(bad_option)" in response.content.decode()
    assert not SimulationJob.objects.exists()


@pytest.mark.parametrize(("field", "value", "code"), [
    ("game", "chess", "unknown_game"), ("seed", "-1", "bad_seed"), ("options", "[1]",
                                                                     "bad_option"),
    ("matches", "abc", "bad_matches"), ("matches", "", "bad_matches"),
    ("matches", "1.5", "bad_matches"), ("bots", "", "bad_seat_count"),
    ("bots", "random,, heuristic", "bad_seat_count"),  # a seat named no bot, not one fewer
    ("chunk", "x", "bad_chunk"), ("seed", "abc", "bad_seed")])
def test_a_form_error_carries_its_code_as_the_api_and_command_do(
        staff_client: Client, field: str, value: str, code: str) -> None:
    response = staff_client.post(reverse("league:simulation_create"), form(**{field: value}))
    assert response.status_code == 400 and f"({code})" in response.content.decode()
    assert not SimulationJob.objects.exists()


def test_bot_names_typed_on_a_phone_keyboard_are_taken(staff_client: Client) -> None:
    """A phone capitalises the field's first word: "Random" was refused as unknown_bot."""
    page = staff_client.get(reverse("league:simulations")).content.decode()
    field = re.search(r'<input[^>]*name="sim-bots"[^>]*>', page)
    assert field is not None and 'autocapitalize="none"' in field.group(0)
    response = staff_client.post(reverse("league:simulation_create"),
                                 form(bots="Random, Heuristic", chunk=""))
    job = SimulationJob.objects.get()
    assert response["Location"] == reverse("league:simulation", args=[job.pk])
    assert (job.bots, job.chunk_size) == (["random", "heuristic"], simulation.DEFAULT_CHUNK)


def test_the_kept_logs_download_as_json_lines(staff_client: Client, organizer: Any,
                                              django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        job = new_job(organizer, logs=True)
    page = staff_client.get(reverse("league:simulation", args=[job.pk])).content.decode()
    assert reverse("league:simulation_logs", args=[job.pk]) in page
    response = staff_client.get(reverse("league:simulation_logs", args=[job.pk]))
    assert response["Content-Type"] == "application/x-ndjson"
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert [json.loads(line)["match"] for line in lines] == list(range(6))
    no_logs = new_job(organizer)
    assert staff_client.get(reverse("league:simulation_logs",
                                    args=[no_logs.pk])).status_code == 404


def test_a_balance_job_shows_its_entities(staff_client: Client, organizer: Any,
                                          django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        job = new_job(organizer, game="superstar_showdown", matches=2, balance=True)
    job.refresh_from_db()
    page = staff_client.get(reverse("league:simulation", args=[job.pk])).content.decode()
    assert "By superstar" in page
    assert all(escape(row["name"]) in page for row in job.summary["by_entity"])
    assert "No first player" in page  # both seats open at once


# -- who may -----------------------------------------------------------------------------

@pytest.mark.parametrize(("role", "expected"), [
    ("anonymous", 302), ("outsider", 403), ("season_organizer", 200), ("staff", 200)])
@pytest.mark.parametrize("name", ["simulations", "simulation", "simulation_progress"])
def test_only_organizers_see_simulations(as_role: Callable[[str], Client], season: Season,
                                         organizer: Any, role: str, expected: int,
                                         name: str) -> None:
    job = new_job(organizer)
    args = [] if name == "simulations" else [job.pk]
    assert as_role(role).get(reverse(f"league:{name}", args=args)).status_code == expected


@pytest.mark.parametrize(("role", "expected"), [
    ("anonymous", 302), ("outsider", 403), ("season_organizer", 302), ("staff", 302)])
def test_only_organizers_start_jobs(as_role: Callable[[str], Client], season: Season,
                                    role: str, expected: int) -> None:
    response = as_role(role).post(reverse("league:simulation_create"), form())
    assert response.status_code == expected
    assert SimulationJob.objects.exists() == (role in {"season_organizer", "staff"})


def test_an_organizer_cannot_cancel_another_organizers_job(sam_client: Client, season: Season,
                                                           organizer: Any) -> None:
    job = new_job(organizer)
    page = sam_client.get(reverse("league:simulation", args=[job.pk])).content.decode()
    assert "Cancel the job" not in page
    response = sam_client.post(reverse("league:simulation_cancel", args=[job.pk]), **HTMX)
    assert "Only the job&#x27;s creator or staff may cancel it." in response.content.decode()
    job.refresh_from_db()
    assert job.status == "queued"


def test_the_form_leaves_the_chunk_size_to_the_job_so_a_very_long_job_is_taken(
        staff_client: Client) -> None:
    """The field came filled with 50, so a job of 600,000 matches sent as the form came
    was refused (too_many_chunks) though an empty field would have taken chunks of 60."""
    page = staff_client.get(reverse("league:simulations")).content.decode()
    (field,) = re.findall(r'<input[^>]*name="sim-chunk"[^>]*>', page)
    assert "value=" not in field and 'placeholder="50"' in field
    response = staff_client.post(reverse("league:simulation_create"),
                                 form(matches="600000", chunk=""))
    assert response.status_code == 302
    job = SimulationJob.objects.get()
    assert (job.planned, job.chunk_size) == (600_000, 60)
    assert job.chunks.count() == 10_000


def test_the_summary_numbers_seats_from_1_as_the_balance_report_does(
        staff_client: Client, organizer: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        job = new_job(organizer, bots=["random", "heuristic"], matches=2)
    job.refresh_from_db()
    page = staff_client.get(reverse("league:simulation", args=[job.pk])).content.decode()
    table = page.split('class="standings sim-seats"')[1].split("</table>")[0]
    rows = re.findall(r'<tr><td>(\d+)</td><td class="name">(\w+)</td>', table)
    assert rows == [("1", "random"), ("2", "heuristic")]


def test_the_jobs_facts_number_its_seats_from_1_as_its_summary_does(
        staff_client: Client, organizer: Any) -> None:
    """The page's list of bots and its table below name the same seat the same way: the
    list said 'seat 0: random' over a table whose first row is seat 1."""
    job = new_job(organizer, bots=["random", "heuristic"], matches=2)
    page = staff_client.get(reverse("league:simulation", args=[job.pk])).content.decode()
    facts = page.split('class="sim-facts"')[1].split("</dl>")[0]
    assert re.findall(r"seat (\d+): <code>(\w+)</code>", facts) == [
        ("1", "random"), ("2", "heuristic")]


def test_a_job_of_one_chunk_reads_as_its_matches_in_one_chunk(staff_client: Client,
                                                              organizer: Any) -> None:
    """It read "20 in 1 chunk of 50", a chunk bigger than the job."""
    job = new_job(organizer, matches=20, chunk=None)
    page = staff_client.get(reverse("league:simulation", args=[job.pk])).content.decode()
    assert "20 in 1 chunk</dd>" in page and "chunk of" not in page
