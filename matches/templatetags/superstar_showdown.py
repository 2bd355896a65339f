"""Presentation helpers for the Superstar Showdown partials.

They read only the seat's view dict (and that seat's legal actions): whatever the view
leaves out (the rival's hand, face-down spots, deck order, the rival team's face-down
Send In), these helpers cannot show. They arrange it for the templates: the ring as rows of squares with the Active
miniatures, Inactive teammates and the squares a step or shove may go to, the three
positions of this round, both sides' panels, the last Showdown in words, an Event's
scoreboard, draft, Send In and bonus choices, and every legal action with a readable label.

In an Event a side is a team (`side.seat` is the team: 0 Red, 1 Blue) and several seats
may play for it; `_viewer_team` maps the viewing seat to its side.

Coordinates are shown as the engine and its narration write them: `[row, column]`, both
from 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template

from engine.protocol import counted

register = template.Library()

JSON = Mapping[str, Any]
SPOTS = (1, 2, 3)
PLAY, STEP, SHOVE = "play_spots", "step", "shove"
DRAFT, SEND_IN, BUY_BONUS, BONUS_POINTS = "draft", "send_in", "buy_bonus", "bonus_points"
BOARD_TYPES = frozenset({STEP, SHOVE})
EVENT_TYPES = frozenset({DRAFT, SEND_IN, BUY_BONUS, BONUS_POINTS})  # the Event panels' choices
SEAT_NAMES = ("Red", "Blue")
COLOURS = ("red", "blue")

_PHASES = {
    "draw": "Drawing cards",
    "play": "Play three cards",
    "compare": "Comparing cards",
    "reversal": "Reversal",
    "actions": "Winning card's Actions",
    "motion": "Moving",
    "shove": "Shove",
    "hit": "Delivering a hit",
    "corner": "Corner Attack: hit?",
    "stun": "Stun: extra card",
    "pin": "Pin",
    "kick_out": "Kick Out",
    "three_count": "Three Count",
    "round_end": "End of the round",
    "tag": "Tag Out?",
    "draft": "Draft",
    "setup": "Setting the Match",
    "send_in": "Send in",
    "bonus": "Match bonuses",
    "over": "Match over",
}
_EVENT_PHASES = {
    "draft": "Draft",
    "send_in": "Send in the Superstars",
    "match": "Match in progress",
    "bonus": "Match bonuses",
    "over": "Event over",
}
_MATCH_STATUS = {"done": "Played", "pending": "Upcoming", "playing": "Now playing",
                 "bonus": "Bonuses"}
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
    "no_corner_hit": "Don't hit",
    "pin": "Pin",
    "no_pin": "No Pin",
    "three_count": "Take the Three Count",
    "no_tag": "Stay in (no Tag Out)",
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
def star_event_phase(phase: str) -> str:
    """The Event's phase in words."""
    return _EVENT_PHASES.get(phase, str(phase).replace("_", " ").capitalize())


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
    tag_match = view.get("match_kind") == "tag"
    markers: dict[tuple[int, ...], list[dict[str, Any]]] = {}
    for side in view.get("sides") or ():
        if side.get("position") is not None and side.get("superstar"):
            markers.setdefault(tuple(side["position"]), []).append(_marker(side))
        for member in side.get("bench") or ():
            if member.get("position") is not None:
                markers.setdefault(tuple(member["position"]), []).append(
                    _bench_marker(side, member))
    rows = []
    for r, line in enumerate(squares):
        cells = []
        for c, kind in enumerate(line):
            square = (r, c)
            classes = ["sq", f"sq-{kind}"]
            if square in zones:
                classes.append(f"tag-{COLOURS[zones[square]]}")
                if tag_match:
                    classes.append("tag-live")
            if square in starts:
                classes.append(f"start-{('red', 'blue')[starts[square]]}")
            if square in targets:
                classes.append("can-go")
            cells.append({"r": r, "c": c, "kind": kind, "classes": " ".join(classes),
                          "start": starts.get(square), "zone": zones.get(square),
                          "markers": markers.get(square, []), "target": targets.get(square),
                          "place": _square_place(square, kind, starts, zones)})
        rows.append({"r": r, "cells": cells})
    cols = list(range(len(squares[0]))) if squares else []
    inactive = any(m.get("position") is not None
                   for side in view.get("sides") or () for m in side.get("bench") or ())
    return {"rows": rows, "cols": cols, "has_targets": bool(targets),
            "has_inactive": inactive, "tag_match": tag_match}


