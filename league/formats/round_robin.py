"""Round robin by the circle method, single or double.

The first entrant stays put and the others rotate one place a round; with an odd field a
bye takes the empty place, so each entrant rests once per cycle. A double round robin plays
the cycle again with the slots swapped (home and away). Pairing ids: `R{round}-{match}`,
and `R{round}-bye` for the entrant resting (a bye is worth nothing here: everyone has one).

A withdrawn entrant's unplayed pairings are walkovers: their opponent wins, and keeps the
win when it withdraws in turn (the walkover was decided when the first left), but for a
round still to come when it left (played round by round): there it is a loss for both,
neither being there to play it. A late entrant
is taken only before the first result, and the schedule is drawn again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.protocol import quoted
from league.formats.base import (
    SCORING_OPTIONS,
    FormatError,
    MatchResult,
    OptionKind,
    OptionSpec,
    Pairing,
    Scoring,
    StandingRow,
    check_entrants,
    check_new_entrant,
    check_placements,
    check_withdrawal,
    empty_first_if_nobody_won,
    forfeit,
    read_options,
    require,
    scoring_from,
    walkover_winners,
    walkovers_given,
)
from league.formats.tiebreaks import league_table

STAGE = "round_robin"
Pair = tuple[str | None, str | None]


@dataclass(frozen=True)
class RoundRobinOptions:
    """Once or twice round, played round by round or in any order, and how to rank."""

    double: bool = False
    round_by_round: bool = True
    tiebreaks: tuple[str, ...] = ("head_to_head", "sonneborn_berger", "wins")
    scoring: Scoring = field(default_factory=Scoring)


@dataclass(frozen=True)
class RoundRobinState:
    """The field in seed order, the fixed schedule, results and withdrawals."""

    entrants: tuple[str, ...]
    options: RoundRobinOptions
    schedule: tuple[Pairing, ...]
    results: Mapping[str, MatchResult] = field(default_factory=dict)
    withdrawn: frozenset[str] = frozenset()
    # The walkovers each withdrawal gave, as it gave them: its winner withdrawing later
    # keeps them (they are not a loss for both).
    walkovers: Mapping[str, MatchResult] = field(default_factory=dict)


def circle_rounds(entrants: Sequence[str]) -> list[list[Pair]]:
    """One cycle of rounds: every entrant meets every other once."""
    players: list[str | None] = [*entrants, *([None] if len(entrants) % 2 else [])]
    size = len(players)
    fixed, rest = players[0], players[1:]
    rounds = []
    for r in range(size - 1):
        line = [fixed, *rest[len(rest) - r :], *rest[: len(rest) - r]]
        pairs: list[Pair] = [(line[i], line[size - 1 - i]) for i in range(size // 2)]
        if r % 2:
            pairs[0] = (pairs[0][1], pairs[0][0])  # the fixed entrant alternates sides
        rounds.append(pairs)
    return rounds


def build_schedule(entrants: Sequence[str], double: bool) -> tuple[Pairing, ...]:
    """Every round's pairings; the second cycle swaps the slots."""
    cycle = circle_rounds(entrants)
    if double:
        cycle += [[(b, a) for a, b in pairs] for pairs in cycle]
    return tuple(p for number, pairs in enumerate(cycle, start=1) for p in _round(number, pairs))


def _round(number: int, pairs: list[Pair]) -> list[Pairing]:
    """One round's pairings: the matches numbered in order, then the bye."""
    games = [p for p in pairs if None not in p]
    rests = [(a or b, None) for a, b in pairs if None in (a, b)]
    out = [
        Pairing(f"R{number}-{i}", number, p, STAGE, f"Round {number} match {i}")
        for i, p in enumerate(games, start=1)
    ]
    return out + [Pairing(f"R{number}-bye", number, p, STAGE, f"Round {number} bye") for p in rests]


def read_round_robin_options(options: Mapping[str, Any] | None) -> RoundRobinOptions:
    """The options a round robin takes, checked. It has no `bye_points` (everyone rests
    equally often); Events stored before it was dropped hold it unset, which is let by."""
    given = dict(options or {})
    if "bye_points" in given and given["bye_points"] is None:
        del given["bye_points"]
    values = read_options(RoundRobin.options, given)
    return RoundRobinOptions(
        values["double"],
        values["round_by_round"],
        values["tiebreaks"],
        scoring_from({**values, "bye_points": None}),
    )


