"""The Supershow, one-on-one: turn rolls, plays and Stops, Finishes and Breakouts."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.supershow import view as views
from engine.games.supershow.cards import (
    CATALOG,
    SKILLS,
    Card,
    CardType,
    Competitor,
    CrowdCard,
    Do,
    Effect,
    Gimmick,
    Roll,
    Skill,
    Trigger,
    deck_problem,
)
from engine.games.supershow.match import MATCH_TYPES, DoubleTeam, MatchType
from engine.games.supershow.state import (
    BREAKOUT_ROLLS,
    HAND_LIMIT,
    OPENING_HAND,
    Action,
    ActionType,
    Die,
    EndReason,
    FinishAttempt,
    Phase,
    Player,
    State,
    Step,
    Task,
    card_id,
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

DEFAULT_COMPETITORS = ("ox_valdane", "mira_quickstep")
# The table a match of more than two seats plays when its options name no Competitors:
# the first shipped ones by key, written out, so a Competitor added to the set never
# changes it (a stored match replays with the Competitors it was dealt).
DEFAULT_TABLE = ("granite_gus", "kid_kaboom", "lighthouse_keepers", "marsh_kings",
                 "mira_quickstep", "ox_valdane")
DEFAULT_TURN_LIMIT = 200

SPEC = GameSpec(
    key="supershow",
    title="The Supershow",
    min_seats=2,
    max_seats=6,
    has_chance=True,
    has_hidden_information=True,
    options={
        "match_type": Option("one_on_one", tuple(MATCH_TYPES), help="The match type."),
        "count_outs": Option("default", ("default", "on", "off"),
                             help="Count-outs on or off, as the organizer decides; 'default' "
                                  "keeps the match type's."),
        "dq": Option("default", ("default", "on", "off"),
                     help="Disqualifications on or off; 'default' keeps the match type's."),
        "competitors": Option(list(DEFAULT_COMPETITORS),
                              help=f"One Competitor key per seat, of {', '.join(sorted(CATALOG.competitors))}."),
        "decks": Option(None, help="Optional constructed decks: per seat null or a list of "
                                   "30 card keys, one of each number.", secret=True),
        "referee": Option(None, help="A Special Guest Referee's Competitor key, whose Gimmick "
                                     "applies to every player."),
        "ringside": Option(None, help="Per seat null or a Competitor accompanying it to "
                                      "ringside, whose Gimmick is added."),
        "ringside_kind": Option("any", ("any", "single", "tag_team", "trio"),
                                help="Which kind of Competitor may accompany a seat to ringside."),
        "turn_limit": Option(DEFAULT_TURN_LIMIT,
                             help="After this many turn rolls the match is a time-limit draw."),
    },
    # At most 300 turn rolls (the turn_limit bound), each followed by at most ~30 events
    # (plays, Stops, effects, discards, a Finish with Team Ups and Saves), plus a Birdcage
    # draft of at most 6 + 27 * 7 decisions.
    longest_game=12_000,
    seat_names=tuple(f"Player {n}" for n in range(1, 7)),
    figures=("cards_in_play", "hand", "deck", "turns", "turn_rolls", "crowd_meter",
             "eliminated"),
    # 2: a Birdcage entrant called at the last turn roll before the time limit stays out
    rules_version=2,
)

DICE_PHASES = frozenset({Phase.ROLL, Phase.FINISH, Phase.BREAKOUT})


def _say(s: State, text: str) -> None:
    s.journal.append(text)


def who(s: State, seat: int) -> str:
    """A seat as narration names it: its Competitor (and seat number when twins meet)."""
    if not s.competitors[seat]:
        return f"Player {seat + 1}"
    name = CATALOG.competitors[s.competitors[seat]].name
    if s.competitors.count(s.competitors[seat]) > 1:
        return f"{name} ({seat + 1})"
    return name


def competitor(s: State, seat: int) -> Competitor:
    return CATALOG.competitors[s.competitors[seat]]


def gimmicks(s: State, seat: int) -> list[Gimmick]:
    """SH-041/126/128: the seat's own Gimmick, its ringside companion's, the Referee's."""
    keys = [s.competitors[seat], s.ringside[seat] if s.ringside else None, s.referee]
    return [CATALOG.competitors[k].gimmick for k in keys if k]


def _seat_competitors(comps: Any, match_type: str, n_seats: int) -> Any:
    """The `competitors` option as a table of `n_seats` plays it: the default pair at a
    bigger table is the first of `DEFAULT_TABLE` (single ones in a Handicap match,
    SH-082)."""
    if comps == list(DEFAULT_COMPETITORS) and n_seats > 2:
        pool = list(DEFAULT_TABLE)
        if match_type == "handicap":
            pool = [k for k in pool  # one taken out of the set stays, for start to refuse
                    if k not in CATALOG.competitors or CATALOG.competitors[k].kind == "single"]
        return pool[:n_seats]
    return comps


def _ringside(value: Any, comps: Sequence[str], kind: str) -> tuple[str | None, ...]:
    """SH-128/129: per seat null or a Competitor other than its own, of the kind allowed."""
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) != len(comps):
        raise IllegalAction("bad_option", f"Option 'ringside' must list {len(comps)} entries.")
    for key, own in zip(value, comps, strict=True):
        if key is None:
            continue
        comp = CATALOG.competitors.get(key) if isinstance(key, str) else None
        if comp is None or key == own:
            raise IllegalAction("bad_ringside", "A ringside companion must be another "
                                                "Competitor than your own.")
        if kind != "any" and comp.kind != kind:
            raise IllegalAction("bad_ringside", f"Ringside companions must be {kind} "
                                                "Competitors in this match.")
    return tuple(value)


def _referee(value: Any, comps: Sequence[str],
             companions: Sequence[str | None] = ()) -> str | None:
    """SH-126: the Special Guest Referee is an extra Competitor, not one in the match nor a
    seat's ringside companion (SH-128) (its Gimmick would count twice for that seat)."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in CATALOG.competitors:
        raise IllegalAction("bad_option", "Option 'referee' must be a Competitor key.")
    if value in comps:
        raise IllegalAction("bad_option", "The Special Guest Referee is an extra Competitor, "
                                          "not one in the match.")
    if value in companions:
        raise IllegalAction("bad_option", "The Special Guest Referee is an extra Competitor, "
                                          "not a ringside companion.")
    return value


def _check_singles(match_type: str, keys: Sequence[str]) -> None:
    """SH-082/090: each player of the team of two runs one single Competitor; SH-082: so
    does the Handicap's lone player ("1 player using a single Competitor")."""
    if any(CATALOG.competitors[key].kind != "single" for key in keys[:2]):
        raise IllegalAction("bad_option", f"In a {match_type} match each player of the team "
                                          "of two runs a single Competitor.")
    if match_type == "handicap" and CATALOG.competitors[keys[2]].kind != "single":
        raise IllegalAction("bad_option", "In a handicap match the lone player runs a single "
                                          "Competitor too.")


def _check_tag_team(key: str, partner: str | None) -> None:
    """SH-090/096 decision: the lone seat runs a printed Tag Team, or a single Competitor
    with a second single as its ringside companion (one deck, the first's ratings, both
    Gimmicks)."""
    kind = CATALOG.competitors[key].kind
    if kind == "tag_team" and partner is None:
        return
    if kind == "single" and partner is not None and CATALOG.competitors[partner].kind == "single":
        return
    raise IllegalAction("bad_tag_team", "In a Tag Team match the third seat uses a printed "
                                        "Tag Team, or two singles (the second as its "
                                        "ringside partner).")


def build_deck(owner: str, keys: Any) -> tuple[Card, ...]:
    """A constructed deck (SH-050/044), refused with a clear code when it breaks a rule."""
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise IllegalAction("bad_deck", "A constructed deck is a list of card keys.")
    cards = []
    for key in keys:
        card = CATALOG.card(key)
        if card is None:
            raise IllegalAction("unknown_card", f"There is no card {quoted(key)}.")
        cards.append(card)
    problem = deck_problem(cards, owner)
    if problem:
        raise IllegalAction(problem[0], f"That deck is refused: {problem[1]}.")
    return tuple(sorted(cards, key=lambda c: c.number))


