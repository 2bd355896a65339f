"""GET /api/matches/{id}/state/ and POST /api/matches/{id}/actions/, up to whole matches."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import registry
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db

TOY = "toy_showdown"


def state_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/state/"


def actions_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/actions/"


def first_legal(client: APIClient, match_id: int) -> dict[str, Any]:
    return client.get(state_url(match_id)).json()["legal_actions"][0]


# -- permission tables -------------------------------------------------------------------

@pytest.mark.parametrize(("role", "status", "seat"),
                         [("anonymous", 401, None), ("outsider", 200, None),
                          ("seated", 200, 0), ("staff", 200, None)])
def test_who_may_read_the_state_and_as_which_seat(
        as_role: Callable[[str], APIClient], toy_match: Match, role: str, status: int,
        seat: int | None) -> None:
    response = as_role(role).get(state_url(toy_match.pk))
    assert response.status_code == status
    if status == 200:
        assert response.json()["seat"] == seat


@pytest.mark.parametrize(("role", "status", "code"),
                         [("anonymous", 401, "not_authenticated"),
                          ("outsider", 403, "not_your_seat"),
                          ("seated", 201, None),
                          ("staff", 403, "not_your_seat")])
def test_who_may_act_for_seat_0(as_role: Callable[[str], APIClient], player_api: APIClient,
                                toy_match: Match, role: str, status: int,
                                code: str | None) -> None:
    body = {"seat": 0, "action": first_legal(player_api, toy_match.pk)}
    response = as_role(role).post(actions_url(toy_match.pk), body, format="json")
    assert response.status_code == status
    assert response.json().get("code") == code


# -- state -------------------------------------------------------------------------------

def test_the_state_has_seq_status_seat_pending_legal_actions_view_and_deadline(
        player_api: APIClient, toy_match: Match) -> None:
    data = player_api.get(state_url(toy_match.pk)).json()
    assert set(data) == {"seq", "status", "seat", "pending", "legal_actions", "view",
                         "deadline"}
    assert data["deadline"] is None  # no Event's turn deadline runs for a casual match
    assert (data["seq"], data["status"], data["seat"]) == (2, "active", 0)
    assert data["pending"] == {"kind": "decision", "seats": [0, 1], "result": None}
    assert [a["card"] for a in data["legal_actions"]] == data["view"]["hand"]


def test_a_spectator_has_no_legal_actions_and_no_hand(
        outsider_api: APIClient, toy_match: Match) -> None:
    data = outsider_api.get(state_url(toy_match.pk)).json()
    assert (data["seat"], data["legal_actions"], data["view"]["hand"]) == (None, [], None)


def test_a_seat_with_nothing_pending_has_no_legal_actions(
        player_api: APIClient, toy_match: Match) -> None:
    body = {"seat": 0, "action": first_legal(player_api, toy_match.pk)}
    assert player_api.post(actions_url(toy_match.pk), body, format="json").status_code == 201
    data = player_api.get(state_url(toy_match.pk)).json()
    assert (data["pending"]["seats"], data["legal_actions"]) == ([1], [])


def test_asking_for_a_seat_you_do_not_hold_is_403(
        player_api: APIClient, toy_match: Match) -> None:
    response = player_api.get(f"{state_url(toy_match.pk)}?seat=1")
    assert (response.status_code, response.json()["code"]) == (403, "not_your_seat")


# -- actions -----------------------------------------------------------------------------

def test_a_legal_action_is_201_with_its_seq(player_api: APIClient, toy_match: Match) -> None:
    body = {"seat": 0, "action": first_legal(player_api, toy_match.pk), "expected_seq": 2}
    response = player_api.post(actions_url(toy_match.pk), body, format="json")
    assert (response.status_code, response.json()) == (201, {"seq": 3})


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"seat": 0, "action": {"type": "play", "card": "joker"}}, "illegal_action"),
        ({"seat": 0, "action": {}}, "illegal_action"),
        ({"seat": 0, "action": "play anvil"}, "invalid"),
        ({"seat": "north", "action": {}}, "invalid"),
        ({"action": {}}, "invalid"),
        ({"seat": 7, "action": {}}, "bad_seat"),
    ],
)
def test_an_illegal_or_malformed_action_is_400_with_a_code_and_changes_nothing(
        player_api: APIClient, toy_match: Match, body: dict[str, Any], code: str) -> None:
    response = player_api.post(actions_url(toy_match.pk), body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, code)
    assert toy_match.events.count() == 2


def test_a_malformed_json_body_is_400_parse_error(player_api: APIClient,
                                                  toy_match: Match) -> None:
    response = player_api.post(actions_url(toy_match.pk), '{"seat": 0,',
                               content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")


def test_a_stale_expected_seq_is_409_stale_seq_saying_the_seq_now(
        player_api: APIClient, toy_match: Match) -> None:
    body = {"seat": 0, "action": first_legal(player_api, toy_match.pk), "expected_seq": 1}
    response = player_api.post(actions_url(toy_match.pk), body, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "stale_seq")
    # a client reads it again from there, without parsing the sentence
    assert response.json()["seq"] == toy_match.seq > 1
    body["expected_seq"] = response.json()["seq"]
    assert player_api.post(actions_url(toy_match.pk), body, format="json").status_code == 201


def test_refusals_other_than_a_stale_seq_carry_no_seq(player_api: APIClient,
                                                      toy_match: Match) -> None:
    body = {"seat": 0, "action": {"no": "such action"}, "expected_seq": toy_match.seq}
    response = player_api.post(actions_url(toy_match.pk), body, format="json")
    # (an illegal action names its seat: `seat`, tests/api/test_seat_labels.py)
    assert response.status_code == 400 and set(response.json()) == {"code", "detail", "seat"}


@pytest.mark.parametrize("via", ["body", "header"])
def test_a_repeated_idempotency_key_answers_the_first_seq_and_writes_nothing(
        player_api: APIClient, toy_match: Match, via: str) -> None:
    body: dict[str, Any] = {"seat": 0, "action": first_legal(player_api, toy_match.pk)}
    extra: dict[str, str] = {}
    if via == "body":
        body["idempotency_key"] = "retry-me"
    else:
        extra["HTTP_IDEMPOTENCY_KEY"] = "retry-me"
    answers = [player_api.post(actions_url(toy_match.pk), body, format="json", **extra)
               for _ in range(3)]
    assert [(a.status_code, a.json()) for a in answers] == [(201, {"seq": 3})] * 3
    assert toy_match.events.count() == 3


@pytest.mark.parametrize("key", ["", "   ", "k" * 200])
def test_an_idempotency_key_header_is_checked_like_the_bodys(
        player_api: APIClient, toy_match: Match, key: str) -> None:
    """An empty or overlong header was taken as is: an empty key blocked every later
    action (409 key_reused), a long one failed the column on PostgreSQL. The refusal names
    the header, not the body field it stands for."""
    body = {"seat": 0, "action": first_legal(player_api, toy_match.pk)}
    response = player_api.post(actions_url(toy_match.pk), body, format="json",
                               HTTP_IDEMPOTENCY_KEY=key)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert list(response.json()["detail"]) == ["Idempotency-Key"]
    assert toy_match.events.count() == 2


@pytest.mark.parametrize("raw", ["[" * 5000, '{"seat": ' * 3000, '{"seat": 0, "action": NaN}'])
def test_an_unreadable_body_is_400_parse_error(player_api: APIClient, toy_match: Match,
                                               raw: str) -> None:
    response = player_api.post(actions_url(toy_match.pk), raw, content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")
    created = player_api.post("/api/matches/", raw, content_type="application/json")
    assert (created.status_code, created.json()["code"]) == (400, "parse_error")


def test_acting_in_a_match_that_has_not_started_is_409(player: Any,
                                                       player_api: APIClient) -> None:
    match = services.create_match(game=TOY, options={},
                                  seats=[{"player": "alice"}, {"open": True}],
                                  created_by=player)
    response = player_api.post(actions_url(match.pk), {"seat": 0, "action": {}}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "match_not_active")


# -- whole matches -----------------------------------------------------------------------

def play_through_api(match_id: int, clients: dict[int, APIClient], seed: int) -> dict[str, Any]:
    """Every seat posts a random item of its legal_actions, verbatim, until the end."""
    rng = random.Random(seed)
    spec = registry.get_rules(Match.objects.get(pk=match_id).game).spec
    for _ in range(spec.longest_game):
        progressed = False
        for seat, client in clients.items():
            state = client.get(f"{state_url(match_id)}?seat={seat}").json()
            if state["status"] == "finished":
                return client.get(f"/api/matches/{match_id}/").json()
            if state["legal_actions"]:
                body = {"seat": seat, "action": rng.choice(state["legal_actions"]),
                        "expected_seq": state["seq"]}
                response = client.post(actions_url(match_id), body, format="json")
                assert response.status_code == 201, response.content
                progressed = True
        assert progressed, f"nobody could act: {state['pending']}"
    raise AssertionError("the match did not end within the game's longest length")


@pytest.mark.parametrize("seed", range(3))
def test_two_players_play_a_toy_match_to_the_end_through_the_api(
        player_api: APIClient, player2_api: APIClient, toy_match: Match, seed: int) -> None:
    final = play_through_api(toy_match.pk, {0: player_api, 1: player2_api}, seed)
    assert (final["status"], final["seq"]) == ("finished", 8)
    assert final["result"]["winners"]
    response = player_api.post(actions_url(toy_match.pk), {"seat": 0, "action": {}},
                               format="json")
    assert (response.status_code, response.json()["code"]) == (409, "match_over")


def test_one_user_holding_both_seats_plays_each_by_naming_it(
        player: Any, player_api: APIClient) -> None:
    match = services.create_match(game=TOY, options={},
                                  seats=[{"player": "alice"}, {"player": "alice"}],
                                  created_by=player)
    final = play_through_api(match.pk, {0: player_api, 1: player_api}, seed=7)
    assert final["status"] == "finished"


@pytest.mark.django_db(transaction=True)
def test_a_player_plays_a_bot_to_the_end_through_the_api(client_for: Any, player: Any) -> None:
    client = client_for(player)
    created = client.post("/api/matches/", {"game": TOY, "seats": [{"player": "alice"},
                                                                   {"bot": "random"}]},
                          format="json")
    assert created.status_code == 201
    final = play_through_api(created.json()["id"], {0: client}, seed=1)
    assert final["status"] == "finished"
    events = client.get(f"/api/matches/{final['id']}/events/").json()
    assert sum(e["kind"] == "decision" and e["seat"] == 1 for e in events) == 3


SUPER = "super_showdown"


@pytest.mark.parametrize("seed", range(2))
def test_two_players_play_super_showdown_to_the_end_through_the_api(
        player: Any, player_api: APIClient, player2_api: APIClient, player2: Any,
        seed: int) -> None:
    match = services.create_match(game=SUPER, options={},
                                  seats=[{"player": "alice"}, {"player": "bruno"}],
                                  created_by=player)
    assert player2_api.post(f"/api/matches/{match.pk}/join/").status_code == 200
    final = play_through_api(match.pk, {0: player_api, 1: player2_api}, seed)
    assert final["status"] == "finished"
    assert final["result"]["winners"] or final["result"]["draw"]


@pytest.mark.django_db(transaction=True)
def test_a_player_plays_the_super_showdown_bots_to_the_end_through_the_api(
        client_for: Any, player: Any) -> None:
    client = client_for(player)
    for bot in registry.bot_names(SUPER):
        created = client.post("/api/matches/", {"game": SUPER, "seats": [{"player": "alice"},
                                                                         {"bot": bot}]},
                              format="json")
        assert created.status_code == 201, created.content
        final = play_through_api(created.json()["id"], {0: client}, seed=3)
        assert final["status"] == "finished", bot


def test_resigning_through_the_api(player: Any, player2: Any, player_api: APIClient) -> None:
    match = services.create_match(game=TOY, options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"player": player2.username}])
    services.join_match(match=match, user=player2)
    refused = player_api.post(f"/api/matches/{match.pk}/resign/", {"seat": 1}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_seat")
    done = player_api.post(f"/api/matches/{match.pk}/resign/", {}, format="json")
    assert (done.status_code, done.json()) == (200, {"outcome": "resigned"})
    detail = player_api.get(f"/api/matches/{match.pk}/").json()
    assert detail["status"] == "finished"
    state = player_api.get(state_url(match.pk)).json()  # no moves offered after the end
    assert state["legal_actions"] == [] and state["pending"]["kind"] == "end"
    assert state["pending"]["result"]["placements"] == [2, 1]
    # Sent again, it answers as the first did (tests/api/test_resign_retries.py).
    again = player_api.post(f"/api/matches/{match.pk}/resign/", {}, format="json")
    assert (again.status_code, again.json()) == (200, {"outcome": "resigned"})


@pytest.mark.parametrize(("game", "named"), [("royal_rumble", "Seat 1"),
                                           ("super_showdown", "Blue")])
def test_a_resigned_match_names_the_seat_as_the_game_does(
        player: Any, player_api: APIClient, game: str, named: str) -> None:
    """The result's summary is read beside the game's own: its first seat is "Seat 1" in
    a Royal Rumble (never "Seat 0"), "Blue" in Super Showdown."""
    match = services.create_match(game=game, options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"bot": "random"}])
    resigned = player_api.post(f"/api/matches/{match.pk}/resign/", {}, format="json")
    assert resigned.status_code == 200
    result = player_api.get(f"/api/matches/{match.pk}/").json()["result"]
    assert (result["summary"], result["forfeit"]) == (f"{named} forfeited (resigned).", 0)


def test_resigning_a_team_match_resigns_the_whole_team(
        player: Any, player2: Any, outsider: Any, player_api: APIClient,
        player2_api: APIClient) -> None:
    """A Supershow handicap match seats alice and bruno as one side against olga: alice's
    resignation is her side's, and bruno lost it with her."""
    match = services.create_match(
        game="supershow", created_by=player,
        options={"match_type": "handicap",
                 "competitors": ["ox_valdane", "mira_quickstep", "granite_gus"]},
        seats=[{"player": "alice"}, {"player": "bruno"}, {"player": "olga"}])
    for user in (player2, outsider):
        services.join_match(match=match, user=user)
    done = player_api.post(f"/api/matches/{match.pk}/resign/", {}, format="json")
    assert (done.status_code, done.json()) == (200, {"outcome": "resigned"})
    result = player2_api.get(f"/api/matches/{match.pk}/").json()["result"]
    assert (result["placements"], result["winners"], result["forfeit"]) == ([2, 2, 1], [2], 0)
    assert player2_api.get(state_url(match.pk)).json()["pending"]["result"] == result


