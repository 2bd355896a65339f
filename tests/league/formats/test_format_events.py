"""Organizer decisions and results as stored events: JSON round trips and replay."""

from __future__ import annotations

import json

import pytest
from format_helpers import finish, refused, seeds

from league.formats import (
    EntrantAdded,
    EntrantWithdrawn,
    Event,
    MatchResult,
    PairedByHand,
    ResultRecorded,
    describe_options,
    event_from_json,
    event_to_json,
    get_format,
    replay,
)

EVENTS: list[Event] = [
    ResultRecorded(finish("R1-1", "s1", "s3", s1={"stack": 12.0})),
    ResultRecorded(MatchResult("P1-1", {"s1": 1, "s2": 1, "s3": 3},
                               sides={"s1": 0, "s2": 0, "s3": 1})),
    EntrantWithdrawn("s2"),
    EntrantAdded("s5"),
    PairedByHand((("s1", "s3"), ("s4", None))),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_every_event_survives_a_trip_through_json(event: Event) -> None:
    stored = json.loads(json.dumps(event_to_json(event)))
    assert event_from_json(stored) == event


def test_a_swiss_is_rebuilt_from_its_start_and_events() -> None:
    swiss = get_format("swiss")
    events: list[Event] = [
        PairedByHand((("s1", "s3"), ("s2", "s4"))),
        ResultRecorded(finish("R1-1", "s1", "s3")),
        EntrantAdded("s5"),
        ResultRecorded(finish("R1-2", "s4", "s2")),
        EntrantWithdrawn("s2"),
    ]
    state = swiss.start(seeds(4), {"rounds": 3})
    state = swiss.pair_by_hand(state, [["s1", "s3"], ["s2", "s4"]])
    state = swiss.record(state, finish("R1-1", "s1", "s3"))
    state = swiss.add_entrant(state, "s5")
    state = swiss.record(state, finish("R1-2", "s4", "s2"))
    state = swiss.withdraw(state, "s2")
    assert replay(swiss, seeds(4), {"rounds": 3}, events) == state
    # Round 2: the late s5 (no points, no bye yet) takes the bye; s2's board is a walkover.
    assert {p.id: p.slots for p in swiss.pairings(state) if p.round == 2}["R2-bye"] == ("s5", None)
    assert [p.slots for p in swiss.ready(state)] == [("s1", "s4")]


def test_a_stream_with_a_refused_event_does_not_replay() -> None:
    events: list[Event] = [
        ResultRecorded(finish("W1-1", "s1", "s2")),
        ResultRecorded(finish("W1-1", "s2", "s1")),
    ]
    refused("already_recorded", replay, get_format("single_elimination"), seeds(2), None, events)


def test_every_format_describes_its_options_with_defaults() -> None:
    assert describe_options("swiss")[0] == {
        "name": "rounds",
        "kind": "int",
        "default": None,
        "help": "Number of rounds (default ceil(log2 n)).",
        "choices": [],
    }
    assert {o["name"] for o in describe_options("heats")} == {
        "pod_size",
        "advance",
        "min_pod_size",
        "tiebreaks",
    }
