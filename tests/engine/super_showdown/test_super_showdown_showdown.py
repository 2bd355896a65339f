"""The Showdown: SU-23 to SU-38 (seat 0 is the Hero, seat 1 the Villain and the starter)."""

from __future__ import annotations

from engine.games.super_showdown.showdown import rank
from engine.games.super_showdown.state import Phase, ShowdownKind
from engine.protocol import Pending

APART = ((1, 1), (6, 6))  # nobody on the Mayhem (3, 3)


def _split(state):
    show = state.last_showdown
    return set(show.victorious), set(show.defeated)


def _options(ss, state, seat):
    return [(set(a["victorious"]), set(a["defeated"])) for a in ss.rules.legal_actions(state, seat)]


def test_the_higher_number_is_the_high_card(ss):
    """SU-23: on reveal the two cards rank by number into a high card and a low card."""
    cards = ss.rules.cards
    ranking = rank((cards["titan-grip"], cards["ice-blast"]))
    assert ranking.high == (cards["titan-grip"],) and ranking.low == (cards["ice-blast"],)
    after = ss.reveal(("titan-grip", "ice-blast"), APART)
    assert _split(after) == ({"titan-grip"}, {"ice-blast"})


def test_same_colour_cards_add_into_one_high_card_with_no_low_card(ss):
    """SU-24: two cards of one colour are summed into one high card; there is no low card."""
    cards = ss.rules.cards
    ranking = rank((cards["wall-crawl"], cards["jet-flight"]))
    assert len(ranking.high) == 2 and ranking.low == ()
    after = ss.reveal(("wall-crawl", "jet-flight"), APART)  # 8 + 9 = 17
    assert _split(after) == ({"wall-crawl", "jet-flight"}, set())


def test_equal_numbers_of_different_colours_are_both_defeated(ss):
    """SU-25 (decision): no high card in a dead heat, so both cards are defeated."""
    wits = ss.reveal(("jet-flight", "ice-blast"), APART)
    assert _split(wits) == (set(), {"jet-flight", "ice-blast"})
    assert wits.last_showdown.twist == "tie"
    brawn = ss.brawn(("jet-flight", "ice-blast"))
    assert _split(brawn) == (set(), {"jet-flight", "ice-blast"})


def test_same_colour_cards_in_a_brawn_are_both_victorious_even_over_19(ss):
    """SU-25 (decision): the summed high card wins a Brawn; the 19 limit is for Wits only."""
    after = ss.brawn(("titan-grip", "solar-flare"))  # 13 + 15 = 28
    assert _split(after) == ({"titan-grip", "solar-flare"}, set())


def test_final_squares_choose_brawn_speed_or_wits(ss):
    """SU-26: same space is Brawn, else one super on the Mayhem is Speed, else Wits."""
    cards = ("wall-crawl", "acid-touch")
    brawn = ss.reveal(cards, ((5, 6), (6, 6)), to=(5, 6))
    assert brawn.last_showdown.kind is ShowdownKind.BRAWN
    speed = ss.reveal(cards, ((1, 1), (3, 4)), to=(3, 3))
    assert speed.phase is Phase.SPEED_CHOICE
    wits = ss.reveal(cards, APART)
    assert wits.last_showdown.kind is ShowdownKind.WITS


def test_both_supers_on_the_mayhem_is_a_brawn(ss):
    """SU-27 (decision): sharing the Mayhem is sharing a space, so Brawn, not Speed."""
    after = ss.reveal(("wall-crawl", "acid-touch"), ((3, 3), (3, 4)), to=(3, 3))
    assert after.last_showdown.kind is ShowdownKind.BRAWN


def test_passing_through_the_mayhem_does_not_reach_it(ss):
    """SU-27 (decision): only ending the move on the Mayhem counts."""
    after = ss.reveal(("titan-grip", "acid-touch"), ((1, 1), (3, 2)), to=(3, 4))
    assert after.last_showdown.kind is ShowdownKind.WITS


def test_brawn_high_card_victorious_low_card_defeated(ss):
    """SU-28: in a Brawn the high card is victorious and the low card defeated."""
    after = ss.brawn(("titan-grip", "doom-cannon"))
    assert _split(after) == ({"doom-cannon"}, {"titan-grip"})
    assert after.last_showdown.kind is ShowdownKind.BRAWN


def test_after_a_brawn_both_markers_return_to_their_starting_spaces(ss):
    """SU-29: a Brawn sends both markers home."""
    after = ss.reveal(("wall-crawl", "acid-touch"), ((4, 4), (4, 5)), to=(4, 4))
    assert after.positions == ((1, 1), (6, 6))
    wits = ss.reveal(("wall-crawl", "acid-touch"), ((4, 4), (4, 6)))
    assert wits.positions == ((4, 4), (4, 6))


def test_a_ray_gun_makes_green_victorious_and_white_defeated_in_a_brawn(ss):
    """SU-30: with a Ray-Gun in a Brawn, Villain cards win and Hero cards lose, numbers aside."""
    after = ss.brawn(("solar-flare", "ray-gun"))
    assert _split(after) == ({"ray-gun"}, {"solar-flare"})
    assert after.last_showdown.twist == "ray_gun"
    hero_fires = ss.brawn(("ray-gun", "jet-flight"))  # the Hero may hold and play it too
    assert _split(hero_fires) == ({"ray-gun"}, {"jet-flight"})


