"""Tag Team rules (SS-143..SS-159), the Gauntlet (SS-122) and the Stipulations (SS-124..126)."""

from __future__ import annotations

import json
import random

import pytest
from ss_event_helpers import (
    PLAIN,
    RULES,
    act,
    end_round,
    give_hand,
    match_state,
    pinned,
    place,
    settle,
)
from ss_helpers import C

from engine.games.superstar_showdown.board import BOARD
from engine.games.superstar_showdown.event import MATCH_CARDS, STIPULATIONS, Effect
from engine.games.superstar_showdown.state import Phase, State
from engine.protocol import Event, IllegalAction

SLAM_MOVE = C("Dive", "slam", "Move 1")
SLAM_HIT = C("Crash", "slam", "Attack 2")
STRIKE = C("Quick Jab", "strike", "Attack 1")


def refused(state: State, seat: int, action: dict) -> str:
    before = json.dumps(RULES.view(state, None), sort_keys=True)
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, Event.decision(seat, action))
    assert json.dumps(RULES.view(state, None), sort_keys=True) == before
    return error.value.code


def red_wins_first(state: State, red: list, blue: list | None = None) -> State:
    """Both sides play three cards of these designs; Red's Slam wins position 1."""
    state = give_hand(give_hand(state, 0, red), 1, blue or [PLAIN] * 6)
    state = act(state, 0, {"type": "play_spots", "cards": state.sides[0].hand[:3]})
    return act(state, 1, {"type": "play_spots", "cards": state.sides[1].hand[:3]})


def test_one_active_superstar_whose_deck_alone_is_used():
    """SS-143/SS-144/SS-145: two a side; one Active each, the Inactive one at ringside;
    the hand comes only from the Active deck and the Inactive deck stays whole."""
    state = match_state("tag_team", per_team=2)
    for team in (0, 1):
        side = state.sides[team]
        assert len(side.bench) == 1 and side.bench[0].pos in BOARD.tag_zones[team]
        assert not BOARD.in_ring(side.bench[0].pos)
        assert {c.split("-")[0] for c in side.hand + side.deck} == {f"{'rb'[team]}1"}
        assert len(side.bench[0].deck) == 30
    view = RULES.view(state, None)
    assert [b["superstar"]["key"] for b in view["sides"][0]["bench"]] == ["abbot"]


def test_tag_out_at_the_end_of_a_round():
    """SS-146/SS-147/SS-148/SS-149/SS-150: next to a teammate in the Tag Zone the team
    may Tag Out: hand and discard go into the Active deck (shuffled, set aside), Given Up
    cards stay out, the teammate's deck becomes the Active deck, the two swap squares, a
    new round begins."""
    state = place(match_state("tag_team", per_team=2), 0, (1, 1))
    s = state.clone()
    given = s.sides[0].deck.pop(0)
    s.sides[1].performance.append(given)
    s.sides[0].discard.append(s.sides[0].deck.pop(0))
    state = end_round(s)
    assert state.phase is Phase.TAG and RULES.pending(state).seats == (0,)
    legal = RULES.legal_actions(state, 0)
    assert {"type": "tag_out", "superstar": "abbot"} in legal and {"type": "no_tag"} in legal
    hand = list(state.sides[0].hand)
    tagged = act(state, 0, {"type": "tag_out", "superstar": "abbot"})
    red = tagged.sides[0]
    assert red.superstar == "abbot" and red.pos == (1, 1)  # they swap squares
    assert red.bench[0].superstar == "oakhart" and red.bench[0].pos == (0, 1)
    out = red.bench[0].deck + red.bench[0].discard
    assert len(out) == 29 and given not in out and set(hand) <= set(out)
    assert tagged.shuffles == [(0, "bench:0")]  # the set-aside deck is shuffled
    tagged = settle(tagged)
    assert tagged.round == state.round + 1 and tagged.phase is Phase.PLAY
    assert {c.split("-")[0] for c in tagged.sides[0].hand} == {"r2"}  # abbot's cards


