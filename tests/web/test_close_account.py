"""Closing an account, on the account page and through the API: what the player plays is
left or resigned, the account signs in no more and keeps nothing personal, and an Event
the player is in, or a staff account, refuses it with nothing changed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league import events
from league.models import Event, EventRecord, Player, Season, Team
from league.services import CLOSED_NAME, player_for, register_player
from matches import services
from matches.models import Match, Seat
from tests.conftest import PASSWORD

GAME = "super_showdown"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clean_signin_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def close(client: Client, password: str = PASSWORD, sure: bool = True) -> Any:
    data = {"form": "close", "password": password}
    if sure:
        data["sure"] = "on"
    return client.post(reverse("account"), data)


@pytest.fixture
def tables(player: Any, player2: Any, outsider: Any, accept: Any, played: Any
           ) -> dict[str, Match]:
    """alice's matches outside Events: a live one against bruno (she has moved), one
    waiting with only her seated, one waiting that bruno sits in too, bruno's invitation
    to her, and a finished one she lost to olga."""
    def make(creator: Any, *others: str) -> Match:
        return services.create_match(game=GAME, options={}, created_by=creator, seats=[
            {"player": creator.username}, *({"open": True} if o == "open" else
                                           {"player": o} for o in others)])

    live = played(accept(make(player, "bruno")), 0)
    alone = make(player, "open")
    shared = services.create_match(game="royal_rumble", options={}, created_by=player2,
                                   seats=[{"player": "bruno"}, {"open": True}, {"open": True}])
    services.join_match(match=shared, user=player)
    invited = make(player2, "alice")
    finished = played(accept(make(outsider, "alice")), 1)
    services.forfeit_seat(match=finished, seat=1)
    return {"live": live, "alone": alone, "shared": shared, "invited": invited,
            "finished": finished}


def test_closing_leaves_every_table_and_keeps_nothing_personal(
        alice_client: Client, player: Any, tables: dict[str, Match]) -> None:
    other_session = Client()
    other_session.force_login(player)
    Token.objects.create(user=player)
    get_user_model().objects.filter(pk=player.pk).update(email="alice@example.org")
    Player.objects.filter(user=player).update(turn_mail=True, pending_email="a2@example.org")
    shared_seat = Seat.objects.get(match=tables["shared"], user=player).index

    response = close(alice_client)
    assert response.status_code == 302 and response["Location"] == reverse("login")

    user = get_user_model().objects.get(pk=player.pk)
    assert (user.username, user.email, user.is_active, user.has_usable_password()) == (
        f"closed.{player.pk}", "", False, False)
    row = Player.objects.get(user=player)
    assert (row.display_name, row.pending_email, row.turn_mail) == (CLOSED_NAME, "", False)
    assert not Token.objects.filter(user=player).exists()
    for session in (alice_client, other_session):
        assert session.get(reverse("lobby"))["Location"].startswith(reverse("login"))
    assert not Client().login(username="alice", password=PASSWORD)

    live = Match.objects.get(pk=tables["live"].pk)
    assert live.status == Match.Status.FINISHED and live.result["forfeit"] == 0
    assert not Match.objects.filter(pk=tables["alone"].pk).exists()
    shared = Match.objects.get(pk=tables["shared"].pk)
    assert shared.status == Match.Status.OPEN
    assert shared.seats.get(index=shared_seat).user_id is None
    assert not Seat.objects.filter(match=tables["invited"], invited=player).exists()
    # What was played stays in the other players' histories.
    finished = Match.objects.get(pk=tables["finished"].pk)
    assert finished.seats.get(index=1).user_id == player.pk
    # The name is free again; the closed one cannot be invited.
    register_player(username="alice", password="a-fresh-long-password-5")
    with pytest.raises(services.ServiceError) as refused:
        services.create_match(game=GAME, options={}, created_by=tables["live"].created_by,
                              seats=[{"player": "alice"}, {"player": f"closed.{player.pk}"}])
    assert refused.value.code == "unknown_player"


def test_a_wrong_password_or_an_unticked_box_closes_nothing(
        alice_client: Client, player: Any, tables: dict[str, Match]) -> None:
    wrong = close(alice_client, password="not-my-password")
    assert wrong.status_code == 400 and "The present password is wrong." in \
        wrong.content.decode()
    unsure = close(alice_client, sure=False)
    assert unsure.status_code == 400
    assert get_user_model().objects.get(pk=player.pk).is_active
    assert Match.objects.get(pk=tables["live"].pk).status == Match.Status.ACTIVE
    assert alice_client.get(reverse("lobby")).status_code == 200


def test_an_event_not_over_refuses_it_by_name(alice_client: Client, player: Any,
                                              player2: Any, organizer: Any,
                                              tables: dict[str, Match]) -> None:
    event = events.create_event(name="Thursday Night", game=GAME, format="round_robin",
                                by=organizer)
    events.add_entrant(event=event, by=organizer, player="alice")
    refused = close(alice_client)
    assert refused.status_code == 409 and "Thursday Night" in refused.content.decode()
    assert get_user_model().objects.get(pk=player.pk).is_active
    assert Match.objects.get(pk=tables["live"].pk).status == Match.Status.ACTIVE

    # Withdrawn, she may close; a team entry of hers in another Event refuses it too.
    events.withdraw_entrant(event=event, key="e1", by=organizer)
    team = Team.objects.create(name="Night Owls")
    team.members.set([player_for(player), player_for(player2)])
    other = events.create_event(name="Team Cup", game=GAME, format="round_robin",
                                by=organizer)
    events.add_entrant(event=other, by=organizer, team="Night Owls")
    assert "Team Cup" in close(alice_client).content.decode()
    Event.objects.filter(pk=other.pk).update(status=Event.Status.FINISHED)
    assert close(alice_client).status_code == 302


def test_a_staff_account_is_closed_in_the_admin_not_on_its_page(organizer: Any) -> None:
    client = Client()
    client.force_login(organizer)
    page = client.get(reverse("account")).content.decode()
    assert 'value="close"' not in page and "closed by another administrator" in page
    refused = client.post(reverse("account"), {"form": "close", "password": PASSWORD,
                                               "sure": "on"})
    assert refused.status_code == 409
    assert get_user_model().objects.get(pk=organizer.pk).is_active


def test_the_api_closes_the_account_and_its_token_stops_working(
        player: Any, tables: dict[str, Match]) -> None:
    token = Token.objects.create(user=player)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    wrong = api.post("/api/auth/me/close/", {"password": "nope"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "bad_credentials")
    assert api.post("/api/auth/me/close/", {}, format="json").status_code == 400
    assert api.post("/api/auth/me/close/", {"password": PASSWORD},
                    format="json").status_code == 204
    assert api.get("/api/auth/me/").status_code == 401
    assert Match.objects.get(pk=tables["live"].pk).status == Match.Status.FINISHED


def test_a_closed_account_is_put_in_no_team_and_entered_in_no_event(
        alice_client: Client, player: Any, organizer: Any) -> None:
    assert close(alice_client).status_code == 302
    name = f"closed.{player.pk}"
    with pytest.raises(events.LeagueError) as refused:
        events.create_team(name="Ghosts", members=[name], by=organizer)
    assert refused.value.code == "unknown_player"
    event = events.create_event(name="Open Night", game=GAME, format="round_robin",
                                by=organizer)
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=event, by=organizer, player=name)
    assert refused.value.code == "unknown_player"


def test_staff_close_accounts_in_the_admin_after_confirming(
        django_user_model: Any, staff_with: Any, player: Any, player2: Any, organizer: Any,
        tables: dict[str, Match]) -> None:
    """For a player who asks by mail, and for staff accounts, which their own page does
    not close: not the staff member's own; and another staff account (every Event's
    organizer) is a superuser's to close, refused by name to staff who are not one (a
    staff member who may change users closed any other staff account)."""
    desk, client = staff_with("desk", "view_user", "change_user")
    boss = django_user_model.objects.create_superuser("boss", password=PASSWORD)
    chosen = [player.pk, organizer.pk, boss.pk, desk.pk]
    asked = client.post("/admin/auth/user/", {"action": "close_accounts",
                                              "_selected_action": chosen})
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "<li>alice</li>" in text and "organizer (staff)" not in text
    assert "Not closed: boss, organizer. A staff account is a superuser&#x27;s to " \
           "close" in text
    assert "Left as they are: desk" in text
    assert get_user_model().objects.get(pk=player.pk).is_active  # nothing yet

    event = events.create_event(name="Late Show", game=GAME, format="round_robin",
                                by=organizer)
    events.add_entrant(event=event, by=organizer, player="alice")
    done = client.post("/admin/auth/user/", {"action": "close_accounts", "confirmed": "yes",
                                             "_selected_action": chosen}, follow=True)
    said = done.content.decode()
    assert "Not closed: alice plays in Late Show" in said
    assert "Not closed: boss, organizer. A staff account is a superuser&#x27;s" in said
    users = get_user_model().objects.in_bulk(chosen)
    assert [users[pk].is_active for pk in chosen] == [True, True, True, True]
    assert Match.objects.get(pk=tables["live"].pk).status == Match.Status.ACTIVE

    client.force_login(boss)
    asked = client.post("/admin/auth/user/", {"action": "close_accounts",
                                              "_selected_action": [organizer.pk, desk.pk]})
    assert "<li>desk (staff)</li><li>organizer (staff)</li>" in asked.content.decode()
    done = client.post("/admin/auth/user/", {"action": "close_accounts", "confirmed": "yes",
                                             "_selected_action": [organizer.pk]}, follow=True)
    assert f"Closed: organizer, now closed.{organizer.pk}." in done.content.decode()
    closed = get_user_model().objects.get(pk=organizer.pk)
    assert not (closed.is_active or closed.is_staff or closed.is_superuser)


def test_a_closed_players_team_is_entered_later_and_plays_without_them(
        alice_client: Client, player: Any, player2: Any, organizer: Any) -> None:
    """The closed account leaves its teams: the team's later Event seats its other member;
    a closed member, seated by the Event's first match, made its start fail."""
    team = Team.objects.create(name="Night Owls")
    team.members.set([player_for(player), player_for(player2)])  # alice first, as seated
    assert close(alice_client).status_code == 302
    assert list(team.members.values_list("user__username", flat=True)) == ["bruno"]
    cup = events.create_event(name="Owl Cup", game=GAME, format="round_robin", by=organizer)
    events.add_entrant(event=cup, by=organizer, team="Night Owls")
    events.add_entrant(event=cup, by=organizer, bot="random")
    events.start_event(event=cup, by=organizer)
    match = Match.objects.get(event_match__event=cup)
    assert player2.pk in set(match.seats.values_list("user_id", flat=True))


