"""Tiebreaks as pure functions over a list of results, and the ranking that applies them.

Results are two-seat meetings for everything but the named figures; a bye is not a
result (it adds to an entrant's points, not to anyone's opponents). The entrants a game
played as one side (a tag team) win, draw or lose together and are not each other's
opponents. The names a format's `tiebreaks` option takes:

    head_to_head      points scored in the meetings among the entrants still tied,
                      then again among those the meetings left level, while it splits them
                      (each further pass's points shown as head_to_head:2, :3, ...)
    buchholz          the sum of the opponents' points
    buchholz_cut1     the same without the weakest opponent
    sonneborn_berger  the points of each opponent beaten, half those of each drawn
    wins              the number of wins
    figure:NAME       the sum of a named figure (points scored, eliminations, ...)
    diff:NAME         own figure minus the opponents' (their mean when several sit)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from league.formats.base import (
    MatchResult,
    Scoring,
    StandingRow,
    competition_ranks,
    outcomes,
    side_key,
)

Table = dict[str, float]


@dataclass(frozen=True)
class Ranked:
    """An entrant's place after the tiebreaks, and the value of each."""

    rank: int
    entrant: str
    values: Mapping[str, float]


SHARES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def outcome_share(result: MatchResult, entrant: str) -> float:
    """1 for a win (first place alone, or with its own side: a tag team's win), 0.5 for a
    first place shared with other sides, 0 otherwise."""
    return SHARES[outcomes(result.placements, result.sides)[entrant]]


def game_points(result: MatchResult, scoring: Scoring) -> Table:
    """The points each seated entrant earns from one result."""
    values = {1.0: scoring.win, 0.5: scoring.draw, 0.0: scoring.loss}
    return {e: values[outcome_share(result, e)] for e in result.placements}


def opponents(result: MatchResult, entrant: str) -> list[str]:
    """The others seated in a result, but for the entrant's own side (a tag team partner)."""
    side = side_key(entrant, result.sides)
    return [e for e in result.placements if side_key(e, result.sides) != side]


def points_table(results: Iterable[MatchResult], scoring: Scoring) -> Table:
    """The points each entrant earns over the results."""
    table: Table = defaultdict(float)
    for result in results:
        for entrant, points in game_points(result, scoring).items():
            table[entrant] += points
    return dict(table)


def buchholz(results: Iterable[MatchResult], points: Mapping[str, float]) -> Table:
    """The sum of each entrant's opponents' points."""
    return {e: sum(scores) for e, scores in _opponent_scores(results, points).items()}


def buchholz_cut1(results: Iterable[MatchResult], points: Mapping[str, float]) -> Table:
    """Buchholz without the weakest opponent."""
    table = _opponent_scores(results, points)
    return {e: sum(scores) - min(scores, default=0.0) for e, scores in table.items()}


def _opponent_scores(
    results: Iterable[MatchResult], points: Mapping[str, float]
) -> dict[str, list[float]]:
    """Each entrant's opponents' points, one entry per meeting."""
    table: dict[str, list[float]] = defaultdict(list)
    for result in results:
        for entrant in result.placements:
            table[entrant] += [points.get(o, 0.0) for o in opponents(result, entrant)]
    return dict(table)


def sonneborn_berger(results: Iterable[MatchResult], points: Mapping[str, float]) -> Table:
    """Opponents' points weighted by the share won against them (1, 0.5 or 0)."""
    table: Table = defaultdict(float)
    for result in results:
        for entrant in result.placements:
            share = outcome_share(result, entrant)
            table[entrant] += sum(share * points.get(o, 0.0) for o in opponents(result, entrant))
    return dict(table)


def head_to_head(results: Iterable[MatchResult], group: Iterable[str], scoring: Scoring) -> Table:
    """Points each member of `group` scored in the meetings among the group only."""
    members = set(group)
    inside = [r for r in results if set(r.placements) <= members]
    return {e: points_table(inside, scoring).get(e, 0.0) for e in members}


