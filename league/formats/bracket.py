"""The elimination bracket shared by single and double elimination.

A bracket is a list of nodes in play order. Each node's two slots come from a seed, or
from the winner or the loser of an earlier node. Resolving the nodes against the recorded
results tells, for every node, whether its entrants are known and who went on:

- both slots are active entrants: the node is played (ready until its result is in);
- otherwise it decides itself: a bye (an empty slot) or a withdrawn entrant gives the
  other side the node, and nobody drops out of it to a losers' bracket.

A played node that both sides forfeited (`no_winner`) is a loss for both: like a walkover
both of whose entrants withdrew, it sends nobody on (the next node has an empty slot)
and nobody down to a losers' bracket; both are knocked out there. Where nobody wins the
node deciding first place (a final, a grand final: forfeited by both, or reached by
nobody), nobody ranks first: everyone ranks a place lower. A third-place match nobody
won leaves third place empty the same way: both its entrants rank fourth, those below
them a place lower.

A node that decided itself stays decided when its winner withdraws later: they went on
and may have played on, so the nodes they reached keep them (and their results count).
Each withdrawal keeps such walkovers as they stood (`BracketState.walkovers`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.protocol import quoted
from league.formats.base import (
    FormatError,
    MatchResult,
    OptionSpec,
    Pairing,
    StandingRow,
    check_entrants,
    check_new_entrant,
    check_placements,
    check_withdrawal,
    competition_ranks,
    no_winner,
    read_options,
    require,
    winner_of,
)


@dataclass(frozen=True)
class Seed:
    """A slot filled by the entrant seeded `number` (a bye when there are fewer)."""

    number: int


@dataclass(frozen=True)
class WinnerOf:
    """A slot filled by the winner of an earlier node."""

    node: str


@dataclass(frozen=True)
class LoserOf:
    """A slot filled by the loser of an earlier node."""

    node: str


Source = Seed | WinnerOf | LoserOf


@dataclass(frozen=True)
class Node:
    """One bracket match. `depth` orders those knocked out here (deeper is better)."""

    id: str
    round: int
    stage: str
    label: str
    sources: tuple[Source, Source]
    depth: int
    eliminates: bool = True


@dataclass(frozen=True)
class BracketOptions:
    """Options of both elimination formats (each reads its own)."""

    third_place: bool = False
    grand_final_reset: bool = True


@dataclass(frozen=True)
class BracketState:
    """An elimination event: the field in seed order, its results and withdrawals."""

    entrants: tuple[str, ...]
    options: BracketOptions
    results: Mapping[str, MatchResult] = field(default_factory=dict)
    withdrawn: frozenset[str] = frozenset()
    walkovers: Mapping[str, str | None] = field(default_factory=dict)
    revision: int = 1  # how it pairs (the format's revision it started under)


@dataclass
class Resolution:
    """What the results settle: the slots of each known node, and who won and lost it."""

    slots: dict[str, tuple[str | None, ...]] = field(default_factory=dict)
    winners: dict[str, str | None] = field(default_factory=dict)
    losers: dict[str, str | None] = field(default_factory=dict)

    def is_ready(self, node_id: str) -> bool:
        """Whether the node's entrants are known and it still waits for its result."""
        return node_id in self.slots and node_id not in self.winners


def bracket_size(n: int) -> int:
    """The smallest power of two that holds `n` entrants."""
    return 1 << (n - 1).bit_length()


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order, 1 v size, ... so the top seeds meet last (1, 8, 4, 5, 2, 7, 3, 6)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def round_name(round_: int, rounds: int) -> str:
    """Final, Semifinal, Quarterfinal, or Round N."""
    names = {rounds: "Final", rounds - 1: "Semifinal", rounds - 2: "Quarterfinal"}
    return names.get(round_, f"Round {round_}")


def describe(source: Source) -> str:
    """Where a slot comes from, in words."""
    if isinstance(source, Seed):
        return f"seed {source.number}"
    side = "winner" if isinstance(source, WinnerOf) else "loser"
    return f"{side} of {source.node}"


