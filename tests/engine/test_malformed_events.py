"""A hand-built event that is not what the protocol says is refused with a code, in every
game, before the game's own rules read it."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.bots import RandomBot
from engine.protocol import Event, IllegalAction, PendingKind


def _first_chance(key: str):
    rules = registry.get_rules(key)
    state = rules.start({}, rules.spec.min_seats)
    rng, bot = random.Random(7), RandomBot()
    for _ in range(500):
        pending = rules.pending(state)
        if pending.kind is PendingKind.CHANCE:
            return rules, state
        assert pending.kind is PendingKind.DECISION
        seat = pending.seats[0]
        state = rules.apply(state, Event.decision(seat, bot.choose(rules, state, seat, rng)))
    raise AssertionError(f"{key}: no chance event in 500 decisions")


@pytest.mark.parametrize("key", sorted(registry.games()))
@pytest.mark.parametrize("outcome", [[1, 2], "x", 5])
def test_a_chance_outcome_that_is_not_an_object_is_refused(key, outcome):
    rules, state = _first_chance(key)
    with pytest.raises(IllegalAction) as caught:
        rules.apply(state, Event.chance(outcome))
    assert caught.value.code == "bad_outcome"


@pytest.mark.parametrize("key", sorted(registry.games()))
def test_a_viewer_that_is_no_seat_of_the_table_is_refused(key):
    """-1 would read as the last seat's hand where a view indexes by seat."""
    rules, state = _first_chance(key)
    seats = rules.spec.min_seats
    event = Event.chance(rules.sample_chance(state, random.Random(1)))
    for viewer in (-1, seats, True, "0"):
        with pytest.raises(IllegalAction, match="bad_seat"):
            rules.view(state, viewer)
        with pytest.raises(IllegalAction, match="bad_seat"):
            rules.redact(state, event, viewer)
        with pytest.raises(IllegalAction, match="bad_seat"):
            rules.determinize(state, viewer, random.Random(1))
    for seat in range(seats):  # every real seat and a spectator still see their views
        assert rules.view(state, seat)["viewer"] == seat
    assert rules.view(state, None)["viewer"] is None


@pytest.mark.parametrize("seat", [None, "1", True, 1.0])
def test_a_forfeit_without_an_integer_seat_is_refused(seat):
    with pytest.raises(IllegalAction) as caught:
        Event.from_json({"kind": "forfeit", "seat": seat})
    assert caught.value.code == "malformed_event"


@pytest.mark.parametrize("key", sorted(registry.games()))
def test_a_forfeit_event_is_refused_where_the_game_takes_none(key):
    """A forfeit event is taken only where the game eliminates (engine/protocol.py): at
    two seats no game does, and a seat out of range never."""
    rules, state = _first_chance(key)
    for seat in (0, -1, rules.spec.min_seats):
        if rules.spec.min_seats < 3 or seat != 0:
            with pytest.raises(IllegalAction) as caught:
                rules.apply(state, Event.forfeit(seat))
            assert caught.value.code == "no_forfeit"
