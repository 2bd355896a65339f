"""Signing in with a brake on password guessing.

After FAILURES wrong passwords for one username within WINDOW seconds, that username
cannot sign in (even with the right password) until the window has passed since the first
of them. The count lives in the cache, which production shares between web processes
(CACHE_URL). The login page and the API's token endpoint both go through the backend.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache

FAILURES = 10
WINDOW = 15 * 60
LOCKED_OUT = (f"Too many wrong passwords for this name: try again in {WINDOW // 60} "
              "minutes.")


def _key(username: str) -> str:
    return "signin-failures:" + hashlib.sha256(username.casefold().encode()).hexdigest()


def locked_out(username: str | None) -> bool:
    """Whether `username` has used up its wrong passwords for now."""
    return bool(username) and cache.get(_key(username or ""), 0) >= FAILURES


class ThrottledModelBackend(ModelBackend):
    """Django's own backend, refusing a locked-out username and counting failures."""

    def authenticate(self, request: Any, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> Any:
        if locked_out(username):
            return None
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and username:
            key = _key(username)
            cache.add(key, 0, WINDOW)
            try:
                cache.incr(key)
            except ValueError:  # expired between the two calls
                cache.add(key, 1, WINDOW)
        return user
