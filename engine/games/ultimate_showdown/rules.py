"""The rules: set-up, the five rounds, scoring, the Ultimate Showdown and sudden death."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.games.ultimate_showdown import narrate as narration
from engine.games.ultimate_showdown import view as views
from engine.games.ultimate_showdown.cards import CARDS, CardSet, Challenge, Side
from engine.games.ultimate_showdown.state import (
    BOXES,
    HAND_SIZE,
    MATCHES,
    PHASE_ACTIONS,
    ROUNDS,
    SEAT_NAMES,
    SLOTS,
    SPACES,
    ULTIMATE,
    ActionType,
    Box,
    Phase,
    RoundRecord,
    State,
    SuddenDeath,
    Vote,
    box_counts,
    pairing,
    uses_pow,
)
from engine.protocol import (
    JSON,
    BaseRules,
    Event,
    EventKind,
    GameSpec,
    IllegalAction,
    Pending,
    PendingKind,
    Result,
    check_viewer,
    counted,
)

SPEC = GameSpec(
    key="ultimate_showdown",
    title="Ultimate Showdown",
    min_seats=3,
    max_seats=8,
    has_chance=True,
    has_hidden_information=True,
    longest_game=2_000,  # 8 seats: about 100 decisions a round, plus sudden death
    seat_names=SEAT_NAMES,
    figures=("score", "won_sudden_death", *(f"round_{n}" for n in range(1, ROUNDS + 1))),
)
POINTS = (4, 3, 2, 3)  # Champion bet, Final bet, Semi-Final bet, owning the Champion


def refuse(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def tally(ballots: Sequence[Any], options: tuple[Any, ...], pow_holder: int | None) -> Vote:
    """Count a revealed vote; a tie goes to the POW! holder's double vote (US-33)."""
    counts = [sum(b == o for b in ballots) for o in options]
    pow_seat = None
    if counts[0] == counts[1] and pow_holder is not None:
        pow_seat = pow_holder
        counts[options.index(ballots[pow_holder])] += 1
    winner = options[0] if counts[0] > counts[1] else options[1]
    return Vote(tuple(ballots), options, tuple(counts), winner, pow_seat)


def passed_pow(holder: int | None, vote: Vote, n: int) -> int | None:
    """US-34: after breaking a tie the marker passes to the next player on the right."""
    if holder is None or vote.pow_seat is None:
        return holder
    return (holder + 1) % n


