"""The benchmark runner: `make bench` or `.venv/bin/python -m benchmarks [section ...]`.

Prints figures and ratios; nothing here asserts a time (the machine is shared and noisy).
Sections: playouts, replay, append, bots, balance, events, supershow, rumble, ultimate.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from benchmarks import (
    append,
    engine_speed,
    royal_rumble_bots,
    super_showdown_bots,
    supershow_bots,
    superstar_showdown_balance,
    superstar_showdown_events,
    ultimate_showdown_bots,
)

SECTIONS: dict[str, Callable[[], object]] = {
    "playouts": engine_speed.playouts,
    "replay": engine_speed.replay,
    "append": append.main,
    "bots": lambda: super_showdown_bots.main([]),
    "balance": lambda: superstar_showdown_balance.main([]),
    "events": lambda: superstar_showdown_events.main([]),
    "supershow": lambda: supershow_bots.main([]),
    "rumble": lambda: royal_rumble_bots.main([]),
    "ultimate": lambda: ultimate_showdown_bots.main([]),
}


def main(argv: list[str]) -> None:
    chosen = argv or list(SECTIONS)
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        raise SystemExit(f"unknown section(s) {unknown}; choose from {list(SECTIONS)}")
    for name in chosen:
        print(f"== {name}")
        SECTIONS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
