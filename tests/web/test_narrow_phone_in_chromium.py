"""Pages on a narrow phone, 360px wide (many an Android phone; the other browser tests
measure at tests/chromium.py's WIDTH): Super Showdown's board, six squares and its row
numbers across, fills the width, and each square the player may move to is still a tap
of 44px either way; an Event taking entries lists them, each player's name a link to
their page that is a tap too; the Ultimate Showdown's score board scrolls in its own
box. Skipped where no Chromium is installed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse

from engine.registry import get_rules
from league import events
from league.services import player_for
from matches import services
from tests.chromium import CHROMIUM, TAP, TEXT, measure, signed_in

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

NARROW = 360  # a narrow phone's width, in CSS px


def on_the_board(player: Any, player2: Any, organizer: Any) -> Any:
    """A Super Showdown match between `player` and `player2`, played on at random (seeded)
    to `player`'s move on the board."""
    match = services.create_match(game="super_showdown", options={}, created_by=organizer,
                                  seats=[{"player": player.username},
                                         {"player": player2.username}])
    rules, people, rng = get_rules(match.game), [player, player2], random.Random(3)
    while True:  # on to alice's move on the board (her rival moves first half the time)
        match.refresh_from_db()
        state = services.load_state(match)
        seat = rules.pending(state).seats[0]
        actions = rules.legal_actions(state, seat)
        if seat == 0 and any("to" in action for action in actions):
            return match
        services.submit_action(match=match, seat=seat, user=people[seat],
                               action=rng.choice(actions))


def test_each_square_to_move_to_is_a_tap_on_a_narrow_phone(
        live_server: Any, player: Any, player2: Any, organizer: Any,
        seeded_chance: None) -> None:
    match = on_the_board(player, player2, organizer)
    with signed_in(live_server.url, player) as browser:
        browser.resize(NARROW)
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        squares = [control for control in measure(browser)["controls"]
                   if "sq-btn" in control["classes"].split()]
        assert len(squares) >= 3
        small = [f"{s['w']:.0f}x{s['h']:.0f} {s['what']}" for s in squares
                 if min(s["w"], s["h"]) < TAP]
        assert small == []
        assert browser.js("document.documentElement.scrollWidth") <= NARROW


# Each die on Super Showdown's board: its colour and number.
DICE = """[...document.querySelectorAll('.ss-board .die')].map(die =>
  [die.classList.contains('die-white') ? 'white' : 'green', die.firstChild.textContent.trim()])"""


def test_the_dice_are_written_out_under_the_board_on_a_narrow_phone(
        live_server: Any, player: Any, player2: Any, organizer: Any,
        seeded_chance: None) -> None:
    """A die heading its column or row said what it was in a hover title alone, which a
    phone never shows: the legend under the board writes each die out, at a size a phone
    reads, and no die, marker or square's glyph on the board has a title."""
    match = on_the_board(player, player2, organizer)
    with signed_in(live_server.url, player) as browser:
        browser.resize(NARROW)
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        dice = browser.js(DICE)
        assert dice, "no die rolled yet"
        shown = measure(browser)["texts"]
        legend = " ".join(t["text"] for t in shown if "legend-die" in t["where"].split())
        for colour, number in dice:
            line = f"column {number}" if colour == "white" else f"row {number}"
            name = "white scanner die" if colour == "white" else "green rumors die"
            assert f"{name}: {line}" in legend, (colour, number, legend)
        assert [t for t in shown if "legend" in t["where"] and t["px"] < TEXT] == []
        # (A square's button keeps its move's words as its title, a desktop's hover, beside
        # the same words in its name.)
        assert browser.js("document.querySelectorAll('.ss-board-wrap [title]:not(.sq-btn)')"
                          ".length") == 0
        assert browser.js("document.documentElement.scrollWidth") <= NARROW


