"""Migrating `Event.reminded` from entries to players (league 0020): whoever was reminded
through an entry (alone, or a team's member) is not reminded again, and back."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league import events
from league.models import Event, Team
from league.services import player_for

pytestmark = pytest.mark.django_db(transaction=True)

STAMP = "2037-12-10T18:30:00+00:00"


def migrate(target: str) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate([("league", target)])
    executor.loader.build_graph()
    return executor.loader.project_state([("league", target)]).apps


def test_the_entries_reminded_become_their_players_and_back(organizer: Any, player: Any,
                                                            player2: Any,
                                                            outsider: Any) -> None:
    event = events.create_event(name="Thursday Night", game="super_showdown",
                                format="round_robin", by=organizer)
    team = Team.objects.create(name="Owls")
    team.members.set([player_for(player2), player_for(outsider)])
    events.add_entrant(event=event, by=organizer, player=player.username)  # e1
    events.add_entrant(event=event, by=organizer, team="Owls")  # e2
    events.add_entrant(event=event, by=organizer, bot="random")  # e3, never reminded
    alice, bruno, olga = (str(player_for(user).pk) for user in (player, player2, outsider))
    Event.objects.filter(pk=event.pk).update(
        reminded={alice: STAMP, bruno: "moved:" + STAMP, olga: "moved:" + STAMP})
    try:
        before = migrate("0019_player_time_zone").get_model("league", "Event")
        assert before.objects.get(pk=event.pk).reminded == {"e1": STAMP,
                                                            "e2": "moved:" + STAMP}
        after = migrate("0020_reminders_by_player").get_model("league", "Event")
        assert after.objects.get(pk=event.pk).reminded == {
            alice: STAMP, bruno: "moved:" + STAMP, olga: "moved:" + STAMP}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
