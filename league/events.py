"""The Event service: every organizer decision and every result is a record in the stream.

Guards come first (who may do it, whether the Event is in the right stage), then the
record is appended under the Event's row lock, then the projections of that Event are
recomputed from its stream in the same transaction. The format's bracket state is never
stored: it is replayed from the records by the pure `league.formats` package.
"""

from __future__ import annotations

import json
import logging
import random
import re
import reprlib
import secrets
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Model, OuterRef, Q, Subquery

from config.lru import LRU
from config.queue import after_commit, enqueue
from config.refusal import Refusal
from engine import registry
from engine.protocol import IllegalAction, quoted
from league import formats, showdown
from league.event_mail import no_reminder_tells
from league.formats.base import FIGURE_PREFIXES, MOST_POINTS, read_options
from league.models import Entrant, Event, EventMatch, EventRecord, Player, Rating, Season, Team
from matches import services as match_services
from matches.models import Match, Seat

log = logging.getLogger(__name__)

Kind = EventRecord.Kind
READ_REPLAYS = 64  # Events whose latest replay the pages keep (per process)
M = TypeVar("M", bound=Model)


class LeagueError(Refusal):
    """A refused organizer request."""


class PicksRefused(LeagueError):
    """An entry refused for its picks alone (the Event would take the entry): the entry
    form, which holds them, is where to mend them."""


# -- who may organize -------------------------------------------------------------------

def can_organize_season(season: Season | None, user: Any) -> bool:
    """Staff organize everything; a season's organizers organize its Events."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    return season is not None and season.organizers.filter(pk=user.pk).exists()


def can_organize_any(user: Any) -> bool:
    """Staff, or whoever organizes some season: they may make Events and teams."""
    return can_organize_season(None, user) or bool(
        user and user.is_authenticated and user.organized_seasons.exists())


def can_organize(event: Event, user: Any) -> bool:
    """Staff, the Event's organizers, and its season's organizers."""
    if can_organize_season(event.season, user):
        return True
    return bool(user and user.is_authenticated and event.organizers.filter(pk=user.pk).exists())


def sees_match_options(event: Event, user: Any) -> bool:
    """Whether `user` may read the Event's secret match options (the constructed decks
    every match is dealt): anyone once it is over; before, superusers and the organizers
    who hold no entry in it (one who plays would know the decks they face)."""
    return event.pk in match_options_readable([event], user)


def match_options_readable(events: Sequence[Event], user: Any) -> set[int]:
    """The ids of the `events` whose secret match options `user` may read (see
    `sees_match_options`), for a page of Events in three queries at most."""
    if getattr(user, "is_superuser", False):
        return {event.pk for event in events}
    live = [event for event in events if event.status != Event.Status.FINISHED]
    readable = {event.pk for event in events} - {event.pk for event in live}
    if not live or not (user and user.is_authenticated):
        return readable
    if user.is_staff:
        organized = {event.pk for event in live}
    else:
        seasons = set(user.organized_seasons.values_list("pk", flat=True))
        own = set(user.organized_events.filter(pk__in=[e.pk for e in live])
                  .values_list("pk", flat=True))
        organized = {e.pk for e in live if e.pk in own or e.season_id in seasons}
    entered = set(Entrant.objects.filter(event__in=organized).filter(
        Q(player__user=user) | Q(team__members__user=user)).values_list("event_id", flat=True))
    return readable | (organized - entered)


def _require(allowed: bool, detail: str = "Only an organizer of this Event may do that.") -> None:
    if not allowed:
        raise LeagueError("not_organizer", detail, 403)


# -- seasons and Events -----------------------------------------------------------------

def _check_game(game: str) -> Any:
    try:
        return registry.get_rules(game)
    except IllegalAction as exc:
        raise LeagueError(exc.code, exc.message) from None


def check_scoring(scoring: Any) -> None:
    """A season's points for a win, a draw and a loss, best first, none past MOST_POINTS."""
    if not isinstance(scoring, dict) or set(scoring) != {"win", "draw", "loss"} or not all(
        isinstance(v, int | float) and not isinstance(v, bool)
        and -MOST_POINTS <= v <= MOST_POINTS for v in scoring.values()
    ):
        raise LeagueError("bad_scoring", "Scoring gives points for win, draw and loss, each "
                                         f"from -{MOST_POINTS} to {MOST_POINTS}.")
    if not scoring["win"] >= scoring["draw"] >= scoring["loss"]:
        raise LeagueError("bad_scoring", "A win scores at least a draw, a draw at least a "
                                         "loss.")


def check_dates(starts_on: Any, ends_on: Any) -> None:
    """A season's first and last days, either left open: the last not before the first."""
    if starts_on and ends_on and ends_on < starts_on:
        raise LeagueError("bad_dates", "A season cannot end before it starts.")


def create_season(*, name: str, game: str, by: Any, starts_on: Any = None,
                  ends_on: Any = None, scoring: dict[str, float] | None = None,
                  key: str | None = None) -> Season:
    """A new season; staff only. Its creator becomes one of its organizers. A `key` its
    creator gave before answers with the season that request made."""
    made = made_with_key(Season, by, key, "another game's season", game=game)
    if made is not None:
        return made
    _require(bool(by and by.is_authenticated and by.is_staff), "Only staff make seasons.")
    _check_game(game)
    if not (name or "").strip():
        raise LeagueError("bad_name", "A season needs a name.")
    scoring = scoring or {"win": 3, "draw": 1, "loss": 0}
    check_scoring(scoring)
    check_dates(starts_on, ends_on)
    try:
        with transaction.atomic():
            season = Season.objects.create(name=name.strip(), game=game, starts_on=starts_on,
                                           ends_on=ends_on, scoring=scoring, created_by=by,
                                           idempotency_key=key or "")
            season.organizers.add(by)
    except IntegrityError:
        made = made_with_key(Season, by, key, "another game's season", game=game)
        if made is None:
            raise
        return made  # the same key, sent again while the first was being made
    return season


LONGEST_TURN_DEADLINE = 30 * 24 * 60  # minutes


def create_event(*, name: str, game: str, format: str, by: Any, season: Season | None = None,
                 format_options: dict[str, Any] | None = None,
                 match_options: dict[str, Any] | None = None,
                 turn_deadline_minutes: int | None = None,
                 deadline_policy: str = "bot",
                 deadline_bot: str = "heuristic", hold_rounds: bool = False,
                 open_entry: bool = False, starts_at: datetime | None = None,
                 notes: str = "", key: str | None = None) -> Event:
    """A new Event taking entrants (players enter themselves too with `open_entry`); every
    option is checked before anything is written. `starts_at` and `notes` as in
    `set_details`. A `key` its creator gave before answers with the Event that request
    made (a client resending a create whose answer it lost)."""
    return _create_event(
        name=name, game=game, format=format, by=by, season=season,
        format_options=format_options, match_options=match_options,
        turn_deadline_minutes=turn_deadline_minutes, deadline_policy=deadline_policy,
        deadline_bot=deadline_bot, hold_rounds=hold_rounds, open_entry=open_entry,
        starts_at=starts_at, notes=notes, key=key)[0]


def _create_event(*, name: str, game: str, format: str, by: Any, season: Season | None = None,
                  format_options: dict[str, Any] | None = None,
                  match_options: dict[str, Any] | None = None,
                  turn_deadline_minutes: int | None = None, deadline_policy: str = "bot",
                  deadline_bot: str = "heuristic", hold_rounds: bool = False,
                  open_entry: bool = False, starts_at: datetime | None = None,
                  notes: str = "", key: str | None = None) -> tuple[Event, bool]:
    """`create_event`, and whether this call made the Event (not a repeat of its `key`)."""
    made = made_with_key(Event, by, key, "another game's or format's Event", game=game,
                         format=format)
    if made is not None:
        return made, False
    # The Event does not exist yet: the refusal names what would have allowed it.
    _require(can_organize_season(season, by),
             "Only staff make an Event outside a season: name a season you organize."
             if season is None else "Only an organizer of this season makes its Events.")
    rules = _check_game(game)
    if season is not None and season.game != game:
        raise LeagueError("wrong_game", f"This season plays {registry.title(season.game)}, "
                                        f"not {rules.spec.title}.")
    if not (name or "").strip():
        raise LeagueError("bad_name", "An Event needs a name.")
    settings = _checked_settings(
        rules, format=format, format_options=format_options, match_options=match_options,
        turn_deadline_minutes=turn_deadline_minutes, deadline_policy=deadline_policy,
        deadline_bot=deadline_bot)
    if open_entry:
        _refuse_team_sides(game, settings["match_options"])
    notes, starts_at = _notes(notes), _not_past(_starts_at(starts_at))
    try:
        with transaction.atomic():
            event = Event.objects.create(
                name=name.strip(), game=game, season=season, **settings,
                hold_rounds=bool(hold_rounds),
                open_entry=bool(open_entry), starts_at=starts_at, notes=notes, created_by=by,
                idempotency_key=key or "",
            )
            event.organizers.add(by)
    except IntegrityError:
        made = made_with_key(Event, by, key, "another game's or format's Event", game=game,
                         format=format)
        if made is None:
            raise
        return made, False  # the same key, sent again while the first was being made
    return event, True


# What an Event's organizers set at its creation and may change until it starts
# (`change_settings`): each an Event column, checked by `_checked_settings`.
SETTINGS = ("format", "format_options", "match_options", "turn_deadline_minutes",
            "deadline_policy", "deadline_bot")


def _checked_settings(rules: Any, *, format: str, format_options: dict[str, Any] | None,
                      match_options: dict[str, Any] | None,
                      turn_deadline_minutes: int | None, deadline_policy: str,
                      deadline_bot: str, stored: dict[str, Any] | None = None
                      ) -> dict[str, Any]:
    """The Event's SETTINGS for the game of `rules`, checked (options resolved, defaults
    filled in) as they are stored: the same checks, codes and order at the creation and at
    a change. At a change, `stored` holds the Event's settings as they are: a check that
    refuses only what the change keeps of them says so (`_kept_refusal`)."""
    game = rules.spec.key
    asked = {"format": format, "format_options": format_options,
             "match_options": match_options, "turn_deadline_minutes": turn_deadline_minutes,
             "deadline_policy": deadline_policy, "deadline_bot": deadline_bot}

    def check(names: tuple[str, ...], call: Any) -> Any:
        try:
            return call()
        except LeagueError as exc:
            if stored is None or any(asked[name] != stored[name] for name in names):
                raise
            raise _kept_refusal(names[-1], exc) from None

    check(("format",), lambda: _try_format(lambda: formats.get_format(format)))
    check(("format",), lambda: _check_format_game(format, game))
    fmt_options = check(("format", "format_options"),
                        lambda: _format_options(format, format_options, rules.spec))
    resolved = check(("format", "format_options", "match_options"),
                     lambda: _match_options(rules, match_options,
                                            _table_sizes(fmt_options, rules.spec)))
    check(("format", "match_options"), lambda: _check_series_event(format, game, resolved))
    check(("deadline_policy",), lambda: _check_policy(deadline_policy))
    check(("deadline_bot",), lambda: _check_deadline_bot(game, deadline_bot))
    check(("turn_deadline_minutes",), lambda: _check_deadline(turn_deadline_minutes))
    # As the columns store them (a default tuple is a list there), so that a change
    # compares with what is stored.
    return dict(json.loads(json.dumps({
        "format": format, "format_options": fmt_options, "match_options": resolved,
        "turn_deadline_minutes": turn_deadline_minutes, "deadline_policy": deadline_policy,
        "deadline_bot": deadline_bot})))


def format_refused(format: str, game: str) -> LeagueError | None:
    """Why an Event of `game` may not take the format `format`, made for another game
    alone (the Showdown series is a Superstar Showdown Event's: for any other game it
    would be one match standing for the whole Event); None when it may."""
    owner = formats.game_of(format)
    if owner is None or owner == game:
        return None
    return LeagueError("format_not_for_game",
                       f"The format {quoted(format)} is for {registry.title(owner)} Events "
                       f"only, not {registry.title(game)}: choose another format.")


def _check_format_game(format: str, game: str) -> None:
    refusal = format_refused(format, game)
    if refusal is not None:
        raise refusal


def series_refused(format: str, game: str, match_options: dict[str, Any] | None
                   ) -> LeagueError | None:
    """Why a Showdown series of `game` may not take these match options: without the
    `event` option its one match is a single Match card, a short game, where the series
    stands for an Event of at least two Matches (SS-127); None when it may."""
    if format != showdown.FORMAT or showdown.is_event(game, match_options):
        return None
    return LeagueError("series_needs_event",
                       "A Superstar Showdown Event is a series of at least two Matches "
                       "(SS-127): give the match option \"event\" (a preset's key, or "
                       "Matches composed one by one), or make it from a preset. A single "
                       "Match is played in another format.")


def _check_series_event(format: str, game: str, match_options: dict[str, Any]) -> None:
    refusal = series_refused(format, game, match_options)
    if refusal is not None:
        raise refusal


def _check_policy(deadline_policy: str) -> None:
    if deadline_policy not in Event.DeadlinePolicy.values:
        raise LeagueError("bad_policy", "The deadline policy is 'bot' or 'forfeit'.")


def _check_deadline_bot(game: str, deadline_bot: str) -> None:
    if deadline_bot not in registry.bot_names(game):
        raise LeagueError("unknown_bot", f"{registry.title(game)} has no bot called "
                                          f"{quoted(deadline_bot)}.")


def _check_deadline(turn_deadline_minutes: int | None) -> None:
    if turn_deadline_minutes is not None \
            and not 0 < turn_deadline_minutes <= LONGEST_TURN_DEADLINE:
        raise LeagueError("bad_deadline", "A turn deadline is 1 to "
                                          f"{LONGEST_TURN_DEADLINE} minutes (30 days).")


# How a refusal of a stored setting names it: its words, and the pronoun for it.
SETTING_WORDS = {"format": ("format", "it"), "format_options": ("format options", "them"),
                 "match_options": ("match options", "them"),
                 "turn_deadline_minutes": ("turn deadline", "it"),
                 "deadline_policy": ("deadline policy", "it"),
                 "deadline_bot": ("deadline bot", "it")}


def _kept_refusal(name: str, exc: LeagueError) -> LeagueError:
    """A check's refusal of the Event's setting `name` as it is stored, which the change
    keeps: made before today's checks (a tiebreak naming a figure the game never
    reports), it would refuse every change that keeps it, the refusal reading as if about
    what the organizer changed. It names the stored setting and what to do: change it
    too, in the same change."""
    words, it = SETTING_WORDS[name]
    are = "are" if it == "them" else "is"
    return LeagueError(exc.code, f"The Event's {words} as stored {are} refused now, and "
                                 f"this change keeps {it}: {exc.detail.rstrip('.')}. "
                                 f"Change the {words} too, in the same change, to save it.",
                       exc.status)


def made_with_key(model: type[M], by: Any, key: str | None, other: str,
                  **kind: Any) -> M | None:
    """The `model` row (an Event, a season, a team, a simulation job) `by` made with `key`
    before, if any; refused (409 key_reused) when its `kind` fields differ, as `other`
    ("another game's season") says: the client reused a key for something new."""
    if not key or not getattr(by, "pk", None):
        return None
    made = model._default_manager.filter(created_by=by, idempotency_key=key).first()
    if made is not None and any(getattr(made, name) != value for name, value in kind.items()):
        noun = model._meta.verbose_name if model is not Event else "Event"
        raise LeagueError("key_reused", f"That idempotency key created {other}: use a new "
                                        f"key for a new {noun}.", 409)
    return made


def _match_options(rules: Any, given: dict[str, Any] | None,
                   tables: Iterable[int]) -> dict[str, Any]:
    """Every match's options, defaults filled in; a Superstar Showdown Event's `event`
    option is checked whole, and the engine must be able to start a match with them at
    every table size the Event may deal."""
    try:
        resolved: dict[str, Any] = rules.spec.resolve_options(given)
        if showdown.is_event(rules.spec.key, resolved):
            showdown.check_event(resolved["event"])
        for n_seats in tables:
            rules.start(resolved, n_seats)
    except IllegalAction as exc:
        raise LeagueError(exc.code, exc.message) from None
    return resolved


def _table_sizes(fmt_options: dict[str, Any], spec: Any) -> range:
    """The seats an Event's matches may have: a pod's (heats), else two."""
    if "pod_size" in fmt_options:
        return range(fmt_options["min_pod_size"], fmt_options["pod_size"] + 1)
    return range(2, 3)


