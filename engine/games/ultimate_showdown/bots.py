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

from engine.bots.leaves import Views
from engine.bots.levels import levels
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


# -- search --------------------------------------------------------------------------------
# What a search playout cut short is worth (engine.bots.leaves), and the two search levels.

# Points: Champion bet, Final bet, Semi-Final bet (doubled in round five), owning the Champion.
_BETS = {"champion": 4.0, "final": 3.0, "semi": 2.0}
_OWNER = 3.0
# How often a match's better fit wins, in the leaf's model. At heuristic tables it always
# does (every one of 6,398 matches with unequal fits in 200 four-seat matches: a vote's
# nudge toward one's own bets only breaks equal fits); a little doubt is left for tables
# that vote otherwise. At 0.85 the leaf priced long shots too high.
_BETTER_FIT_WINS = 0.97
_STAGES = ((2, 0), (4, 4), (8, 6))  # (slots a match spans, index of its first match)


def stage_odds(rules: Any, bracket: JSON, challenge: JSON) -> list[dict[int, float]]:
    """Per slot, the chance to win its quarter-final, its semi-final and the final, with
    the matches already voted on as they went."""
    side = challenge_from(rules, challenge)
    fits = {s["slot"]: _fit(rules.cards, side, s["contender"]["id"]) for s in bracket["slots"]}

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
                half = (slot - start) // (size // 2)
                rivals = [r for r in group if (r - start) // (size // 2) != half]
                won[slot] = reach[slot] * sum(reach[r] * beats(slot, r) for r in rivals)
        stages.append(won)
        reach = won
    return stages


def standing(views: Views) -> dict[int, float]:
    """Points so far plus the round's expected points: each seat's own bets and its own
    Contenders in the bracket (from its own view), valued by attribute fit."""
    public = views.public
    scores = {seat["seat"]: float(seat["score"]) for seat in public["seats"]}
    bracket, challenge = public.get("bracket"), public.get("challenge")
    if not bracket or not challenge or public.get("sudden_death"):
        return scores
    semi, final, champion = stage_odds(views.rules, bracket, challenge)
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


SEARCH = levels(16, 48, depth=6, standing=standing, spread=5.0)
