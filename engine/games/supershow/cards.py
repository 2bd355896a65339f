"""Cards, Competitors and Crowd Meters as data, with a small declarative effect vocabulary.

Files: `data/cards.yaml` (the numbered maneuver cards 1-27), `data/competitors/*.yaml`
(one Competitor each: skills, Gimmick, its 27-card deck by card key and its own three
Finishes 28-30) and `data/crowd_meter.yaml`. Everything is validated before anything is
published; a fault raises `CardDataError` naming the file, the card and the field.

The effect vocabulary (a card's `effects`, a Gimmick trigger's `effects`):

    {do: draw,    count: N, who: self|opponent, per: lead|follow_up|finish|card, if: COND}
    {do: flip,    count: N, who: ..., per: ..., if: ...}     top of deck -> discard pile
    {do: discard, count: N, who: ..., if: ...}               that player picks from hand
    {do: bury,    count: N, who: ..., if: ...}               that player picks from discard
    {do: search,  find: {type: T, skill: S}, if: ...}        pick a match from your deck,
                                                             then the deck is shuffled
    {do: boost,   roll: turn|finish|breakout, amount: N}     + N to your next such roll

    COND: {in_play: lead|follow_up|finish|card, at_least: N} or {hand_at_most: N}

`per` multiplies `count` by the cards of that type the card's owner has in play against
the opponent. A Gimmick has `bonuses` (always on: `{roll, amount, skill?}`) and
`triggers` (`{when: turn_won|bumped|card_hit|stopped|broke_out, card_type?, effects}`).
"""

from __future__ import annotations

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
FINISH_NUMBERS = (28, 29, 30)
LIBRARY_NUMBERS = range(1, 28)
RATINGS = range(5, 11)  # SH-006: a Competitor's six ratings, one of each
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


class Skill(StrEnum):
    """The six skills, which are also the six faces of the Supershow die (SH-004/008)."""

    POWER = "power"
    TECHNIQUE = "technique"
    AGILITY = "agility"
    STRIKE = "strike"
    SUBMISSION = "submission"
    GRAPPLE = "grapple"


SKILLS = tuple(Skill)


class CardType(StrEnum):
    """SH-012: every deck card is a Lead, a Follow-Up or a Finish."""

    LEAD = "lead"
    FOLLOW_UP = "follow_up"
    FINISH = "finish"


class Do(StrEnum):
    """The verbs of the effect vocabulary."""

    DRAW = "draw"
    FLIP = "flip"
    DISCARD = "discard"
    BURY = "bury"
    SEARCH = "search"
    BOOST = "boost"


class Roll(StrEnum):
    """The rolls a bonus or boost can change."""

    TURN = "turn"
    FINISH = "finish"
    BREAKOUT = "breakout"


class Trigger(StrEnum):
    """When a Gimmick trigger fires (always for the Gimmick's own player)."""

    TURN_WON = "turn_won"  # you won a turn roll and drew
    BUMPED = "bumped"  # a turn roll was a bump
    CARD_HIT = "card_hit"  # one of your cards was hit (optionally of `card_type`)
    STOPPED = "stopped"  # you stopped a card
    BROKE_OUT = "broke_out"  # you broke out of a Finish


COUNTABLE = ("lead", "follow_up", "finish", "card")  # 'card' counts every card in play


@dataclass(frozen=True)
class Condition:
    """`if:` of an effect: enough cards of a type in play, or a small hand."""

    in_play: str | None = None
    at_least: int = 1
    hand_at_most: int | None = None

    def to_json(self) -> JSON:
        if self.hand_at_most is not None:
            return {"hand_at_most": self.hand_at_most}
        return {"in_play": self.in_play, "at_least": self.at_least}


