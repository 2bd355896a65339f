"""Open entry: signed-in players enter an Event themselves, and leave it, while it is a
draft; the records are those an organizer's entries and withdrawals write."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from league import events
from league.events import LeagueError
from league.models import Entrant, Event, EventMatch, EventRecord, Standing
from matches.models import Match

pytestmark = pytest.mark.django_db

GAME = "super_showdown"


def open_event(by: Any, fmt: str = "round_robin", game: str = GAME, **kwargs: Any) -> Event:
    return events.create_event(name="League night", game=game, format=fmt, by=by,
                               open_entry=True, **kwargs)


def constructed(owner: str, donor: str) -> list[str]:
    """A legal deck for `owner`: the donor's 27 shared cards and the owner's Finishes."""
    from engine.games.supershow.cards import CATALOG

    own, lent = CATALOG.competitors[owner], CATALOG.competitors[donor]
    return [card.key for card in lent.deck[:27]] + [card.key for card in own.deck[27:]]


def refused(call: Any) -> LeagueError:
    with pytest.raises(LeagueError) as caught:
        call()
    return caught.value


def kinds_and_actors(event: Event) -> list[tuple[str, str | None]]:
    return [(r.kind, r.actor.username if r.actor else None)
            for r in EventRecord.objects.filter(event=event).order_by("seq")]


def refused_and_unwritten(event: Event, call: Any) -> tuple[str, int]:
    """The refusal's code and status, once it is checked that nothing was written."""
    before = EventRecord.objects.filter(event=event).count()
    exc = refused(call)
    assert EventRecord.objects.filter(event=event).count() == before
    return exc.code, exc.status


# -- the setting ------------------------------------------------------------------------

def test_an_event_is_made_with_open_entry_or_without(organizer: Any) -> None:
    assert open_event(organizer).open_entry
    closed = events.create_event(name="Cup", game=GAME, format="swiss", by=organizer)
    assert not closed.open_entry
    assert not EventRecord.objects.exists()


def test_an_organizer_opens_and_closes_entry_each_a_record_in_the_stream(
        organizer: Any) -> None:
    event = events.create_event(name="Cup", game=GAME, format="swiss", by=organizer)
    events.set_open_entry(event=event, by=organizer, open_entry=True)
    assert Event.objects.get(pk=event.pk).open_entry
    events.set_open_entry(event=event, by=organizer, open_entry=True)  # already open
    events.set_open_entry(event=event, by=organizer, open_entry=False)
    assert not Event.objects.get(pk=event.pk).open_entry
    assert kinds_and_actors(event) == [("entry_opened", "organizer"),
                                       ("entry_closed", "organizer")]


def test_players_entering_meanwhile_do_not_hold_off_closing_entry(
        organizer: Any, player: Any, player2: Any) -> None:
    """Closing entry decides nothing the page showed of the entrants: a player entering
    and leaving over and over would otherwise keep the organizer from closing it."""
    event = open_event(organizer)
    read = event.seq
    events.enter_event(event=event, by=player)
    events.leave_event(event=event, by=player)
    events.enter_event(event=event, by=player2)
    events.set_open_entry(event=event, by=organizer, open_entry=False, expected_seq=read)
    assert not Event.objects.get(pk=event.pk).open_entry
    assert refused(lambda: events.enter_event(event=event, by=player)).code == "entry_closed"
    # A switch since the page was read still makes it stale.
    assert refused_and_unwritten(event, lambda: events.set_open_entry(
        event=event, by=organizer, open_entry=True, expected_seq=read)) == ("stale_seq", 409)


def test_only_an_organizer_switches_open_entry(organizer: Any, player: Any) -> None:
    event = open_event(organizer)
    assert refused_and_unwritten(event, lambda: events.set_open_entry(
        event=event, by=player, open_entry=False)) == ("not_organizer", 403)
    assert Event.objects.get(pk=event.pk).open_entry


def test_open_entry_is_switched_only_while_the_event_is_a_draft(organizer: Any) -> None:
    event = open_event(organizer)
    for bot in ("random", "heuristic"):
        events.add_entrant(event=event, by=organizer, bot=bot)
    events.start_event(event=event, by=organizer)
    assert refused_and_unwritten(event, lambda: events.set_open_entry(
        event=event, by=organizer, open_entry=False)) == ("event_started", 409)


