"""Remind the entrants of an Event that it starts soon.

A player who asked for it (`Player.event_mail`, on the account page or the API) and has
an email address is mailed EVENT_MAIL_HOURS before an Event they are entered in starts
(alone or in a team, not withdrawn), while the Event has not started: its name, when it
starts, its notes, and links to its page and to the file for their calendar. Each player
is reminded once of the Event's time (`Event.reminded`, by player; once, entered alone and
in a team too): its organizers moving the Event makes a reminder of the new time, and a
player entered after the others were reminded (by an organizer, a team's), or who asked
for reminders since (a teammate's went, say), is reminded at the next sweep. The players
are claimed under the Event's row lock before the mails go, so two sweeps at once remind
once; each mail goes under that lock again, the Event read anew, so it never gives a time
the Event no longer has (one moved since the claim is reminded of at the next sweep), nor
goes once it started or to a player who no longer takes part or asks. A reminder the
mail server refuses (or that fails to go at all) is logged and its claim undone, so the
next sweep tries it again, MAIL_TRIES times in a row at most (`Event.reminder_tries`);
then it is given up, logged. A reminder that went is never undone, so never sent twice.
The beat sweep runs it; the site's address (SITE_URL) makes the links.

Players reminded of a time the Event then leaves, for one no reminder will tell of (beyond
the reminders' window, gone by, or none), are told at once (`mail_event_moved`, queued by
league.events.set_details): otherwise nobody would hear of it before the new window, or at
all. A move within the window is the next sweep's reminder. The mail names the time each
player last heard of, and the new time is reminded of when it comes near, whatever it is
(the one first reminded of included). Each player's mail gives times in their own time
zone. The sweep sends a moved mail whose task the broker lost: it finds players who last
heard of a time the Event no longer has, which no reminder will tell them of. One the
mail server refuses is tried again as a reminder is: what the player last heard of is put
back and the refusal counted in `Event.reminder_tries` (one count for both mails of a
player), and the next sweep sends it, MAIL_TRIES times in a row at most; then it is given
up, logged. Players are marked told under the Event's row lock before their mail goes, so
the task and a sweep (or two sweeps) tell each once, and one that went stays marked, so
is never sent twice.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from engine import registry
from league.models import Entrant, Event
from league.services import MAIL_TRIES, mail_failed, mail_rendered

logger = logging.getLogger(__name__)


def mail_event_reminders(now: datetime | None = None) -> int:
    """Mail the reminders of the Events that start within EVENT_MAIL_HOURS to their players
    not reminded of that time; how many mails."""
    if not settings.TURN_MAIL:
        return 0
    now = now or timezone.now()
    soon = Event.objects.filter(status=Event.Status.DRAFT, starts_at__gt=now,
                                starts_at__lte=now + timedelta(hours=settings.EVENT_MAIL_HOURS))
    sent = 0
    for event in soon.order_by("starts_at", "pk"):
        if _due(event, _asking(event)):
            for claim in _claimed(event, now):
                sent += _remind(event, claim, now)
    # The moved mails owed (their task lost with the broker, or refused by the mail
    # server): no reminder tells of these times, so they are sent here.
    told = Event.objects.filter(status=Event.Status.DRAFT).exclude(reminded={})
    for event in told.order_by("pk"):
        if no_reminder_tells(event, event.starts_at, now) and _moved_untold(event):
            sent += mail_event_moved(
                event.pk, event.starts_at.isoformat() if event.starts_at else None)
    return sent


class Claim(NamedTuple):
    """A player this sweep reminds: their user, their key in `Event.reminded`, and what it
    held before the claim (None: nothing)."""

    user: Any
    key: str
    before: str | None


def _remind(event: Event, claim: Claim, now: datetime) -> int:
    """Mail `claim`'s reminder of `event`; 1 if it went, else 0. It goes under the Event's
    row lock, which a move takes too, read again: a move made since the claim would have
    it give a time the Event no longer has, so then it goes not, nor once the Event started
    or the player no longer takes part or asks, and its claim is undone (the next sweep
    reminds of the new time, a move's mail tells from the time last heard of). A refusal
    undoes it too, MAIL_TRIES times in a row at most, then it is given up. The lock is held
    for one mail at most (EMAIL_TIMEOUT)."""
    assert event.starts_at is not None
    stamp = event.starts_at.isoformat()
    with transaction.atomic():
        locked = Event.objects.select_for_update().filter(pk=event.pk).first()
        if locked is None or locked.reminded.get(claim.key) != stamp:
            return 0  # another claim since (a move's mail): it is that one's to tell
        tries = locked.reminder_tries
        user = _asking(locked, claim.user.pk).get(claim.key)
        if (user is None or locked.status != Event.Status.DRAFT or locked.starts_at is None
                or locked.starts_at.isoformat() != stamp or locked.starts_at <= now):
            _told(locked, claim.key, claim.before, tries)
            return 0
        went = _mail(locked, [user], "league/event_mail", {})
        if _settled(locked, claim.key, stamp, claim.before, went=bool(went)):
            logger.error("Gave up reminding %s of Event %s, after %s tries",
                         user.pk, locked.pk, MAIL_TRIES)
    return went


def _settled(locked: Event, key: str, stamp: str, before: str | None, *, went: bool) -> bool:
    """Settle player `key`'s mail about the locked Event, for which they were marked told
    `stamp` over `before`; whether it is given up. One that went keeps the mark and counts
    their refusals anew; one refused undoes it, for the next sweep to try again, MAIL_TRIES
    times in a row at most (`Event.reminder_tries`), then keeps it: given up."""
    tries = locked.reminder_tries
    forgotten = {k: n for k, n in tries.items() if k != key}
    if went:
        if key in tries:
            _told(locked, key, stamp, forgotten)
        return False
    tried = int(tries.get(key, 0)) + 1
    if tried < MAIL_TRIES:
        _told(locked, key, before, {**forgotten, key: tried})
        return False
    _told(locked, key, stamp, forgotten)
    return True


def _told(locked: Event, key: str, stamp: str | None, tries: dict[str, int]) -> None:
    """Write `stamp` as what player `key` was last told of the locked Event (None:
    nothing), and `tries` as the reminders' refusals."""
    reminded = {k: told for k, told in locked.reminded.items() if k != key}
    if stamp is not None:
        reminded[key] = stamp
    Event.objects.filter(pk=locked.pk).update(reminded=reminded, reminder_tries=tries)


def _asking(event: Event, user_id: int | None = None) -> dict[str, Any]:
    """The users, by their player's key in `Event.reminded`, who take part in `event` (alone
    or in a team, not withdrawn) and are mailed its reminders: they asked, and have an
    address and an open account. Only the user `user_id`, if given."""
    taking_part = Entrant.objects.filter(event=event, withdrawn=False)
    people = (get_user_model().objects
              .filter(Q(pk=user_id) if user_id is not None else Q())
              .filter(Q(player__entries__in=taking_part)
                      | Q(player__teams__entries__in=taking_part),
                      is_active=True, player__event_mail=True)
              .exclude(email="").select_related("player").distinct().order_by("pk"))
    return {str(user.player.pk): user for user in people}


def _due(event: Event, people: dict[str, Any]) -> dict[str, Any]:
    """Those of `people` not reminded of the time `event` has."""
    assert event.starts_at is not None
    stamp = event.starts_at.isoformat()
    return {key: user for key, user in people.items() if event.reminded.get(key) != stamp}


def _claimed(event: Event, now: datetime) -> list[Claim]:
    """The players this sweep reminds of `event`'s time (no other sweep did), read and
    marked under the Event's row lock, which its organizers' changes and every entry take
    too. None for an Event moved or started since the sweep read it: the mail would give a
    time it no longer has, or remind of an Event under way."""
    with transaction.atomic():
        locked = (Event.objects.select_for_update()
                  .filter(pk=event.pk, status=Event.Status.DRAFT, starts_at=event.starts_at,
                          starts_at__gt=now).first())
        if locked is None or locked.starts_at is None:
            return []
        due = _due(locked, _asking(locked))
        if due:
            stamp = locked.starts_at.isoformat()
            Event.objects.filter(pk=locked.pk).update(
                reminded={**locked.reminded, **dict.fromkeys(due, stamp)})
    return [Claim(user, key, locked.reminded.get(key)) for key, user in due.items()]


def no_reminder_tells(event: Event, start: datetime | None,
                      now: datetime | None = None) -> bool:
    """Whether `event`, moving to `start`, leaves players reminded of a time it no longer
    has whom no reminder will correct: it moves to no time, to one beyond the reminders'
    window (none before the new window), or to one gone by (an hour at most, as
    league.events allows; the sweep reminds of none): those `mail_event_moved` tells."""
    if event.status != Event.Status.DRAFT or not event.reminded:
        return False
    now = now or timezone.now()
    return start is None or start > now + timedelta(hours=settings.EVENT_MAIL_HOURS) or (
        start <= now)


# A player told by the moved mail, not reminded: `Event.reminded` holds MOVED and the time
# the mail gave ("" for none), which the sweep's reminder never equals, so the new time is
# reminded of when it comes near even if it is the one first reminded of.
MOVED = "moved:"


def _last_told(stamp: str) -> str | None:
    """The time (ISO 8601) a player's last mail gave, from their `Event.reminded` stamp;
    None when it said the Event had no time."""
    return (stamp.removeprefix(MOVED) or None) if stamp.startswith(MOVED) else stamp


def mail_event_moved(event_id: int, now_at: str | None) -> int:
    """Tell the players of Event `event_id` reminded of its start that it moved to `now_at`
    (ISO 8601; None: no time said); how many mails. Each is told from the time their last
    mail gave (a reminder's, or an earlier move's), which need not be the time this move
    left: a move within the window, or one whose mail had not gone yet, came between.
    Nothing when it has moved again since (that move tells its own) or has started;
    nothing to a player whose last mail gave this time, or said it had none (their
    reminder will come), nor to one no longer taking part or asking. The players told are
    marked under the Event's row lock, which the reminder sweep takes too, so a player
    is told once; a mail refused undoes its mark for the sweep to try again (`_settled`),
    unless the player was told anew since."""
    if not settings.TURN_MAIL:
        return 0
    with transaction.atomic():
        event = (Event.objects.select_for_update()
                 .filter(pk=event_id, status=Event.Status.DRAFT).first())
        if event is None or (event.starts_at.isoformat() if event.starts_at else None) != now_at:
            return 0
        owed: list[tuple[str, str, Any]] = []
        marked: dict[str, str] = {}
        for key, user in _asking(event).items():
            last = _last_told(event.reminded[key]) if key in event.reminded else None
            if last is not None and last != now_at:
                owed.append((last, key, user))
                marked[key] = MOVED + (now_at or "")
        if not owed:
            return 0
        Event.objects.filter(pk=event.pk).update(reminded={**event.reminded, **marked})
    # Moved to a time gone by, its organizers are about to start it: no reminder comes.
    comes = event.starts_at is None or event.starts_at > timezone.now()
    sent = 0
    for last, key, user in sorted(owed, key=lambda told: (told[0], told[2].pk)):
        went = _mail(event, [user], "league/event_moved",
                     {"was": datetime.fromisoformat(last), "reminder_comes": comes,
                      "hours": settings.EVENT_MAIL_HOURS})
        sent += went
        with transaction.atomic():
            locked = Event.objects.select_for_update().filter(pk=event.pk).first()
            if locked is None or locked.reminded.get(key) != marked[key]:
                continue  # told since (a later move's mail, a reminder): theirs to count
            if _settled(locked, key, marked[key], event.reminded[key], went=bool(went)):
                logger.error("Gave up telling %s that Event %s moved, after %s tries",
                             user.pk, event.pk, MAIL_TRIES)
    return sent


def _moved_untold(event: Event) -> bool:
    """Whether a player's moved mail of `event` is owed: one who takes part and asks last
    heard of a time it no longer has (its task lost, or the mail refused)."""
    now_at = event.starts_at.isoformat() if event.starts_at else None
    return any(key in event.reminded and _last_told(event.reminded[key]) not in (None, now_at)
               for key in _asking(event))


# Which mail a template makes, as a failure's log line names it.
KINDS = {"league/event_mail": "Event reminder", "league/event_moved": "Event moved"}


def _mail(event: Event, people: list[Any], template: str, extra: dict[str, Any]) -> int:
    """Mail `template` about `event` to `people` (users), each in their own time zone."""
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
            mail_rendered(template, {**context, "user": user}, user.email, user.player)
            sent += 1
        except Exception as error:  # the mail server's refusal: logged (tried again, see above)
            mail_failed(KINDS[template], user.pk, error, about=f"Event {event.pk}")
    return sent
