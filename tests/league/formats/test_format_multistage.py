"""Multi-stage events: groups or a Swiss, then a single-elimination playoff of the top N."""

from __future__ import annotations

import itertools
import random
from typing import Any

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
from hypothesis import given, settings
from hypothesis import strategies as st

from league.formats import MatchResult, Pairing
from league.formats.multistage import FORMAT as MS
from league.formats.multistage import MultistageState, stage1_order


def test_two_groups_send_their_top_two_to_a_crossed_playoff() -> None:
    # By hand: 8 entrants in 2 groups by snake: A = s1 s4 s5 s8, B = s2 s3 s6 s7.
    # The better seed wins every match: A finishes s1 s4 s5 s8, B finishes s2 s3 s6 s7.
    # Stage-1 order: winners s1, s2 (level on points per match, group order), then
    # runners-up s4, s3. Each group winner meets the other group's runner-up: s1-s3 and
    # s2-s4 (here the plain seeding 1-4, 2-3 too; the next test has it otherwise).
    # Final ranks: s1, s2, s3 and s4 share 3rd, then s5 and s6 share 5th (third in their
    # groups), s8 and s7 share 7th.
    state = MS.start(seeds(8), {"groups": 2, "playoff_size": 4})
    first = MS.ready(state)
    assert ids(first) == ["A:R1-1", "A:R1-2", "B:R1-1", "B:R1-2"]
    assert {p.stage for p in first} == {"group A", "group B"}
    refused("not_ready", MS.record, state, finish("PO:W1-1", "s1", "s3"))
    while not ids(MS.ready(state))[0].startswith("PO:"):
        state = MS.record(state, better_seed_wins(MS.ready(state)[0]))
    assert slots(MS.ready(state)) == {"PO:W1-1": ("s1", "s3"), "PO:W1-2": ("s2", "s4")}
    assert {p.stage for p in MS.ready(state)} == {"playoff"}
    refused("already_started", MS.add_entrant, state, "late")
    state = play_out(MS, state)
    assert ranks(MS, state) == {
        "s1": 1,
        "s2": 2,
        "s3": 3,
        "s4": 3,
        "s5": 5,
        "s6": 5,
        "s8": 7,
        "s7": 7,
    }
    rows = {r.entrant: r for r in MS.standings(state)}
    assert (rows["s1"].wins, rows["s1"].losses) == (5, 0)
    assert rows["s5"].eliminated and rows["s5"].reached == "Group A"


def _b_draws_at_the_top(pairing: Pairing) -> MatchResult:
    """s2 and s3 draw; otherwise the better seed wins."""
    if set(pairing.entrants) == {"s2", "s3"}:
        return draw(pairing.id, "s2", "s3")
    return better_seed_wins(pairing)


@pytest.mark.parametrize(("revision", "semifinals"), [
    (None, {"PO:W1-1": ("s1", "s3"), "PO:W1-2": ("s2", "s4")}),
    (3, {"PO:W1-1": ("s1", "s3"), "PO:W1-2": ("s2", "s4")}),
    (2, {"PO:W1-1": ("s1", "s4"), "PO:W1-2": ("s2", "s3")}),
    (1, {"PO:W1-1": ("s1", "s4"), "PO:W1-2": ("s2", "s3")}),
])
def test_group_winners_meet_the_other_groups_runners_up_from_revision_3(
        revision: int | None, semifinals: dict[str, tuple[str, str]]) -> None:
    # A = s1 s4 s5 s8, B = s2 s3 s6 s7; s2 and s3 draw, the better seed wins the rest.
    # A1 s1 on 3 points, B1 s2 and B2 s3 on 2.5, A2 s4 on 2: the stage-1 order is s1 s2
    # s3 s4, whose plain seeding (revisions 1 and 2, as such Events were played) gives
    # two semifinals of group-mates, s1-s4 and s2-s3. Revision 3 crosses them.
    state = MS.start(seeds(8), {"groups": 2, "playoff_size": 4}, revision)
    while not MS.ready(state)[0].id.startswith("PO:"):
        state = MS.record(state, _b_draws_at_the_top(MS.ready(state)[0]))
    assert [row.entrant for row in stage1_order(state)[:4]] == ["s1", "s2", "s3", "s4"]
    assert slots(MS.ready(state)) == semifinals


@pytest.mark.parametrize(("revision", "swiss"),
                         [(None, 3), (5, 3), (4, 3), (3, 2), (2, 2), (1, 1)])
