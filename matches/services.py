"""The match service: create, join, append, replay, and play bot seats.

Every rule about a match lives here once, shared by the pages, the API, the tasks and the
admin. State is never stored: it is rebuilt by replaying the stream (with an in-process
cache of committed states as an optimisation). An append locks the Match row, checks in a
fixed order, stores the decision and every chance outcome that follows in the same
transaction, and hands pending bot seats to Celery once the transaction commits.
"""

from __future__ import annotations

import copy
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, OperationalError, transaction
from django.db.models import Case, Q, Value, When
from django.utils import timezone

from config.lru import LRU
from config.queue import after_commit, enqueue
from config.refusal import Refusal
from engine import registry
from engine.bots.ismcts import SearchBot
from engine.protocol import JSON, BaseRules, Event, IllegalAction, Pending, PendingKind, quoted
from matches.models import PEOPLE, Departure, Match, MatchEvent, Seat
from matches.signals import match_advanced, match_finished, match_sealed

log = logging.getLogger(__name__)

# Bot decisions one task plays in a row before it hands the match to a fresh task, and
# (on a worker) the seconds it plays before it does so all the same.
BOT_STEPS_PER_TASK = 1000
BOT_TASK_SECONDS = 2.0
STATE_CACHE_SIZE = 512
LOG_CACHE_SIZE = 256  # viewers' narrated logs (two seats and the spectators of a match)


class ServiceError(Refusal):
    """A refused request to the match services."""

    @classmethod
    def from_engine(cls, exc: IllegalAction, seat: int | None = None) -> ServiceError:
        return cls(exc.code, exc.message, 400, seat=seat)


def shown(exc: Any) -> str:
    """A refusal as a page shows it: the reason for people, then its code."""
    return f"{exc.detail} ({exc.code})"


def _rules(game: str) -> BaseRules[Any]:
    try:
        return registry.get_rules(game)
    except IllegalAction as exc:
        raise ServiceError.from_engine(exc) from None


def _chance_rng() -> random.Random:
    """A fresh generator per draw; the outcome, not the generator, is what we store."""
    return random.Random(secrets.randbits(64))


# -- replay ------------------------------------------------------------------------------

_MatchKey = tuple[int, float]  # id and creation time: an id a rolled-back test reused differs


class _StateCache(LRU[tuple[_MatchKey, int], Any]):
    """Committed states by (match, seq). Events never change, so an entry never does."""

    def nearest(self, match: _MatchKey, seq: int) -> tuple[int, Any] | None:
        """The cached state with the highest seq not past `seq`, if any."""
        with self._lock:
            if (match, seq) in self._entries:
                self._entries.move_to_end((match, seq))
                return seq, self._entries[(match, seq)]
            best = max((s for m, s in self._entries if m == match and s <= seq), default=None)
            return None if best is None else (best, self._entries[(match, best)])


_cache = _StateCache(STATE_CACHE_SIZE)

# (match, the seat whose eyes read it or None, whether nothing is hidden any more)
_LogKey = tuple[_MatchKey, int | None, bool]
# Each viewer's narrated log of a match as `match_events` gave it: the entries after a seq
# (`base`), in order. Events never change, nor what a seat may read of one; a match
# unveiled at its end is read under another key.
_logs: LRU[_LogKey, tuple[int, list[dict[str, Any]]]] = LRU(LOG_CACHE_SIZE)


def clear_state_cache() -> None:
    """Forget every cached state and log (tests; a rebuild). Replay gives the same
    answers."""
    _cache.clear()
    _logs.clear()


def _cache_key(match: Match) -> _MatchKey:
    return match.pk, match.created_at.timestamp()


def _remember(match: Match, seq: int, state: Any) -> None:
    # Only committed history may be cached: a rolled-back append must leave no trace.
    key = _cache_key(match)
    after_commit(lambda: _cache.put((key, seq), state))


@dataclass(frozen=True)
class _Stream:
    """A replayed match: its rules, the state after `seq`, and the events read."""

    rules: BaseRules[Any]
    state: Any
    seq: int


def _replay(match: Match, upto: int | None = None) -> _Stream:
    """The state after event `upto` (default: the last stored event).

    A stream recorded under other rules than the game's now is refused (`rules_changed`):
    replayed by these, it would be another game than the one played."""
    rules = _replayable_rules(match)
    target = upto if upto is not None else _last_seq(match)
    cached = _cache.nearest(_cache_key(match), target)
    if cached is None:
        seq, state = 0, _first_state(match, rules)
    else:
        seq, state = cached
    # (the cache holding the very state asked for, as on most polls, leaves nothing to read)
    rows = match.events.filter(seq__gt=seq, seq__lte=target).order_by("seq") \
        if seq < target else []
    for row in rows:
        with _stored(match, rules, row.seq):
            state = rules.apply(state, Event.from_json(row.to_event_json()))
        seq = row.seq
    if seq != target:
        raise ServiceError("bad_seq", f"The stream has no event {target}.", 400)
    _remember(match, seq, state)
    return _Stream(rules, state, seq)


def _replayable_rules(match: Match) -> BaseRules[Any]:
    """The match's rules; refused (`rules_changed`) when its stream was recorded under
    others: replayed by these, it would be another game than the one played. A game this
    site plays no more has no rules to replay it by: refused alike, so that its live
    matches can still be resigned and forfeited."""
    try:
        rules = registry.get_rules(match.game)
    except IllegalAction:
        raise ServiceError(
            "rules_changed",
            f"This match plays {quoted(match.game)}, a game this site plays no more, "
            "and cannot be replayed. " + _what_stands(match), 409) from None
    if not plays_on(match):
        raise ServiceError(
            "rules_changed",
            f"This match was recorded under version {match.rules_version} of the rules of "
            f"{rules.spec.title}; this site plays version {rules.spec.rules_version} "
            "and cannot replay it. " + _what_stands(match), 409)
    return rules


def _first_state(match: Match, rules: BaseRules[Any]) -> Any:
    """The state the match's stored options start: refused (`rules_changed`) when the game
    takes them no more (a Superstar, Competitor or card since taken out of its card set),
    as a stream that no longer replays is, not answered with a server error; an open
    match so set up starts no more, its last seat's join refused alike."""
    try:
        return rules.start(match.options, match.n_seats)
    except IllegalAction:
        raise ServiceError(
            "rules_changed",
            f"This match was set up with something {rules.spec.title} no longer has (a card "
            "or character since taken out of its card set) and cannot be played or replayed. "
            + _what_stands(match), 409) from None


def _what_stands(match: Match) -> str:
    return ("Its result stands." if match.status == Match.Status.FINISHED
            else "It can only be resigned or forfeited.")


@contextmanager
def _stored(match: Match, rules: BaseRules[Any], seq: int) -> Iterator[None]:
    """Replaying the stored event `seq`: the engine refusing it means the stream was
    recorded under other rules than these, though under the same `rules_version` (a
    stream recorded before games had versions is version 1), so the match is refused as
    `rules_changed` too, not answered with a server error."""
    try:
        yield
    except IllegalAction:
        # (not the engine's reason: it may name a card some seat may not see)
        raise ServiceError(
            "rules_changed",
            f"This match was recorded under earlier rules of {rules.spec.title}: its event "
            f"{seq} no longer replays under version {rules.spec.rules_version}. "
            + _what_stands(match), 409) from None


def under_present_rules(prefix: str = "") -> Q:
    """A filter of the matches (reached through `prefix`, e.g. "match__") recorded under
    the rules their game plays now: those a started match's `plays_on` answers for."""
    found = Q(pk__in=[])
    for key, rules in registry.games().items():
        found |= Q(**{f"{prefix}game": key, f"{prefix}rules_version": rules.spec.rules_version})
    return found


def plays_on(match: Match) -> bool:
    """Whether the match was recorded under the rules its game plays now (or not yet
    started): whether its stream can be replayed here."""
    try:
        return (match.status == Match.Status.OPEN
                or match.rules_version == _rules(match.game).spec.rules_version)
    except ServiceError:
        return False


def replays(match: Match) -> bool:
    """`plays_on`, and its stored stream replays under the rules of the day (one stored
    before games had versions may not: see `_stored`)."""
    if not plays_on(match):
        return False
    try:
        _replay(match)
    except ServiceError as exc:
        if exc.code != "rules_changed":
            raise
        return False
    return True


def _last_seq(match: Match) -> int:
    last = match.events.order_by("-seq").values_list("seq", flat=True).first()
    return last or 0


def load_state(match: Match, upto: int | None = None) -> Any:
    """The match state replayed from its events, up to and including seq `upto`."""
    return _replay(match, upto).state


# -- who is looking ----------------------------------------------------------------------

def seat_of(match: Match, user: Any, seats: Iterable[Seat] | None = None) -> int | None:
    """The first seat the user holds, or None for a spectator (`seats`: the match's seats,
    when the caller has read them already)."""
    held = _held(match, user, seats)
    return held[0] if held else None


def page_seat(match: Match, user: Any, seats: Iterable[Seat] | None = None) -> int | None:
    """The seat the user's play page plays: of the seats they hold (a staff lineup may
    give one person several), the first with a decision pending, else their first still
    in the match (`seats_out`), else their first."""
    held = _held(match, user, seats)
    if len(held) < 2:
        return held[0] if held else None
    stream = _replay(match)
    pending = stream.rules.pending(stream.state)
    deciding = set(pending.seats) if pending.kind is PendingKind.DECISION else set()
    deciding_held = [seat for seat in held if seat in deciding]
    return deciding_held[0] if deciding_held else _first_in(match, held)


