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


@pytest.mark.parametrize("control", ["#log-replay", ".ss-reference > summary"])
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


def until_all_decide(match: Match, people: list[Any]) -> None:
    """Play first legal actions until alice (seat 0) and another seat decide at once."""
    rules = get_rules(match.game)
    for _ in range(200):
        match.refresh_from_db()
        state = services.load_state(match)
        pending = rules.pending(state)
        if 0 in pending.seats and len(pending.seats) > 1 \
                and len(rules.legal_actions(state, 0)) > 1:
            return
        seat = pending.seats[0]
        services.submit_action(match=match, seat=seat, user=people[seat],
                               action=rules.legal_actions(state, seat)[0])
    raise AssertionError("alice never decided at once with another seat")


@pytest.mark.parametrize(("game", "seats"), [("super_showdown", 2), ("ultimate_showdown", 3)])
def test_focus_stays_on_a_choice_while_a_rival_decides_at_the_same_time(
        tab: Chromium, live_server: Any, player: Any, player2: Any, outsider: Any,
        organizer: Any, game: str, seats: int) -> None:
    """A keyboard user going through their choices (simultaneous decisions: a plan, a
    vote, a bet) while a rival makes theirs: the poll brings the rival's decision and the
    same choices; focus stayed on none of them, but went to the status line."""
    people = [player, player2, outsider][:seats]
    match = services.create_match(game=game, options={}, created_by=organizer,
                                  seats=[{"player": p.username} for p in people])
    until_all_decide(match, people)
    tab.open(live_server.url + reverse("match_play", args=[match.id]))
    choice = "document.querySelectorAll('#match-state form.action-form button[type=submit]')[1]"
    named = tab.js(f"{choice}.focus(); window.before = document.getElementById('match-state');"
                   f"{choice}.getAttribute('aria-label') || {choice}.textContent.trim()")
    rules = get_rules(game)
    state = services.load_state(match)
    rival = next(seat for seat in rules.pending(state).seats if seat)
    services.submit_action(match=match, seat=rival, user=people[rival],
                           action=rules.legal_actions(state, rival)[0])
    tab.until("document.getElementById('match-state') !== window.before")
    tab.until("!document.querySelector('.htmx-settling')")
    focused = "document.activeElement"
    assert tab.js(f"{focused}.getAttribute('aria-label') || {focused}.textContent.trim()") \
        == named
