"""The information-set search bot: legal, seeded, and right on small games it must solve.

Two toy games pin the search's logic (a chance node, a simultaneous decision, 2..n
seats, placement rewards); the real games check it returns a legal action at their
simultaneous and face-down steps, at every seat count, on a tiny budget.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from engine import registry
from engine.bots import RandomBot
from engine.bots.ismcts import HEADROOM, SearchBot, action_key, placement_scores
from engine.bots.leaves import ahead, leaf
from engine.protocol import (
    JSON,
    BaseRules,
    Event,
    GameSpec,
    Pending,
    PendingKind,
    Result,
)

# -- toy games ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceState:
    n: int
    choice: str | None = None
    roll: int | None = None


class DiceRules(BaseRules[DiceState]):
    """Seat 0 picks `roll` (a die: 3 or more wins) or `stand` (only a 6 wins); the die is
    a chance node. The other seats never decide; seat 0 winning puts them all second."""

    spec = GameSpec("dice_toy", "Dice", 2, 5, True, False)

    def start(self, options: Mapping[str, Any], n_seats: int) -> DiceState:
        return DiceState(n_seats)

    def pending(self, state: DiceState) -> Pending:
        if state.choice is None:
            return Pending.decision(0)
        if state.roll is None:
            return Pending.chance()
        won = state.roll >= (3 if state.choice == "roll" else 6)
        places = tuple([1] + [2] * (state.n - 1)) if won else tuple([state.n] + [1] * (
            state.n - 1))
        winners = (0,) if won else tuple(range(1, state.n))
        return Pending.end(Result(places, winners, draw=len(winners) > 1))

    def legal_actions(self, state: DiceState, seat: int) -> list[JSON]:
        return [{"type": "stand"}, {"type": "roll"}] if seat == 0 and not state.choice else []

    def _decide(self, state: DiceState, seat: int, action: JSON) -> DiceState:
        return replace(state, choice=action["type"])

    def _resolve_chance(self, state: DiceState, outcome: JSON) -> DiceState:
        return replace(state, roll=outcome["die"])

    def sample_chance(self, state: DiceState, rng: random.Random) -> JSON:
        return {"die": rng.randint(1, 6)}

    def determinize(self, state: DiceState, seat: int, rng: random.Random) -> DiceState:
        return state


class PairDiceRules(DiceRules):
    """Dice for three, seats 0 and 1 one side against seat 2: seat 0's bet wins or loses
    for the pair."""

    def pending(self, state: DiceState) -> Pending:
        pending = super().pending(state)
        if pending.result is None:
            return pending
        won = pending.result.winners == (0,)
        places, winners = ((1, 1, 3), (0, 1)) if won else ((2, 2, 1), (2,))
        return Pending.end(Result(places, winners))

    def teams_at(self, state: DiceState) -> tuple[int, ...] | None:
        return (0, 0, 1)


@dataclass(frozen=True)
class ShowState:
    n: int
    shown: tuple[int | None, ...]


class ShowRules(BaseRules[ShowState]):
    """Every seat shows 1, 2 or 3 fingers at once, face down; a seat wins alone when it
    shows exactly one more than the most any other seat shows (3 beats 2), and the
    others share the places behind it; otherwise all draw."""

    spec = GameSpec("show_toy", "Show", 2, 6, False, True)

    def start(self, options: Mapping[str, Any], n_seats: int) -> ShowState:
        return ShowState(n_seats, (None,) * n_seats)

    def pending(self, state: ShowState) -> Pending:
        waiting = [s for s, f in enumerate(state.shown) if f is None]
        if waiting:
            return Pending.decision(*waiting)
        for seat, fingers in enumerate(state.shown):
            rest = [f for s, f in enumerate(state.shown) if s != seat]
            if fingers == max(f or 0 for f in rest) + 1:
                places = tuple(1 if s == seat else 2 for s in range(state.n))
                return Pending.end(Result(places, (seat,)))
        return Pending.end(Result((1,) * state.n, tuple(range(state.n)), draw=True))

    def legal_actions(self, state: ShowState, seat: int) -> list[JSON]:
        if state.shown[seat] is not None:
            return []
        return [{"fingers": f} for f in (1, 2, 3)]

    def _decide(self, state: ShowState, seat: int, action: JSON) -> ShowState:
        shown = list(state.shown)
        shown[seat] = action["fingers"]
        return replace(state, shown=tuple(shown))

    def determinize(self, state: ShowState, seat: int, rng: random.Random) -> ShowState:
        # Face down: a seat cannot know what the others already showed.
        shown = [f if s == seat or f is None else rng.choice((1, 2, 3))
                 for s, f in enumerate(state.shown)]
        return replace(state, shown=tuple(shown))


class FirstBot:
    """Always the first legal action: a predictable policy for the other seats."""

    name = "first"

    def choose(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random) -> JSON:
        return rules.legal_actions(state, seat)[0]


# -- rewards ------------------------------------------------------------------------------


def test_placement_scores_give_one_to_a_sole_winner_and_share_tied_places() -> None:
    assert placement_scores(Result((1, 2), (0,))) == [1.0, 0.0]
    assert placement_scores(Result((1, 1), (), draw=True)) == [0.5, 0.5]
    assert placement_scores(Result((2, 1, 3), (1,))) == [0.5, 1.0, 0.0]
    assert placement_scores(Result((1, 1, 3), (0, 1), draw=True)) == [0.75, 0.75, 0.0]
    assert placement_scores(Result((1, 2, 2, 2), (0,))) == [1.0, 1 / 3, 1 / 3, 1 / 3]


def test_with_teams_a_side_shares_its_result_and_sides_share_the_places() -> None:
    # The Supershow's handicap match: the pair wins together, or loses together.
    assert placement_scores(Result((1, 1, 3), (0, 1)), (0, 0, 1)) == [1.0, 1.0, 0.0]
    assert placement_scores(Result((2, 2, 1), (2,)), (0, 0, 1)) == [0.0, 0.0, 1.0]
    assert placement_scores(Result((1, 1, 1, 1), (), draw=True), (0, 1, 0, 1)) == [0.5] * 4
    # Three sides spread over their places, as three seats would be.
    assert placement_scores(Result((2, 1, 2, 1, 3), (1, 3)), (0, 1, 0, 1, 2)) == [
        0.5, 1.0, 0.5, 1.0, 0.0]
    # Seats alone (`teams` None, or one team each) are the free-for-all.
    assert placement_scores(Result((1, 1, 3), (0, 1), draw=True), (0, 1, 2)) == [
        0.75, 0.75, 0.0]


def test_a_leaf_value_is_the_mean_chance_to_finish_ahead_of_each_other_seat() -> None:
    assert ahead({0: 5.0, 1: 5.0}, 0, 2.0) == pytest.approx(0.5)
    assert ahead({0: 9.0, 1: 1.0, 2: 1.0}, 0, 1.0) > 0.99
    assert ahead({0: 9.0, 1: 1.0, 2: 1.0}, 1, 1.0) == pytest.approx((0.5 + 0.0003) / 2, abs=1e-3)


def test_a_leaf_value_does_not_count_a_partner_as_a_rival() -> None:
    """A pair well ahead of the third seat is near 1, as its finished win would be; by
    seats alone the partner's equal score held it near (1 + 0.5) / 2."""
    value = leaf(lambda views: {0: 9.0, 1: 9.0, 2: 1.0}, 1.0)
    assert value(PairDiceRules(), PairDiceRules().start({}, 3), 0) > 0.99
    assert value(DiceRules(), DiceRules().start({}, 3), 0) == pytest.approx(0.75, abs=1e-3)


