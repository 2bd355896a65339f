"""The round sequence and movement: SU-09 to SU-22."""

from __future__ import annotations

from engine.games.super_showdown.state import Phase, ShowdownKind
from engine.protocol import Pending, PendingKind


def _moves(ss, state, seat):
    return sorted(tuple(a["to"]) for a in ss.rules.legal_actions(state, seat))


def test_each_player_plays_exactly_one_card_of_any_colour(ss):
    """SU-09: one card each per round, and the Hero may play a green card."""
    hero_hand = [*ss.white[:8], "doom-cannon"]
    state = ss.state(phase=Phase.PLAY, hands=(tuple(sorted(hero_hand)),
                                              tuple(sorted(set(ss.rules.cards.ids) - set(hero_hand)))))
    assert {"type": "play_card", "card": "doom-cannon"} in ss.rules.legal_actions(state, 0)
    after = ss.play(state, 0, "doom-cannon")
    assert after.played == ("doom-cannon", None)
    assert ss.rules.legal_actions(after, 0) == []  # one card only
    assert len(after.hands[0]) == 8


def test_the_villain_starts_round_one_then_the_second_roller_starts(ss):
    """SU-10: the Villain starts round 1; the player who rolled second starts the next round."""
    state = ss.dealt(ss.white[:4] + ss.green[:5])  # seat 1 is the Hero
    assert (state.hero, state.starter) == (1, 0)
    state = ss.roll(state, 1)
    state = ss.move(state, 0, 6, 6)
    state = ss.move(state, 1, 1, 1)
    state = ss.play(ss.play(state, 0, state.hands[0][0]), 1, state.hands[1][0])
    assert state.phase is Phase.SECOND_ROLL and state.actor() == 1  # the Hero rolls second
    state = ss.roll(state, 6)
    state = ss.move(ss.move(state, 1, 1, 1), 0, 6, 6)
    assert (state.round, state.starter) == (2, 1)  # the second roller starts round 2


def test_the_starting_player_rolls_their_own_die_first(ss):
    """SU-11: step 1 is a chance roll of the starting player's die, marking a city section."""
    state = ss.state(starter=1)
    assert ss.rules.pending(state).kind is PendingKind.CHANCE
    rolled = ss.roll(state, 3)
    assert rolled.dice == (None, 3)  # the Villain's green die: row 3
    assert ss.rules.view(rolled, None)["dice"] == {"white": None, "green": 3}
    assert rolled.phase is Phase.STARTER_MOVE and ss.rules.pending(rolled) == Pending.decision(1)


def test_the_starter_moves_up_to_two_orthogonal_spaces(ss):
    """SU-12: up to 2 spaces, no diagonal moves, staying put allowed."""
    state = ss.state(phase=Phase.STARTER_MOVE, starter=1, dice=(None, 2),
                     positions=((1, 1), (6, 6)))
    assert _moves(ss, state, 1) == sorted([(6, 6), (5, 6), (4, 6), (6, 5), (6, 4), (5, 5)])
    assert ss.rules.legal_actions(state, 0) == []


def test_a_move_begun_on_a_powerboost_may_go_three_spaces(ss):
    """SU-13: beginning on a Powerboost allows up to 3 spaces."""
    state = ss.state(phase=Phase.STARTER_MOVE, starter=1, dice=(None, 2),
                     positions=((1, 1), (4, 4)))
    moves = _moves(ss, state, 1)
    assert (4, 1) in moves and (1, 4) in moves and (6, 5) in moves
    assert (4, 0) not in moves and (1, 3) not in moves
    not_boosted = ss.at(state, positions=((1, 1), (4, 5)))
    assert (4, 2) not in _moves(ss, not_boosted, 1)


def test_the_nemesis_moves_after_the_starter(ss):
    """SU-14: step 3 is the nemesis' move."""
    state = ss.state(phase=Phase.STARTER_MOVE, starter=1, dice=(None, 2))
    state = ss.move(state, 1, 5, 6)
    assert state.phase is Phase.NEMESIS_MOVE and ss.rules.pending(state) == Pending.decision(0)
    state = ss.move(state, 0, 2, 2)
    assert state.positions == ((2, 2), (5, 6)) and state.phase is Phase.PLAY


def test_moving_into_the_nemesis_stops_all_movement_that_round(ss):
    """SU-15: a move ends in the nemesis' space and no one moves again that round."""
    state = ss.state(phase=Phase.STARTER_MOVE, starter=1, dice=(None, 2),
                     positions=((4, 6), (6, 6)))
    moves = _moves(ss, state, 1)
    assert (4, 6) in moves and (3, 6) not in moves
    beside = ss.at(state, positions=((5, 6), (6, 6)))
    moves = _moves(ss, beside, 1)
    assert (5, 6) in moves and (4, 6) not in moves  # (4, 6) lies only through the nemesis
    met = ss.move(state, 1, 4, 6)
    assert met.met and met.phase is Phase.PLAY  # the nemesis' step 3 is skipped
    assert ss.rules.pending(met) == Pending.decision(0, 1)


def test_a_meeting_on_the_nemesis_second_move_ends_the_round_at_once(ss):
    """SU-15, SU-17 (decision): the nemesis moves into the starter in step 6, so the
    starter's step 7 is skipped: the Brawn resolves and the nemesis starts the next round."""
    state = ss.state(phase=Phase.NEMESIS_SECOND_MOVE, starter=1, dice=(1, 1),
                     played=("wall-crawl", "acid-touch"), positions=((4, 5), (5, 5)))
    after = ss.move(state, 0, 5, 5)
    assert after.last_showdown is not None
    assert after.last_showdown.kind is ShowdownKind.BRAWN
    assert after.phase is Phase.FIRST_ROLL and (after.round, after.starter) == (2, 0)
    assert after.positions == ((1, 1), (6, 6))


