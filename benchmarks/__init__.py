"""Benchmarks: runners that print figures, never timed tests."""

from __future__ import annotations

import os
from collections.abc import Sequence


def workers() -> int:
    """Processes a benchmark runs on: `BENCH_WORKERS`, else one a core."""
    return int(os.environ.get("BENCH_WORKERS", os.cpu_count() or 1))


def game_and_counts(args: Sequence[str], usage: str,
                    defaults: tuple[int, ...]) -> tuple[str, list[int]]:
    """A command line `GAME [COUNT ...]`: the game key (exit with `usage` and the game
    keys when it is missing or unknown) and each count, its default where not given."""
    from engine import registry

    keys = sorted(registry.games())
    if not args or args[0] not in keys:
        raise SystemExit(f"usage: {usage}; GAME one of {keys}")
    counts = [int(args[i + 1]) if len(args) > i + 1 else d for i, d in enumerate(defaults)]
    return args[0], counts
