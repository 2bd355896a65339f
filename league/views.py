"""League pages: seasons, Events (bracket, live results, standings), players, and the
organizer dashboard.

Views are thin: guard clauses, then one call into `league.events` (or a form's save).
Every page needs a login, like the lobby; the dashboard and everything under it also needs
organizer rights (`events.can_organize` / `can_organize_season`), else 403. A refused
request (`LeagueError`) comes back in the page or partial with its detail, and the service
has written nothing. htmx partials are their own templates, served by small views; the
polled ones answer 204 (htmx swaps nothing) while nothing they show has changed.
"""

from __future__ import annotations

import csv
import json
import operator
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from functools import reduce, wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from config.api_json import LARGEST_INT
from config.fingerprint import fingerprint
from config.refusal import Refusal
from engine import registry
from engine.protocol import IllegalAction
from league import (
    calendar,
    dashboard_tasks,
    events,
    formats,
    history,
    leaderboard,
    once,
    showdown,
    simulation,
    svg,
)
from league.events import LeagueError
from league.formats.base import read_options
from league.formats.single_elim import THIRD_PLACE
from league.forms import (
    FORMAT_CHOICES,
    FORMAT_TITLES,
    SEED_CHOICES,
    CorrectionForm,
    EntrantForm,
    EventDetailsForm,
    EventForm,
    EventSettingsForm,
    LiveSeatForm,
    PairForm,
    SeasonForm,
    SeedForm,
    ShowdownEventForm,
    SimulationForm,
    TeamForm,
    format_choices,
)
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
    Season,
    SeasonStanding,
    SimulationJob,
    Standing,
    Team,
    Walkover,
)
from matches import services as match_services
from matches.forms import read_json
from matches.models import SEAT_PEOPLE, Match, MatchEvent, named_as_shown
from matches.serializers import masked_options

View = Callable[..., HttpResponse]
FINISHED = Match.Status.FINISHED
CHANGED = "league-changed"  # the htmx event after an organizer action: panels refresh


# -- guards -------------------------------------------------------------------------------

def is_organizer(user: Any) -> bool:
    """Staff, or an organizer of at least one season or Event."""
    if not user.is_authenticated:
        return False
    return bool(user.is_staff or user.organized_seasons.exists()
                or user.organized_events.exists())


def organizer_required(view: View) -> View:
    """Log in first; then only organizers, others get 403."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not is_organizer(request.user):
            raise PermissionDenied("Only organizers may use the dashboard.")
        return view(request, *args, **kwargs)

    return login_required(guarded)


def creator_required(view: View) -> View:
    """Organizers who may make Events and teams (staff and season organizers); an
    organizer of Events alone gets 403, as the API answers them."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not events.can_organize_any(request.user):
            raise PermissionDenied("Events and teams are made by staff and season organizers.")
        return view(request, *args, **kwargs)

    return organizer_required(guarded)