def wins(results: Iterable[MatchResult]) -> Table:
    """The number of wins (first places held by the entrant's side alone)."""
    table: Table = defaultdict(float)
    for result in results:
        for entrant in result.placements:
            table[entrant] += float(outcome_share(result, entrant) == 1.0)
    return dict(table)


def figure_total(results: Iterable[MatchResult], name: str) -> Table:
    """The sum of a named figure over each entrant's results."""
    table: Table = defaultdict(float)
    for result in results:
        for entrant in result.placements:
            table[entrant] += _figure(result, entrant, name)
    return dict(table)


def differential(results: Iterable[MatchResult], name: str) -> Table:
    """Own figure minus the opponents' mean, summed over the results."""
    table: Table = defaultdict(float)
    for result in results:
        for entrant in result.placements:
            others = [_figure(result, o, name) for o in opponents(result, entrant)]
            mean = sum(others) / len(others) if others else 0.0
            table[entrant] += _figure(result, entrant, name) - mean
    return dict(table)


def _figure(result: MatchResult, entrant: str, name: str) -> float:
    """One named figure of one entrant in one result (0 when not given)."""
    return float(result.figures.get(entrant, {}).get(name, 0.0))


def criterion_values(
    name: str, results: Sequence[MatchResult], points: Mapping[str, float]
) -> Table:
    """The values of one tiebreak that does not depend on who is tied."""
    kind, _, figure = name.partition(":")
    measures: dict[str, Callable[[], Table]] = {
        "buchholz": lambda: buchholz(results, points),
        "buchholz_cut1": lambda: buchholz_cut1(results, points),
        "sonneborn_berger": lambda: sonneborn_berger(results, points),
        "wins": lambda: wins(results),
        "figure": lambda: figure_total(results, figure),
        "diff": lambda: differential(results, figure),
    }
    return measures[kind]()


def rank(
    entrants: Sequence[str],
    points: Mapping[str, float],
    criteria: Sequence[str],
    results: Sequence[MatchResult],
    scoring: Scoring,
) -> list[Ranked]:
    """Entrants best first by points, then each tiebreak in turn; full ties share a rank."""
    # Head-to-head is computed within each group still tied when its turn comes, and again
    # within each part of it the meetings left level (`head_to_head_levels`); entrants tied
    # on everything are listed in seed (`entrants`) order. A tiebreak's value is its first
    # (head-to-head among the whole group); each further pass taken for an entrant is a
    # value of its own, `head_to_head:2` and on (`pass_name`), so the table shows the
    # value that split those the first pass left level.
    keys: dict[str, tuple[float, ...]] = {e: (points.get(e, 0.0),) for e in entrants}
    values: dict[str, dict[str, float]] = {e: {} for e in entrants}
    for name in criteria:
        table = _tiebreak(name, keys, results, points, scoring)
        for e in entrants:
            levels = table.get(e, (0.0,))
            values[e][name] = levels[0]
            values[e].update({pass_name(name, n): v for n, v in enumerate(levels[1:], 2)})
            keys[e] = (*keys[e], *levels)
    seed = {e: i for i, e in enumerate(entrants)}
    order = sorted(entrants, key=lambda e: ([-k for k in keys[e]], seed[e]))
    ranks = competition_ranks([keys[e] for e in order])
    return [Ranked(r, e, values[e]) for r, e in zip(ranks, order, strict=True)]


def pass_name(name: str, number: int) -> str:
    """The value of a tiebreak's pass `number` (2 on): head-to-head taken again among
    those the pass before left level, "head_to_head:2"."""
    return f"{name}:{number}"


