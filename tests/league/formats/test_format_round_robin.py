"""Round robin: the circle method, byes with an odd field, double round robin."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

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

from league.formats.round_robin import FORMAT as RR


def test_five_entrants_play_five_rounds_with_one_bye_each_round() -> None:
    # By hand, the circle method with s1 fixed and [s2 s3 s4 s5 bye] rotating right:
    #   R1: s2-s5 s3-s4 (s1 rests)    R2: s5-s1 s2-s3 (s4 rests)   R3: s1-s4 s5-s3 (s2 rests)
    #   R4: s3-s1 s4-s2 (s5 rests)    R5: s1-s2 s4-s5 (s3 rests)
    # s1 sits second in every other round, so it is not always first to act.
    state = RR.start(seeds(5))
    assert slots(RR.pairings(state)) == {
        "R1-1": ("s2", "s5"),
        "R1-2": ("s3", "s4"),
        "R1-bye": ("s1", None),
        "R2-1": ("s5", "s1"),
        "R2-2": ("s2", "s3"),
        "R2-bye": ("s4", None),
        "R3-1": ("s1", "s4"),
        "R3-2": ("s5", "s3"),
        "R3-bye": ("s2", None),
        "R4-1": ("s3", "s1"),
        "R4-2": ("s4", "s2"),
        "R4-bye": ("s5", None),
        "R5-1": ("s1", "s2"),
        "R5-2": ("s4", "s5"),
        "R5-bye": ("s3", None),
    }
    games = [p for p in RR.pairings(state) if None not in p.slots]
    assert len(games) == 10
    assert {frozenset(p.entrants) for p in games} == {
        frozenset(c) for c in combinations(seeds(5), 2)
    }
    byes = Counter(p.slots[0] for p in RR.pairings(state) if None in p.slots)
    assert byes == dict.fromkeys(seeds(5), 1)


def test_rounds_are_ready_one_at_a_time() -> None:
    state = RR.start(seeds(5))
    assert ids(RR.ready(state)) == ["R1-1", "R1-2"]
    state = RR.record(state, finish("R1-1", "s2", "s5"))
    assert ids(RR.ready(state)) == ["R1-2"]
    refused("not_ready", RR.record, state, finish("R2-1", "s1", "s5"))
    state = RR.record(state, finish("R1-2", "s3", "s4"))
    assert ids(RR.ready(state)) == ["R2-1", "R2-2"]


def test_matches_may_be_played_in_any_order_when_asked() -> None:
    state = RR.start(seeds(4), {"round_by_round": False})
    assert len(RR.ready(state)) == 6
    state = RR.record(state, better_seed_wins(RR.ready(state)[-1]))
    assert len(RR.ready(state)) == 5


def test_a_double_round_robin_swaps_the_slots_the_second_time() -> None:
    state = RR.start(seeds(4), {"double": True})
    pairings = RR.pairings(state)
    assert max(p.round for p in pairings) == 6
    first = {p.slots for p in pairings if p.round <= 3}
    second = {p.slots for p in pairings if p.round > 3}
    assert second == {(b, a) for a, b in first}


def test_the_better_seed_winning_every_match_ranks_the_field_by_seed() -> None:
    state = play_out(RR, RR.start(seeds(5)))
    rows = RR.standings(state)
    assert [(r.rank, r.entrant, r.points, r.wins, r.losses) for r in rows] == [
        (1, "s1", 4.0, 4, 0),
        (2, "s2", 3.0, 3, 1),
        (3, "s3", 2.0, 2, 2),
        (4, "s4", 1.0, 1, 3),
        (5, "s5", 0.0, 0, 4),
    ]


def test_a_withdrawn_entrants_unplayed_matches_are_walkovers() -> None:
    state = RR.record(RR.start(seeds(4)), finish("R1-1", "s4", "s1"))
    state = RR.withdraw(state, "s4")
    assert all("s4" not in p.slots for p in RR.ready(state))
    state = play_out(RR, state)
    rows = {r.entrant: r for r in RR.standings(state)}
    assert (rows["s4"].wins, rows["s4"].losses, rows["s4"].withdrawn) == (1, 2, True)
    assert rows["s1"].wins == 2  # beat s2 and s3 on the board, lost to s4 before it withdrew


def test_a_walkover_stands_when_its_winner_withdraws_later() -> None:
    """s4 leaves after round 1: its match with s2 is s2's walkover. s2 leaving in round 3
    does not take that win back (a double loss, as if neither had been there): a result
    the standings gave stays given, and s2's own later match goes to s1."""
    state = RR.record(RR.start(seeds(4)), finish("R1-1", "s4", "s1"))
    state = RR.record(state, finish("R1-2", "s2", "s3"))
    state = RR.withdraw(state, "s4")  # R2-2 (s4 vs s2) and R3-2 (s3 vs s4) are walkovers
    state = RR.record(state, finish("R2-1", "s1", "s3"))
    before = {r.entrant: (r.wins, r.losses) for r in RR.standings(state)}
    assert before["s2"] == (2, 0)
    state = RR.withdraw(state, "s2")  # R3-1 (s1 vs s2) goes to s1
    assert RR.is_complete(state)
    rows = {r.entrant: (r.wins, r.losses) for r in RR.standings(state)}
    assert rows == {"s1": (2, 1), "s2": (2, 1), "s3": (1, 2), "s4": (1, 2)}


