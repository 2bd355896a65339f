"""What an entrant brings to its seats: its own Competitor (The Supershow) or Superstar
(Superstar Showdown), in every match the Event makes for it, from its next match on."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from engine import registry
from league import events, projections
from league.events import LeagueError
from league.models import Entrant, Event, EventMatch
from matches.models import Match

pytestmark = pytest.mark.django_db

VELVET = {"competitors": "velvet_vendetta"}
KABOOM = {"competitors": "kid_kaboom"}


def supershow_event(by: Any, **match_options: Any) -> Event:
    return events.create_event(name="Supershow night", game="supershow", format="round_robin",
                               by=by, match_options=match_options)


def birdcage_event(by: Any) -> Event:
    return events.create_event(name="Cage night", game="supershow", format="heats", by=by,
                               format_options={"pod_size": 6, "min_pod_size": 3, "advance": 1},
                               match_options={"match_type": "birdcage"})


def refused(call: Any) -> LeagueError:
    with pytest.raises(LeagueError) as caught:
        call()
    return caught.value


def competitors_by_entrant(link: EventMatch) -> dict[str, str]:
    match = Match.objects.get(pk=link.match_id)
    return {key: match.options["competitors"][link.seats_of(key)[0]] for key in link.entrants}


def test_each_entrant_plays_its_own_competitor_and_the_others_what_their_seat_gives(
        organizer: Any, player: Any, player2: Any) -> None:
    event = supershow_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username, picks=VELVET)
    bruno = events.add_entrant(event=event, by=organizer, player=player2.username)
    bots = [events.add_entrant(event=event, by=organizer, bot=name).key
            for name in ("heuristic", "random")]
    events.pick(event=event, by=player2, key=bruno.key, picks=KABOOM)
    events.start_event(event=event, by=organizer)
    chosen: dict[str, str] = {}
    seats: dict[str, int] = {}
    for link in EventMatch.objects.filter(event=event):  # the first round: everyone plays
        chosen |= competitors_by_entrant(link)
        seats |= {key: link.seats_of(key)[0] for key in link.entrants}
    assert chosen[alice.key] == "velvet_vendetta" and chosen[bruno.key] == "kid_kaboom"
    default = ["ox_valdane", "mira_quickstep"]  # the Event's options, seat by seat
    assert [chosen[key] for key in bots] == [default[seats[key]] for key in bots]
    rules = registry.get_rules("supershow")
    assert events.with_picks(rules, event.match_options, [{}, VELVET])["competitors"] == [
        "ox_valdane", "velvet_vendetta"]
    assert Entrant.objects.get(event=event, key=alice.key).picks == VELVET


def test_a_pick_counts_from_the_next_match_and_an_empty_one_goes_back_to_the_events(
        organizer: Any, player: Any) -> None:
    event = supershow_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, bot="random")
    events.add_entrant(event=event, by=organizer, bot="heuristic")
    events.start_event(event=event, by=organizer)  # three entrants: one match a round

    def play_round() -> EventMatch:
        """Forfeit the live match for its second seat; the next round's match."""
        link = EventMatch.objects.get(event=event, match__status="active")
        events.forfeit(event=event, by=organizer, pairing=link.pairing,
                       entrant=link.entrants[1])
        events.record_match_result(match=Match.objects.get(pk=link.match_id))
        return EventMatch.objects.get(event=event, match__status="active")

    events.pick(event=event, by=player, key=alice.key, picks=VELVET)
    seq = event.records.count()
    events.pick(event=event, by=player, key=alice.key, picks=dict(VELVET))
    assert event.records.count() == seq  # the same picks again write nothing
    second = play_round()
    assert competitors_by_entrant(second)[alice.key] == "velvet_vendetta"
    events.pick(event=event, by=player, key=alice.key, picks=KABOOM)
    assert competitors_by_entrant(second)[alice.key] == "velvet_vendetta"  # made: kept
    third = play_round()
    assert competitors_by_entrant(third)[alice.key] == "kid_kaboom"
    events.pick(event=event, by=player, key=alice.key, picks={})
    assert Entrant.objects.get(event=event, key=alice.key).picks == {}
    projections.rebuild_all()
    assert Entrant.objects.get(event=event, key=alice.key).picks == {}
    assert [r.payload["picks"] for r in event.records.filter(kind="entrant_picked")] == [
        VELVET, KABOOM, {}]