def test_no_tag_without_a_teammate_next_to_you():
    """SS-147: far from the teammate the round just ends, no Tag step."""
    state = end_round(match_state("tag_team", per_team=2))
    assert state.phase is not Phase.TAG and state.round == 2


def test_six_man_tag_either_teammate_in_the_zone():
    """SS-152/SS-146: two Inactive teammates; either may be tagged when in the Tag Zone;
    one outside the Zone is refused with a code."""
    state = place(match_state("six_man_tag"), 0, (1, 1))
    legal = RULES.legal_actions(end_round(state), 0)
    assert {a.get("superstar") for a in legal if a["type"] == "tag_out"} == {"abbot", "blaze"}
    # Red stands on the top Ropes: abbot at (0, 1) is in the Zone, blaze at (0, 3) is not.
    outside = place(state, 0, (1, 2), [(0, 1), (0, 3)])
    at_end = end_round(outside)
    assert at_end.phase is Phase.TAG
    assert refused(at_end, 0, {"type": "tag_out", "superstar": "blaze"}) == "not_in_tag_zone"
    assert refused(at_end, 0, {"type": "tag_out", "superstar": "skylark"}) == "not_a_teammate"


def test_tag_team_kick_out():
    """SS-151: Pinned next to a teammate in the Tag Zone, the team Kicks Out by tagging
    out at once, with no Kick Out card; the new Active starts the next round."""
    state = pinned(place(match_state("tag_team", per_team=2), 0, (1, 1)), 0)
    legal = RULES.legal_actions(state, 0)
    assert {"type": "tag_out", "superstar": "abbot"} in legal
    after = settle(act(state, 0, {"type": "tag_out", "superstar": "abbot"}))
    assert after.sides[0].superstar == "abbot" and after.sides[0].kick_outs == 1
    assert after.phase is Phase.PLAY and after.round == 2
    assert len(after.sides[1].performance) == 0  # nothing was Given Up


def test_tag_team_kick_out_in_the_last_round_leaves_no_shuffle():
    """SS-151/SS-147 with SS-003 (round limit): a Tag Team Kick Out in a Match's last round
    ends with the Match: no tagged-out deck is shuffled as a chance event after it."""
    state = place(match_state("tag_team", per_team=2, round_limit=1), 0, (1, 1), [(0, 1)])
    state = pinned(place(state, 1, (1, 2)), 0)
    after = act(state, 0, {"type": "tag_out", "superstar": "abbot"})
    assert after.event.matches[0].finished and after.end_reason == "time_limit"
    assert after.shuffles == []
    assert RULES.pending(after).kind != "chance" or "shuffle" not in RULES.sample_chance(
        after, random.Random(0))


def test_tag_team_match_ends_when_the_active_is_defeated():
    """SS-159: the Pin of the Active Superstar ends a Tag Team Match, teammates or not."""
    state = pinned(match_state("tag_team", per_team=2), 0)
    after = act(state, 0, {"type": "three_count"})
    record = after.event.matches[0]
    assert after.phase is Phase.BONUS and record.finished and record.winner == 1
    assert record.points == [MATCH_CARDS["tag_team"].loss, MATCH_CARDS["tag_team"].win]


def test_teammate_move_three_never_into_the_ring():
    """SS-153/SS-155: each winning card lets one Inactive teammate Move 3, outside only."""
    state = red_wins_first(match_state("tag_team", per_team=2), [SLAM_MOVE] * 6)
    assert state.phase is Phase.ACTIONS and state.current.seat == 0
    assert {"type": "assist", "superstar": "abbot"} in RULES.legal_actions(state, 0)
    moving = act(state, 0, {"type": "assist", "superstar": "abbot"})
    steps = {tuple(a["to"]) for a in RULES.legal_actions(moving, 0) if a["type"] == "step"}
    assert steps and not any(BOARD.in_ring(sq) for sq in steps)
    assert refused(moving, 0, {"type": "step", "to": [1, 1]}) == "inactive_cannot_enter_ring"
    moved = act(act(act(moving, 0, {"type": "step", "to": [0, 2]}), 0,
                    {"type": "step", "to": [0, 3]}), 0, {"type": "step", "to": [0, 4]})
    assert moved.sides[0].bench[0].pos == (0, 4)
    assert moved.phase is Phase.ACTIONS  # three squares used: back to the card's Actions
    assert all(a["type"] != "assist" for a in RULES.legal_actions(moved, 0))  # once a card
    assert refused(moved, 0, {"type": "assist", "superstar": "abbot"}) == "assist_used"