def test_a_superstar_showdown_event_takes_no_open_entry(organizer: Any) -> None:
    """Its sides, Red and Blue, are its organizers' to enter: a player signing up alone
    would take one."""
    with pytest.raises(LeagueError) as made:
        events.create_showdown_event(by=organizer, preset="full_card", open_entry=True)
    assert (made.value.code, made.value.status) == ("teams_only", 409)
    event = events.create_showdown_event(by=organizer, preset="full_card")
    assert refused_and_unwritten(event, lambda: events.set_open_entry(
        event=event, by=organizer, open_entry=True)) == ("teams_only", 409)
    assert not events.takes_players(event) and events.takes_players(open_event(organizer))


# -- entering ---------------------------------------------------------------------------

def test_a_player_enters_themselves_as_an_organizer_would_enter_them(
        organizer: Any, player: Any, player2: Any) -> None:
    mine = open_event(organizer)
    theirs = open_event(organizer)
    entrant = events.enter_event(event=mine, by=player)
    events.add_entrant(event=theirs, by=organizer, player=player.username)
    assert (entrant.key, entrant.name, entrant.player.user) == ("e1", "alice", player)
    payloads = [EventRecord.objects.get(event=e).payload for e in (mine, theirs)]
    assert payloads[0] == payloads[1]
    assert kinds_and_actors(mine) == [("entrant_added", "alice")]


def test_entry_closed_is_refused(organizer: Any, player: Any) -> None:
    event = events.create_event(name="Cup", game=GAME, format="swiss", by=organizer)
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=player)) == ("entry_closed", 409)
    events.set_open_entry(event=event, by=organizer, open_entry=True)
    assert events.enter_event(event=event, by=player).key == "e1"


def test_a_started_or_finished_event_takes_no_entry_from_a_player(
        organizer: Any, player: Any) -> None:
    event = open_event(organizer)
    for bot in ("random", "heuristic"):
        events.add_entrant(event=event, by=organizer, bot=bot)
    events.start_event(event=event, by=organizer)
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=player)) == ("event_started", 409)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=player)) == ("event_finished", 409)


def test_a_player_entered_already_is_refused(organizer: Any, player: Any) -> None:
    event = open_event(organizer)
    events.add_entrant(event=event, by=organizer, player=player.username)
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=player)) == ("entrant_twice", 409)


def test_a_player_in_an_entered_team_does_not_enter_alone(
        organizer: Any, player: Any, player2: Any) -> None:
    event = open_event(organizer)
    events.create_team(name="Reds", members=[player.username, player2.username],
                       by=organizer)
    events.add_entrant(event=event, by=organizer, team="Reds")
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=player2)) == ("entrant_overlaps", 409)


def test_a_showdown_series_takes_no_open_entry(organizer: Any) -> None:
    """A series is an Event of Matches (without its `event` option it is refused) whose
    two sides its organizers enter: none is opened to players."""
    for options, code in (({}, "series_needs_event"), ({"event": "full_card"}, "teams_only")):
        with pytest.raises(events.LeagueError) as refused:
            open_event(organizer, fmt="showdown_series", game="superstar_showdown",
                       match_options=options)
        assert refused.value.code == code
    assert not Event.objects.exists()


def test_who_may_read_the_events_decks_does_not_enter_against_them(
        organizer: Any, player: Any, django_user_model: Any) -> None:
    seats = ["ox_valdane", "mira_quickstep"]
    event = open_event(organizer, game="supershow", match_options={
        "competitors": seats, "decks": [constructed(seats[0], seats[1]), None]})
    stan = django_user_model.objects.create_user(username="stan", is_staff=True)
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=stan)) == ("reads_decks", 409)
    assert events.enter_event(event=event, by=player).key == "e1"


def test_a_team_event_is_refused_to_a_player_alone(organizer: Any, player: Any) -> None:
    """A player may be a side, but one its organizers enter: the refusal says so, not
    that the sides are teams."""
    event = events.create_showdown_event(by=organizer, preset="full_card")
    Event.objects.filter(pk=event.pk).update(open_entry=True)  # as the admin could
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=player)) == ("teams_only", 409)
    assert refused(lambda: events.enter_event(event=event, by=player)).detail == (
        "This Event's two sides, Red and Blue, are entered by its organizers: players do "
        "not enter it themselves.")


def test_somebody_not_signed_in_is_refused(organizer: Any) -> None:
    event = open_event(organizer)
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=AnonymousUser())) == ("not_authenticated", 401)


