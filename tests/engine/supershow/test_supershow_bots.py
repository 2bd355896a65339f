"""The bots: legal, deterministic, and the heuristic beats random (speed: benchmarks)."""

from __future__ import annotations

import random

from engine.bots import RandomBot
from engine.games.supershow import RULES, HeuristicBot
from engine.games.supershow.cards import CATALOG
from engine.playout import play_match
from engine.protocol import Event, PendingKind
from engine.registry import _BOTS


def play(seed: int, bots, comps) -> int | None:
    """One seeded game; the winning seat, or None for a draw."""
    state, _ = play_match(RULES, bots, random.Random(seed), {"competitors": list(comps)})
    winners = RULES.result(state).winners
    return winners[0] if winners else None


def test_the_heuristic_beats_random_in_at_least_75_percent() -> None:
    keys = sorted(CATALOG.competitors)
    wins, games = 0.0, 60
    for seed in range(games):
        comps = (keys[seed % len(keys)], keys[(seed * 7 + 3) % len(keys)])
        seat = seed % 2
        bots = (HeuristicBot(), RandomBot()) if seat == 0 else (RandomBot(), HeuristicBot())
        winner = play(seed, bots, comps)
        wins += 1.0 if winner == seat else 0.5 if winner is None else 0.0
    assert wins / games >= 0.75


def test_the_heuristic_is_deterministic_given_the_rng() -> None:
    comps = ("ox_valdane", "mira_quickstep")
    runs = [play_match(RULES, (HeuristicBot(), HeuristicBot()), random.Random(7),
                       {"competitors": list(comps)})[1] for _ in range(2)]
    assert runs[0] == runs[1]


def test_both_bots_are_registered() -> None:
    assert set(_BOTS["supershow"]) == {"random", "heuristic", "search-easy", "search-hard"}


def test_the_heuristic_plays_every_match_type_legally_and_quickly() -> None:
    """Every decision of every match type (drafts included) gets a legal answer."""
    from engine.games.supershow.match import MATCH_TYPES

    for key, mtype in sorted(MATCH_TYPES.items()):
        rng = random.Random(3)
        n = mtype.seats
        bots = [HeuristicBot() if seat % 2 == 0 else RandomBot() for seat in range(n)]
        state = RULES.start({"match_type": key}, n)
        while not (pending := RULES.pending(state)).is_over:
            if pending.kind is PendingKind.CHANCE:
                event = Event.chance(RULES.sample_chance(state, rng))
            else:
                seat = pending.seats[0]
                action = bots[seat].choose(RULES, state, seat, rng)
                assert action in RULES.legal_actions(state, seat), (key, action)
                event = Event.decision(seat, action)
            state = RULES.apply(state, event)
