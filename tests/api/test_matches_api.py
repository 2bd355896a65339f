"""/api/matches/: create, list (filtered, paginated), detail and join."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from league import events
from league.models import EventMatch
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db

MATCHES = "/api/matches/"
TOY = "toy_showdown"


def open_match(creator: Any) -> Match:
    return services.create_match(game=TOY, options={},
                                 seats=[{"player": creator.username}, {"open": True}],
                                 created_by=creator)


# -- permission tables -------------------------------------------------------------------

@pytest.mark.parametrize(("role", "status"),
                         [("anonymous", 401), ("outsider", 200), ("seated", 200), ("staff", 200)])
def test_who_may_list_matches(as_role: Callable[[str], APIClient], toy_match: Match,
                              role: str, status: int) -> None:
    assert as_role(role).get(MATCHES).status_code == status


@pytest.mark.parametrize(("role", "status"),
                         [("anonymous", 401), ("outsider", 200), ("seated", 200), ("staff", 200)])
def test_who_may_see_a_match(as_role: Callable[[str], APIClient], toy_match: Match,
                             role: str, status: int) -> None:
    assert as_role(role).get(f"{MATCHES}{toy_match.pk}/").status_code == status


@pytest.mark.parametrize(("role", "status", "code"),
                         [("anonymous", 401, "not_authenticated"),
                          ("outsider", 403, "not_seated"),
                          ("seated", 201, None),
                          ("staff", 201, None)])
def test_who_may_create_a_match_seating_alice(as_role: Callable[[str], APIClient], player: Any,
                                              role: str, status: int, code: str | None) -> None:
    body = {"game": TOY, "seats": [{"player": "alice"}, {"open": True}]}
    response = as_role(role).post(MATCHES, body, format="json")
    assert response.status_code == status
    assert response.json().get("code") == code


@pytest.mark.parametrize(("role", "status", "code"),
                         [("anonymous", 401, "not_authenticated"),
                          ("outsider", 200, None),
                          ("seated", 409, "already_seated"),
                          ("staff", 200, None)])
def test_who_may_join_an_open_match(as_role: Callable[[str], APIClient], player: Any,
                                    role: str, status: int, code: str | None) -> None:
    match = open_match(player)
    response = as_role(role).post(f"{MATCHES}{match.pk}/join/")
    assert response.status_code == status
    assert response.json().get("code") == code


def test_a_join_sent_again_after_it_started_the_match_says_the_seat_is_held(
        player_api: APIClient, player2_api: APIClient, player: Any, outsider_api: APIClient,
        outsider: Any) -> None:
    """A client whose join filled the table but whose answer was lost retries it: it
    learns it holds a seat (already_seated), not that the match took no more players."""
    match = open_match(player)
    first = player2_api.post(f"{MATCHES}{match.pk}/join/")
    assert first.status_code == 200 and first.json()["player"] == "bruno"
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    again = player2_api.post(f"{MATCHES}{match.pk}/join/")
    assert (again.status_code, again.json()["code"]) == (409, "already_seated")
    late = outsider_api.post(f"{MATCHES}{match.pk}/join/")
    assert (late.status_code, late.json()["code"]) == (409, "match_not_open")


# -- create ------------------------------------------------------------------------------

def test_creating_a_full_table_answers_201_with_an_active_dealt_match(
        organizer_api: APIClient, player: Any, player2: Any) -> None:
    """Staff seat whom they name (a player would invite them, below)."""
    body = {"game": TOY, "options": {"rounds": 2},
            "seats": [{"player": "alice"}, {"player": "bruno"}]}
    response = organizer_api.post(MATCHES, body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert {"id", "game", "status", "seq", "seats", "result"} <= set(data)
    assert (data["game"], data["status"], data["seq"], data["result"]) == (TOY, "active", 2, None)
    assert data["options"] == {"rounds": 2}
    assert [s["label"] for s in data["seats"]] == ["alice", "bruno"]
    assert data["created_by"] == "organizer"


def test_a_player_named_by_another_is_invited_and_the_match_waits_for_them(
        player_api: APIClient, player2_api: APIClient, outsider_api: APIClient) -> None:
    """Nobody is seated without their say: bruno's seat is held for him, shown as such,
    and listed under ?invited=; only he may take it, and his joining starts the match."""
    body = {"game": TOY, "seats": [{"player": "alice"}, {"player": "bruno"}]}
    data = player_api.post(MATCHES, body, format="json").json()
    assert (data["status"], data["seq"]) == ("open", 0)
    assert data["seats"][1] == {"index": 1, "player": None, "bot": "", "invited": "bruno",
                                "stood_in_for": None, "label": "invited: bruno",
                                "awaited": False}
    url = f"{MATCHES}{data['id']}/"
    assert [m["id"] for m in outsider_api.get(MATCHES, {"invited": "Bruno"}).json()["results"]] \
        == [data["id"]]
    refused = outsider_api.post(f"{url}join/")
    assert (refused.status_code, refused.json()["code"]) == (409, "no_open_seat")
    joined = player2_api.post(f"{url}join/").json()
    assert joined == {"index": 1, "player": "bruno", "bot": "", "invited": None,
                      "stood_in_for": None, "label": "bruno", "awaited": True}
    assert (player2_api.get(url).json()["status"], player2_api.get(url).json()["seq"]) \
        == ("active", 2)


def test_declining_an_invitation_opens_the_seat_to_anyone(
        player_api: APIClient, player2_api: APIClient, outsider_api: APIClient) -> None:
    body = {"game": TOY, "seats": [{"player": "alice"}, {"player": "bruno"}]}
    url = f"{MATCHES}{player_api.post(MATCHES, body, format='json').json()['id']}/"
    declined = player2_api.post(f"{url}resign/", {}, format="json")
    assert (declined.status_code, declined.json()) == (200, {"outcome": "declined"})
    assert player_api.get(url).json()["seats"][1]["label"] == "open"
    # Sent again (its answer lost), it answers as the first did.
    again = player2_api.post(f"{url}resign/", {}, format="json")
    assert (again.status_code, again.json()) == (200, {"outcome": "declined"})
    assert player_api.get(url).json()["seats"][1]["label"] == "open"
    assert outsider_api.post(f"{url}join/").json()["player"] == "olga"
    assert player_api.get(url).json()["status"] == "active"


def test_an_open_seat_leaves_the_match_open(player_api: APIClient) -> None:
    body = {"game": TOY, "seats": [{"player": "alice"}, {"open": True}]}
    data = player_api.post(MATCHES, body, format="json").json()
    assert (data["status"], data["seq"]) == ("open", 0)
    assert data["seats"][1] == {"index": 1, "player": None, "bot": "", "invited": None,
                                "stood_in_for": None, "label": "open", "awaited": False}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "seats": [{"player": "alice"}]}, "unknown_game"),
        ({"game": TOY, "seats": [{"player": "alice"}]}, "bad_seat_count"),
        ({"game": TOY, "seats": [{"player": "alice"}, {"bot": "nobody"}]}, "unknown_bot"),
        ({"game": TOY, "seats": [{"player": "alice"}, {"player": "ghost"}]}, "unknown_player"),
        ({"game": TOY, "seats": [{"player": "alice"}, {"sofa": 1}]}, "bad_seat"),
        ({"game": TOY, "options": {"rounds": 7},
          "seats": [{"player": "alice"}, {"open": True}]}, "bad_option"),
        ({"game": TOY}, "invalid"),
        ({"game": TOY, "seats": "alice"}, "invalid"),
    ],
)
def test_a_bad_create_request_is_400_with_its_code(
        player_api: APIClient, body: dict[str, Any], code: str) -> None:
    response = player_api.post(MATCHES, body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, code)
    assert not Match.objects.exists()


def test_a_malformed_json_body_is_400_parse_error(player_api: APIClient) -> None:
    response = player_api.post(MATCHES, "{not json", content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")


def test_an_oversized_body_is_413_too_large_in_the_apis_own_shape(
        player_api: APIClient, settings: Any) -> None:
    padding = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    body = json.dumps({"game": TOY, "seats": [{"player": "alice"}, {"open": True}],
                       "options": {"padding": padding}})
    response = player_api.post(MATCHES, body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert not Match.objects.exists()


def test_a_post_without_the_trailing_slash_creates_the_match(player_api: APIClient) -> None:
    """Not a 301 (a client following it would GET the list and think it had created)."""
    response = player_api.post(MATCHES.rstrip("/"), {"game": TOY, "seats": [
        {"player": "alice"}, {"open": True}]}, format="json")
    assert response.status_code == 201
    assert Match.objects.get().pk == response.json()["id"]
    assert player_api.get(f"{MATCHES}{response.json()['id']}").status_code == 200


def test_a_path_nothing_answers_is_404_in_the_apis_own_shape(player_api: APIClient) -> None:
    for path in (f"{MATCHES}abc/", "/api/nope/", "/api/matches/1/nope/"):
        response = player_api.get(path)
        assert response.status_code == 404, path
        assert response.json()["code"] == "not_found", path


def test_too_many_fields_is_400_in_the_apis_own_shape(anon_api: APIClient,
                                                      player_api: APIClient,
                                                      settings: Any) -> None:
    fields = {f"f{i}": "x" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    posted = anon_api.post("/api/auth/token/", fields)  # a form body, read by DRF
    assert posted.status_code == 400
    assert posted.json()["code"] == "too_many_fields"
    queried = player_api.get(MATCHES, fields)  # the query string, read before the view
    assert queried.status_code == 400
    assert set(queried.json()) == {"code", "detail"}


# -- list and detail ---------------------------------------------------------------------

def test_the_list_filters_by_game_player_and_status(
        player_api: APIClient, toy_match: Match, player: Any, outsider: Any) -> None:
    waiting = open_match(outsider)

    def ids(query: str) -> set[int]:
        response = player_api.get(f"{MATCHES}?{query}")
        assert response.status_code == 200
        return {m["id"] for m in response.json()["results"]}

    assert ids("") == {toy_match.pk, waiting.pk}
    assert ids("player=alice") == {toy_match.pk}
    assert ids("player=olga") == {waiting.pk}
    assert ids("status=open") == {waiting.pk}
    assert ids("status=active&player=bruno") == {toy_match.pk}
    assert ids(f"game={TOY}") == {toy_match.pk, waiting.pk}
    assert player_api.get(f"{MATCHES}?game=chess").json()["code"] == "unknown_game"


def test_the_list_is_paginated(player_api: APIClient, player: Any, settings: Any) -> None:
    from rest_framework.settings import api_settings

    size = api_settings.PAGE_SIZE
    settings.MAX_LIVE_MATCHES = size + 1
    for _ in range(size + 1):
        open_match(player)
    first = player_api.get(MATCHES).json()
    assert (first["count"], len(first["results"]), first["previous"]) == (size + 1, size, None)
    second = player_api.get(first["next"]).json()
    assert len(second["results"]) == 1 and second["next"] is None


def test_the_detail_shows_seats_status_and_seq(outsider_api: APIClient,
                                               toy_match: Match) -> None:
    data = outsider_api.get(f"{MATCHES}{toy_match.pk}/").json()
    assert (data["id"], data["status"], data["seq"]) == (toy_match.pk, "active", 2)
    assert [s["player"] for s in data["seats"]] == ["alice", "bruno"]


def test_a_match_says_when_it_finished_null_until_then(player_api: APIClient, player: Any,
                                                      toy_match: Match) -> None:
    """`updated_at` moves with any later save of the row; `finished_at` is the end."""
    url = f"{MATCHES}{toy_match.pk}/"
    assert player_api.get(url).json()["finished_at"] is None
    services.resign(match=toy_match, user=player)
    toy_match.refresh_from_db()
    assert toy_match.finished_at is not None
    data = player_api.get(url).json()
    assert data["finished_at"] == toy_match.finished_at.isoformat().replace("+00:00", "Z")
    listed = player_api.get(MATCHES, {"status": "finished"}).json()["results"]
    assert [m["finished_at"] for m in listed] == [data["finished_at"]]


@pytest.mark.parametrize("suffix", ["", "state/", "events/", "replay/?at=0", "join/",
                                    "actions/"])
def test_an_unknown_match_is_404_not_found(player_api: APIClient, suffix: str) -> None:
    url = f"{MATCHES}999999/{suffix}"
    post = suffix in ("join/", "actions/")
    response = (player_api.post(url, {"seat": 0, "action": {}}, format="json") if post
                else player_api.get(url))
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


# -- join --------------------------------------------------------------------------------

def test_joining_takes_the_open_seat_and_starts_the_match(
        player: Any, player2_api: APIClient) -> None:
    match = open_match(player)
    response = player2_api.post(f"{MATCHES}{match.pk}/join/")
    assert response.status_code == 200
    # The match started: both seats decide first, bruno's among them.
    assert response.json() == {"index": 1, "player": "bruno", "bot": "", "invited": None,
                               "stood_in_for": None, "label": "bruno", "awaited": True}
    detail = player2_api.get(f"{MATCHES}{match.pk}/").json()
    assert (detail["status"], detail["seq"]) == ("active", 2)


def test_joining_a_started_match_is_409_match_not_open(
        outsider_api: APIClient, toy_match: Match) -> None:
    response = outsider_api.post(f"{MATCHES}{toy_match.pk}/join/")
    assert (response.status_code, response.json()["code"]) == (409, "match_not_open")


def test_a_constructed_deck_is_read_by_its_seat_alone_while_the_match_runs(
        organizer: Any, player: Any, player2: Any, organizer_api: APIClient,
        player_api: APIClient, player2_api: APIClient, outsider_api: APIClient) -> None:
    """SH-050 decks are hidden (engine/games/supershow/view.py): a secret option's entries
    read "hidden" but for the caller's own seat, and whoever made the match wrote them."""
    from engine.games.supershow.cards import CATALOG

    ox, mira = CATALOG.competitors["ox_valdane"], CATALOG.competitors["mira_quickstep"]
    mine = [c.key for c in mira.deck[:27]] + [c.key for c in ox.deck[27:]]
    theirs = [c.key for c in ox.deck[:27]] + [c.key for c in mira.deck[27:]]
    match = services.create_match(
        game="supershow", created_by=organizer,
        options={"competitors": ["ox_valdane", "mira_quickstep"], "decks": [mine, theirs]},
        seats=[{"player": player.username}, {"player": player2.username}])
    url = f"{MATCHES}{match.pk}/"

    def decks(client: APIClient) -> Any:
        return client.get(url).json()["options"]["decks"]

    assert decks(player_api) == [mine, "hidden"]
    assert decks(player2_api) == ["hidden", theirs]
    assert decks(outsider_api) == ["hidden", "hidden"]
    assert decks(organizer_api) == [mine, theirs]
    listed = outsider_api.get(MATCHES, {"game": "supershow"}).json()["results"]
    assert [m["options"]["decks"] for m in listed] == [["hidden", "hidden"]]
    assert outsider_api.get(url).json()["options"]["competitors"] == ["ox_valdane",
                                                                       "mira_quickstep"]
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    assert decks(outsider_api) == [mine, theirs]  # the match is over: nothing is secret


