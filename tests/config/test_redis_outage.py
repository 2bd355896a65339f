"""While Redis is away (the cache and the broker at a port nobody listens on), players stay
signed in and pages work: sessions live in the database, the sign-in brake and the forms'
once-tokens let things through with a logged warning, and a move whose bot reply cannot be
queued stays stored (the bot sweep queues it later) instead of answering 500."""

from __future__ import annotations

import ast
import html
import logging
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.core import mail
from django.test import Client
from django.urls import reverse

from config.celery import app
from league.models import ResetMail, Season
from league.services import mail_password_resets
from matches.models import Match, MatchEvent
from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
AWAY = "redis://127.0.0.1:1/0"  # nothing listens on port 1: every connection is refused
HANG = 20.0  # seconds the hanging broker host hangs
PROMPT = 8.0  # seconds a move may wait for it: two tries of BROKER_TIMEOUT_SECONDS (2)
CACHE_TRY = 2.0  # seconds one try to reach the cache waits (config.settings CACHES)


@pytest.fixture(scope="module")
def production() -> dict[str, Any]:
    """CACHES and SESSION_ENGINE as config.settings makes them with CACHE_URL on Redis."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")}
    code = "from django.conf import settings as s; s._setup(); " \
           "print(repr((s.CACHES, s.SESSION_ENGINE)))"
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60,
                            env={**clean, "CACHE_URL": AWAY,
                                 "DJANGO_SETTINGS_MODULE": "config.settings"})
    assert loaded.returncode == 0, loaded.stderr
    caches, engine = ast.literal_eval(loaded.stdout)
    return {"CACHES": caches, "SESSION_ENGINE": engine}


@pytest.fixture
def redis_away(settings: Any, production: dict[str, Any]) -> Iterator[None]:
    """Production's cache and session settings, with Redis away."""
    settings.CACHES = production["CACHES"]
    settings.SESSION_ENGINE = production["SESSION_ENGINE"]
    yield


def bot_decisions(match: Match) -> int:
    return MatchEvent.objects.filter(match=match, kind="decision", seat=1).count()


@contextmanager
def broker_away(settings: Any, url: str = AWAY) -> Iterator[None]:
    """Celery with a broker (no eager tasks), and that broker away (at `url`)."""
    kept = app.conf.broker_url, app.conf.task_always_eager
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.broker_url, app.conf.task_always_eager = url, False
    try:
        yield
    finally:
        app.pool.force_close_all()
        app.conf.broker_url, app.conf.task_always_eager = kept
        settings.CELERY_TASK_ALWAYS_EAGER = True


@contextmanager
def broker_hanging(settings: Any) -> Iterator[None]:
    """Celery with a broker host that takes connections and never answers (a host that
    hangs rather than refuses); after HANG seconds it drops them, so whatever still
    waits on it ends."""
    server = socket.create_server(("127.0.0.1", 0))
    let_go = threading.Timer(HANG, server.close)
    let_go.start()
    try:
        with broker_away(settings, f"redis://127.0.0.1:{server.getsockname()[1]}/0"):
            yield
    finally:
        let_go.cancel()
        server.close()


@pytest.fixture
def cache_hanging(settings: Any, production: dict[str, Any]) -> Iterator[None]:
    """Production's cache and session settings, the cache's host taking connections and
    never answering (a host that hangs rather than refuses)."""
    server = socket.create_server(("127.0.0.1", 0))
    cache = production["CACHES"]["default"]
    settings.CACHES = {"default": {**cache, "LOCATION":
                                   f"redis://127.0.0.1:{server.getsockname()[1]}/0"}}
    settings.SESSION_ENGINE = production["SESSION_ENGINE"]
    try:
        yield
    finally:
        server.close()


ACTION_FORM = re.compile(r'name="action" value="(?P<action>[^"]*)">\s*<input type="hidden" '
                         r'name="key" value="(?P<key>[^"]*)">')


@pytest.mark.django_db
def test_a_player_signs_in_while_redis_is_away(redis_away: None, client: Client,
                                               player: Any,
                                               caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="config.signin"):
        response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302, response.content
    assert int(client.session[SESSION_KEY]) == player.pk
    assert "Sign-in brake off" in caplog.text  # the brake let it through, and said so


@pytest.mark.django_db
def test_an_api_token_is_given_while_redis_is_away(redis_away: None, player: Any) -> None:
    answer = Client().post(reverse("api-token"), {"username": "alice", "password": PASSWORD},
                           content_type="application/json")
    assert answer.status_code == 200 and answer.json()["token"]


