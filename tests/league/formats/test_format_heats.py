"""Free-for-all heats: pods by snake order, the top places advance, a final pod."""

from __future__ import annotations

import pytest
from format_helpers import finish, ids, play_out, ranks, refused, seeds, slots

from league.formats import FormatError, MatchResult
from league.formats.heats import FORMAT as HEATS
from league.formats.heats import HeatsOptions, plan, pod_sizes


def test_nine_entrants_in_pods_of_three_send_the_pod_winners_to_a_final_pod() -> None:
    # By hand: 9 entrants, pods of 3, the top 1 of each advance.
    #   Snake by seed: pod 1 = s1 s6 s7, pod 2 = s2 s5 s8, pod 3 = s3 s4 s9.
    #   The upsets: s7 wins pod 1, s5 wins pod 2, s3 wins pod 3.
    #   Final pod, dealt by place then seed: s3 s5 s7; it finishes s5, s7, s3.
    #   Ranks: s5 1, s7 2, s3 3; then the round-1 runners-up share 4th, the thirds 7th.
    state = HEATS.start(seeds(9), {"pod_size": 3, "advance": 1})
    assert slots(HEATS.ready(state)) == {
        "P1-1": ("s1", "s6", "s7"),
        "P1-2": ("s2", "s5", "s8"),
        "P1-3": ("s3", "s4", "s9"),
    }
    state = HEATS.record(state, finish("P1-1", "s7", "s1", "s6"))
    state = HEATS.record(state, finish("P1-2", "s5", "s2", "s8"))
    assert len(HEATS.ready(state)) == 1
    state = HEATS.record(state, finish("P1-3", "s3", "s9", "s4"))
    final = HEATS.ready(state)
    assert [(p.id, p.slots, p.stage, p.label) for p in final] == [
        ("P2-1", ("s3", "s5", "s7"), "final", "Final pod"),
    ]
    state = HEATS.record(state, finish("P2-1", "s5", "s7", "s3"))
    assert HEATS.is_complete(state)
    assert ranks(HEATS, state) == {
        "s5": 1,
        "s7": 2,
        "s3": 3,
        "s1": 4,
        "s2": 4,
        "s9": 4,
        "s6": 7,
        "s8": 7,
        "s4": 7,
    }
    rows = {r.entrant: r for r in HEATS.standings(state)}
    assert rows["s5"].wins == 2 and not rows["s5"].eliminated
    assert rows["s1"].eliminated and rows["s1"].reached == "Round 1 pod 1"


def test_pods_are_balanced_and_rounds_shrink_to_a_final_pod() -> None:
    assert pod_sizes(10, 4) == [4, 3, 3]
    assert pod_sizes(9, 3) == [3, 3, 3]
    assert plan(16, HeatsOptions(pod_size=4, advance=2)) == [[4, 4, 4, 4], [4, 4], [4]]


def test_a_tie_across_the_advancing_places_sends_on_the_better_seed() -> None:
    """A forfeit leaves the others sharing first: the pod still decides who goes on."""
    state = HEATS.start(seeds(6), {"pod_size": 3, "advance": 1})
    assert slots(HEATS.ready(state))["P1-1"] == ("s1", "s4", "s5")
    state = HEATS.record(state, MatchResult("P1-1", {"s4": 1, "s1": 1, "s5": 3}))
    state = HEATS.record(state, finish("P1-2", "s6", "s2", "s3"))
    assert slots(HEATS.ready(state)) == {"P2-1": ("s1", "s6")}
    rows = {r.entrant: r for r in HEATS.standings(state)}
    assert not rows["s1"].eliminated
    assert rows["s4"].eliminated and rows["s5"].eliminated
    assert rows["s4"].draws == 1 and rows["s4"].wins == 0


def test_the_final_pod_may_end_in_a_shared_place() -> None:
    state = HEATS.start(seeds(3), {"pod_size": 3})
    state = HEATS.record(state, MatchResult("P1-1", {"s1": 1, "s2": 1, "s3": 3}))
    assert ranks(HEATS, state) == {"s1": 1, "s2": 1, "s3": 3}


