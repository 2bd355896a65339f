"""Information-set Monte Carlo tree search built on the protocol alone.

Determinized search in the manner of Cowling, Powley and Whitehouse's single-observer
ISMCTS (the algorithm behind OpenSpiel's `ismcts.py`): every iteration draws a state
consistent with what the searching seat knows (`rules.determinize`), walks the tree of
that seat's own decisions and plays on to the end, or to a depth where a leaf value is
read.

- The tree holds the searching seat's decisions, keyed by the actions it took since the
  root ("open loop"): what happens between two of its decisions (chance, the other
  seats, hidden cards) differs from one determinization to the next and is sampled anew
  each time. A node whose legal actions differ between determinizations counts each
  action's availability, as ISMCTS's subset-armed bandit does (UCB over the available).
- Every other seat decides by the policy (the game's heuristic), called on the
  determinized state for its own seat: the heuristics determinize again from there, so
  each reasons from its own view. That covers simultaneous decisions (the other deciding
  seats are asked in turn, as the match service asks them) and the searcher's own
  decisions past the tree. Chance is drawn with the search's own generator.
- The root compares its actions on common random numbers, as perfect-information Monte
  Carlo does: each batch draws one determinization and one seed, and every root action
  is played out from that same state with the same chance draws (the k-th event of an
  iteration draws from a generator seeded by the batch seed and k). The differences then
  come from the actions, not the luck, which is what a budget of a few dozen playouts
  needs. Below the root the tree opens once an action has `tree_after` visits.
- A finished game is worth the seat's placement score (`placement_scores`), counted by
  side where the game plays seats as one (`rules.teams_at`: a tag team's win is 1 for
  each partner, its loss 0); with a
  `leaf` value, a playout stops `depth` decisions after it leaves the tree (`depth` may
  be a function of the root state: a game whose rounds grow with the seats still in
  reads its leaf a round away whatever the table's size).
- The root's actions are the policy's choice and up to `width - 1` others: all when they
  fit, else the policy's next best where it ranks them (`engine.bots.Ranking`; Superstar
  Showdown's hundreds of Plays), the rest drawn at random. The budget is spread over
  them by sequential halving (Karnin, Koren and Somekh), the policy's choice kept to the
  end; the last challenger replaces it only when its paired gain is clear (`confidence`
  standard errors), so a search on a small budget errs toward the heuristic rather than
  toward noise.

Budget: `iterations` playouts, spent in whole batches (times `scale(state)` when a game
sizes its budget by the state, e.g. by the number of seats a playout runs through), and
optionally `seconds` read from an injected `clock` (the engine reads no clock of its
own), counted from the moment `choose` is called. The search plans to end `HEADROOM`
(a tenth) short of it: no playout starts that could end past that, given as long as the
slowest playout of the decision so far took, and one that runs longer than that stops
before its next event once the time is spent and is dropped, so the search ends within
one event of its planned time and the tenth left covers the rest. A batch cut short by the clock
pairs nothing. With an iteration budget only, the choice is a function of the state and of the
generator handed to `choose`.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bots import Bot, RandomBot
from engine.protocol import JSON, BaseRules, Event, PendingKind, Result

LeafValue = Callable[[BaseRules[Any], Any, int], float]
"""A playout cut short: the seat's expected placement score (0..1) in that state."""


def placement_scores(result: Result, teams: Sequence[int] | None = None) -> list[float]:
    """Each seat's reward: 1 for sole first, 0 for sole last, tied seats share the places.

    Places are spread evenly from first to last, so in a two-seat game a win is 1, a loss
    0 and a draw 0.5; seats tied on a place share the places they span. With `teams` (the
    rules' `teams_at`), the places are the sides' (a side's place is its best seat's) and
    every seat scores its side's: a pair that beats one scores 1 each, not 0.75.
    """
    if teams is None:
        return _spread(list(result.placements))
    sides = sorted(set(teams))
    side_places = [min(p for p, t in zip(result.placements, teams, strict=True) if t == side)
                   for side in sides]
    scores = dict(zip(sides, _spread(side_places), strict=True))
    return [scores[team] for team in teams]