def test_teammate_moves_before_or_after_the_active():
    """SS-156: the active player chooses when: after the Active's own Move as well."""
    state = red_wins_first(match_state("tag_team", per_team=2), [SLAM_MOVE] * 6)
    state = act(state, 0, {"type": "resolve", "action": "move"})
    state = act(state, 0, {"type": "step", "to": [2, 3]})
    assert state.phase is Phase.ACTIONS
    assert {"type": "assist", "superstar": "abbot"} in RULES.legal_actions(state, 0)


def test_teammate_never_moves_between_the_actives_actions():
    """SS-155/SS-156: the teammate's Move 3 comes before the Active's first Action of the
    card or after the Active is done with it, never between its Move and its Attack."""
    combo = C("Slam Combo", "slam", "Move 2", "Attack 2")
    start = place(place(match_state("tag_team", per_team=2), 1, (2, 1)), 0, (4, 2), [(0, 1)])
    state = red_wins_first(start, [combo] * 6)
    assist = {"type": "assist", "superstar": "abbot"}
    assert assist in RULES.legal_actions(state, 0)  # before the Active's first Action
    state = act(act(state, 0, {"type": "resolve", "action": "move"}), 0,
                {"type": "step", "to": [3, 1]})
    state = act(state, 0, {"type": "stop"}) if state.phase is Phase.MOTION else state
    assert state.phase is Phase.ACTIONS and "attack" in [
        a.get("action") for a in RULES.legal_actions(state, 0)]
    assert assist not in RULES.legal_actions(state, 0)  # the Active is mid-card
    assert refused(state, 0, assist) == "assist_mid_card"
    # Done: the Active is finished with the card, and only then may the teammate move.
    done = act(state, 0, {"type": "done"})
    assert done.phase is Phase.ACTIONS and RULES.available(done) == []
    assert sorted(a["type"] for a in RULES.legal_actions(done, 0)) == ["assist", "done"]
    moved = act(act(act(done, 0, assist), 0, {"type": "step", "to": [1, 0]}), 0,
                {"type": "step", "to": [2, 0]})
    moved = act(moved, 0, {"type": "stop"}) if moved.phase is Phase.MOTION else moved
    assert moved.current is None or moved.current.card != state.current.card  # card over
    assert not moved.sides[1].performance  # the Attack was never taken
    # Attack first, then the teammate: after the Active's last Action it may move.
    hit = act(state, 0, {"type": "resolve", "action": "attack"})
    while hit.phase is Phase.HIT:
        hit = act(hit, 1, RULES.legal_actions(hit, 1)[0])
    assert hit.phase is Phase.ACTIONS and assist in RULES.legal_actions(hit, 0)


def test_shove_a_teammate():
    """SS-154: a Superstar who ends a move on a teammate's square may shove the teammate
    (never into the ring)."""
    state = red_wins_first(place(match_state("tag_team", per_team=2), 0, (1, 1)),
                           [SLAM_MOVE] * 6)
    state = act(state, 0, {"type": "resolve", "action": "move"})
    state = act(state, 0, {"type": "step", "to": [0, 1]})  # onto abbot's square
    assert state.phase is Phase.SHOVE
    targets = {tuple(a["to"]) for a in RULES.legal_actions(state, 0) if a["type"] == "shove"}
    assert targets == {(0, 0), (0, 2), (1, 0)}
    shoved = act(state, 0, {"type": "shove", "to": [0, 0]})
    assert shoved.sides[0].bench[0].pos == (0, 0) and shoved.sides[0].pos == (0, 1)