def held_seats(match: Match, user: Any) -> list[int]:
    """The indexes of the seats the user holds, in order (none for a spectator)."""
    return _held(match, user, None)


def _resigned_before(match: Match, held: list[int], seat: int | None) -> bool:
    """Whether the resignation asked (of `seat`, else of every seat the user holds) was
    made already: a retry whose answer was lost is answered as the first was, writing
    nothing, rather than refused (409 seat_out, match_over). Read from what the match
    shows everyone, its forfeits and result; a seat the game put out is not resigned."""
    asked = set(held if seat is None else [seat])
    if not asked or not asked <= set(held) or match.status == Match.Status.OPEN:
        return False
    result = match.result or {}
    forfeited = {*forfeited_seats(match), *(result.get("forfeited") or []),
                 *([result["forfeit"]] if "forfeit" in result else [])}
    return asked <= forfeited


def resigning_seat(match: Match, user: Any, held: list[int] | None = None) -> int | None:
    """The seat a resignation that names none takes: the user's first still in the match
    (`seats_out`), else their first (refused then as out); None if they hold none.
    `held`: the user's seats (`held_seats`), when the caller has read them already."""
    if held is None:
        held = _held(match, user, None)
    return _first_in(match, held) if held else None


def _first_in(match: Match, held: list[int]) -> int:
    """The first of the `held` seats still in the match, else the first."""
    out = seats_out(match, held)
    return next((seat for seat in held if seat not in out), held[0])


def seats_out(match: Match, among: Iterable[int] | None = None) -> set[int]:
    """The seats of the live match (of `among`, else every one) that are out while it goes
    on: the game refuses their forfeit as a seat already out (a forfeit eliminated it, or
    the rules did, as a fall does in a Supershow Elimination match). They are asked
    nothing any more. None in a match that is not live; in one whose stream no longer
    replays, the seats a forfeit put out."""
    if match.status != Match.Status.ACTIVE:
        return set()
    seats = range(match.n_seats) if among is None else among
    try:
        stream = _replay(match)
    except ServiceError as exc:
        if exc.code != "rules_changed":
            raise
        return set(forfeited_seats(match)) & set(seats)
    return {seat for seat in seats if _resign_outcome(
        stream.rules, stream.state, seat, match.status) == "already_out"}


def viewer_seat(match: Match, user: Any, seat: int | None,
                seats: Iterable[Seat] | None = None) -> int | None:
    """The seat whose eyes to use: the one asked for (if the user holds it) or theirs."""
    if seat is None:
        return seat_of(match, user, seats)
    if seat not in _held(match, user, seats):
        raise ServiceError("not_your_seat", "You do not hold that seat.", 403, seat=seat)
    return seat


def _held(match: Match, user: Any, seats: Iterable[Seat] | None) -> list[int]:
    """The indexes of the seats the user holds, in order: found among `seats` (the
    match's seats, read already) when given, else read."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    if seats is not None:
        return sorted(row.index for row in seats if row.user_id == user.pk)
    return list(match.seats.filter(user=user).order_by("index")
                .values_list("index", flat=True))


# -- create and join ---------------------------------------------------------------------

def create_match(*, game: str, options: dict[str, Any] | None, seats: list[dict[str, Any]],
                 created_by: Any, key: str | None = None, invite_others: bool = False) -> Match:
    """Create a match; it starts at once (deal included) when no seat is left open.

    A `key` the same creator gave before answers with the match that request created
    (a client retrying a create whose answer it lost), for the same game only. Staff seat
    the players they name, unless told to `invite_others` as any player does."""
    if key and created_by is not None:
        made = _made_with_key(created_by, key, game)
        if made is not None:
            return made
    rules = _rules(game)
    specs = [_seat_spec(game, item) for item in _as_list(seats)]
    try:
        rules.spec.check_seats(len(specs))
        resolved = rules.spec.resolve_options(options)
        rules.start(resolved, len(specs))
        # Kept as this table plays them: an entry a seat-count default names for each
        # seat (The Supershow's default pair is a bigger table's first Competitors of
        # its default table) is written out, so the match's options say what is played.
        resolved.update({name: entries for name, entries
                         in rules.seat_entries(resolved, len(specs)).items()
                         if resolved.get(name) is not None})
    except IllegalAction as exc:
        raise ServiceError.from_engine(exc) from None
    # An Event's match seats its entrants as they are: one deactivated since it was
    # entered (an account closes only outside Events) is left to the turn deadline.
    users = _users_by_name([name for kind, name in specs if kind == "player"],
                           active_only=created_by is not None)
    # None is the system itself (the league creating an Event's matches); it and staff
    # seat whom they name. A player seats themselves and invites the others they name.
    seats_others = created_by is None or (created_by.is_staff and not invite_others)
    if not seats_others and created_by.pk not in {user.pk for user in users.values()}:
        raise ServiceError("not_seated", "Take a seat in the match you create.", 403)
    guests = [] if seats_others else [users[name] for kind, name in specs
                                      if kind == "player" and users[name].pk != created_by.pk]
    if len({guest.pk for guest in guests}) != len(guests):
        raise ServiceError("bad_seat", "Invite a player to one seat only.", 400)
    try:
        with transaction.atomic():
            lock_people(users, active_only=created_by is not None)
            if created_by is not None and not created_by.is_staff:
                _check_room(created_by)
            return _create(game, resolved, specs, users, guests, created_by, key)
    except IntegrityError:
        made = _made_with_key(created_by, key, game) if key else None
        if made is None:
            raise
        return made  # the same key, created at the same moment by another request


def _check_room(player: Any) -> None:
    """Refuse a player who already has MAX_LIVE_MATCHES matches of their making waiting or
    in play, less those they left to others (players seated there, they not): a match
    they left is no more theirs to finish. The player's row stays locked until the
    caller's transaction ends, so two creates at once cannot both take the last place."""
    get_user_model().objects.select_for_update().filter(pk=player.pk).first()
    made = Match.objects.filter(created_by=player, status__in=[
        Match.Status.OPEN, Match.Status.ACTIVE])
    left = made.exclude(seats__user=player).filter(seats__user__isnull=False)
    live = made.exclude(pk__in=left.values("pk")).count()
    if live >= settings.MAX_LIVE_MATCHES:
        raise ServiceError(
            "too_many_matches",
            f"You have {live} {'match' if live == 1 else 'matches'} waiting for players "
            "or in play, the most one player may have: finish, resign or leave one first.",
            409)


def _made_with_key(created_by: Any, key: str, game: str) -> Match | None:
    made = Match.objects.filter(created_by=created_by, idempotency_key=key).first()
    if made is not None and made.game != game:
        raise ServiceError("key_reused", "That idempotency key created another game's "
                                         "match: use a new key for a new match.", 409)
    return made


def _create(game: str, resolved: dict[str, Any], specs: list[tuple[str, str]],
            users: dict[str, Any], guests: list[Any], created_by: Any,
            key: str | None) -> Match:
    """The match row and its seats (in the caller's transaction); dealt when full."""
    match = Match.objects.create(game=game, options=resolved, n_seats=len(specs),
                                 rules_version=_rules(game).spec.rules_version,
                                 created_by=created_by, idempotency_key=key or "")
    rows = [Seat(match=match, index=index, user=users.get(name) if kind == "player" else None,
                 bot=name if kind == "bot" else "") for index, (kind, name) in enumerate(specs)]
    for row in rows:
        if row.user is not None and row.user in guests:
            row.user, row.invited = None, row.user
    Seat.objects.bulk_create(rows)
    if not any(row.is_open for row in rows):
        _start(match)
    return match


def _as_list(seats: Any) -> list[Any]:
    if not isinstance(seats, list):
        raise ServiceError("bad_seat", "Seats must be a list.", 400)
    return seats


SEAT_SHAPES = '{"player": name}, {"bot": name} or {"open": true}'


def _seat_spec(game: str, item: Any) -> tuple[str, str]:
    """("player", username), ("bot", name) or ("open", "") from one seat item."""
    if not isinstance(item, dict) or len(item) != 1:
        raise ServiceError("bad_seat", f"A seat is {SEAT_SHAPES}.", 400)
    (kind, value), = item.items()
    if kind == "open" and value is True:
        return "open", ""
    if kind in ("player", "bot") and isinstance(value, str) and value:
        if kind == "bot" and value not in registry.bot_names(game):
            raise ServiceError("unknown_bot", f"{registry.title(game)} has no bot called "
                                              f"{quoted(value)}.", 400)
        return kind, value
    raise ServiceError("bad_seat", f"Cannot read the seat {quoted(item)}: a seat is "
                                   f"{SEAT_SHAPES}.", 400)


def user_named(name: str, active_only: bool = True) -> Any:
    """The active user called `name`, else the one so called ignoring case (sign-up keeps
    names unique ignoring case), else None: a closed or deactivated account is seated,
    invited and entered no more (but by an Event that entered it, `active_only` False)."""
    users = get_user_model().objects.filter(**({"is_active": True} if active_only else {}))
    return (users.filter(username=name).first()
            or users.filter(username__iexact=name).order_by("pk").first())


