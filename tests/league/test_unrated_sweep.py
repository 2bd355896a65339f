"""The sweep of missed results (league.tasks.sweep_results, run by Celery beat and
`manage.py run_schedule`) rates a finished match that could not be rated when it ended
(a worker down) within a week: the same ratings a rebuild gives, each match once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league import projections, tasks
from league.models import Rating, RatingHistory
from matches import services
from matches.models import Match
from tests.conftest import accepted, moved

pytestmark = pytest.mark.django_db


def ratings() -> dict[str, list[tuple[Any, ...]]]:
    """Every rating and its history by content."""
    return {"ratings": sorted(Rating.objects.values_list(
                "game", "player_id", "mu", "sigma", "ordinal", "matches")),
            "history": sorted(RatingHistory.objects.values_list(
                "game", "player_id", "match_id", "mu", "sigma", "ordinal"))}


def won_by(match: Match, seat: int) -> Match:
    """`match` once the other of its two seats, having moved, resigned."""
    loser = 1 - seat
    services.forfeit_seat(match=moved(match, loser), seat=loser)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def finished_days_ago(match: Match, days: int) -> None:
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(days=days))


def test_a_match_its_rating_failed_for_is_rated_by_the_sweep_days_later(
        toy_match: Match, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    real = projections.refresh_ratings_after

    def down(match: Match) -> None:
        raise RuntimeError("the worker is down")

    monkeypatch.setattr(projections, "refresh_ratings_after", down)
    with django_capture_on_commit_callbacks(execute=True):
        won_by(toy_match, 0)
    assert not RatingHistory.objects.exists()
    monkeypatch.setattr(projections, "refresh_ratings_after", real)
    finished_days_ago(toy_match, 2)

    assert tasks.sweep_results() == 1
    assert RatingHistory.objects.filter(match=toy_match).count() == 2
    rated = ratings()
    assert tasks.sweep_results() == 0  # swept again: nothing twice
    assert ratings() == rated


def test_the_sweep_rates_in_the_rebuilds_order(toy_match: Match, player: Any,
                                               player2: Any) -> None:
    """Alice won the first match, left unrated (its task lost) for three days; bruno won
    the next, which was rated. Rated late, the first comes before the second, as a rebuild
    rates them."""
    first = won_by(toy_match, 0)  # (no commit here: its task never comes)
    second = won_by(accepted(services.create_match(
        game=first.game, options={}, created_by=player,
        seats=[{"player": player.username}, {"player": player2.username}])), 1)
    projections.refresh_finished(second)
    finished_days_ago(first, 3)
    assert not RatingHistory.objects.filter(match=first).exists()

    assert tasks.sweep_results() == 1
    assert RatingHistory.objects.filter(match=first).count() == 2
    swept = ratings()
    assert {m for _, _, m, *_ in swept["history"]} == {first.pk, second.pk}
    projections.rebuild_ratings(first.game)
    assert ratings() == swept
    assert tasks.sweep_results() == 0 and ratings() == swept


def test_a_match_against_a_bot_is_left_unrated(toy_game: Any, player: Any) -> None:
    match = services.create_match(game=toy_game.TOY_KEY, options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"}])
    services.forfeit_seat(match=match, seat=1)
    finished_days_ago(match, 2)
    assert tasks.sweep_results() == 0 and not RatingHistory.objects.exists()


def test_a_match_left_unrated_for_over_a_week_is_left_to_the_rebuild(toy_match: Match) -> None:
    """The sweep's look back is bounded, so the matches the ratings never rate (which pass
    its filter) do not pile up in every sweep: one older than a week is the rebuild's."""
    match = won_by(toy_match, 0)  # (no commit here: its task never comes)
    finished_days_ago(match, 8)
    assert tasks.sweep_results() == 0 and not RatingHistory.objects.exists()
    projections.rebuild_ratings(match.game)
    assert RatingHistory.objects.filter(match=match).count() == 2


def test_a_rebuild_of_the_ratings_reads_no_match_against_a_bot(
        toy_game: Any, toy_match: Match, player: Any) -> None:
    """A correction rebuilds its game's ratings: it read every finished match of the
    game, a few queries each, those against a bot too (most of a site's), which are never
    rated; its work grows with the matches between people alone."""
    won_by(toy_match, 0)

    def rebuild_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            projections.rebuild_ratings(toy_match.game)
        return len(queries)

    rebuild_queries()  # (the ratings written once, as each rebuild finds them after)
    before = rebuild_queries()
    rated = ratings()
    for _ in range(5):
        match = services.create_match(game=toy_game.TOY_KEY, options={}, created_by=player,
                                      seats=[{"player": player.username}, {"bot": "random"}])
        services.forfeit_seat(match=match, seat=1)
    assert rebuild_queries() == before
    assert ratings() == rated
