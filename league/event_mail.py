"""Remind the entrants of an Event that it starts soon.

A player who asked for it (`Player.event_mail`, on the account page or the API) and has
an email address is mailed EVENT_MAIL_HOURS before an Event they are entered in starts
(alone or in a team, not withdrawn), while the Event has not started: its name, when it
starts, its notes, and links to its page and to the file for their calendar. An Event is
reminded of once for its time (`Event.reminded_for`); its organizers moving it makes a
reminder of the new time. The Event is claimed before the mails go, so two sweeps at once
remind once. The beat sweep runs it; the site's address (SITE_URL) makes the links.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from engine import registry
from league.models import Entrant, Event
from league.services import mail_rendered

logger = logging.getLogger(__name__)


def mail_event_reminders(now: datetime | None = None) -> int:
    """Mail the reminders of the Events that start within EVENT_MAIL_HOURS and were not
    reminded of for that time; how many mails."""
    if not settings.TURN_MAIL:
        return 0
    now = now or timezone.now()
    soon = (Event.objects.filter(status=Event.Status.DRAFT, starts_at__gt=now,
                                 starts_at__lte=now + timedelta(hours=settings.EVENT_MAIL_HOURS))
            .exclude(reminded_for=F("starts_at")))
    sent = 0
    for event in soon.order_by("starts_at", "pk"):
        if _claimed(event, now):
            sent += _remind(event)
    return sent


def _claimed(event: Event, now: datetime) -> bool:
    """Whether this sweep reminds of `event` at the time it was read at (no other sweep
    did). An Event its organizers moved or started since it was read is not claimed: the
    mail would give a time it no longer has, or remind of an Event under way."""
    return bool(Event.objects.filter(pk=event.pk, status=Event.Status.DRAFT,
                                     starts_at=event.starts_at, starts_at__gt=now)
                .exclude(reminded_for=event.starts_at).update(reminded_for=event.starts_at))


def _remind(event: Event) -> int:
    entrants = Entrant.objects.filter(event=event, withdrawn=False)
    people = (get_user_model().objects
              .filter(Q(player__entries__in=entrants) | Q(player__teams__entries__in=entrants),
                      is_active=True, player__event_mail=True)
              .exclude(email="").distinct().order_by("pk"))
    games = registry.games()
    context = {
        "event": event,
        "game": games[event.game].spec.title if event.game in games else event.game,
        "link": settings.SITE_URL + reverse("league:event", args=[event.pk]),
        "calendar": settings.SITE_URL + reverse("league:event_calendar", args=[event.pk]),
        "account": settings.SITE_URL + reverse("account"),
    }
    sent = 0
    for user in people:
        try:
            mail_rendered("league/event_mail", {**context, "user": user}, user.email)
            sent += 1
        except Exception:  # the mail server's refusal: the Event stays reminded of
            logger.exception("Could not remind %s of Event %s", user.pk, event.pk)
    return sent
