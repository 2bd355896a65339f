"""Pages, API lists and admin screens ask the database the same number of times whatever
the number of rows they show: a row (or a seat) costs no query of its own.

Each case builds a few rows, reads the page, adds more of the same, and reads it again.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league import events, projections
from league.models import EventMatch
from league.services import player_for
from matches import services
from matches.models import Match, Seat

# (the counts include a replay's reads where the cache has no committed state)
pytestmark = [pytest.mark.django_db, pytest.mark.uncached_in_transaction]

TOY = "toy_showdown"
_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _toy(toy_game: Any) -> Any:
    return toy_game


def queries(read: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as done:
        answer = read()
    assert answer.status_code == 200, getattr(answer, "content", b"")[:300]
    return len(done)


def same_for_more_rows(add: Callable[[int], None], read: Callable[[], Any]) -> None:
    add(2)
    read()  # sessions, tokens and caches warmed
    few = queries(read)
    add(4)
    assert queries(read) == few


def api(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
    return client


def browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def someone(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username=f"rival{next(_names)}")


# -- matches: every seat names its player, its invitee, whom its bot stands in for -------

@pytest.fixture
def seats_of_every_kind(organizer: Any, player: Any,
                        django_user_model: Any) -> Callable[[int], None]:
    """`add(n)`: n matches of alice's of each kind a seat can be: taken over by a bot from
    a player, held for an invited player, over with a constructed deck kept secret."""

    def add(n: int) -> None:
        for _ in range(n):
            rival = someone(django_user_model)
            pair = [{"player": player.username}, {"player": rival.username}]
            taken = services.create_match(game=TOY, options={}, seats=pair,
                                          created_by=organizer)
            services.hand_seat_to_bot(match=taken, seat=1, bot="random")
            services.create_match(game=TOY, options={}, seats=pair, created_by=player)
            decked = Match.objects.create(
                game="supershow", n_seats=2, status="finished", created_by=player,
                options={"decks": [None, list(range(1, 31))]},
                result={"placements": [1, 2], "winners": [0], "draw": False})
            Seat.objects.bulk_create([Seat(match=decked, index=0, user=player),
                                      Seat(match=decked, index=1, user=rival)])

    return add


@pytest.mark.parametrize("path", ["/api/matches/", "/api/matches/?player=alice",
                                  "/api/players/{me}/matches/"])
def test_the_match_lists_of_the_api(player: Any, seats_of_every_kind: Any, path: str) -> None:
    client = api(player)
    url = path.format(me=player_for(player).pk)
    same_for_more_rows(seats_of_every_kind, lambda: client.get(url))


@pytest.fixture
def event_bot_seats(organizer: Any, player: Any) -> Callable[[int], None]:
    """`add(n)`: n Events' matches of alice's against a bot entrant, each seat labelled by
    its entrant's name (`matches.models.named_as_shown`)."""

    def add(n: int) -> None:
        for _ in range(n):
            event = events.create_event(name=f"Night {next(_names)}", game="super_showdown",
                                        format="round_robin", by=organizer)
            events.add_entrant(event=event, by=organizer, player=player.username)
            events.add_entrant(event=event, by=organizer, bot="heuristic")
            events.start_event(event=event, by=organizer)

    return add


@pytest.mark.parametrize("path", ["/api/matches/", "/api/players/{me}/matches/"])
def test_the_match_lists_of_the_api_name_event_bots_at_no_cost_a_row(
        player: Any, event_bot_seats: Any, path: str) -> None:
    client = api(player)
    url = path.format(me=player_for(player).pk)
    same_for_more_rows(event_bot_seats, lambda: client.get(url))
    labels = {s["label"] for m in client.get(url).json()["results"] for s in m["seats"]}
    assert labels == {"alice", "heuristic bot"}


@pytest.mark.parametrize("path", ["/league/ratings/?game=super_showdown",
                                  "/league/ratings/?game=super_showdown&q=rival",
                                  "/api/ratings/?game=super_showdown", "/api/ratings/"])