def test_teammate_interference_adds_two_power_each():
    """SS-158: +2 power for each teammate next to the rival when you Attack (6-Man: both
    Inactive teammates at the corner hit in too)."""
    state = match_state("six_man_tag", red=("oakhart", "abbot", "blaze"),
                        blue=("skylark", "cavallo", "quillfeather"))
    state = place(place(state, 1, (1, 1)), 0, (1, 2))  # Blue in Red's corner
    state = red_wins_first(state, [SLAM_HIT] * 6)
    assert "attack" in [a.get("action") for a in RULES.legal_actions(state, 0)]
    hit = act(state, 0, {"type": "resolve", "action": "attack"})
    # Attack 2, +1 for a rival on a Turnbuckle, +2 for each of Red's two teammates.
    assert hit.hit.power == 2 + 1 + 2 * 2


@pytest.mark.parametrize(("teammate", "power"), [((0, 1), 2), ((0, 2), 4), ((0, 3), 2)])
def test_teammate_interference_only_side_by_side(teammate, power):
    """SS-158/SS-082 (decision): "next to" the rival is side by side, as for an Attack: a
    teammate diagonal to the rival adds nothing, one beside it adds +2."""
    state = place(match_state("tag_team", per_team=2), 1, (1, 2))  # Blue on the top Ropes
    state = red_wins_first(place(state, 0, (2, 2), [teammate]), [SLAM_HIT] * 6)
    hit = act(state, 0, {"type": "resolve", "action": "attack"})
    assert hit.hit.power == power


def test_only_the_rival_active_superstar_is_thrown():
    """SS-083/SS-082 (decision): a Throw moves the rival Active Superstar within one
    square; a rival Inactive teammate beside the thrower is not a target."""
    toss = C("Toss", "slam", "Throw")
    start = place(match_state("tag_team", per_team=2), 0, (6, 7))
    assert start.sides[1].bench[0].pos == (7, 8)  # Blue's teammate, diagonal to Red
    far = red_wins_first(place(start, 1, (5, 5)), [toss] * 6)
    assert "throw" not in [a.get("action") for a in RULES.legal_actions(far, 0)]
    near = red_wins_first(place(start, 1, (5, 6)), [toss] * 6)
    assert "throw" in [a.get("action") for a in RULES.legal_actions(near, 0)]
    thrown = act(act(near, 0, {"type": "resolve", "action": "throw"}), 0,
                 {"type": "step", "to": [4, 5]})
    assert thrown.sides[1].pos == (4, 5) and thrown.sides[1].bench[0].pos == (7, 8)


def test_inactive_superstars_do_not_fight():
    """SS-157: a teammate next to the rival gives no Attack of its own: with the Active
    far away the winning card has no Attack to take."""
    state = match_state("tag_team", per_team=2)
    state = place(place(state, 1, (2, 1)), 0, (4, 4), [(2, 0)])
    state = red_wins_first(state, [SLAM_HIT] * 6)
    assert state.phase is not Phase.HIT
    assert "attack" not in [a.get("action") for a in RULES.legal_actions(state, 0)]


def test_gauntlet_next_superstar_enters():
    """SS-122: defeating one opponent is only the first step: the next one enters fresh at
    the starting star while the winner carries on; the team that runs out loses, and each
    team earns points for the rivals it defeated."""
    state = match_state("gauntlet", per_team=2, red=("oakhart", "abbot"),
                        blue=("skylark", "cavallo"))
    assert state.sides[0].bench[0].pos is None  # waiting, not on the board
    blue_hand = list(state.sides[1].hand)
    first = settle(act(pinned(state, 0), 0, {"type": "three_count"}))
    red = first.sides[0]
    assert red.superstar == "abbot" and red.pos == BOARD.starts[0] and red.bench == []
    assert first.sides[1].defeated == 1 and first.phase is Phase.PLAY
    assert first.event.matches[0].finished is False
    assert set(blue_hand) <= set(first.sides[1].hand + first.sides[1].discard)
    second = act(pinned(first, 0), 0, {"type": "three_count"})
    record = second.event.matches[0]
    card = MATCH_CARDS["gauntlet"]
    assert record.finished and record.winner == 1
    assert record.points == [card.loss, card.win + 2 * card.per_defeat]