def test_the_entrants_of_an_event_taking_entries_are_taps_on_a_narrow_phone(
        live_server: Any, player: Any, organizer: Any) -> None:
    cup = events.create_event(name="Friday night cup", game="super_showdown",
                              format="round_robin", by=organizer, open_entry=True)
    events.add_entrant(event=cup, by=organizer, bot="heuristic")
    events.enter_event(event=cup, by=player)
    with signed_in(live_server.url, player) as browser:
        browser.resize(NARROW)
        browser.open(live_server.url + reverse("league:event", args=[cup.pk]))
        controls = measure(browser)["controls"]
        page = reverse("league:player", args=[player_for(player).pk])
        assert browser.js(f"!!document.querySelector('.entrant-list a[href=\"{page}\"]')")
        small = [f"{c['w']:.0f}x{c['h']:.0f} {c['what']}" for c in controls
                 if min(c["w"], c["h"]) < TAP]
        assert small == []


# The top bar's controls shown (their boxes), the bar's height, and the page's width.
TOPBAR = """(() => {
  const bar = document.querySelector('header.topbar');
  const shown = el => { const cs = getComputedStyle(el); const box = el.getBoundingClientRect();
    return cs.display !== 'none' && cs.visibility !== 'hidden' && box.width > 0 && box.height > 0
      && !!el.checkVisibility(); };
  return {height: bar.getBoundingClientRect().height,
          wide: document.documentElement.scrollWidth,
          controls: [...bar.querySelectorAll('a[href], button, summary')].filter(shown).map(el => {
            const box = el.getBoundingClientRect();
            return {what: el.textContent.trim().replace(/\\s+/g, ' '), w: box.width, h: box.height,
                    middle: box.top + box.height / 2,
                    inside: box.left >= 0 && box.right <= window.innerWidth};
          })};
})()"""


@pytest.mark.parametrize("name", ["alice", "a_rather_long_player_name_indeed_2026"])
def test_the_top_bar_is_one_row_of_taps_on_a_narrow_phone(
        live_server: Any, django_user_model: Any, name: str) -> None:
    """Signed in, the bar took two rows at 360px (the name, "League" and "Log out" beside
    the site's name): the account's links fold under the name, a <details> that opens
    without a script (and folds again at a tap outside it, or at Escape), and every control of the bar
    is a tap of 44px on the screen."""
    user = django_user_model.objects.create_user(username=name, password="pw-for-the-bar")
    with signed_in(live_server.url, user) as browser:
        browser.resize(NARROW)
        browser.open(live_server.url + reverse("lobby"))
        bar = browser.js(TOPBAR)
        assert bar["height"] <= 50 and bar["wide"] <= NARROW
        folded = [c["what"] for c in bar["controls"]]
        assert folded[:2] == ["Showdown League", "League"] and folded[2].startswith(name[:5])
        assert "Log out" not in folded
        browser.js("document.querySelector('.account-menu summary').click(); true")
        bar = browser.js(TOPBAR)
        assert [c["what"] for c in bar["controls"]][3:] == ["Your account", "Log out"]
        assert [f"{c['w']:.0f}x{c['h']:.0f} {c['what']}" for c in bar["controls"]
                if min(c["w"], c["h"]) < TAP or not c["inside"]] == []
        assert bar["height"] <= 50 and bar["wide"] <= NARROW
        browser.js("document.querySelector('main h1, main h2').click(); true")  # a tap outside
        assert not browser.js("document.querySelector('.account-menu').open")
        browser.js("document.querySelector('.account-menu summary').click();"
                   "document.querySelector('.account-menu a').focus();"
                   "document.activeElement.dispatchEvent(new KeyboardEvent('keydown',"
                   " {key: 'Escape', bubbles: true})); true")
        assert browser.js("[document.querySelector('.account-menu').open,"
                          " document.activeElement.tagName]") == [False, "SUMMARY"]
        browser.js("document.querySelector('.account-menu summary').click(); true")
        browser.send("document.querySelector('.account-menu button').click()")
        assert browser.js("document.querySelector('header.topbar').textContent").count(
            "Log in") == 1


