"""An Event's organizer page: the panel's refresh waits while the organizer edits in it."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from league.models import Event

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
GUARDED = "league-changed[leagueIdle(this)] from:body, league-refresh"


class Tags(HTMLParser):
    """Every element of one tag name: its attributes, and its text as "text"."""

    def __init__(self, html: str, tag: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tag = tag
        self.found: list[dict[str, str]] = []
        self.open: dict[str, str] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == self.tag:
            self.open = {**{k: v or "" for k, v in attrs}, "text": ""}
            self.found.append(self.open)

    def handle_endtag(self, tag: str) -> None:
        if tag == self.tag:
            self.open = None

    def handle_data(self, data: str) -> None:
        if self.open is not None:
            self.open["text"] += data


def tags(html: str, tag: str) -> list[dict[str, str]]:
    return Tags(html, tag).found


def panel_of(html: str) -> dict[str, str]:
    return next(div for div in tags(html, "div") if div.get("id") == "event-panel")


def test_the_panel_refreshes_on_league_changed_only_while_nobody_edits_in_it(
        sam_client: Client, cup: Event) -> None:
    page = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    panel = panel_of(page)
    assert panel["hx-trigger"] == GUARDED and "data-guard-edits" in panel
    assert panel["hx-get"] == reverse("league:event_admin", args=[cup.pk])
    assert "/static/js/league.js" in [s.get("src") for s in tags(page, "script")]


def test_the_script_the_panels_filter_calls_holds_and_makes_the_refresh() -> None:
    found = finders.find("js/league.js")
    assert found is not None
    script = Path(str(found)).read_text()
    assert "window.leagueIdle = function" in script
    for listened in ('"input"', '"change"', '"focusout"'):
        assert f"document.addEventListener({listened}" in script
    assert 'htmx.trigger(guard, "league-refresh")' in script


def test_a_panel_action_answers_with_the_new_panel_still_guarded(sam_client: Client,
                                                                 cup: Event) -> None:
    """The organizer's own posts swap in the panel they answer with, filter or not."""
    page = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    posting = [f for f in tags(page, "form") if "hx-post" in f]
    assert posting and all(f.get("hx-target") in ("#event-panel", "#event-live")
                           and f.get("hx-swap") == "outerHTML" for f in posting)
    response = sam_client.post(reverse("league:entrant_add", args=[cup.pk]),
                               {"bot": "random", "name": "Bot 3"}, **HTMX)
    assert response["HX-Trigger"] == "league-changed"
    html = response.content.decode()
    assert "Bot 3" in html
    panel = panel_of(html)
    assert panel["hx-trigger"] == GUARDED and "data-guard-edits" in panel

