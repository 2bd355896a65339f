"""Signing in with a brake on password guessing.

After FAILURES wrong passwords for one username from one address within WINDOW seconds,
that username cannot sign in from that address (even with the right password) until the
window has passed since the first of them; and an address that gave ADDRESS_FAILURES
wrong passwords, for whatever names, cannot sign in at all for as long. So a rival who
guesses at a player's name locks only themselves out, not the player, and one address
cannot work through the whole list of names. The counts live in the cache, which
production shares between web processes (CACHE_URL). The login page and the API's token
endpoint both go through the backend.

The address is the connection's, or behind the TLS proxy (DJANGO_BEHIND_TLS_PROXY) the
last one X-Forwarded-For names: the one the proxy itself appended, which a client cannot
forge (the earlier ones it can).

While the cache is away (Redis down), the brake lets every attempt through, each with a
logged warning: signing in then rests on the passwords alone for that time, rather than
nobody signing in at all (the counts cannot be kept anywhere the web processes share).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache

from config.cache_down import CACHE_DOWN

log = logging.getLogger(__name__)

FAILURES = 10
ADDRESS_FAILURES = 50
WINDOW = 15 * 60
LOCKED_OUT = f"Too many wrong passwords from here: try again in {WINDOW // 60} minutes."


def client_address(request: Any) -> str:
    """Where the request comes from, as far as this site can tell (module docstring)."""
    meta = getattr(request, "META", {}) or {}
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if settings.BEHIND_TLS_PROXY and forwarded.strip():
        return forwarded.split(",")[-1].strip()
    return str(meta.get("REMOTE_ADDR", ""))


def digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _keys(username: str, request: Any) -> tuple[str, str]:
    """The count of the name from this address, and the count of the address."""
    address = client_address(request)
    return ("signin-failures:" + digest(username.casefold(), address),
            "signin-failures-from:" + digest(address))


def locked_out(username: str | None, request: Any) -> bool:
    """Whether `username` has used up its wrong passwords for now, from where `request`
    comes, or that address has used up its own."""
    if not username:
        return False
    name, address = _keys(username, request)
    try:
        return cache.get(name, 0) >= FAILURES or cache.get(address, 0) >= ADDRESS_FAILURES
    except CACHE_DOWN as exc:
        log.warning("Sign-in brake off (cache away: %s): the attempt is let through", exc)
        return False


def forget(username: str, request: Any) -> None:
    """Clear the wrong passwords counted against `username` from where `request` comes:
    its owner just proved who they are (a reset link); the address's own count stays."""
    try:
        cache.delete(_keys(username, request)[0])
    except CACHE_DOWN as exc:
        log.warning("Sign-in brake off (cache away: %s): a count was not cleared", exc)


def count(key: str, window: int = WINDOW) -> int:
    """One more at `key`, counted for `window` seconds from the first; the count now (0
    while the cache is away: nothing is counted, every brake lets it through)."""
    try:
        cache.add(key, 0, window)
        try:
            return int(cache.incr(key))
        except ValueError:  # expired between the two calls
            cache.add(key, 1, window)
            return 1
    except CACHE_DOWN as exc:
        log.warning("Brake off (cache away: %s): %s is not counted", exc, key.split(":")[0])
        return 0


class ThrottledModelBackend(ModelBackend):
    """Django's own backend, refusing a locked-out username and counting failures."""

    def authenticate(self, request: Any, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> Any:
        if locked_out(username, request):
            return None
        if username:
            # The account so called ignoring case, as every other form reads "ALICE" as
            # alice (sign-up keeps names unique ignoring case): a phone's keyboard
            # capitals the first letter of the name typed.
            from matches.services import user_named

            found = user_named(username, active_only=False)
            username = found.get_username() if found is not None else username
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and username:
            for key in _keys(username, request):
                count(key)
        return user
