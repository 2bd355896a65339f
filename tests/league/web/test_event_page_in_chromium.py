"""The public Event page in headless Chromium (tests/chromium.py), as a keyboard and screen
reader user follows it: a result the page's poll brings is read out from its live region,
and focus on the player's "Your match" link, which the result takes away, goes on to that
match's row; it fell to the page's top. At a phone's width an edge of the standings', the
bracket's or the Ranking Points' box with more past it fades. Skipped where no Chromium
is installed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from league import events
from league.models import Event, EventMatch, RankingTotal
from matches import services
from tests.chromium import CHROMIUM, signed_in

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]


def test_a_result_is_read_out_and_focus_on_the_ended_match_goes_to_its_row(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    event = started_with_four(name="Swiss night", format="swiss",
                              format_options={"rounds": 2})
    mine = EventMatch.objects.get(event=event, match__seats__user=player)
    with signed_in(live_server.url, player) as tab:
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        tab.js(f"document.getElementById('your-match-{mine.match_id}').focus(); true")
        rival = mine.match.seats.exclude(user=player).get()
        services.forfeit_seat(match=mine.match, seat=rival.index)  # alice wins
        tab.until("document.getElementById('event-announce').textContent.trim() !== ''", 12)
        assert tab.js("document.getElementById('event-announce').textContent").endswith(
            f": {player.username} won. ")
        tab.until(f"document.getElementById('your-match-{mine.match_id}') === null")
        tab.until(f"document.activeElement.id === 'event-match-{mine.match_id}'", 3)


def test_a_live_match_in_the_bracket_says_playing_now_inside_its_box_on_a_phone(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    """Its frame's colour alone told it apart; the words sit inside its box at a phone's
    width, as big as the names, the page no wider, and are in the link's name."""
    event = started_with_four(name="Cup night")
    live = EventMatch.objects.filter(event=event).first()
    assert live is not None
    with signed_in(live_server.url, player) as tab:
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        found = tab.js(f"""(() => {{
          const link = document.getElementById('bracket-{live.pairing}');
          const words = [...link.querySelectorAll('text')].find(t => t.textContent === 'Playing now');
          const [box, said] = [link.querySelector('.bx-frame').getBoundingClientRect(),
                               words.getBoundingClientRect()];
          return {{inside: said.left >= box.left && said.right <= box.right
                           && said.top >= box.top && said.bottom <= box.bottom,
                   px: parseFloat(getComputedStyle(words).fontSize),
                   name: parseFloat(getComputedStyle(link.querySelector('.ln-entrant')).fontSize),
                   wide: document.documentElement.scrollWidth}};
        }})()""")
        assert found == {"inside": True, "px": found["name"], "name": 14, "wide": 390}
        tree = tab.tab("Accessibility.getFullAXTree")["nodes"]
        names = [node.get("name", {}).get("value", "") for node in tree
                 if node.get("role", {}).get("value") == "link"]
        assert any(name.endswith("Playing now") for name in names), names


