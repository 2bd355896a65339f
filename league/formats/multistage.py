"""Multi-stage events: round robin groups or a Swiss, then a single-elimination playoff.

Stage 1 is `groups` round robin groups (named A, B, ..., dealt by snake order of seed) or
one Swiss. When every stage-1 match is decided, the top `playoff_size` of the stage-1
order (withdrawn entrants left out) play a single-elimination playoff seeded in that order,
byes to the top seeds, with one change when there are two groups or more: round one keeps
group-mates apart where it can (revision 3). The seeds who play in round one keep their
places, and each of them, best first, meets the lowest-ranked qualifier left from another
group whose choice still lets the rest be kept apart, or when not all can be, lets no more
group-mates meet than must. With two groups and a playoff of four the group winners are
seeded 1 and 2 and each meets the other group's runner-up (A1-B2, B1-A2), whichever
runner-up ranks higher; with no group-mates in the way it is the plain seeding. An Event
started under revision 1 or 2 seeds the playoff in the stage-1 order alone (A1 on 3 points,
B1 and B2 on 2.5, A2 on 2: A1-A2 and B1-B2).

The stage-1 order: group winners first, then runners-up, and so on; entrants of the same
group place are ordered by points per match played, then group order. With one group or
a Swiss it is simply the stage-1 standings.

A Swiss stage pairs as the Swiss's revision 3 from revision 4 (`redraw`: a round held for
the organizer is drawn again when its field changes), and from revision 5 its held last
round takes a late entrant as the Swiss's does (`add_to_held`; under 4 the entry is
refused); revisions 2 and 3 as the Swiss's revision 2, and revision 1 as its revision 1.

Pairing ids carry the stage: `A:R1-2` (group A), `SW:R3-1` (the Swiss), `PO:W1-1` (the
playoff). Final standings: the playoff's ranks, then everyone else in stage-1 order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.protocol import quoted
from league.formats.base import (
    SCORING_OPTIONS,
    Format,
    FormatError,
    MatchResult,
    OptionKind,
    OptionSpec,
    Pairing,
    StandingRow,
    check_entrants,
    check_new_entrant,
    check_withdrawal,
    competition_ranks,
    read_options,
    require,
    snake,
)
from league.formats.bracket import BracketState, bracket_size
from league.formats.round_robin import FORMAT as ROUND_ROBIN
from league.formats.round_robin import RoundRobinState, walkovers_by_pair, walkovers_redrawn
from league.formats.single_elim import FORMAT as SINGLE_ELIMINATION
from league.formats.swiss import FORMAT as SWISS
from league.formats.swiss import SwissState

PLAYOFF = "PO"
SWISS_GROUP = "SW"
ROUND_ROBIN_KEYS = ("double", "round_by_round")
SWISS_KEYS = ("rounds",)
SCORING_KEYS = tuple(spec.name for spec in SCORING_OPTIONS)
# the Swiss revision each one's Swiss stage pairs as
SWISS_REVISIONS = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3}


@dataclass(frozen=True)
class MultistageOptions:
    """The stage-1 format and its options, the playoff's size and third-place match."""

    stage1: str
    groups: int
    playoff_size: int
    third_place: bool
    stage1_options: Mapping[str, Any]


@dataclass(frozen=True)
class Group:
    """One stage-1 group (the Swiss is one group) and its own state."""

    name: str
    state: RoundRobinState | SwissState


@dataclass(frozen=True)
class MultistageState:
    """The field in seed order, stage-1 groups, the playoff once drawn, withdrawals."""

    entrants: tuple[str, ...]
    options: MultistageOptions
    groups: tuple[Group, ...]
    playoff: BracketState | None = None
    withdrawn: frozenset[str] = frozenset()
    revision: int = 0  # how it pairs: the revision it started under (Multistage.start sets it)


