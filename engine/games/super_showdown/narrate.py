"""The history in plain English, for everybody: it never names a card before it is revealed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.super_showdown.board import Square
from engine.games.super_showdown.cards import Colour
from engine.games.super_showdown.state import (
    SEAT_NAMES,
    ActionType,
    GameRecord,
    Move,
    Phase,
    Showdown,
    ShowdownKind,
    State,
    WinReason,
    parse_action,
)
from engine.protocol import JSON, Event, EventKind

if TYPE_CHECKING:
    from engine.games.super_showdown.rules import SuperShowdownRules


def who(state: State, seat: int) -> str:
    """A seat's name with its role, e.g. 'Red (Villain)'."""
    if state.hero is None:
        return SEAT_NAMES[seat]
    return f"{SEAT_NAMES[seat]} ({'Hero' if seat == state.hero else 'Villain'})"


def square(sq: Square | None) -> str:
    """A square as people read it."""
    return "nowhere" if sq is None else f"({sq[0]}, {sq[1]})"


def narrate(rules: SuperShowdownRules, before: State, event: Event) -> list[str]:
    """Describe one event: what happened, then any Showdown, game end or new round."""
    after = rules.apply(before, event)
    if event.kind is EventKind.CHANCE:
        lines = _dealt(after) if before.phase is Phase.DEAL else _rolled(before, after)
    else:
        assert event.seat is not None and event.action is not None
        lines = _decided(before, event.seat, event.action)
    if after.phase is Phase.SPEED_CHOICE and before.phase is not Phase.SPEED_CHOICE:
        lines += _revealed(rules, after.played)
        lines += _speed_started(after)
    settled = _settled(before, after)
    if settled is not None:
        if before.phase is not Phase.SPEED_CHOICE:
            lines += _revealed(rules, settled.cards)
        lines += _showdown(rules, settled)
    if len(after.games) > len(before.games):
        lines += _game_ended(before, after.games[-1])
        if after.phase is Phase.OVER and after.best_of > 1:  # (a single game's is the line above)
            lines.append(series_summary(after))
    elif after.round > before.round > 0:
        lines.append(f"Round {after.round} began: {who(after, after.starter or 0)} starts.")
    return lines


def _dealt(after: State) -> list[str]:
    """The deal: who became the Hero and who the Villain (the hands stay secret)."""
    assert after.hero is not None
    hero, villain = after.hero, 1 - after.hero
    game = f"Game {after.game_number}: the" if after.best_of > 1 else "The"
    return [
        f"{game} 18 Superpower cards were dealt, nine to each super.",
        f"{SEAT_NAMES[hero]} held five or more white cards and became the Hero, with the "
        f"white scanner die; {SEAT_NAMES[villain]} became the Villain, with the green "
        "rumors die.",
        f"Both markers were set on their starting spaces; {who(after, villain)} starts "
        "round 1.",
    ]


def _rolled(before: State, after: State) -> list[str]:
    """A die roll, and the Mayhem once both dice are down."""
    roller = before.actor()
    assert roller is not None
    colour = before.colour_of(roller)
    face = after.dice[0] if colour is Colour.WHITE else after.dice[1]
    line = f"{who(before, roller)} rolled the {colour} die: {face}."
    mayhem = after.mayhem
    if mayhem is None:
        where = "column" if colour is Colour.WHITE else "row"
        return [line, f"Mayhem may break out in {where} {face}."]
    return [line, f"Mayhem broke out at {square(mayhem)}."]


def _decided(before: State, seat: int, action: JSON) -> list[str]:
    """A move, a face-down play or a Speed choice."""
    name = who(before, seat)
    if action.get("type") == ActionType.PLAY_CARD:
        return [f"{name} played a card face down."]
    if action.get("type") == ActionType.CHOOSE_OUTCOME:
        return [f"{name} chose which cards were victorious and which were defeated."]
    start, end = before.positions[seat], parse_action(action)
    assert isinstance(end, Move)
    if end.to == before.positions[1 - seat]:
        return [f"{name} moved into {SEAT_NAMES[1 - seat]}'s space at {square(end.to)}: "
                "no more movement this round."]
    if start == end.to:
        return [f"{name} stayed at {square(start)}."]
    return [f"{name} moved from {square(start)} to {square(end.to)}."]


