"""Superstar Showdown's ring in headless Chromium (tests/chromium.py), at a phone's width
and a desktop's: the play page of a two-player match and of an Event's tag team match,
where a seat may step or shove onto squares of the ring.

The ring is 9 squares across (engine/games/superstar_showdown/data/ring.yaml), wider at 44px
a square than a phone's 390px: each square a player may tap is a tap of 44px either way, the
ring scrolls sideways in its own box (the page does not), each of those squares can be
scrolled to and tapped there (nothing lies over it), they show without scrolling when they
fit (the page scrolls the ring to them), a rival's move leaves the ring scrolled where the
player left it, an edge of the ring's box with more of the ring past it fades, and the
ring's row and column numbers and miniatures' letters read at 14px. On a desktop the whole
ring shows at its size, unscrolled, every square alike (a live Tag Zone's too). Skipped
where no Chromium is installed."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse

from engine.registry import get_rules
from matches import services
from matches.models import Match
from tests.chromium import CHROMIUM, TAP, TEXT, WIDTH, Chromium, sign_in, started

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

DESKTOP = 1280  # a desktop's width in CSS px
SQUARE = 46  # a ring square's side on a desktop (2.9rem), as it was before phones had 44px
EVENT = {"event": {"matches": [{"match": "tag_team", "stipulation": "standard_1"},
                               {"match": "head_to_head", "stipulation": "hardcore"}],
                   "superstars_per_team": 2}}  # a draft, then a tag team match
BOARD = frozenset({"step", "shove"})  # the actions drawn as squares of the ring

# The ring as the page draws it: the squares the player may tap (their boxes, whether the point
# at each one's middle, once scrolled to, is that square's own), the ring's scroll box, its
# text's sizes (a start square's star only decorates), and how wide the page is.
RING = """(() => {
  const box = document.querySelector('.st-ring-box');
  const taps = [...document.querySelectorAll('.st-ring .sq-go')].map(el => {
    el.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {what: el.getAttribute('aria-label'), w: r.width, h: r.height,
            hit: !!hit && el.contains(hit), left: r.left, right: r.right};
  });
  box.scrollLeft = 0;
  const texts = [];
  const walk = document.createTreeWalker(document.querySelector('.st-ring'), NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest('.visually-hidden, .st-star')) continue;
    texts.push({text: node.textContent.trim(), px: parseFloat(getComputedStyle(el).fontSize)});
  }
  const squares = [...document.querySelectorAll('.st-ring td')].map(
    td => td.getBoundingClientRect());
  const frame = box.getBoundingClientRect();
  return {taps: taps, texts: texts, wide: document.documentElement.scrollWidth,
          box: {left: frame.left, right: frame.right, scrolls: box.scrollWidth > box.clientWidth,
                overflow: getComputedStyle(box).overflowX},
          square: {w: Math.min(...squares.map(s => s.width)),
                   h: Math.min(...squares.map(s => s.height)),
                   most: Math.max(...squares.map(s => Math.max(s.width, s.height)))}};
})()"""


# The squares the player may tap as the page first shows them, scrolled as it scrolls itself:
# each one's left and right edge, and the ring's box's.
SHOWN = """(() => {
  const frame = document.querySelector('.st-ring-box').getBoundingClientRect();
  return {box: [frame.left, frame.right], taps: [...document.querySelectorAll('.st-ring .sq-go')]
    .map(el => { const r = el.getBoundingClientRect(); return [r.left, r.right]; })};
})()"""


@pytest.fixture
def tab() -> Iterator[Chromium]:
    with started() as browser:
        yield browser


def to_the_ring(match: Match, people: list[Any], seat: int, seed: int) -> None:
    """Random decisions (seeded) until `seat` is to decide and may step or shove."""
    rules = get_rules(match.game)
    rng = random.Random(seed)
    for _ in range(400):
        match.refresh_from_db()
        state = services.load_state(match)
        pending = rules.pending(state)
        assert pending.seats, "the match ended first"
        if seat in pending.seats and any(action.get("type") in BOARD
                                         for action in rules.legal_actions(state, seat)):
            return
        due = pending.seats[0]
        services.submit_action(match=match, seat=due, user=people[due],
                               action=rng.choice(rules.legal_actions(state, due)))
    raise AssertionError(f"seat {seat} never came to the ring")


@pytest.fixture(params=[("match", 0), ("match", 1), ("event", 0), ("event", 1)],
                ids=["match-red", "match-blue", "event-red", "event-blue"])
def ring(request: pytest.FixtureRequest, tab: Chromium, live_server: Any, player: Any,
         player2: Any, organizer: Any, seeded_chance: None) -> str:
    """The play page where a seat may step or shove, signed in as that seat's player: a
    two-player match's (Red starts by the ring's left edge, Blue by its right), or an
    Event's tag team match's (Inactive teammates in the Tag Zones, Blue's on the ring's
    rightmost column, which a phone shows only once the ring is scrolled)."""
    kind, seat = request.param
    people = [player, player2]
    match = services.create_match(game="superstar_showdown",
                                  options=EVENT if kind == "event" else {},
                                  created_by=organizer,
                                  seats=[{"player": p.username} for p in people])
    to_the_ring(match, people, seat, seed=3)
    sign_in(tab, live_server.url, people[seat])
    return str(live_server.url + reverse("match_play", args=[match.id]))


def measured(tab: Chromium, url: str, width: int) -> dict[str, Any]:
    tab.resize(width, 900)
    tab.open(url)
    return dict(tab.js(RING))


def test_each_square_a_player_may_tap_is_a_tap_on_a_phone(tab: Chromium, ring: str) -> None:
    found = measured(tab, ring, WIDTH)
    assert found["taps"], "no square to tap"
    small = [f"{t['w']:.1f}x{t['h']:.1f} {t['what']}" for t in found["taps"]
             if min(t["w"], t["h"]) < TAP]
    assert small == []
    assert [t["what"] for t in found["taps"] if not t["hit"]] == []
    assert [t["what"] for t in found["taps"] if t["left"] < 0 or t["right"] > WIDTH] == []
    assert found["wide"] <= WIDTH
    assert found["box"]["left"] >= 0 and found["box"]["right"] <= WIDTH
    assert found["box"]["scrolls"] and found["box"]["overflow"] == "auto"
    assert [f"{t['px']}px {t['text']}" for t in found["texts"] if t["px"] < TEXT] == []


def test_the_squares_a_player_may_tap_show_unscrolled_when_they_fit(
        tab: Chromium, ring: str) -> None:
    tab.resize(WIDTH, 900)
    tab.open(ring)
    shown = tab.js(SHOWN)
    left, right = shown["box"]
    span = max(r for _, r in shown["taps"]) - min(x for x, _ in shown["taps"])
    if span <= right - left:
        assert [tap for tap in shown["taps"] if tap[0] < left or tap[1] > right] == []


def test_the_ring_on_a_desktop_shows_whole_at_its_size(tab: Chromium, ring: str) -> None:
    found = measured(tab, ring, DESKTOP)
    assert found["taps"]
    assert not found["box"]["scrolls"] and found["wide"] <= DESKTOP
    square = found["square"]
    assert square["w"] >= SQUARE and square["h"] >= SQUARE, json.dumps(square)
    assert square["most"] - min(square["w"], square["h"]) < 1, json.dumps(square)
    assert all(min(t["w"], t["h"]) >= TAP and t["hit"] for t in found["taps"])


def test_a_rivals_move_leaves_the_ring_scrolled_where_the_player_left_it(
        tab: Chromium, live_server: Any, player: Any, player2: Any, organizer: Any,
        seeded_chance: None) -> None:
    people = [player, player2]
    match = services.create_match(game="superstar_showdown", options={}, created_by=organizer,
                                  seats=[{"player": p.username} for p in people])
    to_the_ring(match, people, 1, seed=3)
    rules = get_rules(match.game)
    state = services.load_state(match)
    assert rules.pending(state).seats == (1,), "alice has a choice too"
    sign_in(tab, live_server.url, player)
    tab.resize(WIDTH, 900)
    tab.open(live_server.url + reverse("match_play", args=[match.id]))
    left = tab.js("const box = document.querySelector('.st-ring-box');"
                  "box.scrollLeft = box.scrollWidth; window.before = box; box.scrollLeft")
    assert left > 0
    step = next(action for action in rules.legal_actions(state, 1)
                if action.get("type") in BOARD)
    services.submit_action(match=match, seat=1, user=player2, action=step)
    tab.until("document.querySelector('.st-ring-box') !== window.before")
    assert tab.js("document.querySelector('.st-ring-box').scrollLeft") == left


def test_an_edge_of_the_ring_with_more_past_it_fades_on_a_phone(
        tab: Chromium, ring: str) -> None:
    tab.resize(WIDTH, 900)
    tab.open(ring)
    edges = ("[...document.querySelector('.st-ring-box').classList]"
             ".filter(name => name.startsWith('more-'))")
    faded = ("getComputedStyle(document.querySelector('.st-ring-box')).maskImage"
             " !== 'none'")
    tab.js("document.querySelector('.st-ring-box').scrollLeft = 0; true")
    tab.until(f"{edges}.join() === 'more-right'")
    assert tab.js(faded)
    tab.js("const box = document.querySelector('.st-ring-box');"
           "box.scrollLeft = box.scrollWidth; true")
    tab.until(f"{edges}.join() === 'more-left'")
    tab.resize(DESKTOP, 900)
    tab.until(f"{edges}.length === 0")
    assert not tab.js(faded)


# The ring's box: its tabindex, the button focus is on (its name), and how far it is
# scrolled.
RING_BOX = """(() => {
  const box = document.querySelector('.st-ring-box');
  return {tabindex: box.getAttribute('tabindex'), left: box.scrollLeft,
          focused: document.activeElement.getAttribute('aria-label'),
          scrolls: box.scrollWidth > box.clientWidth};
})()"""


def test_the_ring_is_a_tab_stop_on_a_phone_only_where_it_holds_no_square_to_tap(
        tab: Chromium, live_server: Any, player: Any, player2: Any, organizer: Any,
        seeded_chance: None) -> None:
    """The ring's box, scrolling on a phone, was a Tab stop before the squares a player may
    tap, each of which Tab reaches anyway (the browser scrolling it into view): Tab goes
    from what comes before the ring to its first square, and the arrow keys on a square
    scroll the ring. The rival, who has no square to tap, tabs to the box to scroll it."""
    people = [player, player2]
    match = services.create_match(game="superstar_showdown", options={}, created_by=organizer,
                                  seats=[{"player": p.username} for p in people])
    to_the_ring(match, people, 0, seed=3)
    url = live_server.url + reverse("match_play", args=[match.id])
    sign_in(tab, live_server.url, player)
    tab.resize(WIDTH, 900)
    tab.open(url)
    found = tab.js(RING_BOX)
    assert found["scrolls"] and found["tabindex"] is None
    first = tab.js("document.querySelector('.st-ring .sq-go').getAttribute('aria-label')")
    # From the control before the ring (the last one before it in the page), Tab goes on
    # to the ring's first square.
    tab.js("""(() => {
      const ring = document.querySelector('.st-ring-box');
      const before = [...document.querySelectorAll('a[href], button, summary, [tabindex]')]
        .filter(el => ring.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING
                      && el.checkVisibility() && el.tabIndex >= 0);
      before[before.length - 1].focus();
    })()""")
    tab.press("Tab")
    assert tab.js(RING_BOX)["focused"] == first
    tab.js("document.querySelector('.st-ring-box').scrollLeft = 0")
    tab.press("ArrowRight")
    tab.until("document.querySelector('.st-ring-box').scrollLeft > 0", 3)
    sign_in(tab, live_server.url, player2)  # the rival: nothing to tap on the ring
    tab.open(url)
    assert not tab.js("!!document.querySelector('.st-ring .sq-go')")
    found = tab.js(RING_BOX)
    assert found["scrolls"] and found["tabindex"] == "0"
