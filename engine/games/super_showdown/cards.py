"""The Superpower cards: `data/cards.yaml`, loaded and validated once at import."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from engine.data import CardDataError
from engine.protocol import JSON

SET_SIZE = 18
HAND_SIZE = 9
MAX_NUMBER = 19
CARD_FIELDS = ("id", "name", "colour", "number", "power", "text")
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class Colour(StrEnum):
    """A card's colour: white is the Hero's, green the Villain's."""

    WHITE = "white"
    GREEN = "green"

    @property
    def other(self) -> Colour:
        """The nemesis' colour."""
        return Colour.GREEN if self is Colour.WHITE else Colour.WHITE


class Power(StrEnum):
    """The special powers the rulebook names."""

    NONE = "none"
    RAY_GUN = "ray_gun"
    DECOY = "decoy"


@dataclass(frozen=True)
class Card:
    """One Superpower card."""

    id: str
    name: str
    colour: Colour
    number: int
    power: Power
    text: str

    @property
    def label(self) -> str:
        """How narration names a revealed card, e.g. 'Ice Blast (green 9)'."""
        return f"{self.name} ({self.colour} {self.number})"

    def to_json(self) -> JSON:
        """The card as views show it."""
        return {
            "id": self.id,
            "name": self.name,
            "colour": str(self.colour),
            "number": self.number,
            "power": str(self.power),
            "text": self.text,
        }


@dataclass(frozen=True)
class CardSet:
    """The whole, validated set of 18 cards, in file order."""

    cards: tuple[Card, ...]
    by_id: Mapping[str, Card]

    def __getitem__(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.by_id

    @property
    def ids(self) -> tuple[str, ...]:
        """Every card id in file order."""
        return tuple(card.id for card in self.cards)


def _field(raw: Mapping[str, Any], name: str, source: str, card: str | None) -> Any:
    """A required field of one card entry."""
    if name not in raw:
        raise CardDataError(source, card, name, "is missing")
    return raw[name]


def _text(raw: Mapping[str, Any], name: str, source: str, card: str | None) -> str:
    """A required non-empty string field."""
    value = _field(raw, name, source, card)
    if not isinstance(value, str) or not value.strip():
        raise CardDataError(source, card, name, "must be a non-empty string")
    return value


def _enum(raw: Mapping[str, Any], name: str, kind: type[StrEnum], source: str,
          card: str) -> Any:
    """A required field whose value is one member of `kind`."""
    value = _field(raw, name, source, card)
    allowed = [str(member) for member in kind]
    if value not in allowed:
        raise CardDataError(source, card, name, f"must be one of {allowed}, not {value!r}")
    return kind(value)


def _parse_card(raw: Any, index: int, source: str) -> Card:
    """Validate one entry of the `cards` list."""
    if not isinstance(raw, Mapping):
        raise CardDataError(source, f"#{index + 1}", "cards", "each card must be a mapping")
    card_id = _text(raw, "id", source, f"#{index + 1}")
    if not _ID.match(card_id):
        raise CardDataError(source, card_id, "id", "must be lower-case words joined by '-'")
    unknown = sorted(set(raw) - set(CARD_FIELDS))
    if unknown:
        raise CardDataError(source, card_id, unknown[0], "is not a card field")
    number = _field(raw, "number", source, card_id)
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= MAX_NUMBER:
        raise CardDataError(source, card_id, "number", f"must be an integer 0-{MAX_NUMBER}")
    return Card(
        id=card_id,
        name=_text(raw, "name", source, card_id),
        colour=_enum(raw, "colour", Colour, source, card_id),
        number=number,
        power=_enum(raw, "power", Power, source, card_id) if "power" in raw else Power.NONE,
        text=_text(raw, "text", source, card_id),
    )


def _check_set(cards: list[Card], source: str) -> None:
    """The whole set: 18 unique cards, 9 of each colour (SU-05)."""
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise CardDataError(source, card.id, "id", "is used by two cards")
        seen.add(card.id)
    if len(cards) != SET_SIZE:
        raise CardDataError(source, None, "cards", f"needs {SET_SIZE} cards, not {len(cards)}")
    for colour in Colour:
        count = sum(card.colour is colour for card in cards)
        if count != HAND_SIZE:
            # Name the last card of the colour in excess, where the fault most likely is.
            excess = colour if count > HAND_SIZE else colour.other
            last = [card.id for card in cards if card.colour is excess][-1]
            raise CardDataError(
                source, last, "colour",
                f"the set needs {HAND_SIZE} {colour} cards, not {count}",
            )


def parse_cards(data: Any, source: str) -> CardSet:
    """Validate parsed YAML; raises CardDataError and builds nothing on any fault."""
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise CardDataError(source, None, "cards", "the file needs a top-level 'cards' list")
    cards = [_parse_card(raw, i, source) for i, raw in enumerate(data["cards"])]
    _check_set(cards, source)
    return CardSet(tuple(cards), MappingProxyType({card.id: card for card in cards}))


def load_cards(path: Path | None = None) -> CardSet:
    """Load a card file (by default the package's own `data/cards.yaml`)."""
    if path is None:
        source = "cards.yaml"
        text = resources.files(__package__ or __name__).joinpath("data", source).read_text("utf-8")
    else:
        source, text = path.name, path.read_text("utf-8")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise CardDataError(source, None, "(yaml)", f"is not valid YAML: {error}") from None
    return parse_cards(data, source)


CARDS: CardSet = load_cards()
