"""Superstars, decks, the ring and the options (SS-001, SS-009..SS-013, SS-020)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from ss_helpers import RULES

from engine.games.superstar_showdown.board import BOARD, BoardDataError, Kind, parse_board
from engine.games.superstar_showdown.cards import (
    ROSTER,
    CardDataError,
    load_roster,
    parse_roster,
)
from engine.protocol import IllegalAction, PendingKind

GOOD = (Path(__file__).resolve().parents[3] / "engine/games/superstar_showdown/data/superstars"
        / "abbot.yaml").read_text()


def test_six_superstars_with_thirty_card_decks() -> None:
    """SS-001: six Superstars, each a stat card and a 30-card deck of 1-3 icons a card."""
    assert len(ROSTER) == 6
    for star in ROSTER.values():
        assert len(star.deck) == 30 and star.name and star.stats
        assert all(1 <= len(card.icons) <= 3 for card in star.deck)
        assert {str(c.type) for c in star.deck} == {"slam", "grapple", "strike", "maneuver", "block"}


def test_decks_differ_in_character() -> None:
    styles = {star.style for star in ROSTER.values()}
    assert len(styles) == 6
    sky = Counter(str(c.type) for c in ROSTER["skylark"].deck)
    brawl = Counter(str(c.type) for c in ROSTER["cavallo"].deck)
    assert sky["maneuver"] > brawl["maneuver"] and brawl["strike"] > sky["strike"]


def test_a_schema_error_names_file_card_and_field() -> None:
    bad = GOOD.replace("type: slam, icons: [Attack 3, Stun]", "type: slam, icons: [Fly 3]")
    with pytest.raises(CardDataError) as error:
        parse_roster([("abbot.yaml", GOOD.replace("key: abbot", "key: other")),
                      ("broken.yaml", bad)])
    assert (error.value.source, error.value.card, error.value.field) == (
        "broken.yaml", "Bell Tower Drop", "icons")


@pytest.mark.parametrize(("old", "new", "field"), [
    ("type: slam, icons: [Attack 3, Stun]", "type: smash, icons: [Attack 3, Stun]", "type"),
    ("icons: [Attack 3, Stun]", "icons: [Attack 3, Stun, Throw, Kick Out]", "icons"),
    ("icons: [Attack 3, Stun]", "icons: [Attack 9]", "icons"),
    ("icons: [Attack 3, Stun]", "icons: [Stun, Stun]", "icons"),
    ("icons: [Attack 1, Reversal]}", "icons: [Attack 1, Reversal], count: 2}", "cards"),
])
def test_bad_files_are_refused_whole(old: str, new: str, field: str) -> None:
    assert old in GOOD
    with pytest.raises(CardDataError) as error:
        parse_roster([("abbot.yaml", GOOD.replace(old, new, 1))])
    assert error.value.field == field


def test_the_package_roster_loads_from_a_folder(tmp_path: Path) -> None:
    (tmp_path / "abbot.yaml").write_text(GOOD)
    assert list(load_roster(tmp_path)) == ["abbot"]
    (tmp_path / "twin.yaml").write_text(GOOD)
    with pytest.raises(CardDataError):
        load_roster(tmp_path)


def test_the_ring_has_every_kind_of_square() -> None:
    """SS-013 (decision): ring, Ropes, Turnbuckles, outside, stars and Tag Zones."""
    kinds = Counter(k for row in BOARD.kinds for k in row)
    assert kinds[Kind.TURNBUCKLE] == 4 and kinds[Kind.ROPES] == 20 and kinds[Kind.RING] == 25
    assert BOARD.in_ring((1, 1)) and BOARD.in_ring((1, 3)) and not BOARD.in_ring((0, 3))
    assert all(not BOARD.in_ring(sq) for zone in BOARD.tag_zones for sq in zone)
    assert BOARD.bounce[(1, 3)] == (1, 0) and BOARD.bounce[(4, 7)] == (0, -1)


def test_a_bad_ring_is_refused() -> None:
    with pytest.raises(BoardDataError):
        parse_board({"rows": ["R..", "..", "..B"]}, "ring.yaml")
    with pytest.raises(BoardDataError):
        parse_board({"rows": ["rb.", "X.."]}, "ring.yaml")


def test_setup_two_seats_on_their_stars_and_shuffles_as_chance() -> None:
    """SS-010/SS-011/SS-012: two players, the stars, the opening shuffles."""
    s = RULES.start({}, 2)
    assert [side.pos for side in s.sides] == list(BOARD.starts)
    assert RULES.pending(s).kind is PendingKind.CHANCE
    assert s.shuffles == [(0, "setup"), (1, "setup")]
    with pytest.raises(IllegalAction):
        RULES.start({}, 3)


def test_superstars_option_is_validated() -> None:
    s = RULES.start({"superstars": ["blaze", "blaze"]}, 2)
    assert s.superstars == ("blaze", "blaze")
    for bad in (["blaze"], ["blaze", "nobody"], "blaze", [1, 2]):
        with pytest.raises(IllegalAction) as error:
            RULES.start({"superstars": bad}, 2)
        assert error.value.code == "bad_option"
    with pytest.raises(IllegalAction):
        RULES.start({"round_limit": 0}, 2)
    with pytest.raises(IllegalAction):
        RULES.start({"colour": "red"}, 2)


def test_start_is_deterministic() -> None:
    assert RULES.start({}, 2) == RULES.start({}, 2)


def test_bonus_cards_are_not_part_of_a_core_match() -> None:
    """SS-009: only the 30 deck cards of each Superstar are in play."""
    s = RULES.start({}, 2)
    assert [len(side.deck) for side in s.sides] == [30, 30]


def test_the_board_carries_both_team_colours_and_tag_zones() -> None:
    """SS-002: one board, Red and Blue sides; Match, Stipulation and Bonus cards come
    with the advanced rules (a later issue), so a core match has none."""
    view = RULES.view(RULES.start({}, 2), None)
    assert [side["colour"] for side in view["sides"]] == ["red", "blue"]
    assert all(zone for zone in view["board"]["tag_zones"])


def test_a_copied_state_shares_its_card_designs_and_nothing_it_may_change() -> None:
    """A bot thinks on a deep copy of the state (matches/services.py): the designs, which
    never change, are shared rather than copied at every move; the rest is its own."""
    import copy
    import random

    from engine.protocol import Event

    state, event = RULES.start({}, 2), RULES.start({"event": "full_card"}, 2)
    while not event.catalog:  # drafted: the Event's cards are known
        pending = RULES.pending(event)
        event = RULES.apply(event, Event.chance(RULES.sample_chance(event, random.Random(1)))
                            if pending.kind is PendingKind.CHANCE else Event.decision(
                                pending.seats[0], RULES.legal_actions(event, pending.seats[0])[0]))
    own, own_event = copy.deepcopy(state), copy.deepcopy(event)
    assert own == state and own.decks[0][0] is state.decks[0][0]
    assert own_event == event and own_event.catalog and all(
        own_event.catalog[key] is card for key, card in event.catalog.items())
    assert own.sides is not state.sides and own.sides[0] is not state.sides[0]


def test_a_copied_file_whose_key_was_left_names_the_new_file_and_the_one_it_copies() -> None:
    """A newcomer copies abbot.yaml to aardvark.yaml and forgets the key: the error names
    their file, not only the shipped one it sorts before."""
    with pytest.raises(CardDataError) as error:
        parse_roster([("abbot.yaml", GOOD), ("aardvark.yaml", GOOD)])
    assert error.value.field == "key"
    assert "aardvark.yaml" in str(error.value) and "abbot.yaml" in str(error.value)
