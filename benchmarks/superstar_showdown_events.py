"""Superstar Showdown Events: how the bots play whole Events, and how fast.

`.venv/bin/python -m benchmarks.superstar_showdown_events [events_per_preset]`

For each preset (default 60 Events each): the heuristic team against a random team
(seats swapped half the time; the bot's bar is 80%), then heuristic against heuristic
(how often the coin-flip winner, Red or Blue, takes the Event: near 50% is fair), the
engine events an Event takes and Events per second on one core.
"""

from __future__ import annotations

import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.bots import RandomBot
from engine.games.superstar_showdown import RULES, HeuristicBot
from engine.games.superstar_showdown.event import PRESETS
from engine.playout import play_match

BAR = 0.80


def _batch(job: tuple[str, int, int, str]) -> tuple[float, float, int, float]:
    """(points of the watched side, Red points, engine events, seconds) over a batch."""
    preset, start, games, kind = job
    mine = red = 0.0
    events = 0
    began = time.perf_counter()
    for seed in range(start, start + games):
        seat = seed % 2
        bots: list[Any]
        if kind == "random":
            bots = [HeuristicBot(), RandomBot()] if seat == 0 else [RandomBot(), HeuristicBot()]
        else:
            bots = [HeuristicBot(), HeuristicBot()]
        state, log = play_match(RULES, bots, random.Random(seed), {"event": preset})
        result = RULES.result(state)
        assert result is not None
        events += len(log)
        won = result.winners[0] if result.winners else None
        mine += 1.0 if won == seat else 0.5 if won is None else 0.0
        red += 1.0 if won == 0 else 0.5 if won is None else 0.0
    return mine, red, events, time.perf_counter() - began


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 60
    workers = max(1, min(4, os.cpu_count() or 1))
    print(f"{games} Events per preset and pairing, {workers} worker(s)")
    print(f"{'preset':<20} {'vs random':>10} {'red (h-h)':>10} {'events/Event':>13} "
          f"{'Events/s/core':>14}")
    for preset in sorted(PRESETS):
        chunk = max(1, games // workers)
        results = {}
        for kind in ("random", "heuristic"):
            jobs = [(preset, 10_000 * (kind == "heuristic") + k, min(chunk, games - k), kind)
                    for k in range(0, games, chunk)]
            with ProcessPoolExecutor(workers) as pool:
                parts = list(pool.map(_batch, jobs))
            results[kind] = [sum(p[i] for p in parts) for i in range(4)]
        mine = results["random"][0] / games
        red = results["heuristic"][1] / games
        events = (results["random"][2] + results["heuristic"][2]) / (2 * games)
        rate = 2 * games / (results["random"][3] + results["heuristic"][3])
        flag = "" if mine >= BAR else "  (below the bar)"
        print(f"{preset:<20} {mine:>9.1%} {red:>10.1%} {events:>13.0f} {rate:>14.1f}{flag}")


if __name__ == "__main__":
    main(sys.argv[1:])
