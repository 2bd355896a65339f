"""Small filters the match pages need: dict lookup, a player's shown name, pretty JSON,
action labels and ids; a form field as the form partials show it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """`mapping[key]`, trying the key as text too (JSON objects have string keys)."""
    if not isinstance(mapping, Mapping):
        return None
    if key in mapping:
        return mapping[key]
    return mapping.get(str(key))


@register.filter
def shown_name(user: Any) -> str:
    """A user's name as pages show it: "Closed account" for a closed one
    (league.services.shown_name); "" for nobody."""
    from league.services import shown_name as name

    return name(user) if user is not None else ""


@register.filter
def focused_if_refused(field: Any) -> Any:
    """A form's field, given focus on arrival (autofocus) when it is the first of its form
    refused: a screen reader then reads its name, that it is invalid and the reason beside
    it (its aria-describedby), where the page would otherwise start at its top, silent."""
    first = next((bound for bound in field.form if bound.errors), None)
    if first is None or first.name != field.name:
        return field
    return field.as_widget(attrs={"autofocus": True})


@register.filter
def pretty_json(value: Any) -> str:
    """Indented JSON for the generic view."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)


@register.filter
def action_label(action: Mapping[str, Any]) -> str:
    """A readable button label for any action dict: its `label`, or type and fields."""
    if not isinstance(action, Mapping):
        return str(action)
    if isinstance(action.get("label"), str):
        return action["label"]
    words = str(action.get("type", "act")).replace("_", " ").capitalize()
    rest = [f"{key.replace('_', ' ')} {_plain(value)}"
            for key, value in action.items() if key not in {"type", "label"}]
    return f"{words}: {', '.join(rest)}" if rest else words


@register.filter
def action_id(action_json: str) -> str:
    """An action's button's id, the same on every render that offers that action: htmx
    gives focus back to it when a poll swaps the match in while a keyboard user is on it."""
    return "act-" + hashlib.sha1(str(action_json).encode()).hexdigest()[:12]


@register.filter
def contains(container: Any, item: Any) -> bool:
    """`item in container`, false for anything that is not a container."""
    try:
        return item in container
    except TypeError:
        return False


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "(" + ", ".join(_plain(v) for v in value) + ")"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return str(value)
