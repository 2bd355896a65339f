"""Every test here can use the toy game."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _toy(toy_game: Any) -> Any:
    return toy_game
