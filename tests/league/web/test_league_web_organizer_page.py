"""An Event's organizer page and its public page: the panel's refresh waits while the
organizer edits in it, the buttons repeated per row say what they act on, the polled
pages say what they do without JavaScript, flash messages are announced, and a keyboard
user keeps their place when the panel or the live list is swapped in."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.registry import get_rules
from league import events, formats
from league.models import Entrant, Event, EventMatch, EventRecord, Standing
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
GUARDED = "league-changed from:body, league-refresh"  # held while busy: data-guard-edits


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


def test_the_live_list_polls_and_refreshes_only_while_nobody_picks_a_bot_in_it(
        sam_client: Client, duel: Event) -> None:
    page = sam_client.get(reverse("league:event_admin", args=[duel.pk])).content.decode()
    live = next(s for s in tags(page, "section") if s.get("id") == "event-live")
    assert live["hx-trigger"] == f"every 3s, {GUARDED}"
    assert "data-guard-edits" in live and 'name="bot"' in page


def test_the_script_that_holds_the_panels_refresh_makes_it_later() -> None:
    """tests/web/test_league_script.py runs the hold itself."""
    found = finders.find("js/league.js")
    assert found is not None
    script = Path(str(found)).read_text()
    assert 'document.addEventListener("htmx:confirm", holdWhileBusy)' in script
    for listened in ('"input"', '"change"', '"focusout"'):
        assert f"document.addEventListener({listened}" in script
    assert 'htmx.trigger(guard, "league-refresh")' in script
    # A refresh keeps the sections the reader unfolded (a correction) open.
    for listened in ('"htmx:beforeSwap"', '"htmx:afterSettle"'):
        assert f"document.addEventListener({listened}" in script
    assert 'querySelectorAll("details[open]")' in script
    # The mark set while a refresh is held shows a note on the page.
    assert 'guard.setAttribute("data-refresh-held", "")' in script
    css = Path(str(finders.find("css/site.css"))).read_text()
    assert "[data-guard-edits][data-refresh-held]::before" in css


def test_a_panel_action_answers_with_the_new_panel_still_guarded(sam_client: Client,
                                                                 cup: Event) -> None:
    """The organizer's own posts are not held: they swap in the panel they answer with."""
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


# -- names and notes for assistive technology ----------------------------------------------

def button_names(html: str) -> dict[str, list[str]]:
    """Each button's visible text -> the accessible names of the buttons showing it."""
    names: dict[str, list[str]] = {}
    for button in tags(html, "button"):
        text = " ".join(button["text"].split())
        names.setdefault(text, []).append(button.get("aria-label") or text)
    return names


def assert_buttons_named_apart(html: str) -> None:
    """The page's own buttons (the top bar writes its Log out twice, for a wide screen
    and a phone's menu, one shown at a time)."""
    own = html[html.index("<main"):]
    every = [name for same in button_names(own).values() for name in same]
    assert len(every) == len(set(every)), every


def label(link: EventMatch) -> str:
    return link.label or link.pairing


def test_withdraw_buttons_name_their_entrant(sam_client: Client, cup: Event) -> None:
    page = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    assert button_names(page)["Withdraw"] == ["Withdraw Bot 1", "Withdraw Bot 2"]
    assert_buttons_named_apart(page)


def test_a_withdrawn_entrant_is_reinstated_from_the_page_after_a_confirm(
        sam_client: Client, cup: Event) -> None:
    """A wrong withdrawal is undone where it was made: its row offers Reinstate, which
    asks first, in place of Withdraw."""
    withdraw = reverse("league:entrant_withdraw", args=[cup.pk, "e1"])
    panel = sam_client.post(withdraw, {"seq": cup.seq}, **HTMX).content.decode()
    assert button_names(panel)["Withdraw"] == ["Withdraw Bot 2"]
    assert button_names(panel)["Reinstate"] == ["Reinstate Bot 1"]
    form = next(f for f in tags(panel, "form")
                if f.get("action") == reverse("league:entrant_reinstate", args=[cup.pk, "e1"]))
    assert form["hx-confirm"] == "Reinstate Bot 1? Their withdrawal is undone."
    cup.refresh_from_db()
    answer = sam_client.post(form["action"], {"seq": cup.seq}, **HTMX)
    panel = answer.content.decode()
    assert answer.status_code == 200 and "Bot 1 is reinstated." in panel
    assert button_names(panel)["Withdraw"] == ["Withdraw Bot 1", "Withdraw Bot 2"]
    assert "Reinstate" not in button_names(panel)
    assert not Entrant.objects.get(event=cup, key="e1").withdrawn
    assert EventRecord.objects.filter(event=cup).order_by("-seq").values_list(
        "kind", "actor__username").first() == ("entrant_reinstated", "sam")


def test_a_reinstatement_too_late_says_why_beside_its_button(
        sam_client: Client, make_event: Callable[..., Event]) -> None:
    event = make_event(format="round_robin", bots=3)
    events.withdraw_entrant(event=event, by=event.created_by, key="e1")
    events.start_event(event=event, by=event.created_by)
    event.refresh_from_db()
    answer = sam_client.post(reverse("league:entrant_reinstate", args=[event.pk, "e1"]),
                             {"seq": event.seq}, **HTMX)
    page = refused_beside(answer, "reinstate-e1", 200)
    beside = page[page.index('id="reinstate-e1-error">'):].split("</p>")[0]
    assert "Bot 1 cannot be reinstated: the Event started after they withdrew" in beside
    assert Entrant.objects.get(event=event, key="e1").withdrawn


def test_reinstate_is_offered_only_where_the_press_may_succeed(
        sam_client: Client, make_event: Callable[..., Event]) -> None:
    """A withdrawal the start went by is too late to undo: its row offers no Reinstate
    (which would be refused), a withdrawal since the start that nothing went by does."""
    event = make_event(format="round_robin", bots=4, hold_rounds=True)
    events.withdraw_entrant(event=event, by=event.created_by, key="e1")
    events.start_event(event=event, by=event.created_by)
    url = reverse("league:event_admin", args=[event.pk])
    page = sam_client.get(url).content.decode()
    assert "Reinstate" not in button_names(page)
    assert "withdrawn" in page[page.index('id="entrant-row-e1"'):].split("</tr>")[0]
    events.withdraw_entrant(event=event, by=event.created_by, key="e2")
    page = sam_client.get(url).content.decode()
    assert button_names(page)["Reinstate"] == ["Reinstate Bot 2"]


def test_a_withdrawal_says_what_it_did_and_which_live_match_it_forfeited(
        sam_client: Client, cup: Event, duel: Event) -> None:
    """The row says "withdrawn" alone: the panel says so, and names the match that ended
    for them, on the page and to a screen reader."""
    answer = sam_client.post(reverse("league:entrant_withdraw", args=[cup.pk, "e1"]),
                             {"seq": cup.seq}, **HTMX).content.decode()
    assert told(answer) == "Bot 1 withdrew."
    assert '<p class="muted small" id="entrants-done">Bot 1 withdrew.</p>' in answer
    final = label(EventMatch.objects.get(event=duel))
    answer = sam_client.post(reverse("league:entrant_withdraw", args=[duel.pk, "e1"]),
                             {"seq": duel.seq}, **HTMX).content.decode()
    said = f"alice withdrew; their match {final} was forfeited."
    assert told(answer) == said
    assert f'id="entrants-done">{said}</p>' in answer


def test_without_scripts_a_withdrawal_and_a_reinstatement_say_what_they_did(
        sam_client: Client, cup: Event) -> None:
    withdrawn = sam_client.post(reverse("league:entrant_withdraw", args=[cup.pk, "e2"]),
                                {"seq": cup.seq}, follow=True).content.decode()
    assert 'data-announce>Bot 2 withdrew.</div>' in withdrawn
    cup.refresh_from_db()
    back = sam_client.post(reverse("league:entrant_reinstate", args=[cup.pk, "e2"]),
                           {"seq": cup.seq}, follow=True).content.decode()
    assert 'data-announce>Bot 2 is reinstated.</div>' in back


def test_the_live_lists_seat_buttons_name_the_entrant_and_the_match(
        sam_client: Client, duel: Event) -> None:
    final = label(EventMatch.objects.get(event=duel))
    html = sam_client.get(reverse("league:event_live", args=[duel.pk]), **HTMX).content.decode()
    names = button_names(html)
    assert names["Forfeit"] == [f"Forfeit {final} for alice", f"Forfeit {final} for bruno"]
    assert names["Bot plays"] == [f"Bot plays for alice in {final}",
                                  f"Bot plays for bruno in {final}"]
    selects = [s.get("aria-label") for s in tags(html, "select")]
    assert selects == [f"Bot for alice in {final}", f"Bot for bruno in {final}"]
    page = sam_client.get(reverse("league:event_admin", args=[duel.pk])).content.decode()
    assert_buttons_named_apart(page)


@pytest.mark.parametrize("policy, said", [("forfeit", "forfeits at"),
                                           ("bot", "a bot plays at")])
def test_the_live_list_says_when_a_turn_deadline_gives_the_awaited_person_the_policy(
        sam_client: Client, sam: Any, make_event: Callable[..., Event], player: Any,
        player2: Any, policy: str, said: str) -> None:
    event = make_event(name="Night", turn_deadline_minutes=10, deadline_policy=policy)
    events.add_entrant(event=event, by=sam, player="alice")
    events.add_entrant(event=event, by=sam, player="bruno")
    events.start_event(event=event, by=sam)
    link = EventMatch.objects.get(event=event)
    match = link.match
    awaited = services.load_state(match)
    [seat] = get_rules(match.game).pending(awaited).seats
    key = link.entrants[seat]
    at = match.updated_at + timedelta(minutes=10)
    html = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX).content.decode()
    [told] = re.findall(rf'id="deadline-{link.pairing}-{key}">(.*?)</span>', html, re.S)
    assert said in told
    assert f'datetime="{at.isoformat()}"' in told
    other = link.entrants[1 - seat]
    assert f'id="deadline-{link.pairing}-{other}"' not in html  # (not awaited)
    # once it has gone by, before the sweep applies it
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=11))
    html = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX).content.decode()
    [told] = re.findall(rf'id="deadline-{link.pairing}-{key}">(.*?)</span>', html, re.S)
    assert "deadline passed at" in told