# Each score board row's cells: how far each round's points stand from the last's, and
# whether the board fits its box.
SCORE_GAPS = """(() => {
  const board = document.querySelector('table.us-scoreboard');
  const gaps = [...board.querySelectorAll('tbody tr')].flatMap(row => {
    const spans = [...row.querySelectorAll('td')].map(cell => {
      const text = document.createRange();
      text.selectNodeContents(cell);
      return text.getBoundingClientRect();
    });
    return spans.slice(1).map((box, i) => box.left - spans[i].right);
  });
  const wrap = board.parentElement;
  return {least: Math.min(...gaps), fits: wrap.scrollWidth <= wrap.clientWidth};
})()"""


def test_the_ultimate_score_board_sets_each_rounds_points_apart_on_a_narrow_phone(
        live_server: Any, player: Any) -> None:
    """Ultimate Showdown's score board had no padding: a row's five rounds read as one
    number ("35356") on a phone."""
    match = services.create_match(game="ultimate_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"},
                                         {"bot": "random"}])
    rules, rng = get_rules(match.game), random.Random(5)
    while match.status == "active":  # played to the end: every round's points written
        state = services.load_state(match)
        services.submit_action(match=match, seat=0, user=player,
                               action=rng.choice(rules.legal_actions(state, 0)))
        match.refresh_from_db()
    with signed_in(live_server.url, player) as browser:
        browser.resize(NARROW)
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        assert browser.js("document.querySelector('.us-scoreboard tbody td').textContent")
        board = browser.js(SCORE_GAPS)
        assert board["least"] >= 8, board
        assert board["fits"], board
        assert browser.js("document.documentElement.scrollWidth") <= NARROW


@pytest.mark.parametrize("name", ["alice", "a_rather_long_player_name_indeed_2026"])
def test_the_account_links_sit_in_the_bar_on_a_wide_screen(
        live_server: Any, django_user_model: Any, name: str) -> None:
    """On a desktop the account's links were folded as on a phone, Log out a tap more away:
    past a phone's width the player's name (their account's link) and Log out sit in the
    bar, one row still, and no menu shows."""
    user = django_user_model.objects.create_user(username=name, password="pw-for-the-bar")
    with signed_in(live_server.url, user) as browser:
        browser.open(live_server.url + reverse("lobby"))
        for width in (481, 600, 768, 1024, 1440):
            browser.resize(width)
            bar = browser.js(TOPBAR)
            shown = [c["what"] for c in bar["controls"]]
            assert shown[:2] == ["Showdown League", "League"], (width, shown)
            assert shown[2].startswith(name[:5]) and shown[3:] == ["Log out"], (width, shown)
            assert not browser.js("!!document.querySelector('.account-menu summary')"
                                  ".checkVisibility()"), width
            middles = [c["middle"] for c in bar["controls"]]
            assert max(middles) - min(middles) <= 4 and bar["height"] <= 60, (width, bar)
            assert bar["wide"] <= width, (width, bar)
            assert [c["what"] for c in bar["controls"] if not c["inside"]] == [], width
        assert browser.js("document.querySelector('.account-inline a.who').href").endswith(
            reverse("account"))
        browser.send("document.querySelector('.account-inline button').click()")
        assert browser.js("document.querySelector('header.topbar').textContent").count(
            "Log in") == 1


def focused(browser: Any) -> str:
    return str(browser.js("document.activeElement.textContent.trim().replace(/\\s+/g, ' ')"))


