"""What the shared cache raises while it is away.

The sign-in brake, the forms' once-tokens and the dashboard's scoring jobs catch it and
carry on without the cache (README, production: while Redis is away)."""

from __future__ import annotations

from redis.exceptions import RedisError

# What Django's Redis cache raises while Redis is away or refuses (`redis.exceptions`).
CACHE_DOWN = (RedisError,)
