"""The two search levels of every game: budgets, playout depth and leaf value.

Budgets are iteration counts (deterministic for a seed), sized with the ladder
(`benchmarks/ladder.py`) so that `search-hard` takes about 200 ms a decision on a
2-core development machine and `search-easy` about a third of that. Both use the
game's heuristic as policy. A game without an entry here (a new one) gets the default:
whole playouts, no leaf value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.bots import Bot
from engine.bots import leaves as lv
from engine.bots.ismcts import LeafValue, SearchBot

EASY, HARD = "search-easy", "search-hard"


@dataclass(frozen=True)
class Level:
    """One search level: playouts per decision, where they stop and how they are valued."""

    iterations: int
    depth: int | None = None
    leaf: LeafValue | None = None
    width: int = 8

    def bot(self, name: str, policy: Callable[[], Bot]) -> SearchBot:
        """A fresh search bot at this level."""
        return SearchBot(name, iterations=self.iterations, policy=policy, depth=self.depth,
                         leaf=self.leaf, width=self.width)


def _pair(easy: int, hard: int, depth: int | None = None, leaf: LeafValue | None = None,
          width: int = 8) -> dict[str, Level]:
    """Both levels of a game: the same playouts, hard with the bigger budget."""
    return {EASY: Level(easy, depth, leaf, width), HARD: Level(hard, depth, leaf, width)}


LEVELS: dict[str, dict[str, Level]] = {
    "super_showdown": _pair(16, 48, depth=6, leaf=lv.leaf(lv.super_showdown, 3.0)),
    "superstar_showdown": _pair(12, 36, depth=8, leaf=lv.leaf(lv.superstar_showdown, 3.0),
                                width=6),
    "supershow": _pair(12, 36),
    "royal_rumble": _pair(60, 180, depth=8, leaf=lv.leaf(lv.royal_rumble, 4.0)),
    "ultimate_showdown": _pair(16, 48, depth=6, leaf=lv.leaf(lv.ultimate_showdown, 5.0)),
}
DEFAULT = _pair(10, 30)


def search_bots(game: str, policy: Callable[[], Bot]) -> dict[str, Callable[[], Bot]]:
    """Registry factories of `search-easy` and `search-hard` for one game."""
    return {name: _factory(name, level, policy)
            for name, level in LEVELS.get(game, DEFAULT).items()}


def _factory(name: str, level: Level, policy: Callable[[], Bot]) -> Callable[[], Bot]:
    def build() -> Bot:
        return level.bot(name, policy)

    return build


__all__ = ["DEFAULT", "EASY", "HARD", "LEVELS", "Level", "search_bots"]