def read_multistage_options(options: Mapping[str, Any] | None, n: int) -> MultistageOptions:
    """The options a multi-stage event takes, checked against the field size."""
    values = read_options(Multistage.options, options)
    swiss = values["stage1"] == "swiss"
    groups = values["groups"]
    require(1 <= groups <= n // 2, "bad_option", f"groups must be 1 to {n // 2}.")
    require(not swiss or groups == 1, "bad_option", "A Swiss stage is one group.")
    size = min(4, n) if values["playoff_size"] is None else values["playoff_size"]
    require(2 <= size <= n, "bad_option", f"playoff_size must be 2 to {n}.")
    keys = (SWISS_KEYS if swiss else ROUND_ROBIN_KEYS) + SCORING_KEYS
    inner = {k: values[k] for k in keys if values[k] is not None}
    if values["tiebreaks"] is not None:
        inner["tiebreaks"] = list(values["tiebreaks"])
    return MultistageOptions(values["stage1"], groups, size, values["third_place"], inner)


class Multistage:
    """Groups or a Swiss, then a knockout of the best."""

    key: str = "multistage"
    # 2: its Swiss stage pairs as the Swiss's revision 2 (a round robin stage as ever)
    # 3: as 2, and round one of the playoff keeps group-mates apart where it can
    # 4: as 3, and its Swiss stage pairs as the Swiss's revision 3 (`redraw`)
    # 5: as 4, and its Swiss stage's held last round takes a late entrant (`add_to_held`)
    revision: int = 5
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "stage1", OptionKind.CHOICE, "round_robin", "Stage 1 format.", ("round_robin", "swiss")
        ),
        OptionSpec("groups", OptionKind.INT, 1, "Round robin groups in stage 1."),
        OptionSpec(
            "playoff_size", OptionKind.INT, None, "Entrants in the playoff (default min(4, n))."
        ),
        OptionSpec(
            "third_place", OptionKind.BOOL, False, "Play a third-place match in the playoff."
        ),
        OptionSpec("double", OptionKind.BOOL, False, "Round robin groups meet twice."),
        OptionSpec(
            "round_by_round", OptionKind.BOOL, True, "Round robin groups play round by round."
        ),
        OptionSpec("rounds", OptionKind.INT, None, "Swiss rounds (default ceil(log2 n))."),
        OptionSpec(
            "tiebreaks", OptionKind.CRITERIA, None, "Stage-1 tiebreaks (default: the format's)."
        ),
        *SCORING_OPTIONS,
    )

    def start(
        self, entrants: Sequence[str], options: Mapping[str, Any] | None = None,
        revision: int | None = None,
    ) -> MultistageState:
        """Stage 1 drawn for `entrants` in seed order."""
        seeded = check_entrants(entrants)
        opts = read_multistage_options(options, len(seeded))
        revision = self.revision if revision is None else revision
        return MultistageState(seeded, opts, draw_groups(seeded, opts, revision),
                               revision=revision)

    def pairings(self, state: MultistageState) -> list[Pairing]:
        """Stage-1 pairings, then the playoff's."""
        out = [
            _tag(p, g.name, _stage_name(g))
            for g in state.groups
            for p in stage1(state).pairings(g.state)
        ]
        if state.playoff is not None:
            out += [_tag(p, PLAYOFF, "playoff") for p in SINGLE_ELIMINATION.pairings(state.playoff)]
        return out

    def ready(self, state: MultistageState) -> list[Pairing]:
        """The playoff's ready pairings once it is drawn, stage 1's before."""
        if state.playoff is not None:
            return [_tag(p, PLAYOFF, "playoff") for p in SINGLE_ELIMINATION.ready(state.playoff)]
        return [
            _tag(p, g.name, _stage_name(g))
            for g in state.groups
            for p in stage1(state).ready(g.state)
        ]

    def record(self, state: MultistageState, result: MatchResult) -> MultistageState:
        """The result goes to its stage; the playoff is drawn when stage 1 is decided."""
        prefix, _, inner_id = result.pairing_id.partition(":")
        inner = replace(result, pairing_id=inner_id)
        if prefix == PLAYOFF:
            if state.playoff is None:
                raise FormatError("not_ready", "The playoff is not drawn yet.")
            return replace(state, playoff=SINGLE_ELIMINATION.record(state.playoff, inner))
        group = _group(state, prefix, result.pairing_id)
        updated = Group(group.name, stage1(state).record(group.state, inner))
        return _advance(_with_group(state, updated))

    def is_complete(self, state: MultistageState) -> bool:
        """Stage 1 decided and the playoff (if there are two to play it) decided."""
        if state.playoff is not None:
            return SINGLE_ELIMINATION.is_complete(state.playoff)
        return stage1_complete(state)

    def standings(self, state: MultistageState) -> list[StandingRow]:
        """Playoff ranks first, then the stage-1 order."""
        order = stage1_order(state)
        if state.playoff is None:
            return order
        playoff = SINGLE_ELIMINATION.standings(state.playoff)
        rest = [row for row in order if row.entrant not in state.playoff.entrants]
        base = {row.entrant: row for row in order}
        ranks = competition_ranks([row.rank for row in rest])
        # (below every playoff place: the last the playoff's entrants hold, past any place
        # it left empty, its first or its third, where nobody won the match deciding it)
        below = max((row.rank + sum(r.rank == row.rank for r in playoff) - 1
                     for row in playoff), default=0)
        return [_merge(base[r.entrant], r, state) for r in playoff] + [
            replace(row, rank=below + rank, eliminated=True)
            for row, rank in zip(rest, ranks, strict=True)
        ]

    def withdraw(self, state: MultistageState, entrant: str) -> MultistageState:
        """The entrant leaves whichever stage they are in."""
        check_withdrawal(state.entrants, state.withdrawn, entrant)
        require(not self.is_complete(state), "event_complete", "The event is over.")
        state = replace(state, withdrawn=state.withdrawn | {entrant})
        if state.playoff is not None:
            if entrant in state.playoff.entrants:
                return replace(state, playoff=SINGLE_ELIMINATION.withdraw(state.playoff, entrant))
            return state
        group = next(g for g in state.groups if entrant in g.state.entrants)
        if stage1(state).is_complete(group.state):
            return _advance(state)
        return _advance(
            _with_group(state, Group(group.name, stage1(state).withdraw(group.state, entrant)))
        )

    def add_entrant(self, state: MultistageState, entrant: str) -> MultistageState:
        """A late entrant joins stage 1 where it can take one; never the playoff."""
        check_new_entrant(state.entrants, entrant)
        require(state.playoff is None, "already_started", "The playoff is drawn.")
        entrants = (*state.entrants, entrant)
        if state.options.stage1 == "swiss":
            swiss = state.groups[0]
            return replace(
                state,
                entrants=entrants,
                groups=(Group(swiss.name, stage1(state).add_entrant(swiss.state, entrant)),),
            )
        started = any(g.state.results for g in state.groups)
        require(not started, "already_started", "The groups have started.")
        return replace(state, entrants=entrants, groups=_redraw(entrants, state))

    def pair_by_hand(
        self, state: MultistageState, pairings: Sequence[Sequence[str | None]]
    ) -> MultistageState:
        """Hand pairings for the next Swiss round of stage 1."""
        require(self.takes_hand_pairings(state), "not_supported",
                "Only a Swiss stage is paired by hand.")
        group = state.groups[0]
        return replace(
            state, groups=(Group(group.name, stage1(state).pair_by_hand(group.state, pairings)),)
        )

    def takes_hand_pairings(self, state: MultistageState) -> bool:
        """A Swiss stage 1 is; its groups and the playoff are not."""
        return state.options.stage1 == "swiss" and state.playoff is None

    def redraw(self, state: MultistageState, stage: str, number: int) -> MultistageState:
        """The Swiss stage's round `number` drawn again (`Swiss.redraw`), and a playoff
        the round as it was drawn let be drawn (a withdrawal left it all walkovers) drawn
        only once the Swiss is decided again; a round robin stage and the playoff as they
        were drawn."""
        if stage != "swiss" or state.options.stage1 != "swiss":
            return state
        swiss = state.groups[0]
        assert isinstance(swiss.state, SwissState)
        again = SWISS.redraw(swiss.state, stage, number)
        if again == swiss.state:
            return state
        return _advance(replace(state, playoff=None, groups=(Group(swiss.name, again),)))

    def add_to_held(self, state: MultistageState, entrant: str, stage: str, number: int
                    ) -> MultistageState:
        """A late entrant while round `number` of `stage` is held for the organizer: as
        `add_entrant` then `redraw`, but from revision 5 the Swiss stage's held last round
        takes them too, drawn again with them (`Swiss.add_to_held`), as a Swiss Event's
        does (before, refused as the last round already paired)."""
        if state.revision < 5 or stage != "swiss" or state.options.stage1 != "swiss" \
                or state.playoff is not None:
            return self.redraw(self.add_entrant(state, entrant), stage, number)
        check_new_entrant(state.entrants, entrant)
        swiss = state.groups[0]
        assert isinstance(swiss.state, SwissState)
        joined = SWISS.add_to_held(swiss.state, entrant, stage, number)
        return _advance(replace(state, entrants=(*state.entrants, entrant),
                                groups=(Group(swiss.name, joined),)))

    def walkovers(self, state: MultistageState) -> dict[str, str | None]:
        """The walkovers of stage 1's groups and of the playoff, by their pairing ids here
        (prefixed with the group's name or the playoff's, as `pairings` gives them)."""
        out = {f"{g.name}:{pid}": winner for g in state.groups
               for pid, winner in stage1(state).walkovers(g.state).items()}
        if state.playoff is not None:
            out |= {f"{PLAYOFF}:{pid}": winner
                    for pid, winner in SINGLE_ELIMINATION.walkovers(state.playoff).items()}
        return out


