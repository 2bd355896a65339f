"""The game state and the typed actions with their JSON edge.

The state is a plain dataclass tree that `apply` copies (`clone`) before changing it,
so a state handed to `apply` is never mutated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.copying import shallow
from engine.games.superstar_showdown.board import Square
from engine.games.superstar_showdown.cards import Act, Card
from engine.games.superstar_showdown.event import EventInfo, MatchKind
from engine.protocol import JSON, IllegalAction, quoted

SEATS = (0, 1)
COLOURS = ("red", "blue")
HAND_SIZE = 6
SPOTS = 3
THROW_SQUARES = 3
CORNER_SQUARES = 3
CORNER_POWER = 3
MAX_BOUNCES = 4
THREE_COUNT = 3


class Phase(StrEnum):
    """Where the game stands. Decision phases wait for a seat; the others run by themselves."""

    DRAW = "draw"
    PLAY = "play"
    COMPARE = "compare"
    REVERSAL = "reversal"
    ACTIONS = "actions"
    MOTION = "motion"
    SHOVE = "shove"
    HIT = "hit"
    CORNER = "corner"  # a Corner Attack's move ended side by side: hit or not (SS-075)
    STUN = "stun"
    PIN = "pin"
    KICK_OUT = "kick_out"
    THREE_COUNT = "three_count"
    ROUND_END = "round_end"
    TAG = "tag"  # Tag Team: the end of a round, a team may Tag Out (SS-147)
    DRAFT = "draft"  # Event: the teams pick Superstars (SS-116..SS-119)
    SETUP = "setup"  # Event: the next Match card and Stipulation are set (SS-128/129)
    SEND_IN = "send_in"  # Event: each team chooses face down who goes in (SS-133)
    BONUS = "bonus"  # Event: both teams spend their Performance Stacks (SS-135..SS-139)
    OVER = "over"


DECISION_PHASES = frozenset({
    Phase.PLAY, Phase.REVERSAL, Phase.ACTIONS, Phase.MOTION, Phase.SHOVE, Phase.HIT,
    Phase.CORNER, Phase.STUN, Phase.PIN, Phase.KICK_OUT, Phase.TAG, Phase.DRAFT, Phase.SEND_IN, Phase.BONUS,
})
TEAM_PHASES = frozenset({Phase.DRAFT, Phase.SEND_IN, Phase.BONUS})  # the captain decides


class MotionMode(StrEnum):
    """Why a Superstar is moving."""

    MOVE = "move"  # a Move action: may bounce off the ropes
    CORNER = "corner"  # a Corner Attack's 3 squares: no bouncing (SS-076)
    THROW = "throw"  # a Throw moves the rival up to 3 squares (SS-078)
    ASSIST = "assist"  # an Inactive teammate's Move 3, never into the ring (SS-153/155)


class EndReason(StrEnum):
    """Why a match ended."""

    PINNED = "pinned"
    KNOCKED_OUT = "knocked_out"
    DOUBLE_KNOCK_OUT = "double_knock_out"
    TIME_LIMIT = "time_limit"


def card_seat(card_id: str) -> int:
    """Red's cards are 'r01'..'r30', Blue's 'b01'..'b30'."""
    return COLOURS.index("red" if card_id[0] == "r" else "blue")


def deck_ids(seat: int) -> list[str]:
    """The 30 card ids of a seat, in deck-file order."""
    return [f"{COLOURS[seat][0]}{i:02d}" for i in range(1, 31)]


@dataclass
class Member:
    """A Superstar of a team that is not the Active one: an Inactive teammate at ringside
    (Tag Team), or one waiting for its turn off the board (Gauntlet: `pos` is None)."""

    superstar: str
    slot: int  # its place in the team's drafted roster
    pos: Square | None
    deck: list[str]
    discard: list[str] = field(default_factory=list)

    def clone(self) -> Member:
        new = shallow(self)
        new.deck, new.discard = list(self.deck), list(self.discard)
        return new


@dataclass
class Side:
    """One side of the board: its Superstar and every pile of its cards."""

    superstar: str
    pos: Square
    deck: list[str]  # deck[0] is the top card
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    spots: list[str | None] = field(default_factory=lambda: [None] * SPOTS)  # face down
    committed: bool = False
    stacks: list[list[str]] = field(default_factory=lambda: [[] for _ in range(SPOTS)])
    extras: list[str] = field(default_factory=list)  # Stun bonus cards this round
    performance: list[str] = field(default_factory=list)  # cards the rival Gave Up
    wins: int = 0  # winning cards this round
    bonus_move: int = 0  # Setups waiting for the next winning card
    bonus_power: int = 0
    breath: bool = False  # Catching Your Breath checked this round
    pins: int = 0
    kick_outs: int = 0
    slot: int = 0  # the Active Superstar's place in the team's roster
    bench: list[Member] = field(default_factory=list)  # the team's other Superstars
    falls: int = 0  # Endurance: falls this side has scored on the current rival
    defeated: int = 0  # Gauntlet: rival Superstars this side has defeated

    def clone(self) -> Side:
        new = shallow(self)
        new.deck, new.hand, new.discard = list(self.deck), list(self.hand), list(self.discard)
        new.spots, new.stacks = list(self.spots), [list(s) for s in self.stacks]
        new.extras, new.performance = list(self.extras), list(self.performance)
        new.bench = [m.clone() for m in self.bench]
        return new

    def ringside(self) -> list[tuple[int, Member]]:
        """Inactive teammates on the board, with their bench index."""
        return [(k, m) for k, m in enumerate(self.bench) if m.pos is not None]

    def on_board(self) -> list[str]:
        """Cards on the board: face-down spots, revealed stacks, extra cards."""
        return [c for c in self.spots if c] + [c for s in self.stacks for c in s] + self.extras


@dataclass
class Current:
    """The winning card whose Actions are being resolved."""

    seat: int
    card: str
    position: int  # 0..2
    extra: bool  # a Stun bonus card
    blocked: bool  # the rival's losing card is a Block: no damage (SS-026)
    move: int  # squares of its Move action, Setup bonus included (0: none)
    attack: int  # power of its Attack action, Setup bonus included (0: none)
    power_bonus: int  # Power Setup bonus for Momentum and Corner Attacks
    used: list[Act] = field(default_factory=list)
    gave_up: bool = False  # the rival Gave Up cards to this card: Stun is possible
    momentum_line: int = 0  # straight squares of this card's move, stopped side by side
    momentum_at: Square | None = None  # where that move stopped
    momentum_rival: Square | None = None  # where the rival stood then (SS-066)
    assisted: bool = False  # a teammate took this card's Move 3 (SS-155)
    closed: bool = False  # the Active is done with the card: only the assist is left (SS-156)

    def clone(self) -> Current:
        new = shallow(self)
        new.used = list(self.used)
        return new


@dataclass
class Motion:
    """A move in progress, one square at a time."""

    mover: int
    mode: MotionMode
    left: int  # ordinary squares left
    line: int = 0  # squares in the current straight line
    last_dir: tuple[int, int] | None = None
    on_ropes: bool = False  # just moved into a Ropes square: may bounce
    bounce_dir: tuple[int, int] | None = None  # bounced: must now run this way
    bounces: int = 0
    member: int | None = None  # ASSIST: the bench index of the moving teammate
    target: tuple[int, int | None] | None = None  # SHOVE: (side, bench index or None)


@dataclass
class Hit:
    """An Attack being delivered: the target Gives Up cards one at a time."""

    attacker: int
    power: int
    stunned: bool  # against a Stun bonus card no Block may be given (SS-095)
    given: int = 0
    owed_from_deck: bool = False


@dataclass
class State:
    """Everything about a match; only the rules read it."""

    superstars: tuple[str, str]
    decks: tuple[tuple[Card, ...], tuple[Card, ...]]  # each seat's 30 designs, by card id
    round_limit: int
    sides: list[Side]
    phase: Phase = Phase.DRAW
    round: int = 1
    position: int = 0
    shuffles: list[tuple[int, str]] = field(default_factory=list)  # pending (seat, why)
    current: Current | None = None
    motion: Motion | None = None
    hit: Hit | None = None
    reversal_winner: int | None = None  # during REVERSAL: who wins the position now
    blocks_met: bool = False  # during REVERSAL: two Blocks lost; declining leaves no winner
    reversed_by: list[int] = field(default_factory=list)
    pinner: int | None = None
    count: int = 0  # cards revealed in the Three Count
    outcomes: list[JSON] = field(default_factory=list)  # this round's Showdown, by position
    last_outcomes: list[JSON] = field(default_factory=list)
    winner: int | None = None
    draw: bool = False
    end_reason: EndReason | None = None
    journal: list[str] = field(default_factory=list)  # public sentences of the last event
    teams: tuple[int, ...] = (0, 1)  # each seat's team (side)
    catalog: Mapping[str, Card] = field(default_factory=dict)  # Event card designs by id
    event: EventInfo | None = None
    kind: MatchKind = MatchKind.SINGLE
    effect: str = "none"  # the Stipulation's rule change (event.Effect)
    count_needed: int = THREE_COUNT
    tag_queue: list[int] = field(default_factory=list)  # sides still to answer at TAG
    tag_kick: tuple[int, int] | None = None  # (side, bench index): a Tag Team Kick Out
    send_in: list[list[int] | None] = field(default_factory=lambda: [None, None])
    option_round_limit: int = 0  # the Event's round limit before any Stipulation

    def clone(self) -> State:
        new = shallow(self)
        new.event = self.event.clone() if self.event else None
        new.tag_queue = list(self.tag_queue)
        new.send_in = [list(x) if x is not None else None for x in self.send_in]
        new.sides = [side.clone() for side in self.sides]
        new.shuffles = list(self.shuffles)
        new.current = self.current.clone() if self.current else None
        new.motion = shallow(self.motion) if self.motion else None
        new.hit = shallow(self.hit) if self.hit else None
        new.reversed_by = list(self.reversed_by)
        new.outcomes = list(self.outcomes)
        new.last_outcomes = list(self.last_outcomes)
        new.journal = []
        return new

    def card(self, card_id: str) -> Card:
        """The design of a card id."""
        if self.catalog:
            return self.catalog[card_id]
        return self.decks[card_seat(card_id)][int(card_id[1:]) - 1]

    def players(self, team: int) -> list[int]:
        """The seats of a team, lowest first (the first is its captain)."""
        return [seat for seat, t in enumerate(self.teams) if t == team]

    def controller(self, team: int) -> int:
        """The seat playing the team's Active Superstar: roster slots are dealt to the
        team's players in turn (SS-114); team-wide choices are the captain's."""
        players = self.players(team)
        if self.phase in TEAM_PHASES:
            return players[0]
        return players[self.sides[team].slot % len(players)]

    def rival(self, seat: int) -> Side:
        return self.sides[1 - seat]


# -- actions ------------------------------------------------------------------------------


class ActionType(StrEnum):
    """Every decision a seat can post."""

    PLAY_SPOTS = "play_spots"
    REVERSE = "reverse"
    NO_REVERSE = "no_reverse"
    RESOLVE = "resolve"
    DONE = "done"
    STEP = "step"
    BOUNCE = "bounce"
    STOP = "stop"
    SHOVE = "shove"
    NO_SHOVE = "no_shove"
    BLOCK = "block"
    GIVE_UP = "give_up"
    GIVE_UP_DECK = "give_up_deck"
    CORNER_HIT = "corner_hit"
    NO_CORNER_HIT = "no_corner_hit"
    EXTRA_CARD = "extra_card"
    PIN = "pin"
    NO_PIN = "no_pin"
    KICK_OUT = "kick_out"
    THREE_COUNT = "three_count"
    TAG_OUT = "tag_out"
    NO_TAG = "no_tag"
    ASSIST = "assist"
    DRAFT = "draft"
    SEND_IN = "send_in"
    BUY_BONUS = "buy_bonus"
    BONUS_POINTS = "bonus_points"


_FIELDS: Mapping[ActionType, tuple[str, ...]] = {
    ActionType.PLAY_SPOTS: ("cards",),
    ActionType.REVERSE: ("card",),
    ActionType.RESOLVE: ("action",),
    ActionType.STEP: ("to",),
    ActionType.SHOVE: ("to",),
    ActionType.BLOCK: ("card",),
    ActionType.GIVE_UP: ("card",),
    ActionType.EXTRA_CARD: ("card",),
    ActionType.KICK_OUT: ("card",),
    ActionType.TAG_OUT: ("superstar",),
    ActionType.ASSIST: ("superstar",),
    ActionType.DRAFT: ("superstar",),
    ActionType.SEND_IN: ("superstars",),
    ActionType.BUY_BONUS: ("card", "superstar"),
    ActionType.BONUS_POINTS: ("points",),
}


@dataclass(frozen=True)
class Action:
    """A decoded decision."""

    type: ActionType
    card: str | None = None
    cards: tuple[str, ...] = ()
    act: Act | None = None
    to: Square | None = None
    superstar: str | None = None
    superstars: tuple[str, ...] = ()
    points: int | None = None

    def to_json(self) -> JSON:
        data: JSON = {"type": str(self.type)}
        if self.type is ActionType.PLAY_SPOTS:
            data["cards"] = list(self.cards)
        if self.type is ActionType.SEND_IN:
            data["superstars"] = list(self.superstars)
        if self.card is not None:
            data["card"] = self.card
        if self.superstar is not None:
            data["superstar"] = self.superstar
        if self.points is not None:
            data["points"] = self.points
        if self.act is not None:
            data["action"] = str(self.act)
        if self.to is not None:
            data["to"] = list(self.to)
        return data


def _malformed(message: str) -> IllegalAction:
    return IllegalAction("malformed_action", message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_ACTION_TYPES = frozenset(str(t) for t in ActionType)
_ACTS = frozenset(str(a) for a in Act)


def parse_action(data: Any) -> Action:
    """Decode a JSON action; anything malformed raises IllegalAction('malformed_action')."""
    if not isinstance(data, Mapping):
        raise _malformed("An action must be a JSON object.")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_TYPES:
        raise _malformed(f"Unknown action type {quoted(kind)}.")
    atype = ActionType(kind)
    wanted = _FIELDS.get(atype, ())
    extra = sorted(set(data) - {"type", *wanted})
    if extra:
        raise _malformed(f"A {kind} action has no field {quoted(extra[0])}.")
    missing = [name for name in wanted if name not in data]
    if missing:
        raise _malformed(f"A {kind} action needs the field {quoted(missing[0])}.")
    if atype is ActionType.PLAY_SPOTS:
        cards = data["cards"]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise _malformed("'cards' must be a list of card ids.")
        return Action(atype, cards=tuple(cards))
    if atype is ActionType.SEND_IN:
        names = data["superstars"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise _malformed("'superstars' must be a list of Superstar keys.")
        return Action(atype, superstars=tuple(names))
    if atype is ActionType.BONUS_POINTS:
        if not _is_int(data["points"]):
            raise _malformed("'points' must be an integer.")
        return Action(atype, points=data["points"])
    if "superstar" in wanted and not isinstance(data["superstar"], str):
        raise _malformed("'superstar' must be a Superstar key.")
    if "card" in wanted:
        if not isinstance(data["card"], str):
            raise _malformed("'card' must be a card id.")
        return Action(atype, card=data["card"], superstar=data.get("superstar"))
    if "superstar" in wanted:
        return Action(atype, superstar=data["superstar"])
    if atype is ActionType.RESOLVE:
        name = data["action"]
        if not isinstance(name, str) or name not in _ACTS:
            raise _malformed(f"Unknown card action {quoted(name)}.")
        return Action(atype, act=Act(name))
    if "to" in wanted:
        to = data["to"]
        if not isinstance(to, list) or len(to) != 2 or not all(_is_int(v) for v in to):
            raise _malformed("'to' must be a [row, column] pair of integers.")
        return Action(atype, to=(to[0], to[1]))
    return Action(atype)
