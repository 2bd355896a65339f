"""Helpers of the league API tests (a module name of its own: tests/ has no packages)."""

from __future__ import annotations

from league.models import Event, EventMatch, EventRecord, Season, Team

GAME = "super_showdown"

# The rows of every league permission table: who asks (see the `as_role` fixture).
ROLES = ["anonymous", "outsider", "season_organizer", "staff"]


def first_link(event: Event) -> EventMatch:
    """The Event's first pairing with a match."""
    link = EventMatch.objects.filter(event=event).select_related("match").order_by(
        "round", "pairing").first()
    assert link is not None
    return link


def record_count(event: Event | None = None) -> int:
    rows = EventRecord.objects.all()
    return (rows.filter(event=event) if event is not None else rows).count()


def written() -> tuple[int, int, int, int]:
    """What a refusal must leave alone: records, seasons, Events and teams."""
    return (EventRecord.objects.count(), Season.objects.count(), Event.objects.count(),
            Team.objects.count())
