"""Migrating to `Match.finished_at` (matches 0014): a match finished before it was kept
takes its row's last save, the nearest time the database holds; a live one has none."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target: str) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate([("matches", target)])
    executor.loader.build_graph()
    return executor.loader.project_state([("matches", target)]).apps


def test_a_match_finished_before_takes_its_last_save(player: Any, player2: Any) -> None:
    made = []
    for _ in range(2):
        match = services.create_match(
            game="super_showdown", options={}, created_by=player,
            seats=[{"player": player.username}, {"player": player2.username}])
        services.join_match(match=match, user=player2)
        made.append(match)
    live, forfeited = made
    services.forfeit_seat(match=forfeited, seat=0)
    saved = Match.objects.get(pk=forfeited.pk).updated_at

    migrate("0013_departure")
    try:
        Matches = migrate("0014_match_finished_at").get_model("matches", "Match")
        filled = dict(Matches.objects.values_list("pk", "finished_at"))
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert filled == {forfeited.pk: saved, live.pk: None}
