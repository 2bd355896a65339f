"""Seeded random Events with invariants checked along the way.

SHOWDOWN_PLAYOUTS sets the size (default 100, CI 1000); Events are long, so a twentieth
of that many are played (at least four).
"""

from __future__ import annotations

import json
import os
import random
import re

import pytest

from engine.bots import RandomBot
from engine.games.superstar_showdown import RULES, HeuristicBot
from engine.games.superstar_showdown.event import PRESETS, MatchKind
from engine.games.superstar_showdown.state import Phase, State
from engine.playout import play_match
from engine.protocol import Event

EVENTS = max(4, int(os.environ.get("SHOWDOWN_PLAYOUTS", "100")) // 20)
ID = re.compile(r'"([rb]\d-\d\d)"')
PLANS = [("full_card", 2), ("tag_team_series", 4), ("ultimate_endurance", 6),
         ("full_card", 3), ({"matches": [{"match": "gauntlet", "stipulation": None},
                                         {"match": "six_man_tag", "stipulation": None}]}, 5)]


def team_cards(state: State, team: int) -> list[str]:
    """Every card of a team's Superstars in the Match, wherever it is."""
    side = state.sides[team]
    cards = side.deck + side.hand + side.discard + side.on_board()
    cards += [c for m in side.bench for c in m.deck + m.discard]
    return cards + [c for c in state.sides[1 - team].performance if c[0] == "rb"[team]]


def check_conservation(state: State) -> None:
    """SS-004/SS-115/SS-145: each sent-in Superstar's cards are each in one place, the
    Given Up ones in the rival team's one Performance Stack."""
    info = state.event
    if info is None or state.phase in (Phase.DRAFT, Phase.SETUP, Phase.SEND_IN, Phase.BONUS,
                                       Phase.OVER):
        return
    if state.kind is MatchKind.GAUNTLET or state.shuffles:
        return
    record = info.record
    for team in (0, 1):
        sent = record.sent[team]
        assert sent is not None
        expected = {c for c in state.catalog
                    if c[0] == "rb"[team] and int(c[1]) - 1 in sent}
        cards = team_cards(state, team)
        assert len(cards) == len(set(cards)) and set(cards) == expected, (team, state.phase)


def hidden_from(state: State, team: int | None) -> set[str]:
    hidden: set[str] = set()
    for t, side in enumerate(state.sides):
        hidden |= set(side.deck) | {c for m in side.bench for c in m.deck}
        if t != team:
            hidden |= set(side.hand) | {c for c in side.spots if c}
    return hidden


def check_views(state: State, event: Event) -> None:
    """No view or redacted event shows a card or a face-down Send In its viewer may not
    see (teammates share their team's view)."""
    for viewer in [None, *range(len(state.teams))]:
        team = None if viewer is None else state.teams[viewer]
        view = json.dumps(RULES.view(state, viewer))
        assert not set(ID.findall(view)) & hidden_from(state, team)
        redacted = RULES.redact(state, event, viewer)
        action = event.action or {}
        if action.get("type") in ("send_in", "play_spots") and team != state.teams[event.seat]:
            assert redacted["action"] == {"type": action["type"]}


@pytest.mark.parametrize("seed", range(EVENTS))
def test_random_events_keep_every_invariant(seed):
    """SS-114..SS-159 under random play: the Event ends, cards are conserved, hidden
    information stays hidden, the replay of the log gives the same state."""
    plan, seats = PLANS[seed % len(PLANS)]
    rng = random.Random(seed)
    steps = 0

    def check(state: State, event: Event) -> None:
        nonlocal steps
        steps += 1
        check_conservation(state)
        if steps % 5 == 0:
            check_views(state, event)

    options = {"event": plan, "round_limit": 20}
    state, log = play_match(RULES, [RandomBot()] * seats, rng, options, on_event=check)
    assert state.phase is Phase.OVER
    assert all(m.finished for m in state.event.matches)
    assert RULES.view(RULES.replay(options, seats, log), None) == RULES.view(state, None)


def test_heuristic_team_beats_random_team():
    """Issue #5 bots: the heuristic bot plays every Event decision and wins most Events
    against random play (a small sample here; the benchmark plays more)."""
    wins = 0
    games = 6
    for seed in range(games):
        mine = seed % 2
        bots = [HeuristicBot(), RandomBot()] if mine == 0 else [RandomBot(), HeuristicBot()]
        state, _ = play_match(RULES, bots, random.Random(seed), {"event": sorted(PRESETS)[
            seed % len(PRESETS)]})
        wins += RULES.result(state).winners == (mine,)
    assert wins >= games - 1
