"""Bot-strength ladder: each level against the one below it, for every game.

`.venv/bin/python -m benchmarks ladder [MATCHES]` or
`.venv/bin/python -m benchmarks.ladder [MATCHES] [GAME ...]`.

The levels are random < heuristic < search-easy < search-hard (`engine.registry`). Every
pairing plays MATCHES seeded matches (default 60) per table: match i uses
`random.Random(i)` for the chance draws and every bot, and the upper level sits in seat
i % n, so seats rotate; at a multi-seat table one upper bot meets n - 1 lower ones.
A match is worth 1 to its sole winner; shared first places split the point, and a draw
with no winner splits it between every seat (a two-seat draw is half a win). Printed:
the upper level's points share with a 95% Wilson interval, and each level's mean and
slowest decision (decisions with a choice only; a single legal action costs nothing).

Goals: search-hard takes at least 65% against the heuristic at two seats and more than
the fair share 1/n at more, within 200 ms a decision.

The search bots play as in a live match: their iteration budgets, and a time budget of
`BENCH_LADDER_CAP_MS` (default 200, the default `BOT_SEARCH_MS`) on this machine's
clock, so a decision stops early when the machine is slower than the budgets assume.
`BENCH_LADDER_CAP_MS=0` plays on iteration budgets alone: reproducible to the match.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from benchmarks import workers
from engine import registry
from engine.bots import Bot
from engine.bots.ismcts import SearchBot
from engine.protocol import Event, PendingKind, Result
from league.intervals import wilson

MATCHES = 60
LEVELS = ("random", "heuristic", "search-easy", "search-hard")
PAIRINGS = (("heuristic", "random"), ("search-easy", "heuristic"),
            ("search-hard", "search-easy"), ("search-hard", "heuristic"))
TABLES: dict[str, tuple[int, ...]] = {  # seat counts played per game
    "super_showdown": (2,),
    "superstar_showdown": (2,),
    "supershow": (2,),
    "royal_rumble": (2, 4),
    "ultimate_showdown": (4,),
}
GOAL_TWO_SEATS = 0.65
BUDGET_SECONDS = 0.2
CAP_MS = round(BUDGET_SECONDS * 1000)  # the search's default cap is the time goal itself


@dataclass
class Clock:
    """Decision times of one level: how many, their sum, the slowest (seconds) and how
    many took longer than the time goal."""

    count: int = 0
    total: float = 0.0
    slowest: float = 0.0
    over: int = 0

    def add(self, seconds: float) -> None:
        self.count += 1
        self.total += seconds
        self.slowest = max(self.slowest, seconds)
        self.over += seconds > BUDGET_SECONDS

    def merge(self, other: Clock) -> None:
        self.count += other.count
        self.total += other.total
        self.slowest = max(self.slowest, other.slowest)
        self.over += other.over

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0


@dataclass
class Tally:
    """One pairing at one table: the upper level's points and both levels' clocks."""

    matches: int = 0
    points: float = 0.0
    wins: int = 0
    losses: int = 0
    clocks: dict[str, Clock] = field(default_factory=lambda: defaultdict(Clock))


@dataclass(frozen=True)
class Job:
    game: str
    seats: int
    upper: str
    lower: str
    seed: int
    cap: float | None = None  # seconds a search may take (None: its iterations alone)


def play(job: Job) -> tuple[Job, float, int, dict[str, Clock]]:
    """One seeded match: the upper seat's points and outcome (`scored`), and the clocks."""
    rules = registry.get_rules(job.game)
    me = job.seed % job.seats
    bots: list[Bot] = [registry.get_bot(job.game, job.lower) for _ in range(job.seats)]
    bots[me] = registry.get_bot(job.game, job.upper)
    for bot in bots:
        if job.cap is not None and isinstance(bot, SearchBot):
            bot.within(job.cap, time.perf_counter)
    rng = random.Random(job.seed)
    clocks: dict[str, Clock] = defaultdict(Clock)
    state = rules.start({}, job.seats)
    while True:
        pending = rules.pending(state)
        if pending.kind is PendingKind.END:
            break
        if pending.kind is PendingKind.CHANCE:
            state = rules.apply(state, Event.chance(rules.sample_chance(state, rng)))
            continue
        seat = pending.seats[0]
        choice = len(rules.legal_actions(state, seat)) > 1
        began = time.perf_counter()
        action = bots[seat].choose(rules, state, seat, rng)
        if choice:
            clocks[bots[seat].name].add(time.perf_counter() - began)
        state = rules.apply(state, Event.decision(seat, action))
    assert pending.result is not None
    points, outcome = scored(pending.result, me, job.seats)
    return job, points, outcome, dict(clocks)