# -- the toy games ------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_the_search_plays_through_a_chance_node_to_the_better_bet(seats: int) -> None:
    rules = DiceRules()
    bot = SearchBot(iterations=60, policy=FirstBot)  # the policy itself would stand
    action = bot.choose(rules, rules.start({}, seats), 0, random.Random(1))
    assert action == {"type": "roll"}
    arms = {a.action["type"]: a for a in (bot.root.arms.values() if bot.root else [])}
    assert arms["roll"].mean > arms["stand"].mean


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_a_simultaneous_decision_answers_the_others_policy(seats: int) -> None:
    """The others (the policy: one finger each) decide in the same step; two beats them."""
    rules = ShowRules()
    state = rules.start({}, seats)
    for seat in (0, seats - 1):
        bot = SearchBot(iterations=30, policy=FirstBot)
        assert bot.choose(rules, state, seat, random.Random(seat)) == {"fingers": 2}


def test_a_face_down_choice_already_made_is_resampled_not_read() -> None:
    """Seat 0 showed 1 face down; seat 1's search sees it only through determinize."""
    rules = ShowRules()
    state = rules.apply(rules.start({}, 2), Event.decision(0, {"fingers": 1}))
    bot = SearchBot(iterations=30, policy=FirstBot)
    bot.choose(rules, state, 1, random.Random(3))
    assert bot.root is not None
    means = sorted(arm.mean for arm in bot.root.arms.values())
    assert 0.0 < means[-1] < 1.0  # a certain win would mean it peeked at the 1