def test_the_ratings_tables(player: Any, django_user_model: Any, path: str) -> None:
    """Each row its player's name and link, its place among the whole table's rows."""
    from league.models import Rating

    def add(n: int) -> None:
        for i in range(n):
            rival = player_for(someone(django_user_model))
            for game in ("super_showdown", "royal_rumble"):
                Rating.objects.create(player=rival, game=game, mu=25 + i, sigma=8,
                                      ordinal=1 + i, matches=1)

    Rating.objects.create(player=player_for(player), game="super_showdown", mu=25, sigma=8,
                          ordinal=1, matches=1)
    client = api(player) if path.startswith("/api/") else browser(player)
    same_for_more_rows(add, lambda: client.get(path))


@pytest.mark.parametrize("page", ["lobby", "lobby_live", "league:player"])
def test_the_lobby_and_the_players_page(player: Any, seats_of_every_kind: Any,
                                        page: str) -> None:
    from django.urls import reverse

    client = browser(player)
    url = reverse(page, args=[player_for(player).pk] if page == "league:player" else [])
    same_for_more_rows(seats_of_every_kind, lambda: client.get(url))


def test_the_play_page_and_its_poll_whatever_the_seats(
        organizer: Any, player: Any, django_user_model: Any) -> None:
    from django.urls import reverse

    client = browser(player)
    counts = []
    for n_seats in (3, 6):
        people = [player] + [someone(django_user_model) for _ in range(n_seats - 1)]
        match = services.create_match(game="ultimate_showdown", options={}, created_by=organizer,
                                      seats=[{"player": p.username} for p in people])
        for seat in range(1, n_seats):
            services.hand_seat_to_bot(match=match, seat=seat, bot="random")
        play, poll = reverse("match_play", args=[match.id]), reverse("match_state",
                                                                      args=[match.id])
        client.get(play)
        counts.append((queries(lambda play=play: client.get(play)),
                       queries(lambda poll=poll: client.get(poll, HTTP_HX_REQUEST="true"))))
    assert counts[0] == counts[1]


# -- Events --------------------------------------------------------------------------------

@pytest.fixture
def live_events(organizer: Any, player: Any) -> Callable[[int], None]:
    """`add(n)`: n Events of a season alice organizes, n more of no season, each with alice
    entered in some."""
    season = events.create_season(name="Autumn", game="super_showdown", by=organizer)
    season.organizers.add(player)

    def add(n: int) -> None:
        for index in range(n):
            for home in (season, None):
                event = events.create_event(name=f"Night {next(_names)}", by=organizer,
                                            game="super_showdown", format="round_robin",
                                            season=home)
                if index % 2:
                    events.add_entrant(event=event, by=organizer, player=player.username)

    return add


@pytest.mark.parametrize("who", ["player", "organizer"])
def test_the_event_list_of_the_api(request: pytest.FixtureRequest, live_events: Any,
                                   who: str) -> None:
    client = api(request.getfixturevalue(who))
    same_for_more_rows(live_events, lambda: client.get("/api/events/"))


# -- the admin -----------------------------------------------------------------------------

@pytest.fixture
def league_rows(organizer: Any, django_user_model: Any) -> Callable[[int], None]:
    """`add(n)`: n Events of a season, of two entrants each, their one match played to the
    end (forfeited), teams, matches people made, and the rows the projections make."""
    season = events.create_season(name="Autumn", game="super_showdown", by=organizer)

    def add(n: int) -> None:
        for _ in range(n):
            rival, other = someone(django_user_model), someone(django_user_model)
            events.create_team(name=f"Crew {next(_names)}", members=[other.username],
                               by=organizer)
            services.create_match(game=TOY, options={}, created_by=rival, seats=[
                {"player": rival.username}, {"bot": "random"}])
            event = events.create_event(name=f"Night {next(_names)}", game="super_showdown",
                                        format="round_robin", by=organizer, season=season)
            for user in (rival, other):
                events.add_entrant(event=event, by=organizer, player=user.username)
            events.start_event(event=event, by=organizer)
            link = EventMatch.objects.get(event=event)
            services.forfeit_seat(match=link.match, seat=1)
            events.record_match_result(match=Match.objects.get(pk=link.match_id))
        projections.rebuild_all()

    return add


