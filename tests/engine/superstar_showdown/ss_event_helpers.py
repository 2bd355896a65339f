"""Helpers to drive Superstar Showdown Events to exact situations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.games.superstar_showdown import RULES
from engine.games.superstar_showdown.board import Square
from engine.games.superstar_showdown.cards import Card, CardType, parse_icon
from engine.games.superstar_showdown.state import Phase, State
from engine.protocol import JSON, Event, PendingKind

__all__ = ["PLAIN", "RULES", "act", "chance", "end_round", "event", "give_hand", "match_state",
           "pinned", "place", "settle"]

PLAIN = Card("Plain Hold", CardType.GRAPPLE, (parse_icon("Attack 1", "test", "Plain Hold"),))

# Red drafts these (in pick order), Blue those; coin to Red by default.
RED = ("oakhart", "abbot", "blaze")
BLUE = ("skylark", "cavallo", "quillfeather")


def event(plan: Any, seats: int = 2, round_limit: int = 50, **options: Any) -> State:
    """A fresh Event state (the coin flip pending)."""
    return RULES.start({"event": plan, "round_limit": round_limit, **options}, seats)


def chance(state: State, outcome: JSON) -> State:
    return RULES.apply(state, Event.chance(outcome))


def act(state: State, seat: int, action: JSON) -> State:
    return RULES.apply(state, Event.decision(seat, action))


def settle(state: State, *, coin: int = 0, draws: Sequence[str] = ()) -> State:
    """Resolve pending chance events: shuffles keep sorted order, the coin and the draws
    are as given (else the first drawable card in key order)."""
    queue = list(draws)
    while RULES.pending(state).kind is PendingKind.CHANCE:
        ev = state.event
        if state.shuffles:
            seat, why = state.shuffles[0]
            member = int(why.split(":")[1]) if why.startswith("bench:") else None
            pile: Any = state.sides[seat] if member is None else state.sides[seat].bench[member]
            outcome: JSON = {"shuffle": {"seat": seat, "member": member,
                                         "order": sorted(pile.deck + pile.discard)}}
        elif state.phase is Phase.DRAFT:
            outcome = {"coin": coin}
        else:
            assert ev is not None
            if ev.record.card is None:
                outcome = {"match_card": queue.pop(0) if queue else sorted(ev.drawable_cards())[0]}
            else:
                outcome = {"stipulation": queue.pop(0) if queue
                           else sorted(ev.drawable_stipulations())[0]}
        state = chance(state, outcome)
    return state


def draft(state: State, red: Sequence[str] = RED, blue: Sequence[str] = BLUE, *,
          draw: bool = True) -> State:
    """Play the whole draft with these picks (each list in its own pick order); then
    draw the first Match's card and Stipulation (unless `draw` is false)."""
    queues = {0: list(red), 1: list(blue)}
    while state.phase is Phase.DRAFT:
        state = settle(state)
        if state.phase is not Phase.DRAFT:
            break
        seat = RULES.pending(state).seats[0]
        team = state.teams[seat]
        state = act(state, seat, {"type": "draft", "superstar": queues[team].pop(0)})
    return settle(state) if draw else state


def send_in(state: State, red: Sequence[str], blue: Sequence[str]) -> State:
    captains = {t: state.players(t)[0] for t in (0, 1)}
    state = act(state, captains[0], {"type": "send_in", "superstars": list(red)})
    state = act(state, captains[1], {"type": "send_in", "superstars": list(blue)})
    return settle(state)


def match_state(match: str = "tag_team", stipulation: str = "standard_1", *,
                per_team: int = 3, red: Sequence[str] | None = None,
                blue: Sequence[str] | None = None, seats: int = 2,
                round_limit: int = 50) -> State:
    """An Event of one fixed Match then a Head-to-Head, at the first Play step."""
    plan = {"matches": [{"match": match, "stipulation": stipulation},
                        {"match": "head_to_head", "stipulation": "standard_2"}],
            "superstars_per_team": per_team}
    state = draft(settle(event(plan, seats, round_limit)), RED[:per_team], BLUE[:per_team])
    size = state.event.card().per_side if state.event else 1
    state = send_in(state, red or RED[:size], blue or BLUE[:size])
    assert state.phase is Phase.PLAY, state.phase
    return state


def give_hand(state: State, seat: int, cards: Sequence[Card]) -> State:
    """Replace the designs of a side's hand (in order) with these; a copy of the state."""
    s = state.clone()
    catalog = dict(s.catalog)
    for card_id, design in zip(s.sides[seat].hand, cards, strict=False):
        catalog[card_id] = design
    s.catalog = catalog
    return s


def place(state: State, seat: int, square: Square, bench: Sequence[Square | None] = ()) -> State:
    """Move a side's Active Superstar (and its teammates, in bench order)."""
    s = state.clone()
    s.sides[seat].pos = square
    for member, sq in zip(s.sides[seat].bench, bench, strict=False):
        member.pos = sq
    return s


def end_round(state: State) -> State:
    """Run the end of the round from here (the board is cleared, tags offered)."""
    s = state.clone()
    s.phase = Phase.ROUND_END
    RULES._advance(s)
    return s


def pinned(state: State, pinned_side: int) -> State:
    """`pinned_side` is Pinned and holds no Kick Out card; its deck has none on top."""
    s = state.clone()
    side = s.sides[pinned_side]
    catalog = dict(s.catalog)
    for card in side.hand + side.deck[:3]:
        catalog[card] = PLAIN
    s.catalog = catalog
    s.phase, s.pinner = Phase.KICK_OUT, 1 - pinned_side
    return s
