"""Set-up, the board and the card set: SU-01 to SU-08."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.super_showdown import RULES
from engine.games.super_showdown.cards import Colour, Power
from engine.games.super_showdown.state import Phase
from engine.protocol import Event, PendingKind


def test_the_box_holds_dice_markers_cards_references_and_a_city_grid(ss):
    """SU-01: two dice (white, green), two markers, 18 cards, reference cards, a grid."""
    state = ss.dealt()
    view = ss.rules.view(state, 0)
    assert len(ss.rules.cards.cards) == 18
    assert set(view["dice"]) == {"white", "green"}
    assert sorted(s["colour"] for s in view["seats"]) == ["green", "white"]
    assert all(s["position"] is not None for s in view["seats"])
    assert view["reference"] and ss.rules.view(state, 1)["reference"] == view["reference"]
    assert (view["board"]["width"], view["board"]["height"]) == (6, 6)


def test_the_deal_is_a_stored_random_permutation_nine_cards_each(ss):
    """SU-02: the 18 cards are dealt at random, nine to each player."""
    state = ss.fresh()
    assert ss.rules.pending(state).kind is PendingKind.CHANCE
    outcome = ss.rules.sample_chance(state, random.Random(7))
    assert sorted(outcome["deal"]) == sorted(ss.rules.cards.ids)
    assert outcome == ss.rules.sample_chance(state, random.Random(7))
    assert outcome != ss.rules.sample_chance(state, random.Random(8))
    dealt = ss.chance(state, outcome)
    assert dealt.hands == (tuple(sorted(outcome["deal"][:9])), tuple(sorted(outcome["deal"][9:])))


def test_five_or_more_white_cards_make_the_hero_with_the_white_die(ss):
    """SU-03: the player with five or more white cards is the Hero and takes the white die."""
    seat1_white = ss.white[:5]
    seat0 = ss.white[5:] + ss.green[:5]
    state = ss.dealt(seat0)
    assert state.hero == 1
    view = ss.rules.view(state, None)
    assert view["seats"][1]["role"] == "hero" and view["seats"][1]["colour"] == "white"
    assert set(seat1_white) <= set(state.hands[1])
    hero_starts = ss.state(hero=1, starter=1, positions=((6, 6), (1, 1)))
    assert ss.roll(hero_starts, 4).dice == (4, None)  # the Hero rolls the white die


def test_five_or_more_green_cards_make_the_villain_with_the_green_die(ss):
    """SU-04: the player with five or more green cards is the Villain, with the green die."""
    state = ss.dealt(ss.white[:4] + ss.green[:5])
    assert state.hero == 1
    assert ss.rules.view(state, 0)["seats"][0]["role"] == "villain"
    rolled = ss.roll(state, 5)  # the Villain starts round 1 and rolls first
    assert rolled.dice == (None, 5)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_every_deal_makes_exactly_one_hero_and_one_villain(rng):
    """SU-05 (decision): with 9 white and 9 green cards every deal names one of each role."""
    state = RULES.start({}, 2)
    dealt = RULES.apply(state, Event.chance(RULES.sample_chance(state, rng)))
    whites = [sum(RULES.cards[c].colour is Colour.WHITE for c in h) for h in dealt.hands]
    assert whites[dealt.hero] >= 5
    assert 9 - whites[1 - dealt.hero] >= 5
    assert Counter(c.colour for c in RULES.cards) == {Colour.WHITE: 9, Colour.GREEN: 9}


def test_each_player_takes_a_reference_card_and_sets_a_marker_on_its_start(ss):
    """SU-06: after the deal both markers stand on their starting spaces; both see the reference."""
    state = ss.dealt()
    assert state.positions == (ss.rules.board.hero_start, ss.rules.board.villain_start)
    for seat in (0, 1):
        assert ss.rules.view(state, seat)["reference"]
    assert ss.rules.view(ss.fresh(), None)["seats"][0]["position"] is None


def test_the_board_is_a_six_by_six_grid_of_die_faces(ss):
    """SU-07 (decision): 6x6, Hero (1,1), Villain (6,6), four Powerboosts, Mayhem (white, green)."""
    board = ss.rules.board
    assert (board.width, board.height) == (6, 6)
    assert (board.hero_start, board.villain_start) == ((1, 1), (6, 6))
    assert board.powerboosts == {(3, 3), (4, 4), (2, 5), (5, 2)}
    state = ss.state(phase=Phase.SECOND_ROLL, dice=(None, 5), played=("jet-flight", "ice-blast"),
                     starter=1)
    assert ss.roll(state, 2).mayhem == (2, 5)  # white 2 = column 2, green 5 = row 5


def test_the_card_set_is_our_own_with_a_green_ray_gun_and_a_decoy_of_each_colour(ss):
    """SU-08 (decision): numbers 1,2,4,6,8,9,11,13,15 per colour; Ray-Gun green; two Decoys."""
    cards = list(ss.rules.cards)
    for colour in Colour:
        numbers = sorted(c.number for c in cards if c.colour is colour)
        assert numbers == [1, 2, 4, 6, 8, 9, 11, 13, 15]
    ray_guns = [c for c in cards if c.power is Power.RAY_GUN]
    decoys = [c for c in cards if c.power is Power.DECOY]
    assert [(c.name, c.colour, c.number) for c in ray_guns] == [("Ray-Gun", Colour.GREEN, 2)]
    assert sorted((c.name, c.colour, c.number) for c in decoys) == [
        ("Decoy!", Colour.GREEN, 1), ("Decoy!", Colour.WHITE, 1)]
