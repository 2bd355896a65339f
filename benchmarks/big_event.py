"""A big Event's writes, replays and pages: a Swiss of ENTRANTS people played to its end.

`.venv/bin/python -m benchmarks big_event [ENTRANTS]` (default 128; 7 rounds). Against
PostgreSQL (`BENCH_DATABASE_URL`, default the `showdown_bench` database, created when
missing), in this process (tasks run in it, no broker): every match ended by a forfeit,
its result recorded. It prints:

- a result that does not end its round: median and p90 time (the forfeit and the result:
  the projections rewritten), queries, and the queries of the standings table;
- the projections of the finished Event rewritten with nothing changed (`refresh_event`,
  rolled back): time and the standings' SQL time, median of 12;
- a replay of the whole stream with no Swiss pairing kept (a fresh process), and again
  with them kept (a correction's replay in a process that paired the rounds), each with
  the time spent pairing;
- the public Event page (a round listed, and the default) and the organizer page: time,
  queries and size;
- the Swiss winner's player page in a process that kept no replay and no pairing (the
  replays of its Events it makes);
- a single elimination of ENTRANTS played to its third round: its public page, default
  and "All rounds" (size, rounds drawn);
- a small Event's organizer page (a Swiss of 16, 6 rounds: 48 matches, in its last
  round) at a new seq, nothing kept: the replays its results' correction trials make;
- the correction trials of a big Event's organizer page (`events.uncorrectable` of the
  results a page lists, the replay kept, no trial kept): the Swiss of ENTRANTS finished
  (its last round listed) and half through its last round (the round before listed),
  the single elimination in its third round (the round before listed);
- a player page of an entrant of that Swiss after another entrant withdrew from it,
  nothing kept (the replays its walkovers make).

Nothing asserts a time: the machine is shared.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks.append import DEFAULT_URL, prepare_django

ROUNDS = 7


def main(argv: list[str]) -> None:
    entrants = int(argv[0]) if argv else 128
    env = dict(os.environ)
    env["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    env.pop("CELERY_BROKER_URL", None)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    prepare_django(env)
    event, organizer = _played(entrants)
    _refresh(event)
    _replays(event)
    _pages(event, organizer)
    _player_page(event, organizer)
    _bracket(entrants, organizer)
    _small_organizer_page(organizer)
    _big_trials(entrants, organizer, event)


def _queries() -> Any:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    connection.queries_log.clear()  # (the log is bounded: counts read from a full one lie)
    return CaptureQueriesContext(connection)


def _started(entrants: int, fmt: str, options: dict[str, Any], organizer: Any = None
             ) -> tuple[Any, Any]:
    """An Event of `entrants` players of format `fmt`, started; and its organizer."""
    from django.contrib.auth import get_user_model

    from league import events

    users = get_user_model()
    tag = f"{time.time():.0f}{fmt[:2]}"
    organizer = organizer or users.objects.create_user(username=f"big{tag}", is_staff=True)
    event = events.create_event(name=f"Big {tag}", game="super_showdown", format=fmt,
                                by=organizer, format_options=options)
    for i in range(entrants):
        user = users.objects.create_user(username=f"big{tag}x{i}")
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    return event, organizer


def _play_to(event: Any, rounds: int) -> None:
    """Every match of `event` ended by a forfeit until its round `rounds` is made."""
    from league import events
    from league.models import EventMatch
    from matches import services as match_services
    from matches.models import Match

    while not EventMatch.objects.filter(event=event, round=rounds).exists():
        for link in EventMatch.objects.filter(event=event, match__status=Match.Status.ACTIVE):
            match_services.forfeit_seat(match=link.match, seat=1)
            events.record_match_result(match=Match.objects.get(pk=link.match_id))


def _played(entrants: int) -> tuple[Any, Any]:
    """A Swiss of `entrants` players played to its end; the figures of its results."""
    from league import events
    from league.models import Event, EventMatch
    from matches import services as match_services
    from matches.models import Match

    event, organizer = _started(entrants, "swiss", {"rounds": ROUNDS})
    writes: list[tuple[float, int, int]] = []
    while Event.objects.get(pk=event.pk).status != Event.Status.FINISHED:
        live = list(EventMatch.objects.filter(event=event, match__status=Match.Status.ACTIVE)
                    .order_by("pk"))
        for i, link in enumerate(live):
            with _queries() as asked:
                began = time.perf_counter()
                match_services.forfeit_seat(match=link.match, seat=1)
                events.record_match_result(match=Match.objects.get(pk=link.match_id))
                took = time.perf_counter() - began
            if i < len(live) - 1:  # (the round's last pairs the next one)
                writes.append((took, len(asked),
                               sum('"league_standing"' in q["sql"] for q in asked)))
    times = sorted(w[0] for w in writes)
    print(f"{entrants} entrants, {ROUNDS} rounds; a result within a round: median "
          f"{statistics.median(times) * 1000:.0f} ms, p90 {times[len(times) * 9 // 10] * 1000:.0f}"
          f" ms, {statistics.median(w[1] for w in writes):.0f} queries "
          f"({statistics.median(w[2] for w in writes):.0f} of the standings)")
    return Event.objects.get(pk=event.pk), organizer


def _refresh(event: Any) -> None:
    """The finished Event's projections rewritten, nothing changed (rolled back)."""
    from django.db import transaction

    from league import events, projections

    done = events.replay(event)
    figures = []
    for _ in range(12):
        with transaction.atomic(), _queries() as asked:
            began = time.perf_counter()
            projections.refresh_event(event, events.copied(done))
            took = time.perf_counter() - began
            transaction.set_rollback(True)
        figures.append((took, sum(float(q["time"]) for q in asked
                                  if '"league_standing"' in q["sql"])))
    print(f"projections rewritten, nothing changed: median "
          f"{statistics.median(f[0] for f in figures) * 1000:.0f} ms, the standings' SQL "
          f"{statistics.median(f[1] for f in figures) * 1000:.1f} ms")


