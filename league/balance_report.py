"""Balance reports: a simulation summary turned into plots (SVG) and report figures.

Pure: the input is the summary a balance simulation produces (`league.simulation`), a
plain dict; nothing here reads the database or the clock. The same figures feed the
report page, the `<game>.svg` file and the `<game>.md` table that
`manage.py balance_report` writes.

Three plots: each Superstar's (Competitor's, Legend's) win rate against the field with its
95% interval, the fair line and the goal line; the match length histogram; the win rate
by seat with the fair share. Built like `league.svg`'s charts (plain markup strings,
every name escaped), but the SVG carries its own colours and fonts (presentation
attributes, not the site's stylesheet), so the written file looks the same as the page.

The goal (issue #9): no Superstar or Competitor above 58% against the field in a
two-seat game, i.e. 1.16 times the fair share; with more seats the report holds entities
to the same multiple of their fair share.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

GOAL = 0.58
GOAL_RATIO = GOAL / 0.5  # the goal as a multiple of the fair share

WIDTH = 640
LABEL_W = 214
VALUE_W = 54
ROW_H = 22
HEAD_H = 42
AXIS_H = 30
NAME_CHARS = 32
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

INK = "#1f2937"
MUTED = "#6b7280"
GRID = "#e5e7eb"
BAR = "#93c5fd"
BAR_HIGH = "#fca5a5"
DOT = "#1d4ed8"
DOT_HIGH = "#b91c1c"
FAIR = "#4b5563"
GOAL_INK = "#dc2626"
HIST = "#60a5fa"


@dataclass(frozen=True)
class Chart:
    """One plot before it becomes a document: its body, height, title and class."""

    body: str
    height: float
    title: str
    cls: str

    def svg(self) -> str:
        """The plot as a standalone <svg> document."""
        return _svg(WIDTH, self.height, self.title, self.cls, self.body)


KIND_TITLES = {"superstar": "Superstar", "competitor": "Competitor", "legend": "Legend"}


# -- report figures -----------------------------------------------------------------------

def fair_share(summary: Mapping[str, Any]) -> float:
    """1 / seats: the first-player block's own figure, else from the seat rows."""
    fair = (summary.get("first_player") or {}).get("fair")
    if fair:
        return float(fair)
    seats = len(summary.get("by_seat") or ()) or 2
    return 1 / seats


def goal_for(fair: float) -> float:
    """58% in a two-seat game; the same multiple of the fair share with more seats."""
    return round(GOAL_RATIO * fair, 4)


def kind_title(kind: str, plural: bool = False) -> str:
    """"Superstar", "Competitors"...: the entity word the tables and plots use."""
    word = KIND_TITLES.get(kind, kind.replace("_", " ").capitalize() or "Entity")
    return word + "s" if plural else word


def goal_text(fair: float) -> str:
    """How the goal reads: "58%", or how it scales with more seats."""
    goal = goal_for(fair)
    if abs(fair - 0.5) < 1e-9:
        return short_percent(goal)
    return (f"{short_percent(goal)} ({GOAL_RATIO:.2f} \u00d7 the fair share of "
            f"{short_percent(fair)}, as 58% is at two seats)")


def report_data(summary: Mapping[str, Any], title: str | None = None) -> dict[str, Any]:
    """What the page and the Markdown table show, with entities sorted by rate (best first),
    `above_goal` set on each one whose win rate is above the goal and `clearly_above_goal`
    on those whose whole interval is."""
    fair = fair_share(summary)
    goal = goal_for(fair)
    entities = [{**row, "above_goal": float(row["rate"]) > goal,
                 "clearly_above_goal": float(row["low"]) > goal}
                for row in summary.get("by_entity") or ()]
    entities.sort(key=lambda row: (-float(row["rate"]), str(row.get("name", row["key"]))))
    kinds = sorted({str(row.get("kind", "")) for row in entities})
    kind = kinds[0] if len(kinds) == 1 else ""
    return {
        "game": summary["game"],
        "title": title or summary["game"],
        "bots": list(summary.get("bots") or ()),
        "options": dict(summary.get("options") or {}),
        "matches": int(summary.get("matches", 0)),
        "planned": int(summary.get("planned", summary.get("matches", 0))),
        "seats": list(summary.get("by_seat") or ()),
        "entities": entities,
        "kind": kind,
        "kind_title": kind_title(kind) if kind else "Entity",
        "kind_plural": kind_title(kind, plural=True) if kind else "Entities",
        "above_goal": [row for row in entities if row["above_goal"]],
        "first_player": dict(summary.get("first_player") or {}),
        "length": dict(summary.get("length") or {}),
        "fair": fair,
        "goal": goal,
        "goal_text": goal_text(fair),
        "seconds": summary.get("seconds"),
        "matches_per_second": summary.get("matches_per_second"),
    }