def resolve(nodes: Sequence[Node], state: BracketState) -> Resolution:
    """Settle the nodes in play order against the state's results and withdrawals."""
    resolution = Resolution()
    for node in nodes:
        _resolve_node(node, state, resolution)
    return resolution


def _value(source: Source, entrants: Sequence[str], res: Resolution) -> tuple[bool, str | None]:
    """(known, entrant or None for an empty slot) of one source."""
    if isinstance(source, Seed):
        return True, entrants[source.number - 1] if source.number <= len(entrants) else None
    table = res.winners if isinstance(source, WinnerOf) else res.losers
    return (True, table[source.node]) if source.node in table else (False, None)


def _resolve_node(node: Node, state: BracketState, res: Resolution) -> None:
    """Settle one node if its slots are known."""
    values = [_value(source, state.entrants, res) for source in node.sources]
    if not all(known for known, _ in values):
        return
    slots = tuple(entrant for _, entrant in values)
    res.slots[node.id] = slots
    result = state.results.get(node.id)
    if result is not None and no_winner(result):
        # Both sides forfeited: a loss for both, passed on as a walkover both of whose
        # entrants withdrew is (an empty slot: the next node is a bye), and nobody drops
        # to a losers' bracket (`_runs` knocks both out here).
        res.winners[node.id] = res.losers[node.id] = None
        return
    if result is not None:
        winner = winner_of(result)
        res.winners[node.id] = winner
        res.losers[node.id] = next(e for e in slots if e != winner)
        return
    if node.id in state.walkovers:
        res.winners[node.id] = state.walkovers[node.id]
        res.losers[node.id] = None
        return
    active = [e for e in slots if e is not None and e not in state.withdrawn]
    if len(active) < 2:
        res.winners[node.id] = active[0] if active else None
        res.losers[node.id] = None


def walkovers_of(res: Resolution, state: BracketState) -> dict[str, str | None]:
    """The settled nodes of two entrants with no result, each to the one who went on
    (None: both had withdrawn); a node with an empty slot is a bye, not a walkover."""
    return {node: winner for node, winner in res.winners.items()
            if node not in state.results and all(res.slots[node])}


def pairing_of(node: Node, res: Resolution) -> Pairing:
    """The node as a pairing; slots not yet known are None, and waiting unless their
    source is known to send nobody (the winner of a match both sides forfeited)."""
    slots = res.slots.get(node.id, (None, None))
    sources = tuple(describe(s) for s in node.sources)
    waiting = () if node.id in res.slots else tuple(
        not _sends_nobody(source, res) for source in node.sources)
    return Pairing(node.id, node.round, slots, node.stage, node.label, sources, waiting)


def _sends_nobody(source: Source, res: Resolution) -> bool:
    """Whether an earlier node is settled with nobody for `source` (no winner, or no
    loser: a bye, a walkover, a match both sides forfeited). A seed's node is never
    waiting: its slots are known from the start."""
    if isinstance(source, Seed):
        return False
    table = res.winners if isinstance(source, WinnerOf) else res.losers
    return source.node in table and table[source.node] is None


