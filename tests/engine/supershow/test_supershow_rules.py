"""One test per rule of the one-on-one game: the situation built, the outcome checked.

Ox Valdane (seat 0, 'A' ids): power 10, technique 6, agility 5, strike 9, submission 7,
grapple 8. Mira Quickstep (seat 1, 'B' ids): agility 10, strike 9, technique 8,
grapple 7, submission 6, power 5.
"""

from __future__ import annotations

import random

from supershow_helpers import RULES, build, dice, do, legal, refused

from engine.games.supershow.state import Phase
from engine.protocol import Event, IllegalAction, PendingKind


def test_start_shuffles_both_decks_then_deals_three_each() -> None:
    """SH-001/002/003/007: two stored shuffles, then three cards each; the meter waits."""
    s = RULES.start({}, 2)
    assert RULES.pending(s).kind is PendingKind.CHANCE and s.shuffles == [0, 1]
    rng = random.Random(1)
    for _ in range(2):
        s = RULES.apply(s, Event.chance(RULES.sample_chance(s, rng)))
    assert [len(p.hand) for p in s.players] == [3, 3]
    assert [len(p.deck) for p in s.players] == [27, 27]
    assert s.phase is Phase.ROLL and s.crowd == 0
    view = RULES.view(s, None)
    assert view["crowd_meter"]["level"] == 0 and view["crowd_meter"]["size"] == 5


def test_the_higher_turn_roll_draws_and_takes_the_turn() -> None:
    """SH-008/009: each value is the roller's own rating for the face rolled."""
    s = build(((1,), (2,)), phase=Phase.ROLL, active=None)
    s = dice(s, "power", "power")  # Ox 10 against Mira 5
    assert [d.value for d in s.last_roll] == [10, 5]
    assert s.active == 0 and s.phase is Phase.TURN
    assert len(s.players[0].hand) == 2 and len(s.players[1].hand) == 1


def test_a_bump_makes_both_draw_and_roll_again() -> None:
    """SH-010: equal values (Ox agility 5, Mira power 5) are a bump."""
    s = build(((1,), (2,)), phase=Phase.ROLL, active=None)
    s = dice(s, "agility", "power")
    assert [len(p.hand) for p in s.players] == [2, 2]
    assert s.phase is Phase.ROLL and s.turn_rolls == 1 and s.active is None


def test_a_turn_is_one_play_or_one_bury() -> None:
    """SH-011/013: a Lead may be played any time; burying is the other choice."""
    s = build(((1, 13), (2,)), discards=((5,), ()))
    acts = legal(s, 0)
    assert {"type": "play", "card": "A01"} in acts and {"type": "bury", "card": "A05"} in acts
    assert {"type": "play", "card": "A13"} not in acts


def test_a_follow_up_needs_a_lead_in_play() -> None:
    """SH-014."""
    s = build(((13,), (2,)))
    assert refused(s, 0, {"type": "play", "card": "A13"}) == "needs_lead"
    s = build(((13,), (2,)), in_play=((1,), ()))
    assert {"type": "play", "card": "A13"} in legal(s, 0)


def test_a_finish_needs_a_follow_up_in_play() -> None:
    """SH-015: a Lead alone is not enough."""
    s = build(((28,), (2,)), in_play=((1,), ()))
    assert refused(s, 0, {"type": "play", "card": "A28"}) == "needs_follow_up"
    s = build(((28,), (2,)), in_play=((1, 13), ()))
    assert {"type": "play", "card": "A28"} in legal(s, 0)


def test_a_matching_stop_sends_the_card_to_discard_and_goes_into_play() -> None:
    """SH-016/017/018/020: Side Headlock stops any Lead Strike, like Chop Flurry."""
    s = build(((3,), (5, 1)))
    s = do(s, 0, {"type": "play", "card": "A03"})
    assert s.phase is Phase.STOP and RULES.pending(s).seats == (1,)
    assert {"type": "stop", "card": "B05"} in legal(s, 1)
    s = do(s, 1, {"type": "stop", "card": "B05"})
    assert s.players[0].discard == ["A03"] and s.players[0].in_play[1] == []
    assert s.players[1].in_play[0] == ["B05"]
    assert len(s.players[0].hand) == 0  # Chop Flurry's draw never happened
    assert s.phase is Phase.ROLL


def test_a_stop_card_is_also_an_ordinary_maneuver() -> None:
    """SH-019: Side Headlock played on your own turn hits as a Lead."""
    s = build(((2,), (5,)), active=1)
    s = do(s, 1, {"type": "play", "card": "B05"})
    s = do(s, 0, {"type": "no_stop"})
    assert s.players[1].in_play[0] == ["B05"]