def lock_people(users: dict[str, Any], active_only: bool = True) -> None:
    """Lock the named accounts' rows until the transaction ends, as closing an account
    locks its row (league.services.close_user), and refuse one closed meanwhile: seated
    or invited as it closed, it held a seat or an invitation nobody would ever take up
    (`active_only` False: an Event's match, which seats its entrants as they are). In
    order of their ids, so that two tables naming the same people both go on."""
    wanted = {user.pk: name for name, user in users.items()}
    active = lock_accounts(wanted)
    gone = sorted(name for pk, name in wanted.items() if pk not in active)
    if gone and active_only:
        raise ServiceError("unknown_player", f"No player called {quoted(gone[0])}.", 400)


def lock_accounts(ids: Iterable[int]) -> set[int]:
    """Lock the accounts' rows until the transaction ends, in order of their ids (two
    callers naming the same people both go on), as closing an account locks its row
    (league.services.close_user); the ids of those that still sign in."""
    rows = (get_user_model().objects.select_for_update(no_key=True).filter(pk__in=list(ids))
            .order_by("pk").values_list("pk", "is_active"))
    return {pk for pk, active in rows if active}


def _users_by_name(names: Iterable[str], active_only: bool = True) -> dict[str, Any]:
    found = {name: user_named(name, active_only) for name in set(names)}
    missing = sorted(name for name, user in found.items() if user is None)
    if missing:
        raise ServiceError("unknown_player", f"No player called {quoted(missing[0])}.", 400)
    return found


def join_match(*, match: Match, user: Any) -> Seat:
    """Take the seat held for `user`, else the first seat open to anyone; the last one to
    sit down starts the match."""
    with transaction.atomic():
        lock_people({user.get_username(): user})  # before the match, as a close does
        locked = _locked(match)
        seats = list(locked.seats.order_by("index"))
        # Before the status: a join sent again after its answer was lost, its first having
        # filled the table and started the match, learns it holds a seat, not that it failed.
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError("already_seated", "You already hold a seat here.", 409)
        if locked.status != Match.Status.OPEN:
            raise ServiceError("match_not_open", "This match is not taking players.", 409)
        open_to = [s for s in seats if s.is_open_to(user)]
        seat = next((s for s in open_to if s.invited_id == user.pk), None) \
            or next(iter(open_to), None)
        if seat is None:
            raise ServiceError("no_open_seat", "Every seat is taken or held for an invited "
                                               "player.", 409)
        # The seat's mail so far (an invitation's) was for its answer: its turns are mailed
        # afresh (league.turn_mail).
        seat.user, seat.invited, seat.mailed_seq = user, None, None
        seat.save(update_fields=["user", "invited", "mailed_seq"])
        if not any(s.is_open for s in seats):
            _start(locked)
            seat.refresh_from_db(fields=["awaited"])
        _copy_progress(locked, match)
    return seat


def rematch(*, match: Match, user: Any) -> tuple[Match, bool]:
    """The finished `match` played again by its people, and whether this call made it.

    The first of them to ask makes it: the same game and options, each seat held as
    before (a seat a bot took over goes back to the player it stood in for), the asker
    seated and the other players invited, as in any match a player makes. The others who
    ask join it, taking the seat held for them; one who asks again is answered with it.
    """
    with transaction.atomic():
        locked = _locked(match)
        if is_event_match(locked):
            raise ServiceError("event_match", "An Event's matches are paired by its "
                                              "organizer, not replayed.", 409)
        if locked.status != Match.Status.FINISHED:
            raise ServiceError("match_not_over", "A match is played again once it is "
                                                 "over.", 409)
        seats = list(locked.seats.select_related(*PEOPLE).order_by("index"))
        if not played_in(seats, user):
            raise ServiceError("not_seated", "Only its players play a match again.", 403)
        made = rematch_of_theirs(locked, user)
        if made is None:
            return _make_rematch(locked, seats, user), True
        if made.status == Match.Status.OPEN and not made.seats.filter(user=user).exists():
            join_match(match=made, user=user)
            made.refresh_from_db()
    return made, False


def _make_rematch(match: Match, seats: list[Seat], user: Any) -> Match:
    """The rematch of `match` (locked by the caller), made by `user` at its `seats`."""
    if not others_hold_a_seat_each(seats, user):
        raise ServiceError("lineup_rematch", "Another player held several seats of this "
                                             "match, and an invitation holds one: only "
                                             "they may ask for its rematch.", 409)
    try:
        made = create_match(game=match.game, options=match.options, created_by=user,
                            invite_others=True, seats=[_held_again(seat) for seat in seats])
    except ServiceError as exc:
        if exc.status != 400:
            raise
        # The finished match's own options or seats, refused by the game as it is now (an
        # option a rules change dropped, a bot retired): nothing the asker sent was bad.
        raise ServiceError("setup_changed", "This match cannot be played again as it was: "
                                            f"{exc.detail} Make a new match instead.",
                           409) from None
    Match.objects.filter(pk=made.pk).update(rematch_of=match)
    made.rematch_of = match
    return made


def _held_again(seat: Seat) -> dict[str, str]:
    """A rematch's seat, held as the finished match's `seat` was: by its player (one a
    bot stood in for too), else by its bot."""
    person = seat.user or seat.stood_in_for
    return {"player": person.get_username()} if person else {"bot": seat.bot}


def may_make_rematch(match: Match, seats: Iterable[Seat], user: Any) -> bool:
    """Whether `user` may ask for the rematch of `match` to be made (`rematch` refuses
    otherwise), read from the match's `seats`."""
    seats = list(seats)
    return (match.status == Match.Status.FINISHED and played_in(seats, user)
            and others_hold_a_seat_each(seats, user) and not is_event_match(match))


def is_event_match(match: Match) -> bool:
    """Whether an Event made `match` (its organizer pairs and ends it): one with no maker
    that an Event links to. No maker alone is no sign, as a player's match whose maker's
    account was deleted has none either."""
    return match.created_by_id is None and getattr(match, "event_match", None) is not None


def played_in(seats: Iterable[Seat], user: Any) -> bool:
    """Whether `user` held one of `seats`, or a bot stood in for them there."""
    return any(user.pk in (seat.user_id, seat.stood_in_for_id) for seat in seats)


def others_hold_a_seat_each(seats: Iterable[Seat], user: Any) -> bool:
    """Whether every player of `seats` but `user` held one of them (a staff lineup may
    have seated one person at several): a rematch invites each to one seat."""
    others = [seat.user_id or seat.stood_in_for_id for seat in seats]
    others = [pk for pk in others if pk is not None and pk != user.pk]
    return len(set(others)) == len(others)


def rematch_of_theirs(match: Match, user: Any) -> Match | None:
    """The rematch of `match` that `user` sits in, or is invited to while it waits."""
    return (match.rematches.select_related("created_by")
            .filter(Q(seats__user=user) | Q(status=Match.Status.OPEN, seats__invited=user))
            .first())


def _locked(match: Match) -> Match:
    """The match's row, locked until the transaction ends; 404 if it is gone (the last
    player seated in an open match left it meanwhile)."""
    locked = Match.objects.select_for_update().filter(pk=match.pk).first()
    if locked is None:
        raise ServiceError("not_found", "No such match: its players left it.", 404)
    return locked


def _start(match: Match) -> None:
    """Activate a full table and resolve the opening chance events (the deal)."""
    rules = _rules(match.game)
    state = _first_state(match, rules)
    match.status = Match.Status.ACTIVE
    match.rules_version = rules.spec.rules_version  # waiting, it recorded nothing yet
    state = _resolve_chance(match, rules, state)
    pending = _settle(match, rules, state)
    _enqueue_bots(match.pk, _bot_seats(match, pending), match.seq)


# -- appending ---------------------------------------------------------------------------

def submit_action(*, match: Match, seat: int, action: dict[str, Any], user: Any,
                  expected_seq: int | None = None, key: str | None = None,
                  seat_moves: int | None = None) -> int:
    """Append a seat's decision and the chance events after it; the decision's seq.

    Checks, in order: the seat is the user's (None: a bot or the system), a repeated
    idempotency key (answered with the first seq, writing nothing), without a key the same
    decision made already right after `expected_seq` (so answered too), the match is live,
    `expected_seq` is current, `seat_moves` (the seat's decisions so far, as the page the
    player chose on showed them) is current, then the engine's own checks. The page sends
    `seat_moves`, not the seq: the other seats' moves do not make a choice stale, but
    the same seat's second tab does.
    """
    seq, bots = _append_decision(match=match, seat=seat, action=action, user=user,
                                 expected_seq=expected_seq, key=key, seat_moves=seat_moves)
    if bots:
        _enqueue_bots(match.pk, bots, match.seq)
    return seq


