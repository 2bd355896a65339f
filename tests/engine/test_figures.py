"""Every game declares the figures its results report (`GameSpec.figures`), and only those.

The league's `figure:NAME` and `diff:NAME` tiebreaks are checked against the declared
names, so a figure a result reports and the spec leaves out could never break a tie, and a
declared one no result reports would be a column of zeros.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import registry
from engine.bots import RandomBot
from engine.playout import play_match
from engine.protocol import JSON, BaseRules
from tests.matches.toygame import TOY_RULES

# (game, seats, options): every mode whose results report figures of their own.
TABLES: list[tuple[str, int, JSON]] = [
    ("super_showdown", 2, {}),
    ("super_showdown", 2, {"best_of": 3}),
    ("ultimate_showdown", 3, {}),
    ("royal_rumble", 3, {}),
    ("supershow", 2, {}),
    ("supershow", 3, {"match_type": "tag_team"}),
    ("superstar_showdown", 2, {}),
    ("superstar_showdown", 2, {"event": {"matches": [
        {"match": "head_to_head", "stipulation": None}] * 2, "superstars_per_team": 1}}),
]


def reported(rules: BaseRules[Any], seats: int, options: JSON, seed: int) -> set[str]:
    """The figure names a seeded playout's result reports, for any seat."""
    state, _ = play_match(rules, [RandomBot() for _ in range(seats)], random.Random(seed),
                          rules.spec.resolve_options(options))
    result = rules.result(state)
    assert result is not None
    return {name for figures in result.figures.values() for name in figures}


@pytest.mark.parametrize(("game", "seats", "options"), TABLES)
def test_a_playout_reports_declared_figures_alone(game: str, seats: int,
                                                   options: JSON) -> None:
    rules = registry.get_rules(game)
    names = reported(rules, seats, options, seed=7)
    assert names, f"{game} reported no figures"
    assert names <= set(rules.spec.figures), names - set(rules.spec.figures)


@pytest.mark.parametrize("game", sorted(registry.games()))
def test_every_declared_figure_is_reported_by_some_playout(game: str) -> None:
    rules = registry.get_rules(game)
    names = set().union(*(reported(rules, seats, options, seed=11)
                          for key, seats, options in TABLES if key == game))
    assert names == set(rules.spec.figures)
    assert len(rules.spec.figures) == len(set(rules.spec.figures))


def test_the_toy_game_declares_the_points_its_results_report() -> None:
    assert reported(TOY_RULES, 2, {}, seed=3) == set(TOY_RULES.spec.figures) == {"points"}