def bots_text(bots: Sequence[str]) -> str:
    """"heuristic on all 6 seats", or the bots seat by seat when they differ."""
    if len(bots) == 2 and bots[0] == bots[1]:
        return f"{bots[0]} on both seats"
    if bots and len(set(bots)) == 1:
        return f"{bots[0]} on all {len(bots)} seats"
    return ", ".join(bots)


def counted(n: int, one: str, many: str) -> str:
    """1 -> "1 match", 2,000 -> "2,000 matches": a count with its noun agreeing."""
    return f"{n:,} {one if n == 1 else many}"


def percent(value: float, digits: int = 1) -> str:
    """0.5462 -> "54.6%"."""
    return f"{100 * value:.{digits}f}%"


def short_percent(value: float) -> str:
    """50% or 16.7%: a whole percent without decimals."""
    return percent(value, 0 if abs(value * 100 - round(value * 100)) < 1e-6 else 1)


# -- plots --------------------------------------------------------------------------------

def _short(text: str, most: int = NAME_CHARS) -> str:
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def _text(x: float, y: float, body: str, *, size: int = 11, fill: str = INK,
          anchor: str = "start", weight: str = "normal", cls: str = "",
          rotate: int = 0) -> str:
    klass = f' class="{cls}"' if cls else ""
    turn = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate else ""
    return (f'<text{klass}{turn} x="{x:.1f}" y="{y:.1f}" font-family="{FONT}" font-size="{size}" '
            f'fill="{fill}" text-anchor="{anchor}" font-weight="{weight}">{body}</text>')


def _svg(width: float, height: float, title: str, cls: str, body: str) -> str:
    w, h = math.ceil(width), math.ceil(height)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" role="img" '
            f'width="{w}" height="{h}" viewBox="0 0 {w} {h}"><title>{escape(title)}</title>'
            f'<rect width="{w}" height="{h}" fill="#ffffff"/>{body}</svg>')


def _rate_axis(rows: Sequence[Mapping[str, Any]], marks: Sequence[float]) -> tuple[float, float]:
    """The x range: every interval and marked line inside, on whole tenths, within 0-1."""
    values = [float(v) for row in rows for v in (row["low"], row["high"], row["rate"])]
    values.extend(marks)
    low = max(0.0, math.floor(min(values) * 10 - 1e-9) / 10)
    high = min(1.0, math.ceil(max(values) * 10 + 1e-9) / 10)
    return low, max(high, low + 0.1)


def _rate_ticks(low: float, high: float) -> list[float]:
    step = 0.05 if high - low <= 0.3 + 1e-9 else 0.1
    count = round((high - low) / step)
    return [low + i * step for i in range(count + 1)]


def interval_chart(rows: Sequence[Mapping[str, Any]], *, labels: Sequence[str],
                   title: str, fair: float, goal: float | None = None) -> Chart | None:
    """Win rates as a horizontal chart, one row each: a bar from the fair line to the rate,
    the 95% interval as a whisker with end caps, a dot at the rate; the fair line and (when
    given) the goal line across. Rows above the goal are drawn in red."""
    if not rows:
        return None
    marks = [fair] + ([goal] if goal is not None else [])
    low, high = _rate_axis(rows, marks)
    plot_x = LABEL_W
    plot_w = WIDTH - LABEL_W - VALUE_W - 8
    top = HEAD_H
    plot_h = ROW_H * len(rows)

    def px(v: float) -> float:
        return plot_x + plot_w * (min(max(v, low), high) - low) / (high - low)

    parts = [_text(4, 18, escape(title), size=13, weight="bold", cls="chart-title")]
    for tick in _rate_ticks(low, high):
        x = px(tick)
        parts.append(f'<line class="grid" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" '
                     f'y2="{top + plot_h}" stroke="{GRID}" stroke-width="1"/>')
        parts.append(_text(x, top + plot_h + 14, percent(tick, 0), size=10, fill=MUTED,
                           anchor="middle", cls="tick"))
    for i, (row, label) in enumerate(zip(rows, labels, strict=True)):
        parts.append(_interval_row(row, label, top + i * ROW_H, px, fair, goal))
    parts.append(_vline(px(fair), top, plot_h, FAIR, "fair-line", f"fair {short_percent(fair)}",
                        "end"))
    if goal is not None:
        parts.append(_vline(px(goal), top, plot_h, GOAL_INK, "goal-line",
                            f"goal {short_percent(goal)}", "start"))
    return Chart("".join(parts), top + plot_h + AXIS_H, title, "balance-chart win-rates")


