"""What the site keeps about a player, as one document they may take away (the
account page's download, `GET /api/auth/me/data/`): their account, ratings and rating
history, the matches they sat in as their match history shows them (seats, result and
their outcome: no match's moves or cards), their Event entries, alone or in a team, their
teams, and the open matches they left or declined."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from league import history
from league.models import Entrant, Team
from league.serializers import AccountDataSerializer
from league.services import player_for, zone_of
from matches.models import Departure

FORMAT = "showdown-league/account-data"
VERSION = 1


def account_fields(player: Any) -> dict[str, Any]:
    """The account as its owner reads and changes it (`GET /api/auth/me/`), which the
    document's account holds too."""
    user = player.user
    return {"username": user.get_username(), "display_name": player.display_name,
            "player": player.pk, "email": user.email, "email_pending": player.pending_email,
            "turn_mail": player.turn_mail, "event_mail": player.event_mail,
            "time_zone": zone_of(player).key}


def account_data(user: Any) -> dict[str, Any]:
    """The document, ready for JSON (AccountDataSerializer states its shape)."""
    from league.api_views import match_history

    player = player_for(user)
    matches = list(match_history(user.pk))
    document = {
        "format": FORMAT, "version": VERSION, "made_at": timezone.now(),
        "account": {**account_fields(player), "joined": user.date_joined,
                    "last_login": user.last_login},
        "ratings": player.ratings.order_by("game"),
        "rating_history": player.rating_history.order_by("game", "match_id"),
        "matches": matches,
        "entries": Entrant.objects.filter(Entrant.held_by(player)).select_related("event", "team")
        .distinct().order_by("event_id", "key"),
        "teams": Team.objects.filter(members=player).order_by("name"),
        "departures": Departure.objects.filter(user=user).order_by("match_id", "seat"),
    }
    context = {"user_id": user.pk, "finishes": history.Finishes(matches)}
    return dict(AccountDataSerializer(document, context=context).data)