def test_a_team_with_a_member_who_signs_in_no_more_is_not_entered(
        player: Any, player2: Any, organizer: Any) -> None:
    """An account deactivated in the admin stays in its teams: the entry is refused, not
    the Event's first match."""
    team = Team.objects.create(name="Night Owls")
    team.members.set([player_for(player), player_for(player2)])
    get_user_model().objects.filter(pk=player.pk).update(is_active=False)
    cup = events.create_event(name="Owl Cup", game=GAME, format="round_robin", by=organizer)
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=cup, by=organizer, team="night owls")
    assert refused.value.code == "unknown_player" and "(alice)" in refused.value.detail
    assert not cup.entrants.exists()


def test_a_close_sent_twice_answers_the_second_as_the_first(player: Any) -> None:
    """The second of a double click reads the account before the first closes it and
    checks the password after: it was told the password was wrong (400, the account page
    again) of an account closed a moment before."""
    from league.services import close_account

    as_read = get_user_model().objects.get(pk=player.pk)  # the second request's reading
    close_account(player, password=PASSWORD)
    close_account(as_read, password=PASSWORD)
    user = get_user_model().objects.get(pk=player.pk)
    assert (user.username, user.is_active) == (f"closed.{player.pk}", False)


def test_a_team_an_event_entered_keeps_its_closed_member_for_its_ratings(
        alice_client: Client, player: Any, player2: Any, organizer: Any) -> None:
    """Its results rate its members, read again by a ratings rebuild: taken off, she
    would leave those ratings and bruno's would change. A later Event takes a new team."""
    team = Team.objects.create(name="Night Owls")
    team.members.set([player_for(player), player_for(player2)])
    cup = events.create_event(name="Owl Cup", game=GAME, format="round_robin", by=organizer)
    events.add_entrant(event=cup, by=organizer, team="Night Owls")
    Event.objects.filter(pk=cup.pk).update(status=Event.Status.FINISHED)
    assert close(alice_client).status_code == 302
    assert set(team.members.values_list("user_id", flat=True)) == {player.pk, player2.pk}
    later = events.create_event(name="Owl Cup 2", game=GAME, format="round_robin",
                                by=organizer)
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=later, by=organizer, team="Night Owls")
    assert refused.value.code == "unknown_player"


