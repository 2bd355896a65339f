"""Projections written at once on PostgreSQL: ratings rated once and in turn, a season's
table rewritten in turn, a full rebuild beside results being recorded."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from league import events, projections
from league.models import Event, EventMatch, Rating, RatingHistory, SeasonStanding
from matches import services as match_services

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "super_showdown"
TRIALS = 4


def user(prefix: str, **extra: Any) -> Any:
    return get_user_model().objects.create_user(username=f"{prefix}-{uuid.uuid4().hex[:8]}",
                                                **extra)


def rating_rows() -> list[tuple[Any, ...]]:
    return sorted(Rating.objects.filter(game=GAME).values_list(
        "player_id", "matches", "mu", "sigma"))


def test_two_matches_of_one_new_player_rated_at_once_are_each_rated_once(race: Any,
                                                                         played: Any) -> None:
    """The worker rates each match as it ends (record_result) while two more calls rate
    both at once: every match is rated once, and the table is the one a rebuild gives."""
    staff = user("rater", is_staff=True)
    for _ in range(TRIALS):
        shared, one, two = user("shared"), user("one"), user("two")
        duels = [match_services.create_match(
            game=GAME, options={}, created_by=staff,
            seats=[{"player": shared.username}, {"player": other.username}])
            for other in (one, two)]
        for duel in duels:
            match_services.forfeit_seat(match=played(duel, 1), seat=1)
        assert race([lambda d=duel: projections.refresh_ratings_after(d)
                            for duel in duels])[1] == []
        deadline = time.monotonic() + 60  # the worker's own record_result may still run
        while RatingHistory.objects.filter(match__in=duels).count() < 4:
            assert time.monotonic() < deadline, "a match was never rated"
            time.sleep(0.2)
        assert RatingHistory.objects.filter(match__in=duels).count() == 4
        assert Rating.objects.get(game=GAME, player__user=shared).matches == 2
    time.sleep(1)  # let any late task of the worker land before the comparison
    live = rating_rows()
    projections.rebuild_ratings(GAME)
    assert rating_rows() == live


def test_two_events_of_one_season_refreshed_at_once_leave_one_table(race: Any,
                                                                    played: Any) -> None:
    """Each Event's refresh rewrites the whole season table; they take turns on the
    season's row, so the table holds each entrant once, with both Events counted."""
    staff = user("organizer", is_staff=True)
    for trial in range(TRIALS):
        season = events.create_season(name=f"Race {trial} {uuid.uuid4().hex[:6]}", game=GAME,
                                      by=staff)
        cups = []
        for name in ("North", "South"):
            cup = events.create_event(name=f"{name} cup", game=GAME, format="round_robin",
                                      by=staff, season=season)
            for player in (user("p"), user("q")):
                events.add_entrant(event=cup, by=staff, player=player.username)
            events.start_event(event=cup, by=staff)
            link = EventMatch.objects.get(event=cup)
            match_services.forfeit_seat(match=played(link.match, 1), seat=1)
            cups.append(cup)
        deadline = time.monotonic() + 60
        while Event.objects.filter(pk__in=[c.pk for c in cups],
                                   status=Event.Status.FINISHED).count() < 2:
            assert time.monotonic() < deadline, "an Event never recorded its result"
            time.sleep(0.2)
        assert race([lambda c=cup: projections.refresh_event(c) for cup in cups])[1] == []
        rows = list(SeasonStanding.objects.filter(season=season).values_list(
            "player_id", "wins", "losses"))
        assert len(rows) == 4 and len({player for player, _, _ in rows}) == 4
        assert sorted((wins, losses) for _, wins, losses in rows) == [(0, 1), (0, 1),
                                                                      (1, 0), (1, 0)]


def test_a_full_rebuild_beside_results_being_recorded_neither_deadlocks_nor_fails(
        race: Any, played: Any) -> None:
    """rebuild_all locks every Event and season in the services' order, so a result
    recorded meanwhile waits for it instead of deadlocking against it."""
    staff = user("rebuilder", is_staff=True)
    season = events.create_season(name=f"Rebuilt {uuid.uuid4().hex[:6]}", game=GAME, by=staff)
    cups = []
    for i in range(6):
        cup = events.create_event(name=f"Cup {i}", game=GAME, format="round_robin", by=staff,
                                  season=season)
        for player in (user("r"), user("s")):
            events.add_entrant(event=cup, by=staff, player=player.username)
        events.start_event(event=cup, by=staff)
        cups.append(cup)
    links = [EventMatch.objects.get(event=cup) for cup in cups]
    for link in links:
        played(link.match, 1)  # a forfeit after a move is rated: the rebuild races ratings too
    finish = [lambda link=link: match_services.forfeit_seat(match=link.match, seat=1)
              for link in links]
    assert race([projections.rebuild_all, *finish])[1] == []
    deadline = time.monotonic() + 120
    while Event.objects.filter(pk__in=[c.pk for c in cups],
                               status=Event.Status.FINISHED).count() < len(cups):
        assert time.monotonic() < deadline, "a result was never recorded"
        time.sleep(0.2)
    assert SeasonStanding.objects.filter(season=season).count() == 2 * len(cups)