def test_the_live_list_says_a_person_just_awaited_is_to_move_for_under_a_minute(
        sam_client: Client, sam: Any, make_event: Callable[..., Event], player: Any,
        player2: Any) -> None:
    """Django's timesince says "0 minutes" of a wait under a minute: "to move for 0
    minutes" read as if the seat was not awaited at all."""
    event = make_event(name="Night")
    events.add_entrant(event=event, by=sam, player="alice")
    events.add_entrant(event=event, by=sam, player="bruno")
    events.start_event(event=event, by=sam)
    match = EventMatch.objects.get(event=event).match
    html = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX).content.decode()
    assert "to move</span> <span class=\"muted small\">for under a minute</span>" in html
    assert "0\xa0minutes" not in html and "0 minutes" not in html
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=3))
    html = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX).content.decode()
    assert "for 3\xa0minutes</span>" in html


def test_correct_buttons_name_their_match(
        sam_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, outsider: Any, django_capture_on_commit_callbacks: Any) -> None:
    event = make_event(format="round_robin")
    for user in (player, player2, outsider):
        events.add_entrant(event=event, by=sam, player=user.username)
    events.start_event(event=event, by=sam)
    while live := EventMatch.objects.filter(event=event, match__status=Match.Status.ACTIVE).first():
        with django_capture_on_commit_callbacks(execute=True):
            events.forfeit(event=event, by=sam, pairing=live.pairing, entrant=live.entrants[1])
    played = EventMatch.objects.filter(event=event)
    assert played.count() == 3
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert sorted(button_names(page)["Correct"]) == sorted(
        f"Correct {label(link)}" for link in played)
    assert_buttons_named_apart(page)
    # Each place field says what it holds, not the entrant's name alone.
    section = page[page.index('<section class="card" id="event-corrections">'):]
    fields = [" ".join(f["text"].split()) for f in tags(section, "label")]
    assert len(fields) == 6 and all(f.startswith("Place of ") for f in fields), fields
    # A correction changes a summary above the button: a screen reader is told.
    link = played.first()
    assert link is not None
    event.refresh_from_db()
    winner, loser = link.entrants
    corrected = sam_client.post(reverse("league:result_correct", args=[event.pk]), {
        "seq": event.seq, "pairing": link.pairing, f"place_{winner}": 2,
        f"place_{loser}": 1}, **HTMX).content.decode()
    assert told(corrected) == "Result corrected.", corrected[:300]


def test_every_header_of_the_entrants_table_has_a_text(sam_client: Client, cup: Event) -> None:
    page = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    table = page.split('<table class="entrants">')[1].split("</table>")[0]
    headers = [" ".join(th["text"].split()) for th in tags(table, "th")]
    assert headers == ["Key", "Name", "Seed", "Actions"]
    assert '<span class="visually-hidden">Actions</span>' in table
    css = Path(str(finders.find("css/site.css"))).read_text()
    assert ".visually-hidden {" in css


def test_the_polled_pages_say_to_reload_without_javascript(
        sam_client: Client, alice_client: Client, duel: Event) -> None:
    for client, name in ((sam_client, "league:event_admin"), (alice_client, "league:event")):
        page = client.get(reverse(name, args=[duel.pk])).content.decode()
        notes = [" ".join(n["text"].split()) for n in tags(page, "noscript")]
        assert len(notes) == 1 and "does not update by itself" in notes[0], name
        assert "reload the page" in notes[0]


def test_pages_that_do_not_poll_have_no_reload_note(sam_client: Client,
                                                    alice_client: Client, cup: Event) -> None:
    """A draft Event's public page does not update by itself with JavaScript either; its
    organizer page does (entries come in), and says so."""
    assert "<noscript>" not in alice_client.get(
        reverse("league:event", args=[cup.pk])).content.decode()
    page = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    assert [" ".join(n["text"].split()) for n in tags(page, "noscript")] == [
        "Without JavaScript this page does not update by itself: reload the page to see new "
        "entries and results."]


def test_flash_messages_are_announced_by_their_level(sam_client: Client, staff_client: Client,
                                                     cup: Event) -> None:
    refused = sam_client.post(reverse("league:event_leave", args=[cup.pk]))
    page = sam_client.get(refused["Location"]).content.decode()
    [error] = [m for m in tags(page, "div") if "msg" in m.get("class", "").split()]
    assert error["role"] == "alert" and "You hold no entry of your own" in error["text"]
    created = staff_client.post(reverse("league:season_create"), {
        "season-name": "Winter", "season-game": "super_showdown", "season-win": "2",
        "season-draw": "1", "season-loss": "0"})
    page = staff_client.get(created["Location"]).content.decode()
    [done] = [m for m in tags(page, "div") if "msg" in m.get("class", "").split()]
    # Shown at load outside the live region, which league.js moves it into to be read out
    # (a region that has its words at load is read out by few screen readers).
    assert "role" not in done and "data-announce" in done
    assert "Season Winter created." in done["text"]
    assert '<div role="status" data-announce-here></div>' in page


def test_a_team_entrant_is_listed_with_its_members(sam_client: Client, cup: Event,
                                                   organizer: Any, player: Any,
                                                   player2: Any) -> None:
    """The organizer sees who plays for a team they are about to seed or withdraw."""
    events.create_team(name="Reds", members=[player.username, player2.username],
                       by=organizer)
    events.add_entrant(event=cup, by=organizer, team="Reds")
    page = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    row = page[page.index(">Reds"):]
    assert row[:row.index("</tr>")].count("team: alice, bruno") == 1


# -- keyboard focus across a refresh ---------------------------------------------------------

def controls(html: str) -> list[dict[str, str]]:
    """Every element a keyboard user may be on: links, buttons, fields, summaries."""
    found = [c for tag in ("a", "button", "input", "select", "textarea", "summary")
             for c in tags(html, tag)]
    return [c for c in found if c.get("type") != "hidden"]


PANEL, LIVE = '<div id="event-panel"', '<section id="event-live"'


def region(html: str, opening: str) -> str:
    """The panel (up to the live list, which follows it) or the live list."""
    start = html.index(opening)
    end = html.find(LIVE) if opening == PANEL else -1
    return html[start:end] if end > start else html[start:]


def assert_every_control_keeps_one_id(page: str, opening: str, answer: str) -> None:
    """htmx focuses again the element with the focused one's id once it swapped the panel
    or the live list in: a control without one, or with another id in the answer, loses
    focus to the page's top."""
    ids = [c["id"] for c in controls(page) if c.get("id")]
    assert len(ids) == len(set(ids)), ids
    shown = [c.get("id") for c in controls(region(page, opening))]
    assert all(shown), shown
    swapped = [c.get("id") for c in controls(region(answer, opening))]
    assert all(swapped) and len(swapped) == len(set(swapped)), swapped
    assert set(shown) <= set(swapped), set(shown) - set(swapped)


def test_a_poll_or_an_action_gives_focus_back_to_the_control_that_had_it(
        sam_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, outsider: Any, django_capture_on_commit_callbacks: Any) -> None:
    """The live list is polled every 3 seconds while bots move, and the panel refreshes on
    each result: a keyboard user on a Forfeit, a Withdraw, a Correct or a field stays
    there, as the player pages' controls do."""
    event = make_event(format="round_robin")
    for name in ("alice", "bruno", "olga"):
        events.add_entrant(event=event, by=sam, player=name)
    events.start_event(event=event, by=sam)
    first = EventMatch.objects.filter(event=event).first()
    assert first is not None
    with django_capture_on_commit_callbacks(execute=True):
        events.forfeit(event=event, by=sam, pairing=first.pairing, entrant=first.entrants[1])
    event.refresh_from_db()
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert 'id="forfeit-' in page and 'id="withdraw-e1"' in page and 'id="correct-' in page
    live = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX)
    refreshed = sam_client.get(reverse("league:event_admin", args=[event.pk]), **HTMX)
    assert_every_control_keeps_one_id(page, LIVE, live.content.decode())
    assert_every_control_keeps_one_id(page, PANEL, refreshed.content.decode())


def test_the_register_forms_keep_their_fields_ids_after_an_entry(sam_client: Client,
                                                                 cup: Event) -> None:
    page = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    assert 'id="add-player"' in page and 'id="start-submit"' in page
    added = sam_client.post(reverse("league:entrant_add", args=[cup.pk]),
                            {"seq": cup.seq, "bot": "random", "name": "Bot 3"}, **HTMX)
    assert_every_control_keeps_one_id(page, PANEL, added.content.decode())


