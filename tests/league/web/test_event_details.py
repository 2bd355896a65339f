"""When an Event starts and its notes for the players: set at creation or later by its
organizers (service, API, dashboard and organizer page), each change a record in its
stream, shown on its page and in the lobby's open Events."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league import events
from league.events import LeagueError
from league.models import Event, EventRecord, Player, Season

pytestmark = pytest.mark.django_db

GAME = "super_showdown"
HTMX = {"HTTP_HX_REQUEST": "true"}
THURSDAY = datetime(2037, 12, 10, 18, 30, tzinfo=UTC)


def records(event: Event) -> list[tuple[str, dict[str, Any]]]:
    return [(r.kind, r.payload) for r in EventRecord.objects.filter(event=event)
            .order_by("seq")]


def test_details_are_set_kept_and_recorded_once_each_change(cup: Event, sam: Any) -> None:
    events.set_details(event=cup, by=sam, starts_at=THURSDAY, notes="  Back room.\nBring dice. ")
    cup.refresh_from_db()
    assert (cup.starts_at, cup.notes) == (THURSDAY, "Back room.\nBring dice.")
    events.set_details(event=cup, by=sam, notes="Back room.\nBring dice.")  # the same
    events.set_details(event=cup, by=sam, notes="Front room.")  # the time is kept
    cup.refresh_from_db()
    assert (cup.starts_at, cup.notes) == (THURSDAY, "Front room.")
    events.set_details(event=cup, by=sam, starts_at=None)
    details = [payload for kind, payload in records(cup) if kind == "details_changed"]
    assert details == [
        {"starts_at": "2037-12-10T18:30:00+00:00", "notes": "Back room.\nBring dice."},
        {"starts_at": "2037-12-10T18:30:00+00:00", "notes": "Front room."},
        {"starts_at": None, "notes": "Front room."}]


def test_bad_notes_and_outsiders_are_refused_with_nothing_written(
        cup: Event, sam: Any, outsider: Any) -> None:
    before = records(cup)
    for notes, code in (("x" * 1001, "bad_notes"), ("one\x1b[2Jtwo", "bad_notes")):
        with pytest.raises(LeagueError) as refused:
            events.set_details(event=cup, by=sam, notes=notes)
        assert refused.value.code == code
    with pytest.raises(LeagueError) as refused:
        events.set_details(event=cup, by=outsider, notes="Mine now.")
    assert refused.value.status == 403
    assert records(cup) == before and Event.objects.get(pk=cup.pk).notes == ""


def test_only_a_details_change_makes_a_details_form_stale(cup: Event, sam: Any) -> None:
    read = cup.seq
    events.add_entrant(event=cup, by=sam, bot="random", name="Late bot")
    events.set_details(event=cup, by=sam, notes="Doors at six.", expected_seq=read)
    with pytest.raises(LeagueError) as refused:
        events.set_details(event=cup, by=sam, notes="Doors at seven.", expected_seq=read)
    assert refused.value.code == "stale_seq"


def test_the_api_creates_an_event_with_details_and_changes_them(
        season: Season, sam: Any, outsider: Any) -> None:
    api = APIClient()
    api.force_authenticate(sam)
    made = api.post("/api/events/", {"name": "Night", "game": GAME, "format": "swiss",
                                     "season": season.pk, "starts_at": "2037-12-10T19:30+01:00",
                                     "notes": "Upstairs."}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["starts_at"], body["notes"]) == ("2037-12-10T18:30:00Z", "Upstairs.")
    url = f"/api/events/{body['id']}/details/"
    changed = api.post(url, {"notes": "Downstairs.", "expected_seq": body["seq"]},
                       format="json").json()
    assert (changed["starts_at"], changed["notes"]) == ("2037-12-10T18:30:00Z", "Downstairs.")
    long = api.post(url, {"notes": "x" * 1001}, format="json")
    assert (long.status_code, long.json()["code"]) == (400, "bad_notes")
    stranger = APIClient()
    stranger.force_authenticate(outsider)
    assert stranger.post(url, {"notes": "Hi."}, format="json").status_code == 403
    assert stranger.get(f"/api/events/{body['id']}/").json()["notes"] == "Downstairs."


def test_the_organizer_page_reads_the_time_in_utc_as_the_script_sends_it(
        cup: Event, sam_client: Client) -> None:
    url = reverse("league:event_details", args=[cup.pk])
    panel = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    assert 'id="details-starts-at"' in panel and "data-local-input" in panel
    # Typed 19:30 in a zone an hour ahead of UTC; the script adds the moment in UTC.
    answer = sam_client.post(url, {"seq": cup.seq, "starts_at": "2037-12-10T19:30",
                                   "starts_at_utc": "2037-12-10T18:30:00.000Z",
                                   "notes": "Bring <b>dice</b>."}, **HTMX)
    assert answer.status_code == 200 and 'role="alert"' not in answer.content.decode()
    cup.refresh_from_db()
    assert (cup.starts_at, cup.notes) == (THURSDAY, "Bring <b>dice</b>.")
    shown = answer.content.decode()
    assert 'value="2037-12-10T18:30" data-utc="2037-12-10T18:30:00+00:00"' in shown
    # Without the script, the time typed counts as UTC.
    sam_client.post(url, {"seq": cup.seq, "starts_at": "2037-12-11T20:00", "notes": ""},
                    **HTMX)
    cup.refresh_from_db()
    assert (cup.starts_at, cup.notes) == (datetime(2037, 12, 11, 20, 0, tzinfo=UTC), "")


def test_a_refused_details_form_comes_back_as_typed(cup: Event, sam_client: Client) -> None:
    answer = sam_client.post(reverse("league:event_details", args=[cup.pk]), {
        "seq": cup.seq, "starts_at": "2037-12-10T19:30", "notes": "y" * 1001}, **HTMX)
    text = answer.content.decode()
    assert 'role="alert"' in text and "Notes for the players" in text
    assert 'value="2037-12-10T19:30"' in text and "y" * 1001 in text
    assert Event.objects.get(pk=cup.pk).notes == ""


SAVED = "Saved: the Event's page shows these notes, and no start time."


def test_a_save_says_it_was_saved_on_the_page_and_to_a_screen_reader(
        cup: Event, sam_client: Client) -> None:
    """The answer shows the same time and notes as were typed: without a word, an
    organizer on a phone (or hearing the page) cannot tell the save from a tap missed."""
    url = reverse("league:event_details", args=[cup.pk])
    page = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    region = '<div id="panel-announce" class="visually-hidden" role="status"></div>'
    assert page.count(region) == 1 and page.index(region) < page.index('id="event-panel"')
    assert SAVED.replace("'", "&#x27;") not in page
    answer = sam_client.post(url, {"seq": cup.seq, "starts_at": "", "notes": "Room 2"},
                             **HTMX).content.decode()
    said = SAVED.replace("'", "&#x27;")
    assert f'<p class="muted small">{said}</p>' in answer
    assert f'<div id="panel-announce" hx-swap-oob="innerHTML">{said}</div>' in answer
    cup.refresh_from_db()
    refused = sam_client.post(url, {"seq": cup.seq, "starts_at": "", "notes": "y" * 1001},
                              **HTMX).content.decode()
    assert said not in refused and 'role="alert"' in refused
    # Without scripts the page comes back with the word as a status message.
    back = sam_client.post(url, {"seq": cup.seq, "starts_at": "", "notes": "Room 3"})
    page = sam_client.get(back["Location"]).content.decode()
    assert f'<div class="msg msg-success" data-announce>{said}</div>' in page


@pytest.mark.parametrize(("starts_at", "notes", "shown"), [
    ("2037-12-10T19:30", "Room 2", "this time and these notes"),
    ("2037-12-10T19:30", "", "this time, and no notes"),
    ("", "Room 2", "these notes, and no start time"),
    ("", "", "neither a start time nor notes"),
])
def test_a_save_says_what_the_event_page_now_shows(
        cup: Event, sam_client: Client, starts_at: str, notes: str, shown: str) -> None:
    """Notes saved with no time said the page showed "this time and these notes"."""
    answer = sam_client.post(reverse("league:event_details", args=[cup.pk]), {
        "seq": cup.seq, "starts_at": starts_at, "notes": notes}, **HTMX).content.decode()
    assert f"Saved: the Event&#x27;s page shows {shown}.</p>" in answer


def test_the_event_page_and_the_lobby_show_them_escaped(
        make_event: Any, sam: Any, alice_client: Client) -> None:
    later = make_event(name="Later night", open_entry=True,
                       starts_at=datetime(2037, 12, 17, 18, 0, tzinfo=UTC))
    sooner = make_event(name="Sooner night", open_entry=True, starts_at=THURSDAY,
                        notes="Room <2>.\nBring dice.")
    unsaid = make_event(name="Some night", open_entry=True)
    page = alice_client.get(reverse("league:event", args=[sooner.pk])).content.decode()
    assert '<time datetime="2037-12-10T18:30:00+00:00" data-local>Thu 10 Dec 2037, 18:30 UTC' \
        in page
    assert "Room &lt;2&gt;.<br>Bring dice." in page
    assert 'id="details"' not in alice_client.get(
        reverse("league:event", args=[unsaid.pk])).content.decode()
    lobby = alice_client.get(reverse("lobby")).content.decode()
    order = [lobby.index(event.name) for event in (sooner, later, unsaid)]
    assert order == sorted(order)
    assert 'datetime="2037-12-17T18:00:00+00:00"' in lobby


def new_event(season: Season, name: str, **fields: str) -> dict[str, str]:
    """The dashboard's New Event form as posted: a Swiss Event of the season named `name`,
    with `fields` (starts_at, notes...) beside."""
    return {"event-name": name, "event-season": str(season.pk), "event-game": GAME,
            "event-format": "swiss", "event-format_options": "{}",
            "event-match_options": "{}", "event-turn_deadline_minutes": "",
            "event-deadline_policy": "bot", "event-deadline_bot": "heuristic",
            **{f"event-{field}": value for field, value in fields.items()}}


def test_a_new_event_from_the_dashboard_takes_them_and_new_like_this_keeps_the_notes(
        season: Season, sam_client: Client) -> None:
    data = new_event(season, "Friday", starts_at="2037-12-11T20:00",
                     starts_at_utc="2037-12-11T19:00:00.000Z", notes="Club room.")
    assert sam_client.post(reverse("league:event_create"), data).status_code == 302
    made = Event.objects.get(name="Friday")
    assert (made.starts_at, made.notes) == (datetime(2037, 12, 11, 19, 0, tzinfo=UTC),
                                            "Club room.")
    like = sam_client.get(reverse("league:dashboard") + f"?like={made.pk}").content.decode()
    assert "Club room.</textarea>" in like


def test_a_player_adds_the_event_to_their_calendar(cup: Event, sam: Any,
                                                   alice_client: Client) -> None:
    import icalendar

    url = reverse("league:event_calendar", args=[cup.pk])
    assert alice_client.get(url).status_code == 404  # no time said yet
    events.set_details(event=cup, by=sam, starts_at=THURSDAY, notes="Back room.")
    page = alice_client.get(reverse("league:event", args=[cup.pk])).content.decode()
    assert f'href="{url}" download>Add to your calendar</a>' in page
    answer = alice_client.get(url)
    assert answer["Content-Type"] == "text/calendar; charset=utf-8"
    (entry,) = icalendar.Calendar.from_ical(answer.content).walk("VEVENT")
    assert entry.decoded("dtstart") == THURSDAY and str(entry["summary"]) == "Cup"
    page_url = f"http://testserver{reverse('league:event', args=[cup.pk])}"
    assert str(entry["description"]) == f"Back room.\n\n{page_url}"
    first = (str(entry["uid"]), int(entry["sequence"]))
    events.set_details(event=cup, by=sam, starts_at=datetime(2037, 12, 11, 18, 0, tzinfo=UTC))
    (moved,) = icalendar.Calendar.from_ical(alice_client.get(url).content).walk("VEVENT")
    assert (str(moved["uid"]), int(moved["sequence"])) == (first[0], first[1] + 1)
    assert Client().get(url).status_code == 302  # to the login


def test_the_calendar_entry_lasts_the_documented_length(cup: Event, sam: Any,
                                                       alice_client: Client) -> None:
    """Without DTEND or DURATION a timed VEVENT ends where it starts (RFC 5545, 3.6.1)."""
    import icalendar

    from league.calendar import LENGTH

    events.set_details(event=cup, by=sam, starts_at=THURSDAY)
    answer = alice_client.get(reverse("league:event_calendar", args=[cup.pk])).content
    (entry,) = icalendar.Calendar.from_ical(answer).walk("VEVENT")
    assert entry.decoded("duration") == LENGTH == timedelta(hours=3)
    assert "dtend" not in entry  # one of the two, never both (RFC 5545, 3.6.1)


def test_a_head_request_for_the_calendar_answers_as_a_get_does(cup: Event, sam: Any,
                                                               alice_client: Client) -> None:
    """A calendar that subscribed asks with HEAD whether the file changed: it got 405."""
    url = reverse("league:event_calendar", args=[cup.pk])
    assert alice_client.head(url).status_code == 404  # no time said yet, as GET says
    events.set_details(event=cup, by=sam, starts_at=THURSDAY)
    got, head = alice_client.get(url), alice_client.head(url)
    assert head.status_code == got.status_code == 200
    assert head["Content-Type"] == got["Content-Type"] == "text/calendar; charset=utf-8"
    assert head["Content-Disposition"] == got["Content-Disposition"]
    assert head.content == b"" and got.content


def test_a_cleared_time_cancels_the_calendar_entry(cup: Event, sam: Any,
                                                   alice_client: Client) -> None:
    """A calendar that imported the Event finds the same entry, one change later,
    cancelled at its last time, and why; not a 404."""
    import icalendar

    url = reverse("league:event_calendar", args=[cup.pk])
    events.set_details(event=cup, by=sam, starts_at=THURSDAY, notes="Back room.")
    (before,) = icalendar.Calendar.from_ical(alice_client.get(url).content).walk("VEVENT")
    events.set_details(event=cup, by=sam, starts_at=None)
    answer = alice_client.get(url)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/calendar; charset=utf-8"
    (entry,) = icalendar.Calendar.from_ical(answer.content).walk("VEVENT")
    assert str(entry["uid"]) == str(before["uid"])
    assert int(entry["sequence"]) == int(before["sequence"]) + 1
    assert str(entry["status"]) == "CANCELLED" and entry.decoded("dtstart") == THURSDAY
    assert str(entry["description"]).startswith("The organizers no longer say when")
    assert "Add to your calendar" not in alice_client.get(
        reverse("league:event", args=[cup.pk])).content.decode()


def test_an_odd_event_name_reaches_the_calendar_file_and_the_reminder_on_one_line(
        cup: Event, sam: Any, alice_client: Client, player: Any) -> None:
    """An Event's name takes any character (its notes are checked): a line break other
    than CR or LF, or an escape sequence, reached the file's SUMMARY as it was, which
    RFC 5545 refuses and a reader splitting lines there reads as a property of its own,
    and control characters reached the mail's subject. Commas and semicolons are
    escaped."""
    import unicodedata

    import icalendar
    from django.core import mail
    from django.test import override_settings

    from league.event_mail import mail_event_reminders

    name = "Cup; round 1, night\x85LOCATION:Elsewhere\u2028\x1b[2J\rBcc: x@example.org"
    Event.objects.filter(pk=cup.pk).update(name=name)  # as the admin or the API take it
    events.set_details(event=cup, by=sam, starts_at=datetime.now(UTC) + timedelta(hours=1),
                       notes="Back room; bring dice, cards.")
    answer = alice_client.get(reverse("league:event_calendar", args=[cup.pk])).content
    lines = answer.decode().split("\r\n")
    assert not [line for line in lines
                if any(unicodedata.category(ch) in {"Cc", "Zl", "Zp"} for ch in line)]
    (entry,) = icalendar.Calendar.from_ical(answer).walk("VEVENT")
    assert str(entry["summary"]) == \
        "Cup; round 1, night LOCATION:Elsewhere [2J Bcc: x@example.org"
    assert "LOCATION" not in entry and str(entry["description"]).startswith(
        "Back room; bring dice, cards.")
    player.email = "alice@example.org"
    player.save(update_fields=["email"])
    events.add_entrant(event=cup, by=sam, player="alice")
    assert Player.objects.filter(user=player).update(event_mail=True) == 1
    with override_settings(TURN_MAIL=True, SITE_URL="https://league.example.org"):
        assert mail_event_reminders() == 1
    (sent,) = mail.outbox
    assert sent.subject.startswith("Cup; round 1, night LOCATION:Elsewhere [2J Bcc: ")
    assert not [ch for ch in sent.subject if unicodedata.category(ch) in {"Cc", "Zl", "Zp"}]


def test_a_start_past_the_year_9999_in_utc_is_refused_and_the_event_still_shows(
        cup: Event, sam: Any, sam_client: Client) -> None:
    """23:30 on the last day of 9999 at UTC-5 is in the year 10000 in UTC, which a
    forged UTC field sent: saving it failed (SQLite), or PostgreSQL stored it and no page
    showing the Event could read it back."""
    url = reverse("league:event_details", args=[cup.pk])
    answer = sam_client.post(url, {"seq": cup.seq, "starts_at": "9999-12-31T23:30",
                                   "starts_at_utc": "9999-12-31T23:30:00-05:00",
                                   "notes": ""}, **HTMX)
    assert 'role="alert"' in answer.content.decode()  # htmx swaps a refusal in as 200
    assert "by the end of the year 9999" in answer.content.decode()
    assert Event.objects.get(pk=cup.pk).starts_at is None
    assert sam_client.get(reverse("league:event", args=[cup.pk])).status_code == 200
    # The last minute of 9999 in UTC is a time like any other.
    last = datetime(9999, 12, 31, 23, 59, tzinfo=UTC)
    events.set_details(event=cup, by=sam, starts_at=last)
    assert Event.objects.get(pk=cup.pk).starts_at == last


def test_a_time_without_an_offset_counts_as_utc_in_the_event_and_its_record(
        cup: Event, sam: Any) -> None:
    events.set_details(event=cup, by=sam, starts_at=datetime(2037, 12, 10, 18, 30))
    events.set_details(event=cup, by=sam, starts_at=datetime(2037, 12, 10, 18, 30))  # same
    cup.refresh_from_db()
    assert cup.starts_at == THURSDAY
    assert [payload["starts_at"] for kind, payload in records(cup)
            if kind == "details_changed"] == ["2037-12-10T18:30:00+00:00"]


def test_notes_as_long_as_a_browser_lets_them_be_typed_are_taken(
        cup: Event, sam_client: Client) -> None:
    """A browser's 1,000 characters count each line break as one, and send it as two."""
    lines = ["x" * 99] * 10
    answer = sam_client.post(reverse("league:event_details", args=[cup.pk]), {
        "seq": cup.seq, "starts_at": "", "notes": "\r\n".join(lines)}, **HTMX)
    assert 'role="alert"' not in answer.content.decode()
    assert Event.objects.get(pk=cup.pk).notes == "\n".join(lines)
    assert 'maxlength="1000"' in sam_client.get(reverse("league:dashboard")).content.decode()