@dataclass(frozen=True)
class Effect:
    """One instruction of a card text or Gimmick."""

    do: Do
    count: int = 1
    who: str = "self"  # "self" or "opponent"
    per: str | None = None
    cond: Condition | None = None
    find_type: CardType | None = None
    find_skill: Skill | None = None
    roll: Roll | None = None
    amount: int = 0

    def to_json(self) -> JSON:
        data: JSON = {"do": str(self.do)}
        if self.do is Do.BOOST:
            data |= {"roll": str(self.roll), "amount": self.amount}
        elif self.do is Do.SEARCH:
            data["find"] = {"type": self.find_type and str(self.find_type),
                            "skill": self.find_skill and str(self.find_skill)}
        else:
            data |= {"count": self.count, "who": self.who, "per": self.per}
        if self.cond is not None:
            data["if"] = self.cond.to_json()
        return data


@dataclass(frozen=True)
class Stop:
    """SH-016: the STOP symbol and which cards it stops (a type, optionally one skill)."""

    types: tuple[CardType, ...]
    skill: Skill | None = None

    def matches(self, card: Card) -> bool:
        """Whether this Stop names the played card's type (and skill, if it names one)."""
        return card.type in self.types and (self.skill is None or card.skill is self.skill)

    def to_json(self) -> JSON:
        return {"types": [str(t) for t in self.types],
                "skill": str(self.skill) if self.skill else None}


@dataclass(frozen=True)
class Card:
    """One numbered card design."""

    key: str
    number: int
    name: str
    type: CardType
    skill: Skill
    text: str = ""
    stop: Stop | None = None
    effects: tuple[Effect, ...] = ()
    owner: str | None = None  # the Competitor whose logo a Finish carries (SH-043)

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        """Itself: a design never changes, so a copied state (a bot's, matches/services.py)
        may share it."""
        return self

    @property
    def label(self) -> str:
        """How narration names a face-up card: 'Lead Strike "Brow Beater" (#4)'."""
        kind = {"lead": "Lead", "follow_up": "Follow-Up", "finish": "Finish"}[self.type]
        return f'{kind} {self.skill.title()} "{self.name}" (#{self.number})'

    def to_json(self, card_id: str | None) -> JSON:
        return {"id": card_id, "key": self.key, "number": self.number, "name": self.name,
                "type": str(self.type), "skill": str(self.skill), "text": self.text,
                "stop": self.stop.to_json() if self.stop else None, "owner": self.owner}


@dataclass(frozen=True)
class Bonus:
    """An always-on Gimmick modifier: +amount to a kind of roll (only on `skill`, if set)."""

    roll: Roll
    amount: int
    skill: Skill | None = None


@dataclass(frozen=True)
class GimmickTrigger:
    """Effects a Gimmick performs when something happens to its player."""

    when: Trigger
    effects: tuple[Effect, ...]
    card_type: CardType | None = None


@dataclass(frozen=True)
class Gimmick:
    """SH-041: the text on a Competitor card, as bonuses and triggers."""

    text: str
    bonuses: tuple[Bonus, ...] = ()
    triggers: tuple[GimmickTrigger, ...] = ()


@dataclass(frozen=True)
class Competitor:
    """A Competitor card with its 30-card deck (index = number - 1)."""

    key: str
    name: str
    kind: str  # single, tag_team or trio
    skills: Mapping[Skill, int]
    gimmick: Gimmick
    deck: tuple[Card, ...]

    def to_json(self) -> JSON:
        return {"key": self.key, "name": self.name, "kind": self.kind,
                "skills": {str(k): v for k, v in self.skills.items()},
                "gimmick": self.gimmick.text}


@dataclass(frozen=True)
class CrowdCard:
    """A Crowd Meter card: makes Finishes harder to escape once in play (SH-037)."""

    name: str
    finish_bonus: int = 0
    breakout_penalty: int = 0
    entrant_draw: int = 0  # Birdcage only
    entrant_bonus: int = 0  # Birdcage only

    def to_json(self) -> JSON:
        return {"name": self.name, "finish_bonus": self.finish_bonus,
                "breakout_penalty": self.breakout_penalty}


