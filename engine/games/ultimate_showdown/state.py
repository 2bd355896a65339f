"""The game state (immutable), the phases, the action types and the bracket's shape."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

HAND_SIZE = 4
ROUNDS = 5
ULTIMATE = 5  # the fifth round, the Ultimate Showdown
SLOTS = 8
MATCHES = 7
SPACES = ("A", "B")
SEAT_NAMES = ("Red", "Green", "Yellow", "Purple", "Pink", "Teal", "Grey", "Brown")
STAGES = ("quarter-final",) * 4 + ("semi-final",) * 2 + ("final",)


class Phase(StrEnum):
    """Where a game stands, in the rulebook's order."""

    SETUP = "setup"  # chance: shuffle both decks, deal four each, the POW! marker
    CHOOSE_SIDES = "choose_sides"  # the round leader picks a side of each drawn card
    CHALLENGE_VOTE = "challenge_vote"  # everyone at once: A or B
    PLAY = "play"  # everyone at once: Contenders face down into Box A and Box B
    SLOTS = "slots"  # chance: Box B shuffled into Box A, the eight dealt to slots 1-8
    BET = "bet"  # everyone at once, one chip at a time: Champion, Final, Semi-Final
    MATCH = "match"  # everyone at once: a vote on the current match
    DISCARD = "discard"  # everyone at once: any cards out of hand, then draw to four
    SUDDEN_DEATH = "sudden_death"  # everyone at once: a vote between two tied players
    OVER = "over"


class ActionType(StrEnum):
    CHOOSE_SIDES = "choose_sides"
    VOTE_CHALLENGE = "vote_challenge"
    PLAY_CONTENDERS = "play_contenders"
    BET = "bet"
    VOTE_MATCH = "vote_match"
    DISCARD = "discard"
    VOTE_PLAYER = "vote_player"


class Box(StrEnum):
    """The three betting boxes, in the order the rulebook lists them."""

    CHAMPION = "champion"
    FINAL = "final"
    SEMI = "semi"


BOXES = tuple(Box)
PHASE_ACTIONS = {
    Phase.CHOOSE_SIDES: ActionType.CHOOSE_SIDES,
    Phase.CHALLENGE_VOTE: ActionType.VOTE_CHALLENGE,
    Phase.PLAY: ActionType.PLAY_CONTENDERS,
    Phase.BET: ActionType.BET,
    Phase.MATCH: ActionType.VOTE_MATCH,
    Phase.DISCARD: ActionType.DISCARD,
    Phase.SUDDEN_DEATH: ActionType.VOTE_PLAYER,
}


def box_counts(n_seats: int) -> tuple[int, int]:
    """Contenders each player puts into Box A and Box B (US-14..16)."""
    if n_seats == 3:
        return (2, 1)
    if n_seats == 8:
        return (1, 0)
    return (1, 1)


def uses_pow(n_seats: int) -> bool:
    """The POW! marker is used with an even number of players (US-06)."""
    return n_seats % 2 == 0


def pairing(match: int, winners: tuple[int, ...]) -> tuple[int, int]:
    """The (orange, blue) slots of a match: #1 v #2 ... then winner v winner (US-26, 29, 30).

    US-32: the lower slot of each pair, or the winner from the upper half of the bracket,
    is orange; the other is blue.
    """
    if match < 4:
        return (2 * match + 1, 2 * match + 2)
    first = 2 * (match - 4)
    return (winners[first], winners[first + 1])


@dataclass(frozen=True)
class Vote:
    """A revealed simultaneous vote: each seat's ballot, the tally, the winner."""

    ballots: tuple[str | int, ...]
    options: tuple[str | int, ...]
    counts: tuple[int, ...]
    winner: str | int
    pow_seat: int | None = None  # set when the POW! holder's double vote broke a tie


@dataclass(frozen=True)
class RoundRecord:
    """A scored round, public once scored."""

    number: int
    challenge: str
    slots: tuple[str, ...]
    owners: tuple[int | None, ...]
    winners: tuple[int, ...]
    matches: tuple[Vote, ...]
    bets: tuple[tuple[int, int, int], ...]
    points: tuple[tuple[int, int, int, int], ...]  # per seat: champion, final, semi, owner

    @property
    def champion(self) -> int:
        return self.winners[-1]

    @property
    def runner_up(self) -> int:
        orange, blue = pairing(6, self.winners)
        return blue if self.champion == orange else orange


@dataclass(frozen=True)
class SuddenDeath:
    """The tie-break for first place: tied players meet two at a time (US-53/54)."""

    tied: tuple[int, ...]
    orange: int
    blue: int
    queue: tuple[int, ...]
    card: str
    challenge: str
    ballots: tuple[int | None, ...]
    votes: tuple[Vote, ...] = ()
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a game; never mutated (apply builds a new one)."""

    n: int
    phase: Phase = Phase.SETUP
    round: int = 0
    pow_holder: int | None = None
    deck: tuple[str, ...] = ()  # Contender draw pile, top first (hidden)
    challenge_deck: tuple[str, ...] = ()  # Challenge cards, top first (hidden order)
    hands: tuple[tuple[str, ...], ...] = ()
    discard: tuple[str, ...] = ()  # revealed Contenders out of play (public)
    hidden_discard: tuple[tuple[str, ...], ...] = ()  # per seat, never revealed
    challenge_discard: tuple[str, ...] = ()
    drawn: tuple[str, ...] = ()  # Challenge cards drawn this round (A, B) or one in round 5
    choices: tuple[str, ...] = ()  # the chosen side ids on spaces A and B
    challenge: str | None = None  # this round's Challenge (a side id)
    challenge_ballots: tuple[str | None, ...] = ()
    challenge_vote: Vote | None = None
    boxes: tuple[tuple[tuple[str, ...], tuple[str, ...]] | None, ...] = ()
    slots: tuple[str, ...] = ()  # slot 1 first
    owners: tuple[int | None, ...] = ()  # by slot (hidden except the viewer's own)
    bets: tuple[tuple[int | None, int | None, int | None], ...] = ()
    winners: tuple[int, ...] = ()  # the winning slot of each decided match
    ballots: tuple[int | None, ...] = ()  # the current match's secret votes
    votes: tuple[Vote, ...] = ()  # revealed votes of this round's decided matches
    kept: tuple[str, ...] = ()  # first and second places waiting for round five
    history: tuple[RoundRecord, ...] = ()
    discarded: tuple[bool, ...] = ()
    sudden: SuddenDeath | None = None

    @property
    def match(self) -> int:
        """The index (0-6) of the match being voted on."""
        return len(self.winners)

    @property
    def leader(self) -> int:
        """The round's leader, who picks the Challenge sides (US-10, US-47)."""
        return (self.round - 1) % self.n

    def scores(self) -> tuple[int, ...]:
        """Every seat's total so far."""
        return tuple(sum(sum(r.points[s]) for r in self.history) for s in range(self.n))

    def round_points(self, seat: int) -> list[int]:
        """A seat's points by round (rounds not yet scored are left out)."""
        return [sum(r.points[seat]) for r in self.history]
