"""The balance report builder: a simulation summary -> SVG plots, report figures, Markdown."""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree

import pytest

from league import balance_report

NS = "{http://www.w3.org/2000/svg}"


def entity(key: str, rate: float, *, name: str | None = None, games: int = 600,
           half: float = 0.04, kind: str = "superstar") -> dict[str, Any]:
    return {"key": key, "name": name or key.capitalize(), "kind": kind, "games": games,
            "points": rate * games, "rate": rate, "low": max(0.0, rate - half),
            "high": min(1.0, rate + half)}


def seat(index: int, rate: float, games: int = 1000) -> dict[str, Any]:
    return {"seat": index, "bot": "heuristic", "games": games, "wins": int(rate * games),
            "draws": 0, "points": rate * games, "rate": rate, "low": rate - 0.03,
            "high": rate + 0.03}


def summary(entities: list[dict[str, Any]] | None = None, seats: int = 2,
            **extra: Any) -> dict[str, Any]:
    """A finished balance run of `seats` heuristic seats."""
    fair = 1 / seats
    return {
        "game": "superstar_showdown", "bots": ["heuristic"] * seats, "options": {},
        "balance": True, "matches": 1000, "planned": 1000,
        "by_seat": [seat(i, fair) for i in range(seats)],
        "by_entity": entities if entities is not None else [
            entity("oakhart", 0.48), entity("skylark", 0.61), entity("abbot", 0.52)],
        "first_player": {"rate": fair + 0.02, "low": fair - 0.01, "high": fair + 0.05,
                         "fair": fair},
        "length": {"mean": 64.2, "min": 15, "max": 160,
                   "histogram": [[20, 40], [40, 300], [60, 350], [80, 200], [160, 110]]},
        "seconds": 40.0, "matches_per_second": 25.0, **extra,
    }


def parse(markup: str) -> ElementTree.Element:
    return ElementTree.fromstring(markup)  # raises on markup that is not well-formed


def of_class(root: ElementTree.Element, cls: str) -> list[ElementTree.Element]:
    return [el for el in root.iter() if cls in (el.get("class") or "").split()]


