"""A game's ratings as a table: its active players, best rating (openskill's ordinal) first.

A place is a competition rank over the whole table (equal ratings share it: 1, 2, 2, 4),
so a row keeps its place when a search narrows the rows shown. A deactivated or closed
account's rating stays in the projection but leaves the table, and its player's page and
API answers show none (`shows_ratings`).
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from league.models import Player, Rating

ACTIVE = Q(player__user__is_active=True)


def board(game: str | None, search: str = "") -> QuerySet[Rating]:
    """The game's table (with None, every game's, one after the other), each row with its
    `place`; `search` keeps the players whose display name or username holds it."""
    better = (Rating.objects.filter(ACTIVE, game=OuterRef("game"),
                                    ordinal__gt=OuterRef("ordinal"))
              .order_by().values("game").annotate(n=Count("pk")).values("n"))
    rows = Rating.objects.filter(ACTIVE)
    if game is not None:
        rows = rows.filter(game=game)
    if search:
        rows = rows.filter(Q(player__display_name__icontains=search)
                           | Q(player__user__username__icontains=search))
    return (rows.select_related("player__user")
            .annotate(place=Coalesce(Subquery(better, output_field=IntegerField()), Value(0))
                      + 1)
            .order_by("game", "-ordinal", "player__display_name", "player_id"))


def shows_ratings(player: Player) -> bool:
    """Whether `player`'s ratings are shown anywhere: not a deactivated account's, nor one
    closed by a player who asked to leave (its matches stay in its rivals' histories)."""
    return bool(player.user.is_active)


def place_of(rating: Rating) -> int | None:
    """The rating's place in its game's table; None for a deactivated account's."""
    if not rating.player.user.is_active:
        return None
    return Rating.objects.filter(ACTIVE, game=rating.game,
                                 ordinal__gt=rating.ordinal).count() + 1


def page_of(rating: Rating, per_page: int) -> int:
    """The page of the game's table, `per_page` rows a page, that shows the rating's row
    (1 for a deactivated account's, which the table leaves out)."""
    ahead = Q(ordinal__gt=rating.ordinal) | Q(
        ordinal=rating.ordinal, player__display_name__lt=rating.player.display_name) | Q(
        ordinal=rating.ordinal, player__display_name=rating.player.display_name,
        player_id__lt=rating.player_id)
    return Rating.objects.filter(ACTIVE, ahead, game=rating.game).count() // per_page + 1

