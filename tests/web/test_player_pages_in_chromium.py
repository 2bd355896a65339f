"""The player pages as a phone shows them: headless Chromium at 390px wide (tests/chromium.py)
measures every control and every piece of text on the lobby, each game's play page mid-match
(the seat to move, so its squares, cards and buttons are there), a replay, the public Event
page, a player's page, the ratings table and the account page.

A control is a tap of 44px either way, a game board's squares as large as a phone's width
lets them be (BOARDS); text says something at 14px, or 12px on a game's dense cards and
boards (DENSE), decorative marks aside (DECORATIVE); nothing scrolls sideways. At 1024px the
boards keep their desktop sizes. One Chromium serves the module's tests. Skipped where no
Chromium is installed."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from engine.registry import get_rules
from league import events
from league.models import Player
from matches import services
from matches.models import Match
from tests.chromium import CHROMIUM, TAP, TEXT, WIDTH, Chromium, measure, sign_in, started

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

DENSE_TEXT = 12  # the least size of text on a game's dense cards and boards, in CSS px
# A game's dense cards and boards, where text may be DENSE_TEXT.
DENSE = (".ss-card, .ss-board, .st-card, .st-ring, .st-stats, .st-spots-head, .sx-card, svg, "
         ".rr-card, .us-card")
# Marks that only decorate (a card's back, a start square's star): any size.
DECORATIVE = (".st-back-mark", ".st-star")
# Squares of a board too many across for 44px at 390px: (selector, least side in CSS px).
BOARDS = {".sq-go": 34}
SHOTS = os.environ.get("PHONE_SHOTS")  # a folder: each page's screenshot at 390 and 1024px,
# and faults.json, what the test found wrong

EVENT = {"event": {"matches": [{"match": "tag_team", "stipulation": "standard_1"},
                               {"match": "head_to_head", "stipulation": "hardcore"}],
                   "superstars_per_team": 2}}  # a Superstar Showdown Event: a draft, two matches
# (page, game, options, seats, decisions, what alice's choices must hold to stop there)
GAMES: list[tuple[str, str, dict[str, Any], int, int, Callable[[dict[str, Any]], bool]]] = [
    ("super_showdown", "super_showdown", {}, 2, 6, lambda action: "to" in action),
    ("superstar_showdown", "superstar_showdown", {}, 2, 12,
     lambda action: action["type"] == "play_spots"),
    ("superstar_ring", "superstar_showdown", {}, 2, 20, lambda action: "to" in action),
    ("superstar_draft", "superstar_showdown", EVENT, 2, 1, lambda action: True),
    ("superstar_event", "superstar_showdown", EVENT, 2, 30, lambda action: True),
    ("supershow", "supershow", {"match_type": "birdcage"}, 3, 10, lambda action: True),
    ("royal_rumble", "royal_rumble", {}, 3, 8, lambda action: True),
    ("ultimate_showdown", "ultimate_showdown", {}, 3, 8, lambda action: True),
]


def advance(match: Match, people: list[Any], steps: int, rng: random.Random,
            wanted: Callable[[dict[str, Any]], bool] = lambda action: True) -> None:
    """Play `steps` random decisions, then on until the first seat is to decide with a
    choice that is `wanted` among its own."""
    rules = get_rules(match.game)
    for done in range(steps + 300):
        match.refresh_from_db()
        state = services.load_state(match)
        pending = rules.pending(state)
        if not pending.seats or (done >= steps and 0 in pending.seats and any(
                wanted(action) for action in rules.legal_actions(state, 0))):
            return
        seat = pending.seats[0]
        services.submit_action(match=match, seat=seat, user=people[seat],
                               action=rng.choice(rules.legal_actions(state, seat)))


@pytest.fixture
def shown(live_server: Any, player: Any, player2: Any, outsider: Any, organizer: Any,
          seeded_chance: None) -> dict[str, str]:
    """Each page to measure, by name: alice's lobby, a match of each game where alice is to
    move (seated with people only: a bot seat would move at once here, where every test
    commits, the deals seeded), a finished match's replay, a running Event, its season, the
    seasons, her page, the ratings, her account."""
    rng = random.Random(7)
    people = [player, player2, outsider]
    pages = {"lobby": reverse("lobby"), "account": reverse("account")}
    for name, game, options, seats, steps, wanted in GAMES:
        match = services.create_match(game=game, options=options, created_by=organizer,
                                      seats=[{"player": p.username} for p in people[:seats]])
        advance(match, people, steps, rng, wanted)
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE, name
        pages[name] = reverse("match_play", args=[match.id])
    over = services.create_match(game="super_showdown", options={}, created_by=organizer,
                                 seats=[{"player": player.username},
                                        {"player": player2.username}])
    advance(over, people, 8, rng)
    services.resign(match=over, user=player2)
    pages["replay"] = reverse("match_replay", args=[over.id]) + "?at=6"
    season = events.create_season(name="Spring league", game="super_showdown", by=organizer)
    cup = events.create_event(name="Friday night cup", game="super_showdown",
                              format="round_robin", season=season, by=organizer)
    for user in people:
        events.add_entrant(event=cup, by=organizer, player=user.username)
    events.start_event(event=cup, by=organizer)
    pages["event"] = reverse("league:event", args=[cup.pk])
    pages["season"] = reverse("league:season", args=[season.pk])
    pages["seasons"] = reverse("league:seasons")
    pages["player"] = reverse("league:player", args=[Player.objects.get(user=player).pk])
    pages["ratings"] = reverse("league:ratings") + "?game=super_showdown"
    return pages


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    """One Chromium for the module's tests."""
    with started() as tab:
        yield tab


