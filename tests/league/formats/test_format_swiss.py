"""Swiss: score groups by maximum-weight matching, no rematches, balanced byes, hand pairing."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

import pytest
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

from league.formats import MatchResult, Pairing
from league.formats.swiss import FORMAT as SW
from league.formats.swiss import SwissState, default_rounds, meetings


def test_ten_entrants_play_four_rounds_without_a_rematch() -> None:
    # By hand, the better seed always winning:
    #   R1, one score group of 10, top half against bottom half: s1-s6 s2-s7 s3-s8 s4-s9 s5-s10.
    #   R2, groups [s1..s5] on 1 and [s6..s10] on 0, both odd: s5 (the last of the top group)
    #   floats down to s6 (the first of the next); in each group the top half meets the bottom
    #   half: s1-s3 s2-s4 | s5-s6 | s7-s9 s8-s10.
    #   R3 and R4 are checked for what must hold: nobody meets anyone twice.
    #   s1 wins all four: 4 points, first.
    state = SW.start(seeds(10))
    assert default_rounds(10) == 4
    assert _boards(SW.ready(state)) == [
        ("s1", "s6"),
        ("s2", "s7"),
        ("s3", "s8"),
        ("s4", "s9"),
        ("s5", "s10"),
    ]
    state = _play_round(state)
    assert _boards(SW.ready(state)) == [
        ("s1", "s3"),
        ("s2", "s4"),
        ("s5", "s6"),
        ("s7", "s9"),
        ("s8", "s10"),
    ]
    state = play_out(SW, state)
    assert len(state.rounds) == 4
    _assert_no_rematch(state)
    rows = SW.standings(state)
    assert (rows[0].entrant, rows[0].points, rows[0].wins) == ("s1", 4.0, 4)
    assert rows[-1].entrant == "s10" and rows[-1].points == 0.0


def _boards(pairings: list[Pairing]) -> list[tuple[str | None, ...]]:
    """The slots of each board, in order."""
    return [p.slots for p in pairings]


def _play_round(state: SwissState) -> SwissState:
    """The better seed wins every ready match."""
    for pairing in SW.ready(state):
        state = SW.record(state, better_seed_wins(pairing))
    return state


def _assert_no_rematch(state: SwissState) -> None:
    """No pair of entrants meets twice, and each round seats each entrant at most once."""
    pairs = [frozenset(p.entrants) for p in SW.pairings(state) if len(p.entrants) == 2]
    assert len(pairs) == len(set(pairs))
    for round_ in state.rounds:
        seated = [e for p in round_ for e in p.entrants]
        assert len(seated) == len(set(seated))


def _random_result(pairing: Pairing, rng: random.Random) -> MatchResult:
    """A win either way or a draw."""
    a, b = pairing.entrants
    outcome = rng.choice(["a", "b", "draw"])
    return MatchResult(
        pairing.id, {a: 1, b: 1 if outcome == "draw" else 2} if outcome != "b" else {a: 2, b: 1}
    )


@pytest.mark.parametrize("n", [9, 10, 11])
def test_seeded_random_results_never_bring_a_rematch_or_a_second_bye(n: int) -> None:
    for seed in range(60):
        rng = random.Random(seed)
        state = SW.start(seeds(n), {"rounds": 4})
        state = play_out(SW, state, partial(_random_result, rng=rng))
        _assert_no_rematch(state)
        byes = Counter(p.entrants[0] for p in SW.pairings(state) if len(p.entrants) == 1)
        assert all(count == 1 for count in byes.values())
        assert len(byes) == (4 if n % 2 else 0)


def test_the_bye_goes_to_the_lowest_ranked_entrant_without_one_and_counts_as_a_win() -> None:
    state = SW.start(seeds(5))
    assert slots(SW.pairings(state))["R1-bye"] == ("s5", None)
    assert "R1-bye" not in ids(SW.ready(state))
    state = _play_round(state)
    # s5 is level with the winners now (a bye is a win), so the bye goes to s4, the lowest
    # ranked among those on 0 points who have not had one.
    assert slots(SW.pairings(state))["R2-bye"] == ("s4", None)
    table = {r.entrant: (r.points, r.wins) for r in SW.standings(state)}
    assert table["s5"] == (1.0, 1)
    # s4's bye counts once round 2 is over: until then the organizer may still re-pair it.
    assert table["s4"] == (0.0, 0)
    state = _play_round(state)
    assert {r.entrant: r.wins for r in SW.standings(state)}["s4"] == 1


@pytest.mark.parametrize(("bye", "counted"), [(1.0, (1, 0)), (0.5, (0, 1)), (0.0, (0, 0))])
def test_a_bye_counts_as_the_result_its_points_are_worth(bye: float,
                                                         counted: tuple[int, int]) -> None:
    """Worth a win: a win; a draw's worth: a draw; nothing: neither (it was counted a win
    whatever it was worth, so wins and points disagreed)."""
    state = _play_round(SW.start(seeds(5), {"bye_points": bye}))
    row = {r.entrant: r for r in SW.standings(state)}["s5"]
    assert (row.points, (row.wins, row.draws), row.losses) == (bye, counted, 0)


def test_an_organizer_may_pair_the_next_round_by_hand() -> None:
    state = SW.start(seeds(4))
    state = SW.pair_by_hand(state, [["s1", "s2"], ["s3", "s4"]])
    assert slots(SW.ready(state)) == {"R1-1": ("s1", "s2"), "R1-2": ("s3", "s4")}
    state = SW.record(state, finish("R1-1", "s1", "s2"))
    refused("round_started", SW.pair_by_hand, state, [["s1", "s3"], ["s2", "s4"]])


@pytest.mark.parametrize(
    ("pairings", "code"),
    [
        ([["s1", "s2"], ["s3", "s1"]], "duplicate_entrant"),
        ([["s1", "s2"], ["s3", "zed"], ["s4", None]], "unknown_entrant"),
        ([["s1", "s2"]], "missing_entrant"),
        ([["s1", "s2", "s3"], ["s4"]], "bad_pairing"),
        ([["s1", "s2"], ["s3"], ["s4"]], "bad_pairing"),
        ([[None, None], ["s1", "s2"], ["s3", "s4"]], "bad_pairing"),
    ],
)
def test_bad_hand_pairings_are_refused_and_change_nothing(
    pairings: list[list[str | None]], code: str
) -> None:
    state = SW.start(seeds(4))
    refused(code, SW.pair_by_hand, state, pairings)
    assert state == SW.start(seeds(4))


def test_hand_pairings_may_not_seat_a_withdrawn_entrant() -> None:
    state = SW.withdraw(SW.start(seeds(4)), "s4")
    refused("withdrawn_entrant", SW.pair_by_hand, state, [["s1", "s2"], ["s3", "s4"]])
    state = SW.pair_by_hand(state, [["s1", "s2"], ["s3", None]])
    assert slots(SW.pairings(state))["R1-bye"] == ("s3", None)


def test_when_no_rematch_free_pairing_is_left_the_fewest_rematches_are_taken() -> None:
    # Past the ceil(n/2) bound, by hand: after three rounds of {s1 s2 s3} against {s4 s5 s6}
    # only the triangles s1-s2-s3 and s4-s5-s6 have not met, and a triangle cannot be paired
    # off, so round 4 needs exactly one rematch.
    state = SW.start(seeds(6), {"rounds": 4})
    for hand in (
        [["s1", "s4"], ["s2", "s5"], ["s3", "s6"]],
        [["s1", "s5"], ["s2", "s6"], ["s3", "s4"]],
        [["s1", "s6"], ["s2", "s4"], ["s3", "s5"]],
    ):
        state = _play_round(SW.pair_by_hand(state, hand))
    fourth = [frozenset(p.entrants) for p in SW.ready(state)]
    earlier = {frozenset(p.entrants) for r in state.rounds[:3] for p in r}
    assert sum(pair in earlier for pair in fourth) == 1


@pytest.mark.parametrize(("revision", "bye", "rematches"), [(None, "s4", 1), (2, "s4", 1),
                                                          (1, "s5", 2)])
def test_when_every_bye_brings_a_rematch_the_bye_that_brings_fewest_is_given(
        revision: int | None, bye: str, rematches: int) -> None:
    # By hand: s1-s4 meet each other once in three hand-paired rounds (every game drawn,
    # 1.5 points each) while s5 meets s6 each time: two losses, then s6 withdraws before
    # the third (a walkover, 1 point). Five are left, none with a bye, and any bye leaves a
    # rematch: s5 (the lowest ranked) sitting out leaves s1-s4, who have all met, two
    # rematches; one of s1-s4 sitting out lets s5 meet someone new, one rematch. The bye
    # goes to s4, the lowest ranked of those. An event started under revision 1 still gives
    # it to s5, as it was played then.
    state = SW.start(seeds(6), {"rounds": 5}, revision)
    for hand in (
        [["s1", "s2"], ["s3", "s4"], ["s6", "s5"]],
        [["s1", "s3"], ["s2", "s4"], ["s6", "s5"]],
        [["s1", "s4"], ["s2", "s3"], ["s6", "s5"]],
    ):
        state = SW.pair_by_hand(state, hand)
        for pairing in SW.ready(state)[:2]:
            state = SW.record(state, draw(pairing.id, *pairing.entrants))
        if len(state.rounds) < 3:
            state = SW.record(state, finish(SW.ready(state)[0].id, "s6", "s5"))
    state = SW.withdraw(state, "s6")
    earlier = {frozenset(p.entrants) for r in state.rounds[:3] for p in r}
    assert slots(SW.pairings(state))["R4-bye"] == (bye, None)
    assert sum(frozenset(p.entrants) in earlier for p in SW.ready(state)) == rematches


def test_a_late_entrant_is_paired_from_the_next_round() -> None:
    state = SW.add_entrant(SW.start(seeds(4), {"rounds": 3}), "s5")
    assert all("s5" not in p.entrants for p in SW.pairings(state))
    state = _play_round(state)
    assert any("s5" in p.entrants for p in SW.pairings(state) if p.round == 2)
    state = _play_round(_play_round(state))
    refused("event_complete", SW.pair_by_hand, state, [])


def _seated(pairings: list[Pairing]) -> list[str]:
    """Every entrant the pairings seat, in order."""
    return [e for p in pairings for e in p.entrants]


@pytest.mark.parametrize("revision", [None, 3])
def test_a_held_round_drawn_again_seats_a_late_entrant(revision: int | None) -> None:
    """Five entrants, round 2 drawn with a bye; a sixth joins while it waits: drawn again,
    the round seats all six on three boards, the newcomer among them, no bye."""
    state = _play_round(SW.start(seeds(5), {"rounds": 3}, revision))
    assert any(p.id == "R2-bye" for p in SW.pairings(state))
    state = SW.redraw(SW.add_entrant(state, "s6"), "swiss", 2)
    second = [p for p in SW.pairings(state) if p.round == 2]
    assert sorted(_seated(second)) == sorted(seeds(6))
    assert ids(second) == ["R2-1", "R2-2", "R2-3"] and len(state.rounds) == 2
    assert not {frozenset(p.entrants) for p in second} & {
        frozenset(p.entrants) for p in state.rounds[0]}


def test_a_held_round_drawn_again_leaves_a_withdrawn_entrant_out_with_no_walkover() -> None:
    """Six entrants; one of a round-2 board withdraws while it waits: drawn again, the
    five left are paired (two boards and a bye), the withdrawn entrant's opponent among
    them, and no walkover counts for anyone."""
    state = _play_round(SW.start(seeds(6), {"rounds": 3}))
    gone, opponent = SW.ready(state)[0].entrants
    wins = {r.entrant: r.wins for r in SW.standings(state)}[opponent]
    state = SW.redraw(SW.withdraw(state, gone), "swiss", 2)
    second = [p for p in SW.pairings(state) if p.round == 2]
    assert sorted(_seated(second)) == sorted(set(seeds(6)) - {gone})
    assert opponent in _seated(SW.ready(state)) or (opponent, None) in [p.slots for p in second]
    assert SW.walkovers(state) == {}
    assert {r.entrant: r.wins for r in SW.standings(state)}[opponent] == wins


def test_a_round_drawn_again_under_revision_2_or_with_a_result_stays_as_drawn() -> None:
    """Revision 2 keeps its draw (Events started under it replay as they were played), and
    no revision draws again a round one of whose results is in."""
    old = _play_round(SW.start(seeds(5), {"rounds": 3}, 2))
    joined = SW.add_entrant(old, "s6")
    assert SW.redraw(joined, "swiss", 2) == joined
    new = SW.add_entrant(_play_round(SW.start(seeds(5), {"rounds": 3})), "s6")
    started = SW.record(new, better_seed_wins(SW.ready(new)[0]))
    assert SW.redraw(started, "swiss", 2) == started


def test_a_held_round_a_withdrawal_leaves_one_entrant_of_keeps_its_walkover() -> None:
    """Three entrants, round 2 a board and a bye: the bye's entrant withdraws (the board
    drawn again is the same two), then one of the board: nobody is left to pair the other
    with, so the walkover stands and the Swiss is over."""
    state = _play_round(SW.start(seeds(3), {"rounds": 2}))
    (board,) = SW.ready(state)
    (bye,) = set(seeds(3)) - set(board.entrants)
    state = SW.redraw(SW.withdraw(state, bye), "swiss", 2)
    assert [p.entrants for p in SW.ready(state)] == [board.entrants]
    walkover = SW.withdraw(state, board.entrants[0])
    assert SW.redraw(walkover, "swiss", 2) == walkover
    assert SW.walkovers(walkover) == {board.id: board.entrants[1]}
    assert SW.is_complete(walkover)


def test_a_late_entrant_is_refused_once_the_last_round_is_paired() -> None:
    state = _play_round(SW.start(seeds(4), {"rounds": 2}))
    refused("already_started", SW.add_entrant, state, "s5")


def test_a_late_entrant_of_a_held_last_round_is_drawn_into_it_from_revision_3() -> None:
    """The last round paired, none of its results in, held by the Event: from revision 3
    it is drawn again with the late entrant, as an earlier held round is; before, the
    entry is refused as the last round already paired."""
    state = _play_round(SW.start(seeds(5), {"rounds": 2}))
    assert len(state.rounds) == 2 and any(len(p.entrants) == 1 for p in state.rounds[1])
    joined = SW.add_to_held(state, "s6", "swiss", 2)
    assert sorted(e for p in joined.rounds[1] for e in p.entrants) == seeds(6)
    assert all(len(p.entrants) == 2 for p in joined.rounds[1])
    old = _play_round(SW.start(seeds(5), {"rounds": 2}, revision=2))
    refused("already_started", SW.add_to_held, old, "s6", "swiss", 2)
    # an earlier held round: as add_entrant, then redraw
    early = _play_round(SW.start(seeds(5), {"rounds": 3}))
    assert SW.add_to_held(early, "s6", "swiss", 2) == SW.redraw(
        SW.add_entrant(early, "s6"), "swiss", 2)


def test_a_withdrawal_is_a_walkover_and_later_rounds_skip_the_entrant() -> None:
    state = SW.withdraw(SW.start(seeds(4)), "s4")
    assert ids(SW.ready(state)) == ["R1-1"]
    state = play_out(SW, state)
    rows = {r.entrant: r for r in SW.standings(state)}
    assert rows["s2"].wins >= 1  # the walkover over s4
    assert all("s4" not in p.entrants for p in SW.pairings(state) if p.round == 2)
    assert meetings(state) >= {frozenset({"s2", "s4"})}


def test_a_walkover_stands_when_its_winner_withdraws_later() -> None:
    """A round-2 opponent withdraws: the walkover is its winner's, and stays so when the
    winner withdraws in round 3, rather than turning into a loss for both."""
    state = SW.start(seeds(6), {"rounds": 3})
    for pairing in SW.ready(state):
        state = SW.record(state, better_seed_wins(pairing))
    first, *others = SW.ready(state)
    winner, gone = first.entrants
    state = SW.withdraw(state, gone)
    for pairing in others:
        state = SW.record(state, better_seed_wins(pairing))
    before = {r.entrant: (r.points, r.wins, r.losses) for r in SW.standings(state)}
    assert any(p.round == 3 for p in SW.ready(state))
    state = SW.withdraw(state, winner)
    after = {r.entrant: (r.points, r.wins, r.losses) for r in SW.standings(state)}
    assert after[winner][:2] == before[winner][:2]  # the walkover still a win
    assert after[gone] == before[gone]


def test_a_bye_is_lost_with_a_withdrawal_before_its_round_is_over() -> None:
    """An entrant drawn a bye withdraws before that round is over (a held round, say):
    the bye gives it no point, where one whose bye's round was over keeps it."""
    state = _play_round(SW.start(seeds(5), {"rounds": 3}))
    first_bye, second_bye = _bye_of(state, 1), _bye_of(state, 2)
    before = {r.entrant: (r.points, r.wins) for r in SW.standings(state)}
    assert before[first_bye] == (1.0, 1)
    state = _play_round(SW.withdraw(state, second_bye))
    state = SW.withdraw(state, first_bye)
    after = {r.entrant: (r.points, r.wins) for r in SW.standings(state)}
    assert after[second_bye] == before[second_bye]
    assert after[first_bye][0] >= 1.0  # round 1's bye, its round over, kept


