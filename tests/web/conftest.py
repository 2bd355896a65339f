"""Page fixtures: logged-in browsers for alice and the outsider, and page helpers.

The shared users (alice, bruno, olga) come from tests/conftest.py. Bot seats move in an
on_commit hook (Celery runs eagerly here), so tests that need a bot's reply use a
transactional database.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match

HTMX = {"HTTP_HX_REQUEST": "true"}
_ACTION_FORM = re.compile(
    r'name="action" value="(?P<action>[^"]*)">\s*<input type="hidden" name="key" '
    r'value="(?P<key>[^"]*)">'
)


@pytest.fixture(autouse=True)
def _fresh_replay_cache() -> Iterator[None]:
    services.clear_state_cache()
    yield
    services.clear_state_cache()


@pytest.fixture
def alice_client(client: Client, player: Any) -> Client:
    client.force_login(player)
    return client


@pytest.fixture
def bruno_client(player2: Any) -> Client:
    other = Client()
    other.force_login(player2)
    return other


@pytest.fixture
def outsider_client(outsider: Any) -> Client:
    other = Client()
    other.force_login(outsider)
    return other


class Pages:
    """Page helpers (a fixture, so they work in any pytest import mode)."""

    htmx = HTMX

    @staticmethod
    def quick_play(client: Client) -> Match:
        """Press the lobby's one-click button; the match it made."""
        response = client.post(reverse("quick_play"))
        assert response.status_code == 302, response.content
        match_id = int(response["Location"].rstrip("/").rsplit("/", 1)[-1])
        return Match.objects.get(pk=match_id)

    @staticmethod
    def action_forms(page: str | bytes) -> list[tuple[str, str]]:
        """(action JSON, idempotency key) of every action form on a page, in page order."""
        text = page.decode() if isinstance(page, bytes) else page
        return [(html.unescape(m["action"]), m["key"]) for m in _ACTION_FORM.finditer(text)]

    @staticmethod
    def act(client: Client, match: Match, action: str, key: str, htmx: bool = True) -> Any:
        """Post one action the way the page's htmx form does."""
        extra = HTMX if htmx else {}
        return client.post(reverse("match_act", args=[match.id]),
                           {"action": action, "key": key}, **extra)

    @staticmethod
    def state(client: Client, match: Match, **params: Any) -> Any:
        """The polled state partial."""
        return client.get(reverse("match_state", args=[match.id]), params, **HTMX)


@pytest.fixture
def pages() -> type[Pages]:
    return Pages
