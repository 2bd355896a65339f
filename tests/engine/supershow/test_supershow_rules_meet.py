"""Supershow edge cases where two rules meet, the ones the other tests left out: a bump
that takes both hands over ten, the time limit's last turn roll (a won roll still gives
its turn, a bump ends it), a Double Team Finish that eliminates the third player of a
Triple Threat, and the lone player's two-card draw over the hand limit.

Ox Valdane (A): power 10, technique 6, agility 5, strike 9, submission 7, grapple 8.
Mira Quickstep (B): agility 10, strike 9, technique 8, grapple 7, submission 6, power 5.
Professor Knot (C): submission 10, technique 9, grapple 8, power 7, agility 6, strike 5.
"""

from __future__ import annotations

from supershow_helpers import RULES, build, dice, do, legal, refused
from test_supershow_multiplayer import mbuild

from engine.games.supershow.state import Phase, State, Step
from engine.protocol import PendingKind


def test_a_bump_over_the_hand_limit_has_both_discard_to_ten_before_the_roll_again() -> None:
    """SH-010 with SH-048: both hold ten; the bump's draw gives each an eleventh card, and
    each must discard down to ten (seat 0 first, then seat 1) before the dice roll again."""
    s = build((tuple(range(1, 11)), tuple(range(1, 11))), decks=((11,), (12,)),
              phase=Phase.ROLL, active=None)
    s = dice(s, "agility", "power")  # Ox 5, Mira 5: a bump
    assert [len(p.hand) for p in s.players] == [11, 11]
    assert RULES.pending(s).seats == (0,) and {a["type"] for a in legal(s, 0)} == {"discard"}
    assert legal(s, 1) == [] and refused(s, 1, {"type": "discard", "card": "B12"}) == \
        "not_your_turn"
    s = do(s, 0, {"type": "discard", "card": "A11"})
    assert RULES.pending(s).seats == (1,)
    s = do(s, 1, {"type": "discard", "card": "B03"})
    assert [len(p.hand) for p in s.players] == [10, 10]
    assert s.players[1].discard == ["B03"] and s.phase is Phase.ROLL
    assert RULES.pending(s).kind is PendingKind.CHANCE and s.turn_rolls == 1


def _at_last_roll() -> State:
    s = build(((1,), (2,)), phase=Phase.ROLL, active=None)
    s.turn_limit, s.turn_rolls = 3, 2
    return s


def test_the_time_limits_last_turn_roll_still_gives_its_turn_then_a_draw() -> None:
    """SH-009/026 with the termination decision (package docstring: after `turn_limit`
    turn rolls, bumps included, a draw): the third of three rolls is won, so its turn is
    played; the roll that would follow it is not made, and both share first place."""
    s = dice(_at_last_roll(), "power", "power")  # Ox 10, Mira 5
    assert s.phase is Phase.TURN and s.active == 0 and RULES.result(s) is None
    s = do(do(s, 0, {"type": "play", "card": "A01"}), 1, {"type": "no_stop"})
    assert s.players[0].in_play[1] == ["A01"]
    result = RULES.result(s)
    assert result is not None and result.draw and result.winners == ()
    assert result.placements == (1, 1) and s.turn_rolls == 3


def test_a_bump_as_the_time_limits_last_turn_roll_ends_the_match_at_once() -> None:
    """SH-010 with the termination decision: a bump is a turn roll too; made as the last
    one, both still draw, and the roll again is not made: a draw."""
    s = dice(_at_last_roll(), "agility", "power")  # 5 and 5
    assert [len(p.hand) for p in s.players] == [2, 2]
    result = RULES.result(s)
    assert result is not None and result.draw and result.placements == (1, 1)


def test_a_double_team_finish_that_eliminates_the_third_player_ends_the_turn() -> None:
    """SH-066/074/076 with SH-072/081 (Triple Threat Elimination): Mira and Ox Double Team
    Knot; Mira plays first and her Finish pins him (Ox, her partner, is asked to Protect,
    Team Up and Save and declines). Knot is eliminated with every pile for and against
    him; Ox's part of the turn was against Knot, so it lapses and a turn roll follows.
    Two players are left, one side each, so the match goes on (SH-081 decision)."""
    s = mbuild("triple_threat_elimination", [(2,), (28,), (1,)],
               in_play={(1, 2): (1, 13), (0, 2): (3,), (2, 0): (4,)},
               plan=[Step(1, (2,)), Step(0, (2,))])
    s.partners = (1, 0)
    s = do(s, 1, {"type": "play", "card": "B28", "target": 2})
    asked = []
    while RULES.pending(s).kind is PendingKind.DECISION:
        seat = RULES.pending(s).seats[0]
        decline = next(a for a in legal(s, seat) if a["type"].startswith("no_"))
        asked.append((seat, decline["type"]))
        s = do(s, seat, decline)
        if s.phase is Phase.FINISH:
            s = dice(s, "agility")  # Mira 10
    assert asked == [(2, "no_stop"), (0, "no_stop"), (0, "no_team_up"), (0, "no_save")]
    for _ in range(3):
        s = dice(s, "strike")  # Knot 5: short of 10
    assert s.out == [2] and s.live == [0, 1] and RULES.result(s) is None
    assert s.phase is Phase.ROLL and s.plan == [] and s.partners == ()
    assert s.players[0].in_play[2] == [] and s.players[2].in_play[0] == []
    assert "A03" in s.players[0].discard and "C04" in s.players[2].discard
    assert s.players[0].hand == ["A02"]  # Ox never played


def test_the_lone_players_two_card_draw_over_ten_is_discarded_before_the_turn() -> None:
    """SH-087 with SH-048 (Handicap): Knot, alone, holds nine and wins the roll: he draws
    two (eleven) and must discard one before his first play; both plays stay his."""
    s = mbuild("handicap", [(1,), (2,), tuple(range(1, 10))], phase=Phase.ROLL, plan=[])
    s = dice(s, "agility", "power", "submission")  # Ox 5, Mira 5, Knot 10
    assert s.active == 2 and len(s.players[2].hand) == 11
    assert RULES.pending(s).seats == (2,) and {a["type"] for a in legal(s, 2)} == {"discard"}
    assert refused(s, 2, {"type": "play", "card": "C01", "target": 0}) == "hand_over_limit"
    s = do(s, 2, {"type": "discard", "card": "C05"})
    assert len(s.players[2].hand) == 10 and s.players[2].discard == ["C05"]
    assert s.phase is Phase.TURN and s.plan == [Step(2, (0, 1)), Step(2, (0, 1))]
