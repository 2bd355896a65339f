"""Simulation jobs at scale: matches per second with one and two Celery workers, and the
workers' memory over a long job.

`.venv/bin/python -m benchmarks scale [matches]` (default 6,000 per throughput run: each
worker process warms its own copies of the heuristic's caches over its first few hundred
matches, which a short job counts twice with two processes; the memory run is
`BENCH_SCALE_LONG`, default 10,000 matches). Needs PostgreSQL and Redis on
loopback: `BENCH_DATABASE_URL` (default the `showdown_bench` database, created when
missing), `BENCH_BROKER_URL` (default Redis DB 14). It starts its own worker processes
(`celery -A config worker`, prefork) with 1 and then 2 processes, runs one job on each and
stops them; memory is the resident size (VmRSS from /proc) of every worker process,
sampled four times a second. Goal: two workers at least 1.8x one, memory flat over the
long job.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.append import DEFAULT_URL, prepare_django

GAME = "super_showdown"
BOTS = ["heuristic", "random"]
CHUNK = 50
ROOT = Path(__file__).resolve().parent.parent


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    env["CELERY_BROKER_URL"] = os.environ.get("BENCH_BROKER_URL",
                                              "redis://127.0.0.1:6379/14")
    env["CACHE_URL"] = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/15")
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    return env


def _process_tree(pid: int) -> list[int]:
    """A process and all its living descendants."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue  # (gone meanwhile)
        found.append(p)
    return found


def _rss_kib(pid: int) -> int:
    """Resident memory of a process and all its descendants, in KiB."""
    total = 0
    for p in _process_tree(pid):
        try:
            status = Path(f"/proc/{p}/status").read_text()
            total += next(int(line.split()[1]) for line in status.splitlines()
                          if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            continue
    return total


def _start_worker(env: dict[str, str], processes: int) -> subprocess.Popen[bytes]:
    worker = subprocess.Popen(
        [str(ROOT / ".venv/bin/celery"), "-A", "config", "worker", "--pool=prefork",
         f"--concurrency={processes}", "--loglevel=WARNING", "--without-gossip",
         "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    from config.celery import app

    for _ in range(120):
        if app.control.ping(timeout=0.5):
            return worker
        time.sleep(0.5)
    _stop(worker)
    raise SystemExit("the Celery worker did not start")


def _stop(worker: subprocess.Popen[bytes]) -> None:
    os.killpg(worker.pid, signal.SIGTERM)
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()


def _run_job(worker: subprocess.Popen[bytes], matches: int,
             bots: list[str]) -> tuple[float, list[int]]:
    """One job to its end: wall seconds and the workers' memory samples (KiB)."""
    from league import simulation
    from league.models import SimulationJob

    job = simulation.create_job(game=GAME, bots=bots, matches=matches, chunk=CHUNK, seed=7)
    began = time.perf_counter()
    samples: list[int] = []
    while True:
        time.sleep(0.25)
        samples.append(_rss_kib(worker.pid))
        job = SimulationJob.objects.get(pk=job.pk)
        if job.finished:
            break
        if time.perf_counter() - began > 3600:
            raise SystemExit(f"job {job.pk} did not finish within an hour")
    if job.done_matches != matches:
        raise SystemExit(f"job {job.pk} ended {job.status} at {job.done_matches}/{matches}")
    return time.perf_counter() - began, samples


def main(argv: list[str]) -> None:
    matches = int(argv[0]) if argv else 6_000
    long_run = int(os.environ.get("BENCH_SCALE_LONG", "10000"))
    env = _env()
    prepare_django(env)
    from config.celery import app

    app.control.purge()
    print(f"{GAME} {' vs '.join(BOTS)}, chunks of {CHUNK}, {os.cpu_count()} cores")
    rates = {}
    for processes in (1, 2):
        worker = _start_worker(env, processes)
        try:
            seconds, samples = _run_job(worker, matches, BOTS)
        finally:
            _stop(worker)
        rates[processes] = matches / seconds
        print(f"{processes} worker process(es): {matches} matches in {seconds:.1f} s = "
              f"{rates[processes]:.1f} matches/s (peak memory {max(samples) / 1024:.0f} MiB)")
    ratio = rates[2] / rates[1]
    print(f"two workers / one: {ratio:.2f}x (goal 1.8x)")
    worker = _start_worker(env, 2)
    try:
        seconds, samples = _run_job(worker, long_run, ["random", "random"])
    finally:
        _stop(worker)
    tenth = max(1, len(samples) // 10)
    first, last = samples[:tenth], samples[-tenth:]
    print(f"{long_run} matches (random vs random) on 2 processes in {seconds:.1f} s: memory "
          f"{sum(first) / len(first) / 1024:.0f} MiB over the first tenth, "
          f"{sum(last) / len(last) / 1024:.0f} MiB over the last, peak "
          f"{max(samples) / 1024:.0f} MiB")


if __name__ == "__main__":
    main(sys.argv[1:])
