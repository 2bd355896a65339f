"""Double elimination: the issue's worked example of 8 entrants with a bracket reset."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter

import pytest
from format_helpers import better_seed_wins, finish, ids, play_out, ranks, refused, seeds, slots
from hypothesis import example, given, settings
from hypothesis import strategies as st

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
    assert drop_order(4, 2) == [2, 1]  # too few matches to keep a rematch out: as revision 1


def test_from_winners_round_4_the_drop_is_reverse_and_halves_swapped_at_once() -> None:
    # Revision 2: round 4 (bits 11 of 3) reverses and swaps the halves, which reverses each
    # half; round 5 (100) swaps the quarters of each half. Revision 1 reverses on every
    # even round and swaps the halves on every odd one.
    assert drop_order(4, 4) == [2, 1, 4, 3]
    assert drop_order(4, 8) == [4, 3, 2, 1, 8, 7, 6, 5]
    assert drop_order(5, 8) == [3, 4, 1, 2, 7, 8, 5, 6]
    assert drop_order(4, 4, revision=1) == [4, 3, 2, 1]
    assert drop_order(5, 8, revision=1) == [5, 6, 7, 8, 1, 2, 3, 4]


def _play_at_random(state: BracketState, rng: random.Random) -> BracketState:
    """Every match to the end, each won by a side drawn at random."""
    while ready := DE.ready(state):
        for pairing in ready:
            state = DE.record(state, finish(pairing.id, *rng.sample(pairing.entrants, 2)))
    return state


@settings(max_examples=40, deadline=None)
@example(n=64, seed=0)
@given(n=st.integers(33, 64), seed=st.integers(0, 2**32))
def test_no_losers_match_of_a_33_to_64_bracket_is_a_rematch_before_round_7(
        n: int, seed: int) -> None:
    """Revision 2 keeps losers' rounds 1-6 free of rematches whatever the results (revision
    1 let winners' round 4 losers meet in round 6 someone they beat in winners' round 2).
    Round 7 is the first a bracket of 64 cannot keep free: a match of it gathers the losers
    of 16 winners' round 1 matches, 8 of round 2, 4 of round 3 and 2 of round 4, and for
    none of them to have met, none of those matches may lie in the part of the bracket
    another one was played for; their parts would cover 4 x 32 seeds."""
    assert _rematches(n, seed, before=7) == []


@pytest.mark.parametrize(("n", "seed"), [(128, 1), (128, 2), (97, 4)])
def test_no_losers_match_of_a_65_to_128_bracket_is_a_rematch_before_round_8(
        n: int, seed: int) -> None:
    # Round 8 is the first a bracket of 128 cannot keep free (5 x 32 seeds); revision 1
    # could meet again from round 6 on.
    assert _rematches(n, seed, before=8) == []


def _rematches(n: int, seed: int, before: int) -> list[str]:
    """The losers' matches before round `before` of a bracket of `n` played at random
    whose entrants had met already."""
    state = _play_at_random(DE.start(seeds(n)), random.Random(seed))
    played = [p for p in DE.pairings(state) if len(p.entrants) == 2]
    met = Counter(frozenset(p.entrants) for p in played)
    early = [p for p in played if p.stage == "losers" and p.round < before]
    assert len(early) >= n - 32
    return [p.id for p in early if met[frozenset(p.entrants)] > 1]


def _drops(revision: int | None) -> dict[int, list[str]]:
    """The winners' matches each drop round of a bracket of 64 takes its losers from."""
    pairings = DE.pairings(DE.start(seeds(64), None, revision))
    return {r: [p.sources[1].removeprefix("loser of ") for p in pairings
                if p.stage == "losers" and p.round == r] for r in (2, 4, 6, 8, 10)}


