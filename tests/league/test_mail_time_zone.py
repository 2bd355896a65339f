"""A player's time zone for mails (league.services.set_time_zone): the reminder, the
turn mail and the moved-Event mail give their times in it; and an Event moved after its
reminders went, beyond the reminders' window or to no time, tells the reminded at once
(league.event_mail.mail_event_moved)."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from league import events
from league.event_mail import mail_event_moved, mail_event_reminders
from league.models import EventMatch, Player, Team
from league.services import (
    AccountError,
    close_user,
    dropped_zone,
    player_for,
    set_time_zone,
    time_zones,
    zone_of,
)
from league.turn_mail import mail_awaited_players

SITE = "https://league.example.org"
GAME = "super_showdown"
PARIS = zoneinfo.ZoneInfo("Europe/Paris")

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("mailing_site")]


@pytest.fixture
def mailing_site() -> Any:
    with override_settings(TURN_MAIL=True, SITE_URL=SITE, EVENT_MAIL_HOURS=3,
                           TURN_MAIL_MINUTES=5):
        yield


def asks(user: Any, zone: str = "", *, on: bool = True) -> Player:
    user.email = f"{user.username}@example.org"
    user.save(update_fields=["email"])
    player = player_for(user)
    player.event_mail = player.turn_mail = on
    player.time_zone = zone
    player.save(update_fields=["event_mail", "turn_mail", "time_zone"])
    return player


def said(moment: datetime, zone: Any) -> str:
    """How the mails' bodies write `moment` in `zone` (l j F Y, H:i e)."""
    local = moment.astimezone(zone)
    return f"{local:%A} {local.day} {local:%B %Y, %H:%M} {zone.key.replace('_', ' ')}"


def body_to(address: str) -> Any:
    (sent,) = [m for m in mail.outbox if m.to == [address]]
    return sent


@pytest.fixture
def night(organizer: Any, player: Any, player2: Any, outsider: Any) -> Any:
    """Starting in two hours: alice (Paris) alone, bruno (UTC) in a team, olga not asking."""
    asks(player, "Europe/Paris")
    asks(player2)
    asks(outsider, on=False)
    event = events.create_event(name="Thursday Night", game=GAME, format="round_robin",
                                by=organizer, starts_at=timezone.now() + timedelta(hours=2))
    team = Team.objects.create(name="Owls")
    team.members.set([player_for(player2)])
    events.add_entrant(event=event, by=organizer, player="alice")
    events.add_entrant(event=event, by=organizer, team="Owls")
    events.add_entrant(event=event, by=organizer, player="olga")
    return event


# -- choosing a zone -------------------------------------------------------------------

def test_a_zone_is_chosen_by_its_place_and_utc_is_the_default(player: Any) -> None:
    mine = player_for(player)
    assert zone_of(mine).key == "UTC"
    assert set_time_zone(mine, " Europe/Paris ").time_zone == "Europe/Paris"
    assert zone_of(Player.objects.get(pk=mine.pk)) == PARIS
    assert set_time_zone(mine, "UTC").time_zone == ""  # UTC is the default, kept as none
    for name in ("Mars/Olympus", "Etc/GMT+5", "localtime", "europe/paris"):
        with pytest.raises(AccountError) as refused:
            set_time_zone(mine, name)
        assert refused.value.code == "unknown_time_zone"
    assert Player.objects.get(pk=mine.pk).time_zone == ""
    # A zone the time zone database dropped since it was chosen reads as UTC, and says so.
    Player.objects.filter(pk=mine.pk).update(time_zone="Gone/Away")
    assert zone_of(Player.objects.get(pk=mine.pk)).key == "UTC"
    assert dropped_zone(Player.objects.get(pk=mine.pk)) == "Gone/Away"
    # UTC kept by its name (as the admin or an older release may have) is no zone dropped.
    for kept in ("UTC", "", "Europe/Paris"):
        Player.objects.filter(pk=mine.pk).update(time_zone=kept)
        assert dropped_zone(Player.objects.get(pk=mine.pk)) == ""
    assert time_zones()[0] == "UTC" and "America/Argentina/Salta" in time_zones()
    assert not [name for name in time_zones() if name.startswith(("Etc/", "posix/"))]