def test_a_sides_shared_first_place_is_a_win_for_each_of_its_entrants() -> None:
    """A tag team pod (s1 and s2 against s3): the pair's win is a win for both and a loss
    for s3; the same places without sides are a draw between s1 and s2."""
    state = HEATS.start(seeds(3), {"pod_size": 3, "tiebreaks": ["wins", "diff:falls"]})
    won = MatchResult("P1-1", {"s1": 1, "s2": 1, "s3": 3},
                      {"s1": {"falls": 1}, "s2": {"falls": 0}, "s3": {"falls": 0}},
                      sides={"s1": 0, "s2": 0, "s3": 1})
    rows = {r.entrant: r for r in HEATS.standings(HEATS.record(state, won))}
    assert [(rows[e].wins, rows[e].draws, rows[e].losses) for e in ("s1", "s2", "s3")] == [
        (1, 0, 0), (1, 0, 0), (0, 0, 1)]
    assert rows["s1"].points == rows["s2"].points == 1.0
    # A partner is no opponent: s1's fall counts against s3 alone.
    assert rows["s1"].tiebreaks == {"wins": 1.0, "diff:falls": 1.0}
    assert rows["s3"].tiebreaks == {"wins": 0.0, "diff:falls": -0.5}
    alone = HEATS.record(state, MatchResult("P1-1", dict(won.placements)))
    rows = {r.entrant: r for r in HEATS.standings(alone)}
    assert [(rows[e].wins, rows[e].draws) for e in ("s1", "s2")] == [(0, 1), (0, 1)]


def test_a_draw_between_sides_stays_a_draw() -> None:
    state = HEATS.start(seeds(4), {"pod_size": 4})
    drawn = MatchResult("P1-1", dict.fromkeys(("s1", "s2", "s3", "s4"), 1),
                        sides={"s1": 0, "s2": 0, "s3": 1, "s4": 1})
    rows = HEATS.standings(HEATS.record(state, drawn))
    assert {(r.wins, r.draws, r.losses) for r in rows} == {(0, 1, 0)}


def test_a_withdrawn_entrant_leaves_an_unplayed_pod() -> None:
    state = HEATS.withdraw(HEATS.start(seeds(6), {"pod_size": 3}), "s4")
    assert slots(HEATS.ready(state))["P1-1"] == ("s1", "s5")
    refused("not_in_pairing", HEATS.record, state, finish("P1-1", "s1", "s4", "s5"))
    state = play_out(HEATS, state)
    assert ranks(HEATS, state)["s4"] == 6


def test_figures_break_ties_among_those_out_at_the_same_place() -> None:
    state = HEATS.start(seeds(6), {"pod_size": 3, "tiebreaks": ["figure:stack"]})
    state = HEATS.record(state, finish("P1-1", "s1", "s4", "s5", s4={"stack": 7.0}))
    state = HEATS.record(state, finish("P1-2", "s2", "s3", "s6", s3={"stack": 2.0}))
    state = HEATS.record(state, finish("P2-1", "s1", "s2"))
    assert ranks(HEATS, state) == {"s1": 1, "s2": 2, "s4": 3, "s3": 4, "s5": 5, "s6": 5}


def test_options_that_cannot_shrink_the_field_or_fit_the_game_are_refused() -> None:
    refused("bad_option", HEATS.start, seeds(5), {"pod_size": 4, "advance": 3})
    # Four in pods of three deal two pods of two: the field, not the options, is at fault.
    refused("bad_entrant_count", HEATS.start, seeds(4), {"pod_size": 3, "min_pod_size": 3})
    refused("bad_option", HEATS.start, seeds(4), {"pod_size": 11})
    refused("bad_option", HEATS.start, seeds(4), {"tiebreaks": ["buchholz"]})


