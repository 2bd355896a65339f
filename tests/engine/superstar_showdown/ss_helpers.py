"""Helpers to build exact Superstar Showdown situations and drive them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.games.superstar_showdown import RULES
from engine.games.superstar_showdown.board import Square
from engine.games.superstar_showdown.cards import Card, CardType, parse_icon
from engine.games.superstar_showdown.state import Phase, Side, State
from engine.protocol import JSON, Event, IllegalAction

__all__ = ["RULES", "C", "IllegalAction", "build", "do", "ids", "legal", "play", "refused"]


def C(name: str, type_: str, *icons: str) -> Card:
    """A card design: C('Hammer', 'strike', 'Attack 2', 'Stun')."""
    return Card(name, CardType(type_), tuple(parse_icon(i, "test", name) for i in icons))


FILLER = C("Plain Hold", "grapple", "Attack 1")


def _side(seat: int, pos: Square, hand: Sequence[Card], deck: Sequence[Card],
          discard: Sequence[Card], rest: str) -> tuple[Side, tuple[Card, ...]]:
    letter = "rb"[seat]
    used = len(hand) + len(deck) + len(discard)
    fill = [FILLER] * (30 - used)
    designs = tuple(list(hand) + list(deck) + list(discard) + fill)
    cid = [f"{letter}{i:02d}" for i in range(1, 31)]
    h, d = cid[:len(hand)], cid[len(hand):len(hand) + len(deck)]
    dis = cid[len(hand) + len(deck):used]
    extra = cid[used:]
    side = Side(superstar=("oakhart", "skylark")[seat], pos=pos, deck=d + (extra if rest == "deck" else []),
                hand=h, discard=dis + (extra if rest == "discard" else []))
    return side, designs


def build(red_hand: Sequence[Card] = (), blue_hand: Sequence[Card] = (), *,
          red_deck: Sequence[Card] = (), blue_deck: Sequence[Card] = (),
          red_discard: Sequence[Card] = (), blue_discard: Sequence[Card] = (),
          red_pos: Square = (2, 2), blue_pos: Square = (6, 6), rest: str = "deck",
          phase: Phase = Phase.PLAY) -> State:
    """A state at the Play step (by default) with exactly these cards.

    Ids are given in order hand, deck (top first), discard, then plain filler cards
    (at the deck's bottom, or in the discard pile with rest='discard').
    """
    red, red_designs = _side(0, red_pos, red_hand, red_deck, red_discard, rest)
    blue, blue_designs = _side(1, blue_pos, blue_hand, blue_deck, blue_discard, rest)
    return State(superstars=("oakhart", "skylark"), decks=(red_designs, blue_designs),
                 round_limit=50, sides=[red, blue], phase=phase)


def do(state: State, seat: int, action: JSON) -> State:
    """Apply one decision."""
    return RULES.apply(state, Event.decision(seat, action))


def legal(state: State, seat: int) -> list[JSON]:
    return RULES.legal_actions(state, seat)


def ids(state: State, seat: int) -> list[str]:
    """The seat's hand ids in order."""
    return list(state.sides[seat].hand)


def play(state: State, red: Sequence[str], blue: Sequence[str]) -> State:
    """Both sides place their three cards."""
    state = do(state, 0, {"type": "play_spots", "cards": list(red)})
    return do(state, 1, {"type": "play_spots", "cards": list(blue)})


def resolve(state: State, seat: int, action: str) -> State:
    return do(state, seat, {"type": "resolve", "action": action})


def steps(state: State, seat: int, *squares: Square) -> State:
    for sq in squares:
        state = do(state, seat, {"type": "step", "to": list(sq)})
    return state


def refused(state: State, seat: int, action: Any) -> str:
    """The refusal code of an action, checking the state did not change."""
    import copy

    before = copy.deepcopy(state)
    try:
        RULES.apply(state, Event.decision(seat, action))
    except IllegalAction as error:
        assert state == before
        return error.code
    raise AssertionError(f"{action!r} was accepted")


def showdown(state: State) -> list[JSON]:
    """This round's settled positions, or the last round's once it has ended."""
    return state.outcomes or state.last_outcomes
