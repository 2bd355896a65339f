"""What players and organizers read counts in words: "1 card", "2 cards", never a form's
"card(s)" (engine.protocol.counted), in the games' logs, refusals and end summaries."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import registry
from engine.games.super_showdown.view import REFERENCE
from engine.protocol import Event, IllegalAction, counted


def test_a_count_is_said_in_words() -> None:
    assert counted(1, "card") == "1 card"
    assert (counted(0, "card"), counted(6, "card")) == ("0 cards", "6 cards")
    assert counted(2, "die face") == "2 die faces"
    assert counted(3, "mouse", "mice") == "3 mice"


@pytest.mark.parametrize(("given", "said"), [
    ({"rounds": 5}, "Unknown option for super_showdown: ['rounds']."),
    ({"rounds": 5, "decks": 2}, "Unknown options for super_showdown: ['decks', 'rounds']."),
])
def test_an_unknown_option_is_named_in_the_singular_or_the_plural(given: dict[str, Any],
                                                                   said: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        registry.get_rules("super_showdown").start(given, 2)
    assert (caught.value.code, caught.value.message) == ("unknown_option", said)


def play_until(game: str, options: dict[str, Any], seats: int, seed: int,
               stop: Callable[[Any, Any], bool]) -> tuple[Any, list[str]]:
    """A seeded random game of `game` played until `stop(state, pending)` or its end; the
    state then and every line its log said."""
    rules = registry.get_rules(game)
    rng = random.Random(seed)
    state = rules.start(options, seats)
    said: list[str] = []
    for _ in range(20000):
        pending = rules.pending(state)
        if pending.is_over or stop(state, pending):
            break
        if pending.kind == "chance":
            event = Event.chance(rules.sample_chance(state, rng))
        else:
            seat = pending.seats[0]
            event = Event.decision(seat, rng.choice(rules.legal_actions(state, seat)))
        said += rules.narrate(state, event)
        state = rules.apply(state, event)
    return state, said


@pytest.mark.parametrize(("game", "seats"), [
    ("supershow", 2), ("superstar_showdown", 2), ("ultimate_showdown", 4),
    ("royal_rumble", 3), ("super_showdown", 2)])
def test_no_log_line_or_summary_says_s_in_brackets(game: str, seats: int) -> None:
    rules = registry.get_rules(game)
    options = {"round_limit": 1} if game == "royal_rumble" else {}
    for seed in range(3):
        state, said = play_until(game, options, seats, seed, lambda s, p: False)
        result = rules.result(state)
        assert result is not None
        assert said and not [line for line in said if "(s)" in line]
        assert "(s)" not in (result.summary or "")


def test_a_round_limit_counts_the_legends_still_standing() -> None:
    rules = registry.get_rules("royal_rumble")
    state, _ = play_until("royal_rumble", {"round_limit": 1}, 3, 1, lambda s, p: False)
    summary = rules.result(state).summary
    assert summary.startswith("Round limit: ") and summary.endswith(
        (" 1 Legend still standing.", "Legends still standing.")), summary


@pytest.mark.parametrize(("kind", "action", "said"), [
    ("play_contenders", {"type": "play_contenders", "box_a": [], "box_b": []},
     "With 4 players put 1 Contender into Box A and 1 into Box B."),
    ("choose_sides", {"type": "choose_sides", "sides": []},
     "Name one side for each of the 2 Challenge cards."),
])
def test_ultimate_showdown_refusals_count_in_words(kind: str, action: dict[str, Any],
                                                   said: str) -> None:
    rules = registry.get_rules("ultimate_showdown")
    state, _ = play_until("ultimate_showdown", {}, 4, 0,
                          lambda s, p: p.kind != "chance" and p.seats and any(
                              a.get("type") == kind for a in
                              rules.legal_actions(s, p.seats[0])))
    seat = rules.pending(state).seats[0]
    with pytest.raises(IllegalAction) as caught:
        rules.apply(state, Event.decision(seat, action))
    assert (caught.value.code, caught.value.message) == ("wrong_count", said)


def test_the_super_showdowns_reference_speaks_of_the_high_card() -> None:
    assert not [line for line in REFERENCE if "(s)" in line]
    assert any("the high card victorious" in line for line in REFERENCE)
