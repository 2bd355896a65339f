"""A bot-vs-bot Full Card Event, made through the league service, runs to its end on the
real worker; the league Event finishes with a winner and the Ranking Points projection
matches the engine's figures (SS-130, SS-134, SS-160)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model

from league import events
from league.models import Event, EventMatch, RankingPoints, RankingTotal, Standing
from matches.models import Match

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

DEADLINE_SECONDS = 900


def _wait(what: str, done: Callable[[], bool], deadline: float) -> None:
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} never happened")
        time.sleep(0.5)


def _projected(match: Match) -> list[tuple[float, float, float, float]]:
    return [(r.total, r.match_points, r.bonus_points, r.matches_won)
            for r in RankingTotal.objects.filter(match=match).order_by("team")]


def _figures(match: Match) -> list[tuple[float, float, float, float]]:
    figures = match.result["figures"]
    return [(f["ranking_points"], f["match_points"], f["bonus_points"], f["matches_won"])
            for f in (figures["0"], figures["1"])]


def test_a_bot_full_card_event_runs_on_the_worker_to_a_winner_and_its_ranking_points() -> None:
    """SS-160: one of each Match card; SS-130: the most Ranking Points wins; SS-134: the
    projected points are the engine's."""
    staff = get_user_model().objects.create_user(username="ss-organizer", is_staff=True)
    event = events.create_showdown_event(by=staff, preset="full_card", name="Bot Full Card",
                                         sides=[{"bot": "heuristic"}, {"bot": "random"}])
    assert event.status == Event.Status.RUNNING
    match = EventMatch.objects.get(event=event).match

    deadline = time.monotonic() + DEADLINE_SECONDS
    _wait("the Full Card's end", lambda: Event.objects.get(pk=event.pk).status
          == Event.Status.FINISHED, deadline)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    # The final refresh runs before the result is recorded; a refresh queued by the last
    # advance may still land after it and writes the same rows.
    _wait("the final Ranking Points", lambda: _projected(match) == _figures(match), deadline)

    played = RankingPoints.objects.filter(match=match, team=0).order_by("number")
    assert [p.status for p in played] == ["done"] * 4
    assert sorted(p.card for p in played) == ["gauntlet", "head_to_head", "six_man_tag",
                                             "tag_team"]
    red, blue = RankingTotal.objects.filter(match=match).order_by("team")
    placements = match.result["placements"]
    standings = {s.entrant.key: s.rank for s in Standing.objects.filter(event=event)}
    assert standings == {"e1": placements[0], "e2": placements[1]}
    if placements[0] != placements[1]:
        winner = red if placements[0] == 1 else blue
        assert winner.winner and winner.total >= (blue if winner is red else red).total
