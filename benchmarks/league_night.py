"""A league night: many players on phones polling their matches while they play.

`.venv/bin/python -m benchmarks league_night [PLAYERS]` (default 32). Against PostgreSQL
(`BENCH_DATABASE_URL`, default the `showdown_bench` database, created when missing) it
makes a Swiss Event of Super Showdown with PLAYERS people and starts it (PLAYERS / 2
matches, a person in each seat). It serves the site as production does: gunicorn on a
free loopback port (`BENCH_WEB_WORKERS` sync workers, default 3 as in the Dockerfile;
`manage.py runserver --noreload` if gunicorn is missing) with DEBUG off, one Celery
worker process (`BENCH_BROKER_URL`, default Redis DB 14: the results of finished matches
and the next rounds are made there) and Django's cache in Redis (`BENCH_CACHE_URL`, DB 15).
Every client signs in first; then for `BENCH_LEAGUE_SECONDS` (default 60) one client
thread per player and one for the organizer:

- a page player (three in four) logs in through the login form, opens its play page and
  polls the state partial every 2 s as htmx does (`?seq=..&status=..&seats=..`, 204 while
  nothing changed); when the partial offers its seat a move it thinks 0.5-1.5 s and posts
  one of the offered forms, as a click does (the answer is the new partial). Once its
  match is over it opens the Event page, whose results poll every 4 s, and each time they
  change asks the API for its next match (a new round), which it opens;
- an API player (every fourth) gets a token and polls `/api/matches/<id>/state/` every
  2 s, posting one of its `legal_actions` to `/actions/` when it has some; between
  matches it asks the API for its next live match every 2 s;
- the organizer polls the Event's live match list (`/league/dashboard/events/<id>/live/`,
  every 3 s) and the Event page's results (every 4 s), as those pages do.

It prints requests per second, p50/p95/p99 latency by kind of request, errors (every
answer but 2xx, 204 and the login's redirect), moves made, and the CPU time the web and
worker processes used (and the clients). Nothing asserts a time: the clients share the
machine with the server.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from benchmarks.append import DEFAULT_URL, prepare_django
from benchmarks.scale import _process_tree, _start_worker, _stop

GAME = "super_showdown"
FORMAT = "swiss"
PASSWORD = "league-night-pw"
POLL_SECONDS = 2.0
LIVE_SECONDS, RESULTS_SECONDS = 3.0, 4.0  # the organizer's two panels
THINK_SECONDS = (0.5, 1.5)
API_EVERY = 4  # every fourth player plays through the API
ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


# -- setup ----------------------------------------------------------------------------------

def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    env["CACHE_URL"] = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/15")
    env["CELERY_BROKER_URL"] = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "false",
                "DJANGO_SECRET_KEY": "league-night-benchmark-only",
                "DJANGO_SECURE_COOKIES": "false", "DJANGO_ALLOWED_HOSTS": HOST,
                "DATABASE_CONN_MAX_AGE": "60", "LOG_LEVEL": "WARNING",
                "PYTHONWARNINGS": "ignore:No directory at"})  # no collectstatic needed
    return env


@dataclass
class Night:
    event_id: int
    organizer: str
    players: list[str]


def _make_night(players: int) -> Night:
    """An Event of `players` people, started: its first round is live."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from league import events

    tag = uuid.uuid4().hex[:6]
    hashed = make_password(PASSWORD)  # once: every account shares it
    users = get_user_model().objects
    organizer = users.create(username=f"ln-{tag}-org", password=hashed, is_staff=True)
    names = [f"ln-{tag}-{i:03d}" for i in range(players)]
    users.bulk_create([get_user_model()(username=name, password=hashed) for name in names])
    event = events.create_event(name=f"League night {tag}", game=GAME, format=FORMAT,
                                by=organizer)
    for name in names:
        events.add_entrant(event=event, by=organizer, player=name)
    events.start_event(event=event, by=organizer)
    return Night(event.pk, organizer.username, names)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _start_server(env: dict[str, str], port: int) -> tuple[subprocess.Popen[bytes], str]:
    gunicorn = ROOT / ".venv/bin/gunicorn"
    if gunicorn.exists():
        workers = os.environ.get("BENCH_WEB_WORKERS", "3")
        command = [str(gunicorn), "config.wsgi", "--bind", f"{HOST}:{port}",
                   "--workers", workers, "--log-level", "warning"]
        label = f"gunicorn, {workers} sync workers"
    else:
        command = [sys.executable, "manage.py", "runserver", "--noreload", f"{HOST}:{port}"]
        label = "manage.py runserver"
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              start_new_session=True)
    for _ in range(120):
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return server, label
        except OSError:
            pass
        if server.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.5)
    _stop(server)
    raise SystemExit("the server did not answer /healthz")


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and all its descendants, living ones."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in _process_tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


