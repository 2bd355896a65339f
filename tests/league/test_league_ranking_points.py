"""The Ranking Points projection of Superstar Showdown Events, from real engine streams.

The bot-vs-bot Events here run on a transactional database: with no broker, Celery runs
in-process, so starting the Event lets the bots play the whole series in on_commit hooks,
the Ranking Points are refreshed as the stream advances (league.receivers), and the
result is recorded when the match ends. Events are kept small: two head-to-head Matches,
one Superstar a team, five rounds at most a Match.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league import events, projections, receivers
from league.models import Event, EventMatch, RankingPoints, RankingTotal, Standing
from matches import services as match_services
from matches.models import Match

SMALL = {"matches": [{"match": "head_to_head", "stipulation": None}] * 2,
         "superstars_per_team": 1, "match_options": {"round_limit": 5}}


def totals(match: Match) -> list[tuple[Any, ...]]:
    return list(RankingTotal.objects.filter(match=match).order_by("team").values_list(
        "team", "name", "entrant", "superstars", "match_points", "bonus_points", "total",
        "matches_won", "winner", "event_id"))


def points(match: Match) -> list[tuple[Any, ...]]:
    return list(RankingPoints.objects.filter(match=match).order_by("number", "team")
                .values_list("number", "team", "card", "stipulation", "status", "outcome",
                             "points", "bonus_points", "event_id"))


def play_event(organizer: Any, **kwargs: Any) -> tuple[Event, Match]:
    event = events.create_showdown_event(by=organizer, name="Bot series",
                                         sides=[{"bot": "heuristic"}, {"bot": "random"}],
                                         **{**SMALL, **kwargs})
    event.refresh_from_db()
    return event, EventMatch.objects.select_related("match").get(event=event).match


@pytest.mark.django_db(transaction=True)
def test_ss130_ss134_a_bot_series_ends_with_the_engines_ranking_points(organizer: Any) -> None:
    """SS-130/SS-134: the projected totals are the engine's figures at the end, the points
    of the Matches add up to them, and the side with the most wins the league Event."""
    event, match = play_event(organizer)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert event.status == Event.Status.FINISHED
    figures = match.result["figures"]
    rows = RankingTotal.objects.filter(match=match).order_by("team")
    assert [(r.team, r.entrant, r.event_id) for r in rows] == [(0, "e1", event.pk),
                                                                (1, "e2", event.pk)]
    for row in rows:
        seat = figures[str(row.team)]  # one seat a side: seat 0 is Red, seat 1 Blue
        assert (row.total, row.match_points, row.bonus_points, row.matches_won) == (
            seat["ranking_points"], seat["match_points"], seat["bonus_points"],
            seat["matches_won"])
        played = RankingPoints.objects.filter(match=match, team=row.team)
        assert sum(p.points for p in played) == row.match_points
        assert sum(p.bonus_points for p in played) == row.bonus_points
    assert [(p.number, p.status) for p in RankingPoints.objects.filter(match=match, team=0)] \
        == [(1, "done"), (2, "done")]
    assert all(p.card == "head_to_head" and p.stipulation for p in
               RankingPoints.objects.filter(match=match))
    red, blue = rows
    if red.total == blue.total and red.matches_won == blue.matches_won:
        assert not red.winner and not blue.winner
    else:
        winner = red if (red.total, red.matches_won) > (blue.total, blue.matches_won) else blue
        assert winner.winner
        assert Standing.objects.get(event=event, rank=1).entrant.key == winner.entrant


@pytest.mark.django_db(transaction=True)
def test_rebuilding_the_projections_gives_the_same_ranking_points(organizer: Any) -> None:
    _, match = play_event(organizer)
    before = (totals(match), points(match))
    assert before[0] and before[1]
    RankingTotal.objects.all().delete()
    counts = projections.rebuild_all()
    assert counts["ranking points"] == len(before[0]) + len(before[1])
    assert (totals(match), points(match)) == before


@pytest.mark.django_db(transaction=True)
def test_ss130_the_event_page_shows_the_final_table(organizer: Any, player: Any) -> None:
    """SS-130: the finished Event's page shows each team's total and who won."""
    event, match = play_event(organizer)
    client = Client()
    client.force_login(player)
    page = client.get(reverse("league:event", args=[event.pk])).content.decode()
    rows = list(RankingTotal.objects.filter(match=match))
    assert len(rows) == 2  # one a team
    for row in rows:
        assert f'<td class="pts">{row.total}</td>' in page
    assert "heuristic bot" in page and "random bot" in page
    assert "every 3s" not in page  # over: no more polling


@pytest.mark.django_db
def test_an_advance_queues_one_refresh_of_the_live_table(organizer: Any, player: Any,
                                                         player2: Any) -> None:
    """People on both sides: the series waits at its start, and each advance of the stream
    refreshes the table (the task runs in-process here)."""
    event = events.create_showdown_event(
        by=organizer, sides=[{"player": player.username}, {"player": player2.username}],
        **SMALL)
    match = EventMatch.objects.get(event=event).match
    assert not RankingTotal.objects.exists()
    receivers.on_match_advanced(sender=Match, match_id=match.pk, seq=match.seq)
    assert cache.get(receivers.ranking_points_due(match.pk)) is None  # done, mark cleared
    assert [(t.name, t.entrant, t.total, t.winner) for t in RankingTotal.objects.all()] == [
        ("Red", "e1", 0, False), ("Blue", "e2", 0, False)]
    assert sorted(RankingPoints.objects.values_list("number", "team", "points")) == [
        (1, 0, 0), (1, 1, 0), (2, 0, 0), (2, 1, 0)]
    assert set(RankingPoints.objects.values_list("status", flat=True)) <= {"pending",
                                                                          "playing"}
    kept = set(RankingPoints.objects.values_list("pk", flat=True))
    assert projections.refresh_ranking_points(match) == 6
    assert set(RankingPoints.objects.values_list("pk", flat=True)) == kept  # nothing new


@pytest.mark.django_db(transaction=True)
def test_the_live_table_says_a_match_is_playing_once_it_starts(organizer: Any, player: Any,
                                                               player2: Any) -> None:
    """The refresh waited for the next scoring moment, so the table read "To come" for the
    whole of the Match being played, where a rebuild read "playing"."""
    event = events.create_showdown_event(
        by=organizer, sides=[{"player": player.username}, {"player": player2.username}],
        **SMALL)
    match = EventMatch.objects.get(event=event).match
    users = {0: player, 1: player2}
    while True:
        match.refresh_from_db()
        state = match_services.match_state(match=match, user=None)
        if state["view"]["event"]["matches"][0]["status"] == "playing":
            break
        seat = state["view"]["decision"]["seats"][0] if state["view"].get("decision") else None
        assert seat is not None, state["view"]["phase"]
        mine = match_services.match_state(match=match, user=users[seat])
        match_services.submit_action(match=match, seat=seat, user=users[seat],
                                     action=mine["legal_actions"][0], expected_seq=match.seq)
    live = points(match)
    RankingPoints.objects.all().delete()
    RankingTotal.objects.all().delete()
    projections.refresh_ranking_points(match)
    assert live == points(match)
    assert [row[4] for row in live if row[0] == 1] == ["playing", "playing"]


@pytest.mark.django_db
def test_a_one_on_one_match_has_no_ranking_points(player: Any, player2: Any) -> None:
    match = match_services.create_match(game="superstar_showdown", options={},
                                        seats=[{"player": player.username},
                                               {"player": player2.username}],
                                        created_by=None)
    receivers.on_match_advanced(sender=Match, match_id=match.pk, seq=match.seq)
    assert projections.refresh_ranking_points(match) == 0
    assert not RankingTotal.objects.exists() and not RankingPoints.objects.exists()


@pytest.mark.django_db
def test_a_lobby_event_match_is_projected_without_a_league_event(player: Any,
                                                                 player2: Any) -> None:
    match = match_services.create_match(
        game="superstar_showdown", options={"event": "full_card"},
        seats=[{"player": player.username}, {"player": player2.username}], created_by=None)
    assert projections.refresh_ranking_points(match) > 0
    assert set(RankingTotal.objects.values_list("event_id", "entrant")) == {(None, "")}
    assert RankingPoints.objects.filter(team=0).count() == 4  # Full Card: each card once


SMALL_ENGINE = {"matches": [{"match": "head_to_head", "stipulation": "standard_1"}] * 2,
                "superstars_per_team": 1}


def test_ss134_between_matches_marks_the_scoring_moments() -> None:
    """SS-134/SS-135: the table is refreshed only outside the Matches (the league's
    receiver asks the engine's marker): in the draft, once a Match is over (the bonus
    decisions), at the Event's end; never for a card played inside a Match."""
    import random

    from engine.bots import RandomBot
    from engine.games.superstar_showdown import RULES, between_matches
    from engine.playout import play_match

    marks: list[tuple[str, bool]] = []

    def watch(state: Any, event: Any) -> None:
        marks.append((state.phase.value, between_matches(state)))

    final, _log = play_match(RULES, [RandomBot(), RandomBot()], random.Random(2),
                             {"event": SMALL_ENGINE, "round_limit": 5}, on_event=watch)
    assert between_matches(final)
    inside = ("play", "actions", "motion", "hit", "pin", "kick_out", "reversal", "shove")
    assert {mark for phase, mark in marks if phase in inside} == {False}
    assert {mark for phase, mark in marks if phase in ("draft", "bonus", "send_in")} == {True}


