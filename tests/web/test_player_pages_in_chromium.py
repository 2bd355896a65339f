"""The player pages as a phone shows them: headless Chromium at 390px wide (tests/chromium.py)
measures every control and every piece of text on the lobby; each game's play page mid-match
(the seat to move, so its squares, cards and buttons are there) and in its other phases (a
hand to play from, a choice, a reveal, a vote, waiting for another seat, the end); a match
waiting for players, an invitation, a spectator's view and the page that asks before a
resign; a replay, the public Event page, a player's page, the ratings table and the account
page; and the pages that sign in, sign up, change, reset and close (forms sent, refused and
done).

A control is a tap of 44px either way, a game board's squares too (a board wider than the
phone scrolls in its own box: tests/web/test_superstar_ring_in_chromium.py); text says
something at 14px, or 12px on a game's dense cards and boards (DENSE) but for a card's name
and rules (CARD_WORDS), decorative marks aside (DECORATIVE); nothing scrolls sideways, and a list that scrolls shows its numbers
whole. A checkbox sits on its label's line on a phone and on a desktop. One Chromium serves
the module's tests. Skipped where no Chromium is installed."""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from engine.protocol import PendingKind
from engine.registry import get_rules
from league import events
from league.models import Player
from matches import services
from matches.models import Match
from tests.chromium import CHROMIUM, TAP, TEXT, WIDTH, Chromium, measure, sign_in, sign_out, started
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]

DENSE_TEXT = 12  # the least size of text on a game's dense cards and boards, in CSS px
# A game's dense cards and boards, where text may be DENSE_TEXT.
DENSE = (".ss-card, .ss-board, .st-card, .st-stats, .st-spots-head, .sx-card, svg, "
         ".rr-card, .us-card")
# A card's name and rules on those cards, which a player reads as any text: at TEXT (a
# card's number, type, icons and attributes may be DENSE_TEXT).
CARD_WORDS = (".ss-card .name, .ss-card .power-text, .ss-card .card-text, .st-name, "
              ".sx-card, .rr-card, .us-card strong, .us-text")
# Marks that only decorate (a card's back, a start square's star): any size.
DECORATIVE = (".st-back-mark", ".st-star")
NEW = "another-long-password-7"  # alice's password once she changes it
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


# A point in a match to stop at, asked of its rules and its state.
Stop = Callable[[Any, Any], bool]


def alice_may(*kinds: str) -> Stop:
    """Alice (seat 0) is to decide, and may take an action of one of `kinds`."""
    return lambda rules, state: 0 in rules.pending(state).seats and any(
        action.get("type") in kinds for action in rules.legal_actions(state, 0))


def alice_decides(rules: Any, state: Any) -> bool:
    return 0 in rules.pending(state).seats


def others_decide(rules: Any, state: Any) -> bool:
    """Another seat is to decide, and alice waits."""
    return 0 not in rules.pending(state).seats != ()


def over(rules: Any, state: Any) -> bool:
    return rules.pending(state).kind is PendingKind.END


