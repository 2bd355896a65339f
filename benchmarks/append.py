"""Append latency and throughput through the match service on PostgreSQL.

Uses `BENCH_DATABASE_URL` (default: a `showdown_bench` database on the local PostgreSQL,
created when missing). Each append is one `submit_action` call: lock the match, replay,
validate, write the decision and any chance events that follow, commit.
"""

from __future__ import annotations

import os
import statistics
import threading
import time

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/showdown_bench"


def _setup_django() -> str:
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    prepare_django({"DATABASE_URL": url})
    return url


def prepare_django(env: dict[str, str]) -> None:
    """Django on `env`'s settings, its database (created when missing) migrated."""
    os.environ.update(env)
    if env["DATABASE_URL"].startswith("postgres"):
        _create_database(env["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _create_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def _play_appends(n: int, tag: str) -> list[float]:
    """Play up to n decisions (new matches as games end); the latency of each append."""
    from django.contrib.auth import get_user_model

    from matches import services

    User = get_user_model()
    users = [User.objects.get_or_create(username=f"bench-{tag}-{i}")[0] for i in range(2)]
    latencies: list[float] = []
    match = None
    while len(latencies) < n:
        if match is None or match.status == "finished":
            match = services.create_match(
                game="super_showdown", options={},
                seats=[{"player": u.username} for u in users], created_by=None,
            )
        state = services.match_state(match=match, user=users[0])
        seat = state["pending"]["seats"][0]
        user = users[seat]
        action = services.match_state(match=match, user=user)["legal_actions"][0]
        start = time.perf_counter()
        services.submit_action(match=match, seat=seat, action=action, user=user)
        latencies.append(time.perf_counter() - start)
        match.refresh_from_db()
    return latencies


def main(n: int = int(os.environ.get("BENCH_APPENDS", "400"))) -> None:
    url = _setup_django()
    from django.db import connection

    print(f"database: {connection.vendor} ({url.split('@')[-1]})")
    start = time.perf_counter()
    lat = _play_appends(n, "solo")
    solo_wall = time.perf_counter() - start
    ms = sorted(x * 1000 for x in lat)
    print(f"append latency, one writer: p50 {statistics.median(ms):.2f} ms, "
          f"p95 {ms[int(len(ms) * 0.95)]:.2f} ms")
    print(f"append throughput, one writer: {len(ms) / sum(lat):,.0f} appends/s in appends "
          f"alone, {len(ms) / solo_wall:,.0f} appends/s with reading the state between them")

    writers = 4
    done: list[list[float]] = []

    def writer(i: int) -> None:
        done.append(_play_appends(n // writers, f"w{i}"))
        connection.close()

    start = time.perf_counter()
    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    total = sum(len(x) for x in done)
    print(f"append throughput, {writers} writer threads in one process on separate matches, "
          f"reading the state between appends: {total / elapsed:,.0f} appends/s")
