"""The Contenders and the Challenge cards: `data/*.yaml`, loaded and validated once.

A schema fault raises `CardDataError` naming the file, the card and the field; both files
are validated before anything is published, so nothing is half-loaded.
"""

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

CONTENDER_COUNT = 150
CHALLENGE_COUNT = 50
MAX_ATTRIBUTE = 10
MAX_WEIGHT = 3
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
CONTENDER_FIELDS = ("id", "name", "kind", "text", "attributes")
SIDE_FIELDS = ("id", "text", "weights")


class Side(StrEnum):
    """The two faces of a Challenge card."""

    FRONT = "front"
    BACK = "back"


@dataclass(frozen=True)
class Contender:
    """One Contender card: a famous type or a public-domain character."""

    id: str
    name: str
    kind: str
    text: str
    attributes: Mapping[str, int]

    def to_json(self) -> JSON:
        """The card as views show it."""
        return {"id": self.id, "name": self.name, "kind": self.kind, "text": self.text,
                "attributes": dict(self.attributes)}


@dataclass(frozen=True)
class Challenge:
    """One side of a Challenge card: a question and the attributes it weighs."""

    id: str
    card: str
    side: Side
    text: str
    weights: Mapping[str, int]

    def fit(self, contender: Contender) -> int:
        """How well a Contender suits this Challenge: the weighted sum of its attributes."""
        return sum(w * contender.attributes[a] for a, w in self.weights.items())

    def to_json(self) -> JSON:
        return {"id": self.id, "card": self.card, "side": str(self.side), "text": self.text,
                "weights": dict(self.weights)}


@dataclass(frozen=True)
class ChallengeCard:
    """A double-sided Challenge card."""

    id: str
    front: Challenge
    back: Challenge

    def side(self, side: Side) -> Challenge:
        return self.front if side is Side.FRONT else self.back


@dataclass(frozen=True)
class CardSet:
    """Both validated decks."""

    attributes: tuple[str, ...]
    contenders: Mapping[str, Contender]
    challenges: Mapping[str, ChallengeCard]

    @property
    def contender_ids(self) -> tuple[str, ...]:
        return tuple(self.contenders)

    @property
    def challenge_ids(self) -> tuple[str, ...]:
        return tuple(self.challenges)

    def __iter__(self) -> Iterator[Contender]:
        return iter(self.contenders.values())


def _text(raw: Mapping[str, Any], name: str, source: str, card: str | None) -> str:
    """A required non-empty string field."""
    if name not in raw:
        raise CardDataError(source, card, name, "is missing")
    value = raw[name]
    if not isinstance(value, str) or not value.strip():
        raise CardDataError(source, card, name, "must be a non-empty string")
    return value


def _ident(raw: Any, index: int, source: str, fields: tuple[str, ...]) -> str:
    """The id of one entry, checked, with no unknown field."""
    if not isinstance(raw, Mapping):
        raise CardDataError(source, f"#{index + 1}", "(entry)", "each card must be a mapping")
    card_id = _text(raw, "id", source, f"#{index + 1}")
    if not _ID.match(card_id):
        raise CardDataError(source, card_id, "id", "must be lower-case words joined by '-'")
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise CardDataError(source, card_id, unknown[0], "is not a known field")
    return card_id


def _numbers(raw: Any, field: str, attributes: tuple[str, ...], top: int, source: str,
             card: str, complete: bool) -> dict[str, int]:
    """A mapping of attribute -> integer 0..top (1..top for weights)."""
    if not isinstance(raw, Mapping) or not raw:
        raise CardDataError(source, card, field, "must be a non-empty mapping")
    low = 0 if complete else 1
    for name, value in raw.items():
        if name not in attributes:
            raise CardDataError(source, card, f"{field}.{name}", f"is not one of {list(attributes)}")
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= top:
            raise CardDataError(source, card, f"{field}.{name}", f"must be an integer {low}-{top}")
    if complete:
        missing = [a for a in attributes if a not in raw]
        if missing:
            raise CardDataError(source, card, f"{field}.{missing[0]}", "is missing")
    return {a: raw[a] for a in attributes if a in raw}


