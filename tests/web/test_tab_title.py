"""The tab's title says "Your move" while the match waits for the viewer, and how it ended
once it has (won, lost, drawn; "Over" to a reader with no seat); a poll or a move that
changes that changes the title (htmx takes a partial's top-level <title>)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db


def title(body: bytes) -> str:
    found = re.findall(r"<title>(.*?)</title>", body.decode(), re.S)
    assert len(found) == 1, found
    return found[0]


@pytest.fixture
def duel(player: Any, player2: Any) -> Match:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    match.refresh_from_db()
    return match


def test_the_awaited_player_s_tab_says_your_move_and_the_other_s_does_not(
        duel: Match, player: Any, alice_client: Client, bruno_client: Client,
        pages: Any) -> None:
    awaited = services.match_state(match=duel, user=player)["pending"]["seats"]
    assert len(awaited) == 1
    mover, waiter = ((alice_client, bruno_client) if awaited == [0]
                     else (bruno_client, alice_client))
    plain = f"#{duel.pk} Super Showdown · Showdown League"
    page = mover.get(reverse("match_play", args=[duel.pk])).content
    assert title(page) == "Your move · " + plain
    assert title(waiter.get(reverse("match_play", args=[duel.pk])).content) == plain
    # The polled partial carries the title at its top level, where htmx takes it.
    polled = pages.state(mover, duel, seq=0).content
    assert title(polled) == "Your move · " + plain
    assert polled.decode().index("<title>") < polled.decode().index('id="match-state"')
    action, key = pages.action_forms(page)[0]
    moved = pages.act(mover, duel, action, key)
    assert title(moved.content) == plain  # the move answers with the title turned back
    assert title(pages.state(waiter, duel, seq=0).content) == "Your move · " + plain


def test_a_plain_page_load_of_the_partial_has_no_title(duel: Match,
                                                       alice_client: Client) -> None:
    """A partial asked for without htmx (a link opened by hand) is no page of its own."""
    response = alice_client.get(reverse("match_state", args=[duel.pk]))
    assert b"<title>" not in response.content


def test_a_finished_matchs_tab_says_how_it_ended_for_each_reader(
        duel: Match, player2: Any, alice_client: Client, bruno_client: Client,
        outsider_client: Client, pages: Any) -> None:
    """A finished match's tab read as any other's: a seated player's says they won or
    lost, anybody else's that it is over, on the page and in the polled partial."""
    services.resign(match=duel, user=player2)
    plain = f"#{duel.pk} Super Showdown · Showdown League"
    for client, said in ((alice_client, "You won"), (bruno_client, "You lost"),
                         (outsider_client, "Over")):
        assert title(client.get(reverse("match_play", args=[duel.pk])).content) \
            == f"{said} · {plain}"
        assert title(pages.state(client, duel, seq=0).content) == f"{said} · {plain}"


def test_a_drawn_matchs_tab_says_so_to_its_players(duel: Match) -> None:
    ended = {"kind": "end", "seats": [], "result": {"draw": True, "winners": [0, 1]}}
    for seat, said in ((0, "You drew"), (None, "Over")):
        shown = render_to_string("matches/_title.html", {
            "match": duel, "game_title": "Super Showdown",
            "state": {"seat": seat, "pending": ended}})
        assert shown == f"{said} · #{duel.pk} Super Showdown · Showdown League"
