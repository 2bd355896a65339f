"""The Super Showdown rules object: the round sequence, the Showdown and the end."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.games.super_showdown import narrate as narration
from engine.games.super_showdown import view as views
from engine.games.super_showdown.board import BOARD, DIE_FACES, Board, Square
from engine.games.super_showdown.cards import CARDS, HAND_SIZE, Card, CardSet, Colour
from engine.games.super_showdown.showdown import (
    Split,
    brawn,
    kind_of,
    speed_chooser,
    speed_options,
    wits,
)
from engine.games.super_showdown.state import (
    SEAT_NAMES,
    SEATS,
    Action,
    ChooseOutcome,
    GameRecord,
    Move,
    Phase,
    PlayCard,
    Showdown,
    ShowdownKind,
    State,
    Tally,
    WinReason,
    parse_action,
)
from engine.protocol import (
    JSON,
    BaseRules,
    Event,
    GameSpec,
    IllegalAction,
    Option,
    Pending,
    Result,
    check_viewer,
)

ROUNDS_PER_GAME = HAND_SIZE  # each round takes one card from each hand
EVENTS_PER_ROUND = 9  # 2 rolls, 4 moves, 2 plays, 1 Speed choice at most
LONGEST_SERIES = 3 * (1 + ROUNDS_PER_GAME * EVENTS_PER_ROUND)

SPEC = GameSpec(
    key="super_showdown",
    title="Super Showdown",
    min_seats=2,
    max_seats=2,
    has_chance=True,
    has_hidden_information=True,
    options={"best_of": Option(1, (1, 3), "One game, or the best of three games.")},
    longest_game=LONGEST_SERIES,
    seat_names=SEAT_NAMES,
    figures=("games_won", "own_victorious", "nemesis_defeated", "games_as_hero"),
)


@dataclass(frozen=True)
class GameEnd:
    """How a game ended: the winning seat (None for a draw) and why."""

    winner: int | None
    reason: WinReason


def game_end(tallies: tuple[Tally, Tally], hands_empty: bool) -> GameEnd | None:
    """The end of a game after a Showdown, or None to play on (SU-40..42)."""
    won = [seat for seat in SEATS if tallies[seat].won]
    if len(won) == 1:
        seat = won[0]
        five_up = tallies[seat].own_victorious >= 5
        return GameEnd(seat, WinReason.FIVE_VICTORIOUS if five_up else WinReason.FIVE_DEFEATED)
    if not won and not hands_empty:
        return None
    # SU-42: both won at once (or, unreachably, the cards ran out): more cards counting
    # for you wins; an equal count is a draw.
    ahead, behind = tallies[0].cards_for, tallies[1].cards_for
    if ahead != behind:
        reason = WinReason.BOTH_MORE_CARDS if won else WinReason.CARDS_EXHAUSTED
        return GameEnd(0 if ahead > behind else 1, reason)
    return GameEnd(None, WinReason.BOTH_DRAW if won else WinReason.CARDS_EXHAUSTED)


def phase_after_move(phase: Phase, met: bool) -> Phase | None:
    """The next step after a move, or None when the cards are to be revealed."""
    if phase is Phase.STARTER_MOVE:
        return Phase.PLAY if met else Phase.NEMESIS_MOVE
    if phase is Phase.NEMESIS_MOVE:
        return Phase.PLAY
    if phase is Phase.NEMESIS_SECOND_MOVE and not met:
        return Phase.STARTER_SECOND_MOVE
    return None


def games_won(games: tuple[GameRecord, ...]) -> tuple[int, int]:
    """Games won per seat so far."""
    return (sum(g.winner == 0 for g in games), sum(g.winner == 1 for g in games))


def series_over(games: tuple[GameRecord, ...], best_of: int) -> bool:
    """A series ends when a seat has a majority of wins or every game is played."""
    return max(games_won(games)) > best_of // 2 or len(games) >= best_of


class SuperShowdownRules(BaseRules[State]):
    """Hero against Villain on the city grid (see the package docstring)."""

    def __init__(self, cards: CardSet = CARDS, board: Board = BOARD) -> None:
        self.spec = SPEC
        self.cards = cards
        self.board = board

    # -- the protocol -----------------------------------------------------------------
    def start(self, options: Mapping[str, Any], n_seats: int) -> State:
        """A series waiting for its first deal."""
        resolved = self.spec.resolve_options(options)
        self.spec.check_seats(n_seats)
        return State(best_of=resolved["best_of"])

    def pending(self, state: State) -> Pending:
        """Chance for the deal and the rolls; one seat to move; both seats to play."""
        phase = state.phase
        if phase is Phase.OVER:
            return Pending.end(self._series_result(state))
        if phase in (Phase.DEAL, Phase.FIRST_ROLL, Phase.SECOND_ROLL):
            return Pending.chance()
        if phase is Phase.PLAY:
            return Pending.decision(*[s for s in SEATS if state.played[s] is None])
        if phase is Phase.SPEED_CHOICE:
            assert state.chooser is not None
            return Pending.decision(state.chooser)
        actor = state.actor()
        assert actor is not None
        return Pending.decision(actor)

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        """Every legal decision of `seat` as JSON; empty when it has nothing pending."""
        return [action.to_json() for action in self.typed_actions(state, seat)]

    def typed_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal decision of `seat`, typed."""
        if seat not in self.pending(state).seats:
            return []
        if state.phase is Phase.PLAY:
            return [PlayCard(card) for card in state.hands[seat]]
        if state.phase is Phase.SPEED_CHOICE:
            return [ChooseOutcome(tuple(sorted(s.victorious)), tuple(sorted(s.defeated)))
                    for s in speed_options(self.played_cards(state))]
        return [Move(square) for square in self.destinations(state, seat)]

    def is_legal(self, state: State, seat: int, action: JSON) -> bool:
        """Whether `action` is an item of legal_actions, JSON types held strictly (6.0 is not 6)."""
        try:
            typed = parse_action(action)
        except IllegalAction:
            return False
        return typed.to_json() == action and typed in self.typed_actions(state, seat)

    def _decide(self, state: State, seat: int, action: JSON) -> State:
        """Run a legal decision."""
        typed = parse_action(action)
        if isinstance(typed, Move):
            return self._move(state, seat, typed.to)
        if isinstance(typed, PlayCard):
            return self._play(state, seat, typed.card)
        order = [c for c in state.played if c is not None]  # the cards in seat order
        split = Split(tuple(c for c in order if c in typed.victorious),
                      tuple(c for c in order if c in typed.defeated))
        return self._settle(state, split, ShowdownKind.SPEED, state.chooser)

    def _resolve_chance(self, state: State, outcome: JSON) -> State:
        """A stored deal (a permutation of the 18 ids) or die face."""
        if state.phase is Phase.DEAL:
            return self._deal(state, outcome)
        face = outcome.get("face")
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= DIE_FACES:
            raise IllegalAction("bad_outcome", f"A die roll needs a face from 1 to {DIE_FACES}.")
        return self._roll(state, face)

    def sample_chance(self, state: State, rng: random.Random) -> JSON:
        """Draw the pending chance outcome: the deal's permutation or a die face."""
        if state.phase is Phase.DEAL:
            return {"deal": rng.sample(list(self.cards.ids), len(self.cards.ids))}
        if state.phase in (Phase.FIRST_ROLL, Phase.SECOND_ROLL):
            return {"face": rng.randint(1, DIE_FACES)}
        raise IllegalAction("not_chance", "No chance event is pending.")

    def view(self, state: State, seat: int | None) -> JSON:
        """What `seat` may see (None is a spectator)."""
        check_viewer(seat, 2)
        return views.render_view(self, state, seat)

    def redact(self, state_before: State, event: Event, viewer: int | None) -> JSON:
        """The event as `viewer` may read it: only their own hand, no face-down card."""
        check_viewer(viewer, 2)
        return views.redact_event(state_before, event, viewer)

    def narrate(self, state_before: State, event: Event) -> list[str]:
        """Plain-English sentences everybody may read."""
        return narration.narrate(self, state_before, event)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """Resample what `seat` cannot see: which of the nemesis' cards is face down.

        The other hand is the complement of what `seat` has seen, so only the face-down
        card's identity among the nemesis' unseen cards is uncertain.
        """
        check_viewer(seat, 2)
        other = 1 - seat
        hidden = state.played[other] if not state.revealed else None
        if hidden is None:
            return state
        pool = sorted((*state.hands[other], hidden))
        rng.shuffle(pool)
        hands = list(state.hands)
        hands[other] = tuple(sorted(pool[1:]))
        played = list(state.played)
        played[other] = pool[0]
        return replace(state, hands=(hands[0], hands[1]), played=(played[0], played[1]))

    # -- helpers the view and the bots share ------------------------------------------
    def destinations(self, state: State, seat: int) -> tuple[Square, ...]:
        """Squares `seat` may move to now."""
        here, there = state.positions[seat], state.positions[1 - seat]
        assert here is not None
        return self.board.reachable(here, there)

    def played_cards(self, state: State) -> tuple[Card, Card]:
        """Both played cards by seat (once both are down)."""
        a, b = state.played
        assert a is not None and b is not None
        return (self.cards[a], self.cards[b])

    def start_square(self, state: State, seat: int) -> Square:
        """A seat's starting space: the Hero's or the Villain's."""
        return self.board.hero_start if seat == state.hero else self.board.villain_start

    # -- the set-up -------------------------------------------------------------------
    def _deal(self, state: State, outcome: JSON) -> State:
        """'Distribute Superpower cards (9 each)'; five or more white makes the Hero."""
        deal = outcome.get("deal")
        if not (isinstance(deal, list) and all(isinstance(c, str) for c in deal)
                and sorted(deal) == sorted(self.cards.ids)):
            raise IllegalAction("bad_outcome", "A deal must order all 18 card ids once.")
        hands = (tuple(sorted(deal[:HAND_SIZE])), tuple(sorted(deal[HAND_SIZE:])))
        whites = [sum(self.cards[c].colour is Colour.WHITE for c in hand) for hand in hands]
        hero = 0 if whites[0] >= 5 else 1
        starts = (self.board.hero_start, self.board.villain_start)
        return replace(
            state,
            phase=Phase.FIRST_ROLL,
            hero=hero,
            hands=hands,
            positions=starts if hero == 0 else starts[::-1],
            round=1,
            starter=1 - hero,  # 'Villain starts the 1st round'
        )

    # -- the round --------------------------------------------------------------------
    def _roll(self, state: State, face: int) -> State:
        """Set the roller's die by the board: white names a column, green a row."""
        roller = state.actor()
        assert roller is not None
        white, green = state.dice
        if state.colour_of(roller) is Colour.WHITE:
            white = face
        else:
            green = face
        after = (Phase.STARTER_MOVE if state.phase is Phase.FIRST_ROLL
                 else Phase.NEMESIS_SECOND_MOVE)
        return replace(state, dice=(white, green), phase=after)

    def _move(self, state: State, seat: int, to: Square) -> State:
        """Move a marker; moving into the nemesis' space stops all movement (SU-15)."""
        positions = list(state.positions)
        positions[seat] = to
        met = to == state.positions[1 - seat]
        after = phase_after_move(state.phase, met)
        moved = replace(state, positions=(positions[0], positions[1]), met=met,
                        phase=after or state.phase)
        return moved if after else self._reveal(moved)

    def _play(self, state: State, seat: int, card: str) -> State:
        """Play a card face down; once both are down, go on (SU-17: a meeting skips 5-7)."""
        hands = list(state.hands)
        hands[seat] = tuple(c for c in state.hands[seat] if c != card)
        played = list(state.played)
        played[seat] = card
        after = replace(state, hands=(hands[0], hands[1]), played=(played[0], played[1]))
        if None in played:
            return after
        return self._reveal(after) if state.met else replace(after, phase=Phase.SECOND_ROLL)

    # -- the Showdown -----------------------------------------------------------------
    def _reveal(self, state: State) -> State:
        """'Flip cards over to resolve': Brawn, Speed or Wits by the final squares."""
        positions = state.positions
        assert positions[0] is not None and positions[1] is not None
        kind, on_mayhem = kind_of((positions[0], positions[1]), state.mayhem)
        cards = self.played_cards(state)
        if kind is ShowdownKind.BRAWN:
            return self._settle(state, brawn(cards), kind, None)
        if kind is ShowdownKind.WITS:
            return self._settle(state, wits(cards), kind, None)
        assert on_mayhem is not None
        chooser = speed_chooser(on_mayhem, cards)
        return replace(state, phase=Phase.SPEED_CHOICE, revealed=True, chooser=chooser)

    def _settle(self, state: State, split: Split, kind: ShowdownKind,
                chooser: int | None) -> State:
        """Put the cards on the Victory and Defeat piles, then check for a winner."""
        cards = state.played
        assert cards[0] is not None and cards[1] is not None
        record = Showdown(state.round, kind, (cards[0], cards[1]), split.victorious,
                          split.defeated, chooser, split.twist)
        settled = replace(
            state,
            victory=state.victory + split.victorious,
            defeat=state.defeat + split.defeated,
            played=(None, None),
            revealed=False,
            chooser=None,
            last_showdown=record,
        )
        if kind is ShowdownKind.BRAWN:
            # 'Then, return to starting spaces.'
            settled = replace(settled, positions=(self.start_square(state, 0),
                                                  self.start_square(state, 1)))
        tallies = (settled.tally(self.cards, 0), settled.tally(self.cards, 1))
        end = game_end(tallies, hands_empty=not any(settled.hands))
        if end is None:
            return self._next_round(settled)
        return self._end_game(settled, end, tallies)

    def _next_round(self, state: State) -> State:
        """'The super who rolled 2nd starts the next round': this round's nemesis."""
        return replace(
            state,
            phase=Phase.FIRST_ROLL,
            round=state.round + 1,
            starter=state.nemesis,
            dice=(None, None),
            met=False,
        )

    def _end_game(self, state: State, end: GameEnd, tallies: tuple[Tally, Tally]) -> State:
        """Record the game; end the series or clear the table for a new deal (SU-44)."""
        assert state.hero is not None
        record = GameRecord(len(state.games) + 1, state.hero, end.winner, end.reason, tallies,
                            state.last_showdown)
        games = (*state.games, record)
        if series_over(games, state.best_of):
            return replace(state, games=games, phase=Phase.OVER)
        return State(best_of=state.best_of, games=games)

    # -- the end ----------------------------------------------------------------------
    def _series_result(self, state: State) -> Result:
        """Placements, winners and figures once the series is over."""
        wins = games_won(state.games)
        draw = wins[0] == wins[1]
        winners: tuple[int, ...] = () if draw else (0 if wins[0] > wins[1] else 1,)
        placements = (1, 1) if draw else tuple(1 if s in winners else 2 for s in SEATS)
        figures = {
            seat: {
                "games_won": float(wins[seat]),
                "own_victorious": float(sum(g.tallies[seat].own_victorious
                                            for g in state.games)),
                "nemesis_defeated": float(sum(g.tallies[seat].nemesis_defeated
                                              for g in state.games)),
                "games_as_hero": float(sum(g.hero == seat for g in state.games)),
            }
            for seat in SEATS
        }
        return Result(placements=placements, winners=winners, draw=draw, figures=figures,
                      summary=narration.series_summary(state))
