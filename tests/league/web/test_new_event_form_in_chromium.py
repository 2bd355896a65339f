"""The New Event form in a real browser (tests/chromium.py): static/js/league.js offers a
format made for one game alone only while that game is chosen. Skipped where no Chromium
is installed."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from league.models import Season
from tests.chromium import CHROMIUM, signed_in

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

SERIES = "document.querySelector('#id_event-format option[value=showdown_series]')"


def test_the_showdown_series_is_offered_only_while_superstar_showdown_is_chosen(
        live_server: Any, sam: Any, season: Season) -> None:
    with signed_in(live_server.url, sam) as browser:
        browser.open(live_server.url + reverse("league:dashboard"))
        browser.until("document.getElementById('id_event-game')")

        def choose(game: str) -> None:
            browser.js(f"var game = document.getElementById('id_event-game');"
                       f"game.value = '{game}';"
                       "game.dispatchEvent(new Event('change', {bubbles: true}))")

        choose("superstar_showdown")
        assert browser.js(f"{SERIES}.disabled") is False
        browser.js("document.getElementById('id_event-format').value = 'showdown_series'")
        choose("super_showdown")
        assert browser.js(f"{SERIES}.disabled") is True
        # the series chosen before goes back to the first format offered
        assert browser.js("document.getElementById('id_event-format').value") == \
            "single_elimination"
        choose("superstar_showdown")
        assert browser.js(f"{SERIES}.disabled") is False