def test_a_stop_is_final_its_text_does_not_resolve_and_it_counts_for_the_chain() -> None:
    """SH-021 decision: no Stop of a Stop, no text, and it is in play as its type."""
    comps = ("ox_valdane", "ox_valdane")
    s = build(((28,), (27, 13)), in_play=((1, 13), ()), comps=comps)
    s = do(s, 0, {"type": "play", "card": "A28"})
    s = do(s, 1, {"type": "stop", "card": "B27"})  # Desperation Kick: stops Finish Power
    assert s.phase is Phase.ROLL  # no decision for the player who was stopped
    assert s.players[1].hand == ["B13"]  # its 'Draw 1 card.' did not happen
    s = build(((2,), (13,)), in_play=((), (27,)), comps=("mira_quickstep", "mira_quickstep"),
              active=1)
    # Mira's Rope Break (a Lead, #27) stopped earlier: a Follow-Up may now be played.
    assert {"type": "play", "card": "B13"} in legal(s, 1)


def test_a_stop_must_name_the_card_played() -> None:
    """SH-016: Side Headlock does not stop a Lead Power."""
    s = build(((2,), (5, 27)))
    s = do(s, 0, {"type": "play", "card": "A02"})
    assert refused(s, 1, {"type": "stop", "card": "B05"}) == "stop_does_not_match"
    assert refused(s, 1, {"type": "stop", "card": "B27"}) == "stop_does_not_match"
    assert legal(s, 1) == [{"type": "no_stop"}]


def test_a_hit_stays_in_play_and_its_text_is_performed() -> None:
    """SH-022: Chop Flurry hits, stays in play and draws a card."""
    s = build(((3,), (1,)), decks=((9,), ()))
    s = do(s, 0, {"type": "play", "card": "A03"})
    s = do(s, 1, {"type": "no_stop"})
    assert s.players[0].in_play[1] == ["A03"] and s.players[0].hand == ["A09"]
    assert s.phase is Phase.ROLL  # SH-026: a turn roll follows


def test_burying_puts_a_discard_under_the_deck_and_a_roll_follows() -> None:
    """SH-023/024/027: a bury ends the turn; the card goes to the deck's bottom."""
    s = build(((1,), (1,)), discards=((5, 6), ()))
    s = do(s, 0, {"type": "bury", "card": "A06"})
    assert s.players[0].deck[-1] == "A06" and s.players[0].discard == ["A05"]
    assert s.phase is Phase.ROLL


def test_with_an_empty_discard_pile_the_turn_may_pass() -> None:
    """SH-025 decision: pass only when there is nothing to bury."""
    s = build(((13,), (1,)))
    assert legal(s, 0) == [{"type": "pass"}]
    s2 = do(s, 0, {"type": "pass"})
    assert s2.phase is Phase.ROLL
    s = build(((13,), (1,)), discards=((4,), ()))
    assert refused(s, 0, {"type": "pass"}) == "must_bury"


def test_every_play_stopped_or_hit_is_followed_by_a_turn_roll() -> None:
    """SH-026."""
    s = build(((1,), (2,)))
    s = do(s, 0, {"type": "play", "card": "A01"})
    s = do(s, 1, {"type": "no_stop"})
    assert RULES.pending(s).kind is PendingKind.CHANCE and s.phase is Phase.ROLL


def finish_state(defender_in_play: tuple[int, ...] = (1,), crowd: int = 0):
    """Ox has a Lead and a Follow-Up in play and hits Stampede Lariat (#30)."""
    s = build(((30,), (2,)), decks=((9,), ()), in_play=((1, 13), defender_in_play),
              crowd=crowd)
    s = do(s, 0, {"type": "play", "card": "A30"})
    return do(s, 1, {"type": "no_stop"})


def test_a_hit_finish_performs_its_text_then_is_rolled() -> None:
    """SH-028/029: the Finish's 'Draw 1 card.' first, then Ox's Finish Roll."""
    s = finish_state()
    assert s.players[0].hand == ["A09"] and s.phase is Phase.FINISH
    s = dice(s, "strike")
    assert s.finish is not None and s.finish.roll is not None and s.finish.roll.value == 9
    assert s.phase is Phase.BREAKOUT and RULES.pending(s).kind is PendingKind.CHANCE


