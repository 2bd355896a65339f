"""The heuristic bot: it reads only its seat's view and reasons by attribute fit.

A Contender's fit for a Challenge is the weighted sum of its attributes. The bot plays
its best-fitting Contenders, votes for the better fit, and bets by each Contender's
chance to go far when every match is won by the better fit with probability SURE.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from engine.games.ultimate_showdown.cards import CardSet, Challenge
from engine.games.ultimate_showdown.state import BOXES, SLOTS
from engine.protocol import JSON, BaseRules

SURE = 0.7  # how often the better fit wins a match, as the bot models the table
POINTS = {"champion": 4.0, "final": 3.0, "semi": 2.0}


def challenge_from(rules: Any, data: JSON) -> Challenge:
    """The Challenge side a view describes."""
    found: Challenge = rules.challenge_of(data["id"])
    return found


def _fit(cards: CardSet, challenge: Challenge, contender: str) -> int:
    return challenge.fit(cards.contenders[contender])


def win_chance(fit_a: float, fit_b: float) -> float:
    """P(a beats b) in the bot's model."""
    if fit_a == fit_b:
        return 0.5
    return SURE if fit_a > fit_b else 1 - SURE


def bracket_odds(fits: Sequence[float]) -> tuple[list[float], list[float], list[float]]:
    """Per slot: P(wins its quarter-final), P(reaches the final), P(Champion)."""
    qf = [win_chance(fits[i], fits[i ^ 1]) for i in range(SLOTS)]
    final = [0.0] * SLOTS
    for i in range(SLOTS):
        rivals = [j for j in range(SLOTS) if j // 2 != i // 2 and j // 4 == i // 4]
        final[i] = qf[i] * sum(qf[j] * win_chance(fits[i], fits[j]) for j in rivals)
    champ = [0.0] * SLOTS
    for i in range(SLOTS):
        rivals = [j for j in range(SLOTS) if j // 4 != i // 4]
        champ[i] = final[i] * sum(final[j] * win_chance(fits[i], fits[j]) for j in rivals)
    return qf, final, champ


class HeuristicBot:
    """Plays, votes and bets by attribute fit (see the module docstring)."""

    name = "heuristic"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        """One legal action from what `seat` may see."""
        legal = rules.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        view = rules.view(state, seat)
        cards: CardSet = getattr(rules, "cards")  # noqa: B009 - the public card list
        scores = [self._score(rules, cards, view, action) for action in legal]
        top = max(scores)
        best = [a for a, s in zip(legal, scores, strict=True) if s >= top - 1e-9]
        return best[0] if len(best) == 1 else rng.choice(best)

    def _score(self, rules: Any, cards: CardSet, view: JSON, action: JSON) -> float:
        kind = action["type"]
        hand = [c["id"] for c in view["hand"] or []]
        if kind == "choose_sides":
            return self._sides(rules, cards, view, hand, action["sides"])
        if kind == "vote_challenge":
            choice = next(c for c in view["challenge_step"]["choices"]
                          if c["space"] == action["space"])
            return self._hand_strength(cards, challenge_from(rules, choice["challenge"]), hand)
        challenge = self._challenge(rules, view)
        if kind == "play_contenders":
            fits = [_fit(cards, challenge, c) for c in action["box_a"]]
            fits_b = [_fit(cards, challenge, c) for c in action["box_b"]]
            return 10 * sum(fits) + sum(fits_b)
        if kind == "discard":
            return self._discard(cards, hand, action["cards"])
        if kind == "bet":
            return self._bet(cards, challenge, view, action)
        if kind == "vote_match":
            slot = action["slot"]
            contender = view["bracket"]["slots"][slot - 1]["contender"]["id"]
            return float(_fit(cards, challenge, contender)) + self._stake(view, slot)
        return 1.0 if action["seat"] == view["viewer"] else 0.0

    @staticmethod
    def _challenge(rules: Any, view: JSON) -> Challenge:
        if view["sudden_death"] is not None:
            return challenge_from(rules, view["sudden_death"]["challenge"])
        return challenge_from(rules, view["challenge"])

    @staticmethod
    def _hand_strength(cards: CardSet, challenge: Challenge, hand: list[str]) -> float:
        fits = sorted((_fit(cards, challenge, c) for c in hand), reverse=True)
        return float(sum(fits[:2]))

    def _sides(self, rules: Any, cards: CardSet, view: JSON, hand: list[str],
               sides: list[str]) -> float:
        drawn = view["challenge_step"]["drawn"]
        options = [challenge_from(rules, d[s]) for d, s in zip(drawn, sides, strict=True)]
        if view["ultimate"]:
            kept = [c["id"] for c in view["kept"]]
            return float(max(_fit(cards, options[0], c) for c in kept))
        return max(self._hand_strength(cards, c, hand) for c in options)

    @staticmethod
    def _discard(cards: CardSet, hand: list[str], thrown: list[str]) -> float:
        """Keep all-rounders: drop cards whose average attribute is low."""
        def worth(c: str) -> float:
            values = cards.contenders[c].attributes.values()
            return sum(values) / len(values) + max(values) / 3

        return sum(5.5 - worth(c) for c in thrown)

    @staticmethod
    def _stake(view: JSON, slot: int) -> float:
        """A small nudge toward own bets and own Contenders when the fits are close."""
        bets = view["my_bets"] or {}
        mine = view["bracket"]["slots"][slot - 1]["mine"]
        return 0.5 * (slot in bets.values()) + 0.5 * mine

    def _bet(self, cards: CardSet, challenge: Challenge, view: JSON, action: JSON) -> float:
        """The value of the best full set of chips that starts with this one."""
        fits = [float(_fit(cards, challenge, s["contender"]["id"]))
                for s in view["bracket"]["slots"]]
        qf, final, champ = bracket_odds(fits)
        odds = {"champion": champ, "final": final, "semi": qf}
        placed = {k: v for k, v in view["my_bets"].items() if v is not None}
        placed[action["box"]] = action["slot"]
        open_boxes = [str(b) for b in BOXES if str(b) not in placed]
        free = [s for s in range(1, SLOTS + 1) if s not in placed.values()]
        best = 0.0
        for pick in itertools.permutations(free, len(open_boxes)):
            chosen = {**placed, **dict(zip(open_boxes, pick, strict=True))}
            best = max(best, sum(POINTS[b] * odds[b][s - 1] for b, s in chosen.items()))
        return best