def test_the_live_lists_winner_is_said_in_words_not_only_in_bold(
        sam_client: Client, duel: Event, sam: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """As on the Event's page: a screen reader does not hear bold type."""
    link = EventMatch.objects.get(event=duel)
    with django_capture_on_commit_callbacks(execute=True):
        events.forfeit(event=duel, by=sam, pairing=link.pairing, entrant="e2")
    html = sam_client.get(reverse("league:event_live", args=[duel.pk]), **HTMX).content.decode()
    row = html.split('<ul class="match-list live-list">')[1].split("</ul>")[0]
    assert '<span class="entrant-won">alice<span class="visually-hidden"> (won)</span>' in row
    assert row.count("(won)") == 1 and '<span class="">bruno</span>' in row


def test_a_drawn_result_names_no_winner_in_the_live_list_nor_on_the_events_page(
        sam_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, django_capture_on_commit_callbacks: Any) -> None:
    """A result of every entrant level (a draw played, or corrected so) is no win for
    both: neither name is bold nor read out as "(won)", and the row says it was drawn."""
    event = make_event(name="Night", format="round_robin")
    for user in (player, player2):
        events.add_entrant(event=event, by=sam, player=user.username)
    events.start_event(event=event, by=sam)
    link = EventMatch.objects.get(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        events.forfeit(event=event, by=sam, pairing=link.pairing, entrant="e2")
    events.correct_result(event=event, by=sam, pairing=link.pairing,
                          placements={"e1": 1, "e2": 1})
    live = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX)
    public = sam_client.get(reverse("league:event", args=[event.pk]))
    for html, listed in ((live.content.decode(), '<ul class="match-list live-list">'),
                         (public.content.decode(), '<ul class="match-list">')):
        row = html.split(listed)[1].split("</ul>")[0]
        assert "(won)" not in row and "entrant-won" not in row
        assert '<span class="muted small">drawn</span>' in row


def test_a_match_a_withdrawal_ended_names_the_walkovers_winner(
        sam_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, outsider: Any, organizer: Any) -> None:
    """The format scores a withdrawn entrant's live match as a walkover, with no result
    of its own: its row says so and names the one left in it the winner, as the
    standings count it."""
    event = make_event(name="Night", format="round_robin")
    for user in (player, player2, outsider, organizer):
        events.add_entrant(event=event, by=sam, player=user.username)
    events.start_event(event=event, by=sam)
    link = EventMatch.objects.get(event=event, pairing="R1-1")
    gone, left = link.entrants
    event.refresh_from_db()
    post_panel = sam_client.post(
        reverse("league:entrant_withdraw", args=[event.pk, gone]), {"seq": event.seq},
        **HTMX)
    assert post_panel.status_code == 200 and "error-banner" not in post_panel.content.decode()
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    live = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX)
    public = sam_client.get(reverse("league:event", args=[event.pk]))
    for html, row_id in ((live.content.decode(), f'id="live-{link.match_id}"'),
                         (public.content.decode(), f'id="event-match-{link.match_id}"')):
        row = html[html.index(row_id):]
        row = row[:row.index("</li>")]
        assert f'<span class="entrant-won">{names[left]}<span class="visually-hidden"> (won)' \
            in row
        assert row.count("(won)") == 1 and "walkover: a withdrawal ended it" in row


def both_of_round_one_withdrawn(client: Client, make_event: Callable[..., Event],
                                sam: Any) -> tuple[Event, EventMatch, dict[str, str]]:
    """A round robin of four bots whose R1-1 entrants withdrew, the first then the second,
    its pairing R1-1 and the organizer's match list: each row's id to the row."""
    event = make_event(format="round_robin", bots=4)
    events.start_event(event=event, by=sam)
    link = EventMatch.objects.get(event=event, pairing="R1-1")
    for key in link.entrants:
        events.withdraw_entrant(event=event, by=sam, key=key)
    html = client.get(reverse("league:event_live", args=[event.pk]), **HTMX).content.decode()
    return event, link, dict(
        re.findall(r'<li class="match-row live-row" id="([^"]+)"(.*?)</li>', html, re.S))


