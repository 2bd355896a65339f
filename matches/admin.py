"""Admin: matches with their seats, all read-only: a match changes through its services
(moves, joins, forfeits, hand-overs), which keep the stream, the league and the ratings in
step; a hand edit here would not. The event stream is read-only history.

Hidden information: only superusers (who can read the database anyway) see a live match's
event payloads (shuffled deck orders, cards played face down) and its secret options (a
constructed deck); other staff see them once the match is over (for a match of an Event
dealt secret decks, once the Event is), as the API shows them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

from engine.protocol import IllegalAction
from matches import services
from matches.models import Match, MatchEvent, Seat
from matches.serializers import masked_options

HIDDEN = "hidden until the match is over"


def _sees_all(request: HttpRequest, match: Match) -> bool:
    return bool(getattr(request.user, "is_superuser", False)) or services.unveiled(match)


def options_masked(game: str, options: dict[str, Any] | None, hidden: str) -> Any:
    """`options` with every seat's secret entry masked; `hidden` in their place when the
    game is no longer registered (nothing of them is shown)."""
    try:
        return masked_options(game, options or {}, set())
    except IllegalAction:
        return hidden


def _foreign_keys(model: Any, names: Any) -> list[str]:
    """Those of `names` that are foreign keys of `model`."""
    keys = []
    for name in names or ():
        try:
            field = model._meta.get_field(name) if isinstance(name, str) else None
        except FieldDoesNotExist:
            continue
        if field is not None and field.concrete and (field.many_to_one or field.one_to_one):
            keys.append(name)
    return keys


class JoinsWhatItLists:
    """A change list that loads the foreign keys it shows with its rows (on its own,
    Django joins only those that cannot be null, and fetches the others row by row)."""

    def get_list_select_related(self, request: HttpRequest) -> list[str]:
        return _foreign_keys(self.model, self.get_list_display(request))  # type: ignore[attr-defined]


class JoinsWhatItShows:
    """An inline that loads the foreign keys among its fields with its rows."""

    def get_queryset(self, request: HttpRequest) -> Any:
        rows = super().get_queryset(request)  # type: ignore[misc]
        keys = _foreign_keys(self.model, self.fields)  # type: ignore[attr-defined]
        return rows.select_related(*keys) if keys else rows


class NoLookupsOn:
    """Refuses filters typed into the change list's address on these JSON fields: a live
    match's payloads or options could be probed key by key (`?payload__outcome__0=...`),
    and SQLite cannot run some of those lookups at all. Refused, the admin answers 400."""

    secret_fields: frozenset[str] = frozenset()

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if lookup.split(LOOKUP_SEP)[0] in self.secret_fields:
            return False
        return super().lookup_allowed(lookup, value, request)  # type: ignore[misc]


class ReadOnlyInline(JoinsWhatItShows, admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["index", "user", "bot", "invited", "stood_in_for"]
    readonly_fields = fields


class MatchEventInline(ReadOnlyInline):
    model = MatchEvent
    readonly_fields = ["seq", "kind", "seat", "payload", "hidden_payload", "idempotency_key",
                       "created_at"]
    show_change_link = True

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        payload = "payload" if obj is not None and _sees_all(request, obj) else "hidden_payload"
        return ["seq", "kind", "seat", payload, "idempotency_key", "created_at"]

    @admin.display(description="payload")
    def hidden_payload(self, event: MatchEvent) -> str:
        return HIDDEN


@admin.register(Match)
class MatchAdmin(NoLookupsOn, JoinsWhatItLists, admin.ModelAdmin):
    secret_fields = frozenset({"options"})
    list_display = ["id", "game", "rules_version", "status", "seq", "n_seats", "created_by",
                    "created_at"]
    list_filter = ["game", "rules_version", "status"]
    search_fields = ["game", "seats__user__username"]
    readonly_fields = ["game", "rules_version", "options", "secret_options_masked", "n_seats",
                       "status", "seq", "result", "created_by", "created_at", "updated_at",
                       "rematch_of"]
    inlines = [SeatInline, MatchEventInline]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        options = ("options" if obj is not None and _sees_all(request, obj)
                   else "secret_options_masked")
        return ["game", "rules_version", options, "n_seats", "status", "seq", "result",
                "created_by", "created_at", "updated_at", "rematch_of"]

    @admin.display(description="options")
    def secret_options_masked(self, match: Match) -> Any:
        return options_masked(match.game, match.options, HIDDEN)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(MatchEvent)
class MatchEventAdmin(NoLookupsOn, JoinsWhatItLists, admin.ModelAdmin):
    """History is appended by the match service only; here it can only be read."""

    secret_fields = frozenset({"payload"})

    list_display = ["match", "seq", "kind", "seat", "created_at"]
    list_filter = ["kind"]
    search_fields = ["idempotency_key"]
    readonly_fields = ["match", "seq", "kind", "seat", "payload", "hidden_payload",
                       "idempotency_key", "created_at"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        payload = ("payload" if obj is not None and _sees_all(request, obj.match)
                   else "hidden_payload")
        return ["match", "seq", "kind", "seat", payload, "idempotency_key", "created_at"]

    @admin.display(description="payload")
    def hidden_payload(self, event: MatchEvent) -> str:
        return HIDDEN

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
