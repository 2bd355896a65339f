"""Free-for-all heats for games of 3 to 10 seats: pods, the top places advance, a final pod.

A round splits its field into ceil(n / pod_size) pods of balanced sizes, dealt by snake
order (1, 2, 3, 3, 2, 1, ...); the top `advance` of each pod go on, ranked for the next deal
by their place, then seed. When the field fits in one pod it plays the final pod, whose
placements are the top of the final standings. Everyone else ranks by the round they went
out in, then their place in that pod (then the `tiebreaks`, figures only), ties shared.

Pod ids: `P{round}-{pod}`. A heat tied across the places that advance (a forfeit leaves
the others sharing first) sends on the better seeds of the tied: their shared place
stands in the standings, but only those sent on go on. A withdrawn entrant in an unplayed pod
leaves its seats (ranked last of that pod); a pod left with no more entrants than advance
decides itself. A pod every entrant of which forfeited (all late together: `no_winner`)
is a loss for each and sends nobody on; nobody fills their places, and a round no pod
of which had a winner is the last: nobody ranks first then (everyone a place lower).
A late entrant is taken only before the first result (the pods are dealt again); there
is no hand pairing.

Entrants the game plays as one side (a result's `sides`: The Supershow's tag team pair)
win or lose together: the pair's shared first place is a win for each, not a draw. Who
goes on still follows the places, so a pair that wins a pod sending one on is a tie
across the advancing places (its better seed goes on); `advance` 2 sends it on whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.protocol import quoted
from league.formats.base import (
    FormatError,
    MatchResult,
    OptionKind,
    OptionSpec,
    Pairing,
    StandingRow,
    check_entrants,
    check_new_entrant,
    check_placements,
    check_withdrawal,
    competition_ranks,
    no_winner,
    ordered_by_place,
    outcomes,
    read_options,
    require,
    snake,
)
from league.formats.tiebreaks import criterion_values


@dataclass(frozen=True)
class HeatsOptions:
    """Pod size, how many advance from each pod, the smallest pod allowed, tiebreaks."""

    pod_size: int = 4
    advance: int = 1
    min_pod_size: int = 2
    tiebreaks: tuple[str, ...] = ()


@dataclass(frozen=True)
class HeatsState:
    """The field in seed order, the pods dealt so far, results and withdrawals."""

    entrants: tuple[str, ...]
    options: HeatsOptions
    rounds: tuple[tuple[Pairing, ...], ...] = ()
    results: Mapping[str, MatchResult] = field(default_factory=dict)
    withdrawn: frozenset[str] = frozenset()


def pod_sizes(n: int, pod_size: int) -> list[int]:
    """Balanced pod sizes for `n` entrants, none above `pod_size`."""
    pods = -(-n // pod_size)
    return [n // pods + (i < n % pods) for i in range(pods)]


def plan(n: int, options: HeatsOptions) -> list[list[int]]:
    """The pod sizes of every round for a full field, the final pod last."""
    rounds = []
    while n > options.pod_size:
        sizes = pod_sizes(n, options.pod_size)
        rounds.append(sizes)
        advancing = sum(min(options.advance, size) for size in sizes)
        require(
            advancing < n, "bad_option", f"advance {options.advance} never shrinks a field of {n}."
        )
        n = advancing
    return [*rounds, [n]]


def read_heats_options(options: Mapping[str, Any] | None, n: int) -> HeatsOptions:
    """The options heats take, checked against the field size."""
    values = read_options(Heats.options, options)
    opts = HeatsOptions(**values)
    require(3 <= opts.pod_size <= 10, "bad_option", "pod_size must be 3 to 10.")
    require(1 <= opts.advance < opts.pod_size, "bad_option", "advance must be 1 to pod_size - 1.")
    require(
        2 <= opts.min_pod_size <= opts.pod_size, "bad_option", "min_pod_size must be 2 to pod_size."
    )
    require(
        all(t.startswith(("figure:", "diff:")) or t == "wins" for t in opts.tiebreaks),
        "bad_option",
        "Heats break ties by wins or named figures only.",
    )
    rounds = plan(n, opts)
    short = next((i for i, sizes in enumerate(rounds) if min(sizes) < opts.min_pod_size), None)
    require(short is None, "bad_entrant_count", _too_small(n, opts, rounds, short or 0))
    return opts


def _too_small(n: int, opts: HeatsOptions, rounds: list[list[int]], short: int) -> str:
    """Why a field cannot be dealt: the first round of `rounds` with a pod under the
    game's seats. A later round's (the final's, say: eight in pods of four, one going on
    from each, leave a final of two) is named, as its pods are the ones at fault, and
    `advance` is among what may change."""
    smallest = min(rounds[short])
    seats = f"fewer than the {opts.min_pod_size} seats the game needs"
    if short == 0:
        return (f"{n} entrants in pods of up to {opts.pod_size} leave a pod of {smallest}, "
                f"{seats}: enter more, or change pod_size.")
    pod = "a final pod" if short == len(rounds) - 1 else f"a round {short + 1} pod"
    return (f"{n} entrants in pods of up to {opts.pod_size}, {opts.advance} going on from "
            f"each, leave {pod} of {smallest}, {seats}: enter more, or change pod_size or "
            "advance.")


class Heats:
    """Multi-seat games: pods, the best go on, a final pod."""

    key: str = "heats"
    revision: int = 1
    options: tuple[OptionSpec, ...] = (
        OptionSpec("pod_size", OptionKind.INT, 4, "Most seats in a pod (3 to 10)."),
        OptionSpec("advance", OptionKind.INT, 1, "How many of each pod go on."),
        OptionSpec("min_pod_size", OptionKind.INT, 2, "Fewest seats the game can play."),
        OptionSpec(
            "tiebreaks", OptionKind.CRITERIA, (), "Tiebreaks among those out at the same place."
        ),
    )

    def start(
        self, entrants: Sequence[str], options: Mapping[str, Any] | None = None,
        revision: int | None = None,
    ) -> HeatsState:
        """The first round of pods dealt by seed."""
        seeded = check_entrants(entrants)
        return _advance(HeatsState(seeded, read_heats_options(options, len(seeded))))

    def pairings(self, state: HeatsState) -> list[Pairing]:
        """Every pod dealt so far; an unplayed pod shows only its active entrants."""
        return [_view(state, pod) for round_ in state.rounds for pod in round_]

    def ready(self, state: HeatsState) -> list[Pairing]:
        """The current round's pods still to be played."""
        current = state.rounds[-1] if state.rounds else ()
        return [_view(state, pod) for pod in current if _is_open(state, pod)]

    def record(self, state: HeatsState, result: MatchResult) -> HeatsState:
        """The state after a pod's placements; the next round is dealt when this one ends."""
        pod = _find(state, result.pairing_id)
        require(pod.id not in state.results, "already_recorded", f"{pod.id} already has a result.")
        require(_is_open(state, pod), "not_ready", f"{pod.id} is not ready to be played.")
        seated = _view(state, pod).entrants
        check_placements(result, seated, draws=True)
        return _advance(replace(state, results={**state.results, pod.id: result}))

    def is_complete(self, state: HeatsState) -> bool:
        """Whether the final pod is decided."""
        if not (state.rounds and _round_done(state)):
            return False
        return _is_final(state, state.rounds[-1][0]) or not _next_field(state)

    def standings(self, state: HeatsState) -> list[StandingRow]:
        """The final pod's places, then everyone else by how far they went."""
        exits = _exits(state)
        tables = _tiebreak_tables(state)
        keys = {
            e: (*_reached(state, x, e), *(t.get(e, 0.0) for t in tables.values()))
            for e, x in exits.items()
        }
        seed = {e: i for i, e in enumerate(state.entrants)}
        order = sorted(state.entrants, key=lambda e: ([-k for k in keys[e]], seed[e]))
        ranks = competition_ranks([keys[e] for e in order])
        # The last round's pods all forfeited by everyone: nobody won the Event, so first
        # place stays empty (everyone ranks a place lower), as a bracket's final does.
        vacant = int(self.is_complete(state) and _nobody_won_last(state))
        return [
            _row(state, r + vacant, e, exits[e], {n: t.get(e, 0.0) for n, t in tables.items()})
            for r, e in zip(ranks, order, strict=True)
        ]

    def withdraw(self, state: HeatsState, entrant: str) -> HeatsState:
        """The entrant leaves their seat; a pod with too few left decides itself."""
        check_withdrawal(state.entrants, state.withdrawn, entrant)
        require(not self.is_complete(state), "event_complete", "The final pod is decided.")
        return _advance(replace(state, withdrawn=state.withdrawn | {entrant}))

    def add_entrant(self, state: HeatsState, entrant: str) -> HeatsState:
        """A late entrant as the lowest seed, only before the first result."""
        check_new_entrant(state.entrants, entrant)
        require(not state.results, "already_started", "The heats have started.")
        entrants = (*state.entrants, entrant)
        try:
            options = read_heats_options(_as_values(state.options), len(entrants))
        except FormatError as exc:  # the options took the field as it was: the entry is at fault
            raise FormatError(
                "bad_entrant_count", f"A field of {len(entrants)} cannot be dealt: {exc.message}"
            ) from None
        return _advance(HeatsState(entrants, options, withdrawn=state.withdrawn))

    def pair_by_hand(
        self, state: HeatsState, pairings: Sequence[Sequence[str | None]]
    ) -> HeatsState:
        """Pods are dealt by snake order; hand pairing is refused."""
        raise FormatError("not_supported", "Heats deal their pods by seed.")

    def takes_hand_pairings(self, state: HeatsState) -> bool:
        return False

    def walkovers(self, state: HeatsState) -> dict[str, str | None]:
        """None: a pod a withdrawal leaves short decides itself by seed, nobody wins it."""
        return {}


