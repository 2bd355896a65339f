"""Superstar Showdown Events in the league: presets, composed Events and their seats.

A Superstar Showdown Event (SS-127) is one match stream of `superstar_showdown` whose
options carry `"event"`: a preset's key (SS-160..SS-162) or a composed
`{"matches": [{"match": key | None, "stipulation": key | None}, ...],
"superstars_per_team": n}`, where None is drawn at random before that Match (SS-128,
SS-129). The league runs it as a `showdown_series` Event of two entrants, Red (the first
seed) and Blue.

Seats: every member of a team entrant takes a seat (a team is 1-3 players, SS-114), a
player entrant one seat, and a bot entrant one bot seat that plays for its whole side
(as one person may play all of a team's Superstars). Red holds the even seats and Blue the
odd ones; when the sides differ in size, the longer side's extra seats come last and the
engine hears who is on which side through the `teams` option.

Refusals raise `IllegalAction(code, message)` like the engine's own option checks; the
league turns them into `LeagueError`s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.games.superstar_showdown.cards import ROSTER
from engine.games.superstar_showdown.event import (
    MATCH_CARDS,
    MAX_MATCHES,
    MAX_PER_TEAM,
    MIN_MATCHES,
    PRESETS,
    STIPULATIONS,
    preset_key,
    read_event_options,
)
from engine.protocol import IllegalAction, quoted

GAME = "superstar_showdown"
FORMAT = "showdown_series"
TEAM_NAMES = ("Red", "Blue")
DEFAULT_PER_TEAM = MAX_PER_TEAM


def preset_titles() -> dict[str, str]:
    """Preset key -> title, in the engine's order."""
    return {key: preset.title for key, preset in PRESETS.items()}


def match_card_titles() -> dict[str, str]:
    """Match card key -> title."""
    return {key: card.title for key, card in MATCH_CARDS.items()}


def stipulation_titles() -> dict[str, str]:
    """Stipulation key -> title."""
    return {key: stip.title for key, stip in STIPULATIONS.items()}


def superstar_name(key: str) -> str:
    """A Superstar's name (the key itself if the roster no longer has it)."""
    found = ROSTER.get(key)
    return found.name if found is not None else key


def is_event(game: str, options: Mapping[str, Any] | None) -> bool:
    """Whether a match of `game` with these options is a Superstar Showdown Event."""
    return game == GAME and bool((options or {}).get("event"))


# -- the `event` option --------------------------------------------------------------------

def event_option(*, preset: str | None = None, matches: Any = None,
                 superstars_per_team: Any = None) -> str | dict[str, Any]:
    """The engine's `event` option for a preset, or for Matches composed one by one."""
    if preset:
        if matches is not None or superstars_per_team is not None:
            raise IllegalAction("preset_or_compose",
                                "Choose a preset or compose the Matches, not both.")
        check_event(preset)
        return preset_key(preset) or preset  # a preset's earlier key gives today's
    composed = {"matches": matches,
                "superstars_per_team": DEFAULT_PER_TEAM if superstars_per_team is None
                else superstars_per_team}
    check_event(composed)
    return composed


def check_event(value: Any) -> None:
    """Refuse an `event` option the league or the engine would not run, naming why."""
    if isinstance(value, str):
        if preset_key(value) is None:
            raise IllegalAction("unknown_preset", f"No Event preset {quoted(value)}: one of "
                                                  f"{', '.join(PRESETS)}.")
    elif isinstance(value, Mapping):
        _check_composed(value)
    else:
        raise IllegalAction("bad_event", "An Event is a preset's key or "
                                         '{"matches": [...], "superstars_per_team": n}.')
    read_event_options(value)  # the engine has the last word


