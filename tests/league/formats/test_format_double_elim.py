"""Double elimination: the issue's worked example of 8 entrants with a bracket reset."""

from __future__ import annotations

from format_helpers import better_seed_wins, finish, ids, play_out, ranks, refused, seeds, slots

from league.formats.bracket import BracketState
from league.formats.double_elim import FORMAT as DE
from league.formats.double_elim import drop_order


def test_the_eight_entrant_bracket_is_walked_through_to_a_reset_grand_final() -> None:
    # By hand: the better seed wins every match except the grand final and its reset,
    # which s2 (from the losers' bracket) wins.
    #   W1: s1-s8 s4-s5 s2-s7 s3-s6       -> s1 s4 s2 s3 go on; s8 s5 s7 s6 drop to L1
    #   L1: s8-s5 s7-s6                   -> s5 s6 survive; s8 s7 out (7th)
    #   W2: s1-s4 s2-s3                   -> s1 s2 go on; s4 s3 drop (reversed) into L2
    #   L2: s5-s3 (loser of W2-2) s6-s4   -> s3 s4 survive; s5 s6 out (5th)
    #   W3: s1-s2                         -> s1 to the grand final; s2 drops into L4
    #   L3: s3-s4 -> s3;   L4: s3-s2 -> s2 (s4 4th, s3 3rd)
    #   GF: s1-s2 won by s2 -> GF-reset: s1-s2 won by s2: champion s2, runner-up s1.
    state = DE.start(seeds(8))
    assert slots(DE.ready(state)) == {
        "W1-1": ("s1", "s8"),
        "W1-2": ("s4", "s5"),
        "W1-3": ("s2", "s7"),
        "W1-4": ("s3", "s6"),
    }
    state = _play(state, ["W1-1", "W1-2", "W1-3", "W1-4"])
    assert slots(DE.ready(state)) == {
        "W2-1": ("s1", "s4"),
        "W2-2": ("s2", "s3"),
        "L1-1": ("s8", "s5"),
        "L1-2": ("s7", "s6"),
    }
    state = _play(state, ["W2-1", "W2-2", "L1-1", "L1-2"])
    assert slots(DE.ready(state)) == {
        "W3-1": ("s1", "s2"),
        "L2-1": ("s5", "s3"),
        "L2-2": ("s6", "s4"),
    }
    state = _play(state, ["W3-1", "L2-1", "L2-2"])
    assert slots(DE.ready(state)) == {"L3-1": ("s3", "s4")}
    state = _play(state, ["L3-1"])
    assert slots(DE.ready(state)) == {"L4-1": ("s3", "s2")}
    state = _play(state, ["L4-1"])
    assert slots(DE.ready(state)) == {"GF": ("s1", "s2")}
    state = DE.record(state, finish("GF", "s2", "s1"))
    assert not DE.is_complete(state)
    assert slots(DE.ready(state)) == {"GF-reset": ("s1", "s2")}
    state = DE.record(state, finish("GF-reset", "s2", "s1"))
    assert DE.is_complete(state)
    assert DE.ready(state) == []
    assert ranks(DE, state) == {
        "s2": 1,
        "s1": 2,
        "s3": 3,
        "s4": 4,
        "s5": 5,
        "s6": 5,
        "s7": 7,
        "s8": 7,
    }
    rows = {row.entrant: row for row in DE.standings(state)}
    assert (rows["s2"].wins, rows["s2"].losses, rows["s2"].eliminated) == (5, 1, False)
    assert (rows["s1"].wins, rows["s1"].losses, rows["s1"].reached) == (3, 2, "Grand final reset")


def _play(state: BracketState, pairing_ids: list[str]) -> BracketState:
    """Record the better-seed-wins result of each ready pairing named."""
    ready = {p.id: p for p in DE.ready(state)}
    for pairing_id in pairing_ids:
        state = DE.record(state, better_seed_wins(ready[pairing_id]))
    return state


def test_no_reset_is_played_when_the_winners_bracket_entrant_wins_the_grand_final() -> None:
    state = play_out(DE, DE.start(seeds(8)))
    assert "GF-reset" not in ids(DE.pairings(state))
    rows = {row.entrant: row for row in DE.standings(state)}
    assert (rows["s1"].rank, rows["s1"].eliminated) == (1, False)
    # the grand final was the runner-up's second loss: out, and second alone
    assert (rows["s2"].rank, rows["s2"].losses, rows["s2"].eliminated) == (2, 2, True)
    assert sorted(row.rank for row in rows.values()).count(1) == 1


