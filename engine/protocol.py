"""The one contract every game shares.

A game is a `Rules` object. Its state is an opaque value that only the game's own
functions read; the outside world sees it through `pending`, `legal_actions`, `view`,
`result` and the event history as `redact` and `narrate` render it.

Stored events are small JSON values:

    {"kind": "decision", "seat": 0, "action": {...}}
    {"kind": "chance", "outcome": {...}}
    {"kind": "forfeit", "seat": 1}

A forfeit is the system's event, like a chance outcome: no seat decides it, the match
service appends it when a player resigns or an organizer forfeits a seat, and only games
whose rules eliminate players accept it (`forfeit_eliminates`): there the seat is
eliminated and the game goes on for the rest. Elsewhere the match service ends the match
off the board, and the stream holds no forfeit.

`apply` never mutates the state it is given and raises `IllegalAction` (changing nothing)
on a refused event. Checks run in a fixed order: the match is live, the event's kind is
the one pending, the seat is pending, the action is legal.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

JSON = dict[str, Any]
S = TypeVar("S")


# How much of a value a refusal's message quotes back: enough to recognise it.
QUOTED_LENGTH = 100


def counted(number: int, noun: str, plural: str = "") -> str:
    """`number` of `noun` as a sentence says it: "1 card", "6 cards", "2 die faces"
    (`plural` when adding an s will not do), never a form's "card(s)"."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def quoted(value: Any) -> str:
    """`value` as a refusal's message quotes what a client sent: its repr, cut to
    QUOTED_LENGTH characters with an ellipsis (a name of 10,000 characters is not
    echoed whole). A cut string keeps its closing quote: 'xxxx…'."""
    if isinstance(value, str) and len(value) > QUOTED_LENGTH:
        text = repr(value[:QUOTED_LENGTH])
        return f"{text[:-1]}…{text[-1]}"
    text = repr(value)
    return text if len(text) <= QUOTED_LENGTH else f"{text[:QUOTED_LENGTH]}…"


class IllegalAction(Exception):
    """A refused action or event; `code` is machine-readable, `message` is for people.

    The message must never reveal hidden information (a card in another hand, the deck).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def check_viewer(viewer: int | None, seats: int) -> None:
    """Refuse a viewer that is neither a spectator (None) nor one of the table's seats: a
    seat index out of range (or -1, which Python would read as the last seat) must not
    open another seat's hand."""
    if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                               or not 0 <= viewer < seats):
        raise IllegalAction("bad_seat", "There is no such seat at this table.")


class EventKind(StrEnum):
    DECISION = "decision"
    CHANCE = "chance"
    FORFEIT = "forfeit"


