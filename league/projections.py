"""Projections: entrants, Event matches, standings, season tables, ratings, round scores
and the Ranking Points of Superstar Showdown Events.

Each is a pure function of the streams (Event records and finished matches) and is
recomputed whole, so an incremental update and `rebuild_projections` give the same rows.
"""

from __future__ import annotations

import logging
import zlib
from collections import defaultdict
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, Exists, Model, OuterRef, QuerySet
from openskill.models import PlackettLuce

from engine import registry
from league import formats, showdown
from league.formats.base import competition_ranks
from league.models import (
    Entrant,
    Event,
    EventMatch,
    EventRecord,
    RankingPoints,
    RankingTotal,
    Rating,
    RatingHistory,
    RoundScore,
    Season,
    SeasonStanding,
    Standing,
    Walkover,
)
from matches import services as match_services
from matches.models import Match, MatchEvent

if TYPE_CHECKING:
    from league.events import Replayed

log = logging.getLogger(__name__)
M = TypeVar("M", bound=Model)


def refresh_event(event: Event, done: Replayed | None = None) -> None:
    """Entrants, match links and standings of one Event, then its season's table. `done`:
    the caller's own replay of the Event, up to a record it wrote (the records since are
    folded in); the replay is kept for the Event's next readers and writers."""
    from league.events import caught_up, copied, keep_replay, shown_names

    done = caught_up(event, done)
    status = (Event.Status.FINISHED if done.finished
              else Event.Status.RUNNING if done.state is not None else Event.Status.DRAFT)
    if event.status != status:
        Event.objects.filter(pk=event.pk).update(status=status)
        event.status = status
    seeds = {key: i + 1 for i, key in enumerate(done.order)} if done.seeded_by != "registration" \
        or done.state is not None else {}
    names = shown_names(done.entrants)
    rows = _rewrite(Entrant.objects.filter(event=event), [
        Entrant(event=event, key=key, name=names[key], player_id=e["player"], team_id=e["team"],
                bot=e["bot"], seed=seeds.get(key), withdrawn=e["withdrawn"],
                picks=e.get("picks", {}), plays_id=e.get("plays"))
        for key, e in done.entrants.items()
    ], "key", ENTRANT_FIELDS)
    _rewrite(EventMatch.objects.filter(event=event), [
        EventMatch(event=event, pairing=m["pairing"], round=m["round"], stage=m["stage"],
                   label=m["label"], entrants=m["entrants"], seats=m.get("seats", []),
                   match_id=m["match"], replay=m.get("replay", 0))
        for m in [*done.drawn, *done.matches.values()]
    ], "match_id", LINK_FIELDS)
    # Kept like the rows above, each under its id: a result moves some entrants and
    # changes the figures of a few, and only those rows are written.
    _rewrite(Standing.objects.filter(event=event), [
        Standing(event=event, entrant=rows[row.entrant], position=position, rank=row.rank,
                 points=row.points, wins=row.wins, draws=row.draws, losses=row.losses,
                 tiebreaks=dict(row.tiebreaks))
        for position, row in enumerate(
            formats.get_format(event.format).standings(done.state)
            if done.state is not None else [], start=1)
    ], "entrant_id", STANDING_FIELDS, replace_changed=True)
    refresh_walkovers(event, done)
    keep_replay(event, copied(done))
    if event.season_id is not None:
        refresh_season(event.season, {event.pk: (done.seq, done)})


ENTRANT_FIELDS = ("name", "player_id", "team_id", "bot", "seed", "withdrawn", "picks",
                  "plays_id")
LINK_FIELDS = ("pairing", "round", "stage", "label", "entrants", "seats", "replay")
STANDING_FIELDS = ("position", "rank", "points", "wins", "draws", "losses", "tiebreaks")
WALKOVER_FIELDS = ("position", "label", "entrants", "winner")


def refresh_walkovers(event: Event, done: Replayed | None = None) -> None:
    """The Event's Walkover rows made what its stream gives (`done`: its replay, caught up)."""
    from league.events import caught_up

    done = caught_up(event, done)
    _rewrite(Walkover.objects.filter(event=event), _walkovers(event, done),
             "pairing", WALKOVER_FIELDS)


