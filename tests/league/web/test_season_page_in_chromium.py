"""A season's page in headless Chromium (tests/chromium.py) on a phone and a desktop: its
table, as an Event's standings do, shows a phone its rank, names, results and points, and
its other column (the Events each played) once the reader asks. Skipped where no Chromium
is installed."""

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

# The season table's columns shown (their headers' words), whether its box scrolls, the
# toggle above it (shown, open), and how wide the page is.
COLUMNS = """(() => {
  const box = document.getElementById('season-standings-scroll');
  const toggle = document.getElementById('season-columns');
  return {columns: [...box.querySelectorAll('thead th')]
            .filter(th => getComputedStyle(th).display !== 'none')
            .map(th => th.textContent.trim()),
          cells: [...box.querySelectorAll('tbody tr:first-child td')]
            .filter(td => getComputedStyle(td).display !== 'none').length,
          scrolls: box.scrollWidth > box.clientWidth,
          toggle: [getComputedStyle(toggle).display !== 'none', toggle.open],
          wide: document.documentElement.scrollWidth};
})()"""


def test_a_season_table_shows_the_events_played_on_a_phone_only_when_asked(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    """The season's table had no toggle: on a 360px phone its Events column squeezed the
    names into three lines and ran the table past its box. A phone shows rank, name,
    results and points, and the Events played once the reader opens the toggle above the
    table (a <details>, which opens without a script); a desktop shows them all, no
    toggle."""
    event = started_with_four(name="Round robin night", format="round_robin")
    played = EventMatch.objects.filter(event=event).first()
    assert played is not None
    services.forfeit_seat(match=played.match, seat=0)  # a result the season counts
    assert event.season is not None
    with signed_in(live_server.url, player) as tab:
        tab.resize(360, 740)
        tab.open(live_server.url + reverse("league:season", args=[event.season.pk]))
        folded = tab.js(COLUMNS)
        assert folded["columns"] == ["#Rank", "Name", "WWins", "DDraws", "LLosses",
                                     "PtsPoints"]
        assert folded["cells"] == 6 and not folded["scrolls"]
        assert folded["toggle"] == [True, False] and folded["wide"] == 360
        tab.js("document.querySelector('#season-columns summary').click(); true")
        shown = tab.js(COLUMNS)
        assert shown["columns"] == ["#Rank", "Name", "EvEvents", "WWins", "DDraws",
                                    "LLosses", "PtsPoints"]
        assert shown["cells"] == 7 and shown["toggle"] == [True, True]
        assert shown["wide"] == 360
        tab.resize(1280, 900)
        wide = tab.js(COLUMNS)
        assert wide["columns"] == shown["columns"] and wide["toggle"][0] is False
        assert tab.js("document.getElementById('season-standings-scroll')"
                      ".getAttribute('tabindex')") is None  # it fits: no Tab stop