def create_showdown_event(*, by: Any, preset: str | None = None, matches: Any = None,
                          superstars_per_team: Any = None, name: str = "",
                          season: Season | None = None,
                          sides: list[dict[str, Any]] | None = None,
                          match_options: dict[str, Any] | None = None,
                          **event_settings: Any) -> Event:
    """A Superstar Showdown Event from a preset or composed Match by Match (SS-127..SS-129,
    SS-160..SS-162): a `showdown_series` Event whose one match is the whole series.

    With `sides` (Red's and Blue's entrant, each `{"team" | "player" | "bot": ...}`) both
    are entered and the Event starts at once; otherwise it waits for its two entrants.
    Everything or nothing is written.
    """
    try:
        option = showdown.event_option(preset=preset, matches=matches,
                                       superstars_per_team=superstars_per_team)
    except IllegalAction as exc:
        raise LeagueError(exc.code, exc.message) from None
    if sides and len(sides) != 2:
        raise LeagueError("two_sides", "An Event has two sides, Red and Blue: give both or "
                                       "neither.")
    title = (name or "").strip() or (showdown.preset_titles()[option] if isinstance(option, str)
                                     else "Superstar Showdown Event")
    with transaction.atomic():
        event, made = _create_event(name=title, game=showdown.GAME, format=showdown.FORMAT,
                                    by=by, season=season,
                                    match_options={**(match_options or {}), "event": option},
                                    **event_settings)
        if not made:  # a create sent again: its sides are entered already
            return event
        for side in sides or []:
            add_entrant(event=event, by=by, **side)
        if sides:
            start_event(event=event, by=by)
    event.refresh_from_db()
    return event


MOST_ENTRANTS_CHECKED = 64


def _format_options(key: str, given: dict[str, Any] | None, spec: Any) -> dict[str, Any]:
    """The format's options, checked before anything is written: the game seats every
    table they deal, and some field of 2 to 64 entrants can start with them (a bound such
    as Swiss rounds depends on the field, which is not known yet)."""
    fmt = _try_format(lambda: formats.get_format(key))
    options = _try_format(lambda: read_options(fmt.options, given or {}))
    if {"win_points", "draw_points", "loss_points"} <= set(options):
        # as a season's scoring (at creation only: a stored Event replays as it was made)
        check_scoring({"win": options["win_points"], "draw": options["draw_points"],
                       "loss": options["loss_points"]})
    # a tiebreak listed twice is a slip (its second place never decides anything); refused
    # at creation only, as the scoring is
    tiebreaks = options.get("tiebreaks") or ()
    repeated = [name for i, name in enumerate(tiebreaks) if name in tiebreaks[:i]]
    if repeated:
        raise LeagueError("bad_option", f"The tiebreak {quoted(repeated[0])} is listed twice.")
    _refuse_unreported_figures(tiebreaks, spec)
    pod = options.get("pod_size")
    if pod is not None and not spec.min_seats <= pod <= spec.max_seats:
        raise LeagueError("bad_pod_size", f"{spec.title} seats {spec.min_seats}-"
                                          f"{spec.max_seats} at a table, not {pod}.")
    if pod is None and spec.min_seats > 2:
        raise LeagueError("needs_heats", f"{spec.title} needs at least {spec.min_seats} "
                                         "at a table: choose the heats format.")
    if "min_pod_size" in options:
        if "min_pod_size" not in (given or {}):
            options["min_pod_size"] = max(options["min_pod_size"], spec.min_seats)
        elif options["min_pod_size"] < spec.min_seats:
            raise LeagueError("bad_pod_size", f"{spec.title} needs {spec.min_seats} at a "
                                              f"table: min_pod_size cannot be "
                                              f"{options['min_pod_size']}.")
    refusal: formats.FormatError | None = None
    for n in range(2, MOST_ENTRANTS_CHECKED + 1):
        try:
            fmt.start([f"e{i}" for i in range(1, n + 1)], options)
            return options
        except formats.FormatError as exc:
            refusal = exc  # the largest field's bounds are the widest to quote
    assert refusal is not None
    code = "bad_option" if refusal.code == "bad_entrant_count" else refusal.code
    raise LeagueError(code, f"No field of up to {MOST_ENTRANTS_CHECKED} entrants can start "
                            f"with these options: {refusal.message}")


def _refuse_unreported_figures(tiebreaks: Sequence[str], spec: Any) -> None:
    """A `figure:NAME` or `diff:NAME` tiebreak names a figure the game's results report
    (`GameSpec.figures`): any other would be a column of zeros that breaks no tie. Refused
    at the creation and at a change only, as the scoring is: a stored Event replays with
    the tiebreaks it was made with."""
    for name in tiebreaks:
        kind, _, figure = name.partition(":")
        if f"{kind}:" in FIGURE_PREFIXES and figure not in spec.figures:
            reported = (f"its figures are {', '.join(spec.figures)}" if spec.figures
                        else "it reports none")
            raise LeagueError("bad_option", f"The tiebreak {quoted(name)} names a figure "
                                            f"{spec.title} does not report: {reported}.")


def create_team(*, name: str, members: list[str], by: Any, key: str | None = None) -> Team:
    """A team and its members (usernames), or nothing; staff and season organizers. A
    `key` its creator gave before answers with the team that request made, when this is
    that request sent again (the same name and members)."""
    name = (name or "").strip()
    names = list(dict.fromkeys(m.strip() for m in members if m and m.strip()))
    made = _team_resent(by, key, name, names)
    if made is not None:
        return made
    _require(can_organize_any(by), "Only staff and seasons' organizers make teams.")
    from league.services import player_for

    if not name or len(name) > 64:
        raise LeagueError("bad_name", "A team name is 1-64 characters.")
    if not names:
        raise LeagueError("empty_team", "A team has at least one member.")
    try:
        with transaction.atomic():
            # Locked as closing an account locks it (league.services.close_user), which
            # takes it out of its teams: one closed meanwhile is no member.
            users = {u.get_username(): u for u in get_user_model().objects
                     .select_for_update(no_key=True).filter(username__in=names, is_active=True)
                     .order_by("pk")}
            missing = [n for n in names if n not in users]
            if missing:
                raise LeagueError("unknown_player", f"No player called {quoted(missing[0])}.")
            if Team.objects.filter(name__iexact=name).exists():
                return _team_made_meanwhile(by, key, name, names)
            team = Team.objects.create(name=name, created_by=by, idempotency_key=key or "")
            team.members.set([player_for(users[n]) for n in names])
    except IntegrityError:  # the same name, in any case, or the same key at the same moment
        return _team_made_meanwhile(by, key, name, names)
    return team


def _team_made_meanwhile(by: Any, key: str | None, name: str, names: list[str]) -> Team:
    """The team a create sent with the same key made while this one was checked (a resend
    arriving together with the first), or a refusal: the name is another team's (409
    team_exists), or the key was used for another name (409 key_reused)."""
    made = _team_resent(by, key, name, names)
    if made is None:
        raise _team_exists(name)
    return made


def _team_resent(by: Any, key: str | None, name: str, names: list[str]) -> Team | None:
    """The team `by` made with `key` when this create is that one sent again, the same
    name and the same members (usernames `names`); None when the key made nothing. The
    key's team of another name is 409 key_reused, and of other members 409 team_exists:
    the name is taken by a team this create would not make."""
    made = made_with_key(Team, by, key, "a team of another name", name=name)
    if made is None:
        return None
    if {m.user.get_username() for m in made.members.select_related("user")} != set(names):
        raise _team_exists(name, " with other members")
    return made


def _team_exists(name: str, members: str = "") -> LeagueError:
    return LeagueError("team_exists", f"There is already a team called {quoted(name)}"
                                      f"{members}.", 409)


# -- the stream -------------------------------------------------------------------------

def _append(event: Event, kind: str, payload: dict[str, Any], actor: Any,
            key: str | None = None) -> EventRecord:
    """Append one record (made by a create sent with idempotency `key`, if any); the
    caller holds the Event's row lock."""
    event.seq += 1
    record = EventRecord.objects.create(event=event, seq=event.seq, kind=kind,
                                        payload=payload, actor=actor,
                                        idempotency_key=key or "")
    event.save(update_fields=["seq", "status", "updated_at"])
    return record


def _locked(event: Event, expected_seq: int | None = None,
            kinds: Sequence[str] = ()) -> Event:
    """The Event's row, locked. With `expected_seq` (the record the organizer's page or
    client last read), refused (409 stale_seq) if a person's action was written since
    (the same action sent twice, another organizer's, a player's own entry or
    withdrawal), or a drawn match was replaced by a replay (an action naming its pairing
    would reach a match the reader never saw). What else the Event writes by itself
    meanwhile (matches made, results coming in) does not make a page stale, nor do the
    entrants' picks, which no organizer action reads (or an entrant changing them over
    and over would keep the organizers' forms refused), nor a change of its organizers
    (one removed is refused by `can_organize` instead). With `kinds`, only the records of
    those kinds written since do."""
    locked = Event.objects.select_for_update().get(pk=event.pk)
    since = Q(kind__in=kinds) if kinds else (
        (Q(actor__isnull=False) & ~Q(kind__in=(Kind.ENTRANT_PICKED, Kind.TEAM_PLAYER_CHOSEN,
                                                Kind.ORGANIZERS_CHANGED)))
        | Q(kind=Kind.MATCH_DRAWN))
    if expected_seq is not None and (expected_seq > locked.seq or locked.records.filter(
            since, seq__gt=expected_seq).exists()):
        raise LeagueError("stale_seq", f"The Event changed since it was read at record "
                          f"{expected_seq} (it is at {locked.seq}): an organizer or an "
                          "entrant acted, or a drawn match is being played again. Check it "
                          "and try again.", 409, seq=locked.seq)
    return locked


@dataclass
class Replayed:
    """An Event replayed from its records."""

    entrants: dict[str, dict[str, Any]]  # key -> entrant_added payload (+ withdrawn)
    order: list[str]                       # seed order (after seeding) or registration order
    seeded_by: str
    state: Any                             # the format's state once started, else None
    matches: dict[str, dict[str, Any]]     # pairing id -> match_created payload (the latest)
    results: dict[str, dict[str, Any]]     # pairing id -> result payload (corrections applied)
    finished: bool
    drawn: list[dict[str, Any]] = field(default_factory=list)  # replaced matches' payloads
    format: str = ""                       # the Event's format key (its pairings' labels)
    seq: int = 0                           # the last record folded in


def replay(event: Event, records: Iterable[EventRecord] | None = None) -> Replayed:
    """Fold the Event's records; the format state is rebuilt, never read from storage."""
    rows = list(records if records is not None else event.records.order_by("seq"))
    corrections = {r.payload["pairing"]: r.payload for r in rows
                   if r.kind == Kind.RESULT_CORRECTED}
    undone = {r.payload["withdrawal"] for r in rows if r.kind == Kind.ENTRANT_REINSTATED}
    out = Replayed({}, [], "registration", None, {}, {}, False, format=event.format)
    return _fold(event, out, rows, corrections, undone)


def caught_up(event: Event, done: Replayed | None = None, upto: int | None = None
              ) -> Replayed:
    """`done` (a replay of `event` up to its `seq`, the caller's own to change) with the
    records written since folded in, up to `upto` (all of them by default); the whole
    stream replayed when there is no `done`, or when a result was corrected since (a
    correction changes what the result it replaces gave when it was recorded), or a
    withdrawal undone (the format never saw it)."""
    if done is None:
        rows = event.records.filter(seq__lte=upto) if upto is not None else event.records
        return replay(event, rows.order_by("seq"))
    if done.seq == (event.seq if upto is None else upto):
        return done  # (the writer's own row: its seq is the last record it appended)
    later = event.records.filter(seq__gt=done.seq)
    rows = list((later.filter(seq__lte=upto) if upto is not None else later).order_by("seq"))
    if any(row.kind in (Kind.RESULT_CORRECTED, Kind.ENTRANT_REINSTATED) for row in rows):
        return caught_up(event, None, upto)
    done.format = event.format  # (changed by settings_changed records before the start)
    return _fold(event, done, rows, {})


def _fold(event: Event, out: Replayed, rows: Iterable[EventRecord],
          corrections: dict[str, dict[str, Any]], undone: Collection[int] = ()) -> Replayed:
    """`out` with `rows` (the records after its own, in order) folded in; `corrections`:
    the corrected results among all the records, by pairing; `undone`: the seqs of the
    withdrawals reinstated among them. One of a started Event is folded as if never
    written (`reinstate_entrant` refuses once anything since went by it); one before the
    start is undone by the reinstatement, which enters them again."""
    fmt = formats.get_format(event.format)
    for row in rows:
        p = row.payload
        out.seq = row.seq
        if row.kind == Kind.ENTRANT_WITHDRAWN and row.seq in undone and out.state is not None:
            continue
        if row.kind == Kind.ENTRANT_ADDED:
            out.entrants[p["key"]] = dict(p, withdrawn=False)
            out.order.append(p["key"])
            if out.state is not None:
                out.state = field_changed(event, out, fmt.add_entrant, p["key"])
        elif row.kind == Kind.ENTRANT_PICKED:
            out.entrants[p["key"]] |= {"picks": p["picks"], "dropped": bool(p.get("dropped"))}
        elif row.kind == Kind.TEAM_PLAYER_CHOSEN:
            out.entrants[p["key"]]["plays"] = p["player"]
        elif row.kind == Kind.ENTRANT_WITHDRAWN:
            out.entrants[p["key"]]["withdrawn"] = True
            if out.state is None:
                out.order.remove(p["key"])
            else:
                out.state = field_changed(event, out, fmt.withdraw, p["key"])
        elif row.kind == Kind.ENTRANT_REINSTATED:
            if out.entrants[p["key"]]["withdrawn"]:  # withdrawn before the start
                out.entrants[p["key"]]["withdrawn"] = False
                out.order.append(p["key"])
        elif row.kind == Kind.SEEDED:
            out.order, out.seeded_by = list(p["order"]), p["method"]
        elif row.kind == Kind.STARTED:
            # An Event started before formats had revisions pairs as revision 1 did.
            out.state = fmt.start(list(p["order"]), event.format_options,
                                  p.get("revision", 1))
        elif row.kind == Kind.PAIRED_BY_HAND:
            out.state = fmt.pair_by_hand(out.state, [list(x) for x in p["pairings"]])
        elif row.kind == Kind.MATCH_CREATED:
            if p["pairing"] in out.matches:  # played again after a refused draw
                out.drawn.append(out.matches[p["pairing"]])
            out.matches[p["pairing"]] = p
        elif row.kind == Kind.RESULT_RECORDED:
            result = corrections.get(p["pairing"], p)
            out.results[p["pairing"]] = result
            made = out.matches.get(p["pairing"]) if p.get("match") is not None else None
            out.state = fmt.record(out.state, formats.MatchResult(
                pairing_id=p["pairing"],
                placements={k: int(v) for k, v in result["placements"].items()},
                figures={k: dict(v) for k, v in result.get("figures", {}).items()},
                sides=result_sides(event, made["entrants"], made.get("seats")) if made else {},
            ))
        elif row.kind == Kind.FINISHED:
            out.finished = True
    return out


def field_changed(event: Event, done: Replayed, change: Callable[[Any, str], Any],
                  key: str) -> Any:
    """The format state of the started Event `done` (replayed up to the record before)
    after `change`, the format's late entry or withdrawal of the entrant `key`; where a
    round was held for the organizer, that round drawn again for the field as it is now,
    where the format does (a Swiss from its revision 3: Release seats the late entrant,
    and pairs a withdrawn entrant's opponent again rather than giving them a walkover).
    The replay and the services that write these records both draw it here, alike."""
    held = held_pairings(event, done)
    fmt = formats.get_format(event.format)
    # A late entry into a held last round, which the format's `add_entrant` refuses as
    # paired already, is the format's to weigh where it knows the round is held.
    joins = getattr(fmt, "add_to_held", None)
    if held and joins is not None and change == fmt.add_entrant:
        return joins(done.state, key, held[0].stage, held[0].round)
    state = change(done.state, key)
    redraw = getattr(fmt, "redraw", None)
    return redraw(state, held[0].stage, held[0].round) if held and redraw is not None \
        else state


def copied(done: Replayed) -> Replayed:
    """A replay of one's own to fold more records into, `done` left as it is: the format
    states are values no fold changes, so only the containers are copied."""
    return replace(done, entrants={k: dict(e) for k, e in done.entrants.items()},
                   order=list(done.order), matches=dict(done.matches),
                   results=dict(done.results), drawn=list(done.drawn))


def _fold_checked(done: Replayed, record: EventRecord, state: Any = None) -> None:
    """Fold `record`, just appended, into `done` as the format `state` it was checked with
    (what folding it in would give: the format's work, a round paired, done once), when
    `done` is up to the record before it; else `caught_up` folds it in later. For the
    records of a started Event that change its format state, and for those written on
    the way to them that leave it as it is (no `state`: a match made, a round released, a
    draw, picks dropped), so the ones after them fold in too."""
    if done.seq != record.seq - 1:
        return
    p = record.payload
    if record.kind == Kind.ENTRANT_ADDED:
        done.entrants[p["key"]] = dict(p, withdrawn=False)
        done.order.append(p["key"])
    elif record.kind == Kind.ENTRANT_WITHDRAWN:
        done.entrants[p["key"]]["withdrawn"] = True
    elif record.kind == Kind.RESULT_RECORDED:
        done.results[p["pairing"]] = p
    elif record.kind == Kind.ENTRANT_PICKED:
        done.entrants[p["key"]] |= {"picks": p["picks"], "dropped": bool(p.get("dropped"))}
    elif record.kind == Kind.MATCH_CREATED:
        if p["pairing"] in done.matches:  # played again after a refused draw
            done.drawn.append(done.matches[p["pairing"]])
        done.matches[p["pairing"]] = p
    elif record.kind not in {Kind.STARTED, Kind.PAIRED_BY_HAND, Kind.ROUND_RELEASED,
                             Kind.MATCH_DRAWN}:
        raise ValueError(f"{record.kind} records are folded by caught_up")
    if state is not None:
        done.state = state
    done.seq = record.seq


