"""Full tables of bots complete on the real worker: ten-seat Royal Rumble, six-seat Birdcage."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("royal_rumble", 10, {}),
    ("supershow", 6, {"match_type": "birdcage"}),
])
def test_a_full_table_of_bots_plays_to_the_end(game: str, seats: int,
                                               options: dict[str, Any]) -> None:
    staff = get_user_model().objects.create_user(username=f"{game}-organizer", is_staff=True)
    bots = [("heuristic", "random")[i % 2] for i in range(seats)]
    match = services.create_match(game=game, options=options,
                                  seats=[{"bot": name} for name in bots], created_by=staff)
    deadline = time.monotonic() + 600
    while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
        if time.monotonic() > deadline:
            pytest.fail(f"{game}: the bots never finished")
        time.sleep(0.5)
    match.refresh_from_db()
    assert len(match.result["placements"]) == seats
    assert match.events.filter(kind="decision").exists()
    assert list(match.events.order_by("seq").values_list("seq", flat=True)) == list(
        range(1, match.seq + 1))