class SupershowRules(BaseRules[State]):
    """The Supershow (SH-xx): one-on-one and the multiplayer match types."""

    spec = SPEC

    # -- setup -------------------------------------------------------------------------
    def seat_picks(self, options: Mapping[str, Any]) -> dict[str, dict[str, str]]:
        """A player brings their own Competitor and constructed deck (SH-050), but to a
        Birdcage (it drafts them)."""
        if MATCH_TYPES[self.spec.resolve_options(options)["match_type"]].birdcage:
            return {}
        return {"competitors": {key: comp.name for key, comp
                                in sorted(CATALOG.competitors.items())},
                "decks": {}}

    def teams(self, options: Mapping[str, Any], n_seats: int) -> tuple[int, ...] | None:
        """A tag team, and the handicap match's pair, play as one side."""
        teams = MATCH_TYPES[self.spec.resolve_options(options)["match_type"]].teams
        return teams if teams is not None and len(teams) == n_seats else None

    def teams_at(self, state: State) -> tuple[int, ...] | None:
        """The teams the match started with (`teams` of its options)."""
        return state.teams or None

    def seat_entries(self, options: Mapping[str, Any], n_seats: int) -> dict[str, list[Any]]:
        resolved = self.spec.resolve_options(options)
        if not self.seat_picks(resolved):
            return {}
        entries: dict[str, list[Any]] = {}
        comps = _seat_competitors(resolved["competitors"], resolved["match_type"], n_seats)
        if isinstance(comps, list | tuple) and len(comps) == n_seats:
            entries["competitors"] = list(comps)
        decks = resolved["decks"]
        if decks is None or (isinstance(decks, list) and len(decks) == n_seats):
            entries["decks"] = list(decks or [None] * n_seats)
        return entries

    def start(self, options: Mapping[str, Any], n_seats: int) -> State:
        """Competitors face up; each deck waits for its shuffle (SH-001/002)."""
        self.spec.check_seats(n_seats)
        resolved = self.spec.resolve_options(options)
        mtype = MATCH_TYPES[resolved["match_type"]]
        if not (mtype.min_seats or mtype.seats) <= n_seats <= mtype.seats:
            takes = (f"{mtype.min_seats}-{mtype.seats}" if mtype.min_seats
                     and mtype.min_seats != mtype.seats else f"{mtype.seats}")
            raise IllegalAction("bad_seat_count",
                                f"A {mtype.key} match takes {takes} seats, not {n_seats}.")
        if mtype.birdcage:
            return self._start_birdcage(resolved, n_seats)
        comps = _seat_competitors(resolved["competitors"], mtype.key, n_seats)
        if (not isinstance(comps, list | tuple) or len(comps) != n_seats
                or not all(isinstance(k, str) and k in CATALOG.competitors for k in comps)):
            raise IllegalAction("bad_option", f"Option 'competitors' must list {n_seats} of "
                                              f"{sorted(CATALOG.competitors)}.")
        limit = resolved["turn_limit"]
        if not isinstance(limit, int) or isinstance(limit, bool) or not 10 <= limit <= 300:
            raise IllegalAction("bad_option", "Option 'turn_limit' must be an integer 10-300.")
        decks_opt = resolved["decks"]
        if decks_opt is not None and (not isinstance(decks_opt, list)
                                      or len(decks_opt) != n_seats):
            raise IllegalAction("bad_option", f"Option 'decks' must list {n_seats} entries.")
        decks = []
        for seat, key in enumerate(comps):
            given = decks_opt[seat] if decks_opt else None
            decks.append(CATALOG.competitors[key].deck if given is None
                         else build_deck(key, given))
        ringside = _ringside(resolved["ringside"], comps, resolved["ringside_kind"])
        referee = _referee(resolved["referee"], comps, ringside)
        if mtype.key in ("handicap", "tag_team"):
            _check_singles(mtype.key, comps)  # SH-082/090: the team of two (and lone)
        if mtype.key == "tag_team":
            _check_tag_team(comps[2], ringside[2] if ringside else None)
        teams = mtype.teams or ()
        players = [Player(competitor=key, deck=[card_id(seat, n) for n in range(1, 31)],
                          in_play={o: [] for o in range(n_seats)
                                   if o != seat and (not teams or teams[o] != teams[seat])})
                   for seat, key in enumerate(comps)]
        switch = {"default": None, "on": True, "off": False}
        count_outs = switch[resolved["count_outs"]]
        dq = switch[resolved["dq"]]
        return State(match_type=mtype.key, competitors=tuple(comps),
                     decks=tuple(decks), players=players, turn_limit=limit,
                     teams=teams, count_outs=mtype.count_outs if count_outs is None
                     else count_outs, dq=mtype.dq if dq is None else dq,
                     shuffles=list(range(n_seats)), referee=referee, ringside=ringside,
                     secret_decks=decks_opt is not None)

    def _start_birdcage(self, resolved: Mapping[str, Any], n: int) -> State:
        """SH-111/113/114: Competitors and entrant numbers are dealt by chance; the decks
        come from the draft."""
        limit = resolved["turn_limit"]
        if not isinstance(limit, int) or isinstance(limit, bool) or not 10 <= limit <= 300:
            raise IllegalAction("bad_option", "Option 'turn_limit' must be an integer 10-300.")
        if resolved["count_outs"] == "on":
            raise IllegalAction("bad_option", "The Birdcage has no count-outs (SH-112).")
        if resolved["ringside"] is not None:
            raise IllegalAction("bad_option", "The Birdcage drafts its Competitors, so no "
                                              "ringside companion can be named before it.")
        players = [Player(competitor="", deck=[], in_play={o: [] for o in range(n) if o != seat})
                   for seat in range(n)]
        return State(match_type="birdcage", competitors=("",) * n, decks=((),) * n,
                     players=players, turn_limit=limit, count_outs=False,
                     dq=resolved["dq"] != "off", phase=Phase.DEAL,
                     picks=[[] for _ in range(n)], referee=_referee(resolved["referee"], ()))

    def mtype(self, s: State) -> MatchType:
        return MATCH_TYPES[s.match_type]

    # -- who acts ----------------------------------------------------------------------
    def pending(self, state: State) -> Pending:
        if state.phase is Phase.OVER:
            return Pending.end(self._result(state))
        if state.shuffles:
            return Pending.chance()
        over = self._over_limit(state)
        if over is not None:
            return Pending.decision(over)
        if state.phase in DICE_PHASES or state.phase is Phase.DEAL:
            return Pending.chance()
        return Pending.decision(self._decider(state))

    def _over_limit(self, s: State) -> int | None:
        """SH-048: a seat holding more than 10 cards must discard down at once."""
        return next((seat for seat in s.seats if len(s.players[seat].hand) > HAND_LIMIT), None)

    def _decider(self, s: State) -> int:
        if s.phase is Phase.CHOOSE:
            task = s.tasks[0]
            return task.owner if task.effect_do is Do.SEARCH else task.target
        if s.phase in (Phase.DOUBLE, Phase.STARTER):
            return s.offer[0]
        if s.phase in (Phase.DRAFT, Phase.PICK):
            return s.pickers[0]
        if s.phase is Phase.OPEN:
            return s.opener
        if s.phase is Phase.STOP:
            return s.stoppers[0]
        if s.phase in (Phase.TEAM_UP, Phase.SAVE):
            assert s.finish is not None
            return s.finish.asking[0]
        assert s.plan, s.phase
        return s.plan[0].seat

    # -- legal actions -----------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        return [a.to_json() for a in self._legal(state, seat)]

    def _legal(self, s: State, seat: int) -> list[Action]:
        pending = self.pending(s)
        if pending.kind != "decision" or seat not in pending.seats:
            return []
        me = s.players[seat]
        if self._over_limit(s) == seat:
            return [Action(ActionType.DISCARD, c) for c in sorted(me.hand)]
        match s.phase:
            case Phase.TURN:
                return self._turn_options(s, seat)
            case Phase.STOP:
                return self._stop_options(s, seat)
            case Phase.CHOOSE:
                return [Action(ActionType.CHOOSE, c) for c in self._choices(s)]
            case Phase.TEAM_UP:
                return [Action(ActionType.TEAM_UP), Action(ActionType.NO_TEAM_UP)]
            case Phase.SAVE:
                return [Action(ActionType.SAVE), Action(ActionType.NO_SAVE)]
            case Phase.DOUBLE:
                return [Action(ActionType.DOUBLE_TEAM), Action(ActionType.NO_DOUBLE_TEAM)]
            case Phase.STARTER:
                return [Action(ActionType.STARTER, seat=o) for o in s.offer]
            case Phase.DRAFT:
                return [Action(ActionType.DRAFT, competitor=k) for k in sorted(s.pool)]
            case Phase.OPEN:
                return [Action(ActionType.OPEN_PILE, number=n) for n in sorted(s.piles)]
            case Phase.PICK:
                assert s.open_pile is not None
                return [Action(ActionType.PICK, k) for k in sorted(set(s.piles[s.open_pile]))]
        return []

    def _multi(self, s: State) -> bool:
        return len(s.players) > 2

    def _turn_options(self, s: State, seat: int) -> list[Action]:
        me = s.players[seat]
        multi = self._multi(s)
        chain = {t: (self._in_play(s, seat, CardType.LEAD, t) > 0,
                     self._in_play(s, seat, CardType.FOLLOW_UP, t) > 0)
                 for t in s.plan[0].targets}
        allowed = {CardType.LEAD: lambda t: True, CardType.FOLLOW_UP: lambda t: chain[t][0],
                   CardType.FINISH: lambda t: chain[t][1]}
        acts = [Action(ActionType.PLAY, c, t if multi else None)
                for c in sorted(me.hand) for t in s.plan[0].targets
                if allowed[s.card(c).type](t)]
        if s.played_once:  # SH-087/094: played already, so no bury (SH-011): a plain end
            acts.append(Action(ActionType.PASS))
        else:
            acts += [Action(ActionType.BURY, c) for c in sorted(me.discard)]
            if not me.discard:  # SH-025 decision
                acts.append(Action(ActionType.PASS))
        if self._may_mulligan(s, seat):
            acts.append(Action(ActionType.MULLIGAN))
        return acts

    def _stop_options(self, s: State, seat: int) -> list[Action]:
        """SH-016 for the target; SH-063 Protecting for a team-mate; interference (DQ)."""
        assert s.played is not None
        played = s.card(s.played)
        kind = self._stop_role(s, seat)
        return [Action(kind, c) for c in sorted(s.players[seat].hand)
                if (stop := s.card(c).stop) and stop.matches(played)] + [
            Action(ActionType.NO_STOP)]

    def _stop_role(self, s: State, seat: int) -> ActionType:
        if seat == s.target:
            return ActionType.STOP
        if seat in s.partners and s.active in s.partners:
            return ActionType.PROTECT  # SH-067: a Double Team partner's card
        assert s.target is not None
        if s.team(seat) == s.team(s.target):
            return ActionType.PROTECT
        return ActionType.INTERFERE

    def _pile(self, s: State, seat: int, against: int) -> list[str]:
        """SH-051: the seat's in-play pile against one opponent."""
        return s.players[seat].in_play.setdefault(against, [])

    def _in_play(self, s: State, seat: int, kind: str, against: int | None) -> int:
        """Cards of a type in play: in the pile against one opponent (SH-052), or in all."""
        piles = [self._pile(s, seat, against)] if against is not None else list(
            s.players[seat].in_play.values())
        cards = [c for pile in piles for c in pile]
        return len(cards) if kind == "card" else sum(s.card(c).type == kind for c in cards)

    def _playable(self, s: State, seat: int, cid: str, against: int) -> bool:
        """SH-013..SH-015 (per pile, SH-053): a Lead any time, a Follow-Up on a Lead, a
        Finish on a Follow-Up."""
        ctype = s.card(cid).type
        if ctype is CardType.FOLLOW_UP:
            return self._in_play(s, seat, CardType.LEAD, against) > 0
        if ctype is CardType.FINISH:
            return self._in_play(s, seat, CardType.FOLLOW_UP, against) > 0
        return True

    def _may_mulligan(self, s: State, seat: int) -> bool:
        """SH-045/046/047: once, on your first turn, with a hand holding no Lead."""
        me = s.players[seat]
        return (me.turns == 0 and not me.mulliganed and bool(me.hand)
                and not any(s.card(c).type is CardType.LEAD for c in me.hand))

    def _choices(self, s: State) -> list[str]:
        task = s.tasks[0]
        target = s.players[task.target]
        if task.effect_do is Do.DISCARD:
            return sorted(target.hand)
        if task.effect_do is Do.BURY:
            return sorted(target.discard)
        owner = s.players[task.owner]
        return sorted(c for c in owner.deck if task.finds(s.card(c)))

    def is_legal(self, state: State, seat: int, action: JSON) -> bool:
        """Legal, or refused with a code that says why (never a KeyError)."""
        act = parse_action(action)
        if act in self._legal(state, seat):
            return True
        self._diagnose(state, seat, act)
        raise IllegalAction("illegal_action", "That action is not legal now.")

    # -- applying ----------------------------------------------------------------------
    def _decide(self, state: State, seat: int, action: JSON) -> State:
        s = state.clone()
        act = parse_action(action)
        getattr(self, f"_do_{act.type}")(s, seat, act)
        self._advance(s)
        return s

    def _resolve_chance(self, state: State, outcome: JSON) -> State:
        s = state.clone()
        if s.shuffles:
            self._shuffled(s, outcome)
        elif s.phase is Phase.DEAL:
            self._dealt(s, outcome)
        else:
            faces = outcome.get("dice")
            rollers = self._rollers(s)
            if (not isinstance(faces, list) or len(faces) != len(rollers)
                    or not all(f in {str(k) for k in SKILLS} for f in faces)):
                raise IllegalAction("bad_outcome", f"Expected {counted(len(rollers), 'die face')}.")
            dice = [self._die(s, seat, Skill(f), i > 0 and s.phase is not Phase.ROLL)
                    for i, (seat, f) in enumerate(zip(rollers, faces, strict=True))]
            {Phase.ROLL: self._turn_roll, Phase.FINISH: self._finish_roll,
             Phase.BREAKOUT: self._breakout_roll}[s.phase](s, dice)
        self._advance(s)
        return s

    def _shuffled(self, s: State, outcome: JSON) -> None:
        seat = s.shuffles[0]
        me = s.players[seat]
        data = outcome.get("shuffle")
        order = data.get("order") if isinstance(data, Mapping) else None
        if (not isinstance(data, Mapping) or data.get("seat") != seat
                or not isinstance(order, list) or not all(isinstance(c, str) for c in order)
                or sorted(order) != sorted(me.deck)):
            raise IllegalAction("bad_outcome", f"Expected a shuffle of {who(s, seat)}'s deck.")
        me.reorder(order)
        s.shuffles.pop(0)
        _say(s, f"{who(s, seat)} shuffles their deck ({len(order)} cards).")

    def _dealt(self, s: State, outcome: JSON) -> None:
        """SH-113/115: entrant numbers by seat; entrant 1 starts the Competitor draft."""
        data = outcome.get("birdcage")
        comps = data.get("competitors") if isinstance(data, Mapping) else None
        entrants = data.get("entrants") if isinstance(data, Mapping) else None
        n = len(s.players)
        if (not isinstance(comps, list) or len(comps) != BIRDCAGE_SETS
                or len(set(map(str, comps))) != BIRDCAGE_SETS
                or not all(isinstance(k, str) and k in CATALOG.competitors for k in comps)
                or s.referee in comps
                or not isinstance(entrants, list)
                or sorted(entrants, key=str) != list(range(1, n + 1))):
            raise IllegalAction("bad_outcome", "Expected six Competitors and the entrant "
                                               "numbers.")
        s.entrants, s.pool = tuple(entrants), list(comps)
        s.pickers = self._in_entrant_order(s, 1)
        s.phase = Phase.DRAFT
        for seat in self._in_entrant_order(s, 1):
            _say(s, f"Player {seat + 1} draws entrant number {s.entrants[seat]}.")

    def _in_entrant_order(self, s: State, first: int) -> list[int]:
        """Seats still in the match from entrant number `first` (or the next one still in),
        passing to the right (the next number): a seat out is skipped, as if never there."""
        order = sorted((seat for seat in s.seats if seat not in s.out),
                       key=lambda seat: s.entrants[seat])
        start = next((i for i, seat in enumerate(order) if s.entrants[seat] >= first), 0)
        return order[start:] + order[:start]

    def _rollers(self, s: State) -> list[int]:
        """Turn roll: everyone in the match; Finish: the finisher and its Team Ups;
        Breakout: the defender and its Savers."""
        if s.phase is Phase.ROLL:
            return s.live
        f = s.finish
        assert f is not None
        if s.phase is Phase.FINISH:
            return [f.seat, *f.team_ups]
        return [f.target, *f.savers]

    def sample_chance(self, state: State, rng: random.Random) -> JSON:
        if state.phase is Phase.DEAL and not state.shuffles:
            pool = sorted(k for k in CATALOG.competitors if k != state.referee)  # SH-126
            comps = rng.sample(pool, BIRDCAGE_SETS)
            entrants = list(range(1, len(state.players) + 1))
            rng.shuffle(entrants)
            return {"birdcage": {"competitors": comps, "entrants": entrants}}
        if state.shuffles:
            seat = state.shuffles[0]
            order = sorted(state.players[seat].deck)
            rng.shuffle(order)
            return {"shuffle": {"seat": seat, "order": order}}
        return {"dice": [str(rng.choice(SKILLS)) for _ in self._rollers(state)]}

    # -- rolls -------------------------------------------------------------------------
    def _die(self, s: State, seat: int, skill: Skill, helper: bool = False) -> Die:
        """SH-008: the roller's own rating for the face, plus its bonuses for this roll
        (a Team Up or Save die is the bare rating)."""
        comp = competitor(s, seat)
        if helper:
            return Die(seat, skill, comp.skills[skill])
        kind = {Phase.ROLL: Roll.TURN, Phase.FINISH: Roll.FINISH,
                Phase.BREAKOUT: Roll.BREAKOUT}[s.phase]
        value = comp.skills[skill] + s.players[seat].boosts.pop(str(kind), 0)
        value += sum(b.amount for g in gimmicks(s, seat) for b in g.bonuses
                     if b.roll is kind and b.skill in (None, skill))
        meter = self._meter(s)[:s.crowd]
        if kind is Roll.FINISH:
            value += sum(c.finish_bonus for c in meter)
        if kind is Roll.BREAKOUT:
            value -= sum(c.breakout_penalty for c in meter)
        return Die(seat, skill, value)

    def _meter(self, s: State) -> tuple[CrowdCard, ...]:
        return CATALOG.birdcage_meter if self.mtype(s).birdcage else CATALOG.crowd_meter

    def _turn_roll(self, s: State, dice: list[Die]) -> None:
        """SH-008..SH-010, SH-054..SH-056: the highest value takes the turn."""
        s.last_roll = tuple(dice)
        s.turn_rolls += 1
        for die in dice:
            _say(s, f"{who(s, die.seat)} rolls {die.skill.upper()} for {die.value}.")
        if self.mtype(s).birdcage and self._rise_due(s):
            self._rise(s, scheduled=True)
        pairs = self._double_team_pairs(s)
        if pairs:
            s.offer, s.phase = pairs[0], Phase.DOUBLE
            return
        self._settle_roll(s)

    def _scores(self, s: State) -> dict[int, int]:
        """Each roller's value; with Bump Out, values shared by several count 0 (SH-054)."""
        values = {d.seat: d.value for d in s.last_roll}
        if self.mtype(s).bump_out:
            counts = Counter(values.values())
            values = {seat: (0 if counts[v] > 1 else v) for seat, v in values.items()}
        return values

    def _leaders(self, s: State) -> list[int]:
        scores = self._scores(s)
        top = max(scores.values())
        return [seat for seat, v in scores.items() if v == top and v > 0]

    def _double_team_pairs(self, s: State) -> list[tuple[int, int]]:
        """SH-065/074/103: the pairs that may Double Team after this roll, the highest die
        first, each first player first: a pair that declines passes the offer to the next
        (in a Tornado Tag Team both teams may have one)."""
        rule = self.mtype(s).double_team
        dice = {d.seat: d for d in s.last_roll}
        pairs = [(a, b) for a in dice for b in dice if a < b
                 and dice[a].skill is dice[b].skill]
        if rule is DoubleTeam.TEAM:
            pairs = [(a, b) for a, b in pairs if s.team(a) == s.team(b)]
        elif rule is DoubleTeam.LOSERS:
            leaders = self._leaders(s)
            pairs = [(a, b) for a, b in pairs if len(leaders) == 1
                     and leaders[0] not in (a, b) and len(s.live) == 3]
        else:
            return []
        pairs.sort(key=lambda p: (-max(dice[p[0]].value, dice[p[1]].value), p[0]))
        # SH-076/077: the higher value plays first; equal values: the lower seat.
        return [(a, b) if dice[a].value >= dice[b].value else (b, a) for a, b in pairs]

    def _settle_roll(self, s: State) -> None:
        """Who takes the turn once no Double Team is taken."""
        leaders = self._leaders(s)
        if not leaders or (len(leaders) > 1
                           and len({s.team(seat) for seat in leaders}) > 1):
            # SH-010/055/089: a bump (all bumped out, or a tie across sides).
            _say(s, "Bump! Everyone draws a card and rolls again.")
            for seat in s.live:
                self._draw(s, seat, 1)
                self._trigger(s, seat, Trigger.BUMPED, s.opponents(seat))
            s.phase, s.then = Phase.EFFECTS, Phase.ROLL
            return
        if len(leaders) > 1:
            # SH-086/093/102: tied team-mates both draw and choose who starts.
            for seat in leaders:
                self._draw(s, seat, 1)
            s.offer, s.phase = tuple(leaders), Phase.STARTER
            return
        self._begin(s, leaders[0], draw=True)

    def _begin(self, s: State, seat: int, draw: bool) -> None:
        """A turn for one player: SH-009 (one card), SH-087/094 (the lone player: two
        cards and a play against each opponent)."""
        opps = tuple(s.opponents(seat))
        lone = self.mtype(s).lone_plays_each and not s.mates(seat) and len(opps) > 1
        s.active = seat
        s.plan = [Step(seat, opps)] * (len(opps) if lone else 1)
        _say(s, f"{who(s, seat)} wins the turn roll.")
        if draw:
            self._draw(s, seat, 2 if lone else 1)
        s.phase = Phase.START

    def _start_turn(self, s: State) -> None:
        """SH-038/084/092/099: with no cards in hand and deck, a count-out."""
        seat = s.plan[0].seat
        s.active = seat
        if s.count_outs and all(not s.players[m].hand and not s.players[m].deck
                                for m in [seat, *s.mates(seat)]):
            team = [seat, *s.mates(seat)]
            self._end(s, tuple(sorted(team)), EndReason.COUNT_OUT,
                      f"{' and '.join(who(s, m) for m in sorted(team))} "
                      "have no cards in hand or deck: a win by count-out!"
                      if len(team) > 1 else
                      f"{who(s, seat)} has no cards in hand or deck: a win by count-out!")
            return
        # SH-041/068: each Double Team partner won the roll; partners are not opponents.
        against = [o for o in s.opponents(seat) if o not in s.partners]
        self._trigger(s, seat, Trigger.TURN_WON, against)
        s.phase, s.then = Phase.EFFECTS, Phase.TURN

    def _finish_roll(self, s: State, dice: list[Die]) -> None:
        """SH-029: after the Finish's text, the finisher rolls; SH-058: +1 per Team Up
        die showing the same skill."""
        f = s.finish
        assert f is not None
        main, helpers = dice[0], dice[1:]
        bonus = sum(1 for d in helpers if d.skill is main.skill)
        f.roll = Die(main.seat, main.skill, main.value + bonus)
        f.helpers = helpers
        for d in helpers:
            _say(s, f"{who(s, d.seat)} rolls {d.skill.upper()} to Team Up.")
        _say(s, f"{who(s, f.seat)} rolls {main.skill.upper()} for a Finish Roll of "
                f"{f.roll.value}.")
        f.asking = [m for m in s.mates(f.target)] if self.mtype(s).save else []
        if f.seat in s.partners:  # SH-067: the finisher's Double Team partner may Save
            f.asking += [p for p in s.partners if p in s.live and p not in f.team_ups
                         and s.team(p) not in (s.team(f.seat), s.team(f.target))]
        s.phase = Phase.SAVE if f.asking else Phase.BREAKOUT

    def _breakout_roll(self, s: State, dice: list[Die]) -> None:
        """SH-030..SH-036, SH-064: tie or beat the Finish Roll in up to three tries; a
        Save die showing the same skill adds its value."""
        f = s.finish
        assert f is not None and f.roll is not None
        main, helpers = dice[0], dice[1:]
        die = Die(main.seat, main.skill,
                  main.value + sum(d.value for d in helpers if d.skill is main.skill))
        f.breakouts.append(die)
        f.helpers = helpers
        for d in helpers:
            _say(s, f"{who(s, d.seat)} rolls {d.skill.upper()} to Save.")
        _say(s, f"{who(s, f.target)} rolls {die.skill.upper()} for a Breakout Roll of "
                f"{die.value}.")
        if die.value >= f.roll.value:
            self._broke_out(s, f.target)
        elif len(f.breakouts) >= BREAKOUT_ROLLS:
            self._fall(s, f)

    def _fall(self, s: State, f: FinishAttempt) -> None:
        """SH-032/072/079/124: three failed Breakouts: a fall."""
        skill = s.card(f.card).skill
        reason = EndReason.SUBMISSION if skill is Skill.SUBMISSION else EndReason.PINFALL
        if self.mtype(s).elimination:
            _say(s, f"{who(s, f.target)} cannot break out and is eliminated by {reason}!")
            s.finish = None
            self._eliminate(s, f.target)
            return
        team = tuple(sorted([f.seat, *s.mates(f.seat)]))
        self._end(s, team, reason, f"{who(s, f.target)} cannot break out: "
                                   f"{who(s, f.seat)} wins by {reason}!")

    def _eliminate(self, s: State, seat: int) -> None:
        """SH-072/124: out of the match, and its play (or the fall) is over."""
        if not self._knock_out(s, seat):
            self._step_done(s)

    def _knock_out(self, s: State, seat: int) -> bool:
        """SH-072/124: out of the match; cards in play for and against go to discards;
        SH-081: one side left (nobody waiting to enter) wins. Whether the match ended."""
        s.out.append(seat)
        me = s.players[seat]
        me.discard.extend(me.all_in_play())
        me.in_play = {k: [] for k in me.in_play}
        for other in s.live:
            pile = s.players[other].in_play.get(seat, [])
            s.players[other].discard.extend(pile)
            s.players[other].in_play[seat] = []
        s.plan = [Step(st.seat, tuple(t for t in st.targets if t != seat))
                  for st in s.plan if st.seat != seat]
        if len({s.team(o) for o in s.live}) == 1 and not s.waiting:
            self._end(s, tuple(s.live), EndReason.LAST_STANDING,
                      f"{' and '.join(who(s, o) for o in s.live)} "
                      f"{'is' if len(s.live) == 1 else 'are'} the last left standing!")
            return True
        return False

    # -- a forfeit (the package docstring's forfeit decision) ---------------------------
    def forfeit_eliminates(self, state: State, seat: int) -> bool:
        """An Elimination match (SH-072/106/124) takes a forfeit as an elimination once
        its Competitors are in the ring, and a Birdcage during its draft too (the entrant
        numbers dealt); elsewhere the match service ends the match. A seat already out is
        refused by `apply`."""
        return (self.mtype(state).elimination and 0 <= seat < len(state.players)
                and state.phase not in (Phase.DEAL, Phase.SETUP, Phase.OVER))

    def _forfeit(self, state: State, seat: int) -> State:
        """The seat is eliminated as SH-072 eliminates, and the match goes on (during a
        Birdcage's draft, the draft goes on without it)."""
        if seat in state.out:
            raise IllegalAction("seat_out", f"{who(state, seat)} is already out.")
        s = state.clone()
        _say(s, f"{who(s, seat)} forfeited and is out.")
        s.forfeits.append(seat)
        if s.phase in DRAFTING:
            if not self._knock_out(s, seat):
                self._draft_without(s, seat)
            self._advance(s)
            return s
        waiting, involved = seat in s.waiting, self._in_the_turn(s, seat)
        if waiting:  # a Birdcage entrant yet to enter; the meter's call goes to the next
            s.waiting.remove(seat)
            s.called = s.called if s.waiting else None
        me = s.players[seat]
        me.put_under(sorted(me.hand), seen=False)  # (hidden as it was)
        me.hand = []
        # Out first, so that nothing the match goes on with asks it again.
        if self._knock_out(s, seat):
            return s
        if involved and not waiting:
            self._call_off_turn(s)
        elif not waiting:
            self._ask_no_more(s, seat)
        if s.plan and not s.plan[0].targets:  # nobody left for the turn's player
            self._call_off_turn(s)
        s.plan = [st for st in s.plan if st.targets]
        self._advance(s)
        return s

    def _draft_without(self, s: State, seat: int) -> None:
        """The draft goes on without a seat that forfeited during it (SH-115..118, the
        package docstring's decision): its Competitor and the cards it took are set aside
        with the cards nobody takes; it is skipped when a pile passes; if it was to open
        the next pile, the next player to its right opens it."""
        if s.picks[seat] or s.competitors[seat]:
            _say(s, f"{who(s, seat)}'s picks are set aside.")
        if s.phase is Phase.OPEN:
            if s.opener == seat:
                s.opener = self._in_entrant_order(s, s.entrants[seat] + 1)[0]
            return
        if seat in s.pickers:
            s.pickers.remove(seat)
        if s.pickers:
            return
        if s.phase is Phase.DRAFT:
            self._competitors_drafted(s)
        else:
            self._pile_drafted(s)

    def _in_the_turn(self, s: State, seat: int) -> bool:
        """Whether the seat takes part in the turn under way: it rolled for the turn not
        yet settled, takes it, or is the one its play or Finish is against."""
        if s.phase in (Phase.DOUBLE, Phase.STARTER):
            return True
        f = s.finish
        return (seat in (s.active, s.target) or seat in s.partners
                or (f is not None and seat in (f.seat, f.target)))

    def _call_off_turn(self, s: State) -> None:
        """The turn stops: a card waiting for Stops goes to its player's discard pile (it
        was shown), a Finish and the effects still to come lapse, and a turn roll follows
        (SH-027: every turn ends in a roll)."""
        if s.played is not None and s.active is not None:
            s.players[s.active].discard.append(s.played)
        s.played, s.target, s.stoppers, s.tasks, s.finish = None, None, [], [], None
        s.plan, s.partners, s.offer, s.played_once = [], (), (), False
        s.active, s.phase, s.then = None, Phase.ROLL, Phase.ROLL
        _say(s, "The turn ends there.")

    def _ask_no_more(self, s: State, seat: int) -> None:
        """A seat that was to answer (a Stop, a Team Up, a Save, an effect's choice) is
        asked no more; what waited on it goes on."""
        if seat in s.stoppers:
            s.stoppers.remove(seat)
            if s.phase is Phase.STOP and not s.stoppers:
                self._hit(s)
        f = s.finish
        if f is not None and seat in f.asking + f.team_ups + f.savers:
            f.asking = [o for o in f.asking if o != seat]
            f.team_ups = [o for o in f.team_ups if o != seat]
            f.savers = [o for o in f.savers if o != seat]
            if s.phase is Phase.TEAM_UP and not f.asking:
                s.phase = Phase.FINISH
            elif s.phase is Phase.SAVE and not f.asking:
                s.phase = Phase.BREAKOUT
        asked = s.phase is Phase.CHOOSE and seat == self._decider(s)
        s.tasks = [t for t in s.tasks if seat not in (t.owner, t.target)]
        if asked:
            s.phase = Phase.EFFECTS

    def _broke_out(self, s: State, seat: int) -> None:
        """SH-033/035/036: the cards in play between the two go to the discard piles; the
        crowd gets louder."""
        f = s.finish
        assert f is not None
        _say(s, f"{who(s, seat)} breaks out!")
        for a, b in ((f.seat, f.target), (f.target, f.seat)):
            pile = s.players[a].in_play.get(b, [])
            s.players[a].discard.extend(pile)
            s.players[a].in_play[b] = []
        if s.crowd < len(CATALOG.crowd_meter) and not self.mtype(s).birdcage:  # SH-122
            _say(s, f"The Crowd Meter rises: {CATALOG.crowd_meter[s.crowd].name}.")
            s.crowd += 1
        s.finish = None
        self._trigger(s, seat, Trigger.BROKE_OUT, [f.seat])
        self._step_done(s)

    def _step_done(self, s: State) -> None:
        """One play (or bury) of the turn is over: the next one, or a turn roll (SH-026).
        The second partner's part of a Double Team starts as a turn does (SH-038/075: a
        count-out is checked for them too)."""
        done = s.plan.pop(0).seat if s.plan else None
        s.plan = [st for st in s.plan if st.targets]
        s.phase, s.then = Phase.EFFECTS, (Phase.TURN if s.plan else Phase.ROLL)
        s.played_once = bool(s.plan) and s.plan[0].seat == done  # the lone player's next
        if not s.plan:
            s.partners = ()
        if s.plan and s.plan[0].seat != done:
            s.then = Phase.START

    # -- the automatic steps -----------------------------------------------------------
    def _advance(self, s: State) -> None:
        """Run the steps that need nobody until a decision, a chance node or the end."""
        while (not s.shuffles and s.phase is not Phase.OVER
               and self._over_limit(s) is None):
            if s.phase is Phase.SETUP:
                for seat in s.live:
                    self._draw(s, seat, OPENING_HAND)  # SH-007, SH-119
                s.phase = Phase.ROLL
            elif s.phase is Phase.ROLL and s.turn_rolls >= s.turn_limit:
                # Before any entry: a Birdcage entrant comes in during a turn roll (SH-120)
                self._end(s, (), EndReason.TIME_LIMIT,
                          f"Time limit: {s.turn_limit} turn rolls without a winner. A draw.")
            elif s.phase is Phase.ROLL and self._entry_due(s):
                self._enter(s)
            elif s.phase is Phase.START:
                self._start_turn(s)
            elif s.phase is Phase.EFFECTS:
                self._run_task(s)
            elif s.phase is Phase.TURN and s.plan and s.active != s.plan[0].seat:
                s.active = s.plan[0].seat
            elif s.phase is Phase.STOP and not s.players[s.stoppers[0]].hand:
                self._no_stop(s)  # nothing in hand, nothing to decide
            elif s.phase is Phase.CHOOSE and not self._choices(s):
                self._skip_choice(s)
            else:
                return

    def _entry_due(self, s: State) -> bool:
        """SH-120: an entrant the meter called comes in as the next turn roll is due; and
        (SH-124 decision) one comes in at once when a single player is left inside while
        entrants wait, who would otherwise roll against nobody."""
        return self.mtype(s).birdcage and (s.called is not None or (
            bool(s.waiting) and len(s.live) < 2 and s.crowd < len(CATALOG.birdcage_meter)))

    def _rise_due(self, s: State) -> bool:
        """SH-120: the six-roll schedule's next rise (after turn rolls 6, 12, 18, ...)."""
        return (s.crowd < len(CATALOG.birdcage_meter)
                and s.turn_rolls >= ENTRY_ROLLS * (s.rises + 1))

    def _rise(self, s: State, *, scheduled: bool) -> None:
        """SH-120: the Birdcage Crowd Meter rises at once (its Finish and Breakout
        modifiers count from now on) and calls the lowest waiting entrant, who comes in at
        the next turn roll. A rise out of schedule (SH-124) leaves the schedule as it was."""
        card = CATALOG.birdcage_meter[s.crowd]
        s.rises += scheduled
        s.crowd += 1
        _say(s, f"The Birdcage Crowd Meter rises: {card.name}.")
        if s.waiting and s.called is None:
            s.called = s.crowd - 1
            _say(s, f"{who(s, s.waiting[0])} (entrant {s.entrants[s.waiting[0]]}) enters "
                    "at the next turn roll.")

    def _enter(self, s: State) -> None:
        """SH-121: the called entrant comes in, draws and gets the card's bonus on the
        first turn roll; with nobody called (SH-124) the meter rises first, as at any
        entry."""
        if s.called is None:
            self._rise(s, scheduled=False)
        assert s.called is not None
        card, s.called = CATALOG.birdcage_meter[s.called], None
        seat = s.waiting.pop(0)
        _say(s, f"{who(s, seat)} (entrant {s.entrants[seat]}) enters the Birdcage!")
        self._draw(s, seat, card.entrant_draw)
        if card.entrant_bonus:
            me = s.players[seat]
            me.boosts["turn"] = me.boosts.get("turn", 0) + card.entrant_bonus

    def _draw(self, s: State, seat: int, n: int) -> None:
        """Draw up to n; SH-040: a draw from an empty deck draws nothing."""
        me = s.players[seat]
        drawn = me.take_top(n)
        me.hand.extend(drawn)
        got = len(drawn)
        if got:
            _say(s, f"{who(s, seat)} draws {got} card{'s' if got > 1 else ''}.")
        elif n:
            _say(s, f"{who(s, seat)} has no card left to draw.")

    def _trigger(self, s: State, seat: int, when: Trigger, against: Sequence[int],
                 card: Card | None = None) -> None:
        """SH-041: queue the Gimmicks' effects for this event."""
        for t in (t for g in gimmicks(s, seat) for t in g.triggers):
            if t.when is when and (t.card_type is None or (card and card.type is t.card_type)):
                self._queue(s, seat, t.effects, "Gimmick", against, None)

    def _queue(self, s: State, owner: int, effects: Sequence[Effect], source: str,
               against: Sequence[int], pile: int | None) -> None:
        """Turn effects into tasks; counts and conditions are read now, from the pile
        against `pile` (a card's target, SH-052) or from every pile (a Gimmick)."""
        for e in effects:
            if e.cond is not None:
                me = s.players[owner]
                if e.cond.hand_at_most is not None and len(me.hand) > e.cond.hand_at_most:
                    continue
                if e.cond.in_play and self._in_play(s, owner, e.cond.in_play,
                                                    pile) < e.cond.at_least:
                    continue
            if e.do is Do.BOOST:
                s.tasks.append(Task(owner, owner, e.do, e.amount, roll=e.roll, source=source))
                continue
            count = e.count * (self._in_play(s, owner, e.per, pile) if e.per else 1)
            targets = list(against) if e.who == "opponent" else [owner]
            for target in targets:
                if count > 0 and target in s.live:
                    s.tasks.append(Task(owner, target, e.do, count, e.find_type, e.find_skill,
                                        source=source))

    def _run_task(self, s: State) -> None:
        if not s.tasks:
            s.phase = s.then
            return
        task = s.tasks[0]
        if task.effect_do is Do.DRAW:
            s.tasks.pop(0)
            self._draw(s, task.target, task.count)
        elif task.effect_do is Do.FLIP:
            s.tasks.pop(0)
            self._flip(s, task.target, task.count)
        elif task.effect_do is Do.BOOST:
            s.tasks.pop(0)
            assert task.roll is not None
            me = s.players[task.owner]
            me.boosts[str(task.roll)] = me.boosts.get(str(task.roll), 0) + task.count
            _say(s, f"{who(s, task.owner)}'s next {task.roll} roll gets +{task.count}.")
        else:
            s.phase = Phase.CHOOSE  # the target picks (the owner, for a search)

    def _flip(self, s: State, seat: int, n: int) -> None:
        """SH-049: FLIP moves the top card of the deck to the discard pile."""
        me = s.players[seat]
        for _ in range(n):
            if not me.deck:
                break
            card = me.take_top(1)[0]
            me.discard.append(card)
            _say(s, f"{who(s, seat)} flips {s.card(card).label} into the discard pile.")

    def _skip_choice(self, s: State) -> None:
        task = s.tasks.pop(0)
        if task.effect_do is Do.SEARCH:
            _say(s, f"{who(s, task.owner)} searches the deck and finds nothing.")
            self._shuffle_after_search(s, task.owner)
        s.phase = Phase.EFFECTS

    def _shuffle_after_search(self, s: State, seat: int) -> None:
        if len(s.players[seat].deck) > 1:
            s.shuffles.append(seat)

    # -- decisions ---------------------------------------------------------------------
    def _do_play(self, s: State, seat: int, act: Action) -> None:
        """SH-011/051: play one card against one opponent, who may Stop it (SH-016)."""
        assert act.card is not None
        target = act.target if act.target is not None else s.plan[0].targets[0]
        s.players[seat].hand.remove(act.card)
        s.played, s.target = act.card, target
        s.plan = [s.plan[0]] + [Step(st.seat, tuple(t for t in st.targets if t != target))
                                if st.seat == seat else st for st in s.plan[1:]]
        s.stoppers = [target, *self._third_parties(s, seat, target)]
        s.phase = Phase.STOP
        against = f" against {who(s, target)}" if self._multi(s) else ""
        _say(s, f"{who(s, seat)} plays {s.card(act.card).label}{against}.")

    def _third_parties(self, s: State, seat: int, target: int) -> list[int]:
        """Who else may stop the card: the Double Team partner of its player, who Protects
        the target (SH-067); the target's team-mates where Protecting is in force (SH-063),
        anyone not on either side where DQ is (interference, SH-069).

        Only public facts decide it (match type, teams, DQ, who is live), never a hand:
        every such player is asked in seat order, and one holding no matching Stop has
        the decline (`no_stop`) as its only action, so being asked reveals nothing; an
        empty hand (its size is public) is passed over as the target's is (`_advance`)."""
        mtype = self.mtype(s)
        others = [o for o in s.live if o not in (seat, target) and s.team(o) != s.team(seat)]
        partner = [o for o in others if seat in s.partners and o in s.partners]
        others = [o for o in others if o not in partner]
        if mtype.protect:
            return partner + [o for o in others if s.team(o) == s.team(target)]
        if s.dq:
            return partner + [o for o in others if s.team(o) != s.team(target)]
        return partner

    def _do_bury(self, s: State, seat: int, act: Action) -> None:
        """SH-023/024: the turn is spent burying one card from the discard pile."""
        assert act.card is not None
        me = s.players[seat]
        me.discard.remove(act.card)
        me.put_under([act.card], seen=True)
        _say(s, f"{who(s, seat)} buries {s.card(act.card).label}.")
        self._end_turn(s, seat)

    def _do_pass(self, s: State, seat: int, act: Action) -> None:
        """SH-025 decision: with an empty discard pile the turn may end without a play;
        SH-087/094: once a card is played, the lone player's next play is optional."""
        if s.played_once:
            _say(s, f"{who(s, seat)} ends the turn.")
        else:
            _say(s, f"{who(s, seat)} has nothing to bury and ends the turn.")
        self._end_turn(s, seat)

    def _end_turn(self, s: State, seat: int) -> None:
        """SH-026/027: a bury ends this player's part of the turn."""
        s.players[seat].turns += 1
        s.plan = [s.plan[0]] + [st for st in s.plan[1:] if st.seat != seat]
        self._step_done(s)

    def _do_mulligan(self, s: State, seat: int, act: Action) -> None:
        """SH-045: the hand goes under the deck and as many cards are drawn."""
        me = s.players[seat]
        n = len(me.hand)
        me.put_under(me.hand, seen=True)  # shown to the table first (SH-045)
        me.hand = []
        me.mulliganed = True
        _say(s, f"{who(s, seat)} shows a hand without a Lead and mulligans {n} cards.")
        self._draw(s, seat, n)

    def _stopped(self, s: State, seat: int, card: str) -> tuple[int, str]:
        """SH-017: the played card goes to its owner's discard pile."""
        assert s.played is not None and s.active is not None
        played, owner = s.played, s.active
        s.players[seat].hand.remove(card)
        s.players[owner].discard.append(played)
        s.played, s.target, s.stoppers = None, None, []
        s.players[owner].turns += 1
        return owner, played

    def _do_stop(self, s: State, seat: int, act: Action) -> None:
        """SH-017/018: the stopped card to its discard pile, the Stop into play."""
        assert act.card is not None
        owner, _ = self._stopped(s, seat, act.card)
        self._pile(s, seat, owner).append(act.card)
        _say(s, f"{who(s, seat)} STOPS it with {s.card(act.card).label}!")
        self._trigger(s, seat, Trigger.STOPPED, [owner])
        self._step_done(s)

    def _do_protect(self, s: State, seat: int, act: Action) -> None:
        """SH-063: a team-mate stops it, then buries the whole hand."""
        assert act.card is not None
        owner, _ = self._stopped(s, seat, act.card)
        self._pile(s, seat, owner).append(act.card)
        me = s.players[seat]
        buried = f" and buries {counted(len(me.hand), 'card')} from hand" if me.hand else ""
        _say(s, f"{who(s, seat)} PROTECTS with {s.card(act.card).label}{buried}.")
        me.put_under(sorted(me.hand), seen=False)
        me.hand = []
        self._trigger(s, seat, Trigger.STOPPED, [owner])
        self._step_done(s)

    def _do_interfere(self, s: State, seat: int, act: Action) -> None:
        """SH-069 decision: stopping a card between two other players is interference:
        the card is stopped, the Stop is thrown out, the interferer disqualified."""
        assert act.card is not None
        self._stopped(s, seat, act.card)
        s.players[seat].discard.append(act.card)
        _say(s, f"{who(s, seat)} interferes with {s.card(act.card).label}: DISQUALIFIED!")
        if self.mtype(s).elimination:
            self._eliminate(s, seat)
            return
        others = tuple(o for o in s.seats if s.team(o) != s.team(seat))
        self._end(s, others, EndReason.DISQUALIFICATION,
                  f"{who(s, seat)}'s side loses by disqualification.")

    def _do_no_stop(self, s: State, seat: int, act: Action) -> None:
        self._no_stop(s)

    def _no_stop(self, s: State) -> None:
        s.stoppers.pop(0)
        if not s.stoppers:
            self._hit(s)

    def _hit(self, s: State) -> None:
        """SH-022/028: a hit stays in play and its text is performed; a Finish is rolled."""
        assert s.played is not None and s.active is not None and s.target is not None
        seat, cid, target = s.active, s.played, s.target
        card = s.card(cid)
        self._pile(s, seat, target).append(cid)
        s.played, s.target = None, None
        _say(s, f"{card.label} hits!")
        self._queue(s, seat, card.effects, card.label, [target], target)
        self._trigger(s, seat, Trigger.CARD_HIT, [target], card)
        s.players[seat].turns += 1
        if card.type is CardType.FINISH:
            s.finish = FinishAttempt(seat, target, cid)
            if self.mtype(s).team_up:
                s.finish.asking = [o for o in s.live if o not in (seat, target)]
            s.phase = Phase.EFFECTS
            s.then = Phase.TEAM_UP if s.finish.asking else Phase.FINISH
        else:
            self._step_done(s)

    def _do_team_up(self, s: State, seat: int, act: Action) -> None:
        """SH-058/059/061: join the Finish Roll; your pile against the target is discarded."""
        f = s.finish
        assert f is not None
        f.asking.pop(0)
        f.team_ups.append(seat)
        pile = s.players[seat].in_play.get(f.target, [])
        s.players[seat].discard.extend(pile)
        s.players[seat].in_play[f.target] = []
        _say(s, f"{who(s, seat)} TEAMS UP with {who(s, f.seat)}!")
        s.phase = Phase.TEAM_UP if f.asking else Phase.FINISH

    def _do_no_team_up(self, s: State, seat: int, act: Action) -> None:
        f = s.finish
        assert f is not None
        f.asking.pop(0)
        s.phase = Phase.TEAM_UP if f.asking else Phase.FINISH

    def _do_save(self, s: State, seat: int, act: Action) -> None:
        """SH-064 decision: a Saver rolls with each of the Breakout Rolls of this Finish."""
        f = s.finish
        assert f is not None
        f.asking.pop(0)
        f.savers.append(seat)
        _say(s, f"{who(s, seat)} comes in for the SAVE!")
        s.phase = Phase.SAVE if f.asking else Phase.BREAKOUT

    def _do_no_save(self, s: State, seat: int, act: Action) -> None:
        f = s.finish
        assert f is not None
        f.asking.pop(0)
        s.phase = Phase.SAVE if f.asking else Phase.BREAKOUT

    def _do_double_team(self, s: State, seat: int, act: Action) -> None:
        """SH-065/075/076: both draw; the first plays (any Finish resolves), then the
        second."""
        first, second = s.offer
        dice = {d.seat: d for d in s.last_roll}
        _say(s, f"{who(s, first)} and {who(s, second)} DOUBLE TEAM!")
        s.offer = ()
        if self.mtype(s).double_team is DoubleTeam.LOSERS:
            targets = tuple(self._leaders(s))
        else:
            targets = tuple(s.opponents(first))
        del dice
        for m in (first, second):
            self._draw(s, m, 1)
        s.plan = [Step(first, targets), Step(second, targets)]
        s.partners = (first, second)
        s.active = first
        s.phase = Phase.START

    def _do_no_double_team(self, s: State, seat: int, act: Action) -> None:
        pairs = self._double_team_pairs(s)
        declined = pairs.index((s.offer[0], s.offer[1]))
        if declined + 1 < len(pairs):
            s.offer = pairs[declined + 1]  # the next pair is asked in turn
            return
        s.offer = ()
        self._settle_roll(s)

    def _do_starter(self, s: State, seat: int, act: Action) -> None:
        """SH-086: the tied team-mates' choice of who starts."""
        assert act.seat is not None
        s.offer = ()
        self._begin(s, act.seat, draw=False)

    def _do_draft(self, s: State, seat: int, act: Action) -> None:
        """SH-115: keep one Competitor, pass the rest to the right."""
        assert act.competitor is not None
        s.pool.remove(act.competitor)
        comps = list(s.competitors)
        comps[seat] = act.competitor
        s.competitors = tuple(comps)
        s.pickers.pop(0)
        _say(s, f"Entrant {s.entrants[seat]} drafts {who(s, seat)}.")
        if not s.pickers:
            self._competitors_drafted(s)

    def _competitors_drafted(self, s: State) -> None:
        """SH-116: the number piles come out; entrant 2 (or the next one to its right
        still in) opens the first."""
        s.piles = {n: list(_preset_pile(n)) for n in range(1, 28)}
        s.opener = self._in_entrant_order(s, 2)[0]
        s.phase = Phase.OPEN

    def _do_open_pile(self, s: State, seat: int, act: Action) -> None:
        """SH-116/118: the opener chooses a pile; every player in turn takes one card."""
        assert act.number is not None
        s.open_pile = act.number
        s.pickers = self._in_entrant_order(s, s.entrants[seat])
        s.phase = Phase.PICK
        _say(s, f"{who(s, seat)} opens pile #{act.number}.")

    def _do_pick(self, s: State, seat: int, act: Action) -> None:
        assert act.card is not None and s.open_pile is not None
        s.piles[s.open_pile].remove(act.card)
        s.picks[seat].append(act.card)
        s.pickers.pop(0)
        _say(s, f"{who(s, seat)} takes {CATALOG.library[act.card].label}.")
        if not s.pickers:
            self._pile_drafted(s)

    def _pile_drafted(self, s: State) -> None:
        """SH-117/118: everyone took a card from the open pile; the next player to the
        right of its opener (still in) opens the next, until the 27 piles are drafted."""
        assert s.open_pile is not None
        del s.piles[s.open_pile]  # SH-118 decision: the cards nobody took are set aside
        s.open_pile = None
        s.opener = self._in_entrant_order(s, s.entrants[s.opener] + 1)[0]
        s.phase = Phase.OPEN if s.piles else Phase.SETUP
        if not s.piles:
            self._decks_drafted(s)

    def _decks_drafted(self, s: State) -> None:
        """SH-117/119: 27 drafted cards and the Competitor's own Finishes; entrants 1 and 2
        shuffle and start, the others wait. A seat that forfeited during the draft gets no
        deck; the two lowest entrant numbers still in start (SH-119 decision)."""
        order = self._in_entrant_order(s, 1)
        decks: list[tuple[Card, ...]] = []
        for seat, p in enumerate(s.players):
            if seat not in order:
                decks.append(())
                continue
            comp = competitor(s, seat)
            cards = [CATALOG.library[k] for k in s.picks[seat]] + list(comp.deck[27:])
            decks.append(tuple(sorted(cards, key=lambda c: c.number)))
            p.deck = [card_id(seat, n) for n in range(1, 31)]
        s.decks = tuple(decks)
        s.waiting = order[2:]
        s.shuffles = sorted(order)

    def _do_choose(self, s: State, seat: int, act: Action) -> None:
        """One pick of a discard, bury or search effect."""
        assert act.card is not None
        task = s.tasks[0]
        target = s.players[task.target]
        label = s.card(act.card).label
        if task.effect_do is Do.DISCARD:
            target.hand.remove(act.card)
            target.discard.append(act.card)
            _say(s, f"{who(s, task.target)} discards {label}.")
        elif task.effect_do is Do.BURY:
            target.discard.remove(act.card)
            target.put_under([act.card], seen=True)
            _say(s, f"{who(s, task.target)} buries {label}.")
        else:
            owner = s.players[task.owner]
            # The searcher went through the whole deck out of sight: the table no longer
            # knows what lies under it (keeping the rest would tell which card was taken).
            owner.tail = []
            owner.take(act.card)
            owner.hand.append(act.card)
            _say(s, f"{who(s, task.owner)} searches the deck and takes a card into hand.")
            self._shuffle_after_search(s, task.owner)
        if task.count > 1 and task.effect_do is not Do.SEARCH:
            s.tasks[0] = Task(task.owner, task.target, task.effect_do, task.count - 1,
                              source=task.source)
        else:
            s.tasks.pop(0)
        s.phase = Phase.EFFECTS

    def _do_discard(self, s: State, seat: int, act: Action) -> None:
        """SH-048: discard down to ten, one card at a time."""
        assert act.card is not None
        me = s.players[seat]
        me.hand.remove(act.card)
        me.discard.append(act.card)
        _say(s, f"{who(s, seat)} is over the hand limit and discards {s.card(act.card).label}.")

    # -- the end -----------------------------------------------------------------------
    def _end(self, s: State, winners: tuple[int, ...], reason: EndReason, text: str) -> None:
        s.phase, s.winners, s.end_reason = Phase.OVER, winners, reason
        s.tasks, s.plan = [], []
        _say(s, text)

    def _result(self, s: State) -> Result:
        """Winners first; then those still in; then Birdcage entrants still waiting (the
        time limit came first: never beaten, but never in); then the eliminated, last out
        best."""
        ranks: dict[int, int] = {}
        place = 1
        if s.winners:
            ranks |= {seat: 1 for seat in s.winners}
            place = 2
        for group in (s.live, s.waiting):
            rest = [seat for seat in group if seat not in ranks]
            ranks |= {seat: place for seat in rest}
            place += 1 if rest else 0
        for seat in reversed(s.out):
            if seat not in ranks:
                ranks[seat] = place
                place += 1
        figures = {seat: {"cards_in_play": float(len(p.all_in_play())),
                          "hand": float(len(p.hand)), "deck": float(len(p.deck)),
                          "turns": float(p.turns), "turn_rolls": float(s.turn_rolls),
                          "crowd_meter": float(s.crowd),
                          "eliminated": float(seat in s.out)}
                   for seat, p in enumerate(s.players)}
        summary = s.journal[-1] if s.journal else str(s.end_reason)
        return Result(tuple(ranks[seat] for seat in s.seats), tuple(s.winners),
                      not s.winners, figures, f"{summary} ({s.end_reason})")

    # -- refusals ----------------------------------------------------------------------
    def _diagnose(self, s: State, seat: int, act: Action) -> None:
        """Raise the most specific reason an action is refused (messages hide nothing)."""
        me = s.players[seat]
        if self._over_limit(s) == seat:
            if act.type is not ActionType.DISCARD:
                raise IllegalAction("hand_over_limit", f"You hold more than {HAND_LIMIT} "
                                                       "cards: discard down first.")
            raise IllegalAction("card_not_in_hand", f"{quoted(act.card)} is not in your hand.")
        if act.type not in PHASE_TYPES.get(s.phase, frozenset()):
            raise IllegalAction("out_of_order", f"A {act.type} action is not expected now "
                                                f"(the match waits for: {s.phase}).")
        if act.type in STOPS and s.phase is Phase.STOP and act.type is not self._stop_role(
                s, seat):
            raise IllegalAction("wrong_role", f"Here you may {self._stop_role(s, seat)}, "
                                              f"not {act.type}.")
        if act.card is not None and act.type not in (ActionType.BURY, ActionType.CHOOSE,
                                                      ActionType.PICK) \
                and act.card not in me.hand:
            raise IllegalAction("card_not_in_hand", f"{quoted(act.card)} is not in your hand.")
        if act.type is ActionType.PLAY and act.card is not None:
            self._diagnose_play(s, seat, act)
        if act.type is ActionType.BURY:
            if s.played_once:
                raise IllegalAction("played_this_turn", "You played a card this turn: end it "
                                                        "(pass) or play again; a bury is "
                                                        "instead of a play.")
            raise IllegalAction("card_not_in_discard",
                                f"{quoted(act.card)} is not in your discard pile.")
        if act.type is ActionType.PASS:
            raise IllegalAction("must_bury", "With cards in your discard pile you must bury one "
                                             "unless you played a card this turn.")
        if act.type is ActionType.MULLIGAN:
            raise IllegalAction("no_mulligan", "A Mulligan is only for your first turn, once, "
                                               "with no Lead in hand.")
        if act.type in STOPS and act.card is not None:
            if s.card(act.card).stop is None:
                raise IllegalAction("not_a_stop", "That card has no STOP symbol.")
            raise IllegalAction("stop_does_not_match", "That Stop does not name the card played.")
        if act.type is ActionType.CHOOSE:
            raise IllegalAction("bad_choice", f"{quoted(act.card)} is not one of the choices.")
        if act.type is ActionType.STARTER:
            raise IllegalAction("bad_starter", "Only one of the tied team-mates may start.")
        if act.type is ActionType.OPEN_PILE:
            raise IllegalAction("pile_taken", f"Pile {quoted(act.number)} is not there to open: it "
                                              "was drafted already (or never existed).")
        if act.type is ActionType.PICK:
            raise IllegalAction("not_in_pile", f"{quoted(act.card)} is not in the open pile.")
        if act.type is ActionType.DRAFT:
            raise IllegalAction("not_in_pool", f"{quoted(act.competitor)} is not in the "
                                               "Competitor pile.")

    def _diagnose_play(self, s: State, seat: int, act: Action) -> None:
        targets = s.plan[0].targets
        multi = self._multi(s)
        if multi and act.target is None:
            raise IllegalAction("needs_target", "Say which opponent the card is played against.")
        if not multi and act.target is not None:
            raise IllegalAction("malformed_action", "A one-on-one play names no target.")
        target = act.target if act.target is not None else targets[0]
        if target not in targets:
            # Named as narration names it, counted from 1 (the action's `target` from 0).
            named = who(s, target) if 0 <= target < len(s.competitors) else f"Player {target + 1}"
            raise IllegalAction("bad_target", f"{named} is not an opponent you may attack now.")
        assert act.card is not None
        ctype = s.card(act.card).type
        if ctype is CardType.FOLLOW_UP:
            raise IllegalAction("needs_lead", "A Follow-Up needs a Lead of yours in play "
                                              "against that opponent.")
        raise IllegalAction("needs_follow_up", "A Finish needs a Follow-Up of yours in play "
                                               "against that opponent.")

    # -- what each seat sees -----------------------------------------------------------
    def view(self, state: State, seat: int | None) -> JSON:
        check_viewer(seat, len(state.players))
        pending = self.pending(state)
        result = pending.result.to_json() if pending.result else None
        deciders = pending.seats if pending.kind == "decision" else ()
        asked = None
        if deciders:
            asked = "discard_down" if self._over_limit(state) is not None else str(state.phase)
            if state.phase is Phase.STOP and asked == "stop":
                asked = str(self._stop_role(state, deciders[0]))
        search = None
        if (state.phase is Phase.CHOOSE and state.tasks and deciders
                and seat == self._decider(state)):
            search = self._choices(state)
        return views.view(state, seat, deciders, asked, pending.kind == "chance",
                          search, result, who)

    def redact(self, state_before: State, event: Event, viewer: int | None) -> JSON:
        check_viewer(viewer, len(state_before.players))
        searcher = None
        if (state_before.phase is Phase.CHOOSE and state_before.tasks
                and state_before.tasks[0].effect_do is Do.SEARCH):
            searcher = state_before.tasks[0].owner
        return views.redact(event, viewer, searcher)

    def narrate(self, state_before: State, event: Event) -> list[str]:
        """Plain sentences of what happened; only public facts (the rules' own journal)."""
        after = self.apply(state_before, event)
        lines = list(after.journal)
        if event.kind is EventKind.DECISION and event.action:
            seat = event.seat if event.seat is not None else 0
            quiet = {ActionType.NO_STOP: "does not stop it.",
                     ActionType.NO_TEAM_UP: "does not Team Up.",
                     ActionType.NO_SAVE: "does not Save.",
                     ActionType.NO_DOUBLE_TEAM: "does not Double Team.",
                     ActionType.STARTER: "chooses who starts."}
            kind = event.action.get("type")
            if kind in quiet:
                lines.insert(0, f"{who(state_before, seat)} {quiet[kind]}")
        return lines or ["The match goes on."]

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state `seat` cannot tell apart (view.determinize resamples the hidden cards).

        Who is asked to stop a card (the target, then a Protecting Double Team partner,
        SH-067, Protecting team-mates, SH-063, or interfering bystanders, SH-069) follows
        from public facts only, never from a hand, so being asked says nothing about the
        cards held: the hands are dealt again freely and `stoppers` stays exactly the real
        one (view.determinize clones it).
        """
        check_viewer(seat, len(state.players))
        return views.determinize(state, seat, rng)


STOPS = frozenset({ActionType.STOP, ActionType.PROTECT, ActionType.INTERFERE})
DRAFTING = frozenset({Phase.DRAFT, Phase.OPEN, Phase.PICK})
PHASE_TYPES: Mapping[Phase, frozenset[ActionType]] = {
    Phase.TURN: frozenset({ActionType.PLAY, ActionType.BURY, ActionType.PASS,
                           ActionType.MULLIGAN}),
    Phase.STOP: STOPS | {ActionType.NO_STOP},
    Phase.CHOOSE: frozenset({ActionType.CHOOSE}),
    Phase.TEAM_UP: frozenset({ActionType.TEAM_UP, ActionType.NO_TEAM_UP}),
    Phase.SAVE: frozenset({ActionType.SAVE, ActionType.NO_SAVE}),
    Phase.DOUBLE: frozenset({ActionType.DOUBLE_TEAM, ActionType.NO_DOUBLE_TEAM}),
    Phase.STARTER: frozenset({ActionType.STARTER}),
    Phase.DRAFT: frozenset({ActionType.DRAFT}),
    Phase.OPEN: frozenset({ActionType.OPEN_PILE}),
    Phase.PICK: frozenset({ActionType.PICK}),
}
BIRDCAGE_SETS = 6
ENTRY_ROLLS = 6


def _preset_pile(number: int) -> list[str]:
    """SH-111: the 162 preset cards: six of each number 1-27, the number's designs in
    turn (our library has two designs a number: three copies each)."""
    keys = sorted(k for k, c in CATALOG.library.items() if c.number == number)
    return [keys[i % len(keys)] for i in range(BIRDCAGE_SETS)]
