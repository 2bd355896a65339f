"""Every answer carries the Content-Security-Policy (config/csp.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/login/", "/league/", "/api/games/", "/api/docs/",
                                  "/admin/login/", "/no-such-page/"])
def test_pages_the_api_and_errors_carry_the_policy(client: Client, path: str) -> None:
    policy = client.get(path)["Content-Security-Policy"]
    sources = dict(part.split(" ", 1) for part in policy.split("; "))
    assert sources["default-src"] == "'self'"
    # What an injected script could use to load more or send data away: this site alone.
    for name in ("connect-src", "form-action", "base-uri"):
        assert sources[name] == "'self'"
    assert sources["img-src"] == "'self' data:"
    assert sources["object-src"] == sources["frame-ancestors"] == "'none'"
    # No inline script, event handler or eval runs, and no inline style applies.
    assert sources["script-src"] == sources["style-src"] == "'self'"


def test_the_lobby_of_a_signed_in_player_carries_it(client: Client, player: Any) -> None:
    client.force_login(player)
    policy = client.get("/")["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy
    assert "unsafe" not in policy


def test_with_debug_on_djangos_own_error_pages_go_without_it(client: Client,
                                                             settings: Any) -> None:
    """Its traceback and URL-pattern pages style and script themselves inline."""
    settings.DEBUG = True
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404 and "Using the URLconf" in missing.content.decode()
    assert "Content-Security-Policy" not in missing
    assert "Content-Security-Policy" in client.get("/login/")


@pytest.mark.parametrize(("value", "sent"), [("", None), ("default-src 'none'",
                                                          "default-src 'none'")])
def test_the_setting_replaces_the_policy_or_sends_none(client: Client, settings: Any,
                                                       value: str, sent: str | None) -> None:
    settings.CONTENT_SECURITY_POLICY = value
    assert client.get("/login/").get("Content-Security-Policy") == sent