@pytest.mark.parametrize("sent", ["2031-01-01T00:00:00Z", "2037-12-09T18:30:00Z",
                                  "2037-12-11T08:30:00+00:00", "2037-12-10T04:30:00Z",
                                  "tomorrow", "2026-13-40T00:00Z"])
def test_a_utc_field_no_time_zone_gives_from_the_time_typed_is_not_taken(
        cup: Event, sam_client: Client, sent: str) -> None:
    """Typed 19:30: a moment from UTC-12 (the next day 07:30 UTC) to UTC+14 (05:30 UTC)
    is the time typed somewhere; one outside that, or garbage, is not, and the time
    typed counts as UTC, as without scripts."""
    sam_client.post(reverse("league:event_details", args=[cup.pk]), {
        "seq": cup.seq, "starts_at": "2037-12-10T19:30", "starts_at_utc": sent,
        "notes": ""}, **HTMX)
    assert Event.objects.get(pk=cup.pk).starts_at == datetime(2037, 12, 10, 19, 30,
                                                              tzinfo=UTC)


@pytest.mark.parametrize("sent", ["2037-12-11T07:30:00Z", "2037-12-10T05:30:00Z",
                                  "2037-12-10T19:30:00+00:00"])
def test_a_utc_field_of_the_time_typed_in_any_zone_is_taken(
        cup: Event, sam_client: Client, sent: str) -> None:
    sam_client.post(reverse("league:event_details", args=[cup.pk]), {
        "seq": cup.seq, "starts_at": "2037-12-10T19:30", "starts_at_utc": sent,
        "notes": ""}, **HTMX)
    assert Event.objects.get(pk=cup.pk).starts_at == datetime.fromisoformat(sent)


