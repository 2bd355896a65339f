"""How much can playout search take from the heuristic? A bound, not a bot.

`.venv/bin/python -m benchmarks.search_bound GAME [MATCHES] [ITERATIONS]` (two-seat
games; defaults 100 matches and 200 playouts a decision; `BENCH_WORKERS` processes).

The searcher is search-hard's search (the game's heuristic as policy, its playout depth,
leaf value and width, `ITERATIONS` playouts a decision) with one difference: it does not
determinize. It searches the true state, so it knows the rival's hand and every deck
order (not the dice to come), which no seat may know. It plays the heuristic over
MATCHES seeded matches, seats alternated. What it takes above 50% is about as much as
search on these playouts can find in the game: the real bot, which samples what it
cannot see, can hardly do better. A bound near 50% says the heuristic's choices are as good
as its own playouts can tell, and a stronger bot needs a better evaluation, not more
playouts.
"""

from __future__ import annotations

import random
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from benchmarks import game_and_counts, workers
from benchmarks.ladder import scored
from engine import registry
from engine.bots.ismcts import SearchBot
from engine.bots.levels import HARD
from engine.playout import play_match
from engine.protocol import BaseRules
from league.intervals import wilson


class Clairvoyant(SearchBot):
    """Search-hard's search over the true state instead of sampled ones."""

    @staticmethod
    def _world(rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> Any:
        return state


def searcher(game: str, iterations: int) -> SearchBot:
    """Search-hard of `game` on `iterations` playouts a decision, searching the true state."""
    level = replace(registry.search_levels(game)[HARD], iterations=iterations)
    return level.bot("clairvoyant", lambda: registry.get_bot(game, "heuristic"),
                     kind=Clairvoyant)


def points(job: tuple[str, int, int]) -> float:
    """Match `seed`: the clairvoyant searcher's points (`benchmarks.ladder.scored`) in
    seat seed % 2 against the heuristic."""
    game, iterations, seed = job
    me = seed % 2
    bots = [registry.get_bot(game, "heuristic") for _ in range(2)]
    bots[me] = searcher(game, iterations)
    rules = registry.get_rules(game)
    state, _ = play_match(rules, bots, random.Random(seed))
    result = rules.pending(state).result
    assert result is not None
    return scored(result, me, 2)[0]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    game, (matches, iterations) = game_and_counts(
        args, "search_bound GAME [MATCHES] [ITERATIONS]", (100, 200))
    with ProcessPoolExecutor(workers()) as pool:
        total = sum(pool.map(points, [(game, iterations, i) for i in range(matches)]))
    low, high = wilson(total, matches)
    print(f"{game}: clairvoyant search ({iterations} playouts a decision) against the "
          f"heuristic: {total / matches:.1%} [{low:.1%}, {high:.1%}] of {matches}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
