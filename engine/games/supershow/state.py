"""The game state and the typed actions with their JSON edge.

The state is a plain dataclass tree; `apply` works on a `clone`, so a state handed to
it is never mutated. Card ids are a seat letter and the card number: `A07` is seat 0's
card number 7 (a deck holds exactly one card of each number, SH-050).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine.copying import shallow
from engine.games.supershow.cards import Card, CardType, Do, Roll, Skill
from engine.protocol import JSON, IllegalAction, quoted

LETTERS = "ABCDEF"
OPENING_HAND = 3
HAND_LIMIT = 10
BREAKOUT_ROLLS = 3


def card_id(seat: int, number: int) -> str:
    """'A07' for seat 0's card number 7."""
    return f"{LETTERS[seat]}{number:02d}"


_SEAT = {letter: seat for seat, letter in enumerate(LETTERS)}


def id_seat(cid: str) -> int:
    return _SEAT[cid[0]]


def id_number(cid: str) -> int:
    return int(cid[1:])


class Phase(StrEnum):
    """Where the match stands. ROLL, FINISH and BREAKOUT wait for dice; SETUP, START and
    EFFECTS run by themselves; the others wait for a seat."""

    DEAL = "deal"  # Birdcage: six Competitors and the entrant numbers, at random
    DRAFT = "draft"  # Birdcage: the Competitor draft (SH-115)
    OPEN = "open"  # Birdcage: a player opens a number pile (SH-116)
    PICK = "pick"  # Birdcage: each player takes a card from the open pile
    SETUP = "setup"
    ROLL = "roll"
    DOUBLE = "double"  # a pair may Double Team (SH-065)
    STARTER = "starter"  # tied team-mates choose who starts (SH-086)
    START = "start"
    EFFECTS = "effects"
    TURN = "turn"
    STOP = "stop"
    CHOOSE = "choose"
    TEAM_UP = "team_up"  # SH-058
    FINISH = "finish"
    SAVE = "save"  # SH-064
    BREAKOUT = "breakout"
    OVER = "over"


class EndReason(StrEnum):
    PINFALL = "pinfall"
    SUBMISSION = "submission"
    COUNT_OUT = "count_out"
    DISQUALIFICATION = "disqualification"
    LAST_STANDING = "last_standing"
    TIME_LIMIT = "time_limit"


@dataclass(frozen=True)
class Step:
    """One play of a turn: who plays and against whom they may play."""

    seat: int
    targets: tuple[int, ...]


@dataclass
class Player:
    """One seat: its Competitor and every pile of its cards."""

    competitor: str
    deck: list[str]  # deck[0] is the top card
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    in_play: dict[int, list[str]] = field(default_factory=dict)  # by opponent seat (SH-051)
    turns: int = 0  # turns taken (the Mulligan belongs to the first, SH-045)
    mulliganed: bool = False
    boosts: dict[str, int] = field(default_factory=dict)  # Roll -> bonus for the next roll
    # The last len(tail) cards of the deck went under it since its last shuffle, in sight:
    # True where the table saw the card (a bury, a Mulligan's shown hand), False where
    # only its owner did (a Protect's hand). Determinization keeps them where they lie.
    tail: list[bool] = field(default_factory=list)

    def clone(self) -> Player:
        new = shallow(self)
        new.deck, new.hand, new.discard = list(self.deck), list(self.hand), list(self.discard)
        new.in_play = {k: list(v) for k, v in self.in_play.items()}
        new.boosts = dict(self.boosts)
        new.tail = list(self.tail)
        return new

    def put_under(self, cards: list[str], seen: bool) -> None:
        """Cards go under the deck, shown to the table (`seen`) or to their owner alone."""
        self.deck.extend(cards)
        self.tail.extend([seen] * len(cards))

    def under(self) -> list[tuple[str, bool]]:
        """The cards that went under the deck in sight, top first, each with `seen`."""
        return list(zip(self.deck[len(self.deck) - len(self.tail):], self.tail, strict=True))

    def take_top(self, n: int) -> list[str]:
        """The top n cards (fewer if the deck runs out) leave the deck."""
        taken = self.deck[:n]
        del self.deck[:n]
        if len(self.tail) > len(self.deck):
            del self.tail[:len(self.tail) - len(self.deck)]
        return taken

    def take(self, cid: str) -> None:
        """One card is taken out of the deck wherever it lies (a search)."""
        at = self.deck.index(cid)
        del self.deck[at]
        below = len(self.deck) - at  # cards that lay under it
        if below < len(self.tail):
            del self.tail[len(self.tail) - below - 1]

    def reorder(self, order: list[str]) -> None:
        """A shuffle: nothing is known of the deck's order any more."""
        self.deck = list(order)
        self.tail = []

    def all_in_play(self) -> list[str]:
        return [c for pile in self.in_play.values() for c in pile]