# -- the budget and the seed --------------------------------------------------------------


def test_the_same_seed_gives_the_same_choice_and_the_same_tree() -> None:
    rules = registry.get_rules("super_showdown")
    state = _state_with_a_choice("super_showdown", 2, skip=6)
    seat = _deciding(rules, state)
    runs = []
    for _ in range(2):
        bot = registry.get_bot("super_showdown", "search-easy")
        rng = random.Random(11)
        action = bot.choose(rules, state, seat, rng)
        assert isinstance(bot, SearchBot) and bot.root is not None
        stats = sorted((k, a.visits, round(a.total, 9)) for k, a in bot.root.arms.items())
        runs.append((action, stats, rng.random()))
    assert runs[0] == runs[1]


def test_the_search_takes_one_draw_from_the_callers_generator() -> None:
    rules = DiceRules()
    rng, twin = random.Random(5), random.Random(5)
    SearchBot(iterations=10, policy=FirstBot).choose(rules, rules.start({}, 2), 0, rng)
    twin.getrandbits(64)
    assert rng.random() == twin.random()


class TimedDice(DiceRules):
    """The dice game on a clock that moves as events are applied: each event takes the
    next of `costs` ticks (then one tick each)."""

    def __init__(self, costs: tuple[float, ...] = ()) -> None:
        self.now = 0.0
        self.costs = iter(costs)

    def apply(self, state: DiceState, event: Event) -> DiceState:
        self.now += next(self.costs, 1.0)
        return super().apply(state, event)


def _timed(seconds: float, costs: tuple[float, ...] = ()) -> SearchBot:
    """A search planning to end within `seconds` of the clock of `TimedDice(costs)` (its
    budget is that much and its headroom): a playout is two events, the searcher's choice
    and the die."""
    rules = TimedDice(costs)
    bot = SearchBot(iterations=1000, policy=FirstBot, seconds=seconds / (1 - HEADROOM),
                    clock=lambda: rules.now)
    bot.choose(rules, rules.start({}, 2), 0, random.Random(2))
    return bot


def test_an_injected_clock_ends_the_search() -> None:
    assert 0 < _timed(3.0).iterations_run < 1000


def test_no_playout_starts_that_could_end_past_the_time_budget() -> None:
    """Three playouts of two ticks end at six; a fourth could end at eight, past seven,
    so the search stops at three, inside its budget."""
    bot = _timed(7.0)
    assert bot.iterations_run == 3 and bot.clock is not None and bot.clock() == 6.0


def test_the_search_leaves_its_headroom_unspent() -> None:
    """On a budget of 10 ticks the search plans for 9: after four two-tick playouts
    (ending at 8) a fifth could end at 10, past 9, so it stops with 2 ticks in hand."""
    rules = TimedDice()
    bot = SearchBot(iterations=1000, policy=FirstBot, seconds=10.0, clock=lambda: rules.now)
    bot.choose(rules, rules.start({}, 2), 0, random.Random(2))
    assert HEADROOM == 0.1
    assert bot.iterations_run == 4 and rules.now == 8.0


