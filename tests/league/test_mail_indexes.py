"""The mail sweeps' scans read an index of the few rows they look for, not the whole
table (PostgreSQL: `on_postgres`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from league.models import Player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_postgres")]

PLAYERS = 5000


def test_the_confirmation_sweep_reads_the_players_owed_a_link_by_their_index() -> None:
    """A minute apart, the sweep looked for the players owed a link (a handful) through
    every player's row."""
    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"p{n}", password="!") for n in range(PLAYERS))
    Player.objects.bulk_create(
        Player(user=user, display_name=user.username,
               confirm_site="https://league.example.org" if n == 7 else "")
        for n, user in enumerate(users))
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Player._meta.db_table}")
    owed = Player.objects.exclude(confirm_site="").order_by("pk").values_list("user_id",
                                                                               flat=True)
    plan: Any = owed.explain()
    assert "player_confirmation_owed" in plan, plan
    assert list(owed) == [users[7].pk]