def test_an_entrant_deactivated_in_the_admin_is_still_seated_by_the_event(
        player: Any, player2: Any, organizer: Any) -> None:
    """An Event seats its entrants as they are: one whose account staff deactivated since
    the entry holds their seat, left to the turn deadline, and the Event goes on; the
    match was refused as naming nobody, and the Event stalled."""
    event = events.create_event(name="Ban Night", game=GAME, format="round_robin",
                                by=organizer)
    events.add_entrant(event=event, by=organizer, player="alice")
    events.add_entrant(event=event, by=organizer, player="bruno")
    get_user_model().objects.filter(pk=player.pk).update(is_active=False)
    events.start_event(event=event, by=organizer)
    (match,) = Match.objects.filter(event_match__event=event)
    assert sorted(match.seats.values_list("user__username", flat=True)) == ["alice", "bruno"]
    # A player still may not seat or invite them.
    with pytest.raises(services.ServiceError) as refused:
        services.create_match(game=GAME, options={}, created_by=player2,
                              seats=[{"player": "bruno"}, {"player": "alice"}])
    assert refused.value.code == "unknown_player"


def test_a_deactivated_account_is_closed_in_the_admin_and_nobody_takes_its_shown_name(
        django_user_model: Any, player: Any, player2: Any, alice_client: Client) -> None:
    """Staff anonymise a banned (deactivated) account too; and no live player may show as
    "Closed account", which would pass for one."""
    boss = django_user_model.objects.create_superuser("boss", password=PASSWORD)
    get_user_model().objects.filter(pk=player2.pk).update(is_active=False,
                                                          email="bruno@example.org")
    client = Client()
    client.force_login(boss)
    client.post("/admin/auth/user/", {"action": "close_accounts", "confirmed": "yes",
                                      "_selected_action": [player2.pk]})
    closed = get_user_model().objects.get(pk=player2.pk)
    assert (closed.username, closed.email) == (f"closed.{player2.pk}", "")
    again = client.post("/admin/auth/user/", {"action": "close_accounts",
                                              "_selected_action": [player2.pk]})
    assert f"Left as they are: closed.{player2.pk}" in again.content.decode()
    for name in ("Closed account", "  closed ACCOUNT "):
        refused = alice_client.post(reverse("account"), {"form": "name", "display_name": name})
        assert refused.status_code == 400
    assert Player.objects.get(user=player).display_name == "alice"


