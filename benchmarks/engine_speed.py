"""Engine speed: random playouts per second per core, and replay against JSON decoding."""

from __future__ import annotations

import json
import os
import random
import time
from typing import Any

from engine import registry
from engine.bots import RandomBot
from engine.playout import play_match
from engine.protocol import BaseRules, Event


def playout(rules: BaseRules[Any], n_seats: int, seed: int) -> list[Event]:
    """One seeded game of random legal moves; returns its event log."""
    return play_match(rules, [RandomBot() for _ in range(n_seats)], random.Random(seed))[1]


def games_to_bench() -> list[tuple[str, BaseRules[Any], int]]:
    return [(key, rules, rules.spec.min_seats) for key, rules in sorted(registry.games().items())]


def playouts(seconds: float = float(os.environ.get("BENCH_SECONDS", "5"))) -> None:
    """Random playouts per second on one core, per game."""
    for key, rules, seats in games_to_bench():
        count = events = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            events += len(playout(rules, seats, count))
            count += 1
        elapsed = time.perf_counter() - start
        print(f"{key}: {count / elapsed:,.0f} random playouts/s per core "
              f"({events / count:.0f} events a game, {events / elapsed:,.0f} events/s)")


def replay(games: int = int(os.environ.get("BENCH_REPLAY_GAMES", "300"))) -> None:
    """Replay speed in events per second, and its ratio to decoding the same logs' JSON."""
    for key, rules, seats in games_to_bench():
        logs = [json.dumps([e.to_json() for e in playout(rules, seats, seed)])
                for seed in range(games)]
        n_events = sum(len(json.loads(text)) for text in logs)

        start = time.perf_counter()
        for text in logs:
            json.loads(text)
        decode = time.perf_counter() - start

        start = time.perf_counter()
        for text in logs:
            rules.replay({}, seats, (Event.from_json(e) for e in json.loads(text)))
        full = time.perf_counter() - start

        print(f"{key}: replay {n_events / full:,.0f} events/s; JSON decode alone "
              f"{n_events / decode:,.0f} events/s; replay costs {full / decode:,.1f}x decoding")
