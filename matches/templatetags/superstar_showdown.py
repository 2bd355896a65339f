"""Presentation helpers for the Superstar Showdown partials.

They read only the seat's view dict (and that seat's legal actions): whatever the view
leaves out (the rival's hand, face-down spots, deck order), these helpers cannot show.
They arrange it for the templates: the ring as rows of squares with both miniatures and
the squares a step or shove may go to, the three positions of this round, both sides'
panels, the last Showdown in words, and every legal action with a readable label.

Coordinates are shown as the engine and its narration write them: `[row, column]`, both
from 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template

register = template.Library()

JSON = Mapping[str, Any]
SPOTS = (1, 2, 3)
PLAY, STEP, SHOVE = "play_spots", "step", "shove"
BOARD_TYPES = frozenset({STEP, SHOVE})
SEAT_NAMES = ("Red", "Blue")

_PHASES = {
    "draw": "Drawing cards",
    "play": "Play three cards",
    "compare": "Comparing cards",
    "reversal": "Reversal",
    "actions": "Winning card's Actions",
    "motion": "Moving",
    "shove": "Shove",
    "hit": "Delivering a hit",
    "stun": "Stun: extra card",
    "pin": "Pin",
    "kick_out": "Kick Out",
    "three_count": "Three Count",
    "round_end": "End of the round",
    "over": "Match over",
}
_SQUARES = {
    "ring": "in the ring",
    "ropes": "on the ropes",
    "turnbuckle": "on a turnbuckle",
    "outside": "outside the ropes",
}
_ACTS = {
    "move": "Move", "attack": "Attack", "momentum_attack": "Momentum Attack",
    "corner_attack": "Corner Attack", "throw": "Throw", "movement_setup": "Movement Setup",
    "power_setup": "Power Setup", "stun": "Stun", "reversal": "Reversal",
    "kick_out": "Kick Out",
}
_SIMPLE = {
    "no_reverse": "No Reversal",
    "done": "Done",
    "bounce": "Bounce off the ropes",
    "no_shove": "Don't shove",
    "give_up_deck": "Give Up from deck",
    "pin": "Pin",
    "no_pin": "No Pin",
    "three_count": "Take the Three Count",
}
_CARD_ACTIONS = {
    "reverse": "Reverse with {}",
    "block": "Block with {}",
    "give_up": "Give Up {} from hand",
    "extra_card": "Play extra card: {}",
    "kick_out": "Kick Out with {}",
}


# -- small filters ----------------------------------------------------------------------

@register.filter
def star_phase(phase: str) -> str:
    """The phase in words."""
    return _PHASES.get(phase, str(phase).replace("_", " ").capitalize())


@register.filter
def star_square(kind: str) -> str:
    """Where a Superstar stands, in words."""
    return _SQUARES.get(kind, str(kind))


@register.filter
def star_seat_name(seat: Any) -> str:
    """'Red' or 'Blue' for a seat index."""
    return SEAT_NAMES[seat] if seat in (0, 1) else "—"


# -- the board --------------------------------------------------------------------------

def _initial(side: JSON) -> str:
    """The miniature's letter: the Superstar key's first letter (all six differ)."""
    key = (side.get("superstar") or {}).get("key") or "?"
    return key[0].upper()


@register.simple_tag
def star_board(view: JSON, actions: Sequence[JSON] | None = None) -> dict[str, Any]:
    """Rows of squares with kind, start star, Tag Zone, miniatures and a legal step/shove."""
    board = view.get("board") or {}
    squares = board.get("squares") or []
    starts = {tuple(sq): seat for seat, sq in enumerate(board.get("starts") or [])}
    zones = {tuple(sq): seat for seat, zone in enumerate(board.get("tag_zones") or [])
             for sq in zone}
    targets = {tuple(e["action"]["to"]): e for e in _entries(view, actions)
               if e["action"].get("type") in BOARD_TYPES}
    markers: dict[tuple[int, ...], list[dict[str, Any]]] = {}
    for side in view.get("sides") or ():
        if side.get("position") is not None:
            markers.setdefault(tuple(side["position"]), []).append(_marker(side))
    rows = []
    for r, line in enumerate(squares):
        cells = []
        for c, kind in enumerate(line):
            square = (r, c)
            classes = ["sq", f"sq-{kind}"]
            if square in zones:
                classes.append(f"tag-{('red', 'blue')[zones[square]]}")
            if square in starts:
                classes.append(f"start-{('red', 'blue')[starts[square]]}")
            if square in targets:
                classes.append("can-go")
            cells.append({"r": r, "c": c, "kind": kind, "classes": " ".join(classes),
                          "start": starts.get(square), "zone": zones.get(square),
                          "markers": markers.get(square, []), "target": targets.get(square),
                          "title": _square_title(square, kind, starts, zones)})
        rows.append({"r": r, "cells": cells})
    cols = list(range(len(squares[0]))) if squares else []
    return {"rows": rows, "cols": cols, "has_targets": bool(targets)}


def _marker(side: JSON) -> dict[str, Any]:
    star = side.get("superstar") or {}
    return {"seat": side.get("seat"), "colour": side.get("colour", ""),
            "initial": _initial(side), "name": star.get("name", "")}


def _square_title(square: tuple[int, int], kind: str, starts: Mapping[Any, int],
                  zones: Mapping[Any, int]) -> str:
    words = [f"[{square[0]}, {square[1]}] {kind}"]
    if square in starts:
        words.append(f"{SEAT_NAMES[starts[square]]} start")
    if square in zones:
        words.append(f"{SEAT_NAMES[zones[square]]} Tag Zone")
    return ", ".join(words)


# -- both sides -------------------------------------------------------------------------

@register.simple_tag
def star_sides(view: JSON) -> list[dict[str, Any]]:
    """Each side's panel: stat card, counts, Performance Stack, setup bonuses, pins."""
    deciders = set((view.get("decision") or {}).get("seats") or ())
    out = []
    for side in view.get("sides") or ():
        star = side.get("superstar") or {}
        stack = list(side.get("performance_stack") or ())
        bonus = side.get("setup_bonus") or {}
        out.append({
            **side,
            "name": SEAT_NAMES[side["seat"]] if side.get("seat") in (0, 1) else "?",
            "initial": _initial(side),
            "star": star,
            "stats": list((star.get("stats") or {}).items()),
            "me": side.get("seat") == view.get("viewer"),
            "deciding": side.get("seat") in deciders,
            "where": star_square(side.get("square", "")),
            "performance_top": list(reversed(stack[-3:])),
            "bonuses": [f"+{n} {what}" for what, n in (("movement", bonus.get("move", 0)),
                                                        ("power", bonus.get("power", 0))) if n],
        })
    return out


