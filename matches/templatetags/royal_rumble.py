"""Presentation helpers for the Royal Rumble partials.

They read only the seat's view dict and that seat's legal actions: whatever the view
leaves out (other hands, face-down cards, the deck, the reserve) they cannot show. They
arrange it for the templates: one panel per seat (Legend, health and damage, the plan as
the viewer may see it), the reveal in speed order, and each legal action with a label.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.template import Context

register = template.Library()

JSON = Mapping[str, Any]

_STEPS = {
    "choose": "Plan", "target": "Plan: target", "boost": "Plan: Boost",
    "discard": "Breather", "defend": "Defense", "intervene": "Intervention",
    "hold_on": "Holding On?", "follow": "Follow-up",
}
_PHASES = {"setup": "Setup", "plan": "Plan", "attack": "Attack",
           "end_of_turn": "End of Turn", "over": "Game over"}
_SIMPLE = {
    "breather": "Take a breather", "no_boost": "No Boost", "end_breather": "Done discarding",
    "no_defense": "Take the hit", "pass": "Pass", "let_go": "Let go", "skip": "Skip",
}
_CARD = {
    "plan_attack": "Attack with {card}", "boost": "Boost with {card}",
    "discard": "Discard {card}", "defend": "Defend with {card}", "ref": "Ref: {card}",
    "run_in": "Run-In: {card}", "hold_on": "Hold on ({card})",
    "target": "Target {seat}", "signature": "Signature {sig} at {seat}",
    "follow_up": "Attack again: {card} at {seat}",
}
_STATUS = {"waiting": "waiting", "resolving": "now", "hit": "hit", "blocked": "blocked",
           "cancelled": "cancelled", "discarded": "discarded"}


def seat_name(seat: Any, seats: Sequence[Any] | None = None) -> str:
    """Who sits at seat index `seat`, as the page's seats line names them ("alice",
    "bot: random"); 'Seat 3' for seat index 2 where the match's `seats` are not given."""
    if not isinstance(seat, int):
        return "—"
    return next((str(s.label) for s in seats or () if getattr(s, "index", None) == seat),
                f"Seat {seat + 1}")


@register.simple_tag(takes_context=True)
def rr_seat(context: Context, seat: Any) -> str:
    """The seat's player ('alice'), of the page's `seats`, as `seat_name` names them."""
    return seat_name(seat, context.get("seats"))


@register.filter
def rr_phase(view: JSON) -> str:
    """The phase (and step) in words."""
    phase = _PHASES.get(str(view.get("phase")), str(view.get("phase")))
    step = view.get("step")
    if step not in _STEPS or _STEPS[step] == phase:  # not "Plan · Plan"
        return phase
    return f"{phase} · {_STEPS[step]}"


def _legend_names(view: JSON) -> dict[int, str]:
    return {p["seat"]: (p.get("legend") or {}).get("name", "no Legend")
            for p in view.get("players") or ()}


@register.simple_tag
def rr_players(view: JSON, seats: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """Each seat's panel, named by its player: Legend, a health bar, damage cards, plan,
    placards."""
    deciders = set((view.get("decision") or {}).get("seats") or ())
    legends = _legend_names(view)
    out = []
    for p in view.get("players") or ():
        plan = p.get("plan") or {}
        health = p.get("health") or 0
        dmg = p.get("damage") or 0
        target = plan.get("target")
        out.append({
            **p,
            "name": seat_name(p.get("seat"), seats),
            "me": p.get("seat") == view.get("viewer"),
            "deciding": p.get("seat") in deciders,
            "left": max(health - dmg, 0),
            "percent": min(100, int(100 * dmg / health)) if health else 100,
            "target_text": (f"{seat_name(target, seats)} ({legends.get(target, '?')})"
                            if target is not None else ""),
            "plan_status": plan.get("status", ""),
        })
    return out


@register.simple_tag
def rr_reveal(view: JSON, seats: Sequence[Any] | None = None) -> dict[str, Any]:
    """This round's revealed plans in attack order (or last round's once it is over)."""
    rows = view.get("reveal") or []
    current = bool(rows)
    if not rows:
        rows = view.get("last_reveal") or []
    legends = _legend_names(view)
    return {
        "current": current,
        "rows": [{**r, "who": seat_name(r.get("seat"), seats),
                  "whom": f"{seat_name(r.get('target'), seats)} "
                          f"({legends.get(r.get('target'), '?')})",
                  "status_text": _STATUS.get(str(r.get("status")), str(r.get("status")))}
                 for r in rows],
    }


@register.simple_tag
def rr_hand(view: JSON) -> list[JSON]:
    """The viewer's own hand (empty for a spectator)."""
    for p in view.get("players") or ():
        if p.get("seat") == view.get("viewer") and p.get("hand") is not None:
            return list(p["hand"])
    return []


@register.simple_tag
def rr_actions(view: JSON, actions: Sequence[JSON] | None = None,
               seats: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """The page's action entries (verbatim JSON and key), each with a readable label.

    Copies of one card are alike, so actions that differ only in which copy they use
    read the same and only the first is offered (a breather discards one card at a time,
    so a second copy is offered again after the first goes)."""
    cards = {c["id"]: c for c in rr_hand(view)}
    legends = _legend_names(view)
    me: JSON = next((p for p in view.get("players") or ()
                     if p.get("seat") == view.get("viewer")), {})
    sig = ((me.get("legend") or {}).get("signature") or {}).get("name", "")
    out: dict[str, dict[str, Any]] = {}
    for entry in actions or ():
        action = entry.get("action")
        if isinstance(action, Mapping):
            label = _label(action, cards, legends, sig, seats)
            out.setdefault(label, {**entry, "label": label, "kind": str(action.get("type", ""))})
    return list(out.values())


def _label(action: JSON, cards: Mapping[Any, JSON], legends: Mapping[int, str],
           sig: str, seats: Sequence[Any] | None = None) -> str:
    kind = str(action.get("type"))
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    card = cards.get(action.get("card")) or {}
    seat = action.get("seat")
    whom = legends.get(seat, "?") if isinstance(seat, int) else "?"
    text = _CARD.get(kind, kind.replace("_", " ").capitalize())
    return text.format(card=card.get("name", action.get("card")), sig=sig,
                       seat=f"{whom} of {seat_name(seat, seats)}")
