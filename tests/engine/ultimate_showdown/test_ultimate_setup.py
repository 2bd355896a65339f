"""Set-up (US-01..07)."""

from __future__ import annotations

import random

import pytest

from engine.games.ultimate_showdown import RULES
from engine.games.ultimate_showdown.state import Phase
from engine.protocol import IllegalAction


def test_the_contents_are_150_contenders_and_50_double_sided_challenges():
    """US-01: 150 Contender cards, 50 Challenge cards (100 Challenges), 8 slots and chips."""
    assert len(RULES.cards.contenders) == 150
    assert len(RULES.cards.challenges) == 50
    assert len(RULES.sides) == 100


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_three_to_eight_players_can_sit_down(n):
    """US-02: 3-8 seats."""
    assert RULES.start({}, n).n == n


@pytest.mark.parametrize("n", [1, 2, 9])
def test_other_player_counts_are_refused(n):
    """US-02."""
    with pytest.raises(IllegalAction) as err:
        RULES.start({}, n)
    assert err.value.code == "bad_seat_count"


def test_each_player_has_chips_one_to_eight_and_a_two_sided_voting_chip(ut):
    """US-03: bets name slots 1-8; the voting chip picks one of two options."""
    state = ut.to_bets(4)
    slots = {a["slot"] for a in RULES.legal_actions(state, 0)}
    assert slots == set(range(1, 9))
    vote = ut.sides(ut.fresh(4))
    assert [a["space"] for a in RULES.legal_actions(vote, 2)] == ["A", "B"]


def test_every_score_starts_at_zero(ut):
    """US-04."""
    view = RULES.view(ut.fresh(5), 0)
    assert [s["score"] for s in view["seats"]] == [0] * 5
    assert all(s["round_points"] == [] for s in view["seats"])


@pytest.mark.parametrize("n", [3, 8])
def test_the_decks_are_shuffled_and_four_contenders_dealt_to_each(ut, n):
    """US-05: the set-up is a chance event; four cards each from the shuffled deck."""
    start = RULES.start({}, n)
    assert RULES.pending(start).kind == "chance"
    outcome = RULES.sample_chance(start, random.Random(1))
    state = ut.chance(start, outcome)
    for seat in range(n):
        assert state.hands[seat] == tuple(outcome["contenders"][4 * seat:4 * seat + 4])
    assert len(state.deck) == 150 - 4 * n
    assert state.phase is Phase.CHOOSE_SIDES and state.round == 1


def test_the_pow_marker_is_used_only_with_an_even_number_of_players(ut):
    """US-06."""
    assert ut.fresh(4, pow_seat=2).pow_holder == 2
    assert ut.fresh(3).pow_holder is None
    start = RULES.start({}, 5)
    assert RULES.sample_chance(start, random.Random(0))["pow"] is None
    bad = RULES.sample_chance(start, random.Random(0)) | {"pow": 1}
    with pytest.raises(IllegalAction):
        ut.chance(start, bad)
