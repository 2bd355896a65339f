"""Hidden information: hands, face-down boxes, secret votes and bets, owners (US-11, 24)."""

from __future__ import annotations

import json
import random

import pytest

from engine.games.ultimate_showdown import RULES
from engine.protocol import Event


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others(ut):
    state = ut.fresh(4)
    view = RULES.view(state, 0)
    assert [c["id"] for c in view["hand"]] == list(state.hands[0])
    text = json.dumps(view)
    for seat in (1, 2, 3):
        assert view["seats"][seat]["hand_size"] == 4
        assert not any(c in text for c in state.hands[seat])
    assert RULES.view(state, None)["hand"] is None


def test_the_setup_event_shows_a_seat_only_its_own_hand(ut):
    start = RULES.start({}, 4)
    outcome = RULES.sample_chance(start, random.Random(2))
    event = Event.chance(outcome)
    shown = RULES.redact(start, event, 1)
    assert shown["outcome"]["hand"] == outcome["contenders"][4:8]
    assert not set(outcome["contenders"][8:]) & set(json.dumps(shown).split('"'))
    assert RULES.redact(start, event, None)["outcome"]["hand"] is None


def test_secret_votes_show_only_that_a_seat_has_voted_until_all_have(ut):
    """US-11, US-27."""
    state = ut.sides(ut.fresh(4))
    event = Event.decision(1, {"type": "vote_challenge", "space": "B"})
    voted = RULES.apply(state, event)
    assert RULES.view(voted, 1)["challenge_step"]["my_ballot"] == "B"
    other = RULES.view(voted, 0)["challenge_step"]
    assert other["my_ballot"] is None and other["voted"] == [False, True, False, False]
    assert other["result"] is None
    assert RULES.redact(state, event, 0)["action"] == {"type": "vote_challenge",
                                                       "hidden": True}
    assert RULES.redact(state, event, 1) == event.to_json()
    assert RULES.narrate(state, event) == ["Green voted in secret for a Challenge."]
    done = ut.vote_challenge(state, ["A", "B", "B", "A"])
    assert RULES.view(done, 0)["challenge_step"]["result"]["ballots"] == ["A", "B", "B", "A"]


def test_played_contenders_stay_face_down_and_box_b_leftovers_are_never_shown(ut):
    state = ut.vote_challenge(ut.sides(ut.fresh(3)), ["A"] * 3)
    played = ut.play_all(state)
    for viewer in (1, 2, None):
        text = json.dumps(RULES.view(played, viewer))
        assert not any(c in text for c in played.boxes[0][0] + played.boxes[0][1])
    mine = RULES.view(played, 0)["my_boxes"]
    assert [c["id"] for c in mine["box_a"]] == list(played.boxes[0][0])
    filled = ut.fill(played)
    leftover = [c for h in filled.hidden_discard for c in h]
    assert len(leftover) == 1
    for viewer in (None, 0, 1, 2):
        owner_sees = leftover[0] in filled.boxes[viewer][1] if viewer is not None else False
        assert (leftover[0] in json.dumps(RULES.view(filled, viewer))) == owner_sees


def test_a_match_vote_is_secret_then_revealed_with_the_result(ut):
    state = ut.bet_all(ut.to_bets(4), ut.default_bets(4))
    half = ut.decide(state, 0, {"type": "vote_match", "slot": 2})
    assert RULES.view(half, 1)["match_vote"] == {"my_ballot": None,
                                                 "voted": [True, False, False, False]}
    assert RULES.view(half, 0)["match_vote"]["my_ballot"] == 2
    done = ut.vote(state, [2, 2, 1, 2])
    match = RULES.view(done, 3)["bracket"]["matches"][0]
    assert match["winner"] == 2 and match["vote"]["ballots"] == [2, 2, 1, 2]


def _at(ut, phase: str):
    """A 4-seat round 1 at the bets (one chip down), a match vote or the discards."""
    state = ut.decide(ut.to_bets(4), 1, {"type": "bet", "box": "champion", "slot": 4})
    if phase == "bet":
        return state
    state = ut.bet_all(ut.to_bets(4), ut.default_bets(4))
    if phase == "match":
        return ut.decide(ut.vote(state, [1] * 4), 2, {"type": "vote_match", "slot": 4})
    return ut.decide(ut.bracket(state), 3, {"type": "discard", "cards": []})


@pytest.mark.parametrize("phase", ["bet", "match", "discard"])
def test_determinize_keeps_the_view_and_resamples_the_hidden(ut, phase):
    state = _at(ut, phase)
    assert str(state.phase) == phase
    for seat in range(4):
        seen = RULES.view(state, seat)
        hands = set()
        for seed in range(10):
            guess = RULES.determinize(state, seat, random.Random(seed))
            assert RULES.view(guess, seat) == seen
            assert guess.hands[seat] == state.hands[seat]
            hands.add(guess.hands[(seat + 1) % 4])
        assert len(hands) > 1


def _groups(state, seat):
    """Who played which of the other seats' Contenders in the slots, into which box."""
    return frozenset((o, box, c) for o in range(state.n) if o != seat
                     for box in (0, 1) for c in state.boxes[o][box] if c in state.slots)


@pytest.mark.parametrize("n", [3, 4, 5, 8])
def test_determinize_regroups_the_other_seats_face_down_contenders(ut, n):
    """US-17, US-18: the slots show no owner and no box, so every grouping of the other
    seats' Contenders (and Box A pick v promoted from Box B) is possible; the viewer's own
    Contenders, boxes and leftovers stay, and the leftovers follow their new owner."""
    state = ut.to_bets(n)
    seat = 1
    seen, groups, boxes_a = RULES.view(state, seat), set(), set()
    for seed in range(60):
        guess = RULES.determinize(state, seat, random.Random(seed))
        assert RULES.view(guess, seat) == seen
        assert guess.boxes[seat] == state.boxes[seat]
        assert guess.hidden_discard[seat] == state.hidden_discard[seat]
        assert [o == seat for o in guess.owners] == [o == seat for o in state.owners]
        for o in range(n):
            assert set(guess.boxes[o][0]) <= set(state.slots)
            assert [len(b) for b in guess.boxes[o]] == [len(b) for b in state.boxes[o]]
            left = [c for c in guess.boxes[o][1] if c not in state.slots]
            assert set(left) <= set(guess.hidden_discard[o])
        assert guess.owners == tuple(next(o for o in range(n) if c in (*guess.boxes[o][0],
                                                                         *guess.boxes[o][1]))
                                     for c in state.slots)
        groups.add(_groups(guess, seat))
        boxes_a.add(frozenset(c for o in range(n) if o != seat for c in guess.boxes[o][0]))
    assert len(groups) > 20
    if n in (3, 5):  # some of Box B stays out, so which slot Contenders were Box A varies
        assert len(boxes_a) > 1


def test_determinize_keeps_the_champions_scored_owner(ut):
    """US-20: once the round is scored, everyone sees who played the Champion."""
    state = _at(ut, "discard")
    record = state.history[-1]
    champion, owner = state.slots[record.champion - 1], state.owners[record.champion - 1]
    seat = (owner + 1) % 4
    assert RULES.view(state, seat)["history"][-1]["champion_owner"] == owner
    groups = set()
    for seed in range(60):
        guess = RULES.determinize(state, seat, random.Random(seed))
        assert RULES.view(guess, seat) == RULES.view(state, seat)
        assert guess.owners[record.champion - 1] == owner
        assert champion in (*guess.boxes[owner][0], *guess.boxes[owner][1])
        assert guess.history[-1].owners == guess.owners
        groups.add(_groups(guess, seat))
    assert len(groups) > 10
