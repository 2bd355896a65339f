"""The league in the Django admin: every model listed; the stream and the projections
are read-only."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core import mail
from django.db.models.signals import pre_save
from django.test import Client, override_settings

from config import queue
from league import events
from league.models import Event, EventRecord, Player, Team
from league.services import mail_email_confirmation, mail_email_confirmations, set_email
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

MODELS = ["player", "team", "season", "event", "eventrecord", "entrant", "eventmatch",
          "standing", "walkover", "seasonstanding", "rating", "ratinghistory"]
READ_ONLY = ["eventrecord", "entrant", "eventmatch", "standing", "walkover", "seasonstanding",
             "rating", "ratinghistory"]


@pytest.fixture
def admin_browser(django_user_model: Any) -> Client:
    root = django_user_model.objects.create_superuser("league-root", password="x-admin-pass-2")
    client = Client()
    client.force_login(root)
    return client


@pytest.mark.parametrize("model", MODELS)
def test_every_league_model_is_listed(admin_browser: Client, cup: Event, model: str) -> None:
    assert admin_browser.get(f"/admin/league/{model}/").status_code == 200


@pytest.mark.parametrize("model", READ_ONLY)
def test_records_and_projections_cannot_be_added(admin_browser: Client, model: str) -> None:
    assert admin_browser.get(f"/admin/league/{model}/add/").status_code == 403


def test_an_event_shows_its_records_inline_and_they_stay_as_written(
        admin_browser: Client, cup: Event) -> None:
    page = admin_browser.get(f"/admin/league/event/{cup.pk}/change/").content.decode()
    assert "entrant_added" in page
    record = EventRecord.objects.filter(event=cup).first()
    assert record is not None
    before = record.payload
    changed = admin_browser.post(f"/admin/league/eventrecord/{record.pk}/change/",
                                 {"payload": "{}"})
    assert changed.status_code == 403
    assert admin_browser.get(f"/admin/league/eventrecord/{record.pk}/delete/").status_code == 403
    record.refresh_from_db()
    assert record.payload == before


def test_events_are_made_on_the_dashboard_not_in_the_admin(admin_browser: Client,
                                                           organizer: Any) -> None:
    assert admin_browser.get("/admin/league/event/add/").status_code == 403
    event = events.create_event(name="Named", game="super_showdown", format="swiss",
                                by=organizer)
    assert admin_browser.get(f"/admin/league/event/{event.pk}/change/").status_code == 200


def test_a_player_or_team_an_event_entered_cannot_be_deleted(
        admin_browser: Client, cup: Event, organizer: Any, player: Any, player2: Any) -> None:
    """The Event's stream names them; deleting them broke every later step (a 500)."""
    events.add_entrant(event=cup, by=organizer, player=player.username)
    team = events.create_team(name="Reds", members=[player2.username], by=organizer)
    events.add_entrant(event=cup, by=organizer, team="Reds")
    alice = Player.objects.get(user=player)
    for url in (f"/admin/league/player/{alice.pk}/delete/",
                f"/admin/league/team/{team.pk}/delete/"):
        page = admin_browser.get(url).content.decode()
        assert "entered in Cup" in page
        admin_browser.post(url, {"post": "yes"})
    bulk = admin_browser.post("/admin/league/team/", {
        "action": "delete_selected", "_selected_action": [team.pk], "post": "yes"})
    assert bulk.status_code == 200 and "entered in Cup" in bulk.content.decode()
    assert Player.objects.filter(pk=alice.pk).exists() and Team.objects.filter(pk=team.pk).exists()
    events.start_event(event=cup, by=organizer)  # the Event still replays


def test_a_team_no_event_entered_can_be_deleted(admin_browser: Client, organizer: Any,
                                                player: Any) -> None:
    team = events.create_team(name="Spares", members=[player.username], by=organizer)
    admin_browser.post(f"/admin/league/team/{team.pk}/delete/", {"post": "yes"})
    assert not Team.objects.filter(pk=team.pk).exists()