# -- the three positions ----------------------------------------------------------------

@register.simple_tag
def star_spots(view: JSON) -> list[dict[str, Any]]:
    """Positions 1-3 of this round, each with both sides' card as the viewer may see it.

    A side's cell is `revealed` (its stack is on the board), `face_down` (played, not yet
    revealed: the owner sees the card, others a card back), `lost` (revealed and beaten:
    taken from this round's Showdown record) or `empty`.
    """
    sides = list(view.get("sides") or ())
    records = {rec.get("position"): rec for rec in view.get("showdown") or ()}
    now = view.get("position") if view.get("phase") not in ("play", "draw", "over") else None
    out = []
    for p in SPOTS:
        record = records.get(p)
        cells = [_spot_cell(side, p, record) for side in sides]
        out.append({"position": p, "cells": cells, "now": now == p,
                    "outcome": _outcome_text(record) if record else ""})
    return out


def _spot_cell(side: JSON, p: int, record: JSON | None) -> dict[str, Any]:
    seat = side.get("seat")
    stacks = side.get("stacks") or [[], [], []]
    stack = stacks[p - 1] if p - 1 < len(stacks) else []
    base = {"seat": seat, "colour": side.get("colour", ""), "card": None, "under": 0}
    if stack:
        won = record is not None and record.get("winner") == seat
        return {**base, "state": "revealed", "card": stack[-1], "under": len(stack) - 1,
                "won": won}
    spot = next((s for s in side.get("spots") or () if s.get("position") == p), None)
    if spot is not None:
        return {**base, "state": "face_down", "card": spot.get("card")}
    if record:
        lost = (record.get("cards") or [[], []])[seat] if seat in (0, 1) else []
        if lost:
            return {**base, "state": "lost", "card": lost[-1], "under": len(lost) - 1}
    return {**base, "state": "empty"}


