"""The Core Rules: the round (draw, play, compare, pin) and every card Action."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.superstar_showdown import view as views
from engine.games.superstar_showdown.board import (
    BOARD,
    Kind,
    Square,
    near,
    orthogonally_adjacent,
    step,
)
from engine.games.superstar_showdown.cards import (
    ROSTER,
    Act,
    Card,
    CardType,
    Outcome,
    beats,
    compare,
)
from engine.games.superstar_showdown.event import (
    BONUS_CARDS,
    MATCH_CARDS,
    STIPULATIONS,
    Effect,
    EventInfo,
    MatchKind,
    MatchRecord,
    draft_order,
    points_for,
    read_event_options,
)
from engine.games.superstar_showdown.state import (
    COLOURS,
    CORNER_POWER,
    CORNER_SQUARES,
    DECISION_PHASES,
    HAND_SIZE,
    MAX_BOUNCES,
    SEATS,
    SPOTS,
    THREE_COUNT,
    THROW_SQUARES,
    Action,
    ActionType,
    Current,
    EndReason,
    Hit,
    Member,
    Motion,
    MotionMode,
    Phase,
    Side,
    State,
    deck_ids,
    parse_action,
)
from engine.protocol import (
    JSON,
    BaseRules,
    Event,
    EventKind,
    GameSpec,
    IllegalAction,
    Option,
    Pending,
    Result,
    check_viewer,
    counted,
    quoted,
)

DEFAULT_SUPERSTARS = ("oakhart", "skylark")
DEFAULT_ROUND_LIMIT = 50
NAMES = ("Red", "Blue")
INTERFERENCE = 2  # SS-158: power per teammate next to the rival
ASSIST_SQUARES = 3  # SS-155
MAX_SEATS = 6

SPEC = GameSpec(
    key="superstar_showdown",
    title="Superstar Showdown",
    min_seats=2,
    max_seats=MAX_SEATS,
    has_chance=True,
    has_hidden_information=True,
    options={
        "superstars": Option(
            list(DEFAULT_SUPERSTARS),
            help=f"Two Superstar keys, Red's then Blue's: any of {', '.join(sorted(ROSTER))}.",
        ),
        "round_limit": Option(
            DEFAULT_ROUND_LIMIT,
            help="After this many rounds the bigger Performance Stack wins.",
        ),
        "event": Option(
            None,
            help="Play an Event (Advanced Rules): a preset ('full_card', 'tag_team_series', "
                 "'ultimate_endurance') or {'matches': [{'match': key|null, 'stipulation': "
                 "key|null}, ...], 'superstars_per_team': 1-3}. Null: one Core Rules match.",
        ),
        "teams": Option(
            None,
            help="Events only: each seat's team, 0 Red or 1 Blue (default: seat number mod "
                 "2); a team has 1-3 players.",
        ),
    },
    # 50 rounds of at most ~400 events each, up to 12 Matches in an Event; real matches
    # take a few hundred events in all.
    longest_game=300_000,
    seat_names=NAMES,
    # a Core Rules match's, then an Event's (its Ranking Points, SS-127)
    figures=("performance_stack", "pins", "kick_outs", "cards_left", "rounds",
             "ranking_points", "match_points", "bonus_points", "matches_won"),
)

# The action types each decision phase accepts (anything else is out of order).
PHASE_TYPES: Mapping[Phase, frozenset[ActionType]] = {
    Phase.PLAY: frozenset({ActionType.PLAY_SPOTS}),
    Phase.REVERSAL: frozenset({ActionType.REVERSE, ActionType.NO_REVERSE}),
    Phase.ACTIONS: frozenset({ActionType.RESOLVE, ActionType.DONE, ActionType.ASSIST}),
    Phase.MOTION: frozenset({ActionType.STEP, ActionType.BOUNCE, ActionType.STOP}),
    Phase.SHOVE: frozenset({ActionType.SHOVE, ActionType.NO_SHOVE}),
    Phase.HIT: frozenset({ActionType.BLOCK, ActionType.GIVE_UP, ActionType.GIVE_UP_DECK}),
    Phase.CORNER: frozenset({ActionType.CORNER_HIT, ActionType.NO_CORNER_HIT}),
    Phase.STUN: frozenset({ActionType.EXTRA_CARD}),
    Phase.PIN: frozenset({ActionType.PIN, ActionType.NO_PIN}),
    Phase.KICK_OUT: frozenset({ActionType.KICK_OUT, ActionType.THREE_COUNT, ActionType.TAG_OUT}),
    Phase.TAG: frozenset({ActionType.TAG_OUT, ActionType.NO_TAG}),
    Phase.DRAFT: frozenset({ActionType.DRAFT}),
    Phase.SEND_IN: frozenset({ActionType.SEND_IN}),
    Phase.BONUS: frozenset({ActionType.BUY_BONUS, ActionType.BONUS_POINTS}),
}


def _say(s: State, text: str) -> None:
    s.journal.append(text)


def _cards(n: int) -> str:
    """"1 card", "6 cards": a count as the log says it."""
    return f"{n} card" if n == 1 else f"{n} cards"


def name(seat: int) -> str:
    return NAMES[seat]


def between_matches(state: State) -> bool:
    """Whether an Event stands outside its Matches, where the scoreboard changes: the
    draft before the first (the table is set up), a Match just ended and the teams
    spending, the next one being set up, or the Event over."""
    return state.event is not None and state.phase in (
        Phase.DRAFT, Phase.BONUS, Phase.SETUP, Phase.SEND_IN, Phase.OVER)


def _star(key: str) -> str:
    """A Superstar's ring name."""
    return ROSTER[key].name


