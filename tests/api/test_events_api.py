"""GET /api/matches/{id}/events/ and /replay/, and what hidden information never shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db


def events_url(match_id: int, after: int = 0) -> str:
    return f"/api/matches/{match_id}/events/?after={after}"


def replay_url(match_id: int, at: int) -> str:
    return f"/api/matches/{match_id}/replay/?at={at}"


def hands(match: Match) -> list[list[str]]:
    return match.events.get(seq=1).payload["outcome"]["hands"]


def play_round(match: Match, users: tuple[Any, Any]) -> None:
    for seat, user in enumerate(users):
        action = services.match_state(match=match, user=user)["legal_actions"][0]
        services.submit_action(match=match, seat=seat, action=action, user=user)


# -- permission tables -------------------------------------------------------------------

@pytest.mark.parametrize(("role", "status"),
                         [("anonymous", 401), ("outsider", 200), ("seated", 200), ("staff", 200)])
def test_who_may_read_the_events(as_role: Callable[[str], APIClient], toy_match: Match,
                                 role: str, status: int) -> None:
    assert as_role(role).get(events_url(toy_match.pk)).status_code == status


@pytest.mark.parametrize(("role", "status"),
                         [("anonymous", 401), ("outsider", 200), ("seated", 200), ("staff", 200)])
def test_who_may_replay_a_match(as_role: Callable[[str], APIClient], toy_match: Match,
                                role: str, status: int) -> None:
    assert as_role(role).get(replay_url(toy_match.pk, 1)).status_code == status


# -- events ------------------------------------------------------------------------------

def test_events_come_in_seq_order_redacted_for_the_caller_and_narrated(
        player_api: APIClient, toy_match: Match) -> None:
    events = player_api.get(events_url(toy_match.pk)).json()
    assert [(e["seq"], e["kind"], e["seat"]) for e in events] == [(1, "chance", None),
                                                                  (2, "chance", None)]
    assert events[0]["data"] == {"kind": "chance", "outcome": {"hand": hands(toy_match)[0]}}
    assert events[0]["narration"] == ["The cards are dealt."]
    assert events[1]["data"]["outcome"]["tiebreak"] in (0, 1)


def test_events_after_a_seq_start_after_it(player_api: APIClient, toy_match: Match,
                                           player: Any, player2: Any) -> None:
    play_round(toy_match, (player, player2))
    events = player_api.get(events_url(toy_match.pk, after=3)).json()
    assert [e["seq"] for e in events] == [4]
    assert events[0]["narration"][-1].startswith("Revealed:")
    assert player_api.get(events_url(toy_match.pk, after=4)).json() == []


def test_a_negative_after_is_400(player_api: APIClient, toy_match: Match) -> None:
    response = player_api.get(events_url(toy_match.pk, after=-1))
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_a_finished_match_shows_every_event_in_full(
        outsider_api: APIClient, toy_match: Match, player: Any, player2: Any) -> None:
    for _ in range(3):
        play_round(toy_match, (player, player2))
    events = outsider_api.get(events_url(toy_match.pk)).json()
    assert events[0]["data"] == {"kind": "chance", "outcome": {"hands": hands(toy_match)}}
    assert all(e["data"]["action"]["card"] for e in events if e["kind"] == "decision")


# -- replay ------------------------------------------------------------------------------

def test_replay_at_a_seq_shows_that_moment_its_narration_and_who_was_to_act(
        player_api: APIClient, toy_match: Match, player: Any, player2: Any) -> None:
    play_round(toy_match, (player, player2))
    at0 = player_api.get(replay_url(toy_match.pk, 0)).json()
    assert (at0["seq"], at0["narration"], at0["pending"]["kind"]) == (0, [], "chance")
    assert at0["view"]["hand"] == []
    at1 = player_api.get(replay_url(toy_match.pk, 1)).json()
    assert at1["view"]["hand"] == sorted(hands(toy_match)[0])
    assert at1["narration"] == ["The cards are dealt."]
    at3 = player_api.get(replay_url(toy_match.pk, 3)).json()
    assert at3["pending"]["seats"] == [1]
    assert at3["seats"] is None


@pytest.mark.parametrize("at", [-1, 5, 99])
def test_replay_out_of_range_is_400_bad_seq(player_api: APIClient, toy_match: Match,
                                            at: int) -> None:
    response = player_api.get(replay_url(toy_match.pk, at))
    assert (response.status_code, response.json()["code"]) == (400, "bad_seq")


@pytest.mark.parametrize("query", ["", "?at=last"])
def test_replay_without_a_readable_at_is_400(player_api: APIClient, toy_match: Match,
                                             query: str) -> None:
    response = player_api.get(f"/api/matches/{toy_match.pk}/replay/{query}")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_replay_of_a_finished_match_shows_every_seats_view(
        outsider_api: APIClient, toy_match: Match, player: Any, player2: Any) -> None:
    for _ in range(3):
        play_round(toy_match, (player, player2))
    frame = outsider_api.get(replay_url(toy_match.pk, 2)).json()
    assert [seat["hand"] for seat in frame["seats"]] == [sorted(h) for h in hands(toy_match)]


# -- hidden information ------------------------------------------------------------------

def leaked(body: bytes, cards: list[str]) -> list[str]:
    return [card for card in cards if f'"{card}"'.encode() in body or card.encode() in body]


@pytest.mark.parametrize("viewer", ["player_api", "outsider_api"])
def test_the_other_seats_hand_and_face_down_card_never_reach_the_caller(
        request: pytest.FixtureRequest, toy_match: Match, player2: Any, viewer: str) -> None:
    """Before any reveal, nothing alice (seat 0) or a spectator reads names bruno's cards."""
    client: APIClient = request.getfixturevalue(viewer)
    secret = hands(toy_match)[1]
    face_down = services.match_state(match=toy_match, user=player2)["legal_actions"][0]
    services.submit_action(match=toy_match, seat=1, action=face_down, user=player2)
    match_id = toy_match.pk
    bodies = [
        client.get(f"/api/matches/{match_id}/state/").content,
        client.get(events_url(match_id)).content,
        client.get(f"/api/matches/{match_id}/").content,
        *(client.get(replay_url(match_id, at)).content for at in range(toy_match.seq + 1)),
        # A refusal must not say whose card it was either.
        client.post(f"/api/matches/{match_id}/actions/", {"seat": 0, "action": face_down},
                    format="json").content,
        client.post(f"/api/matches/{match_id}/actions/", {"seat": 1, "action": face_down},
                    format="json").content,
    ]
    assert [leaked(body, secret) for body in bodies] == [[] for _ in bodies]