@pytest.mark.parametrize("stipulation", ["standard_1", "time_limit"])
def test_a_gauntlet_fall_in_the_last_round_ends_the_match_on_the_clock(stipulation):
    """SS-003 decision with SS-122: the next Superstar still enters after a fall in the
    last round, but no round is played past the limit (Time Limit: eight rounds); the
    Match ends on the time limit, the defeat still counted."""
    state = match_state("gauntlet", stipulation, per_team=2, red=("oakhart", "abbot"),
                        blue=("skylark", "cavallo"))
    assert stipulation != "time_limit" or state.round_limit == 8
    state = state.clone()
    state.round = state.round_limit - 1
    before = settle(act(pinned(state, 0), 0, {"type": "three_count"}))
    assert before.phase is Phase.PLAY and before.round == state.round_limit  # one more round
    state.round = state.round_limit
    after = settle(act(pinned(state, 0), 0, {"type": "three_count"}))
    assert after.round == state.round_limit and after.phase is Phase.BONUS
    assert after.sides[0].superstar == "abbot" and after.sides[1].defeated == 1
    record = after.event.matches[0]
    assert record.finished and record.defeated == [0, 1]


@pytest.mark.parametrize(("stipulation", "expect_fall"), [("standard_1", False),
                                                           ("endurance", True)])
def test_endurance_two_falls(stipulation, expect_fall):
    """SS-124/SS-126 (Endurance): the first Pin is a fall that ends the round; the
    second wins the Match."""
    state = pinned(match_state("head_to_head", stipulation, per_team=1), 0)
    after = act(state, 0, {"type": "three_count"})
    if not expect_fall:
        assert after.phase is Phase.BONUS
        return
    assert after.phase is not Phase.BONUS and after.sides[1].falls == 1
    final = act(pinned(settle(after), 0), 0, {"type": "three_count"})
    assert final.phase is Phase.BONUS and final.event.matches[0].winner == 1


def test_an_endurance_gauntlet_needs_two_falls_on_each_new_superstar():
    """SS-122 with SS-124/SS-126 (Endurance): the falls count against one Superstar; the
    next one entering the Gauntlet must be pinned twice as well."""
    state = match_state("gauntlet", "endurance", per_team=2, red=("oakhart", "abbot"),
                        blue=("skylark", "cavallo"))
    fall = settle(act(pinned(state, 0), 0, {"type": "three_count"}))
    assert fall.sides[1].falls == 1 and fall.sides[0].superstar == "oakhart"
    out = settle(act(pinned(fall, 0), 0, {"type": "three_count"}))
    assert out.sides[0].superstar == "abbot" and out.sides[1].defeated == 1
    assert out.sides[1].falls == 0 and out.phase is Phase.PLAY
    again = settle(act(pinned(out, 0), 0, {"type": "three_count"}))
    assert again.sides[1].falls == 1 and again.phase is Phase.PLAY
    assert again.sides[0].superstar == "abbot" and not again.event.matches[0].finished
    final = act(pinned(again, 0), 0, {"type": "three_count"})
    assert final.phase is Phase.BONUS and final.event.matches[0].winner == 1


def test_fast_count_is_two_cards():
    """SS-124/SS-126 (Fast Count): two cards without a Kick Out are enough."""
    state = pinned(match_state("head_to_head", "fast_count", per_team=1), 0)
    assert state.count_needed == 2
    after = act(state, 0, {"type": "three_count"})
    assert after.phase is Phase.BONUS and after.count == 2