def test_a_player_is_named_in_any_case_as_at_sign_up(player: Any, player2: Any,
                                                      player_api: APIClient) -> None:
    """Sign-up keeps names unique ignoring case, so "ALICE" is alice."""
    created = player_api.post("/api/matches/", {
        "game": "super_showdown", "seats": [{"player": "ALICE"}, {"player": "Bruno"}]},
        format="json")
    assert created.status_code == 201
    seats = created.json()["seats"]
    assert [seats[0]["player"], seats[1]["invited"]] == [player.username, player2.username]
    listed = player_api.get("/api/matches/?player=ALICE").json()["results"]
    assert [m["id"] for m in listed] == [created.json()["id"]]
    invited = player_api.get("/api/matches/?invited=BRUNO").json()["results"]
    assert [m["id"] for m in invited] == [created.json()["id"]]


def test_a_create_retried_with_its_idempotency_key_answers_with_the_same_match(
        player_api: Any, player: Any) -> None:
    """A client that lost the answer to its create and sent it again made a second match
    (with its own bot tasks)."""
    body = {"game": "super_showdown", "seats": [{"player": player.username}, {"bot": "random"}],
            "idempotency_key": "create-1"}
    first = player_api.post("/api/matches/", body, format="json")
    again = player_api.post("/api/matches/", body, format="json")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    by_header = player_api.post("/api/matches/", {k: v for k, v in body.items()
                                                  if k != "idempotency_key"},
                                format="json", HTTP_IDEMPOTENCY_KEY="create-1")
    assert by_header.json()["id"] == first.json()["id"]
    assert Match.objects.filter(created_by=player).count() == 1
    other = player_api.post("/api/matches/", {**body, "game": "royal_rumble"}, format="json")
    assert (other.status_code, other.json()["code"]) == (409, "key_reused")
    fresh = player_api.post("/api/matches/", {**body, "idempotency_key": "create-2"},
                            format="json")
    assert fresh.status_code == 201 and fresh.json()["id"] != first.json()["id"]


