"""The bots: legal, deterministic, quick, and the heuristic beats random."""

from __future__ import annotations

import random
import time

from engine.bots import RandomBot
from engine.games.superstar_showdown import RULES, HeuristicBot
from engine.games.superstar_showdown.cards import ROSTER
from engine.protocol import Event, PendingKind
from engine.registry import _BOTS


def play(seed: int, bots, stars) -> tuple[int | None, float]:
    rng = random.Random(seed)
    state = RULES.start({"superstars": list(stars)}, 2)
    slowest = 0.0
    while True:
        pending = RULES.pending(state)
        if pending.kind is PendingKind.END:
            winners = pending.result.winners
            return (winners[0] if winners else None), slowest
        if pending.kind is PendingKind.CHANCE:
            event = Event.chance(RULES.sample_chance(state, rng))
        else:
            seat = pending.seats[0]
            began = time.perf_counter()
            action = bots[seat].choose(RULES, state, seat, rng)
            slowest = max(slowest, time.perf_counter() - began)
            assert action in RULES.legal_actions(state, seat)
            event = Event.decision(seat, action)
        state = RULES.apply(state, event)


def test_the_heuristic_beats_random_in_at_least_75_percent() -> None:
    keys = sorted(ROSTER)
    wins, slowest = 0.0, 0.0
    for seed in range(40):
        stars = (keys[seed % 6], keys[(seed // 6) % 6])
        seat = seed % 2
        bots = (HeuristicBot(), RandomBot()) if seat == 0 else (RandomBot(), HeuristicBot())
        winner, slow = play(seed, bots, stars)
        wins += 1.0 if winner == seat else 0.5 if winner is None else 0.0
        slowest = max(slowest, slow)
    assert wins / 40 >= 0.75
    assert slowest < 0.25  # 50 ms on an idle machine; generous for a busy CI box


def test_the_heuristic_is_deterministic_given_the_rng() -> None:
    stars = ("oakhart", "skylark")
    a = play(7, (HeuristicBot(), HeuristicBot()), stars)[0]
    b = play(7, (HeuristicBot(), HeuristicBot()), stars)[0]
    assert a == b


def test_both_bots_are_registered() -> None:
    assert set(_BOTS["superstar_showdown"]) == {"random", "heuristic"}