@pytest.mark.parametrize("script", [True, False], ids=["with-js", "without-js"])
def test_the_account_menu_works_by_keyboard_with_or_without_javascript(
        live_server: Any, player: Any, script: bool) -> None:
    """On a phone the account menu opens at Enter on the player's name, Tab goes on to its
    links and Log out logs out, a script on the page or not; with one, Tab out of the
    open menu folds it, so that it no longer covers the page below."""
    with signed_in(live_server.url, player) as browser:
        browser.resize(NARROW)
        browser.tab("Emulation.setScriptExecutionDisabled", value=not script)
        browser.open(live_server.url + reverse("lobby"))
        for _ in range(4):  # the skip link, the site's name, League, the player's name
            browser.press("Tab")
        assert browser.js("document.activeElement.matches('.account-menu summary')"), \
            focused(browser)
        browser.press("Enter")
        assert browser.js("document.querySelector('.account-menu').open")
        browser.press("Tab")
        assert focused(browser) == "Your account"
        browser.press("Tab")
        assert focused(browser) == "Log out"
        if script:
            browser.press("Tab")  # on into the page
            assert browser.js("!!document.activeElement.closest('main')"), focused(browser)
            assert not browser.js("document.querySelector('.account-menu').open")
            browser.press("Tab", shift=True)
            assert browser.js("document.activeElement.matches('.account-menu summary')")
            browser.press("Enter")
            browser.press("Tab")
            browser.press("Tab")
            assert focused(browser) == "Log out"
        browser.follow(lambda: browser.press("Enter"))
        assert browser.js("document.querySelector('header.topbar').textContent").count(
            "Log in") == 1


# Where the open account menu's panel is, the page's first controls that a tap at their
# middle would not reach, and how wide the page is.
MENU_OVER = """(() => {
  const panel = document.querySelector('.account-menu .menu-panel').getBoundingClientRect();
  const main = document.querySelector('main').getBoundingClientRect();
  const covered = [...document.querySelectorAll('main a[href], main button')].slice(0, 6)
    .filter(el => { const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return box.height > 0 && box.bottom <= innerHeight && !(hit && el.contains(hit)); })
    .map(el => el.textContent.trim());
  return {open: document.querySelector('.account-menu').open, bottom: panel.bottom,
          main: main.top, covered: covered, wide: document.documentElement.scrollWidth};
})()"""


@pytest.mark.parametrize("script", [True, False], ids=["with-js", "without-js"])
def test_the_open_account_menu_hides_nothing_it_does_not_fold_away_from(
        live_server: Any, player: Any, script: bool) -> None:
    """Without a script the open account menu folded only at a tap on the player's name: it
    lay over the page's first controls, which a tap outside it and Tab past it then met
    under it. Without one it now sits above the page, which moves down below it; with one
    it still opens over the page, which a tap outside it or Tab past it folds."""
    with signed_in(live_server.url, player) as browser:
        browser.resize(NARROW)
        browser.tab("Emulation.setScriptExecutionDisabled", value=not script)
        browser.open(live_server.url + reverse("lobby"))
        browser.js("document.querySelector('.account-menu summary').click(); true")
        shown = browser.js(MENU_OVER)
        assert shown["open"]
        if script:
            assert shown["bottom"] > shown["main"]  # over the page: the bar stays one row
        else:
            assert shown["bottom"] <= shown["main"] and shown["covered"] == []
            assert shown["wide"] <= NARROW
            browser.js("document.querySelector('.account-menu summary').focus(); true")
            browser.press("Tab")  # from the name on to the menu's links
            assert focused(browser) == "Your account"
            browser.send("document.querySelector('.account-menu a').click()")
            assert browser.js("location.pathname") == reverse("account")
            assert not browser.js("document.querySelector('.account-menu').open")


def test_the_ultimate_showdown_scoreboard_scrolls_in_its_box_not_the_page(
        live_server: Any, player: Any, player2: Any, outsider: Any, organizer: Any,
        seeded_chance: None) -> None:
    """In the fifth round the score board's columns, two-digit scores, "5 (Ultimate)" and
    "Red (you) · deciding", are wider than a phone: the board scrolls in its own box, and
    the page does not scroll sideways."""
    people = [player, player2, outsider]
    match = services.create_match(game="ultimate_showdown", options={}, created_by=organizer,
                                  seats=[{"player": p.username} for p in people])
    rules, rng = get_rules(match.game), random.Random(5)
    while True:  # on to the fifth round, alice to decide
        match.refresh_from_db()
        state = services.load_state(match)
        seats = rules.pending(state).seats
        if state.round == 5 and 0 in seats:
            break
        seat = seats[0]
        services.submit_action(match=match, seat=seat, user=people[seat],
                               action=rng.choice(rules.legal_actions(state, seat)))
    with signed_in(live_server.url, player) as browser:
        browser.resize(NARROW)
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        assert "deciding" in browser.js("document.querySelector('.us-scoreboard').innerText")
        assert browser.js("document.querySelector('.us-scoreboard').offsetWidth") > NARROW - 40