def test_the_standings_stay_where_a_narrow_phone_scrolled_them_when_a_result_comes_in(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    """A Swiss table's tiebreak columns run past a 360px phone: the table scrolls sideways
    in its box, which a keyboard reaches and a screen reader names; the page's poll swapped
    the table in anew at each result, and the reader reading Buchholz was sent back to the
    names."""
    event = started_with_four(name="Swiss night", format="swiss", format_options={"rounds": 2})
    played = EventMatch.objects.filter(event=event).first()
    assert played is not None
    with signed_in(live_server.url, player) as tab:
        end = scrolled_to_their_end(tab, live_server.url + reverse("league:event",
                                                                   args=[event.pk]))
        assert tab.js(f"[{BOX}.scrollWidth > {BOX}.clientWidth, {BOX}.getAttribute('tabindex'),"
                      f" {BOX}.getAttribute('role'), {BOX}.getAttribute('aria-label'),"
                      " document.documentElement.scrollWidth]") == [
            True, "0", "region", "Standings", 360]
        services.forfeit_seat(match=played.match, seat=0)
        tab.until("document.getElementById('event-announce').textContent.trim() !== ''", 12)
        # Put back as the swap is made (the tiebreaks toggle, which makes the table wide
        # enough to scroll, opened again first), which may come a moment after the poll's
        # words are read.
        tab.until(f"{BOX}.scrollLeft === {end}", 2)
        assert tab.js("document.getElementById('standings-tiebreaks').open")


BOX = "document.getElementById('standings-scroll')"


def scrolled_to_their_end(tab: Any, url: str) -> int:
    """The Event page at `url` on a 360px phone, its tiebreaks opened and its standings'
    box scrolled to its end: where to (more than nought, the table wider than its box)."""
    tab.resize(360, 740)
    tab.open(url)
    tab.js("document.querySelector('#standings-tiebreaks summary').click(); true")
    end = tab.js(f"(() => {{ {BOX}.scrollLeft = {BOX}.scrollWidth;"
                 f" return {BOX}.scrollLeft; }})()")
    assert end > 0
    return int(end)


# Each frame the page paints from now on: where the standings' box is scrolled to and
# whether the tiebreaks toggle is open, in window.painted.
EACH_FRAME = """(() => {
  window.painted = [];
  const note = () => {
    const box = document.getElementById('standings-scroll');
    const toggle = document.getElementById('standings-tiebreaks');
    window.painted.push([box ? box.scrollLeft : null, toggle ? toggle.open : null]);
    requestAnimationFrame(note);
  };
  requestAnimationFrame(note);
})()"""


def test_a_result_swaps_the_standings_in_without_a_frame_back_at_their_start(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    """The poll's swap put the standings back where the reader had scrolled them only once
    it settled, the tiebreaks toggle opened again then too: for a few frames the table
    showed folded and back at the names, a flash at each result. Every frame painted shows
    it where the reader left it."""
    event = started_with_four(name="Swiss night", format="swiss", format_options={"rounds": 2})
    played = EventMatch.objects.filter(event=event).first()
    assert played is not None
    with signed_in(live_server.url, player) as tab:
        end = scrolled_to_their_end(tab, live_server.url + reverse("league:event",
                                                                   args=[event.pk]))
        tab.js(EACH_FRAME)
        services.forfeit_seat(match=played.match, seat=0)
        tab.until("document.getElementById('event-announce').textContent.trim() !== ''", 12)
        tab.until(f"{BOX}.scrollLeft === {end}", 2)
        painted = tab.js("window.painted")
        assert painted and {tuple(frame) for frame in painted} == {(end, True)}


# The standings' columns shown (their headers' words), whether the box scrolls, and the
# tiebreaks toggle's (shown, open).
COLUMNS = """(() => {
  const box = document.getElementById('standings-scroll');
  const toggle = document.getElementById('standings-tiebreaks');
  return {columns: [...box.querySelectorAll('thead th')]
            .filter(th => getComputedStyle(th).display !== 'none')
            .map(th => th.textContent.trim()),
          scrolls: box.scrollWidth > box.clientWidth,
          toggle: [getComputedStyle(toggle).display !== 'none', toggle.open],
          wide: document.documentElement.scrollWidth};
})()"""


def test_a_swiss_table_shows_its_tiebreaks_on_a_phone_only_when_asked(
        live_server: Any, started_with_four: Callable[..., Event], player: Any) -> None:
    """A Swiss table was 610px wide at 360px, its tiebreak columns past the screen: a phone
    shows rank, name, results and points, and the tiebreaks once the reader opens the toggle
    above the table (which a poll keeps open); a desktop shows them all, no toggle."""
    event = started_with_four(name="Swiss night", format="swiss", format_options={"rounds": 2})
    with signed_in(live_server.url, player) as tab:
        tab.resize(360, 740)
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        folded = tab.js(COLUMNS)
        assert folded["columns"] == ["#Rank", "Entrant", "WWins", "DDraws", "LLosses",
                                     "PtsPoints"]
        assert not folded["scrolls"] and folded["toggle"] == [True, False]
        assert folded["wide"] == 360
        tab.js("document.querySelector('#standings-tiebreaks summary').click(); true")
        shown = tab.js(COLUMNS)
        assert shown["columns"][:6] == folded["columns"] and len(shown["columns"]) > 6
        assert shown["toggle"] == [True, True]
        tab.resize(1280, 900)
        wide = tab.js(COLUMNS)
        assert wide["columns"] == shown["columns"] and wide["toggle"][0] is False


def test_the_ranking_points_stay_where_a_narrow_phone_scrolled_them_when_they_change(
        live_server: Any, organizer: Any, player: Any, player2: Any) -> None:
    """A Superstar Showdown Event's Ranking Points tables run past a 360px phone (the
    Superstars, four points columns): each scrolls sideways in its box, which a keyboard
    reaches; the 3s poll swapped them in anew whenever the points changed, back at the
    team's name."""
    event = events.create_showdown_event(
        by=organizer, name="Duel night",
        sides=[{"player": player.username}, {"player": player2.username}],
        matches=[{"match": "head_to_head", "stipulation": None}] * 2, superstars_per_team=1)
    # The rows the Event's start wrote, with points a first Match brings
    RankingTotal.objects.filter(event=event, team=0).update(
        superstars=["oakhart", "quillfeather"], match_points=30, bonus_points=12, total=42)
    with signed_in(live_server.url, player) as tab:
        tab.resize(360, 740)
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        box = "document.getElementById('ranking-totals-1')"
        assert tab.js(f"[{box}.scrollWidth > {box}.clientWidth, {box}.getAttribute('tabindex'),"
                      " document.documentElement.scrollWidth]") == [True, "0", 360]
        end = tab.js(f"(() => {{ {box}.scrollLeft = {box}.scrollWidth;"
                     f" return {box}.scrollLeft; }})()")
        assert end > 0
        RankingTotal.objects.filter(event=event, team=0).update(matches_won=1)
        tab.until("document.getElementById('ranking-announce').textContent.trim() !== ''", 12)
        assert tab.js(f"{box}.scrollLeft") == end


# The classes marking which edges of a box have more past them, and whether the box fades.
EDGES = """((id) => {
  const box = document.getElementById(id);
  return [[...box.classList].filter(name => name.startsWith('more-')).join(' '),
          getComputedStyle(box).maskImage !== 'none'];
})(%r)"""


def edges_fade_while_it_scrolls(tab: Any, box: str) -> None:
    """At 360px, the box's edge with more past it fades (its left once scrolled to its end,
    its right at its start); at 1280px, where all of it shows, no edge fades."""
    at = f"document.getElementById({box!r})"
    assert tab.js(f"{at}.scrollWidth > {at}.clientWidth")
    tab.js(f"{at}.scrollLeft = 0; true")
    tab.until(f"{EDGES % box}[0] === 'more-right'")
    assert tab.js(EDGES % box) == ["more-right", True]
    tab.js(f"{at}.scrollLeft = {at}.scrollWidth; true")
    tab.until(f"{EDGES % box}[0] === 'more-left'")
    assert tab.js(EDGES % box) == ["more-left", True]
    tab.resize(1280, 900)
    tab.until(f"{EDGES % box}[0] === ''")
    assert tab.js(EDGES % box) == ["", False]


@pytest.mark.parametrize(("format", "options", "box"), [
    ("swiss", {"rounds": 2}, "standings-scroll"),
    ("double_elimination", {}, "bracket-scroll"),
])
def test_an_edge_of_the_standings_or_the_bracket_with_more_past_it_fades_on_a_phone(
        live_server: Any, started_with_four: Callable[..., Event], player: Any, format: str,
        options: dict[str, Any], box: str) -> None:
    """At 360px nothing told that the table or the diagram ran on past the box's edge."""
    event = started_with_four(name="Cup night", format=format, format_options=options)
    with signed_in(live_server.url, player) as tab:
        tab.resize(360, 740)
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        if box == "standings-scroll":  # its tiebreaks shown
            tab.js("document.querySelector('#standings-tiebreaks summary').click(); true")
        edges_fade_while_it_scrolls(tab, box)


def test_an_edge_of_a_ranking_points_table_with_more_past_it_fades_on_a_phone(
        live_server: Any, organizer: Any, player: Any, player2: Any) -> None:
    """At 360px nothing told that the Ranking Points ran on past the box's edge."""
    event = events.create_showdown_event(
        by=organizer, name="Duel night",
        sides=[{"player": player.username}, {"player": player2.username}],
        matches=[{"match": "head_to_head", "stipulation": None}] * 2, superstars_per_team=1)
    with signed_in(live_server.url, player) as tab:
        tab.resize(360, 740)
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        edges_fade_while_it_scrolls(tab, "ranking-totals-1")


# The focused element's id (its tag and words where it has none; "body" past the end).
NEXT_STOP = """(() => { const a = document.activeElement;
  return a === document.body ? 'body'
    : a.id || a.tagName.toLowerCase() + ' ' + a.textContent.trim().slice(0, 30); })()"""


@pytest.mark.parametrize("width", [390, 1280])
def test_tab_reaches_each_match_of_a_big_event_once_and_its_bracket_at_most_once(
        live_server: Any, make_event: Callable[..., Event], sam: Any, player: Any,
        width: int) -> None:
    """Each box of the drawing linked to its match, which the list under it links too: a
    keyboard user tabbed through every one of 28 matches twice, 28 stops more in the
    drawing. The drawing's box is one stop, where it scrolls; each match is reached in
    the list, and a tap or a click on its box still follows it."""
    event = make_event(format="round_robin", bots=8)
    events.start_event(event=event, by=sam)
    made = sorted(EventMatch.objects.filter(event=event).values_list("match_id", flat=True))
    assert len(made) == 28
    with signed_in(live_server.url, player) as tab:
        tab.resize(width)
        tab.open(live_server.url + reverse("league:event", args=[event.pk]))
        stops: list[str] = []
        for _ in range(150):
            tab.press("Tab")
            stops.append(tab.js(NEXT_STOP))
            if stops[-1] == "body" or stops.count(stops[-1]) > 1:
                break
        assert stops[-1] == "body", stops  # the page's end
        in_drawing = [stop for stop in stops if stop.startswith("bracket-")]
        assert in_drawing in ([], ["bracket-scroll"])
        listed = [stop for stop in stops if stop.startswith("event-match-")
                  and not stop.endswith("-replay")]
        assert listed == [f"event-match-{pk}" for pk in made]
        assert tab.js("document.querySelectorAll('#bracket-scroll a[href]').length") == 28