def _append_decision(*, match: Match, seat: int, action: Any, user: Any,
                     expected_seq: int | None, key: str | None,
                     seat_moves: int | None = None) -> tuple[int, list[int]]:
    """The append itself; also the bot seats pending afterwards (empty for a replay)."""
    try:
        with transaction.atomic():
            locked = _locked(match)
            # (a person's seat is checked, and the bots among the awaited seats found, in
            # the same rows: nobody changes them while the row is locked)
            seats = None if user is None else list(locked.seats.order_by("index"))
            _check_seat(locked, seat, user, seats)
            if key is not None:
                first = _answer_for_key(locked, key, seat, action)
                if first is not None:
                    return first, []
            elif expected_seq is not None:
                landed = _landed_at(locked, expected_seq, seat, action)
                if landed is not None:
                    return landed, []
            _check_live(locked, expected_seq)
            if seat_moves is not None and seat_moves != moves_of(locked, seat):
                raise ServiceError("stale_page", "You already moved since this page was "
                                                 "shown; here is the match as it is now.", 409)
            stream = _replay(locked, locked.seq)
            try:
                event = Event.from_json({"kind": "decision", "seat": seat, "action": action})
                state = stream.rules.apply(stream.state, event)
            except IllegalAction as exc:
                raise ServiceError.from_engine(exc, seat) from None
            seq = _store(locked, str(MatchEvent.Kind.DECISION), {"action": action}, seat, key)
            state = _resolve_chance(locked, stream.rules, state)
            pending = _settle(locked, stream.rules, state)
            _copy_progress(locked, match)
            return seq, _bot_seats(locked, pending, seats)
    except IntegrityError:
        # Somebody appended the same seq or key first (a lock-free backend, a race).
        if key is not None:
            first = MatchEvent.objects.filter(match_id=match.pk, seat=seat,
                                              idempotency_key=key).first()
            if first is not None:
                return first.seq, []
        now = Match.objects.filter(pk=match.pk).values_list("seq", flat=True).first()
        raise ServiceError("stale_seq", "The match moved on; reload and try again.", 409,
                           seq=now) from None


def _landed_at(match: Match, expected_seq: int, seat: int, action: Any) -> int | None:
    """The seq of the same decision of `seat` made right after `expected_seq`, sent with no
    idempotency key: an action sent again, its answer lost, is answered with the first
    seq, writing nothing, rather than refused as stale (an action sent with an
    `expected_seq` lands right after it or nowhere). None otherwise."""
    if expected_seq >= match.seq:
        return None
    event = match.events.filter(seq=expected_seq + 1).first()
    if (event is None or event.kind != MatchEvent.Kind.DECISION or event.seat != seat
            or event.idempotency_key is not None or event.payload.get("action") != action):
        return None
    return event.seq


def moves_of(match: Match, seat: int) -> int:
    """How many decisions `seat` has made in `match`."""
    return match.events.filter(kind=MatchEvent.Kind.DECISION, seat=seat).count()


def _check_seat(match: Match, seat: Any, user: Any, seats: Iterable[Seat] | None = None) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ServiceError("bad_seat", f"There is no seat {quoted(seat)} in this match.", 400)
    if not 0 <= seat < match.n_seats:
        # Counted from 1, as every sentence names a seat, with the API's numbers beside.
        raise ServiceError("bad_seat", f"There is no Seat {seat + 1} in this match: its "
                                       f"seats are Seat 1 to Seat {match.n_seats} (seat "
                                       f"0 to {match.n_seats - 1} in the API).", 400)
    if user is not None and seat not in _held(match, user, seats):
        raise ServiceError("not_your_seat", "You do not hold that seat.", 403, seat=seat)


def _answer_for_key(match: Match, key: str, seat: int, action: Any) -> int | None:
    """The seq a key was first answered with; a key the seat reused for another action is
    refused. Keys are the seat's own: two players may happen on the same one."""
    first = match.events.filter(seat=seat, idempotency_key=key).first()
    if first is None:
        return None
    if first.payload.get("action") != action:
        raise ServiceError("key_reused", "That idempotency key was used for another action.",
                           409)
    return first.seq


