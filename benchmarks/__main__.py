"""The benchmark runner: `make bench` or `.venv/bin/python -m benchmarks [section ...]`.

Prints figures and ratios; nothing here asserts a time (the machine is shared and noisy).
Sections: playouts, replay, append, bots, balance, events, supershow, rumble, ultimate;
and some that run only when named: `ladder [MATCHES]`, the bot-strength ladder (about an
hour at its default 60 matches a pairing on two cores), and `scale [MATCHES]`, simulation
jobs on one and two Celery workers and worker memory over a 10,000-match job (needs
PostgreSQL and Redis; run it on a quiet machine), and `league_night [PLAYERS]`, a served
Event of PLAYERS people whose pages poll and play for a minute (PostgreSQL and Redis), and
`big_event [ENTRANTS]`, a Swiss of ENTRANTS (default 128) played through in the process:
its writes, replays and pages (PostgreSQL).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from benchmarks import (
    append,
    big_event,
    engine_speed,
    ladder,
    league_night,
    royal_rumble_bots,
    scale,
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
# Sections that take arguments (`ladder 40`) and run only when named.
ON_REQUEST: dict[str, Callable[[list[str]], object]] = {
    "ladder": ladder.main,
    "scale": scale.main,
    "league_night": league_night.main,
    "big_event": big_event.main,
}


def main(argv: list[str]) -> None:
    chosen = [name for name in argv if not name.isdigit()] or list(SECTIONS)
    numbers = [arg for arg in argv if arg.isdigit()]
    unknown = [name for name in chosen if name not in SECTIONS and name not in ON_REQUEST]
    if unknown:
        raise SystemExit(f"unknown section(s) {unknown}; choose from "
                         f"{[*SECTIONS, *ON_REQUEST]}")
    for name in chosen:
        print(f"== {name}")
        if name in ON_REQUEST:
            ON_REQUEST[name](numbers)
        else:
            SECTIONS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