def _as_values(options: HeatsOptions) -> dict[str, Any]:
    """Options back as the values `start` took."""
    return {
        "pod_size": options.pod_size,
        "advance": options.advance,
        "min_pod_size": options.min_pod_size,
        "tiebreaks": list(options.tiebreaks),
    }


def _find(state: HeatsState, pod_id: str) -> Pairing:
    """The dealt pod with this id."""
    for round_ in state.rounds:
        for pod in round_:
            if pod.id == pod_id:
                return pod
    raise FormatError("unknown_pairing", f"No pod {quoted(pod_id)}.")


def _is_final(state: HeatsState, pod: Pairing) -> bool:
    """Whether the pod is a final pod."""
    return pod.stage == "final"


def _active(state: HeatsState, pod: Pairing) -> list[str]:
    """The pod's entrants who have not withdrawn."""
    return [e for e in pod.entrants if e not in state.withdrawn]


def _view(state: HeatsState, pod: Pairing) -> Pairing:
    """The pod as it will be played: withdrawn entrants leave an unplayed pod."""
    if pod.id in state.results:
        return pod
    return replace(pod, slots=tuple(_active(state, pod)))


def _is_open(state: HeatsState, pod: Pairing) -> bool:
    """A pod still to be played that cannot decide itself."""
    least = 2 if _is_final(state, pod) else state.options.advance + 1
    return pod.id not in state.results and len(_active(state, pod)) >= least


