"""The format package is pure: no Django, no I/O, no clock, no global random module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

FORMATS = Path(__file__).resolve().parents[3] / "league" / "formats"
FORBIDDEN = {
    "django",
    "celery",
    "rest_framework",
    "requests",
    "urllib",
    "http",
    "socket",
    "time",
    "datetime",
    "secrets",
    "os",
    "subprocess",
    "threading",
    "asyncio",
    "random",
    "pathlib",
}


def modules() -> list[Path]:
    return sorted(FORMATS.glob("*.py"))


def imported_roots(source: str) -> set[str]:
    """The top-level packages a module imports."""
    roots = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_there_are_modules_to_check() -> None:
    assert len(modules()) >= 10


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.name)
def test_no_format_module_imports_a_framework_the_clock_io_or_random(path: Path) -> None:
    assert imported_roots(path.read_text()) & FORBIDDEN == set()
