"""Whose move it is, kept on the seats (`Seat.awaited`) as the stream grows: the lobby puts
the player's matches that wait for them first, marked, and the API lists them with
`?awaiting=NAME`, without replaying every match."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db


def awaited(match: Match) -> list[int]:
    return list(match.seats.filter(awaited=True).order_by("index")
                .values_list("index", flat=True))


def play(match: Match, seat: int) -> None:
    state = services.match_state(match=match, user=None, seat=None)
    user = match.seats.get(index=seat).user
    action = services.match_state(match=match, user=user)["legal_actions"][0]
    assert seat in state["pending"]["seats"]
    services.submit_action(match=match, seat=seat, user=user, action=action)


def test_the_seats_awaited_follow_the_stream(toy_match: Match) -> None:
    """Both decide at once, each in turn leaves the other awaited, and at the end none is."""
    assert awaited(toy_match) == [0, 1]
    play(toy_match, 0)
    assert awaited(toy_match) == [1]
    while toy_match.status == Match.Status.ACTIVE:
        for seat in services.match_state(match=toy_match, user=None)["pending"]["seats"]:
            play(toy_match, seat)
        toy_match.refresh_from_db()
        pending = services.match_state(match=toy_match, user=None)["pending"]["seats"]
        assert awaited(toy_match) == sorted(pending)
    assert awaited(toy_match) == []


def test_a_forfeit_leaves_no_seat_awaited(toy_match: Match) -> None:
    services.forfeit_seat(match=toy_match, seat=1)
    assert awaited(toy_match) == []


def test_the_api_lists_the_matches_awaiting_a_players_move(
        toy_match: Match, player: Any, player2: Any, client_for: Any) -> None:
    api: APIClient = client_for(player2)

    def listed(name: str) -> list[int]:
        answer = api.get("/api/matches/", {"awaiting": name})
        assert answer.status_code == 200
        return [m["id"] for m in answer.json()["results"]]

    assert listed("alice") == listed("BRUNO") == [toy_match.pk]
    seats = api.get(f"/api/matches/{toy_match.pk}/").json()["seats"]
    assert [seat["awaited"] for seat in seats] == [True, True]
    play(toy_match, 1)
    assert listed("alice") == [toy_match.pk] and listed("bruno") == []
    assert [s["awaited"] for s in api.get(f"/api/matches/{toy_match.pk}/").json()["seats"]] \
        == [True, False]


def test_the_lobby_lists_the_matches_awaiting_my_move_first_and_marks_them(
        toy_game: Any, player: Any, player2: Any) -> None:
    older, newer = (services.create_match(
        game=toy_game.TOY_KEY, options={}, created_by=player2,
        seats=[{"player": player.username}, {"player": player2.username}]) for _ in range(2))
    for match in (older, newer):
        services.join_match(match=match, user=player)
    play(newer, 0)  # alice moved in the newer match: it now waits for bruno alone
    client = Client()
    client.force_login(player)
    page = client.get(reverse("lobby")).content.decode()
    mine = page.split("Your matches")[1].split("</section>")[0]
    rows = mine.split('<li class="match-row">')[1:]
    assert [f"#{older.pk} " in rows[0], f"#{newer.pk} " in rows[1]] == [True, True]
    assert "your move" in rows[0] and "your move" not in rows[1]


@pytest.mark.parametrize(("game", "n_seats"), [
    ("super_showdown", 2), ("superstar_showdown", 2), ("supershow", 2),
    ("royal_rumble", 3), ("ultimate_showdown", 3)])
def test_every_games_awaited_seats_are_its_pending_decisions_after_every_move(
        game: str, n_seats: int, django_user_model: Any) -> None:
    """People in every seat play random legal moves: after each, the seats marked are
    exactly those the engine waits for (simultaneous decisions, chance, the end)."""
    users = [django_user_model.objects.create(username=f"p{i}") for i in range(n_seats)]
    match = services.create_match(game=game, options={}, created_by=None,
                                  seats=[{"player": u.username} for u in users])
    rng = random.Random(7)
    for _ in range(120):
        match.refresh_from_db()
        pending = services.match_state(match=match, user=None)["pending"]
        expected = sorted(pending["seats"]) if pending["kind"] == "decision" else []
        assert awaited(match) == expected
        if match.status != Match.Status.ACTIVE:
            break
        seat = rng.choice(pending["seats"])
        state = services.match_state(match=match, user=users[seat], seat=seat)
        services.submit_action(match=match, seat=seat, user=users[seat],
                               action=rng.choice(state["legal_actions"]))