class PendingKind(StrEnum):
    DECISION = "decision"
    CHANCE = "chance"
    END = "end"


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    `placements[seat]` is 1 for first place; seats that tie share a place. `figures`
    holds per-seat numbers the league reads (points, cards won, ...), keyed by seat, each
    named among its game's `GameSpec.figures`.
    """

    placements: tuple[int, ...]
    winners: tuple[int, ...]
    draw: bool = False
    figures: Mapping[int, Mapping[str, float]] = field(default_factory=dict)
    summary: str = ""

    def to_json(self) -> JSON:
        """The result as stored and served."""
        return {
            "placements": list(self.placements),
            "winners": list(self.winners),
            "draw": self.draw,
            "figures": {str(seat): dict(f) for seat, f in self.figures.items()},
            "summary": self.summary,
        }


@dataclass(frozen=True)
class Pending:
    """Who acts now: some seats (simultaneously), chance, or nobody because it ended."""

    kind: PendingKind
    seats: tuple[int, ...] = ()
    result: Result | None = None

    @classmethod
    def decision(cls, *seats: int) -> Pending:
        """One or more seats must decide; several means a simultaneous choice."""
        return cls(PendingKind.DECISION, tuple(sorted(seats)))

    @classmethod
    def chance(cls) -> Pending:
        """A chance node: the service draws an outcome and stores it."""
        return cls(PendingKind.CHANCE)

    @classmethod
    def end(cls, result: Result) -> Pending:
        """The game is over."""
        return cls(PendingKind.END, (), result)

    @property
    def is_over(self) -> bool:
        return self.kind is PendingKind.END

    def to_json(self) -> JSON:
        """The pending node as served by the API."""
        return {
            "kind": str(self.kind),
            "seats": list(self.seats),
            "result": self.result.to_json() if self.result else None,
        }


@dataclass(frozen=True)
class Event:
    """One entry of a match stream: a seat's decision, a chance outcome or a seat's
    forfeit."""

    kind: EventKind
    seat: int | None = None
    action: JSON | None = None
    outcome: JSON | None = None

    @classmethod
    def decision(cls, seat: int, action: JSON) -> Event:
        return cls(EventKind.DECISION, seat=seat, action=action)

    @classmethod
    def chance(cls, outcome: JSON) -> Event:
        return cls(EventKind.CHANCE, outcome=outcome)

    @classmethod
    def forfeit(cls, seat: int) -> Event:
        return cls(EventKind.FORFEIT, seat=seat)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Decode a stored event; a malformed one raises IllegalAction('malformed_event')."""
        if not isinstance(data, Mapping):
            raise IllegalAction("malformed_event", "An event must be a JSON object.")
        kind = data.get("kind")
        if kind == EventKind.DECISION:
            seat, action = data.get("seat"), data.get("action")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise IllegalAction("malformed_event", "A decision needs an integer seat.")
            if not isinstance(action, dict):
                raise IllegalAction("malformed_action", "An action must be a JSON object.")
            return cls.decision(seat, action)
        if kind == EventKind.CHANCE:
            outcome = data.get("outcome")
            if not isinstance(outcome, dict):
                raise IllegalAction("malformed_event", "A chance outcome must be a JSON object.")
            return cls.chance(outcome)
        if kind == EventKind.FORFEIT:
            seat = data.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise IllegalAction("malformed_event", "A forfeit needs an integer seat.")
            return cls.forfeit(seat)
        raise IllegalAction("malformed_event", f"Unknown event kind {quoted(kind)}.")

    def to_json(self) -> JSON:
        """The stored form."""
        if self.kind is EventKind.DECISION:
            return {"kind": "decision", "seat": self.seat, "action": self.action}
        if self.kind is EventKind.FORFEIT:
            return {"kind": "forfeit", "seat": self.seat}
        return {"kind": "chance", "outcome": self.outcome}


@dataclass(frozen=True)
class Option:
    """A game option: its default and the values allowed (None means any integer/bool).

    A `secret` option is a list with an entry per seat that only that seat (and whoever
    made the match) may read while the match runs: a constructed deck's cards."""

    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""
    secret: bool = False

    def to_json(self) -> JSON:
        return {"default": self.default, "choices": list(self.choices), "help": self.help}


