"""Swiss: score groups paired by maximum-weight matching, no rematches, balanced byes.

Each round is paired once the previous one is decided. The field is ranked by points,
then seed. Pairing then runs in two steps:

1. With an odd field the bye goes to the lowest-ranked entrant among those with the fewest
   byes (no one gets a second bye while another has none) for whom the rest can still be
   paired without a rematch; when there is none, to the one whose bye leaves the fewest
   rematches (revision 2; an Event started under revision 1 gives it to the lowest-ranked
   of them whatever that costs, as it was played). A bye counts as a win worth
   `bye_points`.
2. The rest are paired by networkx's `max_weight_matching` (maximum cardinality), over
   edges for pairs that have not met. An edge costs, in falling order of weight, the
   square of the score-group gap (so entrants float down as little as possible), then
   the distance from the Dutch ideal (top half against bottom half of a group; a floater
   meets the top of the group below).

Rematches: never, as long as the field is the one that started and `rounds` is at most
ceil(n / 2) (the default ceil(log2 n) always is). Dirac's theorem gives why: after r - 1
rounds every entrant can still meet at least n - r others (plus the bye for those who
had none), which is half the field or more, so a rematch-free pairing exists. Beyond
that bound, or after withdrawals, a round with no rematch-free pairing takes the fewest
rematches rather than stopping the event.

Pairing ids: `R{round}-{board}` (board 1 the top pair), `R{round}-bye`. Slot order: the
higher-ranked entrant first. A withdrawn entrant's unplayed match is a walkover win for
the opponent, who keeps it when it withdraws in turn; its bye of a round not yet over (a
held round drawn before the withdrawal, say) is lost with it, no point. A late entrant
plays from the next round paired (the organizer may bring them into a round with no
result yet by pairing it by hand). A round its Event holds for the organizer, no match of
it made yet, is paired again when its field changes (`redraw`, revision 3): a late
entrant is seated in it, the last round too (`add_to_held`) (a bye's entrant or another late one met by the rules above), and
a withdrawn entrant's drawn opponent is paired again rather than given a walkover; the
Event decides which round is held, as only it knows which matches are made. Hand pairings
replace the current round while none of its results is in (and its walkovers go with it);
they may repeat a meeting or a bye (the organizer decides), but must seat every active
entrant once, and at most one bye.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import networkx as nx

from engine.protocol import quoted
from league.formats.base import (
    SCORING_OPTIONS,
    FormatError,
    MatchResult,
    OptionKind,
    OptionSpec,
    Pairing,
    Scoring,
    StandingRow,
    check_entrants,
    check_new_entrant,
    check_placements,
    check_withdrawal,
    empty_first_if_nobody_won,
    read_options,
    require,
    scoring_from,
    walkover_winners,
    walkovers_given,
)
from league.formats.tiebreaks import league_table, points_table

STAGE = "swiss"
Pair = tuple[str, str | None]


@dataclass(frozen=True)
class SwissOptions:
    """How many rounds, how to rank and how to score."""

    rounds: int
    tiebreaks: tuple[str, ...] = ("buchholz", "sonneborn_berger", "head_to_head")
    scoring: Scoring = field(default_factory=Scoring)


@dataclass(frozen=True)
class SwissState:
    """The field in seed order, the rounds paired so far, results and withdrawals."""

    entrants: tuple[str, ...]
    options: SwissOptions
    rounds: tuple[tuple[Pairing, ...], ...] = ()
    results: Mapping[str, MatchResult] = field(default_factory=dict)
    withdrawn: frozenset[str] = frozenset()
    revision: int = 0  # how it pairs: the revision it started under (Swiss.start sets it)
    # The walkovers each withdrawal gave, as it gave them: its winner withdrawing later
    # keeps them (they are not a loss for both).
    walkovers: Mapping[str, MatchResult] = field(default_factory=dict)
    # The byes (pairing ids) their entrant withdrew from before the round was over.
    lost_byes: frozenset[str] = frozenset()


def default_rounds(n: int) -> int:
    """ceil(log2 n): enough rounds for one unbeaten entrant."""
    return max(1, (n - 1).bit_length())


def max_rounds(n: int) -> int:
    """As many rounds as a round robin of `n` has."""
    return n - 1 if n % 2 == 0 else n


def read_swiss_options(options: Mapping[str, Any] | None, n: int) -> SwissOptions:
    """The options a Swiss takes, checked against the field size."""
    values = read_options(Swiss.options, options)
    rounds = default_rounds(n) if values["rounds"] is None else values["rounds"]
    require(1 <= rounds <= max_rounds(n), "bad_option", f"rounds must be 1 to {max_rounds(n)}.")
    return SwissOptions(rounds, values["tiebreaks"], scoring_from(values))


class Swiss:
    """Rounds paired by score, nobody meeting twice."""

    key: str = "swiss"
    # 2: when every bye leaves a rematch, the bye that leaves the fewest
    # 3: a round held for the organizer is paired again when its field changes (`redraw`)
    revision: int = 3
    options: tuple[OptionSpec, ...] = (
        OptionSpec("rounds", OptionKind.INT, None, "Number of rounds (default ceil(log2 n))."),
        OptionSpec("tiebreaks", OptionKind.CRITERIA, SwissOptions.tiebreaks, "Tiebreaks in order."),
        *SCORING_OPTIONS,
    )

    def start(
        self, entrants: Sequence[str], options: Mapping[str, Any] | None = None,
        revision: int | None = None,
    ) -> SwissState:
        """The event with its first round paired by seed."""
        seeded = check_entrants(entrants)
        return _advance(SwissState(seeded, read_swiss_options(options, len(seeded)),
                                   revision=self.revision if revision is None else revision))

    def pairings(self, state: SwissState) -> list[Pairing]:
        """Every round paired so far, byes included."""
        return [p for round_ in state.rounds for p in round_]

    def ready(self, state: SwissState) -> list[Pairing]:
        """The current round's matches that are still to be played."""
        current = state.rounds[-1] if state.rounds else ()
        return [p for p in current if _is_open(state, p)]

    def record(self, state: SwissState, result: MatchResult) -> SwissState:
        """The state after a result; the next round is paired when this one is decided."""
        pairing = _find(state, result.pairing_id)
        require(
            pairing.id not in state.results,
            "already_recorded",
            f"{pairing.id} already has a result.",
        )
        require(_is_open(state, pairing), "not_ready", f"{pairing.id} is not ready to be played.")
        check_placements(result, pairing.entrants, draws=True)
        return _advance(replace(state, results={**state.results, pairing.id: result}))

    def is_complete(self, state: SwissState) -> bool:
        """Whether the last round is decided (or too few entrants are left to pair)."""
        done = len(state.rounds) >= state.options.rounds or len(active(state)) < 2
        return done and _round_done(state)

    def standings(self, state: SwissState) -> list[StandingRow]:
        """Points (a bye is a win once its round is over), then the tiebreaks in order
        (first place empty where nobody won a match of the finished Swiss, nor a bye)."""
        rows = league_table(
            state.entrants,
            games(state),
            state.options.scoring,
            state.options.tiebreaks,
            byes=byes(state, finished_rounds_only=True),
            withdrawn=state.withdrawn,
            reached=_reached(state),
        )
        return empty_first_if_nobody_won(rows) if self.is_complete(state) else rows

    def withdraw(self, state: SwissState, entrant: str) -> SwissState:
        """The entrant leaves: an unplayed match is a walkover, later rounds skip them."""
        check_withdrawal(state.entrants, state.withdrawn, entrant)
        require(not self.is_complete(state), "event_complete", "The Swiss is over.")
        paired = [p for round_ in state.rounds for p in round_]
        given = walkovers_given(paired, state.results, state.walkovers, entrant)
        lost = {p.id for p in state.rounds[-1] if p.entrants == (entrant,)} \
            if state.rounds and not _round_done(state) else set()
        return _advance(replace(state, withdrawn=state.withdrawn | {entrant},
                                walkovers={**state.walkovers, **given},
                                lost_byes=state.lost_byes | lost))

    def add_entrant(self, state: SwissState, entrant: str) -> SwissState:
        """A late entrant, paired from the next round on."""
        check_new_entrant(state.entrants, entrant)
        more = len(state.rounds) < state.options.rounds
        require(more, "already_started", "The last round is already paired: a late entrant "
                                          "joins no round after it, nor one whose matches "
                                          "are made.")
        return replace(state, entrants=(*state.entrants, entrant))

    def pair_by_hand(
        self, state: SwissState, pairings: Sequence[Sequence[str | None]]
    ) -> SwissState:
        """The organizer's pairings replace the current round while it has no result."""
        require(not self.is_complete(state), "event_complete", "The Swiss is over.")
        current = state.rounds[-1]
        started = any(p.id in state.results for p in current)
        require(not started, "round_started", "The current round already has a result.")
        pairs = check_hand_pairs(state, pairings)
        number = len(state.rounds)
        # The round's walkovers go with its pairings (a withdrawn entrant sits in none now).
        replaced = {p.id for p in current}
        walkovers = {k: v for k, v in state.walkovers.items() if k not in replaced}
        return replace(state, rounds=(*state.rounds[:-1], build_round(number, pairs)),
                       walkovers=walkovers, lost_byes=state.lost_byes - replaced)

    def takes_hand_pairings(self, state: SwissState) -> bool:
        return True

    def redraw(self, state: SwissState, stage: str, number: int) -> SwissState:
        """Round `number` of `stage` (and any paired after it) paired again for the field
        as it is now, none of their results in: a round held for the organizer that a
        late entrant joined, or a withdrawal left a walkover in, is drawn again with the
        one and without the other (from revision 3; before it, and where fewer than two
        are left to pair, as it was drawn)."""
        if stage != STAGE:
            return state
        dropped = {p.id for round_ in state.rounds[number - 1:] for p in round_}
        if (state.revision < 3 or not dropped or dropped & set(state.results)
                or len(active(state)) < 2):
            return state
        walkovers = {k: v for k, v in state.walkovers.items() if k not in dropped}
        return _advance(replace(state, rounds=state.rounds[:number - 1], walkovers=walkovers))

    def add_to_held(self, state: SwissState, entrant: str, stage: str, number: int
                    ) -> SwissState:
        """A late entrant while round `number` of `stage` is held for the organizer: as
        `add_entrant` then `redraw`, but from revision 3 a held last round none of whose
        results is in takes them too, drawn again with them as an earlier held round is
        (before revision 3, refused as the last round already paired)."""
        last = number == len(state.rounds) >= state.options.rounds
        dropped = {p.id for round_ in state.rounds[number - 1:] for p in round_}
        if (stage == STAGE and last and state.revision >= 3
                and not dropped & set(state.results)):
            check_new_entrant(state.entrants, entrant)
            walkovers = {k: v for k, v in state.walkovers.items() if k not in dropped}
            return _advance(replace(state, entrants=(*state.entrants, entrant),
                                    rounds=state.rounds[:number - 1], walkovers=walkovers))
        return self.redraw(self.add_entrant(state, entrant), stage, number)

    def walkovers(self, state: SwissState) -> dict[str, str | None]:
        """The walkovers the withdrawals gave, to their winners."""
        return walkover_winners(state.walkovers)