def test_a_closed_account_organizes_nothing_and_staff_keep_what_it_alone_organized(
        alice_client: Client, player: Any, player2: Any, organizer: Any) -> None:
    """Her rights go with the account, were it ever made active again; an Event and a
    season she alone organized stay with staff, whose dashboard says they have no
    organizer but staff, while one bruno organizes with her stays his."""
    season = Season.objects.create(name="Her Season", game=GAME)
    season.organizers.add(player)
    alone = events.create_event(name="Her Night", game=GAME, format="round_robin",
                                by=organizer)
    shared = events.create_event(name="Their Night", game=GAME, format="round_robin",
                                 by=organizer)
    Event.objects.get(pk=alone.pk).organizers.set([player])
    Event.objects.get(pk=shared.pk).organizers.set([player, player2])
    page = alice_client.get(reverse("account")).content.decode()
    assert "one you\n      alone organize stays with the site's staff" in page

    assert close(alice_client).status_code == 302
    assert not season.organizers.exists()
    assert not Event.objects.filter(organizers=player).exists()
    assert list(Event.objects.get(pk=shared.pk).organizers.all()) == [player2]
    for event in (alone, shared):  # each Event's stream says she left, as the admin's do
        left = EventRecord.objects.filter(event=event, kind="organizers_changed")
        assert [(r.payload, r.actor_id) for r in left] == [
            ({"added": [], "removed": [player.pk]}, player.pk)]
    get_user_model().objects.filter(pk=player.pk).update(is_active=True)
    again = get_user_model().objects.get(pk=player.pk)
    assert not events.can_organize(alone, again)
    assert not events.can_organize_season(season, again)

    staff = Client()
    staff.force_login(organizer)
    rows = {row.split("</a>")[0].rsplit(">", 1)[-1]: row for row in staff.get(
        reverse("league:dashboard")).content.decode().split('class="match-row"')[1:]}
    assert "no organizer but staff" in rows["Her Night"]
    assert "no organizer but staff" in rows["Her Season"]
    assert "no organizer but staff" not in rows["Their Night"]