def test_the_slowest_playout_so_far_sets_the_margin() -> None:
    """A first playout of five ticks makes the search keep five in hand: after playouts
    ending at 5, 7 and 9 it stops (9 + 5 > 12.5) where two-tick playouts alone would
    have allowed a fourth (9 + 2 <= 12.5)."""
    assert _timed(12.5, (1.0, 4.0)).iterations_run == 3


def test_a_playout_still_running_when_the_time_is_spent_is_dropped() -> None:
    """The second playout's first event takes ten ticks, past the budget of seven: it
    stops before rolling the die and leaves no visit; the decision overran by that one
    event only."""
    bot = _timed(7.0, (1.0, 1.0, 10.0))
    assert bot.iterations_run == 1
    assert bot.root is not None
    assert sum(arm.visits for arm in bot.root.arms.values()) == 1
    assert bot.clock is not None and bot.clock() == 12.0


def test_the_clock_counts_from_the_call() -> None:
    """The policy's own choice at the root is on the clock: when it spent the budget
    already, the first playout stops before its die and the policy's choice stands."""
    rules = TimedDice()

    class SlowFirst(FirstBot):
        def choose(self, rules_: BaseRules[Any], state: Any, seat: int,
                   rng: random.Random) -> JSON:
            rules.now += 50.0
            return super().choose(rules_, state, seat, rng)

    bot = SearchBot(iterations=1000, policy=SlowFirst, seconds=10.0, clock=lambda: rules.now)
    assert bot.choose(rules, rules.start({}, 2), 0, random.Random(2)) == {"type": "stand"}
    assert bot.iterations_run == 0


def test_a_batch_cut_short_by_the_clock_pairs_nothing() -> None:
    bot = _timed(7.0)
    assert bot.root is not None and len(bot.root.arms) == 2
    # three playouts: a whole batch of the two actions, then one of the next batch
    assert [len(arm.gains) for arm in bot.root.arms.values()] == [1, 1]
    assert sum(arm.visits for arm in bot.root.arms.values()) == 3


def test_a_scaled_budget_spends_the_scaled_number_of_playouts() -> None:
    rules = DiceRules()
    state = rules.start({}, 2)
    full = SearchBot(iterations=40, policy=FirstBot)
    half = SearchBot(iterations=40, policy=FirstBot, scale=lambda s: 0.5)
    full.choose(rules, state, 0, random.Random(3))
    half.choose(rules, state, 0, random.Random(3))
    assert half.budget(state) == 20 and full.budget(state) == 40
    assert 0 < half.iterations_run <= 20 < full.iterations_run <= 40


def test_royal_rumble_sizes_its_budget_by_the_seats_still_in() -> None:
    rules = registry.get_rules("royal_rumble")
    hard = registry.get_bot("royal_rumble", "search-hard")
    assert isinstance(hard, SearchBot)
    two = _state_with_a_choice("royal_rumble", 2, 3)
    four = _state_with_a_choice("royal_rumble", 4, 3)
    assert hard.budget(two) == hard.iterations
    assert hard.budget(four) == round(hard.iterations * 8 / 28)  # playouts of 7 a seat
    four.players[3].out = True
    assert hard.budget(four) == round(hard.iterations * 8 / 21)
    hard.choose(rules, two, _deciding(rules, two), random.Random(1))
    assert hard.iterations_run <= hard.iterations


def test_a_time_budget_without_a_clock_is_refused() -> None:
    with pytest.raises(ValueError):
        SearchBot(seconds=0.2)


