"""An Event filed under a season that does not exist is refused naming the season."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("url", "body"), [
    ("/api/events/", {"name": "Club night", "game": "toy_showdown", "format": "round_robin"}),
    ("/api/events/showdown/", {"preset": "full_card"}),
])
def test_an_unknown_season_is_named_in_the_refusal(organizer_api: APIClient, url: str,
                                                   body: dict[str, Any]) -> None:
    response = organizer_api.post(url, {**body, "season": 99}, format="json")
    assert response.status_code == 400
    assert response.json() == {"code": "invalid",
                               "detail": {"season": ["Season 99 does not exist."]}}
