"""An Event whose own match options name a Competitor, Superstar, Legend or card since
taken out of its game's card set (README, "Adding a card set"): its next match cannot be
made. The organizer's action that would make it is refused (409 rules_changed, naming what
is missing) with nothing written; a result that would make it waits unrecorded, the sweep
logging why and the organizer page saying so, until the card set has it again."""

from __future__ import annotations

import html
import json
import logging
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import events
from league.events import LeagueError
from league.models import Entrant, Event, EventMatch
from matches.models import Match

pytestmark = pytest.mark.django_db

GONE = ["retired", "mira_quickstep"]  # "retired": a Competitor no longer in the card set
KABOOM = {"competitors": "kid_kaboom"}


def night(organizer: Any, player: Any, **settings: Any) -> Event:
    event = events.create_event(name="Supershow night", game="supershow",
                                format="round_robin", by=organizer, **settings)
    events.add_entrant(event=event, by=organizer, player=player.username, picks=KABOOM)
    events.add_entrant(event=event, by=organizer, bot="random")
    events.add_entrant(event=event, by=organizer, bot="heuristic")
    return event


def take_out_of_the_card_set(event: Event) -> None:
    """The Event's stored options name a Competitor the game no longer has, as a release
    that took its file out leaves them (tests/matches/test_rules_version.py does the same
    to a match's options)."""
    Event.objects.filter(pk=event.pk).update(
        match_options={**event.match_options, "competitors": GONE})
    event.refresh_from_db()


def put_back(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(
        match_options={**event.match_options, "competitors": ["ox_valdane", "mira_quickstep"]})
    event.refresh_from_db()


def refused(call: Any) -> LeagueError:
    with pytest.raises(LeagueError) as caught:
        call()
    return caught.value


def organizer_page(organizer: Any, event: Event) -> str:
    browser = Client()
    browser.force_login(organizer)
    page = browser.get(reverse("league:event_admin", args=[event.pk]))
    assert page.status_code == 200
    return html.unescape(page.content.decode())


def test_a_start_on_options_naming_a_competitor_gone_is_refused_naming_it(
        organizer: Any, player: Any) -> None:
    event = night(organizer, player)
    take_out_of_the_card_set(event)
    records = event.records.count()
    exc = refused(lambda: events.start_event(event=event, by=organizer))
    assert (exc.code, exc.status) == ("rules_changed", 409)
    assert "'retired'" in exc.detail and "mira_quickstep" not in exc.detail
    event.refresh_from_db()
    assert event.status == Event.Status.DRAFT and event.records.count() == records
    assert not EventMatch.objects.filter(event=event).exists()
    # the entrant's own pick is good: not dropped for the Event's options' fault
    assert Entrant.objects.get(event=event, player__user=player).picks == KABOOM
    assert "name 'retired', which The Supershow no longer has" in organizer_page(
        organizer, event)
    browser = Client()
    browser.force_login(organizer)
    answer = browser.post(f"/api/events/{event.pk}/start/", {}, content_type="application/json")
    assert answer.status_code == 409 and answer.json()["code"] == "rules_changed"


def test_a_held_round_on_options_naming_a_competitor_gone_is_not_released(
        organizer: Any, player: Any) -> None:
    event = night(organizer, player, hold_rounds=True)
    events.start_event(event=event, by=organizer)
    first = EventMatch.objects.get(event=event)
    take_out_of_the_card_set(event)
    events.forfeit(event=event, by=organizer, pairing=first.pairing, entrant=first.entrants[1])
    events.record_match_result(match=Match.objects.get(pk=first.match_id))  # round 2 held
    records = event.records.count()
    exc = refused(lambda: events.release_round(event=event, by=organizer))
    assert (exc.code, exc.status) == ("rules_changed", 409) and "'retired'" in exc.detail
    assert event.records.count() == records
    assert EventMatch.objects.filter(event=event).count() == 1
    put_back(event)
    events.release_round(event=event, by=organizer)
    assert EventMatch.objects.filter(event=event).count() == 2


def test_a_result_that_would_make_a_match_on_a_competitor_gone_waits_and_the_page_says_why(
        organizer: Any, player: Any, caplog: pytest.LogCaptureFixture) -> None:
    event = night(organizer, player)
    events.start_event(event=event, by=organizer)  # three entrants: one match a round
    first = EventMatch.objects.get(event=event)
    take_out_of_the_card_set(event)
    events.forfeit(event=event, by=organizer, pairing=first.pairing, entrant=first.entrants[1])
    with caplog.at_level(logging.WARNING, logger="league.events"):
        assert events.sweep_results() == 0
    waits = [r for r in caplog.records if "waits" in r.getMessage()]
    assert waits and waits[0].exc_info is None and "'retired'" in waits[0].getMessage()
    assert not event.records.filter(kind="result_recorded").exists()
    assert Entrant.objects.get(event=event, player__user=player).picks == KABOOM
    page = organizer_page(organizer, event)
    assert "name 'retired', which The Supershow no longer has" in page
    assert "results that would make them wait unrecorded" in page
    put_back(event)  # the card set has it again: the next sweep plays on
    assert events.sweep_results() == 1
    assert event.records.filter(kind="result_recorded").count() == 1
    assert EventMatch.objects.filter(event=event).count() == 2
    assert "no longer has" not in organizer_page(organizer, event)


def test_a_showdown_series_composed_with_a_match_card_gone_is_refused_naming_its_option(
        organizer: Any, player: Any) -> None:
    """SS-127: a composed series names its Match cards; one since taken out of the card
    set leaves the series option naming it."""
    event = events.create_showdown_event(
        by=organizer, preset=None, superstars_per_team=1,
        matches=[{"match": "head_to_head", "stipulation": None}] * 2)
    series = event.match_options["event"]
    Event.objects.filter(pk=event.pk).update(match_options={**event.match_options, "event": {
        **series, "matches": [{"match": "retired", "stipulation": None},
                              *series["matches"][1:]]}})
    event.refresh_from_db()
    events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, bot="random")
    records = event.records.count()
    exc = refused(lambda: events.start_event(event=event, by=organizer))
    assert (exc.code, exc.status) == ("rules_changed", 409)
    assert "something its 'event' option names" in exc.detail
    assert event.records.count() == records