def active(state: SwissState) -> list[str]:
    """Entrants still in, in seed order."""
    return [e for e in state.entrants if e not in state.withdrawn]


def _find(state: SwissState, pairing_id: str) -> Pairing:
    """The paired pairing with this id."""
    for round_ in state.rounds:
        for pairing in round_:
            if pairing.id == pairing_id:
                return pairing
    raise FormatError("unknown_pairing", f"No pairing {quoted(pairing_id)}.")


def _is_open(state: SwissState, pairing: Pairing) -> bool:
    """A real match with no result and no withdrawn entrant."""
    playing = len(pairing.entrants) == 2 and not state.withdrawn & set(pairing.entrants)
    return playing and pairing.id not in state.results


def _round_done(state: SwissState) -> bool:
    """Whether every match of the current round is decided (true before round 1)."""
    return not state.rounds or not any(_is_open(state, p) for p in state.rounds[-1])


def games(state: SwissState) -> list[MatchResult]:
    """Decided matches, round by round: results and walkovers."""
    out = []
    for round_ in state.rounds:
        for pairing in round_:
            if pairing.id in state.results:
                out.append(state.results[pairing.id])
            elif pairing.id in state.walkovers:
                out.append(state.walkovers[pairing.id])
    return out


def byes(state: SwissState, finished_rounds_only: bool = False) -> dict[str, int]:
    """How many byes each entrant has had (the standings: in rounds that are over, so a
    round still being played, or held for the organizer to re-pair, gives no point yet),
    but those lost to a withdrawal before their round was over."""
    counts: dict[str, int] = {}
    rounds = state.rounds
    if finished_rounds_only and not _round_done(state):
        rounds = rounds[:-1]
    for round_ in rounds:
        for pairing in round_:
            if len(pairing.entrants) == 1 and pairing.id not in state.lost_byes:
                counts[pairing.entrants[0]] = counts.get(pairing.entrants[0], 0) + 1
    return counts