def test_a_bye_lost_to_a_withdrawal_goes_with_the_round_paired_again_by_hand() -> None:
    """The round paired again by hand gives its bye (the same pairing id) to another."""
    state = _play_round(SW.start(seeds(5), {"rounds": 3}))
    gone = _bye_of(state, 2)
    state = SW.add_entrant(SW.withdraw(state, gone), "s6")
    others = [e for e in seeds(5) if e != gone]
    state = _play_round(SW.pair_by_hand(state, [others[:2], others[2:], ["s6"]]))
    assert {r.entrant: (r.points, r.wins) for r in SW.standings(state)}["s6"] == (1.0, 1)


def _bye_of(state: SwissState, number: int) -> str:
    """The entrant with round `number`'s bye."""
    return next(p.entrants[0] for p in SW.pairings(state)
                if p.round == number and len(p.entrants) == 1)


def test_a_round_paired_again_by_hand_drops_the_walkovers_of_the_pairings_it_replaces() -> None:
    state = SW.withdraw(SW.start(seeds(4)), "s4")  # s2's walkover on board 2 (s2 vs s4)
    assert {r.entrant: r.wins for r in SW.standings(state)}["s2"] == 1
    state = SW.pair_by_hand(state, [["s1", "s2"], ["s3", None]])
    state = SW.record(state, finish("R1-1", "s1", "s2"))
    rows = {r.entrant: (r.wins, r.losses) for r in SW.standings(state)}
    assert rows["s2"] == (0, 1) and rows["s1"] == (1, 0)


def test_more_rounds_than_a_round_robin_are_refused() -> None:
    refused("bad_option", SW.start, seeds(4), {"rounds": 4})
    assert ranks(SW, SW.start(seeds(4), {"rounds": 3})) == dict.fromkeys(seeds(4), 1)
