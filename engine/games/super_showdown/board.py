"""The city grid: squares, starting spaces, Powerboosts, movement and the Mayhem square."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

Square = tuple[int, int]  # (column, row), both counted from 1 like the die faces
DIE_FACES = 6
STEPS = 2
POWERBOOST_STEPS = 3


class BoardDataError(ValueError):
    """A board file that does not follow the schema; names the file and field."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        super().__init__(f"{source}: field {field!r}: {problem}")
        self.source, self.field, self.problem = source, field, problem


def manhattan(a: Square, b: Square) -> int:
    """Orthogonal distance between two squares."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@dataclass(frozen=True)
class Board:
    """A validated city grid (SU-07)."""

    width: int
    height: int
    hero_start: Square
    villain_start: Square
    powerboosts: frozenset[Square]

    def contains(self, square: Square) -> bool:
        """Whether a square is on the grid."""
        return 1 <= square[0] <= self.width and 1 <= square[1] <= self.height

    def step_limit(self, square: Square) -> int:
        """'If you begin your move on a Powerboost space, move up to 3.'"""
        return POWERBOOST_STEPS if square in self.powerboosts else STEPS

    def neighbours(self, square: Square) -> list[Square]:
        """The orthogonal neighbours on the grid ('No diagonal movement')."""
        x, y = square
        around = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        return [sq for sq in around if self.contains(sq)]

    def reachable(self, start: Square, nemesis: Square | None) -> tuple[Square, ...]:
        """Every square one move can end on, staying put included, sorted.

        Moving into the nemesis' space ends all movement, so no path goes through it.
        """
        return _reachable(self, start, nemesis)

    @staticmethod
    def mayhem(white_face: int, green_face: int) -> Square:
        """The white die names the column, the green die the row; Mayhem is the crossing."""
        return (white_face, green_face)

    def to_json(self) -> dict[str, Any]:
        """The board as views show it."""
        return {
            "width": self.width,
            "height": self.height,
            "starts": {"hero": list(self.hero_start), "villain": list(self.villain_start)},
            "powerboosts": [list(sq) for sq in sorted(self.powerboosts)],
        }


@lru_cache(maxsize=4096)
def _reachable(board: Board, start: Square, nemesis: Square | None) -> tuple[Square, ...]:
    """Breadth-first search up to the step limit, stopping at the nemesis."""
    seen = {start}
    frontier = [start]
    for _ in range(board.step_limit(start)):
        step: list[Square] = []
        for square in frontier:
            if square == nemesis:
                continue
            for nxt in board.neighbours(square):
                if nxt not in seen:
                    seen.add(nxt)
                    step.append(nxt)
        frontier = step
    return tuple(sorted(seen))


def _square(value: Any, field: str, source: str) -> Square:
    """A [column, row] pair on a 6x6 grid."""
    ok = (
        isinstance(value, list) and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and all(1 <= v <= DIE_FACES for v in value)
    )
    if not ok:
        raise BoardDataError(source, field, f"must be [column, row] within 1-{DIE_FACES}")
    return (value[0], value[1])


def parse_board(data: Any, source: str) -> Board:
    """Validate parsed YAML into a Board; builds nothing on any fault."""
    if not isinstance(data, Mapping):
        raise BoardDataError(source, "(top)", "must be a mapping")
    for name in ("width", "height"):
        # One column per white die face and one row per green die face.
        if data.get(name) != DIE_FACES:
            raise BoardDataError(source, name, f"must be {DIE_FACES}, one per die face")
    starts = data.get("starts")
    if not isinstance(starts, Mapping):
        raise BoardDataError(source, "starts", "needs 'hero' and 'villain' squares")
    hero = _square(starts.get("hero"), "starts.hero", source)
    villain = _square(starts.get("villain"), "starts.villain", source)
    if hero == villain:
        raise BoardDataError(source, "starts", "the two starting spaces must differ")
    boosts = data.get("powerboosts", [])
    if not isinstance(boosts, list):
        raise BoardDataError(source, "powerboosts", "must be a list of squares")
    squares = frozenset(_square(sq, "powerboosts", source) for sq in boosts)
    return Board(DIE_FACES, DIE_FACES, hero, villain, squares)


def load_board(path: Path | None = None) -> Board:
    """Load a board file (by default the package's own `data/board.yaml`)."""
    if path is None:
        source = "board.yaml"
        text = resources.files(__package__ or __name__).joinpath("data", source).read_text("utf-8")
    else:
        source, text = path.name, path.read_text("utf-8")
    return parse_board(yaml.safe_load(text), source)


BOARD: Board = load_board()
