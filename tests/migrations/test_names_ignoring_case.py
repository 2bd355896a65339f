"""Migrating a database whose names differ only in case: the older admin wrote them
before usernames and team names were unique ignoring case."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("league", "0005_simulations")]
AFTER = [("league", "0006_names_unique_ignoring_case")]


def migrate(targets: list[tuple[str, Any]]) -> Apps:
    """Migrate the test database to `targets`; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def old_schema() -> Any:
    """The schema before 0006; put back to the latest afterwards."""
    yield migrate(BEFORE)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_names_equal_ignoring_case_are_renamed_and_the_migration_applies(old_schema):
    User = old_schema.get_model("auth", "User")
    Team = old_schema.get_model("league", "Team")
    alice = User.objects.create(username="alice")
    Alice = User.objects.create(username="Alice")
    taken = User.objects.create(username="ALICE-2")  # the first free number is 3
    red = Team.objects.create(name="Red Rockets")
    red2 = Team.objects.create(name="red rockets")
    Team.objects.create(name="x" * 64)
    long = Team.objects.create(name="X" * 64)  # cut to take its number

    apps = migrate(AFTER)

    users = dict(apps.get_model("auth", "User").objects.values_list("pk", "username"))
    assert users[alice.pk] == "alice"
    assert users[Alice.pk] == "Alice-3"
    assert users[taken.pk] == "ALICE-2"
    teams = dict(apps.get_model("league", "Team").objects.values_list("pk", "name"))
    assert teams[red.pk] == "Red Rockets"
    assert teams[red2.pk] == "red rockets (2)"
    assert teams[long.pk] == "X" * 60 + " (2)"

