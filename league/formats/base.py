"""The contract every tournament format shares, and the checks they all run.

A format is an object with `start`, `pairings`, `ready`, `record`, `is_complete`,
`standings`, `withdraw`, `add_entrant`, `pair_by_hand` and `takes_hand_pairings`. Its state
is an immutable value that only the format's own functions read; every change returns a new
state and a refused change raises `FormatError(code, message)`, leaving the state as it was.

Entrants are opaque ids (a player, a team), given in seed order: the caller seeds by
rating, by hand or at random and passes the order in. Nothing here reads a clock, does
I/O or draws a random number.

Codes raised by the formats:

    too_few_entrants   fewer than two entrants at the start
    bad_entrant_count  a field the options cannot deal (heats: a pod below min_pod_size)
    too_many_entrants  more entrants than the format seats (a Showdown series is two)
    duplicate_entrant  an entrant twice (at the start, as a late entrant, in hand pairings)
    bad_entrant        an entrant id that is not a non-empty string
    unknown_entrant    an entrant the event does not know
    already_withdrawn  the entrant has already withdrawn
    withdrawn_entrant  hand pairings name a withdrawn entrant
    missing_entrant    hand pairings leave an active entrant out
    bad_pairing        hand pairings of the wrong shape (not one or two entrants, two byes)
    round_started      hand pairings for a round that already has a result
    already_started    a late entrant where the format can no longer take one
    not_supported      the format has no hand pairing
    unknown_pairing    a result for a pairing id the event does not have
    not_ready          a result for a pairing whose entrants are not all known, or a bye
    already_recorded   a second result for the same pairing
    not_in_pairing     placements or figures name someone who is not seated there
    missing_placement  a seated entrant has no placement
    bad_placement      a place that is not an integer from 1 to the number of seats, or
                       places with no first (unless all share the last: `no_winner`)
    draw_not_allowed   a draw where the format needs a winner (elimination brackets)
    event_complete     a change after the event has ended
    unknown_option, bad_option, unknown_format   options and registry look-ups
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from engine.protocol import quoted

S = TypeVar("S")
K = TypeVar("K", bound=Hashable)

CRITERIA = ("head_to_head", "buchholz", "buchholz_cut1", "sonneborn_berger", "wins")
FIGURE_PREFIXES = ("figure:", "diff:")


class FormatError(Exception):
    """A refused change; `code` is machine-readable, `message` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Pairing:
    """One match of an event: who sits where (None = a bye or a seat not yet known).

    `sources` says where each slot comes from ("seed 3", "winner of W1-2"), for brackets;
    `waiting` which None slots are not known yet (an earlier match still to decide who
    comes), each slot's in order (none, where it is empty): a None slot not waiting is
    known to be empty, a bye (a seed beyond the field, nobody sent on).
    """

    id: str
    round: int
    slots: tuple[str | None, ...]
    stage: str
    label: str
    sources: tuple[str, ...] = ()
    waiting: tuple[bool, ...] = ()

    @property
    def entrants(self) -> tuple[str, ...]:
        """The known entrants seated in this pairing."""
        return tuple(slot for slot in self.slots if slot is not None)


@dataclass(frozen=True)
class MatchResult:
    """How a pairing ended: `placements[entrant]` is 1 for first, ties share a place.

    `figures[entrant]` holds game-specific numbers the tiebreaks may read
    (Performance Stack size, eliminations, prediction points, ...). `sides[entrant]` is
    the side of the entrants the game played as one (The Supershow's tag team and handicap
    matches); an entrant it does not name is a side of its own.
    """

    pairing_id: str
    placements: Mapping[str, int]
    figures: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    sides: Mapping[str, int] = field(default_factory=dict)


def entrant_sides(seated: Sequence[K], teams: Sequence[int] | None) -> dict[K, int]:
    """Each entrant's side, the team of its seats (`seated[i]` holds seat i, `teams[i]` is
    that seat's team as the game's rules give it); empty when the game plays every seat
    alone (`teams` None)."""
    if teams is None or len(teams) != len(seated):
        return {}
    sides: dict[K, int] = {}
    for key, team in zip(seated, teams, strict=True):
        sides.setdefault(key, team)
    return sides


