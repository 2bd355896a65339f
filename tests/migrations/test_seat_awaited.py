"""Migrating live matches to `Seat.awaited`: the seats they wait for are marked by
replaying their streams, so the lobby and `?awaiting=` know whose move it is at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from matches import services

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target: str) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate([("matches", target)])
    executor.loader.build_graph()
    return executor.loader.project_state([("matches", target)]).apps


def test_the_migration_marks_the_seats_each_live_match_waits_for(player: Any,
                                                                 player2: Any) -> None:
    made = []
    for _ in range(2):
        match = services.create_match(
            game="super_showdown", options={}, created_by=player,
            seats=[{"player": player.username}, {"player": player2.username}])
        services.join_match(match=match, user=player2)
        made.append(match)
    live, forfeited = made
    services.forfeit_seat(match=forfeited, seat=0)
    pending = services.match_state(match=live, user=None)["pending"]["seats"]
    assert pending  # a person is to decide

    migrate("0006_rules_version")
    try:
        Seat = migrate("0007_seat_awaited").get_model("matches", "Seat")
        marked = {(s.match_id, s.index) for s in Seat.objects.filter(awaited=True)}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert marked == {(live.pk, seat) for seat in pending}
