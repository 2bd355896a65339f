"""Game-independent bots: they use only the protocol."""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine.protocol import JSON, BaseRules


class Bot(Protocol):
    """A bot picks one legal action for a seat.

    It may read only what the seat may see: `rules.view(state, seat)`, or a state from
    `rules.determinize(state, seat, rng)`. It must return an item of
    `rules.legal_actions(state, seat)`.
    """

    name: str

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON: ...


class RandomBot:
    """Uniformly random legal action."""

    name = "random"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        """Pick any legal action."""
        return rng.choice(rules.legal_actions(state, seat))
