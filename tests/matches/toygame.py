"""A tiny two-seat game for the match service and API tests.

Toy Showdown: a chance deal gives each seat `rounds` cards from six, a chance coin toss
says who wins ties, then each round both seats play one card face down at the same time
(Pending.decision(0, 1)); the higher card scores a point. After the last round it ends.

Its card names are distinct words so a test can look for them in a JSON body and be sure
that a hidden card did not leak. The test bots (`boom`, `slow`, `cheat`) misbehave on
purpose so the bot-seat fallbacks can be checked.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine import registry
from engine.protocol import (
    JSON,
    BaseRules,
    Event,
    EventKind,
    GameSpec,
    IllegalAction,
    Option,
    Pending,
    PendingKind,
    Result,
)

TOY_KEY = "toy_showdown"
CARDS = {"anvil": 1, "brick": 2, "comet": 3, "drum": 4, "ember": 5, "flint": 6}
SEATS = 2


@dataclass(frozen=True)
class ToyState:
    rounds: int
    hands: tuple[tuple[str, ...], ...] | None = None  # None until the deal
    tiebreak: int | None = None  # None until the coin toss
    face_down: tuple[str | None, ...] = (None, None)
    scores: tuple[int, ...] = (0, 0)
    revealed: tuple[tuple[str, ...], ...] = ()


class ToyRules(BaseRules[ToyState]):
    spec = GameSpec(
        key=TOY_KEY,
        title="Toy Showdown",
        min_seats=SEATS,
        max_seats=SEATS,
        has_chance=True,
        has_hidden_information=True,
        options={"rounds": Option(3, (1, 2, 3), "Cards in each hand.")},
        longest_game=2 + 2 * 3,
        figures=("points",),
    )

    def start(self, options: Mapping[str, Any], n_seats: int) -> ToyState:
        self.spec.check_seats(n_seats)
        return ToyState(rounds=self.spec.resolve_options(options)["rounds"])

    def pending(self, state: ToyState) -> Pending:
        if state.hands is None or state.tiebreak is None:
            return Pending.chance()
        if len(state.revealed) == state.rounds:
            return Pending.end(self._result(state))
        return Pending.decision(*(s for s in range(SEATS) if state.face_down[s] is None))

    def legal_actions(self, state: ToyState, seat: int) -> list[JSON]:
        pending = self.pending(state)
        if pending.kind is not PendingKind.DECISION or seat not in pending.seats:
            return []
        assert state.hands is not None
        return [{"type": "play", "card": card} for card in sorted(state.hands[seat])]

    def _decide(self, state: ToyState, seat: int, action: JSON) -> ToyState:
        assert state.hands is not None
        card = action["card"]
        hands = tuple(
            tuple(c for c in hand if c != card) if s == seat else hand
            for s, hand in enumerate(state.hands)
        )
        face_down = tuple(card if s == seat else c for s, c in enumerate(state.face_down))
        state = replace(state, hands=hands, face_down=face_down)
        if all(c is not None for c in face_down):
            state = self._reveal(state)
        return state

    def _reveal(self, state: ToyState) -> ToyState:
        """Both cards turn over; the higher scores, a tie goes to the toss winner."""
        played = tuple(c for c in state.face_down if c is not None)
        winner = self._round_winner(played, state.tiebreak)
        scores = tuple(p + (s == winner) for s, p in enumerate(state.scores))
        return replace(state, face_down=(None, None), scores=scores,
                       revealed=(*state.revealed, played))

    @staticmethod
    def _round_winner(played: tuple[str, ...], tiebreak: int | None) -> int:
        if CARDS[played[0]] == CARDS[played[1]]:
            return tiebreak or 0
        return 0 if CARDS[played[0]] > CARDS[played[1]] else 1

    def _resolve_chance(self, state: ToyState, outcome: JSON) -> ToyState:
        if state.hands is None:
            hands = outcome.get("hands")
            if (not isinstance(hands, list) or len(hands) != SEATS
                    or any(len(h) != state.rounds or set(h) - set(CARDS) for h in hands)):
                raise IllegalAction("malformed_outcome", "A deal gives each seat its hand.")
            return replace(state, hands=tuple(tuple(h) for h in hands))
        tiebreak = outcome.get("tiebreak")
        if tiebreak not in (0, 1):
            raise IllegalAction("malformed_outcome", "A toss names seat 0 or 1.")
        return replace(state, tiebreak=tiebreak)

    def sample_chance(self, state: ToyState, rng: random.Random) -> JSON:
        if state.hands is None:
            dealt = rng.sample(sorted(CARDS), SEATS * state.rounds)
            return {"hands": [dealt[: state.rounds], dealt[state.rounds:]]}
        return {"tiebreak": rng.randrange(SEATS)}

    def view(self, state: ToyState, seat: int | None) -> JSON:
        hands = state.hands or ((), ())
        return {
            "round": min(len(state.revealed) + 1, state.rounds),
            "scores": list(state.scores),
            "hand": sorted(hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in hands],
            "face_down": [c is not None for c in state.face_down],
            "my_face_down": state.face_down[seat] if seat is not None else None,
            "revealed": [list(r) for r in state.revealed],
            "tiebreak": state.tiebreak,
        }

    def redact(self, state_before: ToyState, event: Event, viewer: int | None) -> JSON:
        if event.kind is EventKind.CHANCE:
            if state_before.hands is not None:
                return event.to_json()  # the toss is public
            assert event.outcome is not None
            mine = event.outcome["hands"][viewer] if viewer is not None else None
            return {"kind": "chance", "outcome": {"hand": mine}}
        if event.seat == viewer:
            return event.to_json()
        return {"kind": "decision", "seat": event.seat, "action": {"type": "play", "card": None}}

    def narrate(self, state_before: ToyState, event: Event) -> list[str]:
        if event.kind is EventKind.CHANCE:
            if state_before.hands is None:
                return ["The cards are dealt."]
            return [f"Seat {event.outcome['tiebreak'] if event.outcome else '?'} wins ties."]
        lines = [f"Seat {event.seat} plays a card face down."]
        after = self.apply(state_before, event)
        if len(after.revealed) > len(state_before.revealed):
            first, second = after.revealed[-1]
            lines.append(f"Revealed: {first} against {second}.")
        return lines

    def determinize(self, state: ToyState, seat: int, rng: random.Random) -> ToyState:
        if state.hands is None:
            return state
        other = 1 - seat
        seen = {*state.hands[seat], *(c for r in state.revealed for c in r)}
        if state.face_down[seat]:
            seen.add(state.face_down[seat])  # type: ignore[arg-type]
        unseen = sorted(set(CARDS) - seen)
        dealt = rng.sample(unseen, len(state.hands[other]))
        hands = tuple(tuple(dealt) if s == other else h for s, h in enumerate(state.hands))
        return replace(state, hands=hands)

    def _result(self, state: ToyState) -> Result:
        a, b = state.scores
        if a == b:
            return Result(placements=(1, 1), winners=(0, 1), draw=True,
                          figures={0: {"points": a}, 1: {"points": b}}, summary="A draw.")
        winner = 0 if a > b else 1
        placements = (1, 2) if winner == 0 else (2, 1)
        return Result(placements=placements, winners=(winner,),
                      figures={0: {"points": a}, 1: {"points": b}},
                      summary=f"Seat {winner} wins {max(a, b)} to {min(a, b)}.")


class BoomBot:
    """Raises instead of choosing."""

    name = "boom"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        raise RuntimeError("the boom bot always fails")


class SlowBot:
    """Thinks longer than any test budget."""

    name = "slow"
    seconds = 1.5

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        time.sleep(self.seconds)
        return rules.legal_actions(state, seat)[0]


class CheatBot:
    """Answers with a card it does not hold."""

    name = "cheat"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        return {"type": "play", "card": "joker"}


TOY_RULES = ToyRules()
TOY_BOTS = {"boom": BoomBot, "slow": SlowBot, "cheat": CheatBot}


def register() -> None:
    """Make the toy game (and its misbehaving bots) known to the registry."""
    registry.register_game(TOY_RULES, bots=TOY_BOTS)  # type: ignore[arg-type]
