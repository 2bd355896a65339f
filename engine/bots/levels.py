"""The two search levels of a game: budgets, playout depth and leaf value.

A game declares its levels with `levels(...)` in its own bots module and hands them to
`engine.registry.register_game(..., search=...)`; a game that declares none gets
`DEFAULT` (whole playouts, no leaf value). Budgets are iteration counts (deterministic
for a seed), sized with the ladder (`benchmarks/ladder.py`) so that `search-hard` stays
under about 200 ms a decision on a 2-core development machine and `search-easy` takes
about a third of that. Both use the game's heuristic as policy. In a live match the
match service also gives the search a clock and `BOT_SEARCH_MS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.bots import Bot
from engine.bots.ismcts import LeafValue, SearchBot
from engine.bots.leaves import Standing, leaf

EASY, HARD = "search-easy", "search-hard"


@dataclass(frozen=True)
class Level:
    """One search level: playouts per decision, where they stop and how they are valued."""

    iterations: int
    depth: int | Callable[[Any], int] | None = None
    leaf: LeafValue | None = None
    width: int = 8
    scale: Callable[[Any], float] | None = None

    def bot(self, name: str, policy: Callable[[], Bot],
            kind: type[SearchBot] = SearchBot) -> SearchBot:
        """A fresh search bot at this level (`kind`: a variant of the search, for study)."""
        return kind(name, iterations=self.iterations, policy=policy, depth=self.depth,
                    leaf=self.leaf, width=self.width, scale=self.scale)


def levels(easy: int, hard: int, *, depth: int | Callable[[Any], int] | None = None,
           standing: Standing | None = None, spread: float = 1.0,
           width: int = 8, scale: Callable[[Any], float] | None = None
           ) -> dict[str, Level]:
    """Both levels of a game: the same playouts, hard with the bigger budget. With a
    `standing`, playouts stop `depth` decisions out of the tree (a number, or a function
    of the decision's state) and are valued by it; with a `scale`, each decision's budget
    is multiplied by `scale(state)` (a game whose playouts grow with the seats at the
    table keeps its time per decision that way)."""
    value = None if standing is None else leaf(standing, spread)
    return {EASY: Level(easy, depth, value, width, scale),
            HARD: Level(hard, depth, value, width, scale)}


DEFAULT = levels(10, 30)


def search_bots(policy: Callable[[], Bot],
                chosen: dict[str, Level] | None = None) -> dict[str, Callable[[], Bot]]:
    """Registry factories of `search-easy` and `search-hard` (DEFAULT when none chosen)."""
    return {name: _factory(name, level, policy)
            for name, level in (chosen or DEFAULT).items()}


def _factory(name: str, level: Level, policy: Callable[[], Bot]) -> Callable[[], Bot]:
    def build() -> Bot:
        return level.bot(name, policy)

    return build


__all__ = ["DEFAULT", "EASY", "HARD", "Level", "levels", "search_bots"]
