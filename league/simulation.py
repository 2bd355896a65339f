"""Simulation jobs: many bot-vs-bot matches of one game, played in memory on the workers.

A job is split into chunks of consecutive matches (`SimulationChunk`, one row each, keyed
by (job, index)); each chunk is one Celery task (`league.sim_tasks.run_chunk`). A job keeps
at most `SIMULATION_QUEUE_AHEAD` chunks in the queue and each finished chunk queues the next
one, so a cancelled job stops queuing and keeps what finished.

Every chunk is played by one claim and its result written once: the task claims the chunk
(a queued one, or one whose worker fell silent), plays its matches with no database open,
then, with the job row locked, writes the chunk's tallies and merges them into the job's
`totals` unless the chunk was done already. A second delivery of the task while the chunk
is being played (a redelivery, a copy queued twice) finds it claimed and does nothing; a
copy that played on after being taken for lost writes nothing. A chunk claimed or queued
that never finishes (its worker crashed) goes back to the queue by the sweep (beat) or
`resume_job`.

Match `i` of a job plays with `random.Random(match_seed(job.seed, i))`, so the same job
seed gives the same matches whichever worker plays which chunk. A seat counts as its side
(`Rules.teams`: The Supershow's tag team and handicap pairs, a Superstar Showdown Event's
Red and Blue; elsewhere every seat is a side of its own), as the league's standings do
(`formats.outcomes`): a win and 1 point for every seat of the side that took first place
alone (both seats of a winning pair win), a draw and 1/k for every seat of k sides sharing
first, 0 otherwise. A seat's rate is then its side's, and the fair share is 1 / sides.
Points are counted in whole units of 1/SCALE so merged totals do not depend on the order
chunks finish.

Refusals raise `LeagueError(code, detail)` before any row is written or task queued:
`unknown_game`, `unknown_bot`, `bad_seat_count`, `bad_matches`, `bad_chunk`, `bad_seed`,
`bad_option` (and the engine's own codes for options it refuses, e.g. `unknown_option`).
"""

from __future__ import annotations

import hashlib
import logging
import math
import random
import secrets
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar

from django.conf import settings
from django.db import DatabaseError, IntegrityError, OperationalError, transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone

from config.queue import after_commit, enqueue
from engine import registry
from engine.games.royal_rumble.cards import ROSTER as LEGENDS
from engine.games.supershow.cards import CATALOG as SUPERSHOW
from engine.games.superstar_showdown.cards import ROSTER as SUPERSTARS
from engine.playout import play_match
from engine.protocol import BaseRules, Event, EventKind, IllegalAction, quoted
from league import formats
from league.events import LeagueError, made_with_key
from league.intervals import wilson
from league.models import SimulationChunk, SimulationJob
from matches.serializers import masked_options
from matches.services import secret_options_given

logger = logging.getLogger(__name__)

T = TypeVar("T")
JSON = dict[str, Any]
Status = SimulationJob.Status
ChunkStatus = SimulationChunk.Status

SEEDS = 2**53  # job and match seeds stay below it: a JSON number any client reads exactly
DEFAULT_CHUNK = 50
MAX_MATCHES = 1_000_000
MAX_CHUNK = 10_000
MAX_CHUNKS = 10_000  # a job's chunk rows are written in the request that makes it
BALANCE_TRIALS = 20  # balance draws tried at the check, before any task is queued
SCALE = 2520  # lcm(1..10): a first place shared by k <= 10 sides is SCALE // k units
HISTOGRAM_BINS = 20
BEAT_SECONDS = 30  # a playing chunk's sign of life, well inside the sweep's stale limit
LIVE = (Status.QUEUED, Status.RUNNING)
IN_FLIGHT = (ChunkStatus.QUEUED, ChunkStatus.RUNNING)

# Sent in the process that wrote a chunk's result (the command draws its progress bar from
# it when tasks run in-process); kwargs: job (the job as written).
chunk_written = Signal()


# -- who may ------------------------------------------------------------------------------