@pytest.mark.parametrize(("fields", "error"), [
    ({"game": "chess"}, "unknown_game"),
    ({"scoring": '{"win": 3}'}, "bad_scoring"),
    ({"starts_on": "2026-12-31", "ends_on": "2026-01-01"}, "bad_dates"),
])
def test_a_season_edited_in_the_admin_is_checked_like_a_new_one(
        admin_browser: Client, organizer: Any, fields: dict[str, str], error: str) -> None:
    season = events.create_season(name="Open", game="super_showdown", by=organizer)
    data = {"name": "Open", "game": "super_showdown", "scoring": '{"win": 3, "draw": 1, '
            '"loss": 0}', "organizers": [organizer.pk], "starts_on": "", "ends_on": "",
            **fields}
    response = admin_browser.post(f"/admin/league/season/{season.pk}/change/", data)
    assert response.status_code == 200 and error in response.content.decode()
    season.refresh_from_db()
    assert season.game == "super_showdown" and season.scoring["draw"] == 1
    assert season.starts_on is None and season.ends_on is None


@pytest.mark.parametrize("started", [False, True], ids=["draft", "started"])
def test_an_events_settings_are_read_only_in_the_admin(
        admin_browser: Client, cup: Event, started_with_four: Callable[..., Event],
        started: bool) -> None:
    """They change on the organizer page or through the API, each change a
    settings_changed record, and until the start only: an admin edit wrote the columns
    alone, at any time, and a replay of the stream disagreed with them."""
    event = started_with_four() if started else cup
    event.refresh_from_db()
    assert (event.status != Event.Status.DRAFT) == started
    settings = {name: getattr(event, name) for name in events.SETTINGS}
    seq = event.seq
    url = f"/admin/league/event/{event.pk}/change/"
    page = admin_browser.get(url).content.decode()
    assert not any(f'name="{name}"' in page for name in events.SETTINGS)
    assert f'href="/league/dashboard/events/{event.pk}/"' in page
    data = {"name": "Renamed", "organizers": [u.pk for u in event.organizers.all()],
            "format": "swiss", "format_options": '{"rounds": 2}', "match_options": "{}",
            "turn_deadline_minutes": "30", "deadline_policy": "forfeit",
            "deadline_bot": "random", "records-TOTAL_FORMS": "0",
            "records-INITIAL_FORMS": "0"}
    assert admin_browser.post(url, data).status_code == 302
    event.refresh_from_db()
    assert event.name == "Renamed" and event.seq == seq
    assert {name: getattr(event, name) for name in events.SETTINGS} == settings
    assert not EventRecord.objects.filter(event=event, kind="settings_changed").exists()


def test_an_event_edited_in_the_admin_keeps_its_open_entry(
        admin_browser: Client, cup: Event) -> None:
    """It is switched on the organizer page, where the switch is a record of the stream."""
    Event.objects.filter(pk=cup.pk).update(open_entry=True)
    data = {"name": "Renamed", "organizers": [u.pk for u in cup.organizers.all()],
            "records-TOTAL_FORMS": "0", "records-INITIAL_FORMS": "0"}
    response = admin_browser.post(f"/admin/league/event/{cup.pk}/change/", data)
    assert response.status_code == 302
    cup.refresh_from_db()
    assert (cup.name, cup.open_entry) == ("Renamed", True)


def test_an_event_renamed_in_the_admin_keeps_what_the_service_wrote_meanwhile(
        admin_browser: Client, cup: Event, sam: Any) -> None:
    """The admin read the row when the POST came and saved it whole: a start the service
    committed before that save was undone (the Event back to a draft, its seq behind its
    stream)."""
    started: list[int] = []

    def start_meanwhile(sender: Any, instance: Event, **kwargs: Any) -> None:
        if not started:  # as another request would, between the admin's read and write
            started.append(instance.pk)
            events.start_event(event=Event.objects.get(pk=instance.pk), by=sam)

    data = {"name": "Renamed", "organizers": [u.pk for u in cup.organizers.all()],
            "records-TOTAL_FORMS": "0", "records-INITIAL_FORMS": "0"}
    pre_save.connect(start_meanwhile, sender=Event)
    try:
        response = admin_browser.post(f"/admin/league/event/{cup.pk}/change/", data)
    finally:
        pre_save.disconnect(start_meanwhile, sender=Event)
    assert response.status_code == 302 and started == [cup.pk]
    cup.refresh_from_db()
    assert cup.name == "Renamed" and cup.status != Event.Status.DRAFT
    assert cup.seq == cup.records.count()