@pytest.fixture
def phone(browser: Chromium, live_server: Any, player: Any) -> Chromium:
    """The module's Chromium at a phone's width, signed in as alice."""
    sign_in(browser, live_server.url, player)
    browser.resize(WIDTH)
    return browser


def faults(found: dict[str, Any]) -> list[str]:
    """What a phone would find wrong on a page `measure` read."""
    wrong = []
    for control in found["controls"]:
        least = next((side for kind, side in BOARDS.items()
                      if kind[1:] in control["classes"].split()), TAP)
        if min(control["w"], control["h"]) < least:
            wrong.append(f"tap {control['w']:.0f}x{control['h']:.0f} {control['what']}")
    for text in found["texts"]:
        least = DENSE_TEXT if text["dense"] else TEXT
        if text["px"] < least and not any(mark[1:] in text["where"].split()
                                          for mark in DECORATIVE):
            wrong.append(f"text {text['px']}px {text['where']}: {text['text']}")
    if found["wide"] > WIDTH:
        wrong.append(f"the page is {found['wide']}px wide")
    return wrong


def look(phone: Chromium, name: str, wrong: dict[str, list[str]], controls: int = 2) -> None:
    """What a phone would find wrong on the page `phone` shows, its folded sections opened,
    into `wrong` under `name`; its screenshots at 390 and 1024px into SHOTS. At least
    `controls` controls and some text must be there (else the page is not the one meant)."""
    phone.js("document.querySelectorAll('main details').forEach(d => d.open = true)")
    found = measure(phone, DENSE)
    assert len(found["controls"]) >= controls and found["texts"], name
    if found_wrong := sorted(set(faults(found))):
        wrong[name] = found_wrong
    if SHOTS:
        phone.screenshot(Path(SHOTS) / f"{name}-{WIDTH}.png")
        phone.resize(1024, 900)
        phone.screenshot(Path(SHOTS) / f"{name}-1024.png")
        phone.resize(WIDTH)


def test_every_control_is_a_tap_and_every_text_readable_on_a_phone(
        phone: Chromium, live_server: Any, shown: dict[str, str]) -> None:
    wrong: dict[str, list[str]] = {}
    for name, page in shown.items():
        phone.open(live_server.url + page)
        look(phone, name, wrong)
    if SHOTS:
        (Path(SHOTS) / "faults.json").write_text(json.dumps(wrong, indent=1))
    assert wrong == {}
