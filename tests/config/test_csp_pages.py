"""The main pages, as answered, run under the Content-Security-Policy (config/csp.py): the
header allows scripts and styles from this site's files alone, their HTML holds nothing
it would block (tests/markup.py), their scripts are this site's files loaded with defer,
and what inline code used to do is still marked for static/js/league.js to do."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from config.api_errors import server_error
from league import events
from league.models import Event
from matches.models import Match
from tests.conftest import PASSWORD
from tests.markup import inline_code

pytestmark = pytest.mark.django_db

GAME = "super_showdown"
HTMX = {"HTTP_HX_REQUEST": "true"}
LEAGUE_JS = "/static/js/league.js"
# What league.js reads: a page marked so must load it.
MARKS = ("data-confirm", "data-guard-edits", "data-min-width")


class Elements(HTMLParser):
    """Every start tag: its name and attributes."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {name: value or "" for name, value in attrs}))


def elements(html: str, tag: str) -> list[dict[str, str]]:
    return [attrs for name, attrs in Elements(html).found if name == tag]


def by_id(html: str, id_: str) -> dict[str, str]:
    (found,) = [attrs for _, attrs in Elements(html).found if attrs.get("id") == id_]
    return found


def checked(response: HttpResponse, *, page: bool = True) -> str:
    """The answer's HTML, once it is shown to run under the policy. A whole page (not an
    htmx partial) loads scripts from files with defer, league.js among them if it is
    marked for it."""
    assert response.status_code == 200
    sources = dict(part.split(" ", 1)
                   for part in response["Content-Security-Policy"].split("; "))
    assert sources["script-src"] == sources["style-src"] == "'self'"
    html = response.content.decode()
    assert inline_code(html) == []
    if page:
        scripts = elements(html, "script")
        assert scripts and all(s["src"].startswith("/static/") and "defer" in s
                               for s in scripts)
        if any(mark in html for mark in MARKS):
            assert LEAGUE_JS in [s["src"] for s in scripts]
    return html


@pytest.fixture
def alice(client: Client, player: Any) -> Client:
    client.force_login(player)
    return client


@pytest.fixture
def duel(organizer: Any, player: Any, player2: Any) -> Event:
    """A started final of a season: alice against bruno."""
    season = events.create_season(name="Spring league", game=GAME, by=organizer)
    event = events.create_event(name="Duel", game=GAME, format="single_elimination",
                                season=season, by=organizer)
    for name in ("alice", "bruno"):
        events.add_entrant(event=event, by=organizer, player=name)
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    return event


def test_the_lobby_and_the_play_page_of_a_live_match(alice: Client) -> None:
    html = checked(alice.get(reverse("lobby")))
    assert LEAGUE_JS in html
    made = alice.post(reverse("quick_play"))
    match = Match.objects.get(pk=int(made["Location"].rstrip("/").rsplit("/", 1)[-1]))
    assert match.status == Match.Status.ACTIVE
    html = checked(alice.get(reverse("match_play", args=[match.id])))
    assert [s["src"] for s in elements(html, "script")] == [
        "/static/vendor/htmx.min.js", LEAGUE_JS, "/static/js/play.js"]
    meta = next(m for m in elements(html, "meta") if m.get("name") == "htmx-config")
    assert '"allowEval": false' in meta["content"]
    for answer in (html, checked(alice.get(reverse("match_state", args=[match.id]), **HTMX),
                                 page=False)):
        state = by_id(answer, "match-state")
        assert state["hx-trigger"] == "every 2s, league-refresh" and "data-guard-edits" in state
        (resign,) = [f for f in elements(answer, "form") if f.get("class") == "resign"]
        assert resign["data-confirm"] == "Resign? The match ends and you lose it."
        assert {"type": "hidden", "name": "confirmed", "value": ""} in elements(answer, "input")


def test_the_event_page_and_its_organizer_page(alice: Client, organizer: Any,
                                               duel: Event) -> None:
    html = checked(alice.get(reverse("league:event", args=[duel.pk])))
    assert by_id(html, "event-results")["hx-trigger"] == "every 4s"
    (bracket,) = [s for s in elements(html, "svg") if s.get("class") == "bracket"]
    assert int(bracket["data-min-width"]) == int(int(bracket["width"]) * 0.85)
    staff = Client()
    staff.force_login(organizer)
    guarded = "league-changed from:body, league-refresh"
    html = checked(staff.get(reverse("league:event_admin", args=[duel.pk])))
    for answer in (html, checked(staff.get(reverse("league:event_live", args=[duel.pk]),
                                           **HTMX), page=False)):
        live = by_id(answer, "event-live")
        assert live["hx-trigger"] == f"every 3s, {guarded}" and "data-guard-edits" in live
    panel = by_id(html, "event-panel")
    assert panel["hx-trigger"] == guarded and "data-guard-edits" in panel


def test_the_withdraw_form_of_an_event_open_for_entry(alice: Client, organizer: Any) -> None:
    night = events.create_event(name="Open night", game=GAME, format="swiss", by=organizer,
                                open_entry=True)
    events.add_entrant(event=night, by=organizer, player="alice")
    html = checked(alice.get(reverse("league:event", args=[night.pk])))
    leave = reverse("league:event_leave", args=[night.pk])
    (form,) = [f for f in elements(html, "form") if f.get("action") == leave]
    assert form["data-confirm"] == "Withdraw your entry from this Event?"


def test_the_dashboard_and_the_account_page(alice: Client, organizer: Any,
                                            duel: Event) -> None:
    staff = Client()
    staff.force_login(organizer)
    assert "Duel" in checked(staff.get(reverse("league:dashboard")))
    assert "alice" in checked(alice.get(reverse("account")))


def test_the_admin_pages_carry_no_inline_code(player: Any, player2: Any) -> None:
    """The date pickers, the action select and the "Close the accounts for good" page
    run on Django's static scripts and data attributes."""
    boss = get_user_model().objects.create_superuser("boss", password=PASSWORD)
    admin = Client()
    admin.force_login(boss)
    chosen = {"action": "close_accounts", "_selected_action": [player.pk, player2.pk]}
    for answer in (admin.get("/admin/"), admin.get("/admin/auth/user/"),
                   admin.get(f"/admin/auth/user/{player.pk}/change/"),
                   admin.post("/admin/auth/user/", chosen)):
        html = checked(answer, page=False)
        assert all(s["src"].startswith("/static/admin/") or s["src"] == "/admin/jsi18n/"
                   for s in elements(html, "script"))
    assert "<li>alice</li>" in html and 'name="confirmed" value="yes"' in html
    assert get_user_model().objects.get(pk=player.pk).is_active  # only asked


def test_the_500_page_takes_its_layout_from_the_stylesheet() -> None:
    response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert inline_code(html) == []
    assert {"rel": "stylesheet", "href": "/static/css/site.css"} in elements(html, "link")
    assert '<main class="error-page">' in html  # site.css lays it out