def test_a_pick_the_game_no_longer_takes_is_dropped_and_the_event_plays_on(
        organizer: Any, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Competitor picked before a release took it out of the card set: the entrant's
    next match is made with what the Event gives its seat, and a record says so."""
    import dataclasses
    from types import MappingProxyType

    from engine.games.supershow import rules as supershow_rules

    event = supershow_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username,
                               picks=VELVET)
    events.add_entrant(event=event, by=organizer, bot="random")
    events.add_entrant(event=event, by=organizer, bot="heuristic")
    events.start_event(event=event, by=organizer)  # three entrants: one match a round
    catalog = supershow_rules.CATALOG
    monkeypatch.setattr(supershow_rules, "CATALOG", dataclasses.replace(
        catalog, competitors=MappingProxyType({
            key: comp for key, comp in catalog.competitors.items()
            if key != VELVET["competitors"]})))
    first = EventMatch.objects.get(event=event, match__status="active")
    events.forfeit(event=event, by=organizer, pairing=first.pairing, entrant=first.entrants[1])
    events.record_match_result(match=Match.objects.get(pk=first.match_id))
    second = EventMatch.objects.get(event=event, match__status="active")
    assert alice.key in second.entrants and second.pairing != first.pairing
    default = ["ox_valdane", "mira_quickstep"]
    assert competitors_by_entrant(second)[alice.key] == default[second.seats_of(alice.key)[0]]
    dropped = event.records.get(kind="entrant_picked")
    assert (dropped.payload, dropped.actor) == (
        {"key": alice.key, "picks": {}, "dropped": True}, None)
    assert Entrant.objects.get(event=event, key=alice.key).picks == {}
    browser = Client()
    browser.force_login(player)
    page = browser.get(reverse("league:event", args=[event.pk])).content.decode()
    assert "the game no longer takes its pick" in page
    events.pick(event=event, by=player, key=alice.key, picks=KABOOM)  # picks again
    page = browser.get(reverse("league:event", args=[event.pk])).content.decode()
    assert "no longer takes" not in page and "Kid Kaboom" in page


def test_the_player_a_team_member_and_organizers_may_pick_nobody_else(
        organizer: Any, player: Any, player2: Any, outsider: Any) -> None:
    event = supershow_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    team = events.create_team(name="Harbour Lights", members=[player2.username], by=organizer)
    crew = events.add_entrant(event=event, by=organizer, team=team.name)
    assert events.pick(event=event, by=player, key=alice.key, picks=VELVET).picks == VELVET
    assert events.pick(event=event, by=player2, key=crew.key, picks=KABOOM).picks == KABOOM
    assert events.pick(event=event, by=organizer, key=alice.key, picks=KABOOM).picks == KABOOM
    for who, key in ((outsider, alice.key), (player, crew.key), (player2, alice.key)):
        exc = refused(lambda who=who, key=key: events.pick(event=event, by=who, key=key,
                                                          picks=VELVET))
        assert (exc.code, exc.status) == ("not_your_entrant", 403)
    exc = refused(lambda: events.pick(event=event, by=organizer, key="e9", picks=VELVET))
    assert (exc.code, exc.status) == ("unknown_entrant", 404)


@pytest.mark.parametrize(("picks", "code"), [
    ({"referee": "velvet_vendetta"}, "bad_picks"),
    ({"decks": "velvet_vendetta"}, "bad_deck"),
    ({"decks": None}, "bad_picks"),
    ({"decks": ["collar_tie_up"] * 400}, "bad_picks"),
    ({"competitors": "nobody"}, "bad_picks"),
    ({"competitors": ["velvet_vendetta"]}, "bad_picks"),
    (["velvet_vendetta"], "bad_picks"),
])
def test_a_pick_the_events_matches_cannot_take_is_refused_and_nothing_is_written(
        organizer: Any, player: Any, picks: Any, code: str) -> None:
    event = supershow_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    seq = event.records.count()
    assert refused(lambda: events.pick(event=event, by=player, key=alice.key,
                                       picks=picks)).code == code
    assert refused(lambda: events.add_entrant(event=event, by=organizer, bot="random",
                                              picks=picks)).code == code
    assert event.records.count() == seq


def test_a_pick_is_tried_in_every_seat_against_the_events_options(
        organizer: Any, player: Any) -> None:
    """The Special Guest Referee stands outside the match (SH-126): nobody may bring them."""
    event = supershow_event(organizer, referee="velvet_vendetta")
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    exc = refused(lambda: events.pick(event=event, by=player, key=alice.key, picks=VELVET))
    assert "(with these picks in seat 1 of 2)" in exc.detail
    assert events.pick(event=event, by=player, key=alice.key, picks=KABOOM).picks == KABOOM


@pytest.mark.parametrize("game", ["supershow", "royal_rumble"])
def test_where_the_matches_let_no_seat_pick_a_pick_is_refused(
        organizer: Any, player: Any, game: str) -> None:
    """A Birdcage drafts its Competitors; Royal Rumble deals its Legends."""
    event = birdcage_event(organizer) if game == "supershow" else events.create_event(
        name="No picks", game=game, format="round_robin", by=organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    assert refused(lambda: events.pick(event=event, by=player, key=alice.key,
                                       picks=VELVET)).code == "no_picks"


def test_a_superstar_showdown_entrant_brings_its_superstar_but_not_to_a_showdown_event(
        organizer: Any, player: Any) -> None:
    event = events.create_event(name="Core night", game="superstar_showdown",
                                format="single_elimination", by=organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username,
                               picks={"superstars": "blaze"})
    events.add_entrant(event=event, by=organizer, bot="heuristic")
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    stars = Match.objects.get(pk=link.match_id).options["superstars"]
    assert stars[link.seats_of(alice.key)[0]] == "blaze"
    series = events.create_showdown_event(by=organizer, preset="full_card")
    red = events.add_entrant(event=series, by=organizer, player=player.username)
    assert refused(lambda: events.pick(event=series, by=player, key=red.key, picks={
        "superstars": "blaze"})).code == "no_picks"


def test_an_option_that_does_not_name_every_seat_takes_no_pick() -> None:
    class Rules:
        def seat_picks(self, options: Any) -> dict[str, dict[str, str]]:
            return {"characters": {"a": "A", "b": "B"}}

        def seat_entries(self, options: Any, n_seats: int) -> dict[str, list[Any]]:
            return {}  # the option holds two entries; the table has three seats

    assert events.with_picks(Rules(), {"characters": ["a", "b"]}, [{}, {}, {}]) == {
        "characters": ["a", "b"]}
    with pytest.raises(LeagueError) as caught:
        events.with_picks(Rules(), {"characters": ["a", "b"]}, [{}, {"characters": "b"}, {}])
    assert caught.value.code == "picks_need_every_seat"


# -- the API -----------------------------------------------------------------------------

def test_the_api_says_a_pick_of_null_is_left_out_rather_than_too_long(
        organizer: Any, player_api: APIClient) -> None:
    """Null is no deck of over 2000 characters: the refusal says what to send instead."""
    event = events.create_event(name="Supershow night", game="supershow",
                                format="round_robin", by=organizer, open_entry=True)
    answer = player_api.post(f"/api/events/{event.pk}/enter/", {"picks": {"decks": None}},
                             format="json")
    assert answer.status_code == 400 and answer.json() == {
        "code": "bad_picks", "detail": "A 'decks' pick needs a value: leave it out to play "
                                       "what the Event's options give the seat."}
    assert not event.entrants.exists()


def test_the_api_enters_with_picks_and_lets_the_player_change_them(
        organizer: Any, organizer_api: APIClient, player: Any, player_api: APIClient,
        outsider_api: APIClient) -> None:
    event = supershow_event(organizer)
    created = organizer_api.post(f"/api/events/{event.pk}/entrants/", {
        "player": player.username, "picks": VELVET}, format="json")
    assert created.status_code == 201 and created.json()["picks"] == VELVET
    key = created.json()["key"]
    url = f"/api/events/{event.pk}/entrants/{key}/picks/"
    answer = player_api.post(url, {"picks": KABOOM}, format="json")
    assert answer.status_code == 200 and answer.json()["picks"] == KABOOM
    denied = outsider_api.post(url, {"picks": VELVET}, format="json")
    assert denied.status_code == 403 and denied.json()["code"] == "not_your_entrant"
    bad = player_api.post(url, {"picks": {"competitors": "nobody"}}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_picks"
    entrants = player_api.get(f"/api/events/{event.pk}/").json()["entrants"]
    assert [e["picks"] for e in entrants] == [KABOOM]


# -- the Event page ----------------------------------------------------------------------

def test_the_event_page_shows_the_picks_and_a_form_for_the_players_own_entrant(
        organizer: Any, player: Any, player2: Any, outsider: Any) -> None:
    event = supershow_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, player=player2.username, picks=KABOOM)
    browser = Client()
    browser.force_login(player)
    page = browser.get(reverse("league:event", args=[event.pk])).content.decode()
    assert "What each entrant brings" in page and "Kid Kaboom" in page
    assert page.count('name="pick_competitors"') == 1  # alice's own entrant only
    assert f'name="key" value="{alice.key}"' in page
    answer = browser.post(reverse("league:event_pick", args=[event.pk]), {
        "key": alice.key, "pick_competitors": "velvet_vendetta"}, follow=True)
    assert "brings that from its next match on" in answer.content.decode()
    assert Entrant.objects.get(event=event, key=alice.key).picks == VELVET
    answer = browser.post(reverse("league:event_pick", args=[event.pk]), {
        "key": alice.key, "pick_competitors": "nobody"}, follow=True)
    assert "(bad_picks)" in answer.content.decode()
    onlooker = Client()
    onlooker.force_login(outsider)
    page = onlooker.get(reverse("league:event", args=[event.pk])).content.decode()
    assert "Velvet Vendetta" in page and 'name="pick_competitors"' not in page
    cage = birdcage_event(organizer)
    page = browser.get(reverse("league:event", args=[cage.pk])).content.decode()
    assert "What each entrant brings" not in page


def test_the_event_page_asks_who_may_pick_in_the_same_queries_for_any_field(
        organizer: Any, player: Any, django_user_model: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(entrants: int) -> int:
        event = supershow_event(organizer)
        for n in range(entrants):
            user = django_user_model.objects.create_user(username=f"p{entrants}x{n}")
            events.add_entrant(event=event, by=organizer, player=user.username)
        browser = Client()
        browser.force_login(player)
        browser.get(reverse("league:event", args=[event.pk]))  # the session, warmed
        with CaptureQueriesContext(connection) as done:
            assert browser.get(reverse("league:event", args=[event.pk])).status_code == 200
        return len(done)

    assert queries(2) == queries(6)


def constructed(owner: str, donor: str) -> list[str]:
    """A legal deck for `owner`: the donor's 27 shared cards and the owner's Finishes."""
    from engine.games.supershow.cards import CATALOG

    own, lent = CATALOG.competitors[owner], CATALOG.competitors[donor]
    return [card.key for card in lent.deck[:27]] + [card.key for card in own.deck[27:]]


@pytest.mark.parametrize("decks", [
    [None, "constructed"], ["constructed", None], ["constructed", "constructed"]])
def test_an_event_dealing_constructed_decks_takes_no_pick_and_so_tells_nothing_of_them(
        organizer: Any, player: Any, player_api: APIClient, decks: list[Any]) -> None:
    """Tried against a hidden deck, a pick's refusal would say which seat holds one."""
    seats = ["ox_valdane", "mira_quickstep"]
    event = supershow_event(organizer, competitors=seats, decks=[
        constructed(seat, seats[1 - index]) if deck else None
        for index, (seat, deck) in enumerate(zip(seats, decks, strict=True))])
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    url = f"/api/events/{event.pk}/entrants/{alice.key}/picks/"
    answers = {player_api.post(url, {"picks": {"competitors": key}}, format="json").content
               for key in seats}
    assert len(answers) == 1 and b'"no_picks"' in answers.pop()
    browser = Client()
    browser.force_login(player)
    page = browser.get(reverse("league:event", args=[event.pk])).content.decode()
    assert "What each entrant brings" not in page


def test_an_organizer_who_plays_picks_for_their_own_entry_only(
        organizer: Any, player: Any, player2: Any) -> None:
    event = supershow_event(organizer)
    own = events.add_entrant(event=event, by=organizer, player=organizer.username)
    rival = events.add_entrant(event=event, by=organizer, player=player2.username)
    assert events.pick(event=event, by=organizer, key=own.key, picks=VELVET).picks == VELVET
    exc = refused(lambda: events.pick(event=event, by=organizer, key=rival.key, picks=VELVET))
    assert exc.code == "not_your_entrant"


def test_a_superuser_who_plays_picks_for_their_own_entry_only(
        django_user_model: Any, player2: Any) -> None:
    """Superusers read every deck, but one who holds an entry is a player like the others:
    they chose what their rivals brought (and entered them with picks)."""
    root = django_user_model.objects.create_superuser("root", password="x-admin-pass-2")
    event = supershow_event(root)
    own = events.add_entrant(event=event, by=root, player=root.username)
    rival = events.add_entrant(event=event, by=root, player=player2.username)
    assert events.pick(event=event, by=root, key=own.key, picks=VELVET).picks == VELVET
    exc = refused(lambda: events.pick(event=event, by=root, key=rival.key, picks=KABOOM))
    assert (exc.code, exc.status) == ("not_your_entrant", 403)
    exc = refused(lambda: events.add_entrant(event=event, by=root, bot="random",
                                             picks=KABOOM))
    assert (exc.code, exc.status) == ("not_your_entrant", 403)
    assert Entrant.objects.get(event=event, key=rival.key).picks == {}
    assert Entrant.objects.filter(event=event).count() == 2
    browser = Client()
    browser.force_login(root)
    panel = browser.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert "pick_competitors" not in panel


def test_options_the_game_no_longer_reads_are_refused_as_a_league_error_and_the_page_stands(
        organizer: Any, player: Any) -> None:
    """An Event stored before a release that dropped one of its options."""
    event = supershow_event(organizer)
    events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, bot="random")
    Event.objects.filter(pk=event.pk).update(
        match_options={**event.match_options, "retired_option": 1})
    event.refresh_from_db()
    assert refused(lambda: events.start_event(event=event, by=organizer)).code \
        == "unknown_option"
    browser = Client()
    browser.force_login(player)
    page = browser.get(reverse("league:event", args=[event.pk]))
    assert page.status_code == 200 and "What each entrant brings" not in page.content.decode()


