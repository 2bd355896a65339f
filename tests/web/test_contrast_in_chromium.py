"""Text that says something reads at WCAG's contrast, 4.5:1 (3:1 when large), against the
background it is drawn on, measured in a real browser (tests/chromium.py) on the play
pages of the two games a phone starts from the lobby, mid-match: the muted words on the
page's grey (the seats line's "vs", "A rematch of"), the villain's white letters on green
(its marker, its die) and the Superstar Showdown cards' type words in their colour.
Marks that only decorate (DECORATIVE) and a position's lost cards, dimmed on purpose,
aside. Skipped where no Chromium is installed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from matches import services
from tests.chromium import CHROMIUM, Chromium, signed_in

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

SKIPPED = ".visually-hidden, noscript, option, .st-back-mark, .st-star, .st-lost"

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