@pytest.mark.django_db
def test_a_wrong_password_is_still_refused_while_redis_is_away(
        redis_away: None, client: Client, player: Any) -> None:
    response = client.post(reverse("login"), {"username": "alice", "password": "nope-nope"})
    assert response.status_code == 200
    assert SESSION_KEY not in client.session


@pytest.mark.django_db
def test_a_signed_in_player_keeps_their_pages_and_signs_out_while_redis_is_away(
        redis_away: None, client: Client, player: Any) -> None:
    client.force_login(player)
    page = client.get(reverse("lobby"))
    assert page.status_code == 200
    assert "alice" in page.content.decode()
    signed_out = client.post(reverse("logout"))
    assert signed_out.status_code == 302
    assert client.get(reverse("lobby")).status_code in (200, 302)
    assert SESSION_KEY not in client.session


@pytest.mark.django_db
def test_a_creation_form_is_handled_as_it_comes_while_redis_is_away(
        redis_away: None, client: Client, organizer: Any,
        caplog: pytest.LogCaptureFixture) -> None:
    client.force_login(organizer)
    with caplog.at_level(logging.WARNING, logger="league.once"):
        response = client.post(reverse("league:season_create"), {
            "season-name": "Winter", "season-game": "super_showdown",
            "season-starts_on": "2025-01-01", "season-ends_on": "2025-03-01",
            "season-win": "2", "season-draw": "1", "season-loss": "0", "once": "a-token"})
    assert response.status_code == 302, response.content
    assert Season.objects.filter(name="Winter").count() == 1
    assert "Once-token not kept" in caplog.text
    page = client.get(response["Location"]).content.decode()
    assert "Season Winter created." in page


@pytest.mark.django_db(transaction=True)
def test_a_move_is_stored_when_the_bot_reply_cannot_be_queued(
        redis_away: None, settings: Any, client: Client, player: Any,
        caplog: pytest.LogCaptureFixture) -> None:
    """The bot's reply is queued after the move commits; the broker refusing it is logged,
    and the bot sweep queues the seat once the broker is back (`matches.tasks`)."""
    client.force_login(player)
    response = client.post(reverse("quick_play"))  # the bot's first move: in-process
    assert response.status_code == 302, response.content
    match = Match.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[-1]))
    page = client.get(reverse("match_play", args=[match.id])).content.decode()
    found = ACTION_FORM.search(page)
    assert found, "alice has a decision to make"
    action, key = html.unescape(found["action"]), found["key"]
    match.refresh_from_db()
    before, replies = match.seq, bot_decisions(match)

    with broker_away(settings), caplog.at_level(logging.ERROR):
        moved = client.post(reverse("match_act", args=[match.id]),
                            {"action": action, "key": key}, HTTP_HX_REQUEST="true")

    assert moved.status_code == 200 and b"error-banner" not in moved.content
    match.refresh_from_db()
    assert match.seq > before
    assert bot_decisions(match) == replies  # the bot's reply waits for the broker
    assert MatchEvent.objects.filter(match=match, idempotency_key=key).count() == 1
    assert "play_bot_seat" in caplog.text or "Error calling" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_move_is_answered_promptly_while_the_broker_host_hangs(
        redis_away: None, settings: Any, client: Client, player: Any) -> None:
    """The bot's reply is queued after the move commits, in the move's request: a broker
    host that took the connection and never answered held the answer for as long as it
    hung (each of Celery's tries waited on its socket). A try now gives up after
    BROKER_TIMEOUT_SECONDS; the move stands and the sweep queues the reply."""
    client.force_login(player)
    response = client.post(reverse("quick_play"))  # the bot's first move: in-process
    match = Match.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[-1]))
    page = client.get(reverse("match_play", args=[match.id])).content.decode()
    found = ACTION_FORM.search(page)
    assert found, "alice has a decision to make"
    match.refresh_from_db()
    before, replies = match.seq, bot_decisions(match)

    with broker_hanging(settings):
        began = time.monotonic()
        moved = client.post(reverse("match_act", args=[match.id]),
                            {"action": html.unescape(found["action"]), "key": found["key"]},
                            HTTP_HX_REQUEST="true")
        took = time.monotonic() - began

    assert moved.status_code == 200 and b"error-banner" not in moved.content
    assert took < PROMPT, took
    match.refresh_from_db()
    assert match.seq > before and bot_decisions(match) == replies