def test_the_account_page_sets_it_in_its_own_card(player: Any) -> None:
    asks(player, on=False)
    client = Client()
    client.force_login(player)
    page = client.get(reverse("account")).content.decode()
    assert '<option value="Europe/Paris">Europe/Paris</option>' in page
    assert '<option value="America/New_York">America/New York</option>' in page
    assert '<option value="UTC" selected>UTC</option>' in page
    assert 'data-zone-from-device="id_time_zone"' in page and "js/league.js" in page
    assert page.index('id="mails"') < page.index('id="time-zone"') < page.index("id_time_zone")
    done = client.post(reverse("account"), {"form": "time_zone", "time_zone": "Asia/Tokyo"})
    assert done.status_code == 302
    assert player_for(player).time_zone == "Asia/Tokyo"
    assert '<option value="Asia/Tokyo" selected>' in client.get(reverse("account")).content.decode()
    # The mail choices, saved apart, keep the zone; a name not listed is refused.
    client.post(reverse("account"), {"form": "turn_mail", "event_mail": "on"})
    row = player_for(player)
    assert (row.event_mail, row.turn_mail, row.time_zone) == (True, False, "Asia/Tokyo")
    refused = client.post(reverse("account"), {"form": "time_zone", "time_zone": "Mars/Base"})
    assert refused.status_code == 400 and player_for(player).time_zone == "Asia/Tokyo"


