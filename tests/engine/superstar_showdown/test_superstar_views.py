"""Views, redaction, narration and determinization (SS-016, SS-018)."""

from __future__ import annotations

import copy
import json
import random
import re

from ss_helpers import RULES, C, build, ids, play

from engine.games.superstar_showdown.state import Phase
from engine.protocol import Event

BLOCK = C("Guard", "block", "Move 1")
STRIKE = C("Jab", "strike", "Attack 1")
MOVER = C("Runner", "slam", "Move 2")


def test_the_view_describes_the_board_and_both_sides() -> None:
    s = RULES.start({}, 2)
    view = RULES.view(s, 0)
    assert view["board"]["rows"] == 9 and view["board"]["squares"][1][1] == "turnbuckle"
    assert view["board"]["squares"][0][4] == "outside" and view["board"]["squares"][1][4] == "ropes"
    assert view["positions"] == [[2, 2], [6, 6]] and len(view["board"]["tag_zones"]) == 2
    assert view["waiting_for"] == "chance"
    json.dumps(view)


def test_face_down_spots_show_only_a_count_to_the_rival() -> None:
    """SS-018: committed cards stay hidden from the rival until revealed."""
    s = build([STRIKE, STRIKE, BLOCK, BLOCK], [BLOCK, BLOCK, BLOCK])
    s = RULES.apply(s, Event.decision(0, {"type": "play_spots", "cards": ids(s, 0)[:3]}))
    mine, theirs = RULES.view(s, 0)["sides"][0], RULES.view(s, 1)["sides"][0]
    assert [spot["card"]["id"] for spot in mine["spots"]] == ids(s, 0)[:0] + s.sides[0].spots
    assert [spot["card"] for spot in theirs["spots"]] == [None, None, None]
    assert theirs["spots_played"] is True
    assert RULES.view(s, 1)["decision"]["seats"] == [1]


def test_redaction_hides_face_down_plays_and_shuffle_orders() -> None:
    s = build([STRIKE, STRIKE, BLOCK], [BLOCK, BLOCK, BLOCK])
    event = Event.decision(0, {"type": "play_spots", "cards": ids(s, 0)})
    assert RULES.redact(s, event, 0) == event.to_json()
    assert RULES.redact(s, event, 1)["action"] == {"type": "play_spots"}
    assert RULES.redact(s, event, None)["action"] == {"type": "play_spots"}
    start = RULES.start({}, 2)
    shuffle = Event.chance(RULES.sample_chance(start, random.Random(1)))
    for viewer in (0, 1, None):
        assert RULES.redact(start, shuffle, viewer) == {
            "kind": "chance", "outcome": {"shuffle": {"seat": 0, "cards": 30}}}


def test_narration_tells_what_happened_without_hidden_cards() -> None:
    s = build([MOVER, BLOCK, BLOCK], [STRIKE, BLOCK, BLOCK], red_pos=(2, 2), blue_pos=(6, 6))
    first = RULES.narrate(s, Event.decision(0, {"type": "play_spots", "cards": ids(s, 0)}))
    assert first == ["Red plays three cards face down."]
    s = RULES.apply(s, Event.decision(0, {"type": "play_spots", "cards": ids(s, 0)}))
    lines = RULES.narrate(s, Event.decision(1, {"type": "play_spots", "cards": ids(s, 1)}))
    assert 'Position 1: Red reveals Slam "Runner".' in lines and "Red wins position 1." in lines
    assert not any("Guard" in line and "Position 2" not in line and "Position 3" not in line
                   for line in lines)


def test_determinize_keeps_what_the_seat_knows() -> None:
    s = build([STRIKE, STRIKE, BLOCK, BLOCK], [BLOCK, STRIKE, BLOCK, MOVER], red_deck=[MOVER] * 5)
    s = RULES.apply(s, Event.decision(1, {"type": "play_spots", "cards": ids(s, 1)[:3]}))
    d = RULES.determinize(s, 0, random.Random(3))
    assert d.sides[0].hand == s.sides[0].hand
    assert sorted(d.sides[0].deck) == sorted(s.sides[0].deck)
    assert len(d.sides[1].hand) == 1 and sum(c is not None for c in d.sides[1].spots) == 3
    rival_pool = s.sides[1].hand + s.sides[1].deck + [c for c in s.sides[1].spots if c]
    d_pool = d.sides[1].hand + d.sides[1].deck + [c for c in d.sides[1].spots if c]
    assert sorted(rival_pool) == sorted(d_pool)
    assert RULES.view(d, 0) == RULES.view(s, 0)
    before = copy.deepcopy(s)
    RULES.determinize(s, 0, random.Random(4))
    assert s == before  # the input is not mutated
    assert d.phase is Phase.PLAY


def test_the_view_after_the_reveal_shows_the_showdown() -> None:
    s = build([MOVER, BLOCK, BLOCK], [STRIKE, BLOCK, BLOCK], red_pos=(2, 2), blue_pos=(6, 6))
    s = play(s, ids(s, 0), ids(s, 1))
    view = RULES.view(s, None)
    assert view["showdown"][0]["winner"] == 0 and view["current"]["card"]["name"] == "Runner"
    assert view["current"]["available"] == ["move"]
    assert view["decision"] == {"seats": [0], "phase": "actions",
                                "prompt": view["decision"]["prompt"]}
    assert view["sides"][0]["stacks"][0][0]["type"] == "slam"


def seeded_game_narrated(seed: int = 7) -> list[tuple[Event, list[str]]]:
    """A game of random choices played to its end, each step with its log lines."""
    rng = random.Random(seed)
    state = RULES.start({}, 2)
    steps = []
    for _ in range(3000):
        pending = RULES.pending(state)
        if pending.is_over:
            break
        if pending.kind == "chance":
            event = Event.chance(RULES.sample_chance(state, rng))
        else:
            seat = pending.seats[0]
            event = Event.decision(seat, rng.choice(RULES.legal_actions(state, seat)))
        steps.append((event, RULES.narrate(state, event)))
        state = RULES.apply(state, event)
    assert RULES.pending(state).is_over
    return steps


def test_every_decision_of_a_seeded_game_is_narrated() -> None:
    """The log says something for each choice, a single step or a stop included."""
    quiet = [event.action for event, lines in seeded_game_narrated()
             if event.seat is not None and not lines]
    assert quiet == []


def test_the_log_counts_cards_in_words_not_card_s() -> None:
    """"Blue draws 6 card(s)." read as a form; "draws 1 card", "draws 6 cards"."""
    lines = [line for _, said in seeded_game_narrated() for line in said]
    assert not [line for line in lines if "(s)" in line]
    drawn = [line for line in lines if " draws " in line]
    assert drawn and all(re.search(r" draws (1 card|([2-9]|\d\d) cards)\.$", line)
                         for line in drawn), drawn
