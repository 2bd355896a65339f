"""GET /api/: every collection of the API, by name, with its address."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

# name shown -> URL name; the matches and the league routers register the list views.
COLLECTIONS = {
    "games": "api-games",
    "register": "api-register",
    "token": "api-token",
    "account": "api-account",
    "account-data": "api-account-data",
    "close-account": "api-close-account",
    "password": "api-password",
    "password-reset": "api-password-reset",
    "matches": "match-list",
    "seasons": "season-list",
    "events": "league-event-list",
    "players": "player-list",
    "teams": "team-list",
    "ratings": "rating-list",
    "round-scores": "round-score-list",
    "simulations": "simulation-list",
    "schema": "api-schema",
    "docs": "api-docs",
}


class ApiRoot(APIView):
    """The links only: reading any of them asks for what it asks for (most, a login)."""

    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response({name: reverse(url, request=request)
                         for name, url in COLLECTIONS.items()})
