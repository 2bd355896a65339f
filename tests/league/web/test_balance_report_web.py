"""The balance report pages: public read, the latest finished balance job, else the report
file, else a notice; the plots as one SVG file."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league import report_views
from league.models import SimulationJob

pytestmark = pytest.mark.django_db

GAME = "superstar_showdown"


def summary(top: str = "Pip <Skylark>", rate: float = 0.61) -> dict[str, Any]:
    """A finished two-seat balance run with one Superstar above the goal."""
    def row(key: str, name: str, r: float) -> dict[str, Any]:
        return {"key": key, "name": name, "kind": "superstar", "games": 700,
                "points": r * 700, "rate": r, "low": r - 0.035, "high": r + 0.035}

    return {
        "game": GAME, "bots": ["heuristic", "heuristic"], "options": {}, "balance": True,
        "matches": 700, "planned": 700,
        "by_seat": [{"seat": s, "bot": "heuristic", "games": 700, "wins": 350, "draws": 0,
                     "points": 350.0, "rate": 0.5, "low": 0.46, "high": 0.54}
                    for s in range(2)],
        "by_entity": [row("skylark", top, rate), row("oakhart", "Thorvald Oakhart", 0.47)],
        "first_player": {"rate": 0.53, "low": 0.49, "high": 0.57, "fair": 0.5},
        "length": {"mean": 66.0, "min": 15, "max": 150,
                   "histogram": [[50, 200], [100, 400], [150, 100]]},
        "seconds": 28.0, "matches_per_second": 25.0,
    }


@pytest.fixture(autouse=True)
def reports_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty report folder instead of the shipped benchmarks/reports/."""
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    monkeypatch.setattr(report_views, "REPORTS_DIR", shipped)
    return shipped


@pytest.fixture(autouse=True)
def written_dir(tmp_path: Path, settings: Any) -> Path:
    """An empty folder where `manage.py balance_report` writes (BALANCE_REPORT_DIR)."""
    written = tmp_path / "written"
    written.mkdir()
    settings.BALANCE_REPORT_DIR = written
    return written


@pytest.fixture
def make_job() -> Callable[..., SimulationJob]:
    def make(*, status: str = SimulationJob.Status.DONE, balance: bool = True,
             game: str = GAME, age: int = 0, **kwargs: Any) -> SimulationJob:
        data = kwargs.pop("summary", None) or summary()
        finished = SimulationJob.Status(status) != SimulationJob.Status.RUNNING
        return SimulationJob.objects.create(
            game=game, bots=["heuristic", "heuristic"], balance=balance, seed=1,
            planned=data["planned"], chunk_size=100, chunk_count=7,
            done_matches=data["matches"], done_chunks=7, status=status, summary=data,
            finished_at=timezone.now() - timedelta(minutes=age) if finished else None)

    return make


def page(client: Client, game: str = GAME) -> Any:
    return client.get(reverse("league:balance_report", args=[game]))


@pytest.mark.parametrize("role", ["outsider", "season_organizer", "staff"])
def test_anyone_logged_in_may_read_a_report(as_role: Callable[[str], Client], role: str,
                                            make_job: Callable[..., SimulationJob]) -> None:
    make_job()
    assert page(as_role(role)).status_code == 200
    assert as_role(role).get(reverse("league:balance_reports")).status_code == 200


def test_anonymous_visitors_are_sent_to_log_in(as_role: Callable[[str], Client]) -> None:
    for url in (reverse("league:balance_reports"), reverse("league:balance_report", args=[GAME]),
                reverse("league:balance_report_svg", args=[GAME])):
        response = as_role("anonymous").get(url)
        assert response.status_code == 302 and "login" in response["Location"]


def test_the_page_shows_the_finished_jobs_plots_table_and_first_player_advantage(
        alice_client: Client, make_job: Callable[..., SimulationJob]) -> None:
    job = make_job()
    response = page(alice_client)
    html = response.content.decode()
    assert "Balance report: Superstar Showdown" in html
    assert f"simulation job #{job.pk}" in html
    assert html.count("<svg") == 3  # entities, lengths, seats
    assert 'class="goal-line"' in html and 'class="fair-line"' in html
    assert "Pip &lt;Skylark&gt;" in html and "<Skylark>" not in html
    data = response.context["data"]
    assert [r["key"] for r in data["entities"]] == ["skylark", "oakhart"]
    assert [r["key"] for r in data["above_goal"]] == ["skylark"]
    assert "Above it:" in html and "above goal" in html
    assert "whoever makes the first decision wins 53.0% (49.0%\u201357.0%)" in html
    assert "700 matches" in html


def test_the_latest_finished_balance_job_wins_over_older_running_and_plain_ones(
        alice_client: Client, make_job: Callable[..., SimulationJob]) -> None:
    make_job(age=30, summary=summary(top="Old Skylark"))
    latest = make_job(age=5, summary=summary(top="New Skylark"))
    make_job(status=SimulationJob.Status.RUNNING, summary=summary(top="Running Skylark"))
    make_job(balance=False, summary=summary(top="Plain Skylark"))
    make_job(status=SimulationJob.Status.CANCELLED, summary=summary(top="Cancelled Skylark"))
    make_job(game="supershow", summary=summary(top="Other game"))
    html = page(alice_client).content.decode()
    assert "New Skylark" in html and f"job #{latest.pk}" in html
    for other in ("Old", "Running", "Plain", "Cancelled"):
        assert f"{other} Skylark" not in html


