"""Scoring (US-36..40) and the Ultimate Showdown's doubling without owner points (US-48..51)."""

from __future__ import annotations

import pytest

from engine.games.ultimate_showdown import RULES
from engine.games.ultimate_showdown.state import Phase

# Everyone votes orange: quarter-final winners 1, 3, 5, 7; semi-finals 1 and 5; final 1.
# Champion #1, second #5; Semi-Final bets score on 1, 3, 5 or 7.


def _scored(ut, bets, n=4):
    state = ut.finish_round(ut.to_bets(n), bets)
    return state.history[-1]


@pytest.mark.parametrize("bet,expected", [
    ((1, 2, 4), (4, 0, 0)),  # US-36: Champion bet right
    ((2, 5, 4), (0, 3, 0)),  # US-37: Final bet on the runner-up
    ((5, 1, 4), (0, 3, 0)),  # US-38: Final bet on the Champion still scores 3
    ((2, 4, 3), (0, 0, 2)),  # US-39: Semi-Final bet won its quarter-final
    ((2, 4, 6), (0, 0, 0)),  # all wrong
    ((1, 5, 7), (4, 3, 2)),  # all right
])
def test_the_scoring_table(ut, bet, expected):
    """US-36, US-37, US-38, US-39: 4 / 3 / 2 points for the three bets."""
    record = _scored(ut, [bet, (8, 7, 6), (8, 7, 6), (8, 7, 6)])
    assert record.points[0][:3] == expected


def test_the_owner_of_the_champion_scores_three(ut):
    """US-40: whoever played the Contender in slot 1 gets 3 points, nobody else."""
    state = ut.to_bets(4)
    owner = state.owners[0]
    record = ut.finish_round(state, [(8, 7, 6)] * 4).history[-1]
    for seat in range(4):
        assert record.points[seat] == (0, 0, 0, 3 if seat == owner else 0)
    assert RULES.view(ut.finish_round(state, [(8, 7, 6)] * 4), None)["history"][0][
        "champion_owner"] == owner


def test_a_contender_promoted_from_box_b_still_scores_its_owner(ut):
    """US-20 with US-40: a Box B card in slot 1 that becomes Champion pays its owner."""
    state = ut.play_all(ut.vote_challenge(ut.sides(ut.fresh(4)), ["A"] * 4))
    box_a, box_b = RULES._box_contents(state)
    promoted = sorted(box_b)[0]
    owner = next(s for s, box in enumerate(state.boxes) if box and promoted in box[1])
    filled = ut.chance(state, {"box_b": sorted(box_b), "slots": [promoted, *box_a,
                                                                 *sorted(box_b)[1:]]})
    assert filled.owners[0] == owner
    record = ut.finish_round(filled, [(8, 7, 6)] * 4).history[-1]
    assert record.points[owner][3] == 3


def test_the_scores_add_up_per_round_and_in_total(ut):
    """US-04 with the scoring: the view's score board carries round points and totals."""
    state = ut.fresh(4)
    state = ut.play_round(state, bets=[(1, 5, 3)] * 4)
    view = RULES.view(state, 0)
    owner = state.history[0].owners[0]
    for seat in view["seats"]:
        expected = 9 + (3 if seat["seat"] == owner else 0)
        assert seat["round_points"] == [expected] and seat["score"] == expected


def _ultimate(ut, bets):
    state = ut.fill(ut.sides(ut.to_ultimate(4)))
    return ut.finish_round(state, bets)


def test_round_five_doubles_every_bet(ut):
    """US-48, US-49, US-50: 8, 6 and 4 points."""
    state = _ultimate(ut, [(1, 5, 3), (2, 1, 4), (5, 2, 7), (8, 7, 6)])
    record = state.history[-1]
    assert record.number == 5
    assert record.points[0] == (8, 6, 4, 0)
    assert record.points[1] == (0, 6, 0, 0)
    assert record.points[2] == (0, 0, 4, 0)  # a Final bet on #2, out in the quarter-final
    assert record.points[3] == (0, 0, 0, 0)


def test_round_five_pays_nobody_for_owning_the_champion(ut):
    """US-51: the kept Contenders have no owner and no owner points are scored."""
    state = ut.fill(ut.sides(ut.to_ultimate(4)))
    assert state.owners == (None,) * 8
    record = ut.finish_round(state, [(8, 7, 6)] * 4).history[-1]
    assert all(p == (0, 0, 0, 0) for p in record.points)


def test_the_result_carries_each_seats_round_and_total_points(ut):
    """US-52 figures: score and round_1..round_5 per seat."""
    state = _ultimate(ut, [(1, 5, 3), (8, 7, 6), (8, 7, 6), (8, 7, 6)])
    assert state.phase is Phase.OVER
    result = RULES.result(state)
    figures = result.figures[0]
    assert [figures[f"round_{i}"] for i in range(1, 6)] == state.round_points(0)
    assert figures["score"] == sum(state.round_points(0)) == state.scores()[0]
    assert result.winners == (0,) and result.placements[0] == 1
