"""Content as data: RR-01, RR-30, RR-60 (our own cards, validated at load)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games.royal_rumble.cards import (
    ACTIONS,
    ROSTER,
    CardDataError,
    Effect,
    Kind,
    Special,
    parse_actions,
    parse_legends,
)


def test_there_are_thirty_legends_each_with_its_own_signature() -> None:
    """RR-01: 30 Legend placards and 30 matching Signature cards."""
    assert len(ROSTER) == 30
    assert len({legend.signature.name for legend in ROSTER.values()}) == 30
    assert all(legend.signature.kind is Kind.SIGNATURE for legend in ROSTER.values())
    assert all(8 <= legend.health <= 14 for legend in ROSTER.values())


def test_there_are_150_action_cards_of_every_kind() -> None:
    """RR-01/RR-30/RR-60: Kicks, Strikes, Moves, Boosts, Defense, Special and Ref cards."""
    assert len(ACTIONS) == 150
    kinds = Counter(c.kind for c in ACTIONS)
    assert set(kinds) == {Kind.ATTACK, Kind.BOOST, Kind.DEFENSE, Kind.SPECIAL, Kind.REF}
    types = {c.type for c in ACTIONS if c.kind is Kind.ATTACK}
    assert {str(t) for t in types} == {"kick", "strike", "move"}
    assert all(c.damage > 0 and c.speed > 0 for c in ACTIONS if c.kind is Kind.ATTACK)
    assert all(c.damage > 0 for c in ACTIONS if c.kind is Kind.BOOST)  # RR-38
    specials = {c.special for c in ACTIONS if c.kind is Kind.SPECIAL}
    assert Special.HOLDING_ON in specials
    effects = {e for c in ACTIONS for e in c.effects}
    assert effects == set(Effect)
    assert any(c.kind is Kind.BOOST and c.has(Effect.CHEAP_TRICK) for c in ACTIONS)
    assert any(c.kind is Kind.BOOST and c.has(Effect.UNBLOCKABLE) for c in ACTIONS)
    assert any(c.kind is Kind.BOOST and c.has(Effect.OVER_THE_TOP) for c in ACTIONS)


GOOD = {"cards": [{"kind": "ref", "name": "Whistle", "count": 150}]}


def test_a_valid_minimal_file_loads() -> None:
    assert len(parse_actions(GOOD)) == 150


@pytest.mark.parametrize(("data", "card", "field"), [
    ({"cards": [{"kind": "attack", "name": "X", "type": "slap", "damage": 1, "speed": 1}]},
     "X", "type"),
    ({"cards": [{"kind": "attack", "name": "X", "type": "kick", "damage": 1, "speed": 1,
                 "effects": ["teleport"]}]}, "X", "effects"),
    ({"cards": [{"kind": "boost", "name": "B", "damage": 1, "effects": ["attack_again"]}]},
     "B", "effects"),
    # RR-38: a Boost increases the Attack's damage
    ({"cards": [{"kind": "boost", "name": "B", "damage": 0, "effects": ["unblockable"]}]},
     "B", "damage"),
    ({"cards": [{"kind": "defense", "name": "D", "cancels": ["slap"]}]}, "D", "cancels"),
    ({"cards": [{"kind": "special", "name": "S", "effect": "fly"}]}, "S", "effect"),
    ({"cards": [{"kind": "ref", "name": "R", "colour": "red"}]}, "R", "colour"),
    ({"cards": [{"kind": "gadget", "name": "G"}]}, "G", "kind"),
    ({"cards": [{"kind": "ref", "name": "R", "count": 3}]}, None, "cards"),
])
def test_a_bad_card_names_the_file_card_and_field(data: object, card: str | None,
                                                  field: str) -> None:
    """RR-60: errors name file, card and field."""
    with pytest.raises(CardDataError) as error:
        parse_actions(data, "mine.yaml")
    assert error.value.source == "mine.yaml"
    assert error.value.card == card and error.value.field == field
    assert "mine.yaml" in str(error.value)


def test_a_bad_legend_names_the_legend_and_field() -> None:
    data = {"legends": [{"key": "x", "name": "X", "health": 99,
                         "signature": {"name": "S", "type": "kick", "damage": 1, "speed": 1}}]}
    with pytest.raises(CardDataError) as error:
        parse_legends(data, "legends.yaml")
    assert (error.value.card, error.value.field) == ("x", "health")


def test_a_legend_without_a_signature_names_the_signature_field() -> None:
    """A Legend whose `signature` is left out is refused naming that field, not '(card)'."""
    data = {"legends": [{"key": "x", "name": "X", "health": 12}]}
    with pytest.raises(CardDataError) as error:
        parse_legends(data, "legends.yaml")
    assert (error.value.card, error.value.field) == ("x", "signature")


def test_recoil_without_its_amount_says_it_needs_one() -> None:
    """`recoil` is the vocabulary's one effect with a number: written bare, the error says
    how to write it rather than calling a listed effect unknown."""
    data = {"cards": [{"kind": "attack", "name": "X", "type": "kick", "damage": 1, "speed": 1,
                       "effects": ["recoil"], "count": 150}]}
    with pytest.raises(CardDataError) as error:
        parse_actions(data, "actions.yaml")
    assert error.value.field == "effects" and "{recoil: N}" in error.value.problem
