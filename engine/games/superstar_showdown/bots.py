"""The `heuristic` bot: greedy, rules-aware, reading only what its seat may see.

It works on `rules.determinize(state, seat, rng)` (the rival's hand and every deck
order resampled), so it never peeks; it returns an item of the real legal actions.
"""

from __future__ import annotations

import functools
import random
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from engine.bots.leaves import Views
from engine.bots.levels import levels
from engine.games.superstar_showdown.board import (
    BOARD,
    Kind,
    Square,
    near,
    orthogonally_adjacent,
    step,
)
from engine.games.superstar_showdown.cards import ROSTER, Act, Card, CardType
from engine.games.superstar_showdown.event import BONUS_CARDS
from engine.games.superstar_showdown.state import (
    SPOTS,
    Current,
    MotionMode,
    Phase,
    State,
)
from engine.protocol import JSON, BaseRules, IllegalAction

TYPE_VALUE = {CardType.SLAM: 5.0, CardType.GRAPPLE: 2.0, CardType.STRIKE: 2.0,
              CardType.MANEUVER: 2.0, CardType.BLOCK: -2.0}
BOT_BOUNCES = 2


def _chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def play_value(card: Card, position: int, distance: int, outside: bool) -> float:
    """How good a card is to play face down at a position."""
    value = TYPE_VALUE[card.type]
    value += 0.6 * card.value(Act.ATTACK) + 0.4 * card.value(Act.MOVE) * (distance > 1 or outside)
    if card.has(Act.MOMENTUM_ATTACK):
        value += 1.2
    if card.has(Act.STUN):
        value += 0.8
    if card.has(Act.THROW):
        value += 0.5
    if position < SPOTS - 1 and (card.has(Act.MOVEMENT_SETUP) or card.has(Act.POWER_SETUP)):
        value += 0.6
    if card.has(Act.REVERSAL):
        value += 0.5
    if outside and position == 0 and card.has(Act.MOVE):
        value += 1.5  # get back in the ring before more cards are counted out
    return value


def keep_value(card: Card) -> float:
    """How much a card is worth holding in hand (Blocks stop hits, Kick Outs stop Pins)."""
    value = 0.0
    if card.type is CardType.BLOCK:
        value += 2.5
    if card.has(Act.KICK_OUT):
        value += 2.0
    return value


