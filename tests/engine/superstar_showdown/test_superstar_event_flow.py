"""The Event layer: coin flip, draft, Match cards, Send In, Bonus spending, Ranking Points."""

from __future__ import annotations

import json
import random

import pytest
from ss_event_helpers import (
    BLUE,
    RED,
    RULES,
    act,
    chance,
    draft,
    event,
    match_state,
    send_in,
    settle,
)

from engine.games.superstar_showdown import HeuristicBot
from engine.games.superstar_showdown.event import (
    MATCH_CARDS,
    PRESETS,
    STIPULATIONS,
    EventInfo,
    MatchRecord,
    draft_order,
    points_for,
    read_event_options,
)
from engine.games.superstar_showdown.state import EndReason, Phase, State
from engine.playout import play_match
from engine.protocol import Event, IllegalAction, PendingKind

TWO_H2H = {"matches": [{"match": "head_to_head", "stipulation": "standard_1"},
                       {"match": "head_to_head", "stipulation": "standard_2"}],
           "superstars_per_team": 1}


def refused(state: State, seat: int, action: dict) -> str:
    before = json.dumps(RULES.view(state, None), sort_keys=True)
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, Event.decision(seat, action))
    assert json.dumps(RULES.view(state, None), sort_keys=True) == before
    return error.value.code


def to_bonus(state: State, red_stack: int, blue_stack: int, winner: int | None = 0) -> State:
    """End the current Match at once with these Performance Stacks (a Time Limit)."""
    s = state.clone()
    s.sides[0].performance = sorted(c for c in s.catalog if c[0] == "b")[:red_stack]
    s.sides[1].performance = sorted(c for c in s.catalog if c[0] == "r")[:blue_stack]
    RULES._match_over(s, winner, EndReason.KNOCKED_OUT, "A test Knock Out.")
    return s


def test_coin_flip_is_a_stored_chance_event_and_decides_the_first_pick():
    """SS-116: a coin flip (chance) decides which team picks first."""
    state = event("full_card")
    assert state.phase is Phase.DRAFT
    assert RULES.pending(state).kind is PendingKind.CHANCE
    assert set(RULES.sample_chance(state, random.Random(1))) == {"coin"}
    blue_first = chance(state, {"coin": 1})
    assert RULES.pending(blue_first).seats == (1,)
    red_first = chance(state, {"coin": 0})
    assert RULES.pending(red_first).seats == (0,)
    with pytest.raises(IllegalAction) as error:
        chance(state, {"coin": 2})
    assert error.value.code == "bad_outcome"


@pytest.mark.parametrize(("per_team", "order"), [
    (1, [0, 1]),
    (2, [0, 1, 1, 0]),
    (3, [0, 1, 1, 0, 1, 0]),
])
def test_draft_order_one_then_two_then_alternate(per_team, order):
    """SS-117/SS-118/SS-119: first team one pick, the other two, then alternating; both
    teams end equal, and with one a team the 'two' is cut to one."""
    assert draft_order(0, per_team) == order
    assert draft_order(1, per_team) == [1 - t for t in order]
    assert draft_order(0, per_team).count(0) == per_team == draft_order(0, per_team).count(1)


def test_draft_picks_and_refusals():
    """SS-117/SS-118: picks follow the order; a taken Superstar is refused, nothing changes."""
    state = settle(event("full_card"), coin=0)
    state = act(state, 0, {"type": "draft", "superstar": "oakhart"})
    assert RULES.pending(state).seats == (1,)
    assert refused(state, 1, {"type": "draft", "superstar": "oakhart"}) == "superstar_taken"
    assert refused(state, 1, {"type": "draft", "superstar": "nobody"}) == "unknown_superstar"
    assert refused(state, 0, {"type": "draft", "superstar": "abbot"}) == "not_your_turn"
    state = act(state, 1, {"type": "draft", "superstar": "skylark"})
    assert RULES.pending(state).seats == (1,)  # Blue's second pick in a row
    state = draft(state, RED[1:], BLUE[1:])
    assert state.event.rosters == [list(RED), list(BLUE)]
    assert state.phase in (Phase.SETUP, Phase.SEND_IN)