def pin_position(state: State, red: tuple[int, int], blue: tuple[int, int]) -> State:
    """Red has more winning cards at the end of the Showdown, at these squares."""
    s = place(place(state, 0, red), 1, blue)
    s.sides[0].wins, s.sides[1].wins = 2, 1
    s.phase, s.position = Phase.COMPARE, 3
    RULES._advance(s)
    return s


def test_last_man_standing_has_no_pins():
    """SS-124/SS-126 (Last Man Standing): no Pin even side by side with more wins."""
    standard = pin_position(match_state("head_to_head", "standard_1", per_team=1), (3, 3), (3, 4))
    assert standard.phase is Phase.PIN
    lms = pin_position(match_state("head_to_head", "last_man_standing", per_team=1),
                       (3, 3), (3, 4))
    assert lms.phase is not Phase.PIN


def test_falls_count_anywhere():
    """SS-124/SS-126 (Falls Count Anywhere): a Pin outside the ring too (not in SS-044's
    standard rules)."""
    standard = pin_position(match_state("head_to_head", "standard_1", per_team=1), (8, 3), (8, 4))
    assert standard.phase is not Phase.PIN
    anywhere = pin_position(match_state("head_to_head", "falls_count_anywhere", per_team=1),
                            (8, 3), (8, 4))
    assert anywhere.phase is Phase.PIN


@pytest.mark.parametrize("stipulation", ["standard_1", "hardcore"])
def test_hardcore_has_no_countout(stipulation):
    """SS-124/SS-126 (Hardcore): a losing card outside the ropes is discarded, not Given
    Up by countout (SS-050)."""
    state = place(match_state("head_to_head", stipulation, per_team=1), 1, (0, 4))
    after = red_wins_first(state, [SLAM_MOVE] * 6)
    lost = after.outcomes[0]["cards"][1][0]
    if stipulation == "hardcore":
        assert lost in after.sides[1].discard and lost not in after.sides[0].performance
    else:
        assert lost in after.sides[0].performance


def test_steel_cage_keeps_the_actives_in():
    """SS-124/SS-126 (Steel Cage): no step out of the ring for an Active Superstar."""
    state = place(match_state("head_to_head", "steel_cage", per_team=1), 0, (2, 1))
    state = red_wins_first(state, [SLAM_MOVE] * 6)
    moving = act(state, 0, {"type": "resolve", "action": "move"})
    steps = {tuple(a["to"]) for a in RULES.legal_actions(moving, 0) if a["type"] == "step"}
    assert steps and all(BOARD.in_ring(sq) for sq in steps)
    assert refused(moving, 0, {"type": "step", "to": [2, 0]}) == "cage_locked"


def test_time_limit_stipulation():
    """SS-124/SS-126 (Time Limit): the Match ends after its eight rounds."""
    state = match_state("head_to_head", "time_limit", per_team=1)
    assert state.round_limit == STIPULATIONS["time_limit"].rounds == 8
    assert match_state("head_to_head", "standard_1", per_team=1).round_limit == 50


def test_time_limit_stipulation_never_lengthens_a_match():
    """SS-126 (Time Limit) with SS-003 (round limit): the Stipulation's eight rounds
    only shorten a Match; a `round_limit` option below eight still holds."""
    short = match_state("head_to_head", "time_limit", per_team=1, round_limit=5)
    assert short.round_limit == 5
    assert match_state("head_to_head", "standard_1", per_team=1, round_limit=5).round_limit == 5
    assert match_state("head_to_head", "time_limit", per_team=1, round_limit=12).round_limit == 8


def test_stipulation_deck():
    """SS-124/SS-125: ten Stipulations, three Standard Rules, seven that change a rule
    (each a different one)."""
    effects = [s.effect for s in STIPULATIONS.values()]
    assert len(effects) == 10 and effects.count(Effect.NONE) == 3
    special = [e for e in effects if e != Effect.NONE]
    assert len(special) == 7 == len(set(special))
    assert {"hardcore", "last_man_standing", "endurance"} <= set(STIPULATIONS)