class SuperstarShowdownRules(BaseRules[State]):
    """Superstar Showdown, Core Rules, one Superstar a side."""

    spec = SPEC

    # -- setup -------------------------------------------------------------------------
    def seat_picks(self, options: Mapping[str, Any]) -> dict[str, dict[str, str]]:
        """A player brings their own Superstar to a Core Rules match; an Event drafts them."""
        if self.spec.resolve_options(options)["event"] is not None:
            return {}
        return {"superstars": {key: star.name for key, star in sorted(ROSTER.items())}}

    def teams(self, options: Mapping[str, Any], n_seats: int) -> tuple[int, ...] | None:
        """An Event's two sides, Red and Blue, each of one to three seats (the `teams`
        option, else every other seat); a Core Rules match is one against one."""
        resolved = self.spec.resolve_options(options)
        if resolved["event"] is None:
            return None
        teams = resolved["teams"] or [seat % 2 for seat in range(n_seats)]
        return tuple(teams) if len(teams) == n_seats else None

    def teams_at(self, state: State) -> tuple[int, ...] | None:
        """An Event's Red and Blue as it started with them (`teams` of its options)."""
        return None if state.event is None else state.teams

    def start(self, options: Mapping[str, Any], n_seats: int) -> State:
        """Both Superstars on their stars; the decks wait for their opening shuffles."""
        self.spec.check_seats(n_seats)
        resolved = self.spec.resolve_options(options)
        limit = resolved["round_limit"]
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 200:
            raise IllegalAction("bad_option", "Option 'round_limit' must be an integer 1-200.")
        if resolved["event"] is not None:
            return self._start_event(resolved, n_seats, limit)
        if n_seats != 2 or resolved["teams"] is not None:
            raise IllegalAction("bad_seat_count",
                                "A Core Rules match is one against one: two seats, no teams.")
        stars = resolved["superstars"]
        if (not isinstance(stars, list | tuple) or len(stars) != n_seats
                or not all(isinstance(k, str) and k in ROSTER for k in stars)):
            raise IllegalAction(
                "bad_option", f"Option 'superstars' must list {n_seats} of {sorted(ROSTER)}.")
        sides = [Side(superstar=stars[seat], pos=BOARD.starts[seat], deck=deck_ids(seat))
                 for seat in SEATS]
        # SS-012: each player shuffles their deck, a chance event apiece.
        decks = (ROSTER[stars[0]].deck, ROSTER[stars[1]].deck)
        return State(superstars=(stars[0], stars[1]), decks=decks, round_limit=limit, sides=sides,
                     shuffles=[(0, "setup"), (1, "setup")])

    # -- who acts ----------------------------------------------------------------------
    def pending(self, state: State) -> Pending:
        if state.phase is Phase.OVER:
            return Pending.end(self._result(state))
        if state.shuffles or self._event_chance(state):
            return Pending.chance()
        return Pending.decision(*sorted({state.controller(t) for t in self._deciders(state)}))

    def _deciders(self, s: State) -> tuple[int, ...]:
        """The sides (teams) a decision waits for."""
        ev = s.event
        if s.phase is Phase.DRAFT:
            assert ev is not None and ev.first_pick is not None
            return (draft_order(ev.first_pick, ev.plan.superstars_per_team)[len(ev.picks)],)
        if s.phase is Phase.SEND_IN:
            return tuple(t for t in SEATS if s.send_in[t] is None)
        if s.phase is Phase.BONUS:
            assert ev is not None
            return tuple(t for t in self._bonus_order(s) if ev.stack_left[t] > 0)[:1]
        if s.phase is Phase.TAG:
            return (s.tag_queue[0],)
        if s.phase is Phase.SHOVE and s.motion and s.motion.member is not None:
            return (s.motion.mover,)
        if s.phase is Phase.PLAY:
            return tuple(seat for seat in SEATS if not s.sides[seat].committed)
        if s.phase is Phase.REVERSAL:
            assert s.reversal_winner is not None
            return (1 - s.reversal_winner,)
        if s.phase is Phase.HIT:
            assert s.hit is not None
            return (1 - s.hit.attacker,)
        if s.phase is Phase.PIN:
            assert s.pinner is not None
            return (s.pinner,)
        if s.phase is Phase.KICK_OUT:
            assert s.pinner is not None
            return (1 - s.pinner,)
        assert s.current is not None, s.phase
        return (s.current.seat,)

    # -- legal actions -----------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        if seat not in self.pending(state).seats:
            return []
        return [a.to_json() for a in self._legal(state, state.teams[seat])]

    def _legal(self, s: State, seat: int) -> list[Action]:
        """The legal actions of a side (internally a 'seat' is a side: 0 Red, 1 Blue)."""
        if not self._waits_for(s, seat):
            return []
        if s.phase in (Phase.DRAFT, Phase.SEND_IN, Phase.BONUS, Phase.TAG):
            return self._event_options(s, seat)
        side = s.sides[seat]
        match s.phase:
            case Phase.PLAY:
                return [Action(ActionType.PLAY_SPOTS, cards=trio)
                        for trio in itertools.permutations(sorted(side.hand), SPOTS)]
            case Phase.REVERSAL:
                return self._reversal_options(s, seat)
            case Phase.ACTIONS:
                return [Action(ActionType.RESOLVE, act=a) for a in self.available(s)] + [
                    Action(ActionType.ASSIST, superstar=m.superstar)
                    for m in self._assistants(s)] + [Action(ActionType.DONE)]
            case Phase.MOTION:
                return self._motion_options(s)
            case Phase.SHOVE:
                return [Action(ActionType.SHOVE, to=sq) for sq in self._shove_squares(s)] + [
                    Action(ActionType.NO_SHOVE)]
            case Phase.HIT:
                return self._hit_options(s)
            case Phase.CORNER:
                return [Action(ActionType.CORNER_HIT), Action(ActionType.NO_CORNER_HIT)]
            case Phase.STUN:
                return [Action(ActionType.EXTRA_CARD, card=c) for c in sorted(side.hand)]
            case Phase.PIN:
                return [Action(ActionType.PIN), Action(ActionType.NO_PIN)]
            case Phase.KICK_OUT:
                return [Action(ActionType.KICK_OUT, card=c) for c in sorted(side.hand)
                        if s.card(c).has(Act.KICK_OUT)] + [
                    Action(ActionType.TAG_OUT, superstar=m.superstar)
                    for _, m in self._tag_partners(s, seat)] + [Action(ActionType.THREE_COUNT)]
        return []

    def is_legal(self, state: State, seat: int, action: JSON) -> bool:
        """Legal, or refused with a code that says why (never a KeyError)."""
        act = parse_action(action)
        side = state.teams[seat]
        if act.type is ActionType.PLAY_SPOTS and self._plays(state, side, act.cards):
            return True  # what _legal lists, without listing every ordered trio of the hand
        if act in self._legal(state, side):
            return True
        self._diagnose(state, side, act)
        raise IllegalAction("illegal_action", "That action is not legal now.")

    def _waits_for(self, s: State, seat: int) -> bool:
        """Whether a decision of the side is pending (no chance event before it)."""
        return not (s.phase is Phase.OVER or s.shuffles or self._event_chance(s)) and (
            seat in self._deciders(s))

    def _plays(self, s: State, seat: int, cards: tuple[str, ...]) -> bool:
        """Whether `cards` is one of the side's legal Plays (one of `_legal`'s ordered
        trios): three distinct cards of its hand, in the Play step, its turn to play."""
        return (s.phase is Phase.PLAY and self._waits_for(s, seat) and len(cards) == SPOTS
                and len(set(cards)) == SPOTS and all(c in s.sides[seat].hand for c in cards))

    # -- applying ----------------------------------------------------------------------
    def _decide(self, state: State, seat: int, action: JSON) -> State:
        s = state.clone()
        act = parse_action(action)
        handler = getattr(self, f"_do_{act.type}")
        handler(s, s.teams[seat], act)
        self._advance(s)
        return s

    def _resolve_chance(self, state: State, outcome: JSON) -> State:
        """A stored shuffle: deck and discard together become the new deck in that order."""
        if not state.shuffles:
            return self._resolve_event_chance(state, outcome)
        seat, why = state.shuffles[0]
        member = int(why.split(":")[1]) if why.startswith("bench:") else None
        pile: Side | Member = state.sides[seat] if member is None else state.sides[seat].bench[
            member]
        data = outcome.get("shuffle") if isinstance(outcome, Mapping) else None
        order = data.get("order") if isinstance(data, Mapping) else None
        if (not isinstance(data, Mapping) or data.get("seat") != seat
                or data.get("member") != member
                or not isinstance(order, list)
                or sorted(order, key=str) != sorted(pile.deck + pile.discard)):
            raise IllegalAction("bad_outcome", f"Expected a shuffle of {name(seat)}'s cards.")
        s = state.clone()
        pile = s.sides[seat] if member is None else s.sides[seat].bench[member]
        pile.deck, pile.discard = list(order), []
        s.shuffles.pop(0)
        if member is not None:
            _say(s, f"{name(seat)} shuffles the deck of {_star(pile.superstar)}.")
        elif why == "setup":
            _say(s, f"{name(seat)} shuffles their deck.")
        elif why == "breath":
            _say(s, f"{name(seat)} is outside the ropes and catches their breath: "
                    f"the discard pile is shuffled into the deck ({len(order)} cards).")
        else:
            _say(s, f"{name(seat)}'s deck ran out: the discard pile is shuffled into a new "
                    f"deck ({len(order)} cards).")
        self._advance(s)
        return s

    def sample_chance(self, state: State, rng: random.Random) -> JSON:
        need = self._event_chance(state)
        if not state.shuffles and need:
            ev = state.event
            assert ev is not None
            if need == "coin":
                return {"coin": rng.choice(SEATS)}
            if need == "match_card":
                return {"match_card": rng.choice(sorted(ev.drawable_cards()))}
            return {"stipulation": rng.choice(sorted(ev.drawable_stipulations()))}
        seat, why = state.shuffles[0]
        member = int(why.split(":")[1]) if why.startswith("bench:") else None
        pile: Side | Member = state.sides[seat] if member is None else state.sides[seat].bench[
            member]
        order = sorted(pile.deck + pile.discard)
        rng.shuffle(order)
        return {"shuffle": {"seat": seat, "member": member, "order": order}}

    # -- the automatic steps -----------------------------------------------------------
    def _advance(self, s: State) -> None:
        """Run the steps that need nobody until a decision, a shuffle or the end."""
        while not s.shuffles and s.phase is not Phase.OVER and not self._event_chance(s):
            if s.phase is Phase.SETUP:
                self._setup_match(s)
            elif s.phase is Phase.DRAW:
                self._draw(s)
            elif s.phase is Phase.COMPARE:
                self._compare(s)
            elif s.phase is Phase.THREE_COUNT:
                self._three_count(s)
            elif s.phase is Phase.ROUND_END:
                self._end_round(s)
            elif s.phase is Phase.HIT and s.hit and s.hit.owed_from_deck:
                self._give_from_deck(s)
            elif s.phase is Phase.ACTIONS and not self.available(s) and not self._assistants(s):
                self._finish_card(s)  # nothing left to choose but 'done'
            elif s.phase is Phase.MOTION and not self._motion_has_choice(s):
                self._finish_motion(s)
            else:
                assert s.phase in DECISION_PHASES
                return

    def _needs_shuffle(self, s: State, seat: int) -> bool:
        """SS-007: an empty deck with cards in the discard pile is reshuffled when needed."""
        side = s.sides[seat]
        if not side.deck and side.discard:
            s.shuffles.append((seat, "empty"))
            return True
        return False

    def _draw(self, s: State) -> None:
        """Step 1: Catching Your Breath (SS-052), then draw up to six (SS-015)."""
        for seat in SEATS:
            side = s.sides[seat]
            if not side.breath:
                side.breath = True
                if not BOARD.in_ring(side.pos) and side.discard:
                    s.shuffles.append((seat, "breath"))
                    return
            drawn = 0
            while len(side.hand) < HAND_SIZE:
                if self._needs_shuffle(s, seat):
                    if drawn:
                        _say(s, f"{name(seat)} draws {_cards(drawn)}.")
                    return
                if not side.deck:
                    break
                side.hand.append(side.deck.pop(0))
                drawn += 1
            if drawn:
                _say(s, f"{name(seat)} draws {_cards(drawn)}.")
        s.phase = Phase.PLAY
        short = [seat for seat in SEATS if len(s.sides[seat].hand) < SPOTS]
        if len(short) == 2:
            self._end(s, None, EndReason.DOUBLE_KNOCK_OUT,
                      "Neither Superstar can play three cards: a double Knock Out.")
        elif short:
            loser = short[0]
            self._end(s, 1 - loser, EndReason.KNOCKED_OUT,
                      f"{name(loser)} cannot play three cards and is Knocked Out.")

    # -- compare -----------------------------------------------------------------------
    def _top(self, s: State, seat: int, position: int) -> CardType:
        return s.card(s.sides[seat].stacks[position][-1]).type

    def _compare(self, s: State) -> None:
        """Step 3 for one position: reveal, break ties from the decks, find the winner."""
        p = s.position
        if p == SPOTS:
            self._start_pin(s)
            return
        red = s.sides[0]
        if not red.stacks[p]:
            s.reversed_by = []  # a new position: nobody has reversed here
            for seat, side in enumerate(s.sides):
                card = side.spots[p]
                assert card is not None
                side.stacks[p], side.spots[p] = [card], None
                _say(s, f"Position {p + 1}: {name(seat)} reveals {s.card(card).label}.")
        while True:
            outcome = compare(self._top(s, 0, p), self._top(s, 1, p))
            tied = len(red.stacks[p]) > 1
            if outcome is Outcome.NEITHER and not tied:
                _say(s, f"Position {p + 1}: both Blocks lose.")
                s.reversed_by = []
                self._blocks_lost(s, SEATS)
                return
            if outcome in (Outcome.FIRST, Outcome.SECOND):
                break
            # SS-028/029 (and SS-032: Blocks in a tie-break keep it going).
            if any(self._needs_shuffle(s, seat) for seat in SEATS):
                return
            able = [seat for seat in SEATS if s.sides[seat].deck]
            if len(able) < 2:
                # SS-008 decision: a side with no card at all to reveal loses the tie.
                _say(s, "A side has no card left to break the tie.")
                self._settle(s, able[0] if able else None)
                return
            for seat, side in enumerate(s.sides):
                side.stacks[p].append(side.deck.pop(0))
                _say(s, f"Tie! {name(seat)} reveals {s.card(side.stacks[p][-1]).label} "
                        "from the deck.")
        winner = 0 if outcome is Outcome.FIRST else 1
        s.reversed_by = []
        if not tied and self._may_reverse(s, 1 - winner, winner):
            s.reversal_winner, s.phase = winner, Phase.REVERSAL
            return
        self._settle(s, winner)

    def _may_reverse(self, s: State, loser: int, winner: int) -> bool:
        """SS-097..SS-100: a losing Reversal card, once per side, against a card some type
        beats. Whether the hand holds such a card is not asked: the table sees who is
        asked, so a side is asked on what is face up alone, and one with no card that wins
        has only `no_reverse` (SS-099)."""
        side, p = s.sides[loser], s.position
        if loser in s.reversed_by or not s.card(side.stacks[p][0]).has(Act.REVERSAL):
            return False
        target = self._top(s, winner, p)
        return any(beats(kind, target) for kind in CardType)

    def _reversal_options(self, s: State, seat: int) -> list[Action]:
        target = self._top(s, 1 - seat, s.position)
        return [Action(ActionType.REVERSE, card=c) for c in sorted(s.sides[seat].hand)
                if beats(s.card(c).type, target)] + [Action(ActionType.NO_REVERSE)]

    def _do_play_spots(self, s: State, seat: int, act: Action) -> None:
        """SS-017/018: three cards face down; the reveal waits for both sides."""
        side = s.sides[seat]
        for card in act.cards:
            side.hand.remove(card)
        side.spots, side.committed = list(act.cards), True
        if all(other.committed for other in s.sides):
            s.position, s.phase = 0, Phase.COMPARE

    def _do_reverse(self, s: State, seat: int, act: Action) -> None:
        assert act.card is not None
        side = s.sides[seat]
        side.hand.remove(act.card)
        side.stacks[s.position].append(act.card)
        s.reversed_by.append(seat)
        s.blocks_met = False  # the reversing card wins now
        _say(s, f"{name(seat)} reverses with {s.card(act.card).label}!")
        if self._may_reverse(s, 1 - seat, seat):
            s.reversal_winner = seat  # SS-100: the other side may now reverse back
            return
        self._settle(s, seat)

    def _blocks_lost(self, s: State, askable: Sequence[int]) -> None:
        """SS-025 with SS-097/098: both Blocks lost, so a Reversal Block among them may
        reverse (Red asked first, then Blue); nobody reversing leaves no winner."""
        for seat in askable:
            if self._may_reverse(s, seat, 1 - seat):
                s.reversal_winner, s.blocks_met, s.phase = 1 - seat, True, Phase.REVERSAL
                return
        self._settle(s, None)

    def _do_no_reverse(self, s: State, seat: int, act: Action) -> None:
        assert s.reversal_winner is not None
        if s.blocks_met:  # two Blocks lost: the other side may still reverse
            self._blocks_lost(s, [o for o in SEATS if o > seat])
            return
        self._settle(s, s.reversal_winner)

    def _settle(self, s: State, winner: int | None) -> None:
        """Losing cards leave the board (SS-024, countout SS-050/051); the winner acts."""
        p = s.position
        record: JSON = {
            "position": p + 1,
            "cards": [list(side.stacks[p]) for side in s.sides],
            "winner": winner,
            "tie": compare(*(s.card(side.stacks[p][0]).type for side in s.sides))
            is Outcome.TIE,  # the cards first revealed tied (SS-028): no Reversal then
            "reversed_by": list(s.reversed_by),
            "countout": [],
        }
        blocked = False
        for seat, side in enumerate(s.sides):
            if seat == winner:
                continue
            lost, side.stacks[p] = side.stacks[p], []
            blocked = blocked or s.card(lost[-1]).type is CardType.BLOCK
            if BOARD.in_ring(side.pos) or s.effect == Effect.NO_COUNTOUT:
                side.discard.extend(lost)
            else:
                s.rival(seat).performance.extend(lost)
                record["countout"].append(seat)
                _say(s, f"{name(seat)} is outside the ropes: the losing "
                        f"{_cards(len(lost))} {'is' if len(lost) == 1 else 'are'} Given Up "
                        "(countout).")
        s.outcomes.append(record)
        s.reversal_winner, s.blocks_met = None, False
        if winner is None:
            s.position += 1
            s.phase = Phase.COMPARE
            return
        _say(s, f"{name(winner)} wins position {p + 1}.")
        s.sides[winner].wins += 1
        self._start_card(s, winner, s.sides[winner].stacks[p][-1], extra=False, blocked=blocked)

    # -- resolving a winning card ------------------------------------------------------
    def _start_card(self, s: State, seat: int, card_id: str, extra: bool, blocked: bool) -> None:
        """A winning card takes the Setup bonus waiting for it (SS-084..SS-088)."""
        side, card = s.sides[seat], s.card(card_id)
        bonus_move, bonus_power = side.bonus_move, side.bonus_power
        side.bonus_move = side.bonus_power = 0
        move = card.value(Act.MOVE) + bonus_move
        if card.has(Act.ATTACK):
            attack = card.value(Act.ATTACK) + bonus_power
        elif not any(card.has(a) for a in (Act.MOMENTUM_ATTACK, Act.CORNER_ATTACK)):
            attack = bonus_power  # 'treat it as having a 1 power Attack Action'
        else:
            attack = 0
        s.current = Current(seat=seat, card=card_id, position=s.position, extra=extra,
                            blocked=blocked, move=move, attack=attack, power_bonus=bonus_power)
        s.phase = Phase.ACTIONS

    def available(self, s: State) -> list[Act]:
        """The Actions the current winning card may still take, in icon order."""
        c = s.current
        if c is None or s.phase is not Phase.ACTIONS or c.closed:
            return []
        card, me, rival = s.card(c.card), s.sides[c.seat], s.rival(c.seat)
        side_by_side = orthogonally_adjacent(me.pos, rival.pos)
        acts: list[Act] = []
        if c.move > 0:
            acts.append(Act.MOVE)
        if c.attack > 0 and side_by_side and not c.blocked:
            acts.append(Act.ATTACK)
        for act in card.icons:
            a = act.act
            if a in (Act.MOVE, Act.ATTACK, Act.REVERSAL, Act.KICK_OUT):
                continue
            ok = {
                Act.MOMENTUM_ATTACK: (not c.blocked and c.momentum_line > 0
                                      and me.pos == c.momentum_at
                                      and rival.pos == c.momentum_rival and side_by_side),
                Act.CORNER_ATTACK: BOARD.kind(me.pos) is Kind.TURNBUCKLE,
                Act.THROW: near(me.pos, rival.pos),
                Act.MOVEMENT_SETUP: c.extra or c.position < SPOTS - 1,
                Act.POWER_SETUP: c.extra or c.position < SPOTS - 1,
                Act.STUN: c.gave_up and bool(me.hand),
            }[a]
            if ok:
                acts.append(a)
        return [a for a in acts if a not in c.used]

    def _do_resolve(self, s: State, seat: int, act: Action) -> None:
        c, a = s.current, act.act
        assert c is not None and a is not None
        c.used.append(a)
        me = s.sides[seat]
        if a is Act.MOVE:
            self._start_motion(s, Motion(seat, MotionMode.MOVE, c.move))
        elif a is Act.CORNER_ATTACK:
            _say(s, f"{name(seat)} goes for a Corner Attack from the turnbuckle.")
            self._start_motion(s, Motion(seat, MotionMode.CORNER, CORNER_SQUARES))
        elif a is Act.THROW:
            _say(s, f"{name(seat)} throws {name(1 - seat)}.")
            self._start_motion(s, Motion(1 - seat, MotionMode.THROW, THROW_SQUARES))
        elif a is Act.ATTACK:
            self._start_hit(s, c.attack, "an Attack")
        elif a is Act.MOMENTUM_ATTACK:
            self._start_hit(s, c.momentum_line + c.power_bonus, "a Momentum Attack")
        elif a is Act.MOVEMENT_SETUP:
            me.bonus_move += 1
            _say(s, f"{name(seat)} sets up: +1 movement for the next winning card.")
        elif a is Act.POWER_SETUP:
            me.bonus_power += 1
            _say(s, f"{name(seat)} sets up: +1 power for the next winning card.")
        elif a is Act.STUN:
            _say(s, f"{name(seat)} stuns {name(1 - seat)} and plays an extra card.")
            s.phase = Phase.STUN

    def _do_done(self, s: State, seat: int, act: Action) -> None:
        c = s.current
        assert c is not None
        if c.used and not c.assisted and self.available(s) and s.sides[c.seat].ringside():
            c.closed = True  # SS-156: the Active is done; its teammate may still move after
            return
        self._finish_card(s)

    def _finish_card(self, s: State) -> None:
        s.current = None
        s.position += 1
        s.phase = Phase.COMPARE

    def _do_extra_card(self, s: State, seat: int, act: Action) -> None:
        """SS-089..SS-092: the extra card is resolved as a winning card and counts as one."""
        assert act.card is not None
        side = s.sides[seat]
        side.hand.remove(act.card)
        side.extras.append(act.card)
        side.wins += 1
        _say(s, f"{name(seat)} plays the extra card {s.card(act.card).label}.")
        self._start_card(s, seat, act.card, extra=True, blocked=False)

    # -- movement ----------------------------------------------------------------------
    def _start_motion(self, s: State, motion: Motion) -> None:
        s.motion = motion
        s.phase = Phase.MOTION

    def _run_squares(self, s: State) -> list[Square]:
        """After a bounce: every square straight away from the ropes, inside the ring."""
        m = s.motion
        assert m is not None and m.bounce_dir is not None
        squares, here = [], s.sides[m.mover].pos
        while BOARD.on_grid(here := step(here, m.bounce_dir)) and BOARD.in_ring(here):
            squares.append(here)
        return squares

    def _may_bounce(self, m: Motion) -> bool:
        # SS-063/064; MAX_BOUNCES bounds the chain (a third bounce repeats the first).
        return m.mode is MotionMode.MOVE and m.on_ropes and m.bounces < MAX_BOUNCES

    def _motion_options(self, s: State) -> list[Action]:
        m = s.motion
        assert m is not None
        if m.bounce_dir is not None:
            return [Action(ActionType.STEP, to=sq) for sq in self._run_squares(s)]
        acts: list[Action] = []
        if m.left > 0:
            here = self._pos(s, m.mover, m.member)
            acts += [Action(ActionType.STEP, to=sq) for sq in BOARD.neighbours(here)
                     if self._may_step(s, m, here, sq)]
        if self._may_bounce(m):
            acts.append(Action(ActionType.BOUNCE))
        return [*acts, Action(ActionType.STOP)]

    def _motion_has_choice(self, s: State) -> bool:
        m = s.motion
        assert m is not None
        return m.bounce_dir is not None or m.left > 0 or self._may_bounce(m)

    def _do_step(self, s: State, seat: int, act: Action) -> None:
        m = s.motion
        assert m is not None and act.to is not None
        here, to = self._pos(s, m.mover, m.member), act.to
        if m.bounce_dir is not None:
            # One run straight off the ropes; only these squares count for Momentum (SS-067).
            m.line = max(abs(to[0] - here[0]), abs(to[1] - here[1]))
            m.last_dir, m.bounce_dir, m.left = m.bounce_dir, None, 0
        else:
            direction = (to[0] - here[0], to[1] - here[1])
            m.line = m.line + 1 if direction == m.last_dir else 1
            m.last_dir = direction
            m.left -= 1
        self._set_pos(s, m.mover, m.member, to)
        m.on_ropes = BOARD.kind(to) is Kind.ROPES

    def _do_bounce(self, s: State, seat: int, act: Action) -> None:
        m = s.motion
        assert m is not None
        m.bounces += 1
        m.bounce_dir = BOARD.bounce[s.sides[m.mover].pos]
        m.on_ropes = False
        m.left = 0  # SS-064: once you stop bouncing, the move is over
        _say(s, f"{name(m.mover)} bounces off the ropes!")

    def _do_stop(self, s: State, seat: int, act: Action) -> None:
        self._finish_motion(s)

    def _finish_motion(self, s: State) -> None:
        m = s.motion
        assert m is not None
        here = self._pos(s, m.mover, m.member)
        verb = "is thrown" if m.mode is MotionMode.THROW else "moves"
        _say(s, f"{self._who(s, m.mover, m.member)} {verb} to {list(here)}.")
        m.target = self._occupant(s, m)
        if m.target is not None and self._shove_squares(s):
            s.phase = Phase.SHOVE  # SS-060/080/154: ending on a Superstar allows a shove
            return
        self._after_motion(s)

    def _occupant(self, s: State, m: Motion) -> tuple[int, int | None] | None:
        """Another Superstar on the mover's square: an Active one first, then teammates."""
        here = self._pos(s, m.mover, m.member)
        others: list[tuple[int, int | None]] = [(1 - m.mover, None), (m.mover, None)]
        others += [(t, k) for t in (m.mover, 1 - m.mover) for k, _ in s.sides[t].ringside()]
        for who in others:
            if who != (m.mover, m.member) and self._pos(s, *who) == here:
                return who
        return None

    def _shove_squares(self, s: State) -> list[Square]:
        """SS-061: one square any way, never into or out of the ring."""
        m = s.motion
        assert m is not None
        here = self._pos(s, m.mover, m.member)
        return [sq for sq in BOARD.neighbours(here) if BOARD.in_ring(sq) == BOARD.in_ring(here)]

    def _do_shove(self, s: State, seat: int, act: Action) -> None:
        m = s.motion
        assert m is not None and act.to is not None and m.target is not None
        self._set_pos(s, *m.target, act.to)
        _say(s, f"{self._who(s, *m.target)} is shoved to {list(act.to)}.")
        self._after_motion(s)

    def _do_no_shove(self, s: State, seat: int, act: Action) -> None:
        self._after_motion(s)

    def _after_motion(self, s: State) -> None:
        m, c = s.motion, s.current
        assert m is not None and c is not None
        s.motion = None
        s.phase = Phase.ACTIONS
        me, rival = s.sides[c.seat], s.rival(c.seat)
        if m.mode is MotionMode.ASSIST:
            return
        if m.mode is MotionMode.MOVE:
            # SS-066/068: the line counts only for a stop side by side with the rival,
            # and only while both stay where they were.
            if orthogonally_adjacent(me.pos, rival.pos):
                c.momentum_line, c.momentum_at, c.momentum_rival = m.line, me.pos, rival.pos
            else:
                c.momentum_line, c.momentum_at, c.momentum_rival = 0, None, None
        elif (m.mode is MotionMode.CORNER and not c.blocked
              and orthogonally_adjacent(me.pos, rival.pos)):
            s.phase = Phase.CORNER  # SS-033/SS-075: the power-3 hit is the player's choice

    def _do_corner_hit(self, s: State, seat: int, act: Action) -> None:
        c = s.current
        assert c is not None
        s.phase = Phase.ACTIONS
        self._start_hit(s, CORNER_POWER + c.power_bonus, "a Corner Attack")

    def _do_no_corner_hit(self, s: State, seat: int, act: Action) -> None:
        s.phase = Phase.ACTIONS

    # -- delivering a hit ---------------------------------------------------------------
    def _start_hit(self, s: State, power: int, what: str) -> None:
        """SS-069/071/058: the rival Blocks from hand or Gives Up `power` cards."""
        c = s.current
        assert c is not None
        target = s.rival(c.seat)
        if BOARD.kind(target.pos) is Kind.TURNBUCKLE:
            power += 1
        helpers = [m for _, m in s.sides[c.seat].ringside()
                   if m.pos is not None and orthogonally_adjacent(m.pos, target.pos)]
        if helpers:  # SS-158: Teammate Interference
            power += INTERFERENCE * len(helpers)
            _say(s, f"Teammate Interference: {', '.join(_star(m.superstar) for m in helpers)} "
                    f"adds +{INTERFERENCE * len(helpers)} power from outside the ring!")
        _say(s, f"{name(c.seat)} hits with {what} of power {power}.")
        s.hit = Hit(attacker=c.seat, power=power, stunned=c.extra)
        s.phase = Phase.HIT
        if not self._can_block(s) and self._supply(target) < power:
            self._end(s, c.seat, EndReason.KNOCKED_OUT,
                      f"{name(1 - c.seat)} cannot Give Up {power} cards and is Knocked Out!")

    def _supply(self, side: Side) -> int:
        """Cards a side could still Give Up: hand, deck and (reshuffled) discard (SS-008)."""
        return len(side.hand) + len(side.deck) + len(side.discard)

    def _can_block(self, s: State) -> bool:
        hit = s.hit
        assert hit is not None
        target = s.sides[1 - hit.attacker]
        return (hit.given == 0 and not hit.stunned
                and any(s.card(c).type is CardType.BLOCK for c in target.hand))

    def _hit_options(self, s: State) -> list[Action]:
        hit = s.hit
        assert hit is not None
        target = s.sides[1 - hit.attacker]
        acts: list[Action] = []
        if self._can_block(s):
            acts += [Action(ActionType.BLOCK, card=c) for c in sorted(target.hand)
                     if s.card(c).type is CardType.BLOCK]
        if self._supply(target) >= hit.power - hit.given:
            acts += [Action(ActionType.GIVE_UP, card=c) for c in sorted(target.hand)]
            if target.deck or target.discard:
                acts.append(Action(ActionType.GIVE_UP_DECK))
        return acts

    def _do_block(self, s: State, seat: int, act: Action) -> None:
        assert act.card is not None
        side = s.sides[seat]
        side.hand.remove(act.card)
        s.rival(seat).performance.append(act.card)
        _say(s, f"{name(seat)} Gives Up the Block {s.card(act.card).label} and stops the hit.")
        self._end_hit(s)

    def _do_give_up(self, s: State, seat: int, act: Action) -> None:
        assert act.card is not None
        side = s.sides[seat]
        side.hand.remove(act.card)
        _say(s, f"{name(seat)} Gives Up {s.card(act.card).label} from hand.")
        self._gave_up(s, seat, act.card)

    def _do_give_up_deck(self, s: State, seat: int, act: Action) -> None:
        assert s.hit is not None
        s.hit.owed_from_deck = True

    def _give_from_deck(self, s: State) -> None:
        hit = s.hit
        assert hit is not None
        seat = 1 - hit.attacker
        if self._needs_shuffle(s, seat):
            return
        card = s.sides[seat].deck.pop(0)
        hit.owed_from_deck = False
        _say(s, f"{name(seat)} Gives Up {s.card(card).label} from the top of the deck.")
        self._gave_up(s, seat, card)

    def _gave_up(self, s: State, seat: int, card: str) -> None:
        hit, c = s.hit, s.current
        assert hit is not None and c is not None
        s.rival(seat).performance.append(card)
        hit.given += 1
        c.gave_up = True
        if hit.given >= hit.power:
            self._end_hit(s)

    def _end_hit(self, s: State) -> None:
        s.hit = None
        s.phase = Phase.ACTIONS

    # -- pin, kick out, round end -------------------------------------------------------
    def _start_pin(self, s: State) -> None:
        """SS-040..SS-044: more winning cards, side by side, both inside the ring."""
        red, blue = s.sides
        if red.wins != blue.wins and s.effect != Effect.NO_PINS:
            pinner = 0 if red.wins > blue.wins else 1
            me, rival = s.sides[pinner], s.rival(pinner)
            anywhere = s.effect == Effect.PINS_ANYWHERE
            if ((anywhere or (BOARD.in_ring(me.pos) and BOARD.in_ring(rival.pos)))
                    and orthogonally_adjacent(me.pos, rival.pos)):
                s.pinner, s.phase = pinner, Phase.PIN
                return
        s.phase = Phase.ROUND_END

    def _do_pin(self, s: State, seat: int, act: Action) -> None:
        s.sides[seat].pins += 1
        s.phase = Phase.KICK_OUT
        _say(s, f"{name(seat)} goes for the Pin!")

    def _do_no_pin(self, s: State, seat: int, act: Action) -> None:
        s.phase = Phase.ROUND_END

    def _do_kick_out(self, s: State, seat: int, act: Action) -> None:
        assert act.card is not None
        side = s.sides[seat]
        side.hand.remove(act.card)
        s.rival(seat).performance.append(act.card)
        side.kick_outs += 1
        _say(s, f"{name(seat)} Gives Up {s.card(act.card).label} and Kicks Out!")
        s.phase = Phase.ROUND_END

    def _do_three_count(self, s: State, seat: int, act: Action) -> None:
        s.count = 0
        s.phase = Phase.THREE_COUNT

    def _three_count(self, s: State) -> None:
        """SS-046..SS-048: reveal and Give Up the top card, up to three."""
        assert s.pinner is not None
        seat = 1 - s.pinner
        side = s.sides[seat]
        if self._needs_shuffle(s, seat):
            return
        if not side.deck:
            self._end(s, s.pinner, EndReason.KNOCKED_OUT,
                      f"{name(seat)} has no card left to Give Up and is Knocked Out!")
            return
        card = side.deck.pop(0)
        s.rival(seat).performance.append(card)
        s.count += 1
        _say(s, f"{('One', 'Two', 'Three')[s.count - 1]}! {name(seat)} Gives Up "
                f"{s.card(card).label}.")
        if s.card(card).has(Act.KICK_OUT):
            side.kick_outs += 1
            _say(s, f"{name(seat)} Kicks Out!")
            s.phase = Phase.ROUND_END
        elif s.count >= s.count_needed:
            pinner = s.sides[s.pinner]
            if s.effect == Effect.TWO_FALLS and pinner.falls == 0:
                pinner.falls += 1
                _say(s, f"{name(s.pinner)} pins {name(seat)}: the first fall! One more to win.")
                s.phase = Phase.ROUND_END
                return
            self._end(s, s.pinner, EndReason.PINNED,
                      f"{name(s.pinner)} pins {name(seat)} for the count!")

    def _clear_board(self, s: State) -> None:
        """SS-036: every card on the board goes to its owner's discard pile."""
        for side in s.sides:
            side.discard.extend(side.on_board())
            side.spots = [None] * SPOTS
            side.stacks = [[] for _ in range(SPOTS)]
            side.extras = []
            side.committed = False
            side.wins = side.bonus_move = side.bonus_power = 0
            side.breath = False
        s.last_outcomes, s.outcomes = s.outcomes, []
        s.position, s.pinner, s.count, s.current = 0, None, 0, None

    def _end_round(self, s: State) -> None:
        """SS-035/036: the board is cleared; a Tag Out may follow (SS-147); a new round."""
        self._clear_board(s)
        kicked = None
        if s.tag_kick is not None:
            kicked, member = s.tag_kick
            s.tag_kick = None
            if s.round < s.round_limit:  # at the time limit the Match ends: no tag to shuffle
                self._tag(s, kicked, member)
        if s.round >= s.round_limit:
            self._time_limit(s)
            return
        s.tag_queue = [t for t in SEATS if t != kicked and self._tag_partners(s, t)]
        if s.tag_queue:
            s.phase = Phase.TAG
            return
        self._next_round(s)

    def _next_round(self, s: State) -> None:
        s.round += 1
        s.phase = Phase.DRAW

    def _time_limit(self, s: State) -> None:
        """SS-003 decision: the last round is over; the bigger Performance Stack wins."""
        red, blue = (len(side.performance) for side in s.sides)
        winner = None if red == blue else (0 if red > blue else 1)
        self._end(s, winner, EndReason.TIME_LIMIT,
                  f"Time limit after {s.round} rounds: Performance Stacks {red}-{blue}.")

    def _end(self, s: State, winner: int | None, reason: EndReason, text: str) -> None:
        if s.event is not None:
            self._match_over(s, winner, reason, text)
            return
        s.phase, s.winner, s.draw, s.end_reason = Phase.OVER, winner, winner is None, reason
        s.hit = s.motion = None
        _say(s, text)

    def _result(self, s: State) -> Result:
        if s.event is not None:
            return self._event_result(s)
        placements = {None: (1, 1), 0: (1, 2), 1: (2, 1)}[s.winner]
        figures = {
            seat: {
                "performance_stack": float(len(side.performance)),
                "pins": float(side.pins),
                "kick_outs": float(side.kick_outs),
                "cards_left": float(self._supply(side) + len(side.on_board())),
                "rounds": float(s.round),
            }
            for seat, side in enumerate(s.sides)
        }
        winners = () if s.winner is None else (s.winner,)
        summary = s.journal[-1] if s.journal else str(s.end_reason)
        return Result(placements, winners, s.winner is None, figures,
                      f"{summary} ({s.end_reason})")

    # -- Tag Team (SS-143..SS-158) ----------------------------------------------------------
    def _pos(self, s: State, side: int, member: int | None) -> Square:
        """Where a Superstar stands: a side's Active one (member None) or a teammate."""
        if member is None:
            return s.sides[side].pos
        pos = s.sides[side].bench[member].pos
        assert pos is not None
        return pos

    def _set_pos(self, s: State, side: int, member: int | None, square: Square) -> None:
        if member is None:
            s.sides[side].pos = square
        else:
            s.sides[side].bench[member].pos = square

    def _who(self, s: State, side: int, member: int | None) -> str:
        if member is None:
            return name(side)
        return f"{name(side)}'s teammate {_star(s.sides[side].bench[member].superstar)}"

    def _may_step(self, s: State, m: Motion, here: Square, to: Square) -> bool:
        """SS-153: an Inactive Superstar never enters the ring; a Steel Cage keeps the
        Active Superstars in it."""
        if m.mode is MotionMode.ASSIST:
            return not BOARD.in_ring(to)
        if s.effect == Effect.NO_LEAVING_RING and BOARD.in_ring(here):
            return BOARD.in_ring(to)
        return True

    def _tag_partners(self, s: State, seat: int) -> list[tuple[int, Member]]:
        """SS-146/147/152: teammates in the team's own Tag Zone, next to the Active one."""
        if s.kind is not MatchKind.TAG:
            return []
        side = s.sides[seat]
        return [(k, m) for k, m in side.ringside()
                if m.pos in BOARD.tag_zones[seat] and m.pos != side.pos
                and near(m.pos, side.pos)]

    def _tag(self, s: State, seat: int, member: int) -> None:
        """SS-148..SS-150: hand and discard go into the Active's deck, which is set aside
        (shuffled) with its Given Up cards still out; the teammate comes in; they swap."""
        side = s.sides[seat]
        mate = side.bench[member]
        assert mate.pos is not None
        # The tagged-out Superstar takes the teammate's square; the teammate takes its.
        out = Member(side.superstar, side.slot, mate.pos, side.deck + side.discard + side.hand)
        side.superstar, side.slot = mate.superstar, mate.slot
        side.deck, side.discard, side.hand = mate.deck, mate.discard, []
        side.bench[member] = out
        _say(s, f"{name(seat)} tags out: {_star(out.superstar)} tags in {_star(side.superstar)}!")
        s.shuffles.append((seat, f"bench:{member}"))

    def _do_tag_out(self, s: State, seat: int, act: Action) -> None:
        member = next(k for k, m in self._tag_partners(s, seat) if m.superstar == act.superstar)
        if s.phase is Phase.KICK_OUT:  # SS-151: a Tag Team Kick Out, no card needed
            s.sides[seat].kick_outs += 1
            s.tag_kick = (seat, member)
            _say(s, f"{name(seat)} reaches the Tag Zone and Kicks Out by tagging out!")
            s.phase = Phase.ROUND_END
            return
        s.tag_queue.pop(0)
        self._tag(s, seat, member)
        if not s.tag_queue:
            self._next_round(s)

    def _do_no_tag(self, s: State, seat: int, act: Action) -> None:
        s.tag_queue.pop(0)
        if not s.tag_queue:
            self._next_round(s)

    def _assistants(self, s: State) -> list[Member]:
        """SS-155/SS-156: one Inactive teammate may Move 3 for each winning card, before
        the Active's first Action of it or after the Active is done with it (`done`, or
        nothing left to take), never in between."""
        c = s.current
        if c is None or c.assisted or s.phase is not Phase.ACTIONS:
            return []
        if c.used and self.available(s):
            return []  # the Active is in the middle of its card
        return [m for _, m in s.sides[c.seat].ringside()]

    def _do_assist(self, s: State, seat: int, act: Action) -> None:
        c = s.current
        assert c is not None
        c.assisted = True
        c.closed = bool(c.used)  # after the Active's Actions: the card ends with the move
        member = next(k for k, m in s.sides[seat].ringside() if m.superstar == act.superstar)
        _say(s, f"{self._who(s, seat, member)} moves outside the ring.")
        self._start_motion(s, Motion(seat, MotionMode.ASSIST, ASSIST_SQUARES, member=member))

    # -- the Event (SS-114..SS-142) -----------------------------------------------------
    def _start_event(self, resolved: Mapping[str, Any], n_seats: int, limit: int) -> State:
        plan = read_event_options(resolved["event"])
        teams = resolved["teams"]
        if teams is None:
            teams = [seat % 2 for seat in range(n_seats)]
        if (not isinstance(teams, list) or len(teams) != n_seats
                or not all(t in (0, 1) and not isinstance(t, bool) for t in teams)
                or not all(1 <= teams.count(t) <= 3 for t in SEATS)):
            raise IllegalAction("bad_option", f"Option 'teams' must give each of the {n_seats} "
                                              "seats a team, 0 or 1, with 1-3 players a team.")
        size = plan.superstars_per_team
        ev = EventInfo(plan=plan, bonus=[[[] for _ in range(size)] for _ in SEATS],
                       matches=[MatchRecord(card=m, stipulation=st) for m, st in plan.matches])
        sides = [Side(superstar="", pos=BOARD.starts[t], deck=[]) for t in SEATS]
        return State(superstars=("", ""), decks=((), ()), round_limit=limit, sides=sides,
                     phase=Phase.DRAFT, teams=tuple(teams), event=ev, option_round_limit=limit)

    def _event_chance(self, s: State) -> str | None:
        """The Event's chance events: the coin flip, a drawn Match card or Stipulation."""
        ev = s.event
        if ev is None:
            return None
        if s.phase is Phase.DRAFT and ev.first_pick is None:
            return "coin"
        if s.phase is Phase.SETUP:
            if ev.record.card is None:
                return "match_card"
            if ev.record.stipulation is None:
                return "stipulation"
        return None

    def _resolve_event_chance(self, state: State, outcome: JSON) -> State:
        need = self._event_chance(state)
        ev = state.event
        assert ev is not None and need is not None
        value: Any = outcome.get(need) if isinstance(outcome, Mapping) else None
        allowed: list[Any] = list(SEATS) if need == "coin" else (
            ev.drawable_cards() if need == "match_card" else ev.drawable_stipulations())
        if value not in allowed or isinstance(value, bool):
            raise IllegalAction("bad_outcome", f"Expected {need}: one of {sorted(allowed)}.")
        s = state.clone()
        ev = s.event
        assert ev is not None
        if need == "coin":  # SS-116
            ev.first_pick = value
            _say(s, f"The coin flip goes to {name(value)}: {name(value)} picks first.")
        elif need == "match_card":  # SS-128
            ev.record.card = value
            ev.used_cards = [*ev.used_cards, value] if value not in ev.used_cards else [value]
            _say(s, f"Match {ev.current + 1} is drawn: {MATCH_CARDS[value].title}.")
        else:  # SS-129
            ev.record.stipulation = value
            ev.used_stipulations = ([*ev.used_stipulations, value]
                                    if value not in ev.used_stipulations else [value])
            _say(s, f"The Stipulation is drawn: {STIPULATIONS[value].title}.")
        self._advance(s)
        return s

    def _event_options(self, s: State, seat: int) -> list[Action]:
        ev = s.event
        if s.phase is Phase.TAG:
            return [Action(ActionType.TAG_OUT, superstar=m.superstar)
                    for _, m in self._tag_partners(s, seat)] + [Action(ActionType.NO_TAG)]
        assert ev is not None
        if s.phase is Phase.DRAFT:
            taken = set(ev.rosters[0] + ev.rosters[1])
            return [Action(ActionType.DRAFT, superstar=k) for k in sorted(ROSTER) if k not in taken]
        if s.phase is Phase.SEND_IN:
            return [Action(ActionType.SEND_IN, superstars=tuple(p))
                    for p in itertools.permutations(ev.rosters[seat], ev.card().per_side)]
        left = ev.stack_left[seat]
        return [Action(ActionType.BUY_BONUS, card=b, superstar=k)
                for b in ev.pool if BONUS_CARDS[b].price <= left
                for k in ev.rosters[seat]] + [Action(ActionType.BONUS_POINTS, points=left)]

    def _do_draft(self, s: State, seat: int, act: Action) -> None:
        """SS-117: one pick; when both rosters are full the Matches begin."""
        ev = s.event
        assert ev is not None and act.superstar is not None
        ev.rosters[seat].append(act.superstar)
        ev.picks.append(seat)
        _say(s, f"{name(seat)} drafts {_star(act.superstar)}.")
        if len(ev.picks) == 2 * ev.plan.superstars_per_team:
            self._build_catalog(s)
            s.phase = Phase.SETUP

    def _build_catalog(self, s: State) -> None:
        """Every card id of the Event: 'r2-07' is card 7 of Red's second pick; 31 and up
        are Bonus cards in the order they were bought."""
        ev = s.event
        assert ev is not None
        catalog: dict[str, Card] = {}
        for team in SEATS:
            for slot in range(len(ev.rosters[team])):
                for card_id, design in zip(self._deck_ids(s, team, slot),
                                           self._designs(s, team, slot), strict=True):
                    catalog[card_id] = design
        s.catalog = catalog

    def _deck_ids(self, s: State, team: int, slot: int) -> list[str]:
        ev = s.event
        assert ev is not None
        size = len(ROSTER[ev.rosters[team][slot]].deck) + len(ev.bonus[team][slot])
        return [f"{COLOURS[team][0]}{slot + 1}-{n:02d}" for n in range(1, size + 1)]

    def _designs(self, s: State, team: int, slot: int) -> list[Card]:
        ev = s.event
        assert ev is not None
        return list(ROSTER[ev.rosters[team][slot]].deck) + [
            BONUS_CARDS[b].card for b in ev.bonus[team][slot]]

    def _setup_match(self, s: State) -> None:
        ev = s.event
        assert ev is not None
        s.send_in = [None, None]
        s.phase = Phase.SEND_IN
        _say(s, f"Match {ev.current + 1} of {len(ev.matches)}: {ev.card().title}, "
                f"{ev.stipulation().title}. Both teams choose who goes in, face down.")

    def _do_send_in(self, s: State, seat: int, act: Action) -> None:
        """SS-133: face down until both teams have chosen; then the Match begins."""
        ev = s.event
        assert ev is not None
        s.send_in[seat] = [ev.rosters[seat].index(k) for k in act.superstars]
        if all(choice is not None for choice in s.send_in):
            self._begin_match(s)

    def _begin_match(self, s: State) -> None:
        ev = s.event
        assert ev is not None
        card, stip = ev.card(), ev.stipulation()
        ev.record.sent = [list(x) if x is not None else None for x in s.send_in]
        sides = []
        for team in SEATS:
            slots = s.send_in[team]
            assert slots is not None
            ringside = iter(self._bench_squares(team))
            bench = [Member(ev.rosters[team][j], j,
                            next(ringside) if card.kind is MatchKind.TAG else None,
                            self._deck_ids(s, team, j)) for j in slots[1:]]
            first = slots[0]
            sides.append(Side(superstar=ev.rosters[team][first], pos=BOARD.starts[team],
                              deck=self._deck_ids(s, team, first), slot=first, bench=bench))
            names = " and ".join(_star(ev.rosters[team][j]) for j in slots)
            _say(s, f"{name(team)} sends in {names}.")
        s.sides = sides
        s.superstars = (sides[0].superstar, sides[1].superstar)
        s.kind, s.effect = card.kind, str(stip.effect)
        s.round_limit = (min(stip.rounds, s.option_round_limit) if stip.effect == Effect.SHORT_TIME
                         else s.option_round_limit)  # a Time Limit only ever shortens
        s.count_needed = 2 if stip.effect == Effect.TWO_COUNT else THREE_COUNT
        s.round, s.position, s.phase = 1, 0, Phase.DRAW
        s.current = s.motion = s.hit = None
        s.pinner, s.count, s.reversal_winner = None, 0, None
        s.outcomes, s.last_outcomes, s.reversed_by, s.tag_queue = [], [], [], []
        s.tag_kick, s.end_reason = None, None
        s.shuffles = [(t, "setup") for t in SEATS] + [
            (t, f"bench:{k}") for t in SEATS for k in range(len(s.sides[t].bench))]

    def _bench_squares(self, team: int) -> list[Square]:
        """Where Inactive teammates start: the team's Tag Zone squares nearest its corner."""
        start = BOARD.starts[team]
        corner = min((sq for r in range(BOARD.rows) for c in range(BOARD.cols)
                      if BOARD.kind(sq := (r, c)) is Kind.TURNBUCKLE),
                     key=lambda sq: abs(sq[0] - start[0]) + abs(sq[1] - start[1]))
        return sorted(BOARD.tag_zones[team],
                      key=lambda sq: (abs(sq[0] - corner[0]) + abs(sq[1] - corner[1]), sq))

    def _waiting(self, side: Side) -> int | None:
        return next((k for k, m in enumerate(side.bench) if m.pos is None), None)

    def _match_over(self, s: State, winner: int | None, reason: EndReason, text: str) -> None:
        """A Match inside an Event ends (a Gauntlet's next Superstar may enter instead)."""
        ev = s.event
        assert ev is not None
        _say(s, text)
        s.hit = s.motion = s.current = None
        defeat = reason in (EndReason.PINNED, EndReason.KNOCKED_OUT, EndReason.DOUBLE_KNOCK_OUT)
        losers = [] if not defeat else ([1 - winner] if winner is not None else [0, 1])
        for loser in losers:
            s.sides[1 - loser].defeated += 1
        if s.kind is MatchKind.GAUNTLET and losers:  # SS-122: the next one enters
            out = [t for t in losers if self._waiting(s.sides[t]) is None]
            if not out:
                self._clear_board(s)
                for loser in losers:
                    side = s.sides[loser]
                    mate = side.bench.pop(self._waiting(side) or 0)
                    side.superstar, side.slot, side.pos = mate.superstar, mate.slot, BOARD.starts[
                        loser]
                    side.deck, side.discard, side.hand = mate.deck, mate.discard, []
                    s.sides[1 - loser].falls = 0
                    _say(s, f"{_star(side.superstar)} enters the Gauntlet for {name(loser)}!")
                if s.round >= s.round_limit:  # SS-003: no round past the limit
                    self._time_limit(s)
                else:
                    self._next_round(s)
                return
            if winner is None and len(out) == 1:
                winner = 1 - out[0]
        rec, card = ev.record, ev.card()
        rec.winner, rec.draw, rec.finished = winner, winner is None, True
        rec.defeated = [side.defeated for side in s.sides]
        rec.points = [points_for(card, rec, t) for t in SEATS]
        rec.stacks = [len(side.performance) for side in s.sides]
        ev.stack_left = list(rec.stacks)
        s.end_reason = reason
        result = "a draw" if winner is None else f"{name(winner)} wins"
        _say(s, f"Match {ev.current + 1} is over, {result}: Ranking Points "
                f"{rec.points[0]}-{rec.points[1]}. Now both teams spend their Performance "
                f"Stacks ({rec.stacks[0]} and {rec.stacks[1]} cards).")
        s.phase = Phase.BONUS
        self._after_bonus(s)

    def _bonus_order(self, s: State) -> tuple[int, int]:
        """SS-135/SS-140: the Bonus cards are one shared pool, so the teams spend in turn:
        the Match's loser first; after a draw the team behind on Ranking Points, and if
        level, the team that picked second in the draft."""
        ev = s.event
        assert ev is not None
        rec = ev.record
        if rec.winner is not None:
            first = 1 - rec.winner
        else:
            totals = [sum(ev.totals(t)) for t in SEATS]
            first = (0 if totals[0] < totals[1] else 1) if totals[0] != totals[1] else (
                1 - (ev.first_pick or 0))
        return (first, 1 - first)

    def _do_buy_bonus(self, s: State, seat: int, act: Action) -> None:
        """SS-136/137: a Bonus card into one Superstar's deck for the rest of the Event."""
        ev = s.event
        assert ev is not None and act.card is not None and act.superstar is not None
        bonus = BONUS_CARDS[act.card]
        ev.pool.remove(act.card)
        ev.bonus[seat][ev.rosters[seat].index(act.superstar)].append(act.card)
        ev.record.bought[seat].append(act.card)
        ev.stack_left[seat] -= bonus.price
        self._build_catalog(s)
        _say(s, f"{name(seat)} spends {bonus.price} cards on the Bonus card "
                f"{bonus.card.label} for {_star(act.superstar)}.")
        self._after_bonus(s)

    def _do_bonus_points(self, s: State, seat: int, act: Action) -> None:
        """SS-138/139: the rest of the stack becomes bonus Ranking Points, one for one."""
        ev = s.event
        assert ev is not None and act.points is not None
        ev.record.bonus_points[seat] += act.points
        ev.stack_left[seat] = 0
        _say(s, f"{name(seat)} turns {act.points} cards into {act.points} bonus Ranking Points.")
        self._after_bonus(s)

    def _after_bonus(self, s: State) -> None:
        ev = s.event
        assert ev is not None
        if any(ev.stack_left):
            return
        ev.current += 1
        if ev.current < len(ev.matches):
            s.phase = Phase.SETUP
            return
        ev.current = len(ev.matches) - 1
        s.winner = ev.event_winner()
        s.draw = s.winner is None
        s.phase = Phase.OVER
        totals = [sum(ev.totals(t)) for t in SEATS]
        who = "a draw" if s.winner is None else f"{name(s.winner)} wins the Event"
        _say(s, f"The Event is over, {who}: Ranking Points {totals[0]}-{totals[1]}.")

    def _event_result(self, s: State) -> Result:
        ev = s.event
        assert ev is not None
        placements = tuple(1 if s.winner is None or t == s.winner else 2 for t in s.teams)
        figures = {}
        for seat, t in enumerate(s.teams):
            match_points, bonus_points = ev.totals(t)
            figures[seat] = {"ranking_points": float(match_points + bonus_points),
                             "match_points": float(match_points),
                             "bonus_points": float(bonus_points),
                             "matches_won": float(ev.wins(t))}
        winners = () if s.winner is None else tuple(s.players(s.winner))
        return Result(placements, winners, s.winner is None, figures,
                      s.journal[-1] if s.journal else "The Event is over.")

    # -- refusals ----------------------------------------------------------------------
    def _diagnose(self, s: State, seat: int, act: Action) -> None:
        """Raise the most specific reason an action is refused (messages hide nothing)."""
        expected = PHASE_TYPES.get(s.phase, frozenset())
        if act.type not in expected:
            raise IllegalAction("out_of_order", f"A {act.type} action is not expected now "
                                                f"(the game waits for: {s.phase}).")
        self._diagnose_team(s, seat, act)
        side = s.sides[seat]
        if act.type is ActionType.PLAY_SPOTS:
            if len(act.cards) != SPOTS:
                raise IllegalAction("wrong_card_count", "Play exactly three cards.")
            if len(set(act.cards)) != SPOTS:
                raise IllegalAction("duplicate_card", "The same card cannot fill two spots.")
        cards = act.cards if act.type is ActionType.PLAY_SPOTS else (act.card,)
        for card in cards:
            if card is not None and card not in side.hand:
                raise IllegalAction("card_not_in_hand", f"{quoted(card)} is not in your hand.")
        if act.type is ActionType.REVERSE:
            raise IllegalAction("reversal_must_win",
                                "The card played for a Reversal must beat the rival's card.")
        if act.type is ActionType.BLOCK:
            raise IllegalAction("cannot_block", "Only a Block card, before any card is Given "
                                                "Up and when not Stunned, stops a hit.")
        if act.type is ActionType.KICK_OUT:
            raise IllegalAction("no_kick_out", "That card has no Kick Out icon.")
        if act.type is ActionType.RESOLVE:
            assert s.current is not None and act.act is not None
            if act.act in s.current.used:
                raise IllegalAction("action_used", f"{act.act} was already taken.")
            raise IllegalAction("action_unavailable", f"{act.act} cannot be taken now.")
        if act.to is not None:
            if not BOARD.on_grid(act.to):
                raise IllegalAction("off_grid", f"{list(act.to)} is not a square of the ring.")
            m = s.motion
            if m is not None and s.phase is Phase.MOTION and act.to in BOARD.neighbours(
                    self._pos(s, m.mover, m.member)):
                if m.mode is MotionMode.ASSIST and BOARD.in_ring(act.to):
                    raise IllegalAction("inactive_cannot_enter_ring",
                                        "An Inactive Superstar may not enter the ring.")
                if s.effect == Effect.NO_LEAVING_RING and not BOARD.in_ring(act.to):
                    raise IllegalAction("cage_locked",
                                        "The Steel Cage is locked: nobody leaves the ring.")
            raise IllegalAction("bad_square", f"{list(act.to)} cannot be reached that way.")

    def _diagnose_team(self, s: State, seat: int, act: Action) -> None:
        """The refusals of the Advanced Rules' choices, each with its own code."""
        ev = s.event
        roster = ev.rosters[seat] if ev else []
        if act.type is ActionType.DRAFT and ev is not None:
            if act.superstar not in ROSTER:
                raise IllegalAction("unknown_superstar",
                                    f"There is no Superstar {quoted(act.superstar)}.")
            raise IllegalAction("superstar_taken", f"{_star(act.superstar or '')} is already drafted.")
        if act.type is ActionType.SEND_IN and ev is not None:
            if any(k not in roster for k in act.superstars):
                raise IllegalAction("not_your_superstar", "Send in only your team's Superstars.")
            if len(set(act.superstars)) != len(act.superstars):
                raise IllegalAction("duplicate_superstar", "A Superstar cannot go in twice.")
            raise IllegalAction("wrong_superstar_count",
                                f"{ev.card().title} takes "
                                f"{counted(ev.card().per_side, 'Superstar')} a team.")
        if act.type in (ActionType.TAG_OUT, ActionType.ASSIST):
            if s.kind is not MatchKind.TAG:
                raise IllegalAction("not_a_tag_match", "Only Tag Team Matches have teammates.")
            mates = {m.superstar: m for m in s.sides[seat].bench}
            mate = mates.get(act.superstar or "")
            if mate is None or mate.pos is None:
                raise IllegalAction("not_a_teammate",
                                    f"{quoted(act.superstar)} is not an Inactive teammate "
                                    "of yours.")
            if act.type is ActionType.ASSIST:
                if s.current is not None and not s.current.assisted:
                    raise IllegalAction("assist_mid_card",
                                        "A teammate moves before the Active's first Action of "
                                        "the card or after it is done, never in between.")
                raise IllegalAction("assist_used", "A teammate already moved for this card.")
            if mate.pos not in BOARD.tag_zones[seat]:
                raise IllegalAction("not_in_tag_zone",
                                    f"{_star(mate.superstar)} is not in your Tag Zone.")
            raise IllegalAction("not_adjacent",
                                f"{_star(mate.superstar)} is not next to your Active Superstar.")
        if act.type is ActionType.BUY_BONUS and ev is not None:
            bonus = BONUS_CARDS.get(act.card or "")
            if bonus is None:
                raise IllegalAction("unknown_bonus_card",
                                    f"There is no Bonus card {quoted(act.card)}.")
            if act.card not in ev.pool:
                raise IllegalAction("bonus_card_sold", f"{bonus.card.label} is already bought.")
            if act.superstar not in roster:
                raise IllegalAction("not_your_superstar", "Add Bonus cards to your own Superstars.")
            raise IllegalAction("over_stack", f"{bonus.card.label} costs {bonus.price} cards; "
                                              f"{ev.stack_left[seat]} are left in your stack.")
        if act.type is ActionType.BONUS_POINTS and ev is not None:
            left = ev.stack_left[seat]
            if act.points is not None and act.points > left:
                raise IllegalAction("over_stack", f"Only {left} cards are left in your stack.")
            raise IllegalAction("stack_not_spent", f"Spend the whole stack: {left} cards are "
                                                   "left; none can be saved (SS-139).")

    # -- what each seat sees -----------------------------------------------------------
    def view(self, state: State, seat: int | None) -> JSON:
        check_viewer(seat, len(state.teams))
        pending = self.pending(state)
        result = pending.result.to_json() if pending.result else None
        deciders = pending.seats if pending.kind == "decision" else ()
        available = [str(a) for a in self.available(state)]
        return views.view(state, seat, deciders, pending.kind == "chance", available, result)

    def redact(self, state_before: State, event: Event, viewer: int | None) -> JSON:
        check_viewer(viewer, len(state_before.teams))
        return views.redact(event, viewer, state_before.teams)

    def narrate(self, state_before: State, event: Event) -> list[str]:
        """Plain sentences of what happened; only public facts (the rules' own journal)."""
        after = self.apply(state_before, event)
        lines = list(after.journal)
        if event.kind is EventKind.DECISION and event.action:
            kind = event.action.get("type")
            seat = state_before.teams[event.seat] if event.seat is not None else 0
            if kind == ActionType.PLAY_SPOTS:
                lines.insert(0, f"{name(seat)} plays three cards face down.")
            elif kind == ActionType.SEND_IN:
                lines.insert(0, f"{name(seat)} chooses face down who goes in.")
            elif kind == ActionType.NO_PIN:
                lines.insert(0, f"{name(seat)} does not go for the Pin.")
            elif kind == ActionType.THREE_COUNT:
                lines.insert(0, f"{name(seat)} takes the Three Count.")
            elif not lines:
                lines.append(_quiet_choice(name(seat), kind, event.action))
        return lines

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state `seat` cannot tell apart (view.determinize resamples the hidden cards;
        being asked to Reverse tells nothing of a hand, see `_may_reverse`)."""
        check_viewer(seat, len(state.teams))
        return views.determinize(state, seat, rng)


def _quiet_choice(who: str, kind: object, action: JSON) -> str:
    """A sentence for a choice the journal has nothing to say about (a step, a stop)."""
    if kind == ActionType.STEP:
        return f"{who} chooses square {list(action.get('to', []))}."
    sentences = {
        ActionType.BOUNCE: "bounces off the ropes.",
        ActionType.STOP: "stops moving.",
        ActionType.DONE: "finishes the winning card's Actions.",
        ActionType.NO_SHOVE: "does not shove.",
        ActionType.NO_REVERSE: "does not Reverse.",
        ActionType.NO_TAG: "stays in the ring.",
        ActionType.NO_CORNER_HIT: "does not hit with the Corner Attack.",
    }
    return f"{who} {sentences.get(kind, 'makes a choice.')}"  # type: ignore[call-overload]
