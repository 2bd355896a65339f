"""Filters of the league pages and mails: numbers as people write them, tiebreak names, a
time in the hour the clocks repeat, how long a person has been to move; the token of the creation forms; the pagers' links; a
refused organizer form's reason beside it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince

from league import once

register = template.Library()


@register.simple_tag
def once_field() -> str:
    """The hidden token that makes a creation form make one thing if sent twice."""
    return format_html('<input type="hidden" name="{}" value="{}">', once.FIELD,
                       once.new_token())


@register.simple_tag(takes_context=True)
def refused_attrs(context: Any, form_id: str, help_id: str = "") -> str:
    """A field of the organizer page's form `form_id`: described by its help (`help_id`)
    and, while that form came back refused (views._refused), by the refusal beside it
    (`refusal_beside`), and marked invalid."""
    refused = bool(form_id) and context.get("refused") == form_id
    ids = " ".join(i for i in (help_id, f"{form_id}-error" if refused else "") if i)
    attrs = format_html(' aria-describedby="{}"', ids) if ids else mark_safe("")
    return attrs + mark_safe(' aria-invalid="true"') if refused else attrs


@register.simple_tag(takes_context=True)
def refusal_beside(context: Any, form_id: str) -> str:
    """The refusal of the organizer page's form `form_id` beside it, while it came back
    refused: the banner at the top of its part cannot quote what was typed."""
    if not form_id or context.get("refused") != form_id:
        return ""
    return format_html('<p class="error" id="{}-error">{}</p>', form_id,
                       context.get("refusal", ""))


@register.simple_tag(takes_context=True)
def page_href(context: Any, param: str, number: int, anchor: str = "",
              pinned: dict[str, str] | None = None) -> str:
    """A pager's link to page `number` of the list `param` pages: the page's own query with
    that one parameter changed, so a click keeps the rest (another list's page, a search, a
    job whose progress shows), then `#anchor`, the list's place on the page. `pinned`: what
    the page showed for parameters its query left out (the ratings' default game), so
    the next page shows the same."""
    query = context["request"].GET.copy()
    for name, value in (pinned or {}).items():
        query.setdefault(name, value)
    query[param] = str(number)
    return f"?{query.urlencode()}" + (f"#{anchor}" if anchor else "")


@register.filter
def repeated_hour(moment: Any) -> str:
    """" (UTC-04:00)" after a time that falls in the hour the clocks go back over in the
    current time zone (a mail's, services.mail_rendered): 01:30 America/New York comes
    twice that night, and its offset tells which; "" for any other time, whose clock
    time alone says it."""
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    offset = local.utcoffset()
    if offset is None or local.replace(fold=1 - local.fold).utcoffset() == offset:
        return ""
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f" (UTC{sign}{abs(minutes) // 60:02}:{abs(minutes) % 60:02})"


TIEBREAK_LABELS = {
    "head_to_head": "Head to head",
    "buchholz": "Buchholz",
    "buchholz_cut1": "Buchholz cut 1",
    "sonneborn_berger": "Sonneborn-Berger",
    "wins": "Wins",
}


@register.filter
def waited(since: Any) -> str:
    """How long since `since`, as a person awaited has been to move: "under a minute"
    where Django's timesince says "0 minutes", else what it says ("3 minutes", "1 hour,
    5 minutes")."""
    if timezone.now() - since < timedelta(minutes=1):
        return "under a minute"
    return timesince(since)


@register.filter
def num(value: Any) -> str:
    """3.0 -> "3", 2.5 -> "2.5", 1.23456 -> "1.23"; anything else as it is. A sum that
    rounds to a whole number (a differential's thirds: 0.9999999999999998) reads as one,
    "1", not "1."."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "" if value is None else str(value)
    shown = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if shown == "-0" else shown


@register.filter
def tiebreak_label(name: str) -> str:
    """A tiebreak's column heading: "Buchholz", "stack" for figure:stack, "stack diff",
    "Head to head, pass 2" for head-to-head taken again among those it left level."""
    if name in TIEBREAK_LABELS:
        return TIEBREAK_LABELS[name]
    kind, _, figure = name.partition(":")
    if kind in TIEBREAK_LABELS and figure.isdigit():  # head_to_head:2, taken again
        return f"{TIEBREAK_LABELS[kind]}, pass {figure}"
    if kind == "figure" and figure:
        return figure.replace("_", " ").capitalize()
    if kind == "diff" and figure:
        return f"{figure.replace('_', ' ').capitalize()} diff"
    return name.replace("_", " ").capitalize()