def test_notes_take_the_joiners_of_persian_and_emoji_but_no_invisible_control(
        cup: Event, sam: Any) -> None:
    books = "\u06a9\u062a\u0627\u0628\u200c\u0647\u0627"  # Persian "books", its joiner
    said = f"Bring {books}.\nOur cook: \U0001F469\u200d\U0001F373"
    events.set_details(event=cup, by=sam, notes=said)
    assert Event.objects.get(pk=cup.pk).notes == said
    for hidden in ("Room \u202e2\u202c", "Room\u200b 2", "Room\t2"):
        with pytest.raises(LeagueError) as refused:
            events.set_details(event=cup, by=sam, notes=hidden)
        assert refused.value.code == "bad_notes"


def test_new_event_like_this_offers_next_weeks_start_in_the_organizers_time(
        season: Season, sam: Any, sam_client: Client) -> None:
    """The weekly league night: the form holds the first of the Event's weekly returns
    still to come, with the moment in UTC for league.js to show in the organizer's zone."""
    from django.utils import timezone

    start = timezone.now().replace(microsecond=0, second=0) - timedelta(days=10)
    made = events.create_event(name="Weekly", game=GAME, format="swiss", by=sam,
                               season=season)
    Event.objects.filter(pk=made.pk).update(starts_at=start)  # last week's night, run
    page = sam_client.get(reverse("league:dashboard") + f"?like={made.pk}").content.decode()
    coming = start + timedelta(weeks=2)  # ten days ago and a week on are both past
    field = re.search(r'<input type="datetime-local"[^>]*name="event-starts_at"[^>]*>', page)
    assert field is not None
    assert f'data-utc="{coming.astimezone(UTC).isoformat()}"' in field.group(0)
    assert f'value="{coming.astimezone(UTC):%Y-%m-%dT%H:%M}"' in field.group(0)


