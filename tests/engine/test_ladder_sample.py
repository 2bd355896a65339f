"""A small sample of the bot ladder (benchmarks/ladder.py), so a weaker search fails.

Two samples, through the ladder's own match runner, seats alternated: the registered
`search-easy` of Super Showdown (the shortest game) against `random` over four seeded
matches, and `search-hard` of Superstar Showdown against its `heuristic` over ten. The
Superstar bar, 8 of 10, is one the search of 2026-12-02 morning (36 playouts, Play
challengers drawn at random: 6 of these 10, 60% in the capped ladder) failed and the
present one (72 playouts, challengers from the heuristic's ranking) passes with room
(10 of 10; about 72% over 240 seeded matches: benchmarks/README.md). The budgets are
iteration counts, so the outcome is fixed by the code: no timing is checked here (the
ladder prints the times).
"""

from __future__ import annotations

import pytest

from benchmarks import game_and_counts, workers
from benchmarks.ladder import Clock, Job, play, scored
from engine.protocol import Result

GAME = "super_showdown"


def test_search_easy_wins_most_seeded_matches_against_random() -> None:
    points = 0.0
    for seed in range(4):
        job, won, _outcome, clocks = play(Job(GAME, 2, "search-easy", "random", seed))
        assert job.seed == seed
        assert clocks["search-easy"].count > 0  # the search was asked, not just random
        points += won
    assert points >= 3


def test_search_hard_beats_the_heuristic_in_most_seeded_superstar_matches() -> None:
    points = 0.0
    for seed in range(10):
        _job, won, _outcome, clocks = play(Job("superstar_showdown", 2, "search-hard",
                                               "heuristic", seed))
        assert clocks["search-hard"].count > 0
        points += won
    assert points >= 8


def test_a_capped_ladder_match_plays_the_search_on_a_time_budget_to_the_end() -> None:
    """As in a live match: a search on a (here tiny) time budget still plays one batch a
    decision and the match ends."""
    _job, won, outcome, clocks = play(Job(GAME, 2, "search-hard", "random", 1, cap=1e-6))
    assert clocks["search-hard"].count > 0
    assert 0.0 <= won <= 1.0 and outcome in (-1, 0, 1)


def test_a_shared_first_place_is_shared_not_lost() -> None:
    both = Result(placements=(1, 1), winners=(0, 1), draw=True)
    assert scored(both, 0, 2) == (0.5, 0)
    assert scored(Result(placements=(1, 2), winners=(0,)), 0, 2) == (1.0, 1)
    assert scored(Result(placements=(1, 2), winners=(0,)), 1, 2) == (0.0, -1)
    assert scored(Result(placements=(1, 1, 3), winners=(0, 1)), 2, 3) == (0.0, -1)
    no_winner = Result(placements=(1, 1, 1), winners=(), draw=True)
    assert scored(no_winner, 2, 3) == (1 / 3, 0)


def test_the_clocks_count_the_decisions_past_the_time_goal() -> None:
    first, second = Clock(), Clock()
    for seconds in (0.05, 0.199, 0.2):
        first.add(seconds)
    second.add(0.23)
    first.merge(second)
    assert (first.count, first.over) == (4, 1)
    assert first.slowest == 0.23
    assert first.mean == pytest.approx((0.05 + 0.199 + 0.2 + 0.23) / 4)


def test_a_benchmark_command_line_names_a_game_and_its_counts(monkeypatch) -> None:
    assert game_and_counts(["supershow"], "bench GAME [A] [B]", (4, 100)) == (
        "supershow", [4, 100])
    assert game_and_counts(["supershow", "12", "7"], "bench GAME [A] [B]", (4, 100)) == (
        "supershow", [12, 7])
    with pytest.raises(SystemExit, match=r"usage: bench GAME \[A\] \[B\]; GAME one of"):
        game_and_counts(["chess"], "bench GAME [A] [B]", (4, 100))
    with pytest.raises(SystemExit, match="usage"):
        game_and_counts([], "bench GAME [A] [B]", (4, 100))
    monkeypatch.setenv("BENCH_WORKERS", "3")
    assert workers() == 3
