"""Superstars and their 30-card decks: `data/superstars/*.yaml`, loaded once at import.

A schema fault raises `CardDataError` naming the file, the card and the field, and
nothing is half-loaded: every file is validated before any Superstar is published.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from engine.data import CardDataError
from engine.protocol import JSON

DECK_SIZE = 30
MAX_ICONS = 3
MOVE_RANGE = (1, 3)
ATTACK_RANGE = (1, 5)
SUPERSTAR_FIELDS = ("key", "name", "style", "tagline", "stats", "cards")
CARD_FIELDS = ("name", "type", "icons", "count")
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


class CardType(StrEnum):
    """The five card types (SS-020)."""

    SLAM = "slam"
    GRAPPLE = "grapple"
    STRIKE = "strike"
    MANEUVER = "maneuver"
    BLOCK = "block"


# 'Grapple beats Strike. Strike beats Maneuver. Maneuver beats Grapple.' (SS-021)
_BEATS = {
    CardType.GRAPPLE: CardType.STRIKE,
    CardType.STRIKE: CardType.MANEUVER,
    CardType.MANEUVER: CardType.GRAPPLE,
}


class Outcome(StrEnum):
    """How two revealed cards compare."""

    FIRST = "first"
    SECOND = "second"
    TIE = "tie"
    NEITHER = "neither"  # Block against Block: both lose (SS-025)


def compare(first: CardType, second: CardType) -> Outcome:
    """SS-021..SS-025: Slams always win, Blocks always lose, same types tie."""
    if first is CardType.BLOCK and second is CardType.BLOCK:
        return Outcome.NEITHER
    if first is second:
        return Outcome.TIE
    if first is CardType.BLOCK or second is CardType.SLAM:
        return Outcome.SECOND
    if second is CardType.BLOCK or first is CardType.SLAM:
        return Outcome.FIRST
    return Outcome.FIRST if _BEATS[first] is second else Outcome.SECOND


def beats(card: CardType, other: CardType) -> bool:
    """Whether `card` wins outright against `other` (no tie)."""
    return compare(card, other) is Outcome.FIRST


class Act(StrEnum):
    """The Action icons."""

    MOVE = "move"
    ATTACK = "attack"
    MOMENTUM_ATTACK = "momentum_attack"
    CORNER_ATTACK = "corner_attack"
    THROW = "throw"
    MOVEMENT_SETUP = "movement_setup"
    POWER_SETUP = "power_setup"
    STUN = "stun"
    REVERSAL = "reversal"
    KICK_OUT = "kick_out"


_LABELS: Mapping[Act, str] = {
    Act.MOVE: "Move", Act.ATTACK: "Attack", Act.MOMENTUM_ATTACK: "Momentum Attack",
    Act.CORNER_ATTACK: "Corner Attack", Act.THROW: "Throw",
    Act.MOVEMENT_SETUP: "Movement Setup", Act.POWER_SETUP: "Power Setup", Act.STUN: "Stun",
    Act.REVERSAL: "Reversal", Act.KICK_OUT: "Kick Out",
}
_BY_LABEL = {label.lower(): act for act, label in _LABELS.items()}
_VALUED = {Act.MOVE: MOVE_RANGE, Act.ATTACK: ATTACK_RANGE}
ATTACKS = (Act.ATTACK, Act.MOMENTUM_ATTACK, Act.CORNER_ATTACK)


@dataclass(frozen=True)
class Icon:
    """One Action icon; Move and Attack carry a number."""

    act: Act
    value: int = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Icon:
        """Itself: a design never changes, so a copied state may share it."""
        return self

    @property
    def label(self) -> str:
        """'Move 2', 'Stun'."""
        base = _LABELS[self.act]
        return f"{base} {self.value}" if self.act in _VALUED else base

    def to_json(self) -> JSON:
        return {"action": str(self.act), "value": self.value, "label": self.label}


@dataclass(frozen=True)
class Card:
    """One card design of a deck (a deck holds several copies of some designs)."""

    name: str
    type: CardType
    icons: tuple[Icon, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        """Itself: a design never changes (a bot's copy of a state, matches/services.py,
        copied every design of an Event's catalog, its views' cache too, at each move)."""
        return self

    def has(self, act: Act) -> bool:
        """Whether the card shows this icon."""
        return any(icon.act is act for icon in self.icons)

    def value(self, act: Act) -> int:
        """The number on a Move or Attack icon, 0 if absent."""
        return next((icon.value for icon in self.icons if icon.act is act), 0)

    @property
    def label(self) -> str:
        """How narration names a revealed card: 'Grapple "Millstone Press"'."""
        return f'{self.type.title()} "{self.name}"'

    @functools.cached_property
    def _icons_json(self) -> tuple[JSON, ...]:
        return tuple(icon.to_json() for icon in self.icons)

    def to_json(self, card_id: str | None) -> JSON:
        """The card as views show it."""
        return {
            "id": card_id,
            "name": self.name,
            "type": str(self.type),
            "icons": [dict(icon) for icon in self._icons_json],
        }


@dataclass(frozen=True)
class Superstar:
    """A Superstar: stat card and its 30-card deck in file order."""

    key: str
    name: str
    style: str
    tagline: str
    stats: Mapping[str, int]
    deck: tuple[Card, ...]

    def to_json(self) -> JSON:
        """The stat card as views show it."""
        return {"key": self.key, "name": self.name, "style": self.style,
                "tagline": self.tagline, "stats": dict(self.stats)}


def parse_icon(text: Any, source: str, card: str) -> Icon:
    """'Move 2', 'Attack 3', 'Momentum Attack', ... (case-insensitive)."""
    if not isinstance(text, str):
        raise CardDataError(source, card, "icons", f"an icon must be a string, not {text!r}")
    words = text.strip().lower().split()
    number: int | None = None
    if words and words[-1].isdigit():
        number = int(words.pop())
    act = _BY_LABEL.get(" ".join(words))
    if act is None:
        raise CardDataError(source, card, "icons", f"unknown icon {text!r}")
    if act in _VALUED:
        low, high = _VALUED[act]
        if number is None or not low <= number <= high:
            raise CardDataError(source, card, "icons",
                                f"{_LABELS[act]} needs a number {low}-{high} in {text!r}")
        return Icon(act, number)
    if number is not None:
        raise CardDataError(source, card, "icons", f"{_LABELS[act]} takes no number: {text!r}")
    return Icon(act)


def _parse_card(raw: Any, index: int, source: str) -> tuple[Card, int]:
    """One entry of `cards`: the design and how many copies."""
    label = f"#{index + 1}"
    if not isinstance(raw, Mapping):
        raise CardDataError(source, label, "cards", "each card must be a mapping")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CardDataError(source, label, "name", "must be a non-empty string")
    unknown = sorted(set(raw) - set(CARD_FIELDS))
    if unknown:
        raise CardDataError(source, name, unknown[0], "is not a card field")
    allowed = [str(t) for t in CardType]
    if raw.get("type") not in allowed:
        raise CardDataError(source, name, "type", f"must be one of {allowed}")
    icons_raw = raw.get("icons")
    if not isinstance(icons_raw, list) or not 1 <= len(icons_raw) <= MAX_ICONS:
        raise CardDataError(source, name, "icons", f"needs a list of 1-{MAX_ICONS} icons")
    icons = tuple(parse_icon(text, source, name) for text in icons_raw)
    if len({icon.act for icon in icons}) != len(icons):
        raise CardDataError(source, name, "icons", "an action may appear only once per card")
    count = raw.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise CardDataError(source, name, "count", "must be a positive integer")
    return Card(name.strip(), CardType(raw["type"]), icons), count


def parse_superstar_card(raw: Any, index: int, source: str) -> Card:
    """One card design (a Bonus card's body): name, type and icons."""
    return _parse_card(raw, index, source)[0]


def _text(data: Mapping[str, Any], name: str, source: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip():
        raise CardDataError(source, None, name, "must be a non-empty string")
    return value.strip()


def parse_superstar(data: Any, source: str) -> Superstar:
    """Validate one parsed Superstar file; raises CardDataError, builds nothing on a fault."""
    if not isinstance(data, Mapping):
        raise CardDataError(source, None, "(top)", "the file must be a mapping")
    unknown = sorted(set(data) - set(SUPERSTAR_FIELDS))
    if unknown:
        raise CardDataError(source, None, unknown[0], "is not a Superstar field")
    key = _text(data, "key", source)
    if not _KEY.match(key):
        raise CardDataError(source, None, "key", "must be lower-case letters, digits and '_'")
    stats = data.get("stats", {})
    if not isinstance(stats, Mapping) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in stats.items()
    ):
        raise CardDataError(source, None, "stats", "must map names to integers")
    cards_raw = data.get("cards")
    if not isinstance(cards_raw, list):
        raise CardDataError(source, None, "cards", "the file needs a 'cards' list")
    deck: list[Card] = []
    seen: set[str] = set()
    for index, raw in enumerate(cards_raw):
        card, count = _parse_card(raw, index, source)
        if card.name in seen:
            raise CardDataError(source, card.name, "name", "is used by two entries")
        seen.add(card.name)
        deck.extend([card] * count)
    if len(deck) != DECK_SIZE:
        raise CardDataError(source, None, "cards",
                            f"the deck needs {DECK_SIZE} cards counting copies, not {len(deck)}")
    return Superstar(key, _text(data, "name", source), _text(data, "style", source),
                     _text(data, "tagline", source), MappingProxyType(dict(stats)), tuple(deck))


def _read(source: str, text: str) -> Superstar:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise CardDataError(source, None, "(yaml)", f"is not valid YAML: {error}") from None
    return parse_superstar(data, source)


def parse_roster(files: Iterable[tuple[str, str]]) -> Mapping[str, Superstar]:
    """Validate every (name, text) file, then publish them all at once, by key."""
    roster: dict[str, Superstar] = {}
    sources: dict[str, str] = {}
    for source, text in sorted(files):
        star = _read(source, text)
        if star.key in roster:
            raise CardDataError(source, None, "key", f"{star.key!r} is {sources[star.key]}'s "
                                                     "key too: each file needs its own")
        roster[star.key], sources[star.key] = star, source
    if not roster:
        raise CardDataError("superstars/", None, "(files)", "no Superstar files found")
    return MappingProxyType(roster)


def load_roster(folder: Path | None = None) -> Mapping[str, Superstar]:
    """Load every `*.yaml` of a folder (by default the package's `data/superstars`)."""
    base: Traversable | Path = folder if folder is not None else resources.files(
        __package__ or __name__).joinpath("data").joinpath("superstars")
    files = [(f.name, f.read_text("utf-8")) for f in base.iterdir() if f.name.endswith(".yaml")]
    return parse_roster(files)


ROSTER: Mapping[str, Superstar] = load_roster()
