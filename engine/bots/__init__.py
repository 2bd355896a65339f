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


class Ranking(Protocol):
    """A bot that can also rank: the legal actions it rates highest, best first.

    A search asks it for the challengers of its own choice where the actions are too many
    to try them all (Superstar Showdown's Play step: every ordered trio of the hand); it
    reads what `choose` may read. An empty list: no ranking here, the search draws its
    challengers at random."""

    def shortlist(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random,
                  k: int) -> list[JSON]: ...


class RandomBot:
    """Uniformly random legal action."""

    name = "random"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        """Pick any legal action."""
        return rng.choice(rules.legal_actions(state, seat))