class RoundRobin:
    """Everyone meets everyone, once or twice."""

    key: str = "round_robin"
    revision: int = 1
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "double", OptionKind.BOOL, False, "Meet everyone twice, slots swapped the second time."
        ),
        OptionSpec(
            "round_by_round",
            OptionKind.BOOL,
            True,
            "Only the earliest unfinished round is ready (off: any order).",
        ),
        OptionSpec(
            "tiebreaks", OptionKind.CRITERIA, RoundRobinOptions.tiebreaks, "Tiebreaks in order."
        ),
        *SCORING_OPTIONS[:3],  # no bye_points: a bye is worth nothing here
    )

    def start(
        self, entrants: Sequence[str], options: Mapping[str, Any] | None = None,
        revision: int | None = None,
    ) -> RoundRobinState:
        """A schedule for `entrants` in seed order."""
        seeded = check_entrants(entrants)
        opts = read_round_robin_options(options)
        return RoundRobinState(seeded, opts, build_schedule(seeded, opts.double))

    def pairings(self, state: RoundRobinState) -> list[Pairing]:
        """The whole schedule, byes included."""
        return list(state.schedule)

    def ready(self, state: RoundRobinState) -> list[Pairing]:
        """Undecided matches (of the earliest unfinished round when played round by round)."""
        open_ = [p for p in state.schedule if _is_open(state, p)]
        if state.options.round_by_round and open_:
            return [p for p in open_ if p.round == open_[0].round]
        return open_

    def record(self, state: RoundRobinState, result: MatchResult) -> RoundRobinState:
        """The state after a result for a ready match; draws are allowed."""
        pairing = _find(state, result.pairing_id)
        require(
            pairing.id not in state.results,
            "already_recorded",
            f"{pairing.id} already has a result.",
        )
        require(
            pairing in self.ready(state), "not_ready", f"{pairing.id} is not ready to be played."
        )
        check_placements(result, pairing.entrants, draws=True)
        return replace(state, results={**state.results, pairing.id: result})

    def is_complete(self, state: RoundRobinState) -> bool:
        """Whether every match is decided."""
        return not any(_is_open(state, p) for p in state.schedule)

    def standings(self, state: RoundRobinState) -> list[StandingRow]:
        """Points, then the tiebreaks in order (first place empty where nobody won a
        match of the finished round robin)."""
        rows = league_table(
            state.entrants,
            games(state),
            state.options.scoring,
            state.options.tiebreaks,
            withdrawn=state.withdrawn,
            reached=_reached(state),
        )
        return empty_first_if_nobody_won(rows) if self.is_complete(state) else rows

    def withdraw(self, state: RoundRobinState, entrant: str) -> RoundRobinState:
        """The entrant leaves; their unplayed matches go to their opponents."""
        check_withdrawal(state.entrants, state.withdrawn, entrant)
        require(not self.is_complete(state), "event_complete", "Every match is decided.")
        given = walkovers_given(state.schedule, state.results, state.walkovers, entrant)
        return replace(state, withdrawn=state.withdrawn | {entrant},
                       walkovers={**state.walkovers, **_unreached(state, entrant), **given})

    def add_entrant(self, state: RoundRobinState, entrant: str) -> RoundRobinState:
        """A late entrant as the lowest seed, only before the first result."""
        check_new_entrant(state.entrants, entrant)
        require(not state.results, "already_started", "The round robin has started.")
        entrants = (*state.entrants, entrant)
        schedule = build_schedule(entrants, state.options.double)
        given = walkovers_by_pair(state.schedule, state.walkovers)
        return replace(state, entrants=entrants, schedule=schedule,
                       walkovers=walkovers_redrawn(given, schedule, state.withdrawn))

    def pair_by_hand(
        self, state: RoundRobinState, pairings: Sequence[Sequence[str | None]]
    ) -> RoundRobinState:
        """The schedule is fixed; hand pairing is refused."""
        raise FormatError("not_supported", "A round robin follows its schedule.")

    def takes_hand_pairings(self, state: RoundRobinState) -> bool:
        return False

    def walkovers(self, state: RoundRobinState) -> dict[str, str | None]:
        """The walkovers the withdrawals gave, to their winners (None: a loss for both)."""
        return walkover_winners(state.walkovers)