def organizers_changed(event: Event) -> list[EventRecord]:
    return list(event.records.filter(kind=EventRecord.Kind.ORGANIZERS_CHANGED))


def test_an_events_organizers_changed_in_the_admin_are_a_record_in_its_stream(
        staff_with: Any, cup: Event, sam: Any, player: Any, outsider: Any, player2: Any,
        client_for: Any) -> None:
    """The admin set them with no record: the stream, where every other organizer change
    is, did not say who came to organize the Event, who left, nor who decided it."""
    desk, browser = staff_with("desk", "view_event", "change_event")
    before = cup.seq
    data = {"name": "Cup", "organizers": [player.pk, outsider.pk],
            "records-TOTAL_FORMS": "0", "records-INITIAL_FORMS": "0"}
    response = browser.post(f"/admin/league/event/{cup.pk}/change/", data)
    assert response.status_code == 302
    cup.refresh_from_db()
    assert set(cup.organizers.all()) == {player, outsider}
    (record,) = organizers_changed(cup)
    assert record.seq == before + 1 == cup.seq == cup.records.count()
    assert record.actor == desk
    assert record.payload == {"added": sorted([player.pk, outsider.pk]), "removed": [sam.pk]}
    # The records list names them as the Event's `organizers` do, by username.
    listed = client_for(player2).get(f"/api/events/{cup.pk}/records/").json()["results"]
    (shown,) = [r for r in listed if r["kind"] == "organizers_changed"]
    assert shown["actor"] == "desk"
    assert shown["payload"] == {"added": sorted(["alice", "olga"]), "removed": ["sam"]}


def test_an_event_saved_in_the_admin_with_the_same_organizers_records_nothing(
        staff_with: Any, cup: Event) -> None:
    _, browser = staff_with("desk", "view_event", "change_event")
    before = cup.seq
    data = {"name": "Renamed", "organizers": [u.pk for u in cup.organizers.all()],
            "records-TOTAL_FORMS": "0", "records-INITIAL_FORMS": "0"}
    assert browser.post(f"/admin/league/event/{cup.pk}/change/", data).status_code == 302
    cup.refresh_from_db()
    assert cup.name == "Renamed" and cup.seq == before and not organizers_changed(cup)


def test_an_organizer_page_read_before_an_organizers_change_is_not_stale(
        staff_with: Any, cup: Event, sam: Any, player: Any) -> None:
    """Who else organizes the Event changes nothing an organizer's action decides: a start
    sent from a page read before another organizer was added goes through."""
    _, browser = staff_with("desk", "view_event", "change_event")
    read_at = cup.seq
    data = {"name": "Cup", "organizers": [sam.pk, player.pk],
            "records-TOTAL_FORMS": "0", "records-INITIAL_FORMS": "0"}
    assert browser.post(f"/admin/league/event/{cup.pk}/change/", data).status_code == 302
    events.start_event(event=cup, by=sam, expected_seq=read_at)
    cup.refresh_from_db()
    assert cup.status != Event.Status.DRAFT and len(organizers_changed(cup)) == 1


def test_an_events_start_and_notes_are_read_only_in_the_admin(
        admin_browser: Client, cup: Event, organizer: Any) -> None:
    """They change on the organizer page, each change a details_changed record and the
    notes checked as plain text; an admin edit wrote no record and took any text."""
    starts = datetime(2037, 12, 10, 18, 30, tzinfo=UTC)
    events.set_details(event=cup, by=organizer, starts_at=starts, notes="Back room.")
    url = f"/admin/league/event/{cup.pk}/change/"
    page = admin_browser.get(url).content.decode()
    assert 'name="notes"' not in page and 'name="starts_at' not in page
    data = {"name": "Renamed", "organizers": [u.pk for u in cup.organizers.all()],
            "notes": "one\x1b[2Jtwo", "starts_at_0": "", "starts_at_1": "",
            "records-TOTAL_FORMS": "0", "records-INITIAL_FORMS": "0"}
    assert admin_browser.post(url, data).status_code == 302
    cup.refresh_from_db()
    assert (cup.name, cup.starts_at, cup.notes) == ("Renamed", starts, "Back room.")


