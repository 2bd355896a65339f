"""Run a simulation job: many bot-vs-bot matches of one game, in chunks on the workers.

    manage.py simulate super_showdown --matches 2000 --bots random,heuristic
    manage.py simulate superstar_showdown --matches 600 --bots heuristic,heuristic --balance
    manage.py simulate --follow 12        # watch a job's progress, queuing nothing
    manage.py simulate --resume 12        # re-queue what a crashed worker left, and wait

Waits for the job (unless --no-wait), drawing a progress bar on stderr, then prints the
summary (win rates by seat, a seat counting as its side: league.simulation). Without a broker (the embedded default) the chunks run in this process.
Exits 1 when the job failed (its summary, of what finished, is printed first).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models.signals import post_save

from league import simulation
from league.balance_report import counted
from league.events import LeagueError
from league.models import SimulationJob

BAR = 30
POLL_SECONDS = 0.5
QUIET_WARNING_SECONDS = 30


def progress_bar(done: int, planned: int, rate: float = 0.0) -> str:
    """`[#########.....................]  300/1,000  30%  41.2 matches/s`."""
    filled = BAR * done // planned if planned else BAR
    percent = 100 * done // planned if planned else 100
    speed = f"  {rate:.1f} matches/s" if rate else ""
    return f"[{'#' * filled}{'.' * (BAR - filled)}] {done:,}/{planned:,} {percent:3d}%{speed}"


def whole(code: str) -> Callable[[str], int]:
    """An argument's parser: a whole number, or a refusal carrying `code`."""
    def parse(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"[{code}] a whole number, not {text!r}") from None
    return parse