def _spread(places: list[int]) -> list[float]:
    """Scores from 1 (sole first) to 0 (sole last), tied places sharing what they span."""
    n = len(places)
    if n == 1:
        return [1.0]
    ranks = sorted(places)
    scores = []
    for place in places:
        spanned = [r for r, p in enumerate(ranks) if p == place]
        scores.append(sum((n - 1 - r) / (n - 1) for r in spanned) / len(spanned))
    return scores


def action_key(action: JSON) -> str:
    """A canonical text for an action: the tree's edge label."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


@dataclass
class Arm:
    """One action of a node: visits, summed reward, availability and the node it leads to."""

    action: JSON
    visits: int = 0
    total: float = 0.0
    available: int = 0
    child: Node | None = None
    gains: list[float] = field(default_factory=list)  # root only: reward minus the favourite's

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class Node:
    """A decision of the searching seat, reached by one sequence of its own actions."""

    arms: dict[str, Arm] = field(default_factory=dict)


class _Streams:
    """The k-th draw of an iteration comes from a generator seeded by (seed, k)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.k = 0

    def next(self) -> random.Random:
        self.k += 1
        return random.Random(self.seed * 1_000_003 + self.k)


HEADROOM = 0.1
"""The share of a time budget the search leaves unspent. The way back from the search and
the machine's pauses (a process waiting for a core on a busy machine) come out of it, so a
decision ends within its budget rather than around it."""


class _OutOfTime(Exception):
    """The decision's time budget ran out in the middle of a playout."""


class _Pace:
    """The clock of one decision: when it began, and its slowest playout so far."""

    def __init__(self, clock: Callable[[], float] | None, seconds: float | None) -> None:
        self.clock = clock
        self.seconds = None if seconds is None else seconds * (1 - HEADROOM)
        self.began = clock() if clock is not None and seconds is not None else None
        self.last = self.began
        self.slowest = 0.0

    def could_overrun(self) -> bool:
        """Note a playout that just ended; whether the next one could end past the
        budget, given as long as the slowest playout so far took."""
        if self.began is None:  # no time budget
            return False
        assert self.clock is not None and self.seconds is not None and self.last is not None
        now = self.clock()
        self.slowest = max(self.slowest, now - self.last)
        self.last = now
        return now - self.began + self.slowest > self.seconds

    def check(self) -> None:
        """Stop a playout once the budget is spent (read before each of its events)."""
        if self.began is not None:
            assert self.clock is not None and self.seconds is not None
            if self.clock() - self.began > self.seconds:
                raise _OutOfTime