def test_the_organizer_enters_a_bot_with_its_competitor_from_the_event_panel(
        organizer: Any) -> None:
    event = supershow_event(organizer)
    browser = Client()
    browser.force_login(organizer)
    panel = browser.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert panel.count('name="pick_competitors"') == 3  # the player, team and bot forms
    browser.post(reverse("league:entrant_add", args=[event.pk]), {
        "bot": "heuristic", "name": "House bot", "pick_competitors": "kid_kaboom"})
    browser.post(reverse("league:entrant_add", args=[event.pk]), {
        "bot": "random", "name": "Plain bot", "pick_competitors": ""})
    assert dict(Entrant.objects.filter(event=event).values_list("name", "picks")) == {
        "House bot": KABOOM, "Plain bot": {}}
    rumble = events.create_event(name="Rumble", game="royal_rumble", format="round_robin",
                                 by=organizer)
    panel = browser.get(reverse("league:event_admin", args=[rumble.pk])).content.decode()
    assert "pick_" not in panel


def test_once_the_event_is_over_nobody_picks(organizer: Any, player: Any) -> None:
    event = supershow_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    for who in (player, organizer):
        exc = refused(lambda who=who: events.pick(event=event, by=who, key=alice.key,
                                                  picks=VELVET))
        assert (exc.code, exc.status) == ("event_finished", 409)
    browser = Client()
    browser.force_login(organizer)
    page = browser.get(reverse("league:event", args=[event.pk])).content.decode()
    assert "What each entrant brings" in page and 'name="pick_competitors"' not in page