def result_sides(event: Event, entrants: Sequence[str],
                 seats: Sequence[str] | None = None) -> dict[str, int]:
    """The side of each entrant of one of the Event's matches (`entrants`, `seats` as its
    match_created record gives them) where the game plays several entrants' seats as one
    side, The Supershow's tag team and handicap matches (Rules.teams): they win and lose
    together. Empty where every entrant is a side of its own; an entrant holding several
    seats (a Superstar Showdown Event's Red or Blue, `seats`) is a whole side."""
    if seats:
        return {}
    try:
        teams = registry.get_rules(event.game).teams(event.match_options, len(entrants))
    except IllegalAction:
        return {}  # a game, or an option, this site plays no more: every entrant alone
    return formats.entrant_sides(entrants, teams)


# The latest replay kept of each Event (by id and creation time), up to its `seq`. Records
# never change, so it stays true up to that seq, and a later one is it with the records
# written since folded in: a result replays none of the rounds before it again.
_kept_replays: LRU[tuple[int, float], Replayed] = LRU(READ_REPLAYS)


def _kept(event: Event) -> Replayed | None:
    return _kept_replays.get((event.pk, event.created_at.timestamp()))


def keep_replay(event: Event, done: Replayed) -> None:
    """Keep `done`, a replay of `event` no one changes any more, for its next readers and
    writers once the transaction commits (only committed records may be kept: a
    rolled-back append must leave no trace); a later one kept meanwhile stays."""
    key = (event.pk, event.created_at.timestamp())

    def put() -> None:
        kept = _kept_replays.get(key)
        if kept is None or kept.seq < done.seq:
            _kept_replays.put(key, done)
    after_commit(put)


