"""The replay page steps through the stream."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_replay_steps_first_next_prev_and_last(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    action, key = pages.action_forms(alice_client.get(f"/matches/{match.id}/").content)[0]
    pages.act(alice_client, match, action, key)
    match.refresh_from_db()
    url = reverse("match_replay", args=[match.id])

    first = alice_client.get(url, {"at": 0})
    assert first.status_code == 200 and b"<html" in first.content
    assert f"Event <strong>0</strong> / {match.seq}".encode() in first.content
    assert f'hx-get="{url}?at=1"'.encode() in first.content

    step = alice_client.get(url, {"at": 2}, **pages.htmx)
    assert step.status_code == 200 and b"<html" not in step.content
    narration = services.replay_view(match=match, user=player, at=2)["narration"]
    assert narration and all(html.escape(line) in step.content.decode() for line in narration)
    assert re.search(rf'hx-get="{url}\?at=1"', step.content.decode())
    assert re.search(rf'hx-get="{url}\?at=3"', step.content.decode())

    last = alice_client.get(url, **pages.htmx)
    assert f"Event <strong>{match.seq}</strong>".encode() in last.content
    assert b'<span class="step disabled">Next' in last.content

    beyond = alice_client.get(url, {"at": 10_000}, **pages.htmx)
    assert f"Event <strong>{match.seq}</strong>".encode() in beyond.content


def test_the_replay_shows_a_seat_only_what_that_seat_saw(
        alice_client: Client, outsider_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    url = reverse("match_replay", args=[match.id])
    assert b"Your hand" in alice_client.get(url, {"at": 1}).content
    assert b"Your hand" not in outsider_client.get(url, {"at": 1}).content
