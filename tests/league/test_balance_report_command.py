"""`manage.py balance_report`: a tiny balance run in-process, written as SVG, Markdown and
the summary JSON."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

NS = "{http://www.w3.org/2000/svg}"


def run(tmp_path: Path, *args: str) -> str:
    out = StringIO()
    call_command("balance_report", *args, "--out", str(tmp_path), stdout=out)
    return out.getvalue()


def test_a_tiny_run_writes_the_plots_the_table_and_the_summary(tmp_path: Path) -> None:
    printed = run(tmp_path, "superstar_showdown", "--matches", "4")
    svg = (tmp_path / "superstar_showdown.svg").read_text()
    markdown = (tmp_path / "superstar_showdown.md").read_text()
    summary = json.loads((tmp_path / "superstar_showdown.json").read_text())
    root = ElementTree.fromstring(svg)
    assert [g.get("class") for g in root if g.tag == f"{NS}g"] == [
        "balance-chart win-rates", "balance-chart lengths", "balance-chart win-rates"]
    assert markdown.startswith("# Balance report: Superstar Showdown")
    assert "![Balance plots](superstar_showdown.svg)" in markdown
    assert "## Superstars against the field" in markdown
    assert summary["matches"] == summary["planned"] == 4
    assert summary["bots"] == ["heuristic", "heuristic"] and summary["balance"] is True
    assert sum(row["games"] for row in summary["by_entity"]) == 8  # two Superstars a match
    assert "4/4 matches" in printed and "wrote" in printed
    # when it was written, for the site's page (the file's own time is its checkout's)
    assert abs(datetime.fromisoformat(summary["written"]) - datetime.now(UTC)) < timedelta(
        minutes=5)


def test_the_same_seed_gives_the_same_report(tmp_path: Path) -> None:
    """And another seed another one: the seed is what decides it."""
    for folder, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        run(tmp_path / folder, "supershow", "--matches", "3", "--seed", seed)
    first, second, other = (json.loads((tmp_path / d / "supershow.json").read_text())
                            for d in ("a", "b", "c"))
    keys = ("by_seat", "by_entity", "first_player", "length")
    assert all(first[key] == second[key] for key in keys)
    assert any(first[key] != other[key] for key in keys)


def test_a_game_without_entities_gets_no_entity_plot(tmp_path: Path) -> None:
    run(tmp_path, "ultimate_showdown", "--matches", "1")
    root = ElementTree.fromstring((tmp_path / "ultimate_showdown.svg").read_text())
    assert [g.get("class") for g in root if g.tag == f"{NS}g"] == [
        "balance-chart lengths", "balance-chart win-rates"]
    assert "against the field" not in (tmp_path / "ultimate_showdown.md").read_text()


@pytest.mark.parametrize(("args", "refusal"), [
    (["--seats", "9"], "[bad_seat_count] The Supershow takes 2-6 seats, not 9."),
    # 0 seats ran the game's fewest, and -1 was refused as 0 seats.
    (["--seats", "0"], "[bad_seat_count] The Supershow takes 2-6 seats, not 0."),
    (["--seats", "-1"], "[bad_seat_count] The Supershow takes 2-6 seats, not -1."),
    (["--matches", "0"], "[bad_matches]"),
    (["--seed", "-1"], "[bad_seed]"),
])
def test_a_run_that_cannot_happen_is_refused_with_its_code_and_writes_nothing(
        tmp_path: Path, args: list[str], refusal: str) -> None:
    with pytest.raises(CommandError) as refused:
        run(tmp_path, "supershow", *args)
    assert str(refused.value).startswith(refusal)
    assert not list(tmp_path.iterdir())


def test_a_run_of_one_match_says_one_match_in_its_files_and_its_output(tmp_path: Path) -> None:
    printed = run(tmp_path, "super_showdown", "--matches", "1")
    markdown = (tmp_path / "super_showdown.md").read_text()
    root = ElementTree.fromstring((tmp_path / "super_showdown.svg").read_text())
    subtitle = [el.text for el in root.iter(f"{NS}text")][1]
    assert printed.startswith("Super Showdown: 1 match, 2 heuristic seats\n")
    assert subtitle == "1 match, heuristic on both seats"
    assert "\n1 match of 1 planned, heuristic on both seats." in markdown
    assert "matches" not in printed.splitlines()[0] + subtitle


def test_without_out_the_files_go_to_balance_report_dir(tmp_path: Path, settings: Any) -> None:
    """A container's code is read-only: the command wrote under it unless given --out, and
    failed there. BALANCE_REPORT_DIR says where (compose and the image: under /tmp)."""
    settings.BALANCE_REPORT_DIR = tmp_path / "reports"
    out = StringIO()
    call_command("balance_report", "superstar_showdown", "--matches", "1", stdout=out)
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == [
        "superstar_showdown.json", "superstar_showdown.md", "superstar_showdown.svg"]
    assert f"wrote {tmp_path / 'reports'}" in out.getvalue()