def meetings(state: SwissState) -> set[frozenset[str]]:
    """Every pair of entrants paired so far."""
    return {frozenset(p.entrants) for r in state.rounds for p in r if len(p.entrants) == 2}


def _reached(state: SwissState) -> dict[str, str]:
    """The last round each entrant was paired in."""
    return {e: f"Round {p.round}" for r in state.rounds for p in r for e in p.entrants}


def points(state: SwissState) -> dict[str, float]:
    """Points so far, byes included."""
    table = points_table(games(state), state.options.scoring)
    for entrant, count in byes(state).items():
        table[entrant] = table.get(entrant, 0.0) + count * state.options.scoring.bye
    return table


def _advance(state: SwissState) -> SwissState:
    """Pair the next round when the current one is decided and rounds remain."""
    more = len(state.rounds) < state.options.rounds and len(active(state)) >= 2
    if not (more and _round_done(state)):
        return state
    table = points(state)
    seed = {e: i for i, e in enumerate(state.entrants)}
    ranked = sorted(active(state), key=lambda e: (-table.get(e, 0.0), seed[e]))
    pairs = _paired(ranked, table, byes(state), meetings(state), state.revision)
    return replace(state, rounds=(*state.rounds, build_round(len(state.rounds) + 1, pairs)))


def _paired(ranked: Sequence[str], table: Mapping[str, float], bye_counts: Mapping[str, int],
            met: set[frozenset[str]], revision: int) -> list[Pair]:
    """`pair_field`'s pairs, made once (per process) for the same field, points, byes and
    meetings. A replay from the start (after a correction, or of an Event whose kept
    replay was let go) pairs every round again, and the matching is most of its work
    (0.06-0.12 s a round of 128): the rounds before a corrected one pair what they paired
    before, and are found here."""
    return list(_paired_once(tuple(ranked), tuple(table.get(e, 0.0) for e in ranked),
                             tuple(bye_counts.get(e, 0) for e in ranked), frozenset(met),
                             revision))


