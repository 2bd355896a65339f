"""Four strength levels for every game: registered, built fresh, and set up as intended.

`random`, the game's `heuristic`, `search-easy` and `search-hard` (the search with the
heuristic as policy; hard has the bigger budget). Each game's leaf value reads only
the public view and stays a probability at any point of a game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import registry
from engine.bots import RandomBot
from engine.bots.ismcts import SearchBot
from engine.bots.levels import DEFAULT, search_bots
from engine.protocol import Event, IllegalAction, PendingKind

GAMES = ["royal_rumble", "super_showdown", "supershow", "superstar_showdown",
         "ultimate_showdown"]
LEVEL_NAMES = ["heuristic", "random", "search-easy", "search-hard"]


def test_every_game_is_registered() -> None:
    assert set(GAMES) <= set(registry.games())


@pytest.mark.parametrize("game", GAMES)
def test_every_game_offers_the_four_levels(game: str) -> None:
    assert registry.bot_names(game) == LEVEL_NAMES


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", LEVEL_NAMES)
def test_each_level_builds_a_fresh_bot_of_that_name(game: str, name: str) -> None:
    first, second = registry.get_bot(game, name), registry.get_bot(game, name)
    assert first is not second
    assert first.name == name


@pytest.mark.parametrize("game", GAMES)
def test_the_search_levels_play_out_with_the_games_heuristic(game: str) -> None:
    heuristic = type(registry.get_bot(game, "heuristic"))
    easy, hard = registry.get_bot(game, "search-easy"), registry.get_bot(game, "search-hard")
    assert isinstance(easy, SearchBot) and isinstance(hard, SearchBot)
    assert isinstance(easy.policy, heuristic) and isinstance(hard.policy, heuristic)
    assert hard.iterations > easy.iterations
    assert registry.search_levels(game) is not DEFAULT  # each game sized its own


def test_a_game_without_a_heuristic_searches_with_random_playouts() -> None:
    bots = search_bots(RandomBot)
    easy = bots["search-easy"]()
    assert isinstance(easy, SearchBot) and isinstance(easy.policy, RandomBot)
    assert easy.iterations == DEFAULT["search-easy"].iterations


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        registry.get_bot("super_showdown", "search-impossible")
    assert (caught.value.code, caught.value.message) == (
        "unknown_bot", "Super Showdown has no bot called 'search-impossible'.")


SEATS = {"royal_rumble": 4, "ultimate_showdown": 4}


@pytest.mark.parametrize("game", [g for g in GAMES if registry.search_levels(g)[
    "search-hard"].leaf])
def test_a_leaf_value_is_a_probability_all_through_a_game(game: str) -> None:
    leaf = registry.search_levels(game)["search-hard"].leaf
    assert leaf is not None
    rules = registry.get_rules(game)
    seats = SEATS.get(game, 2)
    rng = random.Random(4)
    bots: list[Any] = [registry.get_bot(game, "heuristic") for _ in range(seats)]
    state = rules.start({}, seats)
    values = []
    while not (pending := rules.pending(state)).is_over:
        if pending.kind is PendingKind.CHANCE:
            state = rules.apply(state, Event.chance(rules.sample_chance(state, rng)))
            continue
        values.append([leaf(rules, state, seat) for seat in range(seats)])
        seat = pending.seats[0]
        state = rules.apply(state, Event.decision(seat, bots[seat].choose(rules, state, seat,
                                                                          rng)))
    assert values
    assert all(0.0 <= v <= 1.0 for row in values for v in row)
    # the values of all seats are expected placement scores: they average one half
    assert all(sum(row) / seats == pytest.approx(0.5) for row in values)
