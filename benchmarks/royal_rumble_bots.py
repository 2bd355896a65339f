"""Royal Rumble: one heuristic bot against five random bots in 6-player games.

Run from the project root: `.venv/bin/python -m benchmarks.royal_rumble_bots [GAMES]`.
Game i uses `random.Random(i)` for the shuffles and every bot; the heuristic sits in seat
i % 6. A fair share is 1/6; the target is more than twice that (33.3%). A shared first
place at the round limit or no winner counts as no win. It also reports the slowest
decision of each bot at ten seats (budget: 50 ms).
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from engine.bots import Bot, RandomBot
from engine.games.royal_rumble import RULES, HeuristicBot
from engine.protocol import Event

GAMES = 1200
SEATS = 6
TARGET = 2 / SEATS


def play_game(bots: list[Bot], rng: random.Random, clock: dict[str, float] | None = None) -> Any:
    """Play one game to the end; the final state. `clock` collects the slowest decision."""
    state = RULES.start({}, len(bots))
    while not (pending := RULES.pending(state)).is_over:
        if pending.kind == "chance":
            state = RULES.apply(state, Event.chance(RULES.sample_chance(state, rng)))
            continue
        seat = pending.seats[0]
        began = time.perf_counter()
        action = bots[seat].choose(RULES, state, seat, rng)
        if clock is not None:
            name = bots[seat].name
            clock[name] = max(clock.get(name, 0.0), time.perf_counter() - began)
        state = RULES.apply(state, Event.decision(seat, action))
    return state


def win_rate(games: int, seats: int = SEATS) -> float:
    """The heuristic's share of outright wins."""
    wins = 0
    for seed in range(games):
        me = seed % seats
        bots: list[Bot] = [RandomBot() for _ in range(seats)]
        bots[me] = HeuristicBot()
        result = RULES.result(play_game(bots, random.Random(seed)))
        assert result is not None
        wins += result.winners == (me,)
    return wins / games


def slowest(games: int = 3) -> dict[str, float]:
    """The slowest decision of each bot in ten-seat games (seconds)."""
    clock: dict[str, float] = {}
    for seed in range(games):
        bots: list[Bot] = [HeuristicBot() if i % 2 else RandomBot() for i in range(10)]
        play_game(bots, random.Random(seed), clock)
    return clock


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the win rate; exit 1 at or below the target."""
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else GAMES
    rate = win_rate(games)
    print(f"royal_rumble: 1 heuristic vs {SEATS - 1} random, {games} games, seats rotated")
    print(f"  win rate {rate:.1%} (fair share {1 / SEATS:.1%}, target > {TARGET:.1%}): "
          f"{'ok' if rate > TARGET else 'BELOW'}")
    for name, seconds in sorted(slowest().items()):
        print(f"  slowest {name} decision at 10 seats: {seconds * 1000:.1f} ms")
    return 0 if rate > TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
