"""The round: RR-14..RR-38, RR-42, RR-48."""

from __future__ import annotations

from rr_helpers import RULES, Table, breathe, card_of, decider, do, legal, names, plan, settle

from engine.games.royal_rumble.state import Phase, Step
from engine.protocol import Event

L3 = ["ironhide", "vesper", "bramble"]


def test_a_round_runs_plan_reveal_attack_end_of_turn() -> None:
    """RR-14, RR-36: after the attacks everyone draws back to six; a new round starts."""
    s = Table().build(L3, {0: ["Snap Kick"], 1: ["Roundhouse"], 2: ["Lariat"]})
    assert s.phase is Phase.PLAN and s.round == 1
    s = plan(s, 0, "Snap Kick", 1)
    s = plan(s, 1, "Roundhouse", 2)
    assert s.phase is Phase.PLAN
    s = settle(plan(s, 2, "Lariat", 0))
    assert s.round == 2 and s.phase is Phase.PLAN
    assert all(len(p.hand) == 6 for p in s.players)
    assert [r.status for r in s.last_reveal] == ["hit", "hit", "hit"]


def test_planning_goes_from_the_titleholder_clockwise() -> None:
    """RR-15, RR-48: the Titleholder plans first, then to its left."""
    s = Table().build(L3, {0: ["Snap Kick"], 1: ["Roundhouse"], 2: ["Lariat"]},
                      titleholder=2)
    assert decider(s) == 2
    s = plan(s, 2, "Lariat", 0)
    assert decider(s) == 0
    s = plan(s, 0, "Snap Kick", 1)
    assert decider(s) == 1


def test_the_plan_is_three_small_steps_and_the_cards_are_face_down() -> None:
    """RR-15, RR-17: one Attack at one target, optionally one Boost, face down."""
    s = Table().build(L3, {0: ["Snap Kick", "Lariat", "Power Surge", "Second Wind"]})
    kinds = {a["type"] for a in legal(s, 0)}
    assert kinds == {"plan_attack", "breather"}
    s = do(s, 0, {"type": "plan_attack", "card": card_of(s, 0, "Lariat")})
    assert s.step is Step.TARGET and legal(s, 0) == [{"type": "target", "seat": 1},
                                                    {"type": "target", "seat": 2}]
    s = do(s, 0, {"type": "target", "seat": 2})
    assert s.step is Step.BOOST
    assert {a["type"] for a in legal(s, 0)} == {"boost", "no_boost"}
    s = do(s, 0, {"type": "boost", "card": card_of(s, 0, "Power Surge")})
    mine = RULES.view(s, 0)["players"][0]["plan"]
    theirs = RULES.view(s, 1)["players"][0]["plan"]
    assert mine["attack"]["name"] == "Lariat" and mine["boost"]["name"] == "Power Surge"
    assert theirs["attack"] is None and theirs["boost"] is None
    assert theirs["target"] == 2 and theirs["has_boost"] is True  # RR-16 decision


def test_a_player_without_attacks_takes_a_breather_and_discards() -> None:
    """RR-18: places nothing, discards any number of cards, draws back to six."""
    s = Table().build(L3, {0: ["Duck Under", "Ref's Eye", "Power Surge"],
                           1: ["Roundhouse"], 2: ["Lariat"]})
    assert legal(s, 0) == [{"type": "breather"}]
    s = do(s, 0, {"type": "breather"})
    assert s.step is Step.DISCARD and len(legal(s, 0)) == 4
    s = do(s, 0, {"type": "discard", "card": card_of(s, 0, "Power Surge")})
    s = do(s, 0, {"type": "discard", "card": card_of(s, 0, "Ref's Eye")})
    assert names(s, s.discard[-2:]) == ["Power Surge", "Ref's Eye"]
    s = do(s, 0, {"type": "end_breather"})
    assert s.players[0].attack is None and s.players[0].breather
    s = plan(s, 1, "Roundhouse", 2)
    s = settle(plan(s, 2, "Lariat", 1))
    assert len(s.players[0].hand) == 6


