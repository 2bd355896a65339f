"""The heuristic bot: legal, deterministic, reads only its view, and beats random."""

from __future__ import annotations

import random

from engine.bots import RandomBot
from engine.games.super_showdown import RULES, HeuristicBot
from engine.games.super_showdown.state import Phase
from engine.playout import play_match
from engine.registry import bot_names, get_bot, get_rules

GAMES = 60


def _heuristic_wins(games: int) -> int:
    """Heuristic against random, seats alternated, one seeded rng per game."""
    wins = 0
    for seed in range(games):
        me = seed % 2
        bots = [RandomBot(), RandomBot()]
        bots[me] = HeuristicBot()
        state, _ = play_match(RULES, bots, random.Random(seed))
        wins += RULES.result(state).winners == (me,)
    return wins


def test_the_game_and_its_bots_are_registered():
    """The registry knows the game, the random bot, the heuristic and the search levels."""
    assert get_rules("super_showdown") is RULES
    assert bot_names("super_showdown") == ["heuristic", "random", "search-easy", "search-hard"]
    assert isinstance(get_bot("super_showdown", "heuristic"), HeuristicBot)


def test_the_heuristic_beats_random_in_most_games():
    """At least 65% of 60 seeded games (the benchmark plays 400 and needs 70%)."""
    assert _heuristic_wins(GAMES) >= 0.65 * GAMES


def test_the_heuristic_is_deterministic_given_its_rng():
    """The same seed gives the same match."""
    bots = [HeuristicBot(), HeuristicBot()]
    first = play_match(RULES, bots, random.Random(11), {"best_of": 3})
    second = play_match(RULES, bots, random.Random(11), {"best_of": 3})
    assert first == second


def test_the_heuristic_decides_from_the_view_only(ss):
    """Its choice is the same on any state its seat cannot tell apart."""
    state = ss.play(ss.state(phase=Phase.PLAY, dice=(None, 3), positions=((3, 2), (5, 4))),
                    1, "doom-cannon")
    bot = HeuristicBot()
    real = bot.choose(RULES, state, 0, random.Random(5))
    for seed in range(10):
        guess = RULES.determinize(state, 0, random.Random(seed))
        assert bot.choose(RULES, guess, 0, random.Random(5)) == real


def test_the_heuristic_takes_the_mayhem_on_the_last_move(ss):
    """SU-33: with its card down and the Mayhem in reach, it ends its move there."""
    state = ss.state(phase=Phase.STARTER_SECOND_MOVE, starter=1, dice=(5, 5),
                     played=("jet-flight", "ice-blast"), positions=((1, 1), (6, 6)))
    action = HeuristicBot().choose(RULES, state, 1, random.Random(0))
    assert action == {"type": "move", "to": [5, 5]}


def test_the_heuristic_chooses_the_speed_outcome_in_its_own_favour(ss):
    """SU-33: as chooser the Villain makes green victorious and white defeated."""
    state = ss.reveal(("solar-flare", "whisper-network"), ((1, 1), (3, 4)), to=(3, 3))
    action = HeuristicBot().choose(RULES, state, 1, random.Random(0))
    assert action == {"type": "choose_outcome", "victorious": ["whisper-network"],
                      "defeated": ["solar-flare"]}
