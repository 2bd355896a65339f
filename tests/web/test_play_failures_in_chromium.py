"""A move the server does not answer with the match, in a real browser (tests/chromium.py):
htmx swaps nothing then, so static/js/play.js says above the table that the move was not
made. Skipped where no Chromium is installed."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from matches import services
from tests.chromium import CHROMIUM, signed_in

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

BANNER = "(document.getElementById('match-unsent') || {}).textContent"
# The note said again above the moves: its words, whether hidden from screen readers, and
# whether the section of the button pressed comes next.
NOTE = """(() => { const note = document.getElementById('match-unsent-note');
  const button = document.querySelector('#match-state form.action-form button');
  return note && {said: note.textContent, hidden: note.getAttribute('aria-hidden'),
                  beforeMoves: note.nextElementSibling === button.closest('section')}; })()"""


def broken(**kwargs: Any) -> int:
    raise RuntimeError("the server fails")


def test_a_move_the_server_answers_with_an_error_says_it_was_not_made(
        live_server: Any, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"}])
    with signed_in(live_server.url, player) as browser:
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        browser.until("document.querySelector('#match-state form.action-form button')")
        assert browser.js(BANNER) is None
        monkeypatch.setattr(services, "submit_action", broken)  # the server fails it
        browser.js("document.querySelector('#match-state form.action-form button').click()")
        browser.until("document.getElementById('match-unsent')")
        said = browser.js(BANNER)
        assert said.startswith("Your move was not made") and "(500)" in said
        assert browser.js("document.getElementById('match-unsent').getAttribute('role')") \
            == "alert"
        # Said again just above the moves, hidden from screen readers (the alert says it).
        assert browser.js(NOTE) == {"said": said, "hidden": "true", "beforeMoves": True}


def test_a_move_that_gets_no_answer_says_it_was_not_sent(
        live_server: Any, player: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"}])
    with signed_in(live_server.url, player) as browser:
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        browser.until("document.querySelector('#match-state form.action-form button')")
        browser.tab("Network.emulateNetworkConditions", offline=True, latency=0,
                    downloadThroughput=-1, uploadThroughput=-1)
        browser.js("document.querySelector('#match-state form.action-form button').click()")
        browser.until("document.getElementById('match-unsent')")
        assert browser.js(BANNER).startswith("Your move was not sent")
        assert browser.js(NOTE)["said"] == browser.js(BANNER)
        assert services.moves_of(match, 0) == 0
