"""The organizer pages as a phone shows them: headless Chromium at 390px wide, driven over
the DevTools protocol (its --remote-debugging-pipe, so no client package), measures every
control and every piece of text the pages show, and plays the refusal banner's way out.

Skipped where no Chromium is installed (Debian's package: `apt-get install chromium`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.urls import reverse

from league import events
from league.models import Event, EventMatch, Season
from matches.models import Match
from tests.chromium import CHROMIUM, TAP, TEXT, WIDTH, Chromium, measure, signed_in

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed")


@pytest.fixture
def phone(live_server: Any, sam: Any) -> Iterator[Chromium]:
    """Chromium signed in as sam, the season's organizer."""
    with signed_in(live_server.url, sam) as browser:
        yield browser


@pytest.fixture
def organized(make_event: Callable[..., Event], season: Season, sam: Any, organizer: Any,
              player: Any, player2: Any, outsider: Any) -> dict[str, Event]:
    """A draft Event, a running one with a match live and one result, and a Swiss whose
    second round waits for the organizer. Players, not bots, hold the seats: a bot's
    seat moves at once in a test that commits, and here every test does."""
    draft = make_event(name="Friday night cup", bots=3, open_entry=True)
    running = make_event(name="Round robin night", format="round_robin")
    held = make_event(name="Swiss night", format="swiss", hold_rounds=True,
                      format_options={"rounds": 2})
    for event in (running, held):
        for user in (player, player2, outsider, organizer):
            events.add_entrant(event=event, by=sam, player=user.username)
        events.start_event(event=event, by=sam)
    live = EventMatch.objects.filter(event=running).first()
    assert live is not None
    events.forfeit(event=running, by=sam, pairing=live.pairing, entrant=live.entrants[1])
    for link in EventMatch.objects.filter(event=held):
        events.forfeit(event=held, by=sam, pairing=link.pairing, entrant=link.entrants[1])
    for event in (draft, running, held):
        event.refresh_from_db()
    # Events over, more than a page of them: the dashboard lists them with a pager.
    over = [make_event(name=f"Old night {n}") for n in range(11)]
    Event.objects.filter(pk__in=[e.pk for e in over]).update(status=Event.Status.FINISHED)
    assert EventMatch.objects.filter(event=running, match__status=Match.Status.ACTIVE).exists()
    assert events.held_pairings(held, events.replay(held))
    return {"draft": draft, "running": running, "held": held}