def _marker(side: JSON) -> dict[str, Any]:
    star = side.get("superstar") or {}
    return {"seat": side.get("seat"), "colour": side.get("colour", ""),
            "initial": _initial(side), "name": star.get("name", ""), "inactive": False}


def _bench_marker(side: JSON, member: JSON) -> dict[str, Any]:
    """An Inactive teammate at ringside: its own initial, drawn hollow (SS-144)."""
    star = member.get("superstar") or {}
    return {"seat": side.get("seat"), "colour": side.get("colour", ""),
            "initial": str(star.get("key") or "?")[0].upper(), "name": star.get("name", ""),
            "inactive": True}


def _square_place(square: tuple[int, int], kind: str, starts: Mapping[Any, int],
                  zones: Mapping[Any, int]) -> str:
    """What a square is ('ropes', 'outside, Red Tag Zone'), which its colour shows."""
    words = [kind]
    if square in starts:
        words.append(f"{SEAT_NAMES[starts[square]]} start")
    if square in zones:
        words.append(f"{SEAT_NAMES[zones[square]]} Tag Zone")
    return ", ".join(words)


# -- both sides -------------------------------------------------------------------------

@register.simple_tag
def star_sides(view: JSON) -> list[dict[str, Any]]:
    """Each side's panel: stat card, counts, Performance Stack, setup bonuses, pins, and
    in an Event its Inactive teammates (SS-144) and falls (Endurance)."""
    deciders = _deciding_teams(view)
    me = _viewer_team(view)
    two_falls = view.get("stipulation_effect") == "two_falls"
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
            "me": me is not None and side.get("seat") == me,
            "deciding": side.get("seat") in deciders,
            "where": star_square(side.get("square", "")),
            "performance_top": list(reversed(stack[-3:])),
            "bonuses": [f"+{n} {what}" for what, n in (("movement", bonus.get("move", 0)),
                                                        ("power", bonus.get("power", 0))) if n],
            "bench": [_bench_entry(member) for member in side.get("bench") or ()],
            "show_falls": two_falls or bool(side.get("falls")),
        })
    return out


def _bench_entry(member: JSON) -> dict[str, Any]:
    """An Inactive teammate in words: where it stands and its set-aside deck."""
    pos = member.get("position")
    if pos is None:
        where = "waiting to enter"  # a Gauntlet's next Superstar (SS-122)
    elif member.get("in_tag_zone"):
        where = f"in the Tag Zone [{pos[0]}, {pos[1]}]"
    else:
        where = f"at ringside [{pos[0]}, {pos[1]}]"
    star = member.get("superstar") or {}
    return {"name": star.get("name", "?"), "initial": str(star.get("key") or "?")[0].upper(),
            "where": where, "in_tag_zone": bool(member.get("in_tag_zone")),
            "deck_count": member.get("deck_count", 0)}


def _viewer_team(view: JSON) -> int | None:
    """The side the viewing seat plays for (None: a spectator)."""
    viewer = view.get("viewer")
    teams = view.get("teams") or ()
    if viewer is None:
        return None
    return teams[viewer] if isinstance(viewer, int) and 0 <= viewer < len(teams) else viewer


def _deciding_teams(view: JSON) -> set[int]:
    """The sides whose seats a decision waits for."""
    teams = view.get("teams") or ()
    seats = (view.get("decision") or {}).get("seats") or ()
    return {teams[s] if 0 <= s < len(teams) else s for s in seats}


