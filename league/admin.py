"""Admin for the league: people, teams, seasons and Events; the record stream and the
projections can be read here but never written (the Event service and
`rebuild_projections` own them).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from engine import registry
from engine.protocol import IllegalAction
from league import events, projections
from league.models import (
    Entrant,
    Event,
    EventMatch,
    EventRecord,
    Player,
    RankingPoints,
    RankingTotal,
    Rating,
    RatingHistory,
    RoundScore,
    Season,
    SeasonStanding,
    Standing,
    Team,
    Walkover,
)
from league.services import (
    AccountError,
    close_user,
    is_closed,
    link_hours,
    normalized_email,
    reset_link,
    time_zones,
)
from matches.admin import JoinsWhatItLists, JoinsWhatItShows, NoLookupsOn, options_masked


class ReadOnlyAdmin(JoinsWhatItLists, admin.ModelAdmin):
    """Rows written by services only: listed and shown, never added, changed or deleted."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def entered_teams_of(**member: Any) -> list[str]:
    """"a member of TEAM, entered in EVENTS" for each entered team of the member (`member`:
    a lookup on Team, `members=player` or `members__user=user`): deleting them would take
    them off a team whose members are read-only once entered (a team left with no member
    cannot take its seat)."""
    found: dict[str, set[str]] = {}
    for team, event in Entrant.objects.filter(
            team__in=Team.objects.filter(**member)).values_list("team__name", "event__name"):
        found.setdefault(team, set()).add(event)
    return [f"a member of {team}, entered in {', '.join(sorted(names))}"
            for team, names in sorted(found.items())]


class KeptByEvents(JoinsWhatItLists, admin.ModelAdmin):
    """Players and teams an Event entered cannot be deleted: its stream names them, and
    every replay of it would look them up. Deleting shows them as protected instead."""

    entrant_field = ""

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        for obj in objs:
            entered = sorted(set(Entrant.objects.filter(**{self.entrant_field: obj})
                                 .values_list("event__name", flat=True)))
            if entered:
                protected = [*protected, f"{obj}: entered in {', '.join(entered)}"]
            protected = [*protected, *(f"{obj}: {why}" for why in self.kept_as_member(obj))]
        return deleted, counts, perms_needed, protected

    def kept_as_member(self, obj: Any) -> list[str]:
        """Why `obj` is kept as a member of an entered team (none but for players)."""
        return []


class SavesWhatItChanged:
    """A change form that saves only the columns it changed (and those Django stamps at
    each save, `auto_now`): the whole row, as read when the POST came, would put back
    what another request committed meanwhile (a service, the API, another admin) in the
    columns the form did not change. A new row is written whole. Many-to-many fields are
    `save_related`'s."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)  # type: ignore[misc]
            return
        concrete = obj._meta.concrete_fields
        columns = {f.name for f in concrete}
        fields = [name for name in form.changed_data if name in columns]
        if fields:
            stamped = [f.name for f in concrete if getattr(f, "auto_now", False)]
            obj.save(update_fields=[*fields, *stamped])


class PlayerForm(forms.ModelForm):
    """A player's time zone from the list the account page offers (empty: UTC)."""

    time_zone = forms.ChoiceField(required=False, choices=())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zone: Any = self.fields["time_zone"]
        zone.choices = [("", "UTC (none chosen)"), *((z, z) for z in time_zones()[1:])]


