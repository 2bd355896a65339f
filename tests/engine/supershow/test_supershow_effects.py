"""The effect vocabulary and every Gimmick at work (SH-041/042, SH-049, SH-052)."""

from __future__ import annotations

from supershow_helpers import RULES, build, dice, do, legal

from engine.games.supershow.state import Phase
from engine.protocol import PendingKind


def hit(s, seat: int, number: int):
    """`seat` plays its card `number` and the opponent lets it hit."""
    letter = "AB"[seat]
    s = do(s, seat, {"type": "play", "card": f"{letter}{number:02d}"})
    return do(s, 1 - seat, {"type": "no_stop"})


def test_draw_for_each_lead_in_play_counts_this_pile() -> None:
    """SH-052: Dropkick Burst draws one per Lead in play (two here)."""
    s = build(((14,), (1,)), decks=((20, 21, 22), ()), in_play=((1, 2), ()))
    s = hit(s, 0, 14)
    assert s.players[0].hand == ["A20", "A21"]


def test_a_condition_that_fails_skips_the_effect() -> None:
    """Deadlift German flips two only with two Follow-Ups in play."""
    s = build(((22,), (1,)), in_play=((1,), ()))
    assert hit(s, 0, 22).players[1].discard == []
    s = build(((22,), (1,)), in_play=((1, 13), ()))
    assert len(hit(s, 0, 22).players[1].discard) == 2


def test_the_opponent_picks_a_card_to_discard() -> None:
    """Crossface Crank: the opponent chooses; the owner waits."""
    s = build(((17,), (1, 2)), in_play=((1,), ()))
    s = hit(s, 0, 17)
    assert s.phase is Phase.CHOOSE and RULES.pending(s).seats == (1,)
    assert legal(s, 1) == [{"type": "choose", "card": "B01"}, {"type": "choose", "card": "B02"}]
    s = do(s, 1, {"type": "choose", "card": "B02"})
    assert s.players[1].discard == ["B02"] and s.phase is Phase.ROLL


def test_a_choice_with_nothing_to_pick_is_skipped() -> None:
    s = build(((17,), ()), in_play=((1,), ()))
    s = do(s, 0, {"type": "play", "card": "A17"})  # no hand: no Stop question either
    assert s.phase is Phase.ROLL


def test_bury_from_your_own_discard_pile() -> None:
    """Headscissor Whip: bury 1."""
    s = build(((20,), (1,)), in_play=((1,), ()), discards=((28, 5), ()))
    s = hit(s, 0, 20)
    assert RULES.pending(s).seats == (0,)
    s = do(s, 0, {"type": "choose", "card": "A28"})
    assert s.players[0].deck[-1] == "A28" and s.players[0].discard == ["A05"]


def test_search_takes_a_matching_card_then_shuffles() -> None:
    """Chain Wrestle: pick a Finish from the deck, then a stored shuffle."""
    s = build(((21,), (1,)), in_play=((1,), ()))
    s = hit(s, 0, 21)
    picks = legal(s, 0)
    assert picks == [{"type": "choose", "card": f"A{n}"} for n in (28, 29, 30)]
    assert RULES.view(s, 0)["search"][0]["name"] == "Valley Driver"
    assert RULES.view(s, 1)["search"] is None
    s = do(s, 0, {"type": "choose", "card": "A29"})
    assert "A29" in s.players[0].hand and s.shuffles == [0]
    assert RULES.pending(s).kind is PendingKind.CHANCE


def test_boost_adds_to_the_next_roll_of_its_kind_only() -> None:
    """Running Shoulder: +2 to the next turn roll, then gone."""
    s = build(((10,), (1,)))
    s = hit(s, 0, 10)
    assert s.players[0].boosts == {"turn": 2}
    s = dice(s, "agility", "agility")  # 5 + 2 against 10
    assert [d.value for d in s.last_roll] == [7, 10] and s.players[0].boosts == {}


def gimmick_state(comp: str, seat: int = 0, **kw):
    comps = (comp, "ox_valdane") if seat == 0 else ("ox_valdane", comp)
    return build(comps=comps, **kw)


def test_gimmick_draw_when_a_lead_is_hit() -> None:
    """SH-041: Mira Quickstep draws when one of her Leads hits."""
    s = build(((2,), (1,)), decks=((), (9,)), active=1)
    s = hit(s, 1, 1)
    assert s.players[1].hand == ["B09"]


