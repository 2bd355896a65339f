"""Text that says something reads at WCAG's contrast, 4.5:1 (3:1 when large), against the
background it is drawn on, measured in a real browser (tests/chromium.py) on the play
pages of the two games a phone starts from the lobby, mid-match: the muted words on the
page's grey (the seats line's "vs", "A rematch of"), the villain's white letters on green
(its marker, its die) and the Superstar Showdown cards' type words in their colour.
What is shown faded reads at it too: a position's lost card, an eliminated Supershow
seat, a pick made in an Event's draft order. Marks that only decorate aside. Skipped
where no Chromium is installed."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.urls import reverse

from matches import services
from matches.templatetags.superstar_showdown import star_spots
from tests.chromium import CHROMIUM, Chromium, signed_in

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

SKIPPED = ".visually-hidden, noscript, option, .st-back-mark, .st-star"

# Each visible text below too little contrast: its element's class, the ratio, its words.
# The background is the nearest drawn one behind it (translucent ones laid over white),
# and the text's colour is laid over it at its and its parents' opacity.
LOW = """(() => {
  const rgba = c => {  // rgb(), rgba(), or color(srgb r g b / a) (what color-mix() computes to)
    const m = c.match(/rgba?\\(([^)]+)\\)/), srgb = c.match(/color\\(srgb ([^)]+)\\)/);
    if (srgb) { const [rgb, a] = srgb[1].split('/'); return [...rgb.trim().split(/\\s+/).map(v => v * 255), a ? +a : 1]; }
    const p = m ? m[1].split(',').map(Number) : [0, 0, 0, 0]; return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, a, under) => [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a));
  const lum = c => c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = el => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    return layers.reverse().reduce((under, c) => over(c, c[3], under), [255, 255, 255]); };
  const low = [];
  const walk = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement, cs = getComputedStyle(el);
    if (!node.textContent.trim() || el.closest(SKIPPED) || cs.visibility === 'hidden'
        || !el.getBoundingClientRect().width) continue;
    let seen = 1; for (let e = el; e; e = e.parentElement) seen *= parseFloat(getComputedStyle(e).opacity);
    const bg = behind(el), fg = rgba(cs.color), text = over(fg, fg[3] * seen, bg);
    const [a, b] = [lum(text), lum(bg)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const px = parseFloat(cs.fontSize), large = px >= 24 || (parseInt(cs.fontWeight) >= 700 && px >= 18.66);
    if (ratio < (large ? 3 : 4.5)) low.push(`${el.className || el.tagName} ${ratio.toFixed(2)}: ${node.textContent.trim().slice(0, 30)}`);
  }
  return [...new Set(low)];
})()""".replace("SKIPPED", json.dumps(SKIPPED))


def low_contrast(browser: Chromium) -> list[str]:
    browser.js("document.querySelectorAll('main details').forEach(d => d.open = true)")
    return list(browser.js(LOW))


@pytest.mark.parametrize("game", ["super_showdown", "superstar_showdown"])
def test_the_play_page_of_a_match_and_its_rematch_reads_at_its_contrast(
        live_server: Any, player: Any, game: str) -> None:
    match = services.create_match(game=game, options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "heuristic"}])
    services.resign(match=match, user=player)
    again, _ = services.rematch(match=match, user=player)  # ("A rematch of #1")
    with signed_in(live_server.url, player) as browser:
        browser.open(live_server.url + reverse("match_play", args=[again.id]))
        assert browser.js("document.querySelector('.seats .muted').textContent") == "vs"
        assert low_contrast(browser) == []


def test_a_lost_card_of_a_position_reads_at_its_contrast(
        live_server: Any, player: Any, seeded_chance: None) -> None:
    """A Superstar Showdown position's beaten card was drawn at half opacity, its name and
    type words below 4.5:1: it still says which card lost. It is told apart by its
    dashed, greyed frame and its "lost" note, its words at full contrast."""
    match = services.create_match(game="superstar_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"}])
    rng = random.Random(4)
    for _ in range(200):  # on until a position shows a lost card (the bot answers)
        shown = services.match_state(match=match, user=player)
        if any(cell["state"] == "lost" for spot in star_spots(shown["view"])
               for cell in spot["cells"]):
            break
        assert shown["legal_actions"], "alice should be asked again before a card is lost"
        services.submit_action(match=match, seat=0, user=player,
                               action=rng.choice(shown["legal_actions"]))
        match.refresh_from_db()
    else:
        pytest.fail("no position showed a lost card")
    with signed_in(live_server.url, player) as browser:
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        assert browser.js("document.querySelectorAll('.st-lost .st-name').length")
        assert low_contrast(browser) == []


def test_an_eliminated_supershow_seat_reads_at_its_contrast(
        live_server: Any, player: Any, seeded_chance: None) -> None:
    """An eliminated seat's panel (its Competitor, its counts, its cards in play) was
    drawn at .6 opacity, its words below 4.5:1 (its name at 4.2:1, the grey ones less)."""
    match = services.create_match(game="supershow",
                                  options={"match_type": "triple_threat_elimination"},
                                  created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"},
                                         {"bot": "random"}])
    rng = random.Random(1)
    for _ in range(600):  # on until a seat is out (the bots answer)
        shown = services.match_state(match=match, user=player)
        if shown["view"]["eliminated"]:
            break
        assert shown["legal_actions"], "alice should be asked again before a seat is out"
        services.submit_action(match=match, seat=0, user=player,
                               action=rng.choice(shown["legal_actions"]))
        match.refresh_from_db()
    else:
        pytest.fail("no seat was eliminated")
    with signed_in(live_server.url, player) as browser:
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        assert browser.js("document.querySelectorAll('.sx-seat.out').length")
        assert low_contrast(browser) == []


def test_a_pick_made_in_the_draft_order_reads_at_its_contrast(
        live_server: Any, player: Any, player2: Any) -> None:
    """A Superstar Showdown Event's draft order faded a pick made to .45 opacity, its
    team's colour at 2:1."""
    match = services.create_match(
        game="superstar_showdown", created_by=player,
        options={"event": {"matches": [{"match": "head_to_head", "stipulation": "standard_1"}] * 2,
                           "superstars_per_team": 1}},
        seats=[{"player": player.username}, {"player": player2.username}])
    services.join_match(match=match, user=player2)
    draft = services.match_state(match=match, user=player)["view"]["event"]["draft"]
    first = draft["order"][0]
    action = next(a for a in services.match_state(match=match, user=(player, player2)[first])[
        "legal_actions"] if a.get("type") == "draft")
    services.submit_action(match=match, seat=first, user=(player, player2)[first], action=action)
    with signed_in(live_server.url, player) as browser:
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        assert browser.js("document.querySelectorAll('.st-draft-order li.done').length") == 1
        assert low_contrast(browser) == []