@admin.register(Player)
class PlayerAdmin(SavesWhatItChanged, KeptByEvents):
    """A player saved here writes only the columns its form changed: the whole row, as
    read when the POST came, put back what was written meanwhile, a confirmation link
    the sweep had just mailed owed again (one more mail) among it."""

    form = PlayerForm
    list_display = ["display_name", "user", "created_at"]
    search_fields = ["display_name", "user__username"]
    entrant_field = "player"

    def kept_as_member(self, obj: Any) -> list[str]:
        return entered_teams_of(members=obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # Moving a Player to another user would hand them its entries and ratings.
        return ["user"] if obj is not None else []

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Not a closed account's player: it was closed for good, and a save would put
        back a name, a time zone or mail the close took away (its form shows it read-only)."""
        return super().has_change_permission(request, obj) and not (
            obj is not None and is_closed(obj.user))


@admin.register(Team)
class TeamAdmin(KeptByEvents):
    list_display = ["name", "created_by", "created_at"]
    search_fields = ["name", "members__display_name"]
    filter_horizontal = ["members"]
    raw_id_fields = ["created_by"]
    entrant_field = "team"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # An entered team's results rate its members: new members would be rated for
        # matches they never played (make a new team instead).
        entered = obj is not None and Entrant.objects.filter(team=obj).exists()
        return ["members", "idempotency_key"] if entered else ["idempotency_key"]


class SeasonForm(forms.ModelForm):
    """The season service's checks: a game of the registry, a scoring it can count, an
    end not before its start."""

    class Meta:
        model = Season
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        try:
            if "game" in data:
                registry.get_rules(data["game"])
            if "scoring" in data:
                events.check_scoring(data["scoring"])
            events.check_dates(data.get("starts_on"), data.get("ends_on"))
        except (events.LeagueError, IllegalAction) as exc:
            raise forms.ValidationError(str(exc)) from None  # "code: message"
        return data


@admin.register(Season)
class SeasonAdmin(SavesWhatItChanged, JoinsWhatItLists, admin.ModelAdmin):
    """A season saved here writes only the columns its form changed (another admin's
    save meanwhile is kept), and a new scoring rescores its table at once. Its
    organizers (who organize its Events too) change here with no record beyond the
    admin's own history of the season: a season has no stream, and an Event's stream
    records changes of its own organizers only (`EventAdmin`)."""

    list_display = ["name", "game", "starts_on", "ends_on", "created_at"]
    list_filter = ["game"]
    search_fields = ["name"]
    filter_horizontal = ["organizers"]
    form = SeasonForm

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # Its Events play the season's game; changing it would orphan them.
        made = ["created_by", "idempotency_key"]
        return ["game", *made] if obj is not None and obj.events.exists() else made

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "scoring" in form.changed_data:
            projections.refresh_season(obj)  # the table counts by the new scoring at once


class SecretPicks:
    """An entrant's constructed deck (a secret pick) shown only to whom the API shows it:
    `payload` and `picks` read through `payload_shown` and `picks_shown` for the others.
    The row shown is an Event's (an inline's parent) or names one (`.event`)."""

    fields: list[str]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        event = obj if isinstance(obj, Event) else getattr(obj, "event", None)
        if event is None or events.sees_match_options(event, request.user):
            return list(self.fields)
        swaps = {"payload": "payload_shown", "picks": "picks_shown"}
        return [swaps.get(name, name) for name in self.fields]

    @admin.display(description="payload")
    def payload_shown(self, record: EventRecord) -> Any:
        return events.shown_record(record.event.game, record.kind, record.payload, set())

    @admin.display(description="picks")
    def picks_shown(self, entrant: Entrant) -> Any:
        return events.shown_picks(entrant.event.game, entrant.picks or {}, False)


class EventRecordInline(SecretPicks, JoinsWhatItShows, admin.TabularInline):
    model = EventRecord
    extra = 0
    fields = ["seq", "kind", "payload", "actor", "created_at"]
    readonly_fields = [*fields, "payload_shown"]
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(SavesWhatItChanged, NoLookupsOn, JoinsWhatItLists, admin.ModelAdmin):
    """Events are made on the dashboard (the service checks season, game, format and
    options); here only their names and organizers are edited, a save writing only the
    columns its form changed (the whole row, as read when the POST came, would put back
    a start, a settings change or a record's seq the Event service wrote meanwhile), and
    a change of organizers an organizers_changed record in the stream. Their settings
    (`events.SETTINGS`: format, options, turn deadline), open entry, start and notes are
    read-only here, always, as the stream's are: the organizer page and the API change
    them, each change a record that replays and `rebuild_projections` read, checked as at
    the creation (the settings until the start only). An edit here wrote the column alone,
    which then disagreed with the stream. Routing a draft's edit through
    `events.change_settings` fits the admin badly: its form validates before it saves, so a
    refusal the service finds under its lock (a field the settings no longer seat, hidden
    decks) would be a server error, or the form's validation would write; and staff, who
    organize every Event, have its organizer page. The reminders sent are the sweep's to
    keep (league.event_mail). No typed filter reaches the match options (a staff entrant
    could probe the secret decks)."""

    secret_fields = frozenset({"match_options"})

    list_display = ["name", "game", "format", "status", "season", "seq", "created_at"]
    list_filter = ["status", "game", "format"]
    search_fields = ["name"]
    readonly_fields = ["season", "game", *events.SETTINGS, "secret_match_options_masked",
                       "hold_rounds", "open_entry", "starts_at", "notes", "reminded",
                       "reminder_tries", "status", "seq", "created_by", "idempotency_key",
                       "created_at", "updated_at"]
    filter_horizontal = ["organizers"]
    inlines = [EventRecordInline]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """The form says where its read-only settings, start and notes are changed."""
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        page = reverse("league:event_admin", args=[obj.pk])
        where = format_html(
            "Its format, options and turn deadline (until it starts), open entry, start and "
            'notes change on its <a href="{}">organizer page</a> or with '
            "<code>POST /api/events/{}/settings/</code> (<code>open-entry/</code>, "
            "<code>details/</code>), each change a record in its stream.", page, obj.pk)
        return [(name, {**options, "description": where}) for name, options in fieldsets]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any,
                     change: bool) -> None:
        """Its organizers through the Event service (`events.set_organizers`), not the
        form: a change of them is an organizers_changed record, the staff member its
        actor, in the transaction that saves the form."""
        organizers = form.cleaned_data.pop("organizers", None)  # kept from save_m2m
        super().save_related(request, form, formsets, change)
        if organizers is not None:
            events.set_organizers(event=form.instance, by=request.user,
                                  organizers=organizers)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """The constructed decks its matches are dealt, only to whom the API shows them."""
        fields = [f for f in super().get_fields(request, obj)
                  if f != "secret_match_options_masked"]
        if obj is not None and not events.sees_match_options(obj, request.user):
            fields[fields.index("match_options")] = "secret_match_options_masked"
        return fields

    @admin.display(description="match options")
    def secret_match_options_masked(self, event: Event) -> Any:
        return options_masked(event.game, event.match_options, "hidden until the Event is over")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(EventRecord)
class EventRecordAdmin(NoLookupsOn, SecretPicks, ReadOnlyAdmin):
    """The stream is appended by the Event service only. No typed filter reaches the
    payloads (a staff entrant could probe a rival's deck card by card)."""

    secret_fields = frozenset({"payload"})

    list_display = ["event", "seq", "kind", "actor", "created_at"]
    list_filter = ["kind"]
    search_fields = ["event__name"]
    fields = ["event", "seq", "kind", "payload", "actor", "created_at"]
    readonly_fields = [*fields, "payload_shown"]


@admin.register(Entrant)
class EntrantAdmin(NoLookupsOn, SecretPicks, ReadOnlyAdmin):
    secret_fields = frozenset({"picks"})  # (as EventRecordAdmin's payloads)
    list_display = ["name", "event", "key", "seed", "player", "team", "bot", "picks",
                    "withdrawn"]
    list_filter = ["withdrawn"]
    search_fields = ["name", "event__name"]
    fields = ["event", "key", "name", "player", "team", "plays", "bot", "seed", "withdrawn",
              "picks"]
    readonly_fields = [*fields, "picks_shown"]

    def get_list_display(self, request: HttpRequest) -> list[str]:
        """A list spans Events: only superusers read the decks in it."""
        shown = list(self.list_display)
        if not getattr(request.user, "is_superuser", False):
            shown[shown.index("picks")] = "picks_shown"
        return shown


@admin.register(EventMatch)
class EventMatchAdmin(ReadOnlyAdmin):
    list_display = ["event", "pairing", "round", "stage", "label", "match"]
    search_fields = ["event__name", "pairing"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ["event", "rank", "entrant", "points", "wins", "draws", "losses"]
    search_fields = ["event__name", "entrant__name"]


@admin.register(Walkover)
class WalkoverAdmin(ReadOnlyAdmin):
    list_display = ["event", "pairing", "label", "entrants", "winner"]
    search_fields = ["event__name", "pairing"]


@admin.register(SeasonStanding)
class SeasonStandingAdmin(ReadOnlyAdmin):
    list_display = ["season", "rank", "name", "points", "events", "wins", "draws", "losses"]
    search_fields = ["season__name", "name"]


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "game", "ordinal", "mu", "sigma", "matches"]
    list_filter = ["game"]
    search_fields = ["player__display_name"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnlyAdmin):
    list_display = ["player", "game", "match", "ordinal", "mu", "sigma"]
    list_filter = ["game"]
    search_fields = ["player__display_name"]


@admin.register(RoundScore)
class RoundScoreAdmin(ReadOnlyAdmin):
    list_display = ["match", "game", "seat", "round", "points", "player"]
    list_filter = ["game"]


@admin.register(RankingTotal)
class RankingTotalAdmin(ReadOnlyAdmin):
    list_display = ["match", "event", "team", "name", "entrant", "match_points",
                    "bonus_points", "total", "matches_won", "winner"]


@admin.register(RankingPoints)
class RankingPointsAdmin(ReadOnlyAdmin):
    list_display = ["match", "event", "number", "team", "card", "stipulation", "status",
                    "outcome", "points", "bonus_points"]


# -- people the streams name ----------------------------------------------------------

STAFF_CLOSED_BY_SUPERUSERS = ("A staff account is a superuser's to close; staff close players' "
                              "accounts.")


class LeagueUserAdmin(UserAdmin):
    """A user an Event's stream names (an entrant's player, a member of an entered team,
    an organizer who recorded something, a seat's holder) cannot be deleted: replays look
    them up, and the records would lose who did what. Deactivate them instead."""

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """Also a staff account, for staff who are not superusers (`_in_hand`): named, not
        Django's "no permission to delete users"."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        refused = [user for user in objs if not self._in_hand(request, user)]
        if refused:
            perms_needed = perms_needed - {self.model._meta.verbose_name}
            protected = [*protected, *(f"{user}: a staff account, which only a superuser "
                                       "deletes" for user in refused)]
        for user in objs:
            entered = sorted(set(Entrant.objects.filter(player__user=user)
                                 .values_list("event__name", flat=True)))
            acted = sorted(set(EventRecord.objects.filter(actor=user)
                               .values_list("event__name", flat=True)))
            if entered:
                protected = [*protected, f"{user}: entered in {', '.join(entered)}"]
            if acted:
                protected = [*protected, f"{user}: named in the records of {', '.join(acted)}"]
            protected = [*protected, *(f"{user}: {why}"
                                       for why in entered_teams_of(members__user=user))]
        return deleted, counts, perms_needed, protected

    # Only superusers read API keys, live hidden cards and secret decks: staff who may
    # change users neither make a superuser (themselves included), nor grant permissions,
    # nor change or delete a superuser (their password would be another way in).
    # The staff flag too: a player made staff organizes every Event, and their account is
    # then out of the hands of the staff member who made it (`_in_hand`).
    GRANTS = ("is_staff", "is_superuser", "groups", "user_permissions")
    GRANTED_BY_SUPERUSERS = ("Staff status, superuser status, groups and permissions are "
                             "set by a superuser: staff organize every Event.")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fixed = super().get_readonly_fields(request, obj)
        return fixed if request.user.is_superuser else [*fixed, *self.GRANTS]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """The permissions section says, to staff who are not superusers, why they set
        none of it."""
        fieldsets = super().get_fieldsets(request, obj)
        if request.user.is_superuser:
            return fieldsets
        return [(name, {**options, "description": self.GRANTED_BY_SUPERUSERS})
                if "is_staff" in options.get("fields", ()) else (name, options)
                for name, options in fieldsets]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Within the staff member's hand (`_in_hand`), and not a closed account: it was
        closed for good (`close_user`), and neither signs in again nor gets its address,
        its rights or a name back (its form shows it read-only)."""
        return (super().has_change_permission(request, obj) and self._in_hand(request, obj)
                and not (obj is not None and is_closed(obj)))

    def _in_hand(self, request: HttpRequest, obj: Any) -> bool:
        """Whether the staff member may change `obj`, its password (the admin's form, a
        reset link) and its address included: a superuser any account; other staff their
        own and players'. Another staff account is a superuser's to change: whoever sets
        its password, its address (then asks for its link) or takes away its staff flag
        (then makes its link) holds its rights, every Event's organizer's and permissions
        the changer may not have."""
        return bool(self._below(request, obj) and (
            request.user.is_superuser or obj is None or obj.pk == request.user.pk
            or not obj.is_staff))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_delete_permission(request, obj) and self._in_hand(request, obj)

    def _below(self, request: HttpRequest, obj: Any) -> bool:
        return bool(request.user.is_superuser or obj is None or not obj.is_superuser)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """The address stored as the site stores every address (its domain in ASCII,
        lower case), so reset links and their counts find it by either spelling."""
        obj.email = normalized_email(obj.email) if obj.email else ""
        super().save_model(request, obj, form, change)

    actions = ["make_reset_links", "close_accounts"]

    @admin.action(description="Make password reset links", permissions=["change"])
    def make_reset_links(self, request: HttpRequest, queryset: Any) -> TemplateResponse:
        """A link for each chosen active account whose password the staff member may
        change (`_in_hand`), to hand to a player who forgot theirs and gave no email
        address: it opens the page that sets a new one, once (league.services.reset_link).
        Whoever opens a link holds the account, so staff who are not superusers make one
        for players and their own account only: another staff account or a superuser's is
        refused, by name, as an inactive account is; a superuser makes one for anyone."""
        chosen = list(queryset.order_by("username"))
        refused = [user for user in chosen if not self._in_hand(request, user)]
        inactive = [user for user in chosen if not user.is_active and user not in refused]
        given = [user for user in chosen if user not in refused and user not in inactive]
        context = {**self.admin_site.each_context(request), "title": "Password reset links",
                   "opts": self.model._meta,
                   "links": [(user, reset_link(user, request)) for user in given],
                   "refused": refused, "inactive": inactive, "hours": link_hours()}
        return TemplateResponse(request, "admin/reset_links.html", context)

    @admin.action(description="Close the accounts for good", permissions=["change"])
    def close_accounts(self, request: HttpRequest, queryset: Any) -> TemplateResponse | None:
        """Close each chosen account as its player would (league.services.close_user),
        once the staff member confirms on the page this shows: for a player who asked by
        mail, or a staff account, which is not closed from its own page. Not the staff
        member's own account; and, for staff who are not superusers, no other staff
        account (`_in_hand`), refused by name: a superuser closes it."""
        chosen = list(queryset.order_by("username"))
        refused = [user for user in chosen
                   if user.pk != request.user.pk and not self._in_hand(request, user)]
        given = [user for user in chosen if user.get_username() != f"closed.{user.pk}"
                 and user.pk != request.user.pk and user not in refused]
        if request.POST.get("confirmed") != "yes":
            context = {**self.admin_site.each_context(request), "title": "Close accounts",
                       "opts": self.model._meta, "given": given, "refused": refused,
                       "refused_why": STAFF_CLOSED_BY_SUPERUSERS,
                       "skipped": [user for user in chosen
                                   if user not in given and user not in refused],
                       "action": "close_accounts",
                       "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME}
            return TemplateResponse(request, "admin/close_accounts.html", context)
        if refused:
            names = ", ".join(user.get_username() for user in refused)
            self.message_user(request, f"Not closed: {names}. {STAFF_CLOSED_BY_SUPERUSERS}",
                              messages.ERROR)
        for user in given:
            name = user.get_username()
            try:
                close_user(user, by=request.user)
            except AccountError as exc:
                self.message_user(request, f"Not closed: {exc.detail}", messages.ERROR)
            else:
                self.message_user(request, f"Closed: {name}, now {user.get_username()}.",
                                  messages.SUCCESS)
        return None


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), LeagueUserAdmin)


class LeagueGroupAdmin(GroupAdmin):
    """A group's permissions are granted by superusers alone, as a user's are: staff who
    may change groups would otherwise grant their own group any permission."""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fixed = super().get_readonly_fields(request, obj)
        return fixed if request.user.is_superuser else [*fixed, "permissions"]


admin.site.unregister(Group)
admin.site.register(Group, LeagueGroupAdmin)


class SuperusersOnlyTokenAdmin(TokenAdmin):
    """API keys are passwords: only superusers see them (a "view token" permission would
    otherwise show every key, a superuser's included)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)


admin.site.unregister(TokenProxy)
admin.site.register(TokenProxy, SuperusersOnlyTokenAdmin)
