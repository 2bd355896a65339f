"""A JSON body's values are read as the type the schema states (config.api_strict): a
number is no text, 0 and 1 are no booleans, "0" is no integer; a form's body, all text,
is read as before."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.http import QueryDict
from rest_framework import serializers
from rest_framework.test import APIClient

from config.api_strict import StrictTypes
from league import events
from league import serializers as league_serializers
from league.models import Event
from matches import serializers as match_serializers
from matches.models import Match

pytestmark = pytest.mark.django_db

REF = "#/components/schemas/"
# What each type of the schema is sent instead, in a body holding that field alone.
WRONG = {"string": [7, 2.5, True, ["a"], {"a": "b"}], "boolean": [0, 1, "true", "false"],
         "integer": ["0", "1"], "object": ["{}", 1, True, ["a"]], "array": ["a", 1, {"a": "b"}]}


def _body_schema(schema: dict[str, Any], operation: dict[str, Any]) -> dict[str, Any]:
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    ref = (content or {}).get("schema", {}).get("$ref", "")
    return schema["components"]["schemas"].get(ref.removeprefix(REF), {})


def test_every_body_field_refuses_a_value_of_another_json_type(
        organizer_api: APIClient, organizer: Any, toy_match: Match) -> None:
    """Each field of each body the schema types as a string (a date's too), a boolean, an
    integer, an object or an array,
    sent by staff (who pass every permission) to a real object as a value of another
    type: a 400 `invalid` naming the field, every time."""
    schema = organizer_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
                               ).json()
    event = events.create_event(name="Strict", game="super_showdown", format="round_robin",
                                by=organizer)
    taken, tried = [], 0
    for template, operations in schema["paths"].items():
        url = (template.replace("{id}", str(event.pk if "/events/" in template
                                            else toy_match.pk)).replace("{key}", "e1"))
        for method, operation in operations.items():
            properties = _body_schema(schema, operation).get("properties", {})
            for name, field in properties.items():
                if field.get("readOnly") or field.get("type") not in WRONG:
                    continue
                for value in WRONG[field["type"]]:
                    tried += 1
                    answer = organizer_api.generic(
                        method.upper(), url, f'{{"{name}": {json.dumps(value)}}}',
                        content_type="application/json")
                    body = answer.json() if answer.content else {}
                    detail = body.get("detail")
                    if (answer.status_code, body.get("code")) != (400, "invalid") \
                            or not isinstance(detail, dict) or name not in detail:
                        taken.append(f"{method.upper()} {template} {name}={value!r}: "
                                     f"{answer.status_code} {str(body)[:120]}")
    assert tried > 100
    assert taken == []


@pytest.mark.parametrize(("body", "message"), [
    ({"seat": "0", "action": {"type": "pass"}}, "A valid integer is required."),
    ({"seat": 0, "action": {"type": "pass"}, "idempotency_key": 12},
     "Not a valid string."),
    ({"seat": 0, "action": {"type": "pass"}, "expected_seq": "3"},
     "A valid integer is required."),
])
def test_an_action_of_a_loosely_typed_field_is_refused_and_writes_nothing(
        player_api: APIClient, toy_match: Match, body: dict[str, Any], message: str) -> None:
    seq = toy_match.seq
    answer = player_api.post(f"/api/matches/{toy_match.pk}/actions/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert [message] in answer.json()["detail"].values()
    toy_match.refresh_from_db()
    assert toy_match.seq == seq


@pytest.mark.parametrize("leaving", [1, 0, "true", "yes"])
def test_a_resign_whose_leaving_is_no_boolean_is_refused(
        player_api: APIClient, toy_match: Match, leaving: Any) -> None:
    answer = player_api.post(f"/api/matches/{toy_match.pk}/resign/", {"leaving": leaving},
                             format="json")
    assert answer.status_code == 400
    assert answer.json() == {"code": "invalid",
                             "detail": {"leaving": ["Must be a valid boolean."]}}
    toy_match.refresh_from_db()
    assert toy_match.status == Match.Status.ACTIVE


def test_an_event_named_by_a_number_is_refused_with_the_other_bad_fields(
        organizer_api: APIClient) -> None:
    answer = organizer_api.post("/api/events/", {
        "name": 5, "game": "super_showdown", "format": "round_robin", "season": "1",
        "hold_rounds": 1, "turn_deadline_minutes": "60",
        "format_options": {"win_points": 3}, "deadline_bot": ""}, format="json")
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert detail["name"] == ["Not a valid string."]
    assert detail["season"] == ["Incorrect type. Expected pk value, received str."]
    assert detail["hold_rounds"] == ["Must be a valid boolean."]
    assert detail["turn_deadline_minutes"] == ["A valid integer is required."]
    assert detail["deadline_bot"] == ["This field may not be blank."]  # DRF's own, kept
    assert not Event.objects.exists()


class Typed(StrictTypes, serializers.Serializer):
    named = match_serializers.ChoiceField(choices=["1", "2"], required=False)
    numbered = match_serializers.ChoiceField(choices=[1, 2], required=False)
    several = serializers.MultipleChoiceField(choices=["1", "2"], required=False)
    on = serializers.DateField(required=False)
    at = serializers.DateTimeField(required=False)
    options = match_serializers.ObjectField(required=False)
    matches = league_serializers.ComposedMatchesField(required=False, allow_null=True)


@pytest.mark.parametrize(("body", "message"), [
    ({"named": 1}, "1 is not a valid choice."),
    ({"numbered": "1"}, "'1' is not a valid choice."),
    ({"several": ["1", 2]}, '"2" is not a valid choice.'),  # DRF's own message
    ({"on": 20261207}, "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."),
    ({"at": 1796601600}, "Datetime has wrong format. Use one of these formats instead: "
                         "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."),
    ({"at": "2026-12-07"}, "Datetime has wrong format. Use one of these formats instead: "
                           "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."),
    ({"at": "20261207"}, "Datetime has wrong format. Use one of these formats instead: "
                         "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."),
    ({"options": '{"round_limit": 20}'}, "Expected an object, not a string."),
    ({"options": [1]}, "Expected an object, not an array."),
    ({"matches": {"match": None}}, "Expected an array, not an object."),
])
def test_a_choice_a_date_and_a_json_field_take_their_own_type_alone(
        body: dict[str, Any], message: str) -> None:
    typed = Typed(data=body)
    assert not typed.is_valid()
    assert typed.errors == {next(iter(body)): [message]}


def test_a_choice_a_date_and_a_json_field_of_their_own_type_are_read() -> None:
    typed = Typed(data={"named": "1", "numbered": 2, "several": ["2"], "on": "2026-12-07",
                        "options": {"round_limit": 20}, "matches": None})
    assert typed.is_valid(), typed.errors
    assert typed.validated_data["numbered"] == 2
    assert str(typed.validated_data["on"]) == "2026-12-07"


def test_a_date_time_of_a_date_alone_is_refused(
        organizer_api: APIClient, organizer: Any) -> None:
    """DRF read "2026-12-07" as that day's midnight, though the schema says date-time."""
    event = events.create_event(name="Dated", game="super_showdown", format="round_robin",
                                by=organizer)
    url = f"/api/events/{event.pk}/details/"
    answer = organizer_api.post(url, {"starts_at": "2030-12-07"}, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "invalid"
    assert list(answer.json()["detail"]) == ["starts_at"]
    event.refresh_from_db()
    assert event.starts_at is None
    answer = organizer_api.post(url, {"starts_at": "2030-12-07T19:30Z"}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["starts_at"].startswith("2030-12-07T19:30")


def test_a_date_time_of_a_date_alone_is_refused_in_a_form_or_a_query_string_too() -> None:
    typed = Typed(data=QueryDict("at=2026-12-07"))
    assert not typed.is_valid()
    assert list(typed.errors) == ["at"]
    assert Typed(data=QueryDict("at=2026-12-07T10:00Z")).is_valid()


def test_a_simulation_whose_options_are_text_is_refused(organizer_api: APIClient) -> None:
    answer = organizer_api.post("/api/simulations/", {
        "game": "toy_showdown", "bots": ["random", "random"], "matches": 1,
        "options": "{}"}, format="json")
    assert answer.json() == {"code": "invalid", "detail": {
        "options": ["Expected an object, not a string."]}}


def test_items_of_a_list_and_values_of_a_mapping_are_typed_too(
        organizer_api: APIClient, organizer: Any) -> None:
    event = events.create_event(name="Strict", game="super_showdown", format="round_robin",
                                by=organizer)
    answer = organizer_api.post(f"/api/events/{event.pk}/corrections/", {
        "pairing": "r1-1", "placements": {"e1": "2", "e2": 1}}, format="json")
    assert answer.json()["detail"] == {"placements": {"e1": ["A valid integer is required."]}}
    answer = organizer_api.post(f"/api/events/{event.pk}/seed/", {
        "method": "hand", "order": ["e1", 2]}, format="json")
    assert answer.json()["detail"] == {"order": {"1": ["Not a valid string."]}}


def test_a_form_body_is_text_and_is_read_as_before(player_api: APIClient) -> None:
    answer = player_api.patch("/api/auth/me/", "display_name=7&event_mail=false",
                              content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["display_name"], answer.json()["event_mail"]) == ("7", False)


def test_a_query_string_is_text_and_is_read_as_before(player_api: APIClient,
                                                      toy_match: Match) -> None:
    answer = player_api.get(f"/api/matches/{toy_match.pk}/state/?seat=0")
    assert answer.status_code == 200
    assert answer.json()["seat"] == 0
    answer = player_api.get("/api/events/?open_entry=true&season=1")
    assert answer.status_code == 200


def test_every_api_serializer_reads_json_strictly() -> None:
    """Each serializer of the API's modules, a body's or an answer's (an answer's may be
    read as a body one day): none is DRF's own, which converts."""
    loose = [
        f"{module.__name__}.{name}"
        for module in (match_serializers, league_serializers)
        for name, value in vars(module).items()
        if isinstance(value, type) and value.__module__ == module.__name__
        and issubclass(value, serializers.Serializer)
        and not issubclass(value, serializers.ListSerializer)
        and not issubclass(value, StrictTypes)]
    assert loose == []
