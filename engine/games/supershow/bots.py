"""The `heuristic` bot: greedy, rules-aware, reading only what its seat may see.

It works on `rules.determinize(state, seat, rng)` (the rival's hand and every deck
order resampled), so it never peeks; it returns an item of the real legal actions.
"""

from __future__ import annotations

import random
from typing import Any

from engine.bots.levels import levels
from engine.games.supershow.cards import Card, CardType, Do
from engine.games.supershow.state import ActionType, Phase, State
from engine.protocol import JSON, BaseRules

TYPE_VALUE = {CardType.LEAD: 1.0, CardType.FOLLOW_UP: 2.0, CardType.FINISH: 3.0}
PLAY_ORDER = {CardType.FINISH: 3.0, CardType.FOLLOW_UP: 2.0, CardType.LEAD: 1.0}


def keep_value(card: Card) -> float:
    """How much a card is worth holding: Finishes, then Stops, then Follow-Ups."""
    return TYPE_VALUE[card.type] + (1.5 if card.stop else 0.0) + 0.3 * len(card.effects)


def play_value(card: Card) -> float:
    """How good a card is to play now: climb the chain, spend Stops last."""
    return PLAY_ORDER[card.type] * 2 + 0.5 * len(card.effects) - (1.0 if card.stop else 0.0)


class HeuristicBot:
    """Climbs Lead -> Follow-Up -> Finish, stops whatever it can, buries Finishes back."""

    name = "heuristic"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        legal = rules.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        s: State = rules.determinize(state, seat, rng)
        choice = self._decide(s, seat, legal)
        return choice if choice in legal else legal[0]

    def _decide(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        by_type: dict[str, list[JSON]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        if ActionType.DISCARD in by_type:
            return min(by_type[ActionType.DISCARD], key=lambda a: keep_value(s.card(a["card"])))
        if s.phase is Phase.TURN:
            return self._turn(s, by_type)
        if s.phase is Phase.STOP:
            stops = by_type.get(ActionType.STOP)
            protects = by_type.get(ActionType.PROTECT)
            if not stops and protects and s.played and s.card(s.played).type is CardType.FINISH:
                stops = protects  # burying the hand is worth it only against a Finish
            if stops:
                return min(stops, key=lambda a: keep_value(s.card(a["card"])))
            return {"type": "no_stop"}  # never interferes: that is a disqualification
        if s.phase is Phase.TEAM_UP:
            f = s.finish
            free = f is not None and not s.players[seat].in_play.get(f.target)
            return {"type": "team_up" if free else "no_team_up"}
        if s.phase is Phase.CHOOSE and s.tasks:
            picks = by_type.get(ActionType.CHOOSE, legal)
            if s.tasks[0].effect_do is Do.DISCARD:
                return min(picks, key=lambda a: keep_value(s.card(a["card"])))
            return max(picks, key=lambda a: keep_value(s.card(a["card"])))
        return legal[0]

    def _turn(self, s: State, by_type: dict[str, list[JSON]]) -> JSON:
        if ActionType.MULLIGAN in by_type:
            return by_type[ActionType.MULLIGAN][0]
        plays = by_type.get(ActionType.PLAY)
        if plays:
            return max(plays, key=lambda a: (play_value(s.card(a["card"])), a["card"]))
        buries = by_type.get(ActionType.BURY)
        if buries:
            return max(buries, key=lambda a: (keep_value(s.card(a["card"])), a["card"]))
        return by_type[ActionType.PASS][0]


# Whole playouts (no leaf value): the game is short and the heuristic cheap.
SEARCH = levels(12, 36)
