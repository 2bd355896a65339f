"""Who is asked tells nothing about a hand (RR-28 decision, and the project standard:
hidden information never reaches a seat that may not see it).

Each test builds two tables that differ only in one seat's hand: in one it holds a card
that answers the question (a Defense, a Run-In or Ref, Holding On, an Attack to follow
up with), in the other a card that does not. Both are driven through the same events;
every other seat and a spectator must see exactly the same thing all along (views,
who is pending, narration, redacted events), and the seat's own view differs only in
its hand. The seat holding no answer is asked all the same, with the decline as its
only legal action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from rr_helpers import RULES, Table, breathe, card_of, decider, do, legal, names, plan, settle

from engine import registry
from engine.games.royal_rumble import HeuristicBot
from engine.games.royal_rumble.cards import card
from engine.games.royal_rumble.state import State, Step
from engine.protocol import JSON, Event

L3 = ["ironhide", "vesper", "bramble"]
L4 = ["ironhide", "vesper", "bramble", "rook"]
NOTHING = "Power Surge"  # a Boost: answers no question outside Plan


def twin(state: State, seat: int, have: str, instead: str = NOTHING) -> State:
    """The same table but for one card: the seat's `have` swaps places with the deck's
    last copy of `instead` (deep enough that no one draws it in these tests)."""
    other = state.clone()
    hand, deck = other.players[seat].hand, other.deck
    mine = hand.index(card_of(other, seat, have))
    there = max(i for i, c in enumerate(deck) if card(c).name == instead)
    hand[mine], deck[there] = deck[there], hand[mine]
    assert there > len(deck) // 2
    return other


def seen(state: State, hidden: int, script: Sequence[tuple[int, JSON]]) -> list[Any]:
    """Everything the other seats and a spectator are shown while `script` is played."""
    others: list[int | None] = [v for v in range(state.n) if v != hidden] + [None]
    out: list[Any] = []
    for seat, action in script:
        out.append([RULES.view(state, v) for v in others])
        out.append(RULES.pending(state).seats)
        event = Event.decision(seat, action)
        out.append(RULES.narrate(state, event))
        out.append([RULES.redact(state, event, v) for v in others])
        state = RULES.apply(state, event)
    out.append([RULES.view(state, v) for v in others])
    return out


def own_view_but_hand(state: State, seat: int) -> JSON:
    view = RULES.view(state, seat)
    view["players"][seat]["hand"] = None
    return view


def assert_same_to_the_table(holds: State, lacks: State, hidden: int,
                             script: Sequence[tuple[int, JSON]]) -> None:
    assert RULES.view(holds, None) == RULES.view(lacks, None)
    assert own_view_but_hand(holds, hidden) == own_view_but_hand(lacks, hidden)
    assert seen(holds, hidden, script) == seen(lacks, hidden, script)


def test_a_target_without_a_defense_is_asked_to_defend_all_the_same() -> None:
    """RR-28 decision, RR-27, RR-31: the target of a blockable attack is always asked;
    holding no Defense that cancels it, "no defense" is its only action, and the table
    sees the same prompt and reads the same "does not defend" as when it held Leg Catch
    and chose not to use it."""
    worlds = []
    table = Table().build(L3, {0: ["Roundhouse"], 1: ["Leg Catch"]})
    for s in (table, twin(table, 1, "Leg Catch")):
        s = plan(s, 0, "Roundhouse", 1)
        s = breathe(s, 1)
        worlds.append(breathe(s, 2))
    holds, lacks = worlds
    for s in worlds:
        assert s.step is Step.DEFEND and decider(s) == 1
        assert RULES.view(s, None)["decision"]["seats"] == [1]
    assert legal(holds, 1) == [{"type": "defend", "card": card_of(holds, 1, "Leg Catch")},
                               {"type": "no_defense"}]
    assert legal(lacks, 1) == [{"type": "no_defense"}]
    decline = Event.decision(1, {"type": "no_defense"})
    assert RULES.narrate(holds, decline) == RULES.narrate(lacks, decline) == [
        "Seat 2 does not defend."]
    # then seat 3 may Run-In (it holds nothing: passing is all it can do) and it hits
    assert_same_to_the_table(holds, lacks, 1, [(1, {"type": "no_defense"}),
                                               (2, {"type": "pass"})])
    # the bots: the heuristic defends when it can and declines when that is all it can do
    assert HeuristicBot().choose(RULES, holds, 1, random.Random(1))["type"] == "defend"
    assert HeuristicBot().choose(RULES, lacks, 1, random.Random(1)) == {"type": "no_defense"}
    for level in ("search-easy", "search-hard"):
        bot = registry.get_bot("royal_rumble", level)
        assert bot.choose(RULES, lacks, 1, random.Random(1)) == {"type": "no_defense"}


def test_an_unblockable_attack_asks_nobody_to_defend() -> None:
    """RR-62, RR-28 decision: whether the defend step opens is a public fact (the attack
    can't be blocked), the same whatever the target holds."""
    table = Table().build(L3, {0: ["Roundhouse", "Blind Side"], 1: ["Leg Catch"]})
    for s in (table, twin(table, 1, "Leg Catch")):
        s = plan(s, 0, "Roundhouse", 1, "Blind Side")
        s = breathe(s, 1)
        s = breathe(s, 2)
        assert s.step is Step.INTERVENE and decider(s) == 2


@pytest.mark.parametrize(("boost", "answer", "responders"), [
    (None, "Run-In", [2, 0]),                  # ordinary: all but attacker and target
    ("Loaded Glove", "Ref's Eye", [2, 3, 0]),  # a Cheap Trick: the target may Ref too
])
def test_every_eligible_responder_is_asked_titleholder_first(
        boost: str | None, answer: str, responders: list[int]) -> None:
    """RR-28 decision, RR-44, RR-72: seat 3 holds the token, seat 2 attacks seat 4; the
    responders are asked from the Titleholder clockwise, each whatever it holds. Seat 1
    holding a Run-In (a Ref against a Cheap Trick) or a useless Boost looks the same to
    the table, and its pass reads the same."""
    worlds = []
    table = Table().build(L4, {1: ["Roundhouse", *([boost] if boost else [])], 0: [answer]},
                          titleholder=2)
    for s in (table, twin(table, 0, answer)):
        s = breathe(s, 2)
        s = breathe(s, 3)
        s = breathe(s, 0)
        worlds.append(plan(s, 1, "Roundhouse", 3, boost))
    holds, lacks = worlds
    script: list[tuple[int, JSON]] = [(3, {"type": "no_defense"})]
    script += [(seat, {"type": "pass"}) for seat in responders]
    s = lacks
    for seat, action in script:  # every one is asked; each can only decline
        assert decider(s) == seat and legal(s, seat) == [action]
        assert s.step is (Step.DEFEND if action["type"] == "no_defense" else Step.INTERVENE)
        if seat == 0:
            assert HeuristicBot().choose(RULES, s, 0, random.Random(2)) == action
        s = RULES.apply(s, Event.decision(seat, action))
    s = settle(holds)  # the same seats are asked before seat 1, which may now answer
    assert decider(s) == 0 and s.step is Step.INTERVENE
    assert legal(s, 0) == [{"type": "run_in" if answer == "Run-In" else "ref",
                            "card": card_of(s, 0, answer)}, {"type": "pass"}]
    assert_same_to_the_table(holds, lacks, 0, script)


def test_the_responders_pass_reads_the_same_whatever_it_holds() -> None:
    """RR-28 decision: "Seat N does not intervene." for a seat that could have played a
    Run-In and one that could not."""
    lines = []
    table = Table().build(L4, {0: ["Roundhouse"], 2: ["Run-In"]})
    for s in (table, twin(table, 2, "Run-In")):
        s = plan(s, 0, "Roundhouse", 1)
        s = breathe(s, 1)
        s = breathe(s, 2)
        s = do(breathe(s, 3), 1, {"type": "no_defense"})
        assert s.step is Step.INTERVENE and decider(s) == 2  # the first to be asked
        lines.append(RULES.narrate(s, Event.decision(2, {"type": "pass"})))
    assert lines[0] == lines[1] == ["Seat 3 does not intervene."]


def test_a_thrown_target_without_holding_on_is_asked_to_hold_on_all_the_same() -> None:
    """RR-28 decision, RR-35, RR-47: Heave-Ho throws Vesper; whether or not she holds
    Holding On she "is going over the top rope..." and is asked; without the card,
    "let go" is all she can do, and the table sees the same either way."""
    worlds = []
    table = Table().build(L3, {0: ["Jab Flurry", "Heave-Ho"], 1: ["Holding On"]},
                          reserve=["rook"])
    for s in (table, twin(table, 1, "Holding On")):
        s = plan(s, 0, "Jab Flurry", 1, "Heave-Ho")
        s = breathe(s, 1)
        worlds.append(breathe(s, 2))
    holds, lacks = worlds
    script: list[tuple[int, JSON]] = [(1, {"type": "no_defense"}), (1, {"type": "pass"}),
                                      (2, {"type": "pass"})]
    for s in worlds:
        for seat, action in script[:-1]:
            s = RULES.apply(s, Event.decision(seat, action))
        lines = RULES.narrate(s, Event.decision(*script[-1]))
        assert "Vesper Nightingale is going over the top rope..." in lines
        assert "Vesper Nightingale is thrown over the top rope!" not in lines
        s = RULES.apply(s, Event.decision(*script[-1]))
        assert s.step is Step.HOLD_ON and decider(s) == 1
        if names(s, s.players[1].hand) == [NOTHING]:
            assert legal(s, 1) == [{"type": "let_go"}]
            assert HeuristicBot().choose(RULES, s, 1, random.Random(3)) == {"type": "let_go"}
        else:
            assert [a["type"] for a in legal(s, 1)] == ["hold_on", "let_go"]
        after = RULES.narrate(s, Event.decision(1, {"type": "let_go"}))
        assert "Vesper Nightingale is thrown over the top rope!" in after
    script.append((1, {"type": "let_go"}))
    assert_same_to_the_table(holds, lacks, 1, script)


def test_an_attacker_with_no_attack_left_is_asked_to_follow_up_all_the_same() -> None:
    """RR-32, RR-41, RR-28 decision (applied to the follow-up): Whirlwind Kick hits and
    allows another attack; the attacker is asked whether or not it holds an Attack card,
    so the table does not learn that its hand has none."""
    worlds = []
    table = Table().build(L3, {0: ["Whirlwind Kick", "Snap Kick"]})
    for s in (table, twin(table, 0, "Snap Kick")):
        s = plan(s, 0, "Whirlwind Kick", 1)
        s = breathe(s, 1)
        s = do(breathe(s, 2), 1, {"type": "no_defense"})
        worlds.append(do(s, 2, {"type": "pass"}))
    holds, lacks = worlds
    for s in worlds:
        assert s.step is Step.FOLLOW and decider(s) == 0
    assert len(legal(holds, 0)) == 3  # Snap Kick at seat 2 or 3, or skip
    assert legal(lacks, 0) == [{"type": "skip"}]
    assert HeuristicBot().choose(RULES, lacks, 0, random.Random(4)) == {"type": "skip"}
    assert_same_to_the_table(holds, lacks, 0, [(0, {"type": "skip"})])


def test_being_asked_does_not_steer_the_determinization() -> None:
    """RR-28 decision: as being asked carries no information, a rival asked to defend is
    dealt any hand when another seat determinizes: here Vesper holds Leg Catch, yet most
    of seat 1's guesses give her nothing that cancels the Kick."""
    s = Table().build(L3, {0: ["Roundhouse"], 1: ["Leg Catch"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = breathe(s, 1)
    s = breathe(s, 2)
    assert s.step is Step.DEFEND and decider(s) == 1
    only_decline = 0
    for k in range(20):
        guess = RULES.determinize(s, 0, random.Random(k))
        assert RULES.view(guess, 0) == RULES.view(s, 0)
        assert guess.step is Step.DEFEND and decider(guess) == 1
        only_decline += legal(guess, 1) == [{"type": "no_defense"}]
    assert only_decline > 10