@dataclass(frozen=True)
class Task:
    """One effect waiting to be carried out: `owner`'s card or Gimmick, acting on `target`."""

    owner: int
    target: int
    effect_do: Do
    count: int = 1
    find_type: CardType | None = None
    find_skill: Skill | None = None
    roll: Roll | None = None
    source: str = ""  # what the narration names: a card label or 'Gimmick'

    def finds(self, card: Card) -> bool:
        """Whether a search of this task may take the card (its type and skill asked)."""
        return ((self.find_type is None or card.type is self.find_type)
                and (self.find_skill is None or card.skill is self.find_skill))


@dataclass(frozen=True)
class Die:
    """One die rolled: who, the face (a skill) and the value it scored."""

    seat: int
    skill: Skill
    value: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "skill": str(self.skill), "value": self.value}


@dataclass
class FinishAttempt:
    """A Finish Roll and the Breakout Rolls against it (SH-028..SH-032), with any
    Team Up (SH-058) and Save (SH-064) rollers."""

    seat: int
    target: int
    card: str
    roll: Die | None = None
    breakouts: list[Die] = field(default_factory=list)
    asking: list[int] = field(default_factory=list)  # still to answer Team Up or Save
    team_ups: list[int] = field(default_factory=list)
    savers: list[int] = field(default_factory=list)
    helpers: list[Die] = field(default_factory=list)  # the last Team Up or Save dice

    def clone(self) -> FinishAttempt:
        return replace(self, breakouts=list(self.breakouts), asking=list(self.asking),
                       team_ups=list(self.team_ups), savers=list(self.savers),
                       helpers=list(self.helpers))


@dataclass
class State:
    """Everything about a match; only the rules read it."""

    match_type: str
    competitors: tuple[str, ...]
    decks: tuple[tuple[Card, ...], ...]  # each seat's 30 designs, index = number - 1
    players: list[Player]
    turn_limit: int
    teams: tuple[int, ...] = ()  # team per seat (empty: every player alone)
    count_outs: bool = True
    dq: bool = False
    referee: str | None = None  # SH-126: the Special Guest Referee's Competitor
    ringside: tuple[str | None, ...] = ()  # SH-128: each seat's companion, if any
    secret_decks: bool = False  # SH-050: constructed decks given (their designs are secret)
    phase: Phase = Phase.SETUP
    shuffles: list[int] = field(default_factory=list)  # seats waiting for a shuffle
    active: int | None = None  # whose turn it is
    plan: list[Step] = field(default_factory=list)  # this turn's plays, the current first
    offer: tuple[int, ...] = ()  # a Double Team pair being asked, or tied team-mates
    partners: tuple[int, ...] = ()  # the Double Team pair taking this turn (SH-067/068)
    played_once: bool = False  # the player on turn already played a card this turn
    out: list[int] = field(default_factory=list)  # eliminated seats, in order
    forfeits: list[int] = field(default_factory=list)  # those a forfeit eliminated
    entrants: tuple[int, ...] = ()  # Birdcage: each seat's entrant number (1 first)
    waiting: list[int] = field(default_factory=list)  # Birdcage: not yet entered, in order
    pool: list[str] = field(default_factory=list)  # Birdcage: Competitors left to draft
    piles: dict[int, list[str]] = field(default_factory=dict)  # Birdcage: number -> keys
    open_pile: int | None = None
    pickers: list[int] = field(default_factory=list)  # who still picks from the open pile
    opener: int = 0  # who opens the next pile
    picks: list[list[str]] = field(default_factory=list)  # drafted card keys per seat
    turn_rolls: int = 0
    last_roll: tuple[Die, ...] = ()
    played: str | None = None  # the card waiting for Stop decisions
    target: int | None = None  # whom it is played against
    stoppers: list[int] = field(default_factory=list)  # who may still stop it, in order
    tasks: list[Task] = field(default_factory=list)
    then: Phase = Phase.ROLL  # where to go once the tasks are done
    finish: FinishAttempt | None = None
    crowd: int = 0  # Crowd Meter cards in play
    rises: int = 0  # Birdcage: meter rises of the six-roll schedule so far (SH-120)
    called: int | None = None  # Birdcage: the meter card whose entrant enters at the next roll
    winners: tuple[int, ...] = ()
    end_reason: EndReason | None = None
    journal: list[str] = field(default_factory=list)  # public sentences of the last event

    def clone(self) -> State:
        new = shallow(self)
        new.players = [p.clone() for p in self.players]
        new.shuffles, new.tasks, new.plan = list(self.shuffles), list(self.tasks), list(self.plan)
        new.out, new.stoppers = list(self.out), list(self.stoppers)
        new.forfeits = list(self.forfeits)
        new.waiting, new.pool, new.pickers = list(self.waiting), list(self.pool), list(
            self.pickers)
        new.piles = {k: list(v) for k, v in self.piles.items()}
        new.picks = [list(p) for p in self.picks]
        new.finish = self.finish.clone() if self.finish else None
        new.journal = []
        return new

    def card(self, cid: str) -> Card:
        """The design of a card id."""
        return self.decks[id_seat(cid)][id_number(cid) - 1]

    @property
    def seats(self) -> range:
        return range(len(self.players))

    @property
    def live(self) -> list[int]:
        """Seats still in the match."""
        return [seat for seat in self.seats
                if seat not in self.out and seat not in self.waiting]

    def team(self, seat: int) -> int:
        return self.teams[seat] if self.teams else seat

    def opponents(self, seat: int) -> list[int]:
        """Seats still in the match on another side."""
        return [o for o in self.live if self.team(o) != self.team(seat)]

    def mates(self, seat: int) -> list[int]:
        """Team-mates still in the match."""
        return [o for o in self.live if o != seat and self.team(o) == self.team(seat)]


