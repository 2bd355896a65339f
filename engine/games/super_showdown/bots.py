"""Bots for Super Showdown: a heuristic that reads only its own view, and a match runner.

The heuristic knows the public card list, so the nemesis' unseen cards are everything
it has not seen (its own hand, its own played card and the piles are what it has seen).
It values the piles by progress toward a five, averages over the nemesis' possible card,
and looks one move ahead for the last two moves of a round.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.bots.leaves import Views
from engine.bots.levels import levels
from engine.games.super_showdown.board import Board, Square, manhattan
from engine.games.super_showdown.cards import Card, CardSet, Colour
from engine.games.super_showdown.showdown import (
    Split,
    brawn,
    speed_chooser,
    speed_options,
    wits,
)
from engine.games.super_showdown.state import Phase
from engine.protocol import JSON, BaseRules

WIN = 40.0
PROGRESS = (0.0, 1.0, 2.1, 3.4, 5.0)  # worth of 0-4 cards toward a five
KEEP = 0.35  # how much a card is worth kept for a later round


class Outlook(StrEnum):
    """A Showdown kind seen from the bot's seat."""

    BRAWN = "brawn"
    WITS = "wits"
    SPEED_ME = "speed_me"  # the bot is on the Mayhem
    SPEED_THEM = "speed_them"  # the nemesis is on the Mayhem


Counts = tuple[int, int, int, int]  # white victorious, white defeated, green V, green D


@dataclass(frozen=True)
class Knowledge:
    """What the seat's view tells, in the bot's terms."""

    seat: int
    colour: Colour
    phase: Phase
    starter: int
    positions: tuple[Square, Square]
    dice: tuple[int | None, int | None]
    met: bool
    hand: tuple[Card, ...]
    played: Card | None
    pool: tuple[Card, ...]  # the nemesis' hand plus their unrevealed card
    counts: Counts

    @property
    def theirs(self) -> Square:
        """The nemesis' square."""
        return self.positions[1 - self.seat]


def _square(value: Any) -> Square:
    """A JSON [column, row] as a square."""
    return (int(value[0]), int(value[1]))


def read_view(view: JSON, cards: CardSet) -> Knowledge:
    """Turn a seat's view into Knowledge (no peeking at the state)."""
    seat = view["viewer"]
    me = view["seats"][seat]
    hand = tuple(cards[c["id"]] for c in view["hand"])
    played = me["played"]["card"]
    seen = {c.id for c in hand} | {c["id"] for c in view["victory_pile"]}
    seen |= {c["id"] for c in view["defeat_pile"]}
    if played is not None:
        seen.add(played["id"])
    pool = tuple(card for card in cards if card.id not in seen)
    counts: list[int] = [0, 0, 0, 0]
    for pile, won in ((view["victory_pile"], True), (view["defeat_pile"], False)):
        for card in pile:
            counts[(0 if card["colour"] == Colour.WHITE else 2) + (0 if won else 1)] += 1
    return Knowledge(
        seat=seat,
        colour=Colour(me["colour"]),
        phase=Phase(view["phase"]),
        starter=view["starter"],
        positions=(_square(view["seats"][0]["position"]), _square(view["seats"][1]["position"])),
        dice=(view["dice"]["white"], view["dice"]["green"]),
        met=view["met"],
        hand=hand,
        played=None if played is None else cards[played["id"]],
        pool=pool,
        counts=(counts[0], counts[1], counts[2], counts[3]),
    )


def _side(victorious: int, defeated: int) -> float:
    """One side's worth: a five wins outright, otherwise progress on both counts."""
    if victorious >= 5 or defeated >= 5:
        return WIN
    return PROGRESS[victorious] + PROGRESS[defeated]


def worth(counts: Counts, colour: Colour) -> float:
    """The piles' worth to the side playing `colour` (zero-sum)."""
    white = _side(counts[0], counts[3])  # white victorious, green defeated
    green = _side(counts[2], counts[1])  # green victorious, white defeated
    return white - green if colour is Colour.WHITE else green - white


def after_split(counts: Counts, split: Split, cards: CardSet | Mapping[str, Card]) -> Counts:
    """The counts once a split is on the piles."""
    c = list(counts)
    for ids, won in ((split.victorious, True), (split.defeated, False)):
        for card_id in ids:
            c[(0 if cards[card_id].colour is Colour.WHITE else 2) + (0 if won else 1)] += 1
    return (c[0], c[1], c[2], c[3])


