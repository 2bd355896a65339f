"""What each seat may see: views, redacted events and resampled hidden cards.

Hidden: a hand (from everyone else), the deck order and the reserve Legends (from
everyone), a face-down Attack and Boost (from everyone else until the Reveal). Public:
every Legend in the ring with its damage cards, each plan's target and whether it has a
Boost (RR-16 decision), the revealed plans, the discard pile, the placards taken. The
cards a forfeiting player held or had planned face down leave the game face down
(`withdrawn`): nobody sees them.
"""

from __future__ import annotations

import random

from engine.games.royal_rumble.cards import ROSTER, Kind, card, card_json
from engine.games.royal_rumble.combat import damage, profile
from engine.games.royal_rumble.state import ActionType, Phase, Revealed, State, Step
from engine.protocol import JSON, Event, EventKind

PROMPTS = {
    Step.CHOOSE: "Plan: place an Attack card face down, or take a breather.",
    Step.TARGET: "Plan: point your Attack at a Legend.",
    Step.BOOST: "Plan: add one Boost face down, or none.",
    Step.DISCARD: "Breather: discard any cards you do not want, then finish.",
    Step.DEFEND: "You are attacked: cancel it with a Defense card, or take it.",
    Step.INTERVENE: "Intervene with a Ref card (Cheap Tricks) or a Run-In, or pass.",
    Step.HOLD_ON: "You are going over the top rope: play Holding On, or let go.",
    Step.FOLLOW: "Your attack hit: follow it up, or skip.",
}


def player_view(state: State, seat: int, viewer: int | None) -> JSON:
    p = state.players[seat]
    own = viewer == seat
    legend = ROSTER[p.legend] if p.legend else None
    revealed = state.phase is not Phase.PLAN
    show_plan = own or revealed
    return {
        "seat": seat,
        "titleholder": seat == state.titleholder,
        "legend": None if legend is None else {
            **legend.to_json(),
            "signature": card_json(p.signature) if p.signature else None,
        },
        "damage": damage(state, seat) if legend else 0,
        "health": legend.health if legend else 0,
        "damage_cards": [card_json(c) for c in p.damage],
        "strain": p.strain,
        "fallen": p.fallen,
        "out": p.out,
        "forfeited": p.forfeited,
        "hand": [card_json(c) for c in sorted(p.hand)] if own else None,
        "hand_count": len(p.hand),
        "plan": {
            "status": ("forfeited" if p.forfeited else "breather" if p.breather else "planned" if p.planned
                       else "planning" if state.planner == seat else "waiting"),
            "target": p.target,
            "has_attack": p.attack is not None,
            "has_boost": p.boost is not None,
            "attack": card_json(p.attack) if p.attack and show_plan else None,
            "boost": card_json(p.boost) if p.boost and show_plan else None,
        },
        "placards": [ROSTER[k].name for k in p.placards],
        "placard_count": len(p.placards),
        "legends_used": len(p.legends_used),
    }


def _reveal_view(reveal: list[Revealed]) -> list[JSON]:
    """Revealed plans without card ids: a card may since have gone back into the deck,
    and its id would tell where a now hidden card came from."""
    return [{"seat": r.seat, "target": r.target, "attack": card(r.attack).to_json(None),
             "boost": card(r.boost).to_json(None) if r.boost else None, "speed": r.speed,
             "status": r.status} for r in reveal]


def _current_view(state: State) -> JSON | None:
    a = state.current
    if a is None:
        return None
    prof = profile(state, a.attacker, a.card, a.boost)
    return {"attacker": a.attacker, "target": a.target, "card": card_json(a.card),
            "boost": card_json(a.boost) if a.boost else None, "follow_up": a.follow_up,
            "type": prof.type, "damage": prof.damage, "speed": prof.speed,
            "cheap_trick": prof.cheap_trick, "unblockable": prof.unblockable,
            "throw": prof.throw}


def view(state: State, viewer: int | None, deciders: tuple[int, ...], chance: bool,
         result: JSON | None) -> JSON:
    """The whole table from one seat (None: a spectator)."""
    decision = None
    if deciders and state.step is not None:
        decision = {"seats": list(deciders), "step": str(state.step),
                    "prompt": PROMPTS[state.step]}
    return {
        "game": "royal_rumble",
        "viewer": viewer,
        "round": state.round,
        "round_limit": state.round_limit,
        "phase": str(state.phase),
        "step": str(state.step) if state.step else None,
        "titleholder": state.titleholder,
        "waiting_for": "chance" if chance else ("decision" if deciders else "nobody"),
        "decision": decision,
        "players": [player_view(state, seat, viewer) for seat in range(state.n)],
        "reserve_count": len(state.reserve),
        "deck_count": len(state.deck),
        "discard": [card_json(c) for c in state.discard[-10:]],
        "discard_count": len(state.discard),
        "box_count": len(state.box),
        "withdrawn_count": len(state.withdrawn),
        "reveal": _reveal_view(state.reveal),
        "last_reveal": _reveal_view(state.last_reveal),
        "current": _current_view(state),
        "follow_options": list(state.follow_options),
        "result": result,
    }


def redact(state_before: State, event: Event, viewer: int | None) -> JSON:
    """Face-down plan cards are the planner's alone; deck order and the reserve nobody's."""
    if event.kind is EventKind.CHANCE:
        outcome = event.outcome or {}
        if state_before.chance == "legends":
            keys = outcome.get("legends")
            keys = keys if isinstance(keys, list) else []
            return {"kind": "chance", "outcome": {"legends": keys[:state_before.n],
                                                  "reserve": len(keys) - state_before.n}}
        order = outcome.get("order")
        return {"kind": "chance",
                "outcome": {"shuffled": len(order) if isinstance(order, list) else 0}}
    action = event.action or {}
    if (action.get("type") in (ActionType.PLAN_ATTACK, ActionType.BOOST)
            and viewer != event.seat):
        return {"kind": "decision", "seat": event.seat, "action": {"type": action.get("type")}}
    return event.to_json()


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A state `seat` cannot tell apart: others' hands and face-down cards, the deck and
    the reserve resampled (a face-down Attack stays an Attack, a Boost a Boost).

    The reserve is drawn anew from the Legends nobody has seen: with fewer than ten
    players the box's other Legends were never chosen, and which ones were is as hidden
    as the reserve's order (RR-09/RR-10).
    """
    s = state.clone()
    hidden_plans = s.phase is Phase.PLAN
    others = [p for i, p in enumerate(s.players) if i != seat]
    pool = list(s.deck) + s.withdrawn  # (a forfeited hand is nobody's to know)
    for p in others:
        pool += p.hand
        if hidden_plans:
            pool += p.plan_cards()
    pool.sort()
    rng.shuffle(pool)
    for slot, kind in (("attack", Kind.ATTACK), ("boost", Kind.BOOST)):
        for p in others if hidden_plans else []:
            if getattr(p, slot) is not None:
                pick = next(i for i, c in enumerate(pool) if card(c).kind is kind)
                setattr(p, slot, pool.pop(pick))
    for p in others:
        n = len(p.hand)
        p.hand, pool = pool[:n], pool[n:]
    n = len(s.withdrawn)
    s.withdrawn, s.deck = pool[:n], pool[n:]
    seen = {key for p in s.players for key in p.legends_used}
    s.reserve = rng.sample(sorted(set(ROSTER) - seen), len(s.reserve))
    return s


__all__ = ["PROMPTS", "Step", "determinize", "redact", "view"]
