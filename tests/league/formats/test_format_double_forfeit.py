"""A match every side forfeited (all late together): no winner, a loss for each, in every
format, passed on the way a walkover both of whose entrants withdrew is."""

from __future__ import annotations

from typing import Any

from format_helpers import better_seed_wins, finish, ids, play_out, ranks, refused, seeds, slots

from league.formats import MatchResult, entrant_places
from league.formats.base import check_placements, no_winner
from league.formats.double_elim import FORMAT as DE
from league.formats.heats import FORMAT as HEATS
from league.formats.multistage import FORMAT as MS
from league.formats.round_robin import FORMAT as RR
from league.formats.showdown_series import FORMAT as SERIES
from league.formats.single_elim import FORMAT as SE
from league.formats.swiss import FORMAT as SWISS


def play_to(fmt: Any, state: Any, pairing_id: str) -> Any:
    """The better seed wins every ready pairing until `pairing_id` is ready."""
    while pairing_id not in ids(fmt.ready(state)):
        state = fmt.record(state, better_seed_wins(fmt.ready(state)[0]))
    return state


def nobody_won(pairing_id: str, *entrants: str) -> MatchResult:
    """The result of a match each of `entrants` forfeited: all placed last."""
    return MatchResult(pairing_id, dict.fromkeys(entrants, len(entrants)))


def test_a_match_whose_every_seat_placed_last_keeps_its_entrants_last_not_sharing_first() -> None:
    # Ranked among themselves, [2, 2] was a shared first: a draw, that a knockout replays.
    assert entrant_places([2, 2], ["a", "b"]) == {"a": 2, "b": 2}
    assert entrant_places([3, 3, 3], ["a", "b", "b"]) == {"a": 2, "b": 2}
    assert entrant_places([2, 2, 1], ["a", "b", "c"]) == {"a": 2, "b": 2, "c": 1}


def test_all_last_is_taken_as_no_winner_but_other_places_without_a_first_are_refused() -> None:
    check_placements(nobody_won("m", "a", "b"), ["a", "b"], draws=False)
    assert no_winner(nobody_won("m", "a", "b", "c"))
    assert not no_winner(MatchResult("m", {"a": 1, "b": 1}))
    refused("bad_placement", lambda: check_placements(
        MatchResult("m", {"a": 2, "b": 3, "c": 3}), ["a", "b", "c"], draws=True))


def test_a_round_robin_counts_a_double_forfeit_as_a_loss_for_both() -> None:
    state = RR.start(seeds(3))
    first = RR.ready(state)[0]
    state = RR.record(state, nobody_won(first.id, *first.entrants))
    rows = {row.entrant: row for row in RR.standings(state)}
    for entrant in first.entrants:
        assert (rows[entrant].points, rows[entrant].wins, rows[entrant].draws,
                rows[entrant].losses) == (0.0, 0, 0, 1)
    assert RR.is_complete(play_out(RR, state))


def test_a_swiss_round_with_a_double_forfeit_is_decided_and_the_next_is_paired() -> None:
    state = SWISS.start(seeds(4), {"rounds": 2})
    first, second = SWISS.ready(state)
    state = SWISS.record(state, nobody_won(first.id, *first.entrants))
    state = SWISS.record(state, better_seed_wins(second))
    assert len(SWISS.ready(state)) == 2  # round 2 is paired
    rows = {row.entrant: row for row in SWISS.standings(state)}
    assert all(rows[e].points == 0.0 and rows[e].losses == 1 for e in first.entrants)
    assert SWISS.is_complete(play_out(SWISS, state))


def test_a_knockout_double_forfeit_sends_nobody_on_and_knocks_both_out() -> None:
    # s1 v s4 and s2 v s3: both semifinalists of the first forfeit; s2 wins the other and
    # then the final by the empty slot, as after a walkover both withdrew from.
    state = SE.start(seeds(4))
    assert slots(SE.ready(state)) == {"W1-1": ("s1", "s4"), "W1-2": ("s2", "s3")}
    state = SE.record(state, nobody_won("W1-1", "s1", "s4"))
    state = SE.record(state, finish("W1-2", "s2", "s3"))
    assert SE.is_complete(state)
    assert slots(SE.pairings(state))["W2-1"] == (None, "s2")
    assert SE.walkovers(state) == {}  # (the final with one entrant is a bye)
    rows = {row.entrant: row for row in SE.standings(state)}
    assert rows["s2"].rank == 1 and not rows["s2"].eliminated
    assert rows["s1"].eliminated and rows["s4"].eliminated
    assert (rows["s1"].wins, rows["s1"].losses) == (0, 1)