def test_the_api_reads_and_sets_it_and_a_refusal_changes_nothing(player: Any) -> None:
    asks(player, on=False)
    api = APIClient()
    api.force_authenticate(player)
    assert api.get("/api/auth/me/").json()["time_zone"] == "UTC"
    answer = api.patch("/api/auth/me/", {"time_zone": "America/Sao_Paulo"}, format="json")
    assert answer.status_code == 200 and answer.json()["time_zone"] == "America/Sao_Paulo"
    refused = api.patch("/api/auth/me/", {"time_zone": "Nowhere", "event_mail": True,
                                          "display_name": "Alice B"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_time_zone"
    row = player_for(player)
    assert (row.time_zone, row.event_mail, row.display_name) == (
        "America/Sao_Paulo", False, "alice")
    assert api.patch("/api/auth/me/", {"time_zone": ""},
                     format="json").json()["time_zone"] == "UTC"
    exported = api.get("/api/auth/me/data/").json()
    assert exported["account"]["time_zone"] == "UTC"


def test_a_zone_the_database_dropped_reads_as_utc_and_says_so(night: Any, player: Any) -> None:
    """A zone chosen when the time zone database had it, dropped by a later one: the
    mails give UTC and tell the player why; the account page and the API say UTC is in
    use rather than the name that no longer works."""
    Player.objects.filter(user=player).update(time_zone="Gone/Away")
    assert mail_event_reminders() == 2
    gone, utc = body_to("alice@example.org"), body_to("bruno@example.org")
    assert f"starts {said(night.starts_at, zoneinfo.ZoneInfo('UTC'))}." in gone.body
    assert "the time zone you chose, Gone/Away, is no longer known" in gone.body
    assert "no longer known" not in utc.body
    client = Client()
    client.force_login(player)
    page = client.get(reverse("account")).content.decode()
    assert "Gone/Away, is no longer known" in page
    assert '<option value="UTC" selected>UTC</option>' in page
    api = APIClient()
    api.force_authenticate(player)
    assert api.get("/api/auth/me/").json()["time_zone"] == "UTC"


@override_settings(EVENT_MAIL_HOURS=48, TURN_MAIL_MINUTES=1)
def test_the_mails_say_how_long_before_as_the_site_sets_it(night: Any, move: Any,
                                                          player: Any) -> None:
    """The account page and the moved mail said "a few hours" before an Event (and "a
    few minutes" of waiting) whatever EVENT_MAIL_HOURS (up to 30 days) and
    TURN_MAIL_MINUTES said."""
    client = Client()
    client.force_login(player)
    page = client.get(reverse("account")).content.decode()
    assert "Mail me 48 hours before an Event I am entered in starts" in page
    assert "Mail me when a match has waited 1 minute for my move" in page
    mail_event_reminders()
    mail.outbox.clear()
    move(night, night.starts_at + timedelta(days=5))
    assert "we will mail you again 48 hours before." in body_to("alice@example.org").body
    mail.outbox.clear()
    move(night, None)
    assert "we will mail you once they have, 48 hours before." in body_to(
        "alice@example.org").body


def test_closing_the_account_forgets_it(player: Any) -> None:
    asks(player, "Europe/Paris")
    close_user(player)
    assert player_for(player).time_zone == ""


# -- the times in the mails ------------------------------------------------------------

def test_a_reminder_gives_the_start_in_each_players_zone(night: Any) -> None:
    assert mail_event_reminders() == 2
    paris, utc = body_to("alice@example.org"), body_to("bruno@example.org")
    start = night.starts_at
    assert f"starts {said(start, PARIS)}." in paris.body
    assert f"{start.astimezone(PARIS):%H:%M} Europe/Paris" in paris.subject
    assert f"starts {said(start, zoneinfo.ZoneInfo('UTC'))}." in utc.body
    assert utc.subject.endswith(f"{start:%H:%M} UTC")


def test_a_turn_mail_gives_the_deadline_in_the_players_zone(organizer: Any, player: Any,
                                                             player2: Any) -> None:
    for user in (player, player2):  # the seat awaited first is mailed
        asks(user, "America/New_York")
    event = events.create_event(name="Mail night", game=GAME, format="single_elimination",
                                by=organizer, turn_deadline_minutes=60)
    for user in (player, player2):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    match = EventMatch.objects.get(event=event).match
    assert mail_awaited_players(now=timezone.now() + timedelta(minutes=6)) == 1
    (sent,) = mail.outbox
    at = (match.updated_at + timedelta(minutes=60)).astimezone(
        zoneinfo.ZoneInfo("America/New_York"))
    assert f"passes at {at.day} {at:%b %Y, %H:%M} America/New York." in sent.body


@pytest.mark.parametrize(("zone", "start", "offset"), [
    # The clocks go back: 01:30 in New York comes twice on 7 November 2027, 02:30 in
    # Berlin twice on 31 October 2027; the offset tells which one.
    ("America/New_York", datetime(2027, 11, 7, 5, 30, tzinfo=UTC), "UTC-04:00"),
    ("America/New_York", datetime(2027, 11, 7, 6, 30, tzinfo=UTC), "UTC-05:00"),
    ("Europe/Berlin", datetime(2027, 10, 31, 1, 30, tzinfo=UTC), "UTC+01:00"),
])
def test_a_time_in_the_hour_the_clocks_repeat_says_which(organizer: Any, player: Any,
                                                         zone: str, start: datetime,
                                                         offset: str) -> None:
    asks(player, zone)
    event = events.create_event(name="Fall back", game=GAME, format="round_robin",
                                by=organizer, starts_at=start)
    events.add_entrant(event=event, by=organizer, player="alice")
    assert mail_event_reminders(now=start - timedelta(hours=1)) == 1
    (sent,) = mail.outbox
    said_here = f"{said(start, zoneinfo.ZoneInfo(zone))} ({offset})"
    assert f"starts {said_here}." in sent.body
    assert sent.subject.endswith(f"{zone.replace('_', ' ')} ({offset})")


@pytest.mark.parametrize(("zone", "day"), [
    ("Pacific/Kiritimati", "Saturday 1 January 2028, 00:30"),  # UTC+14: the next day
    ("Pacific/Pago_Pago", "Thursday 30 December 2027, 23:30"),  # UTC-11: the day before
])
def test_near_midnight_the_day_is_the_players_own(organizer: Any, player: Any, zone: str,
                                                  day: str) -> None:
    asks(player, zone)
    start = datetime(2027, 12, 31, 10, 30, tzinfo=UTC)  # Friday 31 December in UTC
    event = events.create_event(name="Year end", game=GAME, format="round_robin",
                                by=organizer, starts_at=start)
    events.add_entrant(event=event, by=organizer, player="alice")
    assert mail_event_reminders(now=start - timedelta(hours=1)) == 1
    (sent,) = mail.outbox
    assert f"starts {day} {zone.replace('_', ' ')}." in sent.body
    assert sent.subject.endswith(f"{day[:3]} {day.split()[1]} {day.split()[2][:3]}, "
                                 f"{day[-5:]} {zone.replace('_', ' ')}")


def test_a_time_the_clocks_give_once_says_no_offset(organizer: Any, player: Any) -> None:
    asks(player, "America/New_York")
    start = datetime(2027, 11, 7, 7, 30, tzinfo=UTC)  # 02:30 EST, the hour after
    event = events.create_event(name="Fall back", game=GAME, format="round_robin",
                                by=organizer, starts_at=start)
    events.add_entrant(event=event, by=organizer, player="alice")
    assert mail_event_reminders(now=start - timedelta(hours=1)) == 1
    (sent,) = mail.outbox
    assert f"starts {said(start, zoneinfo.ZoneInfo('America/New_York'))}." in sent.body
    assert "(UTC" not in sent.body + sent.subject


# -- an Event moved after its reminders -------------------------------------------------

@pytest.fixture
def move(organizer: Any, django_capture_on_commit_callbacks: Any) -> Any:
    """Move an Event as its organizer does, running what its commit queues."""
    def moved(event: Any, start: datetime | None) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            events.set_details(event=event, by=organizer, starts_at=start)
    return moved


def test_moved_beyond_the_window_the_reminded_are_told_once_it_is_stored(
        night: Any, organizer: Any, move: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    from config.celery import app
    from league.tasks import mail_event_moved as task

    mail_event_reminders()
    was = night.starts_at
    mail.outbox.clear()
    later = was + timedelta(days=2)
    with django_capture_on_commit_callbacks() as queued:
        events.set_details(event=night, by=organizer, starts_at=later)
    assert not mail.outbox and len(queued) == 1  # nothing goes before the move commits
    queued[0]()
    app.loader.import_default_modules()
    assert task.name in app.tasks
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bruno@example.org"]
    paris = body_to("alice@example.org")
    assert f"no longer starts {said(was, PARIS)}." in paris.body
    assert f"It now starts {said(later, PARIS)}" in paris.body
    local = later.astimezone(PARIS)
    assert paris.subject == (f"Thursday Night moved to {local:%a} {local.day} "
                             f"{local:%b, %H:%M} Europe/Paris")
    assert f"{SITE}/league/events/{night.pk}/calendar.ics" in paris.body
    # The new time is reminded of when it comes near, as any.
    mail.outbox.clear()
    assert mail_event_reminders() == 0
    assert mail_event_reminders(now=later - timedelta(hours=1)) == 2


def test_moved_to_no_time_they_are_told_it_has_none(night: Any, move: Any) -> None:
    mail_event_reminders()
    was = night.starts_at
    mail.outbox.clear()
    move(night, None)
    assert len(mail.outbox) == 2
    sent = body_to("bruno@example.org")
    assert sent.subject == (f"Thursday Night no longer starts {was:%a} {was.day} "
                            f"{was:%b, %H:%M} UTC")
    assert "Its organizers have not said when it starts now" in sent.body
    assert "calendar.ics" not in sent.body  # the file is gone with the time


def test_nobody_is_told_of_a_move_the_next_reminder_covers_or_who_was_not_reminded(
        night: Any, organizer: Any, move: Any, django_user_model: Any) -> None:
    # Not reminded yet: a move tells nobody (the reminder gives the time when it comes).
    move(night, night.starts_at + timedelta(days=1))
    assert not mail.outbox
    move(night, timezone.now() + timedelta(hours=2))
    assert mail_event_reminders() == 2
    mail.outbox.clear()
    # Within the window: the next sweep's reminder tells of it, once.
    move(night, timezone.now() + timedelta(hours=1))
    assert not mail.outbox
    assert mail_event_reminders() == 2
    mail.outbox.clear()
    # An entry made after the reminders went was never told a time: not told of the move.
    asks(django_user_model.objects.create_user("dora", password="pw-x-99812"))
    events.add_entrant(event=night, by=organizer, player="dora")
    move(night, timezone.now() + timedelta(days=3))
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bruno@example.org"]


def test_moved_to_a_time_gone_by_they_are_told_with_no_reminder_promised(
        night: Any, move: Any) -> None:
    """An Event still to start may be set up to an hour back (its organizers start it
    late): no reminder comes for a time gone by, so the moved mail tells of it, promising
    none."""
    mail_event_reminders()
    was = night.starts_at
    mail.outbox.clear()
    late = timezone.now() - timedelta(minutes=20)
    move(night, late)
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bruno@example.org"]
    paris = body_to("alice@example.org")
    assert f"no longer starts {said(was, PARIS)}." in paris.body
    assert f"It now starts {said(late, PARIS)}." in paris.body
    assert "we will mail you again" not in paris.body
    assert mail_event_reminders() == 0


def test_a_move_since_or_a_start_since_sends_nothing(night: Any, organizer: Any,
                                                     move: Any) -> None:
    mail_event_reminders()
    mail.outbox.clear()
    # A mail queued for a time the Event has left again: the later move tells its own.
    assert mail_event_moved(night.pk, (night.starts_at + timedelta(days=9)).isoformat()) == 0
    events.add_entrant(event=night, by=organizer, bot="random")
    events.start_event(event=night, by=organizer)
    night.refresh_from_db()
    move(night, None)
    assert mail_event_moved(night.pk, None) == 0
    assert not mail.outbox


def test_moved_away_and_back_to_the_time_reminded_of_they_are_reminded_again(
        night: Any, move: Any) -> None:
    # The moved mail said "we will mail you again EVENT_MAIL_HOURS hours before": moved back to the
    # time they were first reminded of, they are, not left believing the later time.
    mail_event_reminders()
    first = night.starts_at
    move(night, first + timedelta(days=2))
    assert len(mail.outbox) == 4
    mail.outbox.clear()
    move(night, first)
    assert mail_event_reminders() == 2
    assert f"starts {said(first, PARIS)}." in body_to("alice@example.org").body


def test_the_time_cleared_then_set_back_they_are_mailed_as_promised(night: Any,
                                                                   move: Any) -> None:
    # "We will mail you once they have, EVENT_MAIL_HOURS hours before."
    mail_event_reminders()
    first = night.starts_at
    move(night, None)
    mail.outbox.clear()
    move(night, first)
    assert mail_event_reminders() == 2


def test_the_mail_names_the_time_they_were_told_not_one_they_never_heard(
        night: Any, organizer: Any, move: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    mail_event_reminders()
    first = night.starts_at
    mail.outbox.clear()
    # Moved twice before the first move's mail went: one mail, from the time they knew.
    with django_capture_on_commit_callbacks() as queued:
        events.set_details(event=night, by=organizer, starts_at=first + timedelta(days=1))
    with django_capture_on_commit_callbacks() as queued_too:
        events.set_details(event=night, by=organizer, starts_at=first + timedelta(days=2))
    for run in (*queued, *queued_too):
        run()
    assert len(mail.outbox) == 2
    paris = body_to("alice@example.org")
    assert f"no longer starts {said(first, PARIS)}." in paris.body
    assert f"It now starts {said(first + timedelta(days=2), PARIS)}" in paris.body
    mail.outbox.clear()
    # Moved within the window (the next sweep's to tell), then beyond it before that sweep.
    near = timezone.now() + timedelta(hours=2, minutes=30)
    move(night, near)
    assert mail_event_reminders() == 2
    mail.outbox.clear()
    move(night, near - timedelta(minutes=10))
    move(night, near + timedelta(days=4))
    assert f"no longer starts {said(near, PARIS)}." in body_to("alice@example.org").body
    mail.outbox.clear()
    # Told of a time by the moved mail, then moved again: told from that time.
    move(night, near + timedelta(days=5))
    assert f"no longer starts {said(near + timedelta(days=4), PARIS)}." in body_to(
        "alice@example.org").body
