"""A resignation sent again (its first answer lost) answers as the first did, 200
`resigned`, and writes nothing more; it was 409 seat_out in a Royal Rumble of three, where
the first put the seat out, and 409 match_over where the first ended the match. What a
retry reads is what the match shows everyone (its forfeits, its result): a player who did
not resign is still refused, and a leave that removed the match is 404, nothing being
left of it."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import services
from matches.models import Match, MatchEvent

pytestmark = pytest.mark.django_db


def resign(client: APIClient, match_id: int, **body: Any) -> Any:
    return client.post(f"/api/matches/{match_id}/resign/", body, format="json")


def test_a_resignation_sent_again_in_a_royal_rumble_answers_as_the_first(
        player: Any, player_api: APIClient) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"},
                                         {"bot": "random"}])
    first = resign(player_api, match.pk)
    assert (first.status_code, first.json()) == (200, {"outcome": "resigned"})
    forfeits = MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.FORFEIT)
    assert forfeits.count() == 1
    for again in (resign(player_api, match.pk), resign(player_api, match.pk, seat=0)):
        assert (again.status_code, again.json()) == (200, {"outcome": "resigned"})
    assert forfeits.count() == 1


def test_a_resignation_that_ended_the_match_answers_as_the_first_and_only_its_own(
        toy_match: Match, player_api: APIClient, player2_api: APIClient) -> None:
    assert resign(player_api, toy_match.pk).json() == {"outcome": "resigned"}
    toy_match.refresh_from_db()
    result = toy_match.result
    again = resign(player_api, toy_match.pk)
    assert (again.status_code, again.json()) == (200, {"outcome": "resigned"})
    toy_match.refresh_from_db()
    assert toy_match.result == result
    other = resign(player2_api, toy_match.pk)  # bruno won: he resigned nothing
    assert (other.status_code, other.json()["code"]) == (409, "match_over")


def test_a_leave_that_removed_the_match_is_404_sent_again(
        player: Any, player_api: APIClient) -> None:
    match = services.create_match(game="toy_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True}])
    assert resign(player_api, match.pk, leaving=True).json() == {"outcome": "left"}
    again = resign(player_api, match.pk, leaving=True)
    assert (again.status_code, again.json()["code"]) == (404, "not_found")
