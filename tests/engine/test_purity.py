"""The engine is pure: no Django, Celery or network, no clock, no global random module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN_MODULES = {
    "django", "celery", "rest_framework", "requests", "urllib", "http", "socket",
    "time", "datetime", "secrets", "os", "subprocess", "threading", "asyncio",
}
# Functions of the global random module that draw from its hidden shared state.
GLOBAL_RANDOM = {
    "random", "randint", "randrange", "choice", "choices", "shuffle", "sample",
    "uniform", "seed", "getrandbits", "gauss", "betavariate",
}


def engine_modules() -> list[Path]:
    return sorted(p for p in ENGINE.rglob("*.py") if "tests" not in p.parts)


def offences(source: str) -> list[str]:
    """Forbidden imports, global-random calls and clock reads in one module's source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            root = node.module.split(".")[0]
            if root in FORBIDDEN_MODULES:
                found.append(node.module)
            if root == "random":
                found += [f"random.{a.name}" for a in node.names if a.name in GLOBAL_RANDOM]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr in GLOBAL_RANDOM
        ):
            found.append(f"random.{node.attr}")
    return found


def test_the_engine_has_modules_to_check() -> None:
    assert len(engine_modules()) >= 4


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_engine_module_imports_a_framework_the_clock_or_global_random(path: Path) -> None:
    assert offences(path.read_text()) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from celery import shared_task",
        "import time\nx = time.time()",
        "from datetime import datetime",
        "import random\nrandom.shuffle([1])",
        "from random import choice",
    ],
)
def test_the_checker_catches_each_kind_of_offence(source: str) -> None:
    assert offences(source)


def test_the_checker_allows_a_passed_in_generator() -> None:
    assert offences("import random\ndef f(rng: random.Random): return rng.choice([1])") == []