@register.simple_tag
def star_waiting_for(view: JSON) -> str:
    """'Red & Blue': the sides a decision waits for, in words."""
    return " & ".join(SEAT_NAMES[t] for t in sorted(_deciding_teams(view)) if t in (0, 1))


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
        cards = record.get("cards") or [[], []]
        words.append("countout: " + ", ".join(
            f"{SEAT_NAMES[s]} Gives Up the losing "
            + ("card" if s in (0, 1) and len(cards[s]) == 1 else "cards") for s in countout))
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
def star_decision(view: JSON, actions: Sequence[JSON] | None = None,
                  refused: JSON | None = None, code: str = "") -> dict[str, Any]:
    """The viewer's decision: prompt, context, the cards a play may put on each spot (one
    select per spot, composed into the action by the form; each spot `chosen` as in the
    play just `refused`, where its card may still go there, and `at_fault` where the
    refusal's `code` concerns that spot: its select is described by the refusal, marked
    invalid, and the first of them (`first_at_fault`, 0 for none) takes focus), buttons.

    Every entry keeps its verbatim `json` (an item of legal_actions) and idempotency key;
    step and shove targets are left to the board (`on_board`).
    """
    entries = _entries(view, actions)
    viewer = view.get("viewer")
    decision = view.get("decision") or {}
    asked = viewer is not None and viewer in (decision.get("seats") or ())
    plays = [e for e in entries if e["action"].get("type") == PLAY]
    on_board = [e for e in entries if e["action"].get("type") in BOARD_TYPES]
    buttons = [e for e in entries
               if e["action"].get("type") not in BOARD_TYPES | EVENT_TYPES | {PLAY}]
    cards = _cards_by_id(view)
    playable: dict[str, JSON] = {}  # every card some play puts down, in the order first seen
    for entry in plays:
        for card_id in entry["action"]["cards"]:
            card = cards.get(card_id) or {}
            playable.setdefault(card_id, {"id": card_id, "name": str(card.get("name", card_id)),
                                          "type": str(card.get("type") or "")})
    spots = _spots(len(plays[0]["action"]["cards"]) if plays else 0, playable, refused, code)
    return {
        "asked": asked,
        "prompt": decision.get("prompt", "") if asked else "",
        "context": _context_lines(view),
        "play_spots": spots,
        "first_at_fault": next((spot["number"] for spot in spots if spot["at_fault"]), 0),
        "play_cards": list(playable.values()),
        "play_key": plays[0]["key"] if plays else "",
        "buttons": buttons,
        "on_board": on_board,
        "any": bool(entries),
    }


def _refused_play(refused: JSON | None) -> JSON | None:
    """The action just refused (views.act), where it was a play composed spot by spot."""
    return refused if isinstance(refused, dict) and refused.get("type") == PLAY else None


def _at_fault(code: str, card: Any, sent: list[Any], playable: dict[str, JSON]) -> bool:
    """Whether the refusal `code` of a play concerns the spot it sent `card` for (""
    for none): a spot left unchosen, a card on two spots, a card not in the hand. Any
    other refusal (a stale page, a play of the wrong size) is the whole play's, and marks
    no spot."""
    if code == "move_incomplete":
        return card == ""
    if code == "duplicate_card":
        return sent.count(card) > 1
    if code == "card_not_in_hand":
        return not isinstance(card, str) or card not in playable
    return False


