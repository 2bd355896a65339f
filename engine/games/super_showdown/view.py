"""What each seat may see, and the event history as each viewer may read it.

Hiding lives here, apart from the rules: a seat sees its own hand and its own face-down
card; the nemesis' hand and unrevealed card appear only as counts and flags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.games.super_showdown.cards import Card
from engine.games.super_showdown.state import SEATS, ActionType, Phase, Showdown, State
from engine.protocol import JSON, Event, EventKind

if TYPE_CHECKING:
    from engine.games.super_showdown.rules import SuperShowdownRules

REFERENCE = (
    "Each round both supers play one card face down, any colour.",
    "Brawn (same space): the high card victorious, the low card defeated (two of one "
    "colour are both high, two of one number both low); then both return to their "
    "starting spaces. Ray-Gun: green victorious, white defeated; a Decoy! "
    "with it reverses that.",
    "Speed (one super on the Mayhem): that super chooses which cards are victorious "
    "and which defeated; if the other super played a Decoy!, the other super chooses.",
    "Wits (nobody on the Mayhem): the high card victorious, the low card defeated; "
    "same-colour cards add up and are both victorious, and over 19 both defeated.",
    "Win with 5 cards of your colour victorious or 5 of your nemesis' colour defeated.",
)


def _cards(rules: SuperShowdownRules, ids: tuple[str, ...] | list[str]) -> list[JSON]:
    """Card dicts in the given order."""
    return [rules.cards[c].to_json() for c in ids]


def _sorted_hand(rules: SuperShowdownRules, ids: tuple[str, ...]) -> list[JSON]:
    """A hand as shown: by colour, then number."""
    cards: list[Card] = sorted((rules.cards[c] for c in ids),
                               key=lambda card: (str(card.colour), card.number, card.id))
    return [card.to_json() for card in cards]


def _played(rules: SuperShowdownRules, state: State, seat: int, viewer: int | None) -> JSON:
    """A seat's played card: none, face down (shown only to its owner) or revealed."""
    card = state.played[seat]
    if card is None:
        return {"status": "none", "card": None}
    if state.revealed:
        return {"status": "revealed", "card": rules.cards[card].to_json()}
    shown = rules.cards[card].to_json() if viewer == seat else None
    return {"status": "face_down", "card": shown}


def _seat(rules: SuperShowdownRules, state: State, seat: int, viewer: int | None) -> JSON:
    """One seat's public facts (plus its own face-down card for its owner)."""
    colour = state.colour_of(seat)
    position = state.positions[seat]
    return {
        "seat": seat,
        "name": rules.spec.seat_names[seat],
        "role": None if colour is None else ("hero" if seat == state.hero else "villain"),
        "colour": None if colour is None else str(colour),
        "position": None if position is None else list(position),
        "hand_size": len(state.hands[seat]),
        "played": _played(rules, state, seat, viewer),
        "tally": state.tally(rules.cards, seat).to_json(),
        "games_won": sum(g.winner == seat for g in state.games),
    }


def _showdown(rules: SuperShowdownRules, showdown: Showdown | None) -> JSON | None:
    """The last settled Showdown of this game."""
    if showdown is None:
        return None
    return {
        "round": showdown.round,
        "kind": str(showdown.kind),
        "cards": _cards(rules, showdown.cards),
        "victorious": list(showdown.victorious),
        "defeated": list(showdown.defeated),
        "chooser": showdown.chooser,
        "twist": showdown.twist or None,
    }


def _series(state: State) -> JSON:
    """The series so far (no card ids: a re-deal may hand old cards to the nemesis)."""
    return {
        "best_of": state.best_of,
        "game": state.game_number,
        "games": [
            {"number": g.number, "hero": g.hero, "winner": g.winner, "reason": str(g.reason),
             "tallies": [t.to_json() for t in g.tallies]}
            for g in state.games
        ],
    }


def render_view(rules: SuperShowdownRules, state: State, viewer: int | None) -> JSON:
    """The whole view of one seat, or of a spectator when `viewer` is None."""
    mayhem = state.mayhem
    pending = rules.pending(state)
    return {
        "game": rules.spec.key,
        "viewer": viewer,
        "phase": str(state.phase),
        "series": _series(state),
        "round": state.round,
        "starter": state.starter,
        "seats": [_seat(rules, state, seat, viewer) for seat in SEATS],
        "dice": {"white": state.dice[0], "green": state.dice[1]},
        "mayhem": None if mayhem is None else list(mayhem),
        "met": state.met,
        "speed_chooser": state.chooser,
        "board": rules.board.to_json(),
        "hand": None if viewer is None else _sorted_hand(rules, state.hands[viewer]),
        "victory_pile": _cards(rules, state.victory),
        "defeat_pile": _cards(rules, state.defeat),
        "last_showdown": _showdown(rules, state.last_showdown),
        "pending": pending.to_json(),
        "reference": list(REFERENCE),
    }


def redact_event(state_before: State, event: Event, viewer: int | None) -> JSON:
    """A seat sees only its own part of the deal, and nobody else's face-down card."""
    if event.kind is EventKind.CHANCE:
        outcome: dict[str, Any] = dict(event.outcome or {})
        if state_before.phase is not Phase.DEAL:
            return event.to_json()  # a die roll is public
        deal = outcome.get("deal")
        hand = None
        if viewer in SEATS and isinstance(deal, list) and all(isinstance(c, str) for c in deal):
            half = len(deal) // 2
            hand = sorted(deal[:half] if viewer == 0 else deal[half:])
        return {"kind": "chance", "outcome": {"deal": "hidden", "hand": hand}}
    action = event.action or {}
    if action.get("type") == ActionType.PLAY_CARD and event.seat != viewer:
        hidden = {"type": str(ActionType.PLAY_CARD), "card": None, "face_down": True}
        return {"kind": "decision", "seat": event.seat, "action": hidden}
    return event.to_json()