def _check_unmoved(match: Match, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != match.seq:
        raise ServiceError("stale_seq", f"The match is at seq {match.seq}, not {expected_seq}.",
                           409, seq=match.seq)


def _check_live(match: Match, expected_seq: int | None) -> None:
    if match.status == Match.Status.FINISHED:
        raise ServiceError("match_over", "The match is over.", 409)
    if match.status != Match.Status.ACTIVE:
        raise ServiceError("match_not_active", "The match has not started.", 409)
    _check_unmoved(match, expected_seq)


def _store(match: Match, kind: str, payload: JSON, seat: int | None, key: str | None) -> int:
    """Insert the next event; the caller holds the Match row lock."""
    match.seq += 1
    MatchEvent.objects.create(match=match, seq=match.seq, kind=kind, seat=seat,
                              payload=payload, idempotency_key=key)
    return match.seq


def _resolve_chance(match: Match, rules: BaseRules[Any], state: Any) -> Any:
    """Draw and store every chance outcome until a seat must decide or the game ends."""
    for _ in range(rules.spec.longest_game):
        if rules.pending(state).kind is not PendingKind.CHANCE:
            return state
        outcome = rules.sample_chance(state, _chance_rng())
        state = rules.apply(state, Event.chance(outcome))
        _store(match, str(MatchEvent.Kind.CHANCE), {"outcome": outcome}, None, None)
    raise RuntimeError(f"{match.game}: chance nodes without end in match {match.pk}")


def _settle(match: Match, rules: BaseRules[Any], state: Any) -> Pending:
    """Save seq, status and result on the locked row; remember the state after commit."""
    pending = rules.pending(state)
    if pending.is_over and pending.result is not None:
        _finish(match, _with_forfeits(match, pending.result.to_json()))
    match.save(update_fields=["seq", "status", "result", "rules_version", "finished_at",
                              "updated_at"])
    _await(match, pending.seats if pending.kind is PendingKind.DECISION else [])
    _remember(match, match.seq, state)
    match_id, seq = match.pk, match.seq
    after_commit(lambda: match_advanced.send(sender=Match, match_id=match_id, seq=seq))
    return pending


def _with_forfeits(match: Match, result: JSON) -> JSON:
    """The game's result, with the seats a forfeit eliminated (`forfeits`, in order) when
    any did: the league scores and rates them as the forfeits they were."""
    forfeits = forfeited_seats(match)
    return {**result, "forfeits": forfeits} if forfeits else result


def _ended(match: Match, pending: JSON) -> JSON:
    """A pending's JSON whose result (the end's) reads as the match records it, the seats
    a forfeit put out among them (`_with_forfeits`): read or replayed, the end and the
    match's result agree."""
    if pending.get("kind") != str(PendingKind.END) or pending.get("result") is None:
        return pending
    return {**pending, "result": _with_forfeits(match, pending["result"])}


def _await(match: Match, seats: Iterable[int]) -> None:
    """Mark the seats the match waits for now (`Seat.awaited`), and only those."""
    match.seats.update(awaited=Case(When(index__in=list(seats), then=Value(True)),
                                    default=Value(False)))


def _finish(match: Match, result: JSON) -> None:
    """Mark the locked row finished; listeners hear of it once the commit is made."""
    match.status = Match.Status.FINISHED
    match.result = result
    match.finished_at = timezone.now()
    match_id = match.pk
    after_commit(lambda: _announce_finished(match_id))


def _announce_finished(match_id: int) -> None:
    finished = Match.objects.get(pk=match_id)
    match_finished.send(sender=Match, match=finished)


def forfeit_seat(*, match: Match, seat: int, reason: str = "forfeit",
                 expected_seq: int | None = None) -> Match:
    """A seat of a live match forfeits. Where its game eliminates players and the match
    has three sides or more (Royal Rumble, The Supershow's Elimination matches: the
    game's `forfeit_eliminates`), the seat is eliminated by a forfeit event appended to
    the stream and the others play on; a seat already out (`seats_out`) is refused (409
    seat_out). Otherwise the match ends: its side (the seats the game plays with it as
    one, a tag team) places last, every other seat shares first place.

    The organizer's decision is recorded by whoever asked (the league's Event stream).
    `expected_seq` refuses it (409 stale_seq) if the match moved on since the caller
    looked (a late player who just moved).
    """
    with transaction.atomic():
        locked = _locked(match)
        if locked.status != Match.Status.ACTIVE:
            raise ServiceError("match_not_active", "Only a live match can be forfeited.", 409)
        _check_unmoved(locked, expected_seq)
        _check_seat(locked, seat, None)
        if _eliminate_by_forfeit(locked, seat, reason):
            _copy_progress(locked, match)
            return match
        _finish_by_forfeit(locked, [seat], reason)
        _copy_progress(locked, match)
    return match


def forfeit_seats(*, match: Match, seats: Sequence[int], reason: str = "forfeit",
                  expected_seq: int | None = None) -> Match:
    """Several seats of a live match forfeit together (all late at a decision made at
    once), in a game where a forfeit ends the match: it ends once, their sides placed
    last. The other seats share first, as after one seat's forfeit; when no seat is left
    that did not forfeit, nobody wins: every seat shares last place, `winners` is empty.

    A game that eliminates a forfeiting seat and plays on takes its forfeits one by one
    (`forfeit_seat`): refused here (409 forfeit_eliminates). A single seat is
    `forfeit_seat`'s. `expected_seq` as there.
    """
    if len(set(seats)) < 2:
        return forfeit_seat(match=match, seat=seats[0], reason=reason,
                            expected_seq=expected_seq)
    with transaction.atomic():
        locked = _locked(match)
        if locked.status != Match.Status.ACTIVE:
            raise ServiceError("match_not_active", "Only a live match can be forfeited.", 409)
        _check_unmoved(locked, expected_seq)
        for seat in seats:
            _check_seat(locked, seat, None)
        if any(_forfeit_stream(locked, seat) is not None for seat in seats):
            raise ServiceError("forfeit_eliminates", "In this match a forfeit puts a seat "
                                                     "out and the others play on: the seats "
                                                     "forfeit one by one.", 409)
        _finish_by_forfeit(locked, sorted(set(seats)), reason)
        _copy_progress(locked, match)
    return match


def _finish_by_forfeit(match: Match, seats: list[int], reason: str) -> None:
    """End the locked `match` by the forfeit of `seats` (their whole sides): they place
    last, the others share first. One seat's forfeit is recorded as `forfeit`; several
    as `forfeit` (the first) and `forfeited` (all of them), and when every seat forfeited
    the result has no winner: every place is the last (`n_seats`), as a walkover both
    sides of which withdrew is a loss for both."""
    out = {i for seat in seats for i in side_of(match, seat)}
    others = [i for i in range(match.n_seats) if i not in out]
    last = 2 if others else match.n_seats
    placements = [last if i in out else 1 for i in range(match.n_seats)]
    named = [seat_name(match, seat) for seat in seats]
    names = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    if not others:  # every one of them: "Red and Blue both forfeited (deadline): no winner."
        names += " both" if len(named) == 2 else " all"
    result: JSON = {
        "placements": placements, "winners": others, "draw": False, "figures": {},
        "summary": f"{names} forfeited ({reason}){'' if others else ': no winner'}.",
        "forfeit": seats[0],
    }
    if len(seats) > 1:
        result["forfeited"] = seats
    _finish(match, result)
    match.save(update_fields=["status", "result", "finished_at", "updated_at"])
    _await(match, [])


def _eliminate_by_forfeit(match: Match, seat: int, reason: str) -> bool:
    """Append the seat's forfeit where its game eliminates it and plays on (the locked
    `match`), the chance events after it and the end if it came; whether it did."""
    stream = _forfeit_stream(match, seat)
    if stream is None:
        return False
    try:
        state = stream.rules.apply(stream.state, Event.forfeit(seat))
    except IllegalAction as exc:
        raise ServiceError(exc.code, exc.message, 409, seat=seat) from None
    _store(match, str(MatchEvent.Kind.FORFEIT), {"reason": reason}, seat, None)
    state = _resolve_chance(match, stream.rules, state)
    pending = _settle(match, stream.rules, state)
    _enqueue_bots(match.pk, _bot_seats(match, pending), match.seq)
    return True


def _forfeit_stream(match: Match, seat: int) -> _Stream | None:
    """The live match replayed, if a forfeit of `seat` eliminates it there and the match
    goes on (a seat playing alone, in a game whose rules say so); None otherwise. (A seat
    already out there is the engine's to refuse: the match must not end for it.)"""
    stream = None if len(side_of(match, seat)) > 1 else _live_stream(match)
    return stream if stream and stream.rules.forfeit_eliminates(stream.state, seat) else None


def _live_stream(match: Match) -> _Stream | None:
    """The live match replayed, where these rules replay it and its game may take a
    forfeit as an elimination (what it is replayed for); None otherwise (not live,
    recorded under other rules: it can only be ended, or a game whose forfeits always end
    the match: nothing to read, where a page lists an Event's live matches at every
    poll)."""
    if match.status != Match.Status.ACTIVE or not plays_on(match) \
            or not _forfeits_may_eliminate(match.game):
        return None
    try:
        return _replay(match, match.seq)
    except ServiceError as exc:
        if exc.code != "rules_changed":
            raise
        return None


def forfeits_end_match(match: Match, seats: Iterable[int]) -> bool:
    """Whether a forfeit of any of `seats` would end the live match now, none of them put
    out while the others play on (a game whose forfeits always end it, or a Royal Rumble
    down to its last two), so that they may forfeit together (`forfeit_seats`)."""
    return all(_forfeit_stream(match, seat) is None for seat in seats)


def _forfeits_may_eliminate(game: str) -> bool:
    """Whether the game's rules ever take a forfeit as an elimination (they override
    `forfeit_eliminates`, whose default says never); a game this site plays no more
    does not."""
    try:
        rules = registry.get_rules(game)
    except IllegalAction:
        return False
    return type(rules).forfeit_eliminates is not BaseRules.forfeit_eliminates


def forfeit_outcome(match: Match, seat: int) -> str:
    """What a forfeit of `seat` would do now, as `_resign_outcome` says it (what a page
    asks before the player or the organizer confirms)."""
    stream = _forfeit_stream(match, seat)
    if stream is None:
        return "ends"
    return _resign_outcome(stream.rules, stream.state, seat, match.status)


def forfeit_outcomes(match: Match) -> dict[int, str]:
    """`forfeit_outcome` of every seat, the match replayed once, for a page that lists them
    all at every poll (the organizer's live list): "already_out" marks the seats out
    (`seats_out`), anything but "ends" a game that eliminates and plays on."""
    stream = _live_stream(match)
    return {seat: "ends" if stream is None or len(side_of(match, seat)) > 1
            else _resign_outcome(stream.rules, stream.state, seat, match.status)
            for seat in range(match.n_seats)}


def forfeited_seats(match: Match) -> list[int]:
    """The seats the match's stream has eliminated by a forfeit, in order."""
    return list(match.events.filter(kind=MatchEvent.Kind.FORFEIT).order_by("seq")
                .values_list("seat", flat=True))


def seat_name(match: Match, seat: int) -> str:
    """The seat as its game names it ("Blue", "Seat 1"), counting from one otherwise."""
    try:
        names = registry.get_rules(match.game).spec.seat_names
    except IllegalAction:
        names = ()
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


def game_teams(match: Match) -> tuple[int, ...] | None:
    """The team of each seat, where the match's game plays seats as one side (a tag team,
    an Event's Red and Blue); None when every seat plays alone."""
    try:
        return registry.get_rules(match.game).teams(match.options or {}, match.n_seats)
    except IllegalAction:
        return None  # a game, or an option, this site plays no more: every seat alone


def side_of(match: Match, seat: int) -> list[int]:
    """The seats that play as one side with `seat`, itself included."""
    teams = game_teams(match)
    if teams is None:
        return [seat]
    return [i for i, team in enumerate(teams) if team == teams[seat]]


def resign(*, match: Match, user: Any, seat: int | None = None, leaving: bool = False,
           name_the_seat: bool = False) -> str:
    """A player leaves a match of their own: what happened, "left", "declined" or
    "resigned".

    An open match (still waiting for players) gives the seat back; a match nobody is left
    seated in is removed, since nothing has been played. A player invited to an open match
    who holds no seat there declines: the seat held for them opens to anyone. A live match
    is forfeited by the seat (`seat`, else `resigning_seat`: the user's first still in it,
    so one who holds several resigns them one by one) as `forfeit_seat` forfeits: the
    seat is out and the others play on where the game eliminates, else the match ends,
    the seat's side last, the others sharing first place, rated like any result unless
    the side never moved (the league's ratings skip an unplayed forfeit). A resignation
    made already (sent again, its answer lost) answers "resigned" again, writing nothing
    (`_resigned_before`); a seat out otherwise is refused (409 seat_out). A leave or a
    decline made already answers as it did too (`_departed_before`), where one who never
    sat there is refused (403 not_seated). An Event's match is the organizer's to forfeit.
    `leaving`: the player meant to leave it while it waited for players (their page
    offered that), so one that started meanwhile (the last seat taken) is refused, not
    resigned. `name_the_seat`: a caller whose request may come again (the API, its first
    answer lost) leaves or resigns only a seat named, where the user holds several (400
    seat_required): one naming none took their first (still in), and its resend would have
    left or resigned the next one.
    """
    with transaction.atomic():
        locked = _locked(match)
        if is_event_match(locked):
            raise ServiceError("event_match", "An Event's match is forfeited by its "
                                              "organizer, not left.", 409)
        held = list(locked.seats.filter(user=user).order_by("index"))
        if _resigned_before(locked, [row.index for row in held], seat):
            return "resigned"
        invitation = locked.seats.filter(invited=user).first()
        departed = None if invitation else _departed_before(
            locked, user, [row.index for row in held], seat)
        if departed is not None:
            return departed
        if locked.status == Match.Status.FINISHED:
            raise ServiceError("match_over", "The match is over.", 409)
        if (seat is None and not held and locked.status == Match.Status.OPEN
                and invitation is not None):
            invitation.invited = None
            invitation.save(update_fields=["invited"])
            _departed(locked, user, invitation.index, Departure.Outcome.DECLINED)
            return "declined"
        if seat is not None:
            _check_seat(locked, seat, user)
        elif not held:
            raise ServiceError("not_seated", "You hold no seat in this match.", 403)
        elif name_the_seat and len(held) > 1:
            # Named as every sentence names a seat, with the API's numbers beside.
            raise ServiceError("seat_required", "You hold several seats of this match ("
                               + ", ".join(seat_name(locked, row.index) for row in held)
                               + "; seat " + ", ".join(str(row.index) for row in held)
                               + " in the API): name the one to "
                               + ("leave" if locked.status == Match.Status.OPEN else "resign")
                               + " (`seat`).", 400)
        index = _first_in(locked, [row.index for row in held]) if seat is None else seat
        if locked.status == Match.Status.ACTIVE:
            if leaving:
                raise ServiceError("match_started", "The match started meanwhile, every "
                                                    "seat taken, so you are still in it: "
                                                    "resign it if you mean to.", 409)
            forfeit_seat(match=locked, seat=index, reason="resigned")
            _copy_progress(locked, match)
            return "resigned"
        locked.seats.filter(index=index).update(user=None)
        if not locked.seats.filter(user__isnull=False).exists():
            locked.delete()  # (its departures with it: a leave sent again is 404)
        else:
            _departed(locked, user, index, Departure.Outcome.LEFT)
    return "left"


def _departed(match: Match, user: Any, seat: int, outcome: str) -> None:
    """Record that `user` left `seat` of the open match (or declined its invitation)."""
    Departure.objects.update_or_create(match=match, user=user, seat=seat,
                                       defaults={"outcome": outcome})


def _departed_before(match: Match, user: Any, held: list[int], seat: int | None) -> str | None:
    """What a leave or decline asked (of `seat`, else of any seat) answered when it was
    made already and the user holds no seat it could mean now: a retry whose answer was
    lost, answered as the first was ("left", "declined"), writing nothing. None otherwise
    (someone who never sat there is still refused)."""
    if (seat is None and held) or seat in held:
        return None
    departures = Departure.objects.filter(match=match, user=user)
    if seat is not None:
        departures = departures.filter(seat=seat)
    return departures.order_by("-at", "-pk").values_list("outcome", flat=True).first()


def hand_seat_to_bot(*, match: Match, seat: int, bot: str,
                     expected_seq: int | None = None) -> Seat:
    """Give a seat to a bot (an absent player, a turn deadline); it plays at once if due.
    A seat out of the live match (`seats_out`: a forfeit or the rules eliminated it) is
    asked nothing any more, so no bot is given it (409 seat_out). `expected_seq` as in
    forfeit_seat. A match of a game this site plays no more is refused as its every move
    is (409 rules_changed): no bot of it is left to play."""
    try:
        names = registry.bot_names(match.game)
    except IllegalAction:
        _replayable_rules(match)  # (refuses it)
        raise
    if bot not in names:
        raise ServiceError("unknown_bot", f"{registry.title(match.game)} has no bot called "
                                          f"{quoted(bot)}.", 400)
    with transaction.atomic():
        locked = _locked(match)
        if locked.status == Match.Status.FINISHED:
            raise ServiceError("match_over", "The match is over.", 409)
        _check_unmoved(locked, expected_seq)
        _check_seat(locked, seat, None)
        if seats_out(locked, [seat]):
            raise ServiceError("seat_out", f"{seat_name(locked, seat)} is out of the match "
                                           "and is asked nothing more: no bot is needed "
                                           "to play it.", 409, seat=seat)
        row = locked.seats.get(index=seat)
        if row.user_id is None and row.bot == bot:
            raise ServiceError("already_bot", f"The {bot} bot already plays "
                                              f"{seat_name(locked, seat)}.", 409, seat=seat)
        if row.user_id is not None:
            row.stood_in_for_id = row.user_id
        row.user, row.bot, row.invited = None, bot, None
        row.save(update_fields=["user", "bot", "invited", "stood_in_for"])
        if locked.status == Match.Status.ACTIVE:
            stream = _replay(locked, locked.seq)
            pending = stream.rules.pending(stream.state)
            _enqueue_bots(locked.pk, [s for s in _bot_seats(locked, pending) if s == seat],
                          locked.seq)
        elif not locked.seats.filter(user__isnull=True, bot="").exists():
            _start(locked)
            row.refresh_from_db(fields=["awaited"])
        _copy_progress(locked, match)
    return row


def _copy_progress(source: Match, target: Match) -> None:
    """Let the caller's Match instance see what the locked row now says."""
    if source is not target:
        target.seq, target.status, target.result = source.seq, source.status, source.result
        target.rules_version = source.rules_version


def _bot_seats(match: Match, pending: Pending,
               seats: Iterable[Seat] | None = None) -> list[int]:
    """The pending seats that bots hold (among `seats`, when the caller read them under
    the match's lock)."""
    return list(_pending_bots(match, pending, seats))


def _pending_bots(match: Match, pending: Pending,
                  seats: Iterable[Seat] | None = None) -> dict[int, str]:
    """The pending seats that bots hold, in the order they are asked, with each bot's
    name, as the seats stand now (a seat may have been handed to a bot a moment ago), or
    as `seats` read under the match's lock give them."""
    if pending.kind is not PendingKind.DECISION:
        return {}
    if seats is None:
        bots = dict(match.seats.exclude(bot="").values_list("index", "bot"))
    else:
        bots = {row.index: row.bot for row in seats if row.bot}
    return {s: bots[s] for s in pending.seats if s in bots}


def _enqueue_bots(match_id: int, seats: list[int], seq: int) -> None:
    """After the commit, one task per pending bot seat."""
    from matches.tasks import play_bot_seat

    for seat in seats:
        after_commit(
            lambda seat=seat: enqueue(play_bot_seat, match_id, seat, seq)  # type: ignore[misc]
        )


# -- reading -----------------------------------------------------------------------------

def match_state(*, match: Match, user: Any, seat: int | None = None,
                seats: Iterable[Seat] | None = None) -> dict[str, Any]:
    """What the user's seat (or a spectator) sees now, with its legal actions (`seats`:
    the match's seats, when the caller has read them already)."""
    return _state_now(match, user, seat, seats)[0]


def page_state(*, match: Match, user: Any, seat: int | None = None,
               seats: Iterable[Seat] | None = None) -> dict[str, Any]:
    """match_state, and `halted`: the match ended off the board (a forfeit, a resignation)
    while its game still waited on a seat, so its view tells of a decision nobody is to
    take any more (the play page leaves that out; the API's view stays the engine's)."""
    state, halted, resign = _state_now(match, user, seat, seats)
    return {**state, "halted": halted, "resign": resign}


def _state_now(match: Match, user: Any, seat: int | None,
               seats: Iterable[Seat] | None) -> tuple[dict[str, Any], bool, str]:
    """match_state's answer, whether the match ended off the board, and what the viewer's
    resignation would do (`_resign_outcome`)."""
    viewer = viewer_seat(match, user, seat, seats)
    stream = _replay(match)
    rules, state = stream.rules, stream.state
    pending = rules.pending(state)
    status = _status_at(match, stream.seq)
    served = pending.to_json()
    legal: list[JSON] = []
    halted = status == Match.Status.FINISHED and pending.kind is not PendingKind.END
    if halted:
        # Ended off the board (a forfeit, a resignation): its stored result is the end.
        result = Match.objects.values_list("result", flat=True).get(pk=match.pk)
        served = {"kind": str(PendingKind.END), "seats": [], "result": result}
    elif pending.kind is PendingKind.END:
        served = _ended(match, served)
    elif viewer is not None and pending.kind is PendingKind.DECISION \
            and viewer in pending.seats:
        legal = rules.legal_actions(state, viewer)
    return {
        "seq": stream.seq,
        "status": status,
        "seat": viewer,
        "pending": served,
        "legal_actions": legal,
        "view": rules.view(state, viewer),
    }, halted, _resign_outcome(rules, state, viewer, status)


def _resign_outcome(rules: BaseRules[Any], state: Any, seat: int | None, status: str) -> str:
    """What the seat's forfeit would do now: "out" (its game eliminates it and plays on),
    "decides" (its game eliminates it, which leaves one standing: the match ends there),
    "already_out" (the game refuses it as a seat already out: nothing is left to resign)
    or "ends" (the match ends off the board); read from the replayed state, as a page asks
    at every poll."""
    if seat is None or status != Match.Status.ACTIVE or not rules.forfeit_eliminates(state, seat):
        return "ends"
    try:
        after = rules.apply(state, Event.forfeit(seat))
    except IllegalAction as exc:
        return "already_out" if exc.code == "seat_out" else "ends"
    return "decides" if rules.pending(after).is_over else "out"


def _status_at(match: Match, seq: int) -> str:
    """The status that goes with the replayed seq (the row may be older or newer)."""
    if seq == match.seq:
        return match.status
    return Match.objects.values_list("status", flat=True).get(pk=match.pk)


def match_events(*, match: Match, user: Any, after: int = 0, seat: int | None = None,
                 limit: int | None = None,
                 seats: Iterable[Seat] | None = None) -> list[dict[str, Any]]:
    """The stream after seq `after` as the viewer may read it, each with its narration
    (`seats`: the match's seats, when the caller has read them already).

    Once the match is finished nothing is hidden any more and events are shown in full
    (unless it is `sealed`).
    """
    viewer = viewer_seat(match, user, seat, seats)
    if after < 0:
        raise ServiceError("bad_seq", "`after` cannot be negative.", 400)
    finished = _unveiled_now(match)
    # The play page sends its log again at every change: what this viewer was last given
    # (the events after `base`) is kept, and only the events since are read and narrated.
    key = (_cache_key(match), viewer, finished)
    base, known = (_logs.get(key) or (0, [])) if limit is None else (after, [])
    if not base <= after <= base + len(known):
        base, known = after, []
    kept = known[after - base:]
    rows = list(match.events.filter(seq__gt=base + len(known)).order_by("seq")[:limit])
    if not rows:
        if kept:
            _replayable_rules(match)  # (refused as a replay would be)
        return kept
    stream = _replay(match, base + len(known) if known else min(after, rows[0].seq - 1))
    rules, state = stream.rules, stream.state
    out = []
    for row in rows:
        event = Event.from_json(row.to_event_json())
        with _stored(match, rules, row.seq):
            data = event.to_json() if finished else rules.redact(state, event, viewer)
            out.append({"seq": row.seq, "kind": row.kind, "seat": row.seat, "data": data,
                        "narration": rules.narrate(state, event)})
            state = rules.apply(state, event)
    log = kept + out
    if limit is None:  # (read in committed history: kept once it is committed)
        after_commit(lambda: _logs.put(key, (after, log)))
    return list(log)


def _unveiled_now(match: Match) -> bool:
    """`unveiled`, the status read from the row: a stale instance must not unveil a live
    match."""
    return unveiled(match, Match.objects.values_list("status", flat=True).get(pk=match.pk))


def has_secret_options(match: Match) -> bool:
    """Whether the match was given a secret option (a constructed deck)."""
    return secret_options_given(match.game, match.options)


def secret_options(game: str) -> set[str]:
    """The names of `game`'s secret options (The Supershow's constructed decks); none for
    a game no longer known."""
    try:
        return {name for name, option in registry.get_rules(game).spec.options.items()
                if option.secret}
    except IllegalAction:
        return set()


def secret_options_given(game: str, options: dict[str, Any] | None) -> bool:
    """Whether `options` of `game` give a secret option (a constructed deck) a value, not
    its default None (an Event's resolved options name every option)."""
    secret = secret_options(game)
    return any(name in secret and value is not None
               and (not isinstance(value, list) or any(v is not None for v in value))
               for name, value in (options or {}).items())


def sealed_among(matches: Iterable[Match]) -> set[int]:
    """The ids of the `matches` that must keep what they hid, once over: their secret
    options are still in play elsewhere (an Event's other matches use the same decks
    until it is over). The listeners are asked once, for all of them."""
    secret = [match for match in matches if has_secret_options(match)]
    if not secret:
        return set()
    return {pk for _, kept in match_sealed.send(sender=Match, matches=secret)
            for pk in kept or ()}


def unveiled(match: Match, status: str | None = None,
             sealed: set[int] | None = None) -> bool:
    """Whether nothing of this match is hidden any more: it is over (`status`, else the
    instance's), and not sealed (`sealed`: the ids `sealed_among` gave for a page of
    matches this one is in; else it is asked)."""
    if (status or match.status) != Match.Status.FINISHED:
        return False
    return match.pk not in (sealed if sealed is not None else sealed_among([match]))


def replay_view(*, match: Match, user: Any, at: int, seat: int | None = None,
                seats: Iterable[Seat] | None = None) -> dict[str, Any]:
    """The view after event `at`, that event's narration and who was to act (`seats`: the
    match's seats, when the caller has read them already).

    Once the match is over (and not `sealed`), `seats` carries every seat's view of that
    moment (nothing is hidden any more); before that it is None.
    """
    viewer = viewer_seat(match, user, seat, seats)
    last = _last_seq(match)
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= last:
        raise ServiceError("bad_seq", f"Choose a seq from 0 to {last}.", 400)
    before = _replay(match, max(at - 1, 0))
    rules, state = before.rules, before.state
    narration: list[str] = []
    if at > 0:
        row = match.events.get(seq=at)
        event = Event.from_json(row.to_event_json())
        with _stored(match, rules, at):
            narration = rules.narrate(state, event)
            state = rules.apply(state, event)
    finished = _unveiled_now(match)
    return {
        "seq": at,
        "view": rules.view(state, viewer),
        "seats": [rules.view(state, i) for i in range(match.n_seats)] if finished else None,
        "narration": narration,
        "pending": _ended(match, rules.pending(state).to_json()),
    }


# -- bot seats ---------------------------------------------------------------------------

class BotClaimInterrupted(OperationalError):
    """A database error stopped a run of bot decisions: its task tries again with `claim`,
    which takes back the decision it held if no other task took it meanwhile."""

    def __init__(self, claim: int) -> None:
        super().__init__(f"the bot claim {claim} was interrupted by a database error")
        self.claim = claim


def play_bot_turns(*, match: Match, seat: int, expected_seq: int, resume: bool = False,
                   claim: int | None = None, outwait: bool = False) -> bool:
    """Play the bot seat's pending decision, then any bot decisions that follow it.

    Does nothing (False) when the stream moved past `expected_seq` or the seat has nothing
    pending, unless `resume`: a task delivered again after its worker died mid-run, which
    carries the seq it was first queued at, plays on from where the stream stands.

    Each decision is claimed before its bot thinks (`claim_bot_turn`), so a second task
    for it (queued twice, delivered twice) does nothing while the first thinks; the run
    beats on its claim while its bot thinks (`beat_bot_claim`). With `outwait` (a task
    delivered again after its worker died) a decision another run claimed is waited on
    (`_outwait_claim`): the dead run's beats stop and the task takes it over, or a live
    run plays it. A database
    error gives the run's claims back and raises BotClaimInterrupted with `claim`, the
    run's token: its retry passes it here and takes back what it held.

    Consecutive bot decisions are played in this loop rather than by chaining
    tasks, so an eager (in-process) bot-vs-bot match cannot recurse without bound; after
    BOT_STEPS_PER_TASK decisions, or on a worker BOT_TASK_SECONDS, the rest is handed to a
    fresh task.
    """
    match.refresh_from_db()
    if match.status != Match.Status.ACTIVE or (match.seq != expected_seq and not resume) \
            or not plays_on(match):
        return False  # (a task queued before its rules changed: nothing to play)
    token = claim or new_bot_claim()
    try:
        return _play_bot_turns(match, seat, resume and match.seq != expected_seq, token,
                               outwait)
    except OperationalError as exc:
        release_bot_claims(match.pk, token)
        raise BotClaimInterrupted(token) from exc


def _play_bot_turns(match: Match, seat: int, resumed: bool, claim: int,
                    outwait: bool = False) -> bool:
    """The loop of `play_bot_turns`, each decision claimed with `claim`."""
    played, thought, began = 0, 0, time.monotonic()
    # A worker busy with a long bot-only chain hands it on now and then, so the bot
    # replies people wait for (queued behind it) get their turn. In-process (no broker) a
    # hand-on would run inside this call: there only the step count hands on.
    slice_seconds = None if settings.CELERY_TASK_ALWAYS_EAGER else BOT_TASK_SECONDS
    while True:
        stream = _replay(match, match.seq)
        pending = stream.rules.pending(stream.state)
        waiting = _pending_bots(match, pending)  # read each step: seats change hands
        if played == 0 and not resumed:
            waiting = {seat: waiting[seat]} if seat in waiting else {}
        if not waiting:
            break
        if thought >= BOT_STEPS_PER_TASK or (played and slice_seconds is not None
                                            and time.monotonic() - began >= slice_seconds):
            _enqueue_bots(match.pk, list(waiting), match.seq)
            break
        turn, name = next(iter(waiting.items()))
        if not claim_bot_turn(match.pk, turn, stream.seq, claim):
            if outwait and _outwait_claim(match.pk, turn, stream.seq, claim):
                match.refresh_from_db()
                continue  # taken over: the decision as the stream has it now
            break  # another task's bot thinks it now, and plays on after it
        beat = _heart(match.pk, turn, claim)
        action = _bot_action(match, stream, turn, name, beat)
        # The append has BOT_CLAIM_SECONDS from here, its wait for the match's lock
        # included, before another task may take the decision over and think it too.
        beat()
        thought += 1
        if _append_bot_choice(match, stream.seq, pending, turn, action):
            played += 1
            continue
        # The stream moved under the choice. A task queued meanwhile for this decision
        # found it covered by this run's claim and left it alone: the run plays the seat
        # on from the stream as it stands (claiming it again at the new seq) unless the
        # match ended, the seat owes nothing, or another run claimed the new decision.
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or thought >= BOT_STEPS_PER_TASK:
            break
    return played > 0


def new_bot_claim() -> int:
    """A token for one run of bot decisions (a task and its retries)."""
    return secrets.randbelow(2**31 - 1) + 1  # fits the column; 0 is "none"


def _claim_cutoff() -> datetime:
    """A claim whose last beat is older than this is a dead worker's (BOT_CLAIM_SECONDS)."""
    return timezone.now() - timedelta(seconds=settings.BOT_CLAIM_SECONDS)


def claim_bot_turn(match_id: int, seat: int, seq: int, claim: int) -> bool:
    """Take the seat's decision at `seq` for the run holding `claim`; False when another
    run holds it (`_claim_held`: its bot is thinking it, and a second task would think it
    again, one of the two appends refused). One conditional update: of two tasks at once,
    the second finds the first's claim."""
    held = _claim_held(match_id, seat, seq) & ~Q(bot_claim=claim)
    return bool(Seat.objects.filter(match_id=match_id, index=seat).exclude(held).update(
        bot_claim=claim, bot_claim_seq=seq, bot_claimed_at=timezone.now()))


def _claim_held(match_id: int, seat: int, seq: int) -> Q:
    """A seat row whose decision at `seq` a run holds: claimed at `seq` or at an earlier
    seq that still covers it (`_claims_covering`), with a beat within BOT_CLAIM_SECONDS."""
    return (Q(bot_claim_seq__in=_claims_covering(match_id, seat, seq))
            & Q(bot_claimed_at__gt=_claim_cutoff()))


def beat_bot_claim(match_id: int, seat: int, claim: int) -> None:
    """Write the claim's time anew while its run's bot thinks: a claim whose beats stopped
    for BOT_CLAIM_SECONDS is a dead worker's. A claim another run took over meanwhile
    stays that run's; a beat the database misses is a late one (the next may land)."""
    try:
        Seat.objects.filter(match_id=match_id, index=seat, bot_claim=claim).exclude(
            bot_claimed_at=None).update(bot_claimed_at=timezone.now())
    except DatabaseError:
        log.warning("match %s: bot claim %s missed a beat", match_id, claim, exc_info=True)


def _heart(match_id: int, seat: int, claim: int) -> Callable[[], None]:
    """The run's beat on its claim of the seat's decision, as one call."""
    return lambda: beat_bot_claim(match_id, seat, claim)


def _outwait_claim(match_id: int, seat: int, seq: int, claim: int) -> bool:
    """Wait, for a task delivered again after its worker died, while another run holds
    the seat's decision at `seq` (the dead run's claim, until its beats have stopped for
    BOT_CLAIM_SECONDS); True once this run took the decision over, False when the seat's
    decision was played (by a live run) or the match ended, or a live run still thinks it
    after a whole budget. Other seats choosing meanwhile in a decision taken at once leave
    the seat's own decision the one waited on (`_claims_covering`)."""
    until = time.monotonic() + settings.BOT_CLAIM_SECONDS + settings.BOT_TIME_BUDGET
    while time.monotonic() < until:
        time.sleep(settings.BOT_HEARTBEAT_SECONDS)
        now = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).values_list(
            "seq", flat=True).first()
        if now is None or not _only_others_chose(_events_since(match_id, seq), seat):
            return False
        if claim_bot_turn(match_id, seat, now, claim):
            return True
    return False


