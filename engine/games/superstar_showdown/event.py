"""The Advanced Rules' Event layer as data and plain functions (SS-114..SS-162).

Match cards, Stipulations and Bonus Superstar cards are our own, in `data/*.yaml`,
validated once at import (a fault raises `CardDataError`). `EventInfo` is the part of a
match state that only an Event has: the teams' rosters and decks, the series of Matches,
the Ranking Points. `read_event_options` turns the `event` option into a plan.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from importlib import resources
from types import MappingProxyType
from typing import Any

import yaml

from engine.data import CardDataError
from engine.games.superstar_showdown.cards import CARD_FIELDS, Card, parse_superstar_card
from engine.protocol import JSON, IllegalAction, quoted

MAX_PER_TEAM = 3
MAX_MATCHES = 12
MIN_MATCHES = 2


class MatchKind(StrEnum):
    """How a Match card is played."""

    SINGLE = "single"
    TAG = "tag"
    GAUNTLET = "gauntlet"


class Effect(StrEnum):
    """The one rule a Stipulation changes (see data/stipulations.yaml)."""

    NONE = "none"
    NO_COUNTOUT = "no_countout"
    NO_PINS = "no_pins"
    TWO_FALLS = "two_falls"
    NO_LEAVING_RING = "no_leaving_ring"
    PINS_ANYWHERE = "pins_anywhere"
    TWO_COUNT = "two_count"
    SHORT_TIME = "short_time"


@dataclass(frozen=True)
class MatchCard:
    key: str
    title: str
    text: str
    per_side: int
    kind: MatchKind
    win: int
    loss: int
    draw: int
    per_defeat: int = 0

    def to_json(self) -> JSON:
        return {"key": self.key, "title": self.title, "text": self.text,
                "per_side": self.per_side, "kind": str(self.kind), "win": self.win,
                "loss": self.loss, "draw": self.draw, "per_defeat": self.per_defeat}


@dataclass(frozen=True)
class Stipulation:
    key: str
    title: str
    text: str
    effect: Effect
    rounds: int = 0

    def to_json(self) -> JSON:
        return {"key": self.key, "title": self.title, "text": self.text,
                "effect": str(self.effect)}


@dataclass(frozen=True)
class BonusCard:
    key: str
    price: int
    card: Card

    def to_json(self) -> JSON:
        return {**self.card.to_json(self.key), "price": self.price}


@dataclass(frozen=True)
class Preset:
    key: str
    title: str
    text: str
    matches: tuple[tuple[str | None, str | None], ...]  # (match card, stipulation); None: drawn
    superstars_per_team: int

    def to_json(self) -> JSON:
        return {"key": self.key, "title": self.title, "text": self.text,
                "superstars_per_team": self.superstars_per_team,
                "matches": [{"match": m, "stipulation": s} for m, s in self.matches]}


def _read(name: str) -> list[Any]:
    source = f"{name}.yaml"
    text = resources.files(__package__ or __name__).joinpath("data", source).read_text("utf-8")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise CardDataError(source, None, "(yaml)", f"is not valid YAML: {error}") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise CardDataError(source, None, "cards", "the file needs a 'cards' list")
    return list(data["cards"])


def _field(raw: Mapping[str, Any], name: str, kind: type, source: str, card: str) -> Any:
    value = raw.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise CardDataError(source, card, name, f"must be a {kind.__name__}")
    return value


def _points(raw: Mapping[str, Any], name: str, source: str, card: str) -> int:
    """Ranking Points on a Match card: a whole number, 0 or more."""
    value = _field(raw, name, int, source, card)
    if value < 0:
        raise CardDataError(source, card, name, "must be 0 or more")
    return int(value)


def _known(raw: Mapping[str, Any], fields: Sequence[str], source: str, card: str) -> None:
    """A field the file does not define (a misspelling) is refused, not silently left out."""
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise CardDataError(source, card, str(unknown[0]), "is not a field of this file's cards")


MATCH_CARD_FIELDS = ("key", "title", "text", "per_side", "kind", "win", "loss", "draw",
                     "per_defeat")
STIPULATION_FIELDS = ("key", "title", "text", "effect", "rounds")


def _unique(items: Sequence[Any], source: str) -> Mapping[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        if item.key in out:
            raise CardDataError(source, item.key, "key", "is used twice")
        out[item.key] = item
    return MappingProxyType(out)


def load_match_cards(raw_cards: list[Any] | None = None) -> Mapping[str, MatchCard]:
    source = "match_cards.yaml"
    cards = []
    for index, raw in enumerate(raw_cards if raw_cards is not None else _read("match_cards")):
        if not isinstance(raw, Mapping):
            raise CardDataError(source, None, "cards", "each card must be a mapping")
        key = _field(raw, "key", str, source, f"#{index + 1}")
        _known(raw, MATCH_CARD_FIELDS, source, key)
        kind = raw.get("kind")
        if kind not in {str(k) for k in MatchKind}:
            raise CardDataError(source, key, "kind", f"must be one of {[str(k) for k in MatchKind]}")
        per_side = _field(raw, "per_side", int, source, key)
        if not 1 <= per_side <= MAX_PER_TEAM or (kind == MatchKind.SINGLE) != (per_side == 1):
            raise CardDataError(source, key, "per_side", "must be 1 for single, 2-3 otherwise")
        cards.append(MatchCard(
            key, _field(raw, "title", str, source, key), _field(raw, "text", str, source, key),
            per_side, MatchKind(kind), _points(raw, "win", source, key),
            _points(raw, "loss", source, key), _points(raw, "draw", source, key),
            _points({"per_defeat": 0, **raw}, "per_defeat", source, key)))
    return _unique(cards, source)


def load_stipulations(raw_cards: list[Any] | None = None) -> Mapping[str, Stipulation]:
    source = "stipulations.yaml"
    cards = []
    for index, raw in enumerate(raw_cards if raw_cards is not None else _read("stipulations")):
        if not isinstance(raw, Mapping):
            raise CardDataError(source, None, "cards", "each card must be a mapping")
        key = _field(raw, "key", str, source, f"#{index + 1}")
        _known(raw, STIPULATION_FIELDS, source, key)
        effect = raw.get("effect")
        if effect not in {str(e) for e in Effect}:
            raise CardDataError(source, key, "effect", f"must be one of {[str(e) for e in Effect]}")
        rounds = raw.get("rounds", 0)
        if effect == Effect.SHORT_TIME and (not isinstance(rounds, int) or isinstance(rounds, bool)
                                            or rounds < 1):
            raise CardDataError(source, key, "rounds", "a short_time card needs rounds >= 1")
        cards.append(Stipulation(key, _field(raw, "title", str, source, key),
                                 _field(raw, "text", str, source, key), Effect(effect), rounds))
    return _unique(cards, source)


def load_bonus_cards(raw_cards: list[Any] | None = None) -> Mapping[str, BonusCard]:
    source = "bonus_cards.yaml"
    cards = []
    for index, raw in enumerate(raw_cards if raw_cards is not None else _read("bonus_cards")):
        if not isinstance(raw, Mapping):
            raise CardDataError(source, None, "cards", "each card must be a mapping")
        key = _field(raw, "key", str, source, f"#{index + 1}")
        price = _field(raw, "price", int, source, key)
        if price < 1:
            raise CardDataError(source, key, "price", "must be at least 1")
        body = {k: v for k, v in raw.items() if k not in ("key", "price")}
        unknown = sorted(set(body) - set(CARD_FIELDS))
        if unknown or "count" in body:
            raise CardDataError(source, key, (unknown or ["count"])[0], "is not a bonus card field")
        cards.append(BonusCard(key, price, parse_superstar_card(body, index, source)))
    return _unique(cards, source)


MATCH_CARDS: Mapping[str, MatchCard] = load_match_cards()
STIPULATIONS: Mapping[str, Stipulation] = load_stipulations()
BONUS_CARDS: Mapping[str, BonusCard] = load_bonus_cards()

PRESETS: Mapping[str, Preset] = MappingProxyType({
    # SS-160: one of each Match card (drawn without replacement, so each comes once).
    "full_card": Preset("full_card", "Full Card",
                        "One of each Match card, in a random order, with random Stipulations.",
                        ((None, None),) * len(MATCH_CARDS), 3),
    # SS-161: every Match a Tag Team Match.
    "tag_team_series": Preset("tag_team_series", "Tag Team Series",
                              "Three Tag Team Matches with random Stipulations.",
                              (("tag_team", None),) * 3, 3),
    # SS-162: four Matches, all Endurance.
    "ultimate_endurance": Preset("ultimate_endurance", "Ultimate Endurance",
                                 "Four random Matches, every one an Endurance Match.",
                                 ((None, "endurance"),) * 4, 3),
})



def check_presets(presets: Mapping[str, Preset], match_cards: Mapping[str, MatchCard],
                  stipulations: Mapping[str, Stipulation]) -> None:
    """Every preset can be played with these cards: each Match card and Stipulation it
    names is there, and it holds an Event's number of Matches (the Full Card one of each
    Match card); raises CardDataError naming the file and key (a card set that renamed
    one loaded, then refused the organizer's Event)."""
    for preset in presets.values():
        for match, stip in preset.matches:
            if match is not None and match not in match_cards:
                raise CardDataError("match_cards.yaml", match, "key",
                                    f"the {preset.title} preset plays it: keep a card of this key")
            if stip is not None and stip not in stipulations:
                raise CardDataError("stipulations.yaml", stip, "key",
                                    f"the {preset.title} preset plays it: keep a card of this key")
        if not MIN_MATCHES <= len(preset.matches) <= MAX_MATCHES:  # Full Card: one a card
            raise CardDataError("match_cards.yaml", None, "cards",
                                f"the {preset.title} preset would play {len(preset.matches)} "
                                f"Matches; an Event has {MIN_MATCHES}-{MAX_MATCHES}")


check_presets(PRESETS, MATCH_CARDS, STIPULATIONS)

# A preset's earlier key, still read: stored Event options and recorded streams carry it.
PRESET_ALIASES: Mapping[str, str] = MappingProxyType({"smackdown": "full_card"})


def preset_key(value: str) -> str | None:
    """The preset a key names (its own key, or the one an earlier key stands for)."""
    key = PRESET_ALIASES.get(value, value)
    return key if key in PRESETS else None


@dataclass(frozen=True)
class Plan:
    """What the organizer asked for: the Matches (None: drawn) and the roster size."""

    preset: str | None
    matches: tuple[tuple[str | None, str | None], ...]
    superstars_per_team: int


def _bad(message: str) -> IllegalAction:
    return IllegalAction("bad_option", message)


def read_event_options(value: Any, per_team: Any = None) -> Plan:
    """The `event` option: a preset key, or {"matches": [...], "superstars_per_team": n}."""
    if isinstance(value, str):
        key = preset_key(value)
        if key is None:
            raise _bad(f"Unknown Event preset {quoted(value)}: one of {sorted(PRESETS)}.")
        preset = PRESETS[key]
        size = preset.superstars_per_team if per_team is None else per_team
        return _checked(Plan(value, preset.matches, size))
    if not isinstance(value, Mapping):
        raise _bad("Option 'event' must be a preset key or an object with 'matches'.")
    unknown = sorted(set(value) - {"matches", "superstars_per_team"})
    if unknown:
        raise _bad(f"Option 'event' has no field {quoted(unknown[0])}.")
    raw = value.get("matches")
    if not isinstance(raw, list):
        raise _bad("An Event needs a 'matches' list.")
    matches = []
    for item in raw:
        if not isinstance(item, Mapping) or set(item) - {"match", "stipulation"}:
            raise _bad("Each Match is an object with 'match' and 'stipulation' (or null).")
        match, stip = item.get("match"), item.get("stipulation")
        if not isinstance(match, str | None) or not isinstance(stip, str | None):
            raise _bad("A Match card or Stipulation is a key (or null to draw one).")
        matches.append((match, stip))
    size = value.get("superstars_per_team", per_team)
    if size is None:
        size = max([MATCH_CARDS[m].per_side for m, _ in matches if m is not None
                    and m in MATCH_CARDS] + [1])
    return _checked(Plan(None, tuple(matches), size))


def _checked(plan: Plan) -> Plan:
    size = plan.superstars_per_team
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_PER_TEAM:
        raise _bad(f"'superstars_per_team' must be 1-{MAX_PER_TEAM}.")
    if not MIN_MATCHES <= len(plan.matches) <= MAX_MATCHES:
        raise _bad(f"An Event has {MIN_MATCHES}-{MAX_MATCHES} Matches (SS-127).")
    for match, stip in plan.matches:
        if match is not None and match not in MATCH_CARDS:
            raise _bad(f"Unknown Match card {quoted(match)}: one of {sorted(MATCH_CARDS)}.")
        if match is not None and MATCH_CARDS[match].per_side > size:
            raise _bad(f"{MATCH_CARDS[match].title} needs {MATCH_CARDS[match].per_side} "
                       f"Superstars a team, but teams draft {size}.")
        if stip is not None and stip not in STIPULATIONS:
            raise _bad(f"Unknown Stipulation {quoted(stip)}: one of {sorted(STIPULATIONS)}.")
    if not any(card.per_side <= size for card in MATCH_CARDS.values()):
        raise _bad("No Match card can be played with that many Superstars.")
    return plan


def draft_order(first: int, per_team: int) -> list[int]:
    """SS-117/118/119: first team one pick, the other two, then one at a time; no team
    ever goes past `per_team` (with one a team, the 'two' becomes one)."""
    order, counts = [], [0, 0]
    turns = [first, 1 - first, 1 - first]
    while len(turns) < 4 * per_team:
        turns.append(first if len(turns) % 2 == 1 else 1 - first)
    for team in turns:
        if counts[team] < per_team:
            order.append(team)
            counts[team] += 1
    return order


@dataclass
class MatchRecord:
    """One Match of the Event as it was set and played."""

    card: str | None = None
    stipulation: str | None = None
    sent: list[list[int] | None] = field(default_factory=lambda: [None, None])  # roster slots
    winner: int | None = None
    draw: bool = False
    finished: bool = False
    defeated: list[int] = field(default_factory=lambda: [0, 0])  # rivals each team defeated
    points: list[int] = field(default_factory=lambda: [0, 0])
    bonus_points: list[int] = field(default_factory=lambda: [0, 0])
    stacks: list[int] = field(default_factory=lambda: [0, 0])
    bought: list[list[str]] = field(default_factory=lambda: [[], []])

    def clone(self) -> MatchRecord:
        return replace(self, sent=[list(x) if x is not None else None for x in self.sent],
                       defeated=list(self.defeated), points=list(self.points),
                       bonus_points=list(self.bonus_points), stacks=list(self.stacks),
                       bought=[list(b) for b in self.bought])


@dataclass
class EventInfo:
    """The Event around the current Match (only events have one)."""

    plan: Plan
    first_pick: int | None = None
    picks: list[int] = field(default_factory=list)  # the draft's team order
    rosters: list[list[str]] = field(default_factory=lambda: [[], []])  # Superstar keys
    bonus: list[list[list[str]]] = field(default_factory=list)  # team -> slot -> bonus keys
    matches: list[MatchRecord] = field(default_factory=list)
    current: int = 0  # index of the Match being set, played or paid out
    used_cards: list[str] = field(default_factory=list)  # drawn Match cards this cycle
    used_stipulations: list[str] = field(default_factory=list)
    stack_left: list[int] = field(default_factory=lambda: [0, 0])  # during the bonus phase
    pool: list[str] = field(default_factory=lambda: list(BONUS_CARDS))  # unbought cards

    def clone(self) -> EventInfo:
        return replace(
            self, picks=list(self.picks), rosters=[list(r) for r in self.rosters],
            bonus=[[list(s) for s in team] for team in self.bonus],
            matches=[m.clone() for m in self.matches], used_cards=list(self.used_cards),
            used_stipulations=list(self.used_stipulations),
            stack_left=list(self.stack_left), pool=list(self.pool))

    @property
    def record(self) -> MatchRecord:
        return self.matches[self.current]

    def card(self) -> MatchCard:
        key = self.record.card
        assert key is not None
        return MATCH_CARDS[key]

    def stipulation(self) -> Stipulation:
        key = self.record.stipulation
        assert key is not None
        return STIPULATIONS[key]

    def totals(self, team: int) -> tuple[int, int]:
        """(match points, bonus points) so far."""
        return (sum(m.points[team] for m in self.matches),
                sum(m.bonus_points[team] for m in self.matches))

    def wins(self, team: int) -> int:
        return sum(1 for m in self.matches if m.finished and m.winner == team)

    def drawable_cards(self) -> list[str]:
        """Match cards the rosters allow, not drawn yet this cycle (reshuffled when out)."""
        size = self.plan.superstars_per_team
        allowed = [k for k, c in MATCH_CARDS.items() if c.per_side <= size]
        left = [k for k in allowed if k not in self.used_cards]
        return left or allowed

    def drawable_stipulations(self) -> list[str]:
        left = [k for k in STIPULATIONS if k not in self.used_stipulations]
        return left or list(STIPULATIONS)

    def event_winner(self) -> int | None:
        """SS-130/SS-131: most Ranking Points; then most Matches won; else a draw."""
        keys = [(sum(self.totals(t)), self.wins(t)) for t in (0, 1)]
        if keys[0] == keys[1]:
            return None
        return 0 if keys[0] > keys[1] else 1


def points_for(card: MatchCard, record: MatchRecord, team: int) -> int:
    """SS-134 and our Match cards: win, loss or draw, plus a Gauntlet's defeats."""
    base = card.draw if record.draw else (card.win if record.winner == team else card.loss)
    return base + card.per_defeat * record.defeated[team]