class BracketFormat:
    """What single and double elimination share; each lays out its own nodes."""

    key: str = ""
    revision: int = 1
    lives = 1
    options: tuple[OptionSpec, ...] = ()

    def layout(self, state: BracketState) -> tuple[list[Node], Resolution]:
        """The nodes of this event and what the results settle."""
        raise NotImplementedError

    def start(
        self, entrants: Sequence[str], options: Mapping[str, Any] | None = None,
        revision: int | None = None,
    ) -> BracketState:
        """A bracket for `entrants` in seed order; byes go to the top seeds."""
        values = read_options(self.options, options)
        return BracketState(check_entrants(entrants), BracketOptions(**values),
                            revision=self.revision if revision is None else revision)

    def pairings(self, state: BracketState) -> list[Pairing]:
        """Every node laid out so far, with the entrants known."""
        nodes, res = self.layout(state)
        return [pairing_of(node, res) for node in nodes]

    def ready(self, state: BracketState) -> list[Pairing]:
        """Nodes with both entrants known and no result."""
        nodes, res = self.layout(state)
        return [pairing_of(node, res) for node in nodes if res.is_ready(node.id)]

    def record(self, state: BracketState, result: MatchResult) -> BracketState:
        """The state after a result for a ready node; a draw is refused."""
        nodes, res = self.layout(state)
        node_id = result.pairing_id
        require(any(n.id == node_id for n in nodes), "unknown_pairing",
                f"No pairing {quoted(node_id)}.")
        require(
            node_id not in state.results, "already_recorded", f"{node_id} already has a result."
        )
        require(res.is_ready(node_id), "not_ready", f"{node_id} is not ready to be played.")
        check_placements(result, [e for e in res.slots[node_id] if e], draws=False)
        return replace(state, results={**state.results, node_id: result})

    def is_complete(self, state: BracketState) -> bool:
        """Whether every node is decided."""
        nodes, res = self.layout(state)
        return all(node.id in res.winners for node in nodes)

    def withdraw(self, state: BracketState, entrant: str) -> BracketState:
        """The entrant leaves: each node they would play is a walkover from now on."""
        check_withdrawal(state.entrants, state.withdrawn, entrant)
        require(not self.is_complete(state), "event_complete", "The bracket is decided.")
        _, res = self.layout(state)
        settled = {node: winner for node, winner in res.winners.items()
                   if node not in state.results}
        return replace(state, withdrawn=state.withdrawn | {entrant},
                       walkovers={**state.walkovers, **settled})

    def add_entrant(self, state: BracketState, entrant: str) -> BracketState:
        """A late entrant as the lowest seed, only while no result is in."""
        check_new_entrant(state.entrants, entrant)
        require(not state.results, "already_started", "The bracket has started.")
        # Nobody has played: the byes and walkovers are dealt again with the new seed.
        return replace(state, entrants=(*state.entrants, entrant), walkovers={})

    def pair_by_hand(
        self, state: BracketState, pairings: Sequence[Sequence[str | None]]
    ) -> BracketState:
        """Brackets are paired by seed; hand pairing is refused."""
        raise FormatError("not_supported", f"{self.key} pairs by seed, not by hand.")

    def takes_hand_pairings(self, state: BracketState) -> bool:
        return False

    def walkovers(self, state: BracketState) -> dict[str, str | None]:
        """The nodes of two entrants a withdrawal decided, to the one who went on (kept
        when they withdrew in turn, `BracketState.walkovers`); a bye is none."""
        _, res = self.layout(state)
        return walkovers_of(res, state)

    def standings(self, state: BracketState) -> list[StandingRow]:
        """Entrants by how far they went; those knocked out at the same depth share a rank."""
        nodes, res = self.layout(state)
        return bracket_standings(nodes, res, state, self.lives, self.bonus(state, res))

    def bonus(self, state: BracketState, res: Resolution) -> dict[str, int]:
        """Extra depth for some entrants (the third-place winner)."""
        return {}


@dataclass
class _Run:
    """One entrant's way through the bracket."""

    wins: int = 0
    losses: int = 0
    last: Node | None = None
    out: Node | None = None


def _runs(
    nodes: Sequence[Node], res: Resolution, state: BracketState, lives: int
) -> dict[str, _Run]:
    """Each entrant's wins, losses, last node and the node that knocked them out.

    A walkover counts as the points formats count it: a win for the one who went on, a
    loss for the one who had withdrawn (for both where both had), so the record agrees
    with the bracket (a round robin's or Swiss walkover is a win and a loss alike). A
    walkover loss sets no `out`: the withdrawal took them out, not the node, and the
    depth they are ranked by stays where they last stood.
    """
    runs = {e: _Run() for e in state.entrants}
    given = walkovers_of(res, state)
    for node in nodes:
        for entrant in (e for e in res.slots.get(node.id, ()) if e is not None):
            run = runs[entrant]
            run.last = node
            if node.id not in state.results and node.id not in given:
                continue
            won = res.winners[node.id] == entrant
            run.wins += won
            run.losses += not won
            played = node.id in state.results
            # a double forfeit leaves no way on, whatever lives are left
            ends = node.eliminates or run.losses >= lives or (
                played and no_winner(state.results[node.id]))
            if not won and played and run.out is None and ends:
                run.out = node
    return runs


