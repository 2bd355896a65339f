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
from matches.models import Match, MatchEvent, Seat

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


def seated(match: Match) -> list[str | None]:
    return [seat.user.username if seat.user else None
            for seat in Seat.objects.filter(match=match).select_related("user")]


def test_a_leave_sent_again_answers_as_the_first_and_writes_nothing(
        player: Any, player2: Any, player_api: APIClient, player2_api: APIClient,
        outsider_api: APIClient) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True},
                                         {"open": True}])
    services.join_match(match=match, user=player2)
    assert resign(player2_api, match.pk, leaving=True).json() == {"outcome": "left"}
    assert outsider_api.post(f"/api/matches/{match.pk}/join/").status_code == 200
    assert seated(match) == ["alice", "olga", None]
    for again in (resign(player2_api, match.pk, leaving=True), resign(player2_api, match.pk),
                  resign(player2_api, match.pk, seat=1)):
        assert (again.status_code, again.json()) == (200, {"outcome": "left"})
    assert seated(match) == ["alice", "olga", None]
    # Only the seat left: bruno never sat in seat 2.
    other = resign(player2_api, match.pk, seat=2)
    assert (other.status_code, other.json()["code"]) == (403, "not_your_seat")


def test_a_leave_sent_again_once_the_match_started_answers_left(
        player: Any, player2: Any, outsider: Any, player2_api: APIClient) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True},
                                         {"open": True}])
    services.join_match(match=match, user=player2)
    assert resign(player2_api, match.pk, leaving=True).json() == {"outcome": "left"}
    services.join_match(match=match, user=outsider)
    services.hand_seat_to_bot(match=match, seat=2, bot="random")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    seq = match.seq
    again = resign(player2_api, match.pk, leaving=True)
    assert (again.status_code, again.json()) == (200, {"outcome": "left"})
    match.refresh_from_db()
    assert (match.status, match.seq) == (Match.Status.ACTIVE, seq)


def test_who_never_sat_in_the_match_is_still_refused_a_leave(
        player: Any, player2: Any, player2_api: APIClient, outsider_api: APIClient) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True},
                                         {"open": True}])
    services.join_match(match=match, user=player2)
    resign(player2_api, match.pk, leaving=True)
    refused = resign(outsider_api, match.pk, leaving=True)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_seated")


def test_a_closed_account_keeps_no_record_of_the_matches_it_left(
        player: Any, player2: Any) -> None:
    """Closing leaves the open matches (a record each, for a leave sent again), then
    keeps none: nothing personal stays, and a closed account sends no leave."""
    from league.services import close_user
    from matches.models import Departure

    earlier = services.create_match(game="royal_rumble", options={}, created_by=player,
                                    seats=[{"player": player.username}, {"open": True},
                                           {"player": player2.username}])
    services.join_match(match=earlier, user=player2)
    assert services.resign(match=earlier, user=player, leaving=True) == "left"
    assert Departure.objects.filter(user=player).count() == 1
    close_user(player)
    assert not Departure.objects.filter(user=player).exists()
    assert Match.objects.filter(pk=earlier.pk, status=Match.Status.OPEN).exists()


def test_one_holding_several_seats_of_an_open_match_names_the_one_to_leave(
        player: Any, player_api: APIClient) -> None:
    """A leave naming no seat took the first, and the same leave sent again (its answer
    lost) the next: the API asks which, and a leave that names it, sent again, answers
    `left` and leaves nothing more."""
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username},
                                         {"player": player.username}, {"open": True}])
    for body in ({"leaving": True}, {}, {"seat": None}):
        refused = resign(player_api, match.pk, **body)
        assert refused.status_code == 400, refused.content
        assert refused.json()["code"] == "seat_required"
        assert refused.json()["detail"] == (
            "You hold several seats of this match (Seat 1, Seat 2; seat 0, 1 in the API): "
            "name the one to leave (`seat`).")
    assert seated(match) == ["alice", "alice", None]
    for _ in range(2):
        left = resign(player_api, match.pk, seat=0, leaving=True)
        assert (left.status_code, left.json()) == (200, {"outcome": "left"})
        assert seated(match) == [None, "alice", None]
    # One seat held: a leave names none, and sent again answers as the first.
    assert resign(player_api, match.pk, seat=1).json() == {"outcome": "left"}
    assert not Match.objects.filter(pk=match.pk).exists()  # nobody left in it


def test_one_holding_a_single_seat_still_leaves_without_naming_it(
        player: Any, player2: Any, player2_api: APIClient) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True},
                                         {"open": True}])
    services.join_match(match=match, user=player2)
    for _ in range(2):
        assert resign(player2_api, match.pk).json() == {"outcome": "left"}
    assert seated(match) == ["alice", None, None]


def test_one_holding_several_seats_of_a_live_match_names_the_one_to_resign(
        player: Any, player2: Any, player_api: APIClient) -> None:
    """A resignation naming no seat put out the first still in, and the same sent again
    (its answer lost) the next, the first being out: the API asks which, and one that
    names it, sent again, answers `resigned` and puts out nothing more."""
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username},
                                         {"player": player.username}, {"bot": "random"},
                                         {"bot": "random"}])
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    refused = resign(player_api, match.pk)
    assert (refused.status_code, refused.json()["code"]) == (400, "seat_required")
    assert "name the one to resign" in refused.json()["detail"]
    for _ in range(2):
        assert resign(player_api, match.pk, seat=0).json() == {"outcome": "resigned"}
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE
        assert services.seats_out(match) == {0}


def test_closing_an_account_still_leaves_every_seat_it_held(player: Any) -> None:
    """The service itself, as closing an account calls it, leaves the first seat of
    several unnamed: it is sent once per seat, never again."""
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username},
                                         {"player": player.username}, {"open": True}])
    assert services.resign(match=match, user=player) == "left"
    assert seated(match) == [None, "alice", None]
