"""Game key -> rules object, and the bots each game offers.

Every game offers four strength levels: `random`, its own `heuristic` (registered by
the game package), and `search-easy` and `search-hard`, the information-set search
(`engine.bots.ismcts`) with the heuristic as policy and the budgets and leaf value the
game declares (`engine.bots.levels`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.bots import Bot, RandomBot
from engine.bots.levels import DEFAULT, Level, search_bots
from engine.protocol import BaseRules, IllegalAction, quoted

BotFactory = Callable[[], Bot]

_GAMES: dict[str, BaseRules[Any]] = {}
_BOTS: dict[str, dict[str, BotFactory]] = {}
_LEVELS: dict[str, dict[str, Level]] = {}


def register_game(rules: BaseRules[Any], bots: dict[str, BotFactory] | None = None,
                  search: dict[str, Level] | None = None) -> None:
    """Declare a game once; every game gets `random` and the two search levels (the
    game's `search` levels, else the default), which play out with the game's
    `heuristic` (or at random when it has none)."""
    key = rules.spec.key
    own = dict(bots or {})
    _GAMES[key] = rules
    _LEVELS[key] = search or DEFAULT
    _BOTS[key] = {"random": RandomBot,
                  **search_bots(own.get("heuristic", RandomBot), _LEVELS[key]), **own}


def _load() -> None:
    # Importing a game package registers it.
    from engine.games import (  # noqa: F401
        royal_rumble,
        super_showdown,
        supershow,
        superstar_showdown,
        ultimate_showdown,
    )


def games() -> dict[str, BaseRules[Any]]:
    """Every registered game by key."""
    _load()
    return dict(_GAMES)


def get_rules(key: str) -> BaseRules[Any]:
    """The rules of a game; an unknown key is refused with code `unknown_game`."""
    _load()
    try:
        return _GAMES[key]
    except KeyError:
        raise IllegalAction("unknown_game", f"No game called {quoted(key)}.") from None


def title(key: str) -> str:
    """A game's name as players read it (its key, for a key no game has)."""
    _load()
    return _GAMES[key].spec.title if key in _GAMES else key


def search_levels(key: str) -> dict[str, Level]:
    """The search levels a game plays `search-easy` and `search-hard` with."""
    get_rules(key)
    return _LEVELS[key]


def bot_names(key: str) -> list[str]:
    """The bots a game offers, by name."""
    get_rules(key)
    return sorted(_BOTS[key])


def get_bot(key: str, name: str) -> Bot:
    """A fresh bot; an unknown name is refused with code `unknown_bot`."""
    get_rules(key)
    try:
        return _BOTS[key][name]()
    except KeyError:
        raise IllegalAction("unknown_bot", f"{title(key)} has no bot called {quoted(name)}.") from None
