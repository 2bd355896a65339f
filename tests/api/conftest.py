"""API fixtures: every test here can use the toy game; clients by role for permission tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

# The rows of every permission table: who asks.
ROLES = ["anonymous", "outsider", "seated", "staff"]


@pytest.fixture(autouse=True)
def _toy(toy_game: Any) -> Any:
    return toy_game


@pytest.fixture
def as_role(request: pytest.FixtureRequest) -> Callable[[str], APIClient]:
    """The API client of a role; "seated" is alice, who holds seat 0 of `toy_match`."""
    fixtures = {"anonymous": "anon_api", "outsider": "outsider_api",
                "seated": "player_api", "staff": "organizer_api"}
    return lambda role: request.getfixturevalue(fixtures[role])