def test_the_admins_history_of_the_account_says_who_closed_it_and_when(
        django_user_model: Any, alice_client: Client, player: Any, player2: Any) -> None:
    """A player's own close is logged as theirs; a close in the admin as the staff
    member's. The entry names the account as it now reads, not its old name."""
    from django.contrib.admin.models import CHANGE, LogEntry

    assert close(alice_client).status_code == 302
    staff = Client()
    boss = django_user_model.objects.create_superuser("boss", password=PASSWORD)
    staff.force_login(boss)
    staff.post("/admin/auth/user/", {"action": "close_accounts", "confirmed": "yes",
                                     "_selected_action": [player2.pk]})
    logged = {entry.object_id: entry for entry in LogEntry.objects.all()}
    own, closed_by_staff = logged[str(player.pk)], logged[str(player2.pk)]
    assert (own.user_id, own.action_flag, own.object_repr) == (
        player.pk, CHANGE, f"closed.{player.pk}")
    assert (closed_by_staff.user_id, closed_by_staff.object_repr) == (
        boss.pk, f"closed.{player2.pk}")
    assert own.action_time is not None
    history = staff.get(f"/admin/auth/user/{player.pk}/history/").content.decode()
    assert "Closed by its player." in history and f"closed.{player.pk}" in history
    assert "alice" not in history.split("<main", 1)[-1]
    said = staff.get(f"/admin/auth/user/{player2.pk}/history/").content.decode()
    assert "Closed by staff in the admin." in said and "boss" in said


def test_a_closed_players_ratings_are_shown_nowhere_and_their_matches_stay(
        alice_client: Client, player: Any, outsider: Any, tables: dict[str, Match],
        client_for: Any) -> None:
    """As the ratings table leaves her out, her page and the API show no rating of hers;
    the matches she played stay in olga's history, under the closed account's name."""
    from league import projections
    from league.models import Rating, RatingHistory

    projections.rebuild_ratings(GAME)  # what the worker does once the match is over
    alice = player_for(player)
    assert Rating.objects.filter(player=alice).exists()
    assert RatingHistory.objects.filter(player=alice).exists()
    page = reverse("league:player", args=[alice.pk])
    assert "<svg" in alice_client.get(page).content.decode()

    assert close(alice_client).status_code == 302
    olga = Client()
    olga.force_login(outsider)
    shown = olga.get(page).content.decode()
    rating = shown.split("<h2>Rating</h2>", 1)[1].split("</section>", 1)[0]
    assert "<svg" not in rating and "rating-list" not in rating
    assert "This account is closed: its ratings are not shown." in rating
    assert f"#{tables['finished'].pk}" in shown  # her matches stay listed
    api = client_for(outsider)
    assert api.get(f"/api/players/{alice.pk}/ratings/").json() == []
    assert api.get(f"/api/players/{alice.pk}/ratings/history/").json()["results"] == []
    assert Rating.objects.filter(player=alice).exists()  # kept, as the table keeps it
    theirs = olga.get(reverse("league:player", args=[player_for(outsider).pk])
                      ).content.decode()
    assert f"vs {CLOSED_NAME}" in theirs and "alice" not in theirs