def _spots(count: int, playable: dict[str, JSON], refused: JSON | None,
           code: str = "") -> list[dict[str, Any]]:
    """The play form's spots, numbered from 1, each with the card the `refused` play put
    there ("" for none, or one no longer playable) and whether the refusal's `code`
    concerns it (`at_fault`)."""
    play = _refused_play(refused)
    cards = play.get("cards") if play is not None else None
    sent = list(cards)[:count] if isinstance(cards, list) else []
    spots = []
    for number in range(1, count + 1):
        card = sent[number - 1] if number <= len(sent) else ""
        chosen = card if isinstance(card, str) and card in playable else ""
        spots.append({"number": number, "chosen": chosen,
                      "at_fault": len(sent) == count and _at_fault(code, card, sent, playable)})
    return spots


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
        teammate = _moving_teammate(view)
        if teammate:
            return f"Move {teammate} to {where}"
        mover = (view.get("motion") or {}).get("mover")
        if mover is not None and mover != _viewer_team(view):
            return f"Throw {star_seat_name(mover)} to {where}"
        return f"Move to {where}"
    if kind == "stop":
        teammate = _moving_teammate(view)
        if teammate:
            return f"{teammate} stops here"
        mover = (view.get("motion") or {}).get("mover")
        thrown = mover is not None and mover != _viewer_team(view)
        return "End the Throw here" if thrown else "Stop here"
    if kind == "corner_hit":
        bonus = (view.get("current") or {}).get("power_bonus") or 0
        return f"Hit with the Corner Attack (power {3 + bonus})"
    if kind in _SIMPLE:
        return _SIMPLE[str(kind)]
    if kind in EVENT_TYPES or kind in ("tag_out", "assist"):
        return _team_label(action, view)
    return str(kind or "act").replace("_", " ").capitalize()


def _team_label(action: JSON, view: JSON) -> str:
    """The Advanced Rules' choices in words: draft, Send In, Tag Out, assist, bonuses."""
    kind = action.get("type")
    star = _star_name(view, action.get("superstar"))
    if kind == DRAFT:
        return f"Draft {star}"
    if kind == SEND_IN:
        names = [_star_name(view, k) for k in action.get("superstars") or ()]
        if len(names) == 1:
            return f"Send in {names[0]}"
        return ", then ".join([f"{names[0]} (starts)", *names[1:]])
    if kind == "tag_out" and view.get("phase") == "kick_out":
        return f"Tag Team Kick Out: tag in {star}"  # SS-151
    if kind == "tag_out":
        return f"Tag Out: {star} comes in"
    if kind == "assist":
        return f"{star} takes a Move 3 outside the ring"  # SS-155
    if kind == BUY_BONUS:
        card = _bonus_card(view, action.get("card"))
        return f"Buy {card.get('name', action.get('card'))} ({card.get('price', '?')}) for {star}"
    points = action.get("points")
    return f"Take {points} bonus Ranking Point{'' if points == 1 else 's'}"  # SS-138


def _moving_teammate(view: JSON) -> str:
    """The name of the Inactive teammate taking a Move 3, if one is moving."""
    motion = view.get("motion") or {}
    member, mover = motion.get("member"), motion.get("mover")
    if member is None or mover not in (0, 1):
        return ""
    sides = view.get("sides") or ()
    bench = (sides[mover].get("bench") or []) if mover < len(sides) else []
    star = (bench[member].get("superstar") or {}) if 0 <= member < len(bench) else {}
    return str(star.get("name") or "A teammate")


def _bonus_card(view: JSON, key: Any) -> JSON:
    """A Bonus card of the Event's pool (with its price), by key."""
    for card in (view.get("event") or {}).get("pool") or ():
        if card.get("id") == key:
            return card
    return {}


def _stat_card(view: JSON, key: Any) -> JSON:
    """A Superstar's stat card, from the view (an Event's view carries the whole box)."""
    if not isinstance(key, str):
        return {}
    for side in view.get("sides") or ():
        for star in [side.get("superstar"), *(m.get("superstar") for m in side.get("bench") or ())]:
            if star and star.get("key") == key:
                return dict(star)
    roster = (view.get("event") or {}).get("roster") or {}
    if key in roster:
        return dict(roster[key])
    return {"key": key}