def test_the_reveal_adds_boost_speed_and_orders_by_speed() -> None:
    """RR-19, RR-20, RR-21, RR-23: speed = Attack + Boost; fastest first, group by group."""
    s = Table().build([*L3, "rook"], {0: ["Haymaker"], 1: ["Body Slam", "Adrenaline Rush"],
                                      2: ["Jab Flurry"], 3: ["Roundhouse"]})
    s = plan(s, 0, "Haymaker", 1)          # speed 1
    s = plan(s, 1, "Body Slam", 0, "Adrenaline Rush")  # 2 + 2 = 4
    s = plan(s, 2, "Jab Flurry", 3)        # 6
    s = settle(plan(s, 3, "Roundhouse", 2))  # 3
    order = [(r.seat, r.speed) for r in s.last_reveal]
    assert order == [(2, 6), (1, 4), (3, 3), (0, 1)]
    view = RULES.view(s, None)
    assert [r["speed"] for r in view["last_reveal"]] == [6, 4, 3, 1]


def test_ties_go_to_the_titleholder_then_clockwise_from_its_left() -> None:
    """RR-22."""
    s = Table().build([*L3, "rook"], {i: ["Snap Kick"] for i in range(4)}, titleholder=2)
    for seat in (2, 3, 0, 1):
        s = plan(s, seat, "Snap Kick", (seat + 1) % 4)
    assert [r.seat for r in settle(s).last_reveal] == [2, 3, 0, 1]


