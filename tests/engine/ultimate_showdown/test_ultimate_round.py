"""A round: the Challenge, the boxes, the slots, bets and matches (US-08..35)."""

from __future__ import annotations

import random

import pytest

from engine.games.ultimate_showdown import RULES
from engine.games.ultimate_showdown.state import Phase
from engine.protocol import Event


def test_the_game_lasts_five_rounds_of_one_challenge_and_seven_matches(ut):
    """US-08, US-31: five rounds, seven votes a round."""
    state = ut.to_ultimate(4)
    assert state.round == 5 and len(state.history) == 4
    assert all(len(r.matches) == 7 for r in state.history)
    state = ut.fill(ut.sides(state))
    state = ut.finish_round(state)
    assert state.phase in (Phase.OVER, Phase.SUDDEN_DEATH) and len(state.history) == 5


def test_a_round_draws_the_top_two_challenge_cards_onto_spaces_a_and_b(ut):
    """US-09."""
    state = ut.fresh(4)
    assert state.drawn == tuple(ut.cards[:2])
    chosen = ut.sides(state, "back", "front")
    view = RULES.view(chosen, 1)["challenge_step"]
    assert [c["space"] for c in view["choices"]] == ["A", "B"]
    assert view["choices"][0]["challenge"]["id"] == RULES.cards.challenges[ut.cards[0]].back.id
    assert view["choices"][1]["challenge"]["id"] == RULES.cards.challenges[ut.cards[1]].front.id


def test_everyone_votes_at_once_for_a_or_b(ut):
    """US-11: all seats are pending together; each vote waits for the others."""
    state = ut.sides(ut.fresh(5))
    assert RULES.pending(state).seats == (0, 1, 2, 3, 4)
    state = ut.decide(state, 3, {"type": "vote_challenge", "space": "B"})
    assert RULES.pending(state).seats == (0, 1, 2, 4)
    assert state.challenge is None


def test_the_challenge_with_more_votes_is_chosen_and_the_other_discarded(ut):
    """US-12."""
    state = ut.vote_challenge(ut.sides(ut.fresh(5)), ["B", "B", "A", "B", "A"])
    assert state.challenge == state.choices[1]
    assert state.challenge_discard == (ut.cards[0],)
    assert state.phase is Phase.PLAY


@pytest.mark.parametrize("n,a,b", [(3, 2, 1), (4, 1, 1), (5, 1, 1), (6, 1, 1), (7, 1, 1),
                                   (8, 1, 0)])
def test_each_player_plays_the_right_number_into_each_box(ut, n, a, b):
    """US-14, US-15, US-16."""
    state = ut.vote_challenge(ut.sides(ut.fresh(n)), ["A"] * n)
    for action in RULES.legal_actions(state, 0):
        assert (len(action["box_a"]), len(action["box_b"])) == (a, b)
    state = ut.play_all(state)
    assert all(box is not None and (len(box[0]), len(box[1])) == (a, b) for box in state.boxes)


@pytest.mark.parametrize("n,from_b", [(3, 2), (4, 4), (7, 1), (8, 0)])
def test_box_b_is_shuffled_and_dealt_into_box_a_until_it_holds_eight(ut, n, from_b):
    """US-17: 3 players: 2 of 3 from B; 4: all 4; 7: 1 of 7; 8: none."""
    state = ut.play_all(ut.vote_challenge(ut.sides(ut.fresh(n)), ["A"] * n))
    box_a, box_b = RULES._box_contents(state)
    filled = ut.fill(state)
    assert len(filled.slots) == 8
    assert len(set(filled.slots) & set(box_b)) == from_b
    assert set(box_a) <= set(filled.slots)


def test_the_eight_go_into_slots_at_random_and_box_b_leftovers_are_discarded(ut):
    """US-18, US-19: the slots follow the stored permutation; slot numbers are 1-8."""
    state = ut.play_all(ut.vote_challenge(ut.sides(ut.fresh(3)), ["A"] * 3))
    box_a, box_b = RULES._box_contents(state)
    order_b = sorted(box_b, reverse=True)
    slots = list(reversed([*box_a, *order_b[:2]]))
    filled = ut.chance(state, {"box_b": order_b, "slots": slots})
    assert filled.slots == tuple(slots)
    leftover = order_b[2]
    assert leftover not in filled.slots
    assert leftover in [c for h in filled.hidden_discard for c in h]
    view = RULES.view(filled, None)
    assert [s["slot"] for s in view["bracket"]["slots"]] == list(range(1, 9))


def test_each_player_bets_on_champion_final_and_semi_final(ut):
    """US-21, US-22, US-23."""
    state = ut.to_bets(4)
    boxes = {a["box"] for a in RULES.legal_actions(state, 0)}
    assert boxes == {"champion", "final", "semi"}
    state = ut.bet_all(state, [(1, 2, 3), (4, 5, 6), (7, 8, 1), (2, 4, 6)])
    assert state.bets[2] == (7, 8, 1)
    assert state.phase is Phase.MATCH