@pytest.mark.parametrize("key", ["", " ", "k" * 129])
def test_a_create_with_an_unusable_idempotency_key_header_is_refused_by_the_headers_name(
        player_api: Any, player: Any, key: str) -> None:
    body = {"game": "super_showdown", "seats": [{"player": player.username}, {"bot": "random"}]}
    refused = player_api.post("/api/matches/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")
    assert list(refused.json()["detail"]) == ["Idempotency-Key"]
    assert not Match.objects.filter(created_by=player).exists()
    longest = player_api.post("/api/matches/", body, format="json",
                              HTTP_IDEMPOTENCY_KEY="k" * 128)
    assert longest.status_code == 201


def test_the_lists_filters_do_not_reach_one_matchs_routes(player_api: APIClient,
                                                          toy_match: Match) -> None:
    """`?game`, `?status`, `?player` and `?invited` filter the list; a client that leaves
    one on a match's own read is told it reads none of them (400 unknown_parameter, as
    any read a parameter it does not take), and its move still counts."""
    url = f"{MATCHES}{toy_match.pk}"
    assert player_api.get(f"{MATCHES}?status=finished").json()["count"] == 0
    for read in (f"{url}/state/?status=finished", f"{url}/?status=zzz"):
        answer = player_api.get(read)
        assert (answer.status_code, answer.json()["code"]) == (400, "unknown_parameter")
    action = player_api.get(f"{url}/state/").json()["legal_actions"][0]
    moved = player_api.post(f"{url}/actions/?game=chess", {"seat": 0, "action": action},
                            format="json")
    assert moved.status_code == 201, moved.content
    refused = player_api.get(f"{MATCHES}?status=zzz")
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")


