"""The `heuristic` bot: greedy, rules-aware, reading only what its seat may see.

It works on `rules.determinize(state, seat, rng)` (others' hands, face-down cards, the
deck and the reserve resampled), so it never peeks, and reads there only its own hand
and public facts. It returns an item of the real legal actions.
"""

from __future__ import annotations

import random
from typing import Any

from engine.bots.leaves import Views
from engine.bots.levels import levels
from engine.games.royal_rumble.cards import ROSTER, Card, Effect, Kind, Special, card
from engine.games.royal_rumble.combat import damage, health
from engine.games.royal_rumble.state import State, Step
from engine.protocol import JSON, BaseRules

# Tuned with benchmarks/royal_rumble_bots.py (one heuristic against five random bots).
KILL_BONUS = 12.0
TITLE_BONUS = 0.0  # the token alone is no reason to pick a target (tuned at equal health)
THREAT_BONUS = 1.0
BOOSTS_HELD = 1  # Boost whenever this many Boosts are in hand (or when it finishes a Legend)
TURTLE = 1  # breathe when this many cards are not worth keeping (0: never)
ATTACKS_KEPT = 2
ENDGAME_STANDING = 2
TURTLE_HURT = 0.3  # ... and the own Legend has taken this share of its health
GUARDS_KEPT = 3  # in a duel with no Attack in hand: Defense, Ref, Holding On cards kept


