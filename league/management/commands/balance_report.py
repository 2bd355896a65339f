"""`manage.py balance_report GAME [--matches N] [--seats S] [--seed K] [--out DIR]`

Runs a balance simulation in this process, without a job row or a worker: the heuristic
bot on every seat and each seat's Superstar (Competitor...) drawn match by match, so each
meets the whole field (`league.simulation`, the same matches a balance job of that seed
plays). Then writes the report: `<game>.svg` (the plots), `<game>.md` (the figures) and
`<game>.json` (the summary, which the report page shows until a balance job has run).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from engine import registry
from engine.protocol import IllegalAction
from league import balance_report, simulation
from league.events import LeagueError
from league.models import SimulationJob

BOT = "heuristic"


def default_out() -> Path:
    """Where the files go unless told: BALANCE_REPORT_DIR (in a checkout, where the
    shipped reports live, benchmarks/reports/; in a container, whose code is read-only,
    /tmp/balance-reports)."""
    return Path(settings.BALANCE_REPORT_DIR)


def simulate(game: str, matches: int, seats: int, seed: int = 0,
             progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play a balance run of `matches` in steps of about a tenth; its summary. The job is
    never saved: it only carries the run's settings to the simulation service."""
    job = SimulationJob(game=game, bots=[BOT] * seats, options={}, balance=True, logs=False,
                        seed=seed, planned=matches)
    step = max(1, matches // 10)
    for start in range(0, matches, step):
        tallies, _ = simulation.play_chunk(job, start, min(step, matches - start))
        job.totals = simulation.merge(job.totals, tallies)
        if progress is not None:
            progress(job.totals["matches"])
    return simulation.job_summary(job)


# -- writing the report -------------------------------------------------------------------

def write_report(summary: dict[str, Any], out: Path, title: str) -> list[Path]:
    """`<game>.svg`, `<game>.md` and `<game>.json` in `out` (made if missing)."""
    out.mkdir(parents=True, exist_ok=True)
    game = summary["game"]
    files = {
        out / f"{game}.svg": balance_report.report_svg(summary, title) + "\n",
        out / f"{game}.md": balance_report.report_markdown(summary, title, f"{game}.svg"),
        out / f"{game}.json": json.dumps(summary, indent=1) + "\n",
    }
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return list(files)


class Command(BaseCommand):
    help = "Run a balance simulation of a game and write its report (SVG plots, Markdown)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", choices=sorted(registry.games()))
        parser.add_argument("--matches", type=int, default=2000,
                            help="matches to play (default 2,000)")
        parser.add_argument("--seats", type=int, default=None,
                            help="seats per match (default: the game's fewest)")
        parser.add_argument("--seed", type=int, default=0,
                            help="the run's seed (default 0: the shipped reports)")
        parser.add_argument("--out", type=Path, default=None,
                            help="folder for the files (default BALANCE_REPORT_DIR: "
                                 "benchmarks/reports/ in a checkout)")

    def handle(self, *args: Any, **options: Any) -> None:
        game: str = options["game"]
        spec = registry.get_rules(game).spec
        seats = spec.min_seats if options["seats"] is None else options["seats"]
        matches = options["matches"]
        try:
            spec.check_seats(seats)  # first: `[BOT] * seats` makes no seats of -1
            simulation.check(game=game, bots=[BOT] * seats, matches=matches, options={},
                             balance=True, seed=options["seed"])
        except IllegalAction as exc:
            raise CommandError(f"[{exc.code}] {exc.message}") from None
        except LeagueError as exc:
            raise CommandError(f"[{exc.code}] {exc.detail}") from None
        self.stdout.write(f"{spec.title}: {balance_report.counted(matches, 'match', 'matches')}, "
                          f"{seats} heuristic seats")
        summary = simulate(game, matches, seats, options["seed"],
                           lambda done: self.stdout.write(f"  {done:,}/{matches:,} matches"))
        # (the site's page says when: the file's own time is its checkout's or its image's)
        summary["written"] = timezone.now().replace(microsecond=0).isoformat()
        for path in write_report(summary, options["out"] or default_out(), spec.title):
            self.stdout.write(f"wrote {path}")
        self._print_figures(summary)

    def _print_figures(self, summary: dict[str, Any]) -> None:
        data = balance_report.report_data(summary)
        pct = balance_report.percent
        for row in data["entities"]:
            flag = "  <-- above the goal" if row["above_goal"] else ""
            self.stdout.write(f"  {row['key']:<20} {pct(row['rate']):>6} "
                              f"({pct(row['low'])}-{pct(row['high'])}){flag}")
        first = data["first_player"]
        opening = ("no first player (every seat opens at once)" if first.get("games") == 0
                   else f"first player {pct(first['rate'])} "
                        f"({pct(first['low'])}-{pct(first['high'])}), fair {pct(data['fair'])}")
        self.stdout.write(f"  {opening}; mean length {data['length']['mean']:.1f} events")
