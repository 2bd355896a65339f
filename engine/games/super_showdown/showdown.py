"""The Showdown: which kind applies and where each played card goes. Pure functions."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from engine.games.super_showdown.board import Square
from engine.games.super_showdown.cards import Card, Colour, Power
from engine.games.super_showdown.state import ShowdownKind

WITS_LIMIT = 19  # 'If same color cards add up to more than 19... they are defeated!'


@dataclass(frozen=True)
class Split:
    """Which played cards are victorious and which defeated (ids in seat order)."""

    victorious: tuple[str, ...]
    defeated: tuple[str, ...]
    twist: str = ""


@dataclass(frozen=True)
class Ranking:
    """High card(s) and low card(s) of a reveal."""

    high: tuple[Card, ...]
    low: tuple[Card, ...]
    tie: bool = False


def kind_of(positions: tuple[Square, Square], mayhem: Square | None
            ) -> tuple[ShowdownKind, int | None]:
    """The Showdown kind and the seat on the Mayhem (SU-26, SU-27).

    Same space is Brawn even on the Mayhem; a super must end the move there to reach it.
    """
    if positions[0] == positions[1]:
        return ShowdownKind.BRAWN, None
    for seat, square in enumerate(positions):
        if square == mayhem:
            return ShowdownKind.SPEED, seat
    return ShowdownKind.WITS, None


def rank(cards: tuple[Card, Card]) -> Ranking:
    """'Adding same color cards into one high card. And then there is no low card.'

    Different colours with the same number: neither is higher, both count as low (SU-25).
    """
    a, b = cards
    if a.colour is b.colour:
        return Ranking(high=(a, b), low=())
    if a.number == b.number:
        return Ranking(high=(), low=(a, b), tie=True)
    high, low = (a, b) if a.number > b.number else (b, a)
    return Ranking(high=(high,), low=(low,))


def _ordered(cards: tuple[Card, Card], chosen: tuple[Card, ...]) -> tuple[str, ...]:
    """Ids of the chosen cards in seat order."""
    return tuple(card.id for card in cards if card in chosen)


def _split(cards: tuple[Card, Card], winners: tuple[Card, ...], twist: str = "") -> Split:
    """Winners victorious, every other played card defeated."""
    losers = tuple(card for card in cards if card not in winners)
    return Split(_ordered(cards, winners), _ordered(cards, losers), twist)


def _by_rank(cards: tuple[Card, Card]) -> Split:
    """High card(s) victorious, low card(s) defeated."""
    ranking = rank(cards)
    return _split(cards, ranking.high, "tie" if ranking.tie else "")


def wits(cards: tuple[Card, Card]) -> Split:
    """Wits: high victorious, low defeated, a same-colour sum over 19 defeated (SU-36..38)."""
    a, b = cards
    if a.colour is b.colour and a.number + b.number > WITS_LIMIT:
        return _split(cards, (), "over_19")
    return _by_rank(cards)


def brawn(cards: tuple[Card, Card]) -> Split:
    """Brawn: high victorious, low defeated; Ray-Gun and Decoy! twist it (SU-28..32)."""
    powers = {card.power for card in cards}
    if Power.RAY_GUN in powers:
        # 'Villain cards win, Hero cards lose. Unless a Decoy! is played... Reverse.'
        reversed_ = Power.DECOY in powers
        winner = Colour.WHITE if reversed_ else Colour.GREEN
        won = tuple(card for card in cards if card.colour is winner)
        return _split(cards, won, "ray_gun_reversed" if reversed_ else "ray_gun")
    return _by_rank(cards)


def speed_chooser(on_mayhem: int, cards: tuple[Card, Card]) -> int:
    """'If you did not reach the Mayhem and played any Decoy!, you choose the outcome.'"""
    other = 1 - on_mayhem
    return other if cards[other].power is Power.DECOY else on_mayhem


def speed_options(cards: tuple[Card, Card]) -> list[Split]:
    """Every outcome the Speed chooser may pick (SU-35).

    Each card may go either way, except that same-colour cards are one high card and
    share one fate.
    """
    a, b = cards
    if a.colour is b.colour:
        return [_split(cards, cards), _split(cards, ())]
    options = []
    for a_wins, b_wins in product((True, False), repeat=2):
        winners = tuple(card for card, wins in ((a, a_wins), (b, b_wins)) if wins)
        options.append(_split(cards, winners))
    return options