def walkovers_by_pair(schedule: Sequence[Pairing], walkovers: Mapping[str, MatchResult]
                      ) -> dict[frozenset[str], list[MatchResult]]:
    """The walkovers given on a schedule by the pair they are between, in schedule order
    (a double round robin's pair may have two)."""
    given: dict[frozenset[str], list[MatchResult]] = {}
    for pairing in schedule:
        if pairing.id in walkovers:
            given.setdefault(frozenset(pairing.entrants), []).append(walkovers[pairing.id])
    return given


def walkovers_redrawn(given: Mapping[frozenset[str], Sequence[MatchResult]],
                      schedule: Sequence[Pairing],
                      withdrawn: frozenset[str]) -> dict[str, MatchResult]:
    """The walkovers given before a re-draw (a late entry), on the schedule it draws: each
    pair's under the id the pair meets under now (its first meeting's first, a double round
    robin's), kept as it was given whatever order the withdrawals came in; kept by the old
    schedule's ids, they named other pairs. Each other pairing with someone withdrawn is a
    walkover too: the late entrant's (or, in a multi-stage re-draw, a group-mate's it was
    not drawn with before), to the one still in, and a loss for both where the re-draw put
    two together who had both withdrawn (neither was there to play it)."""
    left = {pair: list(results) for pair, results in given.items()}
    walkovers: dict[str, MatchResult] = {}
    for pairing in schedule:
        if left.get(pair := frozenset(pairing.entrants)):
            walkovers[pairing.id] = replace(left[pair].pop(0), pairing_id=pairing.id)
    for pairing in schedule:
        gone = withdrawn & set(pairing.entrants)
        if gone and len(pairing.entrants) == 2 and pairing.id not in walkovers:
            walkovers[pairing.id] = forfeit(pairing, frozenset(gone))
    return walkovers


def _unreached(state: RoundRobinState, entrant: str) -> dict[str, MatchResult]:
    """The walkovers an entrant withdrawing now had been given in rounds after the one
    being played (played round by round), as losses for both: it is there for none of
    them. Those of the rounds it played in stand."""
    if not state.options.round_by_round:
        return {}
    current = FORMAT.ready(state)[0].round
    later = {p.id: p for p in state.schedule if p.round > current}
    return {pid: forfeit(later[pid], frozenset(later[pid].entrants))
            for pid, result in state.walkovers.items()
            if pid in later and result.placements.get(entrant) == 1}


def _find(state: RoundRobinState, pairing_id: str) -> Pairing:
    """The scheduled pairing with this id."""
    for pairing in state.schedule:
        if pairing.id == pairing_id:
            return pairing
    raise FormatError("unknown_pairing", f"No pairing {quoted(pairing_id)}.")


def _is_open(state: RoundRobinState, pairing: Pairing) -> bool:
    """A real match with no result and no withdrawn entrant."""
    playing = len(pairing.entrants) == 2 and not state.withdrawn & set(pairing.entrants)
    return playing and pairing.id not in state.results


def games(state: RoundRobinState) -> list[MatchResult]:
    """The decided matches in schedule order: results, and walkovers from withdrawals."""
    out = []
    for pairing in state.schedule:
        if pairing.id in state.results:
            out.append(state.results[pairing.id])
        elif pairing.id in state.walkovers:
            out.append(state.walkovers[pairing.id])
    return out


def _reached(state: RoundRobinState) -> dict[str, str]:
    """The last round in which each entrant has a decided match."""
    decided = {r.pairing_id for r in games(state)}
    reached: dict[str, str] = {}
    for pairing in state.schedule:
        if pairing.id in decided:
            reached.update({e: f"Round {pairing.round}" for e in pairing.entrants})
    return reached


FORMAT = RoundRobin()