def test_send_in_is_face_down_until_both_reveal():
    """SS-133: both teams choose face down; neither the view nor the event history shows
    a team's choice to the other before (or after) the reveal."""
    state = draft(settle(event(TWO_H2H)), RED[:1], BLUE[:1])
    state = draft(settle(event({"matches": [{"match": "tag_team", "stipulation": "hardcore"}] * 2,
                                "superstars_per_team": 3})))
    assert state.phase is Phase.SEND_IN
    choice = {"type": "send_in", "superstars": ["blaze", "oakhart"]}
    ev = Event.decision(0, choice)
    after = RULES.apply(state, ev)
    rival = RULES.view(after, 1)["event"]["teams"][0]
    assert rival["sent_in_chosen"] is True and rival["sent_in"] is None
    assert "blaze" not in json.dumps(RULES.redact(state, ev, 1))
    assert "blaze" not in json.dumps(RULES.redact(state, ev, None))
    assert RULES.redact(state, ev, 0)["action"] == choice
    assert RULES.view(after, 0)["event"]["teams"][0]["sent_in"] == ["blaze", "oakhart"]
    # A bot of the other team resamples the face-down choice instead of reading it.
    seen = {tuple(RULES.determinize(after, 1, random.Random(i)).send_in[0]) for i in range(20)}
    assert len(seen) > 1
    revealed = settle(act(after, 1, {"type": "send_in", "superstars": ["skylark", "cavallo"]}))
    assert revealed.phase is Phase.PLAY
    assert revealed.sides[0].superstar == "blaze"  # the first named starts as Active
    assert [m.superstar for m in revealed.sides[0].bench] == ["oakhart"]
    assert revealed.event.matches[0].sent == [[2, 0], [0, 1]]


def test_send_in_refusals():
    """SS-133/SS-143: only your own drafted Superstars, the Match card's number, no twice."""
    state = draft(settle(event({"matches": [{"match": "tag_team", "stipulation": "hardcore"}] * 2,
                                "superstars_per_team": 3})))
    send = {"type": "send_in"}
    assert refused(state, 0, {**send, "superstars": ["skylark", "oakhart"]}) == \
        "not_your_superstar"
    assert refused(state, 0, {**send, "superstars": ["oakhart", "oakhart"]}) == \
        "duplicate_superstar"
    assert refused(state, 0, {**send, "superstars": ["oakhart"]}) == "wrong_superstar_count"


def test_match_cards_and_stipulations_drawn_without_repeats():
    """SS-128/SS-129/SS-160: drawn Match cards come once each before any repeats, so
    the Full Card's four Matches are one of each card; draws are stored chance events."""
    state = draft(settle(event("full_card"), coin=1), RED, BLUE, draw=False)
    assert RULES.pending(state).kind is PendingKind.CHANCE
    outcome = RULES.sample_chance(state, random.Random(3))
    assert set(outcome) == {"match_card"}
    info = EventInfo(plan=read_event_options("full_card"))
    seen = []
    for _ in range(4):
        card = sorted(info.drawable_cards())[0]
        seen.append(card)
        info.used_cards.append(card)
    assert sorted(seen) == sorted(MATCH_CARDS)
    assert sorted(info.drawable_cards()) == sorted(MATCH_CARDS)  # reshuffled when out
    with pytest.raises(IllegalAction):
        chance(state, {"match_card": "ladder_match"})
    state = settle(state, draws=["gauntlet", "hardcore"])
    assert (state.event.record.card, state.event.record.stipulation) == ("gauntlet", "hardcore")
    assert "gauntlet" not in state.event.drawable_cards()
    assert "hardcore" not in state.event.drawable_stipulations()


def test_only_fieldable_match_cards_are_drawn():
    """SS-119/SS-128: with two Superstars a team the 6-Man Tag is never drawn."""
    info = EventInfo(plan=read_event_options({"matches": [{"match": None, "stipulation": None}] * 2,
                                              "superstars_per_team": 2}))
    assert "six_man_tag" not in info.drawable_cards()
    with pytest.raises(IllegalAction) as error:
        read_event_options({"matches": [{"match": "six_man_tag", "stipulation": None}] * 2,
                            "superstars_per_team": 2})
    assert error.value.code == "bad_option"


def test_presets():
    """SS-160/SS-161/SS-162: Full Card, Tag Team Series, Ultimate Endurance."""
    smack = read_event_options("full_card")
    assert len(smack.matches) == len(MATCH_CARDS) and all(m == (None, None) for m in smack.matches)
    series = read_event_options("tag_team_series")
    assert all(MATCH_CARDS[m].kind == "tag" for m, _ in series.matches)
    endurance = read_event_options("ultimate_endurance")
    assert len(endurance.matches) == 4 and {s for _, s in endurance.matches} == {"endurance"}
    assert set(PRESETS) == {"full_card", "tag_team_series", "ultimate_endurance"}