def test_a_tie_breaks_out_and_clears_every_card_in_play() -> None:
    """SH-030/031/033/034: Mira's technique 8 against... strike 9 fails; strike 9 ties."""
    s = dice(finish_state(), "strike")
    s = dice(s, "technique")  # 8 < 9: fails
    assert s.phase is Phase.BREAKOUT and len(s.finish.breakouts) == 1
    s = dice(s, "strike")  # Mira's own strike 9 ties 9: out
    assert s.finish is None and s.phase is Phase.ROLL
    assert s.players[0].in_play[1] == [] and s.players[1].in_play[0] == []
    assert sorted(s.players[0].discard) == ["A01", "A13", "A30"]
    assert s.players[1].discard == ["B01"]


def test_three_failed_breakouts_end_the_match() -> None:
    """SH-032: the finisher wins."""
    s = dice(finish_state(), "power")  # Ox power 10 + Gimmick 1 = 11
    assert s.finish.roll.value == 11
    for _ in range(3):
        s = dice(s, "agility")  # Mira's best, 10, still short
    result = RULES.result(s)
    assert result is not None and result.winners == (0,) and result.placements == (1, 2)
    assert "pinfall" in result.summary


def test_the_crowd_meter_rises_with_each_breakout_and_helps_finishes() -> None:
    """SH-035/036/037: the first breakout puts the first card in play, +1 to Finishes."""
    s = dice(dice(finish_state(), "strike"), "agility")
    assert s.crowd == 1 and RULES.view(s, 0)["crowd_meter"]["in_play"][0]["finish_bonus"] == 1
    s = dice(finish_state(crowd=1), "strike")
    assert s.finish.roll.value == 10
    s = dice(finish_state(crowd=2), "strike")
    s = dice(s, "agility")  # 10 - 1 (Stomping Feet) = 9 < 10
    assert s.finish.breakouts[0].value == 9 and s.phase is Phase.BREAKOUT


def test_a_full_crowd_meter_stays_full() -> None:
    """SH-037 decision: no card after the fifth."""
    s = dice(finish_state(crowd=5), "technique")  # 6 + 4 = 10
    s = dice(s, "agility")  # 10 - 2 = 8: out of the question
    assert s.finish.roll.value == 10 and s.finish.breakouts[0].value == 8


def test_each_breakout_puts_the_next_crowd_meter_card_in_play_and_a_full_meter_stays() -> None:
    """SH-035/036/037 decision: every successful Breakout puts the next card into play, up
    to the fifth; a Breakout with all five in play leaves the meter where it is. Ox rolls
    AGILITY (5 plus the cards' Finish bonuses: 5, 6, 6, 7, 7, 9); Professor Knot breaks out
    on SUBMISSION (10 + 1, less the cards' Breakout penalties: 11, 11, 10, 10, 9, 9)."""
    for crowd in range(6):
        s = build(((30,), (2,)), decks=((9,), ()), in_play=((1, 13), (1,)), crowd=crowd,
                  comps=("ox_valdane", "professor_knot"))
        s = do(do(s, 0, {"type": "play", "card": "A30"}), 1, {"type": "no_stop"})
        s = dice(dice(s, "agility"), "submission")
        assert s.finish is None and s.phase is Phase.ROLL, crowd
        assert s.crowd == min(crowd + 1, 5)
        assert RULES.view(s, None)["crowd_meter"]["level"] == s.crowd


def test_no_cards_in_hand_and_deck_at_the_start_of_your_turn_wins_by_count_out() -> None:
    """SH-038/039: the emptied player wins."""
    s = build(((), (1,)), in_play=((1, 2), ()), phase=Phase.ROLL, active=None, rest=False)
    s.players[1].deck = [f"B{n:02d}" for n in range(2, 31)]
    s = dice(s, "power", "power")
    result = RULES.result(s)
    assert result is not None and result.winners == (0,) and "count_out" in result.summary


def test_with_count_outs_off_the_emptied_player_wins_the_roll_and_plays_on() -> None:
    """SH-070 decision: the organizer's `count_outs: off` is no count-out for anybody; the
    player with nothing in hand or deck takes the turn and may only end it."""
    assert RULES.start({"count_outs": "off"}, 2).count_outs is False
    s = build(((), (1,)), in_play=((1, 2), ()), phase=Phase.ROLL, active=None, rest=False)
    s.players[1].deck = [f"B{n:02d}" for n in range(2, 31)]
    s.count_outs = False
    s = dice(s, "power", "power")
    assert s.phase is Phase.TURN and s.active == 0 and RULES.result(s) is None
    assert legal(s, 0) == [{"type": "pass"}]