def _walkovers(event: Event, done: Replayed) -> list[Walkover]:
    """The Event's walkovers no match was made for, in its format's order, each with the
    winner the standings count ("" for nobody): the Event pages' unplayed rows."""
    from league.events import walkovers

    given = walkovers(done)
    if not given:
        return []
    pairings = formats.get_format(done.format).pairings(done.state)
    return [Walkover(event=event, pairing=p.id, position=position, label=p.label,
                     entrants=list(p.entrants), winner=given[p.id] or "")
            for position, p in enumerate(
                (p for p in pairings if p.id in given and p.id not in done.matches), start=1)]


def _rewrite(rows: QuerySet[M], wanted: list[M], key: str, fields: tuple[str, ...],
             replace_changed: bool = False) -> dict[Any, M]:
    """One Event's projection rows (`rows`) made `wanted`, by `key`: a row that changed is
    updated in place, keeping its id (what links and clients hold), and one written alike
    is left alone, so a result, which changes no entrant and makes at most a round's
    matches, writes no more; the new ones in one insert, and those the stream no longer
    has deleted. At most four queries, whatever the field.

    `replace_changed`: the changed rows are written again under their ids, deleted and
    inserted, rather than updated: where a write changes many rows (a result moves an
    entrant past dozens in the standings), bulk_update's CASE per row and field cost
    100 ms and more a result in Python for 128 entrants, two plain queries a few."""
    held = {getattr(row, key): row for row in rows}
    changed = []
    for made in wanted:
        row = held.get(getattr(made, key))
        if row is not None and any(getattr(row, name) != getattr(made, name) for name in fields):
            for name in fields:
                setattr(row, name, getattr(made, name))
            changed.append(row)
    keys = {getattr(made, key) for made in wanted}
    gone = [row.pk for k, row in held.items() if k not in keys]
    if replace_changed:
        gone += [row.pk for row in changed]
    else:
        rows.model.objects.bulk_update(changed, fields)
    if gone:
        rows.model.objects.filter(pk__in=gone).delete()
    made = rows.model.objects.bulk_create(
        [m for m in wanted if getattr(m, key) not in held] + (changed if replace_changed else []))
    return {getattr(row, key): row for row in made} | {
        k: row for k, row in held.items() if k in keys}


def refresh_season(season: Season, replayed: dict[int, tuple[int, Replayed]] | None = None
                   ) -> None:
    """The season table: every recorded result of its Events, by the season's scoring.

    Two Events of a season recording results at once each rewrite the whole table, so the
    rewrites take turns on the season's row (after the Event's own lock, the order every
    writer keeps), each reading the streams as they then stand. `replayed`: Events the
    caller replayed already, by id, with the seq they were replayed up to (the Event whose
    projections were just rewritten: not replayed a second time for its season)."""
    with transaction.atomic():
        # Read again under the lock: a scoring changed meanwhile (in the admin) counts.
        locked = Season.objects.select_for_update().filter(pk=season.pk).first()
        if locked is not None:
            _write_season(locked, replayed or {})