def test_a_player_has_at_most_max_live_matches_of_their_making(
        player: Any, player_api: APIClient, organizer_api: APIClient, settings: Any) -> None:
    """Bot seats cost worker time: one more is refused, writing nothing, until one ends; a
    retried create (same key) still answers, and staff are not counted."""
    settings.MAX_LIVE_MATCHES = 2
    body = {"game": TOY, "seats": [{"player": "alice"}, {"bot": "random"}]}
    made = [player_api.post(MATCHES, {**body, "idempotency_key": f"k{i}"}, format="json")
            for i in range(2)]
    assert [answer.status_code for answer in made] == [201, 201]
    before = Match.objects.count()
    refused = player_api.post(MATCHES, body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "too_many_matches"
    assert "2 matches" in refused.json()["detail"] and Match.objects.count() == before
    again = player_api.post(MATCHES, {**body, "idempotency_key": "k0"}, format="json")
    assert again.status_code == 201 and again.json()["id"] == made[0].json()["id"]
    services.forfeit_seat(match=Match.objects.get(pk=made[0].json()["id"]), seat=0)
    assert player_api.post(MATCHES, body, format="json").status_code == 201
    staff = {"game": TOY, "seats": [{"bot": "random"}, {"bot": "random"}]}
    assert [organizer_api.post(MATCHES, staff, format="json").status_code
            for _ in range(3)] == [201] * 3


def test_a_match_its_maker_left_to_others_is_not_counted_as_theirs(
        player: Any, player2: Any, player_api: APIClient, settings: Any) -> None:
    """alice made a match for three, bruno joined, alice left it: it waits for players
    still, but it is bruno's, and her "leave one first" had freed no place."""
    settings.MAX_LIVE_MATCHES = 1
    three = {"game": "supershow", "options": {"match_type": "triple_threat_elimination"},
             "seats": [{"player": "alice"}, {"open": True}, {"open": True}]}
    made = player_api.post(MATCHES, three, format="json")
    assert made.status_code == 201, made.json()
    match = Match.objects.get(pk=made.json()["id"])
    services.join_match(match=match, user=player2)
    body = {"game": TOY, "seats": [{"player": "alice"}, {"bot": "random"}]}
    refused = player_api.post(MATCHES, body, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "too_many_matches")
    assert services.resign(match=match, user=player, leaving=True) == "left"
    assert Match.objects.get(pk=match.pk).status == Match.Status.OPEN
    assert player_api.post(MATCHES, body, format="json").status_code == 201


def test_a_rematch_is_201_for_its_maker_and_200_for_the_player_who_accepts(
        player_api: APIClient, player2_api: APIClient, player: Any, player2: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    services.resign(match=match, user=player)
    made = player2_api.post(f"/api/matches/{match.pk}/rematch/")
    assert made.status_code == 201
    body = made.json()
    assert body["rematch_of"] == match.pk and body["status"] == "open"
    assert [s["invited"] for s in body["seats"]] == ["alice", None]
    joined = player_api.post(f"/api/matches/{match.pk}/rematch/")
    assert joined.status_code == 200 and joined.json()["id"] == body["id"]
    assert joined.json()["status"] == "active"
    assert player_api.get(f"/api/matches/{match.pk}/").json()["rematch_of"] is None
    live = player_api.post(f"/api/matches/{body['id']}/rematch/")
    assert (live.status_code, live.json()["code"]) == (409, "match_not_over")


def test_a_match_whose_options_the_game_no_longer_takes_is_not_played_again(
        player_api: APIClient, player: Any) -> None:
    """Options a rules change refused since (here a series length the game dropped) are
    the old match's, not anything the asker sent: a 409 the schema documents, not a 400,
    and nothing is made."""
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"bot": "random"}])
    services.resign(match=match, user=player)
    Match.objects.filter(pk=match.pk).update(options={**match.options, "best_of": 5})
    refused = player_api.post(f"/api/matches/{match.pk}/rematch/")
    assert (refused.status_code, refused.json()["code"]) == (409, "setup_changed")
    assert "best_of" in refused.json()["detail"]
    assert not Match.objects.filter(rematch_of=match).exists()


