"""Hidden information in what the engine answers besides a view, in all five games.

A seat learns from a refusal too: if sending a card that lies in a rival's hand were
refused in other words than one that lies in the deck, a player could probe the hidden
cards one message at a time. So a seat's action is answered the same (accepted, or
refused with the same code and message) in the real state and in any state the seat
cannot tell apart from it (`determinize`). The actions tried are the seat's legal
ones with a card or name in them swapped for every other value of the stream.

And a spectator knows less than any seat: no seat's determinized world may change the
spectator's view.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import registry
from engine.bots import RandomBot
from engine.playout import next_event
from engine.protocol import Event, IllegalAction, PendingKind
from tests.json_values import strings

EVENT = {"event": {"matches": [{"match": "tag_team", "stipulation": "standard_1"},
                               {"match": "head_to_head", "stipulation": "hardcore"}],
                   "superstars_per_team": 2}}
# (game, options, seats): each game as it comes, and the tables with more seats to hide
# from (The Supershow's multi-player matches, a Superstar Showdown Event of teams).
CASES: dict[str, tuple[str, dict[str, Any], int]] = {
    "royal_rumble": ("royal_rumble", {}, 3),
    "royal_rumble 6": ("royal_rumble", {}, 6),
    "supershow": ("supershow", {}, 2),
    "supershow triple threat": ("supershow", {"match_type": "triple_threat_elimination"}, 3),
    "supershow fatal four way": ("supershow", {"match_type": "fatal_four_way_first_fall"}, 4),
    "supershow birdcage": ("supershow", {"match_type": "birdcage"}, 6),
    "superstar_showdown": ("superstar_showdown", {}, 2),
    "superstar_showdown event": ("superstar_showdown", EVENT, 4),
    "super_showdown": ("super_showdown", {}, 2),
    "ultimate_showdown": ("ultimate_showdown", {}, 3),
    "ultimate_showdown 6": ("ultimate_showdown", {}, 6),
}
STEPS = 300  # events a game
EVERY = 7  # decisions between two probes
WORLDS = 3  # determinized states a probe compares with
SWAPS = 25  # stream values tried in one field


def swapped(action: Any, values: list[str]) -> Iterator[Any]:
    """`action` with one of its string values (not its type) replaced by each of `values`."""
    if isinstance(action, dict):
        for key, item in action.items():
            if key == "type":
                continue
            for other in swapped(item, values):
                yield {**action, key: other}
    elif isinstance(action, list):
        for i, item in enumerate(action):
            for other in swapped(item, values):
                yield [*action[:i], other, *action[i + 1:]]
    elif isinstance(action, str):
        yield from (v for v in values if v != action)


def answer(rules: Any, state: Any, seat: int, action: Any) -> tuple[str, str]:
    try:
        rules.apply(state, Event.decision(seat, action))
    except IllegalAction as exc:
        return exc.code, exc.message
    return "accepted", ""


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_refusal_and_the_spectators_view_depend_only_on_what_is_known(case: str) -> None:
    game, options, n = CASES[case]
    rules = registry.get_rules(game)
    rng, bots = random.Random(3), [RandomBot()] * n
    state, probes = rules.start(options, n), 0
    stream: set[str] = set()
    for step in range(STEPS):
        pending = rules.pending(state)
        if pending.kind is PendingKind.END:
            break
        if pending.kind is PendingKind.DECISION and step % EVERY == 0:
            seat = pending.seats[0]
            values = sorted(stream)
            legal = rules.legal_actions(state, seat)
            tried = [a for a in legal[:4] for a in
                     swapped(a, random.Random(step).sample(values, min(SWAPS, len(values))))]
            worlds = [rules.determinize(state, seat, random.Random(k)) for k in range(WORLDS)]
            for world in worlds:
                assert rules.view(world, None) == rules.view(state, None)
                for action in tried:
                    assert answer(rules, world, seat, action) == \
                        answer(rules, state, seat, action), action
                    probes += 1
        event = next_event(rules, state, bots, rng)
        assert event is not None
        stream |= set(strings(event.to_json()))
        state = rules.apply(state, event)
    assert probes > 0
