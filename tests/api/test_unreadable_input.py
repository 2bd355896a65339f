"""Input no store takes is refused before anything reads it: a 400 with a code, never a
500 and nothing written. JSON numbers past a float or a 64-bit integer (`1e400` reads as
Infinity), a NUL character (no PostgreSQL text holds one), and a few shapes a service
could not read."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league import events
from league.models import Event
from matches.forms import read_json
from matches.models import Match

pytestmark = pytest.mark.django_db

EVENT = '{"name": "E", "game": "super_showdown", "format": "round_robin", %s}'


@pytest.mark.parametrize("field", [
    '"season": 1e400',
    '"format_options": {"win_points": 1e400}',
    '"format_options": {"win_points": -1e400}',
    '"format_options": {"win_points": 1%s}' % ("0" * 60),
    '"match_options": {"round_limit": 9223372036854775808}',
])
def test_a_json_number_no_store_takes_is_a_parse_error(organizer_api: APIClient,
                                                        field: str) -> None:
    answer = organizer_api.post("/api/events/", EVENT % field,
                                content_type="application/json")
    assert (answer.status_code, answer.json()["code"]) == (400, "parse_error")
    assert not Event.objects.exists()


def test_the_largest_64_bit_integer_and_a_plain_float_still_read() -> None:
    assert read_json('[9223372036854775807, -9223372036854775807, 2.5, 1e300]') == [
        2**63 - 1, -(2**63 - 1), 2.5, 1e300]
    for text in ("9223372036854775808", "1e400", "NaN", '"a\\u0000b"', '{"\\u0000": 1}'):
        with pytest.raises(ValueError):
            read_json(text)


def test_a_nul_character_in_a_json_body_is_a_parse_error(player_api: APIClient) -> None:
    answer = player_api.post("/api/matches/", {
        "game": "super_showdown", "seats": [{"player": "\x00"}, {"bot": "heuristic"}],
        "options": {}}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "parse_error")
    assert not Match.objects.exists()


@pytest.mark.parametrize("query", ["game=%00", "player=a%00b", "invited=%00", "%00=1"])
def test_a_nul_character_in_a_query_is_a_bad_request(player_api: APIClient,
                                                     query: str) -> None:
    answer = player_api.get(f"/api/matches/?{query}")
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_request")


def test_a_nul_character_in_a_path_or_a_form_field_is_a_bad_request(
        organizer: Any, player_api: APIClient) -> None:
    event = events.create_event(name="Night", game="supershow", format="round_robin",
                                by=organizer)
    answer = player_api.post(f"/api/events/{event.pk}/entrants/e%00/picks/", {"picks": {}},
                             format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_request")
    browser = Client(raise_request_exception=False)
    browser.force_login(organizer)
    for encoded in (False, True):  # a browser's form, and a multipart one
        page = browser.post(reverse("league:entrant_add", args=[event.pk]),
                            "player=ali%00ce" if encoded else {"player": "ali\x00ce"},
                            **({"content_type": "application/x-www-form-urlencoded"}
                               if encoded else {}))
        assert page.status_code == 400 and not event.records.exists()


def test_the_round_scores_list_renders_in_the_browsable_api(player_api: APIClient) -> None:
    answer = player_api.get("/api/round-scores/", HTTP_ACCEPT="text/html")
    assert answer.status_code == 200 and b"Round Score" in answer.content


@pytest.mark.parametrize(("match", "code"), [
    ({"match": ["singles"], "stipulation": None}, "unknown_match_card"),
    ({"match": None, "stipulation": {"x": 1}}, "unknown_stipulation"),
    ({"match": None, "stipulation": []}, "unknown_stipulation"),
])
def test_a_composed_match_of_the_wrong_type_is_refused_with_its_code(
        organizer_api: APIClient, match: dict[str, Any], code: str) -> None:
    answer = organizer_api.post("/api/events/showdown/", {
        "name": "Composed", "matches": [match, {"match": None, "stipulation": None}]},
        format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, code)
    assert not Event.objects.exists()


def test_a_null_side_is_refused(organizer_api: APIClient) -> None:
    answer = organizer_api.post("/api/events/showdown/", {"preset": "full_card",
                                                          "sides": [None]}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
    assert not Event.objects.exists()


@pytest.mark.parametrize("seq", ["\u00b2", "9" * 5000, "1" * 16])
def test_an_unreadable_seq_from_the_panel_is_no_seq(organizer: Any, seq: str) -> None:
    """The panel's forms send the Event's seq; one no integer reads is as if none came."""
    event = events.create_event(name="Night", game="super_showdown", format="round_robin",
                                by=organizer)
    for bot in ("random", "heuristic"):
        events.add_entrant(event=event, by=organizer, bot=bot)
    browser = Client(raise_request_exception=False)
    browser.force_login(organizer)
    answer = browser.post(reverse("league:event_start", args=[event.pk]), {"seq": seq})
    assert answer.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_a_form_json_number_no_store_takes_is_a_form_error(organizer: Any) -> None:
    browser = Client(raise_request_exception=False)
    browser.force_login(organizer)
    answer = browser.post(reverse("league:event_create"), {
        "event-name": "E", "event-game": "super_showdown", "event-format": "round_robin",
        "event-format_options": '{"win_points": 1e400}', "event-match_options": "{}",
        "event-deadline_policy": "bot", "event-deadline_bot": "random"})
    assert answer.status_code == 400 and not Event.objects.exists()


@pytest.mark.parametrize(("url", "body"), [
    ("/api/auth/token/", {"username": "ali\x00ce", "password": "x"}),
    ("/api/auth/token/", {"user\x00name": "alice", "password": "x"}),
    # a field no serializer reads: the parser itself refuses it
    ("/api/auth/register/", {"username": "alice", "password": "a long passphrase 7",
                             "note\x00": "x"}),
])
def test_a_nul_character_in_a_multipart_api_body_is_a_parse_error(
        anon_api: APIClient, django_user_model: Any, url: str, body: dict[str, str]) -> None:
    answer = anon_api.post(url, body, format="multipart")
    assert (answer.status_code, answer.json()["code"]) == (400, "parse_error")
    assert "NUL" in answer.json()["detail"]
    assert not django_user_model.objects.filter(username="alice").exists()


@pytest.mark.parametrize("points", [1e308, -101, 100.5])
def test_points_past_a_hundred_are_refused_before_the_standings_overflow(
        organizer_api: APIClient, points: float) -> None:
    """Summed in the tiebreaks, points near a float's limit overflowed to Infinity, which
    no JSON column stores: the Event stalled at a later result."""
    answer = organizer_api.post("/api/events/", {
        "name": "Big", "game": "super_showdown", "format": "round_robin",
        "format_options": {"win_points": points}}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_option")
    assert not Event.objects.exists()


@pytest.mark.parametrize(("content_type", "body", "code"), [
    ("application/json; charset=rot13", '{"username": "a", "password": "b"}', "parse_error"),
    ("application/x-www-form-urlencoded; charset=punycode", "username=a&password=b",
     "bad_request"),
])
def test_a_body_in_a_charset_no_text_reads_is_a_400(anon_api: APIClient, content_type: str,
                                                    body: str, code: str) -> None:
    answer = anon_api.generic("POST", "/api/auth/token/", body, content_type=content_type)
    assert (answer.status_code, answer.json()["code"]) == (400, code)
