"""The Showdown series: two entrants, one pairing whose match is a whole Superstar Showdown
Event; the winning team ranks first (SS-130)."""

from __future__ import annotations

from format_helpers import draw, finish, ranks, refused

from league.formats import MatchResult, event_from_json, event_to_json, get_format, replay
from league.formats.events import ResultRecorded

FMT = get_format("showdown_series")


def test_the_two_entrants_meet_once_red_first() -> None:
    state = FMT.start(["red", "blue"])
    (pairing,) = FMT.pairings(state)
    assert (pairing.id, pairing.slots, pairing.round) == ("S1", ("red", "blue"), 1)
    assert FMT.ready(state) == [pairing]
    assert not FMT.is_complete(state)
    assert ranks(FMT, state) == {"red": 1, "blue": 1}


def test_only_two_entrants_play_a_series() -> None:
    refused("too_few_entrants", FMT.start, ["red"], None)
    refused("too_many_entrants", FMT.start, ["red", "blue", "green"], None)
    refused("duplicate_entrant", FMT.start, ["red", "red"], None)


def test_ss130_the_team_with_more_ranking_points_wins_and_its_figures_are_shown() -> None:
    """SS-130: the result's first place (the engine's winner on Ranking Points) ranks first;
    the figures become the standings' columns."""
    state = FMT.start(["red", "blue"])
    done = FMT.record(state, finish("S1", "blue", "red",
                                    blue={"ranking_points": 95.0, "matches_won": 2.0},
                                    red={"ranking_points": 60.0, "matches_won": 1.0}))
    assert FMT.is_complete(done) and FMT.ready(done) == []
    first, second = FMT.standings(done)
    assert (first.entrant, first.rank, first.wins, first.points) == ("blue", 1, 1, 1.0)
    assert (second.entrant, second.rank, second.losses, second.eliminated) == ("red", 2, 1, True)
    assert first.tiebreaks == {"figure:ranking_points": 95.0, "figure:matches_won": 2.0}


def test_a_drawn_event_shares_first_place() -> None:
    """SS-131 is the engine's to decide; when it answers a draw, both share first."""
    done = FMT.record(FMT.start(["red", "blue"]), draw("S1", "red", "blue"))
    assert ranks(FMT, done) == {"red": 1, "blue": 1}
    assert [row.draws for row in FMT.standings(done)] == [1, 1]


def test_results_that_do_not_fit_are_refused_and_change_nothing() -> None:
    state = FMT.start(["red", "blue"])
    refused("unknown_pairing", FMT.record, state, finish("W1-1", "red", "blue"))
    refused("missing_placement", FMT.record, state, MatchResult("S1", {"red": 1}))
    refused("not_in_pairing", FMT.record, state, finish("S1", "red", "green"))
    done = FMT.record(state, finish("S1", "red", "blue"))
    refused("already_recorded", FMT.record, done, finish("S1", "blue", "red"))
    refused("event_complete", FMT.withdraw, done, "blue")
    assert FMT.ready(state) and not FMT.is_complete(state)


def test_a_withdrawal_is_a_walkover_for_the_other_side() -> None:
    state = FMT.withdraw(FMT.start(["red", "blue"]), "red")
    assert FMT.is_complete(state)
    assert ranks(FMT, state) == {"blue": 1, "red": 2}
    refused("not_ready", FMT.record, state, finish("S1", "red", "blue"))
    refused("already_withdrawn", FMT.withdraw, state, "red")


def test_nobody_joins_late_and_nothing_is_paired_by_hand() -> None:
    state = FMT.start(["red", "blue"])
    refused("already_started", FMT.add_entrant, state, "green")
    refused("duplicate_entrant", FMT.add_entrant, state, "red")
    refused("not_supported", FMT.pair_by_hand, state, [["blue", "red"]])


def test_scoring_options_are_read_and_checked() -> None:
    state = FMT.start(["red", "blue"], {"win_points": 3, "loss_points": 1})
    done = FMT.record(state, finish("S1", "red", "blue"))
    assert [row.points for row in FMT.standings(done)] == [3.0, 1.0]
    refused("unknown_option", FMT.start, ["red", "blue"], {"bye_points": 1})
    refused("bad_option", FMT.start, ["red", "blue"], {"win_points": "lots"})


def test_replaying_the_stored_events_gives_the_same_state() -> None:
    result = finish("S1", "red", "blue", red={"ranking_points": 77.0})
    stored = [event_to_json(ResultRecorded(result))]
    state = replay(FMT, ["red", "blue"], None, [event_from_json(e) for e in stored])
    assert state == FMT.record(FMT.start(["red", "blue"]), result)