def test_a_revision_1_bracket_of_64_drops_as_it_always_did() -> None:
    assert _drops(1) == {
        2: [f"W2-{m}" for m in range(16, 0, -1)],
        4: ["W3-5", "W3-6", "W3-7", "W3-8", "W3-1", "W3-2", "W3-3", "W3-4"],
        6: ["W4-4", "W4-3", "W4-2", "W4-1"],
        8: ["W5-2", "W5-1"],
        10: ["W6-1"],
    }
    assert _drops(2) == {**_drops(1), 6: ["W4-2", "W4-1", "W4-4", "W4-3"]}
    assert _drops(None) == _drops(2)
    first, second = (DE.pairings(DE.start(seeds(64), None, r)) for r in (1, 2))
    assert [p for p in first if p.id[:3] != "L6-"] == [p for p in second if p.id[:3] != "L6-"]


def test_revision_1_brackets_of_every_size_to_128_are_laid_out_as_before() -> None:
    # The digest of every pairing (id, round, stage, label, sources) of fields of 2-128 as
    # the code before revision 2 laid them out.
    rows = [[n, p.id, p.round, p.stage, p.label, *p.sources]
            for n in range(2, 129) for p in DE.pairings(DE.start(seeds(n), None, 1))]
    digest = hashlib.sha256(json.dumps(rows).encode()).hexdigest()
    assert digest == "06a74481871d515bb77aa022ef0b59c12f0fe3a6b81ff63f2b7a5f712e8192b7"


@pytest.mark.parametrize("n", range(2, 33))
def test_a_field_of_32_or_fewer_is_paired_alike_in_both_revisions(n: int) -> None:
    assert DE.pairings(DE.start(seeds(n), None, 2)) == DE.pairings(DE.start(seeds(n), None, 1))


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


def test_walkovers_count_in_the_records_of_both_brackets() -> None:
    """s4 withdraws before playing: s1 walks over it in W1-1 (s3, dropped from W1-2, has a
    bye in L1-1: nobody drops from a walkover). s1 then wins the winners' final and the
    grand final: three wins, one of them the walkover, and s4 a loss."""
    state = DE.withdraw(DE.start(seeds(4)), "s4")
    state = play_out(DE, state)
    assert DE.walkovers(state) == {"W1-1": "s1"}
    rows = {row.entrant: row for row in DE.standings(state)}
    assert (rows["s1"].wins, rows["s1"].losses) == (3, 0)
    assert (rows["s4"].wins, rows["s4"].losses) == (0, 1)


def test_mid_event_those_still_in_rank_by_the_worst_place_they_can_still_finish() -> None:
    """Eight entrants, the better seed winning: round one over, s1 has beaten s4 in
    winners' round 2 while s2-s3 is still to play, and s4 has won losers' round 2. Ranked
    by the node each stood in, s1, s2, s3 and s4 shared first, an undefeated s1 already
    through to the winners' final beside s4 with a loss. s1 is through to the winners'
    final (third at worst), s4 to losers' round 3 (fourth at worst), s2 and s3 play for a
    place that can still drop to fifth, as can s5 (won losers' round 1) with a loss more."""
    state = DE.start(seeds(8))
    for pid in ("W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "L1-1", "L1-2", "L2-2"):
        state = DE.record(state, better_seed_wins(
            next(p for p in DE.ready(state) if p.id == pid)))
    assert ids(DE.ready(state)) == ["W2-2"]
    assert ranks(DE, state) == {"s1": 1, "s4": 2, "s2": 3, "s3": 3, "s5": 5, "s6": 6,
                                "s7": 7, "s8": 7}
    state = play_out(DE, state)  # decided: as ranked by where each went out
    assert ranks(DE, state) == {"s1": 1, "s2": 2, "s3": 3, "s4": 4, "s5": 5, "s6": 5,
                                "s7": 7, "s8": 7}


def test_a_late_entrant_takes_a_bye_that_a_withdrawal_had_settled() -> None:
    state = DE.withdraw(DE.start(seeds(3)), "s3")  # s1's bye W1-1 settled, s2 walks over
    state = DE.add_entrant(state, "s4")
    assert slots(DE.ready(state)) == {"W1-1": ("s1", "s4")}
