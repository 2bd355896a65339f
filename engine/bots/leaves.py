"""Leaf values: what a search playout cut short is worth, read from views only.

The one piece of game knowledge the search takes, and it goes through the protocol:
a standing function reads the views of the state a playout reached (the spectator's,
and where a game hides something that counts, such as Ultimate Showdown's bets, each
seat's own; in a determinized state those are the sampled worlds' facts, never the
real hidden ones) and scores every seat. `leaf` turns the scores into the seat's
expected placement score: its mean chance of finishing ahead of each other seat, a
logistic curve of the score difference. A finished game is never valued here: the
search reads its result.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
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


def ahead(scores: Mapping[int, float], seat: int, spread: float) -> float:
    """Expected placement score of `seat`: its mean chance to beat each other seat."""
    mine = scores.get(seat, 0.0)
    others = [s for i, s in scores.items() if i != seat]
    if not others:
        return 0.5
    return sum(1 / (1 + math.exp((s - mine) / spread)) for s in others) / len(others)


def leaf(standing: Standing, spread: float) -> LeafValue:
    """A search leaf value from a standing function and the logistic curve's spread."""
    def value(rules: BaseRules[Any], state: Any, seat: int) -> float:
        return ahead(standing(Views(rules, state)), seat, spread)

    value.__name__ = f"{standing.__name__}_leaf"
    return value


# -- Super Showdown -------------------------------------------------------------------------

# Progress toward five cards of one kind (0..4 counting cards); five wins outright.
_PROGRESS = (0.0, 1.0, 2.1, 3.4, 5.0)


def super_showdown(views: Views) -> dict[int, float]:
    """Progress on both counts (own colour victorious, nemesis' defeated); games won."""
    def side(seat: JSON) -> float:
        tally = seat["tally"]
        own, theirs = (min(tally[k], 4) for k in ("own_victorious", "nemesis_defeated"))
        return _PROGRESS[own] + _PROGRESS[theirs] + 20.0 * seat["games_won"]

    return {seat["seat"]: side(seat) for seat in views.public["seats"]}


# -- Superstar Showdown ----------------------------------------------------------------------

def superstar_showdown(views: Views) -> dict[int, float]:
    """Each seat's side's Performance Stack (cards won from the rival); in an Event, a
    fifth of its team's Ranking Points too."""
    view = views.public
    scores: dict[int, float] = {}
    for side in view.get("sides") or []:
        for seat in side["players"]:
            scores[seat] = float(side["performance_count"])
    for team in (view.get("event") or {}).get("teams", []):
        for seat in team["seats"]:
            scores[seat] = scores.get(seat, 0.0) + team["total"] / 5.0
    return scores


# -- Royal Rumble ----------------------------------------------------------------------------

FRESH_LEGEND = 12.0  # every Legend's health (data/legends.yaml)


def royal_rumble(views: Views) -> dict[int, float]:
    """The health left to each seat's Legend (a fallen one comes back fresh while the
    shared reserve lasts; out is worst) and a little for its hand.

    Differences count for less while much of the reserve is left (a fall only drains
    it) and fade as the round limit nears (the Legends still standing share first).
    """
    view = views.public
    reserve = view["reserve_count"]
    weight = min(1.0, (view["round_limit"] - view["round"] + 1) / 5) / (1 + 0.5 * reserve)
    scores: dict[int, float] = {}
    for p in view["players"]:
        if p["out"]:
            scores[p["seat"]] = -5.0
            continue
        left = (FRESH_LEGEND if reserve else 0.0) if p["fallen"] else p["health"] - p["damage"]
        scores[p["seat"]] = weight * (left + 0.3 * p["hand_count"])
    return scores


# -- Ultimate Showdown -----------------------------------------------------------------------

# Points: Champion bet, Final bet, Semi-Final bet (doubled in round five), owning the Champion.
_BETS = {"champion": 4.0, "final": 3.0, "semi": 2.0}
_OWNER = 3.0
_BETTER_FIT_WINS = 0.85  # how often a match's better fit wins, in the leaf's model
_STAGES = ((2, 0), (4, 4), (8, 6))  # (slots a match spans, index of its first match)


def _fit(contender: JSON, weights: JSON) -> float:
    return float(sum(w * contender["attributes"].get(k, 0) for k, w in weights.items()))


def bracket_odds(bracket: JSON, weights: JSON) -> list[dict[int, float]]:
    """Per slot, the chance to win its quarter-final, its semi-final and the final, with
    the matches already voted on as they went."""
    fits = {s["slot"]: _fit(s["contender"], weights) for s in bracket["slots"]}

    def beats(a: int, b: int) -> float:
        if fits[a] == fits[b]:
            return 0.5
        return _BETTER_FIT_WINS if fits[a] > fits[b] else 1 - _BETTER_FIT_WINS

    reach = dict.fromkeys(fits, 1.0)
    stages = []
    for size, first in _STAGES:
        won: dict[int, float] = {}
        for start in range(1, len(fits) + 1, size):
            decided = bracket["matches"][first + (start - 1) // size]["winner"]
            group = range(start, start + size)
            for slot in group:
                if decided is not None:
                    won[slot] = float(slot == decided)
                    continue
                side = (slot - start) // (size // 2)
                rivals = [r for r in group if (r - start) // (size // 2) != side]
                won[slot] = reach[slot] * sum(reach[r] * beats(slot, r) for r in rivals)
        stages.append(won)
        reach = won
    return stages


def ultimate_showdown(views: Views) -> dict[int, float]:
    """Points so far plus the round's expected points: each seat's own bets and its own
    Contenders in the bracket (from its own view), valued by attribute fit."""
    public = views.public
    scores = {seat["seat"]: float(seat["score"]) for seat in public["seats"]}
    bracket, challenge = public.get("bracket"), public.get("challenge")
    if not bracket or not challenge or public.get("sudden_death"):
        return scores
    semi, final, champion = bracket_odds(bracket, challenge["weights"])
    odds = {"champion": champion, "final": final, "semi": semi}
    factor = 2.0 if public["ultimate"] else 1.0
    for seat in scores:
        own = views.of(seat)
        bets = own.get("my_bets") or {}
        scores[seat] += sum(factor * _BETS[box] * odds[box][slot]
                            for box, slot in bets.items() if slot is not None)
        if not public["ultimate"]:
            scores[seat] += sum(_OWNER * champion[s["slot"]]
                                for s in own["bracket"]["slots"] if s["mine"])
    return scores


__all__ = ["LeafValue", "Views", "ahead", "bracket_odds", "leaf", "royal_rumble",
           "super_showdown", "superstar_showdown", "ultimate_showdown"]