@pytest.mark.django_db(transaction=True)
def test_a_side_that_wins_by_forfeit_is_the_winner_in_the_ranking_points(
        organizer: Any, player: Any) -> None:
    """The series ends off the board: the points stand as played, and the side left wins
    (both read "winner: false" before)."""
    event = events.create_showdown_event(by=organizer, name="Forfeit night",
                                         sides=[{"player": player.username}, {"bot": "random"}],
                                         **SMALL)
    match = EventMatch.objects.select_related("match").get(event=event).match
    assert match.status == Match.Status.ACTIVE
    events.forfeit(event=event, by=organizer, pairing="S1", entrant="e1")
    match.refresh_from_db()
    projections.refresh_ranking_points(match)
    assert [(row[0], row[2], row[8]) for row in totals(match)] == [(0, "e1", False),
                                                                    (1, "e2", True)]


@pytest.mark.django_db(transaction=True)
def test_a_corrected_series_result_names_its_winner_in_the_ranking_points(
        organizer: Any, player: Any) -> None:
    """The organizer gives the series to the side that forfeited (it was played off the
    site): the table names that side the winner, as the Event's standings do, and a
    rebuild agrees. The table kept the match's own winner."""
    event = events.create_showdown_event(by=organizer, name="Forfeit night",
                                         sides=[{"player": player.username}, {"bot": "random"}],
                                         **SMALL)
    match = EventMatch.objects.select_related("match").get(event=event).match
    events.forfeit(event=event, by=organizer, pairing="S1", entrant="e1")
    events.correct_result(event=event, by=organizer, pairing="S1",
                          placements={"e1": 1, "e2": 2})
    assert Standing.objects.get(event=event, rank=1).entrant.key == "e1"
    assert [(row[2], row[8]) for row in totals(match)] == [("e1", True), ("e2", False)]
    before = totals(match)
    projections.rebuild_all()
    assert totals(match) == before


@pytest.mark.django_db
def test_a_series_recorded_under_earlier_rules_keeps_its_table_and_waits_for_its_organizer(
        organizer: Any, player: Any, player2: Any, revise_rules: Any) -> None:
    """Its stream cannot be replayed: no refresh of its Ranking Points, and its late
    players are nobody the deadline sweep can name (their organizer forfeits it)."""
    from datetime import timedelta

    from django.utils import timezone

    event = events.create_showdown_event(
        by=organizer, sides=[{"player": player.username}, {"player": player2.username}],
        turn_deadline_minutes=5, **SMALL)
    match = EventMatch.objects.get(event=event).match
    receivers.on_match_advanced(sender=Match, match_id=match.pk, seq=match.seq)
    table = sorted(RankingPoints.objects.values_list("pk", "number", "team", "status"))
    assert table
    revise_rules("superstar_showdown")
    assert projections.refresh_ranking_points(match) == 0
    receivers.on_match_advanced(sender=Match, match_id=match.pk, seq=match.seq)
    assert sorted(RankingPoints.objects.values_list("pk", "number", "team", "status")) == table
    records = event.records.count()
    assert events.enforce_deadlines(now=timezone.now() + timedelta(minutes=6)) == 0
    assert event.records.count() == records
