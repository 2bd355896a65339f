"""A whole Super Showdown match played through the page views, to the finish."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

MOST_DECISIONS = 200  # one game is at most 9 rounds of a few decisions each


def test_alice_plays_a_bot_to_the_finish_through_the_pages(
        alice_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    partial = pages.state(alice_client, match).content.decode()
    decisions = 0
    while "result-banner" not in partial:
        forms = pages.action_forms(partial)
        assert forms, f"no legal action and no result at seq {Match.objects.get(pk=match.pk).seq}"
        response = pages.act(alice_client, match, *forms[0])
        assert response.status_code == 200 and "error-banner" not in response.content.decode()
        partial = response.content.decode()
        decisions += 1
        assert decisions < MOST_DECISIONS

    match.refresh_from_db()
    assert match.status == "finished" and match.result is not None
    assert "every 2s" not in partial  # polling stops at the end
    assert "Victory pile" in partial and pages.action_forms(partial) == []
    replay = alice_client.get(reverse("match_replay", args=[match.id]))
    assert f"Event <strong>{match.seq}</strong> / {match.seq}".encode() in replay.content
    lobby = alice_client.get(reverse("lobby")).content.decode()
    row = lobby.split(f'id="match-{match.id}-play"')[1].split("</li>")[0]
    mine, theirs = match.result["placements"]  # alice's seat is 0
    said = "draw" if mine == theirs else "won" if mine == 1 else "lost"
    assert f'<span class="outcome outcome-{said}">' in row, row
