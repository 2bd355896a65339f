"""The pages of the API's lists: a bad `page` or `page_size` is a 400 naming the parameter,
like any other query parameter; a page past the last is 404 `page_out_of_range`; the page
size a client asks for is the one it gets, up to 100, and the `next` links keep it.

`page=0` was 404 `not_found` (as if the list were gone), `page=last` was taken though no
schema said so, and `page_size` was ignored while the `next` links carried it on."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from config.api_pagination import MAX_PAGE_SIZE
from matches import services

pytestmark = pytest.mark.django_db

LISTS = ["/api/matches/", "/api/events/", "/api/players/", "/api/ratings/",
         "/api/round-scores/", "/api/teams/", "/api/seasons/"]


@pytest.fixture
def five_matches(player: Any) -> list[int]:
    """Five open matches of alice's, newest first (as the list orders them)."""
    made = [services.create_match(game="toy_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True}])
            for _ in range(5)]
    return [m.pk for m in reversed(made)]


@pytest.mark.parametrize("url", LISTS)
@pytest.mark.parametrize(("query", "name"), [
    ("page=0", "page"), ("page=-1", "page"), ("page=abc", "page"), ("page=last", "page"),
    ("page_size=0", "page_size"), ("page_size=abc", "page_size"),
    (f"page_size={MAX_PAGE_SIZE + 1}", "page_size"),
])
def test_a_bad_page_or_page_size_is_a_400_naming_it(organizer_api: APIClient, url: str,
                                                    query: str, name: str) -> None:
    response = organizer_api.get(f"{url}?{query}")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid" and set(body["detail"]) == {name}


@pytest.mark.parametrize("url", LISTS)
def test_a_page_past_the_last_is_404_page_out_of_range(organizer_api: APIClient,
                                                       url: str) -> None:
    assert organizer_api.get(f"{url}?page=1").status_code == 200  # an empty list has one
    response = organizer_api.get(f"{url}?page=2")
    assert response.status_code == 404
    assert response.json() == {"code": "page_out_of_range",
                               "detail": "Page 2 is past the last page of this list (1)."}


def test_the_page_size_asked_for_is_kept_by_the_next_links(
        player_api: APIClient, five_matches: list[int]) -> None:
    first = player_api.get("/api/matches/?page_size=2&status=open").json()
    assert first["count"] == 5 and [m["id"] for m in first["results"]] == five_matches[:2]
    assert "page_size=2" in first["next"] and "page=2" in first["next"]
    second = player_api.get(first["next"]).json()
    assert [m["id"] for m in second["results"]] == five_matches[2:4]
    third = player_api.get(second["next"]).json()
    assert [m["id"] for m in third["results"]] == five_matches[4:]
    assert third["next"] is None and "page_size=2" in third["previous"]
    assert player_api.get("/api/matches/?page_size=2&page=4").json()["code"] == \
        "page_out_of_range"
    largest = player_api.get(f"/api/matches/?page_size={MAX_PAGE_SIZE}")
    assert largest.status_code == 200 and len(largest.json()["results"]) == 5


def test_the_schema_states_the_bounds_of_page_and_page_size(anon_api: APIClient) -> None:
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    lists = [op for ops in doc["paths"].values() for op in ops.values()
             if "Paginated" in str(op["responses"].get("200"))]
    assert len(lists) > 8
    for op in lists:
        params = {p["name"]: p["schema"] for p in op["parameters"] if p["in"] == "query"}
        assert params["page"]["minimum"] == 1, op["operationId"]
        assert (params["page_size"]["minimum"], params["page_size"]["maximum"]) == (
            1, MAX_PAGE_SIZE), op["operationId"]
        assert "page_out_of_range" in op["responses"]["404"]["description"]