def test_an_entrant_out_of_a_double_elimination_is_offered_no_pick_and_refused_one(
        organizer: Any) -> None:
    """Beaten twice, an entrant has no match to come: the Event's page lists only those
    still in, with their forms, and a pick for the one out is refused, nothing written."""
    event = events.create_event(name="Supershow cup", game="supershow",
                                format="double_elimination", by=organizer)
    keys = [events.add_entrant(event=event, by=organizer, bot=name, name=f"Bot {i}").key
            for i, name in enumerate(["random", "heuristic"] * 2, start=1)]
    events.start_event(event=event, by=organizer)
    out: set[str] = set()
    while not out:  # the second seat of the first live match forfeits, until one is out
        link = EventMatch.objects.filter(event=event, match__status="active").order_by(
            "round", "pairing").first()
        assert link is not None
        events.forfeit(event=event, by=organizer, pairing=link.pairing,
                       entrant=link.entrants[1])
        events.record_match_result(match=Match.objects.get(pk=link.match_id))
        out = events.knocked_out(events.replay_to_read(Event.objects.get(pk=event.pk)))
    [gone] = out
    browser = Client()
    browser.force_login(organizer)
    page = browser.get(reverse("league:event", args=[event.pk])).content.decode()
    assert page.count('name="pick_competitors"') == 3
    assert {key for key in keys if f'name="key" value="{key}"' in page} == set(keys) - {gone}
    seq = Event.objects.get(pk=event.pk).seq
    exc = refused(lambda: events.pick(event=event, by=organizer, key=gone, picks=VELVET))
    assert (exc.code, exc.status) == ("entrant_out", 409)
    assert exc.detail.endswith("is out of the Event: no match of theirs is to come, so a "
                               "pick would count for none.")
    assert Event.objects.get(pk=event.pk).seq == seq
    still = next(key for key in keys if key != gone)
    assert events.pick(event=event, by=organizer, key=still, picks=VELVET).picks == VELVET


