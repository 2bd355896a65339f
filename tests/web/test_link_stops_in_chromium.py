"""A link that ends a sentence on a phone: there it is a box of a tap's height (site.css),
after which a line may break, and the full stop after it must not wrap onto a line of its
own ("Your player page" and, below it, "."). Skipped where no Chromium is installed."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.chromium import CHROMIUM, signed_in, started

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

# Each link in the page's main whose sentence goes on with a stop right after it, and
# whether that stop starts a line below the link's box.
ALONE = """(() => [...document.querySelectorAll('main a')].flatMap(link => {
  const next = link.nextSibling || (link.parentElement.lastChild === link
    ? link.parentElement.nextSibling : null);
  if (!next || next.nodeType !== Node.TEXT_NODE || !/^[.,;:!?]/.test(next.textContent))
    return [];
  const stop = document.createRange();
  stop.setStart(next, 0);
  stop.setEnd(next, 1);
  return [{link: link.textContent.trim(),
           alone: stop.getBoundingClientRect().top >= link.getBoundingClientRect().bottom}];
}))()"""


def stops_alone(browser: Any, url: str) -> list[str]:
    """At each phone width from 300 to 480px, the links of the page at `url` whose stop
    wrapped alone, as "WIDTHpx LINK"."""
    browser.open(url)
    alone = []
    for width in range(300, 481, 4):
        browser.resize(width)
        alone += [f"{width}px {found['link']}" for found in browser.js(ALONE)
                  if found["alone"]]
    return alone


def test_the_stop_after_a_link_stays_on_its_line_on_a_phone(live_server: Any,
                                                           player: Any) -> None:
    with signed_in(live_server.url, player) as browser:
        account = live_server.url + reverse("account")
        browser.open(account)
        assert browser.js(ALONE), "the account page's link to the player page ends a sentence"
        assert stops_alone(browser, account) == []
    with started() as browser:
        for name in ("login", "register"):
            assert stops_alone(browser, live_server.url + reverse(name)) == []
