"""Admin: matches with their seats; the event stream is read-only history."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from matches.models import Match, MatchEvent, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["index", "user", "bot", "invited"]
    raw_id_fields = ["user", "invited"]


class MatchEventInline(admin.TabularInline):
    model = MatchEvent
    extra = 0
    fields = ["seq", "kind", "seat", "payload", "idempotency_key", "created_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "seq", "n_seats", "created_by", "created_at"]
    list_filter = ["game", "status"]
    search_fields = ["game", "seats__user__username"]
    readonly_fields = ["seq", "result", "created_at", "updated_at"]
    raw_id_fields = ["created_by"]
    inlines = [SeatInline, MatchEventInline]


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin):
    """History is appended by the match service only; here it can only be read."""

    list_display = ["match", "seq", "kind", "seat", "created_at"]
    list_filter = ["kind"]
    search_fields = ["idempotency_key"]
    fields = ["match", "seq", "kind", "seat", "payload", "idempotency_key", "created_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