def test_the_reminders_an_event_sent_are_read_only_in_the_admin(
        admin_browser: Client, cup: Event) -> None:
    """The sweep keeps which entries it reminded of which time (league.event_mail): edited
    there, an entry was reminded again, or never."""
    Event.objects.filter(pk=cup.pk).update(reminded={"e1": "2037-12-10T18:30:00+00:00"})
    url = f"/admin/league/event/{cup.pk}/change/"
    assert 'name="reminded"' not in admin_browser.get(url).content.decode()
    data = {"name": cup.name, "organizers": [u.pk for u in cup.organizers.all()],
            "reminded": "{}",
            "records-TOTAL_FORMS": "0", "records-INITIAL_FORMS": "0"}
    assert admin_browser.post(url, data).status_code == 302
    cup.refresh_from_db()
    assert cup.reminded == {"e1": "2037-12-10T18:30:00+00:00"}


def test_a_user_an_event_names_cannot_be_deleted(admin_browser: Client, cup: Event,
                                                 organizer: Any, player: Any) -> None:
    """An entered player's user, or the organizer its records name: deleting them nulled
    every record's actor, and broke the Event's replay and rebuild_projections."""
    events.add_entrant(event=cup, by=organizer, player=player.username)
    for user, reason in ((player, "entered in Cup"), (organizer, "named in the records of Cup")):
        url = f"/admin/auth/user/{user.pk}/delete/"
        assert reason in admin_browser.get(url).content.decode()
        admin_browser.post(url, {"post": "yes"})
        assert type(user).objects.filter(pk=user.pk).exists()
    assert EventRecord.objects.filter(event=cup, actor=organizer).exists()
    events.start_event(event=cup, by=organizer)  # the Event still replays


def test_an_entered_teams_members_and_a_players_user_are_read_only(
        admin_browser: Client, cup: Event, organizer: Any, player: Any,
        player2: Any) -> None:
    """Either edit moved ratings onto people who never played those matches."""
    team = events.create_team(name="Reds", members=[player.username], by=organizer)
    events.add_entrant(event=cup, by=organizer, team="Reds")
    page = admin_browser.get(f"/admin/league/team/{team.pk}/change/").content.decode()
    assert 'name="members"' not in page
    alice = Player.objects.get(user=player)
    page = admin_browser.get(f"/admin/league/player/{alice.pk}/change/").content.decode()
    assert 'name="user"' not in page
    admin_browser.post(f"/admin/league/player/{alice.pk}/change/",
                       {"display_name": "alice", "user": player2.pk})
    alice.refresh_from_db()
    assert alice.user_id == player.pk


def test_a_players_time_zone_is_picked_from_the_list_in_the_admin(
        admin_browser: Client, player: Any) -> None:
    from league.services import player_for

    alice = player_for(player)
    url = f"/admin/league/player/{alice.pk}/change/"
    page = admin_browser.get(url).content.decode()
    assert '<option value="" selected>UTC (none chosen)</option>' in page
    refused = admin_browser.post(url, {"display_name": "alice", "time_zone": "Mars/Base"})
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    admin_browser.post(url, {"display_name": "alice", "time_zone": "Europe/Lisbon"})
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Lisbon"


def season_with_a_result(organizer: Any, player: Any, player2: Any) -> Any:
    """A season whose one Event's one match is won by forfeit and recorded."""
    from matches import services as match_services

    season = events.create_season(name="Open", game="super_showdown", by=organizer)
    event = events.create_event(name="Duel", game="super_showdown", format="round_robin",
                                by=organizer, season=season)
    for user in (player, player2):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    link = event.event_matches.get()
    match_services.forfeit_seat(match=link.match, seat=1)
    events.record_match_result(match=link.match)
    return season


def test_a_season_scoring_changed_in_the_admin_rescores_its_table(
        admin_browser: Client, organizer: Any, player: Any, player2: Any) -> None:
    from league.models import SeasonStanding

    season = season_with_a_result(organizer, player, player2)
    data = {"name": "Open", "game": "super_showdown", "organizers": [organizer.pk],
            "scoring": '{"win": 10, "draw": 1, "loss": 0}', "starts_on": "", "ends_on": ""}
    admin_browser.post(f"/admin/league/season/{season.pk}/change/", data)
    top = SeasonStanding.objects.get(season=season, rank=1)
    assert (top.wins, top.points) == (1, 10.0)