@pytest.mark.parametrize("screen", ["matches/match", "league/event", "league/eventrecord",
                                    "league/entrant", "league/team", "league/player",
                                    "league/standing", "league/rating"])
def test_the_admin_change_lists(django_user_model: Any, league_rows: Any,
                                screen: str) -> None:
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client = browser(root)
    same_for_more_rows(league_rows, lambda: client.get(f"/admin/{screen}/"))


def test_the_admin_pages_of_a_match_and_an_event_whatever_their_seats_and_records(
        organizer: Any, django_user_model: Any) -> None:
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client = browser(root)
    counts = []
    for n_seats in (3, 6):
        people = [someone(django_user_model) for _ in range(n_seats)]
        match = services.create_match(game="ultimate_showdown", options={}, created_by=organizer,
                                      seats=[{"player": p.username} for p in people])
        services.hand_seat_to_bot(match=match, seat=0, bot="random")
        event = events.create_event(name=f"Night {n_seats}", game="super_showdown",
                                    format="round_robin", by=organizer)
        for person in people:
            events.add_entrant(event=event, by=organizer, player=person.username)
        pages = [f"/admin/matches/match/{match.pk}/change/",
                 f"/admin/league/event/{event.pk}/change/"]
        for page in pages:
            client.get(page)
        counts.append([queries(lambda page=page: client.get(page)) for page in pages])
    assert counts[0] == counts[1]


# -- polls: what a league night's phones ask every few seconds ------------------------------

def captured(read: Callable[[], Any], status: int) -> list[str]:
    """The SQL of one read, which must answer `status`."""
    with CaptureQueriesContext(connection) as done:
        answer = read()
    assert answer.status_code == status, getattr(answer, "content", b"")[:300]
    return [query["sql"] for query in done.captured_queries]


def an_event_of(people: int, organizer: Any, django_user_model: Any) -> Any:
    """A started Swiss Event of `people` players: people / 2 live matches."""
    event = events.create_event(name=f"Night {next(_names)}", game="super_showdown",
                                format="swiss", by=organizer)
    for _ in range(people):
        events.add_entrant(event=event, by=organizer,
                           player=someone(django_user_model).username)
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    return event


@pytest.mark.parametrize("page, version", [("league:event_live", "live_version"),
                                           ("league:event_results", "version")])
def test_an_event_poll_while_nothing_changed_reads_neither_records_nor_rows(
        organizer: Any, django_user_model: Any, page: str, version: str) -> None:
    from django.urls import reverse

    from league import views

    client = browser(organizer)
    asked = []
    for people in (4, 12):
        event = an_event_of(people, organizer, django_user_model)
        context = (views._live_context(event) if page == "league:event_live"
                   else views._results_context(event, organizer))
        url = reverse(page, args=[event.pk])
        client.get(url, {"v": context[version]}, HTTP_HX_REQUEST="true")
        asked.append(captured(lambda url=url, v=context[version]: client.get(
            url, {"v": v}, HTTP_HX_REQUEST="true"), 204))
    # the session, the user, the Event, and its matches' ids and statuses in one query
    assert len(asked[0]) == len(asked[1]) == 4, asked[1]
    assert not any("league_eventrecord" in sql or "league_standing" in sql
                   for sql in asked[1])


@pytest.mark.parametrize("page", ["league:event", "league:event_results",
                                  "league:event_live"])