# -- the clients ----------------------------------------------------------------------------

class Tally:
    """Latencies by kind of request, errors by kind and status, moves; shared by threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[tuple[str, int], int] = defaultdict(int)
        self.moves = 0
        self.samples: list[str] = []

    def record(self, kind: str, status: int, seconds: float, body: bytes) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            if not (200 <= status < 300 or (kind == "login" and status == 302)):
                self.errors[(kind, status)] += 1
                if len(self.samples) < 5:
                    self.samples.append(f"{kind} {status}: {body[:200]!r}")

    def moved(self) -> None:
        with self.lock:
            self.moves += 1


class Client:
    """One phone: its cookies (or API token), one connection per request (gunicorn's sync
    workers close it after each answer)."""

    def __init__(self, port: int, tally: Tally) -> None:
        self.port, self.tally = port, tally
        self.cookies: dict[str, str] = {}
        self.token = ""

    def request(self, kind: str, method: str, path: str, body: dict[str, Any] | None = None,
                *, htmx: bool = False, as_json: bool = False) -> tuple[int, bytes]:
        headers = {"Host": HOST}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if htmx:
            headers["HX-Request"] = "true"
        data = None
        if body is not None:
            if as_json:
                data, headers["Content-Type"] = json.dumps(body), "application/json"
            else:
                data = urlencode(body)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
        began = time.perf_counter()
        connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
        try:
            connection.request(method, path, body=data, headers=headers)
            answer = connection.getresponse()
            content = answer.read()
            status = answer.status
            for name, value in answer.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
        except OSError as exc:
            status, content = 599, str(exc).encode()
        finally:
            connection.close()
        if status == 204:
            kind += " 204"
        self.tally.record(kind, status, time.perf_counter() - began, content)
        return status, content

    def log_in(self, username: str) -> None:
        _, page = self.request("login page", "GET", "/login/")
        token = Page(page).inputs.get("csrfmiddlewaretoken", "")
        self.request("login", "POST", "/login/", {"csrfmiddlewaretoken": token,
                                                  "username": username,
                                                  "password": PASSWORD})

    def api_token(self, username: str) -> None:
        status, body = self.request("api token", "POST", "/api/auth/token/",
                                    {"username": username, "password": PASSWORD},
                                    as_json=True)
        if status == 200:
            self.token = json.loads(body)["token"]

    def next_match(self, username: str) -> int | None:
        """The player's live match, if it has one (a finished round waits for the rest)."""
        status, body = self.request("next match (API)", "GET", "/api/matches/?" + urlencode(
            {"player": username, "status": "active"}))
        if status != 200:
            return None
        found = json.loads(body)
        rows = found["results"] if isinstance(found, dict) else found
        return rows[0]["id"] if rows else None


class Page(HTMLParser):
    """What a client reads from a page or partial: the poll URL, the hidden inputs, and
    the forms of the moves offered (their action and fields)."""

    def __init__(self, html: bytes) -> None:
        super().__init__()
        self.poll: str | None = None
        self.inputs: dict[str, str] = {}
        self.moves: list[dict[str, str]] = []
        self._form: dict[str, str] | None = None
        self.feed(html.decode())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {k: v or "" for k, v in attrs}
        if tag == "div" and attr.get("id") == "match-state" and "hx-get" in attr:
            self.poll = attr["hx-get"]
        elif attr.get("id") in ("event-live", "event-results"):
            self.poll = attr.get("hx-get")
        elif tag == "form" and "action-form" in attr.get("class", ""):
            self._form = {"_url": attr["action"]}
        elif tag == "input" and attr.get("type") == "hidden" and "name" in attr:
            self.inputs[attr["name"]] = attr.get("value", "")
            if self._form is not None:
                self._form[attr["name"]] = attr.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._form is not None:
            self.moves.append(self._form)
            self._form = None