def test_the_swiss_stage_pairs_as_the_swiss_revision_2_from_revision_2_and_3_from_4(
        revision: int | None, swiss: int) -> None:
    state = MS.start(seeds(6), {"stage1": "swiss"}, revision)
    assert state.groups[0].state.revision == swiss


def _swiss_round(state: MultistageState, number: int) -> list[tuple[str, ...]]:
    """The Swiss stage's round `number`, each pairing's entrants."""
    return [p.entrants for p in MS.pairings(state)
            if p.stage == "swiss" and p.round == number]


def test_a_held_swiss_stage_round_drawn_again_seats_a_late_entrant() -> None:
    """Revision 4: the Swiss stage's held round is drawn again with a late entrant, as a
    Swiss's from its revision 3; revision 3 keeps it as drawn."""
    for revision, seated in ((None, True), (3, False)):
        state = MS.start(seeds(5), {"stage1": "swiss", "rounds": 3}, revision)
        for pairing in MS.ready(state):
            state = MS.record(state, better_seed_wins(pairing))
        state = MS.redraw(MS.add_entrant(state, "s6"), "swiss", 2)
        assert any("s6" in p for p in _swiss_round(state, 2)) is seated


def test_a_held_last_swiss_stage_round_takes_a_late_entrant_from_revision_5() -> None:
    """The Swiss stage's last round paired, none of its results in, held by the Event:
    from revision 5 it is drawn again with the late entrant, as a Swiss Event's is; under
    revision 4 the entry is refused as the last round already paired."""
    def held_last(revision: int | None) -> MultistageState:
        state = MS.start(seeds(5), {"stage1": "swiss", "rounds": 2}, revision)
        for pairing in MS.ready(state):
            state = MS.record(state, better_seed_wins(pairing))
        return state

    joined = MS.add_to_held(held_last(None), "s6", "swiss", 2)
    assert sorted(e for p in _swiss_round(joined, 2) for e in p) == seeds(6)
    assert all(len(p) == 2 for p in _swiss_round(joined, 2))
    assert "s6" in joined.entrants and joined.playoff is None
    refused("already_started", MS.add_to_held, held_last(4), "s6", "swiss", 2)
    # an earlier held round: as add_entrant, then redraw
    early = MS.start(seeds(5), {"stage1": "swiss", "rounds": 3})
    for pairing in MS.ready(early):
        early = MS.record(early, better_seed_wins(pairing))
    assert MS.add_to_held(early, "s6", "swiss", 2) == MS.redraw(
        MS.add_entrant(early, "s6"), "swiss", 2)


def test_withdrawals_from_a_held_swiss_stage_round_draw_no_playoff_from_its_walkovers() -> None:
    """Four in a Swiss of two rounds, the top two to a playoff: one of each round-2 board
    withdraws while it waits. Drawn as it was, the two walkovers would decide the Swiss
    and draw the playoff; drawn again after each, the two left play round 2 first."""
    state = MS.start(seeds(4), {"stage1": "swiss", "rounds": 2, "playoff_size": 2})
    for pairing in MS.ready(state):
        state = MS.record(state, better_seed_wins(pairing))
    first, second = _swiss_round(state, 2)
    state = MS.redraw(MS.withdraw(state, first[1]), "swiss", 2)
    assert state.playoff is None
    state = MS.redraw(MS.withdraw(state, second[1]), "swiss", 2)
    assert state.playoff is None
    assert _swiss_round(state, 2) == [tuple(sorted((first[0], second[0])))]
    assert ids(MS.ready(state)) == ["SW:R2-1"]
    assert MS.redraw(state, "playoff", 1) == state


def _random_result(pairing: Pairing, rng: random.Random) -> MatchResult:
    """A random winner, or in a group now and then a draw."""
    if pairing.stage.startswith("group") and rng.random() < 0.2:
        return draw(pairing.id, *pairing.entrants)
    return finish(pairing.id, *rng.sample(pairing.entrants, 2))