class SearchBot:
    """ISMCTS over the protocol with a policy for everything outside the tree."""

    def __init__(
        self,
        name: str = "search",
        *,
        iterations: int = 100,
        policy: Callable[[], Bot] = RandomBot,
        depth: int | Callable[[Any], int] | None = None,
        leaf: LeafValue | None = None,
        width: int = 8,
        tree_after: int = 8,
        exploration: float = 0.7,
        confidence: float = 1.0,
        scale: Callable[[Any], float] | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if iterations < 1 or width < 1 or tree_after < 1:
            raise ValueError("a search needs an iteration, an arm and a visit to open a node")
        if seconds is not None and clock is None:
            raise ValueError("a time budget needs a clock")
        if (depth is None) != (leaf is None):
            raise ValueError("a playout depth and a leaf value go together")
        self.name = name
        self.iterations = iterations
        self.policy = policy()
        self.depth = depth
        self.reach = 0  # this decision's playout depth (`depth` read at its root state)
        self.leaf = leaf
        self.width = width
        self.tree_after = tree_after
        self.exploration = exploration
        self.confidence = confidence
        self.scale = scale
        self.seconds = seconds
        self.clock = clock
        self.root: Node | None = None  # the last search's tree, for inspection
        self.iterations_run = 0

    def within(self, seconds: float, clock: Callable[[], float]) -> None:
        """Answer within `seconds` of `clock` (a live match injects its clock: the engine
        reads none): plan to end `HEADROOM` short of it, start no playout that could end
        past that, given the slowest playout of the decision so far, and drop one still
        running when the time is spent."""
        if seconds <= 0:
            raise ValueError("a time budget must be positive")
        self.seconds, self.clock = seconds, clock

    # -- the decision ------------------------------------------------------------------
    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        """The policy's choice, unless a challenger beat it clearly once the budget is spent.

        The budget goes to the root's actions by sequential halving: each round plays
        every action still in the race on the same batches, then the worse half of the
        challengers drops out (the policy's choice stays to the end), so the last two
        actions get most of the playouts. The challenger left is played only when its
        mean gain over the policy's choice, batch by batch, exceeds `confidence`
        standard errors: a handful of noisy playouts does not overturn the heuristic.
        (The gains include the batches that selected the challenger, so the test is
        lenient; testing on the last round's batches alone overruled less but lost
        Superstar Showdown matches it had won.)
        """
        pace = _Pace(self.clock, self.seconds)
        legal = rules.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        search = random.Random(rng.getrandbits(64))  # the caller's stream moves by one draw
        root = self.root = Node()
        favourite = self._arm(root, self.policy.choose(rules, state, seat, search))
        for action in self._others(rules, state, seat, legal, favourite.action, search):
            self._arm(root, action)
        racing = list(root.arms.values())
        rounds = max(1, math.ceil(math.log2(len(racing))))
        budget = self.budget(state)
        self.reach = self.depth(state) if callable(self.depth) else (self.depth or 0)
        done = 0
        for round_ in range(rounds):
            batches = max(1, (budget - done) // ((rounds - round_) * len(racing)))
            for _ in range(batches):
                seed = search.getrandbits(48)
                world = self._world(rules, state, seat, random.Random(seed))
                rewards = []
                for arm in racing:
                    if done and pace.could_overrun():
                        break
                    try:
                        rewards.append(self._iterate(rules, world, seat, arm, _Streams(seed),
                                                     pace))
                    except _OutOfTime:
                        break  # the playout is dropped: it leaves no visit behind
                    arm.available += 1
                    done += 1
                if len(rewards) < len(racing):
                    break  # out of time: an unfinished batch pairs nothing
                base = rewards[racing.index(favourite)]
                for arm, reward in zip(racing, rewards, strict=True):
                    arm.gains.append(reward - base)
            else:
                if round_ < rounds - 1:
                    racing = self._halve(racing, favourite)
                continue
            break  # out of time
        self.iterations_run = done
        challengers = [arm for arm in racing if arm is not favourite]
        if not challengers:
            return favourite.action
        best = max(challengers, key=lambda a: a.mean)
        return best.action if self._clearly_better(best.gains) else favourite.action

    def budget(self, state: Any) -> int:
        """The playouts this decision may spend: `iterations`, scaled for the state."""
        if self.scale is None:
            return self.iterations
        return max(1, round(self.iterations * self.scale(state)))

    @staticmethod
    def _halve(racing: list[Arm], favourite: Arm) -> list[Arm]:
        """The policy's choice and the better half of the challengers (at least one)."""
        challengers = sorted((a for a in racing if a is not favourite),
                             key=lambda a: a.mean, reverse=True)
        keep = max(1, math.ceil(len(racing) / 2) - 1)
        return [favourite, *challengers[:keep]]

    def _clearly_better(self, gains: list[float]) -> bool:
        """Whether the mean of paired gains is above `confidence` standard errors."""
        n = len(gains)
        mean = sum(gains) / n if n else 0.0
        if mean <= 0:
            return False
        if n < 2:
            return self.confidence <= 0
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1))
        return mean > self.confidence * spread / math.sqrt(n)

    @staticmethod
    def _world(rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> Any:
        """A state consistent with what `seat` knows of `state`."""
        return rules.determinize(state, seat, rng)

    def _others(self, rules: BaseRules[Any], state: Any, seat: int, legal: list[JSON],
                favourite: JSON, rng: random.Random) -> list[JSON]:
        """Root actions besides the policy's: all of them when they fit in `width`, else
        `width - 1`: the policy's next best where it ranks (`Ranking.shortlist`), the
        rest drawn at random."""
        others = [a for a in legal if a != favourite]
        if len(others) < self.width:
            return others
        shortlist = getattr(self.policy, "shortlist", None)
        ranked: list[JSON] = []
        if shortlist is not None:
            for action in shortlist(rules, state, seat, rng, self.width):
                if action != favourite and action in others and action not in ranked:
                    ranked.append(action)
        ranked = ranked[:self.width - 1]
        rest = [a for a in others if a not in ranked]
        return ranked + rng.sample(rest, self.width - 1 - len(ranked))

    @staticmethod
    def _arm(node: Node, action: JSON) -> Arm:
        key = action_key(action)
        arm = node.arms.get(key)
        if arm is None:
            arm = node.arms[key] = Arm(action)
        return arm

    def playout(self, rules: BaseRules[Any], world: Any, seat: int, action: JSON,
                seed: int) -> float:
        """One playout of `action` in `world` outside any tree and clock: the seat's
        reward. Its chance draws come from `seed` as a root batch's do, so actions played
        out on the same world and seed are paired (for offline study of a decision)."""
        return self._iterate(rules, world, seat, Arm(action), _Streams(seed), _Pace(None, None))

    # -- one iteration -----------------------------------------------------------------
    def _iterate(self, rules: BaseRules[Any], world: Any, seat: int, first: Arm,
                 draws: _Streams, pace: _Pace) -> float:
        """Play `first` in `world`, descend the tree, play out and back the reward up.
        The playout stops (`_OutOfTime`, nothing backed up) before an event once the
        decision's time budget, if it has one, is spent."""
        path = [first]
        node = self._opened(first)
        world = rules.apply(world, Event.decision(seat, first.action))
        playout = 0  # decisions taken since the walk left the tree
        while True:
            pending = rules.pending(world)
            if pending.kind is PendingKind.END:
                assert pending.result is not None
                reward = placement_scores(pending.result, rules.teams_at(world))[seat]
                break
            pace.check()
            rng = draws.next()
            if pending.kind is PendingKind.CHANCE:
                world = rules.apply(world, Event.chance(rules.sample_chance(world, rng)))
                continue
            if node is None and self.leaf is not None and playout >= self.reach:
                reward = self.leaf(rules, world, seat)
                break
            actor = seat if seat in pending.seats else pending.seats[0]
            if actor == seat and node is not None:
                arm = self._select(rules, world, seat, node, rng)
                path.append(arm)
                node = self._opened(arm)
                action = arm.action
            else:
                action = self.policy.choose(rules, world, actor, rng)
                playout += node is None
            world = rules.apply(world, Event.decision(actor, action))
        for arm in path:
            arm.visits += 1
            arm.total += reward
        return reward

    def _opened(self, arm: Arm) -> Node | None:
        """The node below an arm once it has enough visits to be worth a tree."""
        if arm.child is None and arm.visits >= self.tree_after:
            arm.child = Node()
        return arm.child

    def _select(self, rules: BaseRules[Any], world: Any, seat: int, node: Node,
                rng: random.Random) -> Arm:
        """The policy's choice first, then untried actions at random, then UCB; only the
        actions legal in this world take part (and have their availability counted)."""
        legal = {action_key(a): a for a in rules.legal_actions(world, seat)}
        arms = [arm for key, arm in node.arms.items() if key in legal]
        if len(arms) < self.width and all(arm.visits for arm in arms):
            if not arms:
                action: JSON | None = self.policy.choose(rules, world, seat, rng)
            else:
                fresh = [a for key, a in legal.items() if key not in node.arms]
                action = rng.choice(fresh) if fresh else None
            if action is not None:
                arms.append(self._arm(node, action))
        for arm in arms:
            arm.available += 1
        untried = [arm for arm in arms if arm.visits == 0]
        if untried:
            return untried[0]
        return max(arms, key=lambda a: a.mean + self.exploration * math.sqrt(
            math.log(a.available) / a.visits))


__all__ = ["HEADROOM", "Arm", "LeafValue", "Node", "SearchBot", "action_key", "placement_scores"]
