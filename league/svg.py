"""Server-made SVG: an Event's bracket diagram and a player's rating chart.

Both are plain strings of markup built from already-computed data (pairings, results,
rating history); nothing here reads the database. Every text that came from a person
(entrant names) is escaped.

The bracket is drawn section by section (one per stage: the bracket, the winners' and
losers' sides, the grand final, groups, heats...), each with its rounds in columns. A box
whose slot comes from "winner of X" in the same section is centred between its feeders
and joined to them by connector lines; boxes without feeders (round robin, Swiss, heats)
simply stack down their round's column, which makes a round-by-round grid.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from league.formats import outcomes

# Drawn 1:1 on a phone (site.css), where every text is 14px: a box holds NAME_CHARS of a name
# in bold, PENDING_CHARS of "Winner of Quarterfinal 2" and LABEL_CHARS of a label a line
# (bold when live), in a font as wide as DejaVu Sans (7-9px a character).
BOX_W = 190
LINE_H = 24
LABEL_H = 20  # a one-line label above its box; each further line adds LABEL_LINE
LABEL_LINE = 17
LABEL_LINES = 2
GAP_X = 30
GAP_Y = 12
HEAD_H = 24
SECTION_GAP = 18
NAME_CHARS = 19
PENDING_CHARS = 24
LABEL_CHARS = 22
LIVE_WORDS = "Playing now"  # under a live match's entrants
WALKOVER_WORDS = ("walkover", "w/o")  # by a walkover's winner: whole where the name leaves room
WALKOVER_TITLE = "won by walkover"

SECTION_TITLES = {
    "bracket": "",
    "winners": "Winners bracket",
    "losers": "Losers bracket",
    "grand_final": "Grand final",
    "third_place": "Third place",
}

PALETTE = ("#2f5bd3", "#d9480f", "#2b8a3e", "#9c36b5", "#c92a2a", "#0b7285")


# -- bracket ------------------------------------------------------------------------------

@dataclass
class _Line:
    text: str
    kind: str  # "entrant", "pending" or "bye"
    place: int | None = None
    withdrawn: bool = False
    key: str | None = None
    won: bool = False  # its side alone took first place (a tag team's pair: both lines)
    walkover: bool = False  # won unplayed: the one a withdrawal left in the match


@dataclass
class _Box:
    id: str
    round: int
    stage: str
    label: str
    lines: list[_Line]
    feeders: list[str]
    href: str | None
    state: str  # "done", "live", "waiting" or "bye"
    shown: list[str] = field(default_factory=list)  # the label's lines as drawn
    x: float = 0.0
    y: float = 0.0
    listed: bool = False  # the page lists its match with a link of its own

    @property
    def label_h(self) -> float:
        return LABEL_H + LABEL_LINE * (len(self.shown) - 1) if self.shown else LABEL_H

    @property
    def rows(self) -> int:
        """Its lines, and under them a live match's "Playing now"."""
        return len(self.lines) + (self.state == "live")

    @property
    def height(self) -> float:
        return self.label_h + LINE_H * self.rows + 2


@dataclass
class _Section:
    stage: str
    boxes: list[_Box] = field(default_factory=list)
    top: float = 0.0
    height: float = 0.0


def section_title(stage: str) -> str:
    """"Losers bracket", "Group A", "Playoff"; none for a plain bracket."""
    if stage in SECTION_TITLES:
        return SECTION_TITLES[stage]
    text = stage.replace("_", " ")
    return text[:1].upper() + text[1:]


