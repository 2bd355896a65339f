"""Presentation helpers for the Ultimate Showdown partials.

They read only the seat's view dict and that seat's legal actions, so they cannot show
what the view leaves out. They arrange the bracket by stage, label every legal action
with the names the view shows, and lay out the score board across the five rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template

register = template.Library()

Entry = Mapping[str, Any]
_BOXES = {"champion": "Champion", "final": "Final", "semi": "Semi-Final"}
_PHASES = {
    "setup": "Setting up", "choose_sides": "Choosing the Challenge sides",
    "challenge_vote": "Voting for the Challenge", "play": "Playing Contenders face down",
    "slots": "Filling the slots", "bet": "Making predictions", "match": "Deciding the matches",
    "discard": "Discarding and drawing", "sudden_death": "Sudden death", "over": "Over",
}


def _slot_names(view: Mapping[str, Any]) -> dict[int, str]:
    bracket = view.get("bracket") or {}
    return {s["slot"]: s["contender"]["name"] for s in bracket.get("slots", [])}


def _hand_names(view: Mapping[str, Any]) -> dict[str, str]:
    return {c["id"]: c["name"] for c in view.get("hand") or []}


def _seat_name(view: Mapping[str, Any], seat: int) -> str:
    for s in view.get("seats", []):
        if s.get("seat") == seat:
            return str(s.get("name"))
    return f"Seat {seat + 1}"  # counted from 1, as the pages do


def _challenge_text(view: Mapping[str, Any], space: str) -> str:
    for choice in (view.get("challenge_step") or {}).get("choices", []):
        if choice["space"] == space:
            return str(choice["challenge"]["text"])
    return ""


def label(view: Mapping[str, Any], action: Mapping[str, Any]) -> str:
    """A readable label for one legal action, from the view's names."""
    kind = action.get("type")
    hand, slots = _hand_names(view), _slot_names(view)
    if kind == "choose_sides":
        drawn = (view.get("challenge_step") or {}).get("drawn", [])
        parts = [f"{d['space']}: {d[side]['text']}"
                 for d, side in zip(drawn, action.get("sides", []), strict=False)]
        return "Use " + " · ".join(parts)
    if kind == "vote_challenge":
        return f"Vote {action['space']}: {_challenge_text(view, action['space'])}"
    if kind == "play_contenders":
        a = ", ".join(hand.get(c, c) for c in action.get("box_a", []))
        b = ", ".join(hand.get(c, c) for c in action.get("box_b", []))
        return f"Box A: {a}" + (f" · Box B: {b}" if b else "")
    if kind == "bet":
        return f"#{action['slot']} {slots.get(action['slot'], '')}"
    if kind == "vote_match":
        return f"Vote #{action['slot']} {slots.get(action['slot'], '')}"
    if kind == "discard":
        cards = action.get("cards", [])
        if not cards:
            return "Keep my whole hand"
        return "Discard " + ", ".join(hand.get(c, c) for c in cards)
    if kind == "vote_player":
        return f"Vote for {_seat_name(view, action['seat'])}"
    return str(kind)


@register.simple_tag
def us_choices(view: Mapping[str, Any], actions: Sequence[Entry] | None = None
               ) -> list[dict[str, Any]]:
    """Legal actions grouped for the page: [{title, entries: [{entry, label}]}]."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in actions or ():
        action = entry["action"]
        if action.get("type") == "bet":
            title = f"{_BOXES.get(action.get('box'), '')} bet"
        elif action.get("type") == "vote_match":
            title = "Your vote"
        else:
            title = "Choose"
        labelled = {**entry, "label": label(view, action)}
        groups.setdefault(title, []).append(labelled)
    return [{"title": title, "entries": entries} for title, entries in groups.items()]


@register.simple_tag
def us_bracket(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The bracket by stage: slots 1-8, then quarter-finals, semi-finals and the final."""
    bracket = view.get("bracket")
    if not bracket:
        return None
    names = _slot_names(view)
    stages: dict[str, list[dict[str, Any]]] = {}
    for match in bracket["matches"]:
        vote = match.get("vote")
        ballots = []
        if vote:
            ballots = [{"seat": _seat_name(view, s), "slot": b} for s, b in
                       enumerate(vote["ballots"])]
        stages.setdefault(match["stage"], []).append({
            **match, "orange_name": names.get(match["orange"], "?"),
            "blue_name": names.get(match["blue"], "?"),
            "winner_name": names.get(match["winner"], ""), "ballots": ballots})
    final = bracket["matches"][-1]
    return {"slots": bracket["slots"], "stages": list(stages.items()),
            "champion": names.get(final["winner"]) if final["winner"] else None}


@register.simple_tag
def us_scoreboard(view: Mapping[str, Any], seats: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """One row per seat: points in rounds 1-5 (blank when not yet played) and the total,
    its colour beside who sits there as the page's `seats` name them (`who`): the colour
    alone left a table of eight to guess who "Green" was."""
    rounds = int(view.get("rounds", 5))
    labels = {row.index: row.label for row in seats}
    rows = []
    for seat in view.get("seats", []):
        points = list(seat["round_points"])
        cells = [points[i] if i < len(points) else "" for i in range(rounds)]
        rows.append({"seat": seat["seat"], "name": seat["name"], "cells": cells,
                     "who": labels.get(seat["seat"], ""),
                     "score": seat["score"], "me": seat["seat"] == view.get("viewer"),
                     "pow": (view.get("pow") or {}).get("holder") == seat["seat"],
                     "waiting": seat["waiting"]})
    return rows


@register.filter
def us_phase(phase: str) -> str:
    return _PHASES.get(phase, phase.replace("_", " "))


@register.filter
def us_box(box: str) -> str:
    return _BOXES.get(box, box)


@register.filter
def us_slot_name(slot: Any, view: Mapping[str, Any]) -> str:
    """'#3 Robin Hood' for a slot number (empty for none)."""
    if slot is None:
        return "—"
    return f"#{slot} {_slot_names(view).get(slot, '')}".strip()


@register.filter
def us_seat_name(seat: Any, view: Mapping[str, Any]) -> str:
    return "—" if seat is None else _seat_name(view, seat)