@lru_cache(maxsize=256)
def _paired_once(ranked: tuple[str, ...], points: tuple[float, ...], bye_counts: tuple[int, ...],
                 met: frozenset[frozenset[str]], revision: int) -> tuple[Pair, ...]:
    return tuple(pair_field(ranked, dict(zip(ranked, points, strict=True)),
                            dict(zip(ranked, bye_counts, strict=True)), set(met), revision))


def forget_pairings() -> None:
    """Forget the pairings `_paired` keeps (for tests that count the pairings made)."""
    _paired_once.cache_clear()


def build_round(number: int, pairs: Sequence[Pair]) -> tuple[Pairing, ...]:
    """A round's pairings: boards in order, then the bye."""
    boards = [p for p in pairs if p[1] is not None]
    out = [
        Pairing(f"R{number}-{i}", number, p, STAGE, f"Round {number} board {i}")
        for i, p in enumerate(boards, start=1)
    ]
    out += [
        Pairing(f"R{number}-bye", number, p, STAGE, f"Round {number} bye")
        for p in pairs
        if p[1] is None
    ]
    return tuple(out)


def pair_field(
    ranked: Sequence[str],
    points: Mapping[str, float],
    byes: Mapping[str, int],
    met: set[frozenset[str]],
    revision: int,
) -> list[Pair]:
    """Pairs for a field ranked best first, top board first, the bye (if any) last."""
    if len(ranked) % 2 == 0:
        return list(_match(ranked, points, met, False) or _match(ranked, points, met, True) or [])
    bye, pairs = _with_bye(ranked, points, byes, met, revision)
    return [*pairs, (bye, None)]


def _with_bye(
    ranked: Sequence[str],
    points: Mapping[str, float],
    byes: Mapping[str, int],
    met: set[frozenset[str]],
    revision: int,
) -> tuple[str, list[tuple[str, str]]]:
    """The bye and the pairs of the others (see the module docstring for the order tried)."""
    fewest = min(byes.get(e, 0) for e in ranked)
    candidates = [e for e in reversed(ranked) if byes.get(e, 0) == fewest]
    for candidate in candidates:
        pairs = _match([e for e in ranked if e != candidate], points, met, False)
        if pairs is not None:
            return candidate, pairs
    if revision < 2:
        rest = [e for e in ranked if e != candidates[0]]
        return candidates[0], _match(rest, points, met, True) or []
    # Every bye leaves a rematch: the one that leaves the fewest (the lowest ranked of those).
    options = [
        (candidate, _match([e for e in ranked if e != candidate], points, met, True) or [])
        for candidate in candidates
    ]
    return min(options, key=lambda option: sum(frozenset(p) in met for p in option[1]))


