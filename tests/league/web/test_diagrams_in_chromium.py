"""The Event's bracket diagram and a player's rating chart as a phone draws them (headless
Chromium at 390px, tests/chromium.py): each text of the drawing at 14px or more as drawn
(its font size times the drawing's scale; they shrank with the screen to 10-11px), each
match's label inside its box's width ("Group A, Round 3 match 2" ran into the next
column), in a box that scrolls sideways, named, and focusable while it scrolls, the page
no wider than the screen; at 1280px they fit the page as before, their box out of Tab's
order. Skipped where no Chromium is installed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from league import events
from league.models import Event, EventMatch, RatingHistory
from league.services import player_for
from matches import services
from tests.chromium import CHROMIUM, TEXT, WIDTH, Chromium, signed_in

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

# Each drawn text of the SVG in `box`: its size as drawn, and whether it sits inside the
# frame of its match box (a label: inside its width); the box's scroll and the page's width.
DRAWN = """((box) => {
  const scroller = document.querySelector(box);
  const svg = scroller.querySelector('svg');
  const texts = [...svg.querySelectorAll('text')].map(t => {
    const drawn = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    const g = t.closest('g.bx');
    const at = t.getBoundingClientRect();
    const frame = g && g.querySelector('.bx-frame').getBoundingClientRect();
    return {text: t.textContent, where: t.getAttribute('class') || '', px: drawn,
            inside: !frame || (at.left >= frame.left - 1 && at.right <= frame.right + 1)};
  });
  return {texts: texts, tabindex: scroller.getAttribute('tabindex'),
          scrolls: scroller.scrollWidth > scroller.clientWidth,
          wide: document.documentElement.scrollWidth};
})(%s)"""


def drawn(tab: Chromium, box: str) -> dict[str, Any]:
    return dict(tab.js(DRAWN % repr(box)))


def small_or_out(found: dict[str, Any], least: float) -> list[str]:
    """The texts drawn under `least` px, or out of their box's width."""
    return [f"{t['where']} {t['text']!r}: {t['px']:.1f}px{'' if t['inside'] else ', out'}"
            for t in found["texts"] if t["px"] < least - 0.01 or not t["inside"]]


def names(tab: Chromium, role: str) -> list[str]:
    """The accessible names of the page's elements of `role`, as a screen reader hears them."""
    tree = tab.tab("Accessibility.getFullAXTree")["nodes"]
    return [node.get("name", {}).get("value", "") for node in tree
            if node.get("role", {}).get("value") == role]


@pytest.mark.parametrize(("format", "options", "label", "read"), [
    ("multistage", {"groups": 2, "playoff_size": 4}, "Round 1 match 1",
     "Group A, Round 1 match 1"),  # "Group A" heads the section
    ("double_elimination", {}, "Round 1 match 1",
     "Winners round 1 match 1"),  # "Winners bracket" heads the section
])
def test_the_bracket_s_text_is_14px_inside_its_boxes_on_a_phone(
        live_server: Any, make_event: Callable[..., Event], sam: Any, player: Any, format: str,
        options: dict[str, Any], label: str, read: str | None) -> None:
    event = make_event(name="Cup", format=format, bots=8, format_options=options)
    events.start_event(event=event, by=sam)
    with signed_in(live_server.url, player) as tab:
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        found = drawn(tab, ".diagram")
        assert small_or_out(found, TEXT) == []
        assert found["tabindex"] == "0" and found["scrolls"] and found["wide"] == WIDTH
        assert "Bracket diagram" in names(tab, "region")
        # What a label shows, and its <title>, read instead where it shows less: in the
        # name of its box's link.
        labels = tab.js("[...document.querySelectorAll('.bx-label')].map(t => [[...t.childNodes]"
                        ".filter(n => n.nodeName !== 'title').map(n => n.textContent).join(''),"
                        " t.querySelector('title')?.textContent ?? null])")
        assert [label, read] in labels
        assert any(name.startswith(f"{read or label} Bot") for name in names(tab, "link"))
        tab.resize(1280, 900)
        tab.until("!document.querySelector('.diagram').hasAttribute('tabindex')")
        found = drawn(tab, ".diagram")
        assert small_or_out(found, 12) == [] and found["wide"] == 1280
        assert not found["scrolls"]
        assert "Bracket diagram" in names(tab, "region")