@functools.lru_cache(maxsize=1 << 16)
def showdown_value(mine: Card, theirs: Card, outlook: Outlook, me: int, counts: Counts,
                   colour: Colour) -> float:
    """Worth to seat `me` (playing `colour`, piles at `counts`) of one Showdown with these
    two cards: a pure function of its arguments, so kept across decisions (search bots
    ask it millions of times)."""
    by_id = {mine.id: mine, theirs.id: theirs}
    cards = (mine, theirs) if me == 0 else (theirs, mine)

    def after(split: Split) -> float:
        return worth(after_split(counts, split, by_id), colour)

    if outlook is Outlook.BRAWN:
        return after(brawn(cards))
    if outlook is Outlook.WITS:
        return after(wits(cards))
    on_mayhem = me if outlook is Outlook.SPEED_ME else 1 - me
    options = [after(split) for split in speed_options(cards)]
    return max(options) if speed_chooser(on_mayhem, cards) == me else min(options)


class Evaluator:
    """Showdown values for the bot's seat, memoised within one decision."""

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        self._memo: dict[tuple[str, str, Outlook], float] = {}
        self._expected: dict[tuple[str, Outlook], float] = {}

    def value(self, mine: Card, theirs: Card, outlook: Outlook) -> float:
        """Worth to the bot of one Showdown with these two cards."""
        key = (mine.id, theirs.id, outlook)
        if key not in self._memo:
            know = self.know
            self._memo[key] = showdown_value(mine, theirs, outlook, know.seat, know.counts,
                                             know.colour)
        return self._memo[key]

    def expected(self, mine: Card, outlook: Outlook) -> float:
        """Average over the nemesis' possible cards."""
        key = (mine.id, outlook)
        if key not in self._expected:
            pool = self.know.pool
            self._expected[key] = sum(self.value(mine, c, outlook)
                                      for c in pool) / max(1, len(pool))
        return self._expected[key]

    def best(self, outlook: Outlook) -> float:
        """Worth of an outlook when the bot still picks its card."""
        return max(self.expected(card, outlook) for card in self.know.hand)


def outlook_at(me: int, positions: tuple[Square, Square], mayhem: Square | None) -> Outlook:
    """The Showdown the final squares give, seen from `me`."""
    if positions[0] == positions[1]:
        return Outlook.BRAWN
    if positions[me] == mayhem:
        return Outlook.SPEED_ME
    if positions[1 - me] == mayhem:
        return Outlook.SPEED_THEM
    return Outlook.WITS


def predict(board: Board, know: Knowledge, starter_sq: Square, nemesis_sq: Square,
            mayhem: Square) -> Outlook:
    """A rough guess at the end of a round once Mayhem is known.

    The nemesis moves first and takes the Mayhem if it can; the starter, moving last,
    follows it into a Brawn if it can, or else takes the Mayhem for itself.
    """
    nemesis_reaches = manhattan(nemesis_sq, mayhem) <= board.step_limit(nemesis_sq)
    starter_reaches = manhattan(starter_sq, mayhem) <= board.step_limit(starter_sq)
    i_start = know.seat == know.starter
    if nemesis_reaches:
        if starter_reaches:
            return Outlook.BRAWN
        return Outlook.SPEED_THEM if i_start else Outlook.SPEED_ME
    if starter_reaches:
        return Outlook.SPEED_ME if i_start else Outlook.SPEED_THEM
    return Outlook.WITS


def possible_mayhems(know: Knowledge) -> list[Square]:
    """Mayhem squares still possible with one die rolled."""
    white, green = know.dice
    if white is not None and green is not None:
        return [(white, green)]
    if white is not None:
        return [(white, row) for row in range(1, 7)]
    return [(col, green or 1) for col in range(1, 7)]