@dataclass(frozen=True)
class Catalog:
    """Everything loaded: the card library, Competitors, finishes and Crowd Meters."""

    library: Mapping[str, Card]
    competitors: Mapping[str, Competitor]
    finishes: Mapping[str, Card]
    crowd_meter: tuple[CrowdCard, ...]
    birdcage_meter: tuple[CrowdCard, ...]

    def card(self, key: str) -> Card | None:
        """A library card or a Finish by key."""
        return self.library.get(key) or self.finishes.get(key)


# -- parsing ------------------------------------------------------------------------------


def _int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _enum(enum: type[StrEnum], value: Any, source: str, card: str | None, field: str) -> Any:
    allowed = [str(e) for e in enum]  # type: ignore[var-annotated]
    if value not in allowed:
        raise CardDataError(source, card, field, f"must be one of {allowed}, not {value!r}")
    return enum(value)


def _fields(raw: Any, allowed: Iterable[str], source: str, card: str | None, field: str) -> None:
    if not isinstance(raw, Mapping):
        raise CardDataError(source, card, field, "must be a mapping")
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        raise CardDataError(source, card, f"{field}.{unknown[0]}", "is not a known field")


def _condition(raw: Any, source: str, card: str, field: str) -> Condition:
    _fields(raw, ("in_play", "at_least", "hand_at_most"), source, card, field)
    if "hand_at_most" in raw:
        if not _int(raw["hand_at_most"], 0, 10) or "in_play" in raw:
            raise CardDataError(source, card, field, "hand_at_most needs 0-10, alone")
        return Condition(hand_at_most=raw["hand_at_most"])
    if raw.get("in_play") not in COUNTABLE:
        raise CardDataError(source, card, f"{field}.in_play", f"must be one of {COUNTABLE}")
    at_least = raw.get("at_least", 1)
    if not _int(at_least, 1, 30):
        raise CardDataError(source, card, f"{field}.at_least", "must be 1-30")
    return Condition(in_play=raw["in_play"], at_least=at_least)


EFFECT_FIELDS = {
    Do.DRAW: ("count", "who", "per", "if"), Do.FLIP: ("count", "who", "per", "if"),
    Do.DISCARD: ("count", "who", "if"), Do.BURY: ("count", "who", "if"),
    Do.SEARCH: ("find", "if"), Do.BOOST: ("roll", "amount", "if"),
}


def parse_effect(raw: Any, source: str, card: str, field: str) -> Effect:
    """One effect of the vocabulary; anything else is refused naming the card."""
    if not isinstance(raw, Mapping):
        raise CardDataError(source, card, field, "an effect must be a mapping")
    verb = _enum(Do, raw.get("do"), source, card, f"{field}.do")
    _fields(raw, ("do", *EFFECT_FIELDS[verb]), source, card, field)
    cond = _condition(raw["if"], source, card, f"{field}.if") if "if" in raw else None
    if verb is Do.BOOST:
        roll = _enum(Roll, raw.get("roll"), source, card, f"{field}.roll")
        if not _int(raw.get("amount"), 1, 5):
            raise CardDataError(source, card, f"{field}.amount", "must be 1-5")
        return Effect(verb, roll=roll, amount=raw["amount"], cond=cond)
    if verb is Do.SEARCH:
        find = raw.get("find")
        _fields(find, ("type", "skill"), source, card, f"{field}.find")
        assert isinstance(find, Mapping)
        if not find:
            raise CardDataError(source, card, f"{field}.find", "needs a type or a skill")
        ftype = _enum(CardType, find["type"], source, card, f"{field}.find.type") \
            if "type" in find else None
        fskill = _enum(Skill, find["skill"], source, card, f"{field}.find.skill") \
            if "skill" in find else None
        return Effect(verb, find_type=ftype, find_skill=fskill, cond=cond)
    count = raw.get("count", 1)
    if not _int(count, 1, 5):
        raise CardDataError(source, card, f"{field}.count", "must be 1-5")
    who = raw.get("who", "self")
    if who not in ("self", "opponent"):
        raise CardDataError(source, card, f"{field}.who", "must be 'self' or 'opponent'")
    per = raw.get("per")
    if per is not None and per not in COUNTABLE:
        raise CardDataError(source, card, f"{field}.per", f"must be one of {COUNTABLE}")
    return Effect(verb, count=count, who=who, per=per, cond=cond)