def _interval_row(row: Mapping[str, Any], label: str, y: float,
                  px: Callable[[float], float], fair: float, goal: float | None) -> str:
    """One row: label, bar, whisker with caps, dot and the rate in figures."""
    rate, lo, hi = float(row["rate"]), float(row["low"]), float(row["high"])
    high = goal is not None and rate > goal
    mid = y + ROW_H / 2
    x0, x1 = sorted((px(fair), px(rate)))
    tip = (f"{escape(label)}: {percent(rate)} (95% interval {percent(lo)}\u2013{percent(hi)}), "
           f"{int(row.get('games', 0)):,} games")
    parts = [
        f'<g class="row{" row-high" if high else ""}">',
        _text(LABEL_W - 8, mid + 4, escape(_short(label)), anchor="end", cls="label"),
        f'<rect class="bar" x="{x0:.1f}" y="{y + 5:.1f}" width="{max(x1 - x0, 1):.1f}" '
        f'height="{ROW_H - 10}" fill="{BAR_HIGH if high else BAR}"/>',
        f'<line class="whisker" x1="{px(lo):.1f}" y1="{mid:.1f}" x2="{px(hi):.1f}" '
        f'y2="{mid:.1f}" stroke="{INK}" stroke-width="1.5"/>',
        f'<line class="cap" x1="{px(lo):.1f}" y1="{mid - 4:.1f}" x2="{px(lo):.1f}" '
        f'y2="{mid + 4:.1f}" stroke="{INK}" stroke-width="1.5"/>',
        f'<line class="cap" x1="{px(hi):.1f}" y1="{mid - 4:.1f}" x2="{px(hi):.1f}" '
        f'y2="{mid + 4:.1f}" stroke="{INK}" stroke-width="1.5"/>',
        f'<circle class="dot" cx="{px(rate):.1f}" cy="{mid:.1f}" r="4" '
        f'fill="{DOT_HIGH if high else DOT}"><title>{tip}</title></circle>',
        _text(WIDTH - 4, mid + 4, percent(rate), anchor="end",
              fill=DOT_HIGH if high else INK, weight="bold" if high else "normal", cls="value"),
        "</g>",
    ]
    return "".join(parts)


def _vline(x: float, top: float, height: float, colour: str, cls: str, label: str,
           anchor: str) -> str:
    """A dashed line across the plot, labelled above it on one side."""
    dx = -3 if anchor == "end" else 3
    return (f'<g class="{cls}"><line x1="{x:.1f}" y1="{top - 8}" x2="{x:.1f}" '
            f'y2="{top + height:.1f}" stroke="{colour}" stroke-width="1.5" '
            f'stroke-dasharray="5 3"/>'
            f'{_text(x + dx, top - 10, escape(label), size=10, fill=colour, anchor=anchor)}</g>')


def seat_label(row: Mapping[str, Any]) -> str:
    """"Seat 1 · heuristic" (seats are numbered from 1 for people)."""
    bot = row.get("bot")
    return f"Seat {int(row['seat']) + 1}" + (f" \u00b7 {bot}" if bot else "")


def entity_chart(summary: Mapping[str, Any]) -> Chart | None:
    """Each entity's win rate against the field, best first; None for a game without any."""
    data = report_data(summary)
    rows = data["entities"]
    labels = [str(row.get("name") or row["key"]) for row in rows]
    title = f"Win rate by {data['kind_title']} against the field (95% intervals)"
    return interval_chart(rows, labels=labels, title=title, fair=data["fair"],
                          goal=data["goal"])


def seat_chart(summary: Mapping[str, Any]) -> Chart | None:
    """The win rate of each seat with its interval and the fair share."""
    rows = list(summary.get("by_seat") or ())
    return interval_chart(rows, labels=[seat_label(row) for row in rows],
                          title="Win rate by seat (95% intervals)", fair=fair_share(summary))