def bracket_standings(
    nodes: Sequence[Node],
    res: Resolution,
    state: BracketState,
    lives: int,
    bonus: Mapping[str, int],
) -> list[StandingRow]:
    """Standings by depth reached: still-in entrants first, then by where they went out."""
    runs = _runs(nodes, res, state, lives)
    onward = {s.node: node for node in nodes for s in node.sources if isinstance(s, WinnerOf)}
    keys = {e: _key(e, run, state, bonus, res, onward) for e, run in runs.items()}
    seed = {e: i for i, e in enumerate(state.entrants)}
    order = sorted(state.entrants, key=lambda e: (tuple(-k for k in keys[e]), seed[e]))
    ranks = competition_ranks([keys[e] for e in order])
    # A node deciding a place that nobody won leaves that place empty: its entrants rank
    # as its loser would, everyone below them a place lower (both finalists second, as the
    # Event page says no champion, not a first place shared; both third-place finalists
    # fourth, with nobody third).
    empty = [1] if _first_vacant(nodes, res, onward) else []
    empty += [ranks[order.index(e)] for e in _third_vacant(nodes, res)[:1]]
    ranks = [r + sum(at <= r for at in empty) for r in ranks]
    return [_row(r, e, runs[e], state) for r, e in zip(ranks, order, strict=True)]


def _first_vacant(nodes: Sequence[Node], res: Resolution, onward: Mapping[str, Node]) -> bool:
    """Whether the node that decides first place (the final, the grand final or its
    reset: the last that sends its winner nowhere, not the third-place match) is settled
    with nobody winning it: both sides forfeited it (`no_winner`), or nobody reached it
    (the matches feeding it were forfeited by both sides in turn)."""
    deciding = [node for node in nodes if node.id not in onward and node.stage != "third_place"]
    return bool(deciding) and deciding[-1].id in res.winners \
        and res.winners[deciding[-1].id] is None


def _third_vacant(nodes: Sequence[Node], res: Resolution) -> tuple[str, ...]:
    """The two entrants of a third-place match settled with nobody winning it (both
    forfeited it, or both had withdrawn); none where it was won, is still to come, or
    holds an empty slot (its one entrant goes on by the bye and takes third)."""
    third = next((node for node in nodes if node.stage == "third_place"), None)
    if third is None or third.id not in res.winners or res.winners[third.id] is not None:
        return ()
    slots = res.slots[third.id]
    return tuple(e for e in slots if e is not None) if all(slots) else ()


def _key(entrant: str, run: _Run, state: BracketState, bonus: Mapping[str, int],
         res: Resolution, onward: Mapping[str, Node]) -> tuple[int, int, int]:
    """(still in, depth, fewer losses): how far the entrant went.

    Depths are laid out so that a node's depth is where its entrants finish at worst (a
    double elimination's winners' round r node is as deep as the losers' round its loser
    drops to). Mid-event an organizer reads the entrants still in by the worst place they
    can still finish: one who won its last node while the next is not laid out yet (its
    other side still playing) stands at that next node's depth, not tied with those still
    to play the node it won; at equal depth fewer losses rank first (the undefeated still
    in the winners' bracket before the once beaten). Those out rank by where they went
    out; the decided standings (one entrant still in, the champion) are as they were.
    """
    node = run.out or run.last
    depth = 2 * node.depth if node else 0
    alive = run.out is None and entrant not in state.withdrawn
    if not alive:
        return 0, depth + bonus.get(entrant, 0), 0
    if node is not None and res.winners.get(node.id) == entrant and node.id in onward:
        depth = 2 * onward[node.id].depth
    return 1, depth + bonus.get(entrant, 0), -run.losses


def _row(rank: int, entrant: str, run: _Run, state: BracketState) -> StandingRow:
    """One standings row of a bracket."""
    withdrawn = entrant in state.withdrawn
    node = run.out or run.last
    return StandingRow(
        rank=rank,
        entrant=entrant,
        points=float(run.wins),
        wins=run.wins,
        draws=0,
        losses=run.losses,
        tiebreaks={},
        eliminated=run.out is not None or withdrawn,
        reached=node.label if node else "",
        withdrawn=withdrawn,
    )
