"""Presentation helpers for the Super Showdown partials.

They read only the seat's view dict (and the legal actions of that seat): whatever the
view leaves out, these helpers cannot show. They arrange it for the templates: the grid
as rows of cells, the hand with the card each `play_card` action plays, and labels for
the Speed choices.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template

register = template.Library()

MOVE, PLAY, CHOOSE = "move", "play_card", "choose_outcome"

# What the table asks in each phase, said to the seat that must answer.
_ASKED = {
    "starter_move": "Move your marker up to {steps} spaces (no diagonals), or stay.",
    "nemesis_move": "Move your marker up to {steps} spaces (no diagonals), or stay.",
    "nemesis_second_move": "Second move: up to {steps} spaces, or stay.",
    "starter_second_move": "Last move of the round: up to {steps} spaces, or stay.",
    "play": "Play one card face down (any colour).",
    "speed_choice": "Speed Showdown: choose which cards are victorious and which defeated.",
}
_PHASES = {
    "deal": "Dealing the cards",
    "first_roll": "Rolling the first die",
    "starter_move": "First move",
    "nemesis_move": "Nemesis moves",
    "play": "Both play a card face down",
    "second_roll": "Rolling the second die",
    "nemesis_second_move": "Nemesis moves again",
    "starter_second_move": "Last move",
    "speed_choice": "Speed Showdown choice",
    "over": "Over",
}
_TWISTS = {
    "ray_gun": "Ray-Gun! Green cards victorious, white cards defeated.",
    "ray_gun_reversed": "Decoy! reversed the Ray-Gun.",
    "over_19": "Same-colour cards over 19 are defeated.",
    "tie": "Equal numbers: no high card.",
}


@register.simple_tag
def ss_grid(view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]] | None = None
            ) -> dict[str, Any]:
    """Rows of cells with their features, markers and (if legal) the move there."""
    board = view.get("board") or {}
    width, height = board.get("width", 0), board.get("height", 0)
    boosts = {tuple(sq) for sq in board.get("powerboosts", [])}
    starts = {tuple(sq): role for role, sq in (board.get("starts") or {}).items()}
    mayhem = tuple(view["mayhem"]) if view.get("mayhem") else None
    dice = view.get("dice") or {}
    moves = {tuple(e["action"]["to"]): e for e in actions or () if e["action"].get("type") == MOVE}
    markers: dict[tuple[int, ...], list[Mapping[str, Any]]] = {}
    for seat in view.get("seats", []):
        if seat.get("position"):
            markers.setdefault(tuple(seat["position"]), []).append(seat)
    rows = []
    for y in range(1, height + 1):
        cells = []
        for x in range(1, width + 1):
            square = (x, y)
            classes = ["sq"]
            if square in boosts:
                classes.append("boost")
            if square in starts:
                classes.append(f"start-{starts[square]}")
            if square == mayhem:
                classes.append("mayhem")
            if dice.get("white") == x:
                classes.append("white-col")
            if dice.get("green") == y:
                classes.append("green-row")
            if square in moves:
                classes.append("can-move")
            cells.append({"x": x, "y": y, "classes": " ".join(classes),
                          "start": starts.get(square), "boost": square in boosts,
                          "mayhem": square == mayhem, "markers": markers.get(square, []),
                          "move": moves.get(square)})
        rows.append({"y": y, "cells": cells})
    return {"cols": list(range(1, width + 1)), "rows": rows, "can_move": bool(moves),
            "white": dice.get("white"), "green": dice.get("green")}


@register.simple_tag
def ss_hand(view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]] | None = None
            ) -> list[dict[str, Any]]:
    """The viewer's hand, each card with the action that plays it (when legal now)."""
    plays = {e["action"].get("card"): e for e in actions or ()
             if e["action"].get("type") == PLAY}
    return [{"card": card, "play": plays.get(card["id"])} for card in view.get("hand") or ()]


@register.simple_tag
def ss_choices(view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]] | None = None
               ) -> list[dict[str, Any]]:
    """The Speed choices, each labelled with the visible names of its cards."""
    names = _card_names(view)
    out = []
    for entry in actions or ():
        action = entry["action"]
        if action.get("type") != CHOOSE:
            continue
        out.append({"entry": entry,
                    "victorious": [names.get(c, c) for c in action.get("victorious", [])],
                    "defeated": [names.get(c, c) for c in action.get("defeated", [])]})
    return out


@register.simple_tag
def ss_last_showdown(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The last settled Showdown with card names and its twist in words."""
    last = view.get("last_showdown")
    if not last:
        return None
    names = _card_names(view)
    return {**last,
            "victorious_names": [names.get(c, c) for c in last.get("victorious", [])],
            "defeated_names": [names.get(c, c) for c in last.get("defeated", [])],
            "twist_text": _TWISTS.get(last.get("twist") or "", last.get("twist") or "")}


@register.simple_tag
def ss_other_actions(actions: Sequence[Mapping[str, Any]] | None = None
                     ) -> list[Mapping[str, Any]]:
    """Legal actions the board, the hand and the Speed choices do not already offer."""
    return [e for e in actions or () if e["action"].get("type") not in {MOVE, PLAY, CHOOSE}]


@register.simple_tag
def ss_asked(view: Mapping[str, Any]) -> str:
    """What the viewer is asked to do now (empty when it is not their decision)."""
    viewer, pending = view.get("viewer"), view.get("pending") or {}
    if viewer is None or viewer not in pending.get("seats", []):
        return ""
    steps = 2
    me = _seat(view, viewer)
    boosts = (view.get("board") or {}).get("powerboosts", [])
    if me and me.get("position") in boosts:
        steps = 3
    return _ASKED.get(view.get("phase", ""), "Your decision.").format(steps=steps)


@register.filter
def ss_phase(phase: str) -> str:
    """The phase in words."""
    return _PHASES.get(phase, phase.replace("_", " "))


@register.filter
def ss_seat_label(seat_index: Any, seats: Sequence[Any] | None) -> str:
    """The match seat's label (player or bot) for a seat index."""
    for seat in seats or ():
        if seat.index == seat_index:
            return str(seat.label)
    return f"Seat {seat_index + 1}"  # counted from 1, as the pages do


def _seat(view: Mapping[str, Any], index: int) -> Mapping[str, Any] | None:
    return next((s for s in view.get("seats", []) if s.get("seat") == index), None)


def _card_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Every card the view shows, by id: hand, played cards, piles, last Showdown."""
    cards: list[Mapping[str, Any]] = [*(view.get("hand") or ()),
                                      *view.get("victory_pile", ()), *view.get("defeat_pile", ())]
    cards += [s["played"]["card"] for s in view.get("seats", [])
              if (s.get("played") or {}).get("card")]
    cards += (view.get("last_showdown") or {}).get("cards", [])
    return {c["id"]: f"{c['name']} ({c['colour']} {c['number']})" for c in cards}