def test_an_event_s_pages_replay_none_of_its_live_matches_a_forfeit_only_ends(
        organizer: Any, django_user_model: Any, page: str) -> None:
    """What a forfeit of each seat of a live match would do is asked of the match's stream
    only where its game may take a forfeit as an elimination (a Royal Rumble pod): in a
    Super Showdown Event it ends the match, and a page that lists the live matches (read
    by a worker that has not replayed them, or after they moved) reads no stream a match."""
    from django.urls import reverse

    client = browser(organizer)
    counts = []
    for people in (4, 12):
        event = an_event_of(people, organizer, django_user_model)
        url = reverse(page, args=[event.pk])
        client.get(url)
        services.clear_state_cache()
        counts.append(queries(lambda url=url: client.get(url)))
    assert counts[0] == counts[1]


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_the_bracket_api_replays_an_event_once_for_every_reader(
        organizer: Any, player: Any, django_user_model: Any) -> None:
    """The bracket, polled by a league night's phones, replays the Event up to its seq once
    (`events.replay_to_read`): asked again while nothing changed it reads no record, and
    a new record is read."""
    client = api(player)
    event = an_event_of(12, organizer, django_user_model)
    url = f"/api/events/{event.pk}/bracket/"
    first = client.get(url).json()
    again = captured(lambda: client.get(url), 200)
    assert not any("league_eventrecord" in sql for sql in again), again
    assert client.get(url).json() == first
    link = EventMatch.objects.filter(event=event).first()
    services.forfeit_seat(match=link.match, seat=1)
    events.record_match_result(match=Match.objects.get(pk=link.match_id))
    played = [p for p in client.get(url).json() if p["result"]]
    assert [p["pairing"] for p in played] == [link.pairing]


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_the_record_stream_api_reads_a_page_of_records_and_replays_nothing_again(
        organizer: Any, player: Any, django_user_model: Any) -> None:
    """Each page of an Event's records names its entrants from the replay kept by the
    Event's seq: a page asked again reads the page's records and no whole stream."""
    client = api(player)
    event = an_event_of(30, organizer, django_user_model)  # 46 records: two pages
    url = f"/api/events/{event.pk}/records/?page=2"
    first = client.get(url).json()
    again = captured(lambda: client.get(url), 200)
    # (the page's own records: LIMIT 25 OFFSET 25; the organizers named: by their kind)
    streams = [sql for sql in again if 'FROM "league_eventrecord"' in sql and "LIMIT" not in sql
               and "COUNT(" not in sql and "organizers_changed" not in sql]
    assert not streams, streams
    assert client.get(url).json() == first


@pytest.mark.django_db(transaction=True)  # the replay cache keeps committed states only
def test_a_state_poll_reads_the_stream_once_when_the_cache_holds_the_state(
        player: Any, player2: Any) -> None:
    from django.urls import reverse

    match = services.create_match(game="super_showdown", options={}, created_by=None, seats=[
        {"player": player.username}, {"player": player2.username}])
    due = services.match_state(match=match, user=None)["pending"]["seats"][0]
    client = browser([player, player2][due])  # (its move count is read too)
    client.get(reverse("match_play", args=[match.id]))  # the state now in the cache
    poll = reverse("match_state", args=[match.id])
    asked = captured(lambda: client.get(poll, HTTP_HX_REQUEST="true"), 200)
    # the log's events, and nothing more of the stream than its last seq
    assert len([sql for sql in asked if '"matches_matchevent"."payload"' in sql]) == 1
    assert len(asked) == 9, asked


def test_the_api_state_reads_no_seat_or_person_it_does_not_show(
        player: Any, player2: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=None, seats=[
        {"player": player.username}, {"player": player2.username}])
    client = api(player)
    url = f"/api/matches/{match.id}/state/"
    client.get(url)
    # the token and its user, the match, its seats (and none of their people), the stream
    # (last seq, events), and the Event it may belong to (its turn deadline)
    assert queries(lambda: client.get(url)) == 6


# -- the play state: a match's seats read once a request, whoever looks -------------------

