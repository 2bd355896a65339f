"""The bots: legal, deterministic, view-only, quick, and the heuristic out-scores random."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.bots import RandomBot
from engine.games.ultimate_showdown import RULES, HeuristicBot
from engine.games.ultimate_showdown.bots import stage_odds
from engine.games.ultimate_showdown.state import Phase, pairing
from engine.playout import play_match
from engine.protocol import Event


def test_the_package_registers_the_game_with_random_and_heuristic_bots():
    assert registry._GAMES["ultimate_showdown"] is RULES
    assert sorted(registry._BOTS["ultimate_showdown"]) == ["heuristic", "random", "search-easy",
                                                           "search-hard"]


def test_heuristic_seats_out_score_random_seats_on_a_small_sample():
    """The benchmark plays 500 games; 12 here, at 3-8 players."""
    from benchmarks.ultimate_showdown_bots import play

    scores = play(12)
    assert sum(scores["heuristic"]) / len(scores["heuristic"]) > \
        sum(scores["random"]) / len(scores["random"])


def test_the_heuristic_is_deterministic_given_its_rng():
    bots = [HeuristicBot() for _ in range(4)]
    assert play_match(RULES, bots, random.Random(7)) == play_match(RULES, bots, random.Random(7))


def test_the_heuristic_decides_from_the_view_only(ut):
    state = ut.to_bets(4)
    bot = HeuristicBot()
    real = bot.choose(RULES, state, 0, random.Random(3))
    for seed in range(8):
        guess = RULES.determinize(state, 0, random.Random(seed))
        assert bot.choose(RULES, guess, 0, random.Random(3)) == real


def test_the_heuristic_votes_for_the_better_fit_and_plays_its_best_into_box_a(ut):
    state = ut.vote_challenge(ut.sides(ut.fresh(4)), ["A"] * 4)
    challenge = RULES.challenge_of(state.challenge)
    action = HeuristicBot().choose(RULES, state, 0, random.Random(0))
    fits = sorted(state.hands[0], key=lambda c: -challenge.fit(RULES.cards.contenders[c]))
    best = challenge.fit(RULES.cards.contenders[fits[0]])
    assert challenge.fit(RULES.cards.contenders[action["box_a"][0]]) == best
    match = ut.bet_all(ut.to_bets(4), ut.default_bets(4))
    challenge = RULES.challenge_of(match.challenge)
    a, b = (challenge.fit(RULES.cards.contenders[match.slots[i]]) for i in (0, 1))
    vote = HeuristicBot().choose(RULES, match, 2, random.Random(0))
    if a != b:
        assert vote["slot"] == (1 if a > b else 2)


@pytest.mark.parametrize("n", [3, 8])
def test_the_heuristic_plays_only_legal_moves_to_the_end(n):
    rng = random.Random(n)
    state = RULES.start({}, n)
    bot = HeuristicBot()
    while not (pending := RULES.pending(state)).is_over:
        if pending.kind == "chance":
            state = RULES.apply(state, Event.chance(
                RULES.sample_chance(state, rng)))
            continue
        seat = pending.seats[0]
        action = bot.choose(RULES, state, seat, rng)
        assert action in RULES.legal_actions(state, seat)
        state = RULES.apply(state, Event.decision(
            seat, action))
    assert state.phase is Phase.OVER


def test_random_bot_plays_a_whole_game():
    """Five rounds, each round's points in the total, and places that follow the totals
    (nobody ties for first in this match, so no sudden death reorders them)."""
    state, _ = play_match(RULES, [RandomBot() for _ in range(5)], random.Random(1))
    result = RULES.result(state)
    assert result is not None and len(state.history) == 5
    scores = [result.figures[seat]["score"] for seat in range(5)]
    assert scores == [sum(result.figures[seat][f"round_{r}"] for r in range(1, 6))
                      for seat in range(5)]
    assert not any(result.figures[seat]["won_sudden_death"] for seat in range(5))
    for seat in range(5):
        assert result.placements[seat] == 1 + sum(other > scores[seat] for other in scores)


def test_the_better_fit_wins_every_match_at_a_heuristic_table():
    """What the search's leaf model is calibrated on (`_BETTER_FIT_WINS`): heuristic
    voters send the better fit through whenever the fits differ."""
    unequal = 0
    for seed in range(6):
        state, _ = play_match(RULES, [HeuristicBot() for _ in range(4)], random.Random(seed))
        for record in state.history:
            side = RULES.challenge_of(record.challenge)
            fit = {i: side.fit(RULES.cards.contenders[c])
                   for i, c in enumerate(record.slots, 1)}
            for match, winner in enumerate(record.winners):
                orange, blue = pairing(match, record.winners[:match])
                if fit[orange] != fit[blue]:
                    unequal += 1
                    assert fit[winner] == max(fit[orange], fit[blue])
    assert unequal > 100


def test_the_leaf_gives_the_sole_best_fit_most_of_the_title(ut):
    state = ut.to_bets(4)
    view = RULES.view(state, None)
    side = RULES.challenge_of(state.challenge)
    fits = [side.fit(RULES.cards.contenders[c]) for c in state.slots]
    semi, final, champion = stage_odds(RULES, view["bracket"], view["challenge"])
    assert sum(champion.values()) == pytest.approx(1.0)
    assert sum(final.values()) == pytest.approx(2.0)
    top = max(fits)
    assert fits.count(top) == 1  # the fixture's bracket has a sole favourite
    best = fits.index(top) + 1
    assert champion[best] > 0.9
    assert semi[best] == pytest.approx(0.97)
