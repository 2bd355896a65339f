"""Open entry on the pages: players enter and leave on the Event's page, an organizer
switches it on the dashboard form and the organizer page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from league import events
from league.models import Entrant, Event, EventRecord, Season

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ENTER = "Enter this Event"
LEAVE = "Withdraw my entry"


def page(client: Client, event: Event) -> str:
    return client.get(reverse("league:event", args=[event.pk])).content.decode()


def followed(client: Client, name: str, event: Event, data: dict[str, str] | None = None
             ) -> str:
    """A plain post of the Event's page; the page it leads back to, with its message."""
    response = client.post(reverse(name, args=[event.pk]), data or {}, follow=True)
    assert response.redirect_chain[-1][0].endswith(
        reverse("league:event", args=[event.pk]) + "#entry")
    return response.content.decode()


@pytest.fixture
def open_night(make_event: Callable[..., Event]) -> Event:
    return make_event(name="Open night", format="swiss", open_entry=True)


def test_a_player_enters_from_the_events_page_and_leaves_again(
        alice_client: Client, open_night: Event, player: Any) -> None:
    shown = page(alice_client, open_night)
    assert "Entry is open" in shown and ENTER in shown and LEAVE not in shown
    answer = followed(alice_client, "league:event_enter", open_night)
    assert "You are entered in Open night as alice." in answer
    assert LEAVE in answer and ENTER not in answer
    leave = reverse("league:event_leave", args=[open_night.pk])
    asks = rf'action="{leave}" class="inline"\s+data-confirm="([^"]*)">'  # league.js asks
    assert re.findall(asks, answer) == ["Withdraw your entry from this Event?"]
    assert Entrant.objects.get(event=open_night).player.user == player
    answer = followed(alice_client, "league:event_leave", open_night)
    assert "Your entry in Open night is withdrawn." in answer
    assert ENTER in answer and LEAVE not in answer
    assert list(EventRecord.objects.filter(event=open_night).values_list(
        "kind", "actor__username")) == [("entrant_added", "alice"),
                                        ("entrant_withdrawn", "alice")]


def test_a_refused_entry_comes_back_with_its_message(
        alice_client: Client, open_night: Event, sam: Any) -> None:
    events.add_entrant(event=open_night, by=sam, player="alice")
    answer = followed(alice_client, "league:event_enter", open_night)
    assert "alice is already entered." in answer
    assert EventRecord.objects.filter(event=open_night).count() == 1


def test_enter_pressed_twice_enters_once_and_says_so_once(
        alice_client: Client, open_night: Event) -> None:
    """The second post of the same form goes where the first went, with no "already
    entered" beside the first one's success."""
    shown = page(alice_client, open_night)
    token = shown.split('name="once" value="')[1].split('"')[0]
    url = reverse("league:event_enter", args=[open_night.pk])
    first = alice_client.post(url, {"once": token})
    second = alice_client.post(url, {"once": token})
    assert second.status_code == 303 and second["Location"] == first["Location"]
    answer = alice_client.get(second["Location"]).content.decode()
    assert answer.count("You are entered in Open night") == 1
    assert "already entered" not in answer
    assert Entrant.objects.filter(event=open_night).count() == 1


def test_without_open_entry_the_page_offers_no_entry(alice_client: Client, cup: Event,
                                                     sam: Any) -> None:
    shown = page(alice_client, cup)
    assert ENTER not in shown and "Entry is open" not in shown
    answer = followed(alice_client, "league:event_enter", cup)
    assert "its organizers enter them" in answer
    assert not Entrant.objects.filter(event=cup, player__user__username="alice").exists()
    events.add_entrant(event=cup, by=sam, player="alice")  # entered by an organizer,
    assert LEAVE in page(alice_client, cup)  # she may still withdraw before the start


def test_a_member_of_an_entered_team_is_told_so_not_offered_an_entry_refused(
        alice_client: Client, open_night: Event, sam: Any, player: Any,
        django_user_model: Any) -> None:
    """Entering alone would be refused (entrant_overlaps): the page says the team holds
    her entry."""
    django_user_model.objects.create_user(username="erin", password="x")
    events.create_team(name="Night Owls", members=["alice", "erin"], by=sam)
    events.add_entrant(event=open_night, by=sam, team="Night Owls")
    shown = page(alice_client, open_night)
    assert "Entry is open" in shown and ENTER not in shown and LEAVE not in shown
    assert "You are entered, for Night Owls" in shown


