"""Each game's ratings table: /league/ratings/, /api/ratings/ and a player's place on their
page. The ratings come from real matches rated by the projection."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from league import projections
from league import views as league_views
from league.models import Player
from league.services import player_for
from matches import services as match_services
from matches.models import Match

pytestmark = pytest.mark.django_db

GAME = "super_showdown"


def beat(winner: Any, loser: Any, played: Any) -> Match:
    """`winner` beat `loser`, who moved and then resigned; the match rated."""
    match = match_services.create_match(game=GAME, options={}, created_by=winner,
                                        seats=[{"player": winner.username},
                                               {"player": loser.username}])
    match_services.join_match(match=match, user=loser)
    match = match_services.forfeit_seat(match=played(match, 1), seat=1)
    projections.refresh_ratings_after(match)
    return match


@pytest.fixture
def people(django_user_model: Any) -> dict[str, Any]:
    users = {name: django_user_model.objects.create_user(username=name, password="pw-x-77231")
             for name in ("alice", "bruno", "carol", "dave", "erin")}
    for user in users.values():
        player_for(user)
    return users


@pytest.fixture
def rated(people: dict[str, Any], played: Any) -> dict[str, Any]:
    """alice beat bruno and carol beat dave: alice and carol level on top, bruno and dave
    level below; erin has no rated match."""
    beat(people["alice"], people["bruno"], played)
    beat(people["carol"], people["dave"], played)
    return people


def table(api: APIClient, **query: Any) -> list[tuple[int, str]]:
    answer = api.get("/api/ratings/", query)
    assert answer.status_code == 200, answer.content
    return [(row["place"], row["player"]["username"]) for row in answer.json()["results"]]


def api_for(user: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_the_table_is_best_first_and_equal_ratings_share_a_place(rated: dict[str, Any]) -> None:
    api = api_for(rated["erin"])
    assert table(api, game=GAME) == [(1, "alice"), (1, "carol"), (3, "bruno"), (3, "dave")]
    rows = api.get("/api/ratings/", {"game": GAME}).json()["results"]
    assert rows[0]["ordinal"] > rows[2]["ordinal"] and rows[0]["matches"] == 1
    assert {row["game"] for row in rows} == {GAME}


def test_a_search_narrows_the_rows_and_keeps_their_places(rated: dict[str, Any]) -> None:
    api = api_for(rated["erin"])
    assert table(api, game=GAME, search="DAV") == [(3, "dave")]
    Player.objects.filter(user=rated["carol"]).update(display_name="Carol Crane")
    assert table(api, game=GAME, search="crane") == [(1, "carol")]
    assert table(api, game=GAME, search="erin") == []


def test_a_deactivated_account_leaves_the_table_and_the_places_close_up(
        rated: dict[str, Any]) -> None:
    rated["carol"].is_active = False
    rated["carol"].save()
    assert table(api_for(rated["erin"]), game=GAME) == [(1, "alice"), (2, "bruno"), (2, "dave")]


def test_without_a_game_every_table_is_listed_and_an_unknown_game_is_refused(
        rated: dict[str, Any]) -> None:
    api = api_for(rated["erin"])
    assert table(api) == [(1, "alice"), (1, "carol"), (3, "bruno"), (3, "dave")]
    answer = api.get("/api/ratings/", {"game": "chess"})
    assert (answer.status_code, answer.json()["code"]) == (400, "unknown_game")
    assert APIClient().get("/api/ratings/").status_code == 401


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def rows_of(html: str) -> list[str]:
    """The player ids of the table's rows, in order."""
    return re.findall(r'<tr id="player-(\d+)"', html)


def test_the_page_shows_the_table_and_the_readers_own_place(rated: dict[str, Any]) -> None:
    ids = {name: Player.objects.get(user=user).pk for name, user in rated.items()}
    page = signed_in(rated["dave"]).get("/league/ratings/")  # the game with ratings
    assert page.status_code == 200
    html = page.content.decode()
    assert rows_of(html) == [str(ids[name]) for name in ("alice", "carol", "bruno", "dave")]
    assert re.search(rf'<tr id="player-{ids["dave"]}" class="you"', html)
    assert re.search(r'id="my-place">You: <a class="tap-link" href="[^"]*page=1#player-\d+">'
                     r'<strong>#3</strong>',
                     html)
    lonely = signed_in(rated["erin"]).get(f"/league/ratings/?game={GAME}").content.decode()
    assert 'id="my-place"' not in lonely and 'class="you"' not in lonely


def test_the_page_pages_and_links_the_reader_to_the_page_with_their_row(
        rated: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(league_views, "RATINGS_PER_PAGE", 3)
    dave = Player.objects.get(user=rated["dave"])
    client = signed_in(rated["dave"])
    first = client.get(f"/league/ratings/?game={GAME}").content.decode()
    assert len(rows_of(first)) == 3 and str(dave.pk) not in rows_of(first)
    assert f'page=2#player-{dave.pk}"><strong>#3</strong>' in first
    assert rows_of(client.get(f"/league/ratings/?game={GAME}&page=2").content.decode()) \
        == [str(dave.pk)]
    # A page past the end shows the last one; a search keeps its places.
    assert rows_of(client.get(f"/league/ratings/?game={GAME}&page=99").content.decode()) \
        == [str(dave.pk)]
    found = client.get(f"/league/ratings/?game={GAME}&q=bru").content.decode()
    assert re.findall(r'<tr id="player-\d+"[^>]*>\s*<td>(\d+)</td>', found) == ["3"]
    # The player's own page names the place and links to that page of the table.
    mine = client.get(f"/league/players/{dave.pk}/").content.decode()
    assert re.search(rf'href="/league/ratings/\?game={GAME}&amp;page=2#player-{dave.pk}">'
                     r'#3 in the ratings</a>', mine)


def test_the_pager_keeps_the_search_and_the_rest_of_the_query(
        rated: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(league_views, "RATINGS_PER_PAGE", 1)
    client = signed_in(rated["dave"])
    first = client.get(f"/league/ratings/?game={GAME}&q=r&from=mail").content.decode()
    assert len(rows_of(first)) == 1  # bruno's and carol's rows, one a page
    assert re.findall(r'rel="(prev|next)" href="([^"]*)"', first) == [
        ("next", f"?game={GAME}&amp;q=r&amp;from=mail&amp;page=2")]
    second = client.get(f"/league/ratings/?game={GAME}&q=r&from=mail&page=2").content.decode()
    assert rows_of(second) != rows_of(first) and len(rows_of(second)) == 1
    assert re.findall(r'rel="(prev|next)" href="([^"]*)"', second) == [
        ("prev", f"?game={GAME}&amp;q=r&amp;from=mail&amp;page=1")]
    # Without ?game=, the game the page took (the one with ratings) is named in the link.
    default = client.get("/league/ratings/").content.decode()
    assert re.findall(r'rel="(prev|next)" href="([^"]*)"', default) == [
        ("next", f"?game={GAME}&amp;page=2")]


def test_an_unknown_game_is_404_and_a_game_nobody_played_says_so(rated: dict[str, Any]) -> None:
    client = signed_in(rated["erin"])
    assert client.get("/league/ratings/?game=chess").status_code == 404
    empty = client.get("/league/ratings/?game=royal_rumble").content.decode()
    assert rows_of(empty) == [] and "No rated match of this game yet" in empty
    assert Client().get("/league/ratings/").status_code == 302  # the login page