def test_a_result_recorded_as_the_scoring_changes_counts_by_the_new_scoring(
        organizer: Any, player: Any, player2: Any) -> None:
    """A result's refresh read the season (and its scoring) before it took the season's
    lock, so a scoring saved meanwhile was written over with the old one."""
    from league import projections
    from league.models import Season, SeasonStanding

    season = season_with_a_result(organizer, player, player2)
    stale = Season.objects.get(pk=season.pk)  # as the result's refresh read it
    Season.objects.filter(pk=season.pk).update(scoring={"win": 10, "draw": 1, "loss": 0})
    projections.refresh_season(stale)
    top = SeasonStanding.objects.get(season=season, rank=1)
    assert (top.wins, top.points) == (1, 10.0)


def test_a_season_renamed_in_the_admin_keeps_what_was_saved_meanwhile(
        admin_browser: Client, organizer: Any) -> None:
    """The admin read the row when the POST came and saved it whole: an end date and a
    scoring another admin saved before that save were undone."""
    from league.models import Season

    season = events.create_season(name="Open", game="super_showdown", by=organizer)
    changed: list[int] = []

    def change_meanwhile(sender: Any, instance: Season, **kwargs: Any) -> None:
        if not changed:  # as another request would, between the admin's read and write
            changed.append(instance.pk)
            Season.objects.filter(pk=instance.pk).update(
                ends_on="2027-06-30", scoring={"win": 2, "draw": 1, "loss": 0})

    scoring = '{"win": 3, "draw": 1, "loss": 0}'
    # (the form sends the scoring it showed in a hidden input too, a callable default's)
    data = {"name": "Summer", "game": "super_showdown", "organizers": [organizer.pk],
            "scoring": scoring, "initial-scoring": scoring, "starts_on": "", "ends_on": ""}
    pre_save.connect(change_meanwhile, sender=Season)
    try:
        response = admin_browser.post(f"/admin/league/season/{season.pk}/change/", data)
    finally:
        pre_save.disconnect(change_meanwhile, sender=Season)
    assert response.status_code == 302 and changed == [season.pk]
    season.refresh_from_db()
    assert season.name == "Summer" and str(season.ends_on) == "2027-06-30"
    assert season.scoring == {"win": 2, "draw": 1, "loss": 0}


def test_only_superusers_see_api_tokens(staff_with: Any, player: Any) -> None:
    from rest_framework.authtoken.models import Token

    Token.objects.get_or_create(user=player)
    _, client = staff_with("token-viewer", "view_tokenproxy")
    assert client.get("/admin/authtoken/tokenproxy/").status_code == 403


def test_the_event_admin_shows_secret_decks_as_the_api_does(
        django_user_model: Any, organizer: Any) -> None:
    """The match admin hid a live match's decks from staff who are not superusers while
    the Event admin showed the same decks to any staff: now one rule, the API's."""
    from django.contrib.auth.models import Permission

    from engine.games.supershow.cards import CATALOG

    ox, mira = CATALOG.competitors["ox_valdane"], CATALOG.competitors["mira_quickstep"]
    decks = [[c.key for c in mira.deck[:27]] + [c.key for c in ox.deck[27:]],
             [c.key for c in ox.deck[:27]] + [c.key for c in mira.deck[27:]]]
    event = events.create_event(name="Deck night", game="supershow", format="round_robin",
                                by=organizer, match_options={"decks": decks})
    watcher, staff = (django_user_model.objects.create_user(name, password="x-pass-12345")
                      for name in ("deck-watch", "deck-staff"))
    events.add_entrant(event=event, by=organizer, player=staff.username)
    for user in (watcher, staff):  # made staff, one of them once entered
        django_user_model.objects.filter(pk=user.pk).update(is_staff=True)
        user.user_permissions.add(*Permission.objects.filter(codename="view_event"))
    browser = Client()
    browser.force_login(watcher)
    url = f"/admin/league/event/{event.pk}/change/"
    assert decks[1][0] in browser.get(url).content.decode()  # staff, not playing
    browser.force_login(staff)
    page = browser.get(url).content.decode()
    assert decks[1][0] not in page and "hidden" in page
    for probe in (f"match_options__decks__1__0={decks[1][0]}", "match_options__has_key=decks",
                  "match_options__contains=%7B%7D"):  # a card at a time, through the list
        assert browser.get(f"/admin/league/event/?{probe}").status_code == 400, probe
    assert browser.get("/admin/league/event/?status=running").status_code == 200
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    assert decks[1][0] in browser.get(url).content.decode()