def test_a_start_gone_by_is_refused_for_an_event_still_to_start(
        season: Season, sam: Any, cup: Event) -> None:
    """A slip (the wrong day, the wrong half of the day) would remind nobody and list the
    Event first in the lobby: refused, on the API and the organizer's forms alike. A
    start within the hour is taken (the night runs late), and an Event under way or over
    takes any time, as its record."""
    from django.utils import timezone

    api = APIClient()
    api.force_authenticate(sam)
    gone = (timezone.now() - timedelta(hours=2)).isoformat()
    refused = api.post("/api/events/", {"name": "Night", "game": GAME, "format": "swiss",
                                        "season": season.pk, "starts_at": gone}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "starts_in_past")
    assert not Event.objects.filter(name="Night").exists()
    moved = api.post(f"/api/events/{cup.pk}/details/", {"starts_at": gone}, format="json")
    assert (moved.status_code, moved.json()["code"]) == (400, "starts_in_past")
    late = timezone.now() - timedelta(minutes=20)
    events.set_details(event=cup, by=sam, starts_at=late)
    # Its start kept as it is, the notes still change.
    Event.objects.filter(pk=cup.pk).update(starts_at=timezone.now() - timedelta(days=1))
    cup.refresh_from_db()
    events.set_details(event=cup, by=sam, notes="We start when all are here.")
    events.add_entrant(event=cup, by=sam, bot="random")
    events.add_entrant(event=cup, by=sam, bot="random")
    events.start_event(event=cup, by=sam)
    cup.refresh_from_db()
    events.set_details(event=cup, by=sam, starts_at=timezone.now() - timedelta(hours=5))
    assert Event.objects.get(pk=cup.pk).notes == "We start when all are here."