class UltimateShowdownRules(BaseRules[State]):
    """Ultimate Showdown for 3-8 players (see the package docstring for the decisions)."""

    def __init__(self, cards: CardSet = CARDS) -> None:
        self.spec = SPEC
        self.cards = cards
        self.sides = {face.id: face for card in cards.challenges.values()
                      for face in (card.front, card.back)}

    # -- the protocol -----------------------------------------------------------------
    def start(self, options: Mapping[str, Any], n_seats: int) -> State:
        """A table waiting for its shuffle and deal."""
        self.spec.resolve_options(options)
        self.spec.check_seats(n_seats)
        return State(n=n_seats)

    def pending(self, state: State) -> Pending:
        """Chance for shuffles, the leader for sides, everyone else at once."""
        phase = state.phase
        if phase is Phase.OVER:
            return Pending.end(self._result(state))
        if phase in (Phase.SETUP, Phase.SLOTS):
            return Pending.chance()
        if phase is Phase.CHOOSE_SIDES:
            return Pending.decision(state.leader)
        return Pending.decision(*[s for s in range(state.n) if self._waiting(state, s)])

    def _waiting(self, state: State, seat: int) -> bool:
        """Whether `seat` still owes its part of a simultaneous decision."""
        phase = state.phase
        if phase is Phase.CHALLENGE_VOTE:
            return state.challenge_ballots[seat] is None
        if phase is Phase.PLAY:
            return state.boxes[seat] is None
        if phase is Phase.BET:
            return None in state.bets[seat]
        if phase is Phase.MATCH:
            return state.ballots[seat] is None
        if phase is Phase.DISCARD:
            return not state.discarded[seat]
        if phase is Phase.SUDDEN_DEATH:
            assert state.sudden is not None
            return state.sudden.ballots[seat] is None
        return False

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        """Every legal decision of `seat`; empty when it has nothing pending."""
        if seat not in self.pending(state).seats:
            return []
        phase = state.phase
        if phase is Phase.CHOOSE_SIDES:
            return [{"type": "choose_sides", "sides": list(c)}
                    for c in itertools.product([str(s) for s in Side], repeat=len(state.drawn))]
        if phase is Phase.CHALLENGE_VOTE:
            return [{"type": "vote_challenge", "space": space} for space in SPACES]
        if phase is Phase.PLAY:
            return self._plays(state.hands[seat], state.n)
        if phase is Phase.BET:
            return self._bets(state, seat)
        if phase is Phase.MATCH:
            return [{"type": "vote_match", "slot": s} for s in pairing(state.match, state.winners)]
        if phase is Phase.DISCARD:
            hand = sorted(state.hands[seat])
            return [{"type": "discard", "cards": list(c)}
                    for k in range(len(hand) + 1) for c in itertools.combinations(hand, k)]
        assert state.sudden is not None
        return [{"type": "vote_player", "seat": s}
                for s in (state.sudden.orange, state.sudden.blue)]

    @staticmethod
    def _plays(hand: tuple[str, ...], n: int) -> list[JSON]:
        """Every way to fill Box A and Box B from the hand (US-14..16)."""
        in_a, in_b = box_counts(n)
        out: list[JSON] = []
        for a in itertools.combinations(sorted(hand), in_a):
            rest = sorted(set(hand) - set(a))
            for b in itertools.combinations(rest, in_b):
                out.append({"type": "play_contenders", "box_a": list(a), "box_b": list(b)})
        return out

    @staticmethod
    def _bets(state: State, seat: int) -> list[JSON]:
        """One chip at a time: any empty box, any slot not yet used (US-25)."""
        placed = state.bets[seat]
        used = {s for s in placed if s is not None}
        return [{"type": "bet", "box": str(box), "slot": slot}
                for box, chip in zip(BOXES, placed, strict=True) if chip is None
                for slot in range(1, SLOTS + 1) if slot not in used]

    def apply(self, state: State, event: Event) -> State:
        """The shared fold, with a specific refusal code for a bad decision first."""
        if event.kind is EventKind.DECISION and event.seat is not None:
            pending = self.pending(state)
            if pending.kind is PendingKind.DECISION and event.seat in pending.seats:
                self.check(state, event.seat, event.action)
        return super().apply(state, event)

    def check(self, state: State, seat: int, action: Any) -> None:
        """Refuse a bad action with a clear code; never reveals what is hidden."""
        if not isinstance(action, Mapping):
            raise refuse("malformed_action", "An action must be a JSON object.")
        wanted = PHASE_ACTIONS.get(state.phase)
        if wanted is None or action.get("type") != wanted:
            raise refuse("wrong_action", f"Now the table needs a {wanted} action.")
        checker = {
            ActionType.CHOOSE_SIDES: self._check_sides,
            ActionType.VOTE_CHALLENGE: self._check_space,
            ActionType.PLAY_CONTENDERS: self._check_play,
            ActionType.BET: self._check_bet,
            ActionType.VOTE_MATCH: self._check_match_vote,
            ActionType.DISCARD: self._check_discard,
            ActionType.VOTE_PLAYER: self._check_player_vote,
        }[wanted]
        checker(state, seat, action)

    def _check_sides(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        sides = action.get("sides")
        if not isinstance(sides, list) or len(sides) != len(state.drawn):
            raise refuse("wrong_count", "Name one side for each of the "
                                        f"{counted(len(state.drawn), 'Challenge card')}.")
        if any(s not in ("front", "back") for s in sides):
            raise refuse("no_such_side", "A side is 'front' or 'back'.")

    def _check_space(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        if action.get("space") not in SPACES:
            raise refuse("no_such_space", "Vote for Challenge space 'A' or 'B'.")

    def _check_play(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        in_a, in_b = box_counts(state.n)
        a, b = action.get("box_a"), action.get("box_b")
        if not (isinstance(a, list) and isinstance(b, list)
                and all(isinstance(c, str) for c in (*a, *b))):
            raise refuse("malformed_action", "box_a and box_b must be lists of Contender ids.")
        if len(a) != in_a or len(b) != in_b:
            raise refuse("wrong_count", f"With {state.n} players put {counted(in_a, 'Contender')} into "
                                        f"Box A and {in_b} into Box B.")
        if len(set(a) | set(b)) != len(a) + len(b):
            raise refuse("duplicate_contender", "Each Contender can be played only once.")
        if not set(a) | set(b) <= set(state.hands[seat]):
            raise refuse("not_in_hand", "You can play only Contenders from your hand.")
        if a != sorted(a) or b != sorted(b):
            raise refuse("malformed_action", "List each box's Contenders in sorted order.")

    def _check_bet(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        box, slot = action.get("box"), action.get("slot")
        if box not in [str(b) for b in BOXES]:
            raise refuse("no_such_box", "Bet in 'champion', 'final' or 'semi'.")
        if not isinstance(slot, int) or isinstance(slot, bool) or not 1 <= slot <= SLOTS:
            raise refuse("no_such_slot", f"Bet on a slot from 1 to {SLOTS}.")
        placed = state.bets[seat]
        if placed[BOXES.index(Box(box))] is not None:
            raise refuse("box_already_bet", f"You already have a chip in the {box} box.")
        if slot in placed:
            raise refuse("chip_already_used", f"Your chip {slot} is already on the board.")

    def _check_match_vote(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        slot = action.get("slot")
        if slot not in pairing(state.match, state.winners) or isinstance(slot, bool):
            raise refuse("not_in_match", "Vote for one of the two Contenders in this match.")

    def _check_discard(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        cards = action.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise refuse("malformed_action", "cards must be a list of Contender ids.")
        if len(set(cards)) != len(cards) or not set(cards) <= set(state.hands[seat]):
            raise refuse("not_in_hand", "You can discard only Contenders from your hand, once.")
        if cards != sorted(cards):
            raise refuse("malformed_action", "List the discarded Contenders in sorted order.")

    def _check_player_vote(self, state: State, seat: int, action: Mapping[str, Any]) -> None:
        assert state.sudden is not None
        target = action.get("seat")
        if isinstance(target, bool) or target not in (state.sudden.orange, state.sudden.blue):
            raise refuse("not_in_match", "Vote for one of the two tied players in this match.")

    def is_legal(self, state: State, seat: int, action: JSON) -> bool:
        """An item of legal_actions (types held strictly: 3.0 is not 3)."""
        try:
            self.check(state, seat, action)
        except IllegalAction:
            return False
        return any(_strict_equal(action, a) for a in self.legal_actions(state, seat))

    def _decide(self, state: State, seat: int, action: JSON) -> State:
        """Run a legal decision."""
        kind = ActionType(action["type"])
        if kind is ActionType.CHOOSE_SIDES:
            return self._choose_sides(state, [Side(s) for s in action["sides"]])
        if kind is ActionType.VOTE_CHALLENGE:
            return self._vote_challenge(state, seat, action["space"])
        if kind is ActionType.PLAY_CONTENDERS:
            return self._play(state, seat, tuple(action["box_a"]), tuple(action["box_b"]))
        if kind is ActionType.BET:
            return self._bet(state, seat, Box(action["box"]), action["slot"])
        if kind is ActionType.VOTE_MATCH:
            return self._vote_match(state, seat, action["slot"])
        if kind is ActionType.DISCARD:
            return self._discard(state, seat, tuple(action["cards"]))
        return self._vote_player(state, seat, action["seat"])

    def _resolve_chance(self, state: State, outcome: JSON) -> State:
        """A stored shuffle: the set-up or the boxes into slots."""
        if state.phase is Phase.SETUP:
            return self._setup(state, outcome)
        return self._fill_slots(state, outcome)

    def sample_chance(self, state: State, rng: random.Random) -> JSON:
        """Draw the pending shuffle's outcome (permutations, and the POW! seat)."""
        if state.phase is Phase.SETUP:
            people = list(self.cards.contender_ids)
            cards = list(self.cards.challenge_ids)
            pow_seat = rng.randrange(state.n) if uses_pow(state.n) else None
            return {"contenders": rng.sample(people, len(people)),
                    "challenges": rng.sample(cards, len(cards)), "pow": pow_seat}
        if state.phase is Phase.SLOTS:
            box_a, box_b = self._box_contents(state)
            order_b = rng.sample(sorted(box_b), len(box_b))
            eight = [*box_a, *order_b[:SLOTS - len(box_a)]]
            return {"box_b": order_b, "slots": rng.sample(eight, len(eight))}
        raise IllegalAction("not_chance", "No chance event is pending.")

    def view(self, state: State, seat: int | None) -> JSON:
        """What `seat` may see (None is a spectator)."""
        check_viewer(seat, state.n)
        return views.render_view(self, state, seat)

    def redact(self, state_before: State, event: Event, viewer: int | None) -> JSON:
        """The event as `viewer` may read it: no other seat's secret choice or hand."""
        check_viewer(viewer, state_before.n)
        return views.redact_event(self, state_before, event, viewer)

    def narrate(self, state_before: State, event: Event) -> list[str]:
        """Plain-English sentences everybody may read."""
        return narration.narrate(self, state_before, event)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state `seat` cannot tell apart from this one (hidden cards and votes resampled)."""
        check_viewer(seat, state.n)
        return views.determinize(self, state, seat, rng)

    # -- helpers ----------------------------------------------------------------------
    def challenge_of(self, side_id: str) -> Challenge:
        """A Challenge side by its id."""
        return self.sides[side_id]

    def side_id(self, card: str, side: Side) -> str:
        return self.cards.challenges[card].side(side).id

    def _box_contents(self, state: State) -> tuple[list[str], list[str]]:
        """Everything in Box A and Box B (round five: the kept eight in Box A)."""
        if state.round == ULTIMATE:
            return list(state.kept), []
        box_a = [c for box in state.boxes if box for c in box[0]]
        box_b = [c for box in state.boxes if box for c in box[1]]
        return box_a, box_b

    # -- set-up -----------------------------------------------------------------------
    def _setup(self, state: State, outcome: Mapping[str, Any]) -> State:
        """Shuffle both decks, deal four Contenders each, hand out the POW! (US-05, 06)."""
        people, cards, pow_seat = (outcome.get("contenders"), outcome.get("challenges"),
                                   outcome.get("pow"))
        if not _is_permutation(people, self.cards.contender_ids):
            raise refuse("bad_outcome", "The set-up must order every Contender once.")
        if not _is_permutation(cards, self.cards.challenge_ids):
            raise refuse("bad_outcome", "The set-up must order every Challenge card once.")
        if uses_pow(state.n):
            if not isinstance(pow_seat, int) or isinstance(pow_seat, bool) \
                    or not 0 <= pow_seat < state.n:
                raise refuse("bad_outcome", "The set-up must name the POW! holder's seat.")
        elif pow_seat is not None:
            raise refuse("bad_outcome", "With an odd number of players there is no POW!.")
        assert isinstance(people, list) and isinstance(cards, list)
        n = state.n
        hands = tuple(tuple(people[HAND_SIZE * s:HAND_SIZE * (s + 1)]) for s in range(n))
        dealt = replace(state, deck=tuple(people[HAND_SIZE * n:]), challenge_deck=tuple(cards),
                        hands=hands, pow_holder=pow_seat, hidden_discard=((),) * n)
        return self._begin_round(dealt, 1)

    def _begin_round(self, state: State, number: int) -> State:
        """Draw two Challenge cards (one in round five) for the leader to set (US-09, 47)."""
        draw = 1 if number == ULTIMATE else 2
        n = state.n
        return replace(
            state, round=number, phase=Phase.CHOOSE_SIDES, drawn=state.challenge_deck[:draw],
            challenge_deck=state.challenge_deck[draw:], choices=(), challenge=None,
            challenge_ballots=(None,) * n, challenge_vote=None, boxes=(None,) * n, slots=(),
            owners=(), bets=((None, None, None),) * n, winners=(), ballots=(None,) * n,
            votes=(), discarded=(False,) * n,
        )

    # -- the Challenge ----------------------------------------------------------------
    def _choose_sides(self, state: State, sides: list[Side]) -> State:
        choices = tuple(self.side_id(c, s) for c, s in zip(state.drawn, sides, strict=True))
        if state.round == ULTIMATE:
            return replace(state, choices=choices, challenge=choices[0], phase=Phase.SLOTS)
        return replace(state, choices=choices, phase=Phase.CHALLENGE_VOTE)

    def _vote_challenge(self, state: State, seat: int, space: str) -> State:
        ballots = _set(state.challenge_ballots, seat, space)
        if None in ballots:
            return replace(state, challenge_ballots=ballots)
        vote = tally(ballots, SPACES, state.pow_holder if uses_pow(state.n) else None)
        won = SPACES.index(str(vote.winner))
        return replace(
            state, challenge_ballots=ballots, challenge_vote=vote, phase=Phase.PLAY,
            challenge=state.choices[won],
            challenge_discard=(*state.challenge_discard, state.drawn[1 - won]),
            pow_holder=passed_pow(state.pow_holder, vote, state.n),
        )

    # -- Contenders -------------------------------------------------------------------
    def _play(self, state: State, seat: int, box_a: tuple[str, ...],
              box_b: tuple[str, ...]) -> State:
        hands = _set(state.hands, seat, tuple(c for c in state.hands[seat]
                                              if c not in box_a and c not in box_b))
        boxes = _set(state.boxes, seat, (box_a, box_b))
        phase = Phase.SLOTS if None not in boxes else Phase.PLAY
        return replace(state, hands=hands, boxes=boxes, phase=phase)

    def _fill_slots(self, state: State, outcome: Mapping[str, Any]) -> State:
        """Box B shuffled to fill Box A to eight; the eight dealt to slots 1-8 (US-17..19)."""
        box_a, box_b = self._box_contents(state)
        order_b = outcome.get("box_b", [])
        if not _is_permutation(order_b, box_b):
            raise refuse("bad_outcome", "Box B's shuffle must order its Contenders once.")
        assert isinstance(order_b, list)
        need = SLOTS - len(box_a)
        eight = [*box_a, *order_b[:need]]
        slots = outcome.get("slots")
        if not _is_permutation(slots, eight):
            raise refuse("bad_outcome", "The slots must order Box A's eight Contenders once.")
        assert isinstance(slots, list)
        owner = {c: s for s, box in enumerate(state.boxes) if box for c in (*box[0], *box[1])}
        hidden = list(state.hidden_discard)
        for card in order_b[need:]:
            hidden[owner[card]] = (*hidden[owner[card]], card)
        return replace(state, slots=tuple(slots), owners=tuple(owner.get(c) for c in slots),
                       hidden_discard=tuple(hidden), phase=Phase.BET)

    # -- predictions and matches ------------------------------------------------------
    def _bet(self, state: State, seat: int, box: Box, slot: int) -> State:
        placed = list(state.bets[seat])
        placed[BOXES.index(box)] = slot
        bets = _set(state.bets, seat, (placed[0], placed[1], placed[2]))
        done = all(None not in b for b in bets)
        return replace(state, bets=bets, phase=Phase.MATCH if done else Phase.BET)

    def _vote_match(self, state: State, seat: int, slot: int) -> State:
        ballots = _set(state.ballots, seat, slot)
        if None in ballots:
            return replace(state, ballots=ballots)
        pair = pairing(state.match, state.winners)
        vote = tally(ballots, pair, state.pow_holder if uses_pow(state.n) else None)
        decided = replace(state, ballots=(None,) * state.n, votes=(*state.votes, vote),
                          winners=(*state.winners, int(vote.winner)),
                          pow_holder=passed_pow(state.pow_holder, vote, state.n))
        return self._score(decided) if decided.match == MATCHES else decided

    # -- scoring ----------------------------------------------------------------------
    def _score(self, state: State) -> State:
        """US-36..40, doubled and without owner points in round five (US-48..51)."""
        record = score_round(state)
        scored = replace(state, history=(*state.history, record))
        if state.round == ULTIMATE:
            return self._finish(scored)
        keep = (state.slots[record.champion - 1], state.slots[record.runner_up - 1])
        rest = tuple(c for c in state.slots if c not in keep)
        cleared = replace(scored, kept=(*state.kept, *keep), discard=(*state.discard, *rest),
                          challenge_deck=(*state.challenge_deck, _card_of(state)))
        if state.round == ULTIMATE - 1:
            return self._begin_round(cleared, ULTIMATE)
        return replace(cleared, phase=Phase.DISCARD)

    def _discard(self, state: State, seat: int, cards: tuple[str, ...]) -> State:
        """US-44: discard any, then (once everyone has) draw back up to four."""
        hands = _set(state.hands, seat, tuple(c for c in state.hands[seat] if c not in cards))
        hidden = _set(state.hidden_discard, seat, (*state.hidden_discard[seat], *cards))
        done = _set(state.discarded, seat, True)
        after = replace(state, hands=hands, hidden_discard=hidden, discarded=done)
        if not all(done):
            return after
        deck, new_hands = list(after.deck), []
        for hand in after.hands:
            need = max(0, HAND_SIZE - len(hand))
            new_hands.append((*hand, *deck[:need]))
            deck = deck[need:]
        return self._begin_round(replace(after, hands=tuple(new_hands), deck=tuple(deck)),
                                 state.round + 1)

    # -- the end ----------------------------------------------------------------------
    def _finish(self, state: State) -> State:
        """The top score wins; a tie for first goes to sudden death (US-52..54)."""
        scores = state.scores()
        tied = tuple(s for s in range(state.n) if scores[s] == max(scores))
        if len(tied) == 1:
            return replace(state, phase=Phase.OVER)
        return self._sudden_match(state, tied, tied[0], tied[1], tied[2:], ())

    def _sudden_match(self, state: State, tied: tuple[int, ...], orange: int, blue: int,
                      queue: tuple[int, ...], votes: tuple[Vote, ...]) -> State:
        """Flip the top Challenge card (its front) for the next sudden-death match."""
        card = state.challenge_deck[0]
        sudden = SuddenDeath(tied, orange, blue, queue, card, self.side_id(card, Side.FRONT),
                             (None,) * state.n, votes)
        return replace(state, phase=Phase.SUDDEN_DEATH, sudden=sudden,
                       challenge_deck=(*state.challenge_deck[1:], card))

    def _vote_player(self, state: State, seat: int, target: int) -> State:
        sd = state.sudden
        assert sd is not None
        ballots = _set(sd.ballots, seat, target)
        if None in ballots:
            return replace(state, sudden=replace(sd, ballots=ballots))
        vote = tally(ballots, (sd.orange, sd.blue),
                     state.pow_holder if uses_pow(state.n) else None)
        moved = replace(state, pow_holder=passed_pow(state.pow_holder, vote, state.n))
        votes, winner = (*sd.votes, vote), int(vote.winner)
        if sd.queue:
            return self._sudden_match(moved, sd.tied, winner, sd.queue[0], sd.queue[1:], votes)
        done = replace(sd, ballots=ballots, votes=votes, winner=winner)
        return replace(moved, sudden=done, phase=Phase.OVER)

    def _result(self, state: State) -> Result:
        """Placements by total score; the sudden-death winner ahead of the players it tied."""
        scores = state.scores()
        sd_winner = state.sudden.winner if state.sudden else None

        def ahead(a: int, b: int) -> bool:
            return scores[a] > scores[b] or (scores[a] == scores[b] and a == sd_winner)

        placements = tuple(1 + sum(ahead(o, s) for o in range(state.n) if o != s)
                           for s in range(state.n))
        winners = tuple(s for s in range(state.n) if placements[s] == 1)
        figures: dict[int, dict[str, float]] = {}
        for seat in range(state.n):
            points = state.round_points(seat)
            fig = {"score": float(scores[seat]),
                   "won_sudden_death": float(seat == sd_winner)}
            fig.update({f"round_{i}": float(p) for i, p in enumerate(points, 1)})
            figures[seat] = fig
        return Result(placements=placements, winners=winners, draw=len(winners) > 1,
                      figures=figures, summary=narration.summary(state, winners))


def score_round(state: State) -> RoundRecord:
    """The round's points per seat: (champion, final, semi, owner)."""
    assert state.challenge is not None
    factor = 2 if state.round == ULTIMATE else 1
    draft = RoundRecord(state.round, state.challenge, state.slots, state.owners, state.winners,
                        state.votes, (), ())
    champion, runner_up = draft.champion, draft.runner_up
    points: list[tuple[int, int, int, int]] = []
    bets: list[tuple[int, int, int]] = []
    for seat, (champ, final, semi) in enumerate(state.bets):
        assert champ is not None and final is not None and semi is not None
        bets.append((champ, final, semi))
        owner = state.round != ULTIMATE and state.owners[champion - 1] == seat
        points.append((
            factor * POINTS[0] * (champ == champion),
            factor * POINTS[1] * (final in (champion, runner_up)),
            factor * POINTS[2] * (semi in state.winners),
            POINTS[3] * owner,
        ))
    return replace(draft, bets=tuple(bets), points=tuple(points))


def _card_of(state: State) -> str:
    """The Challenge card whose side was used this round."""
    return state.drawn[state.choices.index(state.challenge or "")]


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of a tuple with one item replaced."""
    return (*values[:index], value, *values[index + 1:])


def _is_permutation(value: Any, items: Sequence[str]) -> bool:
    return (isinstance(value, list) and all(isinstance(v, str) for v in value)
            and sorted(value) == sorted(items))


def _strict_equal(a: Any, b: Any) -> bool:
    """JSON equality that tells 1 from 1.0 and True from 1."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