def test_gimmick_roll_bonuses() -> None:
    """Ox +1 Finish on POWER (see the Finish tests); Knot +1 Breakout on SUBMISSION only;
    Gus +1 turn GRAPPLE."""
    s = gimmick_state("granite_gus", hands=((1,), (2,)), phase=Phase.ROLL, active=None)
    s = dice(s, "grapple", "grapple")
    assert [d.value for d in s.last_roll] == [11, 8]
    base = build(((30,), (2,)), in_play=((1, 13), ()), comps=("ox_valdane", "professor_knot"))
    base = dice(hit(base, 0, 30), "strike")
    s = dice(base, "agility")  # Knot agility 6, no bonus off SUBMISSION
    assert s.finish.breakouts[0].value == 6
    s = dice(base, "submission")  # Knot submission 10 + 1
    assert s.journal[0] == "Professor Knot rolls SUBMISSION for a Breakout Roll of 11."


def test_gimmick_draw_on_a_stop() -> None:
    """Kid Kaboom draws a card after stopping one."""
    s = build(comps=("ox_valdane", "kid_kaboom"))
    stop, lead = next((k, o) for k in range(1, 28) for o in range(1, 28)
                      if (st := s.decks[1][k - 1].stop) and s.decks[0][o - 1].type == "lead"
                      and st.matches(s.decks[0][o - 1]))
    deck = next(n for n in range(1, 28) if n != stop)
    s = build(((lead,), (stop,)), decks=((), (deck,)), comps=("ox_valdane", "kid_kaboom"))
    s = do(s, 0, {"type": "play", "card": f"A{lead:02d}"})
    s = do(s, 1, {"type": "stop", "card": f"B{stop:02d}"})
    assert s.players[1].hand == [f"B{deck:02d}"]


def test_gimmick_draws_on_a_bump_and_after_a_breakout() -> None:
    """Sunny Salazar draws one more on a bump; Tessa Ironbridge draws two on breaking out."""
    s = gimmick_state("sunny_salazar", seat=1, hands=((1,), (2,)), phase=Phase.ROLL,
                      active=None)
    s = dice(s, "grapple", "strike")  # Ox 8, Sunny 8: a bump
    assert len(s.players[1].hand) == 3 and len(s.players[0].hand) == 2
    s = build(((30,), (2,)), in_play=((1, 13), ()), comps=("ox_valdane", "tessa_ironbridge"))
    s = dice(hit(s, 0, 30), "agility")  # 5
    s = dice(s, "technique")  # 10: out
    assert len(s.players[1].hand) == 3


def test_gimmick_effects_on_turns_and_finishes() -> None:
    """Marsh Kings: opponent flips 1 on each won roll; Keepers draw with 2 in play;
    Velvet Vendetta: a hit Finish flips 2; Twin Turbines: a Follow-Up hit boosts."""
    s = gimmick_state("marsh_kings", hands=((1,), (2,)), phase=Phase.ROLL, active=None)
    s = dice(s, "submission", "submission")
    assert s.active == 0 and len(s.players[1].discard) == 1
    s = gimmick_state("lighthouse_keepers", hands=((1,), (2,)), in_play=((3, 4), ()),
                      phase=Phase.ROLL, active=None)
    s = dice(s, "power", "agility")
    assert len(s.players[0].hand) == 3
    s = build(((30,), (2,)), in_play=((1, 13), ()), comps=("velvet_vendetta", "ox_valdane"))
    assert len(hit(s, 0, 30).players[1].discard) == 2
    s = build(((13,), (2,)), in_play=((1,), ()), comps=("twin_turbines", "ox_valdane"))
    assert hit(s, 0, 13).players[0].boosts == {"turn": 1}


def test_a_hand_size_condition_holds_at_exactly_its_bound() -> None:
    """SH-041 card text: Elbow Crash draws 1 "if you have 2 or fewer cards in your hand",
    counted once it has left the hand: with two left it draws, with three it does not.
    Mira's Gimmick draws 1 more for any Lead hit, either way."""
    for hand, drawn in (((11, 1, 2), 2), ((11, 1, 2, 3), 1)):
        s = build(((), hand), decks=((), (20,)), active=1)
        deck = len(s.players[1].deck)
        s = do(s, 1, {"type": "play", "card": "B11"})  # Ox holds nothing: no Stop asked
        assert deck - len(s.players[1].deck) == drawn
        assert len(s.players[1].hand) == len(hand) - 1 + drawn
