"""What the shared cache raises while it is away, and the cache that stops asking it.

The sign-in brake, the forms' once-tokens and the dashboard's scoring jobs catch it and
carry on without the cache (README, production: while Redis is away).

A cache host that hangs (it takes the connection and never answers) held each operation
for its socket timeout, and a request or task touching the cache several times (a wrong
password's brake read and two counts, a move's round-score mark after a once-token) waited
that long each time, and every request after it did the same. `RedisCache` stops asking:
once an operation had no answer within the timeout, every operation of the process on
that cache fails at once with `CacheAway` (one of CACHE_DOWN) for CACHE_AWAY_SECONDS; then
the next one asks again. So a request waits at most one timeout, and while the cache
stays away one request in that many seconds does. A refused connection (Redis stopped,
or restarting) costs no wait and gives nothing up: the next operation asks again, and a
pooled connection Redis dropped as it restarted fails one operation, not the next 30 s.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

# What Django's Redis cache raises while Redis is away or refuses (`redis.exceptions`).
CACHE_DOWN = (RedisError,)
# What tells that Redis did not answer in time (to connect, or to a command).
UNANSWERED = (RedisTimeoutError,)


class CacheAway(RedisConnectionError):
    """Redis did not answer a moment ago: not asked again before CACHE_AWAY_SECONDS."""


_lock = threading.Lock()
_away_until: dict[str, float] = {}  # a cache's location: when it may be asked again


def _ask(location: str) -> None:
    """Raise CacheAway while the cache at `location` is given up on."""
    with _lock:
        until = _away_until.get(location, 0.0)
    if time.monotonic() < until:
        raise CacheAway(f"the cache at {location} did not answer a moment ago; asked again "
                        f"in {until - time.monotonic():.0f} s")


def _gone(location: str) -> None:
    with _lock:
        _away_until[location] = time.monotonic() + settings.CACHE_AWAY_SECONDS


def _guarded(name: str) -> Any:
    """Django's `name` operation, asked only while the cache is not given up on."""
    operation = getattr(DjangoRedisCache, name)

    def guarded(self: RedisCache, *args: Any, **kwargs: Any) -> Any:
        _ask(self._location)
        try:
            return operation(self, *args, **kwargs)
        except UNANSWERED:
            _gone(self._location)
            raise

    guarded.__name__ = guarded.__qualname__ = name
    guarded.__doc__ = operation.__doc__
    return guarded


class RedisCache(DjangoRedisCache):
    """Django's Redis cache that stops asking, for a while, a Redis that did not answer."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._location = server

    add = _guarded("add")
    get = _guarded("get")
    set = _guarded("set")
    touch = _guarded("touch")
    delete = _guarded("delete")
    get_many = _guarded("get_many")
    has_key = _guarded("has_key")
    incr = _guarded("incr")
    set_many = _guarded("set_many")
    delete_many = _guarded("delete_many")
    clear = _guarded("clear")