def _check_composed(value: Mapping[str, Any]) -> None:
    unknown = sorted(set(value) - {"matches", "superstars_per_team"})
    if unknown:
        raise IllegalAction("bad_event", f"An Event has no field {quoted(unknown[0])}.")
    size = value.get("superstars_per_team", DEFAULT_PER_TEAM)
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_PER_TEAM:
        raise IllegalAction("bad_superstars_per_team",
                            f"Each team drafts 1-{MAX_PER_TEAM} Superstars, not {quoted(size)}.")
    matches = value.get("matches")
    if not isinstance(matches, list):
        raise IllegalAction("bad_event", "An Event lists its Matches.")
    if len(matches) < MIN_MATCHES:
        raise IllegalAction("too_few_matches", f"An Event is a series of at least "
                                               f"{MIN_MATCHES} Matches (SS-127).")
    if len(matches) > MAX_MATCHES:
        raise IllegalAction("too_many_matches", f"An Event has at most {MAX_MATCHES} "
                                                "Matches here.")
    for number, item in enumerate(matches, start=1):
        _check_match(number, item, size)


def _check_match(number: int, item: Any, size: int) -> None:
    """One Match of a composed Event: a known card (or None) and Stipulation (or None)."""
    if not isinstance(item, Mapping) or set(item) - {"match", "stipulation"}:
        raise IllegalAction("bad_event", f"Match {number} is "
                                         '{"match": card or null, "stipulation": key or null}.')
    card, stipulation = item.get("match"), item.get("stipulation")
    if card is not None and (not isinstance(card, str) or card not in MATCH_CARDS):
        raise IllegalAction("unknown_match_card", f"Match {number}: no Match card {quoted(card)} "
                                                  f"(one of {', '.join(MATCH_CARDS)}).")
    if stipulation is not None and (not isinstance(stipulation, str)
                                    or stipulation not in STIPULATIONS):
        raise IllegalAction("unknown_stipulation",
                            f"Match {number}: no Stipulation {quoted(stipulation)} "
                            f"(one of {', '.join(STIPULATIONS)}).")
    if card is not None and MATCH_CARDS[card].per_side > size:
        raise IllegalAction("too_few_superstars",
                            f"Match {number}: a {MATCH_CARDS[card].title} needs "
                            f"{MATCH_CARDS[card].per_side} Superstars a team; teams draft "
                            f"{size}.")


def describe(value: Any) -> str:
    """The Event option in words: "Full Card", or "3 Matches, 2 Superstars a team"."""
    if isinstance(value, str):
        return preset_titles().get(value, value)
    if isinstance(value, Mapping):
        count = len(value.get("matches") or [])
        size = value.get("superstars_per_team", DEFAULT_PER_TEAM)
        return f"{count} Matches, {size} Superstar{'s' if size != 1 else ''} a team"
    return ""


# -- seats ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    """A match's seats for two sides: who sits where, and whose side each seat is on."""

    seats: list[dict[str, str]]
    sides: list[int]  # 0 (Red) or 1 (Blue) for each seat

    def options(self, base: Mapping[str, Any]) -> dict[str, Any]:
        """The match options, with `teams` when the sides' sizes differ."""
        if self.sides.count(0) == self.sides.count(1):
            return dict(base)  # the engine's default: seat s plays for team s % 2
        return {**base, "teams": list(self.sides)}


def seat_sides(red: Sequence[dict[str, str]], blue: Sequence[dict[str, str]]) -> Table:
    """Red's seats on the even indexes, Blue's on the odd ones, a longer side's extras last."""
    if not red or not blue:
        raise IllegalAction("empty_side", "Each side needs at least one seat.")
    for side in (red, blue):
        if len(side) > MAX_PER_TEAM:
            raise IllegalAction("team_too_big", f"A team is 1-{MAX_PER_TEAM} players "
                                                "(SS-114).")
    seats: list[dict[str, str]] = []
    sides: list[int] = []
    for i in range(max(len(red), len(blue))):
        for team, side in enumerate((red, blue)):
            if i < len(side):
                seats.append(dict(side[i]))
                sides.append(team)
    return Table(seats, sides)