class HeuristicBot:
    """Plays Slams and attacks, keeps Blocks and Kick Outs, plans moves square by square."""

    name = "heuristic"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        if state.phase is Phase.PLAY and seat in rules.pending(state).seats:
            # The Play step's legal actions are every ordered trio of the hand (hundreds):
            # its choice is checked rather than looked up among them all.
            s: State = rules.determinize(state, seat, rng)
            choice = self._play(s, s.teams[seat])
            try:
                if rules.is_legal(state, seat, choice):
                    return choice
            except IllegalAction:
                pass  # never expected: fall back on the listed actions
        legal = rules.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        s = rules.determinize(state, seat, rng)
        choice = self._decide(rules, s, s.teams[seat], legal)  # teams play as one side
        return choice if choice in legal else legal[0]

    def shortlist(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random,
                  k: int) -> list[JSON]:
        """The Play step's `k` best trios by the bot's own worth, best first (the search's
        challengers to its choice there, among hundreds); elsewhere nothing: the other
        steps' actions are few. (Ranking a motion's next moves too was tried, 2026-12-02:
        no gain over 240 seeded matches.)"""
        if state.phase is not Phase.PLAY or seat not in rules.pending(state).seats:
            return []
        s: State = rules.determinize(state, seat, rng)
        trios = sorted(self._trios(s, s.teams[seat]), key=lambda t: -t[0])[:k]
        return [{"type": "play_spots", "cards": list(trio)} for _, trio in trios]

    # -- dispatch ------------------------------------------------------------------------
    def _decide(self, rules: Any, s: State, seat: int, legal: list[JSON]) -> JSON:
        phase = s.phase
        if phase in (Phase.DRAFT, Phase.SEND_IN, Phase.BONUS, Phase.TAG):
            return self._team_choice(s, seat, legal)
        if phase is Phase.MOTION and s.motion and s.motion.mode is MotionMode.ASSIST:
            return self._assist_step(s, seat, legal)
        if phase is Phase.PLAY:
            return self._play(s, seat)
        if phase is Phase.REVERSAL:
            reversals = [a for a in legal if a["type"] == "reverse"]
            return min(reversals, key=lambda a: keep_value(s.card(a["card"]))
                       + TYPE_VALUE[s.card(a["card"]).type]) if reversals else legal[-1]
        if phase is Phase.ACTIONS:
            return self._actions(rules, s, seat, legal)
        if phase is Phase.MOTION:
            return self._motion(s, seat, legal)
        if phase is Phase.SHOVE:
            return max(legal, key=lambda a: self._shove_score(s, seat, a))
        if phase is Phase.HIT:
            return self._hit(s, seat, legal)
        if phase is Phase.STUN:
            return max(legal, key=lambda a: self._extra_score(s, seat, a["card"]))
        if phase is Phase.CORNER:
            return {"type": "corner_hit"}
        if phase is Phase.PIN:
            return {"type": "pin"}
        if phase is Phase.KICK_OUT:
            tags = [a for a in legal if a["type"] == "tag_out"]  # free: no card given up
            return tags[0] if tags else legal[0]  # else a Kick Out card, else the count
        return legal[0]

    # -- the Play step -------------------------------------------------------------------
    def _play(self, s: State, seat: int) -> JSON:
        best, best_score = None, float("-inf")
        for score, trio in self._trios(s, seat):
            if score > best_score:
                best, best_score = trio, score
        assert best is not None
        return {"type": "play_spots", "cards": list(best)}

    def _trios(self, s: State, seat: int) -> Iterator[tuple[float, tuple[str, str, str]]]:
        """Every ordered trio of distinct hand cards with its worth, in
        itertools.permutations' order (so the first best is the one always played)."""
        me, rival = s.sides[seat], s.rival(seat)
        distance = _chebyshev(me.pos, rival.pos)
        outside = not BOARD.in_ring(me.pos)
        hand = sorted(me.hand)
        cards = {c: s.card(c) for c in hand}
        blocks_held = sum(card.type is CardType.BLOCK for card in cards.values())
        # Each card's worth at each spot, and kept, computed once for every trio.
        at = [[play_value(cards[c], p, distance, outside) for p in range(SPOTS)] for c in hand]
        kept = [keep_value(cards[c]) for c in hand]
        block = [cards[c].type is CardType.BLOCK for c in hand]
        assert SPOTS == 3
        n = len(hand)
        for i in range(n):
            for j in range(n):
                if j == i:
                    continue
                two, kept_two = at[i][0] + at[j][1], kept[i] + kept[j]
                blocks_two = block[i] + block[j]
                for k in range(n):
                    if k in (i, j):
                        continue
                    score = (two + at[k][2]) - (kept_two + kept[k])
                    if blocks_held and blocks_two + block[k] == blocks_held:
                        score -= 1.5  # keep one Block back for the hits to come
                    yield score, (hand[i], hand[j], hand[k])

    # -- a winning card ------------------------------------------------------------------
    def _actions(self, rules: Any, s: State, seat: int, legal: list[JSON]) -> JSON:
        acts = {a["action"] for a in legal if a["type"] == "resolve"}
        c = s.current
        assert c is not None
        assists = [a for a in legal if a["type"] == "assist"]
        if assists and ("attack" in acts or "momentum_attack" in acts or not acts):
            # Move a teammate next to the rival before the hit (Interference), or home.
            return max(assists, key=lambda a: self._assist_value(s, seat, a["superstar"]))
        for first in ("movement_setup", "power_setup", "attack", "momentum_attack"):
            if first in acts:
                return {"type": "resolve", "action": first}
        here = self._score(s, seat, s.sides[seat].pos, s.rival(seat).pos, line=0)
        if "throw" in acts and self._best_throw(s, seat) > here + 0.5:
            return {"type": "resolve", "action": "throw"}
        if "move" in acts and self._best_move(s, seat, MotionMode.MOVE, c.move) > here + 0.5:
            return {"type": "resolve", "action": "move"}
        if "corner_attack" in acts and self._best_move(
                s, seat, MotionMode.CORNER, 3) > here + 0.5:
            return {"type": "resolve", "action": "corner_attack"}
        if "stun" in acts:
            return {"type": "resolve", "action": "stun"}
        return {"type": "done"}

    def _pending_attack(self, s: State, seat: int, mode: MotionMode) -> float:
        """The power this card could still hit for from a square side by side (0: none)."""
        c: Current | None = s.current
        if c is None or c.blocked or c.seat != seat:
            return 0.0
        if mode is MotionMode.CORNER:
            return 3.0 + c.power_bonus
        power = 0.0
        if c.attack > 0 and Act.ATTACK not in c.used:
            power = float(c.attack)
        return power

    def _score(self, s: State, seat: int, mine: Square, theirs: Square, line: int,
               mode: MotionMode = MotionMode.MOVE, momentum: bool = False) -> float:
        """How good a final arrangement is for `seat`."""
        return self._scorer(s, seat, mode, momentum)(mine, theirs, line)

    def _scorer(self, s: State, seat: int, mode: MotionMode = MotionMode.MOVE,
                momentum: bool = False) -> Callable[[Square, Square, int], float]:
        """`_score` for one state, seat and motion, as a function of the squares and the
        line: what depends on the state alone is read once, not at every square of a
        planned motion (the heuristic scores hundreds of ends a decision)."""
        base = self._pending_attack(s, seat, mode)
        bonus = s.current.power_bonus if s.current else 0
        me = s.sides[seat]
        leading = me.wins >= s.rival(seat).wins
        zone = BOARD.tag_zones[seat]
        partners = ([m.pos for _, m in me.ringside() if m.pos in zone]
                    if self._wants_tag(s, seat) else [])
        ring, turnbuckles = BOARD.ring, BOARD.turnbuckles

        def score_of(mine: Square, theirs: Square, line: int) -> float:
            score = 0.0
            adjacent = orthogonally_adjacent(mine, theirs)
            power = base
            if momentum and line > 0 and adjacent:
                power += line + bonus
            if power and adjacent:
                score += 6.0 + 2.0 * power + (2.0 if theirs in turnbuckles else 0.0)
            mine_in, theirs_in = mine in ring, theirs in ring
            score += 2.0 if mine_in else -4.0
            if leading and adjacent and mine_in and theirs_in:
                score += 2.0  # set up a Pin
            if not theirs_in and not leading:
                score += 1.0
            score -= 0.3 * _chebyshev(mine, theirs)
            if partners and any(near(pos, mine) and pos != mine for pos in partners):
                score += 5.0  # worn down: reach a fresh teammate to Tag Out
            return score

        return score_of

    def _wants_tag(self, s: State, seat: int) -> bool:
        """A Tag Team side whose Active deck is much thinner than a teammate's."""
        me = s.sides[seat]
        if not me.ringside():
            return False
        supply = len(me.hand) + len(me.deck) + len(me.discard)
        return any(_bench_supply(me, m.superstar) > supply + 6 for _, m in me.ringside())

    def _best_throw(self, s: State, seat: int) -> float:
        mine = s.sides[seat].pos
        ends = _reachable(s.rival(seat).pos, 3, bounce=False)
        score = self._scorer(s, seat)
        return max(score(mine, end, 0) for end, _l, _f in ends)

    def _best_move(self, s: State, seat: int, mode: MotionMode, squares: int) -> float:
        theirs = s.rival(seat).pos
        momentum = self._momentum_ready(s, seat, mode)
        ends = _reachable(s.sides[seat].pos, squares, bounce=mode is MotionMode.MOVE)
        score = self._scorer(s, seat, mode, momentum)
        return max(score(end, theirs, line) for end, line, _f in ends)

    def _momentum_ready(self, s: State, seat: int, mode: MotionMode) -> bool:
        c = s.current
        return (mode is MotionMode.MOVE and c is not None and not c.blocked
                and s.card(c.card).has(Act.MOMENTUM_ATTACK) and Act.MOMENTUM_ATTACK not in c.used)

    def _motion(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        """Plan the whole move from here and take its first step."""
        m = s.motion
        assert m is not None
        me, rival = s.sides[seat], s.rival(seat)
        mover = s.sides[m.mover]
        if m.bounce_dir is not None:
            options = [a for a in legal if a["type"] == "step"]
            score = self._scorer(s, seat, m.mode, self._momentum_ready(s, seat, m.mode))
            return max(options, key=lambda a: score(
                tuple(a["to"]), rival.pos, _chebyshev(tuple(a["to"]), me.pos)))
        bounce = m.mode is MotionMode.MOVE
        ends = _reachable(mover.pos, m.left, bounce=bounce, line=m.line, last=m.last_dir,
                          on_ropes=m.on_ropes and m.bounces < BOT_BOUNCES)
        if m.mode is MotionMode.THROW:
            score = self._scorer(s, seat, m.mode)

            def value(end: tuple[Square, int, First]) -> float:
                return score(me.pos, end[0], 0)
        else:
            score = self._scorer(s, seat, m.mode, self._momentum_ready(s, seat, m.mode))

            def value(end: tuple[Square, int, First]) -> float:
                return score(end[0], rival.pos, end[1])
        return _first_action(max(ends, key=value)[2])

    def _shove_score(self, s: State, seat: int, action: JSON) -> float:
        mine = s.sides[seat].pos
        if action["type"] == "no_shove":
            return self._score(s, seat, mine, mine, 0) - 0.1
        return self._score(s, seat, mine, tuple(action["to"]), 0)

    # -- the Advanced Rules -------------------------------------------------------------
    def _team_choice(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        ev = s.event
        if s.phase is Phase.TAG:
            tags = [a for a in legal if a["type"] == "tag_out"]
            me = s.sides[seat]
            supply = len(me.hand) + len(me.deck) + len(me.discard)
            fresh = [a for a in tags if _bench_supply(me, a["superstar"]) > supply + 6]
            return fresh[0] if fresh else {"type": "no_tag"}
        assert ev is not None
        if s.phase is Phase.DRAFT:
            return max(legal, key=lambda a: strength(a["superstar"]))
        if s.phase is Phase.SEND_IN:
            # The strongest deck starts (and, in a Gauntlet, the next strongest follows).
            def order_value(a: JSON) -> float:
                names = a["superstars"]
                return sum(_deck_strength(s, seat, k) * (len(names) - i)
                           for i, k in enumerate(names))
            return max(legal, key=order_value)
        buys = [a for a in legal if a["type"] == "buy_bonus"]
        last = ev.current >= len(ev.matches) - 1
        if last or not buys:
            return next(a for a in legal if a["type"] == "bonus_points")
        best = max(BONUS_CARDS[a["card"]].price for a in buys)
        if best < 15:
            return next(a for a in legal if a["type"] == "bonus_points")
        counts = {k: len(ev.bonus[seat][i]) for i, k in enumerate(ev.rosters[seat])}
        return min((a for a in buys if BONUS_CARDS[a["card"]].price == best),
                   key=lambda a: (counts[a["superstar"]], a["card"], a["superstar"]))

    def _assist_value(self, s: State, seat: int, superstar: str) -> float:
        """Best square a teammate can reach: next to the rival, else back in the Tag Zone."""
        member = next(m for m in s.sides[seat].bench if m.superstar == superstar)
        assert member.pos is not None
        return max(self._assist_square_value(s, seat, sq) for sq in _outside_reach(
            member.pos, 3)) - self._assist_square_value(s, seat, member.pos)

    def _assist_square_value(self, s: State, seat: int, square: Square) -> float:
        rival = s.rival(seat).pos
        value = 3.0 if orthogonally_adjacent(square, rival) else 0.0
        if square in BOARD.tag_zones[seat]:
            value += 1.0 + (1.0 if near(square, s.sides[seat].pos) else 0.0)
        return value - 0.1 * _chebyshev(square, rival)

    def _assist_step(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        m = s.motion
        assert m is not None and m.member is not None
        start = s.sides[seat].bench[m.member].pos
        assert start is not None
        here = self._assist_square_value(s, seat, start)
        best = max((a for a in legal if a["type"] == "step"), default=None,
                   key=lambda a: max(self._assist_square_value(s, seat, sq)
                                     for sq in _outside_reach(tuple(a["to"]), m.left - 1)))
        if best is None:
            return {"type": "stop"}
        ahead = max(self._assist_square_value(s, seat, sq)
                    for sq in _outside_reach(tuple(best["to"]), m.left - 1))
        return best if ahead > here else {"type": "stop"}

    # -- being hit -----------------------------------------------------------------------
    def _hit(self, s: State, seat: int, legal: list[JSON]) -> JSON:
        hit = s.hit
        assert hit is not None
        blocks = [a for a in legal if a["type"] == "block"]
        if blocks and hit.power >= 2:
            return blocks[0]
        hand_gives = [a for a in legal if a["type"] == "give_up"]
        cheap = [a for a in hand_gives
                 if keep_value(s.card(a["card"])) == 0 and s.card(a["card"]).type
                 is not CardType.SLAM]
        if {"type": "give_up_deck"} in legal and len(s.sides[seat].hand) <= 3:
            return {"type": "give_up_deck"}
        if cheap:
            return min(cheap, key=lambda a: play_value(s.card(a["card"]), 0, 2, False))
        if {"type": "give_up_deck"} in legal:
            return {"type": "give_up_deck"}
        return min(hand_gives, key=lambda a: keep_value(s.card(a["card"])))

    def _extra_score(self, s: State, seat: int, card_id: str) -> float:
        card = s.card(card_id)
        me, rival = s.sides[seat], s.rival(seat)
        score = -keep_value(card) + (1.0 if card.has(Act.STUN) else 0.0)
        if orthogonally_adjacent(me.pos, rival.pos):
            score += 2.0 * card.value(Act.ATTACK)
        else:
            score += card.value(Act.MOVE) + (2.0 if card.has(Act.MOMENTUM_ATTACK) else 0.0)
        return score + (1.0 if near(me.pos, rival.pos) and card.has(Act.THROW) else 0.0)


def strength(key: str) -> float:
    """A Superstar's deck by the bot's own card values (the draft picks the highest)."""
    return sum(play_value(c, 1, 2, False) + keep_value(c) for c in ROSTER[key].deck)


def _deck_strength(s: State, team: int, key: str) -> float:
    ev = s.event
    assert ev is not None
    slot = ev.rosters[team].index(key)
    return strength(key) + sum(BONUS_CARDS[b].price / 5 for b in ev.bonus[team][slot])


def _bench_supply(side: Any, superstar: str) -> int:
    member = next(m for m in side.bench if m.superstar == superstar)
    return len(member.deck) + len(member.discard)


def _outside_reach(start: Square, left: int) -> list[Square]:
    """Squares outside the ring an Inactive teammate can reach in `left` steps."""
    seen, frontier = {start}, [start]
    for _ in range(max(left, 0)):
        frontier = [n for sq in frontier for n in BOARD.neighbours(sq)
                    if not BOARD.in_ring(n) and n not in seen]
        seen.update(frontier)
    return sorted(seen)


First = Square | str | None  # a motion's first move: a step's square, "bounce", or none


@functools.lru_cache(maxsize=8192)
def _reachable(start: Square, left: int, *, bounce: bool, line: int = 0,
               last: tuple[int, int] | None = None,
               on_ropes: bool = False) -> tuple[tuple[Square, int, First], ...]:
    """Every (end square, straight line at the end, first move) a motion can reach, once
    each, in the order first found.

    A small search over the motion rules: steps in 8 directions, and with a Move a bounce
    off a Ropes square just entered, then one straight run (up to BOT_BOUNCES bounces).
    It depends on nothing but its arguments and the fixed board, so it is worked out once
    per motion and kept: the heuristic asks it at nearly every step of every playout.
    """
    results: dict[tuple[Square, int, First], None] = {(start, line, None): None}
    queue: deque[tuple[Square, int, int, tuple[int, int] | None, bool, int, First]] = deque(
        [(start, left, line, last, on_ropes, 0, None)])
    seen: set[tuple[Square, int, int, tuple[int, int] | None, bool, int]] = set()
    while queue:
        pos, rem, ln, d, ropes, bounces, first = queue.popleft()
        key = (pos, rem, ln, d, ropes, bounces)
        if key in seen:
            continue
        seen.add(key)
        results[(pos, ln, first)] = None
        if rem > 0:
            for nxt in BOARD.neighbours(pos):
                nd = (nxt[0] - pos[0], nxt[1] - pos[1])
                queue.append((nxt, rem - 1, ln + 1 if nd == d else 1, nd,
                              bounce and BOARD.kind(nxt) is Kind.ROPES, bounces,
                              nxt if first is None else first))
        if ropes and bounce and bounces < BOT_BOUNCES:
            away = BOARD.bounce[pos]
            here = pos
            run = 0
            move: First = "bounce" if first is None else first
            while BOARD.on_grid(here := step(here, away)) and BOARD.in_ring(here):
                run += 1
                is_ropes = BOARD.kind(here) is Kind.ROPES
                queue.append((here, 0, run, away, is_ropes, bounces + 1, move))
    return tuple(results)


def _first_action(first: First) -> JSON:
    """The action that starts a planned motion."""
    if first is None:
        return {"type": "stop"}
    if first == "bounce":
        return {"type": "bounce"}
    assert isinstance(first, tuple)
    return {"type": "step", "to": list(first)}


# -- search --------------------------------------------------------------------------------
# What a search playout cut short is worth (engine.bots.leaves), and the two search levels.

def standing(views: Views) -> dict[int, float]:
    """Each seat's side's Performance Stack (cards won from the rival); in an Event, a
    fifth of its team's Ranking Points too."""
    view = views.public
    scores: dict[int, float] = {}
    for side in view.get("sides") or []:
        for seat in side["players"]:
            scores[seat] = float(side["performance_count"])
    for team in (view.get("event") or {}).get("teams", []):
        for seat in team["seats"]:
            scores[seat] = scores.get(seat, 0.0) + team["total"] / 5.0
    return scores


SEARCH = levels(24, 72, depth=8, standing=standing, spread=3.0, width=6)
