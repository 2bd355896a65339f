"""Superstar Showdown balance: heuristic-vs-heuristic win rates of every Superstar.

`.venv/bin/python -m benchmarks.superstar_showdown_balance [games_per_superstar]`

Every pair of Superstars meets equally often, seats swapped half the time; each
Superstar plays `games_per_superstar` games (default 2,000) against the field. A draw
counts half. Then heuristic against random over 400 games (the bot's bar is 80%).
The target: no Superstar above 58%.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from benchmarks import workers
from engine.bots import RandomBot
from engine.games.superstar_showdown import RULES, HeuristicBot
from engine.games.superstar_showdown.cards import ROSTER
from engine.playout import play_match

TARGET = 0.58


def play(seed: int, stars: tuple[str, str], bots: tuple[Any, Any]) -> tuple[int | None, int]:
    """One seeded game; returns (winning seat or None for a draw, events)."""
    state, log = play_match(RULES, bots, random.Random(seed), {"superstars": list(stars)})
    result = RULES.result(state)
    assert result is not None
    return (result.winners[0] if result.winners else None), len(log)


def _pair_batch(job: tuple[str, str, int, int]) -> tuple[str, str, float, float, int]:
    """Games between two Superstars; returns each one's points and the events played."""
    a, b, games, base = job
    points = {a: 0.0, b: 0.0}
    events = 0
    for i in range(games):
        stars = (a, b) if i % 2 == 0 else (b, a)
        winner, n = play(base + i, stars, (HeuristicBot(), HeuristicBot()))
        events += n
        if winner is None:
            points[a] += 0.5
            points[b] += 0.5
        else:
            points[stars[winner]] += 1.0
    return a, b, points[a], points[b], events


def _versus_random(job: tuple[int, int]) -> float:
    start, games = job
    keys = sorted(ROSTER)
    points = 0.0
    for seed in range(start, start + games):
        rng = random.Random(seed)
        stars = (rng.choice(keys), rng.choice(keys))
        seat = seed % 2
        bots = (HeuristicBot(), RandomBot()) if seat == 0 else (RandomBot(), HeuristicBot())
        winner, _ = play(seed, stars, bots)
        points += 1.0 if winner == seat else 0.5 if winner is None else 0.0
    return points


def balance(per_star: int, workers: int) -> dict[str, float]:
    """Each Superstar's win rate over `per_star` games against the field."""
    keys = sorted(ROSTER)
    pairs = list(itertools.combinations(keys, 2))
    per_pair = max(2, per_star // (len(keys) - 1))
    chunk = max(2, per_pair // workers)
    jobs = [(a, b, min(chunk, per_pair - k), 1_000_000 * n + k)
            for n, (a, b) in enumerate(pairs) for k in range(0, per_pair, chunk)]
    points: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
    with ProcessPoolExecutor(workers) as pool:
        for (a, b, pa, pb, _events), job in zip(pool.map(_pair_batch, jobs), jobs, strict=True):
            points[a] += pa
            points[b] += pb
            games[a] += job[2]
            games[b] += job[2]
    return {k: points[k] / games[k] for k in keys}


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    per_star = int(argv[0]) if argv else 2000
    start = time.perf_counter()
    processes = workers()
    rates = balance(per_star, processes)
    print(f"Superstar Showdown balance: heuristic vs heuristic, {per_star} games each")
    print(f"{'Superstar':<14} {'style':<11} win rate")
    for key, rate in sorted(rates.items(), key=lambda kv: -kv[1]):
        flag = "" if rate <= TARGET else "  <-- above 58%"
        print(f"{key:<14} {ROSTER[key].style:<11} {rate:6.1%}{flag}")
    vs_random_games = 400
    with ProcessPoolExecutor(processes) as pool:
        size = vs_random_games // processes
        won = sum(pool.map(_versus_random, [(i * size, size) for i in range(processes)]))
    rate = won / (size * processes)
    print(f"heuristic vs random: {rate:.1%} of {size * processes} games (bar: 80%)")
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