def test_the_reset_can_be_switched_off() -> None:
    state = DE.start(seeds(4), {"grand_final_reset": False})
    for pairing_id in ["W1-1", "W1-2", "W2-1", "L1-1", "L2-1"]:
        state = DE.record(
            state, better_seed_wins(next(p for p in DE.ready(state) if p.id == pairing_id))
        )
    state = DE.record(state, finish("GF", "s2", "s1"))
    assert DE.is_complete(state)
    assert ranks(DE, state) == {"s2": 1, "s1": 2, "s3": 3, "s4": 4}


def test_byes_in_the_winners_bracket_leave_the_losers_slot_empty() -> None:
    # 5 entrants in a bracket of 8: seeds 1-3 have byes, so s2-s3 (W2-2) is ready at once
    # beside s4-s5, and L1-2 (two empty slots) decides itself with nobody in it.
    state = DE.start(seeds(5))
    assert slots(DE.ready(state)) == {"W1-2": ("s4", "s5"), "W2-2": ("s2", "s3")}
    assert slots(DE.pairings(state))["L1-2"] == (None, None)
    assert "L1-2" not in ids(DE.ready(state))
    state = play_out(DE, state)
    assert ranks(DE, state)["s1"] == 1
    assert sorted(ranks(DE, state)) == sorted(seeds(5))


def test_losers_drop_in_reverse_then_with_halves_swapped() -> None:
    assert drop_order(2, 4) == [4, 3, 2, 1]
    assert drop_order(3, 4) == [3, 4, 1, 2]
    assert drop_order(3, 1) == [1]


def test_a_two_entrant_double_elimination_is_a_final_and_a_reset() -> None:
    state = DE.start(seeds(2))
    state = DE.record(state, finish("W1-1", "s1", "s2"))
    assert slots(DE.ready(state)) == {"GF": ("s1", "s2")}
    state = DE.record(state, finish("GF", "s2", "s1"))
    state = DE.record(state, finish("GF-reset", "s1", "s2"))
    assert ranks(DE, state) == {"s1": 1, "s2": 2}


def test_a_late_entrant_is_refused_once_the_bracket_has_started() -> None:
    state = DE.record(DE.start(seeds(4)), finish("W1-1", "s1", "s4"))
    refused("already_started", DE.add_entrant, state, "late")


def test_a_withdrawn_entrant_gives_walkovers_in_both_brackets() -> None:
    state = DE.record(DE.start(seeds(4)), finish("W1-1", "s1", "s4"))
    state = DE.withdraw(state, "s4")
    assert "L1-1" not in ids(DE.ready(state))
    state = play_out(DE, state)
    assert ranks(DE, state)["s4"] == 4
    assert {row.entrant: row.withdrawn for row in DE.standings(state)}["s4"]


def test_a_walkover_winner_who_withdraws_later_keeps_the_matches_they_played() -> None:
    """s1 goes on by walkover (s4 withdrew), beats s2, then withdraws: W1-1 stays s1's,
    so s2 still dropped to the losers' bracket and its live match there still counts; its
    winner takes the grand final from the absent s1."""
    state = DE.start(seeds(4))
    state = DE.withdraw(state, "s4")  # W1-1 s1-s4: s1 by walkover
    state = DE.record(state, finish("W1-2", "s2", "s3"))
    assert slots(DE.ready(state)) == {"W2-1": ("s1", "s2")}
    state = DE.record(state, finish("W2-1", "s1", "s2"))
    assert slots(DE.ready(state)) == {"L2-1": ("s3", "s2")}
    state = DE.withdraw(state, "s1")
    assert not DE.is_complete(state)
    assert slots(DE.ready(state)) == {"L2-1": ("s3", "s2")}
    state = DE.record(state, finish("L2-1", "s2", "s3"))
    assert DE.is_complete(state)  # the grand final: s2 against the withdrawn s1
    assert ranks(DE, state)["s2"] == 1
    assert ranks(DE, state)["s3"] < ranks(DE, state)["s4"]


def test_a_late_entrant_takes_a_bye_that_a_withdrawal_had_settled() -> None:
    state = DE.withdraw(DE.start(seeds(3)), "s3")  # s1's bye W1-1 settled, s2 walks over
    state = DE.add_entrant(state, "s4")
    assert slots(DE.ready(state)) == {"W1-1": ("s1", "s4")}