def test_a_semi_final_loser_with_a_third_place_match_to_play_still_picks(
        organizer: Any) -> None:
    """The bracket counts a semi-final's loser out, but its third-place match is to come."""
    event = events.create_event(name="Supershow cup", game="supershow",
                                format="single_elimination", by=organizer,
                                format_options={"third_place": True})
    for i, name in enumerate(["random", "heuristic"] * 2, start=1):
        events.add_entrant(event=event, by=organizer, bot=name, name=f"Bot {i}")
    events.start_event(event=event, by=organizer)
    semis = list(EventMatch.objects.filter(event=event))
    for link in semis:
        events.forfeit(event=event, by=organizer, pairing=link.pairing,
                       entrant=link.entrants[1])
        events.record_match_result(match=Match.objects.get(pk=link.match_id))
    assert events.knocked_out(events.replay_to_read(Event.objects.get(pk=event.pk))) == set()
    loser = semis[0].entrants[1]
    assert events.pick(event=event, by=organizer, key=loser, picks=VELVET).picks == VELVET


# -- a constructed deck of one's own: a secret pick -----------------------------------------

VELVET_DECK = {"competitors": "velvet_vendetta"}


@pytest.fixture
def decked(organizer: Any, player: Any, player2: Any,
           django_user_model: Any) -> dict[str, Any]:
    """A Supershow Event: alice brings Velvet Vendetta with her own constructed deck,
    bruno plays what the Event gives; entered before it came, carl (one of the Event's
    organizers) and stan (staff, who may view the admin's league rows) play too."""
    from django.contrib.auth.models import Permission

    event = supershow_event(organizer)
    carl = django_user_model.objects.create_user(username="carl")
    stan = django_user_model.objects.create_user(username="stan", is_staff=True)
    stan.user_permissions.add(*Permission.objects.filter(codename__in=[
        "view_entrant", "view_eventrecord", "view_event"]))
    for user in (carl, stan):
        events.add_entrant(event=event, by=organizer, player=user.username)
    event.organizers.add(carl)
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    bruno = events.add_entrant(event=event, by=organizer, player=player2.username)
    deck = constructed("velvet_vendetta", "kid_kaboom")
    events.pick(event=event, by=player, key=alice.key,
                picks={"competitors": "velvet_vendetta", "decks": deck})
    return {"event": event, "alice": alice.key, "bruno": bruno.key, "deck": deck,
            "carl": carl, "stan": stan}


def test_an_entrant_brings_its_own_deck_to_its_seat(decked: dict[str, Any],
                                                    organizer: Any) -> None:
    event = decked["event"]
    events.start_event(event=event, by=organizer)
    [link] = [link for link in EventMatch.objects.filter(event=event)
              if decked["alice"] in link.entrants]
    match = Match.objects.get(pk=link.match_id)
    seat = link.seats_of(decked["alice"])[0]
    assert match.options["decks"][seat] == decked["deck"]
    assert match.options["decks"][1 - seat] is None
    assert match.options["competitors"][seat] == "velvet_vendetta"