def texts(root: ElementTree.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text")]


def entity_svg(data: dict[str, Any]) -> ElementTree.Element:
    chart = balance_report.entity_chart(data)
    assert chart is not None
    return parse(chart.svg())


def test_the_entity_chart_is_an_svg_with_one_bar_and_dot_per_entity() -> None:
    root = entity_svg(summary())
    assert root.tag == f"{NS}svg"
    assert len(of_class(root, "bar")) == 3
    assert len(of_class(root, "dot")) == 3
    assert len(of_class(root, "row")) == 3


def test_each_entity_has_an_interval_whisker_with_two_caps_around_its_dot() -> None:
    root = entity_svg(summary())
    rows = of_class(root, "row")
    for row in rows:
        (whisker,) = of_class(row, "whisker")
        caps = of_class(row, "cap")
        (dot,) = of_class(row, "dot")
        low, high = float(whisker.get("x1", 0)), float(whisker.get("x2", 0))
        assert low < float(dot.get("cx", 0)) < high
        assert sorted(float(c.get("x1", 0)) for c in caps) == [low, high]


def test_entities_are_drawn_best_first_and_the_one_above_58_percent_in_red() -> None:
    root = entity_svg(summary())
    labels = ["".join(el.itertext()) for el in of_class(root, "label")]
    assert labels == ["Skylark", "Abbot", "Oakhart"]
    high = of_class(root, "row-high")
    assert len(high) == 1
    assert "Skylark" in "".join(high[0].itertext())


def test_the_fair_line_and_the_58_percent_goal_line_cross_the_entity_plot() -> None:
    root = entity_svg(summary())
    (fair,) = of_class(root, "fair-line")
    (goal,) = of_class(root, "goal-line")
    assert "".join(fair.itertext()) == "fair 50%"
    assert "".join(goal.itertext()) == "goal 58%"
    fair_x = float(fair.find(f"{NS}line").get("x1", 0))  # type: ignore[union-attr]
    goal_x = float(goal.find(f"{NS}line").get("x1", 0))  # type: ignore[union-attr]
    skylark = next(r for r in of_class(root, "row") if "Skylark" in "".join(r.itertext()))
    (dot,) = of_class(skylark, "dot")
    assert fair_x < goal_x < float(dot.get("cx", 0))  # 50% < 58% < 61%


def test_names_are_escaped_in_labels_and_tooltips() -> None:
    evil = entity("evil", 0.5, name='<script>alert("x")</script> & Co')
    chart = balance_report.entity_chart(summary([evil]))
    assert chart is not None
    markup = chart.svg()
    assert "<script>" not in markup
    assert "&lt;script&gt;" in markup and "&amp; Co" in markup
    root = parse(markup)
    tip = of_class(root, "dot")[0].find(f"{NS}title")
    assert tip is not None and '<script>alert("x")</script> & Co' in (tip.text or "")


def test_a_long_name_is_shortened_on_the_plot_but_whole_in_its_tooltip() -> None:
    name = "Professor Ingrid Quillfeather of the Long Title"
    root = entity_svg(summary([entity("quill", 0.5, name=name)]))
    (label,) = of_class(root, "label")
    assert label.text is not None and label.text.endswith("\u2026") and len(label.text) < len(name)
    tip = of_class(root, "dot")[0].find(f"{NS}title")
    assert tip is not None and name in (tip.text or "")


def test_a_game_without_entities_has_no_entity_plot_but_the_other_two() -> None:
    data = summary([])
    assert balance_report.entity_chart(data) is None
    assert [c.cls for c in balance_report.report_charts(data)] == [
        "balance-chart lengths", "balance-chart win-rates"]


def test_the_histogram_has_one_bar_per_bin_scaled_to_its_count_and_marks_the_mean() -> None:
    chart = balance_report.length_chart(summary())
    assert chart is not None
    root = parse(chart.svg())
    bins = of_class(root, "bin")
    assert len(bins) == 5
    heights = [float(b.get("height", 0)) for b in bins]
    assert heights.index(max(heights)) == 2  # the 350-match bin
    assert heights[0] < heights[4] < heights[3]
    (mean,) = of_class(root, "mean-line")
    assert "".join(mean.itertext()) == "mean 64"


@pytest.mark.parametrize(("least", "histogram", "spans"), [
    # Lengths 15-40 in bins of ten (`simulation.histogram`: inclusive upper bounds).
    (15, [[24, 3], [34, 5], [44, 1]], ["15\u201324", "25\u201334", "35\u201344"]),
    (194, [[194, 12], [195, 0], [196, 2]], ["194", "195", "196"]),
    (7, [[7, 3]], ["7"]),
])
def test_each_histogram_bar_names_the_lengths_it_holds(least: int, histogram: list[list[int]],
                                                       spans: list[str]) -> None:
    """A bar's span began at the bound before it: 14-24 for lengths 15-24, and the bar of
    matches 25-34 long also named 24."""
    data = summary()
    data["length"] = {"mean": float(least), "min": least, "max": histogram[-1][0],
                      "histogram": histogram}
    chart = balance_report.length_chart(data)
    assert chart is not None
    titles = ["".join(b.itertext()) for b in of_class(parse(chart.svg()), "bin")]
    assert titles == [f"{span} events: {count:,} matches"
                      for span, (_, count) in zip(spans, histogram, strict=True)]


def test_the_histograms_count_axis_says_it_counts_matches() -> None:
    """Its ticks (0, 100, 200...) read as nothing in particular on their own."""
    chart = balance_report.length_chart(summary())
    assert chart is not None
    root = parse(chart.svg())
    (label,) = of_class(root, "axis-label")
    assert "".join(label.itertext()) == "matches"
    assert label.get("transform", "").startswith("rotate(-90 ")
    ticks = [t for t in of_class(root, "tick") if t.get("text-anchor") == "end"]
    assert ticks and all(float(label.get("x", 0)) < float(t.get("x", 0)) - 20 for t in ticks)


def test_no_bins_means_no_histogram() -> None:
    data = summary()
    data["length"] = {"mean": 0.0, "min": 0, "max": 0, "histogram": []}
    assert balance_report.length_chart(data) is None


def test_the_seat_chart_has_a_row_per_seat_and_the_fair_share_line_but_no_goal() -> None:
    chart = balance_report.seat_chart(summary(seats=6))
    assert chart is not None
    root = parse(chart.svg())
    labels = ["".join(el.itertext()) for el in of_class(root, "label")]
    assert labels == [f"Seat {i} \u00b7 heuristic" for i in range(1, 7)]
    assert len(of_class(root, "whisker")) == 6
    (fair,) = of_class(root, "fair-line")
    assert "".join(fair.itertext()) == "fair 16.7%"
    assert not of_class(root, "goal-line")


def test_with_more_seats_the_goal_is_the_same_multiple_of_the_fair_share() -> None:
    assert balance_report.goal_for(0.5) == pytest.approx(0.58)
    assert balance_report.goal_for(1 / 6) == pytest.approx(0.58 / 3, abs=1e-4)
    data = balance_report.report_data(summary([entity("a", 0.2, kind="legend")], seats=6))
    assert data["above_goal"] and data["kind_plural"] == "Legends"


def test_report_data_flags_above_the_goal_and_clearly_above_it() -> None:
    rows = [entity("close", 0.585, half=0.03), entity("clear", 0.65, half=0.03),
            entity("fine", 0.58, half=0.03)]
    data = balance_report.report_data(summary(rows), "Superstar Showdown")
    flags = {r["key"]: (r["above_goal"], r["clearly_above_goal"]) for r in data["entities"]}
    assert flags == {"clear": (True, True), "close": (True, False), "fine": (False, False)}
    assert [r["key"] for r in data["above_goal"]] == ["clear", "close"]
    assert data["title"] == "Superstar Showdown" and data["kind_title"] == "Superstar"


def test_the_report_file_is_one_svg_holding_every_plot() -> None:
    root = parse(balance_report.report_svg(summary(), "Superstar Showdown"))
    groups = [el.get("class") for el in root if el.tag == f"{NS}g"]
    assert groups == ["balance-chart win-rates", "balance-chart lengths",
                      "balance-chart win-rates"]
    assert "Balance report: Superstar Showdown" in texts(root)
    assert len(of_class(root, "goal-line")) == 1


def test_the_markdown_lists_entities_by_rate_with_the_verdict_and_escapes_pipes() -> None:
    rows = [entity("oak", 0.48, name="Oak | Hart"), entity("sky", 0.62, half=0.02)]
    text = balance_report.report_markdown(summary(rows), "Superstar Showdown", "x.svg")
    assert text.startswith("# Balance report: Superstar Showdown\n")
    assert "![Balance plots](x.svg)" in text
    assert "Goal: no Superstar above 58%. **Above it: Sky (62.0%).**" in text
    table = [line for line in text.splitlines()
             if line.startswith("| ") and not line.startswith("| ---")]
    assert table[1].startswith("| Sky | `sky` | 600 | 62.0% | 60.0%\u201364.0% | **above goal**")
    assert table[2].startswith("| Oak \\| Hart | `oak` |")
    assert "| 1 | heuristic | 1,000 |" in text
    assert "whoever makes the first decision wins 52.0%" in text


def test_a_game_whose_seats_open_at_once_has_no_first_player_line() -> None:
    both = summary(first_player={"rate": 0.0, "low": 0.0, "high": 1.0, "fair": 0.5,
                                 "games": 0})
    text = balance_report.report_markdown(both)
    assert "No first player" in text and "whoever makes the first decision" not in text


def test_the_markdown_says_so_when_nothing_is_above_the_goal() -> None:
    text = balance_report.report_markdown(summary([entity("a", 0.5)]))
    assert "None is above it." in text
    assert "## Superstars against the field" in text


@pytest.mark.parametrize(("game", "kind"), [
    ("superstar_showdown", "superstar"), ("supershow", "competitor"),
    ("royal_rumble", "legend")])
def test_the_shipped_card_sets_meet_the_balance_goal_in_their_shipped_report(
        game: str, kind: str) -> None:
    """Issue #9: no Superstar, Competitor or Legend above the goal in benchmarks/reports/
    (Super Showdown's Hero and Villain are the rules' sides, not a card set; Ultimate
    Showdown's Contenders are shared by every seat)."""
    from pathlib import Path

    shipped = Path(__file__).resolve().parents[2] / "benchmarks" / "reports" / f"{game}.json"
    summary = json.loads(shipped.read_text(encoding="utf-8"))
    report = balance_report.report_data(summary)
    assert summary["game"] == game and summary["matches"] == summary["planned"] >= 6000
    assert {row["kind"] for row in summary["by_entity"]} == {kind}
    assert report["above_goal"] == [], [(r["key"], r["rate"]) for r in report["above_goal"]]


def test_a_report_of_one_match_says_one_match_and_of_many_says_matches() -> None:
    one = summary(matches=1, planned=1)
    root = parse(balance_report.report_svg(one, "Superstar Showdown"))
    assert "1 match, heuristic on both seats" in texts(root)
    assert "\n1 match of 1 planned, " in balance_report.report_markdown(one)
    assert "\n1,000 matches of 1,000 planned, " in balance_report.report_markdown(summary())