def stage1(state: MultistageState) -> Format[Any]:
    """The stage-1 format."""
    return SWISS if state.options.stage1 == "swiss" else ROUND_ROBIN


def draw_groups(entrants: Sequence[str], options: MultistageOptions,
                revision: int) -> tuple[Group, ...]:
    """Stage 1: one Swiss, or round robin groups dealt by snake order."""
    if options.stage1 == "swiss":
        # Each revision's Swiss stage pairs as a fixed Swiss revision (1 as 1, 2 and 3 as 2:
        # 3 changes the playoff alone, 4 as 3), never as whatever the Swiss's newest is.
        swiss = SWISS.start(entrants, options.stage1_options, SWISS_REVISIONS[revision])
        return (Group(SWISS_GROUP, swiss),)
    parts = snake(entrants, options.groups)
    return tuple(
        Group(chr(ord("A") + i), ROUND_ROBIN.start(members, options.stage1_options))
        for i, members in enumerate(parts)
    )


def _redraw(entrants: Sequence[str], state: MultistageState) -> tuple[Group, ...]:
    """The round robin groups drawn again (a late entry, before any result), with the
    withdrawals so far in them. Each walkover stays with the pair it was given to, as a
    round robin's own late entry keeps it (`walkovers_redrawn`): the withdrawals applied
    again in some order would give one between two who both left to whoever left second
    in that order, not in the order they left."""
    given: dict[frozenset[str], list[MatchResult]] = {}
    for group in state.groups:
        assert isinstance(group.state, RoundRobinState)  # a Swiss takes its late entrants
        given |= walkovers_by_pair(group.state.schedule, group.state.walkovers)
    drawn = draw_groups(entrants, state.options, state.revision)
    return tuple(Group(g.name, _with_withdrawals(g.state, given, state.withdrawn))
                 for g in drawn)


