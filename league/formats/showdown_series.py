"""One meeting of two entrants: a Superstar Showdown Event played as a single match.

A Superstar Showdown Event (SS-127) is a series of Matches inside one match stream, so
the league Event around it has exactly two entrants, Red (the first seed) and Blue, and a
single pairing `S1` whose match is the whole series. Its result ranks them (a draw shares
first); the match's figures (Ranking Points, Matches won, ...) ride along as
`figure:NAME` tiebreak columns so the standings show them. A withdrawal before the result
is a walkover for the other side; nobody joins late and nothing is paired by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.protocol import quoted
from league.formats.base import (
    SCORING_OPTIONS,
    FormatError,
    MatchResult,
    OptionSpec,
    Pairing,
    Scoring,
    StandingRow,
    check_entrants,
    check_new_entrant,
    check_placements,
    check_withdrawal,
    competition_ranks,
    forfeit,
    outcomes,
    read_options,
    require,
    scoring_from,
    winner_of,
)

STAGE = "event"
PAIRING = "S1"
LABEL = "Event"


@dataclass(frozen=True)
class SeriesState:
    """The two entrants (Red, Blue), the scoring, the result and any withdrawal."""

    entrants: tuple[str, str]
    scoring: Scoring
    result: MatchResult | None = None
    withdrawn: frozenset[str] = frozenset()


class ShowdownSeries:
    """Two entrants, one match: the whole Event."""

    key: str = "showdown_series"
    revision: int = 1
    # A bye never happens here, so its points are left out of the options.
    options: tuple[OptionSpec, ...] = SCORING_OPTIONS[:3]

    def start(self, entrants: Sequence[str], options: Mapping[str, Any] | None = None,
              revision: int | None = None) -> SeriesState:
        """Red is the first seed, Blue the second; exactly two entrants."""
        seeded = check_entrants(entrants)
        require(len(seeded) == 2, "too_many_entrants",
                f"A Showdown series is two entrants, Red and Blue, not {len(seeded)}.")
        values = read_options(self.options, options)
        return SeriesState((seeded[0], seeded[1]), scoring_from({**values, "bye_points": None}))

    def pairings(self, state: SeriesState) -> list[Pairing]:
        """The one pairing."""
        return [Pairing(PAIRING, 1, state.entrants, STAGE, LABEL, ("seed 1", "seed 2"))]

    def ready(self, state: SeriesState) -> list[Pairing]:
        """The pairing, until it is decided."""
        return [] if self.is_complete(state) else self.pairings(state)

    def record(self, state: SeriesState, result: MatchResult) -> SeriesState:
        """The state after the match's result; a draw shares first."""
        require(result.pairing_id == PAIRING, "unknown_pairing",
                f"No pairing {quoted(result.pairing_id)}.")
        require(state.result is None, "already_recorded", f"{PAIRING} already has a result.")
        require(not state.withdrawn, "not_ready", f"{PAIRING} was decided by a withdrawal.")
        check_placements(result, state.entrants, draws=True)
        return replace(state, result=result)

    def is_complete(self, state: SeriesState) -> bool:
        """Whether the match has a result or a side withdrew."""
        return state.result is not None or bool(state.withdrawn)

    def standings(self, state: SeriesState) -> list[StandingRow]:
        """By place in the match (both first before it ends), with its figures."""
        decided = self._decided(state)
        places = dict(decided.placements) if decided else dict.fromkeys(state.entrants, 1)
        order = sorted(state.entrants, key=lambda e: (places[e], state.entrants.index(e)))
        ranks = competition_ranks([places[e] for e in order])
        return [self._row(state, decided, entrant, rank) for entrant, rank in zip(order, ranks,
                                                                                   strict=True)]

    def _decided(self, state: SeriesState) -> MatchResult | None:
        """The result, or the walkover a withdrawal gave."""
        if state.result is not None:
            return state.result
        if state.withdrawn:
            return forfeit(self.pairings(state)[0], state.withdrawn)
        return None

    def _row(self, state: SeriesState, decided: MatchResult | None, entrant: str,
             rank: int) -> StandingRow:
        """One entrant's line."""
        outcome = _outcome(decided, entrant)
        scoring = state.scoring
        points = {"win": scoring.win, "draw": scoring.draw, "loss": scoring.loss}.get(outcome, 0.0)
        figures = dict(decided.figures.get(entrant, {})) if decided else {}
        return StandingRow(
            rank=rank, entrant=entrant, points=points, wins=int(outcome == "win"),
            draws=int(outcome == "draw"), losses=int(outcome == "loss"),
            tiebreaks={f"figure:{name}": float(value) for name, value in figures.items()
                       if isinstance(value, int | float) and not isinstance(value, bool)},
            eliminated=outcome == "loss", reached=LABEL if decided else "",
            withdrawn=entrant in state.withdrawn,
        )

    def withdraw(self, state: SeriesState, entrant: str) -> SeriesState:
        """The entrant leaves; the other side wins by walkover."""
        check_withdrawal(state.entrants, state.withdrawn, entrant)
        require(not self.is_complete(state), "event_complete", "The Event is decided.")
        return replace(state, withdrawn=state.withdrawn | {entrant})

    def add_entrant(self, state: SeriesState, entrant: str) -> SeriesState:
        """Refused: the two sides are set at the start."""
        check_new_entrant(state.entrants, entrant)
        raise FormatError("already_started", "A Showdown series is two entrants; the sides "
                                             "are set at the start.")

    def pair_by_hand(self, state: SeriesState, pairings: Sequence[Sequence[str | None]]
                     ) -> SeriesState:
        """Refused: there is one pairing and it is made at the start."""
        raise FormatError("not_supported", "A Showdown series has a single pairing.")

    def takes_hand_pairings(self, state: SeriesState) -> bool:
        return False

    def walkovers(self, state: SeriesState) -> dict[str, str | None]:
        """The series, when a withdrawal before its result decided it, to the other side."""
        if state.result is not None or not state.withdrawn:
            return {}
        return {PAIRING: winner_of(forfeit(self.pairings(state)[0], state.withdrawn))}


def _outcome(decided: MatchResult | None, entrant: str) -> str:
    """win, draw, loss, or "" before the result."""
    if decided is None:
        return ""
    return outcomes(decided.placements, decided.sides)[entrant]


FORMAT = ShowdownSeries()
