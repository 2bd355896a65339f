"""Remind the entrants of an Event that it starts soon.

A player who asked for it (`Player.event_mail`, on the account page or the API) and has
an email address is mailed EVENT_MAIL_HOURS before an Event they are entered in starts
(alone or in a team, not withdrawn), while the Event has not started: its name, when it
starts, its notes, and links to its page and to the file for their calendar. Each entry
is reminded of once for the Event's time (`Event.reminded`): its organizers moving
the Event makes a reminder of the new time, and an entry made after the others were
reminded (by an organizer, a team's), or whose player asked for reminders since, is
reminded at the next sweep. The entries are claimed under the Event's row lock before
the mails go, so two sweeps at once remind once, and a mail never gives a time the Event
no longer has nor goes once it started. The beat sweep runs it; the site's address
(SITE_URL) makes the links.

Entries reminded of a time the Event then leaves, for one beyond the reminders' window
or for none, are told at once (`mail_event_moved`, queued by league.events.set_details):
otherwise nobody would hear of it before the new window. A move within the window is the
next sweep's reminder. The mail names the time each entry last heard of, and the new time
is reminded of when it comes near, whatever it is (the one first reminded of included).
Each player's mail gives times in their own time zone.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils import timezone

from engine import registry
from league.models import Entrant, Event
from league.services import mail_rendered, zone_of

logger = logging.getLogger(__name__)


def mail_event_reminders(now: datetime | None = None) -> int:
    """Mail the reminders of the Events that start within EVENT_MAIL_HOURS to their entries
    not reminded of that time; how many mails."""
    if not settings.TURN_MAIL:
        return 0
    now = now or timezone.now()
    soon = (Event.objects.filter(status=Event.Status.DRAFT, starts_at__gt=now,
                                 starts_at__lte=now + timedelta(hours=settings.EVENT_MAIL_HOURS))
            .prefetch_related(Prefetch("entrants", to_attr="taking_part",
                                       queryset=Entrant.objects.filter(withdrawn=False))))
    sent = 0
    for event in soon.order_by("starts_at", "pk"):
        if _due(event, [entrant.key for entrant in event.taking_part]):
            keys = _claimed(event, now)
            if keys:
                sent += _remind(event, keys)
    return sent


# The entries a player of which (themselves, a team member) is mailed reminders: only
# they are claimed, so that a player who asks for reminders once the others' went is
# reminded at the next sweep.
ASKED = (Q(player__event_mail=True, player__user__is_active=True, player__user__email__gt="")
         | Q(team__members__event_mail=True, team__members__user__is_active=True,
             team__members__user__email__gt=""))


def _due(event: Event, keys: list[str]) -> list[str]:
    """Those of the entry `keys` not reminded of the time `event` has."""
    assert event.starts_at is not None
    return [key for key in keys if event.reminded.get(key) != event.starts_at.isoformat()]


def _claimed(event: Event, now: datetime) -> list[str]:
    """The keys of `event`'s entries this sweep reminds of its time (no other sweep did),
    read and marked under the Event's row lock, which its organizers' changes and every
    entry take too. None for an Event moved or started since the sweep read it: the mail
    would give a time it no longer has, or remind of an Event under way."""
    with transaction.atomic():
        locked = (Event.objects.select_for_update()
                  .filter(pk=event.pk, status=Event.Status.DRAFT, starts_at=event.starts_at,
                          starts_at__gt=now).first())
        if locked is None or locked.starts_at is None:
            return []
        due = _due(locked, list(Entrant.objects.filter(ASKED, event=locked, withdrawn=False)
                                .values_list("key", flat=True).distinct()))
        if due:
            stamp = locked.starts_at.isoformat()
            Event.objects.filter(pk=locked.pk).update(
                reminded={**locked.reminded, **dict.fromkeys(due, stamp)})
    return due


def _remind(event: Event, keys: list[str]) -> int:
    return _mail(event, keys, "league/event_mail", {})


def moved_out_of_reach(event: Event, start: datetime | None,
                       now: datetime | None = None) -> bool:
    """Whether `event`, moving to `start`, leaves entries reminded of a time they no
    longer have and that no reminder will correct before the new window: those
    `mail_event_moved` tells."""
    if event.status != Event.Status.DRAFT or not event.reminded:
        return False
    window = (now or timezone.now()) + timedelta(hours=settings.EVENT_MAIL_HOURS)
    return start is None or start > window


# An entry told by the moved mail, not reminded: `Event.reminded` holds MOVED and the time
# the mail gave ("" for none), which the sweep's reminder never equals, so the new time is
# reminded of when it comes near even if it is the one first reminded of.
MOVED = "moved:"


def _last_told(stamp: str) -> str | None:
    """The time (ISO 8601) an entry's last mail gave, from its `Event.reminded` stamp;
    None when it said the Event had no time."""
    return (stamp.removeprefix(MOVED) or None) if stamp.startswith(MOVED) else stamp


def mail_event_moved(event_id: int, now_at: str | None) -> int:
    """Tell the entries of Event `event_id` reminded of its start that it moved to `now_at`
    (ISO 8601; None: no time said); how many mails. Each is told from the time its last
    mail gave (a reminder's, or an earlier move's), which need not be the time this move
    left: a move within the window, or one whose mail had not gone yet, came between.
    Nothing when it has moved again since (that move tells its own) or has started;
    nothing to an entry whose last mail gave this time, or said it had none (its reminder
    will come). The entries told are marked under the Event's row lock, which the reminder
    sweep takes too."""
    if not settings.TURN_MAIL:
        return 0
    with transaction.atomic():
        event = (Event.objects.select_for_update()
                 .filter(pk=event_id, status=Event.Status.DRAFT).first())
        if event is None or (event.starts_at.isoformat() if event.starts_at else None) != now_at:
            return 0
        taking_part = set(Entrant.objects.filter(event=event, withdrawn=False,
                                                 key__in=list(event.reminded))
                          .values_list("key", flat=True))
        told: dict[str, list[str]] = {}
        for key in sorted(taking_part):
            last = _last_told(event.reminded[key])
            if last is not None and last != now_at:
                told.setdefault(last, []).append(key)
        if not told:
            return 0
        Event.objects.filter(pk=event.pk).update(reminded={
            **event.reminded,
            **{key: MOVED + (now_at or "") for keys in told.values() for key in keys}})
    return sum(_mail(event, keys, "league/event_moved", {"was": datetime.fromisoformat(last)})
               for last, keys in told.items())


def _mail(event: Event, keys: list[str], template: str, extra: dict[str, Any]) -> int:
    """Mail `template` about `event` to the players, who asked for Event mails, of its
    entries `keys` (alone or in a team), each in their own time zone."""
    entrants = Entrant.objects.filter(event=event, key__in=keys)
    people = (get_user_model().objects
              .filter(Q(player__entries__in=entrants) | Q(player__teams__entries__in=entrants),
                      is_active=True, player__event_mail=True)
              .exclude(email="").select_related("player").distinct().order_by("pk"))
    games = registry.games()
    context = {
        "event": event,
        "game": games[event.game].spec.title if event.game in games else event.game,
        "link": settings.SITE_URL + reverse("league:event", args=[event.pk]),
        "calendar": settings.SITE_URL + reverse("league:event_calendar", args=[event.pk]),
        "account": settings.SITE_URL + reverse("account"),
        **extra,
    }
    sent = 0
    for user in people:
        try:
            mail_rendered(template, {**context, "user": user}, user.email,
                          zone_of(user.player))
            sent += 1
        except Exception:  # the mail server's refusal: logged, not sent again
            logger.exception("Could not mail %s about Event %s", user.pk, event.pk)
    return sent