def _write_season(season: Season, replayed: dict[int, tuple[int, Replayed]]) -> None:
    """Each started Event's standings, added up by player or team: the wins, draws and
    losses its format counts (byes and walkovers included), so the table agrees with the
    Events' own, under the name of the newest entry. An entrant who left before the start
    played in no Event. A bot is a seat filled for one Event, not a competitor of the
    season: each bot entrant is a row of its own (two Events' "Bot 1" are two rows), naming
    its Event, listed after every player and team, so a bot never heads the league."""
    from league.events import replay_to_read, shown_names

    table: dict[tuple[Any, ...], dict[str, Any]] = {}
    for event in season.events.order_by("pk"):
        # Up to the seq its row holds now (read under the season's lock): each result of
        # one Event rewrites the table, and the season's other Events, unchanged, are not
        # replayed again.
        seq, done = replayed.get(event.pk, (None, None))
        if done is None or seq != event.seq:
            done = replay_to_read(event)
        if done.state is None:
            continue
        names = shown_names(done.entrants)
        for standing in formats.get_format(event.format).standings(done.state):
            entrant = done.entrants[standing.entrant]
            bot = bool(entrant["bot"])
            ident = (("bot", event.pk, standing.entrant) if bot
                     else (entrant["player"], entrant["team"]))
            row = table.setdefault(ident, {
                "player_id": entrant["player"], "team_id": entrant["team"], "bot": bot,
                "event_id": event.pk if bot else None,
                "events": set(), "win": 0, "draw": 0, "loss": 0,
            })
            row["name"] = names[standing.entrant]  # the newest entry's: a player may be renamed
            row["events"].add(event.pk)
            row["win"] += standing.wins
            row["draw"] += standing.draws
            row["loss"] += standing.losses
    scoring = season.scoring

    def points(row: dict[str, Any]) -> float:
        return float(sum(row[o] * scoring[o] for o in ("win", "draw", "loss")))

    # Players and teams, then bots; each by points, then wins; rows level on both share
    # the place (listed by name).
    ranked = sorted(table.values(), key=lambda r: (r["bot"], -points(r), -r["win"], r["name"]))
    ranks = competition_ranks([(r["bot"], points(r), r["win"]) for r in ranked])
    SeasonStanding.objects.filter(season=season).delete()
    SeasonStanding.objects.bulk_create([
        SeasonStanding(season=season, name=r["name"], player_id=r["player_id"],
                       team_id=r["team_id"], event_id=r["event_id"], rank=rank,
                       events=len(r["events"]), points=points(r), wins=r["win"],
                       draws=r["draw"], losses=r["loss"])
        for rank, r in zip(ranks, ranked, strict=True)
    ])


# -- scores by round --------------------------------------------------------------------

_ROUND_SCORED: dict[str, bool] = {}


def scores_by_round(game: str) -> bool:
    """Whether a game's public view carries `round_points` per seat (asked once a game)."""
    if game not in _ROUND_SCORED:
        rules = registry.get_rules(game)
        view = rules.view(rules.start({}, rules.spec.min_seats), None)
        seats = view.get("seats") if isinstance(view, dict) else None
        _ROUND_SCORED[game] = isinstance(seats, list) and bool(seats) and all(
            isinstance(seat, dict) and "round_points" in seat for seat in seats)
    return _ROUND_SCORED[game]


def refresh_round_scores(match: Match) -> int:
    """Store every scored round of a match from its replayed public view; rows written."""
    from league.services import player_for

    if not scores_by_round(match.game) or not match_services.replays(match):
        return 0  # (a match under earlier rules keeps the rows projected as it was played)
    with transaction.atomic():
        # Refreshes of one match take turns, each reading the stream as it then stands,
        # so a late task never writes back an older picture over a newer one.
        Match.objects.select_for_update().filter(pk=match.pk).first()
        view = match_services.match_state(match=match, user=None)["view"]
        users = dict(match.seats.values_list("index", "user_id"))
        people = {u.pk: player_for(u).pk for u in get_user_model().objects.filter(
            pk__in=[u for u in users.values() if u])}
        rows = [
            RoundScore(match=match, game=match.game, seat=seat["seat"], round=number,
                       points=points, player_id=people.get(users.get(seat["seat"])))
            for seat in view["seats"]
            for number, points in enumerate(seat["round_points"], start=1)
        ]
        RoundScore.objects.filter(match=match).delete()
        RoundScore.objects.bulk_create(rows)
    return len(rows)


# -- Ranking Points of Superstar Showdown Events -----------------------------------------

TOTAL_FIELDS = ("event_id", "entrant", "team", "name", "superstars", "match_points",
                "bonus_points", "total", "matches_won", "winner")
POINTS_FIELDS = ("event_id", "team", "number", "card", "stipulation", "status", "outcome",
                 "points", "bonus_points")


