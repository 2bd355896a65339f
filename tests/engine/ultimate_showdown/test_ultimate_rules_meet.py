"""Ultimate Showdown edge cases where two rules meet, the ones the other tests left out:
the POW! marker moving on after a tied Challenge vote and then breaking a tied match of
the same round, the marker moving on inside a sudden-death ladder, and a tie below first
place that needs no sudden death."""

from __future__ import annotations

from dataclasses import replace

from engine.games.ultimate_showdown import RULES
from engine.games.ultimate_showdown.state import Phase


def test_a_tied_challenge_vote_passes_the_pow_on_and_the_next_holder_breaks_a_match(ut):
    """US-13 decision with US-33/34: seat 1 holds the POW! and breaks a 2-2 Challenge vote
    for B; the marker passes to seat 2, so the round's first tied match (2-2) goes to seat
    2's vote (#2), not seat 1's (#1), and the marker moves on to seat 3."""
    state = ut.vote_challenge(ut.sides(ut.fresh(4, pow_seat=1)), ["A", "B", "A", "B"])
    assert state.challenge == state.choices[1] and state.pow_holder == 2
    state = ut.bet_all(ut.fill(ut.play_all(state)), ut.default_bets(4))
    state = ut.vote(state, [1, 1, 2, 2])
    assert state.winners == (2,) and state.votes[0].pow_seat == 2
    assert state.votes[0].counts == (2, 3) and state.pow_holder == 3


def _three_tied_at_six(ut, pow_seat):
    """Round five at six seats (history trimmed to it), seats 0, 1 and 2 tied for first
    on 18 points: the same winning bets."""
    state = ut.fill(ut.sides(ut.to_ultimate(6, pow_seat=pow_seat)))
    state = replace(state, history=())
    bets = [(1, 5, 3) if seat < 3 else (8, 7, 6) for seat in range(6)]
    return ut.finish_round(state, bets)


def test_the_pow_passes_within_a_sudden_death_ladder(ut):
    """US-53, US-54 decision, US-33/34: at an even table the ladder's first match (seat 0
    v seat 1) ties 3-3 and the holder (seat 3, who voted for seat 1) breaks it; the marker
    passes to seat 4, whose double vote then breaks the 3-3 of the next match (seat 1 v
    seat 2) for seat 2, though seat 3 voted for seat 1."""
    state = _three_tied_at_six(ut, pow_seat=3)
    assert state.scores()[:3] == (18, 18, 18) and state.phase is Phase.SUDDEN_DEATH
    sd = state.sudden
    assert (sd.orange, sd.blue, sd.queue) == (0, 1, (2,)) and state.pow_holder == 3
    for seat, target in enumerate([0, 0, 1, 1, 0, 1]):
        state = ut.decide(state, seat, {"type": "vote_player", "seat": target})
    sd = state.sudden
    assert [v.winner for v in sd.votes] == [1] and sd.votes[0].pow_seat == 3
    assert (sd.orange, sd.blue, sd.queue) == (1, 2, ()) and state.pow_holder == 4
    for seat, target in enumerate([1, 2, 1, 1, 2, 2]):
        state = ut.decide(state, seat, {"type": "vote_player", "seat": target})
    assert state.phase is Phase.OVER and state.sudden.votes[1].pow_seat == 4
    result = RULES.result(state)
    assert result.winners == (2,) and not result.draw
    assert result.placements == (2, 2, 1, 4, 4, 4)


def test_a_tie_below_first_place_needs_no_sudden_death(ut):
    """US-52 with US-53: only a tie for first is played off; seats 1 and 2 tied for second
    share it, and the two behind them share fourth."""
    state = ut.fill(ut.sides(ut.to_ultimate(5)))
    state = replace(state, history=())
    state = ut.finish_round(state, [(1, 5, 3), (5, 1, 3), (5, 1, 3), (8, 7, 6), (8, 7, 6)])
    assert state.scores() == (18, 10, 10, 0, 0)
    assert state.phase is Phase.OVER and state.sudden is None
    result = RULES.result(state)
    assert result.winners == (0,) and result.placements == (1, 2, 2, 4, 4)