def test_an_empty_hand_alone_or_an_empty_deck_alone_is_no_count_out() -> None:
    """SH-039: the deck still had a card, which the winner draws."""
    s = build(((), (1,)), decks=((5,), ()), phase=Phase.ROLL, active=None, rest=False)
    s.players[1].deck = [f"B{n:02d}" for n in range(2, 31)]
    s = dice(s, "power", "power")
    assert s.phase is Phase.TURN and s.players[0].hand == ["A05"]
    s = build(((1,), (2,)), phase=Phase.ROLL, active=None, rest=False)
    s = dice(s, "power", "power")
    assert s.phase is Phase.TURN


def test_a_draw_from_an_empty_deck_draws_nothing() -> None:
    """SH-040 decision."""
    s = build(((1,), (2,)), phase=Phase.ROLL, active=None, rest=False)
    s = dice(s, "agility", "power")  # a bump: both try to draw
    assert [len(p.hand) for p in s.players] == [1, 1]


def test_finish_cards_are_28_to_30_with_their_owners_logo() -> None:
    """SH-043."""
    for seat in (0, 1):
        deck = build().decks[seat]
        assert [c.number for c in deck if c.type == "finish"] == [28, 29, 30]
        assert {c.owner for c in deck if c.type == "finish"} == {build().competitors[seat]}


def test_constructed_decks_must_be_thirty_one_of_each_number_own_finishes() -> None:
    """SH-044/050: mixing decks is fine; another's Finish, a gap or a double is refused."""
    from engine.games.supershow.cards import CATALOG

    ox, mira = CATALOG.competitors["ox_valdane"], CATALOG.competitors["mira_quickstep"]
    mixed = [c.key for c in mira.deck[:27]] + [c.key for c in ox.deck[27:]]
    s = RULES.start({"competitors": ["ox_valdane", "mira_quickstep"], "decks": [mixed, None]}, 2)
    assert s.decks[0][0].name == "Forearm Jolt" and s.decks[0][29].owner == "ox_valdane"
    foreign = mixed[:27] + [c.key for c in mira.deck[27:]]
    codes = {}
    for label, deck in (("foreign", foreign), ("short", mixed[:29]),
                        ("double", [*mixed[:26], mixed[25], *mixed[27:]]),
                        ("unknown", [*mixed[:29], "no_such_card"])):
        try:
            RULES.start({"decks": [deck, None]}, 2)
        except IllegalAction as error:
            codes[label] = error.code
    assert codes == {"foreign": "foreign_finish", "short": "deck_size",
                     "double": "deck_numbers", "unknown": "unknown_card"}


def test_a_first_turn_mulligan_without_a_lead() -> None:
    """SH-045/047: the hand goes under the deck, as many are drawn, once only."""
    s = build(((13, 14, 15, 16), (1,)), decks=((17, 18, 19, 20), ()), turns=(0, 0))
    assert {"type": "mulligan"} in legal(s, 0)
    s = do(s, 0, {"type": "mulligan"})
    assert s.players[0].hand == ["A17", "A18", "A19", "A20"]
    assert s.players[0].deck[-4:] == ["A13", "A14", "A15", "A16"]
    assert s.phase is Phase.TURN and s.active == 0
    assert refused(s, 0, {"type": "mulligan"}) == "no_mulligan"


def test_no_mulligan_after_the_first_turn_or_with_a_lead() -> None:
    """SH-046."""
    assert refused(build(((13, 1), (1,)), turns=(0, 0)), 0, {"type": "mulligan"}) == "no_mulligan"
    assert refused(build(((13, 14), (1,)), turns=(1, 0)), 0, {"type": "mulligan"}) == "no_mulligan"


def test_an_eleventh_card_must_be_discarded_at_once() -> None:
    """SH-048: nothing else is allowed until the hand is back to ten."""
    s = build(((1, 2, 3, 4, 5, 6, 7, 8, 9, 10), (11,)), decks=((12,), ()), phase=Phase.ROLL,
              active=None)
    s = dice(s, "power", "power")
    assert len(s.players[0].hand) == 11 and RULES.pending(s).seats == (0,)
    assert all(a["type"] == "discard" for a in legal(s, 0)) and len(legal(s, 0)) == 11
    assert refused(s, 0, {"type": "play", "card": "A01"}) == "hand_over_limit"
    s = do(s, 0, {"type": "discard", "card": "A12"})
    assert len(s.players[0].hand) == 10 and s.players[0].discard == ["A12"]
    assert s.phase is Phase.TURN


def test_flip_moves_the_top_card_to_the_discard_pile() -> None:
    """SH-049: Arm Drag Spin makes the opponent flip one."""
    s = build(((6,), (1,)), decks=((), (20, 21)))
    s = do(do(s, 0, {"type": "play", "card": "A06"}), 1, {"type": "no_stop"})
    assert s.players[1].discard == ["B20"] and s.players[1].deck[0] == "B21"