def entrant_places(placements: Sequence[int], seated: Sequence[K],
                   kept: Sequence[K] | None = None) -> dict[K, int]:
    """Each entrant's place in a match from its seats' (`seated[i]` holds seat i, placed
    `placements[i]`): an entrant of several seats takes its worst, as a whole side loses
    when one of its seats forfeits; ranked among `kept` (every entrant seated by default),
    ties sharing a place and the next place skipped (1, 1, 3)."""
    keys = list(dict.fromkeys(seated)) if kept is None else list(kept)
    if placements and 1 not in placements:
        # Nobody won (every seat forfeited together): all share the last place, a loss
        # for each, as `forfeit` gives when both sides withdrew; ranked among
        # themselves they would share first, a draw.
        return dict.fromkeys(keys, len(keys))
    worst = {k: max(placements[i] for i, s in enumerate(seated) if s == k) for k in keys}
    return {k: 1 + sum(worst[o] < worst[k] for o in keys) for k in keys}


def first_sides(placements: Mapping[K, int], sides: Mapping[K, int] | None = None
                ) -> set[tuple[bool, Hashable]]:
    """The sides holding first place: one when a side won (alone, or a team whose seats
    all share first), several when the first place is shared across sides (a draw).
    `sides` as `MatchResult.sides`: one it does not name is a side of its own."""
    return {side_key(k, sides) for k, place in placements.items() if place == 1}


def side_key(key: K, sides: Mapping[K, int] | None) -> tuple[bool, Hashable]:
    """What tells `key`'s side from the others: its side in `sides`, else itself."""
    return (True, sides[key]) if sides and key in sides else (False, key)


def outcomes(placements: Mapping[K, int], sides: Mapping[K, int] | None = None
             ) -> dict[K, str]:
    """Each one placed's outcome, "win", "draw" or "loss": first place is a win when only its
    own side holds it (a tag team's win is a win for every seat of the team), a draw when
    other sides share it, and any other place is a loss. Every league count of results
    (standings, tiebreaks, histories, simulations) reads its outcomes here."""
    shared = len(first_sides(placements, sides)) > 1
    return {k: "loss" if place != 1 else "draw" if shared else "win"
            for k, place in placements.items()}


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings; entrants that tie on everything share a rank."""

    rank: int
    entrant: str
    points: float
    wins: int
    draws: int
    losses: int
    tiebreaks: Mapping[str, float]
    eliminated: bool
    reached: str
    withdrawn: bool = False


@dataclass(frozen=True)
class Scoring:
    """Points for a win, a draw, a loss and a bye."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    bye: float = 1.0


class OptionKind(StrEnum):
    """What an option's value is."""

    BOOL = "bool"
    INT = "int"
    FLOAT = "float"
    CHOICE = "choice"
    CRITERIA = "criteria"  # a list of tiebreak names


