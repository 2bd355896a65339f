"""Helpers that build exact Super Showdown situations (served as the `ss` fixture)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.games.super_showdown import RULES
from engine.games.super_showdown.cards import Colour
from engine.games.super_showdown.rules import SuperShowdownRules
from engine.games.super_showdown.state import Phase, State
from engine.protocol import JSON, Event

WHITE = [c.id for c in RULES.cards if c.colour is Colour.WHITE]
GREEN = [c.id for c in RULES.cards if c.colour is Colour.GREEN]


class Table:
    """Builds states and applies events through the real rules."""

    rules: SuperShowdownRules = RULES
    white = WHITE
    green = GREEN

    def fresh(self, best_of: int = 1) -> State:
        """A series waiting for its deal."""
        return self.rules.start({"best_of": best_of}, 2)

    def deal(self, state: State, seat0: list[str] | None = None) -> State:
        """Apply a deal that gives seat 0 exactly `seat0` (default: all nine white)."""
        first = list(seat0 if seat0 is not None else WHITE)
        rest = [c for c in self.rules.cards.ids if c not in first]
        return self.chance(state, {"deal": first + rest})

    def dealt(self, seat0: list[str] | None = None, best_of: int = 1) -> State:
        """A fresh game right after a deal."""
        return self.deal(self.fresh(best_of), seat0)

    def state(self, **fields: Any) -> State:
        """A hand-built state: seat 0 Hero with the white cards, seat 1 Villain with green.

        Cards named in `played`, `victory` or `defeat` are taken out of the hands.
        """
        base: dict[str, Any] = {
            "best_of": 1, "phase": Phase.FIRST_ROLL, "hero": 0, "round": 1, "starter": 1,
            "positions": ((1, 1), (6, 6)),
        }
        base.update(fields)
        if "hands" not in base:
            used = {c for c in base.get("played", ()) if c}
            used |= set(base.get("victory", ())) | set(base.get("defeat", ()))
            hero = base["hero"]
            white = tuple(sorted(c for c in WHITE if c not in used))
            green = tuple(sorted(c for c in GREEN if c not in used))
            base["hands"] = (white, green) if hero == 0 else (green, white)
        return State(**base)

    def at(self, state: State, **fields: Any) -> State:
        """The same state with some fields changed."""
        return replace(state, **fields)

    def chance(self, state: State, outcome: JSON) -> State:
        return self.rules.apply(state, Event.chance(outcome))

    def roll(self, state: State, face: int) -> State:
        return self.chance(state, {"face": face})

    def decide(self, state: State, seat: int, action: JSON) -> State:
        return self.rules.apply(state, Event.decision(seat, action))

    def move(self, state: State, seat: int, x: int, y: int) -> State:
        return self.decide(state, seat, {"type": "move", "to": [x, y]})

    def play(self, state: State, seat: int, card: str) -> State:
        return self.decide(state, seat, {"type": "play_card", "card": card})

    def choose(self, state: State, seat: int, victorious: list[str],
               defeated: list[str]) -> State:
        action = {"type": "choose_outcome", "victorious": sorted(victorious),
                  "defeated": sorted(defeated)}
        return self.decide(state, seat, action)

    def reveal(self, cards: tuple[str, str], positions: tuple[tuple[int, int], ...],
               dice: tuple[int, int] = (3, 3), to: tuple[int, int] | None = None,
               starter: int = 1, **fields: Any) -> State:
        """Cards down, Mayhem set; the starter makes the round's last move (to `to`)."""
        state = self.state(phase=Phase.STARTER_SECOND_MOVE, played=cards,
                           positions=(positions[0], positions[1]), dice=dice,
                           starter=starter, **fields)
        final = to if to is not None else positions[starter]
        return self.move(state, starter, *final)

    def hands_with(self, card0: str, card1: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Nine cards each, seat 0 (the Hero: mostly white) holding card0, seat 1 card1."""
        spare = [c for c in (*WHITE, *GREEN) if c not in (card0, card1)]
        seat0 = [card0, *spare[:8]]
        seat1 = [c for c in self.rules.cards.ids if c not in seat0]
        return tuple(sorted(seat0)), tuple(sorted(seat1))

    def brawn(self, cards: tuple[str, str], **fields: Any) -> State:
        """The supers met before the cards; both play and the Brawn resolves."""
        state = self.state(phase=Phase.PLAY, met=True, positions=((3, 3), (3, 3)),
                           hands=self.hands_with(*cards), **fields)
        return self.play(self.play(state, 0, cards[0]), 1, cards[1])

    def all_cards(self, state: State) -> list[str]:
        """Every card the state holds, wherever it is."""
        return [*state.hands[0], *state.hands[1], *(c for c in state.played if c),
                *state.victory, *state.defeat]


@pytest.fixture
def ss() -> Table:
    """The table helpers."""
    return Table()
