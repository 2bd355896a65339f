"""The organizer page in headless Chromium (tests/chromium.py), as a screen reader user
follows it: a result the live list's poll brings is read out from its live region, as
the public page's poll reads it. Skipped where no Chromium is installed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from league.models import Event, EventMatch
from matches import services
from tests.chromium import CHROMIUM, signed_in

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]


def test_a_result_the_live_lists_poll_brings_is_read_out(
        live_server: Any, started_with_four: Callable[..., Event], sam: Any,
        player: Any) -> None:
    event = started_with_four(name="Swiss night", format="swiss",
                              format_options={"rounds": 2})
    mine = EventMatch.objects.get(event=event, match__seats__user=player)
    with signed_in(live_server.url, sam) as tab:
        tab.open(live_server.url + reverse("league:event_admin", args=[event.pk]))
        assert tab.js("document.getElementById('event-announce').textContent.trim()") == ""
        rival = mine.match.seats.exclude(user=player).get()
        services.forfeit_seat(match=mine.match, seat=rival.index)  # alice wins
        tab.until("document.getElementById('event-announce').textContent.trim() !== ''", 12)
        said = tab.js("document.getElementById('event-announce').textContent")
        # (the poll sent what the page showed: the result alone, not every match again)
        assert said.endswith(f": {player.username} won. ") and "New match" not in said
        assert said.count(" won.") == 1