def parse_contenders(data: Any, source: str) -> tuple[tuple[str, ...], dict[str, Contender]]:
    """Validate the Contender file."""
    if not isinstance(data, Mapping) or not isinstance(data.get("contenders"), list):
        raise CardDataError(source, None, "contenders", "the file needs a 'contenders' list")
    attrs = data.get("attributes")
    if not (isinstance(attrs, list) and attrs and all(isinstance(a, str) for a in attrs)
            and len(set(attrs)) == len(attrs)):
        raise CardDataError(source, None, "attributes", "must list distinct attribute names")
    attributes = tuple(attrs)
    out: dict[str, Contender] = {}
    for i, raw in enumerate(data["contenders"]):
        cid = _ident(raw, i, source, CONTENDER_FIELDS)
        if cid in out:
            raise CardDataError(source, cid, "id", "is used by two cards")
        out[cid] = Contender(cid, _text(raw, "name", source, cid), _text(raw, "kind", source, cid),
                             _text(raw, "text", source, cid),
                             MappingProxyType(_numbers(raw.get("attributes"), "attributes",
                                                       attributes, MAX_ATTRIBUTE, source, cid,
                                                       True)))
    if len(out) != CONTENDER_COUNT:
        raise CardDataError(source, None, "contenders",
                            f"needs {CONTENDER_COUNT} cards, not {len(out)}")
    return attributes, out


def _side(raw: Any, card: str, side: Side, attributes: tuple[str, ...],
          source: str) -> Challenge:
    """One face of a Challenge card."""
    if not isinstance(raw, Mapping):
        raise CardDataError(source, card, str(side), "must be a mapping")
    unknown = sorted(set(raw) - set(SIDE_FIELDS))
    if unknown:
        raise CardDataError(source, card, f"{side}.{unknown[0]}", "is not a known field")
    sid = _text(raw, "id", source, card)
    if not _ID.match(sid):
        raise CardDataError(source, card, f"{side}.id", "must be lower-case words joined by '-'")
    weights = _numbers(raw.get("weights"), f"{side}.weights", attributes, MAX_WEIGHT, source,
                       card, False)
    return Challenge(sid, card, side, _text(raw, "text", source, card),
                     MappingProxyType(weights))


def parse_challenges(data: Any, source: str,
                     attributes: tuple[str, ...]) -> dict[str, ChallengeCard]:
    """Validate the Challenge file."""
    if not isinstance(data, Mapping) or not isinstance(data.get("challenges"), list):
        raise CardDataError(source, None, "challenges", "the file needs a 'challenges' list")
    out: dict[str, ChallengeCard] = {}
    sides: set[str] = set()
    for i, raw in enumerate(data["challenges"]):
        cid = _ident(raw, i, source, ("id", "front", "back"))
        if cid in out:
            raise CardDataError(source, cid, "id", "is used by two cards")
        front = _side(raw.get("front"), cid, Side.FRONT, attributes, source)
        back = _side(raw.get("back"), cid, Side.BACK, attributes, source)
        for face in (front, back):
            if face.id in sides:
                raise CardDataError(source, cid, f"{face.side}.id", "is used by two sides")
            sides.add(face.id)
        out[cid] = ChallengeCard(cid, front, back)
    if len(out) != CHALLENGE_COUNT:
        raise CardDataError(source, None, "challenges",
                            f"needs {CHALLENGE_COUNT} cards, not {len(out)}")
    return out


def _read(path: Path | None, name: str) -> tuple[str, Any]:
    """The file's name and its parsed YAML."""
    if path is None:
        text = resources.files(__package__ or __name__).joinpath("data", name).read_text("utf-8")
        source = name
    else:
        source, text = path.name, path.read_text("utf-8")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser when installed
    try:
        return source, yaml.load(text, Loader=loader)
    except yaml.YAMLError as error:
        raise CardDataError(source, None, "(yaml)", f"is not valid YAML: {error}") from None


def load_cards(contenders: Path | None = None, challenges: Path | None = None) -> CardSet:
    """Load both files (by default the package's own); raises CardDataError on any fault."""
    source, data = _read(contenders, "contenders.yaml")
    attributes, people = parse_contenders(data, source)
    source, data = _read(challenges, "challenges.yaml")
    cards = parse_challenges(data, source, attributes)
    return CardSet(attributes, MappingProxyType(people), MappingProxyType(cards))


CARDS: CardSet = load_cards()
