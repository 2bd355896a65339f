"""What an attack amounts to and how hurt a Legend is: shared by rules, view and bots."""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.royal_rumble.cards import ROSTER, Effect, card
from engine.games.royal_rumble.state import State


@dataclass(frozen=True)
class Profile:
    """What an attack is once its Boost is added (RR-38/39) and who makes it (RR-70)."""

    type: str
    damage: int
    speed: int
    cheap_trick: bool
    unblockable: bool
    throw: bool
    recoil: int


def profile(s: State, attacker: int, attack: str, boost: str | None) -> Profile:
    """The whole attack: the Boost's effects are the attack's (RR-39)."""
    a = card(attack)
    b = card(boost) if boost else None
    effects = set(a.effects) | (set(b.effects) if b else set())
    cheap = Effect.CHEAP_TRICK in effects or s.players[attacker].out  # RR-70
    return Profile(str(a.type), a.damage + (b.damage if b else 0),
                   a.speed + (b.speed if b else 0), cheap, Effect.UNBLOCKABLE in effects,
                   Effect.OVER_THE_TOP in effects, a.recoil)


def health(s: State, seat: int) -> int:
    """The printed health of the seat's Legend (0 without one)."""
    legend = s.players[seat].legend
    return ROSTER[legend].health if legend else 0


def damage(s: State, seat: int) -> int:
    """Damage cards on the placard plus recoil (RR-26, RR-33)."""
    p = s.players[seat]
    return sum(card(c).damage for c in p.damage) + p.strain