def test_a_walkover_whose_winner_withdrew_later_still_names_them(
        sam_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    """Both entrants of a round-1 match withdraw, one after the other: the match stays
    the walkover the first withdrawal gave the second, as the standings count it, and the
    row named nobody (it read who is still in)."""
    event, link, rows = both_of_round_one_withdrawn(sam_client, make_event, sam)
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    row = rows[f"live-{link.match_id}"]
    assert re.findall(r'<span class="entrant-won">([^<]+)', row) == [names[link.entrants[1]]]
    assert "walkover: a withdrawal ended it" in row


def test_the_match_list_has_every_walkover_the_standings_count(
        sam_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    """The pairings the withdrawals decided with no match made were not listed at all,
    though the standings count them: they are rows too, each naming its winner, so each
    entrant's wins there are the standings' own."""
    event, link, rows = both_of_round_one_withdrawn(sam_client, make_event, sam)
    first, second = link.entrants
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    state = events.replay(event).state
    unmade = [p for p in formats.get_format(event.format).pairings(state)
              if {first, second} & set(p.entrants) and p.round > 1]
    assert len(unmade) == 4
    for pairing in unmade:
        row = rows[f"live-walkover-{pairing.id}"]
        won = re.findall(r'<span class="entrant-won">([^<]+)', row)
        left = [names[k] for k in pairing.entrants if k not in (first, second)]
        assert won == left and "walkover: not played, a withdrawal decided it" in row
    standing = {s.entrant.key: s for s in Standing.objects.filter(event=event)
                .select_related("entrant")}
    for key in names:
        won = sum(re.findall(r'<span class="entrant-won">([^<]+)', row) == [names[key]]
                  for row in rows.values())
        assert won == standing[key].wins


def test_a_match_a_forfeit_ended_says_who_forfeited_until_its_result_is_corrected(
        sam_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, outsider: Any, organizer: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """A forfeit is scored as a loss but rated as none: its row says who forfeited, on the
    organizer's list and the public page, where it read as a loss played out; a result
    the organizer corrected is theirs, and names nobody."""
    event = make_event(name="Night", format="round_robin")
    for user in (player, player2, outsider, organizer):
        events.add_entrant(event=event, by=sam, player=user.username)
    events.start_event(event=event, by=sam)
    link = EventMatch.objects.get(event=event, pairing="R1-1")
    gone, left = link.entrants
    with django_capture_on_commit_callbacks(execute=True):
        events.forfeit(event=event, by=sam, pairing="R1-1", entrant=gone)
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))

    def rows() -> list[str]:
        live = sam_client.get(reverse("league:event_live", args=[event.pk]), **HTMX)
        public = sam_client.get(reverse("league:event", args=[event.pk]))
        found = []
        for html, row_id in ((live.content.decode(), f'id="live-{link.match_id}"'),
                             (public.content.decode(), f'id="event-match-{link.match_id}"')):
            row = html[html.index(row_id):]
            found.append(row[:row.index("</li>")])
        return found

    for row in rows():
        assert f'<span class="entrant-won">{names[left]}<span' in row
        assert f"{names[gone]} forfeited" in row
    event.refresh_from_db()
    events.correct_result(event=event, by=sam, pairing="R1-1",
                          placements={gone: 1, left: 2})
    for row in rows():
        assert f'<span class="entrant-won">{names[gone]}<span' in row
        assert "forfeited" not in row


def test_focus_on_a_control_the_answer_no_longer_has_goes_to_what_held_it(
        sam_client: Client, duel: Event) -> None:
    """Withdraw leaves its row, Start its card, a Forfeit its match's row: the script sends
    focus to the nearest element around the control still there (each row and card keeps
    an id), else to the swapped element's home, not to the page's top."""
    script = Path(str(finders.find("js/league.js"))).read_text()
    for listened in ('"htmx:beforeSwap", noteFocus', '"htmx:afterSettle", focusAgain'):
        assert f"document.addEventListener({listened})" in script
    assert 'getAttribute("data-focus-home")' in script
    page = sam_client.get(reverse("league:event_admin", args=[duel.pk])).content.decode()
    link = EventMatch.objects.get(event=duel)
    for held in ('id="entrant-row-e1"', 'id="entrant-row-e2"', 'id="event-entrants"',
                 f'id="live-{link.match_id}"', 'id="event-register"'):
        assert page.count(held) == 1, held
    homes = re.findall(r'data-focus-home="([^"]+)"', page)
    assert homes == ["entrants-heading", "matches-heading"]
    assert all(page.count(f'id="{home}"') == 1 for home in homes)


def test_forfeit_and_bot_plays_ask_first_naming_the_entrant_and_the_match(
        sam_client: Client, duel: Event) -> None:
    """Neither is undone: a tap beside the other on a phone is asked about first."""
    final = label(EventMatch.objects.get(event=duel))
    html = sam_client.get(reverse("league:event_live", args=[duel.pk]), **HTMX).content.decode()
    asked: dict[str, list[str | None]] = {}
    for form in tags(html, "form"):
        asked.setdefault(form["hx-post"], []).append(form.get("hx-confirm"))
    assert asked == {
        reverse("league:match_forfeit", args=[duel.pk]):
            [f"alice forfeits {final}?", f"bruno forfeits {final}?"],
        reverse("league:match_seat_to_bot", args=[duel.pk]): [f"A bot plays for alice for the rest of {final}?",
                f"A bot plays for bruno for the rest of {final}?"]}


def confirms(html: str, name: str, event: Event) -> list[str | None]:
    """What each form posting to the action `name` of `event` asks before it posts."""
    url = reverse(name, args=[event.pk])
    return [form.get("hx-confirm") for form in tags(html, "form") if form.get("hx-post") == url]


def admin_page(client: Client, event: Event) -> str:
    return client.get(reverse("league:event_admin", args=[event.pk])).content.decode()


STARTS = "The first matches are made at once from the seeding as it stands, which can " \
         "then no longer change"


def test_start_asks_first_naming_the_event_and_its_field(
        sam_client: Client, cup: Event, make_event: Callable[..., Event], sam: Any) -> None:
    """Started, an Event is not a draft again: a tap on Start is asked about first, with
    the Event's name and how many entrants it starts with (a withdrawn one is not)."""
    assert confirms(admin_page(sam_client, cup), "league:event_start", cup) == [
        f"Start Cup with its 2 entrants? {STARTS}."]
    named = make_event(name='Tom\'s "Friday" <Cup>', bots=3, open_entry=True)
    events.withdraw_entrant(event=named, by=sam, key="e2")
    assert confirms(admin_page(sam_client, named), "league:event_start", named) == [
        f'Start Tom\'s "Friday" <Cup> with its 2 entrants? {STARTS}; players can no longer '
        "enter or leave it themselves."]


def test_release_and_pair_by_hand_ask_first_naming_the_round(
        sam_client: Client, held_swiss: Event) -> None:
    page = admin_page(sam_client, held_swiss)
    assert confirms(page, "league:round_release", held_swiss) == [
        "Release round 2 as drawn? The matches listed above are made at once and can no "
        "longer be paired by hand."]
    assert confirms(page, "league:event_pair", held_swiss) == [
        "Pair round 2 by hand? Its matches are made at once as the lines typed here pair "
        "them, in place of the draw listed above."]


def test_a_release_of_two_rounds_names_both(sam_client: Client,
                                            make_event: Callable[..., Event],
                                            started_and_decided: Callable[..., None]) -> None:
    """A double elimination lets its winners' second round and losers' first go at once,
    named as the bracket names them ("rounds 1 and 2" were of two brackets); a bracket is
    not paired by hand, which its question does not speak of."""
    event = make_event(format="double_elimination", bots=8, hold_rounds=True)
    started_and_decided(event, ["W1-1", "W1-2"])
    page = admin_page(sam_client, event)
    assert confirms(page, "league:round_release", event) == [
        "Release Winners round 2 and Losers round 1 as drawn? The matches listed above are "
        "made at once."]
    assert confirms(page, "league:event_pair", event) == []


def test_each_correction_asks_first_naming_its_match(
        sam_client: Client, held_swiss: Event) -> None:
    page = admin_page(sam_client, held_swiss)
    links = EventMatch.objects.filter(event=held_swiss).order_by("pairing")
    assert links.count() == 2
    assert sorted(c or "" for c in confirms(page, "league:result_correct", held_swiss)) == [
        f"Correct the result of {label(link)} (match #{link.match_id})? The places typed "
        "here replace the recorded ones, and the standings and ratings follow. Everyone "
        "placed last records no winner, a loss for each; everyone placed 1, a draw."
        for link in links]


def test_without_javascript_start_release_pair_and_correct_still_act(
        sam_client: Client, cup: Event, held_swiss: Event, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """A page running no script asks nothing: each form posts as it stands and the page
    comes back with the action done."""
    def plain(name: str, event: Event, data: dict[str, str] | None = None) -> None:
        event.refresh_from_db()
        response = sam_client.post(reverse(name, args=[event.pk]),
                                   {"seq": str(event.seq), **(data or {})})
        assert response.status_code == 302
        assert response["Location"] == reverse("league:event_admin", args=[event.pk])
        shown = sam_client.get(response["Location"]).content.decode()
        assert "msg-error" not in shown, shown

    plain("league:event_start", cup)
    cup.refresh_from_db()
    assert cup.status == Event.Status.RUNNING
    assert EventMatch.objects.filter(event=cup).count() == 1

    plain("league:round_release", held_swiss)
    assert EventMatch.objects.filter(event=held_swiss, round=2).count() == 2

    by_hand = make_event(name="By hand", format="swiss", bots=4, hold_rounds=True,
                         format_options={"rounds": 2})
    started_and_decided(by_hand)
    plain("league:event_pair", by_hand, {"pairings": "e1 e4\ne2 e3"})
    assert sorted(sorted(m.entrants) for m in EventMatch.objects.filter(
        event=by_hand, round=2)) == [["e1", "e4"], ["e2", "e3"]]

    first = EventMatch.objects.get(event=by_hand, pairing="R1-1")
    winner, loser = first.entrants
    plain("league:result_correct", by_hand,
          {"pairing": first.pairing, f"place_{winner}": "2", f"place_{loser}": "1"})
    assert events.replay(by_hand).results[first.pairing]["placements"] == {winner: 2,
                                                                             loser: 1}


def test_a_refused_pairing_or_correction_comes_back_as_typed_with_its_refusal_beside_it(
        sam_client: Client, held_swiss: Event) -> None:
    """The refusal shows at the panel's top and cannot quote what was typed (a round of
    pairings, a match's places): the form comes back holding it, the reason beside it and
    named as the fields' description; without scripts too, where the page came back with
    the form as it was drawn and the reason alone."""
    typed = "e1 e3\ne3 e4"
    admin = reverse("league:event_admin", args=[held_swiss.pk])
    for extra in (HTMX, {}):
        held_swiss.refresh_from_db()
        answer = sam_client.post(reverse("league:event_pair", args=[held_swiss.pk]),
                                 {"seq": held_swiss.seq, "pairings": typed}, **extra)
        refused = answer.content.decode()
        assert answer.status_code == (200 if extra else 400)
        assert f">{typed}</textarea>" in refused
        assert 'aria-describedby="pairings-help pairings-error" aria-invalid="true"' in refused
        held = refused[refused.index('id="event-held"'):]
        assert re.search(r'<p class="error" id="pairings-error">Bot 3 is paired twice\. '
                         r'\(duplicate_entrant\)</p>', held)
        assert 'id="correct-R1-1-error"' not in refused

    first = EventMatch.objects.get(event=held_swiss, pairing="R1-1")
    winner, loser = first.entrants
    for extra in (HTMX, {}):
        held_swiss.refresh_from_db()
        answer = sam_client.post(reverse("league:result_correct", args=[held_swiss.pk]), {
            "seq": held_swiss.seq, "pairing": "R1-1", f"place_{winner}": "3",
            f"place_{loser}": "1"}, **extra)
        refused = answer.content.decode()
        assert answer.status_code == (200 if extra else 400)
        box = refused[refused.index('<summary id="correct-R1-1">'):].split("</details>")[0]
        assert f'name="place_{winner}" value="3"' in box
        assert f'name="place_{loser}" value="1"' in box
        assert 'aria-describedby="correct-R1-1-error" aria-invalid="true"' in box
        assert '<p class="error" id="correct-R1-1-error">Give a place' in box
        assert "pairings-error" not in refused
    assert sam_client.get(admin).status_code == 200


# The organizer page's "Format and options" form, as a draft single elimination shows it.
SETTINGS_FORM = {"format": "single_elimination", "format_options": '{"third_place": false}',
                 "match_options": '{"best_of": 1}', "turn_deadline_minutes": "",
                 "deadline_policy": "bot", "deadline_bot": "heuristic"}


def refused_beside(answer: Any, form: str, status: int) -> str:
    """The page or part a refused form came back in: the refusal beside that form alone,
    named as its fields' description, and the field marked invalid."""
    page = answer.content.decode()
    assert answer.status_code == status, page[:300]
    assert re.findall(r'<p class="error" id="([^"]+)-error">', page) == [form]
    assert re.search(rf'aria-describedby="(?:[\w-]+ )?{re.escape(form)}-error" '
                     r'aria-invalid="true"', page)
    return page


@pytest.mark.parametrize(("url", "data", "form", "typed", "reason"), [
    ("league:event_details", {"starts_at": "2031-05-04T19:30", "notes": "N" * 1001},
     "details", ">" + "N" * 1001 + "</textarea>", "notes are at most 1000 characters."),
    ("league:entrant_add", {"player": "nobody"}, "add-player", 'value="nobody"',
     "No player called &#x27;nobody&#x27;."),
    ("league:entrant_add", {"team": "Ghosts"}, "add-team", 'value="Ghosts"',
     "No team called &#x27;Ghosts&#x27;."),
    ("league:entrant_add", {"bot": "heuristic", "name": "Bot 1"}, "add-bot",
     'name="name" value="Bot 1"', "Bot 1 is already entered."),
    ("league:event_seed", {"method": "hand", "order": "e2"}, "seed", 'name="order" value="e2"',
     "(bad_order)"),
    ("league:entrant_withdraw", {"seq": "0"}, "withdraw-e1", 'id="withdraw-e1"', "(stale_seq)"),
    ("league:event_start", {"seq": "0"}, "start", 'id="start-submit"', "(stale_seq)"),
    ("league:event_settings", {**SETTINGS_FORM, "match_options": '{"best_of": 2}'},
     "settings", "&quot;best_of&quot;: 2}</textarea>", "(bad_option)"),
    ("league:event_settings", {**SETTINGS_FORM, "format_options": '{"rounds": 9'},
     "settings", "&quot;rounds&quot;: 9</textarea>", "are not valid JSON"),
])
def test_every_refused_panel_form_comes_back_as_typed_with_its_refusal_beside_it(
        sam_client: Client, cup: Event, url: str, data: dict[str, str], form: str,
        typed: str, reason: str) -> None:
    """A refused entry, time and notes, seeding, withdrawal or start comes back holding
    what was typed, the reason beside its form (the banner at the panel's top cannot
    quote it); without scripts too, where the page was redirected to, the form as drawn
    and the reason a message at its top."""
    args = [cup.pk, "e1"] if url == "league:entrant_withdraw" else [cup.pk]
    for extra, status in ((HTMX, 200), ({}, 400)):
        answer = sam_client.post(reverse(url, args=args), data, **extra)
        page = refused_beside(answer, form, status)
        assert typed in page
        beside = page[page.index(f'id="{form}-error">'):].split("</p>")[0]
        assert reason in beside
        if not extra:
            assert "<h1>" in page and 'id="event-live"' in page  # the whole page
    assert Entrant.objects.filter(event=cup).count() == 2


@pytest.mark.parametrize(("data", "form"), [
    ({"player": "alice"}, "add-player"),
    ({"team": "Ghosts"}, "add-team"),
    ({"bot": "random", "name": "Bot 1"}, "add-bot"),
])
def test_a_refused_register_form_keeps_the_picks_typed_in_it(
        staff_client: Client, organizer: Any, player: Any, data: dict[str, str],
        form: str) -> None:
    """Add player, Add team and Add bot, refused, come back holding the picks typed in
    them (the deck to mend, the Competitor chosen), in that form alone; the pick fields
    came back empty, the deck typed gone."""
    event = events.create_event(name="Supershow night", game="supershow",
                                format="round_robin", by=organizer)
    deck = '["no_such_card"]'
    sent = {**data, "seq": str(event.seq), "pick_competitors": "velvet_vendetta",
            "pick_decks": deck}
    for extra, status in ((HTMX, 200), ({}, 400)):
        answer = staff_client.post(reverse("league:entrant_add", args=[event.pk]), sent,
                                   **extra)
        page = refused_beside(answer, form, status)
        for other in ("add-player", "add-team", "add-bot"):
            decks = re.search(rf'<input id="{other}-pick-decks"[^>]*>', page)
            chosen = page[page.index(f'id="{other}-pick-competitors"'):].split("</select>")[0]
            assert decks is not None
            if other == form:
                assert 'value="[&quot;no_such_card&quot;]"' in decks[0]
                assert '<option value="velvet_vendetta" selected>' in chosen
            else:
                assert 'value=""' in decks[0] and " selected" not in chosen
    assert not Entrant.objects.filter(event=event).exists()


def test_a_refused_live_seat_form_comes_back_with_its_refusal_beside_it(
        sam_client: Client, duel: Event) -> None:
    """The live list's forfeit and "a bot plays" say why they were refused beside the seat
    they act on, the bot picked still picked; without scripts too."""
    link = EventMatch.objects.get(event=duel)
    seat = {"seq": "0", "pairing": link.pairing, "entrant": "e2"}
    for extra, status in ((HTMX, 200), ({}, 400)):
        answer = sam_client.post(reverse("league:match_forfeit", args=[duel.pk]), seat,
                                 **extra)
        page = refused_beside(answer, f"forfeit-{link.pairing}-e2", status)
        assert "(stale_seq)" in page
        answer = sam_client.post(reverse("league:match_seat_to_bot", args=[duel.pk]),
                                 {**seat, "bot": "random"}, **extra)
        page = refused_beside(answer, f"to-bot-{link.pairing}-e2", status)
        select = page[page.index(f'id="to-bot-{link.pairing}-e2"'):].split("</select>")[0]
        assert '<option value="random" selected>' in select
        assert '<option value="heuristic" selected>' not in select
    assert Match.objects.get(pk=link.match_id).status == Match.Status.ACTIVE


def test_start_refuses_a_field_that_changed_since_the_organizer_was_asked(
        sam_client: Client, sam: Any, cup: Event) -> None:
    """The organizer is asked to start the Event "with its 2 entrants"; a third entered
    while the panel was held open: Start refuses, says how many there are now, and asks
    again with that number. Without scripts too."""
    admin = reverse("league:event_admin", args=[cup.pk])
    page = sam_client.get(admin).content.decode()
    assert "with its 2 entrants?" in page and 'name="entrants" value="2"' in page
    events.add_entrant(event=cup, by=sam, bot="random", name="Bot 3")
    for extra, status in ((HTMX, 200), ({}, 400)):
        answer = sam_client.post(reverse("league:event_start", args=[cup.pk]),
                                 {"seq": cup.seq, "entrants": "2"}, **extra)
        page = refused_beside(answer, "start", status)
        assert ("The Event has 3 entrants now, not the 2 you were asked to start it with"
                in page and "start again to start with 3. (entrants_changed)" in page)
        assert "with its 3 entrants?" in page and 'name="entrants" value="3"' in page
        cup.refresh_from_db()
        assert cup.status == Event.Status.DRAFT
    sam_client.post(reverse("league:event_start", args=[cup.pk]),
                    {"seq": cup.seq, "entrants": "3"}, **HTMX)
    cup.refresh_from_db()
    assert cup.status == Event.Status.RUNNING


def test_a_refusal_stays_in_sight_over_a_form_low_on_the_page(sam_client: Client,
                                                              cup: Event) -> None:
    """On a phone the Register and Correct cards lie a screen or more below the panel's
    top, where its refusal shows: the banner sticks to the top while the panel is read."""
    refused = sam_client.post(reverse("league:entrant_add", args=[cup.pk]),
                              {"seq": cup.seq, "bot": "random", "name": "Bot 1"},
                              **HTMX).content.decode()
    start = refused.index('<div id="event-panel"')
    first = refused[refused.index(">", start) + 1:].lstrip()
    assert first.startswith('<div id="panel-alert" class="alert-slot"><div class="error-banner">'
                            '<p role="alert">Bot 1 is already entered.')
    css = Path(str(finders.find("css/site.css"))).read_text()
    rule = css[css.index(".event-panel > .alert-slot, .event-live > .alert-slot {"):]
    assert "position: sticky; top: 0;" in rule[:rule.index("}")]


def clears(html: str) -> list[str]:
    """The refusal slots an answer empties elsewhere on the page."""
    return re.findall(r'<div id="([a-z-]+-alert)" hx-swap-oob="innerHTML"></div>', html)


def alert_slot(html: str, slot: str) -> str:
    found = re.search(rf'<div id="{slot}" class="alert-slot">(.*?)</div>\s*$', html, re.S | re.M)
    assert found is not None, html[:400]
    return found.group(1)


def test_a_refusal_has_a_dismiss_button_named_for_what_it_does(sam_client: Client,
                                                               duel: Event) -> None:
    """The banner carries its own way out, a 44px button read as "Dismiss this message"
    (its glyph alone is no name); the message alone is the alert read out."""
    panel = sam_client.post(reverse("league:entrant_withdraw", args=[duel.pk, "e1"]),
                            {"seq": "1"}, **HTMX).content.decode()
    live = sam_client.post(reverse("league:match_forfeit", args=[duel.pk]), {
        "seq": "1", "pairing": EventMatch.objects.get(event=duel).pairing,
        "entrant": "e1"}, **HTMX).content.decode()
    for html, slot in ((panel, "panel-alert"), (live, "live-alert")):
        [banner] = [d for d in tags(html, "div") if d.get("class") == "error-banner"]
        [alert] = [p for p in tags(html, "p") if p.get("role") == "alert"]
        assert "The Event changed since it was read at record 1" in alert["text"]
        [button] = [b for b in tags(html, "button") if "data-dismiss-alert" in b]
        assert button["type"] == "button" and button["aria-label"] == "Dismiss this message"
        assert button["id"] == f"{slot}-dismiss"  # an id, as each control of the page has
        assert button["text"].strip() == "\u00d7" and banner["text"].count(alert["text"]) == 1
        assert clears(html) == []  # a refusal empties no other slot
    script = Path(str(finders.find("js/league.js"))).read_text()
    assert 'closest("[data-dismiss-alert]")' in script
    assert 'document.addEventListener("click", dismiss)' in script


def test_an_action_that_succeeds_empties_the_other_parts_refusal(
        sam_client: Client, duel: Event) -> None:
    """A refusal in the panel, then a Forfeit that goes through in the live list (or the
    other way round): the answer empties the refusal slot of the part it does not replace,
    whose own refresh waits while the organizer edits in it."""
    page = admin_page(sam_client, duel)
    assert alert_slot(page, "panel-alert") == "" and alert_slot(page, "live-alert") == ""
    refused = sam_client.post(reverse("league:entrant_withdraw", args=[duel.pk, "e1"]),
                              {"seq": "1"}, **HTMX).content.decode()
    assert "error-banner" in alert_slot(refused, "panel-alert")
    link = EventMatch.objects.get(event=duel)
    to_bot = sam_client.post(reverse("league:match_seat_to_bot", args=[duel.pk]), {
        "seq": duel.seq, "pairing": link.pairing, "entrant": "e1", "bot": "random"},
        **HTMX)
    assert to_bot["HX-Trigger"] == "league-changed"
    html = to_bot.content.decode()
    assert clears(html) == ["panel-alert"] and alert_slot(html, "live-alert") == ""

    duel.refresh_from_db()
    refused = sam_client.post(reverse("league:match_forfeit", args=[duel.pk]), {
        "seq": "1", "pairing": link.pairing, "entrant": "e1"}, **HTMX).content.decode()
    assert "error-banner" in alert_slot(refused, "live-alert")
    saved = sam_client.post(reverse("league:event_details", args=[duel.pk]),
                            {"seq": duel.seq, "starts_at": "", "notes": "Table 3"},
                            **HTMX).content.decode()
    assert clears(saved) == ["live-alert"] and alert_slot(saved, "panel-alert") == ""
    # The polled list and the panel's refresh, which empty nothing elsewhere.
    for polled in (sam_client.get(reverse("league:event_live", args=[duel.pk]), **HTMX),
                   sam_client.get(reverse("league:event_admin", args=[duel.pk]), **HTMX)):
        assert clears(polled.content.decode()) == []


def told(html: str) -> str | None:
    """What the answer gives the page's live region to read out, if anything."""
    found = re.search(r'<div id="panel-announce" hx-swap-oob="innerHTML">(.*?)</div>', html)
    return found.group(1) if found else None


def test_an_entry_and_a_seeding_are_told_to_a_screen_reader(
        sam_client: Client, cup: Event) -> None:
    """Their change shows in a table above the button pressed, which keeps focus: a screen
    reader hears nothing of it but from the page's live region."""
    url = reverse("league:entrant_add", args=[cup.pk])
    added = sam_client.post(url, {"seq": cup.seq, "bot": "random", "name": "Bot 3"}, **HTMX)
    assert told(added.content.decode()) == "Bot 3 entered as e3."
    assert told(sam_client.post(url, {"seq": cup.seq + 1, "bot": "random", "name": "Bot 3"},
                                **HTMX).content.decode()) is None  # refused: the alert says
    cup.refresh_from_db()
    seeded = sam_client.post(reverse("league:event_seed", args=[cup.pk]),
                             {"seq": cup.seq, "method": "hand", "order": "e3 e1 e2"}, **HTMX)
    assert told(seeded.content.decode()) == "Seeded: Bot 3, Bot 1, Bot 2."  # not by key
    assert "Seeded: Bot 3" not in seeded.content.decode().split("panel-announce")[0]


# -- phone taps and text on the organizer pages ------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Links(HTMLParser):
    """Every link inside <main>: its classes and its parent element's (tag, classes)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, set[str]]] = []
        self.links: list[tuple[set[str], tuple[str, set[str]], str]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        if tag == "a" and any(t == "main" for t, _ in self.open):
            self.links.append((classes, self.open[-1], dict(attrs).get("href") or ""))
        if tag not in VOID:
            self.open.append((tag, classes))

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop()[0] != tag:
            pass


def sized(classes: set[str], parent: tuple[str, set[str]]) -> bool:
    """Whether the stylesheet makes the link a tap of 44px on a phone: a button link, a
    link marked as a tap, or a row's own link."""
    return bool(classes & {"button-link", "tap-link"}) or (
        parent[0] == "li" and "match-row" in parent[1])


def test_every_link_of_the_organizer_pages_is_a_full_tap_on_a_phone(
        sam_client: Client, staff_client: Client, cup: Event, duel: Event,
        held_swiss: Event) -> None:
    """A link in a line of text (the dashboard's header, "Create a team", the team form's
    way back) measured 15 to 19px high on a phone, a row's watch or CSV link 35 to 39px:
    each is now one of the kinds the stylesheet sizes to 44px inside the organizer pages
    (measured in Chromium at 390px wide), and every page is inside one."""
    pages = {
        "dashboard": staff_client.get(reverse("league:dashboard")),
        "draft": sam_client.get(reverse("league:event_admin", args=[cup.pk])),
        "live": sam_client.get(reverse("league:event_admin", args=[duel.pk])),
        "held": sam_client.get(reverse("league:event_admin", args=[held_swiss.pk])),
        "team": staff_client.get(reverse("league:team_create")),
    }
    for name, response in pages.items():
        html = response.content.decode()
        assert response.status_code == 200, name
        main = html[html.index('<main class="page"'):]
        assert main[main.index(">") + 1:].lstrip().startswith('<div class="organizer">'), name
        links = Links(html).links
        assert links, name
        unsized = [href for classes, parent, href in links if not sized(classes, parent)]
        assert unsized == [], (name, unsized)
    draft = pages["draft"].content.decode()
    assert re.search(r'<a id="create-team" class="tap-link"', draft)
    live = pages["live"].content.decode()
    link = EventMatch.objects.get(event=duel)
    assert re.search(rf'<li class="match-row live-row" id="live-{link.match_id}">', live)


def test_the_settings_form_changes_the_format_and_the_events_page_shows_it(
        sam_client: Client, alice_client: Client, cup: Event) -> None:
    """Twelve came instead of eight: the organizer makes the draft a Swiss of four rounds,
    best of three, with a turn deadline; the form holds what it saved, says so, and the
    Event's page shows the new settings. Without scripts too; once started, the form is
    gone."""
    admin = reverse("league:event_admin", args=[cup.pk])
    form = tags(sam_client.get(admin).content.decode(), "textarea")
    assert {"name": "format_options", "text": '{"third_place": false}'}.items() <= next(
        t for t in form if t.get("name") == "format_options").items()
    url = reverse("league:event_settings", args=[cup.pk])
    answer = sam_client.post(url, {
        **SETTINGS_FORM, "seq": cup.seq, "format": "swiss", "format_options": '{"rounds": 4}',
        "match_options": '{"best_of": 3}', "turn_deadline_minutes": "15",
        "deadline_policy": "forfeit"}, **HTMX).content.decode()
    assert 'role="alert"' not in answer
    assert '<p class="muted small">Saved: the Event starts with these settings.</p>' in answer
    assert '<option value="swiss" selected>' in answer and 'value="15"' in answer
    assert "&quot;rounds&quot;: 4" in answer
    cup.refresh_from_db()
    assert (cup.format, cup.format_options["rounds"], cup.match_options,
            cup.turn_deadline_minutes, cup.deadline_policy) == ("swiss", 4, {"best_of": 3},
                                                                15, "forfeit")
    page = alice_client.get(reverse("league:event", args=[cup.pk])).content.decode()
    assert "Swiss" in page
    shown = page[page.index('id="event-settings"'):].split("</p>")[0]
    assert "rounds: 4" in shown and "best_of: 3" in shown
    assert "turn deadline: 15 min (the seat forfeits)" in shown
    back = sam_client.post(url, {**SETTINGS_FORM, "seq": cup.seq})  # no scripts: redirected
    assert back.status_code == 302
    cup.refresh_from_db()
    assert (cup.format, cup.turn_deadline_minutes) == ("single_elimination", None)
    assert "Saved: the Event starts" in sam_client.get(back["Location"]).content.decode()
    events.start_event(event=cup, by=cup.organizers.get())
    assert 'id="event-settings"' not in sam_client.get(admin).content.decode()


def test_the_settings_card_offers_the_formats_of_the_events_game(
        sam_client: Client, cup: Event) -> None:
    """The Showdown series is Superstar Showdown's alone: a Super Showdown cup is not
    offered it, unless it holds it already (made before), which the card shows."""
    url = reverse("league:event_admin", args=[cup.pk])

    def offered() -> list[str]:
        admin = sam_client.get(url).content.decode()
        select = admin[admin.index('id="settings-format"'):]
        return re.findall(r'<option value="([a-z_]+)"', select[:select.index("</select>")])

    assert "swiss" in offered() and "showdown_series" not in offered()
    Event.objects.filter(pk=cup.pk).update(format="showdown_series")
    assert "showdown_series" in offered()


def test_choosing_another_format_alone_on_the_settings_card_saves_it_with_its_defaults(
        sam_client: Client, cup: Event) -> None:
    """The card's format options box holds the single elimination's options: the organizer
    picks Swiss in the list and saves, the box as it was, and the Event is a Swiss with
    its default options (as the API's change that leaves them out), not refused for the
    old format's option. Options typed for the new format are its own."""
    admin = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    shown = {t["name"]: t["text"] for t in tags(admin, "textarea")}
    assert shown["format_options"] == '{"third_place": false}'
    url = reverse("league:event_settings", args=[cup.pk])
    answer = sam_client.post(url, {**SETTINGS_FORM, **shown, "seq": cup.seq,
                                   "format": "swiss"}, **HTMX).content.decode()
    assert "(unknown_option)" not in answer
    assert '<p class="muted small">Saved: the Event starts with these settings.</p>' in answer
    cup.refresh_from_db()
    assert cup.format == "swiss" and cup.format_options["rounds"] is None
    assert "third_place" not in cup.format_options
    sam_client.post(url, {**SETTINGS_FORM, **shown, "seq": cup.seq, "format": "round_robin",
                          "format_options": '{"double": true}'}, **HTMX)
    cup.refresh_from_db()
    assert (cup.format, cup.format_options["double"]) == ("round_robin", True)


def test_a_draft_stored_with_a_tiebreak_now_refused_is_fixed_on_the_settings_card(
        sam_client: Client, cup: Event) -> None:
    """Made before the check, the Event's tiebreaks name a figure the game never reports.
    The organizer sets a turn deadline, the options box as shown: refused, the refusal
    naming the stored format options and what to do; the box fixed in the same post, it
    saves."""
    events.change_settings(event=cup, by=cup.organizers.get(), format="round_robin")
    cup.refresh_from_db()
    stored = {**cup.format_options, "tiebreaks": ["figure:eliminations"]}
    Event.objects.filter(pk=cup.pk).update(format_options=stored)
    cup.refresh_from_db()
    admin = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    shown = {t["name"]: t["text"] for t in tags(admin, "textarea")}
    url = reverse("league:event_settings", args=[cup.pk])
    sent = {**SETTINGS_FORM, **shown, "format": "round_robin", "turn_deadline_minutes": "15"}
    page = refused_beside(sam_client.post(url, {**sent, "seq": cup.seq}, **HTMX), "settings",
                          200)
    beside = page[page.index('id="settings-error">'):].split("</p>")[0]
    assert "The Event&#x27;s format options as stored are refused now" in beside
    assert "&#x27;figure:eliminations&#x27;" in beside
    assert "Change the format options too, in the same change, to save it." in beside
    cup.refresh_from_db()
    assert cup.turn_deadline_minutes is None
    answer = sam_client.post(url, {**sent, "seq": cup.seq,
                                   "format_options": '{"tiebreaks": ["wins"]}'},
                             **HTMX).content.decode()
    assert '<p class="muted small">Saved: the Event starts with these settings.</p>' in answer
    cup.refresh_from_db()
    assert (cup.format_options["tiebreaks"], cup.turn_deadline_minutes) == (["wins"], 15)


def play_round(event: Event, number: int) -> None:
    """Every match of round `number` ended by its second seat's forfeit, its result in."""
    from matches import services as match_services

    for link in EventMatch.objects.filter(event=event, round=number):
        match_services.forfeit_seat(match=link.match, seat=1)
        assert events.record_match_result(match=Match.objects.get(pk=link.match_id))


@pytest.fixture
def paged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paging from a field of eight (four matches a round) rather than a big Event's."""
    from league import views

    monkeypatch.setattr(views, "PAGED_FROM", 4)


def test_a_big_events_organizer_page_lists_the_round_being_played_whatever_came_before(
        sam_client: Client, make_event: Callable[..., Event], paged: None) -> None:
    """Rounds already played stay behind their links: the page's match rows and result
    forms are the current round's, as many after two rounds as after one."""
    event = make_event(format="swiss", bots=8, format_options={"rounds": 3})
    events.start_event(event=event, by=event.created_by)
    url = reverse("league:event_admin", args=[event.pk])
    for played in (1, 2):
        play_round(event, played)
        html = sam_client.get(url).content.decode()
        current = set(EventMatch.objects.filter(event=event, round=played + 1)
                      .values_list("pairing", flat=True))
        rows = {li["id"] for li in tags(html, "li") if li.get("id", "").startswith("live-")}
        assert rows == {f"live-{m}" for m in EventMatch.objects.filter(
            event=event, round=played + 1).values_list("match_id", flat=True)}
        assert len(current) == 4
        assert not [i for i in tags(html, "input")
                    if i.get("name") == "pairing" and i["value"] not in current]
        links = {a["text"]: a["href"] for a in tags(html, "a") if a.get("id", "")
                 .startswith("round-")}
        assert links == {**{f"Round {n}": f"{url}?round={n}#event-live"
                            for n in range(1, played + 2)},
                         "All rounds": f"{url}?round=all#event-live"}


def test_an_earlier_round_is_a_plain_link_away_with_its_results_to_correct(
        sam_client: Client, make_event: Callable[..., Event], paged: None) -> None:
    """`?round=1` lists round 1's matches and its results' correction forms, without a
    script; a correction sent from there comes back to it; `?round=all` lists them all."""
    event = make_event(format="swiss", bots=8, format_options={"rounds": 3})
    events.start_event(event=event, by=event.created_by)
    play_round(event, 1)
    url = reverse("league:event_admin", args=[event.pk])
    first = EventMatch.objects.filter(event=event, round=1).order_by("pairing")
    html = sam_client.get(f"{url}?round=1").content.decode()
    rows = {li["id"] for li in tags(html, "li") if li.get("id", "").startswith("live-")}
    assert rows == {f"live-{link.match_id}" for link in first}
    corrections = {s["id"] for s in tags(html, "summary")
                   if s.get("id", "").startswith("correct-")}
    assert corrections == {f"correct-{link.pairing}" for link in first}
    # Round 2 is paired from them, but a big Event's page tries no correction: their forms
    # stay, and come back to the round they were sent from.
    assert {i["value"] for i in tags(html, "input") if i.get("name") == "round"} == {"1"}
    # The panel's refresh and the list's poll stay on the round asked for.
    assert panel_of(html)["hx-get"] == f"{url}?round=1"
    live = next(s for s in tags(html, "section") if s.get("id") == "event-live")
    assert live["hx-get"].endswith("&round=1")
    polled = sam_client.get(reverse("league:event_live", args=[event.pk]) + "?round=1",
                            **HTMX).content.decode()
    assert {li["id"] for li in tags(polled, "li")} == rows
    link = first[0]
    winner, loser = link.entrants  # (a Swiss's next round is paired: the places confirmed)
    answer = sam_client.post(reverse("league:result_correct", args=[event.pk]), {
        "seq": Event.objects.get(pk=event.pk).seq, "round": "1", "pairing": link.pairing,
        f"place_{winner}": 1, f"place_{loser}": 2})
    assert answer.status_code == 302 and answer["Location"] == f"{url}?round=1"
    assert event.records.filter(kind="result_corrected", payload__pairing=link.pairing).exists()
    everything = sam_client.get(f"{url}?round=all").content.decode()
    assert len([li for li in tags(everything, "li") if li.get("id", "").startswith("live-")]) \
        == EventMatch.objects.filter(event=event).count() == 8


def test_a_small_events_organizer_page_lists_every_round_without_links(
        sam_client: Client, make_event: Callable[..., Event]) -> None:
    """Below the size a page is split at, every match is listed as before."""
    event = make_event(format="swiss", bots=8, format_options={"rounds": 3})
    events.start_event(event=event, by=event.created_by)
    play_round(event, 1)
    html = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert len([li for li in tags(html, "li") if li.get("id", "").startswith("live-")]) == 8
    assert not [a for a in tags(html, "a") if a.get("id", "").startswith("round-")]
    assert 'id="corrections-unchecked"' not in html  # (its results checked: see below)
    assert 'id="correct-R1-1-barred"' in html


def test_a_big_events_correction_forms_say_why_none_is_checked(
        sam_client: Client, make_event: Callable[..., Event], paged: None) -> None:
    """A big Event's page tries no correction (each replays it from that result on: 64
    results of a 128-entrant Swiss's round took seconds), so its results show neither why
    one cannot be corrected nor Confirm: the page said nothing of it. It says why, and
    how to correct or confirm (the Correct form, refused on sending where it may not)."""
    event = make_event(format="swiss", bots=8, format_options={"rounds": 3})
    events.start_event(event=event, by=event.created_by)
    play_round(event, 1)
    html = sam_client.get(reverse("league:event_admin", args=[event.pk])
                          + "?round=1").content.decode()
    note = next(p for p in tags(html, "p") if p.get("id") == "corrections-unchecked")
    assert "too big for the page to check" in note["text"]
    assert "Correct form" in note["text"] and "confirm them" in note["text"]
    assert not [p for p in tags(html, "p") if p.get("id", "").endswith("-barred")]
    assert 'id="correct-R1-1-submit"' in html


def live_news(client: Client, page: str) -> str:
    """What the organizer page's live list poll tells a screen reader, asked with the poll
    URL the page (a whole page, or a poll's answer) carries."""
    url = re.search(r'hx-get="([^"]*/live/[^"]*)"', page)
    sent = re.search(r"hx-vals='([^']*)'", page)  # (htmx adds them to the poll's query)
    assert url is not None and sent is not None
    answer = client.get(url[1].replace("&amp;", "&"), json.loads(sent[1]), **HTMX
                        ).content.decode()
    told = re.search(r'<div id="event-announce" hx-swap-oob="innerHTML">(.*?)</div>', answer,
                     re.S)
    assert told is not None, answer[-400:]
    return told[1].strip()


def test_the_live_lists_poll_tells_a_screen_reader_the_new_results_and_walkovers(
        sam_client: Client, make_event: Callable[..., Event], sam: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """The organizer page had no live region: a result, a new match or a walkover came in
    unsaid, where the public page's poll reads each out once."""
    from tests.league.web.test_league_web_public import told_each_walkover_once

    event = make_event(format="round_robin", bots=4)
    events.start_event(event=event, by=sam)
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    region = next(d for d in tags(page, "div") if d.get("id") == "event-announce")
    assert region["aria-live"] == "polite" and region["role"] == "status"
    events.withdraw_entrant(event=event, by=sam, key="e1")
    told_each_walkover_once(event, live_news(sam_client, page))
    url = re.search(r'hx-get="([^"]*/live/[^"]*)"', page)
    assert url is not None
    polled = sam_client.get(url[1].replace("&amp;", "&"), **HTMX).content.decode()
    other = EventMatch.objects.get(event=event, round=1, match__status="active")
    with django_capture_on_commit_callbacks(execute=True):
        services.forfeit_seat(match=other.match, seat=1)
    news = live_news(sam_client, polled)
    assert f"{other.label or other.pairing}, " in news and "walkover" not in news


def play_links(links: Any) -> None:
    """Every match of `links` ended by its second seat's forfeit, its result in."""
    for link in list(links):
        services.forfeit_seat(match=link.match, seat=1)
        assert events.record_match_result(match=Match.objects.get(pk=link.match_id))


def pager_links(html: str) -> dict[str, str]:
    return {a["text"]: a["href"] for a in tags(html, "a") if a.get("id", "").startswith("round-")}


def live_rows(html: str) -> set[str]:
    return {li["id"] for li in tags(html, "li") if li.get("id", "").startswith("live-")}


def test_a_big_double_elimination_pages_its_brackets_rounds_apart(
        sam_client: Client, make_event: Callable[..., Event], paged: None) -> None:
    """Pages went by round number alone: 'Round 1' listed the winners' round 1 with the
    losers' round 1, played later; each page is now one bracket's round, named as the
    bracket names it, and those being played are the ones listed."""
    event = make_event(format="double_elimination", bots=8)
    events.start_event(event=event, by=event.created_by)
    play_links(EventMatch.objects.filter(event=event, stage="winners", round=1))
    url = reverse("league:event_admin", args=[event.pk])
    html = sam_client.get(url).content.decode()
    assert pager_links(html) == {
        "Winners round 1": f"{url}?round=winners-1#event-live",
        "Winners round 2": f"{url}?round=winners-2#event-live",
        "Losers round 1": f"{url}?round=losers-1#event-live",
        "All rounds": f"{url}?round=all#event-live"}
    playing = EventMatch.objects.filter(event=event).exclude(match__status="finished")
    assert {link.stage for link in playing} == {"winners", "losers"}
    assert live_rows(html) == {f"live-{link.match_id}" for link in playing}
    current = {a["text"] for a in tags(html, "a") if a.get("aria-current") == "page"}
    assert current == {"Winners round 2", "Losers round 1"}
    first = sam_client.get(f"{url}?round=winners-1").content.decode()
    assert live_rows(first) == {f"live-{m}" for m in EventMatch.objects.filter(
        event=event, stage="winners", round=1).values_list("match_id", flat=True)}
    # Its results, which the winners' round 2 and the losers' round 1 were drawn from,
    # keep their forms on a big Event's page (trying each correction replays the Event;
    # the refusal says why on sending), where a small Event's say why in their place.
    assert not [p for p in tags(first, "p") if p.get("id", "").endswith("-barred")]
    assert {f["id"] for f in tags(first, "button") if f.get("id", "").startswith("correct-")
            } == {f"correct-{pid}-submit" for pid in EventMatch.objects.filter(
                event=event, stage="winners", round=1).values_list("pairing", flat=True)}
    losers = sam_client.get(reverse("league:event_live", args=[event.pk]) + "?round=losers-1",
                            **HTMX).content.decode()
    assert live_rows(losers) == {f"live-{m}" for m in EventMatch.objects.filter(
        event=event, stage="losers", round=1).values_list("match_id", flat=True)}


def test_a_big_multistage_event_pages_its_group_rounds_apart_from_its_playoff(
        sam_client: Client, make_event: Callable[..., Event], paged: None) -> None:
    """The playoff's round 1 shared a page with the groups' round 1; now the groups'
    rounds (every group's at once) and the playoff's each have their own."""
    event = make_event(format="multistage", bots=8,
                       format_options={"groups": 2, "playoff_size": 4})
    events.start_event(event=event, by=event.created_by)
    for _ in range(3):
        play_links(EventMatch.objects.filter(event=event).exclude(match__status="finished"))
        if EventMatch.objects.filter(event=event, stage="playoff").exists():
            break
    url = reverse("league:event_admin", args=[event.pk])
    html = sam_client.get(url).content.decode()
    links = pager_links(html)
    assert links == {**{f"Groups: Round {n}": f"{url}?round=groups-{n}#event-live"
                        for n in (1, 2, 3)},
                     "Playoff: Semifinal": f"{url}?round=playoff-1#event-live",
                     "All rounds": f"{url}?round=all#event-live"}
    assert live_rows(html) == {f"live-{m}" for m in EventMatch.objects.filter(
        event=event, stage="playoff").values_list("match_id", flat=True)}
    first = sam_client.get(f"{url}?round=groups-1").content.decode()
    groups = EventMatch.objects.filter(event=event, stage__startswith="group ", round=1)
    assert {link.stage for link in groups} == {"group A", "group B"}
    assert live_rows(first) == {f"live-{link.match_id}" for link in groups}
    corrections = {s["id"] for s in tags(first, "summary")
                   if s.get("id", "").startswith("correct-")}
    assert corrections == {f"correct-{link.pairing}" for link in groups}


def test_a_big_events_organizer_page_shows_one_matchs_seat_forms_at_a_time(
        sam_client: Client, make_event: Callable[..., Event], paged: None) -> None:
    """A big Event's live matches each link to their seats' Forfeit and Bot forms instead
    of carrying them all: the link opens them (the page again without JavaScript, the
    list with htmx), the list's poll keeps them open, and a forfeit sent from them goes
    through and comes back with them."""
    event = make_event(format="swiss", bots=10, format_options={"rounds": 3})  # (5 matches)
    events.start_event(event=event, by=event.created_by)
    url = reverse("league:event_admin", args=[event.pk])
    links = list(EventMatch.objects.filter(event=event).order_by("pairing"))
    html = sam_client.get(url).content.decode()
    assert 'id="forfeit-' not in html and 'id="to-bot-' not in html
    opener = {a.get("id"): a for a in tags(html, "a")}[f"seats-{links[0].pairing}"]
    assert opener["href"] == f"{url}?seats={links[0].pairing}#live-{links[0].match_id}"
    for html in (sam_client.get(f"{url}?seats={links[0].pairing}").content.decode(),
                 sam_client.get(opener["hx-get"], **HTMX).content.decode()):
        buttons = {b.get("id") for b in tags(html, "button")}
        assert {f"forfeit-{links[0].pairing}-{k}" for k in links[0].entrants} <= buttons
        assert not any(b and b.startswith(f"forfeit-{links[1].pairing}-") for b in buttons)
        poll = {s.get("id"): s for s in tags(html, "section")}["event-live"]["hx-get"]
        assert poll.endswith(f"&seats={links[0].pairing}")
    answer = sam_client.post(reverse("league:match_forfeit", args=[event.pk]), {
        "seq": Event.objects.get(pk=event.pk).seq, "round": "", "pairing": links[0].pairing,
        "entrant": links[0].entrants[1]}, **HTMX)
    assert answer.status_code == 200
    assert Match.objects.get(pk=links[0].match_id).status == Match.Status.FINISHED
    assert f'id="seats-{links[1].pairing}"' in answer.content.decode()


def test_the_page_tries_every_results_correction_in_one_replay(
        sam_client: Client, make_event: Callable[..., Event], sam: Any,
        django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each result a later pairing was drawn from was tried by replaying the whole Event
    with its correction (a 48-match Event: about a second at every new seq); one replay
    tries them all, and the page says the same of each."""
    event = make_event(format="swiss", bots=8, format_options={"rounds": 3})
    events.start_event(event=event, by=sam)
    while EventMatch.objects.filter(event=event, round=3).count() == 0:
        live = EventMatch.objects.filter(event=event, match__status=Match.Status.ACTIVE).first()
        assert live is not None
        with django_capture_on_commit_callbacks(execute=True):
            events.forfeit(event=event, by=sam, pairing=live.pairing, entrant=live.entrants[1])
    url = reverse("league:event_admin", args=[event.pk])
    page = sam_client.get(url, {"round": "all"}).content.decode()
    barred = set(re.findall(r'id="correct-([^"]+)-barred"', page))
    assert len(barred) == 8  # (rounds 1 and 2: round 3 was drawn from both)
    starts = []
    real = events._fold
    monkeypatch.setattr(events, "_fold", lambda event, out, rows, corrections: real(
        event, out, [starts.append(row) or row if row.seq == 1 else row for row in rows],
        corrections))
    events._barred.clear()
    again = sam_client.get(url, {"round": "all"}).content.decode()
    assert set(re.findall(r'id="correct-([^"]+)-barred"', again)) == barred
    assert len(starts) == 1


@pytest.mark.parametrize(("fmt", "bots", "options"), [
    ("swiss", 8, {"rounds": 3}), ("single_elimination", 8, {"third_place": True})])
def test_a_result_a_later_pairing_was_drawn_from_says_why_in_place_of_its_correct_form(
        sam_client: Client, make_event: Callable[..., Event], sam: Any,
        django_capture_on_commit_callbacks: Any, fmt: str, bots: int,
        options: dict[str, Any]) -> None:
    """Played through, round by round: each result the page offers to correct, the service
    lets be turned round (the loser first), and each it says cannot be corrected now, it
    refuses so; no result whose next round was paired offers a form that is refused on
    sending (it offered a Correct form for every earlier result)."""
    from django.db import transaction

    event = make_event(format=fmt, bots=bots, format_options=options)
    events.start_event(event=event, by=sam)
    seen: dict[str, set[bool]] = {}
    while live := EventMatch.objects.filter(event=event,
                                            match__status=Match.Status.ACTIVE).first():
        with django_capture_on_commit_callbacks(execute=True):
            events.forfeit(event=event, by=sam, pairing=live.pairing, entrant=live.entrants[1])
        event.refresh_from_db()
        page = sam_client.get(reverse("league:event_admin", args=[event.pk]),
                              {"round": "all"}).content.decode()
        section = page[page.index('<section class="card" id="event-corrections">'):]
        section = section[:section.index("</section>")]
        done = events.replay(event)
        for pid, result in done.results.items():
            box = section[section.index(f'<summary id="correct-{pid}">'):]
            box = box[:box.index("</details>")]
            offered = f'id="correct-{pid}-submit"' in box
            assert offered != (f'id="correct-{pid}-barred"' in box), box
            try:
                with transaction.atomic():
                    events.correct_result(event=event, by=sam, pairing=pid,
                                          placements=events.turned_round(
                                              result["placements"]))
                    raise RuntimeError("undo")
            except RuntimeError:
                went_through = True
            except events.LeagueError as exc:
                assert exc.code == "correction_conflicts", exc.detail
                went_through = False
            assert offered == went_through, (pid, box)
            if not offered:
                assert "Cannot be corrected now: The later pairing" in box, box
                assert "until a later pairing is drawn from it" in box
            seen.setdefault(pid, set()).add(offered)
            event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    # Some results were offered while nothing was drawn from them, and barred after.
    assert any(states == {True, False} for states in seen.values()), seen


def test_a_result_that_cannot_be_corrected_offers_to_confirm_its_recorded_places(
        sam_client: Client, started_with_four: Callable[..., Event], sam: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """A small Event's round-1 result, round 2 drawn from it: the page said why it cannot
    be corrected and offered nothing, so its recorded places (a forfeit by a side that
    never moved, unrated until the organizer's say) were confirmed through the API alone.
    The page offers to confirm them, as the API's correction does, once."""
    from league.models import EventRecord, RatingHistory

    event = started_with_four(format="swiss", format_options={"rounds": 2})
    for link in EventMatch.objects.filter(event=event, round=1):
        with django_capture_on_commit_callbacks(execute=True):
            events.forfeit(event=event, by=sam, pairing=link.pairing, entrant=link.entrants[1])
    assert EventMatch.objects.filter(event=event, round=2).exists()
    first = EventMatch.objects.get(event=event, pairing="R1-1")
    assert not RatingHistory.objects.filter(match=first.match_id).exists()
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    box = page[page.index('<summary id="correct-R1-1">'):]
    box = box[:box.index("</details>")]
    assert 'id="correct-R1-1-barred"' in box and 'id="correct-R1-1-submit"' not in box
    assert 'id="correct-R1-1-confirm"' in box
    form = re.search(r"<form .*?</form>", box, re.S)
    assert form is not None
    fields = {t["name"]: t.get("value", "") for t in tags(form.group(0), "input")}
    recorded = events.replay(event).results["R1-1"]["placements"]
    assert {k: int(fields[f"place_{k}"]) for k in recorded} == recorded
    event.refresh_from_db()
    answer = sam_client.post(reverse("league:result_correct", args=[event.pk]), {
        **fields, "seq": str(event.seq)}, **HTMX).content.decode()
    assert "Recorded places confirmed." in answer and "error-banner" not in answer
    confirmed = EventRecord.objects.get(event=event, kind="result_corrected")
    assert confirmed.payload["placements"] == recorded
    assert RatingHistory.objects.filter(match=first.match_id).exists()
    box = answer[answer.index('<summary id="correct-R1-1">'):]
    box = box[:box.index("</details>")]
    assert 'id="correct-R1-1-barred"' in box and 'id="correct-R1-1-confirm"' not in box
