"""The replay page steps through the stream."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match
from matches.narration import as_you, narrated_name

pytestmark = pytest.mark.django_db(transaction=True)


def told_to(match: Match, player: Any, at: int) -> list[str]:
    """The narration of event `at` as the replay page tells it to `player`: their own
    seat's sentences say "you" (tests/web/test_play_says_you.py)."""
    frame = services.replay_view(match=match, user=player, at=at)
    you, team = narrated_name(match, services.seat_of(match, player), frame["view"])
    return as_you(frame["narration"], you, team)


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
    narration = told_to(match, player, 2)
    assert narration and all(html.escape(line) in step.content.decode() for line in narration)
    assert re.search(rf'hx-get="{url}\?at=1"', step.content.decode())
    assert re.search(rf'hx-get="{url}\?at=3"', step.content.decode())

    last = alice_client.get(url, **pages.htmx)
    assert f"Event <strong>{match.seq}</strong>".encode() in last.content
    assert b'<span class="step disabled" id="replay-next"' in last.content

    beyond = alice_client.get(url, {"at": 10_000}, **pages.htmx)
    assert f"Event <strong>{match.seq}</strong>".encode() in beyond.content


def test_a_step_keeps_keyboard_focus_on_its_control_and_is_announced(
        alice_client: Client, player: Any, pages: Any) -> None:
    """A step swaps the whole replay in. Each control keeps one id, so htmx gives focus
    back to the one pressed (Next, Next, Next from the keyboard), and one pressed till it
    ran out still takes focus; the page's live region, outside the swap, reads the step."""
    match = pages.quick_play(alice_client)
    match.refresh_from_db()
    url = reverse("match_replay", args=[match.id])
    page = alice_client.get(url, {"at": 0}).content.decode()
    assert page.count('id="replay-announce"') == 1
    assert '<div id="replay-announce" class="visually-hidden" role="status" ' \
           'aria-live="polite"></div>' in page
    assert '<nav class="replay-controls" aria-label="Replay steps">' in page
    assert "hx-swap-oob" not in page

    step = alice_client.get(url, {"at": 1}, **pages.htmx).content.decode()
    for name, to in (("first", 0), ("prev", 0), ("next", 2), ("last", match.seq)):
        assert step.count(f'id="replay-{name}"') == 1
        assert re.search(rf'<a class="step" id="replay-{name}" href="{url}\?at={to}"', step)
    told = step.split('<div id="replay-announce" hx-swap-oob="innerHTML">')[1]
    told = html.unescape(told.split("</div>")[0])
    narration = told_to(match, player, 1)
    assert told.startswith(f"Event 1 of {match.seq}.")
    assert narration and all(line in told for line in narration)

    last = alice_client.get(url, {"at": match.seq}, **pages.htmx).content.decode()
    for name in ("next", "last"):
        assert f'<span class="step disabled" id="replay-{name}" tabindex="-1" role="link" ' \
               'aria-disabled="true">' in last


def test_the_replays_title_and_heading_say_which_game_and_the_tabs_title_which_step(
        alice_client: Client, pages: Any) -> None:
    """The tab read 'Replay #12' at every step, and the heading 'Replay of #12': neither
    said which game, nor the title which step the tab (and each step it pushed into the
    history) shows."""
    match = pages.quick_play(alice_client)
    match.refresh_from_db()
    url = reverse("match_replay", args=[match.id])
    page = alice_client.get(url, {"at": 0}).content.decode()
    assert f"<title>Replay of #{match.id} Super Showdown, event 0 of {match.seq} · " \
           "Showdown League</title>" in page
    assert re.search(rf'<h1>Replay of <a href="[^"]+">#{match.id}</a> Super Showdown</h1>',
                     page)
    step = alice_client.get(url, {"at": 1}, **pages.htmx).content.decode()
    assert step.startswith(f"<title>Replay of #{match.id} Super Showdown, event 1 of "
                           f"{match.seq} · Showdown League</title>")


def test_the_replay_shows_a_seat_only_what_that_seat_saw(
        alice_client: Client, outsider_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    url = reverse("match_replay", args=[match.id])
    assert b"Your hand" in alice_client.get(url, {"at": 1}).content
    assert b"Your hand" not in outsider_client.get(url, {"at": 1}).content