def _round_done(state: HeatsState) -> bool:
    """Whether every pod of the current round is decided (true before round 1)."""
    return not state.rounds or not any(_is_open(state, pod) for pod in state.rounds[-1])


def _finish(state: HeatsState, pod: Pairing) -> list[str]:
    """The pod's active entrants best first (a self-deciding pod by seed)."""
    seed = {e: i for i, e in enumerate(state.entrants)}
    if pod.id in state.results:
        order = ordered_by_place(state.results[pod.id], seed)
        return [e for e in order if e not in state.withdrawn]
    return sorted(_active(state, pod), key=seed.__getitem__)


def _advance(state: HeatsState) -> HeatsState:
    """Deal the next round once the current one is decided."""
    if not _round_done(state) or (state.rounds and _is_final(state, state.rounds[-1][0])):
        return state
    field_ = _next_field(state)
    if not field_:
        return state
    return replace(
        state, rounds=(*state.rounds, deal(len(state.rounds) + 1, field_, state.options))
    )


def _next_field(state: HeatsState) -> list[str]:
    """The entrants who go on, by place then seed (round 1: the seeded field)."""
    if not state.rounds:
        return [e for e in state.entrants if e not in state.withdrawn]
    seed = {e: i for i, e in enumerate(state.entrants)}
    going: list[tuple[int, int, str]] = []
    for pod in state.rounds[-1]:
        going += [(place, seed[e], e) for place, e in enumerate(_sent_on(state, pod))]
    return [e for _, _, e in sorted(going)]


def _sent_on(state: HeatsState, pod: Pairing) -> list[str]:
    """Those the decided pod sends on: its best `advance`, ties by seed. A pod every
    entrant of which forfeited (`no_winner`: all late together) sends nobody on, not its
    better seeds: each lost it, as a walkover both sides withdrew from is lost by both.
    No one is taken in their place (the pods are not filled up): the next round is dealt
    from those the other pods send on, and a round every pod of which had no winner ends
    the heats there, with no final pod."""
    if pod.id in state.results and no_winner(state.results[pod.id]):
        return []
    return _finish(state, pod)[: state.options.advance]