def can_simulate(user: Any) -> bool:
    """Staff, or an organizer of some season or Event (the dashboard's users)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.organized_seasons.exists()
                or user.organized_events.exists())


def can_manage(job: SimulationJob, user: Any) -> bool:
    """Staff, or whoever started the job: they may cancel and resume it."""
    return can_simulate(user) and bool(user.is_staff or job.created_by_id == user.pk)


def reads_secrets(job: SimulationJob, user: Any) -> bool:
    """Whether `user` reads the job's secret options (constructed decks) and, when it was
    given any, its logs, which replay them: its creator and superusers, as an Event's
    decks (`events.sees_match_options`). Every organizer (and staff) reads the jobs, and
    one who tried a deck out may meet another across the table (SH-050)."""
    if not secret_options_given(job.game, job.options):
        return True
    return can_simulate(user) and bool(user.is_superuser or job.created_by_id == user.pk)


def shown_options(job: SimulationJob, user: Any) -> JSON:
    """The job's options as `user` may read them: secret entries "hidden" but for
    `reads_secrets`."""
    if reads_secrets(job, user):
        return dict(job.options)
    return masked_options(job.game, dict(job.options), set())


def _require(allowed: bool, detail: str) -> None:
    if not allowed:
        raise LeagueError("not_organizer", detail, 403)


# -- the entities of balance runs -----------------------------------------------------------

Sampler = Callable[[random.Random, int, Mapping[str, Any]], JSON]
Extractor = Callable[[BaseRules[Any], Any, Sequence[Event], int, Mapping[str, Any]],
                     list[str | None]]


@dataclass(frozen=True)
class Entities:
    """A game's per-seat characters: what a balance run samples (as option overrides,
    drawn with the match's generator before it starts) and reads back from the finished
    match, seat by seat."""

    kind: str
    names: Callable[[], Mapping[str, str]]
    sample: Sampler
    extract: Extractor
    # Options a balance run refuses: the draw sets them, or they were made for one
    # character (a constructed deck).
    drawn: tuple[str, ...] = ()


def _no_sample(rng: random.Random, seats: int, options: Mapping[str, Any]) -> JSON:
    """Chance deals them (from the match's own generator): nothing to override."""
    return {}


def _sample_superstars(rng: random.Random, seats: int, options: Mapping[str, Any]) -> JSON:
    if options.get("event"):  # an Event drafts its Superstars
        return {}
    keys = sorted(SUPERSTARS)
    return {"superstars": [rng.choice(keys) for _ in range(seats)]}


def _superstars_of(rules: BaseRules[Any], state: Any, log: Sequence[Event], seats: int,
                   options: Mapping[str, Any]) -> list[str | None]:
    if options.get("event"):
        return [None] * seats
    sides = rules.view(state, None).get("sides") or []
    return [(side.get("superstar") or {}).get("key") for side in sides]


def _sample_competitors(rng: random.Random, seats: int, options: Mapping[str, Any]) -> JSON:
    match_type = options.get("match_type", "one_on_one")
    if match_type == "birdcage":  # the Birdcage drafts its Competitors
        return {}
    # SH-126: the Special Guest Referee is an extra Competitor, never one in the match.
    every = [k for k in sorted(SUPERSHOW.competitors) if k != options.get("referee")]

    def of_kind(kind: str) -> list[str]:
        return [k for k in every if SUPERSHOW.competitors[k].kind == kind]

    pools = [every] * seats
    if match_type in ("handicap", "tag_team") and seats != 3:
        return {}  # no draw: the match type refuses the seat count itself
    if match_type in ("handicap", "tag_team"):
        pools[0] = pools[1] = of_kind("single")  # SH-082/090: the team of two
    if match_type == "handicap":
        pools[2] = of_kind("single")  # SH-082: the lone player runs a single too
    ringside = options.get("ringside")
    if match_type == "tag_team":
        # SH-090/096 decision: the lone third seat runs a printed Tag Team, or a single
        # with a single companion at ringside.
        partner = ringside[2] if isinstance(ringside, list) and len(ringside) > 2 else None
        pools[2] = of_kind("tag_team") if partner is None else of_kind("single")
    if isinstance(ringside, list):  # a companion is another Competitor than its seat's own
        pools = [[k for k in pool if seat >= len(ringside) or k != ringside[seat]]
                 for seat, pool in enumerate(pools)]
    return {"competitors": [rng.choice(pool) for pool in pools]}


def _competitors_of(rules: BaseRules[Any], state: Any, log: Sequence[Event], seats: int,
                    options: Mapping[str, Any]) -> list[str | None]:
    players = rules.view(state, None).get("players") or []
    return [(p.get("competitor") or {}).get("key") or None for p in players]


def _legends_of(rules: BaseRules[Any], state: Any, log: Sequence[Event], seats: int,
                options: Mapping[str, Any]) -> list[str | None]:
    """Each seat's first Legend, from the opening deal (the first n of its `legends`)."""
    for event in log:
        if event.kind is EventKind.CHANCE and "legends" in (event.outcome or {}):
            return list((event.outcome or {})["legends"][:seats])
    return [None] * seats


def _roles_of(rules: BaseRules[Any], state: Any, log: Sequence[Event], seats: int,
              options: Mapping[str, Any]) -> list[str | None]:
    """Hero or Villain as the first game's deal made them (SU-05)."""
    games = (rules.view(state, None).get("series") or {}).get("games") or []
    hero = games[0].get("hero") if games else None
    if hero is None:
        return [None] * seats
    return ["hero" if seat == hero else "villain" for seat in range(seats)]


ENTITIES: dict[str, Entities] = {
    "superstar_showdown": Entities(
        "superstar", lambda: {k: s.name for k, s in SUPERSTARS.items()},
        _sample_superstars, _superstars_of, drawn=("superstars",)),
    "supershow": Entities(
        "competitor", lambda: {k: c.name for k, c in SUPERSHOW.competitors.items()},
        _sample_competitors, _competitors_of, drawn=("competitors", "decks")),
    "royal_rumble": Entities(
        "legend", lambda: {k: legend.name for k, legend in LEGENDS.items()},
        _no_sample, _legends_of),
    "super_showdown": Entities(
        "role", lambda: {"hero": "Hero", "villain": "Villain"}, _no_sample, _roles_of),
    # Ultimate Showdown: players own no character; every Contender is shared.
}


# -- checks -------------------------------------------------------------------------------

def _engine(call: Callable[[], T]) -> T:
    """An engine call; its refusal as a LeagueError with the engine's code."""
    try:
        return call()
    except IllegalAction as exc:
        raise LeagueError(exc.code, exc.message) from None


def default_chunk(matches: Any) -> int:
    """Matches per task when none is asked for: DEFAULT_CHUNK, or as many as keep the job
    within MAX_CHUNKS."""
    return max(DEFAULT_CHUNK, -(-matches // MAX_CHUNKS)) if _whole(matches) else DEFAULT_CHUNK


def check(*, game: str, bots: Sequence[str], matches: Any, options: Any = None,
          balance: bool = False, chunk: Any = None, seed: Any = None
          ) -> BaseRules[Any]:
    """Refuse a job that cannot run, in the order: game, bots, seats, matches, chunk, seed,
    options (tried once with `rules.start`, and with a balance sample too). Writes nothing.
    No chunk: `default_chunk(matches)`."""
    if chunk is None:
        chunk = default_chunk(matches)
    rules = _engine(lambda: registry.get_rules(game))
    for name in bots:
        _engine(partial(registry.get_bot, game, name))
    _engine(lambda: rules.spec.check_seats(len(bots)))
    if not _whole(matches) or not 1 <= matches <= MAX_MATCHES:
        raise LeagueError("bad_matches",
                          f"The number of matches must be 1-{MAX_MATCHES:,}, "
                          f"not {quoted(matches)}.")
    if not _whole(chunk) or not 1 <= chunk <= MAX_CHUNK:
        raise LeagueError("bad_chunk", f"A chunk is 1-{MAX_CHUNK:,} matches, not {quoted(chunk)}.")
    if seed is not None and (not _whole(seed) or not 0 <= seed < SEEDS):
        raise LeagueError("bad_seed", "The seed must be a whole number from 0 to 2**53 - 1.")
    if not isinstance(options, dict):
        raise LeagueError("bad_option", "The options are a JSON object, like {\"best_of\": 3}.")
    if math.ceil(matches / chunk) > MAX_CHUNKS:
        raise LeagueError("too_many_chunks", f"A job is at most {MAX_CHUNKS:,} chunks: "
                                             f"make the chunks bigger than {chunk:,}.")
    entities = ENTITIES.get(game)
    if not balance or entities is None:
        _try_start(rules, options, len(bots))
    else:  # the options start only with a draw: the defaults they replace may clash
        fixed = sorted(set(entities.drawn) & set(options))
        if fixed:
            raise LeagueError("balance_option", f"A balance run draws each seat's "
                                                f"{entities.kind}: leave out {quoted(fixed[0])}.")
        for trial in range(BALANCE_TRIALS):  # draws the options must start with
            try:
                sample = entities.sample(random.Random(trial), len(bots), options)
            except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
                raise LeagueError("bad_option", f"No {entities.kind} can be drawn for "
                                                f"these options ({exc}).") from None
            _try_start(rules, {**options, **sample}, len(bots))
    return rules


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _try_start(rules: BaseRules[Any], options: Mapping[str, Any], seats: int) -> None:
    try:
        _engine(lambda: rules.start(options, seats))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise LeagueError("bad_option",
                          f"{rules.spec.title} cannot start with these options ({exc}).") from None


# -- jobs -----------------------------------------------------------------------------------

def typed_bots(text: str) -> list[str]:
    """The bots typed for the seats, in seat order, commas (or spaces) between them. A
    place left empty between commas is refused (`bad_seat_count`): dropped, it made a
    job of a seat fewer than typed."""
    parts = (text or "").split(",")
    if len(parts) > 1:
        for seat, part in enumerate(parts, start=1):
            if not part.strip():
                raise LeagueError("bad_seat_count",
                                  f"Seat {seat} names no bot in {quoted(text)}: name one "
                                  "bot per seat, commas between them.")
    return [name for part in parts for name in part.split()]


def create_job(*, game: str, bots: Sequence[str], matches: int, options: Any = None,
               balance: bool = False, logs: bool = False, chunk: int | None = None,
               seed: int | None = None, by: Any = None, key: str | None = None
               ) -> SimulationJob:
    """Check, write the job and its chunks, and (on commit) queue its first chunks.

    `by` is the user asking (None: the command line, which is trusted); no `chunk`:
    `default_chunk(matches)`. A `key` `by` gave before answers with the job that request
    made, writing and queuing nothing (a client resending a create whose answer it lost)."""
    made = _made_with_key(by, key, game, bots)
    if made is not None:
        return made
    if by is not None:
        _require(can_simulate(by), "Only staff and organizers may run simulations.")
    options = {} if options is None else options
    if chunk is None:
        chunk = default_chunk(matches)
    check(game=game, bots=bots, matches=matches, options=options, balance=balance,
          chunk=chunk, seed=seed)
    bots = list(bots)
    try:
        with transaction.atomic():
            job = SimulationJob.objects.create(
                game=game, bots=bots, options=options, balance=balance, logs=logs,
                seed=secrets.randbelow(SEEDS) if seed is None else seed, planned=matches,
                chunk_size=chunk, chunk_count=math.ceil(matches / chunk),
                created_by=by if by is not None and by.is_authenticated else None,
                idempotency_key=key if key and getattr(by, "pk", None) else "",
                summary=summarize(empty_tallies(len(bots)), game=game, bots=bots,
                                  options=options, balance=balance, planned=matches))
            SimulationChunk.objects.bulk_create(
                SimulationChunk(job=job, index=i, start=start,
                                count=min(chunk, matches - start))
                for i, start in enumerate(range(0, matches, chunk)))
            _queue_pending(job.pk, settings.SIMULATION_QUEUE_AHEAD)
    except IntegrityError:
        made = _made_with_key(by, key, game, bots)
        if made is None:
            raise
        return made  # the same key, sent again while the first was being made
    return job


def _made_with_key(by: Any, key: str | None, game: str,
                   bots: Sequence[str]) -> SimulationJob | None:
    return made_with_key(SimulationJob, by, key, "a simulation of another game or other "
                                                 "bots", game=game, bots=list(bots))


def cancel_job(*, job: SimulationJob, by: Any = None) -> SimulationJob:
    """Stop queuing chunks; what finished (and chunks already playing) is kept."""
    if by is not None:
        _require(can_manage(job, by), "Only the job's creator or staff may cancel it.")
    with transaction.atomic():
        locked = SimulationJob.objects.select_for_update().get(pk=job.pk)
        if locked.finished:
            raise LeagueError("job_finished", f"The job is {locked.status} already.", 409)
        locked.status = Status.CANCELLED
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "finished_at"])
    return locked


def resume_job(*, job: SimulationJob, by: Any = None) -> int:
    """Re-queue every chunk claimed or queued but not finished (its worker is taken to have
    crashed), and top the queue up; the number of chunks queued. A done job: 0."""
    if by is not None:
        _require(can_manage(job, by), "Only the job's creator or staff may resume it.")
    job.refresh_from_db()
    if job.status in (Status.CANCELLED, Status.FAILED):
        raise LeagueError(f"job_{job.status}", f"The job is {job.status}; it cannot resume.",
                          409)
    if job.status == Status.DONE:
        return 0
    return _requeue(job.pk, stale=timedelta(0))


def sweep(stale_seconds: int | None = None) -> int:
    """Re-queue the chunks of live jobs that were claimed or queued longer ago than the
    stale limit without finishing, and refill jobs whose chain broke; chunks queued."""
    stale = timedelta(seconds=(settings.SIMULATION_STALE_SECONDS if stale_seconds is None
                               else stale_seconds))
    return sum(_requeue(job_id, stale) for job_id in
               SimulationJob.objects.filter(status__in=LIVE).values_list("pk", flat=True))


def _requeue(job_id: int, stale: timedelta) -> int:
    """A running chunk is lost when its worker has not been heard of (a claim, or the
    beat after each match) within `stale`; a queued one waits its turn behind the others
    as long as any chunk of the job is heard of, and is lost once none is."""
    cutoff = timezone.now() - stale
    chunks = SimulationChunk.objects.filter(job_id=job_id)
    heard = stale > timedelta(0) and chunks.filter(
        Q(status=ChunkStatus.RUNNING, claimed_at__gt=cutoff) | Q(finished_at__gt=cutoff)
    ).exists()
    silent = Q(status=ChunkStatus.RUNNING, claimed_at__lte=cutoff)
    waiting = Q(status=ChunkStatus.QUEUED, queued_at__lte=cutoff)
    lost = chunks.filter(silent if heard else silent | waiting)
    queued = 0
    for pk, index in lost.values_list("pk", "index"):
        # Still lost as the row is written: a worker that was heard of or took the chunk
        # over meanwhile (a beat, a redelivered task's claim) keeps it.
        if lost.filter(pk=pk).update(status=ChunkStatus.QUEUED, queued_at=timezone.now()):
            _enqueue_chunk(job_id, index)
            queued += 1
    in_flight = chunks.filter(status__in=IN_FLIGHT).count()
    return queued + _queue_pending(job_id, settings.SIMULATION_QUEUE_AHEAD - in_flight)


def _queue_pending(job_id: int, n: int) -> int:
    """Mark up to `n` pending chunks queued, lowest first, and queue them on commit."""
    if n <= 0 or not SimulationJob.objects.filter(pk=job_id, status__in=LIVE).exists():
        return 0
    chunks = SimulationChunk.objects.filter(job_id=job_id)
    queued = 0
    # Two finishing tasks may pick the same chunk: the conditional update gives it to one.
    for pk, index in (chunks.filter(status=ChunkStatus.PENDING).order_by("index")
                      .values_list("pk", "index")[:n * 2 + 2]):
        if queued == n:
            break
        if chunks.filter(pk=pk, status=ChunkStatus.PENDING).update(
                status=ChunkStatus.QUEUED, queued_at=timezone.now()):
            _enqueue_chunk(job_id, index)
            queued += 1
    return queued


def _enqueue_chunk(job_id: int, index: int) -> None:
    from league.sim_tasks import run_chunk

    # A chunk that cannot be queued (the broker away) stays queued in its row, and the
    # sweep queues it again; the job made or the chunk written stands, unrefused.
    after_commit(lambda: enqueue(run_chunk, job_id, index))


# -- a chunk --------------------------------------------------------------------------------

class ClaimInterrupted(OperationalError):
    """A database error stopped a claimed chunk (the database, not the chunk): its task
    tries again with `claim`, which takes the chunk back if no other worker took it."""

    def __init__(self, claim: int) -> None:
        super().__init__(f"the chunk's claim {claim} was interrupted by a database error")
        self.claim = claim


class JobStopped(Exception):
    """The job of a chunk being played was cancelled or failed meanwhile (its worker heard
    so at a beat): the chunk stops at the match it finished, unwritten."""


def run_chunk(job_id: int, index: int, claim: int | None = None) -> bool:
    """Claim the chunk, play it, write its result once and queue the next chunk; False when
    there was nothing to do (done already, the job cancelled or gone, another worker
    playing it) or it failed. `claim`: the claim a database error interrupted (a retry of
    the same task), which it may take back."""
    claimed = _claim(job_id, index, claim)
    if claimed is None:
        return False
    job, chunk = claimed
    try:
        tallies, log = play_chunk(job, chunk.start, chunk.count,
                                  beat=partial(_beat, chunk.pk, chunk.attempts))
    except JobStopped:
        # A cancel stops the chunks playing too, within a beat, rather than at their last
        # match (a chunk of long matches held its worker, and the Events' bot seats queued
        # behind it, for an hour); what they played is dropped, as their job stopped.
        _release(chunk.pk, chunk.attempts)
        return False
    except OperationalError as exc:
        # the database, not the chunk: the task tries again (the chunk is not done)
        _release(chunk.pk, chunk.attempts)
        raise ClaimInterrupted(chunk.attempts) from exc
    except Exception as exc:  # a bug in a game or a bot: the job stops and says why
        logger.exception("simulation %s chunk %s failed", job_id, index)
        _fail(job_id, index, chunk.attempts, f"{type(exc).__name__}: {exc}")
        return False
    try:
        written = _write(job_id, index, tallies, log)
    except OperationalError as exc:
        _release(chunk.pk, chunk.attempts)
        raise ClaimInterrupted(chunk.attempts) from exc  # as above: the task tries again
    except Exception as exc:  # a result that cannot be written would be played forever
        logger.exception("simulation %s chunk %s could not be written", job_id, index)
        _fail(job_id, index, chunk.attempts, f"{type(exc).__name__}: {exc}")
        return False
    if written is None:
        return False
    chunk_written.send(sender=SimulationJob, job=written)
    _queue_pending(job_id, 1)
    return True


def _claim(job_id: int, index: int, claim: int | None = None
           ) -> tuple[SimulationJob, SimulationChunk] | None:
    """Take the chunk for this worker; None when it is done, its job stopped, or another
    worker is playing it (heard of within the stale limit: this is a second delivery of
    its task, which would play every match again). `claim`, the task's own interrupted
    claim, is taken back even if its release was not written."""
    with transaction.atomic():
        chunk = (SimulationChunk.objects.select_for_update().defer("log", "tallies")
                 .filter(job_id=job_id, index=index).first())
        if chunk is None or chunk.status == ChunkStatus.DONE or (
                _playing(chunk) and chunk.attempts != claim):
            return None
        job = SimulationJob.objects.defer("totals", "summary").get(pk=job_id)
        if job.status not in LIVE:
            return None
        now = timezone.now()
        chunk.status = ChunkStatus.RUNNING
        chunk.claimed_at = now
        chunk.attempts += 1
        chunk.save(update_fields=["status", "claimed_at", "attempts"])
        SimulationJob.objects.filter(pk=job_id, status=Status.QUEUED).update(
            status=Status.RUNNING, started_at=now)
    return job, chunk


def _playing(chunk: SimulationChunk) -> bool:
    """Another worker holds the chunk: claimed, and heard of within the stale limit (the
    sweep's rule for a lost one, so a redelivery after a crash takes the chunk over)."""
    cutoff = timezone.now() - timedelta(seconds=settings.SIMULATION_STALE_SECONDS)
    return (chunk.status == ChunkStatus.RUNNING and chunk.claimed_at is not None
            and chunk.claimed_at > cutoff)


def _release(chunk_pk: int, attempt: int) -> None:
    """Give back this claim of the chunk, its task about to try again after a database
    error (another delivery may take it meanwhile); a release the database misses leaves
    it to the retry, which names the claim, or to the sweep once silent."""
    try:
        SimulationChunk.objects.filter(pk=chunk_pk, status=ChunkStatus.RUNNING,
                                       attempts=attempt).update(status=ChunkStatus.QUEUED,
                                                                queued_at=timezone.now())
    except DatabaseError:
        logger.warning("simulation chunk %s: its claim was not given back", chunk_pk,
                       exc_info=True)


def _beat(chunk_pk: int, attempt: int) -> bool:
    """The worker playing this claim of the chunk is alive: the sweep leaves it be. False
    once the chunk's job was cancelled or failed: the chunk stops. A beat the database
    misses is skipped (at worst the sweep plays the chunk again), the chunk going on."""
    try:
        SimulationChunk.objects.filter(pk=chunk_pk, status=ChunkStatus.RUNNING,
                                       attempts=attempt).update(claimed_at=timezone.now())
        return SimulationJob.objects.filter(chunks__pk=chunk_pk, status__in=LIVE).exists()
    except DatabaseError:
        logger.warning("simulation chunk %s: a heartbeat was not written", chunk_pk,
                       exc_info=True)
        return True


def _write(job_id: int, index: int, tallies: JSON, log: list[JSON] | None
           ) -> SimulationJob | None:
    """The chunk's result and the job's merged totals, in one transaction; None when the
    chunk was written already."""
    with transaction.atomic():
        job = SimulationJob.objects.select_for_update().get(pk=job_id)
        chunk = (SimulationChunk.objects.select_for_update().defer("log", "tallies")
                 .get(job_id=job_id, index=index))
        if chunk.status == ChunkStatus.DONE:
            return None
        now = timezone.now()
        chunk.status = ChunkStatus.DONE
        chunk.tallies = tallies
        chunk.log = log
        chunk.finished_at = now
        chunk.error = ""
        chunk.save(update_fields=["status", "tallies", "log", "finished_at", "error"])
        job.totals = merge(job.totals, tallies)
        job.done_matches += chunk.count
        job.done_chunks += 1
        job.summary = job_summary(job)
        # A cancelled or failed job stays so, even if the chunks playing when it stopped
        # happen to complete it.
        if job.done_chunks == job.chunk_count and job.status in LIVE:
            job.status = Status.DONE
            job.finished_at = now
        job.save(update_fields=["totals", "done_matches", "done_chunks", "summary", "status",
                                "finished_at"])
    return job


def _fail(job_id: int, index: int, attempt: int, error: str) -> None:
    """The chunk and its job failed, unless another claim of the chunk has since finished
    it or taken it over (a redelivered copy)."""
    with transaction.atomic():
        # The job's row first, as `_write` takes them: the other way round, a failure and
        # another claim's result could each hold the row the other waits on.
        SimulationJob.objects.select_for_update().filter(pk=job_id).first()
        now = timezone.now()
        failed = SimulationChunk.objects.filter(
            job_id=job_id, index=index, attempts=attempt).exclude(
            status=ChunkStatus.DONE).update(status=ChunkStatus.FAILED, error=error,
                                            finished_at=now)
        if failed:
            SimulationJob.objects.filter(pk=job_id, status__in=LIVE).update(
                status=Status.FAILED, error=f"Chunk {index}: {error}", finished_at=now)


def play_chunk(job: SimulationJob, start: int, count: int,
               beat: Callable[[], bool] | None = None) -> tuple[JSON, list[JSON] | None]:
    """Play matches start..start+count-1 of the job: their tallies, and their logs when the
    job keeps them (each `{match, seed, options, placements, events}`); `beat` is called
    after each match at most every BEAT_SECONDS (a chunk of long matches outlasts the
    sweep's stale limit, and must not be taken for lost), and its False, the job stopped,
    stops the chunk (JobStopped)."""
    rules = registry.get_rules(job.game)
    tallies = empty_tallies(len(job.bots))
    logs: list[JSON] | None = [] if job.logs else None
    began = time.process_time()
    last_beat = time.monotonic()
    for index in range(start, start + count):
        seed = match_seed(job.seed, index)
        played = play_one(rules, job.game, job.bots, job.options, job.balance, seed)
        count_match(tallies, played)
        if beat is not None and time.monotonic() - last_beat >= BEAT_SECONDS:
            if not beat():
                raise JobStopped(f"job {job.pk} stopped at match {index}")
            last_beat = time.monotonic()
        if logs is not None:
            logs.append({"match": index, "seed": seed, "options": played.options,
                         "rules_version": rules.spec.rules_version,
                         "placements": list(played.placements),
                         "events": [event.to_json() for event in played.log]})
    tallies["seconds"] = time.process_time() - began
    return tallies, logs


def match_seed(seed: int, index: int) -> int:
    """Match `index`'s seed: the same for the same job seed on any machine (below SEEDS)."""
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEEDS


@dataclass(frozen=True)
class Played:
    """One finished match, as a simulation counts it."""

    placements: tuple[int, ...]
    first_seat: int | None  # the seat of the first decision (None: every seat's at once)
    entities: list[str | None]  # balance runs: each seat's entity
    options: JSON  # the options it was played with (a balance sample included)
    log: list[Event]
    teams: tuple[int, ...] | None = None  # each seat's side (Rules.teams); None: alone


def play_one(rules: BaseRules[Any], game: str, bots: Sequence[str],
             options: Mapping[str, Any], balance: bool, seed: int) -> Played:
    """Play one match in memory; balance runs sample each seat's entity first, with the
    match's own generator."""
    rng = random.Random(seed)
    entities = ENTITIES.get(game) if balance else None
    played_options = dict(options)
    if entities is not None:
        played_options.update(entities.sample(rng, len(bots), options))
    players = [registry.get_bot(game, name) for name in bots]
    opening: list[int | None] = []

    def watch(before: Any, event: Event) -> None:
        if not opening and event.kind is EventKind.DECISION:
            # A first decision asked of every seat at once has no first player.
            opening.append(event.seat if len(rules.pending(before).seats) == 1 else None)

    state, log = play_match(rules, players, rng, played_options, watch)
    result = rules.result(state)
    assert result is not None, "play_match returns a finished match"
    first = opening[0] if opening else None
    seated = (entities.extract(rules, state, log, len(bots), played_options)
              if entities is not None else [])
    return Played(tuple(result.placements), first, seated, played_options, log,
                  rules.teams(played_options, len(bots)))


# -- tallies and summaries --------------------------------------------------------------------

def empty_tallies(seats: int) -> JSON:
    """What a chunk counts, in whole numbers where order matters (points in 1/SCALE)."""
    return {"matches": 0,
            "seats": [{"games": 0, "wins": 0, "draws": 0, "points": 0} for _ in range(seats)],
            "entities": {}, "first": {"games": 0, "points": 0}, "lengths": {},
            "seconds": 0.0}


def count_match(tallies: JSON, played: Played) -> None:
    """Add one match to the tallies: each seat as its side did (see the module's doc)."""
    places = dict(enumerate(played.placements))
    sides = formats.entrant_sides(list(places), played.teams)
    outcome = formats.outcomes(places, sides)
    share = SCALE // max(1, len(formats.first_sides(places, sides)))

    def points(seat: int | None) -> int:
        return share if seat is not None and outcome[seat] != "loss" else 0

    tallies["matches"] += 1
    for seat, row in enumerate(tallies["seats"]):
        row["games"] += 1
        row["points"] += points(seat)
        if outcome[seat] != "loss":
            row["wins" if outcome[seat] == "win" else "draws"] += 1
    for seat, key in enumerate(played.entities):
        if key is not None:
            entity = tallies["entities"].setdefault(key, {"games": 0, "points": 0})
            entity["games"] += 1
            entity["points"] += points(seat)
    if played.first_seat is not None:
        tallies["first"]["games"] += 1
        tallies["first"]["points"] += points(played.first_seat)
    length = str(len(played.log))
    tallies["lengths"][length] = tallies["lengths"].get(length, 0) + 1


def merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> JSON:
    """Two tallies as one (either may be empty: `{}`)."""
    if not a or not b:
        return _copy(b or a)
    out = _copy(a)
    out["matches"] += b["matches"]
    out["seconds"] += b["seconds"]
    for row, other in zip(out["seats"], b["seats"], strict=True):
        for name in ("games", "wins", "draws", "points"):
            row[name] += other[name]
    for key, other in b["entities"].items():
        entity = out["entities"].setdefault(key, {"games": 0, "points": 0})
        entity["games"] += other["games"]
        entity["points"] += other["points"]
    out["first"] = {name: a["first"][name] + b["first"][name] for name in ("games", "points")}
    for length, n in b["lengths"].items():
        out["lengths"][length] = out["lengths"].get(length, 0) + n
    return out


def _copy(tallies: Mapping[str, Any]) -> JSON:
    if not tallies:
        return {}
    return {"matches": tallies["matches"], "seconds": tallies["seconds"],
            "seats": [dict(row) for row in tallies["seats"]],
            "entities": {k: dict(v) for k, v in tallies["entities"].items()},
            "first": dict(tallies["first"]), "lengths": dict(tallies["lengths"])}


def _rated(games: int, units: int) -> JSON:
    points = units / SCALE
    low, high = wilson(points, games)
    return {"points": round(points, 4), "rate": round(points / games, 4) if games else 0.0,
            "low": round(low, 4), "high": round(high, 4)}


def histogram(lengths: Mapping[str, int], bins: int = HISTOGRAM_BINS) -> list[list[int]]:
    """Match lengths in at most `bins` equal bins: [inclusive upper bound, count]."""
    if not lengths:
        return []
    counts = {int(k): n for k, n in lengths.items()}
    low, high = min(counts), max(counts)
    width = max(1, -(-(high - low + 1) // bins))
    out = [[low + width * (i + 1) - 1, 0] for i in range((high - low) // width + 1)]
    for length, n in counts.items():
        out[(length - low) // width][1] += n
    return out


def summarize(totals: Mapping[str, Any], *, game: str, bots: Sequence[str],
              options: Mapping[str, Any], balance: bool, planned: int) -> JSON:
    """The summary the pages and the API show (see the README's Simulations section)."""
    totals = totals or empty_tallies(len(bots))
    entities = ENTITIES.get(game)
    names = dict(entities.names()) if entities is not None else {}
    lengths = {int(k): n for k, n in totals["lengths"].items()}
    played = sum(lengths.values())
    seconds = totals["seconds"]
    first = totals["first"]
    return {
        "game": game, "bots": list(bots), "options": dict(options), "balance": balance,
        "matches": totals["matches"], "planned": planned,
        "by_seat": [{"seat": seat, "bot": bots[seat], "games": row["games"],
                     "wins": row["wins"], "draws": row["draws"],
                     **_rated(row["games"], row["points"])}
                    for seat, row in enumerate(totals["seats"])],
        "by_entity": [{"key": key, "name": names.get(key, key),
                       "kind": entities.kind if entities else "", "games": row["games"],
                       **_rated(row["games"], row["points"])}
                      for key, row in sorted(totals["entities"].items())],
        "first_player": {**{k: v for k, v in _rated(first["games"], first["points"]).items()
                            if k != "points"}, "fair": round(1 / _sides(game, options, bots), 4),
                         "games": first["games"]},
        "length": {"mean": round(sum(k * n for k, n in lengths.items()) / played, 2)
                   if played else 0.0,
                   "min": min(lengths, default=0), "max": max(lengths, default=0),
                   "histogram": histogram(totals["lengths"])},
        "seconds": round(seconds, 3),
        "matches_per_second": round(totals["matches"] / seconds, 2) if seconds > 0 else 0.0,
    }


def _sides(game: str, options: Mapping[str, Any], bots: Sequence[str]) -> int:
    """How many sides play a match: its seats, but a team's seats are one (Rules.teams)."""
    try:
        teams = registry.get_rules(game).teams(options, len(bots))
    except IllegalAction:
        teams = None
    return len(set(teams)) if teams else len(bots)


def job_summary(job: SimulationJob) -> JSON:
    """The job's summary from its merged totals."""
    return summarize(job.totals, game=job.game, bots=job.bots, options=job.options,
                     balance=job.balance, planned=job.planned)


# -- reading a job ----------------------------------------------------------------------------

def progress(job: SimulationJob) -> JSON:
    """How far the job is: matches and chunks done, percent, wall-clock rate, state."""
    elapsed = ((job.finished_at or timezone.now()) - job.started_at).total_seconds() \
        if job.started_at else 0.0
    return {
        "id": job.pk, "status": job.status, "finished": job.finished,
        "matches": job.done_matches, "planned": job.planned,
        "percent": 100 * job.done_matches // job.planned if job.planned else 0,
        "chunks": job.chunk_count, "chunks_done": job.done_chunks,
        "matches_per_second": round(job.done_matches / elapsed, 1) if elapsed > 0 else 0.0,
        "error": job.error,
    }


def iter_logs(job: SimulationJob) -> Iterator[JSON]:
    """Every kept match log of the finished chunks, in match order."""
    rows = (SimulationChunk.objects.filter(job=job, status=ChunkStatus.DONE)
            .order_by("index").values_list("log", flat=True))
    for log in rows.iterator(chunk_size=20):
        yield from log or []