def test_the_bracket_stays_where_it_was_scrolled_to_when_a_result_comes_in(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    """The page's poll swaps the results in anew at each result: the bracket a phone had
    scrolled sideways went back to its start."""
    event = started_with_four(name="Cup night")
    semifinal = EventMatch.objects.filter(event=event).first()
    assert semifinal is not None
    with signed_in(live_server.url, player) as tab:
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        end = tab.js("(() => { const box = document.getElementById('bracket-scroll');"
                     " box.focus(); box.scrollLeft = box.scrollWidth; return box.scrollLeft; })()")
        assert end > 0
        services.forfeit_seat(match=semifinal.match, seat=0)
        tab.until("document.getElementById('event-announce').textContent.trim() !== ''", 12)
        assert tab.js("document.getElementById('bracket-scroll').scrollLeft") == end
        # The keyboard user on it is still, and Tab still reaches it.
        assert tab.js("[document.activeElement.id, document.activeElement.getAttribute("
                      "'tabindex')]") == ["bracket-scroll", "0"]


def test_the_rating_chart_s_text_is_14px_on_a_phone(
        live_server: Any, player: Any, player2: Any, organizer: Any) -> None:
    alice = player_for(player)
    for game, ordinals in (("super_showdown", (-3.5, 1.25, 4.0)), ("superstar_showdown", (0.5, -2.0))):
        for ordinal in ordinals:
            match = services.create_match(game=game, options={}, created_by=organizer,
                                          seats=[{"player": player.username},
                                                 {"player": player2.username}])
            RatingHistory.objects.create(game=game, player=alice, match=match, mu=25.0,
                                         sigma=8.0, ordinal=ordinal)
    with signed_in(live_server.url, player) as tab:
        tab.open(live_server.url + reverse("league:player", args=[alice.pk]))
        found = drawn(tab, ".chart")
        assert {t["text"] for t in found["texts"]} >= {"Super Showdown", "3 matches"}
        assert small_or_out(found, TEXT) == []
        assert found["wide"] == WIDTH
        # It fits a phone of 390px: Tab does not stop on a box that never scrolls. A
        # narrower one scrolls it sideways, and Tab reaches it there.
        assert found["tabindex"] is None and not found["scrolls"]
        assert "Rating chart" in names(tab, "region")
        tab.resize(320, 700)
        tab.until("document.querySelector('.chart').hasAttribute('tabindex')")
        found = drawn(tab, ".chart")
        assert found["tabindex"] == "0" and found["scrolls"]
        assert "Rating chart" in names(tab, "region")
        tab.resize(1280, 900)
        tab.until("!document.querySelector('.chart').hasAttribute('tabindex')")
        found = drawn(tab, ".chart")
        assert small_or_out(found, TEXT) == [] and not found["scrolls"]


def _own_match_later_on(event: Event, player: Any) -> EventMatch:
    """The first round played out, `player` winning: their match in a later round."""
    for pairing in EventMatch.objects.filter(event=event, pairing__startswith="W1-"):
        seats = pairing.match.seats
        loser = seats.exclude(user=player).first() if seats.filter(user=player) else seats.first()
        assert loser is not None
        services.forfeit_seat(match=pairing.match, seat=loser.index)
    final = EventMatch.objects.get(event=event, match__seats__user=player,
                                   match__status="active")
    assert not final.pairing.startswith("W1-")
    return final


def test_the_bracket_opens_scrolled_to_the_reader_s_own_match_on_a_narrow_phone(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    """The bracket, drawn 1:1 at 360px, opened at its first round: alice's winners final sat
    past the screen's edge, its "Playing now" cut off, until she scrolled the box."""
    event = started_with_four(name="Cup night", format="double_elimination")
    final = _own_match_later_on(event, player)
    with signed_in(live_server.url, player) as tab:
        tab.resize(360, 740)
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        shown = tab.js(f"""(() => {{
          const box = document.getElementById('bracket-scroll');
          const at = document.getElementById('bracket-{final.pairing}').getBoundingClientRect();
          const frame = box.getBoundingClientRect();
          return [box.scrollWidth > box.clientWidth, at.left >= frame.left,
                  at.right <= frame.right, document.documentElement.scrollWidth];
        }})()""")
        assert shown == [True, True, True, 360]


# Each section title of the bracket ("Winners bracket"...): whether it shows whole inside
# the box's frame, and the box's scroll.
TITLES = """(() => {
  const box = document.getElementById('bracket-scroll');
  const frame = box.getBoundingClientRect();
  return {scrolled: box.scrollLeft, titles: [...box.querySelectorAll('text.sec-title')].map(t => {
    const at = t.getBoundingClientRect();
    return [t.textContent, at.left >= frame.left - 0.5 && at.right <= frame.right + 0.5];
  })};
})()"""


def test_the_bracket_s_section_titles_stay_in_view_as_it_scrolls_on_a_phone(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    """Opened at alice's winners final, past the screen's edge, the bracket showed no
    "Winners bracket" over it: the titles scrolled out of view with the first round. They
    follow the box's left edge, and come back to it as the box is scrolled back."""
    event = started_with_four(name="Cup night", format="double_elimination")
    _own_match_later_on(event, player)
    with signed_in(live_server.url, player) as tab:
        tab.resize(360, 740)
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        tab.until("document.getElementById('bracket-scroll').scrollLeft > 0")
        tab.until(f"{TITLES}.titles.every(t => t[1])")
        opened = tab.js(TITLES)
        assert opened["scrolled"] > 0 and opened["titles"]
        assert "Winners bracket" in [title for title, _ in opened["titles"]]
        tab.js("document.getElementById('bracket-scroll').scrollLeft = 0; true")
        tab.until(f"{TITLES}.scrolled === 0 && {TITLES}.titles.every(t => t[1])")
        tab.js("const box = document.getElementById('bracket-scroll');"
               "box.scrollLeft = box.scrollWidth; true")
        tab.until(f"{TITLES}.titles.every(t => t[1])")


def _play_on(event: Event, player: Any, *, leave_own: bool = False) -> None:
    """The live matches forfeited, round after round, `player` winning each of theirs,
    until the Event is over (`leave_own`: until only `player`'s own match of a later round
    than the first is left live)."""
    while True:
        live = [link for link in EventMatch.objects.filter(event=event, match__status="active")
                if not (leave_own and link.round > 1
                        and link.match.seats.filter(user=player).exists())]
        if not live:
            return
        for link in live:
            seats = link.match.seats
            loser = seats.exclude(user=player).first() if seats.filter(user=player) \
                else seats.first()
            assert loser is not None
            services.forfeit_seat(match=link.match, seat=loser.index)


# What shows of the bracket's titles ("Swiss", "Winners bracket"), its "Champion: ..."
# banner and its champion's box: each text whole inside the box's frame and clear of its
# faded left edge (a scrolled box's first 1rem: "wiss" read there); the box's scroll.
IN_VIEW = """(() => {
  const box = document.getElementById('bracket-scroll');
  const frame = box.getBoundingClientRect();
  const fade = box.scrollLeft > 0 ? 16 : 0;
  const whole = (at) => at.left >= frame.left + fade - 0.5 && at.right <= frame.right + 0.5;
  const champion = box.querySelector('g.champion');
  return {scrolled: box.scrollLeft, scrolls: box.scrollWidth > box.clientWidth,
          texts: [...box.querySelectorAll('text.sec-title, text.champ-banner')].map(
            t => [t.textContent, whole(t.getBoundingClientRect())]),
          champion: champion ? whole(champion.getBoundingClientRect()) : null};
})()"""


@pytest.mark.parametrize(("format", "titles", "champion_box"), [
    ("double_elimination", ["Winners bracket", "Losers bracket", "Grand final"], True),
    ("swiss", ["Swiss"], False),  # its champion in the banner over the table
])
def test_a_finished_event_s_bracket_opens_at_its_champion_on_a_narrow_phone(
        live_server: Any, started_with_four: Callable[..., Event], player: Any, format: str,
        titles: list[str], champion_box: bool) -> None:
    """Over, the bracket's champion and titles were cut at the box's left edge at 360px
    ("earch-easy bot", "wiss"), under the fade of a box scrolled sideways. It opens where
    the Event ended, the champion's box under the final in view, or at its start where
    the banner names the champion; no title is cut, scrolled to its end either."""
    event = started_with_four(name="Cup night", format=format)
    _play_on(event, player)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    with signed_in(live_server.url, player) as tab:
        tab.resize(360, 740)
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        tab.until("document.readyState === 'complete'")
        shown = tab.js(IN_VIEW)
        assert shown["scrolls"]
        assert [title for title, _ in shown["texts"]] == (
            titles if champion_box else ["Swiss", "Champion: alice"])
        assert all(whole for _, whole in shown["texts"]), shown
        assert shown["champion"] is (True if champion_box else None)
        # A box's places are read as places ("alice 1st place"), not as a score ("alice 1").
        read = [name for name in names(tab, "link") if " place" in name]
        assert read and all(name.endswith(" place") for name in read)
        assert any("alice 1st place" in name for name in read)
        tab.js("const box = document.getElementById('bracket-scroll');"
               "box.scrollLeft = box.scrollWidth; true")
        tab.until(f"{IN_VIEW}.scrolled > 0 && {IN_VIEW}.texts.every(t => t[1])")


def test_a_bracket_scrolled_to_the_reader_s_match_opens_at_its_start_once_the_event_is_over(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    """A phone on the page while the Event ended kept the box where it was, at the
    reader's match in the last round, past the "Champion: ..." banner: the last result
    brings the bracket open where a finished Event's opens, its banner whole in view."""
    event = started_with_four(name="Swiss night", format="swiss")
    _play_on(event, player, leave_own=True)
    own = EventMatch.objects.get(event=event, match__status="active")
    assert own.round > 1
    with signed_in(live_server.url, player) as tab:
        tab.resize(360, 740)
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        tab.until("document.getElementById('bracket-scroll').scrollLeft > 0")
        _play_on(event, player)
        tab.until("document.querySelector('.champion-banner') !== null", 12)
        tab.until(f"{IN_VIEW}.scrolled === 0")
        shown = tab.js(IN_VIEW)
        assert ["Champion: alice", True] in shown["texts"] and all(
            whole for _, whole in shown["texts"]), shown