def test_a_time_the_clocks_skip_in_the_organizers_zone_is_refused_beside_the_field(
        cup: Event, sam_client: Client) -> None:
    """01:30 on 29 March 2037 is not a time in London (01:00 is 02:00 that night): a
    browser read it as 02:30, and the Event started an hour from the time typed."""
    answer = sam_client.post(reverse("league:event_details", args=[cup.pk]), {
        "seq": cup.seq, "starts_at": "2037-03-29T01:30", "starts_at_zone": "Europe/London",
        "starts_at_utc": "2037-03-29T01:30:00.000Z", "notes": ""}, **HTMX)
    text = answer.content.decode()
    assert ('<p class="error" id="details-error">Starts at: There is no 01:30 on 29 Mar 2037 '
            "in Europe/London: the clocks go from 01:00 straight to 02:00 that day. Type a "
            "time before or after (nonexistent_time).</p>") in text
    assert 'value="2037-03-29T01:30"' in text
    assert Event.objects.get(pk=cup.pk).starts_at is None


def test_the_dashboard_refuses_a_skipped_time_under_its_field(
        season: Season, sam_client: Client) -> None:
    data = new_event(season, "Spring", starts_at="2037-03-08T02:15",
                     starts_at_zone="America/New_York",
                     starts_at_utc="2037-03-08T07:15:00.000Z", notes="")
    answer = sam_client.post(reverse("league:event_create"), data)
    assert answer.status_code == 400
    field = re.search(r'id="id_event-starts_at_error">(.*?)</div></div>',
                      answer.content.decode(), re.S)
    assert field and "There is no 02:15 on 8 Mar 2037 in America/New York: the clocks go " \
                     "from 02:00 straight to 03:00" in field.group(1)
    assert "(nonexistent_time)" in field.group(1)
    assert not Event.objects.filter(name="Spring").exists()


