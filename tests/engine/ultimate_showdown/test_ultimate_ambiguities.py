"""Each `ambiguity` decision of the package docstring, pinned (US-07, 10, 13, 20, 25, 32,
47, 54)."""

from __future__ import annotations

import random
from collections import Counter

import engine.games.ultimate_showdown as package
from engine.games.ultimate_showdown import RULES
from engine.games.ultimate_showdown.state import Phase


def test_the_docstring_decides_every_ambiguity():
    for item in ("US-07", "US-10", "US-13", "US-20", "US-25", "US-32", "US-47", "US-54"):
        assert f"- {item}:" in (package.__doc__ or "")


def test_us07_the_pow_holder_is_drawn_by_the_setup_chance_event(ut):
    """US-07: any seat can get it, and the stored outcome decides."""
    start = RULES.start({}, 6)
    drawn = Counter(RULES.sample_chance(start, random.Random(s))["pow"] for s in range(200))
    assert set(drawn) == set(range(6))
    assert ut.fresh(6, pow_seat=4).pow_holder == 4


def test_us10_the_rotating_leader_picks_both_sides(ut):
    """US-10: round r's leader is seat (r - 1) mod n; four side combinations."""
    state = ut.fresh(4)
    assert RULES.pending(state).seats == (0,)
    assert len(RULES.legal_actions(state, 0)) == 4
    assert RULES.legal_actions(state, 1) == []
    state = ut.play_round(state)
    assert state.round == 2 and RULES.pending(state).seats == (1,)


def test_us13_a_tied_challenge_vote_goes_to_the_pow_holder(ut):
    """US-13: 2-2, the POW! holder (seat 2) voted B: B wins, the marker passes to 3."""
    state = ut.vote_challenge(ut.sides(ut.fresh(4, pow_seat=2)), ["A", "A", "B", "B"])
    assert state.challenge == state.choices[1]
    assert state.challenge_vote.pow_seat == 2 and state.pow_holder == 3


def test_us20_owners_are_tracked_and_seen_only_by_themselves(ut):
    """US-20: each slot's owner is the seat that played it; a seat sees only its own."""
    state = ut.to_bets(4)
    for slot, card in enumerate(state.slots):
        owner = state.owners[slot]
        assert card in state.boxes[owner][0] + state.boxes[owner][1]
    for viewer in range(4):
        mine = [s["mine"] for s in RULES.view(state, viewer)["bracket"]["slots"]]
        assert mine == [o == viewer for o in state.owners]
    assert not any(s["mine"] for s in RULES.view(state, None)["bracket"]["slots"])


def test_us25_one_chip_per_number_so_three_different_slots(ut):
    """US-25: a slot already used by the seat is not offered and is refused."""
    state = ut.decide(ut.to_bets(4), 0, {"type": "bet", "box": "champion", "slot": 3})
    offered = RULES.legal_actions(state, 0)
    assert all(a["slot"] != 3 for a in offered) and len(offered) == 2 * 7


def test_us32_the_lower_slot_or_upper_half_winner_is_orange(ut):
    """US-32: votes name slots; the view marks orange and blue."""
    state = ut.bet_all(ut.to_bets(4), ut.default_bets(4))
    state = ut.bracket(state, pick=lambda o, b: b)
    record = state.history[0]
    assert record.matches[4].options == (2, 4)
    assert record.matches[6].options == (4, 8)
    match = RULES.view(ut.bet_all(ut.to_bets(4), ut.default_bets(4)), 0)["bracket"]["matches"][0]
    assert (match["orange"], match["blue"]) == (1, 2)


def test_us47_round_five_has_one_card_no_vote_and_the_leader_picks_its_side(ut):
    """US-47."""
    state = ut.to_ultimate(4)
    assert len(state.drawn) == 1 and state.leader == 0  # round 5 of 4 players
    state = ut.sides(state, "back")
    assert state.phase is Phase.SLOTS and state.challenge_vote is None


def test_us54_three_tied_players_play_a_ladder_in_seat_order(ut):
    """US-54: covered in detail by test_three_tied_players_meet_in_a_ladder. Every loser
    of the ladder places equal second, whichever match it lost; the next score is fourth."""
    from dataclasses import replace
    state = ut.fill(ut.sides(ut.to_ultimate(5)))
    state = ut.finish_round(replace(state, history=()), [(1, 5, 3)] * 3 + [(8, 7, 6)] * 2)
    assert (state.sudden.orange, state.sudden.blue, state.sudden.queue) == (0, 1, (2,))
    for target in (0, 0):  # seat 0 beats seat 1, then seat 2
        for seat in range(5):
            state = ut.decide(state, seat, {"type": "vote_player", "seat": target})
    result = RULES.result(state)
    assert result.winners == (0,) and not result.draw
    assert result.placements == (1, 2, 2, 4, 4)