def staff_required(view: View) -> View:
    """Site-wide work (a rebuild of every Event's projections) is staff's alone: an
    organizer of some seasons or Events gets 403."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied("Only staff may rebuild the whole site's scoring.")
        return view(request, *args, **kwargs)

    return login_required(guarded)


def _made_once(back: str | Callable[..., str]) -> Callable[[View], View]:
    """A view whose form, sent twice, does its thing once (`league.once`); a repeat that
    comes while the first post is still being handled goes back to `back` (a URL name, or
    a URL made of the view's arguments)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            where = back if isinstance(back, str) else back(*args, **kwargs)
            return once.handle(request, lambda: view(request, *args, **kwargs),
                               lambda: _sent_twice(request, where))
        return guarded

    return decorate


def _sent_twice(request: HttpRequest, back: str) -> HttpResponse:
    """The answer to a form sent again while its first post is still being handled."""
    messages.info(request, "That form was sent twice; it is being handled once.")
    return redirect(back)


def _organized_event(request: HttpRequest, event_id: int) -> Event:
    event = get_object_or_404(Event.objects.select_related("season"), pk=event_id)
    if not events.can_organize(event, request.user):
        raise PermissionDenied("Only an organizer of this Event may do that.")
    return event


def _organized_season(request: HttpRequest, season_id: int) -> Season:
    season = get_object_or_404(Season, pk=season_id)
    if not events.can_organize_season(season, request.user):
        raise PermissionDenied("Only an organizer of this season may do that.")
    return season


# -- public pages -------------------------------------------------------------------------

@login_required
@require_safe
def seasons(request: HttpRequest) -> HttpResponse:
    """Every season, and the Events that belong to none."""
    context = {
        "seasons": Season.objects.annotate(n_events=Count("events")),
        "loose_events": Event.objects.filter(season__isnull=True),
        "titles": _titles(),
        "format_titles": FORMAT_TITLES,
        "is_organizer": is_organizer(request.user),
    }
    return render(request, "league/seasons.html", context)


RATINGS_PER_PAGE = 50


@login_required
@require_safe
def ratings(request: HttpRequest) -> HttpResponse:
    """A game's ratings table (`?game=`, by default the game with the most rated players),
    `?q=` narrowing it to matching names, `?page=` paging it; the reader's own place."""
    titles = _titles()
    counts = dict(Rating.objects.filter(leaderboard.ACTIVE).order_by().values("game")
                  .annotate(n=Count("pk")).values_list("game", "n"))
    game = request.GET.get("game") or min(titles, key=lambda key: (-counts.get(key, 0),
                                                                   titles[key]))
    if game not in titles:
        raise Http404("No such game.")
    search = request.GET.get("q", "").strip()[:64]
    page = Paginator(leaderboard.board(game, search), RATINGS_PER_PAGE).get_page(
        request.GET.get("page"))
    mine = (Rating.objects.select_related("player__user")
            .filter(game=game, player__user=request.user).first())
    context = {
        "game": game, "titles": titles, "counts": counts, "search": search, "page": page,
        "pinned": {"game": game},  # the default game, named in the pager's links
        "games": sorted(titles, key=titles.__getitem__),
        "mine": mine,
        "my_place": leaderboard.place_of(mine) if mine else None,
        "my_page": leaderboard.page_of(mine, RATINGS_PER_PAGE) if mine else None,
    }
    return render(request, "league/ratings.html", context)


@login_required
@require_safe
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    """A season's table and its Events."""
    season = get_object_or_404(Season, pk=season_id)
    context = {
        "season": season,
        "game_title": _titles().get(season.game, season.game),
        "standings": SeasonStanding.objects.filter(season=season).select_related("event"),
        "events": season.events.all(),
        "can_organize": events.can_organize_season(season, request.user),
        "format_titles": FORMAT_TITLES,
        "titles": _titles(),
    }
    return render(request, "league/season.html", context)


@login_required
@require_safe
def event(request: HttpRequest, event_id: int) -> HttpResponse:
    """An Event: its bracket diagram, live results and standings."""
    event = get_object_or_404(Event.objects.select_related("season"), pk=event_id)
    return _event_page(request, event)


def _event_page(request: HttpRequest, event: Event, *, refused: str = "",
                refusal: str = "", status: int = 200) -> HttpResponse:
    """The Event's page; `refused`: the form that came back refused (why: `refusal`), the
    entry form ("entry") or an entrant's Pick form ("pick-e1"), holding what was posted,
    the refusal beside it (league_extras)."""
    picked = refused.removeprefix("pick-") if refused.startswith("pick-") else ""
    context = {**_results_context(event, request.user, _round_page(event, request)),
               **_ranking_context(event)}
    context["can_organize"] = events.can_organize(event, request.user)
    context["picks"] = _picks_context(event, request.user,
                                      typed={picked: request.POST} if picked else None)
    context["entry"] = _entry_context(event, request.user,
                                      typed=request.POST if refused == "entry" else None)
    context["team_players"] = _team_players_context(event, request.user,
                                                    context["can_organize"])
    context["settings_shown"] = _settings_shown(event, request.user)
    context.update(refused=refused, refusal=refusal)
    return render(request, "league/event.html", context, status=status)


def _settings_shown(event: Event, user: Any) -> list[str]:
    """The Event's options as its page lists them, "name: value", those of its format
    and of its matches that are not their defaults (a secret one, a constructed deck,
    "hidden" but to whom the API shows it), then its turn deadline."""
    try:
        fmt_defaults = read_options(formats.get_format(event.format).options, {})
        match_defaults = registry.get_rules(event.game).spec.resolve_options({})
        options = dict(event.match_options) if events.sees_match_options(event, user) \
            else masked_options(event.game, dict(event.match_options), set())
    except (formats.FormatError, IllegalAction):  # a format or game this site has no more
        return []
    if showdown.is_event(event.game, options):  # its Matches, in words
        chosen = options["event"]
        matches = chosen.get("matches") if isinstance(chosen, dict) else None
        options["event"] = (showdown.preset_titles().get(chosen, chosen)
                            if isinstance(chosen, str) else
                            f"{len(matches) if isinstance(matches, list) else matches} "
                            "Matches, composed")
    shown = [*_not_default(event.format_options, fmt_defaults),
             *_not_default(options, match_defaults)]
    if event.turn_deadline_minutes:
        shown.append(f"turn deadline: {event.turn_deadline_minutes} min "
                     f"({event.get_deadline_policy_display().lower()})")
    return shown


def _not_default(options: dict[str, Any], defaults: dict[str, Any]) -> list[str]:
    """"name: value" of each of `options` that is not its default."""
    defaults = json.loads(json.dumps(defaults))  # (a default tuple is stored as a list)
    return [f"{name}: {value if isinstance(value, str) else json.dumps(value)}"
            for name, value in options.items() if defaults.get(name) != value]


@login_required
@require_safe
def event_calendar(request: HttpRequest, event_id: int) -> HttpResponse:
    """The Event's start as a file for the player's calendar, cancelled once its time is
    cleared (league.calendar says why); 404 for an Event that never said when."""
    event = get_object_or_404(Event, pk=event_id)
    page = request.build_absolute_uri(reverse("league:event", args=[event.pk]))
    file = calendar.event_calendar(event, page, timezone.now())
    if file is None:
        raise Http404("This Event does not say when it starts.")
    response = HttpResponse(file, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.ics"'
    return response


def _entry_context(event: Event, user: Any, typed: Any = None) -> dict[str, Any]:
    """Whether players enter the Event themselves now (`open`), and whether `user` may
    enter it (with the picks it takes; `typed`: what a refused entry posted, shown again)
    or withdraw their own entry."""
    if event.status != Event.Status.DRAFT:
        return {"open": False, "can_enter": False, "can_leave": False, "team": None,
                "limit": ""}
    done = events.replay_to_read(event)
    mine = events.own_entry(done, user)
    is_open = event.open_entry and events.takes_players(event)
    # One who left as often as a player may enter again, or who plays here for a team, is
    # told so, not offered a button that is refused.
    team = events.own_team_entry(done, user) if mine is None else None
    limited = is_open and mine is None and not team and events.left_too_often(event, user)
    can_enter = is_open and mine is None and not team and not limited
    return {"open": is_open, "can_enter": can_enter, "can_leave": mine is not None,
            "team": team, "limit": events.LEFT_TOO_OFTEN if limited else "",
            "pick_fields": _pick_fields(events.offered_picks(event), {}, typed)
            if can_enter else []}


def _picks_context(event: Event, user: Any, typed: dict[str, Any] | None = None
                   ) -> dict[str, Any] | None:
    """What each entrant still in brings to its seats (its Competitor), and a form for
    those the user may pick for (by entrant, `typed`: what a refused form posted, shown again);
    None where the Event's matches let no seat pick."""
    offered = events.offered_picks(event)
    if not offered:
        return None
    done = events.replay_to_read(event)
    out = events.knocked_out(done)  # no match of theirs is to come
    active = {key: e for key, e in done.entrants.items()
              if not e["withdrawn"] and key not in out}
    mine = events.may_pick(event, user, active)
    names = events.shown_names(active)
    rows = []
    for key, entrant in active.items():
        chosen = entrant.get("picks", {})
        rows.append({
            "key": key, "name": names[key],
            # A value of a free option (a constructed deck) is never shown in the list.
            "shown": ", ".join(offered[o][v] if offered[o] else f"own {_pick_label(o).lower()}"
                               for o, v in chosen.items() if not offered[o] or v in offered[o])
            or "what the Event gives its seat" + (
                " (the game no longer takes its pick)" if entrant.get("dropped") else ""),
            "can_pick": key in mine,
            "fields": _pick_fields(offered, chosen if key in mine else {},
                                   (typed or {}).get(key) if key in mine else None),
        })
    return {"rows": rows}


def _team_players_context(event: Event, user: Any, organizes: bool) -> list[dict[str, Any]]:
    """A row per active team entrant whose player `user` may choose (its owner, who made
    the team, or an organizer): its members and the one who sits its matches (`plays`
    while of the team, else its first member by id, as the seating does). None in an Event over or a
    Superstar Showdown one, where every member sits (events.choose_team_player)."""
    if not getattr(user, "is_authenticated", False) or event.status == Event.Status.FINISHED \
            or showdown.is_event(event.game, event.match_options):
        return []
    done = events.replay_to_read(event)
    teams = {e["team"]: key for key, e in done.entrants.items()
             if e["team"] and not e["withdrawn"]}
    if not teams:
        return []
    chosen = Team.objects.filter(pk__in=teams)
    if not organizes:
        chosen = chosen.filter(created_by=user)
    names = events.shown_names(done.entrants)
    rows = []
    for team in chosen.prefetch_related(Prefetch(
            "members", queryset=Player.objects.select_related("user").order_by("pk"))):
        key = teams[team.pk]
        members = list(team.members.all())
        # One chosen who left the team sits no more: its first member does.
        plays = done.entrants[key].get("plays")
        if plays not in {m.pk for m in members}:
            plays = members[0].pk if members else None
        rows.append({"key": key, "name": names[key],
                     "members": [(m.user.username, m.display_name, m.pk == plays)
                                 for m in members],
                     "plays": next((m.display_name for m in members if m.pk == plays), "")})
    return sorted(rows, key=lambda row: list(done.entrants).index(row["key"]))


def _pick_label(option: str) -> str:
    return option.removesuffix("s").capitalize()


def _pick_fields(offered: dict[str, dict[str, str]], chosen: dict[str, Any],
                 typed: Any = None) -> list[dict[str, Any]]:
    """A select per option an entrant may pick, a JSON field per free one (a constructed
    deck) (templates/league/_pick_fields.html); `chosen` must be picks the user may read;
    `typed`: a refused form's post, which the fields hold instead, as it was sent."""
    if typed is not None:
        return [{"name": option, "label": _pick_label(option), "free": not values,
                 "value": typed.get(f"pick_{option}", "") if not values else "",
                 "choices": [(value, label, typed.get(f"pick_{option}") == value)
                             for value, label in values.items()]}
                for option, values in offered.items()]
    return [{"name": option, "label": _pick_label(option), "free": not values,
             "value": json.dumps(chosen[option]) if option in chosen and not values else "",
             "choices": [(value, label, chosen.get(option) == value)
                         for value, label in values.items()]}
            for option, values in offered.items()]


def _posted_picks(request: HttpRequest, event: Event) -> dict[str, Any]:
    """The picks a form of `_pick_fields` posted; a blank one is the Event's."""
    picks: dict[str, Any] = {}
    for option, values in events.offered_picks(event).items():
        sent = (request.POST.get(f"pick_{option}") or "").strip()
        if not sent:
            continue
        try:
            picks[option] = sent if values else read_json(sent)
        except ValueError:
            raise LeagueError("bad_picks", f"The {_pick_label(option).lower()} is written "
                                           "as JSON: a list of card keys.") from None
    return picks


@login_required
@require_POST
def event_pick(request: HttpRequest, event_id: int) -> HttpResponse:
    """Say what an entrant brings to its seats (its organizers, the player, a member of
    the team); a blank choice goes back to the Event's options."""
    event = get_object_or_404(Event, pk=event_id)
    key = request.POST.get("key", "")
    # No seq: picks sent twice are one pick, and others' acts do not make them stale.
    try:
        entrant = events.pick(event=event, by=request.user, key=key,
                              picks=_posted_picks(request, event))
    except LeagueError as exc:
        # Beside the form, which holds what was typed to mend: a banner at the page's top
        # is out of sight of the form and cannot quote a deck back.
        return _event_page(request, event, refused=f"pick-{key}",
                           refusal=match_services.shown(exc), status=exc.status)
    messages.success(request, f"{entrant.name} brings that from its next match on.")
    return redirect(reverse("league:event", args=[event.pk]) + "#picks")


@login_required
@require_POST
def event_team_player(request: HttpRequest, event_id: int) -> HttpResponse:
    """Choose the member who sits a team entrant's matches from its next one on (the
    team's owner, the Event's organizers)."""
    event = get_object_or_404(Event, pk=event_id)
    key = request.POST.get("key", "")
    # No seq: a choice sent twice is one choice, and others' acts do not make it stale.
    try:
        entrant = events.choose_team_player(event=event, by=request.user, key=key,
                                            player=request.POST.get("player", ""))
    except LeagueError as exc:
        shown = _team_players_context(event, request.user,
                                      events.can_organize(event, request.user))
        if any(row["key"] == key for row in shown):  # beside its form, where it was sent
            return _event_page(request, event, refused=f"player-{key}",
                               refusal=match_services.shown(exc), status=exc.status)
        messages.error(request, match_services.shown(exc))
        return redirect(reverse("league:event", args=[event.pk]))
    plays = entrant.plays.display_name if entrant.plays else "Its first member"
    messages.success(request, f"{plays} plays for {entrant.name} from its next match on.")
    return redirect(reverse("league:event", args=[event.pk]) + "#team-players")


@login_required
@require_POST
@_made_once(lambda event_id: reverse("league:event", args=[event_id]) + "#entry")
def event_enter(request: HttpRequest, event_id: int) -> HttpResponse:
    """The signed-in player enters the Event themselves (open entry), with their picks."""
    event = get_object_or_404(Event, pk=event_id)
    # No seq: an entry sent twice is refused as one entered twice, and the entries of
    # others meanwhile do not make the page stale.
    try:
        entrant = events.enter_event(event=event, by=request.user,
                                     picks=_posted_picks(request, event))
    except LeagueError as exc:
        # Picks refused (a deck's JSON, a card no one has, a Competitor not offered) come
        # back beside the entry form, which holds what was typed to mend: a banner at the
        # page's top is out of sight of the form and cannot quote a deck back. Any other
        # refusal (the Event started meanwhile) is the banner's, as the form is gone.
        picks_refused = isinstance(exc, events.PicksRefused) or exc.code == "bad_picks"
        if picks_refused and _entry_context(event, request.user)["can_enter"]:
            return _event_page(request, event, refused="entry",
                               refusal=match_services.shown(exc), status=exc.status)
        messages.error(request, match_services.shown(exc))
    else:
        messages.success(request, f"You are entered in {event.name} as {entrant.name}.")
    return redirect(reverse("league:event", args=[event.pk]) + "#entry")


@login_required
@require_POST
def event_leave(request: HttpRequest, event_id: int) -> HttpResponse:
    """The signed-in player withdraws their own entry before the Event starts."""
    event = get_object_or_404(Event, pk=event_id)
    return _on_event_page(request, event, "#entry",
                          lambda: events.leave_event(event=event, by=request.user),
                          lambda _: f"Your entry in {event.name} is withdrawn.")


def _on_event_page(request: HttpRequest, event: Event, anchor: str, call: Callable[[], Any],
                   said: Callable[[Any], str]) -> HttpResponse:
    """Back to the Event's page at `anchor`, saying what `call` gave (`said`), or why it
    was refused."""
    try:
        done = call()
    except LeagueError as exc:
        messages.error(request, match_services.shown(exc))
    else:
        messages.success(request, said(done))
    return redirect(reverse("league:event", args=[event.pk]) + anchor)


@login_required
@require_safe
def event_results(request: HttpRequest, event_id: int) -> HttpResponse:
    """The polled results partial; 204 while nothing in it changed."""
    event = get_object_or_404(Event, pk=event_id)
    if _seen(request, event):
        return HttpResponse(status=204)
    context = _results_context(event, request.user, _round_page(event, request))
    # What the reader's copy already showed (`told`), so that a screen reader hears the
    # results and matches that came since, not the whole Event at every poll.
    told = set(request.GET.get("told", "").split(".")[:2000])
    return render(request, "league/_event_results.html",
                  {**context, "news": _results_news(context, told)})


def _results_news(context: dict[str, Any], told: set[str]) -> list[str]:
    """What changed on the Event's page since the copy that showed `told` (as its poll URL
    carries it): each result, each new match (the reader's own said so), each walkover no
    match was made for, the champion."""
    news = []
    yours = {row["match"].pk for row in context["yours"]}
    for row in context["rows"]:
        pk, label = row["match"].pk, row["link"].label or row["link"].pairing
        names = _names_by_side(row)
        if not row["live"] and f"f{pk}" not in told:
            winners = [e["name"] for e in row["entrants"] if e["won"]]
            if row["link"].drawn:
                news.append(f"{label}, {names}: drawn, played again.")
            elif winners:
                news.append(f"{label}, {names}: {' and '.join(winners)} won.")
            elif row["no_winner"]:
                news.append(f"{label}, {names}: all forfeited, no winner.")
            else:
                news.append(f"{label}, {names}: {'drawn' if row['draw'] else 'over'}.")
        elif row["live"] and f"l{pk}" not in told:
            news.append(f"Your match {label} is ready: {names}." if pk in yours
                        else f"New match {label}: {names}.")
    for row in context["walkovers"]:
        if f"w{row['pairing']}" not in told:
            winners = [e["name"] for e in row["entrants"] if e["won"]]
            said = f"{winners[0]} won" if winners else "a loss for both"
            news.append(f"{row['label']}, {_names_by_side(row)}: walkover, {said}.")
    if context["champions"]:
        plural = "s" if len(context["champions"]) > 1 else ""
        news.append(f"The Event is over. Champion{plural}: {context['champion_names']}.")
    elif context["forfeited_decider"]:
        news.append(f"The Event is over. No champion: {context['forfeited_decider']}.")
    elif context["shared_first"]:
        news.append(f"The Event is over. First place shared: {context['shared_first']}.")
    return news


@login_required
@require_safe
def event_ranking(request: HttpRequest, event_id: int) -> HttpResponse:
    """The polled Ranking Points of a Superstar Showdown Event; 204 while unchanged."""
    event = get_object_or_404(Event, pk=event_id)
    context = _ranking_context(event)
    if context["ranking"] is None:
        return HttpResponse(status=404)
    if request.GET.get("v") == context["ranking"]["version"]:
        return HttpResponse(status=204)
    return render(request, "league/_ranking_points.html", {**context, "event": event})


@login_required
@require_safe
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's ratings with their chart, their Events and their match history."""
    player = get_object_or_404(Player.objects.select_related("user"), pk=player_id)
    titles = _titles()
    # A closed account's ratings are shown nowhere, as the ratings table leaves them out.
    rated = leaderboard.shows_ratings(player)
    ratings = Rating.objects.filter(player=player) if rated else Rating.objects.none()
    charted = RatingHistory.objects.filter(player=player) if rated \
        else RatingHistory.objects.none()
    series: dict[str, list[float]] = defaultdict(list)
    for row in charted.order_by("game", "match_id"):
        series[titles.get(row.game, row.game)].append(row.ordinal)
    matches = list(Match.objects.filter(history.held_by(player.user_id, "seats__"))
                   .distinct().select_related("event_match").prefetch_related(*SEAT_PEOPLE)
                   .order_by("-created_at", "-id")[:50])
    # An Event's bot seats by the names its entrants entered under, as its pages say.
    named_as_shown((match, list(match.seats.all())) for match in matches)
    finishes = history.Finishes(matches)
    entries = _entries(player)
    context = {
        "player": player,
        "ratings": [{"rating": rating, "place": leaderboard.place_of(rating),
                     "page": leaderboard.page_of(rating, RATINGS_PER_PAGE)}
                    for rating in ratings.select_related("player__user")],
        "ratings_hidden": not rated,
        "chart": svg.rating_chart_svg(series),
        "history": [_history_row(match, history.seat_of(match, player.user_id) or 0, titles,
                                 finishes) for match in matches],
        "entries": [{"entry": entry, "place": place}
                    for entry, place in zip(entries, _finishes(entries), strict=True)],
        "walkovers": _player_walkovers(player, entries),
        "teams": _teams_of(player),
        "titles": titles,
        "meetings": history.meetings(request.user.pk, player.user_id)
        if request.user.pk != player.user_id else None,
    }
    return render(request, "league/player.html", context)


def _teams_of(player: Player) -> list[dict[str, Any]]:
    """The player's teams, each with its other members (`mates`): a team's organizers
    make it, and nowhere else did its members see whom they play with."""
    teams = (Team.objects.filter(members=player).order_by(Lower("name"), "pk")
             .prefetch_related(Prefetch("members", Player.objects.exclude(pk=player.pk)
                                        .order_by(Lower("display_name"), "pk"), "mates")))
    return [{"team": team, "mates": team.mates} for team in teams]


def _entries(player: Player) -> list[Entrant]:
    """The player's Events, their own entries and their teams', each once as their entry
    stands: one they left and entered again lists them in it, one they left each time as
    withdrawn."""
    kept: dict[int, Entrant] = {}
    for entry in (Entrant.objects.filter(Entrant.held_by(player)).distinct()
                  .select_related("event", "team")):
        held = kept.get(entry.event_id)
        if held is None or (held.withdrawn and not entry.withdrawn):
            kept[entry.event_id] = entry
    return list(kept.values())


def _finishes(entries: list[Entrant]) -> list[str]:
    """Where each entry finished its Event, as the Event's standings say, beside its
    "Finished": "3rd of 12", "joint 3rd of 12" (a rank shared), "1st of 12: champion",
    "joint 1st of 12: no champion" (first place shared, or the deciding match forfeited:
    as the Event page's banner says); "" for an Event not finished (or no row)."""
    finished = [e.event_id for e in entries if e.event.status == Event.Status.FINISHED]
    rows: dict[int, list[Standing]] = defaultdict(list)
    for row in (Standing.objects.filter(event_id__in=finished).order_by("position")
                .select_related("entrant")):
        rows[row.event_id].append(row)
    # The deciding result of the Events whose first place is shared, read from the records:
    # replaying each Event that ranks the player first was a replay per Event a view.
    shared = [event_id for event_id, table in rows.items()
              if sum(row.rank == 1 for row in table) > 1]
    decided = events.last_decided_of(shared) if shared else {}
    shown = []
    for entry in entries:
        table = rows.get(entry.event_id, [])
        own = next((row for row in table if row.entrant_id == entry.pk), None)
        if own is None:
            shown.append("")
            continue
        joint = "joint " if sum(row.rank == own.rank for row in table) > 1 else ""
        place = f"{joint}{svg.ordinal(own.rank)} of {len(table)}"
        if own.rank == 1:
            champions = _champions(entry.event, table, decided.get(entry.event_id))
            won = any(c.entrant_id == entry.pk for c in champions)
            place += (": champions" if len(champions) > 1 else ": champion") if won \
                else ": no champion"
        shown.append(place)
    return shown


def _player_walkovers(player: Player, entries: list[Entrant]) -> list[dict[str, Any]]:
    """The walkovers of the player's Events that seat one of their entries (their own or
    their team's) with no match made for them, as the Event pages' unplayed rows give them
    (`_walkover_rows`), each with its Event: the match history lists matches alone, so a
    pairing they won or lost by a withdrawal, which the standings count, was missing.
    Read from the Events' Walkover rows (three queries for them all): replaying each Event
    with a withdrawal cost a replay an Event a view (a Swiss pairs every round again)."""
    keys: dict[int, set[str]] = defaultdict(set)
    for event_id, key in (Entrant.objects.filter(Entrant.held_by(player)).distinct()
                          .values_list("event_id", "key")):
        keys[event_id].add(key)
    given: dict[int, list[Walkover]] = defaultdict(list)
    for walkover in Walkover.objects.filter(event_id__in=list(keys)).order_by("position"):
        if keys[walkover.event_id] & set(walkover.entrants):
            given[walkover.event_id].append(walkover)
    names: dict[int, dict[str, str]] = defaultdict(dict)
    for event_id, key, name in (Entrant.objects.filter(event_id__in=list(given))
                                .values_list("event_id", "key", "name")):
        names[event_id][key] = name
    return [{"pairing": w.pairing, "label": w.label or w.pairing, "walkover": True,
             "unplayed": True, "draw": False, "forfeited": "", "nobody_won": not w.winner,
             "entrants": [{"key": key, "name": names[w.event_id].get(key, key),
                           "won": key == w.winner, "partner": False} for key in w.entrants],
             "event": entry.event}
            for entry in entries for w in given.get(entry.event_id, [])]


# -- dashboard ----------------------------------------------------------------------------

@organizer_required
@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    """The seasons and Events the user organizes, and the forms to make new ones; with
    `?like=ID`, the new Event's form holds the settings of that Event of theirs."""
    like = _event_liked(request)
    if like is None:
        return _render_dashboard(request)
    # Its secret options (constructed decks) only for whom the Event shows them: not an
    # organizer who holds an entry in it while it runs.
    secret = (set() if events.sees_match_options(like, request.user)
              else match_services.secret_options(like.game))
    return _render_dashboard(request, event_form=_event_form(request.user, initial={
        "name": like.name, "season": str(like.season_id or ""), "game": like.game,
        "format": like.format, "format_options": json.dumps(like.format_options),
        "match_options": json.dumps({name: value for name, value in like.match_options.items()
                                     if name not in secret}),
        "turn_deadline_minutes": like.turn_deadline_minutes,
        "deadline_policy": like.deadline_policy, "deadline_bot": like.deadline_bot,
        "hold_rounds": like.hold_rounds, "open_entry": like.open_entry,
        "notes": like.notes, "starts_at": _next_week(like.starts_at)}))


def _next_week(start: datetime | None) -> datetime | None:
    """The first of `start`'s weekly returns still to come: next week's league night."""
    if start is None:
        return None
    weeks = max(1, (timezone.now() - start) // timedelta(weeks=1) + 1)
    return start + weeks * timedelta(weeks=1)


def _event_liked(request: HttpRequest) -> Event | None:
    """The Event `?like=ID` names, if the user organizes it."""
    raw = request.GET.get("like", "")
    found = Event.objects.filter(pk=int(raw)).first() \
        if raw.isdigit() and len(raw) <= 18 else None
    return found if found is not None and events.can_organize(found, request.user) else None


@organizer_required
@require_POST
@_made_once("league:dashboard")
def season_create(request: HttpRequest) -> HttpResponse:
    """A new season (staff only: the service refuses anybody else). Sent twice, it makes
    one."""
    form = SeasonForm(request.POST, games=_game_choices())
    if not form.is_valid():
        return _render_dashboard(request, season_form=form, status=400)
    try:
        created = events.create_season(by=request.user, **form.service_kwargs())
    except LeagueError as exc:
        form.add_error(None, match_services.shown(exc))
        return _render_dashboard(request, season_form=form, status=exc.status)
    messages.success(request, f"Season {created.name} created.")
    # At the page's top, where it is said: a redirect naming no anchor keeps the form's.
    return redirect(f"{reverse('league:dashboard')}#content")


@creator_required
@require_POST
@_made_once("league:dashboard")
def event_create(request: HttpRequest) -> HttpResponse:
    """A new Event; its organizer page next. Sent twice, it makes one."""
    form = _event_form(request.user, request.POST)
    if not form.is_valid():
        return _render_dashboard(request, event_form=form, status=400)
    try:
        created = events.create_event(by=request.user, **form.service_kwargs())
    except LeagueError as exc:
        form.add_error(None, match_services.shown(exc))
        return _render_dashboard(request, event_form=form, status=exc.status)
    return _made_page(created)


@creator_required
@require_POST
@_made_once("league:dashboard")
def showdown_create(request: HttpRequest) -> HttpResponse:
    """A Superstar Showdown Event from a preset (one click) or composed; its page next.
    Sent twice, it makes one."""
    form = _showdown_form(request.user, request.POST)
    if not form.is_valid():
        return _render_dashboard(request, showdown_form=form, status=400)
    try:
        created = events.create_showdown_event(by=request.user, **form.service_kwargs())
    except LeagueError as exc:
        form.add_error(None, match_services.shown(exc))
        return _render_dashboard(request, showdown_form=form, status=exc.status)
    started = " and started" if created.status == Event.Status.RUNNING else ""
    messages.success(request, f"{created.name} created{started}.")
    return _made_page(created)


def _made_page(created: Event) -> HttpResponse:
    """A new Event's organizer page, at its top: the dashboard's forms are sent to their
    cards' anchors (#new-event), which a redirect naming none would keep."""
    return redirect(f"{reverse('league:event_admin', args=[created.pk])}#content")


@creator_required
@require_http_methods(["GET", "HEAD", "POST"])
@_made_once("league:dashboard")
def team_create(request: HttpRequest) -> HttpResponse:
    """A team (name and member usernames), to enter into team Events. Sent twice, it makes
    one (the second click is not told the name is taken)."""
    form = TeamForm(request.POST or None)
    back = _back(request)
    if request.method == "POST" and form.is_valid():
        try:
            team = form.save(by=request.user)
        except LeagueError as exc:
            form.add_error(None, match_services.shown(exc))
        else:
            messages.success(request, f"Team {team.name} created.")
            return redirect(back or "league:dashboard")
    status = 400 if form.errors else 200
    return render(request, "league/team_form.html", {"form": form, "back": back},
                  status=status)


def _back(request: HttpRequest) -> str:
    """The page a form was opened from (its `next`, from the link that opened it, then
    from the form's hidden field), where it goes back to: an Event's organizer page, say.
    Only a path of this site (url_has_allowed_host_and_scheme), else none: a link made
    elsewhere must not send the organizer off the site."""
    sent = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(sent, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return sent
    return ""


@login_required
@require_safe
def event_admin(request: HttpRequest, event_id: int) -> HttpResponse:
    """An Event's organizer page: entrants, seeding, start, live matches, corrections."""
    event = _organized_event(request, event_id)
    return render(request, "league/event_admin.html", _admin_context(request, event))


def _admin_context(request: HttpRequest, event: Event, error: str | None = None,
                   form: str = "", live: bool = False) -> dict[str, Any]:
    """The organizer page's context; `error`, the refusal of its form `form` (of the live
    list, `live`), which comes back holding what was posted, the refusal beside it."""
    mine = error if not live else None  # the panel's own refusal, its form as posted
    page = _round_page(event, request)
    return {**_panel_context(event, mine, user=request.user,
                             posted=request.POST if mine else None, form=form, page=page),
            **_live_context(event, error if live else None, page), **_ranking_context(event),
            **_refused(request, error, form), "options_gone": events.options_gone(event)}


# An Event of more matches than this lists them (and its results to correct) a round at a
# time on its organizer page: the rounds being played open, each other one behind a link
# (a 128-entrant Swiss's page listed every match of every round, 0.75 MB of rows and forms).
PAGED_FROM = 48


def _round_page(event: Event, request: HttpRequest) -> dict[str, Any]:
    """The rounds the organizer page lists, each a stage's round (`_page_of`: a double
    elimination's winners' round 2 apart from its losers' round 2, a multi-stage Event's
    group rounds apart from its playoff's): `pages`, every one with a match, in the order
    their matches were made, each a dict of `key` (what `?round=` names: its number where
    no two stages share one, else "winners-2"), `label` and `current`; `shown`, the
    (section, round) of those listed (None: every one); `where`, their (stage, round) as
    the matches store them; `asked`, what the reader asked for (`?round=`, or a form's
    `round` field): "all", a page's key, or "" for those being played (the last made when
    none is); `big`, whether it is past the size it pages at (each live match's seat forms
    then a link away on the organizer page), `opened`, the pairing whose seat forms it
    shows (`?seats=`, or a form's `pairing`). No pages while the Event is small enough to
    list whole, or has one round."""
    asked = (request.GET.get("round") or request.POST.get("round") or "").strip()
    made = list(EventMatch.objects.filter(event=event).order_by("match_id")
                .values_list("stage", "round", "label", "match__status"))
    pages: dict[tuple[str, int], list[str]] = {}
    for stage, number, label, _ in made:
        pages.setdefault(_page_of(stage, number), []).append(label)
    # The live match whose seats' Forfeit and Bot forms a big Event's organizer page shows
    # (the one its link opened, or a form was sent from): a round of 64 matches carried
    # 256 forms, more than half of its page.
    big = len(made) > PAGED_FROM
    opened = (request.GET.get("seats") or request.POST.get("pairing") or "").strip() \
        if big else ""
    if not big or len(pages) < 2:
        return {"pages": [], "shown": None, "where": None, "around": None, "asked": "",
                "big": big, "opened": opened}
    keys = _page_keys(list(pages))
    playing = {_page_of(stage, number) for stage, number, _, status in made
               if status != FINISHED} or {list(pages)[-1]}
    if asked == "all":
        shown = None
    elif asked in keys.values():
        shown = {page for page, key in keys.items() if key == asked}
    else:
        asked, shown = "", playing
    staged = len({section for section, _ in pages}) > 1
    return {"pages": [{"key": keys[page], "label": _page_label(page, labels, staged),
                       "current": shown is not None and page in shown}
                      for page, labels in pages.items()],
            "shown": shown, "asked": asked, "big": big, "opened": opened,
            "where": None if shown is None else _made_in(made, shown),
            # (every round listed: the diagram is drawn near those being played)
            "around": _made_in(made, shown if shown is not None else playing)}


def _made_in(made: list[tuple[str, int, str, str]], pages: set[tuple[str, int]]
             ) -> list[tuple[str, int]]:
    """The (stage, round) of the matches `made` on `pages`."""
    return sorted({(stage, number) for stage, number, _, _ in made
                   if _page_of(stage, number) in pages})


def _page_of(stage: str, number: int) -> tuple[str, int]:
    """The organizer page's page of a match of `stage` and round `number`: a multi-stage
    Event's groups play their rounds side by side (one page a round for them all), and a
    third-place match is its final's round."""
    section = "groups" if stage.startswith("group ") else \
        "bracket" if stage == "third_place" else stage
    return section, number


def _page_keys(pages: list[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """What `?round=` names each page by: its round's number where no two stages share
    one (a Swiss's rounds, heats and their final pod), else its stage's too ("losers-2")."""
    plain = len({number for _, number in pages}) == len(pages)
    return {page: str(page[1]) if plain else f"{page[0]}-{page[1]}" for page in pages}


def _page_label(page: tuple[str, int], labels: list[str], staged: bool) -> str:
    """A page's link, named as its matches are ("Winners round 2 match 1" -> "Winners
    round 2", "Semifinal 1" -> "Semifinal", "Group A, Round 1 match 1" -> "Round 1"), a
    multi-stage Event's stage said first ("Groups: Round 1", "Playoff: Semifinal")."""
    stems = list(dict.fromkeys(
        re.sub(r"(?<=final) \d+$|(?<=\S) (?:match|board|pod) \d+$", "",
               re.sub(r"^Group [^,]+, ", "", label)) for label in labels if label))
    text = _and(stems) if stems else f"Round {page[1]}"
    title = {"groups": "Groups"}.get(page[0], svg.section_title(page[0]))
    if staged and page[0] in ("groups", "swiss", "playoff"):
        return f"{title}: {text}"
    return text


def _refused(request: HttpRequest, error: str | None, form: str) -> dict[str, Any]:
    """Which form of the organizer page (its id, as its fields' ids begin: "seed",
    "add-bot", "correct-W1-1", "forfeit-R1-1-e2") came back refused, and why: the refusal
    shows beside it and describes its fields (league_extras.refused_attrs). A live seat's
    bot comes back as picked (the panel's fields, `_panel_context`'s `posted`)."""
    return {"refused": form if error else "", "refusal": error or "",
            "posted_bot": request.POST.get("bot", "") if error else ""}


@login_required
@require_POST
def entrant_add(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _organized_event(request, event_id)
    form = EntrantForm(request.POST)
    # The Register card's form that posted: Add player, Add team or Add bot.
    sent = next((f"add-{name}" for name in ("player", "team", "bot")
                 if request.POST.get(name)), "add-player")
    if not form.is_valid():
        return _panel_answer(request, event, _form_error(form), form=sent)
    return _panel_call(request, event, lambda: events.add_entrant(
        event=event, by=request.user, expected_seq=_seq(request),
        picks=_posted_picks(request, event), **form.service_kwargs()),
        form=sent, done=lambda entrant: f"{entrant.name} entered as {entrant.key}.")


@login_required
@require_POST
def entrant_withdraw(request: HttpRequest, event_id: int, key: str) -> HttpResponse:
    event = _organized_event(request, event_id)
    return _panel_call(request, event, lambda: events.withdraw_entrant(
        event=event, by=request.user, key=key, expected_seq=_seq(request)),
        form=f"withdraw-{key}", done=lambda forfeited: _withdrawn_said(event, key, forfeited),
        near="entrants")


def _withdrawn_said(event: Event, key: str, forfeited: list[str]) -> str:
    """What a withdrawal did: the row says "withdrawn", not that a match it ended was
    lost."""
    name = Entrant.objects.get(event=event, key=key).name
    if not forfeited:
        return f"{name} withdrew."
    which = "match" if len(forfeited) == 1 else "matches"
    were = "was" if len(forfeited) == 1 else "were"
    return f"{name} withdrew; their {which} {_and(forfeited)} {were} forfeited."


@login_required
@require_POST
def entrant_reinstate(request: HttpRequest, event_id: int, key: str) -> HttpResponse:
    """Undo a withdrawal made by mistake, while nothing went by it since."""
    event = _organized_event(request, event_id)
    return _panel_call(request, event, lambda: events.reinstate_entrant(
        event=event, by=request.user, key=key, expected_seq=_seq(request)),
        form=f"reinstate-{key}", done=lambda entrant: f"{entrant.name} is reinstated.",
        near="entrants")


@login_required
@require_POST
def event_open_entry(request: HttpRequest, event_id: int) -> HttpResponse:
    """Let players enter the Event themselves, or no longer."""
    event = _organized_event(request, event_id)
    return _panel_call(request, event, lambda: events.set_open_entry(
        event=event, by=request.user, open_entry=request.POST.get("open_entry") == "on",
        expected_seq=_seq(request)), form="open-entry")


@login_required
@require_POST
def event_details(request: HttpRequest, event_id: int) -> HttpResponse:
    """When the Event starts, and its notes for the players."""
    event = _organized_event(request, event_id)
    form = EventDetailsForm(request.POST)
    if not form.is_valid():
        return _panel_answer(request, event, _form_error(form), form="details")
    return _panel_call(request, event, lambda: events.set_details(
        event=event, by=request.user, expected_seq=_seq(request), **form.cleaned_data),
        form="details",
        done=lambda _: _details_saved(form.cleaned_data), near="details")


def _details_saved(details: dict[str, Any]) -> str:
    """What a save of the Event's time and notes says: what its page now shows (a save of
    notes alone said the page showed "this time", none set)."""
    time, notes = bool(details.get("starts_at")), bool(details.get("notes"))
    shown = ("this time and these notes" if time and notes else "this time, and no notes"
             if time else "these notes, and no start time" if notes
             else "neither a start time nor notes")
    return f"Saved: the Event's page shows {shown}."


@login_required
@require_POST
def event_season(request: HttpRequest, event_id: int) -> HttpResponse:
    """File the Event under another season of its game (or none, for staff): one made
    under the wrong season is moved, its results with it."""
    event = _organized_event(request, event_id)
    asked = (request.POST.get("season") or "").strip()
    season = None
    if asked:
        season = Season.objects.filter(pk=int(asked)).first() \
            if asked.isdigit() and int(asked) <= LARGEST_INT else None
        if season is None:
            return _panel_answer(request, event, "No such season.", form="season")
    return _panel_call(request, event, lambda: events.change_season(
        event=event, by=request.user, season=season, expected_seq=_seq(request)),
        form="season", near="season",
        done=lambda _: f"Saved: the Event counts in {season.name}'s table." if season
        else "Saved: the Event is in no season.")


@login_required
@require_POST
def event_settings(request: HttpRequest, event_id: int) -> HttpResponse:
    """The Event's format, its options, match options and turn deadline, until it
    starts."""
    event = _organized_event(request, event_id)
    form = EventSettingsForm(request.POST, bots=list(registry.bot_names(event.game)))
    if not form.is_valid():
        return _panel_answer(request, event, _form_error(form), form="settings")
    return _panel_call(request, event, lambda: events.change_settings(
        event=event, by=request.user, expected_seq=_seq(request),
        **_settings_asked(event, form)), form="settings",
        done=lambda dropped: _settings_saved(event, dropped), near="settings")


def _settings_asked(event: Event, form: EventSettingsForm) -> dict[str, Any]:
    """The settings the card's form asks for. Its format options box holds the Event's
    own as the page showed them: sent unchanged with another format chosen, they are the
    old format's, which the new one would refuse, so the new format takes its defaults (as
    the API's change that leaves them out). A stale page is refused by its `seq`."""
    asked = form.settings_kwargs()
    if asked["format"] != event.format and asked["format_options"] == event.format_options:
        del asked["format_options"]
    return asked


def _settings_saved(event: Event, dropped: list[str]) -> str:
    """What a settings save says: saved, and whose picks it dropped (they pick again)."""
    if not dropped:
        return "Saved: the Event starts with these settings."
    names = _names(event)
    bring = "brings" if len(dropped) == 1 else "bring"
    return (f"Saved: the Event starts with these settings. {_and([names[k] for k in dropped])} "
            f"no longer {bring} what they picked, which these settings do not take: they may "
            "pick again.")


@login_required
@require_POST
def event_seed(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _organized_event(request, event_id)
    form = SeedForm(request.POST)
    if not form.is_valid():
        return _panel_answer(request, event, _form_error(form), form="seed")
    return _panel_call(request, event, lambda: events.seed_event(
        event=event, by=request.user, expected_seq=_seq(request), **form.service_kwargs()),
        form="seed", done=lambda order: _seeded(event, order))


def _seeded(event: Event, order: list[str]) -> str:
    """A seeding as a screen reader is told it, its entrants named as the table names them:
    "Seeded: bruno, alice, Bot 1." """
    names = _names(event)
    return f"Seeded: {', '.join(names.get(key, key) for key in order)}."


@login_required
@require_POST
def event_start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _organized_event(request, event_id)
    return _panel_call(request, event, lambda: events.start_event(
        event=event, by=request.user, expected_seq=_seq(request),
        expected_entrants=_count(request, "entrants")), form="start")


@login_required
@require_POST
def event_pair(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _organized_event(request, event_id)
    form = PairForm(request.POST)
    if not form.is_valid():
        return _panel_answer(request, event, _form_error(form), form="pairings")
    return _panel_call(request, event, lambda: events.pair_by_hand(
        event=event, by=request.user, pairings=form.cleaned_data["pairings"],
        expected_seq=_seq(request)), form="pairings")


@login_required
@require_POST
def round_release(request: HttpRequest, event_id: int) -> HttpResponse:
    """Make the matches of a held round as the format drew them."""
    event = _organized_event(request, event_id)
    return _panel_call(request, event, lambda: events.release_round(
        event=event, by=request.user, expected_seq=_seq(request)), form="release")


@login_required
@require_POST
def result_correct(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _organized_event(request, event_id)
    form = CorrectionForm(request.POST)
    sent = f"correct-{request.POST.get('pairing', '')}"
    if not form.is_valid():
        return _panel_answer(request, event, _form_error(form), form=sent)
    confirming = bool(request.POST.get("confirm"))
    return _panel_call(request, event, lambda: events.correct_result(
        event=event, by=request.user, pairing=form.cleaned_data["pairing"],
        placements=form.cleaned_data["placements"], expected_seq=_seq(request)),
        form=sent, done=lambda placements: _corrected_said(placements, confirming))


def _corrected_said(placements: dict[str, int], confirming: bool = False) -> str:
    """What a correction's answer tells the organizer: that everyone placed last is no
    winner, a loss for each (as a match every side forfeited), not a draw; a result's
    recorded places sent back as they are (`confirming`), that they are confirmed."""
    if confirming:
        return "Recorded places confirmed."
    if formats.no_winner(formats.MatchResult("", placements)):
        return ("Result corrected: everyone placed last, so nobody won it, a loss for "
                "each (places of 1 for all would be a draw).")
    return "Result corrected."


@login_required
@require_safe
def event_live(request: HttpRequest, event_id: int) -> HttpResponse:
    """The polled list of the Event's matches, marking whom each live one waits for; 204
    while nothing in it changed. Its version is the matches' (their statuses, the Event's
    records: a change there refreshes the panel too), then their moves."""
    event = _organized_event(request, event_id)
    seen = request.GET.get("v", "")
    matches, _, moves = seen.partition(".")
    # One query, as `_seen` reads: each match's id, status and seq.
    made = list(EventMatch.objects.filter(event=event).order_by("match_id")
                .values_list("match_id", "match__status", "match__seq")) if matches else []
    if matches and matches == _matches_version(event, [(m, st) for m, st, _ in made]):
        if moves == _version([(m, seq) for m, _, seq in made]):
            return HttpResponse(status=204)
        # Moves alone: the list says anew whom each match waits for; nothing else changed.
        return _live_polled(request, event)
    response = _live_polled(request, event)
    if seen:
        response["HX-Trigger"] = CHANGED  # results came in: the panel refreshes too
    return response


def _live_polled(request: HttpRequest, event: Event) -> HttpResponse:
    """The live list as its poll gets it, with what a screen reader is told of it: the
    results, new matches and walkovers its copy (`told`) did not show yet, as the public
    page's poll tells them (`_results_news`)."""
    context = _live_context(event, page=_round_page(event, request))
    told = set(request.GET.get("told", "").split(".")[:2000])
    news = _results_news({**context, "yours": [], "champions": [], "forfeited_decider": "",
                          "shared_first": ""}, told)
    return render(request, "league/_event_live.html", {**context, "news": news})


@login_required
@require_POST
def match_forfeit(request: HttpRequest, event_id: int) -> HttpResponse:
    """An entrant of a live match forfeits it."""
    event = _organized_event(request, event_id)
    form = LiveSeatForm(request.POST)
    sent = _seat_form("forfeit", request)
    if not form.is_valid():
        return _panel_answer(request, event, _form_error(form), live=True, form=sent)
    return _panel_call(request, event, lambda: events.forfeit(
        event=event, by=request.user, pairing=form.cleaned_data["pairing"],
        entrant=form.cleaned_data["entrant"], expected_seq=_seq(request)),
        live=True, form=sent)


@login_required
@require_POST
def match_seat_to_bot(request: HttpRequest, event_id: int) -> HttpResponse:
    """A bot takes an entrant's seat for the rest of a live match."""
    event = _organized_event(request, event_id)
    form = LiveSeatForm(request.POST)
    sent = _seat_form("to-bot", request)
    if not form.is_valid():
        return _panel_answer(request, event, _form_error(form), live=True, form=sent)
    return _panel_call(request, event, lambda: events.seat_to_bot(
        event=event, by=request.user, pairing=form.cleaned_data["pairing"],
        entrant=form.cleaned_data["entrant"], bot=form.cleaned_data["bot"] or None,
        expected_seq=_seq(request)), live=True, form=sent)


def _seat_form(action: str, request: HttpRequest) -> str:
    """The live list's form of a seat that posted ("forfeit-R1-1-e2"), as its ids begin."""
    return f"{action}-{request.POST.get('pairing', '')}-{request.POST.get('entrant', '')}"


@login_required
@require_safe
def event_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    """The Event's standings as a CSV download."""
    event = _organized_event(request, event_id)
    standings = list(_standings(event))
    columns = _tiebreak_columns(event, standings)
    fixed = ["rank", "entrant", "name", "points", "wins", "draws", "losses", "withdrawn"]
    # A multi-stage Event's standings rank the groups' winners first, then their seconds:
    # its entrants' groups ("A") end each row, as its page names them (empty otherwise).
    groups = (_group_names(event, events.replay_to_read(event))
              if event.format == "multistage" else {})
    # A tiebreak named as a column of ours (a round robin's "wins") is told apart: a
    # spreadsheet or a reader by name keeps one column of a name.
    header = [*fixed, *(f"{c} (tiebreak)" if c in [*fixed, "group"] else c for c in columns),
              "group"]
    rows = ([s.rank, s.entrant.key, s.entrant.name, s.points, s.wins, s.draws, s.losses,
             "yes" if s.entrant.withdrawn else "no", *(s.tiebreaks.get(c, "") for c in columns),
             groups.get(s.entrant.key, "")]
            for s in standings)
    return _csv_response(f"event-{event.pk}-standings.csv", header, rows)


@login_required
@require_safe
def event_results_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    """The Event's match results as a CSV download: one row a pairing (a match played
    again after a draw, one a match), in the format's order."""
    event = _organized_event(request, event_id)
    header = ["stage", "round", "pairing", "label", "entrants", "places", "winner", "note",
              "match", "link", "finished"]
    return _csv_response(f"event-{event.pk}-results.csv", header,
                         _result_lines(request, event))


def _result_lines(request: HttpRequest, event: Event) -> list[list[Any]]:
    """The rows of the results CSV: the Event's matches (results alone: the page's rows,
    no state of a game), its walkovers no match was made for and its byes, by pairing in
    the format's order; a match of a pairing the format no longer lists, after them."""
    done = events.replay_to_read(event)
    names = {key: e["name"] for key, e in done.entrants.items()} | _names(event)
    given = events.walkovers(done)
    gone = {key for key, e in done.entrants.items() if e["withdrawn"]}
    played: dict[str, list[dict[str, Any]]] = {}
    for row in _match_rows(event, done, names, given):
        played.setdefault(row["link"].pairing, []).append(row)
    walkovers = {row["pairing"]: row for row in _walkover_rows(done, names, given)}
    for row in [*walkovers.values(), *(r for rows in played.values() for r in rows)]:
        row["withdrawn"] = [e["name"] for e in row["entrants"] if e["key"] in gone]
    pairings = [] if done.state is None else formats.get_format(done.format).pairings(done.state)
    # A bye is told once its round has begun (a match of it made), as its matches are; a
    # round of byes alone, where no match is ever made, once its every slot is known.
    begun = {(m["stage"], m["round"]) for m in done.matches.values()} | {
        (p.stage, p.round) for p in pairings if p.id in given} | _rounds_of_byes(pairings)
    lines: list[list[Any]] = []
    for p in pairings:
        place = [p.stage, p.round, p.id, p.label or p.id]
        for row in played.pop(p.id, []):
            lines.append([*place, *_match_line(request, row)])
        if p.id in walkovers:
            lines.append([*place, *_walkover_line(walkovers[p.id])])
        elif (p.id not in done.matches and len(p.entrants) == 1 and not any(p.waiting)
              and (p.stage, p.round) in begun):
            bye = names.get(p.entrants[0], p.entrants[0])
            lines.append([*place, bye, "", bye, "bye", "", "", ""])
    for rows in played.values():
        for row in rows:
            link = row["link"]
            lines.append([link.stage, link.round, link.pairing, link.label or link.pairing,
                          *_match_line(request, row)])
    return lines


def _rounds_of_byes(pairings: list[formats.Pairing]) -> set[tuple[str, int]]:
    """The rounds (stage, round) with a bye and no match to come: every pairing of them
    holds one entrant at most, and no slot waits for an earlier result (a double
    elimination's first losers' round when one loser came down)."""
    rounds: dict[tuple[str, int], list[formats.Pairing]] = {}
    for p in pairings:
        rounds.setdefault((p.stage, p.round), []).append(p)
    return {key for key, group in rounds.items()
            if all(len(p.entrants) <= 1 and not any(p.waiting) for p in group)
            and any(len(p.entrants) == 1 for p in group)}


def _match_line(request: HttpRequest, row: dict[str, Any]) -> list[Any]:
    """A match row of the page as the results CSV's cells, from "entrants" on."""
    match = row["match"]
    placed = [e for e in row["entrants"] if e["place"] is not None]
    won = [e["name"] for e in row["entrants"] if e["won"]]
    if row["live"]:
        note = "live"
    elif row["unrecorded"]:
        note = "finished, result not recorded yet"
    elif row["link"].drawn:
        note = "drawn, played again"
    elif row["walkover"]:
        note = _walkover_note(row)
    elif row["forfeited"]:
        note = f"forfeit: {row['forfeited']}"
    elif row["by_seed"]:
        note = "decided by seed"
    else:
        note = "draw" if row["draw"] else ""
    winner = " and ".join(won) if won else ("nobody" if placed and not row["draw"] else "")
    return [_names_by_side(row), "; ".join(f"{e['name']}: {e['place']}" for e in placed),
            winner, note, match.pk,
            request.build_absolute_uri(reverse("match_play", args=[match.pk])),
            "" if row["live"] or match.finished_at is None else match.finished_at.isoformat()]


def _walkover_line(row: dict[str, Any]) -> list[Any]:
    """A walkover no match was made for, as the results CSV's cells from "entrants" on."""
    won = [e["name"] for e in row["entrants"] if e["won"]]
    return [_names_by_side(row), "", " and ".join(won) or "nobody", _walkover_note(row),
            "", "", ""]


def _walkover_note(row: dict[str, Any]) -> str:
    """ "walkover: alice withdrew", naming who withdrew from the row's pairing."""
    gone = row["withdrawn"]
    if not gone:
        return "walkover"
    return f"walkover: {_and(gone)} withdrew"


@login_required
@require_safe
def season_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's table as a CSV download."""
    season = _organized_season(request, season_id)
    header = ["rank", "name", "events", "points", "wins", "draws", "losses", "kind", "id",
              "event"]
    rows = ([s.rank, s.name, s.events, s.points, s.wins, s.draws, s.losses, *_who(s),
             s.event.name if s.event else ""]
            for s in SeasonStanding.objects.filter(season=season).select_related("event"))
    return _csv_response(f"season-{season.pk}-standings.csv", header, rows)


def _who(row: SeasonStanding) -> tuple[str, int | str]:
    """Whose row of a season's table it is, "player", "team" or "bot", with the player's or
    the team's id (none for a bot: its name is the row's, its Event the next column's):
    two rows of one name (a player and a bot called alike) are told apart."""
    if row.player_id is not None:
        return "player", row.player_id
    if row.team_id is not None:
        return "team", row.team_id
    return "bot", ""


@staff_required
@require_POST
def rescore(request: HttpRequest) -> HttpResponse:
    """Queue a rebuild of every projection; answers with its progress bar."""
    job = dashboard_tasks.start_rescore()
    if not request.htmx:
        return redirect(f"{reverse('league:dashboard')}?job={job}")
    return render(request, "league/_rescore.html", _rescore_context(job))


@staff_required
@require_safe
def rescore_progress(request: HttpRequest, job: str) -> HttpResponse:
    """The polled progress bar of a re-scoring job."""
    return render(request, "league/_rescore.html", _rescore_context(job))


# -- answers of the organizer page's actions ----------------------------------------------

def _panel_call(request: HttpRequest, event: Event, call: Callable[[], Any], *, form: str,
                live: bool = False, done: Callable[[Any], str] | None = None,
                near: str = "") -> HttpResponse:
    """Run one service call for the page's form `form`; the refreshed panel (or, `live`,
    the live matches' panel), with the refusal if there was one, else `done` of what the
    call gave: what a screen reader is told of an action whose change it would not hear
    (a save, an entry), shown on the page too `near` a form whose answer shows no change
    ("details")."""
    try:
        made = call()
    except Refusal as exc:  # the league's, or a match service's it called
        return _panel_answer(request, event, match_services.shown(exc), live=live, form=form)
    return _panel_answer(request, event, None, live=live, done=done(made) if done else None,
                         near=near)


def _panel_answer(request: HttpRequest, event: Event, error: str | None, *,
                  live: bool = False, done: str | None = None, near: str = "",
                  form: str = "") -> HttpResponse:
    """The panel's answer to an action (see _panel_call). A refusal of the form `form`
    comes back holding what was typed in it (a round of pairings, a name, a time: what a
    message cannot quote back), the refusal beside it as well as in the part's banner; a
    page without scripts gets the whole page so, where an action that succeeds is
    redirected to it."""
    if not request.htmx:
        if error:
            return render(request, "league/event_admin.html",
                          _admin_context(request, event, error, form, live), status=400)
        if done:
            messages.success(request, done)
        asked = _round_page(event, request)["asked"]  # back to the round it was sent from
        return redirect(reverse("league:event_admin", args=[event.pk])
                        + (f"?round={asked}" if asked else ""))
    event.refresh_from_db()
    # An action that succeeded empties the other part's refusal slot: a refusal shown there
    # is past, and that part's own refresh may wait while the organizer edits in it.
    clears = None if error else "panel-alert" if live else "live-alert"
    # htmx swaps only 2xx answers, so a refusal comes back as 200 with its message.
    if live:
        response = render(request, "league/_event_live.html",
                          {**_live_context(event, error, _round_page(event, request)),
                           "clears": clears,
                           **_refused(request, error, form)})
    else:
        # A refused form comes back holding what was typed in it, to mend and send again.
        response = render(request, "league/_event_panel.html",
                          {**_panel_context(event, error, user=request.user,
                                            posted=request.POST if error else None,
                                            form=form, page=_round_page(event, request)),
                           "done": done, "done_near": near, "clears": clears,
                           **_refused(request, error, form)})
    if error is None:
        response["HX-Trigger"] = CHANGED
    return response


def _seq(request: HttpRequest) -> int | None:
    """The Event's seq as the organizer's page showed it (the panel's forms send it), so a
    second click, or a form older than the Event, is refused rather than applied again."""
    return _count(request, "seq")


def _count(request: HttpRequest, name: str) -> int | None:
    """A number a form posted as the page showed it (`seq`; `entrants`: how many Start was
    asked to start with); None if it sent none."""
    sent = request.POST.get(name, "")
    return int(sent) if re.fullmatch(r"[0-9]{1,15}", sent) else None


def _form_error(form: Any) -> str:
    """A refused form's errors, each a field's under that field's label (the panel shows
    them in one banner, away from the field)."""
    return " ".join(str(m) if name == NON_FIELD_ERRORS else f"{form[name].label}: {m}"
                    for name, errors in form.errors.items() for m in errors)


# -- contexts -----------------------------------------------------------------------------

def _titles() -> dict[str, str]:
    return {key: rules.spec.title for key, rules in registry.games().items()}


def _game_choices() -> list[tuple[str, str]]:
    return sorted(_titles().items(), key=lambda item: item[1])


def _all_bots() -> list[str]:
    return sorted({name for key in registry.games() for name in registry.bot_names(key)})


def _organized_seasons(user: Any) -> QuerySet[Season]:
    return Season.objects.all() if user.is_staff else user.organized_seasons.all()


def _organized_events(user: Any) -> QuerySet[Event]:
    if user.is_staff:
        return Event.objects.select_related("season").annotate(
            unorganized=_none_organizes(Event, "pk") & _none_organizes(Season, "season"))
    return (Event.objects.filter(Q(organizers=user) | Q(season__organizers=user))
            .select_related("season").distinct())


def _none_organizes(model: type[Event] | type[Season], ref: str) -> Exists:
    """Whether the Event or season at `ref` has no organizer: its last one closed their
    account, and staff keep it (league.services.close_user)."""
    through = model.organizers.through.objects
    return ~Exists(through.filter(**{model._meta.model_name: OuterRef(ref)}))


def _event_form(user: Any, data: Any = None, initial: dict[str, Any] | None = None
                ) -> EventForm:
    return EventForm(data, games=_game_choices(), seasons=list(_organized_seasons(user)),
                     bots=_all_bots(), season_optional=user.is_staff, initial=initial)


def _showdown_form(user: Any, data: Any = None) -> ShowdownEventForm:
    return ShowdownEventForm(data, seasons=list(_organized_seasons(user)),
                             bots=list(registry.bot_names(showdown.GAME)),
                             season_optional=user.is_staff)


def _format_help() -> list[dict[str, Any]]:
    """Each format's options, for the help beside the options box."""
    out = []
    for key, title in FORMAT_TITLES.items():
        try:
            options = [spec.to_json() for spec in formats.get_format(key).options]
        except formats.FormatError:  # a format this build does not have: no options
            options = []
        for option in options:
            if isinstance(option["default"], list):
                option["default"] = ", ".join(map(str, option["default"])) or "none"
        out.append({"key": key, "title": title, "options": options})
    return out


# The dashboard lists the Events over this many at a time, the latest first (on a phone,
# the New Event form stays near); those running or to come, this many at a time, running
# first, then the soonest to start; the seasons, this many at a time, the newest first
# (staff see the whole site's).
FINISHED_PER_PAGE = 10
CURRENT_PER_PAGE = 20
SEASONS_PER_PAGE = 20


def _latest_ended(over: QuerySet[Event]) -> QuerySet[Event]:
    """The Events `over`, the one that ended last first (by their `finished` record)."""
    ended = (EventRecord.objects.filter(event=OuterRef("pk"), kind=EventRecord.Kind.FINISHED)
             .order_by("-seq").values("created_at")[:1])
    return over.annotate(ended=Subquery(ended)).order_by(
        F("ended").desc(nulls_last=True), "-created_at", "-pk")


def _render_dashboard(request: HttpRequest, *, season_form: SeasonForm | None = None,
                      event_form: EventForm | None = None,
                      showdown_form: ShowdownEventForm | None = None,
                      status: int = 200) -> HttpResponse:
    user = request.user
    seasons = _organized_seasons(user).annotate(n_events=Count("events"),
                                                unorganized=_none_organizes(Season, "pk"))
    job = request.GET.get("job")
    organized = _organized_events(user)
    context = {
        # The newest first, a page at a time (staff see every season the site ever ran).
        "seasons": Paginator(seasons.order_by("-created_at", "-pk"),
                             SEASONS_PER_PAGE).get_page(request.GET.get("seasons")),
        # Tonight's first: running and still to start, a page of them at a time; the Events
        # over, a page of the latest at a time (staff see every Event the site ever ran).
        "current": Paginator(organized.exclude(status=Event.Status.FINISHED).order_by(
            F("status").desc(), F("starts_at").asc(nulls_last=True), "-created_at", "-pk"),
            CURRENT_PER_PAGE).get_page(request.GET.get("current")),
        "finished": Paginator(_latest_ended(organized.filter(status=Event.Status.FINISHED)),
                              FINISHED_PER_PAGE).get_page(request.GET.get("finished")),
        "season_form": season_form or SeasonForm(games=_game_choices()),
        "event_form": event_form or _event_form(user),
        "showdown_form": showdown_form or _showdown_form(user),
        "showdown_presets": showdown.preset_titles(),
        "can_create_season": user.is_staff,
        "can_rescore": user.is_staff,
        "can_create": events.can_organize_any(user),
        "format_help": _format_help(),
        "format_titles": FORMAT_TITLES,
        "titles": _titles(),
        "rescore": _rescore_context(job) if job and user.is_staff else None,
    }
    return render(request, "league/dashboard.html", context, status=status)


def _entrants(event: Event) -> QuerySet[Entrant]:
    """The Event's entrants by seed, those with none (before a seeding, or withdrawn
    before the start) after them in the order they entered: their keys sort as text, so
    e10 came before e2."""
    return Entrant.objects.filter(event=event).order_by(F("seed").asc(nulls_last=True), "pk")


def _with_live_matches(event: Event, entrants: QuerySet[Entrant]) -> list[Entrant]:
    """The entrants, each with the label of the live match it sits in (`live_match`, empty
    for none): withdrawing it forfeits that match at once, which its Withdraw button's
    question says before the organizer agrees."""
    live = {key: link.label or link.pairing
            for link in EventMatch.objects.filter(
                event=event, match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE])
            for key in link.entrants}
    listed = list(entrants)
    for entrant in listed:
        entrant.live_match = live.get(entrant.key, "")  # type: ignore[attr-defined]
    return listed


def _names(event: Event) -> dict[str, str]:
    return dict(Entrant.objects.filter(event=event).values_list("key", "name"))


KEPT_FIELDS = ("player", "team", "bot", "name", "method", "order", "pairings")
# How the entrants were seeded, as the panel says it: "Seeded by hand."
SEEDED_WORDS = {"rating": "by rating", "hand": "by hand", "random": "at random"}


def _panel_context(event: Event, error: str | None = None, *, user: Any = None,
                   posted: Any = None, form: str = "",
                   page: dict[str, Any] | None = None) -> dict[str, Any]:
    """The organizer panel: entrants and the forms that fit the Event's stage; `posted`,
    the fields of the refused form `form`, which it shows again (a correction's,
    unfolded); `page`, the rounds whose results it offers to correct (`_round_page`)."""
    page = page or {"pages": [], "shown": None, "where": None, "asked": ""}
    done = events.replay_to_read(event)
    typed = posted
    posted = posted if posted is not None else {}
    # An organizer who plays enters others without picks (they pick for themselves).
    offered = events.offered_picks(event) if events.pick_for_others(event, user) else {}
    names = _names(event)
    links = {em.pairing: em for em in EventMatch.objects.filter(event=event)}
    # A pairing settled with no match (a heats pod left short of seats) by its own label.
    pairings = formats.get_format(event.format).pairings(done.state) \
        if done.state is not None else []
    labels = {p.id: p.label for p in pairings}
    rounds = {p.id: _page_of(p.stage, p.round) for p in pairings} | {
        pid: _page_of(em.stage, em.round) for pid, em in links.items()}
    shown = page["shown"]
    corrected = posted.get("pairing")
    # In the order the matches are listed (round by round, board by board), not the order
    # their results came in: the organizer looks a result up by its match.
    order = {p.id: i for i, p in enumerate(pairings)}
    listed = sorted((pid for pid in done.results if shown is None or rounds.get(pid) in shown),
                    key=lambda pid: order.get(pid, len(order)))
    # A result no correction may turn round any more says why in place of its form. Each
    # result tried replays the whole Event: a big one's results keep their forms (the
    # refusal says why on sending), where trying a round of them took seconds a view.
    barred = {} if page["big"] else events.uncorrectable(event, done, listed)
    # Its recorded places may still be confirmed as they are (what the API takes too).
    confirmable = events.confirmable(event, barred)
    results = [{
        "pairing": pid, "label": links[pid].label if pid in links else labels.get(pid, pid),
        "match": links[pid].match_id if pid in links else None,
        # (key, name, recorded place, the place its input holds)
        "places": [(key, names.get(key, key), place,
                    posted.get(f"place_{key}", place) if pid == corrected else place)
                   for key, place in sorted(res["placements"].items(), key=lambda kv: kv[1])],
        "open": pid == corrected,
        "no_winner": formats.no_winner(formats.MatchResult(pid, res["placements"])),
        "barred": barred.get(pid),
        "confirmable": pid in confirmable,
    } for pid, res in ((pid, done.results[pid]) for pid in listed)]
    return {
        "event": event,
        "error": error,
        "posted": {name: posted.get(name, "") for name in KEPT_FIELDS},
        # A refused "When and notes" form, as typed (its time in the organizer's zone).
        "details_posted": {"starts_at": posted.get("starts_at", ""),
                           "notes": posted.get("notes", "")} if "notes" in posted else None,
        "notes_length": events.NOTES_LENGTH,
        **_settings_context(event, user, posted),
        **_season_context(event, user),
        "entrants": _with_live_matches(event, _entrants(event).select_related("player", "team")
                                       .prefetch_related("team__members")),
        "reinstatable": events.reinstatable(event, done),
        "bots": registry.bot_names(event.game),
        # Each Register form's pick fields (Add player, Add team, Add bot): the refused
        # one's as typed, to mend, not emptied.
        "register_picks": {name: _pick_fields(offered, {}, typed if form == f"add-{name}"
                                              else None)
                           for name in ("player", "team", "bot")},
        "takes_players": events.takes_players(event),
        # Not a refusal of anything the organizer sent: the card's own words, no code.
        "entry_refused": _detail_or_none(events.entry_refused(event, done)),
        "seed_methods": SEED_CHOICES,
        "seeded_by": done.seeded_by,
        "seeded_how": SEEDED_WORDS.get(done.seeded_by, done.seeded_by),
        "starting": len(done.order),  # the entrants Start lays out (none withdrawn)
        "results": results,
        "round_page": page,
        **_held_context(event, done, names),
        "format_title": FORMAT_TITLES.get(event.format, event.format),
        "game_title": _titles().get(event.game, event.game),
    }


def _season_context(event: Event, user: Any) -> dict[str, Any]:
    """The season card of the organizer panel: the seasons of the Event's game `user`
    organizes (every one, for staff, with no season), the Event's own among them."""
    seasons = Season.objects.filter(game=event.game)
    if not getattr(user, "is_staff", False):
        seasons = seasons.filter(Q(organizers=user) | Q(pk=event.season_id)).distinct()
    choices = [(season.pk, season.name) for season in seasons.order_by("-created_at", "-id")]
    if getattr(user, "is_staff", False) or event.season_id is None:
        choices.append(("", "No season"))
    return {"season_choices": choices,
            "season_movable": any(pk != (event.season_id or "") for pk, _ in choices)}


def _settings_context(event: Event, user: Any, posted: Any) -> dict[str, Any]:
    """The settings card of a draft's organizer panel: why its form is not offered, or
    the values it holds (a refused form's as typed, else the Event's)."""
    if event.status != Event.Status.DRAFT:
        return {}
    refused = _detail_or_none(events.settings_refused(event, user))
    if refused is not None:
        return {"settings_refused": refused}
    if "format_options" in posted:
        shown = {name: posted.get(name, "") for name in events.SETTINGS}
    else:
        shown = {name: getattr(event, name) for name in events.SETTINGS}
        shown["format_options"] = json.dumps(event.format_options)
        shown["match_options"] = json.dumps(event.match_options)
    # The formats its game takes, and the one stored (an Event made before a format was
    # kept to its game shows what it holds, and saving it says why it is refused).
    offered = dict(format_choices(event.game))
    choices = [(key, title) for key, title in FORMAT_CHOICES
               if key == event.format or key in offered]
    return {"settings": shown, "format_choices": choices,
            "policies": Event.DeadlinePolicy.choices,
            "longest_deadline": events.LONGEST_TURN_DEADLINE}


def _detail_or_none(refusal: Refusal | None) -> str | None:
    return None if refusal is None else refusal.detail


def _held_context(event: Event, done: events.Replayed,
                  names: dict[str, str]) -> dict[str, Any]:
    """The pairings that wait for the organizer (every round the release lets go: a double
    elimination's winners' and losers' rounds at once) with the byes of those rounds and
    the walkovers withdrawals decided in them (each naming its winner as the format
    counts it, `events.walkovers`: kept when they withdrew in turn, else a loss for both),
    their pairings as text, and whether the format lets the organizer pair them by hand.
    A pairing of those rounds still waiting on a result is not released, so not listed.
    Where the format pairs by hand, the text seats every entrant still in, as a hand
    pairing must (a walkover's winner and a late entrant alone on a line: a bye)."""
    held = events.held_pairings(event, done)
    if not held:
        return {"held": [], "held_title": "", "held_name": "", "held_text": "",
                "held_left_out": [], "pairs_by_hand": False}
    rounds = {(p.stage, p.round) for p in held}
    rounds_held = _held_rounds(held)
    named = _and(rounds_held)
    ready = {p.id for p in held}
    gone = {key for key, entrant in done.entrants.items() if entrant["withdrawn"]}
    given = {pid: winner for pid, winner in events.walkovers(done).items()
             if pid not in done.matches and pid not in done.results}
    fmt = formats.get_format(event.format)
    drawn = [p for p in fmt.pairings(done.state) if (p.stage, p.round) in rounds
             and (p.id in ready or (p.entrants and None in p.slots) or p.id in given)]
    by_hand = fmt.takes_hand_pairings(done.state)
    lines = [[k for k in p.entrants if k not in gone] for p in drawn]
    seated = {k for line in lines for k in line}
    # Entered after the round was drawn: released as drawn, it leaves them out of it.
    left_out = [key for key in done.entrants if key not in gone and key not in seated] \
        if by_hand else []
    lines += [[key] for key in left_out]
    return {
        # A walkover names who the format counts its win for ("" where nobody won it).
        # Each seat's name and entrant key (a hand pairing is typed in keys).
        "held": [{"pairing": p, "seats": [(names.get(k, k), k) if k else ("bye", "")
                                          for k in p.slots],
                  "walkover": p.id in given,
                  # (a bye its entrant withdrew from before the round was over: no point)
                  "lost_bye": len(p.entrants) == 1 and None in p.slots
                  and p.entrants[0] in gone,
                  "winner": names.get(won, won) if (won := given.get(p.id)) else ""}
                 for p in drawn],
        "held_title": f"{_capital(named)} {'is' if len(rounds_held) == 1 else 'are'} "
                      "waiting for you",
        # What Release and Pair by hand ask about: "round 3", "rounds 3 and 4", "Winners
        # round 2 and Losers round 1".
        "held_name": named,
        "held_text": "\n".join(" ".join(line) for line in lines if line),
        "held_left_out": [f"{names.get(key, key)} ({key})" for key in left_out],
        "pairs_by_hand": by_hand,
    }


# A double elimination's brackets, and its grand final, number their rounds each their own.
OWN_ROUND_NUMBERS = {"winners", "losers", "grand_final"}


def _held_rounds(held: list[formats.Pairing]) -> list[str]:
    """The held rounds, named: "round 3" (a final and its third place are one round), or
    "rounds 3 and 4" as one name; rounds of different brackets with numbers of their own (a
    double elimination's winners' round 2 and losers' round 1) as their brackets name them,
    "Winners round 2", "Losers final", not "rounds 1 and 2"; and so is a round of one of
    them held alone ("Losers round 2", not "round 2", which reads as the winners')."""
    numbers = sorted({p.round for p in held})
    stages = {p.stage for p in held}
    own_numbers = bool(stages & OWN_ROUND_NUMBERS)
    if not own_numbers and (len(numbers) == 1 or len(stages) == 1):
        return [f"round {numbers[0]}" if len(numbers) == 1 else
                f"rounds {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"]
    named: dict[tuple[str, int], set[str]] = {}
    for p in held:  # "Winners round 2 match 1" -> "Winners round 2"; "Losers final" as is
        named.setdefault((p.stage, p.round), set()).add(
            re.sub(r" match \d+$", "", p.label) if p.label else "")
    return [stems.pop() if len(stems) == 1 and "" not in stems
            else f"{svg.section_title(stage)} round {number}"
            for (stage, number), stems in named.items()]


def _and(names: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _match_rows(event: Event, done: events.Replayed, names: dict[str, str],
                given: dict[str, str | None], where: list[tuple[str, int]] | None = None
                ) -> list[dict[str, Any]]:
    """The Event's matches in the order they were made (a grand final after the brackets,
    a playoff after its groups), with who plays and how it ended (`given`: the Event's
    walkovers, `events.walkovers`); those of the (stage, round)s `where` alone, if given."""
    rows = []
    out = _out_by_forfeit(event)  # (read from the matches' streams, not the records)
    links = EventMatch.objects.filter(event=event)
    if where is not None:
        links = links.filter(reduce(operator.or_, (Q(stage=stage, round=number)
                                                   for stage, number in where), Q(pk__in=[])))
    for link in (links.select_related("match")
                 .prefetch_related("match__seats")
                 .annotate(drawn=EventMatch.played_again()).order_by("match_id")):
        # A drawn match its pairing played again shows no places: the replay's are the result.
        result = {} if link.drawn else done.results.get(link.pairing, {})
        placements = result.get("placements", {})
        # A match a withdrawal ended has no result of its own: the format scores it as a
        # walkover, won by the one its withdrawal gave it (still so when they withdrew
        # in turn), as the standings count it.
        walkover = (not result and not link.drawn and link.match.status == FINISHED
                    and link.pairing in given)
        if walkover:
            placements = {key: 1 if key == given[link.pairing] else 2 for key in link.entrants}
        # The entrants the game plays as one side (a tag team pair) win and lose together.
        sides = events.result_sides(event, link.entrants, link.seats)
        outcomes = formats.outcomes(placements, sides)
        live = link.match.status != FINISHED
        # what a forfeit of each seat does: "out", "decides" (leaves one), "already_out"
        # (a forfeit or the rules, a Supershow fall, put it out) where the game eliminates
        # and plays on; "ends" elsewhere
        forfeits = match_services.forfeit_outcomes(link.match) if live else {}
        # who forfeited: the entrant whose forfeit ended it, and those a forfeit put out
        # while the others played on (a corrected result is the organizer's: none)
        forfeited = [names.get(key, key) for key in dict.fromkeys(
            key for key in (result.get("forfeit"), *result.get("forfeited", ()),
                            *result.get("forfeits", ())) if key)]
        rows.append({
            "link": link, "match": link.match,
            "live": live,
            "by_seed": result.get("decided_by") == "seed",
            "walkover": walkover,
            # over, its result not yet recorded (its task still to run, or waiting on the
            # sweep of missed results)
            "unrecorded": not live and not result and not walkover and not link.drawn,
            "forfeited": _and(forfeited) if forfeited else "",
            # played, nobody first: every entrant forfeited (all late together)
            "no_winner": not walkover and bool(placements) and 1 not in placements.values(),
            # first place shared across sides (played so, or corrected so): nobody won
            "draw": "draw" in outcomes.values(),
            "entrants": [{"key": key, "name": names.get(key, key),
                          "place": placements.get(key), "won": outcomes.get(key) == "win",
                          "bot": _playing_bot(link, key), "awaited": _awaited(link, key),
                          # why a forfeit put them out ("withdrawn", "resigned"...)
                          "out": next((out[link.match_id, seat] for seat in link.seats_of(key)
                                       if (link.match_id, seat) in out), ""),
                          "eliminated": any(forfeits.get(seat) == "already_out"
                                            for seat in link.seats_of(key)),
                          # what the Forfeit button does ("out", "decides", "ends")
                          "forfeit": next((forfeits[seat] for seat in link.seats_of(key)[:1]
                                           if seat in forfeits), "ends"),
                          "partner": _partners(link.entrants, sides, key)}
                         for key in link.entrants],
        })
    return rows


def _walkover_rows(done: events.Replayed, names: dict[str, str],
                   given: dict[str, str | None],
                   where: list[tuple[str, int]] | None = None) -> list[dict[str, Any]]:
    """The walkovers no match was made for (a round robin's pairings of a withdrawn
    entrant in rounds still to come, a bracket's next match), in the format's order, each
    naming the winner the standings count (nobody where it is a loss for both): the match
    list left them out, so a player's losses there outnumbered their matches. Of the
    rounds `where` names (a big Event's page: (stage, round) as `_match_rows` takes them),
    if given, as its matches are; a round no match was made in has no page of its own, and
    its walkovers stand on every one."""
    if not given:
        return []
    pairings = formats.get_format(done.format).pairings(done.state)
    if where is not None:
        paged = {(m["stage"], m["round"]) for m in done.matches.values()}
        pairings = [p for p in pairings if p.id in given and (
            (p.stage, p.round) in where or (p.stage, p.round) not in paged)]
    return [{"pairing": p.id, "label": p.label or p.id, "walkover": True, "unplayed": True,
             "draw": False, "forfeited": "", "nobody_won": given[p.id] is None,
             "entrants": [{"key": key, "name": names.get(key, key),
                           "won": key == given[p.id], "partner": False}
                          for key in p.entrants]}
            for p in pairings if p.id in given and p.id not in done.matches]


def _names_by_side(row: dict[str, Any]) -> str:
    """The row's entrants as a sentence: "alice and bruno vs olga" (a tag team's pair)."""
    words: list[str] = []
    for entrant in row["entrants"]:
        words += [entrant["name"], " and " if entrant["partner"] else " vs "]
    return "".join(words[:-1])


def _partners(entrants: list[str], sides: dict[str, int], key: str) -> bool:
    """Whether the entrant after `key` in the row plays on its side (a tag team pair):
    the row joins them with "and", and sides with "vs"."""
    after = entrants.index(key) + 1
    return key in sides and after < len(entrants) and sides.get(entrants[after]) == sides[key]


def _out_by_forfeit(event: Event) -> dict[tuple[int, int], str]:
    """The reason of the forfeit ("forfeit", "withdrawn", "deadline"...) by (match, seat)
    of each seat a forfeit put out of the Event's live matches, where the game plays on
    without it (a Royal Rumble pod)."""
    return {(match_id, seat): (payload or {}).get("reason") or "forfeit"
            for match_id, seat, payload in MatchEvent.objects.filter(
                match__event_match__event=event, match__status=Match.Status.ACTIVE,
                kind=MatchEvent.Kind.FORFEIT).values_list("match_id", "seat", "payload")}


def _awaited(link: EventMatch, entrant: str) -> bool:
    """Whether the live match waits for a decision of a seat of the entrant."""
    seats = set(link.seats_of(entrant))
    return link.match.status == Match.Status.ACTIVE and any(
        seat.awaited for seat in link.match.seats.all() if seat.index in seats)


def _playing_bot(link: EventMatch, entrant: str) -> str:
    """The bot that plays every seat of the entrant in the match (a bot entrant, or one
    whose seats were handed to it), or ""."""
    seats = {seat.index: seat for seat in link.match.seats.all()}
    bots = {seats[i].bot if seats[i].user_id is None else ""
            for i in link.seats_of(entrant) if i in seats}
    return bots.pop() if len(bots) == 1 else ""


def _version(*parts: Iterable[Any]) -> str:
    """A short fingerprint of what a polled partial shows."""
    return fingerprint(*[list(p) for p in parts])


def _matches_version(event: Event, matches: Iterable[tuple[int, str]]) -> str:
    """The version of the Event's polled partials (its live matches, its results): its
    records, its row's last save (a closed account's entry renamed, which writes no
    record: league.services._rename_entries) and the status of each of its matches (id
    and status, by id)."""
    return _version([event.seq, event.status, event.updated_at], matches)


def _seen(request: HttpRequest, event: Event) -> bool:
    """Whether the poller's `v` is the Event's version now: read in one query, so that a
    poll while nothing changed answers 204 without the replay and rows of the partial."""
    seen = request.GET.get("v")
    return bool(seen) and seen == _matches_version(event, EventMatch.objects.filter(
        event=event).order_by("match_id").values_list("match_id", "match__status"))


def _live_context(event: Event, error: str | None = None,
                  page: dict[str, Any] | None = None) -> dict[str, Any]:
    """The organizer's list of the Event's matches, of the rounds `page` shows
    (`_round_page`: all of them by default); its version is all the matches' (their
    statuses and the Event's records), then their moves (whom each one waits for)."""
    page = page or {"pages": [], "shown": None, "where": None, "asked": ""}
    done = events.replay_to_read(event)
    names = _names(event)
    given = events.walkovers(done)
    rows = _match_rows(event, done, names, given, page["where"])
    # A move in a round not shown still changes what the poll compares (as event_live does).
    made = [(r["match"].pk, r["match"].status, r["match"].seq) for r in rows] \
        if page["shown"] is None else list(
            EventMatch.objects.filter(event=event).order_by("match_id")
            .values_list("match_id", "match__status", "match__seq"))
    walkovers = _walkover_rows(done, names, given, page["where"])
    return {
        "event": event,
        "live_error": error,
        "rows": rows,
        "round_page": page,
        "walkovers": walkovers,
        "told": _told(rows, walkovers),
        "bots": registry.bot_names(event.game),
        # When each live match's turn deadline gives the people it waits for the Event's
        # policy (one gone by, the sweep not yet applying it, is said to have passed).
        "deadlines": {pk: {**deadline, "passed": deadline["at"] <= timezone.now()}
                      for pk, deadline in events.turn_deadlines(
                          r["match"] for r in rows if r["live"]).items()},
        "live_version": _matches_version(event, [(pk, status) for pk, status, _ in made])
        + "." + _version([(pk, seq) for pk, _, seq in made]),
    }


def _standings(event: Event) -> QuerySet[Standing]:
    """The Event's standings in the order its format ranks them (rows sharing a rank in
    seed order, as the format lists them; by key they read e10 before e2)."""
    return (Standing.objects.filter(event=event).order_by("position")
            .select_related("entrant", "entrant__player", "entrant__team"))


def _groups(event: Event, done: events.Replayed) -> dict[str, str]:
    """A multi-stage Event's entrants' stage-1 groups ("Group A"), where it has two or
    more: its standings rank the groups' winners first, then their seconds, each place
    by points a match, so a group winner of 1 point stood above another group's second
    of 2, the table not saying why."""
    return {key: f"Group {name}" for key, name in _group_names(event, done).items()}


def _group_names(event: Event, done: events.Replayed) -> dict[str, str]:
    """A multi-stage Event's entrants' stage-1 group names ("A"), where it has two or more
    groups; none otherwise."""
    state = done.state
    if event.format != "multistage" or state is None or len(state.groups) < 2:
        return {}
    return {key: group.name for group in state.groups for key in group.state.entrants}


def _tiebreak_columns(event: Event, standings: Iterable[Standing]) -> list[str]:
    """The tiebreaks the rows carry, in the order the Event's options rank them; the
    others after them, a game's figures in the order the game declares them (a Superstar
    Showdown Event's Ranking Points, which decide it, before what they are made of), then
    by name."""
    present: dict[str, None] = {}
    for row in standings:
        present.update(dict.fromkeys(row.tiebreaks))
    preferred = event.format_options.get("tiebreaks") or []
    # (each with its further passes after it: head_to_head, head_to_head:2, ...)
    passes = sorted((n for n in present if n.partition(":")[2].isdigit()), key=_pass)
    ordered = [name for tiebreak in preferred
               for name in [tiebreak, *(n for n in passes if n.startswith(f"{tiebreak}:"))]
               if name in present]
    try:
        declared = [f"figure:{name}" for name in registry.get_rules(event.game).spec.figures]
    except IllegalAction:
        declared = []  # a game this site plays no more

    def place(name: str) -> tuple[int, str]:
        return (declared.index(name) if name in declared else len(declared), name)

    return ordered + sorted((name for name in present if name not in ordered), key=place)


def _pass(name: str) -> int:
    """A further pass's number (head_to_head:2 is 2), so pass 10 follows pass 9."""
    return int(name.partition(":")[2])


def _ended_unrecorded(done: events.Replayed,
                      given: dict[str, str | None]) -> dict[str, str | None]:
    """The pairings over with no result recorded for them: a match a withdrawal ended (or
    whose result is on its way), and a walkover no match was made for (a round robin's
    later rounds, a bracket's next match). Each to the walkover's winner as the format
    counts it (`events.walkovers`: kept when they withdrew in turn), else None (a loss for
    both, a result on its way)."""
    waiting = {m["match"]: pid for pid, m in done.matches.items() if pid not in done.results}
    over = Match.objects.filter(pk__in=list(waiting), status=Match.Status.FINISHED)
    unmade = {pid for pid in given if pid not in done.results and pid not in done.matches}
    ended = {waiting[pk] for pk in over.values_list("pk", flat=True)} | unmade
    return {pid: given.get(pid) for pid in ended}


def _results_context(event: Event, user: Any, page: dict[str, Any] | None = None
                     ) -> dict[str, Any]:
    """The public Event page's live part: diagram, standings and matches, the live ones
    the reader sits in first; the matches of the rounds `page` shows (`_round_page`, as
    the organizer page lists them: all of them by default)."""
    page = page or {"pages": [], "shown": None, "where": None, "around": None, "asked": ""}
    done = events.replay_to_read(event)
    # As projected (a closed account's entry reads "Closed account"), else as entered.
    entrants = list(_entrants(event).select_related("player"))
    names = {key: e["name"] for key, e in done.entrants.items()} | {
        row.key: row.name for row in entrants}
    standings = list(_standings(event))
    columns = _tiebreak_columns(event, standings)
    champions = _champions(event, standings, events.last_decided(done))
    groups = _groups(event, done)
    given = events.walkovers(done)
    rows = _match_rows(event, done, names, given, page["where"])
    listed = {row["match"].pk for row in rows}  # the bracket's links Tab skips for these
    diagram, drawn = "", None
    # A bracket is an elimination's (a multi-stage Event's playoff); the other formats'
    # diagram draws their rounds, with no bracket to speak of.
    diagram_title = "Bracket" if event.format in (
        "single_elimination", "double_elimination", "multistage") else "Rounds"
    if done.state is not None:
        pairings = formats.get_format(event.format).pairings(done.state)
        kept, drawn = _drawn_rounds(pairings, page)
        # (a bracket's boxes read the results of the rounds not drawn: who a bye sends on)
        read = kept if not any(p.sources for p in pairings) else pairings
        shown = {p.id for p in read}
        diagram = svg.bracket_svg(
            read, names=names,
            results={pid: r["placements"] for pid, r in done.results.items() if pid in shown},
            links={pid: reverse("match_play", args=[m["match"]])
                   for pid, m in done.matches.items() if pid in shown},
            champion=tuple(c.entrant.key for c in champions) or None,
            withdrawn={key for key, e in done.entrants.items() if e["withdrawn"]},
            sides={pid: events.result_sides(event, m["entrants"], m.get("seats"))
                   for pid, m in done.matches.items() if pid in shown},
            ended=_ended_unrecorded(done, given),
            only=None if kept is pairings else {p.id for p in kept},
            listed={pid for pid, m in done.matches.items() if m["match"] in listed},
            called=f"{diagram_title} diagram",
        )
    walkovers = _walkover_rows(done, names, given, page["where"])
    # The reader's live matches, in whichever round; the version is every match's, so that
    # a round the page does not list (the next one, made meanwhile) refreshes it too.
    made = [(r["match"].pk, r["match"].status) for r in rows] if page["shown"] is None \
        else list(EventMatch.objects.filter(event=event).order_by("match_id")
                  .values_list("match_id", "match__status"))
    # (the page listed by default holds every round being played: its rows are those)
    live = rows if page["shown"] is None or not page["asked"] else _match_rows(
        event, done, names, given, list(EventMatch.objects.filter(event=event).exclude(
            match__status=FINISHED).order_by().values_list("stage", "round").distinct()))
    return {
        "event": event,
        "held_note": _held_note(event, done),
        "game_title": _titles().get(event.game, event.game),
        "format_title": FORMAT_TITLES.get(event.format, event.format),
        "diagram": diagram,
        "diagram_title": diagram_title,
        "diagram_rounds": drawn,
        "standings": [{"row": s, "tiebreaks": [s.tiebreaks.get(c) for c in columns],
                       "group": groups.get(s.entrant.key, "")}
                      for s in standings],
        "columns": columns,
        "champions": champions,
        "champion_names": " and ".join(c.entrant.name for c in champions),
        "shared_first": _shared_first(event, standings, champions, done),
        "forfeited_decider": _forfeited_decider(event, standings, done),
        "rows": rows,
        "walkovers": walkovers,
        "yours": [row for row in live if row["live"] and _still_plays(row, user)],
        "round_page": page,
        "entrants": entrants,
        "polling": event.status == Event.Status.RUNNING,
        "told": _told(rows, walkovers),
        "version": _matches_version(event, made),
    }


# A big Event's diagram is drawn whole on its "All rounds" page up to this many boxes (a
# 128-entrant single elimination's 127); past them, near the rounds being played.
DRAWN_WHOLE_UP_TO = 128


def _drawn_rounds(pairings: list[formats.Pairing], page: dict[str, Any]
                  ) -> tuple[list[formats.Pairing], str | None]:
    """The pairings the diagram draws, and which rounds those are when not all ("Rounds 3
    to 5 of 7", `_rounds_said`). Where the page lists some rounds (`where`, a big
    Event's), the diagram holds those rounds and the one either side of each, as the
    pager moves: a 128-entrant Swiss drawn whole was three quarters of its page, and a
    bracket's every round (the lines of a box whose feeders are not drawn start at its
    column). Where it lists every round of a big Event (`around`: "All rounds"), it is
    drawn whole up to DRAWN_WHOLE_UP_TO boxes, else near the rounds being played."""
    where = page["where"]
    if where is None and (page.get("around") is None or len(pairings) <= DRAWN_WHOLE_UP_TO):
        return pairings, None
    near = {(stage, number + step) for stage, number in where or page["around"]
            for step in (-1, 0, 1)}
    finals = _finals_beside(pairings, near)
    kept = [p for p in pairings if (p.stage, p.round) in near | finals]
    if len(kept) == len(pairings):
        return pairings, None
    said = _rounds_said(pairings, near)
    if not said:
        return kept, None
    beside = [name for name, drawn in (
        ("the winners' final", any(stage == "winners" for stage, _ in finals - near)),
        ("the grand final", any(stage == "grand_final" for stage, _ in finals - near)))
        if drawn]
    return kept, f"{said} with {_and(beside)}" if beside else said


# How `_rounds_said` names the rounds of a stage where an Event's stages number theirs
# each apart (a double elimination's winners' round 2 is not its losers' round 2).
SECTION_ROUNDS = {"winners": "winners' ", "losers": "losers' ", "groups": "group ",
                  "swiss": "Swiss ", "playoff": "playoff "}


def _numbering(stage: str) -> str:
    """The stage whose round numbers `stage` goes on with: a multi-stage Event's groups
    play their rounds side by side, a third-place match is its final's round, and heats'
    final pod the round after the last heats."""
    return "groups" if stage.startswith("group ") else {
        "third_place": "bracket", "final": "heats"}.get(stage, stage)


def _rounds_said(pairings: list[formats.Pairing], near: set[tuple[str, int]]) -> str:
    """The rounds `near` of the Event's `pairings` in words, of the count of their own
    numbering: "Rounds 3 to 5 of 7"; where stages number theirs apart, each named
    ("Winners' rounds 2 to 4 of 5 and losers' rounds 3 to 5 of 8", "the grand final"):
    one count of both read as the losers' rounds of the winners' too. "" where none is."""
    every: dict[str, set[int]] = {}
    drawn: dict[str, set[int]] = {}
    for p in pairings:
        section = _numbering(p.stage)
        every.setdefault(section, set()).add(p.round)
        if (p.stage, p.round) in near:
            drawn.setdefault(section, set()).add(p.round)
    named = len(every) > 1
    parts = []
    for section, numbers in drawn.items():
        if named and section == "grand_final":
            parts.append("the grand final")
            continue
        low, high = min(numbers), max(numbers)
        rounds = f"round {low}" if low == high else f"rounds {low} to {high}"
        prefix = SECTION_ROUNDS.get(section, "") if named else ""
        parts.append(f"{prefix}{rounds} of {max(every[section])}")
    return _capital(_and(parts)) if parts else ""


def _finals_beside(pairings: list[formats.Pairing], near: set[tuple[str, int]]
                   ) -> set[tuple[str, int]]:
    """A double elimination's winners' final and grand final rounds, as (stage, round),
    where the rounds `near` reach its losers' final (its losers' side plays its last
    rounds): drawn per stage, the losers' final stood with neither the winners' final
    whose loser it waits for nor the grand final its winner goes to."""
    losers = max((p.round for p in pairings if p.stage == "losers"), default=0)
    if not losers or ("losers", losers) not in near:
        return set()
    last = max((p.round for p in pairings if p.stage == "winners"), default=0)
    return {(p.stage, p.round) for p in pairings
            if p.stage == "grand_final" or (p.stage == "winners" and p.round == last)}


def _told(rows: list[dict[str, Any]], walkovers: list[dict[str, Any]]) -> str:
    """What a copy of the matches shows, as its poll URL carries it for `_results_news`:
    f12 shown finished, l13 shown live, wR3-2 a walkover row of that pairing shown."""
    return ".".join([*(f"{'l' if row['live'] else 'f'}{row['match'].pk}" for row in rows),
                     *(f"w{row['pairing']}" for row in walkovers)])


def _still_plays(row: dict[str, Any], user: Any) -> bool:
    """Whether the reader holds a seat of the live match row that is still in it: not
    one of an entrant a forfeit or the rules put out while the others play on (a Royal
    Rumble pod), whom the match asks nothing more."""
    out = {entrant["key"] for entrant in row["entrants"] if entrant["eliminated"]}
    keys = row["link"].seat_entrants()
    return any(seat.user_id == user.pk and keys[seat.index] not in out
               for seat in row["match"].seats.all())


def _held_note(event: Event, done: events.Replayed) -> str:
    """What the Event's page says of a round its organizer holds: its pairings, drawn on the
    diagram, make no match until the release, and a Swiss's may yet be paired by hand."""
    held = events.held_pairings(event, done)
    if not held:
        return ""
    numbers = sorted({p.round for p in held})
    verb, them = ("waits", "it") if len(numbers) == 1 else ("wait", "them")
    note = f"{_capital(_and(_held_rounds(held)))} {verb} for the organizer to release {them}"
    if formats.get_format(event.format).takes_hand_pairings(done.state):
        return f"{note}: its pairings may still change."
    return f"{note}."


def _ranking_context(event: Event) -> dict[str, Any]:
    """A Superstar Showdown Event's Ranking Points table, per match of the Event (None for
    other Events): each team's totals, and each Match's card, Stipulation and points."""
    if not showdown.is_event(event.game, event.match_options):
        return {"ranking": None}
    names = _names(event)
    cards, stipulations = showdown.match_card_titles(), showdown.stipulation_titles()
    totals = list(RankingTotal.objects.filter(event=event).order_by("match_id", "team"))
    points = list(RankingPoints.objects.filter(event=event)
                  .order_by("match_id", "number", "team"))
    played: dict[int, dict[int, list[RankingPoints]]] = defaultdict(lambda: defaultdict(list))
    for row in points:
        played[row.match_id][row.number].append(row)
    tables = [{
        "match_id": match_id,
        "teams": [{"row": t, "entrant": names.get(t.entrant, ""),
                   "superstars": [showdown.superstar_name(k) for k in t.superstars]}
                  for t in totals if t.match_id == match_id],
        "matches": [_ranking_match(number, rows, totals, cards, stipulations,
                                   over=event.status == Event.Status.FINISHED)
                    for number, rows in played[match_id].items()],
    } for match_id in dict.fromkeys(t.match_id for t in totals)]
    return {"ranking": {
        "tables": tables,
        "plan": showdown.describe(event.match_options.get("event")),
        "polling": event.status != Event.Status.FINISHED,
        # (its row's last save, as `_matches_version` reads it: a renamed entry)
        "version": _version([event.status, event.updated_at],
                            [(t.match_id, t.team, t.total, t.matches_won, t.winner)
                             for t in totals],
                            [(p.match_id, p.number, p.team, p.card, p.stipulation, p.status,
                              p.points, p.bonus_points) for p in points]),
    }}


def _ranking_match(number: int, rows: list[RankingPoints], totals: list[RankingTotal],
                   cards: dict[str, str], stipulations: dict[str, str], *,
                   over: bool = False) -> dict[str, Any]:
    """One Match of an Event: its card and Stipulation, how it ended, each team's points.
    `over`: the Event is, so a Match its series never finished (a side withdrawn or
    forfeited off the board) was stopped or never played, not playing or to come."""
    first = rows[0]
    team_names = {t.team: t.name for t in totals if t.match_id == first.match_id}
    winner = next((r.team for r in rows if r.outcome == RankingPoints.Outcome.WON), None)
    if any(r.outcome == RankingPoints.Outcome.DRAW for r in rows):
        result = "Draw"
    elif winner is not None:
        result = f"{team_names.get(winner, showdown.TEAM_NAMES[winner])} won"
    elif over:
        result = ("Not played: the series ended" if first.status == "pending"
                  else "Stopped: the series ended")
    else:
        result = {"pending": "To come", "playing": "Playing",
                  "bonus": "Spending the Performance Stacks"}.get(first.status, first.status)
    return {
        "number": number,
        "card": cards.get(first.card, first.card) if first.card else "To be drawn",
        "stipulation": (stipulations.get(first.stipulation, first.stipulation)
                        if first.stipulation else "To be drawn"),
        "status": first.status,
        "result": result,
        "teams": sorted(rows, key=lambda r: r.team),
    }


def _champions(event: Event, standings: list[Standing],
               last: events.Decided | None) -> list[Standing]:
    """The first of a finished Event: its sole first, or the entrants who share first
    place because they won the deciding match (`last`) as one side, a tag team's pair
    winning the final pod; none when first place is shared otherwise (a draw)."""
    if event.status != Event.Status.FINISHED:
        return []
    firsts = [s for s in standings if s.rank == 1]
    if len(firsts) < 2 or last is None or last.made is None:
        return firsts[:1] if len(firsts) == 1 else []
    sides = events.result_sides(event, last.made["entrants"], last.made.get("seats"))
    won = {key for key, outcome in formats.outcomes(last.result["placements"],
                                                     sides).items() if outcome == "win"}
    return firsts if {s.entrant.key for s in firsts} == won else []


def _shared_first(event: Event, standings: list[Standing],
                  champions: list[Standing], done: events.Replayed) -> str:
    """The names of those sharing first place in a finished Event that has no champion
    (a drawn final, a table level on every tiebreak), "a, b and c"; else "" (and where
    they share it by forfeiting the deciding match: `_forfeited_decider`)."""
    firsts = [s.entrant.name for s in standings if s.rank == 1]
    if event.status != Event.Status.FINISHED or champions or len(firsts) < 2 \
            or _forfeited_decider(event, standings, done):
        return ""
    return _and(firsts)


def _forfeited_decider(event: Event, standings: list[Standing],
                       done: events.Replayed) -> str:
    """Who forfeited, every one of them, what decided a finished Event (late together),
    so nobody won it and nobody is champion: "a and b forfeited the deciding match"; else
    "". Either its last match held all those first (a round robin's), or the format left
    first place empty for it (a bracket's final; a heats round every pod of which was
    forfeited by all, whose entrants are all named; a round robin or Swiss nobody won a
    match of: "... forfeited every match"). A third-place match decides no first place:
    whenever it was played, the match before it is the one read."""
    last = next((pid for pid in reversed(done.results)
                 if pid.rpartition(":")[2] != THIRD_PLACE), None)
    if event.status != Event.Status.FINISHED or last is None \
            or 1 in done.results[last]["placements"].values():
        return ""
    names = {s.entrant.key: s.entrant.name for s in standings}
    firsts = [s.entrant.key for s in standings if s.rank == 1]
    if firsts:
        if not set(firsts) <= set(done.results[last]["placements"]):
            return ""
        return f"{_and([names[k] for k in firsts])} forfeited the deciding match"
    made = done.matches.get(last, {})
    pods = [pid for pid, m in done.matches.items() if pid in done.results
            and (m["round"], m["stage"]) == (made.get("round"), made.get("stage"))] or [last]
    rounds = {(m["round"], m["stage"]) for pid, m in done.matches.items() if pid in done.results}
    # (a round robin or a Swiss every match of which was forfeited by all: nobody won a
    # match, and every entrant who played one is named)
    every = len(rounds) > 1 and not any(1 in r["placements"].values()
                                        for r in done.results.values())
    pods = list(done.results) if every else pods
    deciding = {key for pid in pods for key in done.results[pid]["placements"]}
    who = _and([names[s.entrant.key] for s in standings if s.entrant.key in deciding])
    # (a round after which nothing was left to play: a heats round, a bracket's semifinals)
    what = "every match" if every else "the deciding match" if len(pods) == 1 \
        else "every match of the last round played"
    return f"{who} forfeited {what}"


def _history_row(match: Match, seat: int, titles: dict[str, str],
                 finishes: history.Finishes) -> dict[str, Any]:
    """One match of a player's history: game, opponents (not the seats the game plays as
    one side with theirs: a tag team partner), outcome."""
    own = set(match_services.side_of(match, seat))
    others = [s.label for s in match.seats.all() if s.index not in own]
    return {"match": match, "game": titles.get(match.game, match.game), "opponents": others,
            "outcome": history.said(match, finishes.of(match, seat))}


def _rescore_context(job: str) -> dict[str, Any]:
    found = dashboard_tasks.progress(job)
    state = found or {"percent": 0, "state": "unknown"}
    return {"job": job, "progress": state, "lost_minutes": dashboard_tasks.LOST_AFTER // 60,
            "done": state["state"] in {"done", "failed", "lost", "unknown"}}


_CSV_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A typed name that a spreadsheet would run as a formula is quoted."""
    if isinstance(value, str) and value.startswith(_CSV_FORMULA):
        return "'" + value
    return value


def _csv_response(filename: str, header: list[str], rows: Iterable[list[Any]]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows([_cell(v) for v in row] for row in rows)
    return response


# -- simulation jobs ------------------------------------------------------------------------

@organizer_required
@require_safe
def simulations(request: HttpRequest) -> HttpResponse:
    """The simulation jobs, newest first, and the form to start one."""
    return _render_simulations(request, SimulationForm(games=_game_choices()))


@organizer_required
@require_POST
@_made_once("league:simulations")
def simulation_create(request: HttpRequest) -> HttpResponse:
    """Start a simulation job; its page next. A refusal comes back with its code, and
    nothing was written or queued. Sent twice, it makes one."""
    form = SimulationForm(request.POST, games=_game_choices())
    if not form.is_valid():
        return _render_simulations(request, form, status=400)
    try:
        job = simulation.create_job(by=request.user, **form.service_kwargs())
    except LeagueError as exc:
        refusal = {"code": exc.code, "detail": exc.detail}
        return _render_simulations(request, form, refusal=refusal, status=exc.status)
    return redirect("league:simulation", job_id=job.pk)


@organizer_required
@require_safe
def simulation_job(request: HttpRequest, job_id: int) -> HttpResponse:
    """One job: its progress (polled while it runs), its summary and its cancel button."""
    job = get_object_or_404(SimulationJob.objects.select_related("created_by"), pk=job_id)
    return render(request, "league/simulation.html", _simulation_context(request, job))


@organizer_required
@require_safe
def simulation_progress(request: HttpRequest, job_id: int) -> HttpResponse:
    """The polled progress and summary of a job; 204 while nothing in it changed."""
    job = get_object_or_404(SimulationJob, pk=job_id)
    context = _simulation_context(request, job)
    if request.GET.get("v") == context["version"]:
        return HttpResponse(status=204)
    return render(request, "league/_simulation_progress.html", context)


@organizer_required
@require_POST
def simulation_cancel(request: HttpRequest, job_id: int) -> HttpResponse:
    """Cancel a job (its creator or staff): no more chunks are queued, finished ones stay."""
    return _manage_job(request, job_id, simulation.cancel_job)


@organizer_required
@require_POST
def simulation_resume(request: HttpRequest, job_id: int) -> HttpResponse:
    """Resume a job (its creator or staff) whose worker crashed: the chunks it left claimed
    or queued are queued again at once, instead of at the sweep's next pass."""
    return _manage_job(request, job_id, simulation.resume_job)


def _manage_job(request: HttpRequest, job_id: int, act: Callable[..., Any]) -> HttpResponse:
    job = get_object_or_404(SimulationJob, pk=job_id)
    error = None
    try:
        act(job=job, by=request.user)
    except LeagueError as exc:
        error = match_services.shown(exc)
    job.refresh_from_db()
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("league:simulation", job_id=job.pk)
    # htmx swaps only 2xx answers, so a refusal comes back as 200 with its message.
    return render(request, "league/_simulation_progress.html",
                  _simulation_context(request, job, error))


@organizer_required
@require_safe
def simulation_logs(request: HttpRequest, job_id: int) -> StreamingHttpResponse:
    """The kept match logs of a job as JSON lines, one match a line, in match order."""
    job = get_object_or_404(SimulationJob, pk=job_id)
    if not simulation.reads_secrets(job, request.user):
        raise PermissionDenied("The logs replay its secret options (constructed decks): "
                               "its creator alone reads them.")
    if not job.logs:
        raise Http404("This job keeps no logs.")
    lines = (json.dumps(match, separators=(",", ":")) + "\n"
             for match in simulation.iter_logs(job))
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Content-Disposition"] = f'attachment; filename="simulation-{job.pk}-logs.jsonl"'
    return response


def _render_simulations(request: HttpRequest, form: SimulationForm, *,
                        refusal: dict[str, str] | None = None,
                        status: int = 200) -> HttpResponse:
    jobs = SimulationJob.objects.select_related("created_by").defer("totals", "summary")[:50]
    context = {
        "form": form, "refusal": refusal, "titles": _titles(),
        "jobs": [{"job": job, "progress": simulation.progress(job)} for job in jobs],
        "bots": {key: registry.bot_names(key) for key, _ in _game_choices()},
        "options_help": {key: rules.spec.to_json()["options"]
                         for key, rules in registry.games().items()},
    }
    return render(request, "league/simulations.html", context, status=status)


def _simulation_context(request: HttpRequest, job: SimulationJob,
                        error: str | None = None) -> dict[str, Any]:
    summary = job.summary or simulation.job_summary(job)
    return {
        "job": job,
        "progress": simulation.progress(job),
        "summary": summary,
        "by_seat": [_percents(row) for row in summary["by_seat"]],
        "by_entity": [_percents(row) for row in summary["by_entity"]],
        "first_player": _percents(summary["first_player"]),
        "can_manage": simulation.can_manage(job, request.user),
        "error": error,
        "title": _titles().get(job.game, job.game),
        "options_json": json.dumps(simulation.shown_options(job, request.user)),
        "version": f"{job.status}-{job.done_matches}",
    }


def _percents(row: dict[str, Any]) -> dict[str, Any]:
    """A summary row with its rates as percentages for people."""
    shown = {name: f"{100 * row[name]:.1f}%" for name in ("rate", "low", "high", "fair")
             if name in row}
    return {**row, "shown": shown}
