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
  queries and size.

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


def _queries() -> Any:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    connection.queries_log.clear()  # (the log is bounded: counts read from a full one lie)
    return CaptureQueriesContext(connection)


def _played(entrants: int) -> tuple[Any, Any]:
    """A Swiss of `entrants` players played to its end; the figures of its results."""
    from django.contrib.auth import get_user_model

    from league import events
    from league.models import Event, EventMatch
    from matches import services as match_services
    from matches.models import Match

    users = get_user_model()
    tag = f"{time.time():.0f}"
    organizer = users.objects.create_user(username=f"big{tag}", is_staff=True)
    event = events.create_event(name=f"Big {tag}", game="super_showdown", format="swiss",
                                by=organizer, format_options={"rounds": ROUNDS})
    for i in range(entrants):
        user = users.objects.create_user(username=f"big{tag}x{i}")
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
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