def test_a_decoy_with_a_ray_gun_reverses_the_brawn(ss):
    """SU-31: Ray-Gun plus Decoy!: Hero cards win and Villain cards lose."""
    after = ss.brawn(("decoy-white", "ray-gun"))
    assert _split(after) == ({"decoy-white"}, {"ray-gun"})
    assert after.last_showdown.twist == "ray_gun_reversed"


def test_a_decoy_reverses_only_a_ray_gun_and_any_decoy_counts(ss):
    """SU-32 (decision): without a Ray-Gun a Decoy! is a plain 1; a green Decoy! also reverses."""
    plain = ss.brawn(("decoy-white", "acid-touch"))
    assert _split(plain) == ({"acid-touch"}, {"decoy-white"})
    green_decoy = ss.brawn(("decoy-green", "ray-gun"))
    assert _split(green_decoy) == (set(), {"decoy-green", "ray-gun"})
    assert green_decoy.last_showdown.twist == "ray_gun_reversed"


def test_the_super_on_the_mayhem_chooses_the_speed_outcome(ss):
    """SU-33: Speed: the super who reached the Mayhem picks victorious and defeated cards."""
    state = ss.reveal(("solar-flare", "whisper-network"), ((1, 1), (3, 4)), to=(3, 3))
    assert state.phase is Phase.SPEED_CHOICE and ss.rules.pending(state) == Pending.decision(1)
    assert ss.rules.view(state, 0)["seats"][1]["played"]["status"] == "revealed"
    after = ss.choose(state, 1, ["whisper-network"], ["solar-flare"])
    assert _split(after) == ({"whisper-network"}, {"solar-flare"})
    assert after.last_showdown.chooser == 1 and after.phase is Phase.FIRST_ROLL


def test_a_speed_result_lists_the_cards_in_seat_order_as_the_others_do(ss):
    """SU-33: the record of a Speed choice keeps seat order, as a Brawn's or Wits's does."""
    state = ss.reveal(("wall-crawl", "jet-flight"), ((1, 1), (3, 4)), to=(3, 3))
    after = ss.choose(state, 1, ["jet-flight", "wall-crawl"], [])
    assert after.last_showdown.victorious == ("wall-crawl", "jet-flight")


def test_a_decoy_played_off_the_mayhem_takes_the_speed_choice(ss):
    """SU-34: the super who did not reach the Mayhem but played a Decoy! chooses instead."""
    state = ss.reveal(("decoy-white", "doom-cannon"), ((1, 1), (3, 4)), to=(3, 3))
    assert ss.rules.pending(state) == Pending.decision(0)
    after = ss.choose(state, 0, ["decoy-white"], ["doom-cannon"])
    assert _split(after) == ({"decoy-white"}, {"doom-cannon"})
    own_decoy = ss.reveal(("jet-flight", "decoy-green"), ((1, 1), (3, 4)), to=(3, 3))
    assert ss.rules.pending(own_decoy) == Pending.decision(1)  # a Decoy! on the Mayhem: no swap


def test_the_speed_chooser_is_free_but_same_colour_cards_share_a_fate(ss):
    """SU-35 (decision): any split of different colours; same colour all one way."""
    mixed = ss.reveal(("solar-flare", "whisper-network"), ((1, 1), (3, 4)), to=(3, 3))
    options = _options(ss, mixed, 1)
    assert len(options) == 4
    assert ({"solar-flare", "whisper-network"}, set()) in options
    assert (set(), {"solar-flare", "whisper-network"}) in options
    same = ss.reveal(("wall-crawl", "jet-flight"), ((1, 1), (3, 4)), to=(3, 3))
    assert _options(ss, same, 1) == [({"wall-crawl", "jet-flight"}, set()),
                                     (set(), {"wall-crawl", "jet-flight"})]


def test_wits_high_card_victorious_low_card_defeated(ss):
    """SU-36: in Wits the high card is victorious and the low card defeated."""
    after = ss.reveal(("sonic-hearing", "quake-stomp"), APART)
    assert _split(after) == ({"quake-stomp"}, {"sonic-hearing"})
    assert after.last_showdown.kind is ShowdownKind.WITS


def test_a_same_colour_sum_over_19_is_defeated_in_wits(ss):
    """SU-37: a same-colour sum over 19 is defeated in Wits."""
    after = ss.reveal(("lightning-reflexes", "jet-flight"), APART)  # 11 + 9 = 20
    assert _split(after) == (set(), {"lightning-reflexes", "jet-flight"})
    assert after.last_showdown.twist == "over_19"


def test_a_same_colour_sum_of_exactly_19_stays_victorious(ss):
    """SU-38: exactly 19 is not over the limit."""
    after = ss.reveal(("sonic-hearing", "solar-flare"), APART)  # 4 + 15 = 19
    assert _split(after) == ({"sonic-hearing", "solar-flare"}, set())