def _effects(raw: Any, source: str, card: str, field: str = "effects") -> tuple[Effect, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise CardDataError(source, card, field, "must be a list of effects")
    return tuple(parse_effect(e, source, card, f"{field}[{i}]") for i, e in enumerate(raw))


def _stop(raw: Any, source: str, card: str) -> Stop | None:
    if raw is None:
        return None
    _fields(raw, ("types", "skill"), source, card, "stop")
    types = raw.get("types")
    if not isinstance(types, list) or not types:
        raise CardDataError(source, card, "stop.types", "must list the card types it stops")
    parsed = tuple(_enum(CardType, t, source, card, "stop.types") for t in types)
    skill = _enum(Skill, raw["skill"], source, card, "stop.skill") if "skill" in raw else None
    return Stop(parsed, skill)


CARD_FIELDS = ("key", "number", "name", "type", "skill", "text", "stop", "effects")


def parse_card(raw: Any, source: str, index: int, owner: str | None = None) -> Card:
    """One card design (a Finish when `owner` is given)."""
    label = f"#{index + 1}"
    if not isinstance(raw, Mapping):
        raise CardDataError(source, label, "(card)", "each card must be a mapping")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CardDataError(source, label, "name", "must be a non-empty string")
    allowed = CARD_FIELDS if owner is None else tuple(f for f in CARD_FIELDS if f != "key")
    _fields(raw, allowed, source, name, "card")
    numbers = FINISH_NUMBERS if owner else LIBRARY_NUMBERS
    number = raw.get("number")
    if not isinstance(number, int) or not _int(number, min(numbers), max(numbers)):
        raise CardDataError(source, name, "number",
                            f"must be {min(numbers)}-{max(numbers)}, not {number!r}")
    ctype = _enum(CardType, raw.get("type"), source, name, "type")
    if (ctype is CardType.FINISH) != (owner is not None):
        raise CardDataError(source, name, "type", "Finishes (28-30) belong to a Competitor, "
                                                  "and only they are Finishes")
    skill = _enum(Skill, raw.get("skill"), source, name, "skill")
    text = raw.get("text", "")
    if not isinstance(text, str):
        raise CardDataError(source, name, "text", "must be a string")
    effects = _effects(raw.get("effects"), source, name)
    stop = _stop(raw.get("stop"), source, name)
    if (effects or stop) and not text.strip():
        raise CardDataError(source, name, "text", "a card with effects or a STOP needs text")
    key = raw.get("key") if owner is None else f"{owner}_{number}"
    if not isinstance(key, str) or not _KEY.match(key):
        raise CardDataError(source, name, "key", "must be lower-case letters, digits and '_'")
    return Card(key, number, name.strip(), ctype, skill, text.strip(), stop, effects, owner)


def _list(raw: Any, source: str, card: str, field: str) -> list[Any]:
    """An optional list field: absent (or empty) is no items, anything else is refused."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise CardDataError(source, card, field, "must be a list")
    return raw


def _gimmick(raw: Any, source: str) -> Gimmick:
    where = "gimmick"
    _fields(raw, ("text", "bonuses", "triggers"), source, where, where)
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip():
        raise CardDataError(source, where, "gimmick.text", "must be a non-empty string")
    bonuses = []
    for i, b in enumerate(_list(raw.get("bonuses"), source, where, "gimmick.bonuses")):
        field = f"gimmick.bonuses[{i}]"
        _fields(b, ("roll", "amount", "skill"), source, where, field)
        roll = _enum(Roll, b.get("roll"), source, where, f"{field}.roll")
        if not _int(b.get("amount"), 1, 3):
            raise CardDataError(source, where, f"{field}.amount", "must be 1-3")
        skill = _enum(Skill, b["skill"], source, where, f"{field}.skill") if "skill" in b else None
        bonuses.append(Bonus(roll, b["amount"], skill))
    triggers = []
    for i, t in enumerate(_list(raw.get("triggers"), source, where, "gimmick.triggers")):
        field = f"gimmick.triggers[{i}]"
        _fields(t, ("when", "card_type", "effects"), source, where, field)
        when = _enum(Trigger, t.get("when"), source, where, f"{field}.when")
        ctype = _enum(CardType, t["card_type"], source, where, f"{field}.card_type") \
            if "card_type" in t else None
        effects = _effects(t.get("effects"), source, where, f"{field}.effects")
        if not effects:
            raise CardDataError(source, where, f"{field}.effects", "needs at least one effect")
        triggers.append(GimmickTrigger(when, effects, ctype))
    return Gimmick(text.strip(), tuple(bonuses), tuple(triggers))


COMPETITOR_FIELDS = ("key", "name", "kind", "skills", "gimmick", "deck", "finishes")
KINDS = ("single", "tag_team", "trio")


def parse_competitor(data: Any, source: str, library: Mapping[str, Card]) -> Competitor:
    """One Competitor file: skills, Gimmick, 27 library cards by key and three Finishes."""
    if not isinstance(data, Mapping):
        raise CardDataError(source, None, "(top)", "the file must be a mapping")
    _fields(data, COMPETITOR_FIELDS, source, None, "(top)")
    key, name = data.get("key"), data.get("name")
    if not isinstance(key, str) or not _KEY.match(key):
        raise CardDataError(source, None, "key", "must be lower-case letters, digits and '_'")
    if not isinstance(name, str) or not name.strip():
        raise CardDataError(source, None, "name", "must be a non-empty string")
    if data.get("kind", "single") not in KINDS:
        raise CardDataError(source, None, "kind", f"must be one of {KINDS}")
    skills = data.get("skills")
    if (not isinstance(skills, Mapping) or sorted(skills) != sorted(str(s) for s in SKILLS)
            or not all(_int(v, 5, 10) for v in skills.values())
            or sorted(skills.values()) != list(RATINGS)):
        raise CardDataError(source, None, "skills",
                            "must rate all six skills 5-10, each value once (SH-006)")
    gimmick = _gimmick(data.get("gimmick"), source)
    finishes_raw = data.get("finishes")
    if not isinstance(finishes_raw, list):
        raise CardDataError(source, None, "finishes", "must list the three Finishes")
    finishes = [parse_card(raw, source, i, owner=key) for i, raw in enumerate(finishes_raw)]
    keys = data.get("deck")
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise CardDataError(source, None, "deck", "must list library card keys")
    cards = []
    for k in keys:
        if k not in library:
            raise CardDataError(source, k, "deck", "is not a card of cards.yaml")
        cards.append(library[k])
    deck = tuple(sorted(cards + finishes, key=lambda c: c.number))
    problem = deck_problem(deck, key)
    if problem:
        raise CardDataError(source, None, "deck", problem[1])
    return Competitor(key, name.strip(), data.get("kind", "single"),
                      MappingProxyType({Skill(k): v for k, v in skills.items()}),
                      gimmick, deck)


def deck_problem(deck: Iterable[Card], owner: str) -> tuple[str, str] | None:
    """SH-044/050: (code, message) if the deck is not 30 cards, one of each number, with
    only the owner's Finishes; None when it is legal."""
    cards = list(deck)
    if len(cards) != DECK_SIZE:
        return "deck_size", f"a deck has exactly {DECK_SIZE} cards, not {len(cards)}"
    numbers = sorted(c.number for c in cards)
    if numbers != list(range(1, DECK_SIZE + 1)):
        missing = sorted(set(range(1, DECK_SIZE + 1)) - set(numbers))
        return "deck_numbers", f"a deck needs one card of each number 1-30; missing {missing}"
    foreign = [c.name for c in cards if c.type is CardType.FINISH and c.owner != owner]
    if foreign:
        return "foreign_finish", f"{foreign[0]!r} is another Competitor's Finish"
    return None


def _crowd(raw: Any, source: str, field: str, birdcage: bool) -> tuple[CrowdCard, ...]:
    if not isinstance(raw, list) or not raw:
        raise CardDataError(source, None, field, "must list Crowd Meter cards")
    cards = []
    extra = ("entrant_draw", "entrant_bonus") if birdcage else ()
    for i, c in enumerate(raw):
        label = c.get("name") if isinstance(c, Mapping) else f"#{i + 1}"
        _fields(c, ("name", "finish_bonus", "breakout_penalty", *extra), source, label, field)
        if not isinstance(label, str) or not label:
            raise CardDataError(source, f"#{i + 1}", "name", "must be a non-empty string")
        values = {f: c.get(f, 0) for f in ("finish_bonus", "breakout_penalty", *extra)}
        for f, v in values.items():
            if not _int(v, 0, 5):
                raise CardDataError(source, label, f, "must be 0-5")
        cards.append(CrowdCard(label, **values))
    return tuple(cards)


def _yaml(source: str, text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise CardDataError(source, None, "(yaml)", f"is not valid YAML: {error}") from None


def parse_library(source: str, text: str) -> Mapping[str, Card]:
    """cards.yaml: the numbered maneuvers by key."""
    data = _yaml(source, text)
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise CardDataError(source, None, "cards", "the file needs a 'cards' list")
    library: dict[str, Card] = {}
    for i, raw in enumerate(data["cards"]):
        card = parse_card(raw, source, i)
        if card.key in library:
            raise CardDataError(source, card.name, "key", f"{card.key!r} is used twice")
        library[card.key] = card
    missing = sorted(set(LIBRARY_NUMBERS) - {c.number for c in library.values()})
    if missing:
        raise CardDataError(source, None, "number", "no card for "
                             f"{'number' if len(missing) == 1 else 'numbers'} {missing}")
    return MappingProxyType(library)


def parse_catalog(files: Mapping[str, str]) -> Catalog:
    """Validate every file (name -> text), then publish them all at once."""
    library = parse_library("cards.yaml", files.get("cards.yaml", ""))
    meter = _yaml("crowd_meter.yaml", files.get("crowd_meter.yaml", ""))
    if not isinstance(meter, Mapping):
        raise CardDataError("crowd_meter.yaml", None, "(top)", "the file must be a mapping")
    crowd = _crowd(meter.get("standard"), "crowd_meter.yaml", "standard", False)
    birdcage = _crowd(meter.get("birdcage"), "crowd_meter.yaml", "birdcage", True)
    competitors: dict[str, Competitor] = {}
    finishes: dict[str, Card] = {}
    sources: dict[str, str] = {}
    for source in sorted(n for n in files if n.startswith("competitors/")):
        comp = parse_competitor(_yaml(source, files[source]), source, library)
        if comp.key in competitors:
            raise CardDataError(source, None, "key", f"{comp.key!r} is {sources[comp.key]}'s "
                                                     "key too: each file needs its own")
        competitors[comp.key], sources[comp.key] = comp, source
        finishes.update({c.key: c for c in comp.deck if c.type is CardType.FINISH})
    if not competitors:
        raise CardDataError("competitors/", None, "(files)", "no Competitor files found")
    return Catalog(library, MappingProxyType(competitors), MappingProxyType(finishes),
                   crowd, birdcage)


def read_files(folder: Path | None = None) -> dict[str, str]:
    """The data files of a folder (by default the package's `data`) by relative name."""
    base: Traversable | Path = folder if folder is not None else resources.files(
        __package__ or __name__).joinpath("data")
    files = {f.name: f.read_text("utf-8") for f in base.iterdir() if f.name.endswith(".yaml")}
    comps = base.joinpath("competitors")
    files |= {f"competitors/{f.name}": f.read_text("utf-8") for f in comps.iterdir()
              if f.name.endswith(".yaml")}
    return files


CATALOG: Catalog = parse_catalog(read_files())