def test_the_full_cards_earlier_key_is_still_read():
    """Stored Event options and streams carry "smackdown", the Full Card's earlier key: it
    plays the Full Card, and the plan keeps the key as stored."""
    earlier = read_event_options("smackdown")
    assert earlier.matches == read_event_options("full_card").matches
    assert earlier.preset == "smackdown"


@pytest.mark.parametrize("bad", [
    "royal_brawl", {"matches": []}, {"matches": [{"match": "head_to_head"}]},
    {"matches": [{"match": "cage_of_doom", "stipulation": None}] * 2},
    {"matches": [{"match": None, "stipulation": "mud_pit"}] * 2},
    {"matches": [{"match": None, "stipulation": None}] * 13},
    {"matches": [{"match": None, "stipulation": None}] * 2, "superstars_per_team": 4},
    {"matches": [{"match": None, "stipulation": None}] * 2, "extra": 1},
])
def test_bad_event_options_are_refused(bad):
    """SS-127: an Event is two Matches or more (at most 12), of known cards."""
    with pytest.raises(IllegalAction) as error:
        RULES.start({"event": bad}, 2)
    assert error.value.code == "bad_option"


def test_an_event_has_at_most_twelve_matches():
    """SS-127 (decision): the rulebook allows as many Matches as you'd like; ours caps an
    Event at 12 (a league night's length, a bounded event stream): 12 start, 13 do not."""
    plan = {"matches": [{"match": "head_to_head", "stipulation": None}] * 12,
            "superstars_per_team": 1}
    assert len(RULES.start({"event": plan}, 2).event.matches) == 12
    with pytest.raises(IllegalAction) as error:
        RULES.start({"event": {**plan, "matches": plan["matches"] * 2}}, 2)
    assert error.value.code == "bad_option" and "2-12 Matches" in str(error.value)


def test_teams_option_and_seat_counts():
    """SS-114: one to three players a team; seats alternate Red, Blue unless 'teams' says."""
    assert RULES.start({"event": "full_card"}, 6).teams == (0, 1, 0, 1, 0, 1)
    assert RULES.start({"event": "full_card", "teams": [0, 0, 1]}, 3).teams == (0, 0, 1)
    for teams, seats in (([0, 0, 0, 0, 1], 5), ([0, 0], 2), ([0, 1, 2], 3)):
        with pytest.raises(IllegalAction) as error:
            RULES.start({"event": "full_card", "teams": teams}, seats)
        assert error.value.code == "bad_option"
    with pytest.raises(IllegalAction) as error:
        RULES.start({}, 4)
    assert error.value.code == "bad_seat_count"


def test_team_players_share_the_work():
    """SS-114: the captain drafts and sends in; the Active Superstar's player plays the
    ring decisions; teammates see their team's hand, the rival team does not."""
    state = match_state("tag_team", per_team=2, red=("oakhart", "abbot"),
                        blue=("skylark", "cavallo"), seats=4)
    # Red seats 0 and 2: oakhart is Red's first pick (slot 0) -> seat 0 plays it.
    assert RULES.pending(state).seats == (0, 1)
    assert RULES.legal_actions(state, 2) == []
    hand = RULES.view(state, 2)["sides"][0]["hand"]
    assert hand and [c["id"] for c in hand] == sorted(state.sides[0].hand)
    assert RULES.view(state, 1)["sides"][0]["hand"] is None
    assert RULES.view(state, 3)["sides"][0]["hand"] is None
    swapped = state.clone()
    swapped.sides[0].slot = 1  # abbot (Red's second pick) is Active: seat 2 plays
    assert RULES.pending(swapped).seats == (1, 2)


def test_ranking_points_for_each_match_card():
    """SS-120/SS-121/SS-122/SS-134: the Match card's points for a win; bigger Matches give
    more; a Gauntlet adds points for each rival defeated."""
    wins = [MATCH_CARDS[k].win for k in ("head_to_head", "tag_team", "six_man_tag")]
    assert wins == sorted(wins) and MATCH_CARDS["tag_team"].win == 60
    record = MatchRecord(card="gauntlet", winner=0, finished=True, defeated=[2, 1])
    card = MATCH_CARDS["gauntlet"]
    assert points_for(card, record, 0) == card.win + 2 * card.per_defeat
    assert points_for(card, record, 1) == card.loss + card.per_defeat
    draw = MatchRecord(card="head_to_head", draw=True, finished=True)
    assert points_for(MATCH_CARDS["head_to_head"], draw, 0) == MATCH_CARDS["head_to_head"].draw


