"""Times typed in the organizer's own time zone, in a real browser set to London
(tests/chromium.py): static/js/league.js sends the zone with the time. Skipped where no
Chromium is installed."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from league.models import Event
from tests.chromium import CHROMIUM, signed_in

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

ERROR = "(document.getElementById('details-error') || {}).textContent"


def test_a_time_the_clocks_skip_where_the_organizer_types_it_is_refused(
        live_server: Any, sam: Any, cup: Event) -> None:
    with signed_in(live_server.url, sam) as browser:
        browser.tab("Emulation.setTimezoneOverride", timezoneId="Europe/London")
        browser.open(live_server.url + reverse("league:event_admin", args=[cup.pk]))
        browser.until("document.getElementById('details-starts-at')")
        browser.js("document.getElementById('details-starts-at').value = '2037-03-29T01:30'")
        browser.js("document.getElementById('details-save').click()")
        browser.until("document.getElementById('details-error')")
        assert "There is no 01:30 on 29 Mar 2037 in Europe/London" in browser.js(ERROR)
        assert Event.objects.get(pk=cup.pk).starts_at is None
        browser.js("document.getElementById('details-starts-at').value = '2037-03-29T02:30'")
        browser.js("document.getElementById('details-save').click()")
        browser.until("!document.getElementById('details-error')")
    # 02:30 BST is 01:30 UTC
    assert Event.objects.get(pk=cup.pk).starts_at.isoformat() == "2037-03-29T01:30:00+00:00"