def refresh_ranking_points(match: Match) -> int:
    """Store a Superstar Showdown Event's Ranking Points from its replayed public view (the
    `event` block): each team's totals and each Match's points; rows projected."""
    if not showdown.is_event(match.game, match.options) or match.status == Match.Status.OPEN \
            or not match_services.replays(match):
        return 0
    with transaction.atomic():
        # As with round scores: refreshes of one match take turns, each reading the stream
        # as it then stands, so a late task never writes an older picture over a newer one.
        Match.objects.select_for_update().filter(pk=match.pk).first()
        view = match_services.match_state(match=match, user=None)["view"]
        block = view.get("event") if isinstance(view, dict) else None
        link = EventMatch.objects.filter(match=match).first()
        event_id = link.event_id if link else None
        seat_keys = link.seat_entrants() if link else []
        block = block if isinstance(block, dict) else {}
        # Only a recorded result is corrected, and only a finished match has one: the live
        # match's refreshes (one an action) ask nothing more.
        corrected = (_corrected_placements(match)
                     if link and match.status == Match.Status.FINISHED else None)
        totals = [_ranking_total(match, event_id, seat_keys, block, team, corrected)
                  for team in block.get("teams") or []]
        points = [_ranking_points(match, event_id, played, team)
                  for played in block.get("matches") or [] for team in (0, 1)]
        # Most advances change no points: those leave the rows (and the polled table) be.
        if not (_stored(RankingTotal, match, totals, TOTAL_FIELDS)
                and _stored(RankingPoints, match, points, POINTS_FIELDS)):
            RankingTotal.objects.filter(match=match).delete()
            RankingPoints.objects.filter(match=match).delete()
            RankingTotal.objects.bulk_create(totals)
            RankingPoints.objects.bulk_create(points)
    return len(totals) + len(points)


def _stored(model: Any, match: Match, rows: list[Any], fields: tuple[str, ...]) -> bool:
    """Whether the match's stored rows are exactly `rows`, in order."""
    stored = list(model.objects.filter(match=match).order_by("pk").values_list(*fields))
    return stored == [tuple(getattr(row, name) for name in fields) for row in rows]


def _ranking_total(match: Match, event_id: int | None, seat_keys: list[str],
                   block: dict[str, Any], team: dict[str, Any],
                   corrected: list[int] | None = None) -> RankingTotal:
    """One team's line of the view's `teams`; `corrected`, each seat's place as the
    Event's organizer corrected the result, says who won instead of the match."""
    seats = team.get("seats") or []
    entrant = seat_keys[seats[0]] if seats and seats[0] < len(seat_keys) else ""
    index = int(team["team"])
    if corrected is not None:
        ours = {place for seat, place in enumerate(corrected) if seat in seats}
        theirs = {place for seat, place in enumerate(corrected) if seat not in seats}
        winner = ours == {1} and 1 not in theirs
    elif block.get("over"):
        winner = block.get("winner") == index
    else:  # ended off the board (a forfeit): the match's own winners won the Event
        result = (match.result or {}) if match.status == Match.Status.FINISHED else {}
        winner = any(seat in (result.get("winners") or ()) for seat in seats)
    return RankingTotal(
        match=match, event_id=event_id, entrant=entrant, team=index,
        name=team.get("name") or showdown.TEAM_NAMES[index],
        superstars=list(team.get("superstars") or []),
        match_points=int(team.get("match_points") or 0),
        bonus_points=int(team.get("bonus_points") or 0),
        total=int(team.get("total") or 0), matches_won=int(team.get("matches_won") or 0),
        winner=winner,
    )


def _ranking_points(match: Match, event_id: int | None, played: dict[str, Any],
                    team: int) -> RankingPoints:
    """One team's points in one Match of the view's `matches`."""
    done = played.get("status") == "done"
    if not done:
        outcome = RankingPoints.Outcome.PENDING
    elif played.get("draw"):
        outcome = RankingPoints.Outcome.DRAW
    else:
        outcome = (RankingPoints.Outcome.WON if played.get("winner") == team
                   else RankingPoints.Outcome.LOST)
    points = played.get("points") or [0, 0]
    bonus = played.get("bonus_points") or [0, 0]
    return RankingPoints(
        match=match, event_id=event_id, team=team, number=int(played["number"]),
        card=played.get("match") or "", stipulation=played.get("stipulation") or "",
        status=str(played.get("status") or ""), outcome=outcome,
        points=int(points[team] or 0), bonus_points=int(bonus[team] or 0),
    )


# -- ratings ----------------------------------------------------------------------------

MODEL = PlackettLuce()
# The ordinal of a player the ratings have not met yet: openskill's starting rating (0).
NEW_PLAYER_ORDINAL = MODEL.rating().ordinal()