def test_a_rumble_ended_by_forfeits_has_them_in_its_pending_result_as_in_its_result(
        player: Any, player2: Any, outsider: Any, player_api: APIClient) -> None:
    """Olga, then alice resign a three-seat Rumble: each a forfeit its game eliminates
    (RR-34), the second leaving bruno alone, which ends it on the board. The match's
    result names the seats the forfeits put out (`forfeits`); the state's and the last
    replay step's `pending.result`, the same end, lacked them."""
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"player": player2.username},
                                         {"player": outsider.username}])
    services.join_match(match=match, user=player2)
    services.join_match(match=match, user=outsider)
    services.resign(match=match, user=outsider)
    services.resign(match=match, user=player)
    result = player_api.get(f"/api/matches/{match.pk}/").json()["result"]
    assert result["forfeits"] == [2, 0] and result["winners"] == [1]
    state = player_api.get(state_url(match.pk)).json()
    assert state["pending"]["kind"] == "end" and state["pending"]["result"] == result
    last = state["seq"]
    step = player_api.get(f"/api/matches/{match.pk}/replay/", {"at": last}).json()
    assert step["pending"]["result"] == result


def test_an_action_sent_again_with_its_expected_seq_answers_the_first_seq(
        player_api: APIClient, player2_api: APIClient, toy_match: Match) -> None:
    """An action sent with `expected_seq` and no key, sent again once its answer was lost,
    was 409 stale_seq, as if another move had come first: the client could not tell that
    its own had landed. It lands right after that seq or nowhere, so the same decision of
    the same seat found there is the first answer; another action is still stale."""
    action = first_legal(player_api, toy_match.pk)
    body = {"seat": 0, "action": action, "expected_seq": 2}
    first = player_api.post(actions_url(toy_match.pk), body, format="json")
    assert (first.status_code, first.json()) == (201, {"seq": 3})
    other = {"seat": 1, "action": first_legal(player2_api, toy_match.pk), "expected_seq": 3}
    assert player2_api.post(actions_url(toy_match.pk), other, format="json").status_code == 201
    toy_match.refresh_from_db()
    events = toy_match.events.count()
    again = player_api.post(actions_url(toy_match.pk), body, format="json")
    assert (again.status_code, again.json()) == (201, {"seq": 3})
    assert toy_match.events.count() == events
    # Not the decision made there: stale, as before.
    assert player2_api.post(actions_url(toy_match.pk), {**other, "expected_seq": 2},
                            format="json").json()["code"] == "stale_seq"


def test_a_seat_past_the_table_is_named_from_seat_1(player_api: APIClient,
                                                    toy_match: Match) -> None:
    """The refusal repeated the seat as sent, from 0 ("There is no seat 2" at a table of
    two), where every sentence counts seats from 1; it gives the API's numbers beside."""
    response = player_api.post(actions_url(toy_match.pk), {"seat": 2, "action": {}},
                               format="json")
    assert (response.status_code, response.json()) == (400, {
        "code": "bad_seat",
        "detail": "There is no Seat 3 in this match: its seats are Seat 1 to Seat 2 "
                  "(seat 0 to 1 in the API)."})