def test_a_single_legal_action_is_played_without_searching() -> None:
    """No tree, no playout, and the caller's generator untouched."""

    class RollOnly(DiceRules):
        def legal_actions(self, state: DiceState, seat: int) -> list[JSON]:
            return [{"type": "roll"}] if seat == 0 and not state.choice else []

    rules = RollOnly()
    bot = SearchBot(iterations=5, policy=RandomBot)
    rng, twin = random.Random(0), random.Random(0)
    assert bot.choose(rules, rules.start({}, 2), 0, rng) == {"type": "roll"}
    assert bot.root is None and bot.iterations_run == 0
    assert rng.random() == twin.random()


@dataclass(frozen=True)
class PickState:
    picked: int | None = None


class PickRules(BaseRules[PickState]):
    """Seat 0 picks one of twenty numbers; a pick of 15 or more wins, anything else loses."""

    spec = GameSpec("pick_toy", "Pick", 2, 2, True, False)

    def start(self, options: Mapping[str, Any], n_seats: int) -> PickState:
        return PickState()

    def pending(self, state: PickState) -> Pending:
        if state.picked is None:
            return Pending.decision(0)
        won = state.picked >= 15
        return Pending.end(Result((1, 2) if won else (2, 1), (0,) if won else (1,)))

    def legal_actions(self, state: PickState, seat: int) -> list[JSON]:
        return [{"n": n} for n in range(20)] if seat == 0 and state.picked is None else []

    def _decide(self, state: PickState, seat: int, action: JSON) -> PickState:
        return replace(state, picked=action["n"])

    def determinize(self, state: PickState, seat: int, rng: random.Random) -> PickState:
        return state


class Ranked(FirstBot):
    """Picks 0, and ranks the numbers from 19 down (a shortlist of `k`, or `only` of them)."""

    name = "ranked"
    only: int | None = None

    def shortlist(self, rules: BaseRules[Any], state: Any, seat: int, rng: random.Random,
                  k: int) -> list[JSON]:
        return [{"n": n} for n in range(19, 19 - (self.only or k), -1)]


def test_too_many_root_actions_are_challenged_by_the_policys_shortlist() -> None:
    """Width 4 of twenty actions: the policy's choice and the top three of its ranking."""
    rules = PickRules()
    bot = SearchBot(iterations=12, policy=Ranked, width=4)
    assert bot.choose(rules, rules.start({}, 2), 0, random.Random(3)) in (
        {"n": 19}, {"n": 18}, {"n": 17})
    assert bot.root is not None
    assert sorted(a.action["n"] for a in bot.root.arms.values()) == [0, 17, 18, 19]


def test_a_short_shortlist_is_filled_with_other_actions_drawn_at_random() -> None:
    class One(Ranked):
        only = 1

    rules = PickRules()
    picked = set()
    for seed in range(5):
        bot = SearchBot(iterations=12, policy=One, width=4)
        bot.choose(rules, rules.start({}, 2), 0, random.Random(seed))
        assert bot.root is not None
        arms = sorted(a.action["n"] for a in bot.root.arms.values())
        assert len(arms) == 4 and arms[0] == 0 and arms[-1] == 19
        picked.update(arms[1:3])
    assert len(picked) > 2  # drawn, not fixed


def test_without_a_ranking_the_challengers_are_drawn_at_random() -> None:
    rules = PickRules()
    arms = []
    for seed in range(3):
        bot = SearchBot(iterations=12, policy=FirstBot, width=4)
        bot.choose(rules, rules.start({}, 2), 0, random.Random(seed))
        assert bot.root is not None and len(bot.root.arms) == 4
        arms.append(sorted(a.action["n"] for a in bot.root.arms.values()))
    assert all(a[0] == 0 for a in arms) and len({tuple(a) for a in arms}) > 1


# -- the real games -----------------------------------------------------------------------


def _state_with_a_choice(game: str, seats: int, skip: int, *, until: Any = None,
                         options: JSON | None = None) -> Any:
    """A heuristic game played `skip` decisions on (or until `until(state)`), stopped
    at a decision with more than one legal action (a game seeded `skip` that ends
    before it is played again on the next seed)."""
    for seed in range(skip, skip + 10):
        state = _played_on(game, seats, skip, seed, until, options)
        if state is not None:
            return state
    raise AssertionError("ten games ended before the wanted decision")


