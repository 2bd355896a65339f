"""Helpers that build exact Ultimate Showdown situations (served as the `ut` fixture)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from engine.games.ultimate_showdown import RULES
from engine.games.ultimate_showdown.rules import UltimateShowdownRules
from engine.games.ultimate_showdown.state import Phase, State, box_counts, pairing
from engine.protocol import JSON, Event

PEOPLE = list(RULES.cards.contender_ids)
CARDS = list(RULES.cards.challenge_ids)


class Table:
    """Builds states and applies events through the real rules."""

    rules: UltimateShowdownRules = RULES
    people = PEOPLE
    cards = CARDS

    def fresh(self, n: int = 4, pow_seat: int | None = 0,
              people: Sequence[str] | None = None) -> State:
        """Set up with both decks in file order (or `people` on top of the Contenders)."""
        order = list(people or []) + [c for c in PEOPLE if c not in (people or [])]
        outcome = {"contenders": order, "challenges": list(CARDS),
                   "pow": pow_seat if n % 2 == 0 else None}
        return self.chance(self.rules.start({}, n), outcome)

    def chance(self, state: State, outcome: JSON) -> State:
        return self.rules.apply(state, Event.chance(outcome))

    def decide(self, state: State, seat: int, action: JSON) -> State:
        return self.rules.apply(state, Event.decision(seat, action))

    def sides(self, state: State, *sides: str) -> State:
        chosen = list(sides) or ["front"] * len(state.drawn)
        return self.decide(state, state.leader, {"type": "choose_sides", "sides": chosen})

    def vote_challenge(self, state: State, spaces: Sequence[str]) -> State:
        for seat, space in enumerate(spaces):
            state = self.decide(state, seat, {"type": "vote_challenge", "space": space})
        return state

    def play_all(self, state: State) -> State:
        """Every seat plays its first legal way (sorted hand: lowest ids into Box A)."""
        for seat in range(state.n):
            state = self.decide(state, seat, self.rules.legal_actions(state, seat)[0])
        return state

    def fill(self, state: State, slots: Sequence[str] | None = None) -> State:
        """Box B kept in sorted order; slots in the given order or Box A then Box B."""
        box_a, box_b = self.rules._box_contents(state)
        order_b = sorted(box_b)
        eight = [*box_a, *order_b[:8 - len(box_a)]]
        return self.chance(state, {"box_b": order_b, "slots": list(slots or eight)})

    def to_bets(self, n: int = 4, **kw: Any) -> State:
        """Round 1 up to the bets: front sides, everyone votes A, first plays, filled."""
        state = self.sides(self.fresh(n, **kw))
        state = self.vote_challenge(state, ["A"] * n)
        return self.fill(self.play_all(state))

    def bet_all(self, state: State, bets: Sequence[tuple[int, int, int]]) -> State:
        for seat, (c, f, s) in enumerate(bets):
            for box, slot in (("champion", c), ("final", f), ("semi", s)):
                state = self.decide(state, seat, {"type": "bet", "box": box, "slot": slot})
        return state

    def vote(self, state: State, ballots: Sequence[int]) -> State:
        for seat, slot in enumerate(ballots):
            state = self.decide(state, seat, {"type": "vote_match", "slot": slot})
        return state

    def bracket(self, state: State, pick: Callable[[int, int], int] = lambda o, b: o) -> State:
        """Decide every remaining match with everybody voting pick(orange, blue)."""
        while state.phase is Phase.MATCH:
            orange, blue = pairing(state.match, state.winners)
            state = self.vote(state, [pick(orange, blue)] * state.n)
        return state

    def default_bets(self, n: int) -> list[tuple[int, int, int]]:
        return [(1, 2, 3)] * n

    def finish_round(self, state: State, bets: Sequence[tuple[int, int, int]] | None = None,
                     pick: Callable[[int, int], int] = lambda o, b: o) -> State:
        """From the bets to the end of the round's matches."""
        state = self.bet_all(state, bets or self.default_bets(state.n))
        return self.bracket(state, pick)

    def discard_none(self, state: State) -> State:
        for seat in range(state.n):
            state = self.decide(state, seat, {"type": "discard", "cards": []})
        return state

    def play_round(self, state: State, pick: Callable[[int, int], int] = lambda o, b: o,
                   bets: Sequence[tuple[int, int, int]] | None = None) -> State:
        """One whole round 1-4 from its start (CHOOSE_SIDES) to the next round's start."""
        state = self.sides(state)
        state = self.vote_challenge(state, ["A"] * state.n)
        state = self.fill(self.play_all(state))
        state = self.finish_round(state, bets, pick)
        return self.discard_none(state) if state.phase is Phase.DISCARD else state

    def to_ultimate(self, n: int = 4, **kw: Any) -> State:
        """Four rounds played: round five waits for its side choice."""
        state = self.fresh(n, **kw)
        for _ in range(4):
            state = self.play_round(state)
        return state

    @staticmethod
    def counts(n: int) -> tuple[int, int]:
        return box_counts(n)


@pytest.fixture
def ut() -> Table:
    return Table()
