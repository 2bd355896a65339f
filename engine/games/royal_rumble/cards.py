"""Legends and Action cards: `data/legends.yaml` and `data/actions.yaml`, loaded once.

A schema fault raises `CardDataError` naming the file, the card and the field; nothing is
half-loaded. Effects come from a small vocabulary (`Effect`), checked per card kind.
Action card ids are `a001`..`a150` (file order, copies in a row); a Signature's id is
`sig_<legend key>`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from types import MappingProxyType
from typing import Any

import yaml

from engine.data import CardDataError
from engine.protocol import JSON

ACTION_CARDS = 150
LEGENDS = 30
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


class Kind(StrEnum):
    """Card kinds (RR-01)."""

    ATTACK = "attack"
    BOOST = "boost"
    DEFENSE = "defense"
    SPECIAL = "special"
    REF = "ref"
    SIGNATURE = "signature"


class AttackType(StrEnum):
    """RR-30: KICK, STRIKE or MOVE."""

    KICK = "kick"
    STRIKE = "strike"
    MOVE = "move"


class Effect(StrEnum):
    """The declarative effect vocabulary."""

    ATTACK_AGAIN = "attack_again"  # on a hit: attack again with an Attack from hand
    SIGNATURE = "signature"  # on a hit: you may play your Signature
    CHEAP_TRICK = "cheap_trick"  # a Ref card (anyone's) cancels it
    UNBLOCKABLE = "unblockable"  # no Defense card may cancel it
    OVER_THE_TOP = "over_the_top"  # on a hit the target is thrown over the top rope
    RECOIL = "recoil"  # on a hit the attacker's own Legend takes N damage


class Special(StrEnum):
    HOLDING_ON = "holding_on"  # RR-47
    RUN_IN = "run_in"  # intervene: cancel an attack aimed at someone else


ALLOWED_EFFECTS: Mapping[Kind, frozenset[Effect]] = {
    Kind.ATTACK: frozenset(Effect),
    Kind.BOOST: frozenset({Effect.CHEAP_TRICK, Effect.UNBLOCKABLE, Effect.OVER_THE_TOP}),
    Kind.SIGNATURE: frozenset({Effect.CHEAP_TRICK, Effect.UNBLOCKABLE, Effect.OVER_THE_TOP,
                               Effect.RECOIL}),
}
FIELDS: Mapping[Kind, frozenset[str]] = {
    Kind.ATTACK: frozenset({"kind", "name", "type", "damage", "speed", "effects", "count"}),
    Kind.BOOST: frozenset({"kind", "name", "damage", "speed", "effects", "count"}),
    Kind.DEFENSE: frozenset({"kind", "name", "cancels", "count"}),
    Kind.SPECIAL: frozenset({"kind", "name", "effect", "count"}),
    Kind.REF: frozenset({"kind", "name", "count"}),
    Kind.SIGNATURE: frozenset({"name", "type", "damage", "speed", "effects"}),
}


@dataclass(frozen=True)
class Card:
    """One card design."""

    name: str
    kind: Kind
    type: AttackType | None = None
    damage: int = 0
    speed: int = 0
    effects: frozenset[Effect] = frozenset()
    recoil: int = 0
    cancels: frozenset[AttackType] = frozenset()
    special: Special | None = None

    def has(self, effect: Effect) -> bool:
        return effect in self.effects

    def text(self) -> str:
        """A short readable rules text."""
        parts: list[str] = []
        if self.kind in (Kind.ATTACK, Kind.SIGNATURE):
            parts.append(f"{self.type} · {self.damage} damage · speed {self.speed}")
        elif self.kind is Kind.BOOST:
            parts.append(f"+{self.damage} damage" + (f" · +{self.speed} speed" if self.speed else ""))
        elif self.kind is Kind.DEFENSE:
            parts.append("cancels " + ", ".join(sorted(self.cancels)))
        elif self.special is Special.HOLDING_ON:
            parts.append("cancels a throw over the top rope and removes one damage card")
        elif self.special is Special.RUN_IN:
            parts.append("cancels an attack aimed at another Legend")
        elif self.kind is Kind.REF:
            parts.append("cancels a Cheap Trick")
        words = {Effect.ATTACK_AGAIN: "on a hit: attack again",
                 Effect.SIGNATURE: "on a hit: you may play your Signature",
                 Effect.CHEAP_TRICK: "Cheap Trick", Effect.UNBLOCKABLE: "can't be blocked",
                 Effect.OVER_THE_TOP: "throws over the top rope",
                 Effect.RECOIL: f"recoil {self.recoil}"}
        parts += [words[e] for e in Effect if e in self.effects]
        return " · ".join(parts)

    def to_json(self, card_id: str | None) -> JSON:
        """The card as views show it (built once per design, copied per call)."""
        return {**self._json, "id": card_id}

    @functools.cached_property
    def _json(self) -> JSON:
        data: JSON = {"id": None, "name": self.name, "kind": str(self.kind),
                      "text": self.text()}
        if self.type is not None:
            data["type"] = str(self.type)
        if self.kind in (Kind.ATTACK, Kind.BOOST, Kind.SIGNATURE):
            data["damage"], data["speed"] = self.damage, self.speed
            data["effects"] = sorted(str(e) for e in self.effects)
        if self.kind is Kind.DEFENSE:
            data["cancels"] = sorted(str(t) for t in self.cancels)
        if self.special is not None:
            data["special"] = str(self.special)
        return data


@dataclass(frozen=True)
class Legend:
    key: str
    name: str
    health: int
    signature: Card = field(compare=False)

    @property
    def signature_id(self) -> str:
        return f"sig_{self.key}"

    def to_json(self) -> JSON:
        return {"key": self.key, "name": self.name, "health": self.health}


def _int(raw: Mapping[str, Any], name: str, low: int, high: int, source: str, card: str,
         default: int | None = None) -> int:
    value = raw.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CardDataError(source, card, name, f"must be an integer {low}-{high}")
    return value


def _effects(raw: Any, kind: Kind, source: str, card: str) -> tuple[frozenset[Effect], int]:
    """`[attack_again, {recoil: 3}]` -> the effect set and the recoil amount."""
    if raw is None:
        return frozenset(), 0
    if not isinstance(raw, list):
        raise CardDataError(source, card, "effects", "must be a list")
    found: set[Effect] = set()
    recoil = 0
    allowed = ALLOWED_EFFECTS.get(kind, frozenset())
    names = {str(e) for e in Effect}
    for item in raw:
        if isinstance(item, Mapping) and len(item) == 1 and "recoil" in item:
            recoil = item["recoil"]
            if not isinstance(recoil, int) or isinstance(recoil, bool) or not 1 <= recoil <= 5:
                raise CardDataError(source, card, "effects", "recoil needs an integer 1-5")
            effect = Effect.RECOIL
        elif isinstance(item, str) and item in names and item != "recoil":
            effect = Effect(item)
        elif item == "recoil":
            raise CardDataError(source, card, "effects", "recoil takes its damage: {recoil: N}")
        else:
            raise CardDataError(source, card, "effects", f"unknown effect {item!r}")
        if effect not in allowed:
            raise CardDataError(source, card, "effects", f"a {kind} card cannot have {effect}")
        if effect in found:
            raise CardDataError(source, card, "effects", f"{effect} appears twice")
        found.add(effect)
    return frozenset(found), recoil


def _type(raw: Mapping[str, Any], source: str, card: str) -> AttackType:
    value = raw.get("type")
    if value not in {str(t) for t in AttackType}:
        raise CardDataError(source, card, "type", f"must be one of {[str(t) for t in AttackType]}")
    return AttackType(value)


def parse_card(raw: Any, kind: Kind, source: str, label: str) -> Card:
    """One card design of any kind; raises CardDataError on the first fault."""
    if not isinstance(raw, Mapping):
        raise CardDataError(source, label, "(card)", "each card must be a mapping")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CardDataError(source, label, "name", "must be a non-empty string")
    name = name.strip()
    unknown = sorted(set(raw) - FIELDS[kind])
    if unknown:
        raise CardDataError(source, name, unknown[0], f"is not a field of a {kind} card")
    if kind in (Kind.ATTACK, Kind.SIGNATURE):
        effects, recoil = _effects(raw.get("effects"), kind, source, name)
        return Card(name, kind, _type(raw, source, name), _int(raw, "damage", 0, 8, source, name),
                    _int(raw, "speed", 1, 9, source, name), effects, recoil)
    if kind is Kind.BOOST:
        effects, recoil = _effects(raw.get("effects"), kind, source, name)
        # RR-38: a Boost always adds damage (speed and effects are extras).
        return Card(name, kind, None, _int(raw, "damage", 1, 4, source, name),
                    _int(raw, "speed", 0, 4, source, name, 0), effects, recoil)
    if kind is Kind.DEFENSE:
        cancels = raw.get("cancels")
        types = {str(t) for t in AttackType}
        if (not isinstance(cancels, list) or not cancels
                or not all(isinstance(t, str) and t in types for t in cancels)):
            raise CardDataError(source, name, "cancels", f"must list attack types of {sorted(types)}")
        return Card(name, kind, cancels=frozenset(AttackType(t) for t in cancels))
    if kind is Kind.SPECIAL:
        effect = raw.get("effect")
        if effect not in {str(s) for s in Special}:
            raise CardDataError(source, name, "effect", f"must be one of {[str(s) for s in Special]}")
        return Card(name, kind, special=Special(effect))
    return Card(name, kind)


def parse_actions(data: Any, source: str = "actions.yaml") -> tuple[Card, ...]:
    """The 150 Action cards, copies expanded in file order."""
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise CardDataError(source, None, "cards", "the file needs a 'cards' list")
    deck: list[Card] = []
    seen: set[str] = set()
    kinds = {str(k) for k in Kind if k is not Kind.SIGNATURE}
    for index, raw in enumerate(data["cards"]):
        label = raw.get("name", f"#{index + 1}") if isinstance(raw, Mapping) else f"#{index + 1}"
        kind = raw.get("kind") if isinstance(raw, Mapping) else None
        if kind not in kinds:
            raise CardDataError(source, str(label), "kind", f"must be one of {sorted(kinds)}")
        card = parse_card(raw, Kind(kind), source, str(label))
        if card.name in seen:
            raise CardDataError(source, card.name, "name", "is used by two entries")
        seen.add(card.name)
        deck += [card] * _int(raw, "count", 1, ACTION_CARDS, source, card.name, 1)
    if len(deck) != ACTION_CARDS:
        raise CardDataError(source, None, "cards",
                            f"needs {ACTION_CARDS} cards counting copies, not {len(deck)}")
    return tuple(deck)


def parse_legends(data: Any, source: str = "legends.yaml") -> Mapping[str, Legend]:
    """The 30 Legends by key, in file order."""
    if not isinstance(data, Mapping) or not isinstance(data.get("legends"), list):
        raise CardDataError(source, None, "legends", "the file needs a 'legends' list")
    out: dict[str, Legend] = {}
    for index, raw in enumerate(data["legends"]):
        if not isinstance(raw, Mapping):
            raise CardDataError(source, f"#{index + 1}", "(legend)", "must be a mapping")
        key = raw.get("key")
        if not isinstance(key, str) or not _KEY.match(key):
            raise CardDataError(source, f"#{index + 1}", "key", "must be lower-case letters/digits")
        unknown = sorted(set(raw) - {"key", "name", "health", "signature"})
        if unknown:
            raise CardDataError(source, key, unknown[0], "is not a Legend field")
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise CardDataError(source, key, "name", "must be a non-empty string")
        if key in out:
            raise CardDataError(source, key, "key", "is used by two Legends")
        if not isinstance(raw.get("signature"), Mapping):
            raise CardDataError(source, key, "signature",
                                "must be a card: name, type, damage, speed and effects")
        signature = parse_card(raw["signature"], Kind.SIGNATURE, source, key)
        out[key] = Legend(key, name.strip(), _int(raw, "health", 5, 20, source, key), signature)
    if len(out) != LEGENDS:
        raise CardDataError(source, None, "legends", f"needs {LEGENDS} Legends, not {len(out)}")
    return MappingProxyType(out)


def _load(name: str) -> Any:
    text = resources.files(__package__ or __name__).joinpath("data").joinpath(name).read_text(
        "utf-8")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise CardDataError(name, None, "(yaml)", f"is not valid YAML: {error}") from None


ACTIONS: tuple[Card, ...] = parse_actions(_load("actions.yaml"))
ROSTER: Mapping[str, Legend] = parse_legends(_load("legends.yaml"))
ACTION_IDS: tuple[str, ...] = tuple(f"a{i:03d}" for i in range(1, ACTION_CARDS + 1))
SIGNATURES: Mapping[str, Legend] = MappingProxyType(
    {legend.signature_id: legend for legend in ROSTER.values()})


def card(card_id: str) -> Card:
    """The design of an Action card id or a Signature id."""
    if card_id.startswith("sig_"):
        return SIGNATURES[card_id].signature
    return ACTIONS[int(card_id[1:]) - 1]


def card_json(card_id: str) -> JSON:
    return card(card_id).to_json(card_id)
