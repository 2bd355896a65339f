"""GET /api/games/ and the API's own documentation."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from tests.markup import inline_code

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("who", ["anon_api", "outsider_api", "organizer_api"])
def test_anyone_may_list_the_games_with_their_options_and_bots(
        request: pytest.FixtureRequest, who: str) -> None:
    client: APIClient = request.getfixturevalue(who)
    response = client.get("/api/games/")
    assert response.status_code == 200
    toy = next(g for g in response.json() if g["key"] == "toy_showdown")
    assert toy["title"] == "Toy Showdown"
    assert (toy["min_seats"], toy["max_seats"]) == (2, 2)
    assert toy["options"]["rounds"]["default"] == 3
    assert "random" in toy["bots"]
    assert toy["figures"] == ["points"]  # what an Event's figure:NAME tiebreak may name


@pytest.mark.parametrize("url", ["/api/schema/", "/api/docs/"])
def test_the_schema_and_its_browsable_docs_are_served(anon_api: APIClient, url: str) -> None:
    assert anon_api.get(url).status_code == 200


def test_the_schema_in_yaml_gives_its_errors_as_every_error_is_given(
        anon_api: APIClient) -> None:
    """The schema is served as YAML unless JSON is asked for, and its errors in YAML
    too: their `detail` is the sentence, as in JSON, where the YAML renderer wrote DRF's
    message as an object `{string, code}`."""
    bad_token = APIClient()
    bad_token.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    for response in (bad_token.get("/api/schema/"), anon_api.post("/api/schema/")):
        assert response["Content-Type"].startswith("application/vnd.oai.openapi")
        body = yaml.safe_load(response.content)
        assert body in ({"code": "authentication_failed", "detail": "Invalid token."},
                        {"code": "method_not_allowed",
                         "detail": 'Method "POST" not allowed.'}), body


def test_the_docs_page_loads_its_script_and_styles_from_files(anon_api: APIClient) -> None:
    """The Content-Security-Policy runs no inline script and applies no inline style
    (config/csp.py): the page's own script comes from its address with ?script."""
    page = anon_api.get("/api/docs/").content.decode()
    assert inline_code(page) == []
    sources = re.findall(r'<script src="([^"]+)"></script>', page)
    assert sources[-1] == "/api/docs/?script="
    assert all(src.startswith("/") for src in sources)  # this site's, not a CDN's
    assert '<link rel="stylesheet" href="/static/css/swagger.css">' in page
    script = anon_api.get(sources[-1])
    assert script.status_code == 200
    assert script["Content-Type"] == "application/javascript"
    assert b"SwaggerUIBundle({" in script.content and b'url: "/api/schema/"' in script.content


def test_the_browsable_api_page_carries_no_inline_style(anon_api: APIClient) -> None:
    """Django REST framework's page puts Pygments' rules in an inline <style>, which the
    policy would block; templates/rest_framework/api.html leaves it out."""
    page = anon_api.get("/api/games/", HTTP_ACCEPT="text/html").content.decode()
    assert "Toy Showdown" in page and "/static/rest_framework/js/default.js" in page
    assert inline_code(page) == []


def test_the_schema_documents_the_action_body_and_error_bodies(anon_api: APIClient) -> None:
    schema: Any = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    doc = schema.json()
    post = doc["paths"]["/api/matches/{id}/actions/"]["post"]
    assert set(post["responses"]) >= {"201", "400", "403", "404", "409"}
    fields = doc["components"]["schemas"]["Action"]["properties"]
    assert set(fields) == {"seat", "action", "expected_seq", "idempotency_key"}
    error = doc["components"]["schemas"]["Error"]
    # every refusal has a code and a detail; a stale_seq also says the seq now, and a
    # refusal of one seat that seat's index
    assert (set(error["properties"]), set(error["required"])) == (
        {"code", "detail", "seq", "seat", "problems"}, {"code", "detail"})


def test_every_operation_that_needs_a_signed_in_caller_documents_its_401(
        anon_api: APIClient) -> None:
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    signed_in = [(path, method, op) for path, ops in doc["paths"].items()
                 for method, op in ops.items() if {} not in op.get("security", [{}])]
    assert len(signed_in) > 40
    for path, method, op in signed_in:
        assert "401" in op["responses"], (method, path)
    assert anon_api.get("/api/matches/").status_code == 401
    # Open to anyone, but a token that is not valid is 401 there too, and documented.
    games = doc["paths"]["/api/games/"]["get"]["responses"]
    assert "authentication_failed" in games["401"]["description"]
    assert anon_api.get("/api/games/").status_code == 200
    anon_api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert anon_api.get("/api/games/").status_code == 401