# The matches played at most for one game's phases below: a match played at random reaches
# some seldom (a Tag Out comes in about one Event in three).
TRIES = 6
# Each game's phases that the first test does not show, in the order one match of it
# reaches them: (page, what stops the match there).
PHASES: list[tuple[str, dict[str, Any], int, list[tuple[str, Stop]]]] = [
    ("super_showdown", {}, 2, [("super_showdown-hand", alice_may("play_card")),
                               ("super_showdown-speed", alice_may("choose_outcome")),
                               ("super_showdown-waiting", others_decide),
                               ("super_showdown-over", over)]),
    ("superstar_showdown", {}, 2, [
        ("superstar_showdown-resolve", alice_may("resolve")),
        ("superstar_showdown-reverse", alice_may("reverse")),
        ("superstar_showdown-waiting", others_decide),
        ("superstar_showdown-pin", alice_may("pin")),
        ("superstar_showdown-over", over)]),
    ("superstar_showdown", EVENT, 2, [
        ("superstar_event-send_in", alice_may("send_in")),
        ("superstar_event-assist", alice_may("assist")),
        ("superstar_event-bonus", alice_may("buy_bonus")),
        ("superstar_event-tag_out", alice_may("tag_out")),
        ("superstar_event-shove", alice_may("shove")),
        ("superstar_event-over", over)]),
    ("supershow", {"match_type": "birdcage"}, 3, [
        ("supershow-draft", alice_may("draft")),
        ("supershow-pick", alice_may("pick")),
        ("supershow-play", alice_may("play")),
        ("supershow-stop", alice_may("no_stop")),
        ("supershow-choose", alice_may("choose")),
        ("supershow-discard", alice_may("discard")),
        ("supershow-over", over)]),
    # The Supershow's teams, laid out as two sides.
    ("supershow", {"match_type": "tag_team"}, 3, [("supershow-tag_team", alice_decides)]),
    ("supershow", {"match_type": "tornado_tag_team"}, 4, [("supershow-tornado", alice_decides)]),
    # A Finish the others may Team Up on (three in four Fatal Four Ways ask).
    ("supershow", {"match_type": "fatal_four_way_first_fall"}, 4, [
        ("supershow-team_up", alice_may("team_up"))]),
    ("royal_rumble", {}, 3, [
        ("royal_rumble-target", alice_may("target")),
        ("royal_rumble-boost", alice_may("boost")),
        ("royal_rumble-defend", alice_may("defend")),
        ("royal_rumble-breather", alice_may("end_breather")),
        ("royal_rumble-signature", alice_may("signature")),
        # Going over the top rope, asked to hold on (or to let go, holding no Holding On).
        ("royal_rumble-hold_on", alice_may("hold_on", "let_go")),
        ("royal_rumble-over", over)]),
    ("ultimate_showdown", {}, 3, [
        ("ultimate_showdown-sides", alice_may("choose_sides")),
        ("ultimate_showdown-challenge", alice_may("vote_challenge")),
        ("ultimate_showdown-contenders", alice_may("play_contenders")),
        ("ultimate_showdown-bet", alice_may("bet")),
        ("ultimate_showdown-vote", alice_may("vote_match")),
        ("ultimate_showdown-discard", alice_may("discard")),
        ("ultimate_showdown-over", over)]),
]