def _with_withdrawals(group: RoundRobinState | SwissState,
                      given: Mapping[frozenset[str], Sequence[MatchResult]],
                      withdrawn: frozenset[str]) -> RoundRobinState:
    """A newly drawn group with the withdrawals of those in it and their walkovers."""
    assert isinstance(group, RoundRobinState)
    return replace(group, withdrawn=withdrawn & frozenset(group.entrants),
                   walkovers=walkovers_redrawn(given, group.schedule, withdrawn))


def _stage_name(group: Group) -> str:
    """ "group A" or "swiss"."""
    return "swiss" if group.name == SWISS_GROUP else f"group {group.name}"


def _tag(pairing: Pairing, prefix: str, stage: str) -> Pairing:
    """A stage's pairing with its id prefixed and its stage named."""
    label = (
        pairing.label if prefix in (PLAYOFF, SWISS_GROUP) else f"Group {prefix}, {pairing.label}"
    )
    sources = tuple(s.replace("of ", f"of {prefix}:") for s in pairing.sources)
    return replace(pairing, id=f"{prefix}:{pairing.id}", stage=stage, label=label, sources=sources)


def _group(state: MultistageState, name: str, pairing_id: str) -> Group:
    """The stage-1 group a pairing id names."""
    for group in state.groups:
        if group.name == name:
            return group
    raise FormatError("unknown_pairing", f"No pairing {quoted(pairing_id)}.")


def _with_group(state: MultistageState, updated: Group) -> MultistageState:
    """The state with one group replaced."""
    return replace(
        state, groups=tuple(updated if g.name == updated.name else g for g in state.groups)
    )


def stage1_complete(state: MultistageState) -> bool:
    """Whether every group is decided."""
    return all(stage1(state).is_complete(g.state) for g in state.groups)


