"""Tiebreaks against tables computed by hand."""

from __future__ import annotations

from format_helpers import draw, finish

from league.formats import MatchResult, Scoring
from league.formats.round_robin import FORMAT as RR
from league.formats.tiebreaks import (
    buchholz,
    buchholz_cut1,
    differential,
    figure_total,
    head_to_head,
    points_table,
    rank,
    sonneborn_berger,
)

# A round robin of four with draws (1 for a win, 1/2 for a draw):
#   A-B 1-0   A-C 1/2   A-D 1-0   B-C 1-0   B-D 1/2   C-D 1-0
# Points: A 2.5, B 1.5, C 1.5, D 0.5.
RESULTS = [
    finish("1", "A", "B"),
    draw("2", "A", "C"),
    finish("3", "A", "D"),
    finish("4", "B", "C"),
    draw("5", "B", "D"),
    finish("6", "C", "D"),
]
SCORING = Scoring()


def test_points_follow_wins_and_draws() -> None:
    assert points_table(RESULTS, SCORING) == {"A": 2.5, "B": 1.5, "C": 1.5, "D": 0.5}


def test_buchholz_sums_the_opponents_points() -> None:
    # A: B+C+D = 1.5+1.5+0.5 = 3.5   B: A+C+D = 4.5   C: A+B+D = 4.5   D: A+B+C = 5.5
    points = points_table(RESULTS, SCORING)
    assert buchholz(RESULTS, points) == {"A": 3.5, "B": 4.5, "C": 4.5, "D": 5.5}
    # Cut 1 drops the weakest opponent: A 3.5-0.5, B 4.5-0.5, C 4.5-0.5, D 5.5-1.5.
    assert buchholz_cut1(RESULTS, points) == {"A": 3.0, "B": 4.0, "C": 4.0, "D": 4.0}


def test_sonneborn_berger_weights_opponents_by_the_result_against_them() -> None:
    # A: beat B 1.5 + drew C 1.5/2 + beat D 0.5 = 2.75     B: beat C 1.5 + drew D 0.5/2 = 1.75
    # C: drew A 2.5/2 + beat D 0.5 = 1.75                  D: drew B 1.5/2 = 0.75
    points = points_table(RESULTS, SCORING)
    assert sonneborn_berger(RESULTS, points) == {"A": 2.75, "B": 1.75, "C": 1.75, "D": 0.75}


def test_head_to_head_separates_two_entrants_tied_on_points_and_sonneborn_berger() -> None:
    # B and C: 1.5 points and SB 1.75 each; B beat C, so B ranks above C.
    assert head_to_head(RESULTS, ["B", "C"], SCORING) == {"B": 1.0, "C": 0.0}
    points = points_table(RESULTS, SCORING)
    table = rank(
        ["A", "C", "B", "D"], points, ["sonneborn_berger", "head_to_head"], RESULTS, SCORING
    )
    assert [(r.rank, r.entrant) for r in table] == [(1, "A"), (2, "B"), (3, "C"), (4, "D")]
    assert dict(table[1].values) == {"sonneborn_berger": 1.75, "head_to_head": 1.0}


def test_entrants_tied_on_everything_share_a_rank_in_seed_order() -> None:
    cycle = [finish("1", "A", "B"), finish("2", "B", "C"), finish("3", "C", "A")]
    points = points_table(cycle, SCORING)
    table = rank(["C", "B", "A"], points, ["head_to_head", "sonneborn_berger"], cycle, SCORING)
    assert [(r.rank, r.entrant) for r in table] == [(1, "C"), (1, "B"), (1, "A")]


def test_the_round_robin_standings_use_the_same_table() -> None:
    state = RR.start(["A", "B", "C", "D"], {"round_by_round": False})
    for pairing in RR.ready(state):
        state = RR.record(state, _same_result(pairing.id, set(pairing.entrants)))
    rows = RR.standings(state)
    assert [(r.rank, r.entrant, r.points) for r in rows] == [
        (1, "A", 2.5),
        (2, "B", 1.5),
        (3, "C", 1.5),
        (4, "D", 0.5),
    ]
    assert rows[1].tiebreaks == {"head_to_head": 1.0, "sonneborn_berger": 1.75, "wins": 1.0}


