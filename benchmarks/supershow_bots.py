"""The Supershow: the heuristic bot against the random bot over seeded one-on-one games.

Run from the project root: `.venv/bin/python -m benchmarks.supershow_bots [GAMES]`.
Seats alternate game by game and Competitors rotate; game i uses `random.Random(i)` for
the shuffles, the dice and both bots. The target is a win rate of at least 75%.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter

from engine.bots import Bot, RandomBot
from engine.games.supershow import RULES, HeuristicBot
from engine.games.supershow.cards import CATALOG
from engine.games.supershow.state import State
from engine.protocol import Event, PendingKind

GAMES = 400
TARGET = 0.75


def play_one(seed: int, bots: list[Bot], comps: tuple[str, str]) -> tuple[State, float]:
    """One match; returns the final state and the slowest decision in seconds."""
    rng = random.Random(seed)
    state = RULES.start({"competitors": list(comps)}, 2)
    slowest = 0.0
    while True:
        pending = RULES.pending(state)
        if pending.kind is PendingKind.END:
            return state, slowest
        if pending.kind is PendingKind.CHANCE:
            event = Event.chance(RULES.sample_chance(state, rng))
        else:
            seat = pending.seats[0]
            began = time.perf_counter()
            action = bots[seat].choose(RULES, state, seat, rng)
            slowest = max(slowest, time.perf_counter() - began)
            event = Event.decision(seat, action)
        state = RULES.apply(state, event)


def play(games: int) -> tuple[Counter[str], float]:
    """Outcomes from the heuristic's side, and the slowest decision seen."""
    keys = sorted(CATALOG.competitors)
    tally: Counter[str] = Counter()
    slowest = 0.0
    for seed in range(games):
        me = seed % 2
        bots: list[Bot] = [RandomBot(), RandomBot()]
        bots[me] = HeuristicBot()
        comps = (keys[seed % len(keys)], keys[(seed // len(keys)) % len(keys)])
        state, slow = play_one(seed, bots, comps)
        slowest = max(slowest, slow)
        result = RULES.result(state)
        assert result is not None
        outcome = "draw" if result.draw else ("win" if result.winners == (me,) else "loss")
        tally[outcome] += 1
        tally[f"{outcome}:{result.summary.rsplit('(', 1)[-1].rstrip(')')}"] += 1
    return tally, slowest


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the heuristic's win rate; exit 1 below the target."""
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else GAMES
    tally, slowest = play(games)
    rate = tally["win"] / games
    print(f"supershow: heuristic vs random, {games} one-on-one games, seats alternated")
    print(f"  wins {tally['win']}  losses {tally['loss']}  draws {tally['draw']}")
    print("  by ending: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items()) if ":" in k))
    print(f"  slowest decision {slowest * 1000:.1f} ms")
    print(f"  win rate {rate:.1%} (target {TARGET:.0%}): {'ok' if rate >= TARGET else 'BELOW'}")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