def seat_reads(asked: list[str]) -> int:
    return sum('FROM "matches_seat"' in sql for sql in asked)


def a_timed_event_match(organizer: Any, people: list[Any]) -> Match:
    """The live match of a running Event of `people` with a turn deadline (so the state
    tells when it passes)."""
    event = events.create_event(name=f"Night {next(_names)}", game="super_showdown",
                                format="round_robin", by=organizer, turn_deadline_minutes=5)
    for person in people:
        events.add_entrant(event=event, by=organizer, player=person.username)
    events.start_event(event=event, by=organizer)
    return Match.objects.get(pk=EventMatch.objects.get(event=event).match_id)


def play_reads(viewer: Any, match: Match) -> dict[str, tuple[int, int]]:
    """What the play page, its poll (the match moved; it did not), its replay and the API's
    state and events ask as `viewer` watches `match`: the queries, and the reads of its
    seats."""
    from django.urls import reverse

    from matches import views

    page, rest = browser(viewer), api(viewer)
    play, poll, replay = (reverse(name, args=[match.id])
                          for name in ("match_play", "match_state", "match_replay"))
    shown = {"seq": match.seq, "status": match.status,
             "seats": views._seats_key(match.seats.order_by("index"))}
    state, stream = f"/api/matches/{match.id}/state/", f"/api/matches/{match.id}/events/"
    for url in (play, replay):
        page.get(url)  # the session, the replay cache and the viewer's log warmed
    rest.get(state)
    reads = {
        "play": captured(lambda: page.get(play), 200),
        "poll": captured(lambda: page.get(poll, HTTP_HX_REQUEST="true"), 200),
        "poll, unchanged": captured(lambda: page.get(poll, shown, HTTP_HX_REQUEST="true"), 204),
        "replay": captured(lambda: page.get(replay), 200),
        "api state": captured(lambda: rest.get(state), 200),
        "api events": captured(lambda: rest.get(stream), 200),
    }
    return {name: (len(asked), seat_reads(asked)) for name, asked in reads.items()}


@pytest.mark.django_db(transaction=True)  # the replay cache keeps committed states only
def test_a_seated_player_s_play_state_and_move_read_the_seats_once(
        organizer: Any, player: Any, player2: Any) -> None:
    from django.urls import reverse

    from engine.registry import get_rules

    match = a_timed_event_match(organizer, [player, player2])
    due = services.match_state(match=match, user=None)["pending"]["seats"][0]
    mover = match.seats.get(index=due).user
    assert api(mover).get(f"/api/matches/{match.id}/state/").json()["deadline"]["seats"] \
        == [due]
    # the session and user (or the token), the match, its seats, the stream's last seq,
    # its status, the log's events, the seat's move count, the Event's deadline
    assert play_reads(mover, match) == {
        "play": (9, 1), "poll": (9, 1), "poll, unchanged": (4, 1), "replay": (7, 1),
        "api state": (5, 1), "api events": (5, 1)}
    state = services.load_state(match)
    action = get_rules("super_showdown").legal_actions(state, due)[0]
    page, act = browser(mover), reverse("match_act", args=[match.id])
    form = {"action": json.dumps(action), "seat": due, "key": "k1",
            "moves": services.moves_of(match, due)}
    asked = captured(lambda: page.post(act, form, HTTP_HX_REQUEST="true"), 200)
    # the seat's holder before the lock, the seats under it (its holder, and the bots
    # among those awaited now), and the page's own read
    assert (len(asked), seat_reads(asked)) == (20, 3), asked


@pytest.mark.django_db(transaction=True)  # the replay cache keeps committed states only
def test_a_spectator_s_play_state_reads_the_seats_once(
        organizer: Any, player: Any, player2: Any, outsider: Any) -> None:
    match = a_timed_event_match(organizer, [player, player2])
    # no move count: a spectator has no form to send
    assert play_reads(outsider, match) == {
        "play": (8, 1), "poll": (8, 1), "poll, unchanged": (4, 1), "replay": (7, 1),
        "api state": (5, 1), "api events": (5, 1)}