class Clock:
    """Every client signs in first; then the timed window opens for all at once."""

    def __init__(self, clients: int, seconds: float, tally: Tally) -> None:
        self.seconds, self.tally = seconds, tally
        self.opened = self.until = 0.0
        self.barrier = threading.Barrier(clients, action=self._open)

    def _open(self) -> None:
        self.opened = time.monotonic()
        self.until = self.opened + self.seconds

    def wait(self, client: Client) -> float:
        """Wait for the others to sign in; from now on `client` counts in the run."""
        self.barrier.wait()
        client.tally = self.tally
        return self.until


def _page_player(client: Client, night: Night, name: str, clock: Clock,
                 rng: random.Random) -> None:
    """Play the match on its page; between matches, watch the Event page's results (as
    it polls them) and open the next match once they show a new round."""
    client.log_in(name)
    match_id = client.next_match(name)
    until = clock.wait(client)
    poll = results = None  # the state partial's URL (playing), the results' (waiting)
    while time.monotonic() < until:
        began, pause = time.monotonic(), POLL_SECONDS
        if match_id is not None:
            _, html = client.request("play page", "GET", f"/matches/{match_id}/")
            poll = _play_page_moves(client, Page(html), until, rng).poll
            match_id = results = None
        elif poll is not None:
            status, html = client.request("state (htmx)", "GET", poll, htmx=True)
            if status == 200:
                poll = _play_page_moves(client, Page(html), until, rng).poll
        elif results is None:  # the match is over: to the Event page
            _, html = client.request("event page", "GET", f"/league/events/{night.event_id}/")
            results = Page(html).poll
            match_id = client.next_match(name)
        else:
            pause = RESULTS_SECONDS
            status, html = client.request("event results (htmx)", "GET", results, htmx=True)
            if status == 200:
                results = Page(html).poll
                match_id = client.next_match(name)
        time.sleep(max(0.0, pause - (time.monotonic() - began)))


def _play_page_moves(client: Client, page: Page, until: float, rng: random.Random) -> Page:
    """Click one of the offered moves while there are some; the page as it stands then."""
    while page.moves and time.monotonic() < until:
        time.sleep(rng.uniform(*THINK_SECONDS))
        form = dict(rng.choice(page.moves))
        form["csrfmiddlewaretoken"] = client.cookies.get("csrftoken", "")
        status, html = client.request("act (htmx)", "POST", form.pop("_url"), form, htmx=True)
        if status != 200:
            break
        client.tally.moved()
        page = Page(html)
    return page


def _api_player(client: Client, night: Night, name: str, clock: Clock,
                rng: random.Random) -> None:
    client.api_token(name)
    match_id = client.next_match(name)
    until = clock.wait(client)
    while time.monotonic() < until:
        began = time.monotonic()
        if match_id is None:
            match_id = client.next_match(name)
        else:
            status, body = client.request("state (API)", "GET",
                                          f"/api/matches/{match_id}/state/")
            state = json.loads(body) if status == 200 else {}
            if state.get("status") == "finished":
                match_id = None
            elif state.get("legal_actions"):
                time.sleep(rng.uniform(*THINK_SECONDS))
                status, _ = client.request("actions (API)", "POST",
                                           f"/api/matches/{match_id}/actions/",
                                           {"seat": state["seat"],
                                            "action": rng.choice(state["legal_actions"]),
                                            "idempotency_key": uuid.uuid4().hex},
                                           as_json=True)
                if status == 201:
                    client.tally.moved()
                continue  # poll again at once: the seat may have the next decision too
        time.sleep(max(0.0, POLL_SECONDS - (time.monotonic() - began)))


def _organizer(client: Client, night: Night, clock: Clock) -> None:
    client.log_in(night.organizer)
    until = clock.wait(client)
    _, html = client.request("event admin page", "GET",
                             f"/league/dashboard/events/{night.event_id}/")
    live = Page(html).poll
    _, html = client.request("event page", "GET", f"/league/events/{night.event_id}/")
    results = Page(html).poll
    due = {"live": time.monotonic(), "results": time.monotonic()}
    while time.monotonic() < until:
        if live is not None and time.monotonic() >= due["live"]:
            due["live"] += LIVE_SECONDS
            status, html = client.request("event live (htmx)", "GET", live, htmx=True)
            live = Page(html).poll if status == 200 else live
        if results is not None and time.monotonic() >= due["results"]:
            due["results"] += RESULTS_SECONDS
            status, html = client.request("event results (htmx)", "GET", results, htmx=True)
            results = Page(html).poll if status == 200 else results
        time.sleep(max(0.0, min(due.values()) - time.monotonic()))


