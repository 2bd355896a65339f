"""Mail a player whose match has waited a while for their move.

A player who asked for it (`Player.turn_mail`, on the account page or the API) and has an
email address is mailed when a live match has waited TURN_MAIL_MINUTES for their
decision: one mail for all their matches that wait, naming each, with its link and its
turn deadline when an Event sets one. A match mails a seat once a wait (`Seat.mailed_seq`
keeps the match's `seq` it was mailed at), so a player at the table, who moves within
minutes, gets none, and one who plays by mail gets one a turn. The beat sweep runs it; the
site's address (SITE_URL) makes the links.

A seat is claimed before its mail goes: two sweeps at once mail it once, and a mail the
server refuses is logged and not sent again.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from engine import registry
from league.events import turn_deadlines
from matches.models import Match, Seat

logger = logging.getLogger(__name__)


def mail_awaited_players(now: datetime | None = None) -> int:
    """Mail each player who asked for it the matches that have waited long enough for
    their move and were not mailed at this point of the match; how many matches."""
    if not settings.TURN_MAIL:
        return 0
    since = (now or timezone.now()) - timedelta(minutes=settings.TURN_MAIL_MINUTES)
    not_yet = Q(mailed_seq__isnull=True) | Q(mailed_seq__lt=F("match__seq"))
    due = (Seat.objects.filter(not_yet, awaited=True, match__status=Match.Status.ACTIVE,
                               match__updated_at__lte=since, user__is_active=True,
                               user__player__turn_mail=True)
           .exclude(user__email="").select_related("match", "user").order_by("match_id"))
    waiting: dict[Any, list[Match]] = defaultdict(list)
    for seat in due:
        claimed = Seat.objects.filter(
            Q(mailed_seq__isnull=True) | Q(mailed_seq__lt=seat.match.seq), pk=seat.pk,
        ).update(mailed_seq=seat.match.seq)
        if claimed:
            waiting[seat.user].append(seat.match)
    for user, matches in waiting.items():
        _mail(user, matches)
    return sum(len(matches) for matches in waiting.values())


def _mail(user: Any, matches: list[Match]) -> None:
    deadlines = turn_deadlines(matches)
    games = registry.games()
    context = {
        "user": user,
        "matches": [{"number": match.pk,
                     "title": games[match.game].spec.title if match.game in games
                     else match.game,
                     "link": settings.SITE_URL + reverse("match_play", args=[match.pk]),
                     "deadline": deadlines.get(match.pk, {}).get("at")}
                    for match in matches],
        "account": settings.SITE_URL + reverse("account"),
    }
    subject = "".join(render_to_string("league/turn_mail_subject.txt", context).splitlines())
    try:
        send_mail(subject, render_to_string("league/turn_mail.txt", context), None,
                  [user.email])
    except Exception:  # the mail server's refusal: the seats stay claimed
        logger.exception("Could not mail %s that matches wait for them", user.pk)
