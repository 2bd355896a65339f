"""Migrating to `SeasonStanding.event` (league 0034): the season tables holding a bot's row
are written again from their Events' streams, so each bot's row names its Event without
waiting for `manage.py rebuild_projections`."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league import events

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target: str) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate([("league", target)])
    executor.loader.build_graph()
    return executor.loader.project_state([("league", target)]).apps


def test_each_bots_row_is_given_its_event(organizer: Any, player: Any) -> None:
    season = events.create_season(name="Autumn", game="super_showdown", by=organizer)
    made = []
    for week in ("Week 1", "Week 2"):
        event = events.create_event(name=week, game="super_showdown", format="round_robin",
                                    by=organizer, season=season)
        events.add_entrant(event=event, by=organizer, player=player.username)
        events.add_entrant(event=event, by=organizer, bot="random", name="Random")
        events.start_event(event=event, by=organizer)
        made.append(event.pk)

    migrate("0033_team_player_chosen")
    try:
        Standing = migrate("0034_season_standing_bot_event").get_model("league",
                                                                       "SeasonStanding")
        rows = sorted(Standing.objects.values_list("name", "event_id"),
                      key=lambda row: (row[0], row[1] or 0))
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert rows == [("Random", made[0]), ("Random", made[1]), ("alice", None)]