def test_a_member_of_an_entered_team_cannot_be_deleted(
        admin_browser: Client, cup: Event, organizer: Any, player: Any) -> None:
    """Deleting the member's player or user took them off the team, which an entered team
    may not change (a team left with no member broke its next match: a 500)."""
    team = events.create_team(name="Reds", members=[player.username], by=organizer)
    events.add_entrant(event=cup, by=organizer, team="Reds")
    alice = Player.objects.get(user=player)
    for url in (f"/admin/league/player/{alice.pk}/delete/",
                f"/admin/auth/user/{player.pk}/delete/"):
        assert "a member of Reds, entered in Cup" in admin_browser.get(url).content.decode()
        admin_browser.post(url, {"post": "yes"})
    bulk = admin_browser.post("/admin/league/player/", {
        "action": "delete_selected", "_selected_action": [alice.pk], "post": "yes"})
    assert bulk.status_code == 200 and "a member of Reds" in bulk.content.decode()
    assert list(team.members.all()) == [alice]
    events.start_event(event=cup, by=organizer)  # the team still takes its seat


def test_staff_who_may_change_users_cannot_make_a_superuser_or_change_one(
        django_user_model: Any, staff_with: Any, player: Any) -> None:
    """Only superusers read API keys, live hidden cards and secret decks: a staff member
    given the right to change users could tick `is_superuser` on their own row (or grant
    themselves any permission, or set a superuser's password) and read them all."""
    from django.contrib.auth.models import Permission

    root = django_user_model.objects.create_superuser("league-root", password="x-admin-pass-2")
    staff, client = staff_with("people-staff", "view_user", "change_user")
    form = {"username": "people-staff", "is_active": "on", "is_staff": "on",
            "is_superuser": "on", "user_permissions": [p.pk for p in Permission.objects.all()],
            "last_login_0": "", "last_login_1": "", "date_joined_0": "2026-01-01",
            "date_joined_1": "10:00:00"}
    page = client.get(f"/admin/auth/user/{staff.pk}/change/").content.decode()
    assert 'name="is_superuser"' not in page and 'name="user_permissions"' not in page
    client.post(f"/admin/auth/user/{staff.pk}/change/", form)
    staff.refresh_from_db()
    assert not staff.is_superuser and staff.user_permissions.count() == 2
    renamed = client.post(f"/admin/auth/user/{root.pk}/change/",
                          {**form, "username": "renamed-root"})
    assert renamed.status_code == 403
    answer = client.post(f"/admin/auth/user/{root.pk}/password/",
                         {"password1": "taken-Over-77", "password2": "taken-Over-77"})
    assert answer.status_code == 403
    root.refresh_from_db()
    assert root.username == "league-root" and not root.check_password("taken-Over-77")
    # A player's row is theirs to change, as before.
    player_form = {**form, "username": "alice", "is_staff": "", "user_permissions": []}
    assert client.post(f"/admin/auth/user/{player.pk}/change/",
                       player_form).status_code == 302


def test_staff_who_may_change_users_neither_make_a_player_staff_nor_delete_staff(
        django_user_model: Any, staff_with: Any, player: Any, organizer: Any) -> None:
    """Staff are every Event's organizers, and another staff account is a superuser's
    (`_in_hand`): a staff member who may change users ticked a player's staff flag (the
    player then organized every Event, out of their hands), and deleted another staff
    account. The admin says why; a superuser does both."""

    _, client = staff_with("desk", "view_user", "change_user", "delete_user")
    page = client.get(f"/admin/auth/user/{player.pk}/change/").content.decode()
    assert 'name="is_staff"' not in page
    assert "Staff status, superuser status, groups and permissions are set by a " \
           "superuser: staff organize every Event." in page
    form = {"username": "alice", "is_active": "on", "is_staff": "on", "last_login_0": "",
            "last_login_1": "", "date_joined_0": "2026-01-01", "date_joined_1": "10:00:00"}
    assert client.post(f"/admin/auth/user/{player.pk}/change/", form).status_code == 302
    player.refresh_from_db()
    assert not player.is_staff

    assert client.post(f"/admin/auth/user/{organizer.pk}/delete/",
                       {"post": "yes"}).status_code == 403
    bulk = client.post("/admin/auth/user/", {"action": "delete_selected", "post": "yes",
                                             "_selected_action": [organizer.pk]})
    assert bulk.status_code == 200
    assert "organizer: a staff account, which only a superuser deletes" in \
           bulk.content.decode()
    assert django_user_model.objects.filter(pk=organizer.pk).exists()

    root = django_user_model.objects.create_superuser("root", password="x-admin-pass-2")
    client.force_login(root)
    assert client.post(f"/admin/auth/user/{player.pk}/change/", form).status_code == 302
    player.refresh_from_db()
    assert player.is_staff
    assert client.post(f"/admin/auth/user/{organizer.pk}/delete/",
                       {"post": "yes"}).status_code == 302
    assert not django_user_model.objects.filter(pk=organizer.pk).exists()