def _source_ref(source: str) -> tuple[str, str] | None:
    """("winner"|"loser", pairing id) of a source like "winner of W1-2"."""
    for side in ("winner", "loser"):
        prefix = f"{side} of "
        if source.startswith(prefix):
            return side, source[len(prefix):]
    return None


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 21st...: a place, never to be read as a score."""
    tail = "th" if place % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(
        place % 10, "th")
    return f"{place}{tail}"


def _short(text: str, most: int = NAME_CHARS) -> str:
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def _wrapped(text: str, most: int, lines: int) -> list[str]:
    """`text` in at most `lines` lines of at most `most` characters, broken between words
    but never before a number ("Winners round 12" over "match 16"; a word longer than a
    line is cut); what the last line cannot hold ends in "…"."""
    out: list[str] = []
    words = re.split(r" +(?!\d)", text.strip())
    while words and len(out) < lines - 1:
        line = words.pop(0)
        while words and len(line) + 1 + len(words[0]) <= most:
            line += " " + words.pop(0)
        if len(line) > most:
            words.insert(0, line[most - 1:])
            line = line[: most - 1] + "-"
        out.append(line)
    if words:
        out.append(_short(" ".join(words), most))
    return out


# Labels drawn whole under their heading: "Final" alone, under "Winners bracket" or
# "Losers bracket", reads as the Event's final, which is the grand final's.
WHOLE_LABELS = frozenset({"Winners final", "Losers final"})


def label_lines(label: str, stage: str) -> list[str]:
    """A match's label as drawn above its box: without what the heading of its section
    says already ("Group A, Round 10 match 6" under "Group A": "Round 10 match 6";
    "Winners round 1 match 1" under "Winners bracket": "Round 1 match 1"; WHOLE_LABELS
    keep theirs), in lines that fit the box ("The grand showdown of" over "the whole
    summer season")."""
    title = section_title(stage)
    said = [f"{title}, "] if title else []
    if title.endswith(" bracket"):  # a side of a double elimination
        said.append(title.removesuffix("bracket"))
    if label in WHOLE_LABELS:
        said = []
    for prefix in said:
        if label.startswith(prefix) and len(label) > len(prefix):
            rest = label[len(prefix):]
            label = rest[:1].upper() + rest[1:]
            break
    return _wrapped(label, LABEL_CHARS, LABEL_LINES)


def _lines(pairing: Any, names: Mapping[str, str], placements: Mapping[str, int] | None,
           labels: Mapping[str, str], onward: Mapping[str, str], withdrawn: set[str],
           dropped: Mapping[str, str] | None = None) -> list[_Line]:
    """One line per slot: the entrant, "bye", or where the entrant will come from.

    A slot the format knows nobody will fill (`Pairing.waiting`) is a bye: a seed beyond
    the field, the loser of a bye or a walkover, the winner of a match nobody was in,
    nobody won (both sides forfeited) or both sides withdrew from. Who a decided match
    sends on is already known (`onward`: the winner of a bye, a walkover or a played
    match; `dropped`: the loser of a played match), where the format names a slot only
    once the whole pairing is known.
    """
    sources = tuple(pairing.sources) + ("",) * (len(pairing.slots) - len(pairing.sources))
    # (a pairing the format has settled lists none: its empty slots wait for nobody)
    waits = tuple(pairing.waiting) + (False,) * (len(pairing.slots) - len(pairing.waiting))
    lines = []
    for slot, source, waiting in zip(pairing.slots, sources, waits, strict=False):
        if slot is not None:
            place = placements.get(slot) if placements else None
            lines.append(_Line(names.get(slot, slot), "entrant", place, slot in withdrawn, slot))
            continue
        ref = _source_ref(source)
        sent = (onward if ref[0] == "winner" else dropped or {}) if ref else {}
        if ref and ref[1] in sent:
            key = sent[ref[1]]
            lines.append(_Line(names.get(key, key), "entrant", None, key in withdrawn, key))
        elif source.startswith("seed ") or (ref and not waiting):
            lines.append(_Line("bye", "bye"))
        elif ref:
            text = f"{ref[0].capitalize()} of {labels.get(ref[1], ref[1])}"
            if len(text) > PENDING_CHARS:
                text = f"{ref[0].capitalize()} of {ref[1]}"
            lines.append(_Line(text, "pending"))
        elif any(other is not None for other in pairing.slots):
            lines.append(_Line("bye", "bye"))  # a round robin or Swiss bye has no source
        else:
            lines.append(_Line("to be decided", "pending"))
    return lines


def _boxes(pairings: Sequence[Any], names: Mapping[str, str],
           results: Mapping[str, Mapping[str, int]], links: Mapping[str, str],
           withdrawn: set[str], sides: Mapping[str, Mapping[str, int]],
           ended: Mapping[str, str | None]) -> list[_Box]:
    labels = {p.id: p.label or p.id for p in pairings}
    onward: dict[str, str] = {}  # pairing id -> the one entrant it sends on (its winner)
    dropped: dict[str, str] = {}  # pairing id -> the one entrant it sends on as its loser
    boxes = []
    for p in pairings:  # in play order: a pairing's feeders come before it
        lines = _lines(p, names, results.get(p.id), labels, onward, withdrawn, dropped)
        placed = {line.key: line.place for line in lines if line.key and line.place is not None}
        won = outcomes(placed, sides.get(p.id))
        for line in lines:
            line.walkover = line.key is not None and line.key == ended.get(p.id)
            line.won = line.key is not None and (won.get(line.key) == "win" or line.walkover)
        winners = [line.key for line in lines if line.won and line.key]
        if len(winners) == 1 and (p.id in results or p.id in ended):
            # Decided (played, or a walkover): its winner is known where it goes next.
            onward[p.id] = winners[0]
            losers = [key for key in placed if key != winners[0]]
            if p.id in results and len(losers) == 1:
                dropped[p.id] = losers[0]
        present = [line.key for line in lines if line.kind == "entrant" and line.key]
        if any(line.kind == "bye" for line in lines) and len(present) == 1 and all(
                line.kind != "pending" for line in lines):
            onward[p.id] = present[0]
        feeders = [ref[1] for ref in map(_source_ref, p.sources) if ref and ref[0] == "winner"]
        if p.id in results or p.id in ended:
            state = "done"
        elif p.id in links:
            state = "live"
        elif any(line.kind == "bye" for line in lines):
            state = "bye"
        else:
            state = "waiting"
        label = p.label or p.id
        boxes.append(_Box(p.id, p.round, p.stage, label, lines, feeders, links.get(p.id),
                          state, label_lines(label, p.stage)))
    return boxes


def known_slots(pairings: Sequence[Any], results: Mapping[str, Mapping[str, int]],
                ended: Mapping[str, str | None] | None = None,
                sides: Mapping[str, Mapping[str, int]] | None = None
                ) -> dict[str, tuple[str | None, ...]]:
    """Each pairing's slots as the diagram names them (`bracket_svg`'s arguments): the
    entrant the format seats, else the one a decided earlier match already sends there
    (a bye's, a walkover's or a played match's winner, a played match's loser) while the
    pairing's other slot is still to come; None where the diagram says "bye" or where
    the entrant will come from."""
    return {box.id: tuple(line.key if line.kind == "entrant" else None for line in box.lines)
            for box in _boxes(pairings, {}, results, {}, set(), sides or {}, ended or {})}


def _sections(boxes: list[_Box]) -> list[_Section]:
    """Boxes grouped by stage, stages in order of first appearance."""
    sections: dict[str, _Section] = {}
    for box in boxes:
        sections.setdefault(box.stage, _Section(box.stage)).boxes.append(box)
    return list(sections.values())


def _place_section(section: _Section, top: float) -> float:
    """Give every box of the section its x and y; the section's width."""
    rounds = sorted({box.round for box in section.boxes})
    column = {r: i for i, r in enumerate(rounds)}
    pitch = max(box.height for box in section.boxes) + GAP_Y
    head = HEAD_H if section_title(section.stage) else 0
    placed: dict[str, _Box] = {}
    bottom = top + head
    for r in rounds:
        next_free = top + head
        for box in (b for b in section.boxes if b.round == r):
            box.x = column[r] * (BOX_W + GAP_X)
            fed = [placed[f] for f in box.feeders if f in placed]
            if fed:
                centre = sum(f.y + f.height / 2 for f in fed) / len(fed)
                box.y = max(centre - box.height / 2, next_free)
            else:
                box.y = next_free
            next_free = box.y + pitch
            placed[box.id] = box
            bottom = max(bottom, box.y + box.height)
    section.top, section.height = top, bottom - top
    return len(rounds) * (BOX_W + GAP_X) - GAP_X


def _box_svg(box: _Box) -> str:
    """One match box: its label above, a line per slot, places ("1st") on the right."""
    x, y = box.x, box.y
    body_h = LINE_H * box.rows
    parts = [f'<g class="bx bx-{box.state}" data-pairing="{escape(box.id)}">']
    # A live match: its label in the accent colour (with the box's accent frame), and
    # "Playing now" in words on a row of its own under the entrants.
    parts.append(_label_svg(box))
    top = y + box.label_h
    parts.append(f'<rect class="bx-frame" x="{x:.0f}" y="{top:.0f}" width="{BOX_W}" '
                 f'height="{body_h}" rx="4"/>')
    for i, line in enumerate(box.lines):
        ly = top + i * LINE_H
        won = line.won
        if won:
            parts.append(f'<rect class="bx-win" x="{x + 1:.0f}" y="{ly + 1:.0f}" '
                         f'width="{BOX_W - 2}" height="{LINE_H - 2}" rx="3"/>')
        if i:
            parts.append(f'<line class="bx-sep" x1="{x:.0f}" y1="{ly:.0f}" '
                         f'x2="{x + BOX_W:.0f}" y2="{ly:.0f}"/>')
        cls = f"ln ln-{line.kind}" + (" ln-won" if won else "") + (
            " ln-out" if line.withdrawn else "")
        # A place in words ("1st", read "1st place"): a bare "2" beside a name read as a
        # score; a walkover's winner, who has none, "walkover" ("w/o" beside a long name).
        # The name gives up the room its letters take.
        place = ordinal(line.place) if line.place is not None else ""
        said = f"{place} place"
        if not place and line.walkover:
            whole, short = WALKOVER_WORDS
            place = whole if len(line.text) + len(whole) <= NAME_CHARS + 1 else short
            said = WALKOVER_TITLE
        most = (NAME_CHARS - max(len(place) - 1, 0) if line.kind == "entrant"
                else PENDING_CHARS)
        parts.append(f'<text class="{cls}" x="{x + 6:.0f}" y="{ly + 17:.0f}">'
                     f"{escape(_short(line.text, most))}{_title_if_cut(line.text, most)}</text>")
        if place:
            parts.append(f'<text class="ln-place" x="{x + BOX_W - 6:.0f}" y="{ly + 17:.0f}" '
                         f'text-anchor="end">{place}<title>{said}</title></text>')
    if box.state == "live":
        # Its own row, so neither the label nor a name is cut shorter for it (on a phone the
        # labels already fill the column); in the link, a screen reader reads it last.
        ly = top + len(box.lines) * LINE_H
        parts.append(f'<line class="bx-sep" x1="{x:.0f}" y1="{ly:.0f}" '
                     f'x2="{x + BOX_W:.0f}" y2="{ly:.0f}"/>'
                     f'<text class="ln-now" x="{x + 6:.0f}" y="{ly + 17:.0f}">{LIVE_WORDS}</text>')
    parts.append("</g>")
    markup = "".join(parts)
    if box.href:
        # One id from poll to poll: htmx gives focus back to the link a keyboard user was on
        # when the Event's results are swapped in.
        stop = ' tabindex="-1"' if box.listed else ""
        markup = (f'<a href="{escape(box.href)}" id="bracket-{escape(box.id)}"{stop}>'
                  f"{markup}</a>")
    return markup


def _label_svg(box: _Box) -> str:
    """The label above a box, a <tspan> a line; cut shorter, it keeps the whole label in
    its <title>, which a screen reader reads instead (and a mouse shows)."""
    x, y = box.x + 2, box.y + LABEL_H - 5
    if len(box.shown) == 1:
        shown = escape(box.shown[0])
    else:  # the space ending a line keeps the words apart when read as one
        shown = "".join(f'<tspan x="{x:.0f}" y="{y + i * LABEL_LINE:.0f}">{escape(line)}'
                        f'{" " if i < len(box.shown) - 1 else ""}</tspan>'
                        for i, line in enumerate(box.shown))
    title = f"<title>{escape(box.label)}</title>" if " ".join(box.shown) != box.label else ""
    return f'<text class="bx-label" x="{x:.0f}" y="{y:.0f}">{shown}{title}</text>'


def _title_if_cut(text: str, most: int) -> str:
    """A <title> with the whole `text` where `_short` cuts it to `most` characters."""
    return f"<title>{escape(text)}</title>" if len(text) > most else ""


def _connector(src: _Box, dst: _Box) -> str:
    """An elbow line from a feeder's right edge to the box it feeds."""
    x1 = src.x + BOX_W
    y1 = src.y + src.label_h + LINE_H * len(src.lines) / 2
    x2 = dst.x
    y2 = dst.y + dst.label_h + LINE_H * len(dst.lines) / 2
    mid = (x1 + x2) / 2
    return (f'<path class="bx-link" d="M{x1:.0f} {y1:.0f} H{mid:.0f} V{y2:.0f} '
            f'H{x2:.0f}"/>')


def _deciding_box(boxes: list[_Box], champion: str) -> _Box | None:
    """The final the champion won (alone in its column, feeding nothing): where the trophy
    goes. A round robin or a Swiss has no such match; its champion is in the banner."""
    fed = {f for box in boxes for f in box.feeders}
    for box in reversed(boxes):
        if box.id in fed or not any(li.key == champion and (li.place == 1 or li.walkover)
                                    for li in box.lines):
            continue
        alone = all(b is box or (b.stage, b.round) != (box.stage, box.round) for b in boxes)
        return box if alone else None
    return None


def bracket_svg(pairings: Sequence[Any], *, names: Mapping[str, str],
                results: Mapping[str, Mapping[str, int]] | None = None,
                links: Mapping[str, str] | None = None,
                champion: str | tuple[str, ...] | None = None,
                withdrawn: set[str] | None = None,
                sides: Mapping[str, Mapping[str, int]] | None = None,
                ended: Mapping[str, str | None] | None = None,
                only: Collection[str] | None = None,
                listed: Collection[str] = (), called: str = "Bracket diagram") -> str:
    """The whole diagram of an Event's pairings (future slots included) as an <svg>; with
    `only`, the boxes of those pairings alone (a big Event's rounds near the one listed),
    their lines read from them all (a bye or a walkover in a round not drawn still says
    who goes on), each box drawn beside those of its feeders that are.

    `results` maps a pairing id to its placements (entrant key -> place), `sides` to the
    sides of its entrants where the game played several as one (a tag team's pair: both
    are marked winners), `links` to its match page; `ended` maps the pairings whose match
    is over with no result to show (a withdrawal's walkover), drawn as done, not as
    "Playing now", to the one left in it, marked its winner as a played match's is, with
    "walkover" where a place would be (None: nobody is). `champion` is the winner's entrant
    key once the Event is over (the keys of a side that won it together, a tag team's
    pair): drawn in a gold box under the final it won, or in a banner on top when the
    format has no final (a round robin, a Swiss). `listed`: the pairings whose match the
    page lists below with links of its own, their boxes' links out of Tab's order (a
    keyboard user tabbed through every match twice, dozens of stops on a big Event's page);
    a tap, a click and a screen reader's list of links still reach them. `called`: what
    the drawing is called ("Rounds diagram" where the format has no bracket).
    """
    if not pairings:
        return ""
    boxes = _boxes(pairings, names, results or {}, links or {}, withdrawn or set(),
                   sides or {}, ended or {})
    for box in boxes:
        box.listed = box.id in listed
    if only is not None:
        boxes = [box for box in boxes if box.id in only]
        if not boxes:
            return ""
    sections = _sections(boxes)
    champions = (champion,) if isinstance(champion, str) else champion or ()
    final = _deciding_box(boxes, champions[0]) if champions else None
    top = HEAD_H + 6 if champions and final is None else 0.0
    width = 0.0
    for section in sections:
        width = max(width, _place_section(section, top))
        if final is not None and final.stage == section.stage:
            # Room under the final for the champion's box.
            bottom = final.y + final.height + GAP_Y + 2 * LINE_H
            section.height = max(section.height, bottom - section.top)
        top += section.height + SECTION_GAP
    by_id = {box.id: box for box in boxes}
    parts: list[str] = []
    for section in sections:
        title = section_title(section.stage)
        if title:
            parts.append(f'<text class="sec-title" x="0" y="{section.top + 17:.0f}">'
                         f"{escape(title)}</text>")
        for box in section.boxes:
            for feeder in box.feeders:
                src = by_id.get(feeder)
                if src is not None and src.stage == box.stage:
                    parts.append(_connector(src, box))
        parts.extend(_box_svg(box) for box in section.boxes)
    if champions:
        parts.append(_champion(final, " and ".join(names.get(k, k) for k in champions),
                               len(champions) > 1))
    height = max(top - SECTION_GAP, HEAD_H)
    return _svg_root(width, height, "bracket", called, "".join(parts))


def _champion(final: _Box | None, name: str, several: bool = False) -> str:
    """The champion (`several`: the champions of one side) in a gold box under the final,
    else in the top banner."""
    shown, title = escape(_short(name)), "Champions" if several else "Champion"
    if final is None:
        return (f'<text class="champ-banner" x="0" y="17">{title}: {shown}'
                f"{_title_if_cut(name, NAME_CHARS)}</text>")
    x, y = final.x, final.y + final.height + GAP_Y
    mid = x + BOX_W / 2
    return (f'<path class="bx-link" d="M{mid:.0f} {final.y + final.height:.0f} V{y:.0f}"/>'
            f'<g class="champion"><rect x="{x:.0f}" y="{y:.0f}" width="{BOX_W}" '
            f'height="{2 * LINE_H}" rx="6"/>'
            f'<text class="champ-label" x="{x + 8:.0f}" y="{y + 18:.0f}">{title}</text>'
            f'<text class="champ-name" x="{x + 8:.0f}" y="{y + 39:.0f}">{shown}'
            f"{_title_if_cut(name, NAME_CHARS)}</text></g>")


def _svg_root(width: float, height: float, cls: str, title: str, body: str) -> str:
    # A group, not an image: an image's content is hidden from screen readers, and this
    # one holds the entrants' names and links to the live matches. On a phone it is drawn
    # 1:1, its text 14px, and scrolls sideways in its box (site.css); wider, it shrinks to
    # the page down to data-min-width, which static/js/league.js makes its min-width (the
    # Content-Security-Policy allows no style attribute), then scrolls.
    w, h = int(width) + 4, int(height) + 4
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" role="group" '
            f'width="{w}" height="{h}" viewBox="-2 -2 {w} {h}" '
            f'data-min-width="{int(w * 0.85)}"><title>{escape(title)}</title>'
            f"{body}</svg>")