@pytest.mark.django_db(transaction=True)  # the replay cache keeps committed states only
def test_a_finished_match_s_play_state_reads_the_seats_once(
        player: Any, player2: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player, seats=[
        {"player": player.username}, {"player": player2.username}])
    services.join_match(match=match, user=player2)
    services.forfeit_seat(match=match, seat=1)
    match.refresh_from_db()
    # no move count and no deadline, but its stored result read, and whether the player
    # sits in (or is invited to) a rematch of it
    assert play_reads(player, match) == {
        "play": (9, 1), "poll": (9, 1), "poll, unchanged": (4, 1), "replay": (7, 1),
        "api state": (5, 1), "api events": (5, 1)}


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records are committed
def test_an_event_is_replayed_once_for_all_who_watch_it_until_it_changes(
        organizer: Any, player: Any, django_user_model: Any) -> None:
    from django.urls import reverse

    event = an_event_of(4, organizer, django_user_model)
    url = reverse("league:event_results", args=[event.pk])
    watchers = [browser(player), browser(organizer)]

    def reads_records(watcher: Client) -> bool:
        asked = captured(lambda: watcher.get(url, HTTP_HX_REQUEST="true"), 200)
        return any("league_eventrecord" in sql for sql in asked)

    # The replay the start rewrote the projections from is kept: no watcher replays it.
    assert [reads_records(watcher) for watcher in watchers] == [False, False]
    events.clear_read_replays()
    assert [reads_records(watcher) for watcher in watchers] == [True, False]
    link = EventMatch.objects.filter(event=event).select_related("match").first()
    assert link is not None
    services.forfeit_seat(match=link.match, seat=1)  # its result is recorded at once
    assert [reads_records(watcher) for watcher in watchers] == [False, False]


@pytest.mark.django_db(transaction=True)  # a log is kept once what it read is committed
def test_a_state_poll_narrates_only_the_events_since_the_log_it_last_sent(
        player: Any, player2: Any) -> None:
    from django.urls import reverse

    from engine.registry import get_rules

    match = services.create_match(game="super_showdown", options={}, created_by=None, seats=[
        {"player": player.username}, {"player": player2.username}])
    people = {0: player, 1: player2}
    watchers = {seat: browser(person) for seat, person in people.items()}
    poll = reverse("match_state", args=[match.id])
    for watcher in watchers.values():
        watcher.get(poll, HTTP_HX_REQUEST="true")  # each seat's log is kept
    sent = Match.objects.get(pk=match.pk).seq
    state = services.load_state(match)
    due = get_rules("super_showdown").pending(state).seats[0]
    services.submit_action(match=match, seat=due, user=people[due],
                           action=get_rules("super_showdown").legal_actions(state, due)[0])

    def log(html: bytes) -> str:
        return html.decode().split('<section class="log">')[1].split("</section>")[0]

    kept = {}
    for seat, watcher in watchers.items():
        with CaptureQueriesContext(connection) as done:
            kept[seat] = log(watcher.get(poll, HTTP_HX_REQUEST="true").content)
        reads = [query["sql"] for query in done.captured_queries
                 if '"matches_matchevent"."payload"' in query["sql"]]
        assert len(reads) == 1 and f'"matches_matchevent"."seq" > {sent}' in reads[0], reads
    # and through the API, each seat's events as it may read them
    readers = {seat: api(person) for seat, person in people.items()}
    events_url = f"/api/matches/{match.id}/events/"
    read = {seat: reader.get(events_url).json() for seat, reader in readers.items()}
    assert read[0] != read[1]  # (each reads its own hand of the deal, not the other's)
    services.clear_state_cache()  # the same, narrated and hidden from the start per seat
    assert kept == {seat: log(watcher.get(poll, HTTP_HX_REQUEST="true").content)
                    for seat, watcher in watchers.items()}
    assert read == {seat: reader.get(events_url).json() for seat, reader in readers.items()}