def to_the_mayhem(state: Any, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Super Showdown: the moves onto the Mayhem square, where a super alone chooses the
    outcome (Speed), which a match played at random seldom shows."""
    return [action for action in actions if action.get("to") == list(state.mayhem or ())]


# Where alice's random choices lean, by game: to those of her actions it names, if any.
LEANS = {"super_showdown": to_the_mayhem}


def play_through(match: Match, people: list[Any], rng: random.Random,
                 stops: dict[str, Stop], at: Callable[[str], None]) -> dict[str, Stop]:
    """Play random decisions to the end of the match (alice's leaning as LEANS says),
    calling `at(name)` the first time each of `stops` holds; those that never held."""
    rules = get_rules(match.game)
    left = dict(stops)
    while left:
        match.refresh_from_db()
        state = services.load_state(match)
        for name, stop in list(left.items()):
            if stop(rules, state):
                at(name)
                del left[name]
        pending = rules.pending(state)
        if not pending.seats:
            break
        seat = pending.seats[0]
        actions = rules.legal_actions(state, seat)
        lean = LEANS.get(match.game)
        services.submit_action(match=match, seat=seat, user=people[seat], action=rng.choice(
            (seat == 0 and lean and lean(state, actions)) or actions))
    return left


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
    events.create_team(name="Odd Couple", members=[player.username, player2.username],
                       by=organizer)  # (the player page's team row links the partner)
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
        if min(control["w"], control["h"]) < TAP:
            wrong.append(f"tap {control['w']:.0f}x{control['h']:.0f} {control['what']}")
    for text in found["texts"]:
        least = DENSE_TEXT if text["dense"] else TEXT
        if text["px"] < least and not any(mark[1:] in text["where"].split()
                                          for mark in DECORATIVE):
            wrong.append(f"text {text['px']}px {text['where']}: {text['text']}")
    if found["wide"] > WIDTH:
        wrong.append(f"the page is {found['wide']}px wide")
    return wrong


# A list that scrolls clips its numbers where they jut out past its padding: each such
# list whose widest number (at its font) is wider than its padding.
CLIPPED_NUMBERS = """[...document.querySelectorAll('main ol')].filter(ol => {
  const cs = getComputedStyle(ol);
  if (cs.overflowY === 'visible' || !ol.children.length) return false;
  const most = Math.max(...[...ol.children].map(li => li.value));
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = cs.font;
  return pen.measureText(most + '. ').width > parseFloat(cs.paddingLeft);
}).map(ol => 'list numbers clipped: ' + ol.className)"""


def look(phone: Chromium, name: str, wrong: dict[str, list[str]], controls: int = 2) -> None:
    """What a phone would find wrong on the page `phone` shows, its folded sections opened,
    into `wrong` under `name`; its screenshots at 390 and 1024px into SHOTS. At least
    `controls` controls and some text must be there (else the page is not the one meant)."""
    phone.js("document.querySelectorAll('main details').forEach(d => d.open = true)")
    found = measure(phone, DENSE, CARD_WORDS)
    assert len(found["controls"]) >= controls and found["texts"], name
    if found_wrong := sorted(set(faults(found)) | set(phone.js(CLIPPED_NUMBERS))):
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


@pytest.mark.parametrize("number", range(len(PHASES)),
                         ids=[phase[3][0][0] for phase in PHASES])
def test_each_game_in_its_other_phases_on_a_phone(
        phone: Chromium, live_server: Any, player: Any, player2: Any, outsider: Any,
        organizer: Any, monkeypatch: pytest.MonkeyPatch, number: int) -> None:
    """A match of each game, played at random and stopped at each of its phases (a hand to
    play from, a choice to make, a reveal, a vote, waiting for another seat, the end), where
    alice's page is measured; a phase the match never reached gets another match. (One
    case a game's phases, PHASES[number]: the cases spread over the test workers.)"""
    people = [player, player2, outsider, organizer]
    wrong: dict[str, list[str]] = {}
    game, options, seats, stops = PHASES[number]
    left = dict(stops)
    for tries in range(TRIES):
        # Each match's own seeds, the decisions' and the deals': one game's phases
        # reached, or not, whatever the others' matches did.
        rng, chance = (random.Random(f"{number}/{tries}{what}") for what in ("", "chance"))
        monkeypatch.setattr("matches.services._chance_rng",
                            lambda chance=chance: random.Random(chance.random()))
        match = services.create_match(game=game, options=options, created_by=organizer,
                                      seats=[{"player": p.username} for p in people[:seats]])

        def at(name: str, match: Match = match) -> None:
            phone.open(live_server.url + reverse("match_play", args=[match.id]))
            look(phone, name, wrong, controls=1)
            phone.open("about:blank")  # its polls stop before the match moves on

        if not (left := play_through(match, people, rng, left, at)):
            break
    if SHOTS:
        (Path(SHOTS) / f"faults-phases-{number}.json").write_text(json.dumps(wrong, indent=1))
    assert (list(left), wrong) == ([], {})


def test_a_match_waiting_invited_watched_and_asking_before_a_resign_on_a_phone(
        phone: Chromium, live_server: Any, player: Any, player2: Any, outsider: Any,
        organizer: Any) -> None:
    """A match alice made, waiting for a player; one bruno invites her to; bruno's and
    olga's, which she watches; and the page that asks before she resigns (the one a browser
    without JavaScript gets: the form sent as it is, the question not asked)."""
    people = [player, player2, outsider, organizer]
    wrong: dict[str, list[str]] = {}
    mine = services.create_match(game="super_showdown", options={}, created_by=player,
                                 seats=[{"player": player.username}, {"open": True}])
    invited = services.create_match(game="royal_rumble", options={}, created_by=player2,
                                    seats=[{"player": player2.username},
                                           {"player": player.username}, {"open": True}])
    watched = services.create_match(game="superstar_showdown", options={}, created_by=organizer,
                                    seats=[{"player": player2.username},
                                           {"player": outsider.username}])
    for name, match in (("open", mine), ("invited", invited), ("watched", watched)):
        phone.open(live_server.url + reverse("match_play", args=[match.id]))
        look(phone, name, wrong, controls=1)
    live = services.create_match(game="ultimate_showdown", options={}, created_by=organizer,
                                 seats=[{"player": p.username} for p in people[:3]])
    phone.open(live_server.url + reverse("match_play", args=[live.id]))
    phone.send("HTMLFormElement.prototype.submit.call(document.querySelector('form.resign'))")
    assert phone.js("document.querySelector('#resign-button').form.confirmed.value") == "yes"
    look(phone, "resign-asked", wrong)
    if SHOTS:
        (Path(SHOTS) / "faults-asked.json").write_text(json.dumps(wrong, indent=1))
    assert wrong == {}


def send_form(phone: Chromium, field: str, values: dict[str, str | bool]) -> None:
    """Fill the form that holds the element `field` (a CSS selector) with `values` by name
    (True ticks a box) and send it as it is, as a browser sends it on a tap."""
    phone.send(f"""(() => {{
      const form = document.querySelector({json.dumps(field)}).closest('form');
      for (const [name, value] of Object.entries({json.dumps(values)})) {{
        const field = form.elements[name];
        if (field.type === 'checkbox') field.checked = value; else field.value = value;
      }}
      HTMLFormElement.prototype.submit.call(form);
    }})()""")


def test_the_sign_in_sign_up_password_and_close_account_pages_on_a_phone(
        phone: Chromium, live_server: Any, player: Any, settings: Any, mailoutbox: list[Any]
) -> None:
    """Alice's account page with its mails' boxes (and on a site that sends no mail), a
    password change refused and done, a close refused; then, signed out: the log-in page
    and a wrong password, sign-up and its refusal, a reset link asked for, its page, a new
    password refused and set; the used link; an email link that works no more; her account
    closed; and sign-up and the reset page on a site that has them closed or sends no
    mail."""
    settings.RESET_BY_MAIL = settings.TURN_MAIL = True
    player.email = "alice@example.org"
    player.save(update_fields=["email"])
    cache.clear()  # sign-in and reset counts of earlier tests
    wrong: dict[str, list[str]] = {}
    site = live_server.url

    def page(name: str) -> None:
        look(phone, name, wrong, controls=1)

    phone.open(site + reverse("account"))
    page("account-mails")
    settings.RESET_BY_MAIL = settings.TURN_MAIL = False  # her address only removed
    phone.open(site + reverse("account"))
    page("account-no-mail")
    settings.RESET_BY_MAIL = settings.TURN_MAIL = True
    account_form = "input[name=form][value={}]".format
    send_form(phone, account_form("password"), {
        "old_password": "not-it", "new_password": NEW, "new_password2": NEW})
    page("account-password-refused")
    send_form(phone, account_form("password"), {
        "old_password": PASSWORD, "new_password": NEW, "new_password2": NEW})
    page("account-password-changed")
    send_form(phone, account_form("close"), {"password": NEW})
    page("account-close-refused")

    sign_out(phone)
    phone.open(site + reverse("login"))
    page("login")
    send_form(phone, "main form", {"username": "alice", "password": "not-it"})
    page("login-refused")
    phone.open(site + reverse("register"))
    page("register")
    send_form(phone, "main form", {"username": "alice"})
    page("register-refused")
    phone.open(site + reverse("password_forgot"))
    page("forgot")
    send_form(phone, "main form", {"email": "alice@example.org"})
    page("forgot-sent")
    (mailed,) = mailoutbox
    link = re.search(r"/password/reset/\S+/\S+/", mailed.body)
    assert link, mailed.body
    phone.open(site + link.group())
    page("reset")
    send_form(phone, "main form", {"new_password": PASSWORD, "new_password2": "other"})
    page("reset-refused")
    send_form(phone, "main form", {"new_password": PASSWORD, "new_password2": PASSWORD})
    assert phone.js("location.pathname") == reverse("lobby")
    page("reset-done")
    phone.open(site + link.group())
    page("reset-used")
    phone.open(site + reverse("email_confirm", args=["not-a-token"]))
    page("email-refused")
    phone.open(site + reverse("account"))
    send_form(phone, account_form("close"), {"password": PASSWORD, "sure": True})
    assert phone.js("location.pathname") == reverse("login")
    page("account-closed")

    settings.SIGNUP_OPEN = settings.RESET_BY_MAIL = False
    phone.open(site + reverse("register"))
    page("register-closed")
    phone.open(site + reverse("password_forgot"))
    page("forgot-no-mail")
    if SHOTS:
        (Path(SHOTS) / "faults-account.json").write_text(json.dumps(wrong, indent=1))
    assert wrong == {}


# Each checkbox on the page: whether it sits on its label's line, left of the label's words
# (its middle within their height), as one reads a box and what it says.
BESIDE = """[...document.querySelectorAll('main input[type=checkbox]')].map(box => {
  const at = box.getBoundingClientRect(), words = document.createRange();
  words.selectNodeContents(box.labels[0]);
  const said = words.getBoundingClientRect(), middle = (at.top + at.bottom) / 2;
  return [box.name, at.right <= said.left && said.top <= middle && middle <= said.bottom];
})"""


def test_a_checkbox_sits_on_its_label_s_line_on_a_phone_and_a_desktop(
        phone: Chromium, live_server: Any, settings: Any) -> None:
    settings.TURN_MAIL = True  # the account page's two mail boxes, and the close one
    phone.open(live_server.url + reverse("account"))
    for width in (WIDTH, 1280):
        phone.resize(width)
        assert phone.js(BESIDE) == [["turn_mail", True], ["event_mail", True],
                                    ["sure", True]], width
