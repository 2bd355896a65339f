"""What a screen reader would find unnamed on a page, read from its HTML: a control (a
link, a button, a form field) with no accessible name, a label or a reference to an id
that is not there, and an id given twice (a label's `for` then names the first field of
that id, and the second goes unnamed); and links to different places that read alike.
For the tests over the pages as answered."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr"}
# Fields named by a label, aria-label or aria-labelledby; buttons and links by their words.
FIELDS = {"input", "select", "textarea"}
UNSEEN_INPUTS = {"hidden", "submit", "button", "reset", "image"}
REFERENCES = ("aria-labelledby", "aria-describedby", "aria-controls")


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    line: int
    hidden: bool  # inside [hidden] or aria-hidden="true": out of the accessibility tree
    in_label: bool  # inside a <label> without `for`, which names the field it wraps
    words: list[str] = field(default_factory=list)


class Page(HTMLParser):
    """A page's elements, each with the words inside it (those a screen reader reads)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        hidden = (bool(self.open) and self.open[-1].hidden) or "hidden" in values \
            or values.get("aria-hidden") == "true"
        in_label = any(e.tag == "label" and "for" not in e.attrs for e in self.open)
        element = Element(tag, values, self.getpos()[0], hidden, in_label)
        self.elements.append(element)
        if tag == "img" and not hidden:
            self._say(values.get("alt", ""))
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        if self.open and not self.open[-1].hidden and self.open[-1].tag not in (
                "script", "style", "title"):
            self._say(data)

    def _say(self, words: str) -> None:
        for element in self.open:
            element.words.append(words)


def text(element: Element) -> str:
    return " ".join("".join(element.words).split())


def unnamed(html: str) -> list[str]:
    """Each control with no accessible name, each reference to a missing id, each id given
    twice: one line each."""
    page = Page(html)
    ids = Counter(e.attrs["id"] for e in page.elements if e.attrs.get("id"))
    by_id = {e.attrs["id"]: e for e in reversed(page.elements) if e.attrs.get("id")}
    labelled = {e.attrs.get("for", "") for e in page.elements if e.tag == "label"}
    found = [f"id {name!r} given {count} times" for name, count in ids.items() if count > 1]
    for element in page.elements:
        where = f"<{element.tag}> at line {element.line}"
        for reference in REFERENCES:
            for name in element.attrs.get(reference, "").split():
                if name not in by_id:
                    found.append(f"{where}: {reference} {name!r} is no element's id")
        if element.tag == "label" and element.attrs.get("for") \
                and element.attrs["for"] not in by_id:
            found.append(f"{where}: for {element.attrs['for']!r} is no element's id")
        if element.hidden or not is_control(element):
            continue
        if element.tag in FIELDS:
            named = bool(element.attrs.get("aria-label", "").strip() or any(
                text(by_id[name]) for name in element.attrs.get("aria-labelledby", "").split()
                if name in by_id)) or element.attrs.get("id") in labelled or element.in_label
        else:
            named = bool(name_of(element, by_id))
        if not named:
            found.append(f"{where} has no name: {element.attrs}")
    return found


def name_of(element: Element, by_id: dict[str, Element]) -> str:
    """A link's or a button's accessible name: its aria-label, else the words of the
    elements its aria-labelledby names, else its own words, else its title."""
    return element.attrs.get("aria-label", "").strip() or " ".join(
        text(by_id[name]) for name in element.attrs.get("aria-labelledby", "").split()
        if name in by_id).strip() or text(element) or element.attrs.get("title", "").strip()


def names_shared(html: str) -> list[str]:
    """Each name that links to different places share ('replay' for every match): a screen
    reader's list of links reads them alike, out of the rows that told them apart. One
    line each, with the places."""
    page = Page(html)
    by_id = {e.attrs["id"]: e for e in reversed(page.elements) if e.attrs.get("id")}
    places: dict[str, set[str]] = {}
    for element in page.elements:
        if element.tag == "a" and "href" in element.attrs and not element.hidden:
            places.setdefault(name_of(element, by_id), set()).add(element.attrs["href"])
    return [f"{name!r} links to {sorted(hrefs)}" for name, hrefs in places.items()
            if len(hrefs) > 1]


def is_control(element: Element) -> bool:
    if element.tag == "input":
        return element.attrs.get("type", "text") not in UNSEEN_INPUTS
    return element.tag in ("button", "select", "textarea") or (
        element.tag == "a" and "href" in element.attrs)


_WORDS = re.compile(r"\w+")


def titles_repeated(html: str) -> list[str]:
    """Each title that says again the words its element is already read by (a button's
    label, a header's word, a card's text), all of them or some: a screen reader reads
    them twice, and a phone, with no hover, never shows a title at all. One line each."""
    page = Page(html)
    by_id = {e.attrs["id"]: e for e in reversed(page.elements) if e.attrs.get("id")}
    found = []
    for element in page.elements:
        title = " ".join(element.attrs.get("title", "").split()).casefold()
        if not title or element.hidden:
            continue
        read = f"{text(element)} {name_of(element, by_id)}".casefold()
        if set(_WORDS.findall(title)) <= set(_WORDS.findall(read)):
            found.append(f"<{element.tag}> at line {element.line}: title {title!r} "
                         "repeats its words")
    return found