def shown_names(entrants: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Each of the replayed `entrants`' names as pages show it: the name it entered
    under, but "Closed account" for a player who closed their account since (its
    records keep the old name, never rewritten)."""
    from league.services import CLOSED_NAME, closed_players

    closed = closed_players(e["player"] for e in entrants.values() if e["player"])
    return {key: CLOSED_NAME if e["player"] in closed else e["name"]
            for key, e in entrants.items()}


def replay_to_read(event: Event) -> Replayed:
    """`replay` up to the record the row holds as its last (`event.seq`), shared by the
    pages and polls that only read it: on a league night every watcher of the Event asks
    for the same one, and a Swiss Event pairs each of its rounds again on every replay.
    The kept replay serves it, with the records written since folded into a copy.
    What it gives must not be changed; a service that writes uses `replay_to_write`."""
    kept = _kept(event)
    if kept is not None and kept.seq == event.seq:
        return kept
    earlier = kept is not None and kept.seq < event.seq
    done = caught_up(event, copied(kept) if kept is not None and earlier else None,
                     upto=event.seq)
    keep_replay(event, done)
    return done


@dataclass(frozen=True)
class Decided:
    """The last result an Event recorded (its latest correction, if corrected) and the
    match last made for its pairing (None: no match was, a bye or a walkover)."""

    result: dict[str, Any]
    made: dict[str, Any] | None


def last_decided(done: Replayed) -> Decided | None:
    """`done`'s last result as `Decided`; None before any."""
    last = next(reversed(done.results), None)
    return None if last is None else Decided(done.results[last], done.matches.get(last))


def last_decided_of(event_ids: Iterable[int]) -> dict[int, Decided]:
    """`last_decided` of each Event read from its records (two queries for them all),
    not replayed: a result is recorded once a pairing, so the last recorded is the
    replay's last result."""
    latest = (EventRecord.objects.filter(event=OuterRef("event"), kind=Kind.RESULT_RECORDED)
              .order_by("-seq").values("seq")[:1])
    recorded = {event_id: payload for event_id, payload in EventRecord.objects.filter(
        event_id__in=list(event_ids), kind=Kind.RESULT_RECORDED, seq=Subquery(latest),
    ).values_list("event_id", "payload")}
    later: dict[tuple[int, str], dict[str, dict[str, Any]]] = {}
    for event_id, kind, payload in (EventRecord.objects.filter(
            event_id__in=list(recorded), kind__in=[Kind.MATCH_CREATED, Kind.RESULT_CORRECTED],
            payload__pairing__in=sorted({p["pairing"] for p in recorded.values()}))
            .order_by("seq").values_list("event_id", "kind", "payload")):
        later.setdefault((event_id, payload["pairing"]), {})[kind] = payload
    out = {}
    for event_id, payload in recorded.items():
        found = later.get((event_id, payload["pairing"]), {})
        out[event_id] = Decided(found.get(Kind.RESULT_CORRECTED, payload),
                                found.get(Kind.MATCH_CREATED))
    return out


def replay_to_write(event: Event) -> Replayed:
    """`replay` of `event` (its row locked by the caller) up to its last record, the
    caller's own to change: the kept replay copied with the records since folded in."""
    kept = _kept(event)
    return caught_up(event, copied(kept) if kept is not None and kept.seq <= event.seq
                     else None)


def clear_read_replays() -> None:
    """Forget every kept replay (tests). Replaying gives the same answers."""
    _kept_replays.clear()


# -- entrants and seeding ---------------------------------------------------------------

def add_entrant(*, event: Event, by: Any, player: str | None = None, team: str | None = None,
                bot: str | None = None, name: str | None = None,
                picks: dict[str, Any] | None = None,
                expected_seq: int | None = None, key: str | None = None) -> Entrant:
    """Register a player (by username), a team (by name) or a bot, with what it brings to
    its seats (`picks`, see `check_picks`); late entries where the format takes them.
    A `key` the organizer gave this Event's entry before answers with the entrant that
    entry added when this is the same one sent again (`_entrant_resent`), whatever was
    written since: a bot may be entered twice, so a resend would be a second bot."""
    _require(can_organize(event, by))
    if sum(x is not None for x in (player, team, bot)) != 1:
        raise LeagueError("bad_entrant", "An entrant is one player, one team or one bot.")
    checked = check_picks(event, picks)
    asked = {"player": player, "team": team, "bot": bot, "name": name, "picks": checked}
    with transaction.atomic():
        made = _entrant_resent(_locked(event), by, key, asked)
        if made is not None:
            return made
        event = _locked(event, expected_seq)
        if event.status == Event.Status.FINISHED:
            raise LeagueError("event_finished", "The Event is over.", 409)
        done = replay_to_write(event)
        entrant_key = _register(event, by, _entrant_payload(event, player, team, bot, name,
                                                            done),
                                checked, key, done)
    return Entrant.objects.get(event=event, key=entrant_key)


def _entrant_resent(event: Event, by: Any, key: str | None, asked: dict[str, Any]
                    ) -> Entrant | None:
    """The entrant `by` added to `event` with `key`, when `asked` (add_entrant's player,
    team, bot, name and checked picks, or enter_event's own player and picks) is that
    entry sent again: the same player, team or bot, the same picks, and the same name if
    it names one. None when the key added none here; 409 key_reused when it added another
    entrant (the client reused it)."""
    if not key or not getattr(by, "pk", None):
        return None
    record = event.records.filter(kind=Kind.ENTRANT_ADDED, actor=by,
                                  idempotency_key=key).first()
    if record is None:
        return None
    made = record.payload
    if not (_names_entrant(made, asked) and asked["name"] in (None, made["name"])
            and asked["picks"] == made.get("picks", {})):
        raise LeagueError("key_reused", f"That idempotency key entered {quoted(made['name'])} in "
                                        "this Event: use a new key for a new entrant.", 409)
    return Entrant.objects.get(event=event, key=made["key"])


def _names_entrant(made: dict[str, Any], asked: dict[str, Any]) -> bool:
    """Whether `asked`'s player (a username), team (a name) or bot is the one the
    entrant_added payload `made` entered, names in any case as entries find them."""
    if asked["bot"] is not None:
        return bool(made["bot"]) and made["bot"] == asked["bot"]
    if asked["team"] is not None:
        return Team.objects.filter(pk=made["team"], name__iexact=asked["team"]).exists()
    return Player.objects.filter(pk=made["player"],
                                 user__username__iexact=asked["player"]).exists()


def _register(event: Event, by: Any, payload: dict[str, Any], checked: dict[str, Any],
              key: str | None = None, done: Replayed | None = None) -> str:
    """The key of the entrant `payload` describes, once its entrant_added record is
    written after the checks every entry passes (the Event locked by the caller), with
    the idempotency `key` its create was sent with; `done`: the caller's own replay of
    the Event, if it has one."""
    done = replay_to_write(event) if done is None else done
    if checked:
        if not may_pick(event, by, {"new": payload}):
            raise LeagueError("not_your_entrant", "An organizer who holds an entry in "
                                                  "this Event enters others without "
                                                  "picks: they pick for themselves.", 403)
        payload["picks"] = checked
    _refuse_joining(event, done, payload, "is already entered")
    payload["key"] = f"e{len(done.entrants) + 1}"
    joined = _refuse_no_room(event, done, payload["key"])
    record = _append(event, Kind.ENTRANT_ADDED, payload, by, key)
    _fold_checked(done, record, joined if done.state is not None else None)
    if done.state is not None:
        _try_format(lambda: _advance(event, done=done))  # the pairing they join is played now
    else:
        _after_change(event, done)
    return str(payload["key"])


def _refuse_closed_accounts(payload: dict[str, Any]) -> None:
    """Refused when an account the entrant seats (a player's, a team member's) signs in
    no more: its matches could not seat it. The accounts' rows stay locked until the
    entry is written, as closing one locks its row (league.services.close_user), so an
    account closed meanwhile is either entered before the close, which then refuses
    (in_event), or seen closed here."""
    if payload["player"]:
        players = Player.objects.filter(pk=payload["player"])
    elif payload["team"]:
        players = Player.objects.filter(teams=payload["team"])
    else:
        return
    ids = set(players.values_list("user_id", flat=True))
    active = match_services.lock_accounts(ids)
    closed = sorted(get_user_model().objects.filter(pk__in=ids - active)
                    .values_list("username", flat=True))
    if closed and payload["team"]:
        raise LeagueError("unknown_player", f"{payload['name']} has a member who signs in "
                                            f"no more ({', '.join(closed)}): its teammates "
                                            "are entered as another team.")
    if closed:
        raise LeagueError("unknown_player", f"No player called {quoted(closed[0])}.")


def _refuse_no_room(event: Event, done: Replayed, key: str) -> Any:
    """Refused when the Event takes no entrant `key` now, whoever it is: a draft past what
    its format seats, a started Event whose format takes no late entrant, or one whose
    joining would change a match already made. The format's state with `key` joined, for
    a started Event (None for a draft)."""
    if done.state is None:
        _refuse_past_the_field(event, [*done.order, key])
        return None
    fmt = formats.get_format(event.format)
    joined = _try_format(lambda: field_changed(event, done, fmt.add_entrant, key), done)
    if _repaired_match(fmt, joined, done) is not None:
        raise LeagueError("late_entry_conflicts", "The matches of this round are "
                          "already made; enter before the next round.", 409)
    return joined


def entry_refused(event: Event, done: Replayed) -> LeagueError | None:
    """Why the Event (replayed as `done`) takes no new entrant now, or None when it takes
    one (the organizer page offers its entry forms only then)."""
    if event.status == Event.Status.FINISHED:
        return LeagueError("event_finished", "The Event is over.", 409)
    try:
        _refuse_no_room(event, done, f"e{len(done.entrants) + 1}")
    except LeagueError as exc:
        return exc
    return None


def _refuse_past_the_field(event: Event, keys: list[str]) -> None:
    """A draft takes no entrant past what its format seats (a Showdown series is two, Red
    and Blue): refused at the entry, not later at the start."""
    try:
        formats.get_format(event.format).start(keys, event.format_options)
    except formats.FormatError as exc:
        if exc.code == "too_many_entrants":
            raise LeagueError(exc.code, exc.message, 409) from None


def _entrant_payload(event: Event, player: str | None, team: str | None, bot: str | None,
                     name: str | None, done: Replayed) -> dict[str, Any]:
    if player is not None:
        user = match_services.user_named(player)
        if user is None:
            raise LeagueError("unknown_player", f"No player called {quoted(player)}.")
        return _player_payload(user, name)
    if team is not None:
        # Team names are unique ignoring case (create_team), so either spelling finds it.
        found = (Team.objects.filter(name=team).first()
                 or Team.objects.filter(name__iexact=team).order_by("pk").first())
        if found is None:
            raise LeagueError("unknown_team", f"No team called {quoted(team)}.")
        if not found.members.exists():
            raise LeagueError("empty_team", f"The team {quoted(team)} has no members.")
        _refuse_a_big_team(event, found)
        return {"name": name or found.name, "player": None, "team": found.pk, "bot": ""}
    assert bot is not None
    if bot not in registry.bot_names(event.game):
        raise LeagueError("unknown_bot", f"{registry.title(event.game)} has no bot called "
                                          f"{quoted(bot)}.")
    return {"name": name or _free_bot_name(done, bot), "player": None, "team": None,
            "bot": bot}


def _refuse_a_big_team(event: Event, team: Team, status: int = 400) -> None:
    """In a Superstar Showdown Event every member of a team takes a seat: a team of more
    than a side holds is refused (SS-114)."""
    if showdown.is_event(event.game, event.match_options) and (
            team.members.count() > showdown.MAX_PER_TEAM):
        raise LeagueError("team_too_big", f"Every member of {quoted(team.name)} takes a "
                                          f"seat, and a team is 1-{showdown.MAX_PER_TEAM} "
                                          "players (SS-114).", status)


def _player_payload(user: Any, name: str | None = None) -> dict[str, Any]:
    """The entrant_added payload of a player entrant for `user`."""
    from league.services import player_for

    row = player_for(user)
    return {"name": name or row.display_name, "player": row.pk, "team": None, "bot": ""}


# -- what an entrant brings to its seats ------------------------------------------------

def offered_picks(event: Event) -> dict[str, dict[str, str]]:
    """What an entrant of this Event may pick for its seats (`Rules.seat_picks`), each
    with its values and their names; nothing where the Event deals constructed decks seat
    by seat (a pick refused against a hidden deck would tell which seat holds one), or
    where the game no longer reads the Event's options."""
    if match_services.secret_options_given(event.game, event.match_options):
        return {}
    try:
        return registry.get_rules(event.game).seat_picks(event.match_options)
    except IllegalAction:
        return {}


def picks_readable(event: Event, user: Any, entrants: dict[str, dict[str, Any]], *,
                   sees: bool | None = None,
                   mine: tuple[set[int], set[int]] | None = None) -> set[str]:
    """The keys of the `entrants` whose secret picks (a constructed deck) `user` may read:
    their own entry and their teams', and every entrant for those who may read the Event's
    secret options (anyone once it is over; before, superusers and its organizers who hold
    no entry in it). `sees` and `mine` (`own_ids`), when a page of Events knows them."""
    if sees_match_options(event, user) if sees is None else sees:
        return set(entrants)
    if not (user and user.is_authenticated):
        return set()
    players, teams = own_ids(user) if mine is None else mine
    return {key for key, entrant in entrants.items()
            if entrant["player"] in players or entrant["team"] in teams}


def own_ids(user: Any) -> tuple[set[int], set[int]]:
    """The user's player ids and the ids of their teams."""
    return (_player_ids(user),
            set(Team.objects.filter(members__user=user).values_list("pk", flat=True)))


def _player_ids(user: Any) -> set[int]:
    return set(Player.objects.filter(user=user).values_list("pk", flat=True))


def may_pick(event: Event, user: Any, entrants: dict[str, dict[str, Any]]) -> set[str]:
    """The keys of the `entrants` whose picks `user` may say: their own, and everyone's for
    those who `pick_for_others`. Nobody, once the Event is over."""
    if not (user and user.is_authenticated) or event.status == Event.Status.FINISHED:
        return set()
    return picks_readable(event, user, entrants, sees=pick_for_others(event, user))


def pick_for_others(event: Event, user: Any) -> bool:
    """Whether `user` may say the picks of entrants not their own (and enter others with
    picks): those who may read every entrant's, unless they play in the Event. An
    organizer or a superuser who plays does not choose what their rivals bring."""
    if not (user and user.is_authenticated) or event.status == Event.Status.FINISHED:
        return False
    if user.is_superuser and Entrant.objects.filter(event=event).filter(
            Q(player__user=user) | Q(team__members__user=user)).exists():
        return False  # (a superuser reads every deck, but picks like any other player)
    return sees_match_options(event, user)


def shown_picks(game: str, picks: dict[str, Any], readable: bool) -> dict[str, Any]:
    """`picks` with each secret one (a constructed deck) reading "hidden" unless
    `readable`."""
    if readable:
        return dict(picks)
    secret = match_services.secret_options(game)
    return {name: "hidden" if name in secret else value for name, value in picks.items()}


def readable_entrants(event: Event, user: Any, rows: Sequence[Entrant],
                      known: dict[str, Any] | None = None) -> set[str]:
    """`picks_readable` of projected entrants: asks nothing when none holds a secret pick.
    `known` (a page of Events' serializer context) keeps what one Event learned for the
    next: the user's own ids, and which Events' secret options they read."""
    secret = match_services.secret_options(event.game)
    if not any(secret & set(row.picks or {}) for row in rows):
        return {row.key for row in rows}
    sees, mine = None, None
    if known is not None and user is not None and user.is_authenticated:
        if "readable" in known:
            sees = event.pk in known["readable"]
        if "mine" not in known:
            known["mine"] = own_ids(user)
        mine = known["mine"]
    return picks_readable(event, user, {row.key: {"player": row.player_id, "team": row.team_id}
                                        for row in rows}, sees=sees, mine=mine)


def shown_record(game: str, kind: str, payload: dict[str, Any], readable: set[str],
                 names: dict[str, str] | None = None,
                 options_readable: bool = False,
                 users: dict[int, str] | None = None) -> dict[str, Any]:
    """A record's payload with the secret picks of entrants not `readable` hidden, the
    Event's secret match options too unless `options_readable` (`sees_match_options`),
    an entry under the name `names` (`shown_names`) gives it, and the users an
    organizers change names (by id) under the names `users` (`organizer_names`) gives
    them, if given (None for an account since deleted)."""
    if kind == Kind.SETTINGS_CHANGED and not options_readable:
        return _settings_masked(game, payload)
    if kind == Kind.ORGANIZERS_CHANGED and users is not None:
        return {side: [users.get(pk) for pk in payload.get(side, [])]
                for side in ("added", "removed")}
    if names and kind == Kind.ENTRANT_ADDED and payload.get("key") in names:
        payload = {**payload, "name": names[payload["key"]]}
    if kind in (Kind.ENTRANT_ADDED, Kind.ENTRANT_PICKED) and payload.get("picks"):
        return {**payload, "picks": shown_picks(game, payload["picks"],
                                                payload["key"] in readable)}
    return payload


def organizer_names(event: Event) -> dict[int, str]:
    """The name each user the Event's organizers_changed records name reads under now,
    by id: as pages name an account (`services.shown_name`), "Closed account" once it is
    closed. The records hold ids, which a rename or a close leaves as they were."""
    from league.services import shown_name

    ids = {pk for payload in event.records.filter(kind=Kind.ORGANIZERS_CHANGED)
           .values_list("payload", flat=True)
           for pk in (*payload.get("added", []), *payload.get("removed", []))}
    return {user.pk: shown_name(user) for user in get_user_model().objects.filter(pk__in=ids)}


def _settings_masked(game: str, payload: dict[str, Any]) -> dict[str, Any]:
    """A settings_changed payload with each secret match option's entries (the decks
    dealt seat by seat), new and was, reading "hidden" as the Event's own do."""
    from matches.serializers import masked_options

    def masked(settings: dict[str, Any]) -> dict[str, Any]:
        # (a game this site plays no more: none of them is shown)
        return {**settings, "match_options": masked_options(
            game, settings.get("match_options") or {}, set())}

    shown = masked(payload)
    if isinstance(payload.get("was"), dict):
        shown["was"] = masked(payload["was"])
    return shown


LONGEST_PICK = 2000  # characters of JSON: a constructed deck of 30 card keys takes ~250


def check_picks(event: Event, picks: Any) -> dict[str, Any]:
    """An entrant's picks, checked: each names a per-seat option this Event's matches let
    a seat pick (`Rules.seat_picks`: The Supershow's Competitor, Superstar Showdown's
    Superstar) and one of its values, and a match must start with them in any seat of any
    table the Event may deal. Empty (or None): the entrant plays what the Event's options
    give its seat."""
    if picks is None or picks == {}:
        return {}
    rules = _check_game(event.game)
    offered = offered_picks(event)
    if not isinstance(picks, dict):
        raise LeagueError("bad_picks", "Picks are an object: {option: value}.")
    if not offered:
        raise LeagueError("no_picks", "Nothing is picked seat by seat in this Event's "
                                      "matches (a Birdcage or a Superstar Showdown Event "
                                      "drafts its characters; constructed decks go with "
                                      "their seats).")
    for option, value in picks.items():
        if option not in offered:
            raise LeagueError("bad_picks", f"{reprlib.repr(option)} cannot be picked here; "
                                           f"{sorted(offered)} can.")
        if not offered[option]:  # any value: the game checks it when a match starts
            if value is None:
                raise LeagueError("bad_picks", f"A {quoted(option)} pick needs a value: "
                                               "leave it out to play what the Event's "
                                               "options give the seat.")
            if len(json.dumps(value)) > LONGEST_PICK:
                raise LeagueError("bad_picks", f"A {quoted(option)} pick is a value of at most "
                                               f"{LONGEST_PICK} characters of JSON.")
        elif not isinstance(value, str) or value not in offered[option]:
            raise LeagueError("bad_picks", f"{reprlib.repr(value)} is not one of the "
                                           f"{option}: {sorted(offered[option])}.")
    for n_seats in _table_sizes(event.format_options, rules.spec):
        for seat in range(n_seats):
            seats: list[dict[str, Any]] = [{} for _ in range(n_seats)]
            seats[seat] = picks
            try:
                rules.start(with_picks(rules, event.match_options, seats), n_seats)
            except IllegalAction as exc:
                raise LeagueError(exc.code, f"{exc.message} (with these picks in seat "
                                            f"{seat + 1} of {n_seats})") from None
    return dict(picks)


def with_picks(rules: Any, options: dict[str, Any],
               seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A match's `options` with each seat's picks in place of that seat's entry."""
    chosen = dict(options)
    if not any(seats):
        return chosen
    try:
        entries = rules.seat_entries(options, len(seats))
        offered = rules.seat_picks(options)
    except IllegalAction as exc:
        raise LeagueError(exc.code, exc.message) from None
    for option in offered:
        if not any(option in picks for picks in seats):
            continue
        if option not in entries:
            raise LeagueError("picks_need_every_seat", f"This Event's {quoted(option)} option does "
                              f"not name an entry for each of {len(seats)} seats, so a pick "
                              "cannot take one's place: its organizer names them seat by "
                              "seat.")
        chosen[option] = [picks.get(option, entry)
                          for picks, entry in zip(seats, entries[option], strict=True)]
    return chosen


def knocked_out(done: Replayed) -> set[str]:
    """The keys of the entrants the Event's format counts out while it runs (beaten twice
    in a double elimination, once in a single one, not sent on by their heat) and no
    pairing still holds (a bracket's third-place match is one more for its semi-final
    losers): no match of theirs is to come, so a pick would count for none."""
    if done.state is None or done.finished:
        return set()
    fmt = formats.get_format(done.format)
    to_play = {entrant for pairing in fmt.pairings(done.state) if pairing.id not in done.results
               for entrant in pairing.entrants}
    return {row.entrant for row in fmt.standings(done.state)
            if row.eliminated and row.entrant not in to_play
            and not done.entrants[row.entrant]["withdrawn"]}


def _active_entrant(event: Event, key: str, expected_seq: int | None
                    ) -> tuple[Event, Replayed, dict[str, Any]]:
    """The Event locked (in the caller's transaction), its replay to write on and its
    entrant `key`, refused where that entrant is not in it (404 unknown_entrant) or the
    Event is over (409 event_finished)."""
    event = _locked(event, expected_seq)
    done = replay_to_write(event)
    entrant = done.entrants.get(key)
    if entrant is None or entrant["withdrawn"]:
        raise LeagueError("unknown_entrant", f"No active entrant {quoted(key)}.", 404)
    if event.status == Event.Status.FINISHED:
        raise LeagueError("event_finished", "The Event is over.", 409)
    return event, done, entrant


def pick(*, event: Event, by: Any, key: str, picks: dict[str, Any] | None,
         expected_seq: int | None = None) -> Entrant:
    """Say what an entrant brings to its seats from its next match on (its organizers, the
    player or a member of the team); empty picks go back to the Event's options."""
    with transaction.atomic():
        event, done, entrant = _active_entrant(event, key, expected_seq)
        if key in knocked_out(done):
            raise LeagueError("entrant_out", f"{shown_names(done.entrants)[key]} is out of "
                                             "the Event: no match of theirs is to come, so "
                                             "a pick would count for none.", 409)
        if not may_pick(event, by, {key: entrant}):
            raise LeagueError("not_your_entrant", "Only the entrant (the player, a member of "
                                                  "the team) or an organizer who holds no "
                                                  "entry in this Event may pick for it.", 403)
        checked = check_picks(event, picks)
        if checked != entrant.get("picks", {}):
            _append(event, Kind.ENTRANT_PICKED, {"key": key, "picks": checked}, by)
            _after_change(event, done)
    return Entrant.objects.get(event=event, key=key)


def choose_team_player(*, event: Event, by: Any, key: str, player: str,
                       expected_seq: int | None = None) -> Entrant:
    """Say which member of a team entrant sits its matches, from its next match on (a
    match made keeps its seats): the team's owner (who made it) or the Event's
    organizers. Until then a team sits its first member by id."""
    with transaction.atomic():
        event, done, entrant = _active_entrant(event, key, expected_seq)
        if not entrant["team"]:
            raise LeagueError("not_a_team", f"{shown_names(done.entrants)[key]} is not a "
                                            "team: a player or a bot sits its own matches.",
                              409)
        if showdown.is_event(event.game, event.match_options):
            raise LeagueError("every_member_plays", "In a Superstar Showdown Event every "
                                                    "member of a team takes a seat.", 409)
        team = Team.objects.get(pk=entrant["team"])
        owner = getattr(by, "is_authenticated", False) and team.created_by_id == by.pk
        if not (owner or can_organize(event, by)):
            raise LeagueError("not_your_team", "Only the team's owner (who made it) or the "
                                               "Event's organizers choose who plays for it.",
                              403)
        member = team.members.filter(user__username=player).first()
        if member is None:
            raise LeagueError("not_a_member", f"{quoted(player)} is not a member of "
                                              f"{team.name}.")
        if member.pk != entrant.get("plays"):
            _append(event, Kind.TEAM_PLAYER_CHOSEN, {"key": key, "player": member.pk}, by)
            _after_change(event, done)
    return Entrant.objects.get(event=event, key=key)


def _free_bot_name(done: Replayed, bot: str) -> str:
    """'random bot', then 'random bot 2', ... so several bots of a kind can enter the
    replayed Event."""
    taken = {e["name"] for e in done.entrants.values() if not e["withdrawn"]}
    name, n = f"{bot} bot", 1
    while name in taken:
        n += 1
        name = f"{bot} bot {n}"
    return name


def _players_of(entrant: dict[str, Any]) -> set[int]:
    """The players who sit for an entrant: the player, or the team's members."""
    if entrant["player"]:
        return {entrant["player"]}
    if entrant["team"]:
        return set(Player.objects.filter(teams=entrant["team"]).values_list("pk", flat=True))
    return set()


def _refuse_a_player_on_two_sides(payload: dict[str, Any], active: list[dict[str, Any]]
                                  ) -> None:
    """One person plays for one entrant of an Event: sitting on both sides of a match, they
    would be served the other side's hidden cards."""
    joining = _players_of(payload)
    for entrant in active if joining else ():
        shared = joining & _players_of(entrant)
        if shared:
            who = Player.objects.get(pk=min(shared)).display_name
            where = f"entered alone, as {entrant['name']}" if entrant["player"] \
                else f"for {entrant['name']}"
            raise LeagueError("entrant_overlaps", f"{who} already plays in this Event, "
                                                  f"{where}.", 409)


def _refuse_a_reader_of_decks(event: Event, payload: dict[str, Any],
                              active: list[dict[str, Any]]) -> None:
    """Whoever may read the Event's decks (an organizer who holds no entry, staff) does
    not enter once there are some, the Event's own seat by seat or one an entrant
    brought: they would play against decks they could read. (An organizer who plays
    enters before the entrants' decks come; one who deals decks in the Event's options
    has read them.)"""
    secret = match_services.secret_options(event.game)
    if not (match_services.secret_options_given(event.game, event.match_options)
            or any(secret & set(entrant.get("picks", {})) for entrant in active)):
        return
    people = Player.objects.filter(pk__in=_players_of(payload)).select_related("user")
    for person in people:
        if sees_match_options(event, person.user):
            raise LeagueError("reads_decks", f"{person.display_name} may read this Event's "
                                             "decks, so cannot play against them.", 409)


def _same_entrant(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a["player"] or b["player"]:
        return bool(a["player"] == b["player"])
    if a["team"] or b["team"]:
        return bool(a["team"] == b["team"])
    return bool(a["name"] == b["name"])


def withdraw_entrant(*, event: Event, by: Any, key: str,
                     expected_seq: int | None = None) -> list[str]:
    """Withdraw an entrant: before the start it leaves; after, the format drops it. The
    labels of their live matches the withdrawal forfeited (none before the start)."""
    _require(can_organize(event, by))
    with transaction.atomic():
        event, done, _ = _active_entrant(event, key, expected_seq)
        if done.state is None:
            _append(event, Kind.ENTRANT_WITHDRAWN, {"key": key}, by)
            _after_change(event, done)
            return []
        forfeited = _withdraw_started(event, done, key, by)
    if forfeited is None:  # refused once the results that decided the Event are written
        raise LeagueError("event_finished", "The Event is over: the result of their last "
                                            "match decided it.", 409)
    return forfeited


def reinstate_entrant(*, event: Event, by: Any, key: str,
                      expected_seq: int | None = None) -> Entrant:
    """Undo the entrant's withdrawal, written by mistake, while nothing went by it since:
    before the start they are entered again (the checks of an entry); after it, the
    format is replayed as if they never withdrew, their walkovers gone with it."""
    _require(can_organize(event, by))
    with transaction.atomic():
        event = _locked(event, expected_seq)
        done = replay_to_write(event)
        entrant = done.entrants.get(key)
        if entrant is None or not entrant["withdrawn"]:
            raise LeagueError("not_withdrawn", f"No withdrawn entrant {quoted(key)}.", 404)
        if event.status == Event.Status.FINISHED:
            raise LeagueError("event_finished", "The Event is over.", 409)
        withdrawal = event.records.filter(kind=Kind.ENTRANT_WITHDRAWN, payload__key=key
                                          ).order_by("-seq").first()
        assert withdrawal is not None  # (withdrawn: its record is in the stream)
        name = shown_names(done.entrants)[key]
        if done.state is None:
            _refuse_entry_again(event, done, key)
        else:
            _refuse_reinstating_late(event, done, key, withdrawal.seq, name)
        _append(event, Kind.ENTRANT_REINSTATED, {"key": key, "withdrawal": withdrawal.seq}, by)
        if done.state is None:
            _after_change(event)
        else:
            _try_format(lambda: _advance(event))
    return Entrant.objects.get(event=event, key=key)


def _refuse_joining(event: Event, done: Replayed, payload: dict[str, Any],
                    entered_said: str) -> None:
    """Refused, an entrant (`payload`) joining the Event's active field: a closed account,
    the same player or team already in it (409 entrant_twice, "<name> `entered_said`"),
    a player on two sides, a reader of the others' decks."""
    _refuse_closed_accounts(payload)
    active = [e for e in done.entrants.values() if not e["withdrawn"]]
    if any(_same_entrant(e, payload) for e in active):
        raise LeagueError("entrant_twice", f"{payload['name']} {entered_said}.", 409)
    _refuse_a_player_on_two_sides(payload, active)
    _refuse_a_reader_of_decks(event, payload, active)


def _refuse_entry_again(event: Event, done: Replayed, key: str) -> None:
    """Before the start, a reinstated entrant passes an entry's checks: since they left,
    the same player or team may have entered anew, an account closed, or the field
    filled up."""
    _refuse_joining(event, done, done.entrants[key], "is entered again already")
    _refuse_past_the_field(event, [*done.order, key])


# What may be written after a withdrawal from a started Event for it to be undone: what
# changes no pairing (picks, a team's player, organizers, details, season), and what befalls
# the matches made before it that the withdrawn entrant does not play (their results,
# forfeits, bots).
UNDOABLE_SINCE = {Kind.ENTRANT_PICKED, Kind.TEAM_PLAYER_CHOSEN, Kind.ORGANIZERS_CHANGED,
                  Kind.DETAILS_CHANGED, Kind.SEASON_CHANGED}
OTHERS_MATCHES = {Kind.RESULT_RECORDED, Kind.RESULT_CORRECTED, Kind.FORFEITED,
                  Kind.SEAT_TO_BOT}


def _refuse_reinstating_late(event: Event, done: Replayed, key: str, withdrawal: int,
                             name: str) -> None:
    """Refused (409 reinstate_too_late, naming why) once the withdrawal from a started
    Event went into something played or paired (`_late_because`)."""
    started_before = event.records.filter(kind=Kind.STARTED, seq__lt=withdrawal).exists()
    why = _late_because(done, key, started_before,
                        event.records.filter(seq__gt=withdrawal).order_by("seq"))
    if why is not None:
        raise LeagueError("reinstate_too_late", f"{name} cannot be reinstated: {why}.", 409)


def _late_because(done: Replayed, key: str, started_before: bool,
                  since: Iterable[EventRecord]) -> str | None:
    """Why the withdrawal of `key` from a started Event can no longer be undone, if it
    cannot: the Event started after it, a match of theirs ended with it (theirs forfeits
    at a withdrawal), or a record `since` it paired, entered, withdrew or decided with
    the field they left."""
    if not started_before:
        return "the Event started after they withdrew, without them"
    for m in done.matches.values():
        if key in m["entrants"] and m["pairing"] not in done.results:
            label = m["label"] or m["pairing"]
            if len(m["entrants"]) > 2:  # a pod's others play on without them
                return (f"their seat in {label} was forfeited when they withdrew, and the "
                        "match plays on without them")
            return f"their match {label} ended when they withdrew"
    for row in since:
        p = row.payload
        if row.kind in UNDOABLE_SINCE:
            continue
        made = done.matches.get(p.get("pairing", ""))
        if row.kind in OTHERS_MATCHES and made is not None and key not in made["entrants"] \
                and not (row.kind == Kind.RESULT_RECORDED and p.get("match") is None):
            continue
        if row.kind in OTHERS_MATCHES and made is not None and key in made["entrants"]:
            return f"their match {made['label'] or made['pairing']} ended when they withdrew"
        return LATE_BECAUSE.get(row.kind, "the Event went on without them since")
    return None


def reinstatable(event: Event, done: Replayed) -> set[str]:
    """The withdrawn entrants a Reinstate may bring back: all of them before the start
    (the entry's checks run on the press), none once the Event is over, and after the
    start those whose withdrawal nothing went by since (`_late_because`). One query
    over the records from the earliest withdrawal on, however many withdrew."""
    gone = {key for key, entrant in done.entrants.items() if entrant["withdrawn"]}
    if not gone or event.status == Event.Status.FINISHED:
        return set()
    if done.state is None:
        return gone
    withdrawals = EventRecord.objects.filter(event=event, kind=Kind.ENTRANT_WITHDRAWN)
    rows = list(event.records.filter(
        Q(kind__in=[Kind.STARTED, Kind.ENTRANT_WITHDRAWN])
        | Q(seq__gt=Subquery(withdrawals.order_by("seq").values("seq")[:1]))
    ).order_by("seq"))
    started = min((r.seq for r in rows if r.kind == Kind.STARTED), default=None)
    last = {r.payload.get("key"): r.seq for r in rows if r.kind == Kind.ENTRANT_WITHDRAWN}
    return {key for key in gone
            if key in last and _late_because(
                done, key, started is not None and started < last[key],
                (r for r in rows if r.seq > last[key])) is None}


LATE_BECAUSE = {
    Kind.MATCH_CREATED: "a match was made since, paired without them",
    Kind.PAIRED_BY_HAND: "a round was paired by hand since, without them",
    Kind.ROUND_RELEASED: "a round was released since, drawn without them",
    Kind.MATCH_DRAWN: "a drawn match is being played again since",
    Kind.ENTRANT_ADDED: "an entrant joined since, into the field they left",
    Kind.ENTRANT_WITHDRAWN: "another entrant withdrew since",
    Kind.ENTRANT_REINSTATED: "another entrant was reinstated since",
    Kind.RESULT_RECORDED: "a pairing their withdrawal left short was decided since",
}


def _withdraw_started(event: Event, done: Replayed, key: str, by: Any) -> list[str] | None:
    """Withdraw an entrant of a started Event (locked by the caller, `done` its own replay
    of it): the labels of their live matches it forfeited; None, with nothing withdrawn,
    when recording their last match's result finished the Event first."""
    # Their matches hold still until the withdrawal is written (a last move waits), and
    # one that ended but whose result the worker has not yet recorded counts as played,
    # not as a walkover.
    theirs = [link for link in EventMatch.objects.filter(event=event)
              if key in link.entrants and link.pairing not in done.results]
    held = {m.pk: m for m in Match.objects.select_for_update().filter(
        pk__in=[link.match_id for link in theirs]).order_by("pk")}
    played = [link for link in theirs if held[link.match_id].status == Match.Status.FINISHED
              and held[link.match_id].result]
    if played:
        for link in played:
            # A draw is written down, not played again: the withdrawal decides it.
            _record_locked(event, link, held[link.match_id], play_again=False, done=done)
        event.refresh_from_db(fields=["status"])
        if event.status == Event.Status.FINISHED:
            return None
        done = caught_up(event, done)
    fmt = formats.get_format(event.format)
    state = _try_format(lambda: field_changed(event, done, fmt.withdraw, key), done)
    _fold_checked(done, _append(event, Kind.ENTRANT_WITHDRAWN, {"key": key}, by), state)
    live = [link for link in EventMatch.objects.filter(
        event=event, match__status=Match.Status.ACTIVE) if key in link.entrants]
    _advance(event, done=done)
    # The format scores their live pairings as walkovers; their matches end too (a pod
    # whose game eliminates players plays on without them). After the advance, so the
    # replay it keeps is kept before their ended matches' results come in on the commit
    # (each would fold the withdrawal in again).
    return [link.label or link.pairing for link in live if _withdraw_seat(link, key)]


def _withdraw_seat(link: EventMatch, key: str) -> bool:
    """The withdrawn entrant's seat of the live match forfeits, unless it is out of it
    already (a forfeit, or the game, eliminated it while the others play on): nothing is
    left there to forfeit (False)."""
    try:
        match_services.forfeit_seat(match=link.match, seat=link.seats_of(key)[0],
                                    reason="withdrawn")
    except match_services.ServiceError as exc:
        if exc.code != "seat_out":
            raise
        return False
    return True


def seed_event(*, event: Event, by: Any, method: str, order: list[str] | None = None,
               expected_seq: int | None = None) -> list[str]:
    """Seed by rating, by hand (a full order of entrant keys) or at random (a chance
    record: the drawn order is stored). By rating, the best openskill ordinal in the
    Event's game first (`_rating_of`: a team by its members' mean), ties in the order they
    stood (of entry, or of an earlier seeding)."""
    _require(can_organize(event, by))
    with transaction.atomic():
        event = _locked(event, expected_seq)
        if event.status != Event.Status.DRAFT:
            raise LeagueError("event_started", "An Event that started cannot be seeded.", 409)
        done = replay_to_write(event)
        keys = list(done.order)
        if method == "hand":
            if order is None or sorted(order) != sorted(keys):
                raise LeagueError("bad_order", "A seeding by hand lists every entrant once.")
            seeded = list(order)
        elif method == "random":
            seeded = keys[:]
            random.Random(secrets.randbits(64)).shuffle(seeded)
        elif method == "rating":
            seeded = sorted(keys, key=lambda k: (-_rating_of(event.game, done.entrants[k]),
                                                 keys.index(k)))
        else:
            raise LeagueError("bad_method", "Seed by 'rating', 'hand' or 'random'.")
        _append(event, Kind.SEEDED, {"method": method, "order": seeded}, by)
        _after_change(event, done)
    return seeded


def _rating_of(game: str, entrant: dict[str, Any]) -> float:
    """An entrant's ordinal in `game` for seeding: a player's own; a team's the mean of its
    members' now, as its seats are taken by them all; anyone unrated (and a bot, whose
    strength the ratings do not know) counts as a player new to the ratings table does."""
    from league.projections import NEW_PLAYER_ORDINAL

    players = _players_of(entrant)
    if not players:
        return NEW_PLAYER_ORDINAL
    rated = dict(Rating.objects.filter(game=game, player_id__in=players)
                 .values_list("player_id", "ordinal"))
    return sum(rated.get(p, NEW_PLAYER_ORDINAL) for p in players) / len(players)


# -- open entry: players enter and leave themselves -----------------------------------------

def set_open_entry(*, event: Event, by: Any, open_entry: bool,
                   expected_seq: int | None = None) -> None:
    """Let signed-in players enter the Event themselves, or no longer; before the start.
    Asking for what the Event already does writes nothing. A page is stale for it only
    when entry was switched since it was read: players entering and leaving meanwhile
    change nothing it decides (and one doing so over and over would otherwise keep the
    organizer from ever closing entry)."""
    _require(can_organize(event, by))
    with transaction.atomic():
        event = _locked(event, expected_seq, kinds=(Kind.ENTRY_OPENED, Kind.ENTRY_CLOSED))
        _refuse_past_the_draft(event)
        if open_entry:
            _refuse_team_sides(event.game, event.match_options)
        if event.open_entry == bool(open_entry):
            return
        event.open_entry = bool(open_entry)
        event.save(update_fields=["open_entry"])
        _append(event, Kind.ENTRY_OPENED if open_entry else Kind.ENTRY_CLOSED, {}, by)


def set_organizers(*, event: Event, by: Any, organizers: Iterable[Any]) -> bool:
    """Make the users `organizers` the Event's own organizers (its season's organize it
    too, `can_organize`), and whether that changed them. A change is an
    organizers_changed record naming by id, as its actor is named, who was added and who
    removed, written with the change under the Event's lock; the same organizers again
    write nothing. Any time, the Event over included."""
    _require(can_organize(event, by))
    wanted = {user.pk for user in organizers}
    with transaction.atomic():
        event = _locked(event)
        was = set(event.organizers.values_list("pk", flat=True))
        if wanted == was:
            return False
        event.organizers.set(wanted)
        _record_organizers(event, was, wanted, by)
    return True


def _record_organizers(event: Event, was: set[int], now: set[int], by: Any) -> None:
    """The organizers_changed record of a change from the users `was` to `now`, by id:
    who was added and who removed (the caller holds the Event's row lock)."""
    _append(event, Kind.ORGANIZERS_CHANGED,
            {"added": sorted(now - was), "removed": sorted(was - now)}, by)


def record_closed_organizer(*, event_id: int, user: Any, by: Any) -> None:
    """The organizers_changed record of `user` leaving the Event's organizers as its
    account closed (`league.services.close_user`, `by` whoever closed it), written after
    the close, under the Event's lock, as its results are: the close took the account
    out of them with the rest of what it held."""
    with transaction.atomic():
        event = Event.objects.select_for_update().filter(pk=event_id).first()
        if event is not None:
            _record_organizers(event, {user.pk}, set(), by)


NOTES_LENGTH = 1000


class Keep:
    """What `set_details` is not told to change."""


KEEP = Keep()


def set_details(*, event: Event, by: Any, starts_at: datetime | Keep | None = KEEP,
                notes: str | Keep = KEEP, expected_seq: int | None = None) -> None:
    """When the Event starts (None: not said) and its notes for the players (plain text,
    at most NOTES_LENGTH characters), as its organizers announce them; what is left out
    is kept, and a change to what it already says writes nothing. Any time, the Event
    over included (a word of thanks). A page is stale for it only when the details
    changed since it was read."""
    _require(can_organize(event, by))
    given_notes = None if isinstance(notes, Keep) else _notes(notes)
    starts_at = starts_at if isinstance(starts_at, Keep) else _starts_at(starts_at)
    with transaction.atomic():
        event = _locked(event, expected_seq, kinds=(Kind.DETAILS_CHANGED,))
        new_start = event.starts_at if isinstance(starts_at, Keep) else starts_at
        new_notes = event.notes if given_notes is None else given_notes
        if (new_start, new_notes) == (event.starts_at, event.notes):
            return
        was = event.starts_at
        if event.status == Event.Status.DRAFT and new_start != was:
            _not_past(new_start)
        if was is not None and new_start != was and no_reminder_tells(event, new_start):
            _tell_moved(event, new_start)
        event.starts_at, event.notes = new_start, new_notes
        event.save(update_fields=["starts_at", "notes"])
        _append(event, Kind.DETAILS_CHANGED, {
            "starts_at": new_start.isoformat() if new_start else None, "notes": new_notes}, by)


def _tell_moved(event: Event, start: datetime | None) -> None:
    """Once the move commits, mail the players reminded of the Event's old start that it
    moved (league.event_mail)."""
    from league.tasks import mail_event_moved

    now_at = start.isoformat() if start else None
    after_commit(lambda: enqueue(mail_event_moved, event.pk, now_at))


def _starts_at(moment: datetime | None) -> datetime | None:
    """When an Event starts, in UTC (a time without an offset counts as UTC, as the API
    says). Refused past the year 9999 in UTC: a time there (9999-12-31 23:00 at UTC-5,
    sent as the organizer page's UTC field) is stored by PostgreSQL but read back by no
    Python, so every page and answer showing the Event failed."""
    if moment is None:
        return None
    if moment.utcoffset() is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise LeagueError("bad_starts_at", "An Event starts by the end of the year 9999 "
                                           "(UTC).") from None


# A start this long ago is still taken for an Event not started (the night runs late);
# one further back is a slip (a wrong day, a wrong half of the day), refused.
PAST_START = timedelta(hours=1)


def _not_past(moment: datetime | None) -> datetime | None:
    """`moment`, the start of an Event not started, refused when it passed over PAST_START
    ago: its players would be reminded of nothing, and the lobby would list it first as if
    it were about to begin. An Event under way or over takes any (its record)."""
    if moment is not None and moment < datetime.now(UTC) - PAST_START:
        raise LeagueError("starts_in_past", "That time has passed: give the time the Event "
                                            "is to start.")
    return moment


def _notes(text: str) -> str:
    """An Event's notes as given, without spaces at their ends; lines of visible text, and
    the joiners that Persian and Indic spellings and emoji sequences need, as a display
    name takes them."""
    from league.services import JOINERS

    notes = (text or "").strip().replace("\r\n", "\n")
    if len(notes) > NOTES_LENGTH:
        raise LeagueError("bad_notes", f"An Event's notes are at most {NOTES_LENGTH} "
                                       "characters.")
    if not all(line.translate(JOINERS).isprintable() for line in notes.split("\n")):
        raise LeagueError("bad_notes", "An Event's notes are lines of visible text.")
    return notes


# -- the season ----------------------------------------------------------------------------

def change_season(*, event: Event, by: Any, season: Season | None,
                  expected_seq: int | None = None) -> bool:
    """File the Event under `season` (None: no season), and whether that moved it: an
    Event made under the wrong season, or none, is put where it belongs. Only one who
    organizes the Event and the season it goes to (staff alone keep an Event outside
    every season, as they alone make one there; 403 not_organizer) moves it, to a season
    of its game (400 wrong_game). Any time, the Event over included: a club sees the slip
    once the night's results are in, and both seasons' tables are written again in the
    same transaction, the old one without the Event's results and the new one with them.
    The move is a season_changed record holding the season and the one it was in; the
    same season again writes nothing. The old season's organizers no longer organize the
    Event (unless they are its own). A page is stale for it only when the season changed
    since it was read."""
    _require(can_organize(event, by))
    _require(can_organize_season(season, by),
             "Only staff keep an Event outside a season: name a season you organize."
             if season is None else "Only an organizer of that season moves an Event into it.")
    if season is not None and season.game != event.game:
        raise LeagueError("wrong_game", f"{season.name} plays {registry.title(season.game)}, "
                                        f"not {registry.title(event.game)}.")
    from league import projections

    with transaction.atomic():
        event = _locked(event, expected_seq, kinds=(Kind.SEASON_CHANGED,))
        was = event.season_id
        now = season.pk if season is not None else None
        if now == was:
            return False
        # Both tables' rows, in the order every writer takes seasons (by id, after the
        # Event's), so two Events moved across at once wait rather than deadlock.
        both = list(Season.objects.select_for_update()
                    .filter(pk__in=[pk for pk in (was, now) if pk is not None]).order_by("pk"))
        event.season = season
        event.save(update_fields=["season"])
        _append(event, Kind.SEASON_CHANGED, {"season": now, "was": was}, by)
        for table in both:
            projections.refresh_season(table)
    return True


# -- the settings, until the start --------------------------------------------------------

def change_settings(*, event: Event, by: Any, format: str | Keep = KEEP,
                    format_options: dict[str, Any] | Keep | None = KEEP,
                    match_options: dict[str, Any] | Keep | None = KEEP,
                    turn_deadline_minutes: int | Keep | None = KEEP,
                    deadline_policy: str | Keep = KEEP, deadline_bot: str | Keep = KEEP,
                    expected_seq: int | None = None) -> list[str]:
    """Change the Event's format and its options, its match options and its turn deadline
    (minutes, policy, bot) before it starts (409 event_started after); the keys of the
    entrants whose picks were dropped.

    Each setting given replaces the Event's whole (an options object as at the creation:
    what it leaves out takes its default), what is left out is kept, but a new format
    takes its own defaults unless given options; everything is checked as at the creation,
    with the same codes, before anything is written, and asking for what the Event
    already has writes nothing. The change is a settings_changed record holding the new
    settings and what they were, and the Event's columns take them in the same
    transaction: an Event starts (and is replayed) with the settings of its last change.

    Entrants already entered are kept, and the start's own checks still apply to the
    field (too few for the options is refused at the start, as always), but a field past
    what the new settings seat (a Showdown series is two) is refused now, 409
    too_many_entrants, as such an entry would be. An entrant's picks the new settings no
    longer take (a Competitor in a Birdcage, a pick refused at a new table size) are
    dropped by records the Event's page shows, as a pick gone from the card set is when a
    match is made, and the entrant may pick again. Where the Event deals secret options
    or its entrants bring them (constructed decks), only those who may read them change
    its settings (403 hidden_options): an organizer who plays could otherwise deal decks
    they know, or learn of a rival's deck from what a change drops. A stale
    `expected_seq` is refused as any organizer action's is."""
    _require(can_organize(event, by))
    given: dict[str, Any] = {"format": format, "format_options": format_options,
                             "match_options": match_options,
                             "turn_deadline_minutes": turn_deadline_minutes,
                             "deadline_policy": deadline_policy, "deadline_bot": deadline_bot}
    with transaction.atomic():
        event = _locked(event, expected_seq)
        refusal = settings_refused(event, by)
        if refusal is not None:
            raise refusal
        was = {name: getattr(event, name) for name in SETTINGS}
        asked = {name: was[name] if isinstance(value, Keep) else value
                 for name, value in given.items()}
        if asked["format"] != was["format"] and isinstance(format_options, Keep):
            asked["format_options"] = None  # another format's options mean nothing here
        new = _checked_settings(_check_game(event.game), **asked, stored=was)
        if new == was:
            return []
        done = replay_to_write(event)
        for name, value in new.items():
            setattr(event, name, value)
        _refuse_what_the_field_breaks(event, done, by)
        event.save(update_fields=list(SETTINGS))
        _append(event, Kind.SETTINGS_CHANGED, {**new, "was": was}, by)
        picked = [key for key in done.order if done.entrants[key].get("picks")]
        _drop_stale_picks(event, done, picked)
        _after_change(event, done)
    return [key for key in picked if not done.entrants[key]["picks"]]


def settings_refused(event: Event, user: Any) -> LeagueError | None:
    """Why `user`, an organizer of the Event, may not change its settings now, or None
    (the organizer page offers its settings form only then)."""
    if event.status == Event.Status.FINISHED:
        return LeagueError("event_finished", "The Event is over.", 409)
    if event.status != Event.Status.DRAFT:
        return LeagueError("event_started", "The Event has started: its format, options and "
                                            "turn deadline stay as it started with.", 409)
    if not sees_match_options(event, user) and _holds_secrets(event):
        return _hidden_options()
    return None


def _hidden_options() -> LeagueError:
    return LeagueError("hidden_options", "This Event's decks (dealt by its match options or "
                                         "brought by its entrants) are hidden from you, as "
                                         "you hold an entry in it: an organizer who holds "
                                         "none changes its settings.", 403)


def _holds_secrets(event: Event) -> bool:
    """Whether the Event deals secret options (constructed decks) or an entrant brings
    one."""
    if match_services.secret_options_given(event.game, event.match_options):
        return True
    secret = match_services.secret_options(event.game)
    return any(secret & set(entrant.get("picks", {}))
               for entrant in replay_to_read(event).entrants.values()
               if not entrant["withdrawn"])


def _refuse_what_the_field_breaks(event: Event, done: Replayed, by: Any) -> None:
    """Refuse new settings (on `event`, locked) that the entrants already entered (`done`)
    cannot keep: more than they seat, a team bigger than a Superstar Showdown Event's
    side (409 team_too_big), open entry to a Superstar Showdown Event's sides,
    deals decks the organizer making the change may not read (they would play against
    them), or an entrant's people may read (a superuser who plays)."""
    try:
        _refuse_past_the_field(event, list(done.order))
    except LeagueError as exc:
        raise LeagueError(exc.code, f"{len(done.order)} entrants are entered, more than "
                                    f"these settings seat ({exc.detail.rstrip('.')}): "
                                    "withdraw some first.", 409) from None
    if event.open_entry:
        _refuse_team_sides(event.game, event.match_options)
    if match_services.secret_options_given(event.game, event.match_options) \
            and not sees_match_options(event, by):
        raise _hidden_options()
    for entrant in done.entrants.values():
        if not entrant["withdrawn"]:
            _refuse_a_reader_of_decks(event, entrant, [])
            if entrant.get("team") is not None:  # a Superstar Showdown Event's side
                _refuse_a_big_team(event, Team.objects.get(pk=entrant["team"]), 409)


# How often a player may leave an Event with open entry and enter it again: each time
# writes two records every reader of the Event replays.
REENTRIES = 3


def enter_event(*, event: Event, by: Any, picks: dict[str, Any] | None = None,
                expected_seq: int | None = None, key: str | None = None) -> Entrant:
    """The signed-in player enters themselves, with their `picks`, while the Event is a
    draft with open entry: the entrant an organizer's `add_entrant` would make of them,
    after the same checks. A `key` they gave this Event's entry before answers, as
    add_entrant's does (`_entrant_resent`), with the entry it made, whatever was written
    since: a resend was 409 entrant_twice, like an entry made elsewhere."""
    _require_signed_in(by)
    try:
        checked, bad_picks = check_picks(event, picks), None
    except LeagueError as exc:  # said once the Event may take an entry at all
        checked, bad_picks = picks or {}, exc
    asked = {"player": by.get_username(), "team": None, "bot": None, "name": None,
             "picks": checked}
    with transaction.atomic():
        made = _entrant_resent(_locked(event), by, key, asked)
        if made is not None:
            return made
        event = _locked(event, expected_seq)
        _refuse_past_the_draft(event)
        if not event.open_entry:
            raise LeagueError("entry_closed", "Players do not enter this Event themselves: "
                                              "its organizers enter them.", 409)
        _refuse_team_sides(event.game, event.match_options)
        if left_too_often(event, by):
            raise LeagueError("entry_limit", LEFT_TOO_OFTEN, 409)
        done = replay_to_write(event)
        if bad_picks is not None:
            if own_entry(done, by) is not None:
                raise LeagueError("entrant_twice", "You are already entered.", 409)
            raise PicksRefused(bad_picks.code, bad_picks.detail, bad_picks.status)
        entrant_key = _register(event, by, _player_payload(by), checked, key, done)
    return Entrant.objects.get(event=event, key=entrant_key)


LEFT_TOO_OFTEN = (f"You have left this Event {REENTRIES} times: its organizers may enter "
                  "you now.")


def left_too_often(event: Event, user: Any) -> bool:
    """Whether `user` has left the Event as often as a player may enter it again."""
    return bool(user and user.is_authenticated) and event.records.filter(
        kind=Kind.ENTRANT_WITHDRAWN, actor=user).count() >= REENTRIES


def leave_event(*, event: Event, by: Any, expected_seq: int | None = None) -> None:
    """The signed-in player withdraws their own entry (never another's) before the Event
    starts: the withdrawal an organizer would write."""
    _require_signed_in(by)
    with transaction.atomic():
        event = _locked(event, expected_seq)
        _refuse_past_the_draft(event)
        done = replay_to_write(event)
        key = own_entry(done, by)
        if key is None:
            raise LeagueError("not_entered", "You hold no entry of your own in this Event "
                                             "(a team's is withdrawn by an organizer).", 404)
        _append(event, Kind.ENTRANT_WITHDRAWN, {"key": key}, by)
        _after_change(event, done)


def own_entry(done: Replayed, user: Any) -> str | None:
    """The key of `user`'s own active player entry in a replayed Event, if they hold one."""
    if not (user and user.is_authenticated):
        return None
    players = _player_ids(user)
    return next((key for key, entrant in done.entrants.items()
                 if entrant["player"] in players and not entrant["withdrawn"]), None)


def own_team_entry(done: Replayed, user: Any) -> str | None:
    """The name of an active team entry in a replayed Event that `user` plays for, if any:
    a member of it may not enter alone (`_refuse_a_player_on_two_sides`)."""
    if not (user and user.is_authenticated):
        return None
    teams = set(Team.objects.filter(members__user=user).values_list("pk", flat=True))
    return next((entrant["name"] for entrant in done.entrants.values()
                 if entrant["team"] in teams and not entrant["withdrawn"]), None)


def takes_players(event: Event) -> bool:
    """Whether a player may enter the Event alone (`_refuse_team_sides`)."""
    return not showdown.is_event(event.game, event.match_options)


def _refuse_team_sides(game: str, match_options: dict[str, Any]) -> None:
    """A Superstar Showdown Event's two sides, Red and Blue (each a team, a player or a
    bot), are entered by its organizers: a player signing up alone would take a whole
    side."""
    if showdown.is_event(game, match_options):
        raise LeagueError("teams_only", "This Event's two sides, Red and Blue, are entered "
                                        "by its organizers: players do not enter it "
                                        "themselves.", 409)


def _refuse_past_the_draft(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise LeagueError("event_finished", "The Event is over.", 409)
    if event.status != Event.Status.DRAFT:
        raise LeagueError("event_started", "The Event has started: entries are made and "
                                           "withdrawn by its organizers now.", 409)


def _require_signed_in(user: Any) -> None:
    if not (user and user.is_authenticated):
        raise LeagueError("not_authenticated", "Sign in first.", 401)


# -- running ----------------------------------------------------------------------------

def start_event(*, event: Event, by: Any, expected_seq: int | None = None,
                expected_entrants: int | None = None) -> None:
    """Start: the format is laid out in seed order and the first matches are created.
    `expected_entrants`: how many entrants the organizer was asked to start with; a field
    that has changed since (a player entered or left while the question was open) is not
    started, and the refusal says how many it holds now."""
    _require(can_organize(event, by))
    with transaction.atomic():
        event = _locked(event)
        if event.status != Event.Status.DRAFT:
            raise LeagueError("event_started", "The Event has already started.", 409)
        done = replay_to_write(event)
        if expected_entrants is not None and expected_entrants != len(done.order):
            now = len(done.order)
            raise LeagueError("entrants_changed", f"The Event has {now} "
                              f"entrant{'s' if now != 1 else ''} now, not the "
                              f"{expected_entrants} you were asked to start it with: an entry "
                              "or a withdrawal came in meanwhile. Check the entrants, then "
                              f"start again to start with {now}.", 409)
        _locked(event, expected_seq)  # any other change since it was read
        if len(done.order) < 2:
            raise LeagueError("too_few_entrants", "An Event needs at least two entrants.")
        state = _start_fits(event, list(done.order))
        event.status = Event.Status.RUNNING
        record = _append(event, Kind.STARTED, {
            "order": list(done.order), "revision": formats.get_format(event.format).revision},
            by)
        _fold_checked(done, record, state)
        _advance(event, done=done)


def _start_fits(event: Event, order: list[str]) -> Any:
    """The format's state once started with `order`; refused when the format's options do
    not fit the field. The options fitted some field when the Event was made, so a misfit
    now is the field's (two entrants for three Swiss rounds): the refusal says so, and
    what the organizer can do."""
    try:
        return formats.get_format(event.format).start(order, event.format_options)
    except formats.FormatError as exc:
        if exc.code != "bad_option":
            raise LeagueError(exc.code, exc.message) from None
        raise LeagueError("bad_option", f"{len(order)} entrants cannot start with this "
                                        f"Event's format options ({exc.message.rstrip('.')}): "
                                        "enter more.") from None


def pair_by_hand(*, event: Event, by: Any, pairings: list[list[str]],
                 expected_seq: int | None = None) -> None:
    """The organizer's own pairings for a round that is held (no match of it made yet)."""
    _require(can_organize(event, by))
    with transaction.atomic():
        event = _locked(event, expected_seq)
        if event.status != Event.Status.RUNNING:
            raise LeagueError("event_not_running", "Pairings are made in a running Event.", 409)
        done = replay_to_write(event)
        fmt = formats.get_format(event.format)
        state = _try_format(lambda: fmt.pair_by_hand(done.state, pairings), done)
        if not held_pairings(event, done):
            raise LeagueError("round_made", "No round is waiting: pair by hand while a new "
                                            "round is held (an Event that holds rounds).", 409)
        _fold_checked(done, _append(event, Kind.PAIRED_BY_HAND, {"pairings": pairings}, by),
                      state)
        _advance(event, release=True, done=done)


def release_round(*, event: Event, by: Any, expected_seq: int | None = None) -> None:
    """Make the matches of the round that waits for the organizer."""
    _require(can_organize(event, by))
    with transaction.atomic():
        event = _locked(event, expected_seq)
        done = replay_to_write(event)
        held = held_pairings(event, done)
        if not held:
            raise LeagueError("nothing_held", "No round is waiting to be released.", 409)
        _fold_checked(done, _append(event, Kind.ROUND_RELEASED, {
            "stage": held[0].stage, "round": held[0].round,
            "pairings": [p.id for p in held]}, by))
        _advance(event, release=True, done=done)


def walkovers(done: Replayed) -> dict[str, str | None]:
    """The Event's pairings a withdrawal decided with no result, each to the entrant its
    format counts the win for (None: a loss for both), as the standings count them: the
    one source of a walkover's winner for the pages, the diagram and the API, which named
    the one still in, so nobody where both had withdrawn one after the other."""
    if done.state is None:
        return {}
    return formats.get_format(done.format).walkovers(done.state)


def held_pairings(event: Event, done: Replayed) -> list[formats.Pairing]:
    """Ready pairings of a new round that waits for the organizer."""
    if not event.hold_rounds or done.state is None or not done.matches:
        return []
    made = {(m["stage"], m["round"]) for m in done.matches.values()}
    return [p for p in formats.get_format(event.format).ready(done.state)
            if p.id not in done.matches and (p.stage, p.round) not in made]


def _try_format(call: Any, done: Replayed | None = None) -> Any:
    """`call`'s answer; a format's refusal as the league's, its entrants named as in
    `done` (the Event replayed), if given."""
    try:
        return call()
    except formats.FormatError as exc:
        raise LeagueError(exc.code, _by_name(exc.message, done)) from None


def _by_name(message: str, done: Replayed | None) -> str:
    """A format's message with each entrant it quotes by key ("e9 has withdrawn.",
    "Not paired: e3, e4.") named as the pages name them ("bruno has withdrawn."), and each
    pairing by its label ("Winners round 1 match 2 is not ready to be played."): the
    formats know keys and pairing ids alone, which the organizer's pages and the API's
    answers show nowhere but in the entrants' table and beside a match's label. A key or
    id the Event has not is left as written."""
    if done is None:
        return message
    names = shown_names(done.entrants) | _labels(done)
    if not names:
        return message
    keys = "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True))
    return re.sub(rf"'({keys})'|(?<![\w:-])({keys})(?![\w:-])",
                  lambda m: names[m[1] or m[2]], message)


def _labels(done: Replayed) -> dict[str, str]:
    """Each pairing of the replayed Event with a label of its own, by that label, as the
    pages list it ("W1-2": "Winners round 1 match 2"): those its format draws, and those
    whose matches were made (a replay's under its pairing's label)."""
    labels = {pid: made.get("base_label") or made.get("label") or ""
              for pid, made in done.matches.items()}
    if done.state is not None and done.format:
        labels |= {p.id: p.label for p in formats.get_format(done.format).pairings(done.state)}
    return {pid: label for pid, label in labels.items() if label and label != pid}


def _advance(event: Event, release: bool = False, done: Replayed | None = None) -> None:
    """Create a match for every ready pairing (a held round waits for `release`); finish
    the Event when the format is done. `done`: the caller's replay of the Event, up to a
    record it wrote (the records written since are folded in, not the stream replayed)."""
    fmt = formats.get_format(event.format)
    released: set[tuple[str, int]] | None = None  # the round `release` lets go
    done = replay_to_write(event) if done is None else done
    settled = True
    while settled:  # a pod settled by seed may deal the next round, which waits in turn
        done = caught_up(event, done)
        waiting = held_pairings(event, done)
        if released is None:
            released = {(p.stage, p.round) for p in waiting} if release else set()
        held = {p.id for p in waiting if (p.stage, p.round) not in released}
        settled = False
        for pairing in fmt.ready(done.state):
            if pairing.id in done.matches or pairing.id in held:
                continue
            entrants = [k for k in pairing.slots if k is not None]
            if len(entrants) < event.format_options.get("min_pod_size", 0):  # heats
                _settle_by_seed(event, done, pairing.id, entrants)
                settled = True
                break
            _create_match(event, done, {
                "pairing": pairing.id, "round": pairing.round, "stage": pairing.stage,
                "label": pairing.label, "entrants": entrants})
    if fmt.is_complete(done.state) and not done.finished:
        event.status = Event.Status.FINISHED
        _append(event, Kind.FINISHED, {}, None)
    _after_change(event, done)


def _settle_by_seed(event: Event, done: Replayed, pairing: str, entrants: list[str]) -> None:
    """A heats pod that withdrawals left with fewer entrants than its game seats (a final
    of two in a game of three or more) is not played: its entrants place by seed."""
    done = caught_up(event, done)  # (the matches made before it in the round)
    placements = _places_by_seed(done, entrants)
    fmt = formats.get_format(event.format)
    state = _try_format(lambda: fmt.record(
        done.state, formats.MatchResult(pairing, placements, {})), done)
    _fold_checked(done, _append(event, Kind.RESULT_RECORDED, {
        "pairing": pairing, "match": None, "placements": placements,
        "figures": {}, "forfeit": None, "decided_by": "seed"}, None), state)


def _places_by_seed(done: Replayed, keys: list[str],
                    places: dict[str, int] | None = None) -> dict[str, int]:
    """A place for each entrant, none shared: by `places` if given, ties (or all) by seed."""
    seed = {key: i for i, key in enumerate(done.order)}
    ranked = sorted(keys, key=lambda k: ((places or {}).get(k, 0), seed.get(k, len(seed))))
    return {k: i + 1 for i, k in enumerate(ranked)}


def _create_match(event: Event, done: Replayed, made: dict[str, Any]) -> None:
    """The match of a pairing (`made`: its pairing, round, stage, label and entrants), and
    the match_created record that links them."""
    entrants = made["entrants"]
    _drop_stale_picks(event, done, entrants)
    seats, seat_keys, options = _table(event, done, entrants)
    try:
        match = match_services.create_match(game=event.game, options=options, seats=seats,
                                            created_by=None)
    except match_services.ServiceError as exc:
        gone = gone_from_card_set(event, options, len(seats))
        if gone:
            raise _options_gone(event, gone, made["label"] or made["pairing"]) from None
        raise LeagueError(exc.code, exc.detail, exc.status) from None
    payload = {**made, "match": match.pk}
    if seat_keys != entrants:
        payload["seats"] = seat_keys
    _fold_checked(done, _append(event, Kind.MATCH_CREATED, payload, None))


def gone_from_card_set(event: Event, options: dict[str, Any] | None = None,
                       n_seats: int | None = None) -> list[str]:
    """What the Event's match options (or `options`, a match's made from them, at
    `n_seats`) name that its game no longer has, quoted: a Superstar, Competitor, Legend
    or card since taken out of its card set. An option is at fault when its stored value
    no longer starts a match and its default does; of a list, the entries whose default
    in their place does (of another value, a Superstar Showdown Event's composed series,
    the option alone is named). Empty when the options still start a match, or fail for
    another reason (a table size the game does not seat)."""
    rules = _check_game(event.game)
    options = dict(event.match_options if options is None else options)
    sizes = [n_seats] if n_seats is not None else list(_table_sizes(event.format_options,
                                                                    rules.spec))

    def starts(trial: dict[str, Any]) -> bool:
        try:
            for n in sizes:
                rules.start(rules.spec.resolve_options(trial), n)
        except IllegalAction:
            return False
        return True

    if starts(options):
        return []
    gone: list[str] = []
    for name, value in options.items():
        if name not in rules.spec.options:
            continue  # an option the game no longer reads is refused as such
        default = rules.spec.options[name].default
        if not starts({**options, name: default}):
            continue
        entries = []
        if isinstance(value, list) and isinstance(default, list) \
                and len(value) == len(default):
            entries = [entry for i, entry in enumerate(value) if starts(
                {**options, name: [*value[:i], default[i], *value[i + 1:]]})]
        named = [entry for entry in entries or [value] if isinstance(entry, str)]
        gone += [reprlib.repr(entry) for entry in dict.fromkeys(named)] or [
            f"something its {quoted(name)} option names"]
    return gone


def options_gone(event: Event, readable: bool = True) -> list[str]:
    """What the Event's match options name that its game no longer has (taken out of its
    card set, `gone_from_card_set`): its next matches cannot be made, as its organizer
    page and its API answer say. None once it is over, nor for a game this site plays no
    more (its pages say so elsewhere). For a reader who may not read its secret options
    (`readable` false: constructed decks), those are left out, so that nothing is told
    of them."""
    if event.status == Event.Status.FINISHED:
        return []
    options = None
    if not readable:
        secret = match_services.secret_options(event.game)
        options = {name: value for name, value in event.match_options.items()
                   if name not in secret}
    try:
        return gone_from_card_set(event, options)
    except LeagueError:
        return []


def _options_gone(event: Event, gone: list[str], label: str) -> LeagueError:
    """The refusal of a match the Event's own options no longer start (`gone`)."""
    title = _check_game(event.game).spec.title
    return LeagueError(
        "rules_changed", f"{label} cannot be made: this Event's match options name "
        f"{', '.join(gone)}, which {title} no longer has (taken out of its card set). "
        "Its next matches are made once that is back in the card set; nothing was "
        "written.", 409)


def _drop_stale_picks(event: Event, done: Replayed, keys: list[str]) -> None:
    """An entrant whose picks the game no longer takes (a Competitor or a card since gone
    from the card set) plays what the Event gives its seat, so that the Event plays on: a
    record drops its picks, for all to see, and it may pick again."""
    for key in keys:
        entrant = done.entrants[key]
        if not entrant.get("picks"):
            continue
        try:
            check_picks(event, entrant["picks"])
        except LeagueError:
            entrant["picks"], entrant["dropped"] = {}, True
            _fold_checked(done, _append(event, Kind.ENTRANT_PICKED, {
                "key": key, "picks": {}, "dropped": True}, None))


def _table(event: Event, done: Replayed, entrants: list[str]
           ) -> tuple[list[dict[str, Any]], list[str], dict[str, Any]]:
    """A pairing's match seats, the entrant of each seat, and the match options.

    In a Superstar Showdown Event each side may take several seats (see league.showdown);
    elsewhere an entrant takes one seat.
    """
    if not showdown.is_event(event.game, event.match_options) or len(entrants) != 2:
        picks = [done.entrants[k].get("picks", {}) for k in entrants]
        return ([_seat_for(done.entrants[k]) for k in entrants], list(entrants),
                with_picks(_check_game(event.game), dict(event.match_options), picks))
    red, blue = (_side_seats(done.entrants[k]) for k in entrants)
    try:
        table = showdown.seat_sides(red, blue)
    except IllegalAction as exc:
        raise LeagueError(exc.code, exc.message) from None
    return table.seats, [entrants[side] for side in table.sides], table.options(
        event.match_options)


def _seat_for(entrant: dict[str, Any]) -> dict[str, Any]:
    """The match seat an entrant takes: a bot, a player, or a team's chosen member
    (`choose_team_player`), else its first member by id."""
    return _side_seats(entrant)[0]


def _side_seats(entrant: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat an entrant can fill: a bot's or a player's one, each team member's, the
    chosen member's first while they are still in the team."""
    if entrant["bot"]:
        return [{"bot": entrant["bot"]}]
    if entrant["player"]:
        return [{"player": Player.objects.select_related("user").get(
            pk=entrant["player"]).user.get_username()}]
    members = Team.objects.get(pk=entrant["team"]).members.select_related("user").order_by("pk")
    chosen = entrant.get("plays")
    ordered = sorted(members, key=lambda member: member.pk != chosen)
    return [{"player": member.user.get_username()} for member in ordered]


def record_match_result(*, match: Match) -> bool:
    """Record a finished match's result in its Event and advance the bracket (idempotent)."""
    link = EventMatch.objects.filter(match=match).select_related("event").first()
    if link is None or match.status != Match.Status.FINISHED or not match.result:
        return False
    with transaction.atomic():
        return _record_locked(_locked(link.event), link, match)


def _record_locked(event: Event, link: EventMatch, match: Match,
                   play_again: bool = True, done: Replayed | None = None) -> bool:
    """`record_match_result` with the Event locked by the caller. A draw the format refuses
    is played again in a new match, unless `play_again` is False (the pairing is about to
    be decided otherwise): then it is only written down. The Event is replayed once (or
    `done`, the caller's own replay of it, caught up): the records the result writes are
    folded into that replay for the matches it deals and the projections it rewrites,
    the result itself as the format state it was checked with (a result that decides a
    round pairs the next one once)."""
    done = replay_to_write(event) if done is None else caught_up(event, done)
    if link.pairing in done.results:
        return False
    made = done.matches[link.pairing]
    if made["match"] != match.pk:
        return False  # a drawn match, played again since
    entrants, seats = made["entrants"], made.get("seats") or made["entrants"]
    placements = match.result["placements"]
    figures = match.result.get("figures", {})
    fmt = formats.get_format(event.format)
    kept = _still_seated(fmt, done, link.pairing, entrants)
    # A forfeit ended the match (`forfeit`), or eliminated seats while it played on
    # (`forfeits`, Royal Rumble's and The Supershow's Elimination matches).
    forfeits = [seats[seat] for seat in match.result.get("forfeits", [])
                if seats[seat] in kept]
    forfeit = seats[match.result["forfeit"]] if "forfeit" in match.result \
        else next(iter(forfeits), None)
    # several forfeiting together (late at a decision made at once) ended it
    together = list(dict.fromkeys(seats[seat] for seat in match.result.get("forfeited", [])
                                  if seats[seat] in kept))
    payload = {
        "pairing": link.pairing, "match": match.pk,
        "placements": formats.entrant_places(placements, seats, kept),
        "figures": {k: figures.get(str(seats.index(k)), {}) for k in kept},
        "forfeit": forfeit if forfeit in kept else None,
        **({"forfeits": forfeits} if forfeits else {}),
        **({"forfeited": together} if len(together) > 1 else {}),
    }
    sides = result_sides(event, entrants, made.get("seats"))
    try:
        state = fmt.record(done.state, formats.MatchResult(
            link.pairing, payload["placements"], payload["figures"], sides))
    except formats.FormatError as exc:
        if exc.code in {"already_recorded", "not_ready", "event_complete"}:
            return False  # decided without this match (a withdrawal's walkover)
        if exc.code != "draw_not_allowed":
            raise LeagueError(exc.code, _by_name(exc.message, done)) from None
        if not play_again or made.get("replay", 0) < MAX_REPLAYS:
            _fold_checked(done, _append(event, Kind.MATCH_DRAWN, {
                "pairing": made["pairing"], "match": made["match"]}, None))
            if play_again:
                _play_again(event, done, made)
            return True
        # Drawn again and again: the better seed goes through.
        payload["placements"] = _places_by_seed(done, kept, payload["placements"])
        payload["decided_by"] = "seed"
        state = _try_format(lambda: fmt.record(done.state, formats.MatchResult(
            link.pairing, payload["placements"], payload["figures"], sides)), done)
    _fold_checked(done, _append(event, Kind.RESULT_RECORDED, payload, None), state)
    _try_format(lambda: _advance(event, done=done))
    return True


# A pairing that must have a winner is played again at most this many times after a draw;
# drawn once more, the better seed goes through (bots that always draw cannot loop).
MAX_REPLAYS = 3


def _play_again(event: Event, done: Replayed, made: dict[str, Any]) -> None:
    """A drawn match where the format needs a winner (a knockout), its draw written down:
    the same entrants play the pairing again, in a new match."""
    again = made.get("replay", 0) + 1
    base = made.get("base_label", made["label"])
    _create_match(event, done, {
        "pairing": made["pairing"], "round": made["round"], "stage": made["stage"],
        "label": f"{base or made['pairing']} (replay {again})", "base_label": base,
        "entrants": list(made["entrants"]), "replay": again})
    _after_change(event, done)


def _still_seated(fmt: Any, done: Any, pairing: str, entrants: list[str]) -> list[str]:
    """The match's entrants the format still seats in the pairing: one who withdrew from
    a pairing that plays on without them (a heats pod of several) leaves its result; their
    seat's forfeit ended the match, and the others' places stand among themselves."""
    view = next((p for p in fmt.pairings(done.state) if p.id == pairing), None)
    seated = set(view.entrants) if view is not None else set(entrants)
    return [k for k in entrants if k in seated or not done.entrants[k]["withdrawn"]]


def _entrant_name(event: Event, key: str) -> str:
    """The Event's entrant `key` by its name, as the pages show it; a key it has not, as
    it was written."""
    return Entrant.objects.filter(event=event, key=key).values_list("name", flat=True).first() \
        or key


def _require_entrant(event: Event, key: str) -> None:
    """404 unknown_entrant for a key that is no entrant of the Event, as every write naming
    an entrant answers it (one of the Event's not in the pairing's match is not_in_match)."""
    if not Entrant.objects.filter(event=event, key=key).exists():
        raise LeagueError("unknown_entrant", f"No entrant {quoted(key)} in this Event.", 404)


def _link(event: Event, pairing: str) -> EventMatch:
    link = (EventMatch.objects.filter(event=event, pairing=pairing).select_related("match")
            .order_by("-replay").first())
    if link is None:
        # A pairing still to be played by its label; one the Event has not, as typed.
        label = _labels(replay_to_write(event)).get(pairing)
        raise LeagueError("unknown_pairing", f"{label} has no match yet." if label
                          else f"No match for pairing {quoted(pairing)}.", 404)
    return link


def forfeit(*, event: Event, by: Any, pairing: str, entrant: str,
            expected_seq: int | None = None) -> None:
    """An entrant forfeits a live match: it ends, or, where the game eliminates players
    and plays on (`matches.services.forfeit_seat`: a Royal Rumble pod), the entrant is out
    and the others play it to its end; the result flows in then like any other."""
    _require(can_organize(event, by))
    _require_entrant(event, entrant)
    _forfeit(event, _link(event, pairing), [entrant], by, event_seq=expected_seq)


def _forfeit(event: Event, link: EventMatch, entrants: list[str], actor: Any,
             match_seq: int | None = None, event_seq: int | None = None) -> None:
    """The `entrants` forfeit the match together (one record, `entrants` in its payload
    when several); `match_seq` and `event_seq`: the match's and the Event's seq as last
    read, if the forfeit depends on them."""
    for entrant in entrants:
        if entrant not in link.entrants:
            raise LeagueError("not_in_match", f"{_entrant_name(event, entrant)} does not "
                                              f"play {link.label or link.pairing}.")
    payload: dict[str, Any] = {"pairing": link.pairing, "entrant": entrants[0],
                               "match": link.match_id}
    if len(entrants) > 1:
        payload["entrants"] = entrants
    with transaction.atomic():
        locked = _locked(event, event_seq)
        _append(locked, Kind.FORFEITED, payload, actor)
        try:
            match_services.forfeit_seats(
                match=link.match, seats=[link.seats_of(entrant)[0] for entrant in entrants],
                reason="deadline" if actor is None else "forfeit", expected_seq=match_seq)
        except match_services.ServiceError as exc:
            raise LeagueError(exc.code, exc.detail, exc.status, seat=exc.seat) from None


def seat_to_bot(*, event: Event, by: Any, pairing: str, entrant: str,
                bot: str | None = None, expected_seq: int | None = None) -> None:
    """Hand an absent entrant's seat to a bot for the rest of the match; an entrant out of
    a match that goes on (`matches.services.seats_out`) is refused (seat_out)."""
    _require(can_organize(event, by))
    _require_entrant(event, entrant)
    _seat_to_bot(event, _link(event, pairing), entrant, bot or event.deadline_bot, by,
                 event_seq=expected_seq)


def _seat_to_bot(event: Event, link: EventMatch, entrant: str, bot: str, actor: Any,
                 seats: list[int] | None = None, match_seq: int | None = None,
                 event_seq: int | None = None) -> None:
    """Every seat of the entrant (a team's too), or only the `seats` named, go to the bot;
    of a team's seats, those the bot already plays (the member the deadline handed it)
    stay as they are, and the rest go to it."""
    if entrant not in link.entrants:
        raise LeagueError("not_in_match", f"{_entrant_name(event, entrant)} does not play "
                                          f"{link.label or link.pairing}.")
    if seats is None:
        played = set(link.match.seats.filter(user__isnull=True, bot=bot)
                     .values_list("index", flat=True))
        seats = [seat for seat in link.seats_of(entrant) if seat not in played] \
            or link.seats_of(entrant)  # all played by it already: refused as already_bot
    payload: dict[str, Any] = {"pairing": link.pairing, "entrant": entrant, "bot": bot}
    if link.seats:  # a side of several seats: say which went to the bot
        payload["seats"] = seats
    with transaction.atomic():
        locked = _locked(event, event_seq)
        _append(locked, Kind.SEAT_TO_BOT, payload, actor)
        try:
            for seat in seats:
                match_services.hand_seat_to_bot(match=link.match, seat=seat, bot=bot,
                                                expected_seq=match_seq)
        except match_services.ServiceError as exc:
            raise LeagueError(exc.code, exc.detail, exc.status, seat=exc.seat) from None


def enforce_deadlines(now: Any = None) -> int:
    """Seats of people who let a turn deadline pass get the Event's policy; how many."""
    from django.utils import timezone

    now = now or timezone.now()
    applied = 0
    for event in Event.objects.filter(status=Event.Status.RUNNING,
                                      turn_deadline_minutes__isnull=False):
        cutoff = now - timedelta(minutes=event.turn_deadline_minutes or 0)
        links = EventMatch.objects.filter(event=event, match__status=Match.Status.ACTIVE,
                                          match__updated_at__lt=cutoff).select_related("match")
        for link in links:
            # The policy applies only to the match as it was read: a player who moves (or
            # a match that ends) meanwhile is left alone, and nothing is recorded.
            seq = link.match.seq
            try:
                # Every late seat against the match as read, in one transaction: a bot
                # given the first seat plays only once all are handed over (before, its
                # move made the next late seat's hand-over stale).
                with transaction.atomic():
                    handed = 0
                    late = _late_people(link.match)
                    if late and event.deadline_policy == Event.DeadlinePolicy.FORFEIT:
                        handed = _forfeit_late(event, link, late, seq)
                    for seat in late if not handed else ():
                        _seat_to_bot(event, link, link.seat_entrants()[seat],
                                     event.deadline_bot, None, seats=[seat], match_seq=seq)
                        handed += 1
                applied += handed
            except Exception as exc:  # one match's failure, whatever it is, must not keep
                # the late seats of the others waiting (its own transaction is rolled back);
                # a match that moved on meanwhile is no failure, nor a seat that another
                # sweep (an overlapping run, a task delivered twice) handed over first
                moved = isinstance(exc, LeagueError) and exc.code in (
                    "stale_seq", "match_not_active", "match_over", "already_bot", "seat_out")
                if not moved:
                    log.exception("the turn deadline of match %s could not be applied",
                                  link.match_id)
    return applied


def _forfeit_late(event: Event, link: EventMatch, late: list[int], seq: int) -> int:
    """The entrants of the `late` seats forfeit; how many. Where a forfeit ends the match,
    all of them together, in one record: were only the first forfeited, a rival as late
    at the same decision (made at once) would win by it. All late, nobody wins. Where a
    forfeit puts one out and the others play on (a Royal Rumble pod of three or more),
    the first alone, as before: the match goes on and the deadline runs again for the
    rest (together once a forfeit would end it)."""
    entrants = list(dict.fromkeys(link.seat_entrants()[seat] for seat in late))
    if not match_services.forfeits_end_match(link.match, late):
        entrants = entrants[:1]
    _forfeit(event, link, entrants, None, match_seq=seq)
    return len(entrants)


def _late_people(match: Match) -> list[int]:
    """The seats held by people that the match is waiting for (none known in a match
    recorded under earlier rules, or whose stream no longer replays: it waits for its
    organizer to forfeit it). A seat out of the match (`matches.services.seats_out`) is
    never among them: the game waits on nobody out, so no deadline hands it a bot."""
    if not match_services.replays(match):
        return []
    return _awaited_people(match, match_services.match_state(match=match, user=None)["pending"])


def _awaited_people(match: Match, pending: dict[str, Any],
                    seats: Iterable[Seat] | None = None) -> list[int]:
    """The seats held by people among those a served `pending` waits for (`seats`: the
    match's seats, when the caller has read them already)."""
    if pending["kind"] != "decision":
        return []
    if seats is None:
        people = set(match.seats.filter(user__isnull=False).values_list("index", flat=True))
    else:
        people = {seat.index for seat in seats if seat.user_id is not None}
    return [s for s in pending["seats"] if s in people]


def turn_deadline(match: Match, pending: dict[str, Any],
                  seats: Iterable[Seat] | None = None) -> dict[str, Any] | None:
    """When the deadline sweep gives the people the match waits for (`seats`) the Event's
    `policy`, at the earliest (`at`: the match's last change and the Event's turn deadline);
    None when no deadline runs: not a running Event's match, no deadline set, or nobody
    awaited but bots and the dice. The match's seat rows are read unless the caller holds
    them (the `seats` argument)."""
    if match.status != Match.Status.ACTIVE or pending["kind"] != "decision":
        return None
    found = turn_deadlines([match]).get(match.pk)
    if found is None:
        return None
    awaited = _awaited_people(match, pending, seats)
    return {**found, "seats": awaited} if awaited else None


def turn_deadlines(matches: Iterable[Match]) -> dict[int, dict[str, Any]]:
    """By match id, for those of `matches` whose running Event sets a turn deadline: when
    it passes for whoever the match waits for now (`at`) and what they then get
    (`policy`). One query, whatever the number of matches."""
    by_id = {match.pk: match for match in matches}
    rows = EventMatch.objects.filter(
        match_id__in=list(by_id), event__status=Event.Status.RUNNING,
        event__turn_deadline_minutes__isnull=False,
    ).values_list("match_id", "event__turn_deadline_minutes", "event__deadline_policy")
    return {match_id: {"at": by_id[match_id].updated_at + timedelta(minutes=minutes or 0),
                       "policy": policy}
            for match_id, minutes, policy in rows}


def sweep_results() -> int:
    """Record finished Event matches whose result never arrived; how many. What the lost
    result task writes before the result comes with it: the match's Ranking Points,
    ratings and round scores (each written once, however often asked)."""
    from league import projections

    missed = 0
    for link in EventMatch.objects.filter(event__status=Event.Status.RUNNING,
                                          match__status=Match.Status.FINISHED):
        try:
            if not record_match_result(match=link.match):
                continue
            missed += 1
            projections.refresh_finished(link.match)
        except LeagueError as exc:
            if exc.code != "rules_changed":
                raise
            # The Event's options name what its game no longer has: its result waits
            # (unrecorded, tried again by each sweep) and the organizer page says why.
            log.warning("the result of match %s waits: %s", link.match_id, exc.detail)
        except Exception:  # one Event's failure, whatever it is, must not stop the sweep
            # of the others (its own transaction is rolled back)
            log.exception("the result of match %s could not be recorded", link.match_id)
    return missed


def correct_result(*, event: Event, by: Any, pairing: str, placements: dict[str, int],
                   expected_seq: int | None = None) -> dict[str, int]:
    """Replace a recorded result; the placements recorded (everyone placed last: nobody
    won, `formats.no_winner`). Refused when the bracket already moved on in a way the
    correction would contradict (a later match was made with the old winner)."""
    _require(can_organize(event, by))
    with transaction.atomic():
        event = _locked(event, expected_seq)
        done = replay_to_write(event)
        if pairing not in done.results and not _has_pairing(done, pairing):
            raise LeagueError("unknown_pairing", f"No pairing {quoted(pairing)} in this "
                                                 "Event.", 404)
        if pairing not in done.results:
            raise LeagueError("no_result", f"{_label(done, pairing)} has no recorded result "
                                          "to correct.", 409)
        # The entrants the result places: a pod's withdrawn player is no longer among them.
        if sorted(placements) != sorted(done.results[pairing]["placements"]) or not all(
            isinstance(v, int) and 1 <= v <= len(placements) for v in placements.values()
        ):
            raise LeagueError("bad_placements", "Give a place (1 = first, at most the number "
                                                "of entrants) to each entrant of that match.")
        # Places as a finished match gives them: after two sharing first comes third;
        # everyone placed last is nobody winning (as a match every side forfeited ends,
        # a loss for each), not everyone sharing first, a draw.
        if not formats.no_winner(formats.MatchResult(pairing, placements)):
            placements = {k: 1 + sum(o < v for o in placements.values())
                          for k, v in placements.items()}
        last = (event.records.filter(kind__in=[Kind.RESULT_RECORDED, Kind.RESULT_CORRECTED],
                                     payload__pairing=pairing).order_by("-seq").first())
        if last is not None and last.kind == Kind.RESULT_CORRECTED \
                and last.payload.get("placements") == placements:
            # A second click on the same correction; a first one that confirms the recorded
            # placements still counts (it rates a forfeit nobody moved in).
            raise LeagueError("already_corrected", f"{_label(done, pairing)}'s result was "
                                                   "corrected to these places already.", 409)
        rows = list(event.records.order_by("seq"))
        record = _correction_record(event, done, pairing, placements)
        recorded_at = next(r.seq for r in rows if r.kind == Kind.RESULT_RECORDED
                           and r.payload["pairing"] == pairing)
        # The format refusing the corrected result itself is the correction's own error;
        # refusing any record after it, a conflict with what followed. (Corrections apply
        # where their results were recorded.)
        _try_format(lambda: replay(event, [r for r in [*rows, record] if r.seq <= recorded_at
                                           or r.kind == Kind.RESULT_CORRECTED]), done)
        corrected = _correction_conflict(event, done, rows, record)
        _append(event, Kind.RESULT_CORRECTED, record.payload, by)
        _advance(event, done=corrected)  # (the stream with the correction, replayed)
        _reproject(done.matches.get(pairing, {}).get("match"))
    return placements


UNTIL = "A result can be corrected until a later pairing is drawn from it."


def _correction_record(event: Event, done: Replayed, pairing: str,
                       placements: dict[str, int]) -> EventRecord:
    """The record correcting `pairing`'s result to `placements` (not yet saved)."""
    return EventRecord(event=event, seq=done.seq + 1, kind=Kind.RESULT_CORRECTED,
                       payload={"pairing": pairing, "placements": placements,
                                "figures": done.results[pairing].get("figures", {})})


def _correction_conflict(event: Event, done: Replayed, rows: list[EventRecord],
                         record: EventRecord) -> Replayed:
    """The Event replayed with the correction `record` after its records `rows`;
    refused (409 correction_conflicts) where what followed the result contradicts it: a
    later pairing drawn from it, a match made seating others, a finished Event undecided."""
    try:
        corrected = replay(event, [*rows, record])
    except formats.FormatError as exc:
        raise _refused_by_format(event, done, record.payload["pairing"], exc) from None
    return _checked_correction(event, done, record.payload["pairing"], corrected)


def _refused_by_format(event: Event, done: Replayed, pairing: str,
                       exc: formats.FormatError) -> LeagueError:
    """The refusal of a correction of `pairing` the format refused, replayed: a later
    pairing drawn from the result as it stands, or the corrected result itself."""
    later = _drawn_from(formats.get_format(event.format), done, pairing)
    detail = (f"{_later_said(done, later)} drawn from {_named(done, pairing)}'s result "
              f"as it stands; the corrected one would have drawn "
              f"{'it' if len(later) == 1 else 'them'} otherwise "
              f"({_by_name(exc.message, done).rstrip('.')}). {UNTIL}" if later
              else _by_name(exc.message, done))
    return LeagueError("correction_conflicts", detail, 409)


def _checked_correction(event: Event, done: Replayed, pairing: str,
                        corrected: Replayed) -> Replayed:
    """`corrected` (the Event replayed with a correction of `pairing`), refused where
    what followed the result contradicts it: a match made seating others, a finished
    Event undecided."""
    fmt = formats.get_format(event.format)
    pid = _repaired_match(fmt, corrected.state, corrected)
    if pid is not None:
        raise LeagueError("correction_conflicts", f"{_named(done, pid)} was already made, "
                          f"seating those whom {_named(done, pairing)}'s result as it "
                          f"stands sent there; the corrected one would seat others. "
                          f"{UNTIL}", 409)
    if done.finished and not fmt.is_complete(corrected.state):
        raise LeagueError("correction_conflicts", "The Event finished on "
                          f"{_named(done, pairing)}'s result as it stands; the "
                          "corrected one would call for "
                          "another match (a grand-final reset, say). A finished "
                          "Event's result can be corrected where the Event stays "
                          "decided.", 409)
    return corrected


def _later_said(done: Replayed, later: list[str]) -> str:
    """The later pairings `later` as a correction's refusal and the organizer page name
    them: "The later pairing Final (W3-1) was"."""
    pairings, were = ("pairing", "was") if len(later) == 1 else ("pairings", "were")
    return f"The later {pairings} {', '.join(_named(done, p) for p in later)} {were}"


# Why results of an Event at a seq may not be corrected, as its organizer page says (by
# pairing, "" for one that may): each answer replays the whole Event, and the page asks
# on every view.
_barred: LRU[tuple[int, float, int], dict[str, str]] = LRU(READ_REPLAYS)


def uncorrectable(event: Event, done: Replayed, pairings: Iterable[str]) -> dict[str, str]:
    """Those of the recorded results `pairings` that `correct_result` refuses to turn
    round (the last placed first), each with why, as the organizer page says it in place
    of the correction form: a later pairing drawn from the result, mostly. Tried are only
    the results a later pairing was drawn from, and a finished Event's. `done`: the Event
    replayed up to its `seq`."""
    if done.state is None or not done.format:
        return {}
    key = (event.pk, event.created_at.timestamp(), done.seq)
    known = _barred.get(key)
    if known is None:
        known = {}
        _barred.put(key, known)
    fmt = formats.get_format(done.format)
    tried: dict[str, list[str]] = {}  # the results to try, each to the pairings drawn from it
    asked = list(pairings)
    for pid in asked:
        if pid in known or pid not in done.results:
            continue
        later = _drawn_from(fmt, done, pid)
        known[pid] = ""
        if later or done.finished:
            tried[pid] = later
    if tried:
        rows = list(event.records.filter(seq__lte=done.seq).order_by("seq"))
        for pid, exc in _corrections_refused(event, done, rows, set(tried)).items():
            known[pid] = (f"{_later_said(done, tried[pid])} drawn from its result. {UNTIL}"
                          if tried[pid] else exc.detail)
    return {pid: why for pid in asked if (why := known.get(pid))}


def _corrections_refused(event: Event, done: Replayed, rows: list[EventRecord],
                         pairings: set[str]) -> dict[str, LeagueError]:
    """What `correct_result` refuses of turning round each result of `pairings`, as
    `_correction_conflict` finds it, in one replay of `rows` (the Event's records up to
    `done.seq`): at each result tried, a copy of the replay so far goes on with the
    result corrected (a correction applies where its result was recorded, so what comes
    before it is the same), where a replay a result went over the records before it
    again (a 48-match Event: about a second a view)."""
    corrections = {r.payload["pairing"]: r.payload for r in rows
                   if r.kind == Kind.RESULT_CORRECTED}
    out = Replayed({}, [], "registration", None, {}, {}, False, format=event.format)
    refused = {}
    for at, row in enumerate(rows):
        pid = row.payload.get("pairing")
        if row.kind == Kind.RESULT_RECORDED and pid in pairings:
            record = _correction_record(event, done, pid,
                                        turned_round(done.results[pid]["placements"]))
            try:
                corrected = _fold(event, copied(out), [*rows[at:], record],
                                  {**corrections, pid: record.payload})
                _checked_correction(event, done, pid, corrected)
            except formats.FormatError as exc:
                refused[pid] = _refused_by_format(event, done, pid, exc)
            except LeagueError as exc:
                refused[pid] = exc
        out = _fold(event, out, [row], corrections)
    return refused


def confirmable(event: Event, pairings: Iterable[str]) -> set[str]:
    """Those of the recorded results `pairings` whose recorded places `correct_result`
    still takes as they are, a confirmation (which rates a forfeit nobody moved in):
    those no correction was recorded for, as a second one of the same places is refused
    (already_corrected), and a corrected result's places are its latest correction's."""
    asked = set(pairings)
    corrected = set(event.records.filter(kind=Kind.RESULT_CORRECTED,
                                         payload__pairing__in=list(asked))
                    .values_list("payload__pairing", flat=True))
    return asked - corrected


def turned_round(placements: dict[str, int]) -> dict[str, int]:
    """A result's places turned round, the last first (of two, 1 and 2 swapped); a
    result where all placed alike, its first entrant alone first."""
    if len(set(placements.values())) == 1:
        first = min(placements)
        return {k: 1 if k == first else 2 for k in placements}
    return {k: 1 + sum(o > v for o in placements.values()) for k, v in placements.items()}


def _drawn_from(fmt: Any, done: Replayed, pairing: str) -> list[str]:
    """The made pairings drawn from `pairing`'s result: in a bracket those its winner's
    and loser's slots lead to, and on (the other semifinal is not drawn from a
    quarterfinal that feeds this one); where no slot names a source, every later round's."""
    drawn = fmt.pairings(done.state)
    fed = {pairing}
    grew = True
    while grew:
        onward = {p.id for p in drawn if p.id not in fed
                  and any(s.partition(" of ")[2] in fed for s in p.sources)}
        fed |= onward
        grew = bool(onward)
    if len(fed) > 1:  # in the order they were drawn: a semifinal before the final
        return sorted((p for p in done.matches if p in fed - {pairing}),
                      key=lambda p: (done.matches[p]["round"], p))
    round_ = next((p.round for p in drawn if p.id == pairing), 0)
    return sorted(p for p, m in done.matches.items() if m["round"] > round_)


def _named(done: Replayed, pairing: str) -> str:
    """A pairing as the organizer page lists it, its label and then its id: "Final
    (W2-1)"; the id alone where it has no label."""
    label = _labels(done).get(pairing)
    return f"{label} ({pairing})" if label else pairing


def _has_pairing(done: Replayed, pairing: str) -> bool:
    """Whether the replayed Event has the pairing: one its format draws, or one whose
    match was made."""
    if pairing in done.matches:
        return True
    return done.state is not None and bool(done.format) and any(
        p.id == pairing for p in formats.get_format(done.format).pairings(done.state))


def _label(done: Replayed, pairing: str) -> str:
    """A pairing by its label alone, as a refusal of one names it ("Winners final has no
    recorded result to correct."); one the Event has not, as it was written."""
    return _labels(done).get(pairing, pairing)


def _reproject(match_id: int | None) -> None:
    """A corrected result moves the ratings too (the game's are rated again in order), and
    a Superstar Showdown series' Ranking Points table names the winner it now has."""
    from league import projections

    match = Match.objects.filter(pk=match_id).first() if match_id else None
    if match is not None and match.status == Match.Status.FINISHED:
        projections.rebuild_ratings(match.game)
        projections.refresh_ranking_points(match)


def _repaired_match(fmt: Any, state: Any, done: Replayed) -> str | None:
    """A pairing whose match is already made but that `state` would seat differently
    (a pod that a withdrawn entrant left since is not seated differently)."""
    gone = {key for key, e in done.entrants.items() if e["withdrawn"]}
    seated = {p.id: [k for k in p.entrants if k not in gone] for p in fmt.pairings(state)}
    for pid, made in done.matches.items():
        if seated.get(pid) != [k for k in made["entrants"] if k not in gone]:
            return pid
    return None


def _after_change(event: Event, done: Replayed | None = None) -> None:
    """Recompute this Event's projections from its stream (same transaction); `done`: the
    caller's own replay of it, up to a record it wrote."""
    from league import projections

    projections.refresh_event(event, done)