def _rated_sides(match: Match) -> list[tuple[list[int], int]] | None:
    """(player ids, place) per side with people on it; None unless two sides have people.

    A seat held by a person is that person's side, but the seats the game itself plays as
    one side (The Supershow's tag teams) are one side: its people, rated together. A
    person on two sides (one user holding both seats of a hot-seat match) would be rated
    against themselves, so such a match is not rated. In an Event, a seat played for a team
    entrant stands for every member of the team, so the whole team is rated together, once
    however many seats it holds (at its worst place, as the Event records it).

    A seat a bot plays has no person on it: a player whose seat was handed to a bot (by
    the organizer, or by a turn deadline) is not rated for the match, and their opponent
    is not rated against the bot. A team is held to the same rule as one side: its result
    is one result of the whole team, so a bot that played any of its seats (every seat,
    or only a late member's) played part of it, and the team is not rated, as the player
    is not; the match is rated only if two sides played wholly by people remain.

    A seat a forfeit eliminated while the others played on (the result's `forfeits`: a
    Royal Rumble, an Elimination match) is left out if it never moved, as a forfeit
    that ends a match unplayed leaves it unrated (`_unplayed_forfeit`): it did not play;
    the others' game was played, and rates them among themselves.

    A match every side forfeited (all late together: nobody placed first) is not rated:
    a loss for all tells nothing of who plays better.
    """
    from league.services import player_for

    seats = list(match.seats.order_by("index").values_list("user_id", flat=True))
    corrected = _corrected_placements(match)
    placements = corrected or (match.result or {}).get("placements") or []
    if len(placements) != len(seats) or 1 not in placements:
        return None  # (nobody first: every side forfeited, a game nobody played out)
    teams = _team_members_by_seat(match)
    botted = {teams[index][0] for index, user_id in enumerate(seats)
              if index in teams and user_id is None}
    together = match_services.game_teams(match)
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[u for u in seats if u])}
    sides: dict[tuple[str, Any], tuple[list[int], int]] = {}
    unplayed = set() if corrected is not None else _unplayed_eliminations(match)
    for index, user_id in enumerate(seats):
        if index in unplayed:
            continue
        side: tuple[str, Any] = ("seat", index) if together is None \
            else ("game_team", together[index])
        if index in teams:
            key = teams[index][0]
            side, players = ("team", key), [] if key in botted else teams[index][1]
        else:
            players = [player_for(users[user_id]).pk] if user_id in users else []
        if players:
            known, place = sides.get(side, ([], placements[index]))
            sides[side] = (known + [p for p in players if p not in known],
                           max(place, placements[index]))
    rated = [pk for players, _ in sides.values() for pk in players]
    if len(sides) < 2 or len(rated) != len(set(rated)):
        return None
    if corrected is None and _unplayed_forfeit(match, teams):
        return None
    return list(sides.values())


def _unplayed_forfeit(match: Match, teams: dict[int, tuple[str, list[int]]]) -> bool:
    """Whether the match ended by a forfeit of a side that never made a move there (a
    no-show, or one who resigned before moving): as in over-the-board rating, a game not
    played is not rated. The Event still scores it as a loss; a result its organizer
    corrects afterwards (a match played off the site) is rated."""
    seat = (match.result or {}).get("forfeit")
    if not isinstance(seat, int):
        return False
    side = [i for i, (key, _) in teams.items() if key == teams[seat][0]] \
        if seat in teams else match_services.side_of(match, seat)
    return not match.events.filter(kind=MatchEvent.Kind.DECISION, seat__in=side).exists()


def _unplayed_eliminations(match: Match) -> set[int]:
    """The seats a forfeit eliminated while the match played on (`forfeits`) that never
    made a move there."""
    forfeits = {seat for seat in (match.result or {}).get("forfeits") or ()
                if isinstance(seat, int)}
    if not forfeits:
        return set()
    moved = set(match.events.filter(kind=MatchEvent.Kind.DECISION, seat__in=forfeits)
                .values_list("seat", flat=True))
    return forfeits - moved