def test_a_player_brings_their_picks_where_the_event_takes_them(
        organizer: Any, player: Any, player2: Any) -> None:
    event = open_event(organizer, game="supershow")
    entrant = events.enter_event(event=event, by=player,
                                 picks={"competitors": "velvet_vendetta"})
    assert entrant.picks == {"competitors": "velvet_vendetta"}
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=player2, picks={"competitors": "nobody"})) == ("bad_picks", 400)
    plain = open_event(organizer)
    assert refused_and_unwritten(plain, lambda: events.enter_event(
        event=plain, by=player2, picks={"competitors": "velvet_vendetta"})) == (
        "no_picks", 400)


def test_a_stale_page_is_refused(organizer: Any, player: Any, player2: Any) -> None:
    event = open_event(organizer)
    events.enter_event(event=event, by=player2)
    assert refused_and_unwritten(event, lambda: events.enter_event(
        event=event, by=player, expected_seq=0)) == ("stale_seq", 409)


# -- leaving ----------------------------------------------------------------------------

def test_a_player_leaves_with_the_withdrawal_an_organizer_writes(
        organizer: Any, player: Any) -> None:
    event = open_event(organizer)
    events.enter_event(event=event, by=player)
    events.leave_event(event=event, by=player)
    assert Entrant.objects.get(event=event, key="e1").withdrawn
    assert kinds_and_actors(event) == [("entrant_added", "alice"),
                                       ("entrant_withdrawn", "alice")]
    assert EventRecord.objects.get(event=event, seq=2).payload == {"key": "e1"}
    assert events.enter_event(event=event, by=player).key == "e2"  # and may come back


def test_a_player_leaves_only_their_own_entry(organizer: Any, player: Any,
                                             player2: Any) -> None:
    event = open_event(organizer)
    events.enter_event(event=event, by=player)
    assert refused_and_unwritten(event, lambda: events.leave_event(
        event=event, by=player2)) == ("not_entered", 404)
    assert refused_and_unwritten(event, lambda: events.withdraw_entrant(
        event=event, by=player2, key="e1")) == ("not_organizer", 403)
    assert not Entrant.objects.get(event=event, key="e1").withdrawn


def test_a_team_entry_is_not_left_by_one_of_its_members(organizer: Any,
                                                        player: Any) -> None:
    event = open_event(organizer)
    events.create_team(name="Reds", members=[player.username], by=organizer)
    events.add_entrant(event=event, by=organizer, team="Reds")
    assert refused_and_unwritten(event, lambda: events.leave_event(
        event=event, by=player)) == ("not_entered", 404)


def test_a_player_an_organizer_entered_leaves_before_the_start_whatever_the_entry(
        organizer: Any, player: Any) -> None:
    event = events.create_event(name="Cup", game=GAME, format="swiss", by=organizer)
    events.add_entrant(event=event, by=organizer, player=player.username)
    events.leave_event(event=event, by=player)
    assert Entrant.objects.get(event=event, key="e1").withdrawn


def test_a_started_event_is_not_left(organizer: Any, player: Any) -> None:
    event = open_event(organizer)
    events.enter_event(event=event, by=player)
    events.add_entrant(event=event, by=organizer, bot="random")
    events.start_event(event=event, by=organizer)
    assert refused_and_unwritten(event, lambda: events.leave_event(
        event=event, by=player)) == ("event_started", 409)


# -- replaying ---------------------------------------------------------------------------

def played(event: Event, by: Any) -> dict[str, Any]:
    """Start the Event, the second entrant forfeits the first match: what it became."""
    events.start_event(event=event, by=by)
    link = EventMatch.objects.get(event=event)
    events.forfeit(event=event, by=by, pairing=link.pairing, entrant=link.entrants[1])
    assert events.record_match_result(match=Match.objects.get(pk=link.match_id))
    event.refresh_from_db()
    return {
        "status": event.status,
        "entrants": list(Entrant.objects.filter(event=event).values_list(
            "key", "name", "player__user__username", "seed", "withdrawn")),
        "pairings": [(link.pairing, link.entrants, [s.user.username for s in Match.objects
                      .get(pk=link.match_id).seats.order_by("index")])
                     for link in EventMatch.objects.filter(event=event)],
        "standings": list(Standing.objects.filter(event=event).values_list(
            "rank", "entrant__key", "points", "wins", "losses")),
        "replayed": events.replay(event).entrants,
    }