def test_a_deck_reaches_only_whom_the_event_lets_read_it(
        decked: dict[str, Any], organizer: Any, player: Any, player2: Any, outsider: Any,
        client_for: Any) -> None:
    """The player, and the organizers who hold no entry; nobody else until it is over: not
    in the entrants, not in the record stream, not on the Event's page."""
    event, alice, deck = decked["event"], decked["alice"], decked["deck"]
    probe = deck[0]

    def seen_by(user: Any) -> list[str]:
        client = client_for(user)
        where = []
        entrants = client.get(f"/api/events/{event.pk}/").json()["entrants"]
        if probe in str(entrants):
            where.append("entrants")
        if probe in client.get(f"/api/events/{event.pk}/records/").content.decode():
            where.append("records")
        browser = Client()
        browser.force_login(user)
        if probe in browser.get(reverse("league:event", args=[event.pk])).content.decode():
            where.append("page")
        return where

    assert seen_by(player) == ["entrants", "records", "page"]  # hers: in the form too
    assert seen_by(organizer) == ["entrants", "records", "page"]
    assert seen_by(player2) == seen_by(outsider) == []
    shown = client_for(outsider).get(f"/api/events/{event.pk}/").json()["entrants"]
    assert [e["picks"] for e in shown if e["key"] == alice] == [
        {"competitors": "velvet_vendetta", "decks": "hidden"}]
    assert probe not in Client().get(f"/api/events/{event.pk}/records/").content.decode()
    assert seen_by(decked["carl"]) == []  # an organizer who plays reads no rival's deck
    events.pick(event=event, by=player, key=alice, picks={})  # the deck taken back...
    assert seen_by(player2) == []  # ...its record still hides it
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    assert seen_by(outsider) == ["records"]  # (the deck was taken back: only its record)


def test_the_admin_shows_a_deck_to_superusers_and_organizers_who_do_not_play(
        decked: dict[str, Any], organizer: Any, django_user_model: Any) -> None:
    from django.contrib.auth.models import Permission

    event, probe = decked["event"], decked["deck"][0]
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    organizer.user_permissions.add(*Permission.objects.filter(codename__in=[
        "view_entrant", "view_eventrecord", "view_event"]))
    entrant = Entrant.objects.get(event=event, key=decked["alice"])
    record = event.records.get(kind="entrant_picked")
    pages = ["/admin/league/entrant/", f"/admin/league/entrant/{entrant.pk}/change/",
             f"/admin/league/eventrecord/{record.pk}/change/",
             f"/admin/league/event/{event.pk}/change/"]

    def shown(user: Any) -> list[bool]:
        browser = Client()
        browser.force_login(user)
        return [probe in browser.get(page).content.decode() for page in pages]

    assert shown(root) == [True, True, True, True]
    assert shown(organizer) == [False, True, True, True]  # a list spans Events: superusers
    assert shown(decked["stan"]) == [False, False, False, False]  # staff who plays


def test_a_deck_must_fit_the_competitor_it_is_brought_with(
        decked: dict[str, Any], player: Any) -> None:
    event, alice = decked["event"], decked["alice"]
    seq = event.records.count()
    exc = refused(lambda: events.pick(event=event, by=player, key=alice, picks={
        "decks": decked["deck"]}))  # Velvet's Finishes, in a seat that plays another
    assert "(with these picks in seat" in exc.detail
    browser = Client()
    browser.force_login(player)
    answer = browser.post(reverse("league:event_pick", args=[event.pk]), {
        "key": alice, "pick_competitors": "velvet_vendetta", "pick_decks": "[not json"},
        follow=True)
    assert "(bad_picks)" in answer.content.decode()
    assert event.records.count() == seq
    assert Entrant.objects.get(event=event, key=alice).picks["decks"] == decked["deck"]


def test_no_admin_filter_reaches_a_deck(decked: dict[str, Any], organizer: Any) -> None:
    """Row counts under a typed filter would tell a staff entrant a rival's deck, card by
    card."""
    browser = Client()
    browser.force_login(decked["stan"])
    card = decked["deck"][0]
    for probe in (f"/admin/league/entrant/?picks__decks__0={card}",
                  f"/admin/league/eventrecord/?payload__picks__decks__0={card}"):
        assert browser.get(probe).status_code == 400, probe


def test_an_organizer_who_plays_enters_others_without_picks(
        organizer: Any, player: Any, player2: Any) -> None:
    event = supershow_event(organizer)
    events.add_entrant(event=event, by=organizer, player=organizer.username)
    exc = refused(lambda: events.add_entrant(event=event, by=organizer,
                                             player=player.username, picks=VELVET))
    assert (exc.code, exc.status) == ("not_your_entrant", 403)
    assert events.add_entrant(event=event, by=organizer, player=player2.username).picks == {}
    browser = Client()
    browser.force_login(organizer)
    panel = browser.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert "pick_competitors" not in panel


