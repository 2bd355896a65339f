"""Who may call the league API: anyone signed in reads; writes go to organizers.

A view declares, per action, which organizers may write (`organizer_scopes`); this class
reads that declaration and asks the Event service's own predicates, so the rule lives
once in `league.events`. The services check again (the pages and the admin call them
too) and refuse with the same `not_organizer` code.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission

from league.events import can_organize, can_organize_any

STAFF = "staff"  # staff only (seasons, teams)
SEASON = "season"  # staff or an organizer of some season; the service checks which one
EVENT = "event"  # the Event's organizers (staff, its own, its season's), per object
ENTRANT = "entrant"  # anyone signed in; the service lets organizers and the entrant's people

MESSAGES = {
    STAFF: "Only staff may do that.",
    SEASON: "Only a season's organizer may do that.",
    EVENT: "Only an organizer of this Event may do that.",
}


class LeaguePermission(BasePermission):
    """Reads for anyone signed in; each write for the organizers its view declares."""

    code = "not_organizer"
    message = MESSAGES[EVENT]

    def has_permission(self, request: Any, view: Any) -> bool:
        user = request.user
        if not (user and user.is_authenticated):
            return False
        if request.method in SAFE_METHODS:
            return True
        if getattr(view, "action", "") is None:
            return True  # a method the endpoint does not take: DRF answers 405
        scope = self._scope(view)
        if scope == STAFF:
            return bool(user.is_staff)
        if scope == SEASON:
            return can_organize_any(user)
        return scope in (EVENT, ENTRANT)  # decided per object; an undeclared write is refused

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS or self._scope(view) != EVENT:
            return True
        return can_organize(obj, request.user)

    def _scope(self, view: Any) -> str | None:
        scope = getattr(view, "organizer_scopes", {}).get(getattr(view, "action", None))
        self.message = MESSAGES.get(scope or EVENT, MESSAGES[EVENT])
        return scope