def scored(result: Result, me: int, seats: int) -> tuple[float, int]:
    """Seat `me`'s points (a sole win 1, a shared first place its share, a draw with no
    winner 1/seats) and 1/0/-1 for a sole win, a shared first place or draw, a loss."""
    if me in result.winners:
        points = 1 / len(result.winners)
    else:
        points = 1 / seats if not result.winners and result.draw else 0.0
    if result.winners == (me,):
        return points, 1
    return points, 0 if me in result.winners or not result.winners else -1


def jobs(matches: int, games: Iterable[str], cap: float | None = None) -> list[Job]:
    """Every match of the ladder, the slowest pairings first (they set the wall time)."""
    out = [Job(game, seats, upper, lower, seed, cap)
           for game in games for seats in TABLES[game]
           for upper, lower in reversed(PAIRINGS) for seed in range(matches)]
    return out


def run(matches: int, games: Sequence[str], workers: int,
        cap: float | None = None) -> dict[tuple[str, int, str, str], Tally]:
    """Play the ladder on `workers` processes; a tally per (game, seats, upper, lower)."""
    tallies: dict[tuple[str, int, str, str], Tally] = defaultdict(Tally)
    todo = jobs(matches, games, cap)
    began, step = time.perf_counter(), max(1, len(todo) // 20)
    with ProcessPoolExecutor(workers) as pool:
        for done, (job, points, outcome, clocks) in enumerate(
                pool.map(play, todo, chunksize=1), start=1):
            if done % step == 0 or done == len(todo):  # a long run shows it is moving
                print(f"  {done}/{len(todo)} matches, {time.perf_counter() - began:.0f} s",
                      file=sys.stderr, flush=True)
            tally = tallies[(job.game, job.seats, job.upper, job.lower)]
            tally.matches += 1
            tally.points += points
            tally.wins += outcome == 1
            tally.losses += outcome == -1 and job.seats == 2
            for name, clock in clocks.items():
                tally.clocks[name].merge(clock)
    return tallies


def report(tallies: dict[tuple[str, int, str, str], Tally], games: Sequence[str]) -> bool:
    """Print the ladder; whether every goal was met."""
    met = True
    for game in games:
        for seats in TABLES[game]:
            print(f"{game}, {seats} seats (fair share {1 / seats:.0%})")
            clocks: dict[str, Clock] = defaultdict(Clock)
            for upper, lower in PAIRINGS:
                t = tallies[(game, seats, upper, lower)]
                low, high = wilson(t.points, t.matches)
                rate = t.points / t.matches if t.matches else 0.0
                line = (f"  {upper:>11} vs {lower:<11} {rate:6.1%}  [{low:5.1%}, {high:5.1%}]"
                        f"  of {t.matches}")
                if seats == 2:
                    line += (f"  ({t.wins} won, {t.matches - t.wins - t.losses} shared or drawn,"
                                 f" {t.losses} lost)")
                else:
                    line += f"  ({t.wins} sole wins)"
                if (upper, lower) == ("search-hard", "heuristic"):
                    goal = GOAL_TWO_SEATS if seats == 2 else 1 / seats
                    ok = rate >= goal if seats == 2 else rate > goal
                    met &= ok
                    line += f"  goal {'>=' if seats == 2 else '>'} {goal:.0%}: "
                    line += "met" if ok else "NOT MET"
                print(line)
                for name, clock in t.clocks.items():
                    clocks[name].merge(clock)
            for level in LEVELS:
                c = clocks[level]
                flag = "" if not c.over or level in LEVELS[:2] else (
                    f"  ({c.over} over {CAP_MS} ms)")
                print(f"  {level:>11}: {c.mean * 1000:7.1f} ms mean, {c.slowest * 1000:7.1f} ms "
                      f"slowest over {c.count} decisions{flag}")
    return met


def main(argv: list[str] | None = None) -> int:
    """Run and print the ladder; exit 1 when a goal is not met."""
    args = sys.argv[1:] if argv is None else argv
    matches = int(args[0]) if args and args[0].isdigit() else MATCHES
    games = [a for a in args if not a.isdigit()] or list(TABLES)
    unknown = [g for g in games if g not in TABLES]
    if unknown:
        raise SystemExit(f"unknown game(s) {unknown}; choose from {list(TABLES)}")
    cap_ms = int(os.environ.get("BENCH_LADDER_CAP_MS", CAP_MS))
    began = time.perf_counter()
    processes = workers()
    tallies = run(matches, games, processes, cap_ms / 1000 if cap_ms > 0 else None)
    budget = f"search capped at {cap_ms} ms a decision" if cap_ms > 0 else (
        "iteration budgets only")
    print(f"Ladder: {matches} matches a pairing and table, {processes} worker(s), {budget}, "
          f"{time.perf_counter() - began:.0f} s")
    return 0 if report(tallies, games) else 1


if __name__ == "__main__":
    raise SystemExit(main())