def test_a_field_whose_final_pod_is_too_small_says_it_is_the_final() -> None:
    """Eight in pods of four, one going on from each, deal two full pods and a final of
    two, short of a game of four: the refusal names the final, and advance among what
    may change (it said "leave a pod of 2" of eight in pods of four, and named pod_size
    alone)."""
    with pytest.raises(FormatError) as caught:
        HEATS.start(seeds(8), {"pod_size": 4, "advance": 1, "min_pod_size": 4})
    assert caught.value.code == "bad_entrant_count"
    assert caught.value.message == (
        "8 entrants in pods of up to 4, 1 going on from each, leave a final pod of 2, fewer "
        "than the 4 seats the game needs: enter more, or change pod_size or advance.")
    assert HEATS.start(seeds(8), {"pod_size": 4, "advance": 2, "min_pod_size": 4}).rounds
    with pytest.raises(FormatError) as first_round:
        HEATS.start(seeds(4), {"pod_size": 3, "min_pod_size": 3})
    assert "leave a pod of 2," in first_round.value.message
    assert first_round.value.message.endswith("enter more, or change pod_size.")


def test_a_late_entrant_is_dealt_in_before_the_first_result_only() -> None:
    state = HEATS.add_entrant(HEATS.start(seeds(4), {"pod_size": 4}), "s5")
    assert ids(HEATS.ready(state)) == ["P1-1", "P1-2"]
    started = HEATS.record(state, finish("P1-1", "s1", "s4", "s5"))
    refused("already_started", HEATS.add_entrant, started, "s6")


def test_a_late_entrant_the_pods_cannot_take_is_refused_as_the_entry() -> None:
    """Three in pods of three, two going on, start; a fourth would deal two pods of two
    that send on all four. The options were fine for the field: the entry is refused."""
    state = HEATS.start(seeds(3), {"pod_size": 3, "advance": 2})
    refused("bad_entrant_count", HEATS.add_entrant, state, "s4")


def test_a_pod_winner_waiting_for_the_other_pods_ranks_above_those_still_to_play() -> None:
    """Mid-round, the entrant a decided pod sends on ranks as one in the next round, as it
    will be once the other pods end (a bracket's winner ranks by the match it goes on to),
    not by its place in the pod under the entrants who have yet to play."""
    state = HEATS.start(seeds(9), {"pod_size": 3, "advance": 1})
    state = HEATS.record(state, finish("P1-1", "s7", "s1", "s6"))
    assert ranks(HEATS, state) == {
        "s7": 1,
        "s2": 2, "s3": 2, "s4": 2, "s5": 2, "s8": 2, "s9": 2,
        "s1": 8,
        "s6": 9,
    }
    state = HEATS.record(state, finish("P1-2", "s5", "s2", "s8"))
    assert ranks(HEATS, state) == {
        "s5": 1, "s7": 1,
        "s3": 3, "s4": 3, "s9": 3,
        "s1": 6, "s2": 6,
        "s6": 8, "s8": 8,
    }
    before = ranks(HEATS, state)
    state = HEATS.record(state, finish("P1-3", "s9", "s3", "s4"))
    after = ranks(HEATS, state)  # the final pod dealt: s5 and s7 stay where they stood
    assert (after["s5"], after["s7"]) == (before["s5"], before["s7"]) == (1, 1)


def test_a_pod_mate_level_with_the_one_sent_on_stays_out_when_that_one_withdraws() -> None:
    """s1 and s6 share pod 1's first place (a forfeit); s1, the better seed, goes on. s1
    withdrawing from the final does not put s6 back in the running above the finalists."""
    state = HEATS.start(seeds(9), {"pod_size": 4, "advance": 1, "min_pod_size": 3})
    for pod in HEATS.ready(state):
        first, second, third = pod.entrants
        state = HEATS.record(state, MatchResult(pod.id, {first: 1, second: 1, third: 3}))
    assert slots(HEATS.ready(state)) == {"P2-1": ("s1", "s2", "s3")}
    state = HEATS.withdraw(state, "s1")
    order = ranks(HEATS, state)
    assert order["s2"] == order["s3"] == 1
    assert order["s6"] > order["s1"]