@dataclass(frozen=True)
class GameSpec:
    """What a game is, declared once per package."""

    key: str
    title: str
    min_seats: int
    max_seats: int
    has_chance: bool
    has_hidden_information: bool
    options: Mapping[str, Option] = field(default_factory=dict)
    longest_game: int = 10_000  # events; a playout longer than this is a bug
    seat_names: tuple[str, ...] = ()
    # The names of the figures its results report (`Result.figures`), in every mode it
    # plays: the league's `figure:NAME` and `diff:NAME` tiebreaks may name these alone.
    figures: tuple[str, ...] = ()
    # The rules a new match is recorded under. Raise it with any change that would replay
    # a stored stream differently (another legal list, another outcome): a stream recorded
    # under another version is refused, not replayed into a game nobody played
    # (tests/engine/test_recorded_streams.py holds each game to it).
    rules_version: int = 1

    def to_json(self) -> JSON:
        return {
            "key": self.key,
            "title": self.title,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "has_chance": self.has_chance,
            "has_hidden_information": self.has_hidden_information,
            "rules_version": self.rules_version,
            "figures": list(self.figures),
            "options": {name: opt.to_json() for name, opt in self.options.items()},
        }

    def resolve_options(self, given: Mapping[str, Any] | None) -> JSON:
        """Defaults filled in; an unknown option or a value not allowed is refused."""
        given = dict(given or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            raise IllegalAction("unknown_option",
                                f"Unknown {'option' if len(unknown) == 1 else 'options'} "
                                f"for {self.key}: {quoted(unknown)}.")
        resolved: JSON = {}
        for name, opt in self.options.items():
            value = given.get(name, opt.default)
            if opt.choices and not any(type(value) is type(c) and value == c
                                       for c in opt.choices):
                raise IllegalAction(
                    "bad_option", f"Option {quoted(name)} must be one of {list(opt.choices)}."
                )
            resolved[name] = value
        return resolved

    def check_seats(self, n_seats: int) -> None:
        """Refuse a seat count the game does not support."""
        if not self.min_seats <= n_seats <= self.max_seats:
            takes = (f"{self.min_seats}" if self.min_seats == self.max_seats
                     else f"{self.min_seats}-{self.max_seats}")
            raise IllegalAction("bad_seat_count",
                                f"{self.title} takes {takes} seats, not {n_seats}.")


class Rules(Protocol[S]):
    """The contract (see the module docstring)."""

    spec: GameSpec

    def start(self, options: Mapping[str, Any], n_seats: int) -> S: ...
    def pending(self, state: S) -> Pending: ...
    def legal_actions(self, state: S, seat: int) -> list[JSON]: ...
    def apply(self, state: S, event: Event) -> S: ...
    def sample_chance(self, state: S, rng: random.Random) -> JSON: ...
    def view(self, state: S, seat: int | None) -> JSON: ...
    def redact(self, state_before: S, event: Event, viewer: int | None) -> JSON: ...
    def narrate(self, state_before: S, event: Event) -> list[str]: ...
    def result(self, state: S) -> Result | None: ...
    def forfeit_eliminates(self, state: S, seat: int) -> bool: ...
    def determinize(self, state: S, seat: int, rng: random.Random) -> S: ...
    def seat_picks(self, options: Mapping[str, Any]) -> dict[str, dict[str, str]]: ...
    def seat_entries(self, options: Mapping[str, Any], n_seats: int) -> dict[str, list[Any]]: ...
    def teams(self, options: Mapping[str, Any], n_seats: int) -> tuple[int, ...] | None: ...
    def teams_at(self, state: S) -> tuple[int, ...] | None: ...


class BaseRules(Generic[S]):
    """Shared plumbing: the ordered checks of `apply`, replay and a default redaction.

    A game overrides `_decide` (a validated decision), `_resolve_chance` (a stored
    outcome) and, where its action space is large, `is_legal`.
    """

    spec: GameSpec

    # -- to be provided by the game -------------------------------------------------
    def start(self, options: Mapping[str, Any], n_seats: int) -> S:
        raise NotImplementedError

    def pending(self, state: S) -> Pending:
        raise NotImplementedError

    def legal_actions(self, state: S, seat: int) -> list[JSON]:
        raise NotImplementedError

    def _decide(self, state: S, seat: int, action: JSON) -> S:
        raise NotImplementedError

    def _resolve_chance(self, state: S, outcome: JSON) -> S:
        raise NotImplementedError

    def sample_chance(self, state: S, rng: random.Random) -> JSON:
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> JSON:
        raise NotImplementedError

    def narrate(self, state_before: S, event: Event) -> list[str]:
        raise NotImplementedError

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        raise NotImplementedError

    def seat_picks(self, options: Mapping[str, Any]) -> dict[str, dict[str, str]]:
        """The options of one entry per seat whose entry a player may pick for their own
        seat in matches of these `options` (an Event's entrant brings its Competitor), each
        with the values one seat may take and their names; no values: any value, which
        `start` checks (a constructed deck). None by default."""
        return {}

    def seat_entries(self, options: Mapping[str, Any], n_seats: int) -> dict[str, list[Any]]:
        """Each pickable option's entry for every seat of an `n_seats` table, as `start`
        reads `options`: what a seat plays unless its player picks another. An option
        that does not name every seat is left out (nobody's pick can take a place in it)."""
        resolved = self.spec.resolve_options(options)
        return {name: list(resolved[name]) for name in self.seat_picks(options)
                if isinstance(resolved[name], list) and len(resolved[name]) == n_seats}

    def teams(self, options: Mapping[str, Any], n_seats: int) -> tuple[int, ...] | None:
        """The team of each seat of an `n_seats` table of these `options`, where seats play
        as one side (they share its place); None, the default: every seat plays alone."""
        return None

    def teams_at(self, state: S) -> tuple[int, ...] | None:
        """`teams` of the table `state` plays, for whoever holds a state but not the
        options it started from (a search bot); None, the default: every seat alone."""
        return None

    def forfeit_eliminates(self, state: S, seat: int) -> bool:
        """Whether a forfeit of `seat` now eliminates it and lets the game go on (the
        stream takes a forfeit event), as the game's rules eliminate a player. False, the
        default: the match service ends the match off the board instead."""
        return False

    def _forfeit(self, state: S, seat: int) -> S:
        raise NotImplementedError

    # -- shared ---------------------------------------------------------------------
    def is_legal(self, state: S, seat: int, action: JSON) -> bool:
        """Whether the action is one of the legal ones (games may answer faster)."""
        return action in self.legal_actions(state, seat)

    def apply(self, state: S, event: Event) -> S:
        """The fold, with boardgame.io's order of checks; a refusal changes nothing."""
        pending = self.pending(state)
        if pending.is_over:
            raise IllegalAction("match_over", "The match is over.")
        if event.kind is EventKind.FORFEIT:
            return self._apply_forfeit(state, event.seat)
        if event.kind is EventKind.CHANCE:
            if pending.kind is not PendingKind.CHANCE or event.outcome is None:
                raise IllegalAction("not_chance", "No chance event is pending.")
            if not isinstance(event.outcome, dict):
                raise IllegalAction("bad_outcome", "A chance outcome must be a JSON object.")
            return self._resolve_chance(state, event.outcome)
        if pending.kind is not PendingKind.DECISION:
            raise IllegalAction("chance_pending", "A chance event must be resolved first.")
        if event.seat is None or event.seat not in pending.seats:
            raise IllegalAction("not_your_turn", "That seat has no decision pending.")
        if event.action is None or not self.is_legal(state, event.seat, event.action):
            raise IllegalAction("illegal_action", "That action is not legal now.")
        return self._decide(state, event.seat, event.action)

    def _apply_forfeit(self, state: S, seat: int | None) -> S:
        """A forfeit, the system's event: taken for any seat still in the game whenever
        the game is live (a decision or a chance node pending), where the rules eliminate."""
        if seat is None or not self.forfeit_eliminates(state, seat):
            raise IllegalAction("no_forfeit", "That seat cannot forfeit and leave the "
                                              "game going on now.")
        return self._forfeit(state, seat)

    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""
        return self.pending(state).result

    def redact(self, state_before: S, event: Event, viewer: int | None) -> JSON:
        """By default chance outcomes are hidden and decisions are public.

        Games with face-down decisions or partly visible deals override this.
        """
        if event.kind is EventKind.CHANCE:
            return {"kind": "chance", "outcome": None}
        return event.to_json()  # a decision, or a forfeit (public)

    def replay(
        self, options: Mapping[str, Any], n_seats: int, events: Iterable[Event]
    ) -> S:
        """Fold a stream from the start."""
        state = self.start(options, n_seats)
        for event in events:
            state = self.apply(state, event)
        return state


def replay_json(rules: BaseRules[Any], options: Mapping[str, Any], n_seats: int,
                events: Sequence[Mapping[str, Any]]) -> Any:
    """Replay stored JSON events."""
    return rules.replay(options, n_seats, (Event.from_json(e) for e in events))
