"""Edge cases across the Showdown rules: powers outside their Showdown, two Decoys, a
Speed choice that ends the game (seat 0 is the Hero, seat 1 the Villain and the starter)."""

from __future__ import annotations

from engine.games.super_showdown.state import Phase, ShowdownKind, WinReason
from engine.protocol import Pending

APART = ((1, 1), (6, 6))  # nobody on the Mayhem (3, 3)
TO_MAYHEM = {"positions": ((1, 1), (3, 4)), "to": (3, 3)}  # the Villain ends on the Mayhem
FOUR_GREEN = ("decoy-green", "whisper-network", "shadow-step", "acid-touch")


def _split(state):
    show = state.last_showdown
    return set(show.victorious), set(show.defeated)


def test_a_ray_gun_is_a_plain_number_in_wits(ss):
    """SU-30/SU-36: the Ray-Gun's twist is a Brawn rule; in Wits the green 2 is simply
    lower than a white 4."""
    after = ss.reveal(("sonic-hearing", "ray-gun"), APART)
    assert after.last_showdown.kind is ShowdownKind.WITS
    assert _split(after) == ({"sonic-hearing"}, {"ray-gun"})
    assert after.last_showdown.twist == ""


def test_a_ray_gun_and_a_decoy_do_not_twist_a_speed_showdown(ss):
    """SU-30/SU-31/SU-33: in Speed the chooser decides, Ray-Gun or not: the Villain on
    the Mayhem may make the Hero's Decoy! victorious and the Ray-Gun defeated, the
    opposite of a Brawn's Ray-Gun outcome, or anything else."""
    state = ss.reveal(("sonic-hearing", "ray-gun"), ((1, 1), (3, 4)), to=(3, 3))
    assert state.phase is Phase.SPEED_CHOICE and ss.rules.pending(state) == Pending.decision(1)
    after = ss.choose(state, 1, ["sonic-hearing"], ["ray-gun"])
    assert _split(after) == ({"sonic-hearing"}, {"ray-gun"})
    assert after.last_showdown.kind is ShowdownKind.SPEED and after.last_showdown.twist == ""


def test_a_ray_gun_with_another_green_card_in_a_brawn_makes_both_victorious(ss):
    """SU-24/SU-30: both cards green (the Hero may play a green card): both are Villain
    cards, so the Ray-Gun makes both victorious."""
    after = ss.brawn(("shadow-step", "ray-gun"))
    assert _split(after) == ({"shadow-step", "ray-gun"}, set())
    assert after.last_showdown.twist == "ray_gun"


def test_with_two_decoys_in_speed_the_one_off_the_mayhem_chooses(ss):
    """SU-33/SU-34: the Villain reached the Mayhem with the green Decoy!, the Hero did not
    and played the white one: "if you did not reach the Mayhem and played any Decoy!, you
    choose"."""
    state = ss.reveal(("decoy-white", "decoy-green"), **TO_MAYHEM)
    assert ss.rules.pending(state) == Pending.decision(0)
    after = ss.choose(state, 0, ["decoy-white"], ["decoy-green"])
    assert _split(after) == ({"decoy-white"}, {"decoy-green"})
    assert after.last_showdown.chooser == 0


def test_a_speed_choice_that_makes_a_fifth_card_ends_the_game_at_once(ss):
    """SU-33 with SU-40: the Villain, holding four green cards on the Victory pile, chooses
    its own green card victorious: five, and the game (here the match) is over."""
    state = ss.reveal(("sonic-hearing", "ice-blast"), victory=FOUR_GREEN, **TO_MAYHEM)
    assert state.phase is Phase.SPEED_CHOICE
    after = ss.choose(state, 1, ["ice-blast"], ["sonic-hearing"])
    assert after.phase is Phase.OVER
    assert after.games[-1].winner == 1 and after.games[-1].reason is WinReason.FIVE_VICTORIOUS
    assert ss.rules.result(after).winners == (1,)


def test_a_speed_choice_that_gives_the_nemesis_its_fifth_loses_the_game(ss):
    """SU-35 (decision: the chooser is free) with SU-41: a chooser who defeats a fifth card
    of its own colour hands the nemesis the game; the rules do not stop it."""
    state = ss.reveal(("sonic-hearing", "ice-blast"), defeat=FOUR_GREEN, **TO_MAYHEM)
    after = ss.choose(state, 1, [], ["sonic-hearing", "ice-blast"])
    assert after.phase is Phase.OVER
    assert after.games[-1].winner == 0 and after.games[-1].reason is WinReason.FIVE_DEFEATED
