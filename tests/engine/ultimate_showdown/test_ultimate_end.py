"""Between rounds, the Ultimate Showdown and the end (US-41..47, US-52..54)."""

from __future__ import annotations

from dataclasses import replace

from engine.games.ultimate_showdown import RULES
from engine.games.ultimate_showdown.state import Phase


def _after_round_one(ut, n=4):
    return ut.finish_round(ut.to_bets(n))


def test_first_and_second_place_are_kept_for_round_five(ut):
    """US-41: Champion (#1) and second (#5) go to the white Challenge box."""
    state = _after_round_one(ut)
    assert state.kept == (state.slots[0], state.slots[4])
    assert [c["id"] for c in RULES.view(state, None)["kept"]] == list(state.kept)


def test_the_other_contenders_are_discarded(ut):
    """US-42."""
    state = _after_round_one(ut)
    assert set(state.discard) == set(state.slots) - set(state.kept)


def test_the_used_challenge_goes_to_the_bottom_of_its_deck(ut):
    """US-43."""
    state = _after_round_one(ut)
    assert state.challenge_deck[-1] == ut.cards[0]  # space A won, the card on A
    assert ut.cards[1] in state.challenge_discard


def test_players_discard_any_and_draw_back_to_four(ut):
    """US-44."""
    state = _after_round_one(ut)
    assert state.phase is Phase.DISCARD
    assert all(len(h) == 2 for h in state.hands)
    thrown = sorted(state.hands[0])
    state = ut.decide(state, 0, {"type": "discard", "cards": thrown})
    top = state.deck[:4]
    for seat in range(1, 4):
        state = ut.decide(state, seat, {"type": "discard", "cards": []})
    assert state.round == 2 and state.phase is Phase.CHOOSE_SIDES
    assert state.hands[0] == top
    assert all(len(h) == 4 for h in state.hands)
    assert not set(thrown) & set(state.hands[0])


def test_round_five_uses_the_eight_kept_contenders(ut):
    """US-45: the kept first and second places of rounds 1-4 fill the slots."""
    state = ut.to_ultimate(4)
    kept = [c for r in state.history for c in (r.slots[r.champion - 1],
                                               r.slots[r.runner_up - 1])]
    assert sorted(state.kept) == sorted(kept) and len(kept) == 8
    hands = state.hands
    state = ut.sides(state)
    assert RULES.pending(state).kind == "chance"  # no play from hands
    filled = ut.fill(state, list(reversed(state.kept)))
    assert filled.slots == tuple(reversed(state.kept)) and filled.hands == hands


def test_round_five_draws_a_new_card_and_shuffles_the_kept_into_slots(ut):
    """US-46: one Challenge card, a shuffle into slots 1-8, bets and votes as normal."""
    state = ut.to_ultimate(4)
    assert len(state.drawn) == 1
    assert len(RULES.legal_actions(state, state.leader)) == 2
    state = ut.fill(ut.sides(state, "back"))
    assert state.challenge == RULES.cards.challenges[state.drawn[0]].back.id
    assert state.phase is Phase.BET


def test_the_highest_score_wins(ut):
    """US-52."""
    state = ut.fill(ut.sides(ut.to_ultimate(5)))
    state = ut.finish_round(state, [(1, 5, 3), (8, 7, 6), (8, 7, 6), (8, 7, 6), (8, 7, 6)])
    scores = state.scores()
    result = RULES.result(state)
    assert result.winners == (0,) and scores[0] == max(scores)
    assert result.placements[0] == 1 and not result.draw


def _tied(ut, n, tied):
    """Round five scored with the given seats tied for first: every seat bets the same
    except that the seats in `tied` score a Champion bet; history trimmed to round five."""
    state = ut.fill(ut.sides(ut.to_ultimate(n)))
    state = replace(state, history=())
    bets = [(1, 5, 3) if s in tied else (8, 7, 6) for s in range(n)]
    return ut.finish_round(state, bets)


def test_a_tie_for_first_goes_to_a_sudden_death_vote(ut):
    """US-53: the top Challenge card is flipped; orange and blue players; all vote."""
    state = _tied(ut, 5, (1, 3))
    assert state.phase is Phase.SUDDEN_DEATH
    sd = state.sudden
    assert (sd.orange, sd.blue, sd.queue) == (1, 3, ())
    assert RULES.pending(state).seats == (0, 1, 2, 3, 4)
    assert [a["seat"] for a in RULES.legal_actions(state, 0)] == [1, 3]
    for seat, target in enumerate([3, 1, 3, 3, 1]):
        state = ut.decide(state, seat, {"type": "vote_player", "seat": target})
    result = RULES.result(state)
    assert result.winners == (3,) and result.placements[3] == 1 and result.placements[1] == 2
    assert result.figures[3]["won_sudden_death"] == 1.0


def test_a_tied_sudden_death_vote_uses_the_pow(ut):
    """US-53: with an even table the POW! breaks the tie and passes on."""
    state = _tied(ut, 4, (0, 2))
    holder = state.pow_holder
    ballots = [0, 2, 0, 2]
    for seat, target in enumerate(ballots):
        state = ut.decide(state, seat, {"type": "vote_player", "seat": target})
    assert RULES.result(state).winners == (ballots[holder],)
    assert state.pow_holder == (holder + 1) % 4


def test_three_tied_players_meet_in_a_ladder(ut):
    """US-54: seats 0 v 1 first, the winner (orange) then meets seat 2."""
    state = _tied(ut, 5, (0, 1, 2))
    sd = state.sudden
    assert (sd.orange, sd.blue, sd.queue) == (0, 1, (2,))
    first_card = sd.card
    for seat in range(5):
        state = ut.decide(state, seat, {"type": "vote_player", "seat": 1})
    sd = state.sudden
    assert (sd.orange, sd.blue, sd.queue) == (1, 2, ()) and sd.card != first_card
    assert state.phase is Phase.SUDDEN_DEATH
    for seat in range(5):
        state = ut.decide(state, seat, {"type": "vote_player", "seat": 2})
    result = RULES.result(state)
    assert result.winners == (2,)
    assert [result.placements[s] for s in (0, 1, 2)] == [2, 2, 1]


def test_after_round_four_nobody_discards_or_draws(ut):
    """US-44, US-45: the fourth round's last match leads straight to round five's Challenge;
    hands are not used there, so they stay as round four left them (two cards of four)."""
    state = ut.fresh(4)
    for _ in range(3):
        state = ut.play_round(state)
    state = ut.fill(ut.play_all(ut.vote_challenge(ut.sides(state), ["A"] * 4)))
    deck = state.deck
    state = ut.finish_round(state)
    assert state.round == 5 and state.phase is Phase.CHOOSE_SIDES
    assert all(len(hand) == 2 for hand in state.hands) and state.deck == deck


def test_each_sudden_death_card_goes_to_the_bottom_of_the_deck(ut):
    """US-53, US-54 decision: the flipped Challenge card goes under the deck, so a ladder's
    next match flips the card below it."""
    state = _tied(ut, 5, (0, 1, 2))
    first = state.sudden.card
    assert state.challenge_deck[-1] == first
    below = state.challenge_deck[0]
    for seat in range(5):
        state = ut.decide(state, seat, {"type": "vote_player", "seat": 0})
    assert state.sudden.card == below and state.challenge_deck[-2:] == (first, below)
