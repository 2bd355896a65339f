"""Keyboard focus on the play page in headless Chromium (tests/chromium.py): a keyboard
user on a control that a rival's move, brought by the page's poll, leaves in place (the
log's replay link, a folded section's summary) stays on it; focus went to the status
line, away from what they were reading. Skipped where no Chromium is installed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse

from engine.registry import get_rules
from matches import services
from matches.models import Match
from tests.chromium import CHROMIUM, Chromium, sign_in, started

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tab(live_server: Any, player: Any) -> Iterator[Chromium]:
    """Chromium signed in as alice."""
    with started() as browser:
        sign_in(browser, live_server.url, player)
        yield browser


def until_alice_waits(match: Match, people: list[Any]) -> None:
    """Play first legal actions until bruno (seat 1) alone is to decide."""
    rules = get_rules(match.game)
    for _ in range(100):
        match.refresh_from_db()
        state = services.load_state(match)
        pending = rules.pending(state)
        if list(pending.seats) == [1]:
            return
        seat = pending.seats[0]
        services.submit_action(match=match, seat=seat, user=people[seat],
                               action=rules.legal_actions(state, seat)[0])
    raise AssertionError("alice never waited for bruno")


@pytest.mark.parametrize("control", ["section.log h2 a", ".ss-reference > summary"])
def test_focus_stays_on_a_control_a_rivals_move_leaves_in_place(
        tab: Chromium, live_server: Any, player: Any, player2: Any, organizer: Any,
        control: str) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=organizer,
                                  seats=[{"player": player.username},
                                         {"player": player2.username}])
    until_alice_waits(match, [player, player2])
    tab.open(live_server.url + reverse("match_play", args=[match.id]))
    focused = f"document.activeElement.matches({json.dumps(control)})"
    tab.js(f"document.querySelector({json.dumps(control)}).focus();"
           "window.before = document.getElementById('match-state'); true")
    assert tab.js(focused)
    rules = get_rules(match.game)
    services.submit_action(match=match, seat=1, user=player2,
                           action=rules.legal_actions(services.load_state(match), 1)[0])
    tab.until("document.getElementById('match-state') !== window.before")
    tab.until("document.readyState === 'complete' && !document.querySelector('.htmx-settling')")
    assert tab.js(focused), tab.js("document.activeElement.outerHTML.slice(0, 80)")