def length_chart(summary: Mapping[str, Any]) -> Chart | None:
    """The match length histogram ([upper bound, count] bins, drawn equally wide) with the
    mean marked; None when there are no bins."""
    length = summary.get("length") or {}
    bins = [(float(upper), int(count)) for upper, count in length.get("histogram") or ()]
    if not bins:
        return None
    uppers = [upper for upper, _ in bins]
    first_w = uppers[1] - uppers[0] if len(uppers) > 1 else max(uppers[0] - float(
        length.get("min", 0)), 1.0)
    lowers = [uppers[0] - first_w, *uppers[:-1]]
    ticks = _count_ticks(max(count for _, count in bins))
    most = ticks[-1]
    left, right, top, plot_h = 56, WIDTH - 16, HEAD_H, 150
    bar_w = (right - left) / len(bins)

    def px(value: float) -> float:
        for i, (lo, hi) in enumerate(zip(lowers, uppers, strict=True)):
            if value <= hi or i == len(bins) - 1:
                share = (value - lo) / (hi - lo) if hi > lo else 0.5
                return left + bar_w * (i + min(max(share, 0.0), 1.0))
        return right

    parts = [_text(4, 18, "Match length (events per match)", size=13, weight="bold",
                   cls="chart-title"),
             # The title names the length axis; the count axis says what it counts.
             _text(14, top + plot_h / 2, "matches", size=10, fill=MUTED, anchor="middle",
                   cls="axis-label", rotate=-90)]
    for tick in ticks:
        y = top + plot_h * (1 - tick / most)
        parts.append(f'<line class="grid" x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" '
                     f'stroke="{GRID}" stroke-width="1"/>')
        parts.append(_text(left - 6, y + 4, f"{tick:,.0f}", size=10, fill=MUTED,
                           anchor="end", cls="tick"))
    every = max(1, math.ceil(len(bins) / 10))
    for i, ((upper, count), lower) in enumerate(zip(bins, lowers, strict=True)):
        h = plot_h * count / most
        x = left + i * bar_w
        parts.append(f'<rect class="bin" x="{x + 1:.1f}" y="{top + plot_h - h:.1f}" '
                     f'width="{max(bar_w - 2, 1):.1f}" height="{h:.1f}" fill="{HIST}">'
                     f"<title>{_bin_span(lower, upper)} events: {count:,} matches</title></rect>")
        if i == 0:
            parts.append(_text(x, top + plot_h + 14, f"{lower:g}", size=10, fill=MUTED,
                               anchor="middle", cls="tick"))
        if (i + 1) % every == 0 or i == len(bins) - 1:
            parts.append(_text(x + bar_w, top + plot_h + 14, f"{upper:g}", size=10,
                               fill=MUTED, anchor="middle", cls="tick"))
    if "mean" in length:
        mean = float(length["mean"])
        parts.append(_vline(px(mean), top, plot_h, FAIR, "mean-line", f"mean {mean:.0f}",
                            "start"))
    return Chart("".join(parts), top + plot_h + AXIS_H, "Match length",
                 "balance-chart lengths")


def _bin_span(lower: float, upper: float) -> str:
    """The lengths a bin holds, in words: a bin runs from above the one before it (its
    `lower`) to its upper bound, both whole numbers of events."""
    first = lower + 1
    return f"{upper:g}" if first >= upper else f"{first:g}\u2013{upper:g}"


def _count_ticks(most: int) -> list[int]:
    """Round y-axis counts from 0 to at least `most`, four steps or fewer."""
    raw = max(most / 4, 1)
    scale = 10 ** math.floor(math.log10(raw))
    step = next(int(m * scale) for m in (1, 2, 5, 10) if m * scale >= raw)
    return list(range(0, math.ceil(max(most, 1) / step) * step + 1, step))


def report_charts(summary: Mapping[str, Any]) -> list[Chart]:
    """The plots this summary has, in page order (an empty one is left out)."""
    charts = [entity_chart(summary), length_chart(summary), seat_chart(summary)]
    return [chart for chart in charts if chart is not None]


def report_plots(summary: Mapping[str, Any]) -> list[str]:
    """Each plot as its own <svg> document, for the page."""
    return [chart.svg() for chart in report_charts(summary)]


