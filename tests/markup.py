"""What markup holds that the Content-Security-Policy (config/csp.py) would block or that
needs eval: inline scripts, event-handler attributes, htmx handlers and trigger filters,
evaluated htmx values, javascript: URLs, inline styles. For the tests that read templates
and the pages as answered."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# A <script> of these types is data the page reads (json_script), which no browser runs.
DATA_SCRIPTS = {"application/json", "application/ld+json"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction"}


class InlineCode(HTMLParser):
    """What a page holds that the policy would block, or that needs eval: one line each."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "script" and "src" not in values \
                and values.get("type", "").lower() not in DATA_SCRIPTS:
            self.found.append(f"inline <script> at line {self.getpos()[0]}")
        if tag == "style":
            self.found.append(f"inline <style> at line {self.getpos()[0]}")
        for name, value in values.items():
            bare = name.removeprefix("data-")
            where = f"<{tag} {name}> at line {self.getpos()[0]}"
            if name.startswith("on"):
                self.found.append(f"event handler {where}")
            elif bare.startswith("hx-on"):
                self.found.append(f"htmx handler {where}")
            elif bare == "hx-trigger" and "[" in value:
                self.found.append(f"htmx trigger filter {where}: {value!r}")
            elif bare == "hx-vars" or (bare == "hx-vals" and value.lstrip().startswith(
                    ("js:", "javascript:"))):
                self.found.append(f"evaluated htmx values {where}")
            elif name in URL_ATTRIBUTES and value.strip().lower().startswith("javascript:"):
                self.found.append(f"javascript: URL {where}")
            elif name == "style":
                self.found.append(f"style attribute {where}")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    parser.close()
    return parser.found


# A template's own tags would confuse the HTML parser (quotes inside quotes, a `>` in a
# condition): they go, and what they print becomes a plain word.
TEMPLATE_COMMENT = re.compile(r"\{#.*?#\}|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S)
TEMPLATE_TAG = re.compile(r"\{%.*?%\}", re.S)
TEMPLATE_VARIABLE = re.compile(r"\{\{.*?\}\}", re.S)


def template_markup(source: str) -> str:
    source = TEMPLATE_COMMENT.sub("", source)
    return TEMPLATE_VARIABLE.sub("x", TEMPLATE_TAG.sub(" ", source))
