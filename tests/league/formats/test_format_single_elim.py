"""Single elimination: seeding, byes to the top seeds, the third-place match."""

from __future__ import annotations

from format_helpers import (
    better_seed_wins,
    draw,
    finish,
    ids,
    play_out,
    ranks,
    refused,
    seeds,
    slots,
)

from league.formats.bracket import seed_order
from league.formats.single_elim import FORMAT as SE


def test_seeds_are_placed_in_the_usual_recursive_order() -> None:
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_six_entrants_give_byes_to_the_top_two_and_play_for_third_place() -> None:
    # By hand: a bracket of 8; seeds 7 and 8 are byes, so s1 and s2 go straight through.
    #   R1: s1-bye  s4-s5  s2-bye  s3-s6   -> played: W1-2 (s4) and W1-4 (s3)
    #   SF: s1-s4  s2-s3                   -> s1, s2 (better seed wins)
    #   F:  s1-s2 -> s1;  3P: s4-s3 -> s3 (the better seed)
    # Ranks: s1, s2, s3, s4, then the round-1 losers s5 and s6 share 5th.
    state = SE.start(seeds(6), {"third_place": True})
    assert slots(SE.pairings(state))["W1-1"] == ("s1", None)
    assert slots(SE.ready(state)) == {"W1-2": ("s4", "s5"), "W1-4": ("s3", "s6")}
    state = SE.record(state, finish("W1-2", "s4", "s5"))
    assert slots(SE.ready(state)) == {"W1-4": ("s3", "s6"), "W2-1": ("s1", "s4")}
    state = SE.record(state, finish("W1-4", "s3", "s6"))
    state = SE.record(state, finish("W2-1", "s1", "s4"))
    state = SE.record(state, finish("W2-2", "s2", "s3"))
    assert slots(SE.ready(state)) == {"W3-1": ("s1", "s2"), "3P": ("s4", "s3")}
    state = SE.record(state, finish("3P", "s3", "s4"))
    assert not SE.is_complete(state)
    state = SE.record(state, finish("W3-1", "s1", "s2"))
    assert SE.is_complete(state)
    assert ranks(SE, state) == {"s1": 1, "s2": 2, "s3": 3, "s4": 4, "s5": 5, "s6": 5}
    labels = {p.id: p.label for p in SE.pairings(state)}
    assert labels == {
        "W1-1": "Quarterfinal 1",
        "W1-2": "Quarterfinal 2",
        "W1-3": "Quarterfinal 3",
        "W1-4": "Quarterfinal 4",
        "W2-1": "Semifinal 1",
        "W2-2": "Semifinal 2",
        "W3-1": "Final",
        "3P": "Third-place match",
    }


def test_without_a_third_place_match_the_semifinal_losers_share_third() -> None:
    state = play_out(SE, SE.start(seeds(8)))
    assert ranks(SE, state) == {
        "s1": 1,
        "s2": 2,
        "s3": 3,
        "s4": 3,
        "s5": 5,
        "s6": 5,
        "s7": 5,
        "s8": 5,
    }
    assert "3P" not in ids(SE.pairings(state))


def test_sources_say_where_each_slot_comes_from() -> None:
    pairings = {p.id: p for p in SE.pairings(SE.start(seeds(4), {"third_place": True}))}
    assert pairings["W1-1"].sources == ("seed 1", "seed 4")
    assert pairings["W2-1"].sources == ("winner of W1-1", "winner of W1-2")
    assert pairings["3P"].sources == ("loser of W1-1", "loser of W1-2")


def test_a_bracket_of_two_is_one_final() -> None:
    state = SE.start(["red", "blue"], {"third_place": True})
    assert ids(SE.ready(state)) == ["W1-1"]
    state = SE.record(state, finish("W1-1", "blue", "red"))
    assert SE.is_complete(state)
    assert ranks(SE, state) == {"blue": 1, "red": 2}


def test_a_draw_is_refused_in_a_bracket() -> None:
    state = SE.start(seeds(2))
    refused("draw_not_allowed", SE.record, state, draw("W1-1", "s1", "s2"))


def test_a_withdrawal_hands_the_next_match_over_as_a_walkover() -> None:
    state = SE.withdraw(SE.start(seeds(4)), "s4")
    assert ids(SE.ready(state)) == ["W1-2"]
    state = SE.record(state, better_seed_wins(SE.ready(state)[0]))
    assert slots(SE.ready(state)) == {"W2-1": ("s1", "s2")}
    state = play_out(SE, state)
    rows = {row.entrant: row for row in SE.standings(state)}
    assert rows["s4"].withdrawn and rows["s4"].eliminated
    assert rows["s1"].rank == 1


def test_a_walkover_is_its_winners_when_they_withdraw_in_turn() -> None:
    """s4 leaves round one to s1 (W1-1), then s1 leaves: W1-1 stays s1's walkover (they
    went on), and the final, s1's place in it empty-handed, is s2's or s3's to win."""
    state = SE.withdraw(SE.start(seeds(4)), "s4")
    assert SE.walkovers(state) == {"W1-1": "s1"}
    state = SE.withdraw(state, "s1")
    assert SE.walkovers(state) == {"W1-1": "s1"}
    state = SE.record(state, better_seed_wins(SE.ready(state)[0]))
    assert SE.walkovers(state) == {"W1-1": "s1", "W2-1": "s2"}
    assert not SE.walkovers(SE.start(seeds(3)))  # a bye is no walkover


def test_a_walkover_counts_a_win_for_its_winner_and_a_loss_for_the_withdrawn() -> None:
    """s4 leaves round one to s1 (W1-1), who then beats s2 in the final: the bracket says
    s1 won twice, and the standings count both, as a round robin or Swiss counts its
    walkovers; s4's record shows the walkover it gave as a loss."""
    state = SE.withdraw(SE.start(seeds(4)), "s4")
    state = SE.record(state, finish("W1-2", "s2", "s3"))
    state = SE.record(state, finish("W2-1", "s1", "s2"))
    rows = {row.entrant: row for row in SE.standings(state)}
    assert (rows["s1"].wins, rows["s1"].losses, rows["s1"].points) == (2, 0, 2.0)
    assert (rows["s4"].wins, rows["s4"].losses) == (0, 1)
    assert (rows["s2"].wins, rows["s2"].losses) == (1, 1)
    assert ranks(SE, state) == {"s1": 1, "s2": 2, "s3": 3, "s4": 3}  # depth as before


def test_a_semifinal_winner_ranks_above_those_still_to_play_theirs() -> None:
    """s1 has won its semifinal, s2-s3 is still to play: s1 is in the final (second at
    worst) and ranks alone above them; it shared first with them."""
    state = SE.record(SE.start(seeds(4)), finish("W1-1", "s1", "s4"))
    assert ranks(SE, state) == {"s1": 1, "s2": 2, "s3": 2, "s4": 4}


def test_a_late_entrant_joins_as_the_lowest_seed_before_the_first_result() -> None:
    state = SE.add_entrant(SE.start(seeds(3)), "s4")
    assert slots(SE.ready(state)) == {"W1-1": ("s1", "s4"), "W1-2": ("s2", "s3")}


def test_hand_pairing_is_not_offered_in_a_bracket() -> None:
    refused("not_supported", SE.pair_by_hand, SE.start(seeds(4)), [["s1", "s2"], ["s3", "s4"]])