def _corrected_placements(match: Match) -> list[int] | None:
    """Each seat's place as the Event's organizer last corrected it; None if never."""
    link = (EventMatch.objects.filter(match=match)
            .annotate(drawn=EventMatch.played_again()).first())
    if link is None or link.drawn:
        return None  # a drawn match the pairing played again keeps its own result
    correction = (EventRecord.objects.filter(event_id=link.event_id,
                                             kind=EventRecord.Kind.RESULT_CORRECTED,
                                             payload__pairing=link.pairing)
                  .order_by("-seq").first())
    if correction is None:
        return None
    places = {key: int(place) for key, place in correction.payload["placements"].items()}
    # A pod's player who withdrew mid-match is not placed by the result: they come last.
    last = max(places.values(), default=0) + 1
    return [places.get(key, last) for key in link.seat_entrants()]


def _team_members_by_seat(match: Match) -> dict[int, tuple[str, list[int]]]:
    """Seat -> (entrant key, member player ids), for the seats an Event gave to teams."""
    link = EventMatch.objects.filter(match=match).first()
    if link is None:
        return {}
    entrants = Entrant.objects.filter(event_id=link.event_id, key__in=link.entrants,
                                      team__isnull=False).select_related("team")
    by_key = {e.key: sorted(e.team.members.values_list("pk", flat=True)) for e in entrants
              if e.team is not None}
    return {i: (key, by_key[key]) for i, key in enumerate(link.seat_entrants())
            if key in by_key}


def rated_matches(game: str) -> list[Match]:
    """The finished matches of a game that count for ratings, in rating order (id): those
    seating two people or more, as no other is rated (a match against bots, a hot seat's),
    so that a rebuild (a correction's) reads each of those but once, not the many
    matches against bots."""
    return list(Match.objects.filter(game=game, status=Match.Status.FINISHED)
                .annotate(people=Count("seats__user", distinct=True)).filter(people__gte=2)
                .order_by("pk").prefetch_related("seats"))


RATINGS_LOCK = 0x5241  # the first key of the advisory lock that orders a game's ratings