def test_rulebook_example_77_ranking_points():
    """SS-142/SS-138/SS-136: a Tag Team win is 60; 42 stack cards buy a 25-card Slam and
    the other 17 become 17 Ranking Points: 77 in all."""
    state = match_state("tag_team", per_team=2)
    state = to_bonus(state, 42, 0, winner=0)
    assert state.phase is Phase.BONUS
    assert state.event.record.points[0] == 60
    assert RULES.pending(state).seats == (0,)  # Blue has nothing to spend
    state = act(state, 0, {"type": "buy_bonus", "card": "g26", "superstar": "oakhart"})
    assert state.event.stack_left[0] == 17
    state = act(state, 0, {"type": "bonus_points", "points": 17})
    red = RULES.view(state, None)["event"]["teams"][0]
    assert (red["match_points"], red["bonus_points"], red["total"]) == (60, 17, 77)
    assert red["bonus_cards"] == [{"card": "g26", "superstar": "oakhart", "price": 25,
                                   "name": "Thunderclap Driver"}]
    assert state.phase in (Phase.SETUP, Phase.SEND_IN)


def test_thirty_card_stack_example():
    """SS-141: 30 cards buy a 25-card Slam plus 5 Ranking Points, or two 15-card cards."""
    base = to_bonus(match_state("tag_team", per_team=2), 30, 0)
    one = act(act(base, 0, {"type": "buy_bonus", "card": "g29", "superstar": "abbot"}),
              0, {"type": "bonus_points", "points": 5})
    assert sum(one.event.totals(0)) == 60 + 5
    two = act(act(base, 0, {"type": "buy_bonus", "card": "g11", "superstar": "abbot"}),
              0, {"type": "buy_bonus", "card": "g12", "superstar": "oakhart"})
    assert two.event.stack_left[0] == 0 and two.phase is not Phase.BONUS
    assert two.event.bonus[0] == [["g12"], ["g11"]]


def test_bonus_refusals_leave_everything_unchanged():
    """SS-135/SS-139: both teams spend, the loser first (one shared pool); the whole stack
    must be spent; a purchase over the stack is refused; a bought card is gone from the
    pool; Bonus cards go to your own Superstars."""
    state = to_bonus(match_state("tag_team", per_team=2), 20, 16)
    assert RULES.pending(state).seats == (1,)  # the loser spends first, then the winner
    state = act(state, 1, {"type": "buy_bonus", "card": "g11", "superstar": "skylark"})
    state = act(state, 1, {"type": "bonus_points", "points": 1})
    assert RULES.pending(state).seats == (0,)
    assert refused(state, 0, {"type": "buy_bonus", "card": "g26", "superstar": "oakhart"}) \
        == "over_stack"
    assert refused(state, 0, {"type": "bonus_points", "points": 12}) == "stack_not_spent"
    assert refused(state, 0, {"type": "bonus_points", "points": 21}) == "over_stack"
    assert refused(state, 0, {"type": "buy_bonus", "card": "g12", "superstar": "skylark"}) \
        == "not_your_superstar"
    assert refused(state, 0, {"type": "buy_bonus", "card": "g99", "superstar": "oakhart"}) \
        == "unknown_bonus_card"
    assert refused(state, 0, {"type": "buy_bonus", "card": "g11", "superstar": "oakhart"}) \
        == "bonus_card_sold"
    assert refused(state, 0, {"type": "draft", "superstar": "blaze"}) == "out_of_order"


def test_bonus_cards_join_the_deck_for_later_matches():
    """SS-137/SS-132/SS-136: a bought card is in that Superstar's deck in the next Match;
    Given Up cards are back in their own decks, each deck whole again."""
    state = to_bonus(match_state("tag_team", per_team=2), 25, 0)
    state = act(state, 0, {"type": "buy_bonus", "card": "g30", "superstar": "oakhart"})
    state = settle(send_in(state, ["oakhart"], ["skylark"]))
    red = state.sides[0]
    everything = red.deck + red.hand
    assert len(everything) == 31 and "r1-31" in everything
    assert state.card("r1-31").name == "Comet Crash"
    assert len(state.sides[1].deck + state.sides[1].hand) == 30
    assert state.sides[0].performance == [] and state.sides[1].performance == []


def test_one_combined_performance_stack_per_team():
    """SS-115: cards Given Up by either rival Superstar go to one team stack."""
    state = match_state("tag_team", per_team=2)
    s = state.clone()
    s.sides[1].performance = ["r1-01"]
    RULES._tag(s, 0, 0)  # abbot tags in for oakhart
    s.shuffles.clear()
    s.sides[1].performance.append(s.sides[0].deck[0])
    assert {c.split("-")[0] for c in s.sides[1].performance} == {"r1", "r2"}
    assert RULES.view(s, None)["sides"][1]["performance_count"] == 2


