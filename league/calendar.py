"""An Event's start as an iCalendar file (RFC 5545, by the icalendar package), for a
player's calendar: one VEVENT at `starts_at`, with the notes and the Event's page.

How long it lasts: a VEVENT whose DTSTART is a date-time and which has neither DTEND nor
DURATION ends where it starts (RFC 5545, 3.6.1), which calendars show as an instant, if
at all, and book no time for. The site knows when an Event starts but not how long it
plays (a format counts rounds, a game no hours, and turn deadlines stretch a round over
days), so the file gives it DURATION `LENGTH`, an evening's play; the notes say more.

A time cleared: a VCALENDAR holds one component at least (RFC 5545, 3.6), so there is
no valid calendar without an event, and a 404 tells the calendar that imported the
Event nothing, and the player who follows an old mail's link only that it is gone.
So once an Event said when it starts and no longer does, the file is that VEVENT again
(same UID, SEQUENCE one higher, at the last time it said), STATUS:CANCELLED, its
DESCRIPTION saying the time is withdrawn and where the page is: a calendar that imported
it marks it cancelled (3.8.1.11, 3.8.7.4). An Event that never said when gives no file.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import icalendar

from league.models import Event, EventRecord
from league.services import one_line

PRODID = "-//Showdown League//Event calendar//EN"
LENGTH = timedelta(hours=3)
WITHDRAWN = "The organizers no longer say when this Event starts; its page will."


def event_calendar(event: Event, page_url: str, now: datetime) -> bytes | None:
    """The file, or None for an Event that never said when it starts. Its UID stays the
    same and its SEQUENCE counts the changes of its details, so a calendar that imported
    it before takes a new time as the same event moved, and a time cleared as it
    cancelled."""
    changes = list(EventRecord.objects.filter(event=event,
                                              kind=EventRecord.Kind.DETAILS_CHANGED)
                   .order_by("seq").values_list("payload", flat=True))
    start = event.starts_at or _last_said(changes)
    if start is None:
        return None
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    entry = icalendar.Event()
    entry.add("uid", f"event-{event.pk}-{int(event.created_at.timestamp())}@showdown-league")
    entry.add("dtstamp", now)
    entry.add("dtstart", start)
    entry.add("duration", LENGTH)
    entry.add("summary", one_line(event.name))
    said = (event.notes, page_url) if event.starts_at else (WITHDRAWN, page_url)
    entry.add("description", "\n\n".join(text for text in said if text))
    entry.add("url", page_url)
    entry.add("sequence", len(changes))
    if event.starts_at is None:
        entry.add("status", "CANCELLED")
    calendar.add_component(entry)
    return bytes(calendar.to_ical())


def _last_said(changes: list[dict[str, object]]) -> datetime | None:
    """The last start the Event's details said, if they ever said one."""
    said = [change["starts_at"] for change in changes if change.get("starts_at")]
    return datetime.fromisoformat(str(said[-1])) if said else None