def test_the_attack_names_card_and_target_and_hits_when_undefended() -> None:
    """RR-24, RR-25, RR-26, RR-33: cards on the placard; damage counts across rounds."""
    s = Table().build(L3, {0: ["Roundhouse", "Snap Kick"], 1: ["Jab Flurry"],
                           2: ["Jab Flurry"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = plan(s, 1, "Jab Flurry", 2)
    s = settle(plan(s, 2, "Jab Flurry", 0))
    assert names(s, s.players[1].damage) == ["Roundhouse"]
    assert RULES.view(s, None)["players"][1]["damage"] == 3
    s = plan(s, 0, "Snap Kick", 1)
    s = breathe(s, 1)  # the deck's top cards are Attacks: nobody draws a Defense
    s = settle(breathe(s, 2))
    assert names(s, s.players[1].damage) == ["Roundhouse", "Snap Kick"]
    assert RULES.view(s, None)["players"][1]["damage"] == 5


def test_the_target_may_cancel_with_a_defense_of_the_right_type() -> None:
    """RR-27, RR-30, RR-31: a Kick is cancelled by Leg Catch, not by Duck Under."""
    s = Table().build(L3, {0: ["Roundhouse"], 1: ["Leg Catch", "Duck Under"], 2: []})
    s = plan(s, 0, "Roundhouse", 1)
    s = breathe(s, 1)
    s = breathe(s, 2)
    assert s.step is Step.DEFEND and decider(s) == 1
    assert [names(s, [a["card"]])[0] for a in legal(s, 1) if "card" in a] == ["Leg Catch"]
    s = do(s, 1, {"type": "defend", "card": card_of(s, 1, "Leg Catch")})
    assert s.players[1].damage == []
    assert s.last_reveal[0].status == "blocked"
    # RR-29 decision: the cancelled attack and the Defense go to the discard pile.
    assert {"Roundhouse", "Leg Catch"} <= set(names(s, s.discard))


def test_an_attack_effect_triggers_only_on_a_hit() -> None:
    """RR-32: a blocked Whirlwind Kick gives no follow-up."""
    s = Table().build(L3, {0: ["Whirlwind Kick", "Snap Kick"], 1: ["Leg Catch"]})
    s = plan(s, 0, "Whirlwind Kick", 1)
    s = breathe(s, 1)
    s = breathe(s, 2)
    s = do(s, 1, {"type": "defend", "card": card_of(s, 1, "Leg Catch")})
    assert s.step is not Step.FOLLOW and s.phase is Phase.PLAN


def test_exact_health_eliminates() -> None:
    """RR-34: damage equal to health eliminates (every Legend has 12); one short does not."""
    s = Table().build(L3, {0: ["Roundhouse"]}, damage={1: ["Haymaker", "Sit-Out Bomb"]},
                      reserve=["rook"])
    s = plan(s, 0, "Roundhouse", 1)  # 9 + 3 = 12 == 12
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.players[1].legend == "rook" and s.players[0].placards == ["vesper"]
    s2 = Table().build(L3, {0: ["Snap Kick"]}, damage={1: ["Haymaker", "Thunder Boot"]},
                       reserve=["rook"])
    s2 = plan(s2, 0, "Snap Kick", 1)  # 8 + 2 = 10 < 12
    s2 = breathe(s2, 1)
    s2 = settle(breathe(s2, 2))
    assert s2.players[0].placards == [] and s2.players[1].legend == "vesper"


def test_a_throw_over_the_top_rope_eliminates_whatever_the_health() -> None:
    """RR-35, RR-40, RR-43: Heave-Ho (a Cheap Trick Boost) throws a fresh Legend out."""
    s = Table().build(L3, {0: ["Jab Flurry", "Heave-Ho"]}, reserve=["rook"])
    s = plan(s, 0, "Jab Flurry", 1, "Heave-Ho")
    s = breathe(s, 1)
    s = settle(breathe(s, 2))  # Vesper holds no Holding On: "let go" is all she can do
    assert s.players[0].placards == ["vesper"]


def test_boosts_add_damage_and_speed() -> None:
    """RR-38: Adrenaline Rush is +1 damage, +2 speed."""
    s = Table().build(L3, {0: ["Body Slam", "Adrenaline Rush"]})
    s = plan(s, 0, "Body Slam", 1, "Adrenaline Rush")
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.last_reveal[0].speed == 4
    assert RULES.view(s, None)["players"][1]["damage"] == 4


def test_the_boost_is_committed_in_plan_only() -> None:
    """RR-42: after the plan there is no step that takes a Boost."""
    s = Table().build(L3, {0: ["Roundhouse", "Power Surge"], 1: ["Leg Catch"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = breathe(s, 1)
    s = breathe(s, 2)
    assert s.step is Step.DEFEND
    from rr_helpers import refused
    assert refused(s, 0, {"type": "boost", "card": card_of(s, 0, "Power Surge")}) == \
        "not_your_turn"
    assert not any(a["type"] == "boost" for a in legal(s, 1))


def test_only_the_target_may_play_a_defense() -> None:
    """RR-28 decision: a third player's Leg Catch is never asked for: seat 3 is asked only
    to intervene, where passing is all it can do; the target (holding nothing) is asked
    to defend all the same."""
    s = Table().build(L3, {0: ["Roundhouse"], 2: ["Leg Catch"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = breathe(s, 1)
    asked: list[tuple[int, str]] = []
    s = settle(breathe(s, 2), asked)
    assert asked == [(1, "defend"), (2, "intervene")]
    assert names(s, s.players[1].damage) == ["Roundhouse"]


def test_an_empty_deck_is_reshuffled_from_the_discard_pile() -> None:
    """RR-37: End of Turn needs cards, the deck is empty: a stored shuffle of the discards."""
    s = Table().build(L3, {0: ["Roundhouse"], 1: ["Lariat"], 2: ["Jab Flurry"]}, deck=False)
    s = plan(s, 0, "Roundhouse", 1)
    s = plan(s, 1, "Lariat", 2)
    s = settle(plan(s, 2, "Jab Flurry", 0))
    assert RULES.pending(s).kind == "chance" and s.chance == "reshuffle"
    discards = sorted(s.discard)
    s = RULES.apply(s, Event.chance({"order": discards}))
    assert s.discard == [] and all(len(p.hand) == 6 for p in s.players)
    assert len(s.deck) == len(discards) - 18


def test_the_attacker_states_card_and_target() -> None:
    """RR-24: the narration names the Attack card and the Legend it hits."""
    s = Table().build(L3, {0: ["Roundhouse"]})
    s = plan(s, 0, "Roundhouse", 1)
    s = breathe(s, 1)
    s = do(s, 2, {"type": "breather"})
    lines = RULES.narrate(s, Event.decision(2, {"type": "end_breather"}))
    assert "Seat 1 attacks Vesper Nightingale with Roundhouse." in lines


def test_the_attack_being_resolved_shows_its_boosted_damage_and_speed() -> None:
    """RR-38/39: while Body Slam + Adrenaline Rush resolves, the table reads the whole
    attack: 3 + 1 damage at speed 2 + 2, the figures its target must answer."""
    s = Table().build(L3, {0: ["Body Slam", "Adrenaline Rush"]})
    s = plan(s, 0, "Body Slam", 1, "Adrenaline Rush")
    s = breathe(s, 1)
    s = breathe(s, 2)
    assert s.step is Step.DEFEND
    current = RULES.view(s, 1)["current"]
    assert (current["damage"], current["speed"]) == (4, 4)