# -- a player's data -----------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/api/auth/me/data/", "/account/data.json"])
def test_a_players_data_whatever_their_matches_entries_and_teams(
        organizer: Any, player: Any, seats_of_every_kind: Any, live_events: Any,
        django_user_model: Any, path: str) -> None:
    """Every match with its seats, outcome and Event (an Event's match too); every entry, alone or in a team,
    with its Event and team; every team."""
    from league.models import Rating, RatingHistory, Team

    def add(n: int) -> None:
        seats_of_every_kind(n)
        live_events(n)
        me = player_for(player)
        for _ in range(n):
            team = Team.objects.create(name=f"Owls {next(_names)}")
            team.members.set([me, player_for(someone(django_user_model))])
            event = events.create_event(name=f"Team night {next(_names)}", by=organizer,
                                        game="super_showdown", format="round_robin")
            events.add_entrant(event=event, by=organizer, team=team.name)
            played = events.create_event(name=f"Played {next(_names)}", by=organizer,
                                         game=TOY, format="round_robin",
                                         deadline_bot="random")
            for name in (player.username, someone(django_user_model).username):
                events.add_entrant(event=played, by=organizer, player=name)
            events.start_event(event=played, by=organizer)
            game = f"game{next(_names)}"
            Rating.objects.create(player=me, game=game, mu=25, sigma=8, ordinal=1, matches=1)
            match = Match.objects.filter(seats__user=player).first()
            RatingHistory.objects.create(player=me, game=game, match=match, mu=25, sigma=8,
                                         ordinal=1)

    client = api(player) if path.startswith("/api/") else browser(player)
    same_for_more_rows(add, lambda: client.get(path))


@pytest.mark.parametrize("page", ["lobby", "league:player"])
def test_rivals_who_closed_their_accounts_cost_no_query_each(
        player: Any, django_user_model: Any, page: str) -> None:
    """Each reads "Closed account", known from the user row its seat loads."""
    from django.urls import reverse

    from league.services import CLOSED_NAME, close_user

    def add(n: int) -> None:
        for _ in range(n):
            rival = someone(django_user_model)
            match = services.create_match(game=TOY, options={}, created_by=player, seats=[
                {"player": player.username}, {"player": rival.username}])
            services.join_match(match=match, user=rival)
            close_user(rival)  # the match resigned, and over

    client = browser(player)
    url = reverse(page, args=[player_for(player).pk] if page == "league:player" else [])
    same_for_more_rows(add, lambda: client.get(url))
    assert client.get(url).content.decode().count(CLOSED_NAME) >= 6


def test_a_resignation_reads_the_players_seats_once(player: Any, player2: Any) -> None:
    """The resign view asked for the player's seats, then again for the seat a post that
    names none resigns; one read serves both."""
    from django.urls import reverse

    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username},
                                         {"player": player2.username}, {"bot": "random"}])
    services.join_match(match=match, user=player2)
    page, url = browser(player), reverse("match_resign", args=[match.id])
    asked = captured(lambda: page.post(url), 200)  # the confirmation page
    assert seat_reads(asked) == 1, asked
    assert captured(lambda: page.post(url, {"confirmed": "yes"}), 302)
    match.refresh_from_db()
    assert match.status == "active" and services.seats_out(match) == {0}


@pytest.mark.parametrize("page", ["lobby", "lobby_live"])
def test_the_lobby_names_each_event_match_s_event_at_no_cost_a_row(
        player: Any, event_bot_seats: Any, page: str, seeded_chance: None) -> None:
    """(Chance seeded: whether alice is to move in any of her matches, drawn at random,
    asks for their turn deadlines once a page, which the rows must not decide.)"""
    from django.urls import reverse

    client = browser(player)
    same_for_more_rows(event_bot_seats, lambda: client.get(reverse(page)))
    assert "Night " in client.get(reverse(page)).content.decode()
