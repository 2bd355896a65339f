"""Our content is ours: no card-set name is a real wrestler's, a wrestling brand or a
trademarked character, nor one letter away from one.

The names kept off are the rulebooks' wrestlers and brands and the names our card sets
once came too close to. They are written here as digests (the first 16 hex digits of the
SHA-256 of the lower-cased name), so that the list does not itself put them in the code."""

from __future__ import annotations

import hashlib
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.games.superstar_showdown.event import PRESETS

GAMES = Path(__file__).resolve().parents[2] / "engine" / "games"
OFF_LIMITS = frozenset({
    "04695fa805d662a7", "059abff2d8aa4637", "08234c948b5a00f9", "092cda390b474161",
    "0b132ea2f6cd37dd", "19e05df6b2e5fb94", "2d5faea35628e5bf", "3d53a21993f06bc6",
    "5025f26c122f36c3", "57681080b70a21b0", "6b06565be7639e70", "710e0dd90b8e5c44",
    "715e000168df5396", "9191c40311b36a8b", "a2b507ecb20f46cf", "a6b78c3080f65879",
    "b01eb7800731fed4", "b2a2af3b9e825920", "b78553407f1430fe", "b94cdf160b21ba75",
    "bd01b0b648c2c64e", "c3f2c80e9cd96953", "c4f1bac5603fb072", "cb1d4fc52f7d9395",
    "cfd90af8403941bf", "d91832f5814e1ee2", "dc5054edd3681ce5", "df4e7ec923923251",
    "fb00984bd4d2566d",
})
# Ultimate Showdown's Contenders are animals, trades and public-domain figures ("A Raven").
CARD_SETS = ["superstar_showdown", "supershow", "royal_rumble", "super_showdown"]
LETTERS = string.ascii_lowercase + " -'é"
LONGEST_KEPT_OFF = 4  # words in the longest name kept off


def digest(name: str) -> str:
    return hashlib.sha256(name.lower().encode()).hexdigest()[:16]


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


def one_letter_away(word: str) -> Iterator[str]:
    """The word itself and every word one letter changed, added or dropped."""
    yield word
    for i in range(len(word) + 1):
        if i < len(word):
            yield word[:i] + word[i + 1:]
        for letter in LETTERS:
            yield word[:i] + letter + word[i:]
            if i < len(word):
                yield word[:i] + letter + word[i + 1:]


def clash(name: str, off_limits: frozenset[str] = OFF_LIMITS) -> str | None:
    """What of `name` is, or is one letter from, a name kept off (given as digests): the
    whole name, or any run of its words."""
    lowered = name.lower()
    for near in one_letter_away(lowered):
        if digest(near) in off_limits:
            return lowered
    words = lowered.replace('"', " ").split()
    for width in range(1, LONGEST_KEPT_OFF + 1):
        for i in range(len(words) - width + 1):
            run = " ".join(words[i:i + width])
            if digest(run) in off_limits:
                return run
    return None


def test_the_card_sets_have_names_to_check() -> None:
    assert len(display_names()) > 400


@pytest.mark.parametrize("name", display_names())
def test_no_name_is_a_real_wrestler_a_brand_or_a_trademarked_character(name: str) -> None:
    assert clash(name) is None, f"{name!r} is, or nearly is, a name kept off"


def test_the_check_catches_a_name_one_letter_away_and_a_name_inside_another() -> None:
    kept_off = frozenset({digest("Granite Gus"), digest("Comet")})
    assert clash("Granite Gas", kept_off) == "granite gas"
    assert clash("Granite Guss", kept_off) == "granite guss"
    assert clash("Comet Sinclair", kept_off) == "comet"
    assert clash("Kite String Cutter", kept_off) is None
    assert clash("Cometary Dive", kept_off) is None