def _events_since(match_id: int, seq: int) -> list[tuple[int, str, int | None]]:
    """(seq, kind, seat) of the match's events after `seq`, in order."""
    return list(MatchEvent.objects.filter(match_id=match_id, seq__gt=seq).order_by("seq")
                .values_list("seq", "kind", "seat"))


def _claims_covering(match_id: int, seat: int, seq: int) -> list[int]:
    """The seqs a claim on the seat's decision at `seq` may have been taken at: `seq`, and
    each earlier one after which only other seats appended their choices of a decision
    taken at once, one each (`_only_others_chose`). The seat's own decision is the one it
    was then: a bot thinking it there appends its choice at `seq` (`_append_bot_choice`),
    so a task queued by another seat's move must not think it again."""
    n_seats = Match.objects.filter(pk=match_id).values_list("n_seats", flat=True).first()
    since = list(MatchEvent.objects.filter(match_id=match_id, seq__lte=seq)
                 .order_by("-seq").values_list("seq", "kind", "seat")[:n_seats or 0])
    covering = [seq]
    for end in range(1, len(since) + 1):
        if not _only_others_chose(since[:end], seat):
            break
        covering.append(since[end - 1][0] - 1)
    return covering


def _only_others_chose(since: Sequence[tuple[int, str, int | None]], seat: int) -> bool:
    """Whether the events `since` (seq, kind, seat) are decisions of seats other than
    `seat`, one each: in a decision taken at once, others' choices (each secret from the
    seat) change nothing the seat chooses from."""
    chose = [by for _, kind, by in since if kind == MatchEvent.Kind.DECISION]
    return len(chose) == len(since) and len(set(chose)) == len(chose) and seat not in chose


