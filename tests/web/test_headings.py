"""Play and replay pages: headings go down one level at a time, whoever reads them.

A section's h3 under no h2 (a spectator has no 'Your hand' to sit under) reads to a
screen reader's heading list as a level skipped; each game is stepped through its replay
by an outsider, so every phase's sections are met (a draft, a bracket, the piles).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches import services

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = [
    ("super_showdown", {}, 2),
    ("superstar_showdown", {}, 2),
    ("supershow", {"match_type": "birdcage"}, 3),
    ("royal_rumble", {}, 3),
    ("ultimate_showdown", {}, 3),
]


def skipped_levels(page: str) -> list[str]:
    """Each heading that lies more than one level below the one before it."""
    skips, last = [], 0
    for level, text in re.findall(r"<h([1-6])[^>]*>(.*?)</h\1>", page, re.S):
        if last and int(level) > last + 1:
            skips.append(f"h{level} {re.sub('<[^>]+>', '', text).strip()!r} after h{last}")
        last = int(level)
    return skips


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=[g for g, _, _ in GAMES])
def test_no_heading_skips_a_level_on_any_step_of_a_match(
        outsider_client: Client, game: str, options: dict[str, Any], seats: int) -> None:
    match = services.create_match(game=game, options=options, created_by=None,
                                  seats=[{"bot": "random"}] * seats)
    match.refresh_from_db()
    assert match.status == "finished"
    url = reverse("match_replay", args=[match.id])
    steps = sorted(set(range(0, match.seq + 1, max(1, match.seq // 60))) | {match.seq})
    for at in steps:
        page = outsider_client.get(url, {"at": at}).content.decode()
        assert skipped_levels(page) == [], f"step {at}"
    page = outsider_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert skipped_levels(page) == []