@dataclass(frozen=True)
class OptionSpec:
    """A format option: its kind, default (None = computed from the field) and help."""

    name: str
    kind: OptionKind
    default: Any
    help: str = ""
    choices: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The option as a form or the API describes it."""
        default = list(self.default) if isinstance(self.default, tuple) else self.default
        return {
            "name": self.name,
            "kind": str(self.kind),
            "default": default,
            "help": self.help,
            "choices": list(self.choices),
        }


# A result's points, either way: a season's scoring and an Event's points options alike.
MOST_POINTS = 100

SCORING_OPTIONS = (
    OptionSpec("win_points", OptionKind.FLOAT, 1.0, "Points for a win."),
    OptionSpec("draw_points", OptionKind.FLOAT, 0.5, "Points for a draw."),
    OptionSpec("loss_points", OptionKind.FLOAT, 0.0, "Points for a loss."),
    OptionSpec("bye_points", OptionKind.FLOAT, None, "Points for a bye (default: a win's)."),
)


class Format(Protocol[S]):
    """What every tournament format offers; `S` is its immutable state."""

    key: str
    options: tuple[OptionSpec, ...]
    # How the format pairs: raised when a fix changes the pairings it would make. A started
    # Event keeps the revision it started under, so its stored results replay as they were
    # played (a stage and its results are found again by replaying, never stored).
    revision: int

    def start(self, entrants: Sequence[str], options: Mapping[str, Any] | None = None,
              revision: int | None = None) -> S:
        """A new event for `entrants` in seed order, paired as `revision` of the format
        pairs (None: the format's own, the one a new event starts under)."""
        ...

    def pairings(self, state: S) -> list[Pairing]:
        """Every pairing known so far, decided or not."""
        ...

    def ready(self, state: S) -> list[Pairing]:
        """Pairings that can be played now: entrants all known, no result, not a bye."""
        ...

    def record(self, state: S, result: MatchResult) -> S:
        """The state after a result."""
        ...

    def is_complete(self, state: S) -> bool:
        """Whether every pairing of the event is decided."""
        ...

    def standings(self, state: S) -> list[StandingRow]:
        """Every entrant once, best first."""
        ...

    def withdraw(self, state: S, entrant: str) -> S:
        """The state after an entrant withdraws."""
        ...

    def add_entrant(self, state: S, entrant: str) -> S:
        """The state after a late entrant joins, where the format can take one."""
        ...

    def pair_by_hand(self, state: S, pairings: Sequence[Sequence[str | None]]) -> S:
        """The state with the organizer's pairings for the round about to be played."""
        ...

    def takes_hand_pairings(self, state: S) -> bool:
        """Whether the stage the event is in is paired by hand at all; `pair_by_hand`
        refuses with `not_supported` where it is not."""
        ...

    def walkovers(self, state: S) -> dict[str, str | None]:
        """The pairings of two a withdrawal decided with no result recorded, each to the
        entrant the standings count its win for (None: nobody, a loss for both), as the
        format recorded it when the withdrawal gave it: not who is still in now."""
        ...


def check_entrants(entrants: Sequence[str]) -> tuple[str, ...]:
    """The starting field, refused when it has fewer than two or a repeated entrant."""
    seen: set[str] = set()
    for entrant in entrants:
        check_new_entrant(seen, entrant)
        seen.add(entrant)
    if len(seen) < 2:
        raise FormatError("too_few_entrants", "An event needs at least two entrants.")
    return tuple(entrants)


def check_new_entrant(known: Sequence[str] | set[str], entrant: object) -> None:
    """Refuse an id that is not a non-empty string or that the event already has."""
    if not isinstance(entrant, str) or not entrant:
        raise FormatError("bad_entrant",
                          f"An entrant id must be a non-empty string: {quoted(entrant)}.")
    if entrant in known:
        raise FormatError("duplicate_entrant", f"{entrant} is already entered.")


def check_withdrawal(entrants: Sequence[str], withdrawn: frozenset[str], entrant: str) -> None:
    """Refuse to withdraw an unknown entrant or one already withdrawn."""
    if entrant not in entrants:
        raise FormatError("unknown_entrant", f"{quoted(entrant)} is not entered.")
    if entrant in withdrawn:
        raise FormatError("already_withdrawn", f"{entrant} has already withdrawn.")


def check_placements(result: MatchResult, seated: Sequence[str], *, draws: bool) -> None:
    """Refuse placements that are not exactly the seated entrants ranked 1..len(seated),
    or all placed last (`no_winner`: a match every side forfeited)."""
    for name in [*result.placements, *result.figures]:
        if name not in seated:
            raise FormatError("not_in_pairing",
                              f"{quoted(name)} is not seated in {result.pairing_id}.")
    for entrant in seated:
        if entrant not in result.placements:
            raise FormatError("missing_placement", f"{entrant} has no placement.")
    places = list(result.placements.values())
    if any(not _is_place(p, len(seated)) for p in places) or (
            min(places) != 1 and not no_winner(result)):
        raise FormatError("bad_placement", f"Places run from 1 to {len(seated)}: {places}.")
    if not draws and places.count(1) > 1:
        raise FormatError("draw_not_allowed", f"{result.pairing_id} needs a single winner.")


def _is_place(place: object, seats: int) -> bool:
    """Whether `place` is an integer place from 1 to `seats`."""
    return isinstance(place, int) and not isinstance(place, bool) and 1 <= place <= seats


def no_winner(result: MatchResult) -> bool:
    """Whether every entrant of the result shares the last place, nobody first: a match
    each side forfeited (late together at a decision made at once), a loss for all, like
    a walkover both sides of which withdrew (`forfeit`)."""
    places = list(result.placements.values())
    return len(places) > 1 and set(places) == {len(places)}


def winner_of(result: MatchResult) -> str | None:
    """The sole first place, or None on a tie for first."""
    firsts = [e for e, place in result.placements.items() if place == 1]
    return firsts[0] if len(firsts) == 1 else None


def ordered_by_place(result: MatchResult, seed: Mapping[str, int]) -> list[str]:
    """The seated entrants best first; ties by seed."""
    return sorted(result.placements, key=lambda e: (result.placements[e], seed[e]))


def forfeit(pairing: Pairing, withdrawn: frozenset[str]) -> MatchResult:
    """The walkover a withdrawal gives: present entrants share first, the withdrawn last."""
    seats = len(pairing.entrants)
    return MatchResult(pairing.id, {e: seats if e in withdrawn else 1 for e in pairing.entrants})


def walkovers_given(pairings: Iterable[Pairing], results: Mapping[str, MatchResult],
                    given: Mapping[str, MatchResult], entrant: str) -> dict[str, MatchResult]:
    """The walkovers an entrant's withdrawal gives: each of its two-entrant pairings still
    undecided (no result, no walkover an earlier withdrawal gave), to the opponent."""
    return {p.id: forfeit(p, frozenset({entrant})) for p in pairings
            if entrant in p.entrants and len(p.entrants) == 2
            and p.id not in results and p.id not in given}


def walkover_winners(walkovers: Mapping[str, MatchResult]) -> dict[str, str | None]:
    """Each walkover's winner (None where it is a loss for both), by pairing id."""
    return {pid: winner_of(result) for pid, result in walkovers.items()}


def snake(ranked: Sequence[str], parts: int) -> list[list[str]]:
    """Deal a ranked field into `parts` in snake order (1, 2, 3, 3, 2, 1, 1, ...)."""
    dealt: list[list[str]] = [[] for _ in range(parts)]
    for i, entrant in enumerate(ranked):
        lap, step = divmod(i, parts)
        dealt[step if lap % 2 == 0 else parts - 1 - step].append(entrant)
    return dealt


def empty_first_if_nobody_won(rows: Sequence[StandingRow]) -> list[StandingRow]:
    """A points table whose entrants won and drew nothing (every match forfeited by all
    its entrants, every walkover a loss for both): nobody won the Event, so first place
    stays empty, everyone a place lower, as where nobody won a bracket's final; the rows
    as they are otherwise."""
    if any(row.wins or row.draws for row in rows):
        return list(rows)
    return [replace(row, rank=row.rank + 1) for row in rows]


def competition_ranks(keys: Sequence[object]) -> list[int]:
    """Ranks 1, 2, 2, 4 ... for keys already sorted best first; equal keys share a rank."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks


def read_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options with defaults filled in; unknown names and wrong kinds are refused."""
    given = dict(given or {})
    known = {spec.name for spec in specs}
    unknown = sorted(set(given) - known)
    if unknown:
        raise FormatError("unknown_option", f"Unknown {'option' if len(unknown) == 1 else 'options'}: "
                                             f"{quoted(unknown)}.")
    return {s.name: _read_option(s, given[s.name]) if s.name in given else s.default for s in specs}


def _read_option(spec: OptionSpec, value: Any) -> Any:
    """One option value checked against its kind."""
    if value is None and spec.default is None:
        return None
    if spec.kind is OptionKind.BOOL and isinstance(value, bool):
        return value
    if spec.kind is OptionKind.INT and isinstance(value, int) and not isinstance(value, bool):
        return value
    if (
        spec.kind is OptionKind.FLOAT
        and isinstance(value, int | float)
        and not isinstance(value, bool)
    ):
        # (the points options: past these, sums in the standings would overflow a float)
        require(-MOST_POINTS <= value <= MOST_POINTS, "bad_option",
                f"{spec.name} is from -{MOST_POINTS} to {MOST_POINTS}: {quoted(value)}.")
        return float(value)
    if spec.kind is OptionKind.CHOICE and value in spec.choices:
        return value
    if spec.kind is OptionKind.CRITERIA and isinstance(value, list | tuple):
        return check_criteria(value)
    raise FormatError("bad_option", f"{spec.name} must be {_kind_said(spec)}, not "
                                    f"{quoted(value)}.")


def _kind_said(spec: OptionSpec) -> str:
    """What an option's value must be, in words: "a whole number", "one of ..."."""
    if spec.kind is OptionKind.CHOICE:
        return f"one of {quoted(list(spec.choices))}"
    return {OptionKind.BOOL: "true or false", OptionKind.INT: "a whole number",
            OptionKind.FLOAT: "a number",
            OptionKind.CRITERIA: "a list of tiebreak names"}[spec.kind]


def check_criteria(names: Sequence[object]) -> tuple[str, ...]:
    """Tiebreak names: the known ones, or `figure:NAME` / `diff:NAME` for a named figure."""
    for name in names:
        figure = isinstance(name, str) and name.startswith(FIGURE_PREFIXES)
        if name not in CRITERIA and not (figure and str(name).split(":", 1)[1]):
            raise FormatError("bad_option", f"Unknown tiebreak {quoted(name)}.")
    return tuple(str(name) for name in names)


def scoring_from(values: Mapping[str, Any]) -> Scoring:
    """The scoring the SCORING_OPTIONS describe."""
    bye = values["bye_points"]
    win = values["win_points"]
    return Scoring(win, values["draw_points"], values["loss_points"], win if bye is None else bye)


def require(condition: bool, code: str, message: str) -> None:
    """Raise FormatError(code, message) unless `condition` holds."""
    if not condition:
        raise FormatError(code, message)
