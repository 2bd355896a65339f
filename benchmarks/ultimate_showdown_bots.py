"""Ultimate Showdown: heuristic bots against random bots over 500 seeded games.

Run from the project root: `.venv/bin/python -m benchmarks.ultimate_showdown_bots [GAMES]`.
Game i seats 3 + i % 6 players, half of them heuristic (which half alternates), and uses
`random.Random(i)` for the shuffles and every bot. Prints the mean score of each kind of
seat; the heuristic should score more on average.
"""

from __future__ import annotations

import random
import sys
from statistics import mean

from engine.bots import Bot, RandomBot
from engine.games.ultimate_showdown import RULES, HeuristicBot
from engine.playout import play_match

GAMES = 500


def play(games: int) -> dict[str, list[float]]:
    """Final scores of every heuristic and every random seat, and heuristic win shares."""
    scores: dict[str, list[float]] = {"heuristic": [], "random": [], "wins": []}
    for seed in range(games):
        n = 3 + seed % 6
        heuristic = {s for s in range(n) if (s + seed) % 2 == 0}
        bots: list[Bot] = [HeuristicBot() if s in heuristic else RandomBot() for s in range(n)]
        state, _ = play_match(RULES, bots, random.Random(seed))
        result = RULES.result(state)
        assert result is not None
        for seat in range(n):
            kind = "heuristic" if seat in heuristic else "random"
            scores[kind].append(result.figures[seat]["score"])
        scores["wins"].append(sum(w in heuristic for w in result.winners) / len(result.winners))
    return scores


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the mean scores; exit 1 if the heuristic does not lead."""
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else GAMES
    scores = play(games)
    h, r = mean(scores["heuristic"]), mean(scores["random"])
    print(f"ultimate_showdown: heuristic vs random, {games} games of 3-8 players")
    print(f"  mean score heuristic {h:.2f}  random {r:.2f}")
    print(f"  games won by a heuristic seat {mean(scores['wins']):.1%}")
    print(f"  {'ok' if h > r else 'BELOW'}")
    return 0 if h > r else 1


if __name__ == "__main__":
    raise SystemExit(main())