def _replays(event: Any) -> None:
    """The whole stream replayed without and with the Swiss pairings kept."""
    from league import events
    from league.formats import swiss

    real = swiss.pair_field
    spent = [0.0]

    def timed(*args: Any) -> Any:
        began = time.perf_counter()
        try:
            return real(*args)
        finally:
            spent[0] += time.perf_counter() - began

    setattr(swiss, "pair_field", timed)  # noqa: B010 (a stand-in that times it)
    try:
        for label, forget in (("no pairing kept", True), ("no pairing kept", True),
                              ("pairings kept", False)):
            if forget:
                swiss.forget_pairings()
            spent[0] = 0.0
            began = time.perf_counter()
            events.replay(event)
            took = time.perf_counter() - began
            print(f"a replay from the start, {label}: {took * 1000:.0f} ms "
                  f"(pairing {spent[0] * 1000:.0f} ms)")
    finally:
        setattr(swiss, "pair_field", real)  # noqa: B010


def _pages(event: Any, organizer: Any) -> None:
    """The Event's public page and its organizer page, best of three."""
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(organizer)
    public = reverse("league:event", args=[event.pk])
    pages: list[tuple[str, Callable[[], Any]]] = [
        ("public page, round 4 listed", lambda: client.get(f"{public}?round=4")),
        ("public page, default (the last round)", lambda: client.get(public)),
        ("public page, every round", lambda: client.get(f"{public}?round=all")),
        ("organizer page", lambda: client.get(reverse("league:event_admin",
                                                      args=[event.pk]))),
    ]
    for label, get in pages:
        get()
        best, asked, size = float("inf"), 0, 0
        for _ in range(3):
            with _queries() as queries:
                began = time.perf_counter()
                answer = get()
                took = time.perf_counter() - began
            if took < best:
                best, asked, size = took, len(queries), len(answer.content)
        print(f"{label}: {best * 1000:.0f} ms, {asked} queries, {size // 1024} KiB")


def _fresh(timed: Callable[[], Any]) -> tuple[float, int, int, int]:
    """`timed` in a process that kept no Event replay, pairing nor correction trial: its
    time, queries, answer's size and the Event replays from the start it made."""
    from league import events
    from league.formats import swiss

    real, starts = events._fold, [0]

    def counted(event: Any, out: Any, rows: Any, corrections: Any) -> Any:
        rows = list(rows)
        starts[0] += sum(row.seq == 1 for row in rows)
        return real(event, out, rows, corrections)

    events.clear_read_replays()
    swiss.forget_pairings()
    events._barred.clear()
    setattr(events, "_fold", counted)  # noqa: B010 (a stand-in that counts)
    try:
        with _queries() as queries:
            began = time.perf_counter()
            answer = timed()
            took = time.perf_counter() - began
    finally:
        setattr(events, "_fold", real)  # noqa: B010
    return took, len(queries), len(answer.content), starts[0]