def test_every_control_is_a_full_tap_and_every_text_readable_on_a_phone(
        phone: Chromium, live_server: Any, organized: dict[str, Event], organizer: Any,
        sam: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from league import views

    monkeypatch.setattr(views, "CURRENT_PER_PAGE", 2)  # all three of the dashboard's pagers
    monkeypatch.setattr(views, "SEASONS_PER_PAGE", 1)
    events.create_season(name="Autumn league", game="super_showdown",
                         by=organizer).organizers.add(sam)
    pages = [reverse("league:dashboard"), reverse("league:team_create"),
             *(reverse("league:event_admin", args=[e.pk]) for e in organized.values())]
    for page in pages:
        phone.open(live_server.url + page)
        if page == pages[0]:
            assert phone.js("document.querySelectorAll('.pager a').length") == 3
        phone.js("document.querySelectorAll('details').forEach(d => d.open = true)")
        shown = measure(phone)
        assert len(shown["controls"]) >= 4 and shown["texts"], page
        small = [c for c in shown["controls"] if c["w"] < TAP or c["h"] < TAP]
        assert small == [], (page, small)
        tiny = [t for t in shown["texts"] if t["px"] < TEXT]
        assert tiny == [], (page, tiny)
        assert shown["wide"] <= WIDTH, page  # nothing scrolls sideways


def banners(phone: Chromium) -> list[str]:
    return list(phone.js("[...document.querySelectorAll('.error-banner')]"
                         ".map(b => b.closest('#event-panel, #event-live').id)"))


def test_a_refusal_goes_with_the_next_action_that_succeeds_or_its_dismiss_button(
        phone: Chromium, live_server: Any, organized: dict[str, Event]) -> None:
    """Refused in the panel (a Withdraw sent from a page older than the Event), then the
    organizer types in the panel's notes, which holds the panel's refreshes, and a Bot
    plays goes through in the live list: the panel's refusal is gone. A refusal in the
    live list goes with its Dismiss button, measured as a full tap."""
    running = organized["running"]
    phone.open(live_server.url + reverse("league:event_admin", args=[running.pk]))
    phone.js("(() => { const b = document.querySelector('#withdraw-e1');"
             " b.form.querySelector('[name=seq]').value = '1'; b.click(); })()")
    phone.until("document.querySelector('#panel-alert .error-banner')")
    assert phone.dialogs == ["Withdraw alice?"]
    phone.js("(() => { const t = document.querySelector('#details-notes'); t.focus();"
             " t.value = 'Table 3'; t.dispatchEvent(new Event('input', {bubbles: true})); })()")
    phone.js("document.querySelector('[id^=to-bot-][id$=-submit]').click()")
    phone.until("document.querySelector('#event-panel').hasAttribute('data-refresh-held')")
    phone.until("!document.querySelector('#panel-alert .error-banner')")
    assert banners(phone) == [] and phone.js("document.querySelector('#details-notes').value") \
        == "Table 3"  # what the organizer was typing is still there

    phone.js("(() => { const b = document.querySelector('[id^=forfeit-]');"
             " b.form.querySelector('[name=seq]').value = '1'; b.click(); })()")
    phone.until("document.querySelector('#live-alert .error-banner')")
    box = phone.js("(() => { const b = document.querySelector('#live-alert [data-dismiss-alert]')"
                   ".getBoundingClientRect(); return [b.width, b.height]; })()")
    assert min(box) >= TAP, box
    phone.js("document.querySelector('#live-alert [data-dismiss-alert]').click()")
    phone.until("!document.querySelector('.error-banner')")


def test_start_is_asked_first_and_a_no_starts_nothing(
        phone: Chromium, live_server: Any, organized: dict[str, Event]) -> None:
    draft = organized["draft"]
    phone.open(live_server.url + reverse("league:event_admin", args=[draft.pk]))
    phone.accept = False
    phone.js("document.querySelector('#start-submit').click()")
    time.sleep(0.5)  # what a yes would have sent by now
    assert phone.dialogs == [
        "Start Friday night cup with its 3 entrants? The first matches are made at once from "
        "the seeding as it stands, which can then no longer change; players can no longer "
        "enter or leave it themselves."]
    draft.refresh_from_db()
    assert draft.status == Event.Status.DRAFT
    phone.accept = True
    phone.js("document.querySelector('#start-submit').click()")
    phone.until("!document.querySelector('#start-submit')")
    draft.refresh_from_db()  # started (its bots may have played it out since)
    assert draft.status != Event.Status.DRAFT and len(phone.dialogs) == 2
    assert EventMatch.objects.filter(event=draft).exists()


def test_a_correction_made_from_the_keyboard_leaves_focus_on_its_result(
        phone: Chromium, live_server: Any, organized: dict[str, Event]) -> None:
    """The Correct form comes back closed in its result's disclosure: htmx gave focus back
    to its button, hidden there, which took none, and focus fell to the page's top, a
    keyboard user's place lost. It goes to the result's summary, which shows the places
    corrected."""
    running = organized["running"]
    [done] = [link for link in EventMatch.objects.filter(event=running)
              if link.match.status == Match.Status.FINISHED]
    phone.open(live_server.url + reverse("league:event_admin", args=[running.pk]))
    summary = f"correct-{done.pairing}"
    phone.js(f"document.getElementById('{summary}').focus()")
    phone.press("Enter")  # opens the disclosure
    first, second = done.entrants
    for key, place in ((first, "2"), (second, "1")):
        phone.press("Tab")
        assert phone.js("document.activeElement.id") == f"{summary}-{key}"
        phone.js(f"document.activeElement.value = '{place}'")
    phone.press("Tab")
    assert phone.js("document.activeElement.id") == f"{summary}-submit"
    phone.press("Enter")
    phone.until("document.querySelector('#panel-announce').textContent.includes('corrected')")
    phone.until(f"document.activeElement.id === '{summary}'")
    assert phone.dialogs[-1].startswith("Correct the result of")
