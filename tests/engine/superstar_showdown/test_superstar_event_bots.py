"""The heuristic bot's Advanced Rules decisions: draft, Send In, tagging, Bonus spending."""

from __future__ import annotations

import random

from ss_event_helpers import RULES, act, end_round, event, match_state, pinned, place, settle

from engine.games.superstar_showdown import HeuristicBot
from engine.games.superstar_showdown.bots import strength
from engine.games.superstar_showdown.cards import ROSTER
from engine.games.superstar_showdown.event import BONUS_CARDS
from engine.games.superstar_showdown.state import EndReason, Phase

BOT = HeuristicBot()


def choose(state, seat):
    return BOT.choose(RULES, state, seat, random.Random(0))


def test_bot_drafts_the_strongest_superstar_left():
    """SS-117: the bot's pick is legal and the strongest deck by its own measure."""
    state = settle(event("full_card"), coin=0)
    pick = choose(state, 0)
    assert pick == {"type": "draft", "superstar": max(ROSTER, key=strength)}
    state = act(state, 0, pick)
    second = choose(state, 1)
    assert second["superstar"] != pick["superstar"]


def test_bot_sends_in_and_tags_out_when_worn_down():
    """SS-133/SS-147/SS-151: a legal Send In; at the end of a round a worn-down Active
    tags a fresh teammate, a fresh one stays in; Pinned, it tags rather than count."""
    state = place(match_state("tag_team", per_team=2), 0, (1, 1))
    fresh = end_round(state)
    assert choose(fresh, 0) == {"type": "no_tag"}
    worn = state.clone()
    worn.sides[1].performance = worn.sides[0].deck[:20]
    worn.sides[0].deck = worn.sides[0].deck[20:]
    assert choose(end_round(worn), 0) == {"type": "tag_out", "superstar": "abbot"}
    assert choose(pinned(state, 0), 0) == {"type": "tag_out", "superstar": "abbot"}


def test_bot_spends_the_stack_on_cards_then_points():
    """SS-135..SS-139: between Matches the bot buys the dearest card it can afford; after
    the last Match every card becomes Ranking Points."""
    state = match_state("tag_team", per_team=2)
    s = state.clone()
    s.sides[0].performance = sorted(c for c in s.catalog if c[0] == "b")[:40]
    RULES._match_over(s, 0, EndReason.KNOCKED_OUT, "A test Knock Out.")
    buy = choose(s, 0)
    assert buy["type"] == "buy_bonus" and BONUS_CARDS[buy["card"]].price == 25
    last = s.clone()
    last.event.current = len(last.event.matches) - 1
    assert choose(last, 0) == {"type": "bonus_points", "points": 40}
    assert last.phase is Phase.BONUS