def _player_page(event: Any, organizer: Any) -> None:
    """The Swiss winner's player page, nothing kept (a fresh process)."""
    from django.test import Client
    from django.urls import reverse

    from league.models import Standing

    winner = Standing.objects.filter(event=event, rank=1).select_related("entrant").first()
    client = Client()
    client.force_login(organizer)
    took, asked, size, starts = _fresh(lambda: client.get(
        reverse("league:player", args=[winner.entrant.player_id])))
    print(f"player page of the winner, nothing kept: {took * 1000:.0f} ms, {asked} queries, "
          f"{size // 1024} KiB, {starts} Event replay(s) from the start")


def _bracket(entrants: int, organizer: Any) -> None:
    """A single elimination of `entrants` in its third round: its public page."""
    import re

    from django.test import Client
    from django.urls import reverse

    event, _ = _started(entrants, "single_elimination", {}, organizer)
    _play_to(event, 3)
    client = Client()
    client.force_login(organizer)
    public = reverse("league:event", args=[event.pk])
    for label, url in (("default (round 3)", public), ("every round", f"{public}?round=all")):
        client.get(url)
        answer = client.get(url)
        html = answer.content.decode()
        boxes = len(re.findall(r'<g class="bx ', html))
        print(f"single elimination of {entrants}, public page, {label}: "
              f"{len(answer.content) // 1024} KiB, {boxes} boxes drawn")


def _small_organizer_page(organizer: Any) -> None:
    """A 48-match Swiss's organizer page at a new seq, nothing kept."""
    from django.test import Client
    from django.urls import reverse

    event, _ = _started(16, "swiss", {"rounds": 6}, organizer)
    _play_to(event, 6)
    client = Client()
    client.force_login(organizer)
    url = reverse("league:event_admin", args=[event.pk])
    figures = sorted(_fresh(lambda: client.get(url)) for _ in range(3))
    took, asked, size, starts = figures[0]
    print(f"organizer page of a 48-match Swiss in its last round, nothing kept: "
          f"{took * 1000:.0f} ms (best of 3), {asked} queries, {size // 1024} KiB, "
          f"{starts} Event replay(s) from the start")


def _big_trials(entrants: int, organizer: Any, finished: Any) -> None:
    """The correction trials a big Event's organizer page would make of the results of
    one round: time (best of 3, the Event's replay kept, no trial kept) and results tried."""
    from league import events
    from league.formats import swiss
    from league.models import Event, EventMatch
    from matches import services as match_services
    from matches.models import Match

    half, _ = _started(entrants, "swiss", {"rounds": ROUNDS}, organizer)
    _play_to(half, ROUNDS)
    live = list(EventMatch.objects.filter(event=half, match__status=Match.Status.ACTIVE))
    for link in live[:len(live) // 2]:
        match_services.forfeit_seat(match=link.match, seat=1)
        events.record_match_result(match=Match.objects.get(pk=link.match_id))
    bracket, _ = _started(entrants, "single_elimination", {}, organizer)
    _play_to(bracket, 3)
    for label, event, number in (("Swiss finished, round 7", finished, ROUNDS),
                                 ("Swiss half through round 7, round 6", half, ROUNDS - 1),
                                 ("single elimination in round 3, round 2", bracket, 2)):
        event = Event.objects.get(pk=event.pk)
        done = events.replay_to_read(event)
        listed = [pid for pid, made in done.matches.items()
                  if made["round"] == number and pid in done.results]
        best, barred = float("inf"), {}
        for _ in range(3):
            events._barred.clear()
            swiss.forget_pairings()
            began = time.perf_counter()
            barred = events.uncorrectable(event, done, listed)
            best = min(best, time.perf_counter() - began)
        print(f"correction trials, {label} listed ({len(listed)} results): "
              f"{best * 1000:.0f} ms (best of 3), {len(barred)} barred")
    _withdrawn_player_page(half, organizer)


def _withdrawn_player_page(event: Any, organizer: Any) -> None:
    """A player page of an entrant of `event` after another entrant withdrew from it,
    nothing kept (the second view in the process: the first compiles the templates)."""
    from django.test import Client
    from django.urls import reverse

    from league import events
    from league.models import Entrant

    gone, other = Entrant.objects.filter(event=event, withdrawn=False).order_by("pk")[:2]
    events.withdraw_entrant(event=event, by=organizer, key=gone.key)
    client = Client()
    client.force_login(organizer)
    url = reverse("league:player", args=[other.player_id])
    took, asked, size, starts = [_fresh(lambda: client.get(url)) for _ in range(2)][-1]
    print(f"player page in an Event with a withdrawal, nothing kept: {took * 1000:.0f} ms, "
          f"{asked} queries, {size // 1024} KiB, {starts} Event replay(s) from the start")
