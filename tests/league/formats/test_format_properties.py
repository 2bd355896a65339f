"""Properties of every format: random results always reach the end, and replay is exact."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from format_helpers import seeds
from hypothesis import given, settings
from hypothesis import strategies as st

from league.formats import (
    EntrantAdded,
    EntrantWithdrawn,
    Event,
    FormatError,
    MatchResult,
    Pairing,
    ResultRecorded,
    apply,
    event_from_json,
    event_to_json,
    get_format,
    outcomes,
    replay,
)
from league.formats.multistage import PLAYOFF, MultistageState
from league.formats.swiss import byes, meetings

DRAWS_ALLOWED = ("round_robin", "swiss", "group")


def options_for(key: str, n: int) -> list[dict[str, Any]]:
    """Option sets worth trying for a field of `n`."""
    table: dict[str, list[dict[str, Any]]] = {
        "single_elimination": [{}, {"third_place": True}],
        "double_elimination": [{}, {"grand_final_reset": False}],
        "round_robin": [{}, {"double": True}, {"round_by_round": False}],
        "swiss": [{}],
        "heats": [{"pod_size": 3, "advance": 1}, {"pod_size": 4, "advance": 2}],
        "multistage": [{"groups": 2 if n >= 4 else 1, "third_place": True}, {"stage1": "swiss"}],
    }
    return table[key]


KEYS = ["single_elimination", "double_elimination", "round_robin", "swiss", "heats", "multistage"]


def random_result(pairing: Pairing, rng: random.Random) -> MatchResult:
    """Random placements; a draw now and then where the stage allows one."""
    order = list(pairing.entrants)
    rng.shuffle(order)
    places = {e: i for i, e in enumerate(order, start=1)}
    if pairing.stage.startswith(DRAWS_ALLOWED) and rng.random() < 0.25:
        places = dict.fromkeys(order, 1)
    figures = {e: {"score": float(rng.randint(0, 9))} for e in order}
    return MatchResult(pairing.id, places, figures)


def run(
    key: str, n: int, options: dict[str, Any], rng: random.Random, churn: bool
) -> tuple[Any, list[Event]]:
    """Play an event out with random results (and, with `churn`, late entries and withdrawals)."""
    fmt = get_format(key)
    state = fmt.start(seeds(n), options)
    events: list[Event] = []
    for _ in range(2000):
        if fmt.is_complete(state):
            return state, events
        event = _next_event(fmt, state, rng, churn)
        try:
            state = apply(fmt, state, event)
        except FormatError as refusal:
            assert isinstance(event, EntrantAdded | EntrantWithdrawn), refusal
            continue
        events.append(event)
    raise AssertionError(f"{key} with {n} entrants did not finish")


def _next_event(fmt: Any, state: Any, rng: random.Random, churn: bool) -> Event:
    """A random result for a ready pairing, or now and then an organizer's change."""
    ready = fmt.ready(state)
    assert ready, "an unfinished event must have a ready pairing"
    if churn and rng.random() < 0.08:
        return EntrantAdded(f"late{rng.randint(0, 99)}")
    if churn and rng.random() < 0.08:
        return EntrantWithdrawn(rng.choice(list(state.entrants)))
    return ResultRecorded(random_result(rng.choice(ready), rng))


def check_invariants(key: str, state: Any) -> None:
    """Everyone ranked once, nobody twice in a round, no Swiss rematch or second bye."""
    fmt = get_format(key)
    rows = fmt.standings(state)
    assert sorted(r.entrant for r in rows) == sorted(state.entrants)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows) and rows[0].rank == 1
    if key != "swiss" and key != "heats" and getattr(state.options, "stage1", "") != "swiss":
        # The points are the record's under the default scoring (no bye is worth any here;
        # a multi-stage row's are both stages', as its record is).
        assert all(r.points == r.wins + 0.5 * r.draws for r in rows), rows
    seated = Counter((p.stage, p.round, e) for p in fmt.pairings(state) for e in p.entrants)
    assert max(seated.values()) == 1
    if key == "swiss":
        pairs = [frozenset(p.entrants) for p in fmt.pairings(state) if len(p.entrants) == 2]
        assert len(pairs) == len(meetings(state))
        byes = Counter(p.entrants[0] for p in fmt.pairings(state) if len(p.entrants) == 1)
        assert max(byes.values(), default=1) == 1


@settings(max_examples=150, deadline=None)
@given(
    key=st.sampled_from(KEYS),
    n=st.integers(2, 16),
    choice=st.integers(0, 2),
    seed=st.integers(0, 2**32),
)
def test_random_results_always_complete_and_replay_to_the_same_state(
    key: str, n: int, choice: int, seed: int
) -> None:
    options = options_for(key, n)[choice % len(options_for(key, n))]
    state, events = run(key, n, options, random.Random(seed), churn=False)
    check_invariants(key, state)
    assert replay(get_format(key), seeds(n), options, events) == state
    stored = [event_from_json(event_to_json(e)) for e in events]
    assert replay(get_format(key), seeds(n), options, stored) == state


@settings(max_examples=100, deadline=None)
@given(key=st.sampled_from(KEYS), n=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_late_entries_and_withdrawals_never_stall_an_event(key: str, n: int, seed: int) -> None:
    options = options_for(key, n)[0]
    state, events = run(key, n, options, random.Random(seed), churn=True)
    rows = get_format(key).standings(state)
    assert sorted(r.entrant for r in rows) == sorted(state.entrants)
    assert replay(get_format(key), seeds(n), options, events) == state


def recorded(state: Any) -> dict[str, MatchResult]:
    """The results recorded, by the pairing ids `pairings` gives (a multi-stage event's
    prefixed with their group's name or the playoff's)."""
    if not isinstance(state, MultistageState):
        return dict(state.results)
    stages = [(g.name, g.state) for g in state.groups]
    stages += [(PLAYOFF, state.playoff)] if state.playoff is not None else []
    return {f"{name}:{pid}": result for name, inner in stages
            for pid, result in inner.results.items()}


@settings(max_examples=100, deadline=None)
@given(key=st.sampled_from(["round_robin", "swiss", "single_elimination",
                             "double_elimination", "multistage"]),
       n=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_the_results_and_walkovers_are_every_match_the_standings_count(
        key: str, n: int, seed: int) -> None:
    """What the pages list (each result, each walkover `walkovers` gives, with its winner
    or as a loss for both) adds up to each entrant's wins, draws and losses, however the
    withdrawals fell (both of a pairing, one after the other); a bracket's as a points
    format's (a bye, an empty slot, is no walkover and no win)."""
    fmt = get_format(key)
    state, _ = run(key, n, options_for(key, n)[0], random.Random(seed), churn=True)
    known = {p.id: p for p in fmt.pairings(state)}
    given_ = fmt.walkovers(state)
    tally: Counter[tuple[str, str]] = Counter()
    results = recorded(state)
    for pid, winner in given_.items():
        assert pid not in results and len(known[pid].entrants) == 2
        assert winner is None or winner in known[pid].entrants
        tally.update((e, "win" if e == winner else "loss") for e in known[pid].entrants)
    for result in results.values():
        tally.update(outcomes(result.placements).items())
    if key == "swiss":  # a bye of a round that is over counts as a win
        tally.update({(e, "win"): count for e, count in byes(state, True).items()})
    assert {r.entrant: (r.wins, r.draws, r.losses) for r in fmt.standings(state)} == {
        e: (tally[e, "win"], tally[e, "draw"], tally[e, "loss"]) for e in state.entrants}