def _same_result(pairing_id: str, entrants: set[str]) -> MatchResult:
    """The table's result between these two, under a new pairing id."""
    result = next(r for r in RESULTS if set(r.placements) == entrants)
    return MatchResult(pairing_id, result.placements)


def test_named_figures_give_points_scored_and_differentials() -> None:
    # Stack sizes: A 10 v B 4, then A 3 v C 5.  Totals: A 13, B 4, C 5.
    # Differentials: A (10-4)+(3-5) = 4, B 4-10 = -6, C 5-3 = 2.
    games = [
        finish("1", "A", "B", A={"stack": 10}, B={"stack": 4}),
        finish("2", "C", "A", A={"stack": 3}, C={"stack": 5}),
    ]
    assert figure_total(games, "stack") == {"A": 13.0, "B": 4.0, "C": 5.0}
    assert differential(games, "stack") == {"A": 4.0, "B": -6.0, "C": 2.0}


def test_a_differential_takes_the_mean_of_the_other_seats_of_a_pod() -> None:
    # One three-seat heat: stacks A 10, B 4, C 2. A 10-(4+2)/2 = 7, B 4-6 = -2, C 2-7 = -5.
    pod = [finish("1", "A", "B", "C", A={"stack": 10}, B={"stack": 4}, C={"stack": 2})]
    assert differential(pod, "stack") == {"A": 7.0, "B": -2.0, "C": -5.0}


def test_head_to_head_after_another_tiebreak_counts_only_those_still_tied() -> None:
    # A beat B, B beat C, C beat A; A and B each drew D and E; C beat D. All three have
    # 2 points; wins put C (2) ahead of A and B (1 each). Head-to-head then looks only at
    # A against B (A won), not at the three-way cycle, which would leave them level.
    games = [
        finish("1", "A", "B"), finish("2", "B", "C"), finish("3", "C", "A"),
        draw("4", "A", "D"), draw("5", "A", "E"), draw("6", "B", "D"), draw("7", "B", "E"),
        finish("8", "C", "D"),
    ]
    points = points_table(games, SCORING)
    assert points["A"] == points["B"] == points["C"] == 2.0
    table = rank(["B", "A", "C", "D", "E"], points, ["wins", "head_to_head"], games, SCORING)
    assert [(r.rank, r.entrant) for r in table][:3] == [(1, "C"), (2, "A"), (3, "B")]
    assert [r.values["head_to_head"] for r in table][1:3] == [1.0, 0.0]


def test_head_to_head_is_applied_again_among_those_it_leaves_level() -> None:
    # A, B, C and D have 2 points each (against E and F besides). Among the four only B
    # beat D and D beat C: head-to-head gives B and D 1 point, A and C none. Among B and
    # D alone, B beat D, so B ranks above D; A and C never met and stay level.
    games = [
        finish("1", "B", "D"), finish("2", "D", "C"), finish("3", "A", "E"),
        finish("4", "A", "F"), finish("5", "B", "F"), finish("6", "C", "E"),
        finish("7", "C", "F"), finish("8", "D", "E"),
    ]
    points = points_table(games, SCORING)
    assert {e: points[e] for e in "ABCD"} == dict.fromkeys("ABCD", 2.0)
    table = rank(list("ABCDEF"), points, ["head_to_head"], games, SCORING)
    assert [(r.rank, r.entrant) for r in table][:4] == [(1, "B"), (2, "D"), (3, "A"), (3, "C")]
    # Head-to-head among all four tied, then the pass that split B and D (among A and C
    # it was taken too, and left them level); E and F needed none.
    assert [r.values["head_to_head"] for r in table][:4] == [1.0, 1.0, 0.0, 0.0]
    assert [r.values.get("head_to_head:2") for r in table] == [1.0, 0.0, 0.0, 0.0, None, None]


def test_a_points_scheme_of_three_one_nil_is_honoured() -> None:
    scoring = Scoring(win=3.0, draw=1.0, loss=0.0, bye=3.0)
    assert points_table(RESULTS, scoring) == {"A": 7.0, "B": 4.0, "C": 4.0, "D": 1.0}