def _fewest_group_mates(state: MultistageState, group: dict[str, str]) -> int:
    """The fewest group-mates' meetings in playoff round one that any placing of its
    lower seeds against the seeds who keep their places can give."""
    qualified = [row.entrant for row in stage1_order(state) if not row.withdrawn]
    top = qualified[: state.options.playoff_size]
    size = 1 << (len(top) - 1).bit_length()
    ups = top[size - len(top): size // 2]
    return min(sum(group[a] == group[b] for a, b in zip(ups, lows, strict=True))
               for lows in itertools.permutations(top[size // 2:]))


@settings(max_examples=60, deadline=None)
@given(groups=st.integers(2, 4), extra=st.integers(0, 5), playoff=st.integers(2, 12),
       seed=st.integers(0, 2**32))
def test_playoff_round_one_keeps_group_mates_apart_where_it_can(
        groups: int, extra: int, playoff: int, seed: int) -> None:
    n = 2 * groups + extra
    options: dict[str, Any] = {"groups": groups, "playoff_size": min(playoff, n)}
    state, rng = MS.start(seeds(n), options), random.Random(seed)
    while state.playoff is None:
        state = MS.record(state, _random_result(rng.choice(MS.ready(state)), rng))
    group = {e: g.name for g in state.groups for e in g.state.entrants}
    qualified = [row.entrant for row in stage1_order(state)][: options["playoff_size"]]
    round_one = [p.entrants for p in MS.pairings(state) if p.id.startswith("PO:W1-")]
    met = sum(len(pair) == 2 and group[pair[0]] == group[pair[1]] for pair in round_one)
    assert met == _fewest_group_mates(state, group)
    assert sorted(state.playoff.entrants) == sorted(qualified)
    size = 1 << (len(qualified) - 1).bit_length()
    assert state.playoff.entrants[: size // 2] == tuple(qualified[: size // 2])


def test_a_swiss_stage_feeds_a_playoff_with_a_third_place_match() -> None:
    state = MS.start(
        seeds(8), {"stage1": "swiss", "rounds": 3, "playoff_size": 4, "third_place": True}
    )
    assert ids(MS.ready(state))[0] == "SW:R1-1"
    state = MS.pair_by_hand(state, [["s1", "s2"], ["s3", "s4"], ["s5", "s6"], ["s7", "s8"]])
    assert slots(MS.ready(state))["SW:R1-1"] == ("s1", "s2")
    state = play_out(MS, state)
    # The better seed wins everything. After three rounds s1 has 3 points; s3, s2 and s4
    # have 2, in that order by Buchholz (6, 5, 3). Playoff seeds s1 s3 s2 s4: semifinals
    # s1-s4 and s3-s2, final s1-s2, third place s4-s3 won by s3. The rest keep their
    # Swiss order: s5, s7, s6 on 1 point by Buchholz 6, 4, 3, then s8.
    assert slots(MS.pairings(state))["PO:3P"] == ("s4", "s3")
    assert ranks(MS, state) == {
        "s1": 1,
        "s2": 2,
        "s3": 3,
        "s4": 4,
        "s5": 5,
        "s7": 6,
        "s6": 7,
        "s8": 8,
    }


def test_a_late_entrant_redraws_the_groups_before_the_first_result() -> None:
    state = MS.add_entrant(MS.start(seeds(7), {"groups": 2}), "s8")
    assert {p.id.split(":")[0] for p in MS.ready(state)} == {"A", "B"}
    assert "s8" in {e for p in MS.pairings(state) if p.id.startswith("A:") for e in p.entrants}


def test_a_withdrawn_entrant_does_not_qualify_for_the_playoff() -> None:
    state = MS.start(seeds(4), {"playoff_size": 2})
    state = MS.withdraw(state, "s1")
    state = play_out(MS, state)
    assert "s1" not in {e for p in MS.pairings(state) if p.stage == "playoff" for e in p.entrants}
    assert ranks(MS, state)["s2"] == 1


def test_the_walkovers_carry_the_pairing_ids_of_their_group_and_the_playoff() -> None:
    """A group's walkovers by the ids `pairings` gives them ("A:R1-1"), the playoff's
    with its prefix, each to the winner its withdrawal gave it."""
    state = MS.start(seeds(8), {"groups": 2, "playoff_size": 2})
    state = MS.withdraw(state, "s8")  # group A: s1 s4 s5 s8
    theirs = {p.id: p for p in MS.pairings(state) if "s8" in p.entrants}
    assert MS.walkovers(state) == {
        pid: next(e for e in p.entrants if e != "s8") for pid, p in theirs.items()}
    assert all(pid.startswith("A:") for pid in theirs)
    state = play_out(MS, state)
    assert MS.walkovers(state).keys() == theirs.keys()
    state = MS.start(seeds(4), {"playoff_size": 2})
    while MS.ready(state) and MS.ready(state)[0].stage != "playoff":
        state = MS.record(state, better_seed_wins(MS.ready(state)[0]))
    final = MS.ready(state)[0]
    state = MS.withdraw(state, final.entrants[1])
    assert MS.walkovers(state) == {final.id: final.entrants[0]}
    assert final.id.startswith("PO:")


def test_stage_one_options_are_checked() -> None:
    refused("bad_option", MS.start, seeds(4), {"groups": 3})
    refused("bad_option", MS.start, seeds(4), {"stage1": "swiss", "groups": 2})
    refused("bad_option", MS.start, seeds(4), {"playoff_size": 5})
    refused("bad_option", MS.start, seeds(4), {"stage1": "heats"})
    refused("not_supported", MS.pair_by_hand, MS.start(seeds(4)), [["s1", "s2"], ["s3", "s4"]])


def test_a_withdrawal_before_the_groups_are_drawn_again_still_holds() -> None:
    state = MS.withdraw(MS.start(seeds(7), {"groups": 2}), "s2")
    state = MS.add_entrant(state, "s8")
    assert all("s2" not in p.entrants for p in MS.ready(state))
    state = play_out(MS, state)
    assert {r.entrant: r.withdrawn for r in MS.standings(state)}["s2"]


def test_a_late_entry_keeps_each_walkover_with_the_one_it_was_given_to() -> None:
    """s1 leaves round one to s4 (R1-1, the round being played: s4's to keep), then s4
    leaves. A late entrant draws the group again, and the withdrawals were applied again
    in seed order: s1 first gave the pair to s4 in the new schedule's round 3, where s4
    leaving made it a loss for both. Kept with its pair, it is s4's win, as a round robin
    of the same field keeps it."""
    state = MS.start(seeds(4), {"groups": 1})
    state = MS.withdraw(MS.withdraw(state, "s1"), "s4")
    assert MS.walkovers(state)["A:R1-1"] == "s4"
    state = MS.add_entrant(state, "late")
    pair = next(p.id for p in MS.pairings(state) if set(p.entrants) == {"s1", "s4"})
    assert MS.walkovers(state)[pair] == "s4"
    assert {row.entrant: row.wins for row in MS.standings(state)}["s4"] == 1


@pytest.mark.parametrize("first, second", list(itertools.permutations(seeds(6), 2)))
@pytest.mark.parametrize("options", [{"groups": 1}, {"groups": 2},
                                     {"groups": 2, "round_by_round": False}])
def test_a_late_entry_redraws_no_walkover_between_a_pair_it_keeps_together(
        first: str, second: str, options: dict[str, Any]) -> None:
    """Whoever left first, each walkover of a pair the re-drawn groups keep together is
    theirs as before; a pair first put together by the re-draw after both left is a loss
    for both (neither was there to play it), and the late entrant wins each of its
    pairings with someone gone."""
    state = MS.withdraw(MS.withdraw(MS.start(seeds(6), options), first), second)
    before = {frozenset(p.entrants): MS.walkovers(state)[p.id] for p in MS.pairings(state)
              if p.id in MS.walkovers(state)}
    state = MS.add_entrant(state, "late")
    for pairing in MS.pairings(state):
        if {first, second} & set(pairing.entrants) and len(pairing.entrants) == 2:
            pair = frozenset(pairing.entrants)
            if pair in before:
                assert MS.walkovers(state)[pairing.id] == before[pair]
            elif pair == {first, second}:
                assert MS.walkovers(state)[pairing.id] is None
            else:
                assert MS.walkovers(state)[pairing.id] == next(iter(pair - {first, second}))


def test_a_playoff_entrants_points_are_both_stages_as_their_record_is() -> None:
    """Three points a win: s1 wins its group (three wins, 9 points) and the final against
    s2 (two group wins, 6 points). Its row showed four wins beside 9 points, stage 1's
    alone; it shows 12, and s2's loss in the final adds nothing to its 6."""
    state = play_out(MS, MS.start(seeds(4), {"playoff_size": 2, "win_points": 3.0}))
    rows = {row.entrant: row for row in MS.standings(state)}
    assert (rows["s1"].wins, rows["s1"].losses, rows["s1"].points) == (4, 0, 12.0)
    assert (rows["s2"].wins, rows["s2"].losses, rows["s2"].points) == (2, 2, 6.0)
    assert (rows["s3"].wins, rows["s3"].points) == (1, 3.0)  # stage 1 alone: out of it
