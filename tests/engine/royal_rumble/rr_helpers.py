"""Helpers to build exact Royal Rumble tables and drive them through the real rules."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.royal_rumble import RULES
from engine.games.royal_rumble.cards import ACTION_IDS, ACTIONS, ROSTER
from engine.games.royal_rumble.state import Phase, Player, State, Step
from engine.protocol import JSON, Event, IllegalAction

__all__ = ["DECLINES", "RULES", "Table", "breathe", "card_of", "decider", "do", "legal", "names",
           "plan", "refused", "settle"]

# The answer to each question that every seat the rules let answer is asked (RR-28
# decision): a seat holding nothing that answers has this as its only legal action.
DECLINES = {Step.DEFEND: "no_defense", Step.INTERVENE: "pass", Step.HOLD_ON: "let_go",
            Step.FOLLOW: "skip"}

LEGEND_KEYS = sorted(ROSTER)


class Table:
    """Hands out real card ids by design name; the rest make up the deck."""

    def __init__(self) -> None:
        self.free = list(ACTION_IDS)

    def take(self, name: str) -> str:
        """One unused copy of the design called `name`."""
        for i, cid in enumerate(self.free):
            if ACTIONS[int(cid[1:]) - 1].name == name:
                return self.free.pop(i)
        raise AssertionError(f"no copy of {name!r} left")

    def cards(self, names: Sequence[str]) -> list[str]:
        return [self.take(n) for n in names]

    def build(self, legends: Sequence[str | None], hands: Mapping[int, Sequence[str]] = {},
              *, damage: Mapping[int, Sequence[str]] = {}, reserve: Sequence[str] = (),
              titleholder: int = 0, discard: Sequence[str] = (), deck: bool = True,
              out: Sequence[int] = (), round_limit: int = 40) -> State:
        """A table at the start of Plan. `legends[i]` is seat i's Legend key (None: out)."""
        players = []
        for seat, key in enumerate(legends):
            p = Player(legend=key, signature=ROSTER[key].signature_id if key else None,
                       hand=self.cards(hands.get(seat, ())),
                       damage=self.cards(damage.get(seat, ())),
                       legends_used=[key] if key else [], out=seat in out)
            players.append(p)
        s = State(n=len(legends), round_limit=round_limit, players=players, phase=Phase.PLAN,
                  titleholder=titleholder, reserve=list(reserve), chance=None,
                  discard=self.cards(discard))
        s.deck = list(self.free) if deck else []
        if not deck:
            s.discard += self.free
        self.free = []
        RULES._advance(s)
        return s


def do(state: State, seat: int, action: JSON) -> State:
    return RULES.apply(state, Event.decision(seat, action))


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


def card_of(state: State, seat: int, name: str) -> str:
    """The id of a card called `name` in the seat's hand."""
    from engine.games.royal_rumble.cards import card

    return next(c for c in state.players[seat].hand if card(c).name == name)


def plan(state: State, seat: int, attack: str, target: int, boost: str | None = None) -> State:
    """The seat places `attack` at `target`, with `boost` or none."""
    state = do(state, seat, {"type": "plan_attack", "card": card_of(state, seat, attack)})
    state = do(state, seat, {"type": "target", "seat": target})
    if boost:
        return do(state, seat, {"type": "boost", "card": card_of(state, seat, boost)})
    return do(state, seat, {"type": "no_boost"})


def breathe(state: State, seat: int, *discards: str) -> State:
    state = do(state, seat, {"type": "breather"})
    for name in discards:
        state = do(state, seat, {"type": "discard", "card": card_of(state, seat, name)})
    return do(state, seat, {"type": "end_breather"})


def decider(state: State) -> int:
    pending = RULES.pending(state)
    assert pending.kind == "decision", pending
    return pending.seats[0]


def names(state: State, ids: Sequence[str]) -> list[str]:
    from engine.games.royal_rumble.cards import card

    return [card(c).name for c in ids]


def settle(state: State, asked: list[tuple[int, str]] | None = None) -> State:
    """Every seat asked a question it has nothing to answer with declines, until a seat
    has a real choice (or no question is open). RR-28 decision: such a seat is asked all
    the same, with the decline as its only legal action. `asked` collects (seat, step)."""
    while state.phase is not Phase.OVER and state.chance is None and state.step in DECLINES:
        seat = decider(state)
        only = {"type": DECLINES[state.step]}
        if legal(state, seat) != [only]:
            break
        if asked is not None:
            asked.append((seat, str(state.step)))
        state = do(state, seat, only)
    return state
