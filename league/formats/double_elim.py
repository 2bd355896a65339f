"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

Node ids: `W{round}-{match}` in the winners' bracket, `L{round}-{match}` in the losers'
bracket, `GF` and, when the losers'-bracket entrant wins the grand final, `GF-reset`.

The losers' bracket of a bracket with k winners' rounds has 2k - 2 rounds. Round 1 pairs
the losers of winners' round 1; every even round takes the survivors against the losers
dropping from the next winners' round; every odd round after the first halves the field.
Drops alternate so that entrants do not meet again at once: winners' round r losers
come down in reverse order when r is even and with the two halves swapped when r is odd.

Ranks: champion, runner-up, then by the losers' round in which an entrant went out
(losers of the same round share a rank).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from league.formats.base import OptionKind, OptionSpec
from league.formats.bracket import (
    BracketFormat,
    BracketState,
    LoserOf,
    Node,
    Resolution,
    Source,
    WinnerOf,
    bracket_size,
    resolve,
)
from league.formats.single_elim import winners_nodes


def drop_order(round_: int, matches: int) -> list[int]:
    """Which winners' match each losers' slot takes its dropper from, in slot order."""
    order = list(range(1, matches + 1))
    if round_ % 2 == 0:
        return order[::-1]
    half = matches // 2
    return order[half:] + order[:half]


def winners_side(n: int) -> list[Node]:
    """The winners' bracket: its losers drop instead of going out."""
    nodes = winners_nodes(n)
    rounds = nodes[-1].round
    return [
        replace(
            node,
            stage="winners",
            label=_winners_label(node, rounds),
            depth=max(1, 2 * node.round - 2),
            eliminates=False,
        )
        for node in nodes
    ]


def _winners_label(node: Node, rounds: int) -> str:
    """ "Winners final" or "Winners round 2 match 1"."""
    if node.round == rounds:
        return "Winners final"
    return f"Winners round {node.round} match {node.id.split('-')[1]}"


def losers_side(n: int) -> list[Node]:
    """The losers' bracket, round by round."""
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    if rounds < 2:
        return []
    nodes = _losers_round(
        1, [(LoserOf(f"W1-{2 * i - 1}"), LoserOf(f"W1-{2 * i}")) for i in range(1, size // 4 + 1)]
    )
    for wround in range(2, rounds + 1):
        nodes += _drop_round(wround, nodes)
        if wround < rounds:
            nodes += _halving_round(2 * wround - 1, nodes)
    last = 2 * rounds - 2
    return [replace(n, label="Losers final") if n.round == last else n for n in nodes]


def _losers_round(round_: int, pairs: Sequence[tuple[Source, Source]]) -> list[Node]:
    """One losers' round from its pairs of sources."""
    return [
        Node(f"L{round_}-{i}", round_, "losers", f"Losers round {round_} match {i}", pair, round_)
        for i, pair in enumerate(pairs, start=1)
    ]


def _drop_round(wround: int, nodes: list[Node]) -> list[Node]:
    """Survivors of the previous losers' round against the losers of winners' round `wround`."""
    prev = [n for n in nodes if n.round == 2 * wround - 3]
    order = drop_order(wround, len(prev))
    pairs = [(WinnerOf(p.id), LoserOf(f"W{wround}-{w}")) for p, w in zip(prev, order, strict=True)]
    return _losers_round(2 * wround - 2, pairs)


def _halving_round(round_: int, nodes: list[Node]) -> list[Node]:
    """The survivors of the previous losers' round, paired off."""
    prev = [n for n in nodes if n.round == round_ - 1]
    pairs = [(WinnerOf(a.id), WinnerOf(b.id)) for a, b in zip(prev[::2], prev[1::2], strict=True)]
    return _losers_round(round_, pairs)


def grand_final(n: int, reset: bool) -> Node:
    """The winners' champion against the losers' champion."""
    rounds = bracket_size(n).bit_length() - 1
    losers_champion = WinnerOf(f"L{2 * rounds - 2}-1") if rounds >= 2 else LoserOf("W1-1")
    sources = (WinnerOf(f"W{rounds}-1"), losers_champion)
    return Node(
        "GF", 1, "grand_final", "Grand final", sources, 2 * rounds - 1, eliminates=not reset
    )


def reset_node(final: Node) -> Node:
    """The second grand final, played when the losers'-bracket entrant wins the first."""
    sources = (LoserOf("GF"), WinnerOf("GF"))
    return Node("GF-reset", 2, "grand_final", "Grand final reset", sources, final.depth)


class DoubleElimination(BracketFormat):
    """Two losses and out; the grand final may be reset."""

    key: str = "double_elimination"
    lives = 2
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "grand_final_reset",
            OptionKind.BOOL,
            True,
            "Play a second grand final when the losers'-bracket entrant wins the first.",
        ),
    )

    def layout(self, state: BracketState) -> tuple[list[Node], Resolution]:
        """Both brackets and the grand final, plus the reset once it is needed."""
        n = len(state.entrants)
        final = grand_final(n, state.options.grand_final_reset)
        nodes = [*winners_side(n), *losers_side(n), final]
        res = resolve(nodes, state)
        if state.options.grand_final_reset and _losers_side_won(state, res):
            nodes.append(reset_node(final))
            res = resolve(nodes, state)
        return nodes, res

    def bonus(self, state: BracketState, res: Resolution) -> dict[str, int]:
        """No extra depth: the grand final decides first and second."""
        return {}


def _losers_side_won(state: BracketState, res: Resolution) -> bool:
    """Whether the grand final was played and won by the losers'-bracket entrant."""
    return "GF" in state.results and res.winners["GF"] == res.slots["GF"][1]


FORMAT = DoubleElimination()