def test_bets_stay_hidden_until_scoring(ut):
    """US-24: others see only how many chips are down; the round's record shows them."""
    state = ut.bet_all(ut.to_bets(4), [(1, 2, 3)] + [(4, 5, 6)] * 3)
    view = RULES.view(state, 1)
    assert view["my_bets"] == {"champion": 4, "final": 5, "semi": 6}
    assert view["seats"][0]["bets_placed"] == 3
    assert set(view["seats"][0]) == {"seat", "name", "score", "round_points", "hand_size",
                                     "waiting", "bets_placed"}
    assert RULES.view(state, None)["my_bets"] is None
    scored = ut.bracket(state)
    assert RULES.view(scored, 1)["history"][0]["bets"][0] == {"champion": 1, "final": 2,
                                                              "semi": 3}


def test_quarter_finals_run_in_order_then_semi_finals_then_the_final(ut):
    """US-26, US-29, US-30."""
    state = ut.bet_all(ut.to_bets(4), ut.default_bets(4))
    seen = []
    picks = {0: 2, 1: 3, 2: 6, 3: 7}  # blue wins 1v2 and 5v6, orange wins 3v4 and 7v8
    while state.phase is Phase.MATCH:
        pair = tuple(a["slot"] for a in RULES.legal_actions(state, 0))
        seen.append(pair)
        winner = picks.get(state.match, pair[0])
        state = ut.vote(state, [winner] * 4)
    assert seen == [(1, 2), (3, 4), (5, 6), (7, 8), (2, 3), (6, 7), (2, 6)]
    record = state.history[-1]
    assert record.champion == 2 and record.runner_up == 6


def test_each_match_is_a_simultaneous_vote_the_majority_wins(ut):
    """US-27, US-28."""
    state = ut.bet_all(ut.to_bets(5), ut.default_bets(5))
    assert RULES.pending(state).seats == (0, 1, 2, 3, 4)
    state = ut.vote(state, [2, 1, 2, 1, 2])
    assert state.winners == (2,)
    assert state.votes[0].counts == (2, 3)


def test_the_narration_gives_the_winners_count_first(ut):
    """US-28: "wins 3-1" whichever colour wins, the POW!'s double vote counted."""
    state = ut.bet_all(ut.to_bets(4, pow_seat=1), ut.default_bets(4))

    def told(ballots: list[int]) -> str:
        before = ut.vote(state, ballots[:3])
        event = Event.decision(3, {"type": "vote_match", "slot": ballots[3]})
        return RULES.narrate(before, event)[-1]

    assert told([2, 2, 1, 2]).endswith("#2 A Bull Moose wins 3-1.")
    assert told([1, 1, 2, 1]).endswith("#1 An African Elephant wins 3-1.")
    assert told([1, 2, 1, 2]) == "#2 A Bull Moose wins 3-2."


def test_a_tie_goes_to_the_pow_holders_double_vote_and_the_marker_passes_right(ut):
    """US-33, US-34."""
    state = ut.bet_all(ut.to_bets(4, pow_seat=1), ut.default_bets(4))
    state = ut.vote(state, [1, 2, 1, 2])  # 2-2, the POW! holder (seat 1) voted 2
    assert state.winners == (2,) and state.votes[0].pow_seat == 1
    assert state.votes[0].counts == (2, 3)
    assert state.pow_holder == 2
    state = ut.vote(state, [3, 3, 3, 4])  # no tie: the marker stays
    assert state.pow_holder == 2 and state.votes[1].pow_seat is None
    state = ut.vote(state, [6, 6, 5, 5])  # tie: seat 2 voted 5
    assert state.winners[-1] == 5 and state.pow_holder == 3


def test_the_pow_marker_wraps_round_the_table(ut):
    """US-34: from the last seat it passes to seat 0."""
    state = ut.bet_all(ut.to_bets(4, pow_seat=3), ut.default_bets(4))
    state = ut.vote(state, [1, 1, 2, 2])
    assert state.winners == (2,) and state.pow_holder == 0


def test_with_an_odd_number_there_is_no_tie_and_no_pow(ut):
    """US-35."""
    state = ut.bet_all(ut.to_bets(3), ut.default_bets(3))
    state = ut.vote(state, [1, 2, 2])
    assert state.pow_holder is None and state.votes[0].pow_seat is None
    assert RULES.view(state, 0)["pow"] == {"used": False, "holder": None}


def test_a_discard_is_told_in_words_not_contender_s() -> None:
    """"Red discarded 2 Contender(s)." read as a form; "1 Contender", "2 Contenders", "no
    Contenders"."""
    rng, state, told = random.Random(3), RULES.start({}, 4), []
    while not RULES.pending(state).is_over:
        pending = RULES.pending(state)
        if pending.kind == "chance":
            event = Event.chance(RULES.sample_chance(state, rng))
        else:
            seat = pending.seats[0]
            event = Event.decision(seat, rng.choice(RULES.legal_actions(state, seat)))
            if event.action["type"] == "discard":
                told.append((len(event.action["cards"]), RULES.narrate(state, event)[0]))
        state = RULES.apply(state, event)
    assert told and {n for n, _ in told} >= {0, 1}
    for n, line in told:
        assert line.endswith({0: "discarded no Contenders.", 1: "discarded 1 Contender."}
                             .get(n, f"discarded {n} Contenders.")), line