@pytest.mark.django_db
def test_staff_who_may_change_groups_cannot_grant_their_group_a_permission(
        django_user_model: Any) -> None:
    """A group's permissions are its members': staff given the right to change groups
    could grant their own group the right to change users, and so on."""
    from django.contrib.auth.models import Group, Permission

    crew = Group.objects.create(name="Crew")
    crew.permissions.add(*Permission.objects.filter(codename__in=["view_group",
                                                                  "change_group"]))
    staff = django_user_model.objects.create_user("group-staff", password="x-pass-12345",
                                                  is_staff=True)
    staff.groups.add(crew)
    client = Client()
    client.force_login(staff)
    page = client.get(f"/admin/auth/group/{crew.pk}/change/").content.decode()
    assert 'name="permissions"' not in page
    every = [p.pk for p in Permission.objects.all()]
    answer = client.post(f"/admin/auth/group/{crew.pk}/change/",
                         {"name": "Crew renamed", "permissions": every})
    assert answer.status_code == 302  # the name is theirs to change
    crew.refresh_from_db()
    assert crew.name == "Crew renamed" and crew.permissions.count() == 2
    root = django_user_model.objects.create_superuser("group-root", password="x-admin-pass-2")
    client.force_login(root)
    client.post(f"/admin/auth/group/{crew.pk}/change/", {"name": "Crew", "permissions": every})
    assert crew.permissions.count() == len(every)


def test_an_address_given_in_the_admin_is_stored_with_its_domain_in_ascii(
        admin_browser: Client, player: Any) -> None:
    """As the site stores every address (league.services.normalized_email): reset links
    and their counts find it by either spelling of its domain."""
    form = {"username": "alice", "email": "alice@Bücher.example", "is_active": "on",
            "last_login_0": "", "last_login_1": "", "date_joined_0": "2026-01-01",
            "date_joined_1": "10:00:00"}
    assert admin_browser.post(f"/admin/auth/user/{player.pk}/change/", form).status_code == 302
    player.refresh_from_db()
    assert player.email == "alice@xn--bcher-kva.example"


def test_a_player_saved_in_the_admin_keeps_a_link_mailed_meanwhile_mailed(
        admin_browser: Client, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The admin read the row when the POST came and saved it whole: a confirmation link
    the sweep mailed before that save was owed again, and mailed a second time."""
    monkeypatch.setattr(queue, "enqueue", lambda task, *args: None)  # the task lost
    with override_settings(RESET_BY_MAIL=True, SITE_URL="https://league.example.org"):
        set_email(player, "alice@example.org", password=PASSWORD)
        alice = Player.objects.get(user=player)
        mailed: list[bool] = []

        def sweep_meanwhile(sender: Any, instance: Player, **kwargs: Any) -> None:
            if not mailed:  # as the sweep would, between the admin's read and write
                mailed.append(mail_email_confirmation(instance.user_id))

        data = {"display_name": "Alice A.", "time_zone": "", "pending_email": alice.pending_email}
        pre_save.connect(sweep_meanwhile, sender=Player)
        try:
            response = admin_browser.post(f"/admin/league/player/{alice.pk}/change/", data)
        finally:
            pre_save.disconnect(sweep_meanwhile, sender=Player)
        assert response.status_code == 302 and mailed == [True]
        alice.refresh_from_db()
        assert (alice.display_name, alice.confirm_site) == ("Alice A.", "")
        assert mail_email_confirmations() == 0
    assert [sent.to for sent in mail.outbox] == [["alice@example.org"]]