def _tiebreak(
    name: str,
    keys: Mapping[str, tuple[float, ...]],
    results: Sequence[MatchResult],
    points: Mapping[str, float],
    scoring: Scoring,
) -> dict[str, tuple[float, ...]]:
    """The values of one tiebreak given the keys so far, each entrant's as a key part (a
    head-to-head's runs a level deeper for each split of its group)."""
    if name != "head_to_head":
        return {e: (value,) for e, value in criterion_values(name, results, points).items()}
    groups: dict[tuple[float, ...], list[str]] = defaultdict(list)
    for entrant, key in keys.items():
        groups[key].append(entrant)
    table: dict[str, tuple[float, ...]] = {}
    for group in groups.values():
        table.update(head_to_head_levels(results, group, scoring) if len(group) > 1
                     else {group[0]: (0.0,)})
    return table


def head_to_head_levels(results: Sequence[MatchResult], group: Sequence[str],
                        scoring: Scoring) -> dict[str, tuple[float, ...]]:
    """Head-to-head among `group`, then again among each part it leaves level, for as long
    as that separates someone: four tied where B beat D and D beat C give B and D 1 point
    each, A and C none; B's win over D then puts B first (among the whole group it only
    counted as much as D's over C). Each entrant's points at each level, best first."""
    table = head_to_head(results, group, scoring)
    parts: dict[float, list[str]] = defaultdict(list)
    for entrant in group:
        parts[table[entrant]].append(entrant)
    if len(parts) == 1:
        return {e: (table[e],) for e in group}
    levels: dict[str, tuple[float, ...]] = {}
    for part in parts.values():
        deeper = head_to_head_levels(results, part, scoring) if len(part) > 1 else {}
        levels.update({e: (table[e], *deeper.get(e, ())) for e in part})
    return levels


def league_table(
    entrants: Sequence[str],
    results: Sequence[MatchResult],
    scoring: Scoring,
    criteria: Sequence[str],
    *,
    byes: Mapping[str, int] | None = None,
    withdrawn: frozenset[str] = frozenset(),
    reached: Mapping[str, str] | None = None,
) -> list[StandingRow]:
    """Standings of a points format: a bye is worth `scoring.bye` points, and counts as a
    win when that is a win's worth, a draw when it is a draw's, else in none of the three
    (a bye worth nothing is no win: wins, draws and losses agree with the points)."""
    byes = byes or {}
    points = points_table(results, scoring)
    for entrant, count in byes.items():
        points[entrant] = points.get(entrant, 0.0) + count * scoring.bye
    tally = _tally(results)
    as_win, as_draw = scoring.bye == scoring.win, scoring.bye == scoring.draw
    for entrant, count in byes.items():
        won, drawn, lost = tally.get(entrant, (0, 0, 0))
        tally[entrant] = (won + count * as_win, drawn + count * (as_draw and not as_win), lost)
    table = rank(entrants, points, criteria, results, scoring)
    return [_row(r, points, tally, withdrawn, reached or {}) for r in table]


def _row(
    ranked: Ranked,
    points: Mapping[str, float],
    tally: Mapping[str, tuple[int, int, int]],
    withdrawn: frozenset[str],
    reached: Mapping[str, str],
) -> StandingRow:
    """One line of a points table."""
    e = ranked.entrant
    won, drawn, lost = tally.get(e, (0, 0, 0))
    return StandingRow(
        rank=ranked.rank,
        entrant=e,
        points=points.get(e, 0.0),
        wins=won,
        draws=drawn,
        losses=lost,
        tiebreaks=ranked.values,
        eliminated=e in withdrawn,
        reached=reached.get(e, ""),
        withdrawn=e in withdrawn,
    )


def _tally(results: Iterable[MatchResult]) -> dict[str, tuple[int, int, int]]:
    """(wins, draws, losses) of each entrant."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for result in results:
        for entrant, outcome in outcomes(result.placements, result.sides).items():
            counts[entrant][("win", "draw", "loss").index(outcome)] += 1
    return {e: (c[0], c[1], c[2]) for e, c in counts.items()}
