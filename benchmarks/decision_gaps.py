"""What one better decision is worth: the heuristic's choices against every alternative.

`.venv/bin/python -m benchmarks.decision_gaps GAME [GAMES] [PLAYOUTS] [--true-state]`
(two-seat games; defaults 4 games and 100 playouts; `BENCH_WORKERS` processes).

It plays GAMES seeded heuristic-against-heuristic matches and stops at every decision
with a choice. There every legal action is played out PLAYOUTS times on worlds the
deciding seat could be in (`rules.determinize`: only what it may know), each world and
chance seed shared by all the actions (paired), the heuristic playing on for both seats.
The best action is then measured again against the heuristic's own choice on 2 x
PLAYOUTS fresh worlds, so the gain printed is not the winner's luck of the first round.

Summed over a match's decisions, the gains say how much a search that could tell the
actions apart (a one-step improvement of the heuristic, which is what playouts with the
heuristic as policy can find) would take from it, and the playouts it took to tell them
apart say whether a decision's time budget can afford that.

With `--true-state` the playouts start from the match's true state instead (the rival's
hand and every deck order known, the dice not): a seat that knew all that could gain as
much, and the seat that does not can gain no more, so the sum is about a ceiling on what
a one-step improvement of the heuristic can take.
"""

from __future__ import annotations

import math
import random
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from benchmarks import game_and_counts, workers
from benchmarks.search_bound import Clairvoyant
from engine import registry
from engine.bots.ismcts import SearchBot, action_key
from engine.playout import play_match
from engine.protocol import JSON, Event, EventKind

FIRST_SEED = 5000  # away from the ladder's seeds


@dataclass(frozen=True)
class Gap:
    """One decision: its kind, how many actions, whether the heuristic's was the best
    of the first round, and the best's validated gain over it (mean, standard error)."""

    kind: str
    actions: int
    heuristic_best: bool
    gain: float
    error: float
    playouts: int


def decisions(job: tuple[str, int]) -> list[tuple[Any, int, JSON]]:
    """The decisions with a choice of one heuristic match: (state, seat, its choice)."""
    game, seed = job
    rules = registry.get_rules(game)
    out: list[tuple[Any, int, JSON]] = []

    def note(state: Any, event: Event) -> None:
        if event.kind is EventKind.DECISION and event.seat is not None and len(
                rules.legal_actions(state, event.seat)) > 1:
            assert event.action is not None
            out.append((state, event.seat, event.action))

    bots = [registry.get_bot(game, "heuristic") for _ in range(2)]
    play_match(rules, bots, random.Random(seed), on_event=note)
    return out


def paired(game: str, state: Any, seat: int, actions: list[JSON], playouts: int,
           rng: random.Random, true_state: bool = False) -> list[list[float]]:
    """Each action's rewards over `playouts` shared worlds and chance seeds (the true
    state itself for every world with `true_state`)."""
    rules = registry.get_rules(game)
    kind = Clairvoyant if true_state else SearchBot  # whose worlds: the state's or sampled
    bot = kind(policy=lambda: registry.get_bot(game, "heuristic"))
    rewards: list[list[float]] = [[] for _ in actions]
    for _ in range(playouts):
        seed = rng.getrandbits(48)
        world = bot._world(rules, state, seat, random.Random(seed))
        for i, action in enumerate(actions):
            rewards[i].append(bot.playout(rules, world, seat, action, seed))
    return rewards


def gap(job: tuple[str, Any, int, JSON, int, int, bool]) -> Gap:
    """Select the best action on PLAYOUTS paired playouts, then measure it anew."""
    game, state, seat, chosen, playouts, seed, true_state = job
    rules = registry.get_rules(game)
    legal = rules.legal_actions(state, seat)
    mine = [action_key(a) for a in legal].index(action_key(chosen))
    rng = random.Random(seed)
    first = paired(game, state, seat, legal, playouts, rng, true_state)
    best = max(range(len(legal)), key=lambda i: (sum(first[i]), i == mine))
    spent = playouts * len(legal)
    if best == mine:
        return Gap(chosen["type"], len(legal), True, 0.0, 0.0, spent)
    again = paired(game, state, seat, [legal[best], chosen], 2 * playouts, rng, true_state)
    gains = [b - h for b, h in zip(*again, strict=True)]
    n = len(gains)
    mean = sum(gains) / n
    error = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n)
    return Gap(chosen["type"], len(legal), False, mean, error, spent + 2 * n)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    true_state = "--true-state" in args
    game, (games, playouts) = game_and_counts(
        [a for a in args if a != "--true-state"],
        "decision_gaps GAME [GAMES] [PLAYOUTS] [--true-state]", (4, 100))
    with ProcessPoolExecutor(workers()) as pool:
        found = [d for ds in pool.map(decisions, [(game, FIRST_SEED + i) for i in range(games)])
                 for d in ds]
        jobs = [(game, s, seat, a, playouts, i, true_state)
                for i, (s, seat, a) in enumerate(found)]
        gaps = list(pool.map(gap, jobs, chunksize=1))
    total = sum(g.gain for g in gaps)
    error = math.sqrt(sum(g.error ** 2 for g in gaps))
    worlds = "the true state" if true_state else "worlds the seat could be in"
    print(f"{game}: {len(gaps)} decisions with a choice over {games} heuristic matches, "
          f"{playouts} paired playouts an action from {worlds}, the best measured again "
          f"on {2 * playouts}")
    print(f"  validated gain of the best action over the heuristic's, summed over a match: "
          f"{total / games:+.3f} (standard error {error / games:.3f})")
    kinds: dict[str, list[Gap]] = defaultdict(list)
    for g in gaps:
        kinds[g.kind].append(g)
    for kind, group in sorted(kinds.items()):
        clear = sum(1 for g in group if g.gain > 2 * g.error > 0)
        print(f"  {kind:>10}: {len(group):4d} decisions, {sum(g.actions for g in group) / len(group):5.1f} "
              f"actions on average, heuristic's best in {sum(g.heuristic_best for g in group):4d}, "
              f"a gain above 2 standard errors in {clear:3d}, mean gain {sum(g.gain for g in group) / len(group):+.4f}")
    spent = sum(g.playouts for g in gaps) / len(gaps) if gaps else 0.0
    print(f"  playouts spent to tell the actions apart: {spent:.0f} a decision on average")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
