"""A refused Superstar Showdown play in headless Chromium (tests/chromium.py), the page's
script on: the refusal htmx swaps in is read out as an alert, and each spot's select it
concerns is described by it and marked invalid, the first of them focused, so a screen
reader lands on what to mend and hears why; the refusal is also seen beside the spots
(the alert is far above them on a phone). Skipped where no Chromium is installed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse

from matches import services
from tests.chromium import CHROMIUM, Chromium, sign_in, started

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tab(live_server: Any, player: Any) -> Iterator[Chromium]:
    """Chromium signed in as alice."""
    with started() as browser:
        sign_in(browser, live_server.url, player)
        yield browser


# The same card chosen on the first and last spots, and the play sent as a click on its
# button does.
SEND_TWICE = """(() => {
  const spots = [...document.querySelectorAll('.st-play-form select')];
  spots[0].value = spots[2].value = spots[0].options[1].value;
  spots[1].value = spots[1].options[2].value;
  spots[0].form.querySelector('button[type=submit]').click();
  return spots.length;
})()"""

# Each spot's select as a screen reader reads it: what describes it, whether invalid, and
# whether focus is on it.
SPOTS = """(() => [...document.querySelectorAll('.st-play-form select')].map(spot => {
  const ids = (spot.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
  return {invalid: spot.getAttribute('aria-invalid'), focused: document.activeElement === spot,
          described: ids.map(id => { const el = document.getElementById(id);
            return el ? [el.getAttribute('role'), el.textContent.trim()] : null; })};
}))()"""


def test_a_refused_play_marks_the_spots_it_concerns_and_focuses_the_first(
        tab: Chromium, live_server: Any, player: Any) -> None:
    match = services.create_match(game="superstar_showdown", options={},
                                  seats=[{"player": player.username}, {"bot": "random"}],
                                  created_by=player)
    tab.open(live_server.url + reverse("match_play", args=[match.id]))
    tab.until("document.querySelector('.st-play-form select')")
    assert all(spot["invalid"] is None and spot["described"] == [] for spot in tab.js(SPOTS))
    assert tab.js(SEND_TWICE) == 3
    tab.until("document.querySelector('#match-state .error-banner[role=alert]')")
    tab.until("document.readyState === 'complete' && !document.querySelector('.htmx-settling')")
    first, middle, last = tab.js(SPOTS)
    for spot in (first, last):
        assert spot["invalid"] == "true"
        [(role, said)] = spot["described"]
        assert role == "alert" and said.endswith("(duplicate_card)")
    assert middle == {"invalid": None, "focused": False, "described": []}
    assert first["focused"] and not last["focused"]
    assert services.moves_of(match, 0) == 0
    # On a phone the page's alert is far above the spots: the refusal is seen beside them.
    seen = tab.js("""[...document.querySelectorAll('.error-banner')].filter(banner => {
      const box = banner.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight;
    }).map(banner => banner.textContent.trim())""")
    assert [said for said in seen if said.endswith("(duplicate_card)")]
    # ... and not a third time below the view, where every game's page says it again.
    assert tab.js("getComputedStyle(document.querySelector('.refusal-note')).display") == "none"