# -- the run --------------------------------------------------------------------------------

@dataclass
class Run:
    seconds: float
    tally: Tally
    signin: Tally
    cpu: float
    worker_cpu: float
    client_cpu: float


def _run(night: Night, port: int, seconds: float, server_pid: int, worker_pid: int) -> Run:
    tally, signin = Tally(), Tally()
    clock = Clock(len(night.players) + 1, seconds, tally)
    rng = random.Random(7)
    threads = []
    for index, name in enumerate(night.players):
        play: Any = _api_player if index % API_EVERY == API_EVERY - 1 else _page_player
        threads.append(threading.Thread(target=play, daemon=True, args=(
            Client(port, signin), night, name, clock, random.Random(rng.random()))))
    threads.append(threading.Thread(target=_organizer, daemon=True,
                                    args=(Client(port, signin), night, clock)))
    for thread in threads:
        thread.start()
    while not clock.opened:
        time.sleep(0.01)
    web, worker = _cpu_seconds(server_pid), _cpu_seconds(worker_pid)
    client = time.process_time()
    for thread in threads:
        thread.join(timeout=seconds + 120)
    elapsed = time.monotonic() - clock.opened
    return Run(elapsed, tally, signin, _cpu_seconds(server_pid) - web,
               _cpu_seconds(worker_pid) - worker, time.process_time() - client)


def _report(run: Run) -> None:
    tally = run.tally
    total = sum(len(v) for v in tally.latencies.values())
    print(f"{total} requests in {run.seconds:.1f} s: {total / run.seconds:.1f}/s; "
          f"{tally.moves} moves made ({tally.moves / run.seconds:.2f}/s); "
          f"CPU: web {run.cpu:.1f} s ({run.cpu / run.seconds:.2f} cores), worker "
          f"{run.worker_cpu:.1f} s, the clients {run.client_cpu:.1f} s")
    print(f"{'kind':<26}{'count':>7}{'per s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for kind in sorted(tally.latencies):
        times = sorted(tally.latencies[kind])
        print(f"{kind:<26}{len(times):>7}{len(times) / run.seconds:>8.2f}"
              f"{_pct(times, 50):>9.1f}{_pct(times, 95):>9.1f}{_pct(times, 99):>9.1f}")
    errors = sum(tally.errors.values())
    print(f"errors: {errors}" + "".join(f"\n  {kind} {status}: {n}" for (kind, status), n
                                        in sorted(tally.errors.items())))
    for sample in tally.samples:
        print(f"  e.g. {sample}")
    signed = sorted(t for times in run.signin.latencies.values() for t in times)
    print(f"signing in before the run: {len(signed)} requests, p50 {_pct(signed, 50):.0f} ms, "
          f"errors {sum(run.signin.errors.values())}")


def _pct(times: list[float], p: int) -> float:
    if len(times) < 2:
        return times[0] * 1000 if times else 0.0
    return statistics.quantiles(times, n=100, method="inclusive")[p - 1] * 1000


def main(argv: list[str]) -> None:
    players = int(argv[0]) if argv else 32
    seconds = float(os.environ.get("BENCH_LEAGUE_SECONDS", "60"))
    env = _env()
    prepare_django(env)
    from config.celery import app

    app.control.purge()
    worker = _start_worker(env, 1)
    try:
        night = _make_night(players)
        port = _free_port()
        server, label = _start_server(env, port)
        try:
            print(f"{players} players ({players // 2} matches of {GAME}, a {FORMAT} Event, "
                  f"one in {API_EVERY} through the API) and an organizer for {seconds:.0f} "
                  f"s; {label}, a Celery worker process, {os.cpu_count()} cores")
            run = _run(night, port, seconds, server.pid, worker.pid)
        finally:
            _stop(server)
    finally:
        _stop(worker)
    _report(run)


if __name__ == "__main__":
    main(sys.argv[1:])
