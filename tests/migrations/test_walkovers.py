"""Migrating to the Walkover table (league 0031): the walkovers of Events where someone
withdrew before it are replayed into it, so the player pages list them without waiting for
`manage.py rebuild_projections`."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league import events
from league.models import Entrant, Walkover

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target: str) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("league", target)])


def test_the_walkovers_of_events_withdrawn_from_before_are_filled_in(
        organizer: Any, player: Any, player2: Any, outsider: Any) -> None:
    event = events.create_event(name="League night", game="super_showdown",
                                format="round_robin", by=organizer)
    for user in (player, player2, outsider, organizer):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    gone = Entrant.objects.get(event=event, player__user=player2).key
    events.withdraw_entrant(event=event, by=organizer, key=gone)
    kept = sorted((w.pairing, tuple(w.entrants), w.winner) for w in Walkover.objects.all())
    assert kept and all(gone in entrants and winner != gone for _, entrants, winner in kept)
    try:
        migrate("0030_standing_position")
        migrate("0031_walkover_projection")
        assert sorted((w.pairing, tuple(w.entrants), w.winner)
                      for w in Walkover.objects.all()) == kept
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