def report_svg(summary: Mapping[str, Any], title: str | None = None) -> str:
    """Every plot stacked in one SVG document: the `<game>.svg` file."""
    heading = f"Balance report: {title or summary['game']}"
    matches = int(summary.get("matches", 0))
    bots = bots_text(summary.get("bots") or ())
    parts = [_text(4, 20, escape(heading), size=16, weight="bold"),
             _text(4, 38, escape(f"{counted(matches, 'match', 'matches')}, {bots}"), size=11, fill=MUTED)]
    y = 48.0
    for chart in report_charts(summary):
        parts.append(f'<g class="{chart.cls}" transform="translate(0 {y:.0f})">'
                     f"{chart.body}</g>")
        y += chart.height + 12
    return _svg(WIDTH, y, heading, "balance-report", "".join(parts))


# -- the Markdown table -------------------------------------------------------------------

def _md(text: Any) -> str:
    """A table cell: pipes and line breaks would break the row."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _interval(row: Mapping[str, Any]) -> str:
    return f"{percent(float(row['low']))}\u2013{percent(float(row['high']))}"


def report_markdown(summary: Mapping[str, Any], title: str | None = None,
                    plots: str | None = None) -> str:
    """The figures as Markdown: entities by rate (flagged above the goal), seats, the
    first-player advantage and match lengths; `plots` names the SVG file to link."""
    data = report_data(summary, title)
    seats = len(data["seats"]) or round(1 / data["fair"])
    lines = [f"# Balance report: {_md(data['title'])}", ""]
    options = ", ".join(f"`{k}`: `{v}`" for k, v in sorted(data["options"].items()))
    lines.append(f"{counted(int(data['matches']), 'match', 'matches')} of "
                 f"{data['planned']:,} planned, "
                 f"{bots_text(data['bots']) or f'{seats} seats'}"
                 + (f"; options {options}" if options else "") + ". "
                 "Intervals are 95%; a draw counts as a share of the win.")
    lines.append("")
    if plots:
        lines += [f"![Balance plots]({plots})", ""]
    if data["entities"]:
        lines += _entity_table(data)
    lines += [f"## By seat (fair share {short_percent(data['fair'])})", "",
              "| seat | bot | games | wins | draws | win rate | 95% interval |",
              "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    lines += [f"| {int(row['seat']) + 1} | {_md(row.get('bot', ''))} | {int(row['games']):,} | "
              f"{int(row.get('wins', 0)):,} | {int(row.get('draws', 0)):,} | "
              f"{percent(float(row['rate']))} | {_interval(row)} |" for row in data["seats"]]
    first = data["first_player"]
    if first and first.get("games") == 0:
        lines += ["", "No first player: every seat makes the opening decision at once."]
    elif first:
        lines += ["", "First-player advantage: whoever makes the first decision wins "
                      f"{percent(float(first['rate']))} ({_interval(first)}) against a fair "
                      f"share of {short_percent(float(first.get('fair', data['fair'])))}."]
    length = data["length"]
    if length:
        lines += ["", f"Match length: mean {float(length['mean']):.1f} events, "
                      f"shortest {length['min']:g}, longest {length['max']:g}."]
    if data["seconds"] and data["matches_per_second"]:
        lines += ["", f"Simulated in {float(data['seconds']):,.1f} s of processor time "
                      f"({float(data['matches_per_second']):.1f} matches/s)."]
    return "\n".join(lines) + "\n"


def _entity_table(data: Mapping[str, Any]) -> list[str]:
    """The entity rows, best first, with the verdict on the goal above them."""
    word, plural = data["kind_title"], data["kind_plural"]
    high = data["above_goal"]
    verdict = ("**Above it: " + ", ".join(
        f"{_md(row.get('name') or row['key'])} ({percent(float(row['rate']))})"
        for row in high) + ".**") if high else "None is above it."
    lines = [f"## {plural} against the field", "",
             f"Goal: no {word} above {data['goal_text']}. {verdict}", "",
             f"| {word} | key | games | win rate | 95% interval | |",
             "| --- | --- | ---: | ---: | --- | --- |"]
    lines += [f"| {_md(row.get('name') or row['key'])} | `{_md(row['key'])}` | "
              f"{int(row['games']):,} | {percent(float(row['rate']))} | {_interval(row)} | "
              f"{_flag(row)} |" for row in data["entities"]]
    return [*lines, ""]


def _flag(row: Mapping[str, Any]) -> str:
    if row["clearly_above_goal"]:
        return "**above goal** (whole interval)"
    return "above goal (the interval reaches below it)" if row["above_goal"] else ""