def test_after_a_meeting_both_still_play_a_card(ss):
    """SU-16: step 4 happens even after the supers meet."""
    state = ss.state(phase=Phase.NEMESIS_MOVE, starter=1, dice=(None, 2),
                     positions=((2, 2), (3, 2)))
    met = ss.move(state, 0, 3, 2)
    assert met.phase is Phase.PLAY and met.met
    assert len(ss.rules.legal_actions(met, 0)) == 9 and len(ss.rules.legal_actions(met, 1)) == 9


def test_after_a_meeting_the_second_roll_and_moves_are_skipped(ss):
    """SU-17 (decision): no step 5-7 after a meeting; the Brawn resolves; the nemesis starts next."""
    state = ss.state(phase=Phase.PLAY, met=True, starter=1, dice=(None, 2),
                     positions=((3, 2), (3, 2)))
    state = ss.play(state, 1, "ice-blast")
    assert state.phase is Phase.PLAY
    state = ss.play(state, 0, "titan-grip")
    assert state.last_showdown.kind is ShowdownKind.BRAWN
    assert state.phase is Phase.FIRST_ROLL and state.starter == 0 and state.round == 2
    assert state.dice == (None, None)


def test_a_meeting_does_not_carry_into_the_next_round(ss):
    """SU-15/SU-17: the meeting stops movement for its own round only; the next round
    starts with the supers apart on their starting spaces, as every seat's view says."""
    state = ss.state(phase=Phase.PLAY, met=True, starter=1, dice=(None, 2),
                     positions=((3, 2), (3, 2)))
    state = ss.play(ss.play(state, 1, "ice-blast"), 0, "titan-grip")
    assert state.phase is Phase.FIRST_ROLL and state.round == 2 and state.met is False
    assert all(ss.rules.view(state, seat)["met"] is False for seat in (0, 1, None))
    rolled = ss.roll(state, 4)
    assert rolled.phase is Phase.STARTER_MOVE and not ss.rules.view(rolled, 0)["met"]


def test_later_moves_use_the_same_limits(ss):
    """SU-17 (decision): steps 6 and 7 move up to 2, or 3 from a Powerboost."""
    state = ss.state(phase=Phase.NEMESIS_SECOND_MOVE, starter=1, dice=(1, 6),
                     played=("jet-flight", "ice-blast"), positions=((3, 3), (6, 1)))
    assert max(abs(x - 3) + abs(y - 3) for x, y in _moves(ss, state, 0)) == 3
    state = ss.move(state, 0, 3, 3)
    assert max(abs(x - 6) + abs(y - 1) for x, y in _moves(ss, state, 1)) == 2


def test_both_play_face_down_at_the_same_time_in_either_order(ss):
    """SU-18: step 4 is a simultaneous decision; each seat posts on its own."""
    state = ss.state(phase=Phase.PLAY, dice=(None, 2))
    assert ss.rules.pending(state) == Pending.decision(0, 1)
    first_villain = ss.play(ss.play(state, 1, "acid-touch"), 0, "wall-crawl")
    first_hero = ss.play(ss.play(state, 0, "wall-crawl"), 1, "acid-touch")
    assert first_villain == first_hero
    half = ss.play(state, 1, "acid-touch")
    assert ss.rules.pending(half) == Pending.decision(0)


def test_the_nemesis_rolls_after_the_cards(ss):
    """SU-19: step 5 is the nemesis' roll of their own die."""
    state = ss.state(phase=Phase.PLAY, starter=1, dice=(None, 2))
    state = ss.play(ss.play(state, 0, "wall-crawl"), 1, "acid-touch")
    assert state.phase is Phase.SECOND_ROLL and ss.rules.pending(state).kind is PendingKind.CHANCE
    assert ss.roll(state, 5).dice == (5, 2)  # the Hero is the nemesis: white die


def test_the_nemesis_then_the_starter_move_again(ss):
    """SU-20: step 6 the nemesis moves, step 7 the starter moves."""
    state = ss.state(phase=Phase.SECOND_ROLL, starter=1, dice=(None, 2),
                     played=("wall-crawl", "acid-touch"))
    state = ss.roll(state, 5)
    assert ss.rules.pending(state) == Pending.decision(0)
    state = ss.move(state, 0, 1, 2)
    assert ss.rules.pending(state) == Pending.decision(1)


def test_mayhem_is_where_the_dice_intersect(ss):
    """SU-21: the Mayhem square is (white face, green face)."""
    state = ss.state(phase=Phase.SECOND_ROLL, starter=0, dice=(4, None),
                     played=("wall-crawl", "acid-touch"))
    rolled = ss.roll(state, 6)
    assert rolled.mayhem == (4, 6)
    assert ss.rules.view(rolled, 0)["mayhem"] == [4, 6]


def test_the_last_move_reveals_and_resolves_the_showdown(ss):
    """SU-22: after step 7 both cards are turned over and the Showdown settles."""
    state = ss.state(phase=Phase.STARTER_SECOND_MOVE, starter=1, dice=(1, 6),
                     played=("wall-crawl", "acid-touch"), positions=((3, 3), (5, 5)))
    after = ss.move(state, 1, 5, 4)
    assert after.last_showdown is not None and after.last_showdown.kind is ShowdownKind.WITS
    assert after.played == (None, None)
    view = ss.rules.view(after, None)
    assert view["last_showdown"]["cards"][0]["id"] == "wall-crawl"
