"""The bots: legal, deterministic, and the heuristic beats random (speed: benchmarks)."""

from __future__ import annotations

import random

from engine.bots import RandomBot
from engine.games.superstar_showdown import RULES, HeuristicBot
from engine.games.superstar_showdown.cards import ROSTER
from engine.playout import play_match
from engine.registry import _BOTS


def play(seed: int, bots, stars) -> int | None:
    """One seeded game; the winning seat, or None for a draw."""
    state, _ = play_match(RULES, bots, random.Random(seed), {"superstars": list(stars)})
    winners = RULES.result(state).winners
    return winners[0] if winners else None


def test_the_heuristic_beats_random_in_at_least_75_percent() -> None:
    keys = sorted(ROSTER)
    wins = 0.0
    for seed in range(40):
        stars = (keys[seed % 6], keys[(seed // 6) % 6])
        seat = seed % 2
        bots = (HeuristicBot(), RandomBot()) if seat == 0 else (RandomBot(), HeuristicBot())
        winner = play(seed, bots, stars)
        wins += 1.0 if winner == seat else 0.5 if winner is None else 0.0
    assert wins / 40 >= 0.75


def test_the_heuristic_is_deterministic_given_the_rng() -> None:
    stars = ("oakhart", "skylark")
    runs = [play_match(RULES, (HeuristicBot(), HeuristicBot()), random.Random(7),
                       {"superstars": list(stars)})[1] for _ in range(2)]
    assert runs[0] == runs[1]


def test_both_bots_are_registered() -> None:
    assert set(_BOTS["superstar_showdown"]) == {"random", "heuristic", "search-easy",
                                                "search-hard"}


def _play_step(seed: int, phase: str = "play", nth: int = 3):
    """A heuristic game played on to its `nth` decision at `phase` with more than one
    legal action (by default the second round's Play step, both seats to play), on the
    next seed when the game ends before it (a Pin can end it in the first round)."""
    from engine.protocol import Event, PendingKind

    rng, bots = random.Random(seed), (HeuristicBot(), HeuristicBot())
    state, seen = RULES.start({}, 2), 0
    while True:
        pending = RULES.pending(state)
        if pending.is_over:
            return _play_step(seed + 100, phase, nth)
        if pending.kind is PendingKind.CHANCE:
            state = RULES.apply(state, Event.chance(RULES.sample_chance(state, rng)))
            continue
        seat = pending.seats[0]
        if state.phase == phase and len(RULES.legal_actions(state, seat)) > 1:
            seen += 1
            if seen == nth:
                return state
        state = RULES.apply(state, Event.decision(seat, bots[seat].choose(RULES, state, seat,
                                                                          rng)))


def test_the_shortlist_of_a_play_step_is_the_bots_choice_then_its_next_best_trios() -> None:
    """The search's challengers at the Play step (engine.bots.Ranking): distinct legal
    trios, best first, the first being what the bot plays; nothing at other steps."""
    bot = HeuristicBot()
    for seed in range(3):
        state = _play_step(seed)
        for seat in (0, 1):
            legal = RULES.legal_actions(state, seat)
            short = bot.shortlist(RULES, state, seat, random.Random(seed), 6)
            assert len(short) == 6 and all(a in legal for a in short)
            assert len({tuple(a["cards"]) for a in short}) == 6
            assert short[0] == bot.choose(RULES, state, seat, random.Random(seed + 9))
    from engine.protocol import Event
    state = _play_step(0)
    after = RULES.apply(state, Event.decision(0, RULES.legal_actions(state, 0)[0]))
    assert bot.shortlist(RULES, after, 0, random.Random(0), 6) == []  # already played
    hit = _play_step(0, "hit", 1)
    assert bot.shortlist(RULES, hit, RULES.pending(hit).seats[0], random.Random(0), 6) == []