# -- rating chart -------------------------------------------------------------------------

# As wide as a phone of 390px leaves the chart (in its card), which draws it no smaller
# than 1:1 (data-min-width), so its 14px text stays 14px; wider pages draw it up to a
# little larger (site.css).
CHART_W = 330
# Each game's line is told apart by its dash as well as its colour (the legend shows both).
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 5", "12 4")
CHART_H = 200
PAD_L, PAD_R, PAD_T, PAD_B = 54, 12, 12, 30
LEGEND_ROW = 20


def _figure(value: float, digits: int) -> str:
    """`value` to `digits` decimals, a value that rounds to nought unsigned ("0.0", not
    the "-0.0" a rating just under zero gives)."""
    return f"{round(value, digits) + 0.0:.{digits}f}"


def _ticks(low: float, high: float) -> list[float]:
    """Three y-axis values: the bottom, the middle and the top."""
    return [low, (low + high) / 2, high]


def rating_chart_svg(series: Mapping[str, Sequence[float]]) -> str:
    """A line per game of ordinals after each rated match (x: the match's number)."""
    lines = {title: list(values) for title, values in series.items() if values}
    if not lines:
        return ""
    values = [v for vs in lines.values() for v in vs]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    longest = max(len(vs) for vs in lines.values())
    plot_w = CHART_W - PAD_L - PAD_R
    plot_h = CHART_H - PAD_T - PAD_B

    def px(i: int) -> float:
        return PAD_L + (plot_w * i / (longest - 1) if longest > 1 else plot_w / 2)

    def py(v: float) -> float:
        return PAD_T + plot_h * (high - v) / (high - low)

    parts = [f'<rect class="plot" x="{PAD_L}" y="{PAD_T}" width="{plot_w}" height="{plot_h}"/>']
    for tick in _ticks(low, high):
        y = py(tick)
        parts.append(f'<line class="grid" x1="{PAD_L}" y1="{y:.1f}" x2="{PAD_L + plot_w}" '
                     f'y2="{y:.1f}"/><text class="axis" x="{PAD_L - 5}" y="{y + 5:.1f}" '
                     f'text-anchor="end">{_figure(tick, 1)}</text>')
    if longest == 1:  # one point, in the middle: "1" at the left would say it is there
        parts.append(f'<text class="axis" x="{px(0):.1f}" y="{CHART_H - 10}" '
                     'text-anchor="middle">1 match</text>')
    else:
        parts.append(f'<text class="axis" x="{PAD_L}" y="{CHART_H - 10}">1</text>'
                     f'<text class="axis" x="{PAD_L + plot_w}" y="{CHART_H - 10}" '
                     f'text-anchor="end">{longest} matches</text>')
    for n, (title, vs) in enumerate(lines.items()):
        colour = PALETTE[n % len(PALETTE)]
        points = " ".join(f"{px(i):.1f},{py(v):.1f}" for i, v in enumerate(vs))
        parts.append(f'<polyline class="series" fill="none" stroke="{colour}" '
                     f'stroke-width="2"{_dash(n)} points="{points}"><title>{escape(title)}'
                     "</title></polyline>")
        parts.extend(f'<circle cx="{px(i):.1f}" cy="{py(v):.1f}" r="2.5" fill="{colour}">'
                     f"<title>{escape(title)} after match {i + 1}: {_figure(v, 2)}</title></circle>"
                     for i, v in enumerate(vs))
    legend_y = CHART_H + 6
    for n, title in enumerate(lines):
        colour = PALETTE[n % len(PALETTE)]
        y = legend_y + n * LEGEND_ROW
        parts.append(f'<line x1="{PAD_L}" y1="{y + 7}" x2="{PAD_L + 22}" y2="{y + 7}" '
                     f'stroke="{colour}" stroke-width="2"{_dash(n)}/>'
                     f'<text class="legend" x="{PAD_L + 28}" y="{y + 12}">{escape(title)}</text>')
    height = legend_y + LEGEND_ROW * len(lines)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" role="img" '
            f'viewBox="0 0 {CHART_W} {height}" width="100%" data-min-width="{CHART_W}" '
            f'preserveAspectRatio="xMidYMid meet"><title>Rating (ordinal) by match</title>'
            f"<desc>{escape(_chart_summary(lines))}</desc>"
            f'{"".join(parts)}</svg>')


def _dash(n: int) -> str:
    dash = DASHES[n % len(DASHES)]
    return f' stroke-dasharray="{dash}"' if dash else ""


def _chart_summary(lines: Mapping[str, Sequence[float]]) -> str:
    """The chart in words, for a screen reader (an image's points are not read): each
    game's line from its first value to its last, its lowest and its highest."""
    return " ".join(
        f"{title}: {len(vs)} rated match{'es' if len(vs) != 1 else ''}, from "
        f"{_figure(vs[0], 2)} to {_figure(vs[-1], 2)} (lowest {_figure(min(vs), 2)}, "
        f"highest {_figure(max(vs), 2)})."
        for title, vs in lines.items())