def _nobody_won_last(state: HeatsState) -> bool:
    """Whether every pod of the last round dealt was played and won by nobody
    (`no_winner`: all its entrants forfeited together)."""
    last = state.rounds[-1] if state.rounds else ()
    return bool(last) and all(
        pod.id in state.results and no_winner(state.results[pod.id]) for pod in last)


def deal(number: int, field_: Sequence[str], options: HeatsOptions) -> tuple[Pairing, ...]:
    """One round's pods, or the final pod when the field fits in one."""
    if len(field_) <= options.pod_size:
        return (Pairing(f"P{number}-1", number, tuple(field_), "final", "Final pod"),)
    pods = snake(field_, len(pod_sizes(len(field_), options.pod_size)))
    return tuple(
        Pairing(f"P{number}-{i}", number, tuple(pod), "heats", f"Round {number} pod {i}")
        for i, pod in enumerate(pods, start=1)
    )


@dataclass(frozen=True)
class _Exit:
    """Where an entrant's run ended: round, place in that pod (0 = not yet played), label."""

    round: int
    place: int
    label: str
    final: bool


def _exits(state: HeatsState) -> dict[str, _Exit]:
    """Each entrant's last pod and place in it."""
    exits = {e: _Exit(0, 0, "", False) for e in state.entrants}
    for round_ in state.rounds:
        for pod in round_:
            for e in pod.entrants:
                exits[e] = _Exit(pod.round, _place(state, pod, e), pod.label, _is_final(state, pod))
    return exits


def _place(state: HeatsState, pod: Pairing, entrant: str) -> int:
    """1-based place of an entrant in a decided pod; withdrawn last; 0 if undecided."""
    if pod.id in state.results and entrant in state.results[pod.id].placements:
        return state.results[pod.id].placements[entrant]
    if entrant in state.withdrawn:
        return len(pod.entrants) + 1
    return 0 if _is_open(state, pod) else _finish(state, pod).index(entrant) + 1


def _goes_on(state: HeatsState, exit_: _Exit, entrant: str) -> bool:
    """Whether the entrant is among those their last pod sends on (ties go by seed)."""
    if not exit_.round or not exit_.place:
        return True  # not yet played
    pod = next(p for p in state.rounds[exit_.round - 1] if entrant in p.entrants)
    return entrant in _sent_on(state, pod)


def _reached(state: HeatsState, exit_: _Exit, entrant: str) -> tuple[int, int]:
    """What the standings rank by, (round, -place): an entrant its decided pod sends on
    while the round's other pods play ranks as one in the next round's pod still to play
    (round + 1, undecided), where it will sit once they end, as a bracket ranks a winner
    by the match it goes on to. (Once that round is dealt, who is not in it went out.)"""
    waiting = exit_.round == len(state.rounds) and exit_.place and not exit_.final
    if waiting and _goes_on(state, exit_, entrant):
        return exit_.round + 1, 0
    return exit_.round, -exit_.place


def _tiebreak_tables(state: HeatsState) -> dict[str, dict[str, float]]:
    """Each tiebreak's value for every entrant."""
    results = list(state.results.values())
    return {name: criterion_values(name, results, {}) for name in state.options.tiebreaks}


def _row(
    state: HeatsState, rank: int, entrant: str, exit_: _Exit, tiebreaks: dict[str, float]
) -> StandingRow:
    """One standings row: wins are pods won outright, alone or by the entrant's side (a
    tag team); draws are first places shared with other sides."""
    results = [r for r in state.results.values() if entrant in r.placements]
    counted = [outcomes(r.placements, r.sides)[entrant] for r in results]
    won, shared = counted.count("win"), counted.count("draw")
    going_on = exit_.place <= 1 if exit_.final else _goes_on(state, exit_, entrant)
    withdrawn = entrant in state.withdrawn
    return StandingRow(
        rank=rank,
        entrant=entrant,
        points=float(won),
        wins=won,
        draws=shared,
        losses=len(results) - won - shared,
        tiebreaks=tiebreaks,
        eliminated=withdrawn or not going_on,
        reached=exit_.label,
        withdrawn=withdrawn,
    )


FORMAT = Heats()