def _played_on(game: str, seats: int, skip: int, seed: int, until: Any,
               options: JSON | None) -> Any:
    rules = registry.get_rules(game)
    rng = random.Random(seed)
    bots = [registry.get_bot(game, "heuristic") for _ in range(seats)]
    state = rules.start(options or {}, seats)
    done = 0
    while True:
        pending = rules.pending(state)
        if pending.is_over:
            return None
        if pending.kind is PendingKind.CHANCE:
            state = rules.apply(state, Event.chance(rules.sample_chance(state, rng)))
            continue
        seat = pending.seats[0]
        ready = until(rules, state) if until else done >= skip
        if ready and len(rules.legal_actions(state, seat)) > 1:
            return state
        state = rules.apply(state, Event.decision(seat, bots[seat].choose(rules, state, seat,
                                                                          rng)))
        done += 1


def _deciding(rules: BaseRules[Any], state: Any) -> int:
    return rules.pending(state).seats[-1]


def _tiny(game: str) -> SearchBot:
    """The registered search-easy of a game on a budget small enough for a unit test."""
    bot = registry.get_bot(game, "search-easy")
    assert isinstance(bot, SearchBot)
    bot.iterations = 6
    return bot


FOUR_WAY = {"match_type": "fatal_four_way_elimination"}


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("super_showdown", 2, {}), ("superstar_showdown", 2, {}), ("supershow", 2, {}),
    ("supershow", 4, FOUR_WAY), ("royal_rumble", 2, {}), ("royal_rumble", 5, {}),
    ("ultimate_showdown", 3, {}), ("ultimate_showdown", 6, {}),
])
def test_the_search_returns_a_legal_action_in_every_game(game: str, seats: int,
                                                          options: JSON) -> None:
    rules = registry.get_rules(game)
    state = _state_with_a_choice(game, seats, skip=5 + seats, options=options)
    seat = _deciding(rules, state)
    assert _tiny(game).choose(rules, state, seat, random.Random(0)) in rules.legal_actions(
        state, seat)


def test_superstar_showdowns_simultaneous_play_step_is_searched_for_either_seat() -> None:
    """SS: both seats play three cards face down at once; the second to post cannot see
    the first's cards."""
    rules = registry.get_rules("superstar_showdown")
    state = _state_with_a_choice("superstar_showdown", 2, 0,
                                 until=lambda r, s: len(r.pending(s).seats) == 2)
    for seat in (0, 1):
        action = _tiny("superstar_showdown").choose(rules, state, seat, random.Random(seat))
        assert action["type"] == "play_spots" and action in rules.legal_actions(state, seat)
    first = rules.apply(state, Event.decision(0, rules.legal_actions(state, 0)[0]))
    assert rules.pending(first).seats == (1,)
    assert _tiny("superstar_showdown").choose(rules, first, 1, random.Random(4)) in (
        rules.legal_actions(first, 1))


def test_royal_rumbles_face_down_plan_is_searched_after_another_seat_planned() -> None:
    """RR: plans are made face down one seat after another; seat 1 plans after seat 0."""
    rules = registry.get_rules("royal_rumble")

    def second_planner(r: Any, s: Any) -> bool:
        view = r.view(s, None)
        planned = [p for p in view["players"] if p["plan"]["status"] in ("planned", "breather")]
        return view["phase"] == "plan" and len(planned) >= 1
    state = _state_with_a_choice("royal_rumble", 3, 0, until=second_planner)
    seat = _deciding(rules, state)
    assert _tiny("royal_rumble").choose(rules, state, seat, random.Random(9)) in (
        rules.legal_actions(state, seat))