# -- actions ------------------------------------------------------------------------------


class ActionType(StrEnum):
    """Every decision a seat can post."""

    PLAY = "play"
    BURY = "bury"
    PASS = "pass"
    MULLIGAN = "mulligan"
    STOP = "stop"
    PROTECT = "protect"
    INTERFERE = "interfere"
    NO_STOP = "no_stop"
    CHOOSE = "choose"
    DISCARD = "discard"
    TEAM_UP = "team_up"
    NO_TEAM_UP = "no_team_up"
    SAVE = "save"
    NO_SAVE = "no_save"
    DOUBLE_TEAM = "double_team"
    NO_DOUBLE_TEAM = "no_double_team"
    STARTER = "starter"
    DRAFT = "draft"
    OPEN_PILE = "open_pile"
    PICK = "pick"


WITH_CARD = frozenset({ActionType.PLAY, ActionType.BURY, ActionType.STOP, ActionType.CHOOSE,
                       ActionType.DISCARD, ActionType.PROTECT, ActionType.INTERFERE,
                       ActionType.PICK})


@dataclass(frozen=True)
class Action:
    """A decoded decision; `target` is whom a play attacks (multiplayer only), `seat` the
    team-mate chosen to start."""

    type: ActionType
    card: str | None = None
    target: int | None = None
    seat: int | None = None
    competitor: str | None = None
    number: int | None = None

    def to_json(self) -> JSON:
        data: JSON = {"type": str(self.type)}
        if self.card is not None:
            data["card"] = self.card
        if self.target is not None:
            data["target"] = self.target
        if self.seat is not None:
            data["seat"] = self.seat
        if self.competitor is not None:
            data["competitor"] = self.competitor
        if self.number is not None:
            data["number"] = self.number
        return data


_TYPES = frozenset(str(t) for t in ActionType)


def _seat_field(data: Mapping[str, Any], name: str, kind: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction("malformed_action", f"A {kind} action needs an integer {quoted(name)}.")
    return value


def parse_action(data: Any) -> Action:
    """Decode a JSON action; anything malformed raises IllegalAction('malformed_action')."""
    if not isinstance(data, Mapping):
        raise IllegalAction("malformed_action", "An action must be a JSON object.")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        raise IllegalAction("malformed_action", f"Unknown action type {quoted(kind)}.")
    atype = ActionType(kind)
    wanted = {"type", "card"} if atype in WITH_CARD else {"type"}
    if atype is ActionType.PLAY:
        wanted.add("target")
    if atype is ActionType.STARTER:
        wanted.add("seat")
    if atype is ActionType.DRAFT:
        wanted.add("competitor")
    if atype is ActionType.OPEN_PILE:
        wanted.add("number")
    extra = sorted(str(k) for k in set(data) - wanted)
    if extra:
        raise IllegalAction("malformed_action", f"A {kind} action has no field {quoted(extra[0])}.")
    if atype is ActionType.STARTER:
        return Action(atype, seat=_seat_field(data, "seat", kind))
    if atype is ActionType.OPEN_PILE:
        return Action(atype, number=_seat_field(data, "number", kind))
    if atype is ActionType.DRAFT:
        key = data.get("competitor")
        if not isinstance(key, str):
            raise IllegalAction("malformed_action", "A draft action needs a 'competitor' key.")
        return Action(atype, competitor=key)
    if atype in WITH_CARD:
        card = data.get("card")
        if not isinstance(card, str):
            raise IllegalAction("malformed_action", f"A {kind} action needs a 'card' id.")
        target = _seat_field(data, "target", kind) if "target" in data else None
        return Action(atype, card, target)
    return Action(atype)
