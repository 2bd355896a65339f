"""The bots: legal, deterministic, quick, and the heuristic beats random."""

from __future__ import annotations

import random
import time

from engine.bots import RandomBot
from engine.games.supershow import RULES, HeuristicBot
from engine.games.supershow.cards import CATALOG
from engine.protocol import Event, PendingKind
from engine.registry import _BOTS


def play(seed: int, bots, comps) -> tuple[int | None, float]:
    rng = random.Random(seed)
    state = RULES.start({"competitors": list(comps)}, 2)
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
    keys = sorted(CATALOG.competitors)
    wins, slowest, games = 0.0, 0.0, 60
    for seed in range(games):
        comps = (keys[seed % len(keys)], keys[(seed * 7 + 3) % len(keys)])
        seat = seed % 2
        bots = (HeuristicBot(), RandomBot()) if seat == 0 else (RandomBot(), HeuristicBot())
        winner, slow = play(seed, bots, comps)
        wins += 1.0 if winner == seat else 0.5 if winner is None else 0.0
        slowest = max(slowest, slow)
    assert wins / games >= 0.75
    assert slowest < 0.25  # 50 ms on an idle machine; generous for a busy CI box


def test_the_heuristic_is_deterministic_given_the_rng() -> None:
    comps = ("ox_valdane", "mira_quickstep")
    a = play(7, (HeuristicBot(), HeuristicBot()), comps)[0]
    b = play(7, (HeuristicBot(), HeuristicBot()), comps)[0]
    assert a == b


def test_both_bots_are_registered() -> None:
    assert set(_BOTS["supershow"]) == {"random", "heuristic"}


def test_the_heuristic_plays_every_match_type_legally_and_quickly() -> None:
    """Every decision of every match type (drafts included) gets a legal answer."""
    from engine.games.supershow.match import MATCH_TYPES

    for key, mtype in sorted(MATCH_TYPES.items()):
        rng = random.Random(3)
        n = mtype.seats
        bots = [HeuristicBot() if seat % 2 == 0 else RandomBot() for seat in range(n)]
        state = RULES.start({"match_type": key}, n)
        slowest = 0.0
        while not (pending := RULES.pending(state)).is_over:
            if pending.kind is PendingKind.CHANCE:
                event = Event.chance(RULES.sample_chance(state, rng))
            else:
                seat = pending.seats[0]
                began = time.perf_counter()
                action = bots[seat].choose(RULES, state, seat, rng)
                slowest = max(slowest, time.perf_counter() - began)
                assert action in RULES.legal_actions(state, seat), (key, action)
                event = Event.decision(seat, action)
            state = RULES.apply(state, event)
        assert slowest < 0.25, key