def test_a_trial_job_of_a_few_matches_does_not_replace_the_report_file(
        alice_client: Client, make_job: Callable[..., SimulationJob],
        reports_dir: Path) -> None:
    (reports_dir / f"{GAME}.json").write_text(json.dumps(summary(top="Filed Skylark")))
    trial = {**summary(top="Trial Skylark"), "matches": 4, "planned": 4}
    make_job(summary=trial)
    html = page(alice_client).content.decode()
    assert "Filed Skylark" in html and "Trial Skylark" not in html


def test_without_a_job_the_report_file_is_shown(alice_client: Client,
                                                reports_dir: Path) -> None:
    (reports_dir / f"{GAME}.json").write_text(json.dumps(summary(top="Filed Skylark")))
    html = page(alice_client).content.decode()
    assert "Filed Skylark" in html and f"benchmarks/reports/{GAME}.json" in html


def test_a_report_file_is_dated_as_the_command_wrote_it_not_by_its_files_time(
        alice_client: Client, reports_dir: Path) -> None:
    # The file's own time is the checkout's or the image's: the page gave that as when the
    # report was written (a report months old said "written" this morning).
    path = reports_dir / f"{GAME}.json"
    path.write_text(json.dumps(summary()))
    html = page(alice_client).content.decode()
    assert f"benchmarks/reports/{GAME}.json" in html and "written" not in html
    path.write_text(json.dumps({**summary(), "written": "2026-03-30T14:02:00+00:00"}))
    html = page(alice_client).content.decode()
    assert f"benchmarks/reports/{GAME}.json, written 2026-03-30 14:02 UTC" in html


def test_a_report_the_command_wrote_where_it_writes_is_shown_before_the_shipped_one(
        alice_client: Client, reports_dir: Path, written_dir: Path) -> None:
    """In a container the command writes under /tmp (BALANCE_REPORT_DIR), its code being
    read-only: the page read the shipped folder alone, and never showed what it wrote."""
    (reports_dir / f"{GAME}.json").write_text(json.dumps(summary(top="Shipped Skylark")))
    (reports_dir / "supershow.json").write_text(
        json.dumps({**summary(top="Shipped Hero"), "game": "supershow"}))
    (written_dir / f"{GAME}.json").write_text(json.dumps(
        {**summary(top="Written Skylark"), "written": "2026-12-01T09:30:00+00:00"}))
    html = page(alice_client).content.decode()
    assert "Written Skylark" in html and "Shipped Skylark" not in html
    assert f"report file {written_dir / GAME}.json, written 2026-12-01 09:30 UTC" in html
    # a game it wrote nothing for keeps its shipped report
    html = page(alice_client, "supershow").content.decode()
    assert "Shipped Hero" in html and "benchmarks/reports/supershow.json" in html
    listed = alice_client.get(reverse("league:balance_reports")).content.decode()
    assert listed.count("no report yet") == 3


def test_a_broken_written_report_leaves_the_shipped_one(
        alice_client: Client, reports_dir: Path, written_dir: Path) -> None:
    (reports_dir / f"{GAME}.json").write_text(json.dumps(summary(top="Shipped Skylark")))
    (written_dir / f"{GAME}.json").write_text("{not json")
    assert "Shipped Skylark" in page(alice_client).content.decode()


def test_a_broken_or_foreign_report_file_counts_as_none(alice_client: Client,
                                                        reports_dir: Path) -> None:
    (reports_dir / f"{GAME}.json").write_text("{not json")
    (reports_dir / "supershow.json").write_text(json.dumps(summary()))  # says superstar_showdown
    for game in (GAME, "supershow"):
        response = page(alice_client, game)
        assert response.status_code == 200 and response.context["found"] is None


def test_a_game_without_a_report_says_how_to_make_one(alice_client: Client) -> None:
    response = page(alice_client)
    assert response.status_code == 200
    assert f"manage.py balance_report {GAME}" in response.content.decode()


def test_an_unknown_game_is_404(alice_client: Client) -> None:
    assert page(alice_client, "chess").status_code == 404
    svg = reverse("league:balance_report_svg", args=["chess"])
    assert alice_client.get(svg).status_code == 404


def test_the_index_lists_every_game_with_its_reports_verdict(
        alice_client: Client, make_job: Callable[..., SimulationJob]) -> None:
    make_job()
    html = alice_client.get(reverse("league:balance_reports")).content.decode()
    for game in ("superstar_showdown", "supershow", "royal_rumble", "super_showdown",
                 "ultimate_showdown"):
        assert reverse("league:balance_report", args=[game]) in html
    assert "1 above the goal" in html
    assert html.count("no report yet") == 4


def test_the_plots_download_as_one_svg_file(alice_client: Client,
                                            make_job: Callable[..., SimulationJob]) -> None:
    url = reverse("league:balance_report_svg", args=[GAME])
    assert alice_client.get(url).status_code == 404  # no report yet
    make_job()
    response = alice_client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    root = ElementTree.fromstring(response.content)
    assert root.get("class") == "balance-report"


def test_the_list_says_one_match_for_a_report_file_of_one_match(
        as_role: Callable[[str], Client], reports_dir: Path) -> None:
    one = {**summary(), "matches": 1, "planned": 1}
    (reports_dir / f"{GAME}.json").write_text(json.dumps(one), encoding="utf-8")
    listed = as_role("outsider").get(reverse("league:balance_reports")).content.decode()
    assert ">1 match</span>" in listed and "1 matches" not in listed
