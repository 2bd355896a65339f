"""What each seat may see: views, redacted events and resampled hidden cards.

Hidden: a hand (from the rival and spectators), every deck's order (from everyone),
face-down spots before they are revealed (from the rival and spectators). Everything
else (positions, revealed stacks, discard piles, Performance Stacks) is public.
"""

from __future__ import annotations

import random

from engine.games.superstar_showdown.board import BOARD
from engine.games.superstar_showdown.cards import ROSTER
from engine.games.superstar_showdown.state import (
    COLOURS,
    SEATS,
    ActionType,
    Phase,
    State,
)
from engine.protocol import JSON, Event, EventKind

PROMPTS = {
    Phase.PLAY: "Play three cards face down to positions 1, 2 and 3.",
    Phase.REVERSAL: "Your Reversal card lost: play a card from hand that beats the rival's, "
                    "or decline.",
    Phase.ACTIONS: "Take the next Action of the winning card, or finish it.",
    Phase.MOTION: "Move one square at a time, bounce off the ropes, or stop.",
    Phase.SHOVE: "You ended on a Superstar: shove them one square, or leave them.",
    Phase.HIT: "You are hit: Give Up a Block from hand, or Give Up cards one at a time "
               "from hand or deck.",
    Phase.STUN: "Stun! Play an extra card from your hand.",
    Phase.PIN: "You have more winning cards and stand side by side: Pin or not?",
    Phase.KICK_OUT: "You are Pinned: Give Up a Kick Out card from hand, or take the Three Count.",
}


def card_json(state: State, card_id: str) -> JSON:
    return state.card(card_id).to_json(card_id)


def _cards(state: State, ids: list[str]) -> list[JSON]:
    return [card_json(state, c) for c in ids]


def side_view(state: State, seat: int, viewer: int | None) -> JSON:
    """One side as `viewer` sees it."""
    side = state.sides[seat]
    own = viewer == seat
    return {
        "seat": seat,
        "colour": COLOURS[seat],
        "superstar": ROSTER[side.superstar].to_json(),
        "position": list(side.pos),
        "square": str(BOARD.kind(side.pos)),
        "in_ring": BOARD.in_ring(side.pos),
        "hand": _cards(state, sorted(side.hand)) if own else None,
        "hand_count": len(side.hand),
        "deck_count": len(side.deck),
        "discard": _cards(state, side.discard),
        "discard_count": len(side.discard),
        "spots_played": side.committed,
        "spots": [
            {"position": p + 1,
             "card": card_json(state, card) if own else None}
            for p, card in enumerate(side.spots) if card is not None
        ],
        "stacks": [_cards(state, stack) for stack in side.stacks],
        "extras": _cards(state, side.extras),
        "performance_stack": _cards(state, side.performance),
        "performance_count": len(side.performance),
        "winning_cards": side.wins,
        "setup_bonus": {"move": side.bonus_move, "power": side.bonus_power},
        "pins": side.pins,
        "kick_outs": side.kick_outs,
    }


def _outcome_json(state: State, record: JSON) -> JSON:
    """A settled position. Its cards may have been reshuffled into a deck since, so they
    are shown without ids: the id would tell where a now hidden card came from."""
    cards = [[state.card(c).to_json(None) for c in ids] for ids in record["cards"]]
    return {**record, "cards": cards}


def view(state: State, viewer: int | None, deciders: tuple[int, ...], chance: bool,
         available: list[str], result: JSON | None) -> JSON:
    """The whole table from one seat (None: a spectator)."""
    c, m, hit = state.current, state.motion, state.hit
    decision = None
    if deciders:
        decision = {"seats": list(deciders), "phase": str(state.phase),
                    "prompt": PROMPTS.get(state.phase, "")}
    return {
        "game": "superstar_showdown",
        "viewer": viewer,
        "round": state.round,
        "round_limit": state.round_limit,
        "phase": str(state.phase),
        "position": state.position + 1 if state.position < 3 else None,
        "waiting_for": "chance" if chance else ("decision" if deciders else "nobody"),
        "decision": decision,
        "board": BOARD.to_json(),
        "positions": [list(side.pos) for side in state.sides],
        "sides": [side_view(state, seat, viewer) for seat in SEATS],
        "current": None if c is None else {
            "seat": c.seat, "card": card_json(state, c.card), "position": c.position + 1,
            "extra": c.extra, "blocked": c.blocked, "move": c.move, "attack": c.attack,
            "power_bonus": c.power_bonus, "used": [str(a) for a in c.used],
            "available": available, "momentum": c.momentum_line,
        },
        "motion": None if m is None else {
            "mover": m.mover, "mode": str(m.mode), "squares_left": m.left, "line": m.line,
            "on_ropes": m.on_ropes, "bouncing": m.bounce_dir is not None,
            "bounces": m.bounces,
        },
        "hit": None if hit is None else {
            "attacker": hit.attacker, "target": 1 - hit.attacker, "power": hit.power,
            "given": hit.given, "stunned": hit.stunned,
        },
        "pin": None if state.pinner is None else {
            "pinner": state.pinner, "pinned": 1 - state.pinner, "count": state.count,
        },
        "showdown": [_outcome_json(state, r) for r in state.outcomes],
        "last_showdown": [_outcome_json(state, r) for r in state.last_outcomes],
        "result": result,
    }


def redact(event: Event, viewer: int | None) -> JSON:
    """A shuffle's order is secret from everyone; face-down plays from all but their owner."""
    if event.kind is EventKind.CHANCE:
        outcome = event.outcome or {}
        shuffle = outcome.get("shuffle") if isinstance(outcome, dict) else None
        seat = shuffle.get("seat") if isinstance(shuffle, dict) else None
        order = shuffle.get("order") if isinstance(shuffle, dict) else None
        count = len(order) if isinstance(order, list) else 0
        return {"kind": "chance", "outcome": {"shuffle": {"seat": seat, "cards": count}}}
    action = event.action or {}
    if action.get("type") == ActionType.PLAY_SPOTS and viewer != event.seat:
        return {"kind": "decision", "seat": event.seat, "action": {"type": "play_spots"}}
    return event.to_json()


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A state `seat` cannot tell apart: decks reshuffled, the rival's hidden cards redealt."""
    s = state.clone()
    mine = s.sides[seat]
    rng.shuffle(mine.deck)
    rival = s.sides[1 - seat]
    face_down = [p for p, card in enumerate(rival.spots) if card is not None]
    pool = rival.hand + rival.deck + [rival.spots[p] or "" for p in face_down]
    pool.sort()
    rng.shuffle(pool)
    n_hand = len(rival.hand)
    rival.hand = pool[:n_hand]
    for i, p in enumerate(face_down):
        rival.spots[p] = pool[n_hand + i]
    rival.deck = pool[n_hand + len(face_down):]
    return s