@dataclass(frozen=True)
class _Groups:
    """Score groups of the entrants being paired: group index, place in group, sizes."""

    group: dict[str, int]
    place: dict[str, int]
    size: dict[int, int]

    @classmethod
    def of(cls, ranked: Sequence[str], points: Mapping[str, float]) -> _Groups:
        """Groups by equal points, best group first."""
        levels = sorted({points.get(e, 0.0) for e in ranked}, reverse=True)
        group = {e: levels.index(points.get(e, 0.0)) for e in ranked}
        place: dict[str, int] = {}
        size: dict[int, int] = {}
        for e in ranked:
            place[e] = size.get(group[e], 0)
            size[group[e]] = place[e] + 1
        return cls(group, place, size)

    def order_cost(self, high: str, low: str) -> int:
        """Distance from the Dutch ideal for `high` (ranked above) against `low`."""
        g = self.group[high]
        if g == self.group[low]:
            return abs(self.place[low] - self.place[high] - self.size[g] // 2)
        return (self.size[g] - 1 - self.place[high]) + self.place[low]


def _match(
    ranked: Sequence[str], points: Mapping[str, float], met: set[frozenset[str]], rematches: bool
) -> list[tuple[str, str]] | None:
    """A perfect pairing of an even field of least cost, or None if none exists."""
    costs = _costs(ranked, points, met, rematches)
    top = max(costs.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    graph.add_weighted_edges_from((a, b, top - cost) for (a, b), cost in costs.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < len(ranked):
        return None
    position = {e: i for i, e in enumerate(ranked)}
    pairs = [(a, b) if position[a] < position[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda pair: position[pair[0]])


def _costs(
    ranked: Sequence[str], points: Mapping[str, float], met: set[frozenset[str]], rematches: bool
) -> dict[tuple[str, str], int]:
    """The cost of each allowed pair; weights are scaled so each term outranks the next."""
    groups = _Groups.of(ranked, points)
    n = len(ranked)
    gap_weight = n * n + 1  # more than the order costs of a whole round
    rematch_weight = (n + 1) * (len(groups.size) ** 2 * gap_weight + 2 * n)
    costs = {}
    for i, high in enumerate(ranked):
        for low in ranked[i + 1 :]:
            rematch = frozenset((high, low)) in met
            if rematch and not rematches:
                continue
            gap = groups.group[low] - groups.group[high]
            costs[high, low] = (
                rematch * rematch_weight + gap * gap * gap_weight + groups.order_cost(high, low)
            )
    return costs


def check_hand_pairs(state: SwissState, pairings: Sequence[Sequence[str | None]]) -> list[Pair]:
    """The organizer's pairings as pairs, refused unless every active entrant sits once."""
    pairs = [_hand_pair(p) for p in pairings]
    named = [e for pair in pairs for e in pair if e is not None]
    for entrant in named:
        require(entrant in state.entrants, "unknown_entrant", f"{quoted(entrant)} is not entered.")
        require(entrant not in state.withdrawn, "withdrawn_entrant", f"{entrant} has withdrawn.")
        require(named.count(entrant) == 1, "duplicate_entrant", f"{entrant} is paired twice.")
    missing = [e for e in active(state) if e not in named]
    require(not missing, "missing_entrant", f"Not paired: {', '.join(missing)}.")
    require(sum(p[1] is None for p in pairs) <= 1, "bad_pairing", "At most one bye a round.")
    return pairs


def _hand_pair(pairing: Sequence[str | None]) -> Pair:
    """One hand pairing: two entrants, or one entrant and a bye."""
    named = [e for e in pairing if e is not None]
    require(
        1 <= len(named) <= 2 and len(pairing) <= 2,
        "bad_pairing",
        "A pairing seats two entrants or one with a bye, not "
        f"{', '.join('bye' if e is None else quoted(e) for e in pairing[:3]) or 'nobody'}"
        f"{', …' if len(pairing) > 3 else ''}.",
    )
    require(
        all(isinstance(e, str) for e in named),
        "bad_pairing",
        f"Entrant ids are strings: {quoted(list(pairing))}.",
    )
    return named[0], named[1] if len(named) == 2 else None


FORMAT = Swiss()