def test_a_knockout_final_both_sides_forfeited_has_no_champion() -> None:
    state = SE.start(seeds(2))
    state = SE.record(state, nobody_won("W1-1", "s1", "s2"))
    assert SE.is_complete(state)
    assert all(row.eliminated for row in SE.standings(state))
    # Both lost it: they share second, and nobody is first (they were both ranked 1).
    assert ranks(SE, state) == {"s1": 2, "s2": 2}


def test_a_knockout_final_both_forfeited_ranks_the_semifinal_losers_below_the_finalists() -> None:
    state = SE.start(seeds(4), {"third_place": True})
    state = SE.record(state, finish("W1-1", "s1", "s4"))
    state = SE.record(state, finish("W1-2", "s2", "s3"))
    state = SE.record(state, finish("3P", "s3", "s4"))
    state = SE.record(state, nobody_won("W2-1", "s1", "s2"))
    assert SE.is_complete(state)
    assert ranks(SE, state) == {"s1": 2, "s2": 2, "s3": 4, "s4": 5}


def test_a_third_place_match_both_forfeited_leaves_third_place_empty() -> None:
    # Nobody won it: both rank as its loser would (fourth), as both finalists who forfeited
    # the final rank second; the champion keeps first.
    state = SE.start(seeds(4), {"third_place": True})
    state = SE.record(state, finish("W1-1", "s1", "s4"))
    state = SE.record(state, finish("W1-2", "s2", "s3"))
    state = SE.record(state, nobody_won("3P", "s3", "s4"))
    state = SE.record(state, finish("W2-1", "s1", "s2"))
    assert ranks(SE, state) == {"s1": 1, "s2": 2, "s3": 4, "s4": 4}


def test_a_third_place_match_both_forfeited_moves_the_quarterfinal_losers_down_a_place() -> None:
    state = play_to(SE, SE.start(seeds(8), {"third_place": True}), "3P")
    state = SE.record(state, nobody_won("3P", "s3", "s4"))
    state = play_out(SE, state)
    rows = ranks(SE, state)
    assert (rows["s1"], rows["s2"], rows["s3"], rows["s4"]) == (1, 2, 4, 4)
    assert {rows[e] for e in ("s5", "s6", "s7", "s8")} == {6}


def test_a_final_and_a_third_place_match_both_forfeited_leave_first_and_third_empty() -> None:
    state = play_to(SE, SE.start(seeds(4), {"third_place": True}), "3P")
    state = SE.record(state, nobody_won("W2-1", "s1", "s2"))
    state = SE.record(state, nobody_won("3P", "s3", "s4"))
    assert ranks(SE, state) == {"s1": 2, "s2": 2, "s3": 5, "s4": 5}


def test_a_third_place_match_with_one_entrant_gives_it_third() -> None:
    # One semifinal forfeited by both: the other's loser plays nobody and takes third.
    state = SE.start(seeds(4), {"third_place": True})
    state = SE.record(state, nobody_won("W1-1", "s1", "s4"))
    state = SE.record(state, finish("W1-2", "s2", "s3"))
    assert SE.is_complete(state)
    assert ranks(SE, state) == {"s2": 1, "s3": 2, "s1": 3, "s4": 3}


def test_a_multistage_playoff_third_place_match_both_forfeited_ranks_the_rest_below() -> None:
    state = MS.start(seeds(8), {"groups": 2, "playoff_size": 4, "third_place": True})
    state = play_to(MS, state, "PO:3P")
    [third] = [p for p in MS.ready(state) if p.id == "PO:3P"]
    state = MS.record(state, nobody_won("PO:3P", *third.entrants))
    state = play_out(MS, state)
    rows = ranks(MS, state)
    assert {rows[e] for e in third.entrants} == {4} and 3 not in rows.values()
    assert min(rank for e, rank in rows.items() if e not in state.playoff.entrants) == 6


