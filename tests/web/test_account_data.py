"""A player's data to take away: the account page's file and GET /api/auth/me/data/, with
their account, ratings, matches, Event entries and teams, and nobody else's secrets."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league import events, projections
from league.models import Team
from league.services import player_for
from matches import services

pytestmark = pytest.mark.django_db

GAME = "super_showdown"


@pytest.fixture
def lived(player: Any, player2: Any, organizer: Any, accept: Any, played: Any) -> dict[str, Any]:
    """alice beat bruno (rated), is entered alone in one Event and with her team in
    another; bruno has an email address."""
    get_user_model().objects.filter(pk=player2.pk).update(email="bruno@example.org")
    get_user_model().objects.filter(pk=player.pk).update(email="alice@example.org")
    player.refresh_from_db()
    match = played(accept(services.create_match(
        game=GAME, options={}, created_by=player,
        seats=[{"player": "alice"}, {"player": "bruno"}])), 1)
    match = services.forfeit_seat(match=match, seat=1)
    projections.refresh_ratings_after(match)
    alone = events.create_event(name="Solo Night", game=GAME, format="round_robin",
                                by=organizer)
    events.add_entrant(event=alone, by=organizer, player="alice")
    team = Team.objects.create(name="Night Owls")
    team.members.set([player_for(player), player_for(player2)])
    together = events.create_event(name="Team Cup", game=GAME, format="round_robin",
                                   by=organizer)
    events.add_entrant(event=together, by=organizer, team="Night Owls")
    return {"match": match, "alone": alone, "together": together, "team": team}


def check(document: dict[str, Any], player: Any, lived: dict[str, Any]) -> None:
    assert (document["format"], document["version"]) == ("showdown-league/account-data", 1)
    assert document["account"]["username"] == "alice"
    assert document["account"]["email"] == "alice@example.org"
    assert [(r["game"], r["matches"]) for r in document["ratings"]] == [(GAME, 1)]
    assert [r["match"] for r in document["rating_history"]] == [lived["match"].pk]
    assert [(m["id"], m["outcome"]) for m in document["matches"]] == [
        (lived["match"].pk, "win")]
    assert sorted((e["event_name"], e["team"]) for e in document["entries"]) == [
        ("Solo Night", None), ("Team Cup", "Night Owls")]
    assert [t["name"] for t in document["teams"]] == ["Night Owls"]
    assert "bruno@example.org" not in json.dumps(document)


def test_the_account_page_offers_the_file(alice_client: Client, player: Any,
                                          lived: dict[str, Any]) -> None:
    page = alice_client.get(reverse("account")).content.decode()
    assert f'href="{reverse("account_data")}" download' in page
    answer = alice_client.get(reverse("account_data"))
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == \
        'attachment; filename="showdown-league-alice.json"'
    assert "no-store" in answer["Cache-Control"]
    check(json.loads(answer.content), player, lived)
    assert Client().get(reverse("account_data")).status_code == 302  # to the login


def test_the_file_is_named_for_a_username_the_admin_made_in_any_letters(
        django_user_model: Any) -> None:
    """Sign-up takes a-z, the admin any letter: the header went MIME-encoded whole,
    which no browser reads as an attachment, nor its name."""
    user = django_user_model.objects.create_user("алиса", password="pw-x-99812")
    client = Client()
    client.force_login(user)
    answer = client.get(reverse("account_data"))
    assert answer["Content-Disposition"] == (
        "attachment; filename*=utf-8''showdown-league-%D0%B0%D0%BB%D0%B8%D1%81%D0%B0.json")


def test_the_api_answers_the_same_document(player: Any, lived: dict[str, Any]) -> None:
    api = APIClient()
    api.force_authenticate(player)
    answer = api.get("/api/auth/me/data/")
    assert answer.status_code == 200 and answer["Cache-Control"] == "private, no-store"
    check(answer.json(), player, lived)
    assert APIClient().get("/api/auth/me/data/").status_code == 401


def test_a_match_seen_from_the_players_seat_holds_no_other_seats_hand(
        player: Any, player2: Any, accept: Any) -> None:
    """A live match is in the file as the match history shows it: seats and status, no
    state at all, so no card of the other seat's."""
    match = accept(services.create_match(game=GAME, options={}, created_by=player,
                                         seats=[{"player": "alice"}, {"player": "bruno"}]))
    api = APIClient()
    api.force_authenticate(player)
    (row,) = api.get("/api/auth/me/data/").json()["matches"]
    assert row["id"] == match.pk and row["status"] == "active"
    assert set(row) == {"id", "game", "status", "created_at", "seats", "seat", "result",
                        "outcome", "event"}


def test_the_open_matches_the_player_left_are_in_the_document(player: Any) -> None:
    """Kept so that a leave sent again is answered as the first was, so the player's."""
    waiting = services.create_match(game="royal_rumble", options={}, created_by=player,
                                    seats=[{"player": "alice"}, {"open": True},
                                           {"open": True}])
    services.join_match(match=waiting, user=get_user_model().objects.create_user(
        "carla", password="pw-x-99812"))
    assert services.resign(match=waiting, user=player, leaving=True) == "left"
    api = APIClient()
    api.force_authenticate(player)
    (left,) = api.get("/api/auth/me/data/").json()["departures"]
    assert (left["match"], left["seat"], left["outcome"]) == (waiting.pk, 0, "left")
