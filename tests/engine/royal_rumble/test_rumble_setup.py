"""Setup: RR-02..RR-13."""

from __future__ import annotations

import random

import pytest
from rr_helpers import RULES

from engine.games.royal_rumble.cards import ACTION_IDS, ROSTER
from engine.games.royal_rumble.state import HAND_SIZE, Phase
from engine.protocol import Event, IllegalAction


def dealt(n: int, seed: int = 1) -> object:
    rng = random.Random(seed)
    s = RULES.start({}, n)
    while RULES.pending(s).kind == "chance":
        s = RULES.apply(s, Event.chance(RULES.sample_chance(s, rng)))
    return s


@pytest.mark.parametrize("n", [1, 11])
def test_the_game_seats_two_to_ten(n: int) -> None:
    """RR-02."""
    assert RULES.spec.min_seats == 2 and RULES.spec.max_seats == 10
    with pytest.raises(IllegalAction):
        RULES.start({}, n)


@pytest.mark.parametrize(("n", "legends"), [(3, 9), (4, 12), (5, 15), (6, 18)])
def test_three_legends_per_player_as_the_rulebook_counts(n: int, legends: int) -> None:
    """RR-03, RR-04, RR-05, RR-06."""
    s = dealt(n)
    assert len(s.reserve) + n == legends


@pytest.mark.parametrize(("n", "legends"), [(2, 6), (7, 21), (8, 24), (9, 27), (10, 30)])
def test_unspecified_counts_use_the_same_ratio(n: int, legends: int) -> None:
    """RR-07 decision: three per player at every count."""
    s = dealt(n)
    assert len(s.reserve) + n == legends


def test_each_player_gets_a_face_up_legend_with_its_signature_and_a_reserve() -> None:
    """RR-08, RR-09, RR-10: the chosen Legends only, Signatures beside them."""
    s = dealt(4)
    used = [p.legend for p in s.players] + s.reserve
    assert len(set(used)) == 12 and set(used) <= set(ROSTER)
    for p in s.players:
        assert p.signature == ROSTER[p.legend].signature_id
        assert p.damage == []
    view = RULES.view(s, None)
    assert view["reserve_count"] == 8
    assert all(pl["legend"]["signature"] for pl in view["players"])
    assert not any(key in str(view) for key in s.reserve)


def test_action_cards_are_shuffled_and_six_dealt_each() -> None:
    """RR-11: six each, the rest the face-down deck; the shuffle is a stored chance event."""
    s = RULES.start({}, 5)
    s = RULES.apply(s, Event.chance(RULES.sample_chance(s, random.Random(2))))
    order = list(reversed(ACTION_IDS))
    s = RULES.apply(s, Event.chance({"order": order}))
    assert next(p.hand for p in s.players) == order[:HAND_SIZE]
    assert len(s.deck) == 150 - 5 * HAND_SIZE and s.deck[0] == order[5 * HAND_SIZE]
    assert s.phase is Phase.PLAN


def test_the_first_titleholder_is_seat_zero_and_plans_first() -> None:
    """RR-12, RR-13 decision: seat 0 takes the Legends token and goes first."""
    s = dealt(6)
    assert s.titleholder == 0
    assert RULES.pending(s).seats == (0,)
    assert RULES.view(s, None)["players"][0]["titleholder"] is True


def test_start_is_deterministic_and_bad_outcomes_are_refused() -> None:
    assert RULES.start({}, 3) == RULES.start({}, 3)
    s = RULES.start({}, 3)
    with pytest.raises(IllegalAction) as error:
        RULES.apply(s, Event.chance({"legends": ["ironhide"] * 9}))
    assert error.value.code == "bad_outcome"
    with pytest.raises(IllegalAction):
        RULES.start({"round_limit": 0}, 3)
