"""Super Showdown: the heuristic bot against the random bot over 400 seeded games.

Run from the project root: `.venv/bin/python -m benchmarks.super_showdown_bots [GAMES]`.
Seats alternate game by game; game i uses `random.Random(i)` for the deal, the dice and
both bots. The target is a win rate of at least 70%.
"""

from __future__ import annotations

import random
import sys
from collections import Counter

from engine.bots import Bot, RandomBot
from engine.games.super_showdown import RULES, HeuristicBot
from engine.playout import play_match

GAMES = 400
TARGET = 0.70


def play(games: int) -> Counter[str]:
    """Outcomes from the heuristic's side: win, loss or draw, and as Hero or Villain."""
    tally: Counter[str] = Counter()
    for seed in range(games):
        me = seed % 2
        bots: list[Bot] = [RandomBot(), RandomBot()]
        bots[me] = HeuristicBot()
        state, _ = play_match(RULES, bots, random.Random(seed))
        result = RULES.result(state)
        assert result is not None
        outcome = "draw" if result.draw else ("win" if result.winners == (me,) else "loss")
        role = "hero" if state.games[-1].hero == me else "villain"
        tally[outcome] += 1
        tally[f"{outcome}_as_{role}"] += 1
    return tally


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the heuristic's win rate; exit 1 below the target."""
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else GAMES
    tally = play(games)
    rate = tally["win"] / games
    print(f"super_showdown: heuristic vs random, {games} games, seats alternated")
    print(f"  wins {tally['win']}  losses {tally['loss']}  draws {tally['draw']}")
    for role in ("hero", "villain"):
        print(f"  as {role}: wins {tally[f'win_as_{role}']}  losses {tally[f'loss_as_{role}']}"
              f"  draws {tally[f'draw_as_{role}']}")
    print(f"  win rate {rate:.1%} (target {TARGET:.0%}): {'ok' if rate >= TARGET else 'BELOW'}")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