def test_the_seat_holder_does_see_their_own_face_down_card(
        player2_api: APIClient, toy_match: Match, player2: Any) -> None:
    face_down = services.match_state(match=toy_match, user=player2)["legal_actions"][0]
    services.submit_action(match=toy_match, seat=1, action=face_down, user=player2)
    state = player2_api.get(f"/api/matches/{toy_match.pk}/state/").json()
    assert state["view"]["my_face_down"] == face_down["card"]
    last = player2_api.get(events_url(toy_match.pk, after=2)).json()[0]
    assert last["data"]["action"] == face_down


def hidden_cards_of(view: dict[str, Any], seat: int) -> list[str]:
    """Card ids only `seat` may know: its hand and its face-down card."""
    hidden = [card["id"] for card in view["hand"]]
    played = view["seats"][seat]["played"]
    if played["status"] == "face_down":
        hidden.append(played["card"]["id"])
    return hidden


def test_in_super_showdown_the_nemesis_hand_and_face_down_card_never_reach_the_caller(
        player: Any, player2: Any, player_api: APIClient, outsider_api: APIClient) -> None:
    match = services.create_match(game="super_showdown", options={},
                                  seats=[{"player": "alice"}, {"player": "bruno"}],
                                  created_by=player)
    services.join_match(match=match, user=player2)
    users = {0: player, 1: player2}
    for _ in range(200):
        match.refresh_from_db()
        if match.status == "finished":
            break  # once it is over nothing is hidden any more
        secret = hidden_cards_of(
            services.match_state(match=match, user=player2)["view"], 1)
        for client in (player_api, outsider_api):
            bodies = [
                client.get(f"/api/matches/{match.pk}/state/").content,
                client.get(events_url(match.pk)).content,
                client.get(replay_url(match.pk, match.seq)).content,
            ]
            for body in bodies:
                assert [c for c in secret if f'"{c}"'.encode() in body] == []
        pending = services.match_state(match=match, user=player)["pending"]["seats"]
        seat = pending[-1]  # bruno first when both must play: his card is then face down
        action = services.match_state(match=match, user=users[seat], seat=seat)[
            "legal_actions"][0]
        services.submit_action(match=match, seat=seat, action=action, user=users[seat])
    assert match.status == "finished"
