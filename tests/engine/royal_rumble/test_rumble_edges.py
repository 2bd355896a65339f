"""Boosts, Cheap Tricks, Signatures, Specials, the token, reserve and the end:
RR-39..RR-59 and the edge cases RR-61..RR-72."""

from __future__ import annotations

import json

import pytest
from rr_helpers import (
    RULES,
    Table,
    breathe,
    card_of,
    decider,
    do,
    legal,
    names,
    plan,
    refused,
    settle,
)

from engine.games.royal_rumble.state import Phase, State, Step
from engine.protocol import Event, IllegalAction

L3 = ["ironhide", "vesper", "bramble"]


def test_a_cheap_trick_boost_makes_the_whole_attack_a_cheap_trick() -> None:
    """RR-39, RR-44, RR-61: any player's Ref card (here not the target's) cancels it."""
    s = Table().build(L3, {0: ["Roundhouse", "Loaded Glove"], 2: ["Ref's Eye"]})
    s = plan(s, 0, "Roundhouse", 1, "Loaded Glove")
    s = breathe(s, 1)
    asked: list[tuple[int, str]] = []
    s = settle(breathe(s, 2), asked)
    assert asked == [(1, "defend"), (1, "intervene")]  # the target may Ref too, holds none
    assert s.step is Step.INTERVENE and decider(s) == 2
    assert RULES.view(s, 2)["current"]["cheap_trick"] is True
    s = do(s, 2, {"type": "ref", "card": card_of(s, 2, "Ref's Eye")})
    assert s.players[1].damage == [] and s.last_reveal[0].status == "cancelled"