class Command(BaseCommand):
    help = ("Play many bot-vs-bot matches of a game on the workers and summarize them: win "
            "rates by seat, each seat counting as its side (both seats of a tag team or "
            "handicap pair that wins have a win and 1 point; k sides sharing first, a draw "
            "and 1/k each).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", nargs="?", help="The game's key, e.g. super_showdown.")
        parser.add_argument("--matches", type=whole("bad_matches"),
                            help="How many matches to play.")
        parser.add_argument("--bots", help="One bot per seat, comma-separated: random,heuristic")
        parser.add_argument("--options", default="{}", help="The game's options as JSON.")
        parser.add_argument("--balance", action="store_true",
                            help="Sample each seat's Superstar / Competitor (...) per match "
                                 "and report each one's win rate.")
        parser.add_argument("--logs", action="store_true",
                            help="Keep every match's event log (downloadable).")
        parser.add_argument("--chunk", type=whole("bad_chunk"),
                            help=f"Matches per task (default {simulation.DEFAULT_CHUNK}, or "
                                 "enough to keep a very long job within "
                                 f"{simulation.MAX_CHUNKS:,} tasks).")
        parser.add_argument("--seed", type=whole("bad_seed"),
                            help="The job's seed (default: random).")
        parser.add_argument("--no-wait", action="store_true",
                            help="Queue the job and print its id without waiting.")
        parser.add_argument("--follow", type=int, metavar="JOB",
                            help="Wait for job JOB with the progress bar, queuing nothing.")
        parser.add_argument("--resume", type=int, metavar="JOB",
                            help="Re-queue the unfinished chunks of job JOB, then wait.")
        parser.add_argument("--cancel", type=int, metavar="JOB",
                            help="Cancel job JOB (finished chunks are kept).")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["cancel"] is not None:
            job = self._call(lambda: simulation.cancel_job(job=self._job(options["cancel"])))
            self.stdout.write(f"Cancelled simulation {job.pk}: {job.done_matches:,} of "
                              f"{job.planned:,} matches kept.")
            return
        self._last = -1
        self._announced: set[int] = set()
        self._made: int | None = options["resume"]
        simulation.chunk_written.connect(self._on_chunk, dispatch_uid="simulate-command")
        post_save.connect(self._on_save, sender=SimulationJob, dispatch_uid="simulate-command")
        try:
            if options["follow"] is not None:
                job = self._job(options["follow"])
            elif options["resume"] is not None:
                job = self._resume(options["resume"])
            else:
                job = self._create(options)
            if options["no_wait"]:
                self.stdout.write(f"Simulation {job.pk} queued: follow it with "
                                  f"`manage.py simulate --follow {job.pk}` or on the dashboard.")
                return
            job = self._wait(job)
        except KeyboardInterrupt:  # without a broker, while the chunks play in this process
            if self._made is None:
                raise CommandError("Interrupted before the job was made.", returncode=130
                                   ) from None
            raise CommandError(f"Simulation {self._made} stopped: `manage.py simulate --resume "
                               f"{self._made}` plays the rest, `--cancel {self._made}` ends "
                               "it.", returncode=130) from None
        finally:
            simulation.chunk_written.disconnect(dispatch_uid="simulate-command")
            post_save.disconnect(sender=SimulationJob, dispatch_uid="simulate-command")
        self._report(job)
        if job.status == SimulationJob.Status.FAILED:  # a script must not take it for done
            raise CommandError(f"[job_failed] Simulation {job.pk} failed: {job.error}")

    # -- steps ------------------------------------------------------------------------
    def _create(self, options: dict[str, Any]) -> SimulationJob:
        if not options["game"]:
            raise CommandError("[unknown_game] Name a game (or --follow, --resume or --cancel "
                               "JOB).")
        if options["matches"] is None:
            raise CommandError("[bad_matches] --matches N is required.")
        try:
            game_options = json.loads(options["options"])
        except ValueError as exc:
            raise CommandError(f"[bad_option] --options is not valid JSON: {exc}.") from None
        if not isinstance(game_options, dict):
            raise CommandError('[bad_option] --options is a JSON object, like {"best_of": 3}.')
        bots = self._call(lambda: simulation.typed_bots(options["bots"] or ""))
        if not bots:
            raise CommandError("[bad_seat_count] --bots A,B,... names one bot per seat.")
        job = self._call(lambda: simulation.create_job(
            game=options["game"], bots=bots, matches=options["matches"], options=game_options,
            balance=options["balance"], logs=options["logs"], chunk=options["chunk"],
            seed=options["seed"]))
        self._announce(job)
        return job

    def _resume(self, pk: int) -> SimulationJob:
        job = self._job(pk)
        queued = self._call(lambda: simulation.resume_job(job=job))
        self.stderr.write(f"Simulation {pk}: {queued} chunk{'s' * (queued != 1)} queued again.")
        return job

    def _wait(self, job: SimulationJob) -> SimulationJob:
        """Poll the job (the workers write it) until it finishes; Ctrl-C leaves it running."""
        quiet_since = time.monotonic()
        try:
            while True:
                job.refresh_from_db()
                if job.done_matches != self._last:
                    quiet_since = time.monotonic()
                    self._draw(job)
                if job.finished:
                    break
                if time.monotonic() - quiet_since > QUIET_WARNING_SECONDS:
                    self.stderr.write(f"\nNo progress for {QUIET_WARNING_SECONDS} s: is a "
                                      "worker running? (Ctrl-C leaves the job queued.)")
                    quiet_since = time.monotonic()
                time.sleep(POLL_SECONDS)
        except KeyboardInterrupt:
            raise CommandError(f"Simulation {job.pk} goes on: `manage.py simulate --follow "
                               f"{job.pk}` follows it again, `--cancel {job.pk}` stops it.",
                               returncode=130) from None
        self.stderr.write("")
        return job

    def _on_save(self, sender: Any, instance: SimulationJob, created: bool, **kwargs: Any
                 ) -> None:
        if created:
            self._made = instance.pk

    def _on_chunk(self, sender: Any, job: SimulationJob, **kwargs: Any) -> None:
        self._draw(job)

    def _announce(self, job: SimulationJob) -> None:
        if job.pk in self._announced:
            return
        self._announced.add(job.pk)
        self.stderr.write(f"Simulation {job.pk}: {counted(job.planned, 'match', 'matches')} of "
                          f"{job.game} ({', '.join(job.bots)}) in "
                          f"{counted(job.chunk_count, 'chunk', 'chunks')}, seed {job.seed}.")

    def _draw(self, job: SimulationJob) -> None:
        self._announce(job)
        self._last = job.done_matches
        rate = simulation.progress(job)["matches_per_second"]
        self.stderr.write("\r" + progress_bar(job.done_matches, job.planned, rate), ending="")
        self.stderr.flush()

    def _report(self, job: SimulationJob) -> None:
        summary = job.summary
        out = self.stdout.write
        out(f"Simulation {job.pk} {job.status}: {summary['matches']:,} of "
            f"{summary['planned']:,} matches of {job.game}"
            f"{' (balance)' if job.balance else ''}, seed {job.seed}.")
        if job.error:
            out(f"Error: {job.error}")
        out(f"{'seat':<5}{'bot':<16}{'games':>7}{'wins':>7}{'draws':>7}{'points':>10}"
            f"{'rate':>8}  95% interval")
        for row in summary["by_seat"]:
            out(f"{row['seat'] + 1:<5}{row['bot']:<16}{row['games']:>7}{row['wins']:>7}"
                f"{row['draws']:>7}{row['points']:>10g}{row['rate']:>8.1%}  "
                f"{row['low']:.1%}-{row['high']:.1%}")
        if summary["by_entity"]:
            out(f"{summary['by_entity'][0]['kind']:<34}{'games':>7}{'points':>10}{'rate':>8}"
                "  95% interval")
            for row in sorted(summary["by_entity"], key=lambda r: -r["rate"]):
                out(f"{row['name'][:33]:<34}{row['games']:>7}{row['points']:>10g}"
                    f"{row['rate']:>8.1%}  {row['low']:.1%}-{row['high']:.1%}")
        first, length = summary["first_player"], summary["length"]
        if not summary["matches"]:
            out("No match finished: no first player or length to tell.")
        elif first.get("games") == 0:
            out("No first player: every seat makes the opening decision at once.")
        else:
            out(f"First player: {first['rate']:.1%} ({first['low']:.1%}-{first['high']:.1%}), "
                f"fair {first['fair']:.1%}.")
        if summary["matches"]:
            out(f"Length: mean {length['mean']} events, {length['min']}-{length['max']}.")
        out(f"CPU: {summary['seconds']:.1f} s, {summary['matches_per_second']} matches/s "
            "per core.")
        if job.logs:
            out(f"Logs: GET /api/simulations/{job.pk}/logs/ (JSON lines).")

    # -- helpers ----------------------------------------------------------------------
    def _job(self, pk: int) -> SimulationJob:
        job = SimulationJob.objects.filter(pk=pk).first()
        if job is None:
            raise CommandError(f"[not_found] No simulation {pk}.")
        return job

    def _call(self, call: Any) -> Any:
        try:
            return call()
        except LeagueError as exc:
            raise CommandError(f"[{exc.code}] {exc.detail}") from None
