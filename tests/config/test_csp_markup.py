"""No template under templates/ holds what the Content-Security-Policy (config/csp.py)
would block or what htmx would have to eval (tests/markup.py says what that is)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.markup import TEMPLATES, inline_code, template_markup

HTML_TEMPLATES = sorted(TEMPLATES.rglob("*.html"))


def test_the_walk_reaches_every_folder_of_templates() -> None:
    names = {str(path.relative_to(TEMPLATES)) for path in HTML_TEMPLATES}
    assert {"base.html", "500.html", "matches/play.html", "league/_event_live.html",
            "games/royal_rumble/_view.html", "admin/close_accounts.html"} <= names


@pytest.mark.parametrize("template", HTML_TEMPLATES,
                         ids=lambda path: str(path.relative_to(TEMPLATES)))
def test_no_template_holds_inline_code_or_style(template: Path) -> None:
    assert inline_code(template_markup(template.read_text())) == []


@pytest.mark.parametrize(("markup", "caught"), [
    ("<script>alert(1)</script>", "inline <script>"),
    ('<form onsubmit="return confirm(\'x\')">', "event handler <form onsubmit>"),
    ('<button ONCLICK="go()">', "event handler <button onclick>"),
    ('<div hx-on::after-request="go()">', "htmx handler"),
    ('<div data-hx-on:click="go()">', "htmx handler"),
    ('<div hx-trigger="every 2s [leagueIdle(this)], league-refresh">', "htmx trigger filter"),
    ('<div hx-trigger="league-changed[ok()] from:body">', "htmx trigger filter"),
    ('<div hx-vals=\'js:{"a": go()}\'>', "evaluated htmx values"),
    ('<div hx-vars="a:go()">', "evaluated htmx values"),
    ('<a href="javascript:go()">', "javascript: URL"),
    ('<div style="width: 5%">', "style attribute"),
    ("<style>p { color: red }</style>", "inline <style>"),
])
def test_the_check_catches_each_kind(markup: str, caught: str) -> None:
    found = inline_code(template_markup(markup))
    assert len(found) == 1 and found[0].startswith(caught)


def test_the_check_lets_files_data_and_plain_triggers_pass() -> None:
    markup = ('<script src="/static/js/league.js" defer></script>'
              '<script type="application/json" id="data">{"a": 1}</script>'
              '<div hx-get="/x" hx-trigger="every 2s, league-refresh" data-guard-edits>'
              '<details open><summary>Open</summary></details>'
              '<form data-confirm="Withdraw?"><button>Go</button></form></div>')
    assert inline_code(template_markup(markup)) == []


def test_template_tags_do_not_hide_what_they_wrap() -> None:
    """An attribute a condition prints, with quotes of its own inside, is still seen."""
    source = ('<form method="post"{% if a %} onsubmit="if (!confirm(\'{% if b == "x" %}'
              'Leave?{% endif %}\')) return false;"{% endif %}>{# onclick= in a note #}')
    assert [line.split(" at ")[0] for line in inline_code(template_markup(source))] \
        == ["event handler <form onsubmit>"]
