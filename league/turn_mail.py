"""Mail a player whose match has waited a while for them.

A player who asked for it (`Player.turn_mail`, on the account page or the API) and has an
email address is mailed when a live match has waited TURN_MAIL_MINUTES for their
decision, or an invitation to a match for their answer: one mail for all their matches
that wait, naming each, with its link and its turn deadline when an Event sets one. A
seat is mailed once a wait (`Seat.mailed_seq` keeps the match's `seq` it was mailed at,
and it is mailed again only once it has moved since; an invitation once), so a player at
the table, who moves within minutes, gets none, one who plays by mail gets one a turn,
and one facing a decision made at once with a rival is not mailed again when the rival's
half comes in. The beat sweep runs it; the site's address
(SITE_URL) makes the links.

A seat is claimed before its mail goes: two sweeps at once mail it once. A mail the
server refuses (or that fails to go at all) is logged and its seats' claims undone, so the
next sweep tries it again, MAIL_TRIES times in a row at most (`Seat.mail_tries`); then it
is given up, logged, and the seat is mailed again at its next wait. A mail that went is
never undone, so never sent twice.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Exists, F, OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from engine import registry
from league.events import turn_deadlines
from league.services import (
    MAIL_TRIES,
    mail_failed,
    mail_rendered,
    shown_name,
)
from matches import services as match_services
from matches.models import Match, MatchEvent, Seat

logger = logging.getLogger(__name__)


def mail_awaited_players(now: datetime | None = None) -> int:
    """Mail each player who asked for it the matches that have waited long enough for
    their move or their answer to an invitation, and were not mailed at this point of the
    match; how many matches."""
    if not settings.TURN_MAIL:
        return 0
    now = now or timezone.now()
    since = now - timedelta(minutes=settings.TURN_MAIL_MINUTES)
    asked = {"is_active": True, "player__turn_mail": True}
    # A match recorded under rules its game plays no more waits for nobody: it can only
    # be resigned or forfeited.
    playable = match_services.under_present_rules("match__")
    # Mailed before, a seat is mailed again once it has moved since: the others' moves
    # alone (a decision both seats make at once, the rival's half of it in) leave it
    # facing what it was mailed about.
    moved_since = MatchEvent.objects.filter(match=OuterRef("match"), seat=OuterRef("index"),
                                            kind=MatchEvent.Kind.DECISION,
                                            seq__gt=OuterRef("mailed_seq"))
    turns = (Seat.objects.filter(Q(mailed_seq__isnull=True)
                                 | Q(mailed_seq__lt=F("match__seq")) & Exists(moved_since),
                                 playable, awaited=True, match__status=Match.Status.ACTIVE,
                                 match__updated_at__lte=since,
                                 **{f"user__{k}": v for k, v in asked.items()})
             .exclude(user__email="").select_related("match", "user__player"))
    invitations = (Seat.objects.filter(mailed_seq__isnull=True, match__status=Match.Status.OPEN,
                                       match__updated_at__lte=since,
                                       **{f"invited__{k}": v for k, v in asked.items()})
                   .exclude(invited__email="")
                   .select_related("match__created_by", "invited__player"))
    waiting: dict[Any, dict[str, list[Match]]] = defaultdict(lambda: {"turns": [],
                                                                      "invitations": []})
    claims: dict[Any, list[tuple[Seat, int | None]]] = defaultdict(list)
    # A player may hold several seats of one match (or be invited to several): each seat
    # is claimed, and the match named once.
    for seat in turns.order_by("match_id"):
        if _claimed(seat):
            _add(waiting[seat.user]["turns"], seat.match)
            claims[seat.user].append((seat, seat.mailed_seq))
    for seat in invitations.order_by("match_id"):
        if _claimed(seat):
            _add(waiting[seat.invited]["invitations"], seat.match)
            claims[seat.invited].append((seat, seat.mailed_seq))
    sent = 0
    for user, matches in waiting.items():
        if _mail(user, now=now, **matches):
            _settled(claims[user])
            sent += sum(len(kind) for kind in matches.values())
        else:
            _unclaimed(user, claims[user])
    return sent


def _add(matches: list[Match], match: Match) -> None:
    if all(named.pk != match.pk for named in matches):
        matches.append(match)


def _claimed(seat: Seat) -> bool:
    """Whether this sweep mails `seat` at its match's present point (no other did)."""
    return bool(Seat.objects.filter(
        Q(mailed_seq__isnull=True) | Q(mailed_seq__lt=seat.match.seq), pk=seat.pk,
    ).update(mailed_seq=seat.match.seq))


def _settled(claims: list[tuple[Seat, int | None]]) -> None:
    """The mail of these claims went: the refusals counted before it are forgotten."""
    refused = [seat.pk for seat, _ in claims if seat.mail_tries]
    if refused:
        Seat.objects.filter(pk__in=refused).update(mail_tries=0)


def _unclaimed(user: Any, claims: list[tuple[Seat, int | None]]) -> None:
    """The mail of these claims did not go: each seat is left to the next sweep (its claim
    undone, back to the point it was mailed at before), or, refused MAIL_TRIES times in a
    row, given up until its next wait. A claim another sweep has taken since stays."""
    for seat, before in claims:
        claim = Seat.objects.filter(pk=seat.pk, mailed_seq=seat.match.seq)
        if seat.mail_tries + 1 < MAIL_TRIES:
            claim.update(mailed_seq=before, mail_tries=F("mail_tries") + 1)
        else:
            claim.update(mail_tries=0)
            logger.error("Gave up mailing %s that match %s waits for them, after %s tries",
                         user.pk, seat.match_id, MAIL_TRIES)


def _mail(user: Any, turns: list[Match], invitations: list[Match], now: datetime) -> bool:
    """Mail `user` the matches that wait for them; whether the mail went. A turn deadline
    already gone by at `now` (one no longer than the wait before a mail, or the deadline
    sweep behind) is told as passed, with what comes of it, not as a time to move by."""
    deadlines = turn_deadlines(turns)
    games = registry.games()

    def shown(match: Match) -> dict[str, Any]:
        deadline = deadlines.get(match.pk, {})
        return {"number": match.pk,
                "title": games[match.game].spec.title if match.game in games else match.game,
                "link": settings.SITE_URL + reverse("match_play", args=[match.pk]),
                # (as the lobby names the invitation's maker: a closed account's too)
                "by": shown_name(match.created_by) if match.created_by else "",
                "deadline": deadline.get("at"), "policy": deadline.get("policy"),
                "deadline_passed": "at" in deadline and deadline["at"] <= now}

    context = {"user": user, "turns": [shown(match) for match in turns],
               "invitations": [shown(match) for match in invitations],
               "account": settings.SITE_URL + reverse("account")}
    context["count"] = len(turns) + len(invitations)
    try:
        mail_rendered("league/turn_mail", context, user.email, user.player)
    except Exception as error:  # the mail server's refusal: tried again at the next sweep
        mail_failed("turn", user.pk, error)
        return False
    return True