def test_leaving_only_never_resigns_a_match_that_started_meanwhile(
        player_api: APIClient, player: Any, player2: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)  # bruno took the last seat: it started
    refused = player_api.post(f"/api/matches/{match.pk}/resign/", {"leaving": True},
                              format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "match_started")
    match.refresh_from_db()
    assert match.status == "active"
    resigned = player_api.post(f"/api/matches/{match.pk}/resign/", {}, format="json")
    assert resigned.json() == {"outcome": "resigned"}


def test_one_who_holds_several_rumble_seats_resigns_the_one_named(
        organizer: Any, player: Any, player2: Any, outsider: Any,
        player_api: APIClient) -> None:
    """RR-34 and the forfeit decision of engine/games/royal_rumble: alice holds two seats of
    a four-seat Rumble (a staff lineup). `seat` resigns the one named; without it she is
    asked which (a resend of one naming none would put out her next seat); a resignation
    sent again answers as the first did and writes nothing, one naming no seat too once
    all of hers are out, and bruno and olga play on."""
    match = services.create_match(game="royal_rumble", options={}, created_by=organizer,
                                  seats=[{"player": "alice"}, {"player": "alice"},
                                         {"player": "bruno"}, {"player": "olga"}])
    url = f"{MATCHES}{match.pk}/resign/"
    named = player_api.post(url, {"seat": 1}, format="json")
    assert (named.status_code, named.json()) == (200, {"outcome": "resigned"})
    again = player_api.post(url, {"seat": 1}, format="json")
    assert (again.status_code, again.json()) == (200, {"outcome": "resigned"})
    unnamed = player_api.post(url, {}, format="json")
    assert (unnamed.status_code, unnamed.json()["code"]) == (400, "seat_required")
    assert services.forfeited_seats(match) == [1]
    first = player_api.post(url, {"seat": 0}, format="json")
    assert (first.status_code, first.json()) == (200, {"outcome": "resigned"})
    assert services.forfeited_seats(match) == [1, 0]
    out = player_api.post(url, {}, format="json")
    assert (out.status_code, out.json()) == (200, {"outcome": "resigned"})
    assert services.forfeited_seats(match) == [1, 0]
    assert player_api.get(f"{MATCHES}{match.pk}/").json()["status"] == "active"


