"""An Event's start as an iCalendar file (RFC 5545, by the icalendar package), for a
player's calendar: one VEVENT at `starts_at`, with the notes and the Event's page."""

from __future__ import annotations

from datetime import datetime

import icalendar

from league.models import Event, EventRecord
from league.services import one_line

PRODID = "-//Showdown League//Event calendar//EN"


def event_calendar(event: Event, page_url: str, now: datetime) -> bytes:
    """The file; the Event must say when it starts. Its UID stays the same and its
    SEQUENCE counts the changes of its details, so a calendar that imported it before
    takes a new time as the same event moved."""
    assert event.starts_at is not None
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    entry = icalendar.Event()
    entry.add("uid", f"event-{event.pk}-{int(event.created_at.timestamp())}@showdown-league")
    entry.add("dtstamp", now)
    entry.add("dtstart", event.starts_at)
    entry.add("summary", one_line(event.name))
    entry.add("description", "\n\n".join(text for text in (event.notes, page_url) if text))
    entry.add("url", page_url)
    entry.add("sequence", EventRecord.objects.filter(
        event=event, kind=EventRecord.Kind.DETAILS_CHANGED).count())
    calendar.add_component(entry)
    return bytes(calendar.to_ical())