def _outcome_text(record: JSON) -> str:
    """'Red wins', 'Both Blocks lose', with tie, Reversal and countout notes."""
    winner = record.get("winner")
    words = [f"{SEAT_NAMES[winner]} wins" if winner in (0, 1) else "Both lose"]
    if record.get("tie"):
        words.append("after a tie")
    reversers = record.get("reversed_by") or []
    if reversers:
        words.append("Reversal by " + " then ".join(SEAT_NAMES[s] for s in reversers))
    countout = record.get("countout") or []
    if countout:
        words.append("countout: " + ", ".join(SEAT_NAMES[s] for s in countout)
                     + " Gives Up the losing card(s)")
    return "; ".join(words)


@register.simple_tag
def star_last_showdown(view: JSON) -> list[dict[str, Any]]:
    """The previous round's Showdown: per position both top cards and what happened."""
    out = []
    for record in view.get("last_showdown") or ():
        tops = []
        for seat, stack in enumerate(record.get("cards") or ()):
            top = stack[-1] if stack else None
            tops.append({"seat": seat, "name": SEAT_NAMES[seat] if seat < 2 else "?",
                         "card": top, "won": record.get("winner") == seat})
        out.append({"position": record.get("position"), "tops": tops,
                    "text": _outcome_text(record)})
    return out


# -- the current decision ---------------------------------------------------------------

@register.simple_tag
def star_decision(view: JSON, actions: Sequence[JSON] | None = None) -> dict[str, Any]:
    """The viewer's decision: prompt, context, play_spots grouped for a select, buttons.

    Every entry keeps its verbatim `json` (an item of legal_actions) and idempotency key;
    step and shove targets are left to the board (`on_board`).
    """
    entries = _entries(view, actions)
    viewer = view.get("viewer")
    decision = view.get("decision") or {}
    asked = viewer is not None and viewer in (decision.get("seats") or ())
    plays = [e for e in entries if e["action"].get("type") == PLAY]
    on_board = [e for e in entries if e["action"].get("type") in BOARD_TYPES]
    buttons = [e for e in entries if e["action"].get("type") not in BOARD_TYPES | {PLAY}]
    cards = _cards_by_id(view)
    groups: dict[str, dict[str, Any]] = {}
    for entry in plays:
        first_id = entry["action"]["cards"][0]
        first = str(cards[first_id]["name"]) if first_id in cards else str(first_id)
        group = groups.setdefault(first, {"label": f"Spot 1: {first}", "entries": []})
        group["entries"].append(entry)
    return {
        "asked": asked,
        "prompt": decision.get("prompt", "") if asked else "",
        "context": _context_lines(view),
        "play_groups": list(groups.values()),
        "play_key": plays[0]["key"] if plays else "",
        "play_count": len(plays),
        "buttons": buttons,
        "on_board": on_board,
        "any": bool(entries),
    }


def _entries(view: JSON, actions: Sequence[JSON] | None) -> list[dict[str, Any]]:
    """The page's action entries, each with its readable label.

    Copies of one card design are alike, so legal actions that differ only in which copy
    they use read the same; only the first of them is offered.
    """
    cards = _cards_by_id(view)
    out: dict[str, dict[str, Any]] = {}
    for entry in actions or ():
        if isinstance(entry.get("action"), Mapping):
            label = _label(entry["action"], view, cards)
            out.setdefault(label, {**entry, "label": label})
    return list(out.values())


@register.filter
def star_action_label(action: JSON, view: JSON | None = None) -> str:
    """A legal action in words, naming cards by the names the view gives them."""
    view = view or {}
    return _label(action, view, _cards_by_id(view))


