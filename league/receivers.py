"""The league listens to matches (matches never imports league)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.dispatch import receiver

from config.queue import enqueue
from matches.models import Match
from matches.signals import match_advanced, match_finished, match_sealed


@receiver(match_finished, dispatch_uid="league.match_finished")
def on_match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    """A finished match's result goes to its Event and the ratings, on a worker."""
    from league.tasks import record_result

    enqueue(record_result, match.pk)


@receiver(match_sealed, dispatch_uid="league.match_sealed")
def on_match_sealed(sender: Any, matches: list[Match], **kwargs: Any) -> set[int]:
    """Every match of an Event is dealt the Event's match options, secret decks included,
    so a match that is over keeps them (and the cards they put in its history) hidden
    until its Event is over too."""
    from league.models import Event, EventMatch

    return set(EventMatch.objects.filter(match__in=matches).exclude(
        event__status=Event.Status.FINISHED).values_list("match_id", flat=True))


@receiver(match_advanced, dispatch_uid="league.match_advanced")
def on_match_advanced(sender: Any, match_id: int, seq: int, **kwargs: Any) -> None:
    """A game that scores by rounds has its round scores projected on a worker, and a
    Superstar Showdown Event its Ranking Points."""
    from league.projections import scores_by_round
    from league.showdown import is_event
    from league.tasks import record_ranking_points, record_round_scores

    found = Match.objects.filter(pk=match_id).values_list("game", "options").first()
    if found is None:
        return
    game, options = found
    # One refresh waiting per match is enough: it reads the stream when it runs. The mark
    # expires on its own, so a cache that is not shared only delays a refresh; the end of
    # the match always refreshes (league.tasks.record_result).
    if scores_by_round(game) and cache.add(round_scores_due(match_id), True, timeout=10):
        enqueue(record_round_scores, match_id)
    if is_event(game, options) and _points_may_change(match_id) and cache.add(
            ranking_points_due(match_id), True, timeout=10):
        enqueue(record_ranking_points, match_id)


def _points_may_change(match_id: int) -> bool:
    """Only between an Event's Matches (a Match just ended, a bonus decision) and as a Match
    begins do its Ranking Points move; the state is the one just stored, so this is a
    cache read, and inside a Match one indexed read of its row."""
    from engine.games.superstar_showdown import between_matches
    from league.models import RankingPoints
    from matches import services as match_services

    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match_services.replays(match):
        return False
    state = match_services.load_state(match)
    if between_matches(state):
        return True
    # Inside a Match only its start moves the table, from "pending" to "playing".
    return state.event is not None and RankingPoints.objects.filter(
        match_id=match_id, number=state.event.current + 1).exclude(status="playing").exists()


def round_scores_due(match_id: int) -> str:
    """The cache key that marks a round-score refresh as queued for a match."""
    return f"league:round-scores-due:{match_id}"


def ranking_points_due(match_id: int) -> str:
    """The cache key that marks a Ranking Points refresh as queued for a match."""
    return f"league:ranking-points-due:{match_id}"
