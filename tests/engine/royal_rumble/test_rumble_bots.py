"""Bots: legal, fast, deterministic, and the heuristic beats random bots (a small sample
here; `benchmarks/royal_rumble_bots.py` runs the full measure)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from engine import registry
from engine.bots import RandomBot
from engine.games.royal_rumble import RULES, HeuristicBot
from engine.protocol import Event

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.royal_rumble_bots import play_game, win_rate


def test_the_game_offers_random_and_heuristic_bots() -> None:
    assert {"random", "heuristic"} <= set(registry._BOTS["royal_rumble"])
    assert isinstance(registry._BOTS["royal_rumble"]["heuristic"](), HeuristicBot)


def test_the_heuristic_is_legal_and_deterministic_at_ten_seats() -> None:
    rng = random.Random(5)
    bots = [HeuristicBot() if i % 2 == 0 else RandomBot() for i in range(10)]
    state = RULES.start({}, 10)
    steps = 0
    while not (pending := RULES.pending(state)).is_over and steps < 400:
        if pending.kind == "chance":
            state = RULES.apply(state, Event.chance(RULES.sample_chance(state, rng)))
            continue
        seat = pending.seats[0]
        action = bots[seat].choose(RULES, state, seat, rng)
        assert action in RULES.legal_actions(state, seat)
        if isinstance(bots[seat], HeuristicBot):
            again = HeuristicBot().choose(RULES, state, seat, random.Random(steps))
            assert again == HeuristicBot().choose(RULES, state, seat, random.Random(steps))
        state = RULES.apply(state, Event.decision(seat, action))
        steps += 1


def test_a_whole_game_of_heuristic_bots_ends() -> None:
    state = play_game([HeuristicBot() for _ in range(6)], random.Random(2))
    assert RULES.pending(state).is_over


def test_the_heuristic_wins_more_than_its_fair_share_against_random_bots() -> None:
    """A small sample (the benchmark's bar is twice the fair share, 1/3, over 300 games)."""
    assert win_rate(36) > 1 / 6
