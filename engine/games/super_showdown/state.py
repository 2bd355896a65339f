"""The game state (immutable) and the typed actions, with their JSON edge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.games.super_showdown.board import Square
from engine.games.super_showdown.cards import CardSet, Colour
from engine.protocol import JSON, IllegalAction

SEATS = (0, 1)
SEAT_NAMES = ("Blue", "Red")


class Phase(StrEnum):
    """Where a game stands; the round steps of the rulebook in order."""

    DEAL = "deal"  # chance: Set up 1
    FIRST_ROLL = "first_roll"  # chance: step 1, the starting player's die
    STARTER_MOVE = "starter_move"  # step 2
    NEMESIS_MOVE = "nemesis_move"  # step 3
    PLAY = "play"  # step 4, both seats at once
    SECOND_ROLL = "second_roll"  # chance: step 5, the nemesis' die
    NEMESIS_SECOND_MOVE = "nemesis_second_move"  # step 6
    STARTER_SECOND_MOVE = "starter_second_move"  # step 7
    SPEED_CHOICE = "speed_choice"  # step 8 in a Speed showdown
    OVER = "over"


MOVE_PHASES = {
    Phase.STARTER_MOVE, Phase.NEMESIS_MOVE, Phase.NEMESIS_SECOND_MOVE,
    Phase.STARTER_SECOND_MOVE,
}
STARTER_PHASES = {Phase.FIRST_ROLL, Phase.STARTER_MOVE, Phase.STARTER_SECOND_MOVE}


class ShowdownKind(StrEnum):
    """The three ways a round resolves."""

    BRAWN = "brawn"
    SPEED = "speed"
    WITS = "wits"


class WinReason(StrEnum):
    """Why a game ended."""

    FIVE_VICTORIOUS = "five_victorious"  # SU-40
    FIVE_DEFEATED = "five_defeated"  # SU-41
    BOTH_MORE_CARDS = "both_reached_more_cards"  # SU-42 decision
    BOTH_DRAW = "both_reached_draw"  # SU-42 decision
    CARDS_EXHAUSTED = "cards_exhausted"  # SU-42 safety net


@dataclass(frozen=True)
class Tally:
    """A seat's progress: own-colour cards victorious, nemesis-colour cards defeated."""

    own_victorious: int = 0
    nemesis_defeated: int = 0

    @property
    def won(self) -> bool:
        """'5 victorious cards of your color, OR 5 defeated cards of your nemesis' color'."""
        return self.own_victorious >= 5 or self.nemesis_defeated >= 5

    @property
    def cards_for(self) -> int:
        """How many settled cards count toward this seat (the SU-42 tiebreak)."""
        return self.own_victorious + self.nemesis_defeated

    def to_json(self) -> JSON:
        return {"own_victorious": self.own_victorious, "nemesis_defeated": self.nemesis_defeated}


@dataclass(frozen=True)
class Showdown:
    """A settled Showdown: the cards by seat and where each one went."""

    round: int
    kind: ShowdownKind
    cards: tuple[str, str]
    victorious: tuple[str, ...]
    defeated: tuple[str, ...]
    chooser: int | None = None
    twist: str = ""  # "ray_gun", "ray_gun_reversed", "over_19", "tie" or ""


