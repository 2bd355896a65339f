"""The lobby in headless Chromium (tests/chromium.py), as a keyboard user follows it: focus
on a match's link, which the lobby's poll takes away once the match ended, goes on to the
Your matches card; it fell to the page's top. Skipped where no Chromium is installed."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from matches import services
from tests.chromium import CHROMIUM, signed_in
from tests.conftest import accepted

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]


def test_focus_on_a_match_the_poll_takes_away_goes_to_the_your_matches_card(
        live_server: Any, player: Any, player2: Any) -> None:
    match = accepted(services.create_match(game="super_showdown", options={},
                                           created_by=player,
                                           seats=[{"player": player.username},
                                                  {"player": player2.username}]))
    with signed_in(live_server.url, player) as tab:
        tab.open(live_server.url + reverse("lobby"))
        tab.js(f"document.getElementById('match-{match.id}-play').focus(); true")
        services.resign(match=match, user=player2)
        tab.until(f"document.getElementById('match-{match.id}-play') === null", 12)
        tab.until("document.activeElement.matches('#your-matches h2')", 3)
