"""Our content is ours: no card-set name is a real wrestler's, a wrestling brand or a
trademarked character, nor one letter away from one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.games.superstar_showdown.event import PRESETS

GAMES = Path(__file__).resolve().parents[2] / "engine" / "games"
# The rulebooks' wrestlers and brands, and names our card sets once came too close to.
OFF_LIMITS = [
    "WWE", "Smackdown", "John Cena", "Randy Orton", "The Viper", "Andre the Giant",
    "Randy Savage", "Macho Man", "Jake the Snake", "Million Dollar Man", "Batista",
    "Sting", "El Super Hombre", "Snake Pitt", "Tiki Twins", "The Masked Llama",
    "The Rock", "Sable", "Raven", "Magnus", "Nova", "Ironhide",
]
# Ultimate Showdown's Contenders are animals, trades and public-domain figures ("A Raven").
CARD_SETS = ["superstar_showdown", "supershow", "royal_rumble", "super_showdown"]


def names(node: Any) -> Iterator[str]:
    """Every `name` and `title` string in a loaded YAML document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("name", "title") and isinstance(value, str):
                yield value
            yield from names(value)
    elif isinstance(node, list):
        for value in node:
            yield from names(value)


def display_names() -> list[str]:
    found = [preset.title for preset in PRESETS.values()]
    for game in CARD_SETS:
        for path in sorted((GAMES / game / "data").rglob("*.yaml")):
            found.extend(names(yaml.safe_load(path.read_text())))
    return found


def one_letter_apart(a: str, b: str) -> bool:
    """Equal, or one letter changed, added or dropped."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def clash(name: str) -> str | None:
    """The off-limits name this display name contains or nearly is, if any."""
    lowered = name.lower()
    words = lowered.replace('"', " ").split()
    for other in OFF_LIMITS:
        taken = other.lower()
        if one_letter_apart(lowered, taken):
            return other
        width = len(taken.split())
        if any(" ".join(words[i:i + width]) == taken for i in range(len(words))):
            return other
    return None


def test_the_card_sets_have_names_to_check() -> None:
    assert len(display_names()) > 400


@pytest.mark.parametrize("name", display_names())
def test_no_name_is_a_real_wrestler_a_brand_or_a_trademarked_character(name: str) -> None:
    assert clash(name) is None, f"{name!r} is, or nearly is, {clash(name)!r}"


def test_the_check_catches_a_name_one_letter_away_and_a_name_inside_another() -> None:
    assert clash("The Rook") == "The Rock" and clash("Sable Sinclair") == "Sable"
    assert clash("Kite String Cutter") is None and clash("Supernova") is None