def test_the_schema_documents_the_errors_every_operation_of_its_kind_may_give(
        anon_api: APIClient) -> None:
    """413/415 wherever there is a body, 404 for a page past a list's end, 400 wherever
    a query string or a body is read; the actions' Idempotency-Key header."""
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operations = [op for ops in doc["paths"].values() for op in ops.values()]
    bodies = [op for op in operations if "requestBody" in op]
    lists = [op for op in operations if "Paginated" in str(op["responses"].get("200"))]
    assert len(bodies) > 12 and len(lists) > 8
    for op in bodies:
        assert {"400", "413", "415"} <= set(op["responses"]), op["operationId"]
    for op in lists:
        assert {"400", "404"} <= set(op["responses"]), op["operationId"]
    actions = doc["paths"]["/api/matches/{id}/actions/"]["post"]
    assert ("Idempotency-Key", "header") in {(p["name"], p["in"]) for p in actions["parameters"]}


def test_a_match_list_filtered_by_an_unknown_status_is_refused(player_api: APIClient) -> None:
    """As every list refuses a bad filter (tests/api/test_list_filters.py)."""
    response = player_api.get("/api/matches/?status=bogus")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert list(response.json()["detail"]) == ["status"]
    assert player_api.get("/api/matches/?status=open").status_code == 200


def test_the_api_root_lists_every_collection_and_each_address_answers(
        anon_api: APIClient, player_api: APIClient) -> None:
    """It listed only matches; the league's collections, games and auth were missing."""
    root = anon_api.get("/api/")
    assert root.status_code == 200
    links = root.json()
    assert {"games", "matches", "seasons", "events", "players", "teams", "simulations",
            "ratings", "round-scores", "register", "token", "account", "account-data",
            "close-account",
            "password", "password-reset", "schema", "docs"} <= set(links)
    for name in ("games", "matches", "seasons", "events", "players", "teams", "ratings",
                 "round-scores"):
        assert player_api.get(links[name]).status_code == 200, name
        # Opened in a browser too: the browsable API lists the collection (the ratings
        # tables' answered 500, having no queryset for its filter form).
        page = player_api.get(links[name], HTTP_ACCEPT="text/html")
        assert page.status_code == 200 and page["Content-Type"].startswith("text/html"), name


def test_every_integer_the_schema_documents_is_bounded_as_the_api_reads_it(
        anon_api: APIClient, player_api: APIClient, toy_match: Any) -> None:
    """Past 64 bits a number is refused (400), so no integer schema is left unbounded."""
    from config.api_json import LARGEST_INT

    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    integers: list[dict[str, Any]] = []

    def collect(node: dict[str, Any]) -> dict[str, Any]:
        if node.get("type") == "integer":
            integers.append(node)
        return node

    json.loads(json.dumps(doc), object_hook=collect)  # every object of the document
    assert len(integers) > 100
    for schema in integers:
        assert -LARGEST_INT <= schema["minimum"] <= schema["maximum"] <= LARGEST_INT, schema
    events = f"/api/matches/{toy_match.pk}/events/"
    for query in (f"after={LARGEST_INT + 1}", f"seat={LARGEST_INT + 1}"):
        answer = player_api.get(f"{events}?{query}")
        assert answer.status_code == 400, query
    answer = player_api.get(f"/api/matches/{toy_match.pk}/replay/?at={-LARGEST_INT - 1}")
    assert answer.status_code == 400
    assert player_api.get(f"{events}?after={LARGEST_INT}").json() == []


def test_the_schema_names_its_enums_and_reads_usernames_as_usernames(
        anon_api: APIClient) -> None:
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    schemas = doc["components"]["schemas"]
    status = schemas["RankingPoints"]["properties"]["status"]
    assert status["allOf"][0]["$ref"].endswith("/RankingPointsStatusEnum")
    assert schemas["RankingPointsStatusEnum"]["enum"] == ["pending", "playing", "bonus", "done"]
    for name in ("Season", "LeagueEvent"):
        organizers = schemas[name]["properties"]["organizers"]
        assert organizers["items"] == {"type": "string"}
        assert organizers["description"] == "The organizers' usernames."
