"""Balance report pages: per game, the latest balance simulation as plots and tables.

Public read, like the league's other public pages: any logged-in user (a spectator
too) may look. The figures and the SVG come from `league.balance_report`; this module
only finds the summary and renders it.

Where a summary comes from: `SOURCES` in order, the first that has one wins: the latest
balance simulation job of the game that finished with at least `REPORT_MATCHES` matches
(`SimulationJob`; a smaller one is a trial, read on its own job page), else the report file
`manage.py balance_report` wrote where it writes (`BALANCE_REPORT_DIR`: a container's
/tmp/balance-reports/), else the one shipped (`benchmarks/reports/<game>.json`, for every
game).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from engine import registry
from league import balance_report
from league.models import SimulationJob

# The shipped reports; `settings.BALANCE_REPORT_DIR` (where the command writes) comes first.
REPORTS_DIR = Path(settings.BASE_DIR) / "benchmarks" / "reports"
# A balance job this size rates each of a few dozen characters to about +-10 points.
REPORT_MATCHES = 500


@dataclass(frozen=True)
class Found:
    """A summary and where it came from, in words ("report file of 2026-11-30 14:02")."""

    summary: dict[str, Any]
    source: str


def finished_job_summary(game: str) -> Found | None:
    """The summary of the game's latest balance job that ran to its end, if it is large
    enough to stand for the card set (`REPORT_MATCHES`)."""
    job = (SimulationJob.objects.filter(game=game, balance=True,
                                        status=SimulationJob.Status.DONE,
                                        done_matches__gte=REPORT_MATCHES)
           .defer("totals").order_by("-finished_at", "-pk").first())
    if job is None:
        return None
    when = f", finished {job.finished_at:%Y-%m-%d %H:%M} UTC" if job.finished_at else ""
    return Found(job.summary, f"simulation job #{job.pk}{when}")


def report_file_summary(game: str) -> Found | None:
    """The summary `manage.py balance_report` wrote for this game where it writes
    (`BALANCE_REPORT_DIR`), else the shipped one, if any. In a container the command writes
    under /tmp, the code being read-only: the page read the shipped folder alone, so a
    report written there never showed."""
    shipped = REPORTS_DIR.resolve()
    for folder in dict.fromkeys([Path(settings.BALANCE_REPORT_DIR).resolve(), shipped]):
        path = folder / f"{game}.json"
        name = f"benchmarks/reports/{game}.json" if folder == shipped else str(path)
        found = _report_file(game, path, name)
        if found is not None:
            return found
    return None


def _report_file(game: str, path: Path, name: str) -> Found | None:
    """The game's summary in the report file at `path`, if it holds one."""
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(summary, dict) or summary.get("game") != game:
        return None
    # When the command wrote it, as it recorded it: the file's own time is when the site
    # was checked out or its image built, which the page gave as the report's.
    try:
        written = datetime.fromisoformat(str(summary.get("written"))).astimezone(UTC)
    except ValueError:
        return Found(summary, f"report file {name}")
    return Found(summary, f"report file {name}, written {written:%Y-%m-%d %H:%M} UTC")


SOURCES: list[Callable[[str], Found | None]] = [finished_job_summary, report_file_summary]


def latest_summary(game: str) -> Found | None:
    """The first source that has a balance summary for this game."""
    for source in SOURCES:
        found = source(game)
        if found is not None:
            return found
    return None


def _title(game: str) -> str:
    return registry.get_rules(game).spec.title


def _known_game(game: str) -> str:
    if game not in registry.games():
        raise Http404("No such game.")
    return game


def _shown(row: Mapping[str, Any]) -> dict[str, Any]:
    """A rate row with its figures as text for the tables."""
    pct = balance_report.percent
    return {**row, "rate_text": pct(float(row["rate"])),
            "interval_text": f"{pct(float(row['low']))}\u2013{pct(float(row['high']))}"}


@login_required
@require_safe
def balance_reports(request: HttpRequest) -> HttpResponse:
    """Every game, with its report's size and verdict when it has one."""
    rows = []
    for game, rules in sorted(registry.games().items(), key=lambda kv: kv[1].spec.title):
        found = latest_summary(game)
        data = balance_report.report_data(found.summary) if found else None
        rows.append({"game": game, "title": rules.spec.title, "data": data})
    return render(request, "league/balance_reports.html", {"rows": rows})


@login_required
@require_safe
def balance_report_page(request: HttpRequest, game: str) -> HttpResponse:
    """One game's report: the plots, the entity and seat tables, first-player advantage."""
    title = _title(_known_game(game))
    found = latest_summary(game)
    context: dict[str, Any] = {"game": game, "title": title, "found": found}
    if found is not None:
        data = balance_report.report_data(found.summary, title)
        data["entities"] = [_shown(row) for row in data["entities"]]
        data["seats"] = [{**_shown(row), "label": balance_report.seat_label(row)}
                         for row in data["seats"]]
        if data["first_player"]:
            data["first_player"] = _shown(data["first_player"])
        context.update(data=data, plots=balance_report.report_plots(found.summary),
                       bots=balance_report.bots_text(data["bots"]),
                       fair_text=balance_report.short_percent(data["fair"]))
    return render(request, "league/balance_report.html", context)


@login_required
@require_safe
def balance_report_svg(request: HttpRequest, game: str) -> HttpResponse:
    """The plots as one SVG file, as `manage.py balance_report` writes it."""
    title = _title(_known_game(game))
    found = latest_summary(game)
    if found is None:
        raise Http404("No balance report for this game yet.")
    response = HttpResponse(balance_report.report_svg(found.summary, title),
                            content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{game}.svg"'
    return response