def test_a_grand_final_both_forfeited_has_nobody_first() -> None:
    state = DE.start(seeds(4))
    while DE.ready(state)[0].id != "GF":
        state = DE.record(state, better_seed_wins(DE.ready(state)[0]))
    [final] = DE.ready(state)
    state = DE.record(state, nobody_won("GF", *final.entrants))
    assert DE.is_complete(state)
    rows = ranks(DE, state)
    assert 1 not in rows.values()
    assert {rows[e] for e in final.entrants} == {2}


def test_a_multistage_playoff_final_both_forfeited_has_nobody_first() -> None:
    state = MS.start(seeds(8), {"groups": 2, "playoff_size": 4})
    while MS.ready(state)[0].id != "PO:W2-1":
        state = MS.record(state, better_seed_wins(MS.ready(state)[0]))
    [final] = MS.ready(state)
    state = MS.record(state, nobody_won(final.id, *final.entrants))
    rows = ranks(MS, state)
    assert 1 not in rows.values() and {rows[e] for e in final.entrants} == {2}
    assert sorted(rows.values())[2:4] == [4, 4]  # the semifinal losers
    assert min(rank for e, rank in rows.items() if e not in state.playoff.entrants) == 6


def test_a_double_elimination_double_forfeit_drops_nobody_to_the_losers_bracket() -> None:
    # 4 entrants: W1-1 s1 v s4 forfeited by both, so L1-1 (losers of W1-1 and W1-2) holds
    # s3 alone and W2-1 (the winners' final) s2 alone: both decide themselves.
    state = DE.start(seeds(4))
    state = DE.record(state, nobody_won("W1-1", "s1", "s4"))
    state = DE.record(state, finish("W1-2", "s2", "s3"))
    known = slots(DE.pairings(state))
    assert known["L1-1"] == (None, "s3") and known["W2-1"] == (None, "s2")
    rows = {row.entrant: row for row in DE.standings(state)}
    assert rows["s1"].eliminated and rows["s4"].eliminated  # a life left, no way on
    state = play_out(DE, state)
    assert ranks(DE, state)["s1"] == ranks(DE, state)["s4"]
    assert {row.entrant for row in DE.standings(state) if not row.eliminated} <= {"s2", "s3"}


def test_a_heats_pod_everyone_forfeited_sends_nobody_on_and_the_others_play_on() -> None:
    # 6 entrants, pods of 3 (s1 s4 s5, s2 s3 s6), the top 1 of each goes on: pod 1 all
    # forfeit, so the final pod is pod 2's winner alone, which decides itself.
    state = HEATS.start(seeds(6), {"pod_size": 3, "advance": 1})
    assert slots(HEATS.ready(state)) == {"P1-1": ("s1", "s4", "s5"), "P1-2": ("s2", "s3", "s6")}
    state = HEATS.record(state, nobody_won("P1-1", "s1", "s4", "s5"))
    state = HEATS.record(state, finish("P1-2", "s3", "s2", "s6"))
    assert HEATS.is_complete(state)
    assert slots(HEATS.pairings(state))["P2-1"] == ("s3",)
    rows = {row.entrant: row for row in HEATS.standings(state)}
    assert rows["s3"].rank == 1
    assert all(rows[e].eliminated and rows[e].losses == 1 for e in ("s1", "s4", "s5"))


def test_a_heats_round_no_pod_of_which_had_a_winner_ends_the_heats_with_no_final() -> None:
    state = HEATS.start(seeds(6), {"pod_size": 3, "advance": 1})
    state = HEATS.record(state, nobody_won("P1-1", "s1", "s4", "s5"))
    state = HEATS.record(state, nobody_won("P1-2", "s2", "s3", "s6"))
    assert HEATS.is_complete(state) and not HEATS.ready(state)
    assert ids(HEATS.pairings(state)) == ["P1-1", "P1-2"]
    assert all(row.eliminated for row in HEATS.standings(state))
    # Nobody won: all six share a rank, and it is not first (they shared first).
    assert set(ranks(HEATS, state).values()) == {2}