def test_a_walkover_in_a_round_its_winner_leaves_before_is_a_loss_for_both() -> None:
    """s4 leaves in round 1, giving s2 round 2's match and s3 round 3's. s3 leaving in
    round 1 as well was never there for round 3: that match is a loss for both, while s3's
    matches of the round it left in go to their opponents as ever."""
    state = RR.withdraw(RR.start(seeds(4)), "s4")  # R1-1 to s1, R2-2 to s2, R3-2 to s3
    assert {r.entrant: r.wins for r in RR.standings(state)}["s3"] == 1
    state = RR.withdraw(state, "s3")  # R1-2 to s2, R2-1 to s1, R3-2: neither was there
    state = RR.record(state, finish("R3-1", "s1", "s2"))
    rows = {r.entrant: (r.wins, r.losses) for r in RR.standings(state)}
    assert rows == {"s1": (3, 0), "s2": (2, 1), "s3": (0, 3), "s4": (0, 3)}


def test_a_late_entry_after_a_withdrawal_keeps_each_walkover_with_its_pair() -> None:
    """s4 leaves before any result and a late entrant draws the schedule again: the
    walkovers s4's withdrawal gave stayed under the old schedule's ids, which now named
    other pairs (a played pairing among them). Each now follows its pair, and the late
    entrant's match with s4 is its walkover too."""
    state = RR.add_entrant(RR.withdraw(RR.start(seeds(4)), "s4"), "late")
    pairs = {p.id: set(p.entrants) for p in RR.pairings(state)}
    given = RR.walkovers(state)
    assert sorted(given.values()) == ["late", "s1", "s2", "s3"]
    assert all(pairs[pid] == {"s4", winner} for pid, winner in given.items())
    rows = {r.entrant: (r.wins, r.losses) for r in RR.standings(state)}
    assert rows == {"s1": (1, 0), "s2": (1, 0), "s3": (1, 0), "s4": (0, 4), "late": (1, 0)}


def test_the_walkovers_name_the_winners_the_standings_count_not_who_is_left() -> None:
    """What the pages and the API read of a walkover: each pairing a withdrawal decided,
    to the winner its withdrawal gave it, when that winner withdrew later too (R2-2 stays
    s2's though both s4 and s2 are gone), and None for a loss for both."""
    state = RR.record(RR.start(seeds(4)), finish("R1-1", "s4", "s1"))
    state = RR.record(state, finish("R1-2", "s2", "s3"))
    state = RR.withdraw(state, "s4")
    state = RR.record(state, finish("R2-1", "s1", "s3"))
    state = RR.withdraw(state, "s2")
    assert RR.walkovers(state) == {"R2-2": "s2", "R3-2": "s3", "R3-1": "s1"}
    wins = {r.entrant: r.wins for r in RR.standings(state)}
    assert wins["s2"] == 2  # R1-2 on the board, R2-2 the walkover
    state = RR.withdraw(RR.withdraw(RR.start(seeds(4)), "s4"), "s3")
    assert RR.walkovers(state) == {"R1-1": "s1", "R2-2": "s2", "R1-2": "s2", "R2-1": "s1",
                                   "R3-2": None}


def test_a_late_entrant_redraws_the_schedule_only_before_the_first_result() -> None:
    state = RR.add_entrant(RR.start(seeds(4)), "s5")
    assert max(p.round for p in RR.pairings(state)) == 5
    started = RR.record(state, better_seed_wins(RR.ready(state)[0]))
    refused("already_started", RR.add_entrant, started, "s6")


def test_draws_are_counted_as_half_a_win_by_default() -> None:
    state = RR.start(seeds(2))
    state = RR.record(state, draw("R1-1", "s1", "s2"))
    assert ranks(RR, state) == {"s1": 1, "s2": 1}
    assert [r.points for r in RR.standings(state)] == [0.5, 0.5]


def test_a_round_robin_offers_no_bye_points_but_reads_the_unset_value_events_stored() -> None:
    """Everyone rests once a cycle, so a bye is worth nothing; the option said otherwise."""
    refused("unknown_option", RR.start, seeds(5), {"bye_points": 1.0})
    state = RR.start(seeds(5), {"bye_points": None, "win_points": 3.0})
    assert state.options.scoring.win == 3.0
    assert "bye_points" not in {spec.name for spec in RR.options}