def _settled(before: State, after: State) -> Showdown | None:
    """The Showdown this event settled, if any."""
    if len(after.games) > len(before.games):
        return after.games[-1].last_showdown
    if after.last_showdown is not before.last_showdown:
        return after.last_showdown
    return None


def _revealed(rules: SuperShowdownRules, cards: tuple[str | None, ...]) -> list[str]:
    """'Flip cards over': both cards named, now that they are public."""
    shown = [f"{SEAT_NAMES[seat]}'s {rules.cards[c].label}"
             for seat, c in enumerate(cards) if c is not None]
    return [f"The cards were revealed: {' and '.join(shown)}."]


def _speed_started(after: State) -> list[str]:
    """Speed: who reached the Mayhem and who chooses."""
    on_mayhem = after.positions.index(after.mayhem)
    chooser = after.chooser
    assert chooser is not None
    lines = [f"Speed! {who(after, on_mayhem)} reached the Mayhem."]
    if chooser != on_mayhem:
        lines.append(f"{who(after, chooser)} played a Decoy!, so {SEAT_NAMES[chooser]} "
                     "chooses the outcome.")
    else:
        lines.append(f"{SEAT_NAMES[chooser]} chooses the outcome.")
    return lines


TWISTS = {
    "ray_gun": "The Ray-Gun made the green cards victorious and the white cards defeated.",
    "ray_gun_reversed": "The Ray-Gun fired, but a Decoy! reversed it: BAM! White cards "
                        "victorious, green cards defeated.",
    "tie": "Equal numbers in different colours: neither card was high, so both were "
           "defeated.",
    "over_19": "The same-colour cards added up to more than 19, so they were defeated.",
}
OPENERS = {
    ShowdownKind.BRAWN: "Brawn! The supers shared a space.",
    ShowdownKind.WITS: "Wits! Neither super reached the Mayhem.",
    ShowdownKind.SPEED: "",
}


def _showdown(rules: SuperShowdownRules, showdown: Showdown) -> list[str]:
    """Which Showdown it was and where each card went."""
    lines = [OPENERS[showdown.kind]] if OPENERS[showdown.kind] else []
    if showdown.twist:
        lines.append(TWISTS[showdown.twist])

    def names(ids: tuple[str, ...]) -> str:
        return ", ".join(rules.cards[c].label for c in ids) or "none"

    lines.append(f"Victorious: {names(showdown.victorious)}. "
                 f"Defeated: {names(showdown.defeated)}.")
    if showdown.kind is ShowdownKind.BRAWN:
        lines.append("Both markers returned to their starting spaces.")
    return lines


def _why(record: GameRecord, colour: Colour) -> str:
    """Why a game was won, in words."""
    return {
        WinReason.FIVE_VICTORIOUS: f"five {colour} cards were victorious",
        WinReason.FIVE_DEFEATED: f"five {colour.other} cards were defeated",
        WinReason.BOTH_MORE_CARDS: "both supers reached a win at once, and more cards "
                                   "counted for them",
        WinReason.CARDS_EXHAUSTED: "the cards ran out, and more cards counted for them",
        WinReason.BOTH_DRAW: "it was a draw",
    }[record.reason]


def _game_ended(before: State, record: GameRecord) -> list[str]:
    """Who won the game, and why."""
    number = f"game {record.number}" if before.best_of > 1 else "the game"
    if record.winner is None:
        return [f"Both supers reached a win at once with as many cards each: {number} "
                "was a draw."]
    colour = before.colour_of(record.winner)
    assert colour is not None
    return [f"{who(before, record.winner)} won {number}: {_why(record, colour)}."]


def series_summary(state: State) -> str:
    """One line on how the series (or single game) ended."""
    wins = [sum(g.winner == seat for g in state.games) for seat in (0, 1)]
    if state.best_of == 1:
        record = state.games[-1]
        if record.winner is None:
            return "The game was a draw."
        colour = Colour.WHITE if record.winner == record.hero else Colour.GREEN
        return f"{SEAT_NAMES[record.winner]} won the game: {_why(record, colour)}."
    if wins[0] == wins[1]:
        return f"The best of {state.best_of} was drawn {wins[0]}-{wins[1]}."
    top = 0 if wins[0] > wins[1] else 1
    return f"{SEAT_NAMES[top]} won the best of {state.best_of}, {wins[top]}-{wins[1 - top]}."
