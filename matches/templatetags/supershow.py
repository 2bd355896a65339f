"""Presentation helpers for the Supershow partials.

They read only the seat's view dict and that seat's legal actions: whatever the view
leaves out (other hands, every deck) they cannot show. They arrange it for the
templates: one panel per seat (Competitor, skills, Gimmick, piles in play per opponent,
discard pile and counts), the dice of the last turn roll and of a Finish, the Crowd
Meter, and each legal action with a readable label.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django import template

register = template.Library()

JSON = Mapping[str, Any]

_PHASES = {
    "deal": "Dealing", "draft": "Competitor draft", "open": "Opening a pile",
    "pick": "Card draft", "setup": "Setup", "roll": "Turn roll", "double": "Double Team?",
    "starter": "Who starts", "start": "Start of turn", "effects": "Effects", "turn": "Turn",
    "stop": "Stop?", "choose": "Choosing", "team_up": "Team Up?", "finish": "Finish Roll",
    "save": "Save?", "breakout": "Breakout Rolls", "over": "Match over",
}
_TYPES = {"lead": "Lead", "follow_up": "Follow-Up", "finish": "Finish"}
_SIMPLE = {
    "pass": "End the turn (nothing to bury)", "mulligan": "Mulligan", "no_stop": "Let it hit",
    "team_up": "Team Up", "no_team_up": "No Team Up", "save": "Save",
    "no_save": "No Save", "double_team": "Double Team", "no_double_team": "No Double Team",
}
_CARD = {
    "play": "Play {card}", "bury": "Bury {card}", "stop": "STOP with {card}",
    "protect": "Protect with {card}", "interfere": "Interfere with {card}",
    "choose": "Choose {card}", "discard": "Discard {card}", "pick": "Take {card}",
}


def _seat_word(seat: Any) -> str:
    return f"Seat {seat + 1}" if isinstance(seat, int) else "—"


def _names(view: JSON) -> dict[Any, str]:
    """Seat -> 'Seat 2 (Competitor)' or the seat's name when it has no Competitor yet."""
    out = {}
    for p in view.get("players") or ():
        comp = (p.get("competitor") or {}).get("name") or p.get("name") or "?"
        out[p["seat"]] = f"{_seat_word(p['seat'])} ({comp})"
    return out


@register.filter
def ss_phase(view: JSON) -> str:
    """The phase in words."""
    phase = str(view.get("phase"))
    return _PHASES.get(phase, phase.replace("_", " ").capitalize())


@register.filter
def ss_type(kind: Any) -> str:
    """'Follow-Up' for follow_up."""
    return _TYPES.get(str(kind), str(kind).replace("_", " ").capitalize())


@register.filter
def ss_skill(skill: Any) -> str:
    """A skill in capitals, as the cards print it."""
    return str(skill).upper() if skill else ""


@register.simple_tag
def ss_seat(view: JSON, seat: Any) -> str:
    """'Seat 2 (Competitor)'."""
    return _names(view).get(seat, _seat_word(seat)) if isinstance(seat, int) else "—"


@register.simple_tag
def ss_players(view: JSON) -> list[dict[str, Any]]:
    """Each seat's panel, with its in-play piles named by opponent."""
    deciders = set((view.get("decision") or {}).get("seats") or ())
    out_seats = set(view.get("eliminated") or ())
    teams = view.get("teams") or []
    names = _names(view)
    rows = []
    for p in view.get("players") or ():
        comp = p.get("competitor") or {}
        rows.append({
            **p,
            "label": _seat_word(p.get("seat")),
            "me": p.get("seat") == view.get("viewer"),
            "deciding": p.get("seat") in deciders,
            "active": p.get("seat") == view.get("active"),
            "out": p.get("seat") in out_seats,
            "team": (teams[p["seat"]] + 1 if isinstance(p.get("seat"), int)
                     and p["seat"] < len(teams) else None),
            "skills": sorted((comp.get("skills") or {}).items(), key=lambda kv: -kv[1]),
            "piles": [{"against": names.get(pile.get("against"), "?"),
                       "cards": pile.get("cards") or []}
                      for pile in p.get("in_play") or ()],
            "boost_list": sorted((p.get("boosts") or {}).items()),
        })
    return rows


@register.simple_tag
def ss_dice(view: JSON) -> dict[str, Any]:
    """The last turn roll and the Finish dice, each with the seat named."""
    names = _names(view)

    def named(dice: Sequence[JSON] | None) -> list[dict[str, Any]]:
        return [{**d, "who": names.get(d.get("seat"), "?")} for d in dice or ()]

    finish = view.get("finish")
    return {
        "turn": named(view.get("last_turn_roll")),
        "finish": None if not finish else {
            **finish,
            "who": names.get(finish.get("seat"), "?"),
            "whom": names.get(finish.get("target"), "?"),
            "roll_die": named([finish["roll"]])[0] if finish.get("roll") else None,
            "breakout_dice": named(finish.get("breakouts")),
            "helpers": named(finish.get("helper_dice")),
        },
    }


@register.simple_tag
def ss_hand(view: JSON) -> list[JSON] | None:
    """The viewer's own hand (None for a spectator)."""
    for p in view.get("players") or ():
        if p.get("seat") == view.get("viewer") and p.get("hand") is not None:
            return list(p["hand"])
    return None


def _visible_cards(view: JSON) -> Iterator[JSON]:
    for p in view.get("players") or ():
        yield from p.get("hand") or ()
        yield from p.get("discard") or ()
        for pile in p.get("in_play") or ():
            yield from pile.get("cards") or ()
    yield from view.get("search") or ()
    if view.get("played"):
        yield view["played"]
    if view.get("finish"):
        yield view["finish"]["card"]


@register.simple_tag
def ss_actions(view: JSON, actions: Sequence[JSON] | None = None) -> list[dict[str, Any]]:
    """The page's action entries (verbatim JSON and key), each with a readable label."""
    cards: dict[Any, JSON] = {c.get("id"): c for c in _visible_cards(view)}
    draft = view.get("draft") or {}
    cards.update({k: c for k, c in (draft.get("designs") or {}).items()})
    competitors = {c.get("key"): c.get("name") for c in draft.get("competitors_left") or ()}
    names = _names(view)
    out = []
    for entry in actions or ():
        action = entry.get("action")
        if isinstance(action, Mapping):
            out.append({**entry, "label": _label(action, cards, competitors, names),
                        "kind": str(action.get("type", ""))})
    return out


def _label(action: JSON, cards: Mapping[Any, JSON], competitors: Mapping[Any, Any],
           names: Mapping[Any, str]) -> str:
    kind = str(action.get("type"))
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == "starter":
        return f"{names.get(action.get('seat'), _seat_word(action.get('seat')))} starts"
    if kind == "draft":
        return f"Keep {competitors.get(action.get('competitor'), action.get('competitor'))}"
    if kind == "open_pile":
        return f"Open pile #{action.get('number')}"
    card = cards.get(action.get("card"))
    what = (f"{card.get('name')} ({ss_type(card.get('type'))} {ss_skill(card.get('skill'))})"
            if card else str(action.get("card")))
    text = _CARD.get(kind, kind.replace("_", " ").capitalize() + " {card}").format(card=what)
    target = action.get("target")
    if isinstance(target, int):
        text += f" at {names.get(target, _seat_word(target))}"
    return text