@dataclass(frozen=True)
class GameRecord:
    """One finished game of a series."""

    number: int
    hero: int
    winner: int | None
    reason: WinReason
    tallies: tuple[Tally, Tally]
    last_showdown: Showdown | None = None


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a series; never mutated (apply builds a new one)."""

    best_of: int
    games: tuple[GameRecord, ...] = ()
    phase: Phase = Phase.DEAL
    hero: int | None = None
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    positions: tuple[Square | None, Square | None] = (None, None)
    round: int = 0
    starter: int | None = None
    dice: tuple[int | None, int | None] = (None, None)  # (white, green)
    played: tuple[str | None, str | None] = (None, None)
    revealed: bool = False
    met: bool = False
    chooser: int | None = None
    victory: tuple[str, ...] = ()
    defeat: tuple[str, ...] = ()
    last_showdown: Showdown | None = None

    @property
    def game_number(self) -> int:
        """The game being played (or the last one, once the series is over)."""
        return len(self.games) + (0 if self.phase is Phase.OVER else 1)

    @property
    def nemesis(self) -> int | None:
        """This round's nemesis: the seat that did not start it."""
        return None if self.starter is None else 1 - self.starter

    def colour_of(self, seat: int) -> Colour | None:
        """A seat's colour: white for the Hero, green for the Villain."""
        if self.hero is None:
            return None
        return Colour.WHITE if seat == self.hero else Colour.GREEN

    def actor(self) -> int | None:
        """The seat that rolls or moves in the current phase."""
        if self.phase in STARTER_PHASES:
            return self.starter
        if self.phase in MOVE_PHASES or self.phase is Phase.SECOND_ROLL:
            return self.nemesis
        return None

    @property
    def mayhem(self) -> Square | None:
        """Where the two dice intersect, once both are rolled this round."""
        white, green = self.dice
        return None if white is None or green is None else (white, green)

    def tally(self, cards: CardSet, seat: int) -> Tally:
        """A seat's progress toward the two win conditions (SU-40, SU-41)."""
        own = self.colour_of(seat)
        if own is None:
            return Tally()
        return Tally(
            sum(cards[c].colour is own for c in self.victory),
            sum(cards[c].colour is own.other for c in self.defeat),
        )


class ActionType(StrEnum):
    """The decisions a seat can post."""

    MOVE = "move"
    PLAY_CARD = "play_card"
    CHOOSE_OUTCOME = "choose_outcome"


@dataclass(frozen=True)
class Move:
    """Move the marker to a square (staying put is a move of 0)."""

    to: Square

    def to_json(self) -> JSON:
        return {"type": str(ActionType.MOVE), "to": list(self.to)}


@dataclass(frozen=True)
class PlayCard:
    """Play one card face down."""

    card: str

    def to_json(self) -> JSON:
        return {"type": str(ActionType.PLAY_CARD), "card": self.card}


@dataclass(frozen=True)
class ChooseOutcome:
    """Speed: say which played cards are victorious and which defeated."""

    victorious: tuple[str, ...]
    defeated: tuple[str, ...]

    def to_json(self) -> JSON:
        return {
            "type": str(ActionType.CHOOSE_OUTCOME),
            "victorious": sorted(self.victorious),
            "defeated": sorted(self.defeated),
        }


Action = Move | PlayCard | ChooseOutcome


def _malformed(what: str) -> IllegalAction:
    return IllegalAction("malformed_action", f"A {what} action is malformed.")


def _ids(value: Any, what: str) -> tuple[str, ...]:
    """A list of card ids."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise _malformed(what)
    if not all(isinstance(v, str) for v in value):
        raise _malformed(what)
    return tuple(value)


def parse_action(data: Mapping[str, Any]) -> Action:
    """The typed action of a JSON dict; a wrong shape raises IllegalAction."""
    if not isinstance(data, Mapping):
        raise IllegalAction("malformed_action", "An action must be a JSON object.")
    kind = data.get("type")
    if kind == ActionType.MOVE:
        to = data.get("to")
        if not (isinstance(to, Sequence) and len(to) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in to)):
            raise _malformed("move")
        return Move((to[0], to[1]))
    if kind == ActionType.PLAY_CARD:
        card = data.get("card")
        if not isinstance(card, str):
            raise _malformed("play_card")
        return PlayCard(card)
    if kind == ActionType.CHOOSE_OUTCOME:
        return ChooseOutcome(_ids(data.get("victorious"), "choose_outcome"),
                             _ids(data.get("defeated"), "choose_outcome"))
    raise IllegalAction("malformed_action", "Unknown action type.")
