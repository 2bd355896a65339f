"""Single elimination: standard seeding, byes to the top seeds, an optional third-place match.

Node ids: `W{round}-{match}` (the final is the last round's `W{r}-1`) and `3P` for the
third-place match between the semifinal losers. Losers of the same round share a rank,
except that the third-place match splits the semifinal losers.
"""

from __future__ import annotations

from league.formats.base import OptionKind, OptionSpec
from league.formats.bracket import (
    BracketFormat,
    BracketState,
    LoserOf,
    Node,
    Resolution,
    Seed,
    Source,
    WinnerOf,
    bracket_size,
    resolve,
    round_name,
    seed_order,
)

STAGE = "bracket"
THIRD_PLACE = "3P"  # the third-place match's node id


def winners_nodes(n: int) -> list[Node]:
    """The rounds of a knockout bracket for `n` seeds, the final last."""
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    order = seed_order(size)
    nodes: list[Node] = []
    for round_ in range(1, rounds + 1):
        for match in range(1, size // 2**round_ + 1):
            sources = _sources(round_, match, order)
            label = _label(round_, match, rounds, size // 2**round_)
            nodes.append(Node(f"W{round_}-{match}", round_, STAGE, label, sources, round_))
    return nodes


def _sources(round_: int, match: int, order: list[int]) -> tuple[Source, Source]:
    """Seeds in round 1, the winners of the two feeding matches after that."""
    if round_ == 1:
        return Seed(order[2 * match - 2]), Seed(order[2 * match - 1])
    return WinnerOf(f"W{round_ - 1}-{2 * match - 1}"), WinnerOf(f"W{round_ - 1}-{2 * match}")


def _label(round_: int, match: int, rounds: int, count: int) -> str:
    """ "Semifinal 2", "Final", "Round 1 match 3"."""
    name = round_name(round_, rounds)
    if count == 1:
        return name
    return f"{name} {match}" if name != f"Round {round_}" else f"{name} match {match}"


def third_place_node(nodes: list[Node]) -> Node | None:
    """The match between the semifinal losers, when the bracket has semifinals."""
    rounds = nodes[-1].round
    if rounds < 2:
        return None
    semis = (LoserOf(f"W{rounds - 1}-1"), LoserOf(f"W{rounds - 1}-2"))
    return Node(THIRD_PLACE, rounds, "third_place", "Third-place match", semis, depth=rounds - 1)


class SingleElimination(BracketFormat):
    """Knockout: one loss and out."""

    key: str = "single_elimination"
    lives = 1
    options: tuple[OptionSpec, ...] = (
        OptionSpec("third_place", OptionKind.BOOL, False, "Play a match for third place."),
    )

    def layout(self, state: BracketState) -> tuple[list[Node], Resolution]:
        """The winners' rounds, then the third-place match if asked for."""
        nodes = winners_nodes(len(state.entrants))
        third = third_place_node(nodes) if state.options.third_place else None
        nodes += [third] if third else []
        return nodes, resolve(nodes, state)

    def bonus(self, state: BracketState, res: Resolution) -> dict[str, int]:
        """The third-place winner (walkovers too) ranks above the third-place loser."""
        winner = res.winners.get(THIRD_PLACE)
        return {winner: 1} if winner else {}


FORMAT = SingleElimination()