class HeuristicBot:
    """Moves for the Mayhem or into the nemesis when it pays, plays the card worth most."""

    name = "heuristic"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        """One legal action, from what `seat` may see only."""
        legal = rules.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        cards: CardSet = getattr(rules, "cards")  # noqa: B009 - the public card list
        board: Board = getattr(rules, "board")  # noqa: B009 - the public board
        know = read_view(rules.view(state, seat), cards)
        scorer = self._scorer(know, cards, board)
        scores = [scorer(action) for action in legal]
        top = max(scores)
        best = [a for a, s in zip(legal, scores, strict=True) if s >= top - 1e-9]
        return best[0] if len(best) == 1 else rng.choice(best)

    def _scorer(self, know: Knowledge, cards: CardSet, board: Board) -> Callable[[JSON], float]:
        """The scoring function for this phase's actions."""
        ev = Evaluator(know)
        if know.phase is Phase.SPEED_CHOICE:
            return lambda a: worth(after_split(know.counts, Split(
                tuple(a["victorious"]), tuple(a["defeated"])), cards), know.colour)
        if know.phase is Phase.PLAY:
            weights = self._outlook_weights(know, board)
            return lambda a: self._card_score(ev, weights, cards[a["card"]])
        if know.phase is Phase.STARTER_SECOND_MOVE:
            return lambda a: self._last_move(ev, know, _square(a["to"]))
        if know.phase is Phase.NEMESIS_SECOND_MOVE:
            return lambda a: self._answered_move(ev, know, board, _square(a["to"]))
        return lambda a: self._first_move(ev, know, board, _square(a["to"]))

    # -- cards --------------------------------------------------------------------
    def _outlook_weights(self, know: Knowledge, board: Board) -> dict[Outlook, float]:
        """How likely each Showdown is, seen at card time."""
        if know.met:
            return {Outlook.BRAWN: 1.0}
        weights: dict[Outlook, float] = {}
        squares = possible_mayhems(know)
        starter_sq = know.positions[know.starter]
        nemesis_sq = know.positions[1 - know.starter]
        for mayhem in squares:
            outlook = predict(board, know, starter_sq, nemesis_sq, mayhem)
            weights[outlook] = weights.get(outlook, 0.0) + 1 / len(squares)
        return weights

    def _card_score(self, ev: Evaluator, weights: dict[Outlook, float], card: Card) -> float:
        """Expected worth now, less what the card would be worth kept for later."""
        now = sum(w * ev.expected(card, outlook) for outlook, w in weights.items())
        return now - KEEP * ev.expected(card, Outlook.WITS)

    # -- moves --------------------------------------------------------------------
    def _last_move(self, ev: Evaluator, know: Knowledge, to: Square) -> float:
        """The round's last move: the Showdown is known but for the nemesis' card."""
        assert know.played is not None
        positions = _with(know, know.seat, to)
        mayhem = possible_mayhems(know)[0]
        return ev.expected(know.played, outlook_at(know.seat, positions, mayhem))

    def _answered_move(self, ev: Evaluator, know: Knowledge, board: Board, to: Square) -> float:
        """The nemesis answers this move, knowing its own card but not the bot's."""
        assert know.played is not None
        mayhem = possible_mayhems(know)[0]
        positions = _with(know, know.seat, to)
        if to == know.theirs:
            return ev.expected(know.played, Outlook.BRAWN)
        other = 1 - know.seat
        # In reachable order, not a set's: `min` keeps the first of equals, and a set of
        # StrEnums iterates by string hash, which differs from process to process.
        answers = list(dict.fromkeys(
            outlook_at(know.seat, _with(know, other, sq, positions), mayhem)
            for sq in board.reachable(know.theirs, to)))
        mine_seen_by_them = (*know.hand, know.played)
        total = 0.0
        for theirs in know.pool:
            picked = min(answers, key=lambda o: sum(
                ev.value(m, theirs, o) for m in mine_seen_by_them))
            total += ev.value(know.played, theirs, picked)
        return total / max(1, len(know.pool))

    def _first_move(self, ev: Evaluator, know: Knowledge, board: Board, to: Square) -> float:
        """A move before the cards: average the likely Showdowns over the open die."""
        if to == know.theirs:
            return ev.best(Outlook.BRAWN)
        positions = _with(know, know.seat, to)
        starter_sq = positions[know.starter]
        nemesis_sq = positions[1 - know.starter]
        squares = possible_mayhems(know)
        total = sum(ev.best(predict(board, know, starter_sq, nemesis_sq, m)) for m in squares)
        return total / len(squares) + 0.01 * (board.step_limit(to) - 2)


def _with(know: Knowledge, seat: int, square: Square,
          base: tuple[Square, Square] | None = None) -> tuple[Square, Square]:
    """Positions with one marker moved."""
    positions = list(base or know.positions)
    positions[seat] = square
    return (positions[0], positions[1])


# -- search --------------------------------------------------------------------------------
# What a search playout cut short is worth (engine.bots.leaves), and the two search levels.

def standing(views: Views) -> dict[int, float]:
    """Progress on both counts (own colour victorious, nemesis' defeated); games won."""
    def side(seat: JSON) -> float:
        tally = seat["tally"]
        own, theirs = (min(tally[k], 4) for k in ("own_victorious", "nemesis_defeated"))
        return _side(own, theirs) + 20.0 * seat["games_won"]

    return {seat["seat"]: side(seat) for seat in views.public["seats"]}


SEARCH = levels(16, 48, depth=6, standing=standing, spread=3.0)