def _label(action: JSON, view: JSON, cards: Mapping[Any, JSON]) -> str:
    def name(card_id: Any) -> str:
        return str(cards[card_id]["name"]) if card_id in cards else str(card_id)

    kind = action.get("type")
    if kind == PLAY:
        played = action.get("cards") or []
        return "Play: " + ", ".join(f"{name(c)} → {i}" for i, c in enumerate(played, 1))
    if kind in _CARD_ACTIONS:
        label = _CARD_ACTIONS[str(kind)].format(name(action.get("card")))
        card_type = (cards.get(action.get("card")) or {}).get("type")
        return f"{label} ({card_type.capitalize()})" if kind == "reverse" and card_type else label
    if kind == "resolve":
        return _resolve_label(view, str(action.get("action", "")))
    if kind in (STEP, SHOVE):
        to = action.get("to") or ["?", "?"]
        where = f"[{to[0]}, {to[1]}]"
        if kind == SHOVE:
            return f"Shove to {where}"
        motion = view.get("motion") or {}
        mover = motion.get("mover")
        if mover is not None and mover != view.get("viewer"):
            return f"Throw {star_seat_name(mover)} to {where}"
        return f"Move to {where}"
    if kind == "stop":
        motion = view.get("motion") or {}
        mover = motion.get("mover")
        thrown = mover is not None and mover != view.get("viewer")
        return "End the Throw here" if thrown else "Stop here"
    if kind in _SIMPLE:
        return _SIMPLE[str(kind)]
    return str(kind or "act").replace("_", " ").capitalize()


def _resolve_label(view: JSON, act: str) -> str:
    current = view.get("current") or {}
    bonus = current.get("power_bonus") or 0
    if act == "move" and current.get("move"):
        return f"Move {current['move']}"
    if act == "attack" and current.get("attack"):
        return f"Attack {current['attack']}"
    if act == "momentum_attack":
        return f"Momentum Attack (power {(current.get('momentum') or 0) + bonus})"
    if act == "corner_attack":
        return f"Corner Attack (move 3, power {3 + bonus})"
    return _ACTS.get(act, act.replace("_", " ").capitalize())


def _context_lines(view: JSON) -> list[str]:
    """What is in play right now: the winning card, a move, a hit, a Pin."""
    lines = []
    current = view.get("current")
    if current:
        card = current.get("card") or {}
        extra = "extra card " if current.get("extra") else ""
        lines.append(f"{star_seat_name(current.get('seat'))}'s {extra}{card.get('name', '?')} "
                     f"won position {current.get('position')}"
                     + (" (the loser Blocked: no damage)" if current.get("blocked") else "")
                     + ".")
        used = current.get("used") or []
        if used:
            lines.append("Used: " + ", ".join(_ACTS.get(a, a) for a in used) + ".")
    motion = view.get("motion")
    if motion and view.get("phase") == "motion":
        mover = star_seat_name(motion.get("mover"))
        if motion.get("bouncing"):
            lines.append(f"{mover} bounced off the ropes: run straight across.")
        else:
            lines.append(f"{mover}: {motion.get('squares_left', 0)} square(s) left"
                         + (f", {motion['line']} in a straight line" if motion.get("line") else "")
                         + (" — on the ropes, may bounce" if motion.get("on_ropes") else "")
                         + ".")
    hit = view.get("hit")
    if hit:
        lines.append(f"{star_seat_name(hit.get('attacker'))} hits for {hit.get('power')}: "
                     f"{hit.get('given', 0)} Given Up so far"
                     + (" (Stunned: no Block)" if hit.get("stunned") else "") + ".")
    pin = view.get("pin")
    if pin and view.get("phase") in ("kick_out", "three_count"):
        lines.append(f"{star_seat_name(pin.get('pinner'))} pins "
                     f"{star_seat_name(pin.get('pinned'))}"
                     + (f": count {pin['count']}" if pin.get("count") else "") + ".")
    return lines


def _cards_by_id(view: JSON) -> dict[Any, JSON]:
    """Every card the view shows with its id: hands, piles, spots, stacks, extras."""
    cards: list[JSON] = []
    for side in view.get("sides") or ():
        cards += [*(side.get("hand") or ()), *(side.get("discard") or ()),
                  *(side.get("extras") or ()), *(side.get("performance_stack") or ()),
                  *(s["card"] for s in side.get("spots") or () if s.get("card")),
                  *(c for stack in side.get("stacks") or () for c in stack)]
    return {c["id"]: c for c in cards if c and c.get("id")}


@register.filter
def star_seat_label(seat_index: Any, seats: Sequence[Any] | None) -> str:
    """The match seat's label (player or bot) for a seat index."""
    for seat in seats or ():
        if getattr(seat, "index", None) == seat_index:
            return str(seat.label)
    return f"seat {seat_index}"
