"""Short digests of what a polled page shows, for its poll URL: equal parts, equal text."""

from __future__ import annotations

import hashlib
from typing import Any


def fingerprint(*parts: Any, length: int = 12) -> str:
    """A few hex characters that change whenever `parts` (reprs of plain values) change."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:length]
