"""Migrating the stored addresses to their domains in ASCII (league 0022): an account's
address and one waiting for its confirmation, spelt in Unicode or in capitals before, are
stored as league.services.normalized_email stores them now; the rest are left as they were."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.models import Player
from league.services import player_for

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target: str) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate([("league", target)])
    executor.loader.build_graph()
    return executor.loader.project_state([("league", target)]).apps


def test_the_stored_domains_are_written_in_ascii(player: Any, player2: Any,
                                                  outsider: Any) -> None:
    for user, email, pending in ((player, "Alice@Bücher.Example", "a2@ÉCOLE.example"),
                                 (player2, "bruno@example.org", ""),
                                 (outsider, "", "")):
        type(user).objects.filter(pk=user.pk).update(email=email)
        player_for(user)
        Player.objects.filter(user=user).update(pending_email=pending)
    try:
        migrate("0021_reminder_tries")
        apps = migrate("0022_email_domains_in_ascii")
        User = apps.get_model("auth", "User")
        rows = {u.username: (u.email, u.player.pending_email)
                for u in User.objects.select_related("player")}
        assert rows == {"alice": ("Alice@xn--bcher-kva.example", "a2@xn--cole-9oa.example"),
                        "bruno": ("bruno@example.org", ""), "olga": ("", "")}
        migrate("0021_reminder_tries")  # back: nothing to undo
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