class HeuristicBot:
    """Targets the Legend it can finish (or hurt most, or that aims at it), adds its best
    Boost, defends and Holds On whenever it can, Refs Cheap Tricks aimed at it, and once
    hurt takes breathers to swap junk for Defense cards (never in the endgame). In a duel,
    a breather with no Attack in hand thins the guards to draw attacks: two bots sitting
    on hands of Defense cards would never strike again."""

    name = "heuristic"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        legal = rules.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        s: State = rules.determinize(state, seat, rng)
        choice = self._decide(s, seat, legal)
        return choice if choice in legal else legal[-1]

    def _decide(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        step = s.step
        if step is Step.CHOOSE:
            return self._choose(s, seat, legal)
        if step is Step.TARGET:
            attack = s.players[seat].attack
            assert attack is not None
            return max(legal, key=lambda a: self._target_score(s, seat, card(attack), None,
                                                               a["seat"]))
        if step is Step.BOOST:
            return self._boost(s, seat, legal)
        if step is Step.DISCARD:
            return self._discard(s, seat, legal)
        if step in (Step.DEFEND, Step.HOLD_ON):
            plays = [a for a in legal if "card" in a]
            return min(plays, key=lambda a: len(card(a["card"]).cancels)) if plays else legal[-1]
        if step is Step.INTERVENE:
            return self._intervene(s, seat, legal)
        if step is Step.FOLLOW:
            return max(legal, key=lambda a: self._follow_score(s, seat, a))
        return legal[-1]

    # -- planning -------------------------------------------------------------------------
    def _target_score(self, s: State, seat: int, attack: Card, boost: Card | None,
                      target: int) -> float:
        hit = attack.damage + (boost.damage if boost else 0)
        throw = attack.has(Effect.OVER_THE_TOP) or (boost is not None
                                                    and boost.has(Effect.OVER_THE_TOP))
        left = health(s, target) - damage(s, target)
        score = hit / max(left, 1) + 0.05 * damage(s, target)
        if hit >= left or throw:
            score += KILL_BONUS
        if target == s.titleholder:
            score += TITLE_BONUS * (hit >= left or throw)
        if s.players[target].target == seat:
            score += THREAT_BONUS * (1.0 + (hit >= left or throw))  # its attack would be lost
        return score

    def _choose(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        attacks = [a for a in legal if a["type"] == "plan_attack"]
        if not attacks:
            return {"type": "breather"}
        targets = [t for t in s.clockwise() if t != seat and t in s.standing()]

        def value(a: JSON) -> float:
            design = card(a["card"])
            best = max(self._target_score(s, seat, design, None, t) for t in targets)
            return best + 0.02 * design.speed + (0.5 if design.has(Effect.SIGNATURE) else 0.0)

        best = max(attacks, key=value)
        hurt = damage(s, seat) >= TURTLE_HURT * health(s, seat)
        if TURTLE and hurt and value(best) < KILL_BONUS and not self._endgame(s):
            junk = [c for c in s.players[seat].hand if not self._keep(s, seat, c)]
            if len(junk) >= TURTLE:
                return {"type": "breather"}  # refill with Defense cards instead
        return best

    @staticmethod
    def _endgame(s: State) -> bool:
        """No reserve left and only a couple of Legends: every blow counts."""
        return not s.reserve and len(s.standing()) <= ENDGAME_STANDING

    def _keep(self, s: State, seat: int, card_id: str) -> bool:
        """Whether a card is worth holding through a breather."""
        hand = sorted(s.players[seat].hand, key=lambda c: -card(c).damage)
        design = card(card_id)
        if self._guard(card_id):
            duel = sum(not p.out for p in s.players) <= 2
            if not duel or any(card(c).kind is Kind.ATTACK for c in hand):
                return True
            guards = sorted((c for c in hand if self._guard(c)), key=self._guard_rank)
            return card_id in guards[:GUARDS_KEPT]
        if design.kind is Kind.ATTACK:
            strong = [c for c in hand if card(c).kind is Kind.ATTACK][:int(ATTACKS_KEPT)]
            return card_id in strong or design.has(Effect.OVER_THE_TOP)
        if design.kind is Kind.BOOST:
            return design.has(Effect.OVER_THE_TOP) or design.has(Effect.UNBLOCKABLE)
        return False

    @staticmethod
    def _guard(card_id: str) -> bool:
        design = card(card_id)
        return design.kind in (Kind.DEFENSE, Kind.REF) or design.special is Special.HOLDING_ON

    @staticmethod
    def _guard_rank(card_id: str) -> tuple[int, str]:
        """Defense cards first (the widest first), then Holding On, then Refs."""
        design = card(card_id)
        if design.kind is Kind.DEFENSE:
            return -len(design.cancels), card_id
        return (1 if design.special is Special.HOLDING_ON else 2), card_id

    def _boost(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        p = s.players[seat]
        assert p.attack is not None and p.target is not None
        attack, target = card(p.attack), p.target
        boosts = [a for a in legal if a["type"] == "boost"]
        if not boosts:
            return {"type": "no_boost"}
        base = self._target_score(s, seat, attack, None, target)
        best = max(boosts, key=lambda a: self._target_score(s, seat, attack, card(a["card"]),
                                                            target))
        gain = self._target_score(s, seat, attack, card(best["card"]), target) - base
        if gain >= KILL_BONUS or len(boosts) >= BOOSTS_HELD:
            return best
        return {"type": "no_boost"}

    def _discard(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        for a in legal:
            if a["type"] == "discard" and not self._keep(s, seat, a["card"]):
                return a
        return {"type": "end_breather"}

    # -- responding -----------------------------------------------------------------------
    def _intervene(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        a = s.current
        assert a is not None
        refs = [x for x in legal if x["type"] == "ref"]
        if refs and a.target == seat:
            return refs[0]
        return {"type": "pass"}

    def _follow_score(self, s: State, seat: int, action: JSON) -> float:
        if action["type"] == "skip":
            return 0.0
        if action["type"] == "signature":
            sig = s.players[seat].signature
            assert sig is not None
            return 1.0 + self._target_score(s, seat, card(sig), None, action["seat"])
        return 0.5 + self._target_score(s, seat, card(action["card"]), None, action["seat"])


# -- search --------------------------------------------------------------------------------
# What a search playout cut short is worth (engine.bots.leaves), and the two search levels.

# A fallen Legend's successor comes from the reserve unseen: its expected health.
FRESH_LEGEND = sum(legend.health for legend in ROSTER.values()) / len(ROSTER)


def standing(views: Views) -> dict[int, float]:
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


def _still_in(state: State) -> int:
    return max(2, sum(not p.out for p in state.players))


def two_seat_budget(state: State) -> float:
    """Budgets are sized for two seats; past them a playout runs `round_depth` decisions
    instead of 8, so the playouts are fewer in proportion (the time stays put)."""
    return 8 / round_depth(state)


def round_depth(state: State) -> int:
    """A playout's decisions before its leaf: 8 at two seats, 7 a seat still in at more.

    A round's decisions grow with the seats (each plans, and every attack asks each
    other seat whether it intervenes). At a fixed 8 a playout at six seats stopped inside
    the Plan step, where an attack shows only as a card gone from the attacker's hand and
    none of its damage: a breather looked better, and tables of search bots kept to
    breathers until the round limit (all six Legends sharing first). Reaching into the
    Attack step, they attack and their matches end with a last Legend standing."""
    seats = _still_in(state)
    return 8 if seats == 2 else 7 * seats


SEARCH = levels(60, 180, depth=round_depth, standing=standing, spread=4.0,
                scale=two_seat_budget)


__all__ = ["SEARCH", "HeuristicBot", "round_depth", "standing", "two_seat_budget"]