def test_an_event_matchs_lobby_row_links_its_event_in_a_tap_on_a_narrow_phone(
        live_server: Any, player: Any, organizer: Any) -> None:
    """The lobby's row of an Event's match names the Event, linked to its page: a tap, and
    a long name wraps within the width."""
    name = "The Tuesday Evening Superstar Showdown Championship" + "x" * 40
    cup = events.create_event(name=name, game="super_showdown", format="round_robin",
                              by=organizer)
    events.add_entrant(event=cup, by=organizer, player=player.username)
    events.add_entrant(event=cup, by=organizer, bot="random")
    events.start_event(event=cup, by=organizer)
    match = cup.event_matches.get().match
    with signed_in(live_server.url, player) as browser:
        browser.resize(NARROW)
        browser.open(live_server.url + reverse("lobby"))
        link = browser.js(f"""(() => {{ const a = document.getElementById('match-{match.pk}-event');
          const box = a.getBoundingClientRect();
          return {{href: a.getAttribute('href'), text: a.textContent, w: box.width, h: box.height,
                   right: box.right}}; }})()""")
        assert link["href"] == reverse("league:event", args=[cup.pk])
        assert link["text"] == name
        assert min(link["w"], link["h"]) >= TAP and link["right"] <= NARROW, link
        assert browser.js("document.documentElement.scrollWidth") <= NARROW


# The Supershow's move buttons: each one's box.
SX_BUTTONS = """[...document.querySelectorAll('.sx-actions .action-buttons button')].map(b => {
  const box = b.getBoundingClientRect();
  return {what: b.textContent.trim(), left: box.left, top: box.top, w: box.width, h: box.height,
          right: box.right};
})"""


def test_the_supershows_play_and_discard_buttons_are_a_tidy_grid_on_a_narrow_phone(
        live_server: Any, player: Any, seeded_chance: None) -> None:
    """The Supershow's buttons (Play or Discard a card, each with its name, type and
    skill) were as wide as their words, wrapped anyhow: a ragged heap on a phone. They
    are a grid of equal columns, each a tap, within the width."""
    match = services.create_match(game="supershow", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"}])
    rules, rng = get_rules(match.game), random.Random(2)
    while True:  # on to alice's choice among several cards to play or discard
        match.refresh_from_db()
        state = services.load_state(match)
        actions = rules.legal_actions(state, 0)
        if sum(action.get("type") in ("play", "discard") for action in actions) >= 3:
            break
        services.submit_action(match=match, seat=0, user=player, action=rng.choice(actions))
    with signed_in(live_server.url, player) as browser:
        browser.resize(NARROW)
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        buttons = browser.js(SX_BUTTONS)
        assert len(buttons) >= 3
        assert len({round(b["w"]) for b in buttons}) == 1, buttons  # one width
        assert len({round(b["left"]) for b in buttons}) <= 2, buttons  # in columns
        rows: dict[int, list[float]] = {}
        for b in buttons:
            rows.setdefault(round(b["top"]), []).append(b["h"])
        assert all(max(h) - min(h) < 1 for h in rows.values()), rows  # a row one height
        assert [b["what"] for b in buttons if min(b["w"], b["h"]) < TAP
                or b["right"] > NARROW] == []
        assert browser.js("document.documentElement.scrollWidth") <= NARROW
        browser.resize(1024)  # a wider screen: more columns, of one width still
        buttons = browser.js(SX_BUTTONS)
        assert len({round(b["w"]) for b in buttons}) == 1, buttons
        assert len({round(b["left"]) for b in buttons}) >= 2, buttons
