"""Bots: legal, fast, deterministic, and the heuristic beats random bots (a small sample
here; `benchmarks/royal_rumble_bots.py` runs the full measure)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from engine import registry
from engine.bots import RandomBot
from engine.games.royal_rumble import RULES, HeuristicBot
from engine.games.royal_rumble.bots import round_depth, two_seat_budget
from engine.games.royal_rumble.state import Phase
from engine.playout import play_match
from engine.protocol import Event, PendingKind

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from rr_helpers import Table, decider, names

from benchmarks.royal_rumble_bots import play_game, win_rate


def test_the_game_offers_random_and_heuristic_bots() -> None:
    assert {"random", "heuristic"} <= set(registry._BOTS["royal_rumble"])
    assert isinstance(registry._BOTS["royal_rumble"]["heuristic"](), HeuristicBot)


def test_the_heuristic_is_legal_and_deterministic_at_ten_seats() -> None:
    rng = random.Random(5)
    bots = [HeuristicBot() if i % 2 == 0 else RandomBot() for i in range(10)]
    state = RULES.start({}, 10)
    steps = 0
    while not (pending := RULES.pending(state)).is_over and steps < 400:
        if pending.kind == "chance":
            state = RULES.apply(state, Event.chance(RULES.sample_chance(state, rng)))
            continue
        seat = pending.seats[0]
        action = bots[seat].choose(RULES, state, seat, rng)
        assert action in RULES.legal_actions(state, seat)
        if isinstance(bots[seat], HeuristicBot):
            again = HeuristicBot().choose(RULES, state, seat, random.Random(steps))
            assert again == HeuristicBot().choose(RULES, state, seat, random.Random(steps))
        state = RULES.apply(state, Event.decision(seat, action))
        steps += 1


def test_six_heuristic_bots_play_down_to_the_last_legend_standing() -> None:
    """Eliminations end the game, not the round limit: one winner, six distinct places."""
    state = play_game([HeuristicBot() for _ in range(6)], random.Random(2))
    result = RULES.pending(state).result
    assert result is not None
    assert state.end_reason == "last_standing" and state.round < state.round_limit
    assert sorted(result.placements) == [1, 2, 3, 4, 5, 6]
    assert result.winners == (result.placements.index(1),) and not result.draw


def test_the_heuristic_wins_more_than_its_fair_share_against_random_bots() -> None:
    """A small sample (the benchmark's bar is twice the fair share, 1/3, over 300 games)."""
    assert win_rate(36) > 1 / 6


GUARDS = ["Duck Under", "Leg Catch", "Full Evasion", "Holding On", "Ref's Eye", "Ref's Eye"]


def _breather_kept(legends: list[str]) -> list[str]:
    """Seat 0 holds six guards and no Attack: what its heuristic keeps through the
    breather it must take."""
    state = Table().build(legends, {0: GUARDS})
    bot = HeuristicBot()
    assert RULES.legal_actions(state, 0) == [{"type": "breather"}]
    while decider(state) == 0 and state.phase == "plan":
        state = RULES.apply(state, Event.decision(0, bot.choose(RULES, state, 0,
                                                                random.Random(1))))
    return sorted(names(state, state.players[0].hand))


def test_in_a_duel_a_hand_of_guards_is_thinned_to_draw_attacks() -> None:
    """Two heuristics holding nothing but Defense cards used to breathe forever; in a
    duel it keeps its three best guards (widest Defense first) and draws the rest anew."""
    assert _breather_kept(["ironhide", "vesper"]) == ["Duck Under", "Full Evasion",
                                                      "Leg Catch"]


def test_with_several_rivals_the_guards_are_all_kept() -> None:
    """Among several rivals, hiding behind a full hand of guards pays off (others knock
    each other out): it discards nothing."""
    assert _breather_kept(["ironhide", "vesper", "rook", "ember"]) == sorted(GUARDS)


def test_heuristic_duels_end_before_a_generous_round_limit() -> None:
    """RR-14: with no stalemate, 20 seeded two-seat heuristic games all end by
    elimination well inside 200 rounds (about 3 in 10 ran to it before)."""
    for seed in range(20):
        state, _ = play_match(RULES, [HeuristicBot(), HeuristicBot()], random.Random(seed),
                              {"round_limit": 200})
        assert state.end_reason != "round_limit", seed
        assert state.round < 100, seed


def _decisions_to_the_attack_step(seats: int, seed: int) -> tuple[int, int]:
    """From the start of round 3 of a heuristic game: the search's playout depth there,
    and the decisions taken before the round's Attack step begins."""
    rng, bot = random.Random(seed), HeuristicBot()
    state, depth, taken = RULES.start({}, seats), None, 0
    while True:
        pending = RULES.pending(state)
        assert pending.kind is not PendingKind.END
        if pending.kind is PendingKind.CHANCE:
            state = RULES.apply(state, Event.chance(RULES.sample_chance(state, rng)))
            continue
        if depth is None and state.round == 3 and state.phase is Phase.PLAN:
            depth = round_depth(state)
        if depth is not None and state.phase is Phase.ATTACK:
            return depth, taken
        seat = pending.seats[0]
        state = RULES.apply(state, Event.decision(seat, bot.choose(RULES, state, seat, rng)))
        taken += depth is not None


def test_a_search_playout_reads_its_leaf_past_the_plan_step() -> None:
    """Search levels: a playout cut short is valued once the round's attacks land. At a
    fixed 8 decisions it stopped inside the Plan step from four seats on, where an attack
    is only a card gone from the hand, and tables of search bots kept to breathers."""
    for seats in (2, 4, 6, 10):
        for seed in range(3):
            depth, planning = _decisions_to_the_attack_step(seats, seed)
            assert depth > planning, (seats, seed)
            if seats >= 4:
                assert planning > 8
        # Fewer playouts in proportion: a decision's work stays that of two seats.
        state = RULES.start({}, seats)
        assert abs(round_depth(state) * two_seat_budget(state) - 8) < 1e-9
