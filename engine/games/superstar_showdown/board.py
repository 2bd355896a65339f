"""The ring as data: `data/ring.yaml`, loaded and validated once at import (SS-013)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from engine.protocol import JSON

Square = tuple[int, int]  # (row, column), both from 0
Direction = tuple[int, int]
ORTHOGONAL: tuple[Direction, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
ALL_DIRECTIONS: tuple[Direction, ...] = (
    (-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1),
)


class Kind(StrEnum):
    """What a square is."""

    RING = "ring"
    ROPES = "ropes"
    TURNBUCKLE = "turnbuckle"
    OUTSIDE = "outside"


_CHARS: Mapping[str, Kind] = {
    ".": Kind.RING, "R": Kind.RING, "B": Kind.RING,
    "=": Kind.ROPES, "+": Kind.TURNBUCKLE,
    "_": Kind.OUTSIDE, "r": Kind.OUTSIDE, "b": Kind.OUTSIDE,
}
_STARTS = ("R", "B")  # seat 0 is Red, seat 1 is Blue
_ZONES = ("r", "b")


class BoardDataError(ValueError):
    """A ring file that does not follow the schema; names the file and field."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        super().__init__(f"{source}: field {field!r}: {problem}")
        self.source, self.field, self.problem = source, field, problem


def step(square: Square, direction: Direction, times: int = 1) -> Square:
    """The square `times` steps away in a direction."""
    return (square[0] + direction[0] * times, square[1] + direction[1] * times)


def orthogonally_adjacent(a: Square, b: Square) -> bool:
    """Side by side, not diagonally (Attacks, Pins)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def near(a: Square, b: Square) -> bool:
    """Within one square in any direction, sharing a square included (Throws)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1


@dataclass(frozen=True)
class Board:
    """A validated ring: every square's kind, the starting stars, the Tag Zones."""

    rows: int
    cols: int
    kinds: tuple[tuple[Kind, ...], ...]
    starts: tuple[Square, Square]
    tag_zones: tuple[frozenset[Square], frozenset[Square]]
    bounce: Mapping[Square, Direction]  # each Ropes square: 'directly away' from it

    def on_grid(self, square: Square) -> bool:
        """Whether the square exists."""
        return 0 <= square[0] < self.rows and 0 <= square[1] < self.cols

    def kind(self, square: Square) -> Kind:
        """The square's kind (the square must be on the grid)."""
        return self.kinds[square[0]][square[1]]

    def in_ring(self, square: Square) -> bool:
        """Ring canvas, Ropes and Turnbuckles are in the ring; the floor is not (SS-013)."""
        return square in self.ring

    @functools.cached_property
    def ring(self) -> frozenset[Square]:
        """Every square in the ring (`in_ring`), for a membership test in a hot loop."""
        return frozenset((r, c) for r, row in enumerate(self.kinds)
                         for c, kind in enumerate(row) if kind is not Kind.OUTSIDE)

    @functools.cached_property
    def turnbuckles(self) -> frozenset[Square]:
        """Every Turnbuckle square."""
        return frozenset((r, c) for r, row in enumerate(self.kinds)
                         for c, kind in enumerate(row) if kind is Kind.TURNBUCKLE)

    def neighbours(self, square: Square) -> list[Square]:
        """The up to eight squares one step away (moves go any direction, SS-053)."""
        return [sq for d in ALL_DIRECTIONS if self.on_grid(sq := step(square, d))]

    @functools.cached_property
    def _kind_names(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(str(k) for k in row) for row in self.kinds)

    def to_json(self) -> JSON:
        """The grid as views draw it."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "squares": [list(row) for row in self._kind_names],
            "kinds": [str(k) for k in Kind],
            "starts": [list(sq) for sq in self.starts],
            "tag_zones": [sorted(list(sq) for sq in zone) for zone in self.tag_zones],
        }


def _bounce_direction(kinds: list[list[Kind]], square: Square, source: str) -> Direction:
    """The one orthogonal direction from a Ropes square into the ring, away from the floor."""
    rows, cols = len(kinds), len(kinds[0])

    def inside(sq: Square) -> bool:
        return 0 <= sq[0] < rows and 0 <= sq[1] < cols and kinds[sq[0]][sq[1]] is not Kind.OUTSIDE

    found = [d for d in ORTHOGONAL if inside(step(square, d)) and not inside(step(square, d, -1))]
    if len(found) != 1:
        raise BoardDataError(source, f"rows[{square[0]}][{square[1]}]",
                             "a Ropes square needs exactly one side facing the floor")
    return found[0]


def parse_board(data: Any, source: str) -> Board:
    """Validate parsed YAML into a Board; builds nothing on any fault."""
    if not isinstance(data, Mapping) or not isinstance(data.get("rows"), list) or not data["rows"]:
        raise BoardDataError(source, "rows", "the file needs a non-empty 'rows' list")
    lines = data["rows"]
    if not all(isinstance(line, str) and line for line in lines):
        raise BoardDataError(source, "rows", "every row must be a non-empty string")
    width = len(lines[0])
    kinds: list[list[Kind]] = []
    starts: dict[str, list[Square]] = {c: [] for c in _STARTS}
    zones: dict[str, set[Square]] = {c: set() for c in _ZONES}
    for r, line in enumerate(lines):
        if len(line) != width:
            raise BoardDataError(source, f"rows[{r}]", f"must have {width} squares like row 0")
        row: list[Kind] = []
        for c, char in enumerate(line):
            if char not in _CHARS:
                raise BoardDataError(source, f"rows[{r}][{c}]", f"unknown square {char!r}")
            row.append(_CHARS[char])
            if char in starts:
                starts[char].append((r, c))
            if char in zones:
                zones[char].add((r, c))
        kinds.append(row)
    for char, found in starts.items():
        if len(found) != 1:
            raise BoardDataError(source, "rows", f"needs exactly one {char!r} starting star")
    for char, zone in zones.items():
        if not zone:
            raise BoardDataError(source, "rows", f"needs a {char!r} Tag Zone")
    bounce = {
        (r, c): _bounce_direction(kinds, (r, c), source)
        for r, row in enumerate(kinds) for c, kind in enumerate(row) if kind is Kind.ROPES
    }
    return Board(
        rows=len(kinds), cols=width,
        kinds=tuple(tuple(row) for row in kinds),
        starts=(starts["R"][0], starts["B"][0]),
        tag_zones=(frozenset(zones["r"]), frozenset(zones["b"])),
        bounce=MappingProxyType(bounce),
    )


def load_board(path: Path | None = None) -> Board:
    """Load a ring file (by default the package's own `data/ring.yaml`)."""
    if path is None:
        source = "ring.yaml"
        text = resources.files(__package__ or __name__).joinpath("data", source).read_text("utf-8")
    else:
        source, text = path.name, path.read_text("utf-8")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise BoardDataError(source, "(yaml)", f"is not valid YAML: {error}") from None
    return parse_board(data, source)


BOARD: Board = load_board()