def test_the_events_api_answer_names_what_its_options_name_gone_as_the_page_does(
        organizer: Any, player: Any, organizer_api: Any, player_api: Any) -> None:
    """`options_gone`: the organizer page's notice, for a client; empty once the card set
    has it again."""
    event = night(organizer, player)
    url = f"/api/events/{event.pk}/"
    assert organizer_api.get(url).json()["options_gone"] == []
    take_out_of_the_card_set(event)
    assert "name 'retired', which The Supershow no longer has" in organizer_page(
        organizer, event)
    for client in (organizer_api, player_api):
        assert client.get(url).json()["options_gone"] == ["'retired'"]
    listed = next(e for e in player_api.get("/api/events/").json()["results"]
                  if e["id"] == event.pk)
    assert listed["options_gone"] == ["'retired'"]
    put_back(event)
    assert organizer_api.get(url).json()["options_gone"] == []


def test_a_hidden_deck_naming_a_card_gone_is_told_only_to_whom_may_read_it(
        organizer: Any, player: Any, organizer_api: Any, player_api: Any) -> None:
    """Whether a deck names a card gone is news of the deck: who may not read it (an
    entrant) is told nothing of it, an organizer who holds no entry is."""
    from engine.games.supershow.cards import CATALOG

    deck = [card.key for card in CATALOG.competitors["ox_valdane"].deck]
    event = events.create_event(name="Deck night", game="supershow", format="round_robin",
                                by=organizer, match_options={
                                    "competitors": ["ox_valdane", "mira_quickstep"],
                                    "decks": [deck, None]})
    events.add_entrant(event=event, by=organizer, player=player.username)
    url = f"/api/events/{event.pk}/"
    assert organizer_api.get(url).json()["options_gone"] == []
    Event.objects.filter(pk=event.pk).update(match_options={
        **event.match_options, "decks": [["retired_card", *deck[1:]], None]})
    told = organizer_api.get(url).json()["options_gone"]
    assert told and all("retired_card" in gone or "'decks'" in gone for gone in told)
    answer = player_api.get(url).json()
    assert answer["options_gone"] == [] and "retired_card" not in json.dumps(answer)