def test_a_started_event_offers_neither(alice_client: Client, duel: Event) -> None:
    shown = page(alice_client, duel)
    assert ENTER not in shown and LEAVE not in shown
    answer = followed(alice_client, "league:event_leave", duel)
    assert "The Event has started" in answer
    assert not Entrant.objects.filter(event=duel, withdrawn=True).exists()


def test_a_player_picks_what_they_bring_as_they_enter(
        alice_client: Client, organizer: Any) -> None:
    event = events.create_event(name="Supershow night", game="supershow",
                                format="round_robin", by=organizer, open_entry=True)
    assert 'name="pick_competitors"' in page(alice_client, event)
    followed(alice_client, "league:event_enter", event,
             {"pick_competitors": "velvet_vendetta"})
    assert Entrant.objects.get(event=event).picks == {"competitors": "velvet_vendetta"}


def test_a_refused_pick_comes_back_beside_its_form_as_typed(
        alice_client: Client, organizer: Any) -> None:
    """A deck the Event's page refuses is said beside the Pick form, which comes back
    holding what was typed, its fields described by the refusal and marked invalid, the
    first given focus; it was a banner at the page's top, out of sight of the form the
    page came back at, and the deck typed was gone."""
    event = events.create_event(name="Supershow night", game="supershow",
                                format="round_robin", by=organizer, open_entry=True)
    followed(alice_client, "league:event_enter", event, {})
    typed = '["no_such_card"]'
    answer = alice_client.post(reverse("league:event_pick", args=[event.pk]),
                               {"key": "e1", "pick_decks": typed})
    assert answer.status_code == 400
    shown = answer.content.decode()
    said = re.search(r'<p class="error" id="pick-e1-error">([^<]*\(unknown_card\))</p>',
                     shown)
    assert said is not None
    picks = shown[shown.index('id="picks"'):]
    assert picks.index('action="' + reverse("league:event_pick", args=[event.pk])) \
        < picks.index('id="pick-e1-error"') < picks.index(">Pick</button>")
    deck = re.search(r'<input id="pick-e1-pick-decks"[^>]*>', shown)
    assert deck is not None and 'value="[&quot;no_such_card&quot;]"' in deck[0]
    assert 'aria-describedby="pick-e1-error" aria-invalid="true"' in deck[0]
    first = re.search(r'<select id="pick-e1-pick-competitors"[^>]*>', shown)
    assert first is not None and " autofocus" in first[0]
    assert shown.count(" autofocus") == 1
    assert Entrant.objects.get(event=event).picks == {}


@pytest.mark.parametrize(("typed", "said"), [
    ({"pick_decks": '["collar_tie_up"'}, r"The deck is written as JSON[^<]*"),
    ({"pick_decks": '["no_such_card"]'}, r"[^<]*\(unknown_card\)"),
    ({"pick_competitors": "no_such_competitor"}, r"[^<]*is not one of the competitors[^<]*"),
])
def test_a_refused_entry_comes_back_beside_its_form_as_typed(
        alice_client: Client, organizer: Any, typed: dict[str, str], said: str) -> None:
    """Picks the entry form's Enter refuses (a deck's JSON, a card no one has, a
    Competitor not offered) are said beside the form, which comes back (not redirected)
    holding what was typed, its fields described by the refusal and marked invalid, the
    first given focus; it was a banner at the page's top, out of sight of the form, and
    the deck typed was gone."""
    event = events.create_event(name="Supershow night", game="supershow",
                                format="round_robin", by=organizer, open_entry=True)
    answer = alice_client.post(reverse("league:event_enter", args=[event.pk]), typed)
    assert answer.status_code == 400
    shown = answer.content.decode()
    assert re.search(rf'<p class="error" id="entry-error">{said}</p>', shown)
    entry = shown[shown.index('id="entry"'):]
    assert entry.index('action="' + reverse("league:event_enter", args=[event.pk])) \
        < entry.index('id="entry-error"') < entry.index(">Enter this Event</button>")
    deck = re.search(r'<input id="entry-pick-decks"[^>]*>', shown)
    first = re.search(r'<select id="entry-pick-competitors"[^>]*>', shown)
    assert deck is not None and first is not None
    if "pick_decks" in typed:
        assert f'value="{escape(typed["pick_decks"])}"' in deck[0]
    else:
        assert 'value=""' in deck[0]
        assert '<option value="velvet_vendetta">' in shown  # nothing offered was chosen
    for field in (deck[0], first[0]):
        assert 'aria-describedby="entry-error" aria-invalid="true"' in field
    assert " autofocus" in first[0] and shown.count(" autofocus") == 1
    assert not Entrant.objects.filter(event=event).exists()