def test_an_event_players_entered_themselves_plays_as_one_an_organizer_entered(
        organizer: Any, player: Any, player2: Any, outsider: Any) -> None:
    by_players = open_event(organizer, fmt="single_elimination")
    for user in (outsider, player, player2):
        events.enter_event(event=by_players, by=user)
    events.leave_event(event=by_players, by=outsider)
    by_organizer = open_event(organizer, fmt="single_elimination")
    for user in (outsider, player, player2):
        events.add_entrant(event=by_organizer, by=organizer, player=user.username)
    events.withdraw_entrant(event=by_organizer, by=organizer, key="e1")
    first, second = played(by_players, organizer), played(by_organizer, organizer)
    assert first == second
    assert first["standings"][0][:2] == (1, "e2") and first["status"] == "finished"


# -- finding the Events open for entry -----------------------------------------------------

def test_the_lobby_lists_the_events_open_for_entry_marking_those_entered(
        organizer: Any, player: Any, client: Any) -> None:
    entered, other = open_event(organizer), open_event(organizer)
    other.name = "Friday cup"
    other.save(update_fields=["name"])
    events.create_event(name="Invitational", game=GAME, format="swiss", by=organizer)
    started = open_event(organizer)
    started.name = "Already running"
    started.save(update_fields=["name"])
    for bot in ("random", "heuristic"):
        events.add_entrant(event=started, by=organizer, bot=bot)
    events.start_event(event=started, by=organizer)
    events.enter_event(event=entered, by=player)
    client.force_login(player)
    page = client.get("/").content.decode()
    section = page.split('id="open-events"')[1].split("</section>")[0]
    assert f'href="/league/events/{entered.pk}/">League night</a>' in section
    assert f'href="/league/events/{other.pk}/">Friday cup</a>' in section
    assert "Invitational" not in section and "Already running" not in section
    rows = section.split("<li")  # the newest first
    assert ["Friday cup" in row for row in rows[1:]] == [True, False]
    assert ["entered" in row for row in rows[1:]] == [False, True]


def test_the_lobby_marks_an_event_entered_by_the_players_team(
        organizer: Any, player: Any, player2: Any, client: Any) -> None:
    event = open_event(organizer)
    events.create_team(name="Reds", members=[player.username, player2.username],
                       by=organizer)
    events.add_entrant(event=event, by=organizer, team="Reds")
    client.force_login(player)
    page = client.get("/").content.decode()
    section = page.split('id="open-events"')[1].split("</section>")[0]
    assert "League night" in section and "entered" in section


@pytest.mark.parametrize(("query", "names"), [
    ("", {"League night", "Invitational"}), ("?open_entry=true", {"League night"}),
    ("?open_entry=false", {"Invitational"})])
def test_the_api_lists_events_by_whether_entry_is_open(
        organizer: Any, player_api: Any, query: str, names: set[str]) -> None:
    open_event(organizer)
    events.create_event(name="Invitational", game=GAME, format="swiss", by=organizer)
    listed = player_api.get(f"/api/events/{query}").json()["results"]
    assert {event["name"] for event in listed} == names


def test_an_entrants_picks_do_not_hold_off_the_organizers_forms(organizer: Any,
                                                                 player: Any) -> None:
    """An entrant changing their Competitor over and over would otherwise keep every
    organizer action refused as stale."""
    event = open_event(organizer, game="supershow")
    events.enter_event(event=event, by=player)
    for bot in ("random", "heuristic"):
        events.add_entrant(event=event, by=organizer, bot=bot)
    event.refresh_from_db()
    read_at = event.seq
    key = events.own_entry(events.replay(event), player)
    competitors = list(events.offered_picks(event)["competitors"])[:2]
    for competitor in competitors:
        events.pick(event=event, by=player, key=key, picks={"competitors": competitor})
    events.start_event(event=event, by=organizer, expected_seq=read_at)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_a_player_who_left_three_times_is_entered_by_the_organizers_only(
        organizer: Any, player: Any) -> None:
    """Entering and leaving over and over would grow the record stream every reader of
    the Event replays."""
    event = open_event(organizer)
    for _ in range(events.REENTRIES):
        events.enter_event(event=event, by=player)
        events.leave_event(event=event, by=player)
    assert refused_and_unwritten(event, lambda: events.enter_event(event=event, by=player)) \
        == ("entry_limit", 409)
    events.add_entrant(event=event, by=organizer, player="alice")
    assert events.own_entry(events.replay(event), player) is not None