@pytest.mark.django_db
def test_a_reset_link_asked_for_while_redis_is_away_is_mailed_by_the_sweep_once(
        redis_away: None, settings: Any, client: Client, player: Any) -> None:
    """No mail can be queued, but the ask is owed in the database: the page and the API
    answer as always, the same whoever has the address (they answered 503, which told
    the player to come back), and the sweep mails the link once Redis is back."""
    player.email = "alice@example.org"
    player.save(update_fields=["email"])
    with broker_away(settings):
        page = client.post(reverse("password_forgot"), {"email": "alice@example.org"})
        other = Client().post(reverse("password_forgot"), {"email": "nobody@example.org"})
        api = Client().post("/api/auth/password/reset/", {"email": "alice@example.org"},
                            content_type="application/json")
    assert page.status_code == other.status_code == 200 and api.status_code == 202
    assert "is on its way to it" in page.content.decode()
    assert "is on its way to it" in other.content.decode()
    assert not mail.outbox
    assert mail_password_resets() == 1  # the API's ask joined the page's: one link
    (sent,) = mail.outbox
    assert sent.to == ["alice@example.org"] and "/password/reset/" in sent.body
    assert mail_password_resets() == 0 and not ResetMail.objects.exists()


@pytest.mark.django_db
def test_re_running_scoring_while_redis_is_away_says_it_cannot_start(
        redis_away: None, client: Client, organizer: Any) -> None:
    """The job's progress lives in the cache: nothing is queued, and the bar says why."""
    client.force_login(organizer)
    assert client.get(reverse("league:dashboard")).status_code == 200
    started = client.post(reverse("league:rescore"), HTTP_HX_REQUEST="true")
    assert started.status_code == 200
    assert "Failed: the cache (Redis) that keeps its progress is away" in \
        started.content.decode()
    job = re.search(r'id="rescore-([0-9a-f]+)"', started.content.decode())
    assert job
    polled = client.get(reverse("league:rescore_progress", args=[job[1]]))
    assert polled.status_code == 200 and "is away" in polled.content.decode()


@pytest.mark.django_db
def test_wrong_passwords_are_refused_promptly_while_the_cache_host_hangs(
        cache_hanging: None, player: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Each of a sign-in's uses of the cache (the brake's read, then a count for the name
    and one for the address) waited the cache's whole socket timeout: a wrong password
    took three of them, and every sign-in after it as long. Once a try found the cache
    unreachable, the process stops asking it for CACHE_AWAY_SECONDS."""
    began = time.monotonic()
    with caplog.at_level(logging.WARNING):
        answers = [Client().post(reverse("login"), {"username": "alice", "password": "nope"})
                   for _ in range(3)]
        signed_in = Client().post(reverse("login"),
                                  {"username": "alice", "password": PASSWORD})
    took = time.monotonic() - began
    assert [answer.status_code for answer in answers] == [200, 200, 200]
    assert signed_in.status_code == 302
    assert took < 2 * CACHE_TRY, took  # one try's wait in all
    assert "Sign-in brake off" in caplog.text


@pytest.mark.django_db
def test_the_cache_is_asked_again_once_it_was_given_up_on_long_enough(
        cache_hanging: None, settings: Any) -> None:
    from django.core.cache import cache
    from redis.exceptions import TimeoutError as RedisTimeoutError

    from config.cache_down import CACHE_DOWN, CacheAway

    settings.CACHE_AWAY_SECONDS = 1

    def timed(call: Any) -> tuple[type[BaseException], float]:
        began = time.monotonic()
        with pytest.raises(CACHE_DOWN) as raised:
            call()
        return raised.type, time.monotonic() - began

    kind, took = timed(lambda: cache.get("key"))
    assert kind is RedisTimeoutError and took >= CACHE_TRY * 0.9
    kind, took = timed(lambda: cache.set("key", 1))
    assert kind is CacheAway and took < 0.5  # not asked
    time.sleep(1.1)
    kind, took = timed(lambda: cache.add("key", 1))
    assert kind is RedisTimeoutError and took >= CACHE_TRY * 0.9  # asked again


@pytest.mark.django_db
def test_a_cache_that_refuses_is_asked_again_at_once(redis_away: None) -> None:
    """A refusal costs no wait (Redis stopped or restarting): nothing is given up, so the
    cache is used again as soon as it is back, and a pooled connection it dropped as it
    restarted fails one use, not every use for CACHE_AWAY_SECONDS."""
    from django.core.cache import cache
    from redis.exceptions import ConnectionError as RedisConnectionError

    from config.cache_down import CacheAway

    for _ in range(2):
        with pytest.raises(RedisConnectionError) as raised:
            cache.get("key")
        assert raised.type is not CacheAway