def test_the_bound_searches_the_true_state_where_the_bot_samples_it() -> None:
    """benchmarks/search_bound: the clairvoyant search sees the rival's hand; the real
    search bot's worlds are sampled from what its seat knows."""
    from benchmarks.search_bound import Clairvoyant, points, searcher

    rules = registry.get_rules("supershow")
    state = _state_with_a_choice("supershow", 2, 6)
    seat = rules.pending(state).seats[0]
    rival = 1 - seat
    bound = searcher("supershow", 8)
    assert isinstance(bound, Clairvoyant) and bound.iterations == 8
    assert bound._world(rules, state, seat, random.Random(1)) is state
    sampled = [SearchBot._world(rules, state, seat, random.Random(k)).players[rival].hand
               for k in range(5)]
    assert any(hand != state.players[rival].hand for hand in sampled)
    assert points(("supershow", 4, 3)) in (0.0, 0.5, 1.0)


def test_a_search_counts_a_finished_playout_by_the_sides_of_the_table() -> None:
    """A pair's win is worth 1 to each partner and its loss 0 (by seats alone: 0.75 and
    0.25), so a partner weighs the side's result, not its place among the three."""
    rules = PairDiceRules()
    world = rules.start({}, 3)
    bot = SearchBot(iterations=1, policy=FirstBot)
    rewards = {bot.playout(rules, world, 0, {"type": "roll"}, seed) for seed in range(20)}
    assert rewards == {0.0, 1.0}


def test_a_playout_is_paired_by_its_seed_and_leaves_no_tree() -> None:
    """SearchBot.playout: the same world, action and seed give the same reward, and the
    bot's last tree is not touched (benchmarks/decision_gaps pairs actions this way)."""
    rules = registry.get_rules("supershow")
    state = _state_with_a_choice("supershow", 2, 6)
    seat = rules.pending(state).seats[0]
    bot = _tiny("supershow")
    world = rules.determinize(state, seat, random.Random(4))
    rewards = {action_key(a): [bot.playout(rules, world, seat, a, seed) for seed in (1, 1, 2)]
               for a in rules.legal_actions(state, seat)}
    for first, again, _ in rewards.values():
        assert first == again and first in (0.0, 0.5, 1.0)
    assert bot.root is None


def test_decision_gaps_measures_the_best_action_again_on_fresh_worlds() -> None:
    """benchmarks/decision_gaps: every decision of a heuristic match has a choice, the
    heuristic's own choice among its legal actions; a gap is zero when the heuristic's
    action came out best, else measured on 2 x PLAYOUTS new paired playouts."""
    from benchmarks.decision_gaps import decisions, gap

    rules = registry.get_rules("supershow")
    found = decisions(("supershow", 5001))
    assert found
    for state, seat, action in found:
        assert len(rules.legal_actions(state, seat)) > 1
        assert action in rules.legal_actions(state, seat)
    state, seat, action = found[0]
    measured = gap(("supershow", state, seat, action, 3, 0, False))
    actions = len(rules.legal_actions(state, seat))
    assert measured.actions == actions
    if measured.heuristic_best:
        assert (measured.gain, measured.playouts) == (0.0, 3 * actions)
    else:
        assert measured.playouts == 3 * actions + 6 and -1.0 <= measured.gain <= 1.0


def test_decision_gaps_on_the_true_state_plays_every_pair_from_the_state_itself() -> None:
    """benchmarks/decision_gaps --true-state: no world is sampled, so an action's rewards
    are the playouts of the state itself on each seed, and they differ from those of
    sampled worlds on the same seeds."""
    from benchmarks.decision_gaps import decisions, paired

    rules = registry.get_rules("supershow")
    state, seat, _ = next(d for d in decisions(("supershow", 5001)) if d[2]["type"] == "play")
    actions = rules.legal_actions(state, seat)[:2]
    bot = SearchBot(policy=lambda: registry.get_bot("supershow", "heuristic"))
    seeds = random.Random(3)
    expected = [[bot.playout(rules, state, seat, a, seed) for a in actions]
                for seed in [seeds.getrandbits(48) for _ in range(40)]]
    true_state = paired("supershow", state, seat, actions, 40, random.Random(3), True)
    sampled = paired("supershow", state, seat, actions, 40, random.Random(3))
    assert true_state == [list(column) for column in zip(*expected, strict=True)]
    assert sampled != true_state