def _lock_ratings(game: str) -> None:
    """Hold the game's ratings until the transaction ends: rating writes of one game take
    turns (PostgreSQL's advisory lock; SQLite lets one writer in at a time anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)",
                           [RATINGS_LOCK, zlib.crc32(game.encode()) - 2**31])


def refresh_ratings_after(match: Match) -> None:
    """Rate one newly finished match, once (a task delivered twice, or a correction's
    re-rating that came first, finds it rated); recompute the game from scratch if it
    came late."""
    sides = _rated_sides(match)
    if sides is None:
        return
    with transaction.atomic():
        _lock_ratings(match.game)
        if RatingHistory.objects.filter(match=match).exists():
            return
        newest = RatingHistory.objects.filter(game=match.game).order_by("-match_id").first()
        if newest is not None and newest.match_id > match.pk:
            _rebuild_ratings(match.game)
            return
        _rate(match, {r.player_id: r for r in Rating.objects.filter(game=match.game)}, sides)


def refresh_finished(match: Match) -> None:
    """A finished match's own projections, each written once however often asked: its
    final Ranking Points, its rating and its round scores."""
    refresh_ranking_points(match)
    refresh_ratings_after(match)
    refresh_round_scores(match)


UNRATED_WITHIN = timedelta(days=7)  # how far back the sweep looks for a match left unrated


def sweep_unrated(now: Any = None) -> int:
    """Rate the finished matches whose result task never ran or failed before their rating
    (the broker or a worker away when the last move committed), with their final round
    scores: those finished two minutes ago or more (their own task may still come) and within
    `UNRATED_WITHIN` (a week), seating two people or more, and with no rating yet; how many.
    A match the ratings never rate (a side's forfeit before it moved, a team with a bot's
    seat) passes the filter at every sweep: the week keeps the sweep's work bounded, and
    a match missed for longer is the rebuild's (`manage.py rebuild_projections`).

    In the rebuild's order (`rated_matches`: by id), and a match rated after a later one of
    its game rebuilds the game's ratings (`refresh_ratings_after`), so the ratings are the
    ones a rebuild gives; a match rated already is passed by, so none is rated twice. (A
    lost Event match's result is the missed-results sweep's.)"""
    from django.utils import timezone

    now = now or timezone.now()
    unrated = (Match.objects.filter(status=Match.Status.FINISHED,
                                    updated_at__gte=now - UNRATED_WITHIN,
                                    updated_at__lt=now - timedelta(minutes=2))
               .exclude(Exists(RatingHistory.objects.filter(match=OuterRef("pk"))))
               # (a bot's match or a hot seat's is never rated: not read again each time)
               .annotate(people=Count("seats__user", distinct=True)).filter(people__gte=2)
               .order_by("pk"))
    rated = 0
    for match in unrated:
        try:
            if _rated_sides(match) is None:
                continue
            refresh_finished(match)
        except Exception:  # one match's failure must not keep the others unrated
            log.exception("match %s could not be rated", match.pk)
            continue
        rated += 1
    return rated


def _rate(match: Match, current: dict[int, Rating],
          sides: list[tuple[list[int], int]] | None = None) -> None:
    """Rate one match from the ratings in `current` (updated in place); `sides` as
    `_rated_sides` gives them, read here when not given."""
    sides = sides or _rated_sides(match)
    if sides is None:
        return
    teams: list[list[Any]] = []
    ranks: list[float] = []
    for players, place in sides:
        teams.append([MODEL.rating(mu=current[p].mu, sigma=current[p].sigma) if p in current
                      else MODEL.rating() for p in players])
        ranks.append(float(place))
    rated = MODEL.rate(teams, ranks=ranks)
    for (players, _), team in zip(sides, rated, strict=True):
        for pid, r in zip(players, team, strict=True):
            row = current.get(pid) or Rating(game=match.game, player_id=pid, matches=0)
            row.mu, row.sigma, row.ordinal = r.mu, r.sigma, r.ordinal()
            row.matches += 1
            row.save()
            current[pid] = row
            RatingHistory.objects.create(game=match.game, player_id=pid, match=match,
                                         mu=r.mu, sigma=r.sigma, ordinal=r.ordinal())


def rebuild_ratings(game: str) -> None:
    """Every rating of a game from its finished matches, in order."""
    with transaction.atomic():
        _lock_ratings(game)
        _rebuild_ratings(game)


def _rebuild_ratings(game: str) -> None:
    Rating.objects.filter(game=game).delete()
    RatingHistory.objects.filter(game=game).delete()
    current: dict[int, Rating] = {}
    for match in rated_matches(game):
        _rate(match, current)


def _projected_from_stream(match: Match) -> bool:
    """Whether the match has round scores or Ranking Points read from its replay."""
    return scores_by_round(match.game) or showdown.is_event(match.game, match.options)


def rebuild_all(progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
    """Drop and rebuild every projection from the streams; counts of what was rebuilt.

    `progress(done, total)` hears of each Event, season and rated game as it is rebuilt.
    """
    counts: dict[str, int] = defaultdict(int)
    with transaction.atomic():
        # Every Event's row, then every season's, locked in the order the services take
        # them (an Event, then its season), so results recorded meanwhile wait instead of
        # deadlocking against the rebuild.
        event_list = list(Event.objects.select_for_update().order_by("pk"))
        season_list = list(Season.objects.select_for_update().order_by("pk"))
        games = sorted(set(Match.objects.filter(status=Match.Status.FINISHED)
                           .values_list("game", flat=True)))
        total = len(event_list) + len(season_list) + len(games)
        done = 0

        def tick() -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(done, total)

        for event in event_list:
            refresh_event(event)
            counts["events"] += 1
            tick()
        for season in season_list:
            refresh_season(season)
            counts["seasons"] += 1
            tick()
        for game in games:
            rebuild_ratings(game)
            counts["rated games"] += 1
            tick()
        # A match recorded under rules its game no longer plays cannot be replayed: its
        # rows are kept as they were projected when it was played.
        played = list(Match.objects.exclude(status=Match.Status.OPEN).order_by("pk"))
        kept = [match.pk for match in played if not match_services.plays_on(match)
                or (_projected_from_stream(match) and not match_services.replays(match))]
        for model in (RoundScore, RankingTotal, RankingPoints):
            model.objects.exclude(match__in=kept).delete()
        if kept:
            counts["matches kept as played under earlier rules"] = len(kept)
        for match in played:
            if match.pk in kept:
                continue
            if scores_by_round(match.game):
                counts["round scores"] += refresh_round_scores(match)
            if showdown.is_event(match.game, match.options):
                counts["ranking points"] += refresh_ranking_points(match)
        counts["records"] = EventRecord.objects.count()
    return dict(counts)