def test_a_refusal_quotes_a_long_pick_short(organizer: Any, player: Any,
                                            player_api: APIClient) -> None:
    event = supershow_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    answer = player_api.post(f"/api/events/{event.pk}/entrants/{alice.key}/picks/", {
        "picks": {"competitors": ["x" * 50] * 2000, "y" * 5000: 1}}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_picks"
    assert len(answer.content) < 1000


def test_the_event_list_asks_as_often_for_any_number_of_events_with_decks(
        organizer: Any, player: Any, client_for: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    deck = constructed("velvet_vendetta", "kid_kaboom")

    def add(n: int) -> None:
        for _ in range(n):
            event = supershow_event(organizer)
            events.add_entrant(event=event, by=organizer, player=player.username, picks={
                "competitors": "velvet_vendetta", "decks": deck})

    client = client_for(player)
    counts = []
    for n in (2, 4):
        add(n)
        client.get("/api/events/")
        with CaptureQueriesContext(connection) as done:
            assert client.get("/api/events/").status_code == 200
        counts.append(len(done))
    assert counts[0] == counts[1]


def test_who_may_read_the_entrants_decks_does_not_enter_against_them(
        decked: dict[str, Any], organizer: Any, django_user_model: Any) -> None:
    event = decked["event"]
    exc = refused(lambda: events.add_entrant(event=event, by=organizer,
                                             player=organizer.username))
    assert (exc.code, exc.status) == ("reads_decks", 409)
    newcomer = django_user_model.objects.create_user(username="newcomer")
    assert events.add_entrant(event=event, by=organizer, player=newcomer.username).key
    # Entered before any deck came, an organizer plays and reads none.
    early = supershow_event(organizer)
    events.add_entrant(event=early, by=organizer, player=organizer.username)
    assert events.shown_picks("supershow", {"decks": ["x"]}, False) == {"decks": "hidden"}


def test_who_dealt_the_events_own_decks_does_not_enter_against_them(
        organizer: Any, player: Any, django_user_model: Any) -> None:
    """The organizer named the decks seat by seat in the Event's options: they read them,
    and so does staff; a player does not and enters."""
    seats = ["ox_valdane", "mira_quickstep"]
    event = supershow_event(organizer, competitors=seats,
                            decks=[constructed(seats[0], seats[1]), None])
    exc = refused(lambda: events.add_entrant(event=event, by=organizer,
                                             player=organizer.username))
    assert (exc.code, exc.status) == ("reads_decks", 409)
    staff = django_user_model.objects.create_user(username="stan", is_staff=True)
    assert refused(lambda: events.add_entrant(event=event, by=organizer,
                                              player=staff.username)).code == "reads_decks"
    assert events.add_entrant(event=event, by=organizer, player=player.username).key
    plain = supershow_event(organizer, competitors=seats)  # no decks: the organizer plays
    assert events.add_entrant(event=plain, by=organizer, player=organizer.username).key


def test_picks_a_settings_change_no_longer_takes_are_dropped_for_all_to_see(
        organizer: Any, player: Any, player2: Any) -> None:
    """A Birdcage drafts its Competitors: the entrants' own picks go, by records, and the
    organizer is told whose."""
    event = supershow_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username, picks=VELVET)
    bruno = events.add_entrant(event=event, by=organizer, player=player2.username)
    events.add_entrant(event=event, by=organizer, bot="random")
    dropped = events.change_settings(
        event=event, by=organizer, format="heats",
        format_options={"pod_size": 6, "min_pod_size": 3, "advance": 1},
        match_options={"match_type": "birdcage"})
    assert dropped == [alice.key]
    assert {e.key: e.picks for e in Entrant.objects.filter(event=event)} == {
        alice.key: {}, bruno.key: {}, "e3": {}}
    last = event.records.order_by("-seq").first()
    assert last is not None and (last.kind, last.payload) == (
        "entrant_picked", {"key": alice.key, "picks": {}, "dropped": True})
    assert events.change_settings(event=event, by=organizer, turn_deadline_minutes=5) == []


def test_an_organizer_who_plays_changes_no_settings_of_an_event_with_hidden_decks(
        organizer: Any, player: Any, player2: Any, player_api: APIClient) -> None:
    """They could deal decks they know, or learn of a rival's from what a change drops."""
    seats = ["ox_valdane", "mira_quickstep"]
    decks = [constructed(seats[0], seats[1]), None]
    event = supershow_event(organizer)
    events.add_entrant(event=event, by=organizer, player=player2.username)
    event.organizers.add(player)
    events.add_entrant(event=event, by=player, player=player.username)
    exc = refused(lambda: events.change_settings(
        event=event, by=player, match_options={"competitors": seats, "decks": decks}))
    assert (exc.code, exc.status) == ("hidden_options", 403)
    assert event.records.filter(kind="settings_changed").count() == 0
    events.change_settings(event=event, by=organizer,
                           match_options={"competitors": seats, "decks": decks})
    exc = refused(lambda: events.change_settings(event=event, by=player, format="swiss"))
    assert (exc.code, exc.status) == ("hidden_options", 403)
    # The record keeps them from the player as the Event's own options do.
    shown = player_api.get(f"/api/events/{event.pk}/records/").json()["results"][-1]
    assert shown["kind"] == "settings_changed"
    assert shown["payload"]["match_options"]["decks"] == ["hidden", "hidden"]
    assert shown["payload"]["was"]["match_options"]["decks"] is None
    staff = APIClient()
    staff.force_authenticate(organizer)
    read = staff.get(f"/api/events/{event.pk}/records/").json()["results"][-1]
    assert read["payload"]["match_options"]["decks"] == decks
    browser = Client()
    browser.force_login(player)
    page = browser.get(reverse("league:event", args=[event.pk])).content.decode()
    shown = page[page.index('id="event-settings"'):].split("</p>")[0]
    assert "decks: [&quot;hidden&quot;, &quot;hidden&quot;]" in shown
    assert decks[0][0] not in page


def test_the_settings_card_says_in_words_why_an_organizer_who_plays_changes_nothing(
        organizer: Any, player: Any, player2: Any) -> None:
    """The card's reason is a sentence; the refusal's code is for the API's answers."""
    seats = ["ox_valdane", "mira_quickstep"]
    event = supershow_event(organizer)
    events.add_entrant(event=event, by=organizer, player=player2.username)
    event.organizers.add(player)
    events.add_entrant(event=event, by=player, player=player.username)
    events.change_settings(event=event, by=organizer, match_options={
        "competitors": seats, "decks": [constructed(seats[0], seats[1]), None]})
    browser = Client()
    browser.force_login(player)
    page = browser.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    card = page[page.index("These settings cannot be changed by you"):].split("</p>")[0]
    assert card.endswith("an organizer who holds none changes its settings.")
    assert "hidden_options" not in page


def test_an_organizer_who_plays_changes_no_settings_while_a_rival_brings_a_deck(
        decked: dict[str, Any], organizer: Any) -> None:
    event, carl = decked["event"], decked["carl"]
    exc = refused(lambda: events.change_settings(event=event, by=carl,
                                                 turn_deadline_minutes=5))
    assert (exc.code, exc.status) == ("hidden_options", 403)
    assert events.change_settings(event=event, by=organizer, turn_deadline_minutes=5) == []
    assert Entrant.objects.get(event=event, key=decked["alice"]).picks["decks"] == \
        decked["deck"]


def test_the_organizer_page_says_whose_picks_a_settings_save_dropped(
        organizer: Any, player: Any) -> None:
    event = supershow_event(organizer)
    events.add_entrant(event=event, by=organizer, player=player.username, picks=VELVET)
    events.add_entrant(event=event, by=organizer, bot="random", name="Bot 1")
    browser = Client()
    browser.force_login(organizer)
    answer = browser.post(reverse("league:event_settings", args=[event.pk]), {
        "seq": Event.objects.get(pk=event.pk).seq, "format": "heats",
        "format_options": '{"pod_size": 6, "min_pod_size": 3, "advance": 1}',
        "match_options": '{"match_type": "birdcage"}', "turn_deadline_minutes": "",
        "deadline_policy": "bot", "deadline_bot": "heuristic"}, HTTP_HX_REQUEST="true")
    said = answer.content.decode()
    assert 'role="alert"' not in said
    assert (f"{player.username} no longer brings what they picked, which these settings do "
            "not take: they may pick again.") in said


def test_an_entry_the_event_cannot_take_is_refused_for_that_before_its_picks(
        organizer: Any, player: Any) -> None:
    """Bad picks were refused first, so a player entering an Event that had started, or
    entering again, heard about the deck and not that the entry could not be."""
    event = supershow_event(organizer)
    events.set_open_entry(event=event, by=organizer, open_entry=True)
    bad = {"competitors": "nobody_at_all"}
    picked = refused(lambda: events.enter_event(event=event, by=player, picks=bad)).code
    assert picked not in ("entrant_twice", "event_started")  # the picks' own refusal
    events.enter_event(event=event, by=player, picks=VELVET)
    assert refused(lambda: events.enter_event(event=event, by=player, picks=bad)).code == \
        "entrant_twice"
    events.add_entrant(event=event, by=organizer, bot="random")
    events.start_event(event=event, by=organizer)
    assert refused(lambda: events.enter_event(event=event, by=player, picks=bad)).code == \
        "event_started"


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_a_pick_replays_none_of_the_stream_whatever_the_field(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """A pick starts from the replay kept by the Event's last record and folds its own in,
    however many entrants the Event holds."""
    real = events.replay
    counts = []
    for people in (2, 8):
        event = supershow_event(organizer)
        keys = [events.add_entrant(event=event, by=organizer, player=django_user_model.objects
                                   .create_user(username=f"s{people}x{i}").username).key
                for i in range(people)]
        replays: list[int] = []
        monkeypatch.setattr(events, "replay",
                            lambda *a, r=replays, **k: r.append(1) or real(*a, **k))
        events.pick(event=Event.objects.get(pk=event.pk), by=organizer, key=keys[-1],
                    picks=VELVET)
        monkeypatch.setattr(events, "replay", real)
        counts.append(len(replays))
        assert Entrant.objects.get(event=event, key=keys[-1]).picks == VELVET
    assert counts == [0, 0]