def test_event_winner_and_tie_break():
    """SS-130/SS-131: most Ranking Points wins; equal points go to more Matches won;
    still equal is a draw."""
    info = EventInfo(plan=read_event_options(TWO_H2H),
                     matches=[MatchRecord(card="head_to_head", finished=True, winner=0,
                                          points=[30, 5], bonus_points=[0, 25]),
                              MatchRecord(card="head_to_head", finished=True, winner=1,
                                          points=[5, 30], bonus_points=[10, 0])])
    assert info.event_winner() == 1  # 45 to 60
    info.matches[1].bonus_points = [35, 0]
    assert [sum(info.totals(t)) for t in (0, 1)] == [70, 60]
    assert info.event_winner() == 0
    info.matches[1].bonus_points = [25, 0]
    assert [sum(info.totals(t)) for t in (0, 1)] == [60, 60]
    assert info.event_winner() is None  # level, one Match won each: a draw
    info.matches[1].winner, info.matches[1].draw = None, True
    assert info.event_winner() == 0  # level on points, Red won more Matches


def test_event_result_places_whole_teams():
    """SS-130: the Event's result places every player of the winning team first."""
    state, _log = play_match(RULES, [HeuristicBot()] * 4, random.Random(5),
                             {"event": TWO_H2H | {"superstars_per_team": 2}})
    result = RULES.result(state)
    assert result is not None and state.phase is Phase.OVER
    totals = [sum(state.event.totals(t)) for t in (0, 1)]
    if result.draw:
        assert set(result.placements) == {1}
    else:
        winner = 0 if totals[0] > totals[1] else 1
        assert result.winners == tuple(s for s in range(4) if s % 2 == winner)
        assert result.placements == tuple(1 if s % 2 == winner else 2 for s in range(4))
    for seat in range(4):
        assert result.figures[seat]["ranking_points"] == totals[seat % 2]
    assert len(state.event.matches) == 2 and all(m.finished for m in state.event.matches)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_play_to_the_end_with_bots(preset):
    """SS-127/SS-160..SS-162 and issue #5's bots: every decision of a whole Event is taken
    by the heuristic bot, every Match is played and paid out."""
    state, log = play_match(RULES, [HeuristicBot()] * 2, random.Random(11), {"event": preset})
    assert state.phase is Phase.OVER
    info = state.event
    assert all(m.finished and m.card in MATCH_CARDS and m.stipulation in STIPULATIONS
               for m in info.matches)
    kinds = {e.action["type"] for e in log if e.action}
    assert {"draft", "send_in", "bonus_points"} <= kinds
    if preset == "full_card":
        assert sorted(m.card for m in info.matches) == sorted(MATCH_CARDS)
    replayed = RULES.replay({"event": preset}, 2, log)
    assert RULES.view(replayed, None) == RULES.view(state, None)


@pytest.mark.parametrize(("options", "seats", "teams"), [
    ({}, 2, None),  # Core Rules: one against one
    ({"event": "full_card"}, 4, (0, 1, 0, 1)),  # Red and Blue take turns at the table
    ({"event": "full_card", "teams": [0, 1, 1, 1]}, 4, (0, 1, 1, 1))])
def test_an_events_sides_are_its_teams(options: dict, seats: int,
                                       teams: tuple[int, ...] | None) -> None:
    assert RULES.teams(options, seats) == teams
    assert RULES.teams_at(RULES.start(options, seats)) == teams  # what a search bot reads


@pytest.mark.parametrize(("match", "said"), [("head_to_head", "takes 1 Superstar a team."),
                                            ("tag_team", "takes 2 Superstars a team.")])
def test_a_send_in_of_the_wrong_size_counts_the_superstars_in_words(match: str,
                                                                   said: str) -> None:
    """It read "takes 1 Superstar(s) a team", a form's wording."""
    plan = {"matches": [{"match": match, "stipulation": "standard_1"},
                        {"match": "head_to_head", "stipulation": "standard_2"}],
            "superstars_per_team": 3}
    state = draft(settle(event(plan)))
    captain = state.players(0)[0]
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, Event.decision(captain, {"type": "send_in",
                                                    "superstars": list(RED)}))
    assert error.value.code == "wrong_superstar_count"
    assert error.value.message.endswith(said), error.value.message