@pytest.mark.parametrize("sent", ["2037-10-25T00:30:00.000Z", "2037-10-25T01:30:00.000Z"])
def test_a_time_the_clocks_pass_twice_is_the_first_of_the_two(
        cup: Event, sam_client: Client, sent: str) -> None:
    """01:30 on 25 October 2037 comes twice in London (BST, then GMT): the first, as
    browsers read it, whichever moment the script sent."""
    answer = sam_client.post(reverse("league:event_details", args=[cup.pk]), {
        "seq": cup.seq, "starts_at": "2037-10-25T01:30", "starts_at_zone": "Europe/London",
        "starts_at_utc": sent, "notes": ""}, **HTMX)
    assert 'role="alert"' not in answer.content.decode()
    assert Event.objects.get(pk=cup.pk).starts_at == datetime(2037, 10, 25, 0, 30, tzinfo=UTC)


def test_the_time_typed_is_read_in_the_zone_the_script_names(
        cup: Event, sam_client: Client) -> None:
    sam_client.post(reverse("league:event_details", args=[cup.pk]), {
        "seq": cup.seq, "starts_at": "2037-12-10T19:30", "starts_at_zone": "Europe/Paris",
        "notes": ""}, **HTMX)
    assert Event.objects.get(pk=cup.pk).starts_at == THURSDAY
    # A zone the site does not know leaves the moment sent in UTC to say it.
    sam_client.post(reverse("league:event_details", args=[cup.pk]), {
        "seq": Event.objects.get(pk=cup.pk).seq, "starts_at": "2037-12-10T19:30",
        "starts_at_zone": "Mars/Olympus", "starts_at_utc": "2037-12-10T17:30:00.000Z",
        "notes": ""}, **HTMX)
    assert Event.objects.get(pk=cup.pk).starts_at == THURSDAY - timedelta(hours=1)
