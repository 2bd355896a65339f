"""An eight-bot Ultimate Showdown completes on the worker, its round scores projected."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model

from league.models import RoundScore
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_eight_bot_ultimate_showdown_completes_with_its_scores() -> None:
    staff = get_user_model().objects.create_user(username="us-organizer", is_staff=True)
    bots = ["heuristic", "random"] * 4
    match = services.create_match(game="ultimate_showdown", options={},
                                  seats=[{"bot": name} for name in bots], created_by=staff)
    deadline = time.monotonic() + 300
    while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
        if time.monotonic() > deadline:
            pytest.fail("the bots never finished the game")
        time.sleep(0.5)
    match.refresh_from_db()
    # The last round's scores are projected by a task of their own: give it a moment.
    while RoundScore.objects.filter(match=match).count() < 8 * 5:
        if time.monotonic() > deadline:
            pytest.fail("the round scores were never projected")
        time.sleep(0.2)
    for seat in range(8):
        points = RoundScore.objects.filter(match=match, seat=seat).values_list("points",
                                                                             flat=True)
        assert sum(points) == match.result["figures"][str(seat)]["score"]
