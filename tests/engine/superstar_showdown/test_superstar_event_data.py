"""Our Match cards, Stipulations and Bonus cards as data (SS-120, SS-124, SS-140)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.data import CardDataError
from engine.games.superstar_showdown.cards import CardType
from engine.games.superstar_showdown.event import (
    BONUS_CARDS,
    MATCH_CARDS,
    MAX_MATCHES,
    PRESETS,
    STIPULATIONS,
    check_presets,
    load_bonus_cards,
    load_match_cards,
    load_stipulations,
)


def test_four_match_cards_with_sizes():
    """SS-120/SS-121/SS-123/SS-143/SS-152: our Match cards (SS-123's decision): Head-to-Head
    one a side, Tag Team two, 6-Man three, Gauntlet two in turn; each with Ranking Points
    for a win, a draw and a loss."""
    sizes = {k: (c.per_side, str(c.kind)) for k, c in MATCH_CARDS.items()}
    assert sizes == {"head_to_head": (1, "single"), "tag_team": (2, "tag"),
                     "six_man_tag": (3, "tag"), "gauntlet": (2, "gauntlet")}
    assert all(c.win > c.draw > c.loss >= 0 for c in MATCH_CARDS.values())


def test_thirty_bonus_cards():
    """SS-140/SS-141: 30 Bonus cards, prices such as 15 and 25; the 25s add Slams."""
    assert len(BONUS_CARDS) == 30
    prices = {c.price for c in BONUS_CARDS.values()}
    assert {15, 25} <= prices
    top = [c for c in BONUS_CARDS.values() if c.price == max(prices)]
    assert top and all(c.card.type is CardType.SLAM for c in top)
    assert all(c.card.type is not CardType.SLAM for c in BONUS_CARDS.values() if c.price < 25)


@pytest.mark.parametrize(("loader", "raw", "field"), [
    (load_match_cards, [{"key": "x", "title": "X", "text": "t", "per_side": 2, "kind": "single",
                         "win": 1, "loss": 0, "draw": 0}], "per_side"),
    (load_match_cards, [{"key": "x", "title": "X", "text": "t", "per_side": 1, "kind": "cage",
                         "win": 1, "loss": 0, "draw": 0}], "kind"),
    (load_match_cards, [{"key": "x", "title": "X", "text": "t", "per_side": 1, "kind": "single",
                         "win": "many", "loss": 0, "draw": 0}], "win"),
    (load_match_cards, [{"key": "x", "title": "X", "text": "t", "per_side": 2,
                         "kind": "gauntlet", "win": 1, "loss": 0, "draw": 0,
                         "per_defeat": "lots"}], "per_defeat"),
    (load_match_cards, [{"key": "x", "title": "X", "text": "t", "per_side": 2,
                         "kind": "gauntlet", "win": 1, "loss": 0, "draw": 0,
                         "per_defeat": 2.5}], "per_defeat"),
    (load_match_cards, [{"key": "x", "title": "X", "text": "t", "per_side": 2,
                         "kind": "gauntlet", "win": 1, "loss": 0, "draw": 0,
                         "per_defeet": 5}], "per_defeet"),
    (load_match_cards, [{"key": "x", "title": "X", "text": "t", "per_side": 1, "kind": "single",
                         "win": 1, "loss": -5, "draw": 0}], "loss"),
    (load_stipulations, [{"key": "x", "title": "X", "text": "t", "effect": "none",
                          "effekt": "no_pins"}], "effekt"),
    (load_stipulations, [{"key": "x", "title": "X", "text": "t", "effect": "short_time",
                          "rounds": True}], "rounds"),
    (load_stipulations, [{"key": "x", "title": "X", "text": "t", "effect": "lava"}], "effect"),
    (load_stipulations, [{"key": "x", "title": "X", "text": "t", "effect": "short_time"}],
     "rounds"),
    (load_bonus_cards, [{"key": "g1", "price": 0, "name": "N", "type": "slam",
                         "icons": ["Attack 3"]}], "price"),
    (load_bonus_cards, [{"key": "g1", "price": 5, "name": "N", "type": "slam",
                         "icons": ["Attack 9"]}], "icons"),
    (load_bonus_cards, [{"key": "g1", "price": 5, "name": "N", "type": "slam",
                         "icons": ["Attack 3"], "count": 2}], "count"),
    (load_bonus_cards, [{"key": "g1", "price": 5, "name": "N", "type": "slam",
                         "icons": ["Attack 3"]}] * 2, "key"),
])
def test_schema_faults_name_the_field(loader, raw, field):
    """A bad data file is refused naming the file, the card and the field: a wrong type,
    a misspelt field (which left a Gauntlet's points per defeat at 0) or negative points
    included."""
    with pytest.raises(CardDataError) as error:
        loader(raw)
    assert error.value.field == field


@pytest.mark.parametrize(("gone", "source"), [
    ("endurance", "stipulations.yaml"),  # Ultimate Endurance's Stipulation (SS-162)
    ("tag_team", "match_cards.yaml"),  # the Tag Team Series' Match card (SS-161)
])
def test_a_card_set_without_a_card_a_preset_plays_is_refused_naming_it(gone, source):
    """A Stipulation or Match card renamed or taken out that a preset names stops the load,
    naming the file and key, rather than loading and refusing the organizer's Event."""
    match_cards = {k: c for k, c in MATCH_CARDS.items() if k != gone}
    stipulations = {k: s for k, s in STIPULATIONS.items() if k != gone}
    with pytest.raises(CardDataError) as error:
        check_presets(PRESETS, match_cards, stipulations)
    assert error.value.source == source and error.value.card == gone
    check_presets(PRESETS, MATCH_CARDS, STIPULATIONS)  # the shipped set plays every preset


def test_a_full_card_with_more_match_cards_than_an_event_holds_is_refused():
    """The Full Card plays each Match card once: a set with more of them than an Event has
    Matches (SS-127) could not start one."""
    full = replace(PRESETS["full_card"], matches=((None, None),) * (MAX_MATCHES + 1))
    with pytest.raises(CardDataError) as error:
        check_presets({"full_card": full}, MATCH_CARDS, STIPULATIONS)
    assert error.value.source == "match_cards.yaml" and "Full Card" in error.value.problem
