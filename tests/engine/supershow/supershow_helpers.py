"""Helpers to build exact Supershow situations and drive them."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from engine.games.supershow import RULES
from engine.games.supershow.cards import CATALOG
from engine.games.supershow.state import Phase, Player, State, Step, card_id
from engine.protocol import JSON, Event, IllegalAction

__all__ = ["RULES", "IllegalAction", "build", "dice", "do", "legal", "refused"]


def _player(seat: int, comp: str, hand: Sequence[int], deck: Sequence[int],
            discard: Sequence[int], in_play: Sequence[int], rest: bool) -> Player:
    placed = [*hand, *deck, *discard, *in_play]
    assert len(set(placed)) == len(placed)
    others = [n for n in range(1, 31) if n not in placed] if rest else []
    ids = [card_id(seat, n) for n in deck] + [card_id(seat, n) for n in others]
    return Player(competitor=comp, deck=ids, hand=[card_id(seat, n) for n in hand],
                  discard=[card_id(seat, n) for n in discard],
                  in_play={1 - seat: [card_id(seat, n) for n in in_play]})


def build(hands: tuple[Sequence[int], Sequence[int]] = ((), ()), *,
          decks: tuple[Sequence[int], Sequence[int]] = ((), ()),
          discards: tuple[Sequence[int], Sequence[int]] = ((), ()),
          in_play: tuple[Sequence[int], Sequence[int]] = ((), ()),
          comps: tuple[str, str] = ("ox_valdane", "mira_quickstep"),
          phase: Phase = Phase.TURN, active: int | None = 0, rest: bool = True,
          turns: tuple[int, int] = (1, 1), crowd: int = 0) -> State:
    """A state with exactly these cards (by number): hands, decks (top first), discard
    piles and in-play piles; every other card goes under the deck (unless rest=False,
    which removes them from the game for the count-out tests)."""
    players = [_player(seat, comps[seat], hands[seat], decks[seat], discards[seat],
                       in_play[seat], rest) for seat in (0, 1)]
    for seat, p in enumerate(players):
        p.turns = turns[seat]
    decks_ = tuple(CATALOG.competitors[c].deck for c in comps)
    plan = [Step(active, (1 - active,))] if active is not None else []
    return State(match_type="one_on_one", competitors=comps, decks=decks_, players=players,
                 turn_limit=200, phase=phase, active=active, crowd=crowd, plan=plan)


def do(state: State, seat: int, action: JSON) -> State:
    """Apply one decision."""
    return RULES.apply(state, Event.decision(seat, action))


def dice(state: State, *faces: str) -> State:
    """Apply one die roll chance event (faces in seat order)."""
    return RULES.apply(state, Event.chance({"dice": list(faces)}))


def legal(state: State, seat: int) -> list[JSON]:
    return RULES.legal_actions(state, seat)


def refused(state: State, seat: int, action: Any) -> str:
    """The refusal code of an action, checking the state did not change."""
    before = copy.deepcopy(state)
    try:
        RULES.apply(state, Event.decision(seat, action))
    except IllegalAction as error:
        assert state == before
        return error.code
    raise AssertionError(f"{action!r} was accepted")
