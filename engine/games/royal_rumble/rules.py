"""The round: Plan, Reveal, Attack (defend, intervene, hit, follow-ups), End of Turn."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.games.royal_rumble import view as views
from engine.games.royal_rumble.cards import (
    ACTION_IDS,
    ROSTER,
    Effect,
    Kind,
    Special,
    card,
)
from engine.games.royal_rumble.combat import damage, health, profile
from engine.games.royal_rumble.state import (
    HAND_SIZE,
    LEGENDS_PER_PLAYER,
    Action,
    ActionType,
    Attack,
    EndReason,
    Phase,
    Player,
    Revealed,
    State,
    Step,
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

DEFAULT_ROUND_LIMIT = 40

SPEC = GameSpec(
    key="royal_rumble",
    title="Royal Rumble",
    min_seats=2,
    max_seats=10,
    has_chance=True,
    has_hidden_information=True,
    options={
        "round_limit": Option(DEFAULT_ROUND_LIMIT,
                              help="After this many rounds (1 to 200) the game ends, the "
                                   "Legends still standing sharing first place."),
    },
    # Every eligible seat is asked (RR-28 decision): a round at ten seats is up to 8 plan
    # steps a seat plus, per attack, a Defense, 9 intervene turns, Holding On and a
    # follow-up; 200 rounds (the highest round_limit) x 10 x (8 + 12) is under this.
    # Seeded ten-seat games take about 80 events a round.
    longest_game=50_000,
    seat_names=tuple(f"Seat {i + 1}" for i in range(10)),
    figures=("placards", "bragging_rights", "legends_used", "rounds"),
)

# The action types each step accepts.
STEP_TYPES: Mapping[Step, frozenset[ActionType]] = {
    Step.CHOOSE: frozenset({ActionType.PLAN_ATTACK, ActionType.BREATHER}),
    Step.TARGET: frozenset({ActionType.TARGET}),
    Step.BOOST: frozenset({ActionType.BOOST, ActionType.NO_BOOST}),
    Step.DISCARD: frozenset({ActionType.DISCARD, ActionType.END_BREATHER}),
    Step.DEFEND: frozenset({ActionType.DEFEND, ActionType.NO_DEFENSE}),
    Step.INTERVENE: frozenset({ActionType.REF, ActionType.RUN_IN, ActionType.PASS}),
    Step.HOLD_ON: frozenset({ActionType.HOLD_ON, ActionType.LET_GO}),
    Step.FOLLOW: frozenset({ActionType.SIGNATURE, ActionType.FOLLOW_UP, ActionType.SKIP}),
}


def name(seat: int) -> str:
    return f"Seat {seat + 1}"


def legend_name(key: str | None) -> str:
    return ROSTER[key].name if key else "no Legend"


def _say(s: State, text: str) -> None:
    s.journal.append(text)


class RoyalRumbleRules(BaseRules[State]):
    """Royal Rumble for 2-10 players."""

    spec = SPEC

    # -- setup -------------------------------------------------------------------------
    def start(self, options: Mapping[str, Any], n_seats: int) -> State:
        """Nothing dealt yet: the Legend shuffle and the deck shuffle come as chance."""
        self.spec.check_seats(n_seats)
        limit = self.spec.resolve_options(options)["round_limit"]
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 200:
            raise IllegalAction("bad_option", "Option 'round_limit' must be an integer 1-200.")
        return State(n=n_seats, round_limit=limit, players=[Player() for _ in range(n_seats)])

    # -- who acts ----------------------------------------------------------------------
    def pending(self, state: State) -> Pending:
        if state.phase is Phase.OVER:
            return Pending.end(self._result(state))
        if state.chance:
            return Pending.chance()
        return Pending.decision(self.decider(state))

    def decider(self, s: State) -> int:
        """The one seat that decides now."""
        if s.phase is Phase.PLAN:
            assert s.planner is not None
            return s.planner
        a = s.current
        assert a is not None, (s.phase, s.step)
        if s.step in (Step.DEFEND, Step.HOLD_ON):
            return a.target
        if s.step is Step.INTERVENE:
            return a.responders[0]
        return a.attacker

    # -- legal actions -----------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        return [a.to_json() for a in self._legal(state, seat)]

    def _legal(self, s: State, seat: int) -> list[Action]:
        if s.phase is Phase.OVER or s.chance or s.step is None or self.decider(s) != seat:
            return []
        hand = sorted(s.players[seat].hand)
        a = s.current
        match s.step:
            case Step.CHOOSE:
                return [Action(ActionType.PLAN_ATTACK, c) for c in hand
                        if card(c).kind is Kind.ATTACK] + [Action(ActionType.BREATHER)]
            case Step.TARGET:
                return [Action(ActionType.TARGET, seat=t) for t in self.targets(s, seat)]
            case Step.BOOST:
                return [Action(ActionType.BOOST, c) for c in hand
                        if card(c).kind is Kind.BOOST] + [Action(ActionType.NO_BOOST)]
            case Step.DISCARD:
                return [Action(ActionType.DISCARD, c) for c in hand] + [
                    Action(ActionType.END_BREATHER)]
            case Step.DEFEND:
                return [Action(ActionType.DEFEND, c) for c in self.defenses(s, seat)] + [
                    Action(ActionType.NO_DEFENSE)]
            case Step.INTERVENE:
                return [*self._interventions(s, seat), Action(ActionType.PASS)]
            case Step.HOLD_ON:
                return [Action(ActionType.HOLD_ON, c) for c in hand
                        if card(c).special is Special.HOLDING_ON] + [Action(ActionType.LET_GO)]
            case Step.FOLLOW:
                assert a is not None
                return [*self._follow_options(s, seat), Action(ActionType.SKIP)]
        return []

    def targets(self, s: State, seat: int) -> list[int]:
        """Legends in the ring other than your own (RR-15)."""
        return [t for t in s.clockwise() if t != seat and t in s.standing()]

    def defenses(self, s: State, seat: int) -> list[str]:
        """Defense cards in hand that cancel the current attack (RR-31, RR-62)."""
        a = s.current
        assert a is not None
        prof = profile(s, a.attacker, a.card, a.boost)
        if prof.unblockable:
            return []
        return [c for c in sorted(s.players[seat].hand)
                if card(c).kind is Kind.DEFENSE and prof.type in card(c).cancels]

    def _interventions(self, s: State, seat: int) -> list[Action]:
        a = s.current
        assert a is not None
        cheap = profile(s, a.attacker, a.card, a.boost).cheap_trick
        out: list[Action] = []
        for c in sorted(s.players[seat].hand):
            design = card(c)
            if design.kind is Kind.REF and cheap:
                out.append(Action(ActionType.REF, c))
            elif design.special is Special.RUN_IN and seat != a.target:
                out.append(Action(ActionType.RUN_IN, c))
        return out

    def _follow_options(self, s: State, seat: int) -> list[Action]:
        targets = self.targets(s, seat)
        out: list[Action] = []
        if Effect.SIGNATURE in s.follow_options and s.players[seat].signature:
            out += [Action(ActionType.SIGNATURE, seat=t) for t in targets]
        if Effect.ATTACK_AGAIN in s.follow_options:
            out += [Action(ActionType.FOLLOW_UP, c, t) for c in sorted(s.players[seat].hand)
                    if card(c).kind is Kind.ATTACK for t in targets]
        return out

    def is_legal(self, state: State, seat: int, action: JSON) -> bool:
        """Legal, or refused with a code that says why (never a KeyError)."""
        act = parse_action(action)
        if act in self._legal(state, seat):
            return True
        self._diagnose(state, seat, act)
        raise IllegalAction("illegal_action", "That action is not legal now.")

    def apply(self, state: State, event: Event) -> State:
        """BaseRules' checks, after two refusals that read better than 'not your turn'."""
        if event.kind is EventKind.DECISION and event.seat is not None and (
                state.phase is Phase.PLAN and 0 <= event.seat < state.n):
            kind = event.action.get("type") if isinstance(event.action, dict) else None
            p = state.players[event.seat]
            if kind == ActionType.BOOST and p.boost is not None:
                raise IllegalAction("one_boost_only", "An attack takes at most one Boost.")
            if kind == ActionType.PLAN_ATTACK and p.planned and p.attack is not None:
                raise IllegalAction("one_attack_only", "You place only one Attack a round.")
        return super().apply(state, event)

    # -- applying ----------------------------------------------------------------------
    def _decide(self, state: State, seat: int, action: JSON) -> State:
        s = state.clone()
        act = parse_action(action)
        getattr(self, f"_do_{act.type}")(s, seat, act)
        self._advance(s)
        return s

    def _resolve_chance(self, state: State, outcome: JSON) -> State:
        s = state.clone()
        if s.chance == "legends":
            keys = outcome.get("legends")
            if (not isinstance(keys, list) or len(keys) != LEGENDS_PER_PLAYER * s.n
                    or not all(isinstance(k, str) and k in ROSTER for k in keys)
                    or len(set(keys)) != len(keys)):
                raise IllegalAction("bad_outcome", f"Expected {LEGENDS_PER_PLAYER * s.n} "
                                                   "distinct Legend keys.")
            self._deal_legends(s, keys)
            s.chance = "deck"
        else:
            order = outcome.get("order")
            expected = ACTION_IDS if s.chance == "deck" else s.discard
            if not isinstance(order, list) or sorted(map(str, order)) != sorted(expected):
                raise IllegalAction("bad_outcome", "Expected a shuffle of the Action cards.")
            s.deck = list(order)
            if s.chance == "deck":
                for seat in s.clockwise():
                    s.players[seat].hand = [s.deck.pop(0) for _ in range(HAND_SIZE)]
                _say(s, f"The Action cards are shuffled; everyone is dealt {HAND_SIZE}.")
                s.phase = Phase.PLAN
            else:
                _say(s, f"The draw deck ran out: the discard pile ({len(order)} cards) is "
                        "shuffled into a new deck.")
                s.discard = []
            s.chance = None
        self._advance(s)
        return s

    def sample_chance(self, state: State, rng: random.Random) -> JSON:
        if state.chance == "legends":
            return {"legends": rng.sample(sorted(ROSTER), LEGENDS_PER_PLAYER * state.n)}
        order = sorted(ACTION_IDS if state.chance == "deck" else state.discard)
        rng.shuffle(order)
        return {"order": order}

    def _deal_legends(self, s: State, keys: list[str]) -> None:
        """RR-08..RR-10: one Legend face up each with its Signature, the rest in reserve."""
        for seat in range(s.n):
            self._enter(s, seat, keys[seat])
        s.reserve = list(keys[s.n:])
        _say(s, f"{len(keys)} Legends are shuffled; {s.n} enter the ring and "
                f"{len(s.reserve)} wait in the reserve. {name(s.titleholder)} holds the "
                "Legends token.")

    def _enter(self, s: State, seat: int, key: str) -> None:
        p = s.players[seat]
        p.legend, p.signature = key, ROSTER[key].signature_id
        p.damage, p.strain, p.fallen = [], 0, False
        p.legends_used.append(key)
        _say(s, f"{ROSTER[key].name} (health {ROSTER[key].health}) enters the ring for "
                f"{name(seat)}.")

    # -- the automatic steps -----------------------------------------------------------
    def _advance(self, s: State) -> None:
        """Run what needs nobody until a decision, a shuffle or the end."""
        while s.chance is None and s.phase is not Phase.OVER and s.step is None:
            if s.phase is Phase.PLAN:
                self._next_planner(s)
            elif s.phase is Phase.ATTACK:
                self._next_attack(s)
            elif s.phase is Phase.END_OF_TURN:
                self._draw(s)

    def _next_planner(self, s: State) -> None:
        """RR-15: the Titleholder first, then clockwise."""
        for seat in s.clockwise():
            if not s.players[seat].planned and not s.players[seat].forfeited:
                s.planner, s.step = seat, Step.CHOOSE
                return
        s.planner = None
        self._reveal(s)

    def _reveal(self, s: State) -> None:
        """RR-19..RR-23: flip everything; order by speed, ties from the Titleholder."""
        plans = []
        for seat in s.clockwise():
            p = s.players[seat]
            if p.attack is not None and p.target is not None:
                speed = profile(s, seat, p.attack, p.boost).speed
                plans.append(Revealed(seat, p.target, p.attack, p.boost, speed))
        order = {seat: i for i, seat in enumerate(s.clockwise())}
        plans.sort(key=lambda r: (-r.speed, order[r.seat]))
        s.reveal, s.queue, s.phase = plans, 0, Phase.ATTACK
        for r in plans:
            boost = f" + {card(r.boost).name}" if r.boost else ""
            _say(s, f"{name(r.seat)} reveals {card(r.attack).name}{boost} at {name(r.target)}: "
                    f"speed {r.speed}.")
        for r in plans:
            if r.target not in s.standing():  # its target forfeited meanwhile (RR-69)
                self._discard_plan(s, r.seat)
                r.status = "discarded"
        if not plans:
            _say(s, "Nobody attacks this round.")

    def _next_attack(self, s: State) -> None:
        """Take the next revealed plan; RR-69: a fallen attacker's or target's is discarded."""
        if s.queue >= len(s.reveal):
            self._end_of_turn(s)
            return
        r = s.reveal[s.queue]
        s.queue += 1
        p = s.players[r.seat]
        if r.status == "discarded":
            return
        p.attack = p.boost = None
        r.status = "resolving"
        s.current = Attack(r.seat, r.target, r.attack, r.boost)
        _say(s, f"{name(r.seat)} attacks {legend_name(s.players[r.target].legend)} "
                f"with {card(r.attack).name}.")
        self._open_defense(s)

    def _open_defense(self, s: State) -> None:
        """RR-27/RR-28: the target may cancel with a Defense of the right type.

        RR-28 decision: the target is asked whenever the attack can be blocked at all
        (not unblockable, RR-62), whatever it holds; with no Defense that cancels it,
        "no defense" is its only action. Who is asked never depends on a hand."""
        a = s.current
        assert a is not None
        if not profile(s, a.attacker, a.card, a.boost).unblockable:
            s.step = Step.DEFEND
            return
        self._open_intervention(s)

    def _open_intervention(self, s: State) -> None:
        """RR-44/RR-72: Ref and Run-In cards, the Titleholder first, then clockwise.

        RR-28 decision: every seat the rules let answer is asked, whatever it holds."""
        a = s.current
        assert a is not None
        a.responders = [seat for seat in s.clockwise() if self.may_intervene(s, seat)]
        self._ask_next(s)

    def may_intervene(self, s: State, seat: int) -> bool:
        """Whether the rules let `seat` answer the current attack (public facts only):
        anyone but the attacker may Ref a Cheap Trick (RR-44, RR-70); anyone but the
        attacker and the target may Run-In (RR-28 decision)."""
        a = s.current
        assert a is not None
        if seat == a.attacker or s.players[seat].forfeited:
            return False
        return seat != a.target or profile(s, a.attacker, a.card, a.boost).cheap_trick

    def _ask_next(self, s: State) -> None:
        a = s.current
        assert a is not None
        if a.responders:
            s.step = Step.INTERVENE
        else:
            self._hit(s)

    def _hit(self, s: State) -> None:
        """RR-25/26: the cards go on the target's placard as damage."""
        a = s.current
        assert a is not None
        t = s.players[a.target]
        t.damage += [c for c in (a.card, a.boost) if c]
        self._mark(s, "hit")
        prof = profile(s, a.attacker, a.card, a.boost)
        _say(s, f"It hits! {legend_name(t.legend)} has {damage(s, a.target)} damage of "
                f"{health(s, a.target)}.")
        if prof.throw:  # RR-28 decision: asked whether or not Holding On is in hand
            _say(s, f"{legend_name(t.legend)} is going over the top rope...")
            s.step = Step.HOLD_ON
            return
        self._after_hit(s, prof.throw)

    def _mark(self, s: State, status: str) -> None:
        a = s.current
        if a is not None and not a.follow_up:
            for r in s.reveal:
                if r.seat == a.attacker and r.status == "resolving":
                    r.status = status

    def _after_hit(self, s: State, thrown: bool) -> None:
        """Recoil, eliminations (RR-34/35), then any follow-up the Attack card allows."""
        a = s.current
        assert a is not None
        me = s.players[a.attacker]
        recoil = card(a.card).recoil
        if recoil and me.legend and not me.fallen:
            me.strain += recoil
            _say(s, f"{legend_name(me.legend)} takes {recoil} recoil damage.")
        down = []
        if thrown:
            _say(s, f"{legend_name(s.players[a.target].legend)} is thrown over the top rope!")
            down.append(a.target)
        elif s.players[a.target].legend and damage(s, a.target) >= health(s, a.target):
            down.append(a.target)  # (no Legend: its player forfeited while Holding On)
        if recoil and me.legend and not me.fallen and damage(s, a.attacker) >= health(
                s, a.attacker):
            down.append(a.attacker)
        if down:
            s.tick += 1
            for seat in down:
                self._eliminate(s, seat, None if seat == a.attacker else a.attacker)
        if self._check_end(s):
            return
        s.follow_options = [str(e) for e in (Effect.SIGNATURE, Effect.ATTACK_AGAIN)
                            if card(a.card).has(e)]
        if self.may_follow(s, a.attacker):
            s.step = Step.FOLLOW
            return
        self._finish(s)

    def may_follow(self, s: State, seat: int) -> bool:
        """Whether the attacker is asked to follow up (public facts only, RR-28 decision):
        the card that hit allows its unused Signature or another attack, it still has a
        Legend (or none left at all, RR-59) and someone to attack. Asked whatever its hand
        holds: with no Attack card in hand, "skip" is then its only action."""
        p = s.players[seat]
        able = p.out or (p.legend is not None and not p.fallen)
        allowed = (Effect.ATTACK_AGAIN in s.follow_options
                   or (Effect.SIGNATURE in s.follow_options and p.signature is not None))
        return able and allowed and bool(self.targets(s, seat))

    def _eliminate(self, s: State, seat: int, by: int | None) -> None:
        """RR-34/49/53/54/65/66/69: placard to the eliminator, cards away, plans discarded."""
        p = s.players[seat]
        key = p.legend
        assert key is not None
        _say(s, f"{ROSTER[key].name} ({name(seat)}) is eliminated"
                + (f" by {name(by)}!" if by is not None else "!"))
        for c in p.damage:
            (s.box if c.startswith("sig_") else s.discard).append(c)
        if p.signature:
            s.box.append(p.signature)
        p.damage, p.strain, p.signature, p.fallen, p.out_at = [], 0, None, True, s.tick
        if by is not None:
            s.players[by].placards.append(key)
        else:  # fallen to no one's attack (its own recoil): the placard is lost to the box
            s.box.append(key)
        for r in s.reveal:
            if r.status == "waiting" and (r.seat == seat or r.target == seat):
                self._discard_plan(s, r.seat)
                r.status = "discarded"
        if seat == s.titleholder and by is not None:
            s.titleholder = by
            _say(s, f"{name(by)} takes the Legends token and is the Titleholder.")

    def _discard_plan(self, s: State, seat: int) -> None:
        """RR-69: a revealed plan that will not be played goes to the discard pile."""
        owner = s.players[seat]
        s.discard += owner.plan_cards()
        owner.attack = owner.boost = None
        _say(s, f"{name(seat)}'s face-down attack is discarded.")

    def _finish(self, s: State) -> None:
        s.current, s.step, s.follow_options = None, None, []

    def _cancel(self, s: State, status: str) -> None:
        """RR-29 decision: a blocked or cancelled attack's cards go to the discard pile."""
        a = s.current
        assert a is not None
        for c in (a.card, a.boost):
            if c:
                (s.box if c.startswith("sig_") else s.discard).append(c)
        self._mark(s, status)
        self._finish(s)

    def _check_end(self, s: State) -> bool:
        """With the reserve empty, one Legend left (or none) ends the game at once."""
        if s.reserve or len(s.standing()) > 1:
            return False
        self._end(s)
        return True

    def _end_of_turn(self, s: State) -> None:
        """RR-51/52: new Legends in the order they fell, then everyone draws (RR-36)."""
        s.phase = Phase.END_OF_TURN
        order = {seat: i for i, seat in enumerate(s.clockwise())}
        fallen = sorted((seat for seat, p in enumerate(s.players) if p.fallen),
                        key=lambda seat: (s.players[seat].out_at or 0, order[seat]))
        for seat in fallen:
            p = s.players[seat]
            if s.reserve:
                self._enter(s, seat, s.reserve.pop(0))
            else:
                p.legend, p.fallen, p.out = None, False, True
                _say(s, f"The reserve is empty: {name(seat)} has no Legend left.")
        if len(s.standing()) <= 1:
            self._end(s)
            return
        for p in s.players:
            p.planned = p.breather = False
            p.target = None
        s.drawing = 0

    def _draw(self, s: State) -> None:
        """RR-36/37: draw to six, Titleholder first; an empty deck is reshuffled."""
        order = s.clockwise()
        while s.drawing < s.n:
            p = s.players[order[s.drawing]]
            while len(p.hand) < HAND_SIZE and not p.forfeited:
                if not s.deck:
                    if s.discard:
                        s.chance = "reshuffle"
                        return
                    break
                p.hand.append(s.deck.pop(0))
            s.drawing += 1
        if s.round >= s.round_limit:
            _say(s, f"The round limit ({s.round_limit}) is reached.")
            self._end(s)
            return
        s.round += 1
        s.phase, s.reveal, s.last_reveal = Phase.PLAN, [], s.reveal
        _say(s, f"Round {s.round} begins.")

    def _end(self, s: State) -> None:
        standing = s.standing()
        if s.phase is Phase.END_OF_TURN and s.round >= s.round_limit and len(standing) > 1:
            s.end_reason = EndReason.ROUND_LIMIT
        elif standing:
            s.end_reason = EndReason.LAST_STANDING
            _say(s, f"{legend_name(s.players[standing[0]].legend)} is the last Legend "
                    f"standing: {name(standing[0])} wins!")
        else:
            s.end_reason = EndReason.NO_ONE_STANDING
            _say(s, "The last Legends fall together: nobody wins the Royal Rumble.")
        for p in s.players:
            if p.fallen:
                p.legend, p.fallen, p.out = None, False, True
        s.phase, s.step, s.current, s.planner = Phase.OVER, None, None, None

    # -- a forfeit ---------------------------------------------------------------------
    def forfeit_eliminates(self, state: State, seat: int) -> bool:
        """At three seats or more a forfeit eliminates whenever the game is dealt and
        live (the package docstring's forfeit decision); at two, the match service ends
        the match as in every game. A seat that forfeited already is refused by `apply`."""
        return (state.n >= 3 and 0 <= seat < state.n
                and state.phase not in (Phase.SETUP, Phase.OVER))

    def _forfeit(self, state: State, seat: int) -> State:
        """The seat leaves: its Legend is eliminated by no one (RR-34/53/65/69), it takes
        no reserve Legend, its hidden cards leave the game face down, the attack it is in
        stops, and the game goes on for the rest (or ends, RR-55/56)."""
        if state.players[seat].forfeited:
            raise IllegalAction("seat_out", f"{name(seat)} already forfeited and is out.")
        s = state.clone()
        p = s.players[seat]
        if p.legend and not p.fallen:
            s.tick += 1
            self._eliminate(s, seat, None)
        p.legend, p.fallen, p.out, p.forfeited = None, False, True, True
        p.out_at = s.tick if p.out_at is None else p.out_at
        for r in s.reveal:  # (a player with no Legend left still attacks, RR-59)
            if r.status == "waiting" and r.seat == seat:
                self._discard_plan(s, seat)
                r.status = "discarded"
        self._withdraw_cards(s, seat)
        _say(s, f"{name(seat)} forfeited and is out.")
        if seat == s.titleholder:
            s.titleholder = next(o for o in s.clockwise(seat) if not s.players[o].forfeited)
            _say(s, f"{name(s.titleholder)} takes the Legends token and is the Titleholder.")
        if s.planner == seat:
            s.planner, s.step = None, None
        if s.current is not None:
            self._forfeit_in_attack(s, seat)
        if len(s.at_table()) <= 1:
            self._last_at_table(s)
        elif s.phase is not Phase.OVER and not self._check_end(s):
            self._advance(s)
        return s

    def _withdraw_cards(self, s: State, seat: int) -> None:
        """The hand and a plan not yet revealed go out of the game face down: nobody may
        learn them. A revealed plan was discarded with its Legend (RR-69)."""
        p = s.players[seat]
        hidden = p.hand + (p.plan_cards() if s.phase is Phase.PLAN else [])
        s.withdrawn += sorted(hidden)
        p.hand, p.attack, p.boost, p.target = [], None, None, None
        p.planned, p.breather = True, False

    def _forfeit_in_attack(self, s: State, seat: int) -> None:
        """The attack under way, its attacker or target gone: cards not yet on a placard
        go to the discard pile (RR-29 decision) and a throw or follow-up lapses; a seat
        that was to answer it is asked no more."""
        a = s.current
        assert a is not None
        in_flight = s.step in (Step.DEFEND, Step.INTERVENE)
        if seat in (a.attacker, a.target) and in_flight:
            _say(s, "The attack is called off.")
            self._cancel(s, "discarded")
        elif seat == a.attacker:
            self._finish(s)
        elif seat == a.target and s.step is Step.HOLD_ON:
            s.step = None
            self._after_hit(s, thrown=False)
        elif seat in a.responders:
            asked = a.responders[0] == seat
            a.responders.remove(seat)
            if asked:
                s.step = None
                self._ask_next(s)

    def _last_at_table(self, s: State) -> None:
        """One player left at the table (or none): the game ends (RR-55). A Legend of
        theirs that fell this round is replaced first (RR-51), as End of Turn would."""
        for seat in s.at_table():
            p = s.players[seat]
            if p.fallen and s.reserve:
                self._enter(s, seat, s.reserve.pop(0))
        if s.phase is not Phase.OVER:
            self._end(s)

    # -- decisions ---------------------------------------------------------------------
    def _do_plan_attack(self, s: State, seat: int, act: Action) -> None:
        p = s.players[seat]
        assert act.card is not None
        p.hand.remove(act.card)
        p.attack, s.step = act.card, Step.TARGET

    def _do_target(self, s: State, seat: int, act: Action) -> None:
        s.players[seat].target, s.step = act.seat, Step.BOOST

    def _do_boost(self, s: State, seat: int, act: Action) -> None:
        p = s.players[seat]
        assert act.card is not None
        p.hand.remove(act.card)
        p.boost = act.card
        self._planned(s, seat)

    def _do_no_boost(self, s: State, seat: int, act: Action) -> None:
        self._planned(s, seat)

    def _planned(self, s: State, seat: int) -> None:
        p = s.players[seat]
        assert p.target is not None
        p.planned, s.step = True, None
        _say(s, f"{name(seat)} places an Attack face down pointed at {name(p.target)}"
                + (" with a Boost." if p.boost else "."))

    def _do_breather(self, s: State, seat: int, act: Action) -> None:
        s.players[seat].breather, s.step = True, Step.DISCARD
        _say(s, f"{name(seat)} takes a breather.")

    def _spend(self, s: State, seat: int, act: Action) -> str:
        """The action's card goes from the seat's hand to the discard pile; its name."""
        assert act.card is not None
        s.players[seat].hand.remove(act.card)
        s.discard.append(act.card)
        return card(act.card).name

    def _do_discard(self, s: State, seat: int, act: Action) -> None:
        _say(s, f"{name(seat)} discards {self._spend(s, seat, act)}.")

    def _do_end_breather(self, s: State, seat: int, act: Action) -> None:
        s.players[seat].planned, s.step = True, None

    def _do_defend(self, s: State, seat: int, act: Action) -> None:
        _say(s, f"{name(seat)} cancels it with {self._spend(s, seat, act)}.")
        self._cancel(s, "blocked")

    def _do_no_defense(self, s: State, seat: int, act: Action) -> None:
        self._open_intervention(s)

    def _do_ref(self, s: State, seat: int, act: Action) -> None:
        _say(s, f"{name(seat)} plays {self._spend(s, seat, act)}: the Cheap Trick is "
                "cancelled.")
        self._cancel(s, "cancelled")

    def _do_run_in(self, s: State, seat: int, act: Action) -> None:
        _say(s, f"{name(seat)} plays {self._spend(s, seat, act)} and breaks up the attack.")
        self._cancel(s, "cancelled")

    def _do_pass(self, s: State, seat: int, act: Action) -> None:
        a = s.current
        assert a is not None
        a.responders.pop(0)
        s.step = None
        self._ask_next(s)

    def _do_hold_on(self, s: State, seat: int, act: Action) -> None:
        """RR-47/67: cancel the throw and remove one damage card (the biggest)."""
        p = s.players[seat]
        self._spend(s, seat, act)
        biggest = max(p.damage, key=lambda c: (card(c).damage, c))
        p.damage.remove(biggest)
        (s.box if biggest.startswith("sig_") else s.discard).append(biggest)
        _say(s, f"{legend_name(p.legend)} is Holding On! The throw is cancelled and "
                f"{card(biggest).name} comes off the placard.")
        s.step = None
        self._after_hit(s, thrown=False)

    def _do_let_go(self, s: State, seat: int, act: Action) -> None:
        s.step = None
        self._after_hit(s, thrown=True)

    def _do_signature(self, s: State, seat: int, act: Action) -> None:
        """RR-45/46: the trigger allows it; single use; the card ends in the box."""
        p = s.players[seat]
        sig = p.signature
        assert sig is not None and act.seat is not None
        p.signature = None
        _say(s, f"{name(seat)} plays the Signature {card(sig).name} at {name(act.seat)}!")
        s.current = Attack(seat, act.seat, sig, None, follow_up=True)
        s.step, s.follow_options = None, []
        self._open_defense(s)

    def _do_follow_up(self, s: State, seat: int, act: Action) -> None:
        """RR-41/63: an extra attack from hand, never Boosted."""
        assert act.card is not None and act.seat is not None
        s.players[seat].hand.remove(act.card)
        _say(s, f"{name(seat)} attacks again with {card(act.card).name} at {name(act.seat)}.")
        s.current = Attack(seat, act.seat, act.card, None, follow_up=True)
        s.step, s.follow_options = None, []
        self._open_defense(s)

    def _do_skip(self, s: State, seat: int, act: Action) -> None:
        self._finish(s)

    # -- refusals ----------------------------------------------------------------------
    def _diagnose(self, s: State, seat: int, act: Action) -> None:
        """Raise the most specific reason an action is refused (messages hide nothing)."""
        assert s.step is not None
        if act.type is ActionType.BOOST and s.step is Step.FOLLOW:
            raise IllegalAction("no_boost_on_follow_up",
                                "A follow-up attack cannot be Boosted (only the planned one).")
        if act.type is ActionType.SIGNATURE and s.step is not Step.FOLLOW:
            raise IllegalAction("no_signature_trigger",
                                "A Signature is played only when a card that hit says so.")
        if act.type not in STEP_TYPES[s.step]:
            raise IllegalAction("out_of_order",
                                f"A {act.type} action is not expected now (waiting for: "
                                f"{s.step}).")
        p = s.players[seat]
        if act.card is not None and act.card not in p.hand:
            raise IllegalAction("card_not_in_hand", f"{quoted(act.card)} is not in your hand.")
        design = card(act.card) if act.card is not None else None
        if act.type is ActionType.SIGNATURE:
            if p.signature is None:
                raise IllegalAction("signature_used", "Your Signature has been used.")
            if Effect.SIGNATURE not in s.follow_options:
                raise IllegalAction("no_signature_trigger",
                                    "The card that hit does not let you play your Signature.")
        if act.type in (ActionType.PLAN_ATTACK, ActionType.FOLLOW_UP):
            assert design is not None
            if design.kind is not Kind.ATTACK:
                raise IllegalAction("not_an_attack", f"{design.name} is not an Attack card.")
            if act.type is ActionType.FOLLOW_UP and Effect.ATTACK_AGAIN not in s.follow_options:
                raise IllegalAction("no_attack_again", "The card that hit allows no new attack.")
        if act.seat is not None:
            self._diagnose_target(s, seat, act.seat)
        if act.type is ActionType.BOOST and design is not None and design.kind is not Kind.BOOST:
            raise IllegalAction("not_a_boost", f"{design.name} is not a Boost card.")
        if act.type is ActionType.DEFEND and design is not None:
            self._diagnose_defense(s, design.name, design.kind is Kind.DEFENSE, act.card)
        if act.type is ActionType.REF and design is not None:
            if design.kind is not Kind.REF:
                raise IllegalAction("not_a_ref", f"{design.name} is not a Ref card.")
            raise IllegalAction("not_a_cheap_trick", "A Ref card cancels only a Cheap Trick.")
        if act.type is ActionType.RUN_IN and design is not None:
            if design.special is not Special.RUN_IN:
                raise IllegalAction("not_a_run_in", f"{design.name} is not a Run-In card.")
            raise IllegalAction("own_attack", "Run-In breaks up an attack on someone else.")
        if act.type is ActionType.HOLD_ON:
            raise IllegalAction("not_holding_on", "Only a Holding On card does that.")

    def _diagnose_target(self, s: State, seat: int, target: int) -> None:
        if not 0 <= target < s.n:
            # Counted from 1, as every sentence names a seat (the action's `seat` from 0).
            raise IllegalAction("bad_target", f"There is no {name(target)}: the table's "
                                              f"seats are Seat 1 to Seat {s.n}.")
        if target == seat:
            raise IllegalAction("self_target", "You cannot attack your own Legend.")
        if target not in s.standing():
            raise IllegalAction("target_eliminated",
                                f"{name(target)} has no Legend in the ring to attack.")

    def _diagnose_defense(self, s: State, card_name: str, is_defense: bool,
                          card_id: str | None) -> None:
        if not is_defense:
            raise IllegalAction("not_a_defense", f"{card_name} is not a Defense card.")
        a = s.current
        assert a is not None
        prof = profile(s, a.attacker, a.card, a.boost)
        if prof.unblockable:
            raise IllegalAction("unblockable", "This attack can't be blocked.")
        raise IllegalAction("defense_cannot_cancel",
                            f"{card_name} does not cancel a {prof.type} attack.")

    # -- the end -----------------------------------------------------------------------
    def _result(self, s: State) -> Result:
        """RR-55..RR-58: placements by the order of final elimination."""
        standing = set(s.standing())
        big = s.tick + 1

        def key(seat: int) -> int:
            return big if seat in standing else (s.players[seat].out_at or 0)

        keys = [key(seat) for seat in range(s.n)]
        placements = tuple(1 + sum(k > mine for k in keys) for mine in keys)
        top = [seat for seat in range(s.n) if placements[seat] == 1]
        if s.end_reason is EndReason.NO_ONE_STANDING:
            winners: tuple[int, ...] = ()
        else:
            winners = tuple(top)
        most = max(len(p.placards) for p in s.players)
        figures = {
            seat: {
                "placards": float(len(p.placards)),
                "bragging_rights": float(most > 0 and len(p.placards) == most),
                "legends_used": float(len(p.legends_used)),
                "rounds": float(s.round),
            }
            for seat, p in enumerate(s.players)
        }
        summary = {
            EndReason.LAST_STANDING: f"{name(top[0])} is the last Legend standing.",
            EndReason.NO_ONE_STANDING: "The final Legends fell together: no winner.",
            EndReason.ROUND_LIMIT: f"Round limit: {counted(len(top), 'Legend')} still standing.",
        }[s.end_reason or EndReason.ROUND_LIMIT]
        return Result(placements, winners, len(winners) != 1, figures, summary)

    # -- what each seat sees -----------------------------------------------------------
    def view(self, state: State, seat: int | None) -> JSON:
        check_viewer(seat, state.n)
        pending = self.pending(state)
        result = pending.result.to_json() if pending.result else None
        deciders = pending.seats if pending.kind == "decision" else ()
        return views.view(state, seat, deciders, pending.kind == "chance", result)

    def redact(self, state_before: State, event: Event, viewer: int | None) -> JSON:
        check_viewer(viewer, state_before.n)
        return views.redact(state_before, event, viewer)

    def narrate(self, state_before: State, event: Event) -> list[str]:
        """Plain sentences of what happened; only public facts."""
        after = self.apply(state_before, event)
        lines = list(after.journal)
        if event.kind is EventKind.DECISION and event.seat is not None and not lines:
            kind = str((event.action or {}).get("type"))
            quiet: dict[str, str] = {
                ActionType.PLAN_ATTACK: "picks an Attack card",
                ActionType.TARGET: "points the Attack card at a Legend",
                ActionType.END_BREATHER: "is done discarding",
                ActionType.NO_DEFENSE: "does not defend",
                ActionType.PASS: "does not intervene",
                ActionType.SKIP: "does not follow up",
            }
            lines.append(f"{name(event.seat)} {quiet.get(kind, 'makes a choice')}.")
        return lines

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state `seat` cannot tell apart (view.determinize resamples the hidden cards).

        Being asked to Defend, intervene or Hold On tells nothing about a hand (RR-28
        decision: every seat the rules let answer is asked), so any deal of the hidden
        cards fits what the seat has seen.
        """
        check_viewer(seat, state.n)
        return views.determinize(state, seat, rng)


__all__ = ["SPEC", "RoyalRumbleRules", "damage", "health", "profile"]