def _star_name(view: JSON, key: Any) -> str:
    """A Superstar's ring name, or its key made readable."""
    return str(_stat_card(view, key).get("name") or str(key or "?").replace("_", " ").title())


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
        teammate = _moving_teammate(view)
        if teammate:
            lines.append(f"{mover}'s teammate {teammate}: "
                         f"{counted(motion.get('squares_left', 0), 'square')} left; an "
                         "Inactive Superstar may not enter the ring.")
        elif motion.get("bouncing"):
            lines.append(f"{mover} bounced off the ropes: run straight across.")
        else:
            lines.append(f"{mover}: {counted(motion.get('squares_left', 0), 'square')} left"
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
    return f"Seat {seat_index + 1}"  # counted from 1, as the pages do


# -- the Event --------------------------------------------------------------------------

@register.simple_tag
def star_event(view: JSON, actions: Sequence[JSON] | None = None) -> dict[str, Any] | None:
    """An Event's scoreboard, Matches, draft, Send In and bonuses (None outside Events).

    The choices of the draft, the Send In and the bonus phase are the seat's legal
    actions, each with its label, placed next to what they choose.
    """
    event = view.get("event")
    if not event:
        return None
    entries = [e for e in _entries(view, actions) if e["action"].get("type") in EVENT_TYPES]
    mine = _viewer_team(view)
    deciding = _deciding_teams(view)
    matches = [_match_entry(view, m, event) for m in event.get("matches") or ()]
    current = event.get("current")
    phase = str(event.get("phase") or "")
    return {
        "phase": phase,
        "phase_label": star_event_phase(phase),
        "before_match": phase in ("draft", "send_in"),
        "teams": [_team_entry(view, team, mine, deciding) for team in event.get("teams") or ()],
        "matches": matches,
        "match_count": len(matches),
        "current": matches[current] if isinstance(current, int) and current < len(matches)
        else None,
        "draft": _draft_entry(view, event, entries) if phase == "draft" else None,
        "send_in": _send_in_entry(view, event, entries, mine) if phase == "send_in" else None,
        "bonus": _bonus_entry(view, event, entries, mine) if phase == "bonus" else None,
        "result": _event_result(event) if event.get("over") else None,
    }


def _team_entry(view: JSON, team: JSON, mine: int | None, deciding: set[int]) -> dict[str, Any]:
    t = team.get("team")
    bought: dict[Any, list[JSON]] = {}
    for card in team.get("bonus_cards") or ():
        bought.setdefault(card.get("superstar"), []).append(card)
    return {
        **team,
        "colour": COLOURS[t] if t in (0, 1) else "",
        "mine": mine is not None and t == mine,
        "deciding": t in deciding,
        "stars": [{"key": key, "name": _star_name(view, key), "bonus_cards": bought.get(key, [])}
                  for key in team.get("superstars") or ()],
    }


def _match_entry(view: JSON, match: JSON, event: JSON) -> dict[str, Any]:
    """One Match of the series: card, Stipulation, status and, once over, its points."""
    status = str(match.get("status") or "")
    played = status in ("done", "bonus")
    winner = match.get("winner")
    names = {c.get("card"): c.get("name") for team in event.get("teams") or ()
             for c in team.get("bonus_cards") or ()}
    if not played:
        outcome = ""
    elif match.get("draw"):
        outcome = "Draw"
    else:
        outcome = f"{star_seat_name(winner)} wins" if winner in (0, 1) else ""
    return {
        **match,
        "title": match.get("match_title") or "Match card to be drawn",
        "stipulation_name": match.get("stipulation_title") or "Stipulation to be drawn",
        "status_label": _MATCH_STATUS.get(status, status.capitalize()),
        "played": played,
        "now": status in ("playing", "bonus"),
        "outcome": outcome,
        "lines": [
            *(f"{SEAT_NAMES[t]} sent in " + ", ".join(_star_name(view, k) for k in sent)
              for t, sent in enumerate(match.get("sent") or ()) if sent and t < 2),
            *(f"{SEAT_NAMES[t]} bought " + ", ".join(str(names.get(k, k)) for k in bought)
              for t, bought in enumerate(match.get("bought") or ()) if bought and t < 2),
        ],
    }


def _draft_entry(view: JSON, event: JSON, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """SS-116..SS-118: whose pick it is, and the Superstars still to be drafted."""
    draft = event.get("draft") or {}
    order = list(draft.get("order") or ())
    picks = int(draft.get("picks") or 0)
    by_key = {e["action"].get("superstar"): e for e in entries
              if e["action"].get("type") == DRAFT}
    available = []
    for key in draft.get("available") or ():
        star = _stat_card(view, key)
        available.append({**star, "key": key, "name": _star_name(view, key),
                          "stats": list((star.get("stats") or {}).items()),
                          "entry": by_key.get(key)})
    nxt = order[picks] if picks < len(order) else None
    return {
        "first_pick": draft.get("first_pick"),
        "order": [{"team": t, "name": star_seat_name(t), "colour": COLOURS[t] if t in (0, 1)
                   else "", "done": i < picks, "next": i == picks}
                  for i, t in enumerate(order)],
        "picks": picks, "total": len(order), "next_pick": picks + 1,
        "next": star_seat_name(nxt) if nxt is not None else "",
        "available": available,
        "my_pick": bool(by_key),
    }


def _send_in_entry(view: JSON, event: JSON, entries: list[dict[str, Any]],
                   mine: int | None) -> dict[str, Any]:
    """SS-133: each team chooses face down; the rival's choice is never in the view, only
    whether it has been made."""
    teams = []
    for team in event.get("teams") or ():
        t = team.get("team")
        sent = team.get("sent_in")
        teams.append({"name": team.get("name") or star_seat_name(t),
                      "colour": COLOURS[t] if t in (0, 1) else "",
                      "chosen": bool(team.get("sent_in_chosen")),
                      "mine": mine is not None and t == mine,
                      "choice": [_star_name(view, k) for k in sent] if sent else []})
    choices = [e for e in entries if e["action"].get("type") == SEND_IN]
    per_side = len(choices[0]["action"].get("superstars") or ()) if choices else 0
    return {"teams": teams, "entries": choices, "per_side": per_side}


def _bonus_entry(view: JSON, event: JSON, entries: list[dict[str, Any]],
                 mine: int | None) -> dict[str, Any]:
    """SS-135..SS-139: Bonus cards grouped per card (one button per Superstar), and the
    rest of the stack as bonus Ranking Points."""
    groups: dict[Any, dict[str, Any]] = {}
    points = None
    for entry in entries:
        action = entry["action"]
        if action.get("type") == BONUS_POINTS:
            points = entry
        elif action.get("type") == BUY_BONUS:
            card = _bonus_card(view, action.get("card"))
            group = groups.setdefault(action.get("card"), {"card": card, "entries": []})
            star = _star_name(view, action.get("superstar"))
            group["entries"].append({**entry, "short": f"for {star}"})
    stacks = [{"name": team.get("name") or star_seat_name(team.get("team")),
               "colour": COLOURS[team["team"]] if team.get("team") in (0, 1) else "",
               "left": team.get("stack_left", 0),
               "mine": mine is not None and team.get("team") == mine}
              for team in event.get("teams") or ()]
    mine_left = next((s["left"] for s in stacks if s["mine"]), 0)
    groups_list = sorted(groups.values(), key=lambda g: (-int(g["card"].get("price") or 0),
                                                         str(g["card"].get("name"))))
    return {"groups": groups_list, "points": points, "stacks": stacks, "left": mine_left}


def _event_result(event: JSON) -> dict[str, Any]:
    """SS-130/SS-131: the winning team (most Ranking Points, then most Matches won)."""
    winner = event.get("winner")
    teams = [{"name": t.get("name"), "colour": COLOURS[t["team"]] if t.get("team") in (0, 1)
              else "", "total": t.get("total", 0), "match_points": t.get("match_points", 0),
              "bonus_points": t.get("bonus_points", 0), "matches_won": t.get("matches_won", 0),
              "won": t.get("team") == winner}
             for t in event.get("teams") or ()]
    return {"winner": star_seat_name(winner) if winner in (0, 1) else "",
            "colour": COLOURS[winner] if winner in (0, 1) else "",
            "draw": winner not in (0, 1), "teams": teams}
