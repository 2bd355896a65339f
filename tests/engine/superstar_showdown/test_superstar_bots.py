"""The bots: legal, deterministic, and the heuristic beats random (speed: benchmarks)."""

from __future__ import annotations

import random

from engine.bots import RandomBot
from engine.games.superstar_showdown import RULES, HeuristicBot
from engine.games.superstar_showdown.cards import ROSTER
from engine.playout import play_match
from engine.registry import _BOTS


def play(seed: int, bots, stars) -> int | None:
    """One seeded game; the winning seat, or None for a draw."""
    state, _ = play_match(RULES, bots, random.Random(seed), {"superstars": list(stars)})
    winners = RULES.result(state).winners
    return winners[0] if winners else None


def test_the_heuristic_beats_random_in_at_least_75_percent() -> None:
    keys = sorted(ROSTER)
    wins = 0.0
    for seed in range(40):
        stars = (keys[seed % 6], keys[(seed // 6) % 6])
        seat = seed % 2
        bots = (HeuristicBot(), RandomBot()) if seat == 0 else (RandomBot(), HeuristicBot())
        winner = play(seed, bots, stars)
        wins += 1.0 if winner == seat else 0.5 if winner is None else 0.0
    assert wins / 40 >= 0.75


def test_the_heuristic_is_deterministic_given_the_rng() -> None:
    stars = ("oakhart", "skylark")
    runs = [play_match(RULES, (HeuristicBot(), HeuristicBot()), random.Random(7),
                       {"superstars": list(stars)})[1] for _ in range(2)]
    assert runs[0] == runs[1]


def test_both_bots_are_registered() -> None:
    assert set(_BOTS["superstar_showdown"]) == {"random", "heuristic", "search-easy",
                                                "search-hard"}
