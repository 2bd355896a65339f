"""Hidden information: no card in a hand reaches a spectator's view or another seat's.

The three card games with hands, played at random from several seeds: at every step the
spectator's view and each seat's view are searched for the id of every card held in a
hand the viewer may not see (the seat's own hand must be there: the search can find one).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import registry
from engine.bots import RandomBot
from engine.playout import next_event

HANDS: dict[str, Callable[[Any], list[list[str]]]] = {
    "royal_rumble": lambda s: [list(p.hand) for p in s.players],
    "supershow": lambda s: [list(p.hand) for p in s.players],
    "superstar_showdown": lambda s: [list(side.hand) for side in s.sides],
}
SEATS = {"royal_rumble": 4, "supershow": 2, "superstar_showdown": 2}
STEPS = 400  # events a seed


def shown(view: Any, cards: list[str]) -> list[str]:
    text = json.dumps(view)
    return [c for c in cards if f'"{c}"' in text]


@pytest.mark.parametrize("game", sorted(HANDS))
@pytest.mark.parametrize("seed", range(3))
def test_no_hand_reaches_a_viewer_who_may_not_see_it(game: str, seed: int) -> None:
    rules, n = registry.get_rules(game), SEATS[game]
    rng, bots = random.Random(seed), [RandomBot()] * n
    state, own_seen = rules.start({}, n), 0
    for _ in range(STEPS):
        event = next_event(rules, state, bots, rng)
        if event is None:
            break
        state = rules.apply(state, event)
        hands = HANDS[game](state)
        assert shown(rules.view(state, None), [c for hand in hands for c in hand]) == []
        for seat in range(n):
            view = rules.view(state, seat)
            own_seen += len(shown(view, hands[seat]))
            others = [c for o, hand in enumerate(hands) if o != seat for c in hand]
            assert shown(view, others) == [], (seat, state)
    assert own_seen > 0