def _advance(state: MultistageState) -> MultistageState:
    """Draw the playoff once stage 1 is decided and at least two can play it."""
    if state.playoff is not None or not stage1_complete(state):
        return state
    qualified = [row.entrant for row in stage1_order(state) if not row.withdrawn]
    seeds = qualified[: state.options.playoff_size]
    if len(seeds) < 2:
        return state
    if state.revision >= 3:
        seeds = apart(seeds, {e: g.name for g in state.groups for e in g.state.entrants})
    options = {"third_place": state.options.third_place}
    return replace(state, playoff=SINGLE_ELIMINATION.start(seeds, options))


def apart(seeds: Sequence[str], group: Mapping[str, str]) -> list[str]:
    """The playoff's seeds with the lower seeds of round one placed to keep group-mates
    apart (see the module docstring): the seeds who play it keep their places."""
    size = bracket_size(len(seeds))
    upper = range(size - len(seeds), size // 2)  # the seeds with an opponent in round one
    left = list(seeds[size // 2:])  # those opponents, lowest seed last
    placed = list(seeds)
    for i in upper:
        rest = [seeds[j] for j in upper if j > i]
        must = _must_meet([seeds[i], *rest], left, group)
        placed[size - 1 - i] = next(
            low for low in reversed(left)  # the lowest ranked first
            if int(group[low] == group[seeds[i]])
            + _must_meet(rest, _without(left, low), group) == must
        )
        left = _without(left, placed[size - 1 - i])
    return placed


def _must_meet(ups: Sequence[str], lows: Sequence[str], group: Mapping[str, str]) -> int:
    """The fewest meetings of group-mates that pairing `ups` one to one with `lows` can
    give: a group holding k more of the two sides' entrants than one side has has k of
    them meet; the rest can all be kept apart."""
    counts = Counter(group[e] for e in [*ups, *lows])
    return max(0, max(counts.values(), default=0) - len(ups))


def _without(entrants: Sequence[str], entrant: str) -> list[str]:
    """The list with one entrant taken out."""
    return [e for e in entrants if e != entrant]


def stage1_order(state: MultistageState) -> list[StandingRow]:
    """Stage-1 standings across groups: by group place, points per match, group order."""
    tables = [stage1(state).standings(g.state) for g in state.groups]
    keyed = []
    for index, (group, rows) in enumerate(zip(state.groups, tables, strict=True)):
        for place, row in enumerate(rows):
            played = max(1, row.wins + row.draws + row.losses)
            key = (place, -row.points / played)
            reached = row.reached if group.name == SWISS_GROUP else f"Group {group.name}"
            keyed.append((key, index, _stage1_row(row, reached, state)))
    keyed.sort(key=lambda item: (item[0], item[1]))
    ranks = competition_ranks([key for key, _, _ in keyed])
    return [replace(row, rank=rank) for rank, (_, _, row) in zip(ranks, keyed, strict=True)]


def _stage1_row(row: StandingRow, reached: str, state: MultistageState) -> StandingRow:
    """A stage-1 row with the event's own withdrawals."""
    withdrawn = row.withdrawn or row.entrant in state.withdrawn
    return replace(
        row, reached=reached, withdrawn=withdrawn, eliminated=row.eliminated or withdrawn
    )


def _merge(
    stage1_row: StandingRow, playoff_row: StandingRow, state: MultistageState
) -> StandingRow:
    """A playoff row with the stage-1 record added: its points too, the playoff's wins and
    losses scored as stage 1 scores them, so the points agree with the record the row
    shows (wins, draws and losses of both stages) as every other format's do; they were
    stage 1's alone beside both stages' wins. The ranking is the playoff's either way, and
    the tiebreaks stay stage 1's (they ranked it)."""
    scoring = state.groups[0].state.options.scoring
    playoff = playoff_row.wins * scoring.win + playoff_row.losses * scoring.loss
    return replace(
        playoff_row,
        points=stage1_row.points + playoff,
        tiebreaks=stage1_row.tiebreaks,
        wins=stage1_row.wins + playoff_row.wins,
        draws=stage1_row.draws,
        losses=stage1_row.losses + playoff_row.losses,
        withdrawn=playoff_row.withdrawn or playoff_row.entrant in state.withdrawn,
    )


FORMAT = Multistage()
