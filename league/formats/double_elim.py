"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

Node ids: `W{round}-{match}` in the winners' bracket, `L{round}-{match}` in the losers'
bracket, `GF` and, when the losers'-bracket entrant wins the grand final, `GF-reset`.

The losers' bracket of a bracket with k winners' rounds has 2k - 2 rounds. Round 1 pairs
the losers of winners' round 1; every even round takes the survivors against the losers
dropping from the next winners' round; every odd round after the first halves the field.
Drops are ordered so that entrants do not meet again in the losers' bracket for as long
as the bracket's size allows. Winners' round r losers come down by a move built from the
bits of r - 1: bit 0 reverses the order, bit 1 swaps the two halves, bit 2 the quarters
within each half, and so on. Rounds 2 and 3 come down reversed and with the halves
swapped, round 4 reversed within each half (2, 1, 4, 3 of four), round 5 with the quarters
of each half swapped. A round with fewer matches than its number drops as revision 1 does:
by then a rematch can no longer be kept out (a bracket of 64 keeps losers' rounds 1-6 free
of them, one of 128 rounds 1-7, and one of 32 or fewer is laid out as before).

Revision 1 (an Event started under it) drops winners' round r losers in reverse order when
r is even and with the two halves swapped when r is odd; from 64 entrants on, winners'
round 4 losers can then meet in losers' round 6 someone they beat in winners' round 2.

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


def drop_order(round_: int, matches: int, revision: int = 2) -> list[int]:
    """Which winners' match each losers' slot takes its dropper from, in slot order."""
    # A match of losers' round 2r - 2 can be kept free of rematches while r * 2^r seeds fit
    # in the bracket (matches * 2^r of them): r <= matches.
    if revision >= 2 and round_ <= matches:
        mask = drop_mask(round_, matches)
        return [(slot ^ mask) + 1 for slot in range(matches)]
    order = list(range(1, matches + 1))
    if round_ % 2 == 0:
        return order[::-1]
    half = matches // 2
    return order[half:] + order[:half]


def drop_mask(round_: int, matches: int) -> int:
    """The drop of winners' round `round_` (revision 2) as a mask on 0-based slot numbers:
    bit 0 of round_ - 1 reverses the order, bit j >= 1 swaps the 2^j parts pairwise (1: the
    halves, 2: the quarters within each half). Rounds 1 to 2^p (round 1 pairs in order,
    mask 0) differ in their top p bits, so the drops that meet in a losers' match come from
    parts of the bracket apart from each other for as long as it has parts enough."""
    mask = 0
    for bit in range((round_ - 1).bit_length()):
        if (round_ - 1) >> bit & 1:
            mask ^= matches - 1 if bit == 0 else matches >> bit
    return mask


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


def losers_side(n: int, revision: int = 2) -> list[Node]:
    """The losers' bracket, round by round, dropped as `revision` drops it."""
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    if rounds < 2:
        return []
    nodes = _losers_round(
        1, [(LoserOf(f"W1-{2 * i - 1}"), LoserOf(f"W1-{2 * i}")) for i in range(1, size // 4 + 1)]
    )
    for wround in range(2, rounds + 1):
        nodes += _drop_round(wround, nodes, revision)
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


def _drop_round(wround: int, nodes: list[Node], revision: int) -> list[Node]:
    """Survivors of the previous losers' round against the losers of winners' round `wround`."""
    prev = [n for n in nodes if n.round == 2 * wround - 3]
    order = drop_order(wround, len(prev), revision)
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
    # 2: winners' rounds 4 on drop so that no losers' round meets again before it must
    revision: int = 2
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
        nodes = [*winners_side(n), *losers_side(n, state.revision), final]
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