def test_a_refused_entry_whose_form_is_gone_is_still_the_banners(
        alice_client: Client, organizer: Any) -> None:
    """One already entered (the entry form no longer offered) hears a refusal at the
    page's top, as before: there is no form for it to stand beside."""
    event = events.create_event(name="Supershow night", game="supershow",
                                format="round_robin", by=organizer, open_entry=True)
    events.add_entrant(event=event, by=organizer, player="alice")
    answer = followed(alice_client, "league:event_enter", event,
                      {"pick_decks": '["no_such_card"]'})
    assert 'id="entry-error"' not in answer
    assert Entrant.objects.filter(event=event).count() == 1


def test_the_dashboard_form_makes_an_event_with_open_entry(
        sam_client: Client, season: Season) -> None:
    form = {"season": str(season.pk), "game": "super_showdown", "format": "swiss",
            "format_options": "{}", "match_options": "{}", "deadline_policy": "bot",
            "deadline_bot": "heuristic"}
    for fields in ({"name": "Open night", "open_entry": "on"}, {"name": "Cup"}):
        sam_client.post(reverse("league:event_create"),
                        {f"event-{k}": v for k, v in {**form, **fields}.items()})
    assert Event.objects.get(name="Open night").open_entry
    assert not Event.objects.get(name="Cup").open_entry


def test_an_organizer_switches_open_entry_on_the_organizer_page(
        sam_client: Client, cup: Event) -> None:
    url = reverse("league:event_open_entry", args=[cup.pk])
    assert "Open entry to players" in sam_client.get(
        reverse("league:event_admin", args=[cup.pk])).content.decode()
    panel = sam_client.post(url, {"open_entry": "on", "seq": cup.seq}, **HTMX)
    assert "Close entry" in panel.content.decode() and panel["HX-Trigger"]
    assert Event.objects.get(pk=cup.pk).open_entry
    stale = sam_client.post(url, {"open_entry": "off", "seq": cup.seq}, **HTMX)
    assert "The Event changed since it was read" in stale.content.decode()
    assert Event.objects.get(pk=cup.pk).open_entry
    sam_client.post(url, {"open_entry": "off"})
    assert not Event.objects.get(pk=cup.pk).open_entry


def test_only_an_organizer_switches_open_entry(alice_client: Client, cup: Event) -> None:
    response = alice_client.post(reverse("league:event_open_entry", args=[cup.pk]),
                                 {"open_entry": "on"})
    assert response.status_code == 403
    assert not Event.objects.get(pk=cup.pk).open_entry


@pytest.mark.parametrize("name", ["league:event_enter", "league:event_leave"])
def test_somebody_not_signed_in_is_sent_to_sign_in(client: Client, open_night: Event,
                                                   name: str) -> None:
    response = client.post(reverse(name, args=[open_night.pk]))
    assert response.status_code == 302 and "login" in response["Location"]
    assert not EventRecord.objects.filter(event=open_night).exists()


def test_a_player_who_left_three_times_is_told_so_instead_of_offered_entry(
        alice_client: Client, open_night: Event, player: Any) -> None:
    for _ in range(events.REENTRIES):
        events.enter_event(event=open_night, by=player)
        events.leave_event(event=open_night, by=player)
    shown = page(alice_client, open_night)
    assert "Entry is open" in shown and ENTER not in shown
    assert f"You have left this Event {events.REENTRIES} times" in shown


def test_the_organizer_page_shows_a_players_own_entry_without_a_reload(
        sam_client: Client, alice_client: Client, cup: Event) -> None:
    """Before the start the live list is polled too: a player entering changes the
    Event's version, and the poll's answer tells the panel to refresh."""
    events.set_open_entry(event=cup, by=cup.organizers.first(), open_entry=True)
    cup.refresh_from_db()
    page = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    poll = re.search(r'hx-get="([^"]*/live/\?v=[^"]*)"\s+hx-trigger="every 3s, ', page)
    assert poll is not None, "the live list is polled before the start"
    url = poll.group(1).replace("&amp;", "&")
    assert sam_client.get(url, **HTMX).status_code == 204  # nothing new
    followed(alice_client, "league:event_enter", cup, {})
    fresh = sam_client.get(url, **HTMX)
    assert fresh.status_code == 200 and fresh["HX-Trigger"] == "league-changed"
    panel = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    assert "alice" in panel
