"""Royal Rumble edge cases where two rules meet, the ones the other tests left out: the
token changing hands mid-round against a speed order fixed at the Reveal, a follow-up
attack or a Legend-less player's attack taking the token, a deck that runs out in the
middle of the End of Turn draw, and a round limit reached in the round a Legend fell."""

from __future__ import annotations

from rr_helpers import RULES, Table, breathe, card_of, decider, do, names, plan, settle

from engine.games.royal_rumble.state import EndReason, Phase, Step
from engine.protocol import Event

L3 = ["ironhide", "vesper", "bramble"]
L4 = ["ironhide", "vesper", "bramble", "rook"]


def test_the_token_changing_hands_mid_round_leaves_the_speed_order_of_the_reveal() -> None:
    """RR-22, RR-48, RR-49 and the engine's decision (speed order fixed at the Reveal by the
    Titleholder of that moment): seat 2 throws the Titleholder's Legend first (speed 6) and
    takes the token; seats 1 and 3 tied on speed 5 still go 1 then 3 (clockwise from the
    old Titleholder), not 3 then 1 (from the new one). Who is asked to intervene follows the
    token at once (RR-72): seat 3 before seat 0 on seat 1's attack."""
    s = Table().build(L4, {1: ["Snap Kick"], 2: ["Jab Flurry", "Heave-Ho"], 3: ["Snap Kick"]},
                      reserve=["cobalt"], titleholder=0)
    s = breathe(s, 0)
    s = plan(s, 1, "Snap Kick", 2)
    s = plan(s, 2, "Jab Flurry", 0, "Heave-Ho")
    s = plan(s, 3, "Snap Kick", 2)
    asked: list[tuple[int, str]] = []
    s = settle(s, asked)
    assert [(r.seat, r.speed) for r in s.last_reveal] == [(2, 6), (1, 5), (3, 5)]
    assert [r.status for r in s.last_reveal] == ["hit", "hit", "hit"]
    assert s.titleholder == 2 and s.players[2].placards == ["ironhide"]
    after_throw = asked[asked.index((0, "hold_on")) + 1:]
    assert after_throw == [(2, "defend"), (3, "intervene"), (0, "intervene"),
                           (2, "defend"), (0, "intervene"), (1, "intervene")]
    assert s.phase is Phase.PLAN and decider(s) == 2  # the new Titleholder plans first


def test_a_follow_up_attack_that_eliminates_the_titleholder_takes_the_token() -> None:
    """RR-49, RR-54, RR-63 with RR-34: Whirlwind Kick hits seat 2 and lets seat 1 attack
    again; the unboosted Sit-Out Bomb (5) on Haskell's 8 damage reaches 12 and
    eliminates the Titleholder's Legend: the token and the placard go to seat 1."""
    s = Table().build(L3, {1: ["Whirlwind Kick", "Sit-Out Bomb"]},
                      damage={0: ["Haymaker", "Haymaker"]}, reserve=["rook"], titleholder=0)
    s = breathe(s, 0)
    s = plan(s, 1, "Whirlwind Kick", 2)
    s = settle(breathe(s, 2))
    assert s.step is Step.FOLLOW and decider(s) == 1
    s = do(s, 1, {"type": "follow_up", "card": card_of(s, 1, "Sit-Out Bomb"), "seat": 0})
    s = settle(s)
    assert s.titleholder == 1 and s.players[1].placards == ["ironhide"]
    assert [p.legend for p in s.players] == ["rook", "vesper", "bramble"]
    assert s.phase is Phase.PLAN and decider(s) == 1


def test_a_player_with_no_legend_left_can_still_take_the_token_and_the_game_ends() -> None:
    """RR-49, RR-54, RR-55, RR-59 decision, RR-70: seat 2 has no Legend left; its Sit-Out
    Bomb (a Cheap Trick, so the target is asked for a Ref too) eliminates the Titleholder's
    Legend. Seat 2 takes placard and token, and with the reserve empty Vesper is the last
    Legend standing: seat 1 wins though seat 2 holds the only placard."""
    s = Table().build(["ironhide", "vesper", None], {2: ["Sit-Out Bomb"]},
                      damage={0: ["Haymaker", "Haymaker"]}, titleholder=0, out=[2])
    s = breathe(s, 0)
    s = breathe(s, 1)
    s = plan(s, 2, "Sit-Out Bomb", 0)
    asked: list[tuple[int, str]] = []
    s = settle(s, asked)
    assert asked == [(0, "defend"), (0, "intervene"), (1, "intervene")]
    assert s.phase is Phase.OVER and s.end_reason is EndReason.LAST_STANDING
    assert s.titleholder == 2 and s.players[2].placards == ["ironhide"]
    result = RULES.result(s)
    assert result is not None and result.winners == (1,) and not result.draw
    assert result.figures[2]["bragging_rights"] == 1 and result.figures[1]["placards"] == 0


def test_the_deck_running_out_mid_draw_is_reshuffled_and_the_draw_goes_on_in_order() -> None:
    """RR-36, RR-37, RR-48: the End of Turn draw goes from the Titleholder (seat 1)
    clockwise; it takes the deck's last two cards, the discard pile is shuffled (a stored
    chance event) and the same seat draws on from the new deck, then seats 2 and 0."""
    s = Table().build(L3, {0: ["Roundhouse"], 1: ["Lariat"], 2: ["Jab Flurry"]},
                      titleholder=1)
    last_two = s.deck[:2]
    s.discard += s.deck[2:]
    s.deck = last_two
    s = plan(s, 1, "Lariat", 2)
    s = plan(s, 2, "Jab Flurry", 0)
    s = settle(plan(s, 0, "Roundhouse", 1))
    assert s.chance == "reshuffle" and s.players[1].hand == last_two
    assert [len(p.hand) for p in s.players] == [0, 2, 0]
    order = sorted(s.discard)
    s = RULES.apply(s, Event.chance({"order": order}))
    assert s.players[1].hand == [*last_two, *order[:4]]
    assert s.players[2].hand == order[4:10] and s.players[0].hand == order[10:16]
    assert s.deck == order[16:] and s.discard == []
    assert s.phase is Phase.PLAN and s.round == 2


def test_a_round_limit_reached_in_the_round_a_legend_fell_places_it_last() -> None:
    """RR-14 decision, RR-34, RR-54, RR-58 decision: Vesper falls in the last round with the
    reserve empty; the two Legends still standing share first place (a draw), the fallen
    one is third, and the eliminator's placard gives it the bragging rights."""
    s = Table().build(L3, {0: ["Sit-Out Bomb"]}, damage={1: ["Haymaker", "Haymaker"]},
                      round_limit=1)
    s = plan(s, 0, "Sit-Out Bomb", 1)
    s = breathe(s, 1)
    s = settle(breathe(s, 2))
    assert s.phase is Phase.OVER and s.end_reason is EndReason.ROUND_LIMIT
    result = RULES.result(s)
    assert result is not None and result.draw
    assert result.winners == (0, 2) and result.placements == (1, 3, 1)
    assert result.figures[0]["bragging_rights"] == 1
    assert names(s, s.discard).count("Haymaker") >= 2  # the fallen placard's damage cards