def test_a_ref_card_cannot_cancel_an_ordinary_attack() -> None:
    """RR-44: no Cheap Trick, no Ref: the holder is asked (it could Run-In, RR-28
    decision) but passing is all it can do."""
    s = Table().build(L3, {0: ["Roundhouse"], 2: ["Ref's Eye"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = breathe(s, 1)
    s = breathe(s, 2)
    s = do(s, 1, {"type": "no_defense"})
    assert s.step is Step.INTERVENE and decider(s) == 2  # the target may not Run-In
    assert legal(s, 2) == [{"type": "pass"}]
    s = do(s, 2, {"type": "pass"})
    assert names(s, s.players[1].damage) == ["Roundhouse"]


def test_an_unblockable_boost_stops_defense_cards() -> None:
    """RR-40, RR-62: Blind Side: the target's Leg Catch cannot be used."""
    s = Table().build(L3, {0: ["Roundhouse", "Blind Side"], 1: ["Leg Catch"]})
    s = plan(s, 0, "Roundhouse", 1, "Blind Side")
    s = breathe(s, 1)
    asked: list[tuple[int, str]] = []
    s = settle(breathe(s, 2), asked)
    assert asked == [(2, "intervene")]  # no defend step at all: the attack can't be blocked
    assert names(s, s.players[1].damage) == ["Roundhouse", "Blind Side"]


def test_no_boost_on_a_follow_up_attack() -> None:
    """RR-41, RR-63: after Whirlwind Kick hits, attack again, but a Boost is refused."""
    s = Table().build(L3, {0: ["Whirlwind Kick", "Snap Kick", "Power Surge", "Adrenaline Rush"]})
    s = plan(s, 0, "Whirlwind Kick", 1, "Power Surge")
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.step is Step.FOLLOW and decider(s) == 0
    assert {a["type"] for a in legal(s, 0)} == {"follow_up", "skip"}
    assert refused(s, 0, {"type": "boost", "card": card_of(s, 0, "Adrenaline Rush")}) == \
        "no_boost_on_follow_up"
    s = settle(do(s, 0, {"type": "follow_up", "card": card_of(s, 0, "Snap Kick"), "seat": 2}))
    assert names(s, s.players[2].damage) == ["Snap Kick"]
    assert "Adrenaline Rush" in names(s, s.players[0].hand)


def test_a_signature_only_when_a_card_says_so_then_to_the_box() -> None:
    """RR-45, RR-46, RR-64: Springboard Kick hits; the Signature may follow, once."""
    s = Table().build(L3, {0: ["Springboard Kick", "Snap Kick"]})
    s = plan(s, 0, "Snap Kick", 1)
    assert refused(s, 1, {"type": "signature", "seat": 0}) == "no_signature_trigger"
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.step is not Step.FOLLOW  # Snap Kick has no Signature trigger
    s = plan(s, 0, "Springboard Kick", 2)
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.step is Step.FOLLOW
    assert {"type": "signature", "seat": 2} in legal(s, 0)
    s = settle(do(s, 0, {"type": "signature", "seat": 2}))
    assert s.players[0].signature is None
    assert names(s, s.players[2].damage) == ["Springboard Kick", "Anvil Drop"]
    assert RULES.view(s, None)["players"][0]["legend"]["signature"] is None


def test_holding_on_cancels_the_throw_and_removes_one_damage_card() -> None:
    """RR-47: the thrown Legend survives with one damage card fewer (the biggest)."""
    s = Table().build(L3, {0: ["Jab Flurry", "Heave-Ho"], 1: ["Holding On"]},
                      damage={1: ["Snap Kick", "Haymaker"]})
    s = plan(s, 0, "Jab Flurry", 1, "Heave-Ho")
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.step is Step.HOLD_ON and decider(s) == 1
    s = do(s, 1, {"type": "hold_on", "card": card_of(s, 1, "Holding On")})
    assert s.players[1].legend == "vesper"
    assert sorted(names(s, s.players[1].damage)) == ["Heave-Ho", "Jab Flurry", "Snap Kick"]


def test_after_holding_on_remaining_damage_can_still_eliminate() -> None:
    """RR-67: Vesper (12 health) Holds On, and the damage left still eliminates."""
    s = Table().build(L3, {0: ["Lariat", "Heave-Ho"], 1: ["Holding On"]},
                      damage={1: ["Sit-Out Bomb", "Haymaker", "Body Slam", "Snap Kick"]},
                      reserve=["rook"])
    s = plan(s, 0, "Lariat", 1, "Heave-Ho")  # 17 in all; minus 5 held off = 12 >= 12
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    s = do(s, 1, {"type": "hold_on", "card": card_of(s, 1, "Holding On")})
    assert s.players[0].placards == ["vesper"] and s.players[1].legend == "rook"


def test_the_token_passes_to_whoever_eliminates_the_titleholders_legend() -> None:
    """RR-49, RR-50 decision, RR-54: the eliminator takes the token and the placard."""
    s = Table().build(L3, {2: ["Heave-Ho", "Jab Flurry"]}, reserve=["rook"], titleholder=0)
    s = breathe(s, 0)
    s = breathe(s, 1)
    s = settle(plan(s, 2, "Jab Flurry", 0, "Heave-Ho"))
    assert s.titleholder == 2 and s.players[2].placards == ["ironhide"]
    assert decider(s) == 2  # the new Titleholder plans first


def test_eliminating_another_legend_does_not_take_the_token() -> None:
    """RR-50 decision: only the Titleholder's Legend carries the token."""
    s = Table().build(L3, {2: ["Heave-Ho", "Jab Flurry"]}, reserve=["rook"], titleholder=0)
    s = breathe(s, 0)
    s = breathe(s, 1)
    s = settle(plan(s, 2, "Jab Flurry", 1, "Heave-Ho"))
    assert s.titleholder == 0 and s.players[2].placards == ["vesper"]


def test_an_eliminator_felled_by_its_own_recoil_still_takes_the_token() -> None:
    """RR-49, RR-50 decision, RR-52, RR-54: Twin Lariat drops the Titleholder's Legend and,
    by its recoil, the attacker's own. The token goes to the player, who stays at the
    table: both fell together, so the reserve goes clockwise from the new Titleholder."""
    s = Table().build(["ironhide", "vesper", "bramble"], {0: ["Twin Lariat"]},
                      damage={0: ["Sit-Out Bomb", "Thunder Boot", "Haymaker"],
                              1: ["Sit-Out Bomb", "Lariat"]},
                      reserve=["rook", "cobalt"], titleholder=1)
    s = breathe(s, 1)
    s = breathe(s, 2)
    s = settle(plan(s, 0, "Twin Lariat", 1))
    assert s.titleholder == 0 and s.players[0].placards == ["vesper"]
    assert "ironhide" in s.box  # its own recoil: nobody's placard
    assert [p.legend for p in s.players] == ["rook", "cobalt", "bramble"]
    assert s.phase is Phase.PLAN and decider(s) == 0  # the new Titleholder plans first


def test_a_new_legend_from_the_reserve_with_its_own_signature_and_no_damage() -> None:
    """RR-51, RR-52, RR-53, RR-65, RR-66."""
    s = Table().build(L3, {0: ["Jab Flurry", "Heave-Ho"]}, damage={1: ["Haymaker"]},
                      reserve=["rook", "cobalt"])
    s = plan(s, 0, "Jab Flurry", 1, "Heave-Ho")
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    p = s.players[1]
    assert p.legend == "rook" and p.signature == "sig_rook" and p.damage == [] and p.strain == 0
    assert s.reserve == ["cobalt"]
    assert "sig_vesper" in s.box  # unused Signature back to the box
    assert {"Haymaker", "Jab Flurry", "Heave-Ho"} <= set(names(s, s.discard))
    assert len(p.hand) == 6


def test_an_eliminated_legends_plan_and_the_attacks_at_it_are_discarded() -> None:
    """RR-69: seat 1 falls to a faster throw; its attack and seat 2's attack at it go."""
    s = Table().build(L3, {0: ["Jab Flurry", "Heave-Ho"], 1: ["Haymaker"], 2: ["Body Slam"]},
                      reserve=["rook"])
    s = plan(s, 0, "Jab Flurry", 1, "Heave-Ho")  # speed 6
    s = plan(s, 1, "Haymaker", 0)                # speed 1
    s = settle(plan(s, 2, "Body Slam", 1))       # speed 2
    statuses = {r.seat: r.status for r in s.last_reveal}
    assert statuses == {0: "hit", 1: "discarded", 2: "discarded"}
    assert s.players[0].damage == [] and {"Haymaker", "Body Slam"} <= set(names(s, s.discard))


def test_ties_with_three_players_and_the_titleholder() -> None:
    """RR-68: Titleholder (seat 3) first, then 0, then 1; then the slower group (seat 2)."""
    legends = ["ironhide", "vesper", "bramble", "rook", "cobalt"]
    s = Table().build(legends, {0: ["Snap Kick"], 1: ["Snap Kick"], 2: ["Roundhouse"],
                                3: ["Snap Kick"], 4: []}, titleholder=3)
    s = plan(s, 3, "Snap Kick", 2)
    s = breathe(s, 4)
    s = plan(s, 0, "Snap Kick", 2)
    s = plan(s, 1, "Snap Kick", 2)
    s = settle(plan(s, 2, "Roundhouse", 4))
    assert [r.seat for r in s.last_reveal] == [3, 0, 1, 2]


def test_a_player_with_no_legend_attacks_with_cheap_tricks() -> None:
    """RR-59 decision, RR-70: seat 2 (no Legend) cannot be targeted; a Ref cancels it."""
    s = Table().build(["ironhide", "vesper", None], {0: ["Snap Kick", "Ref's Eye"],
                                                     2: ["Roundhouse"]}, out=[2])
    assert [a["seat"] for a in legal(do(s, 0, {"type": "plan_attack",
                                               "card": card_of(s, 0, "Snap Kick")}), 0)] == [1]
    assert refused(do(s, 0, {"type": "plan_attack", "card": card_of(s, 0, "Snap Kick")}), 0,
                   {"type": "target", "seat": 2}) == "target_eliminated"
    s = breathe(s, 0)
    s = breathe(s, 1)
    s = settle(plan(s, 2, "Roundhouse", 0))
    assert s.step is Step.INTERVENE and decider(s) == 0
    assert RULES.view(s, None)["current"]["cheap_trick"] is True
    s = do(s, 0, {"type": "ref", "card": card_of(s, 0, "Ref's Eye")})
    assert s.players[0].damage == []


def test_simultaneous_final_eliminations_leave_no_winner() -> None:
    """RR-56, RR-57, RR-58 decision, RR-71: Twin Lariat's recoil drops both last Legends."""
    s = Table().build(["ironhide", "vesper", None], {0: ["Twin Lariat"]},
                      damage={0: ["Sit-Out Bomb", "Thunder Boot", "Haymaker"],
                              1: ["Sit-Out Bomb", "Lariat"]}, out=[2])
    s.players[2].placards = []
    s.players[0].placards = ["rook"]
    s = plan(s, 0, "Twin Lariat", 1)  # Vesper 8 + 4 >= 10; Haskell 13 + 3 recoil >= 14
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    result = RULES.result(s)
    assert result is not None and result.winners == () and result.draw
    assert result.placements[0] == result.placements[1] == 1 and result.placements[2] == 3
    assert result.figures[0]["placards"] == 2 and result.figures[0]["bragging_rights"] == 1
    assert result.figures[1]["bragging_rights"] == 0
    # RR-54: Haskell fell to its own recoil, so nobody takes its placard: it is lost.
    assert "ironhide" in s.box and not any("ironhide" in p.placards for p in s.players)


def test_two_last_legends_falling_beside_one_reserve_legend_leave_it_to_the_first_clockwise(
) -> None:
    """RR-52 decision, RR-59, RR-71: Haskell's Twin Lariat drops Vesper and, by recoil,
    itself, at the same moment, with Rook the only reserve Legend. Seat 0 comes first
    clockwise from the Titleholder (seat 2, out of Legends), so Vesper's player takes Rook
    and wins; the attacker is left with no Legend, second."""
    s = Table().build(["vesper", "ironhide", None], {1: ["Twin Lariat"]},
                      damage={0: ["Sit-Out Bomb", "Lariat"],
                              1: ["Sit-Out Bomb", "Thunder Boot", "Haymaker"]},
                      out=[2], reserve=["rook"], titleholder=2)
    s = breathe(s, 2)
    s = breathe(s, 0)
    s = settle(plan(s, 1, "Twin Lariat", 0))  # Vesper 8 + 4 >= 10; Haskell 13 + 3 >= 14
    assert s.players[0].out_at == s.players[1].out_at  # fell together
    assert [p.legend for p in s.players] == ["rook", None, None] and s.players[1].out
    result = RULES.result(s)
    assert result is not None and result.winners == (0,) and not result.draw
    assert result.placements == (1, 2, 3)


def test_the_last_legend_standing_wins_with_placements_by_elimination_order() -> None:
    """RR-55, RR-54: placements follow the order of final elimination."""
    s = Table().build(L3, {0: ["Jab Flurry", "Heave-Ho"]}, out=[])
    s.players[2].legend = None
    s.players[2].out, s.players[2].out_at, s.tick = True, 1, 1
    s = plan(s, 0, "Jab Flurry", 1, "Heave-Ho")
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.phase is Phase.OVER
    result = RULES.result(s)
    assert result is not None
    assert result.winners == (0,) and result.placements == (1, 2, 3)
    assert result.figures[0]["placards"] == 1.0


def test_two_specials_on_one_trigger_go_titleholder_first() -> None:
    """RR-72: Run-In holders are asked from the Titleholder clockwise."""
    legends = ["ironhide", "vesper", "bramble", "rook"]
    s = Table().build(legends, {1: ["Roundhouse"], 2: ["Run-In"], 3: ["Run-In"]},
                      titleholder=3)
    s = breathe(s, 3)
    s = breathe(s, 0)
    s = plan(s, 1, "Roundhouse", 0)
    asked: list[tuple[int, str]] = []
    s = settle(breathe(s, 2), asked)
    assert asked == [(0, "defend")]
    assert s.step is Step.INTERVENE and decider(s) == 3
    s = do(s, 3, {"type": "pass"})
    assert decider(s) == 2
    s = do(s, 2, {"type": "run_in", "card": card_of(s, 2, "Run-In")})
    assert s.players[0].damage == []


def test_the_target_cannot_run_in_for_itself() -> None:
    """RR-28 decision: the target defends with Defense cards only: holding a Run-In it is
    asked to defend (and can only decline) and never asked to intervene."""
    s = Table().build(L3, {0: ["Roundhouse"], 1: ["Run-In"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = breathe(s, 1)
    asked: list[tuple[int, str]] = []
    s = settle(breathe(s, 2), asked)
    assert asked == [(1, "defend"), (2, "intervene")]
    assert names(s, s.players[1].damage) == ["Roundhouse"]


def test_the_round_limit_ends_the_game_with_the_standing_legends_sharing_first() -> None:
    """RR-14 decision: a round cap guarantees termination."""
    s = Table().build(L3, {}, round_limit=1)
    for seat in range(3):
        s = breathe(s, seat)
    assert s.phase is Phase.OVER
    result = RULES.result(s)
    assert result is not None and result.placements == (1, 1, 1) and result.draw


def test_bragging_rights_need_a_placard() -> None:
    """RR-58 decision: a game where nobody took a placard gives nobody bragging rights."""
    s = Table().build(L3, {}, round_limit=1)
    for seat in range(3):
        s = breathe(s, seat)
    result = RULES.result(s)
    assert result is not None and result.placements == (1, 1, 1)
    assert [f["bragging_rights"] for f in result.figures.values()] == [0.0, 0.0, 0.0]


def test_a_fallen_player_may_still_run_in() -> None:
    """RR-52 decision, RR-28: a player whose Legend fell earlier this round still holds
    cards at the table, and its Run-In cancels another Legend's incoming attack."""
    legends = ["ironhide", "vesper", "bramble", "rook"]
    s = Table().build(legends, {0: ["Jab Flurry"], 2: ["Roundhouse"], 1: ["Run-In"]},
                      damage={1: ["Sit-Out Bomb", "Sit-Out Bomb", "Jab Flurry"]},
                      reserve=["cobalt"])
    s = plan(s, 0, "Jab Flurry", 1)  # the fastest attack: Vesper falls first
    s = breathe(s, 1)
    s = plan(s, 2, "Roundhouse", 3)
    s = settle(breathe(s, 3))
    assert s.players[1].fallen and s.step is Step.INTERVENE and decider(s) == 1
    s = do(s, 1, {"type": "run_in", "card": card_of(s, 1, "Run-In")})
    assert s.players[3].damage == []


def test_fallen_players_take_reserve_legends_in_the_order_they_fell() -> None:
    """RR-52 decision: Bramble (seat 2) falls to the faster throw, Vesper (seat 1) later in
    the round; seat 2 takes the reserve's top Legend though seat 1 comes first clockwise."""
    legends = ["ironhide", "vesper", "bramble", "rook"]
    s = Table().build(legends, {0: ["Jab Flurry", "Heave-Ho"], 3: ["Roundhouse"]},
                      damage={1: ["Haymaker", "Sit-Out Bomb"]},
                      reserve=["cobalt", "quill"], titleholder=0)
    s = plan(s, 0, "Jab Flurry", 2, "Heave-Ho")  # speed 6: thrown over the top rope
    s = breathe(s, 1)
    s = breathe(s, 2)
    s = settle(plan(s, 3, "Roundhouse", 1))      # speed 3: 9 + 3 = 12 eliminates
    assert [r.status for r in s.last_reveal] == ["hit", "hit"]
    assert s.players[0].placards == ["bramble"] and s.players[3].placards == ["vesper"]
    assert [p.legend for p in s.players] == ["ironhide", "quill", "cobalt", "rook"]


def test_a_titleholder_felled_by_its_own_recoil_keeps_the_token() -> None:
    """RR-50 decision: nobody eliminated the Titleholder's Legend, so the token stays."""
    s = Table().build(L3, {0: ["Twin Lariat"]},
                      damage={0: ["Sit-Out Bomb", "Thunder Boot"]}, reserve=["rook"])
    s = plan(s, 0, "Twin Lariat", 1)  # Haskell 9 + 3 recoil = 12; Vesper takes 4
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.players[0].legend == "rook" and "ironhide" in s.box
    assert s.titleholder == 0 and not any(p.placards for p in s.players)


def test_a_player_with_no_legend_left_may_follow_up_an_attack() -> None:
    """RR-59 decision, RR-70: its Whirlwind Kick hits, so it attacks again from hand, and
    the follow-up is a Cheap Trick too."""
    s = Table().build(["ironhide", "vesper", None], {2: ["Whirlwind Kick", "Snap Kick"]},
                      out=[2])
    s = breathe(s, 0)
    s = breathe(s, 1)
    s = settle(plan(s, 2, "Whirlwind Kick", 0))
    assert s.step is Step.FOLLOW and decider(s) == 2
    s = do(s, 2, {"type": "follow_up", "card": card_of(s, 2, "Snap Kick"), "seat": 1})
    assert RULES.view(s, None)["current"]["cheap_trick"] is True
    s = settle(s)
    assert names(s, s.players[0].damage) == ["Whirlwind Kick"]
    assert names(s, s.players[1].damage) == ["Snap Kick"]


# -- a forfeit (the package docstring's forfeit decision) -----------------------------------

def forfeit(state: State, seat: int) -> State:
    return RULES.apply(state, Event.forfeit(seat))


def shown_ids(state: State, viewer: int | None) -> str:
    return json.dumps(RULES.view(state, viewer))


def test_a_seat_forfeiting_while_it_plans_is_out_its_plan_hidden_and_the_round_goes_on(
) -> None:
    """RR-15/16/69 and RR-34: seat 2 forfeits with its Attack face down: its Legend is
    eliminated by no one, its hand and plan leave the game unseen, the next planner plans,
    and seat 1's attack pointed at it is discarded at the Reveal."""
    s = Table().build(L3, {0: ["Roundhouse"], 1: ["Lariat", "Power Surge", "Leg Catch"],
                           2: ["Body Slam"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = do(s, 1, {"type": "plan_attack", "card": card_of(s, 1, "Lariat")})
    s = do(s, 1, {"type": "target", "seat": 0})
    hidden = [s.players[1].attack, *s.players[1].hand]
    s = forfeit(s, 1)
    assert s.players[1].forfeited and s.players[1].out and s.players[1].legend is None
    assert "Seat 2 forfeited and is out." in s.journal
    assert sorted(s.withdrawn) == sorted(c for c in hidden if c)
    assert decider(s) == 2 and s.step is Step.CHOOSE
    for viewer in (0, 2, None):
        view = RULES.view(s, viewer)
        assert view["players"][1]["forfeited"] is True
        assert view["players"][1]["plan"]["status"] == "forfeited"
        assert not any(f'"{c}"' in shown_ids(s, viewer) for c in hidden if c)
    s = settle(plan(s, 2, "Body Slam", 0))
    assert {r.seat: r.status for r in s.last_reveal} == {0: "discarded", 2: "hit"}
    assert s.phase is Phase.PLAN and decider(s) == 0  # the next round, seat 2 planning no more
    s = breathe(s, 0)
    assert decider(s) == 2


def test_a_forfeiting_titleholder_hands_the_token_on_and_the_last_at_the_table_wins(
) -> None:
    """RR-13/50 (decision: the token stays at the table), RR-55, RR-58: two forfeits
    leave seat 2 alone; placements follow the order the others went out."""
    s = Table().build(L3, reserve=["rook"])
    s = forfeit(s, 0)
    assert s.titleholder == 1 and decider(s) == 1
    assert s.phase is Phase.PLAN  # two players left and a reserve: the game goes on
    s = forfeit(s, 1)
    assert s.phase is Phase.OVER
    result = RULES.result(s)
    assert result is not None
    assert result.winners == (2,) and result.placements == (3, 2, 1)
    assert result.figures[2]["placards"] == 0.0  # forfeited Legends are nobody's placards


def test_a_target_forfeiting_before_the_hit_calls_the_attack_off(
) -> None:
    """RR-29 decision: the attack at seat 2 goes to the discard pile and the next
    revealed attack is made."""
    s = Table().build(L3, {0: ["Jab Flurry"], 1: ["Haymaker"], 2: ["Body Slam"]})
    s = plan(s, 0, "Jab Flurry", 2)
    s = plan(s, 1, "Haymaker", 0)
    s = plan(s, 2, "Body Slam", 1)
    assert s.step is Step.DEFEND and decider(s) == 2
    s = forfeit(s, 2)
    assert "Jab Flurry" in names(s, s.discard) and s.players[2].damage == []
    assert {r.seat: r.status for r in s.reveal} == {0: "discarded", 1: "resolving",
                                                    2: "discarded"}
    assert s.current is not None and s.current.attacker == 1


def test_a_seat_that_forfeited_is_refused_a_second_forfeit_and_a_decision() -> None:
    s = forfeit(Table().build(L3), 2)
    with pytest.raises(IllegalAction) as again:
        forfeit(s, 2)
    assert again.value.code == "seat_out"
    assert refused(s, 2, {"type": "breather"}) == "not_your_turn"


def test_two_seats_take_no_forfeit_event() -> None:
    """At two seats the match service ends the match, as in every game."""
    s = Table().build(L3[:2])
    assert not RULES.forfeit_eliminates(s, 1)
    with pytest.raises(IllegalAction) as refused_:
        forfeit(s, 1)
    assert refused_.value.code == "no_forfeit"