def test_a_heats_final_pod_everyone_forfeited_has_nobody_first() -> None:
    state = HEATS.start(seeds(6), {"pod_size": 3, "advance": 1})
    state = HEATS.record(state, finish("P1-1", "s1", "s4", "s5"))
    state = HEATS.record(state, finish("P1-2", "s2", "s3", "s6"))
    state = HEATS.record(state, nobody_won("P2-1", "s1", "s2"))
    assert HEATS.is_complete(state)
    rows = ranks(HEATS, state)
    assert (rows["s1"], rows["s2"]) == (2, 2) and 1 not in rows.values()


def test_a_multistage_playoff_double_forfeit_passes_the_other_semifinal_winner_on() -> None:
    state = MS.start(seeds(8), {"groups": 2, "playoff_size": 4})
    while not ids(MS.ready(state))[0].startswith("PO:"):
        state = MS.record(state, better_seed_wins(MS.ready(state)[0]))
    assert slots(MS.ready(state)) == {"PO:W1-1": ("s1", "s3"), "PO:W1-2": ("s2", "s4")}
    state = MS.record(state, nobody_won("PO:W1-1", "s1", "s3"))
    state = MS.record(state, finish("PO:W1-2", "s2", "s4"))
    assert MS.is_complete(state)
    assert ranks(MS, state)["s2"] == 1


def test_a_multistage_group_double_forfeit_is_a_loss_for_both() -> None:
    state = MS.start(seeds(8), {"groups": 2, "playoff_size": 4})
    first = MS.ready(state)[0]
    state = MS.record(state, nobody_won(first.id, *first.entrants))
    rows = {row.entrant: row for row in MS.standings(state)}
    assert all(rows[e].losses == 1 and rows[e].wins == 0 for e in first.entrants)


def test_a_showdown_series_both_sides_forfeited_is_a_loss_for_both() -> None:
    state = SERIES.start(seeds(2))
    state = SERIES.record(state, nobody_won(SERIES.ready(state)[0].id, "s1", "s2"))
    assert SERIES.is_complete(state)
    rows = SERIES.standings(state)
    assert all(row.losses == 1 and row.wins == 0 and row.eliminated for row in rows)


def test_a_knockout_whose_semifinals_were_both_forfeited_by_both_has_nobody_first() -> None:
    """Nobody reached the final: the four shared first (in a double elimination too)."""
    for fmt in (SE, DE):
        state = fmt.start(seeds(4))
        state = fmt.record(state, nobody_won("W1-1", "s1", "s4"))
        state = fmt.record(state, nobody_won("W1-2", "s2", "s3"))
        assert fmt.is_complete(state)
        assert set(ranks(fmt, state).values()) == {2}


def test_a_round_robin_every_match_of_which_nobody_won_has_nobody_first() -> None:
    """All level on nothing shared first, a first place nobody won a match for."""
    state = play_out(RR, RR.start(seeds(4)), lambda p: nobody_won(p.id, *p.entrants))
    assert set(ranks(RR, state).values()) == {2}
    assert all(row.losses == 3 for row in RR.standings(state))


def test_a_swiss_every_match_of_which_nobody_won_has_nobody_first() -> None:
    state = play_out(SWISS, SWISS.start(seeds(4), {"rounds": 2}),
                     lambda p: nobody_won(p.id, *p.entrants))
    assert set(ranks(SWISS, state).values()) == {2}


def test_a_swiss_bye_is_a_win_so_its_holder_ranks_first_among_forfeits() -> None:
    state = play_out(SWISS, SWISS.start(seeds(3), {"rounds": 1}),
                     lambda p: nobody_won(p.id, *p.entrants))
    rows = ranks(SWISS, state)
    assert sorted(rows.values()) == [1, 2, 2]


def test_a_round_robin_nobody_won_a_match_of_yet_keeps_its_ranks_until_it_ends() -> None:
    state = RR.start(seeds(4))
    first = RR.ready(state)[0]
    state = RR.record(state, nobody_won(first.id, *first.entrants))
    assert set(ranks(RR, state).values()) == {1}  # (still to play: nobody is out of it)


def test_a_round_robin_with_one_match_won_ranks_its_winner_first() -> None:
    state = RR.start(seeds(3))
    won = RR.ready(state)[0]
    state = RR.record(state, better_seed_wins(won))
    state = play_out(RR, state, lambda p: nobody_won(p.id, *p.entrants))
    assert min(ranks(RR, state).values()) == 1