def test_resigning_a_rumble_of_three_puts_the_seat_out_as_the_schema_says(
        player_api: APIClient, anon_api: APIClient, player: Any) -> None:
    """RR-34 and the forfeit decision of engine/games/royal_rumble: a client resigning a
    three-seat Rumble is out while the others play on, and a resignation sent again
    answers as the first did (tests/api/test_resign_retries.py). The resign operation (and the Event's forfeit) said the match ends, the
    others sharing first, and named no seat_out."""
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"bot": "random"},
                                         {"bot": "random"}])
    url = f"/api/matches/{match.pk}/resign/"
    assert player_api.post(url, {}, format="json").json() == {"outcome": "resigned"}
    again = player_api.post(url, {}, format="json")
    assert (again.status_code, again.json()) == (200, {"outcome": "resigned"})
    match.refresh_from_db()
    assert match.status == "active" and services.forfeited_seats(match) == [0]
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("/api/matches/{id}/resign/", "/api/events/{id}/forfeit/"):
        said = doc["paths"][path]["post"]["description"]
        assert "of three or more" in said and "seat_out" in said, path


def test_a_match_names_the_event_that_made_it(organizer: Any, player: Any, player2: Any,
                                              player_api: APIClient,
                                              toy_match: Match) -> None:
    """A client reaches a match's Event from the match, in the list and the detail, as
    it does from a player's history; a player's own match names none."""
    event = events.create_event(name="Friday cup", game="super_showdown",
                                format="single_elimination", by=organizer)
    for user in (player, player2):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    detail = player_api.get(f"/api/matches/{link.match_id}/").json()
    assert detail["event"] == {"id": event.pk, "name": "Friday cup", "pairing": link.pairing}
    listed = {m["id"]: m["event"] for m in player_api.get("/api/matches/").json()["results"]}
    assert listed[link.match_id] == detail["event"] and listed[toy_match.pk] is None


def test_a_bigger_supershow_tables_options_name_the_competitors_it_plays(
        player_api: APIClient) -> None:
    """The Supershow's default pair of Competitors is, at a table of four, the first four
    of its default table: the match's options name those, as its seats play them."""
    four = {"game": "supershow", "options": {"match_type": "fatal_four_way_elimination"},
            "seats": [{"player": "alice"}, *[{"bot": "random"}] * 3]}
    made = player_api.post(MATCHES, four, format="json")
    assert made.status_code == 201, made.json()
    named = made.json()["options"]["competitors"]
    state = player_api.get(f"{MATCHES}{made.json()['id']}/state/").json()
    played = [seat["competitor"]["key"] for seat in state["view"]["players"]]
    assert named == played and len(set(played)) == 4
    assert named != ["ox_valdane", "mira_quickstep"]