def test_a_closed_players_event_entries_read_the_closed_name_on_every_event_page(
        alice_client: Client, player: Any, player2: Any, organizer: Any, client_for: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """Standings, match rows, bracket, season table, the API's entrants, bracket,
    standings and records: her entry, made under the name she had then, reads "Closed
    account" once she closed it; bruno's keeps his."""
    from league.models import EventMatch
    from league.services import rename_player

    rename_player(player_for(player), "Starlight Ada")
    season = Season.objects.create(name="Spring", game=GAME)
    event = events.create_event(name="Final Night", game=GAME, format="single_elimination",
                                by=organizer, season=season)
    events.add_entrant(event=event, by=organizer, player="alice")
    events.add_entrant(event=event, by=organizer, player="bruno")
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        events.forfeit(event=event, by=organizer, pairing=link.pairing,
                       entrant=link.entrants[1])
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    bruno = Client()
    bruno.force_login(player2)
    event_page = reverse("league:event", args=[event.pk])
    assert "Starlight Ada" in bruno.get(event_page).content.decode()

    assert close(alice_client).status_code == 302
    api = client_for(player2)
    shown = {
        "event": bruno.get(event_page).content.decode(),
        "season": bruno.get(reverse("league:season", args=[season.pk])).content.decode(),
        **{part: api.get(f"/api/events/{event.pk}/{part}/").content.decode()
           for part in ("bracket", "standings", "records")},
        "entrants": api.get(f"/api/events/{event.pk}/").content.decode(),
    }
    for where, text in shown.items():
        assert "Starlight Ada" not in text, where
        assert CLOSED_NAME in text and "bruno" in text, where
    page = shown["event"]
    assert CLOSED_NAME in page.split("<svg", 1)[1].split("</svg>", 1)[0]  # the bracket


def test_a_closed_account_reads_the_closed_name_at_every_table_and_in_the_api(
        alice_client: Client, player: Any, outsider: Any, tables: dict[str, Match],
        client_for: Any) -> None:
    """As her Event entries do, her seats read "Closed account", not her username
    closed.ID: in olga's match history, lobby, and the match's page and replay, and on
    her own page; the API's seat label says so too, where `player` keeps the username."""
    assert close(alice_client).status_code == 302
    olga = Client()
    olga.force_login(outsider)
    finished = tables["finished"]
    pages = {
        "history": reverse("league:player", args=[player_for(outsider).pk]),
        "her page": reverse("league:player", args=[player_for(player).pk]),
        "lobby": reverse("lobby"),
        "play": reverse("match_play", args=[finished.pk]),
        "replay": reverse("match_replay", args=[finished.pk]),
    }
    shown = {where: olga.get(page).content.decode() for where, page in pages.items()}
    assert [where for where, text in shown.items()
            if CLOSED_NAME not in text or f"closed.{player.pk}" in text] == []
    seats = client_for(outsider).get(f"/api/matches/{finished.pk}/").json()["seats"]
    assert [(seat["player"], seat["label"]) for seat in seats] == [
        ("olga", "olga"), (f"closed.{player.pk}", CLOSED_NAME)]


POLL = {"HTTP_HX_REQUEST": "true"}


def _poll_query(page: str, url: str) -> dict[str, str]:
    """What a page's poll of `url` sends: its `?v=...&amp;...` as drawn."""
    found = re.search(rf'hx-get="{re.escape(url)}\?([^"]*)"', page)
    assert found is not None, url
    return dict(part.split("=", 1) for part in found[1].split("&amp;"))


def test_an_open_event_page_shows_the_closed_name_at_its_next_poll(
        alice_client: Client, player: Any, player2: Any, outsider: Any,
        organizer: Any) -> None:
    """Her entry, withdrawn from the running Event, is renamed by her close, which writes
    no record: the results' poll and the organizer's list of matches answered 204
    (nothing changed) and went on showing her old name until the Event's next record."""
    from league.models import Entrant
    from league.services import rename_player

    rename_player(player_for(player), "Starlight Ada")
    event = events.create_event(name="Long Night", game=GAME, format="single_elimination",
                                by=organizer)
    for name in ("alice", "bruno", "olga"):
        events.add_entrant(event=event, by=organizer, player=name)
    events.add_entrant(event=event, by=organizer, bot="random")
    events.start_event(event=event, by=organizer)
    events.withdraw_entrant(event=event, by=organizer, key=Entrant.objects.get(
        event=event, player=player_for(player)).key)
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    bruno, staff = Client(), Client()
    bruno.force_login(player2)
    staff.force_login(organizer)
    polls = {  # the page, the poll it makes
        "results": (bruno, reverse("league:event", args=[event.pk]),
                    reverse("league:event_results", args=[event.pk])),
        "live": (staff, reverse("league:event_admin", args=[event.pk]),
                 reverse("league:event_live", args=[event.pk])),
    }
    drawn = {where: client.get(page).content.decode()
             for where, (client, page, _) in polls.items()}
    assert all("Starlight Ada" in text for text in drawn.values())
    sent = {where: _poll_query(drawn[where], url) for where, (_, _, url) in polls.items()}
    for where, (client, _, url) in polls.items():
        assert client.get(url, sent[where], **POLL).status_code == 204, where

    assert close(alice_client).status_code == 302
    for where, (client, _, url) in polls.items():
        polled = client.get(url, sent[where], **POLL)
        shown = polled.content.decode()
        assert polled.status_code == 200, where
        assert CLOSED_NAME in shown and "Starlight Ada" not in shown, where


def test_an_open_lobby_shows_the_closed_name_of_an_invitations_maker_at_its_next_poll(
        alice_client: Client, player: Any, player2: Any, outsider: Any) -> None:
    """alice made the match that invites olga, then left it to bruno: her close leaves
    it as it is, and olga's lobby answered 204 under "from alice" until it changed."""
    made = services.create_match(game="royal_rumble", options={}, created_by=player, seats=[
        {"player": "alice"}, {"open": True}, {"player": "olga"}])
    services.join_match(match=made, user=player2)
    assert services.resign(match=made, user=player) == "left"
    olga = Client()
    olga.force_login(outsider)
    url = reverse("lobby_live")
    lobby = olga.get(reverse("lobby")).content.decode()
    assert "from alice" in lobby
    sent = _poll_query(lobby, url)
    assert olga.get(url, sent, **POLL).status_code == 204

    assert close(alice_client).status_code == 302
    polled = olga.get(url, sent, **POLL)
    assert polled.status_code == 200 and f"from {CLOSED_NAME}" in polled.content.decode()


def test_an_open_play_page_shows_the_closed_name_of_the_player_a_bot_stands_in_for(
        alice_client: Client, player: Any, player2: Any, accept: Any) -> None:
    """A bot took alice's seat, which her close leaves as it is (she holds it no more):
    bruno's page polled 204 under "bot: random for alice", its seq, status and seats
    unchanged."""
    match = accept(services.create_match(game=GAME, options={}, created_by=player2,
                                         seats=[{"player": "bruno"}, {"player": "alice"}]))
    services.hand_seat_to_bot(match=match, seat=1, bot="random")
    bruno = Client()
    bruno.force_login(player2)
    url = reverse("match_state", args=[match.pk])
    page = bruno.get(reverse("match_play", args=[match.pk])).content.decode()
    assert "bot: random for alice" in page
    sent = _poll_query(page, url)
    assert bruno.get(url, sent, **POLL).status_code == 204

    assert close(alice_client).status_code == 302
    polled = bruno.get(url, sent, **POLL)
    assert polled.status_code == 200
    assert f"bot: random for {CLOSED_NAME}" in polled.content.decode()


def test_a_simulation_started_by_a_closed_account_names_it_as_the_pages_do(
        alice_client: Client, player: Any, organizer: Any) -> None:
    """alice ran it as a season's organizer, then closed her account: the simulations'
    list and the job's page said "closed.ID"."""
    from league.models import SimulationJob

    Season.objects.create(name="Spring", game=GAME).organizers.add(player)
    job = SimulationJob.objects.create(
        game=GAME, bots=["random", "random"], seed=1, planned=10, chunk_size=10,
        chunk_count=1, created_by=player)
    assert close(alice_client).status_code == 302
    staff = Client()
    staff.force_login(organizer)
    for page in (reverse("league:simulations"), reverse("league:simulation", args=[job.pk])):
        shown = staff.get(page).content.decode()
        assert CLOSED_NAME in shown and f"closed.{player.pk}" not in shown, page


def test_closing_resigns_a_live_match_whose_maker_was_deleted(
        django_user_model: Any, alice_client: Client, player: Any, player2: Any) -> None:
    """No maker does not make it an Event's match, which would refuse the close."""
    staff = django_user_model.objects.create_user(username="sam", is_staff=True)
    match = services.create_match(game=GAME, options={}, created_by=staff,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    staff.delete()
    page = alice_client.get(reverse("match_play", args=[match.pk])).content.decode()
    assert reverse("match_resign", args=[match.pk]) in page
    assert close(alice_client).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["forfeit"] == 0


def test_a_closed_account_and_its_player_are_read_only_in_the_admin(
        alice_client: Client, player: Any, staff_with: Any) -> None:
    """Closed for good: a superuser's save of its user or player form, read before the
    close or after, is refused, so no name, address, password or rights come back;
    both still open to be read."""
    _, boss = staff_with("boss", superuser=True)
    profile = player_for(player)
    user_page, player_page = (f"/admin/auth/user/{player.pk}/change/",
                              f"/admin/league/player/{profile.pk}/change/")
    assert 'name="_save"' in boss.get(player_page).content.decode()
    assert close(alice_client).status_code == 302

    for page in (user_page, player_page):
        shown = boss.get(page)
        assert shown.status_code == 200 and 'name="_save"' not in shown.content.decode()
    restored = boss.post(player_page, {"display_name": "alice", "time_zone": "Europe/Paris",
                                       "turn_mail": "on"})
    assert restored.status_code == 403
    reopened = boss.post(user_page, {"username": "alice", "is_active": "on",
                                     "email": "alice@example.org"})
    assert reopened.status_code == 403
    assert boss.post(f"/admin/auth/user/{player.pk}/password/",
                     {"password1": "n3w-Passw0rd!", "password2": "n3w-Passw0rd!"}
                     ).status_code == 403
    closed = get_user_model().objects.get(pk=player.pk)
    profile.refresh_from_db()
    assert (closed.username, closed.is_active, closed.email) == (
        f"closed.{player.pk}", False, "")
    assert (profile.display_name, profile.time_zone, profile.turn_mail) == (
        CLOSED_NAME, "", False)


def test_closing_resigns_every_seat_held_in_a_rumble_that_plays_on(
        alice_client: Client, player: Any, organizer: Any, player2: Any,
        outsider: Any) -> None:
    """The forfeit decision of engine/games/royal_rumble (RR-34): alice holds two seats of
    a four-seat Rumble (a staff lineup). Closing resigns both, each putting its seat out
    while bruno and olga play on, and the close goes through (a seat out is no refusal)."""
    match = services.create_match(game="royal_rumble", options={}, created_by=organizer,
                                  seats=[{"player": "alice"}, {"player": "alice"},
                                         {"player": "bruno"}, {"player": "olga"}])
    response = close(alice_client)
    assert response.status_code == 302 and response["Location"] == reverse("login")
    assert not get_user_model().objects.get(pk=player.pk).is_active
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert services.forfeited_seats(match) == [0, 1]
