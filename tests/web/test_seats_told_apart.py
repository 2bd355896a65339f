"""A match's page names each seat by who sits there; where two seats read the same (the
lobby seats every other seat with the one bot chosen: a Royal Rumble of four against
"bot: random" three times), each of those is numbered, on the seats line, in whose turn
it is, in the game's view, its log and its result, so that the page says which one
attacked, and which one won.

Bot seats reply in an on_commit hook, so these tests use a transactional database."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

# "bot: random" without its number
BARE = re.compile(r"bot: random(?! \(seat [234]\))")


def test_bots_alike_are_numbered_from_the_first_move_to_the_result(
        alice_client: Client, player: Any) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}]
                                  + [{"bot": "random"} for _ in range(3)])
    play = reverse("match_play", args=[match.id])
    page = alice_client.get(play).content.decode()
    seats = page[page.index('<p class="seats">'):page.index("</p>", page.index('class="seats"'))]
    for number in (2, 3, 4):
        assert f"bot: random (seat {number})" in seats
    assert "alice (you)" in seats and "(seat 1)" not in page  # alice's name is hers alone
    assert "enters the ring for bot: random (seat 2)" in page  # the log
    assert BARE.findall(page) == []
    services.resign(match=match, user=player)  # alice is out; the bots play it to its end
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    page = alice_client.get(play).content.decode()
    summary = page[page.index('<span class="summary">'):]
    summary = summary[:summary.index("</span>")]
    assert re.search(r"bot: random \(seat [234]\)", summary), summary
    assert BARE.findall(page) == []
    replay = alice_client.get(reverse("match_replay", args=[match.id]), {"at": 6})
    assert BARE.findall(replay.content.decode()) == []


def test_a_seat_whose_name_no_other_shares_is_not_numbered(alice_client: Client,
                                                            player: Any) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"},
                                         {"bot": "heuristic"}])
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert "bot: random" in page and "bot: heuristic" in page and "(seat " not in page


def test_a_rumble_target_names_the_legend_then_its_numbered_seat() -> None:
    """A Plan's target button read "Target bot: random (seat 3) (Rook Rutherford)", two
    brackets running on; it names the Legend, then whose it is."""
    from matches.models import Seat, tell_apart
    from matches.templatetags.royal_rumble import _label

    seats = tell_apart([Seat(index=i, bot="random") for i in range(3)])
    label = _label({"type": "target", "seat": 2}, {}, {2: "Rook Rutherford"}, "", seats)
    assert label == "Target Rook Rutherford of bot: random (seat 3)"