def release_bot_claims(match_id: int, claim: int) -> None:
    """Give back the run's claims in the match, its task about to try again after a
    database error (the sweep or another task may take them meanwhile); a release the
    database misses leaves them to the retry, which names the claim, or to the sweep
    once stale."""
    try:
        Seat.objects.filter(match_id=match_id, bot_claim=claim).update(bot_claimed_at=None)
    except DatabaseError:
        log.warning("match %s: bot claim %s was not given back", match_id, claim,
                    exc_info=True)


def _append_bot_choice(match: Match, seq: int, pending: Pending, seat: int,
                       action: JSON) -> bool:
    """Append a bot's decision read at `seq`; False when the match moved on under it.

    In a decision several seats take at once, the others' moves while the bot thought
    (each secret from it) change nothing it chose from: as long as only those seats moved,
    once each (counted from the seq the choice was read at), the choice is appended at the
    new seq instead of being thought again."""
    first = seq
    while True:
        try:
            _append_decision(match=match, seat=seat, action=action, user=None,
                             expected_seq=seq, key=None)
            return True
        except ServiceError as exc:
            if exc.code not in {"stale_seq", "match_over", "match_not_active"} \
                    and seq == first:
                raise
            if exc.code != "stale_seq" or len(pending.seats) < 2:
                return False
        since = _events_since(match.pk, first)
        if not since or not _only_others_chose(since, seat) \
                or not {by for _, _, by in since} <= set(pending.seats):
            return False  # a chance event, the seat itself, or a new step: think again
        seq = since[-1][0]


