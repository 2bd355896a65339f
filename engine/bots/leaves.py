"""Leaf values: what a search playout cut short is worth, read from views only.

The one piece of game knowledge the search takes, and it goes through the protocol:
a game's standing function (in its own package, `engine/games/<key>/bots.py`) reads the
views of the state a playout reached (the spectator's, and where a game hides something
that counts, such as Ultimate Showdown's bets, each seat's own; in a determinized state
those are the sampled worlds' facts, never the real hidden ones) and scores every seat. `leaf` turns the scores into the seat's
expected placement score: its mean chance of finishing ahead of each seat of another side
(`rules.teams_at`; every other seat where each plays alone), a logistic curve of the
score difference. A finished game is never valued here: the
search reads its result.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.bots.ismcts import LeafValue
from engine.protocol import JSON, BaseRules


class Views:
    """The views of one state, built on demand and kept: the spectator's and each seat's."""

    def __init__(self, rules: BaseRules[Any], state: Any) -> None:
        self.rules = rules
        self.state = state
        self._seen: dict[int | None, JSON] = {}

    def of(self, seat: int | None) -> JSON:
        if seat not in self._seen:
            self._seen[seat] = self.rules.view(self.state, seat)
        return self._seen[seat]

    @property
    def public(self) -> JSON:
        return self.of(None)


Standing = Callable[[Views], Mapping[int, float]]


def ahead(scores: Mapping[int, float], seat: int, spread: float,
          teams: Sequence[int] | None = None) -> float:
    """Expected placement score of `seat`: its mean chance to beat each seat of another
    side (with `teams`, its partners are not rivals: the search scores a finished game
    by side, and a partner's equal score would pull every leaf toward a half)."""
    mine = scores.get(seat, 0.0)
    others = [s for i, s in scores.items() if i != seat
              and (teams is None or i >= len(teams) or teams[i] != teams[seat])]
    if not others:
        return 0.5
    return sum(1 / (1 + math.exp((s - mine) / spread)) for s in others) / len(others)


def leaf(standing: Standing, spread: float) -> LeafValue:
    """A search leaf value from a standing function and the logistic curve's spread."""
    def value(rules: BaseRules[Any], state: Any, seat: int) -> float:
        return ahead(standing(Views(rules, state)), seat, spread, rules.teams_at(state))

    value.__name__ = f"{standing.__name__}_leaf"
    return value


__all__ = ["LeafValue", "Standing", "Views", "ahead", "leaf"]