def _bot_action(match: Match, stream: _Stream, seat: int, name: str,
                beat: Callable[[], None] | None = None) -> JSON:
    """The bot's choice within the time budget; a failing or slow bot plays at random.
    `beat()` is called every BOT_HEARTBEAT_SECONDS while the bot thinks."""
    rules, state = stream.rules, stream.state
    rng = _chance_rng()
    legal = rules.legal_actions(state, seat)
    try:
        bot = registry.get_bot(match.game, name)
        if isinstance(bot, SearchBot):
            bot.within(settings.BOT_SEARCH_MS / 1000, time.perf_counter)
        own = copy.deepcopy(state)  # the replay cache's state stays as the stream made it
        action = _think(lambda: bot.choose(rules, own, seat, _chance_rng()),
                        float(settings.BOT_TIME_BUDGET), beat)
        if action in legal:
            return action
        log.error("bot %s in match %s seat %s chose an illegal action %r",
                  name, match.pk, seat, action)
    except Exception:
        log.exception("bot %s failed in match %s seat %s", name, match.pk, seat)
    return rng.choice(legal)


class BotTimeout(Exception):
    """The bot did not answer within its time budget."""


def _think(choose: Any, budget: float, beat: Callable[[], None] | None = None) -> Any:
    """Run `choose()` in a daemon thread; give up on it after `budget` seconds. Meanwhile
    `beat()` every BOT_HEARTBEAT_SECONDS, here in the caller's thread (its connection):
    the bot, pure, knows nothing of claims."""
    answer: dict[str, Any] = {}

    def run() -> None:
        try:
            answer["action"] = choose()
        except BaseException as exc:
            answer["error"] = exc

    started = time.monotonic()
    worker = threading.Thread(target=run, daemon=True, name="bot-think")
    worker.start()
    deadline = started + budget
    while worker.is_alive() and (left := deadline - time.monotonic()) > 0:
        worker.join(min(left, float(settings.BOT_HEARTBEAT_SECONDS)))
        if worker.is_alive() and beat is not None:
            beat()
    if worker.is_alive():
        raise BotTimeout(f"no answer after {time.monotonic() - started:.2f}s")
    if "error" in answer:
        raise answer["error"]
    return answer["action"]


def _thinking(match_id: int, seat: int, seq: int) -> bool:
    """Whether a run holds the seat's decision at `seq`, as `claim_bot_turn` reads it (a
    claim at an earlier seq that covers it included): a task queued for it thinks
    nothing."""
    return Seat.objects.filter(_claim_held(match_id, seat, seq), match_id=match_id,
                               index=seat).exists()


def waiting_bot_seats(quiet_seconds: float = 0) -> list[tuple[int, int, int]]:
    """(match id, seat, seq) for every bot seat with a decision pending in a live match
    that has not moved (`updated_at`, which every append saves) for `quiet_seconds`, but
    a seat whose decision a run holds (`_thinking`: its bot is thinking; a seat handed to a
    bot moves no `updated_at`, and a task may wait in the queue longer than the sweep's
    interval)."""
    waiting: list[tuple[int, int, int]] = []
    live = Match.objects.filter(status=Match.Status.ACTIVE, seats__bot__gt="")
    if quiet_seconds > 0:
        live = live.filter(updated_at__lte=timezone.now() - timedelta(seconds=quiet_seconds))
    for match in live.distinct():
        if not plays_on(match):
            continue  # recorded under other rules: nothing to play until it is ended
        try:
            stream = _replay(match, match.seq)
            seats = _bot_seats(match, stream.rules.pending(stream.state))
        except Exception:  # one match that cannot replay must not keep the others waiting
            log.exception("match %s cannot be replayed for its bot seats", match.pk)
            continue
        waiting.extend((match.pk, seat, stream.seq) for seat in seats
                       if not _thinking(match.pk, seat, stream.seq))
    return waiting
