"""A text field of a request body that the API refuses blank says so in the schema
(`minLength: 1`): a client generated from /api/schema/ that lets "" through would
otherwise meet a 400 `invalid` its schema never stated."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league import events
from matches.models import Match

pytestmark = pytest.mark.django_db

REF = "#/components/schemas/"


def _body_schema(schema: dict[str, Any], operation: dict[str, Any]) -> dict[str, Any]:
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    ref = (content or {}).get("schema", {}).get("$ref", "")
    return schema["components"]["schemas"].get(ref.removeprefix(REF), {})


def test_every_text_field_refused_blank_is_documented_so(
        organizer_api: APIClient, organizer: Any, toy_match: Match) -> None:
    """Each body's text fields the schema lets be blank, sent blank by staff (who pass
    every permission) to a real object: none is refused for being blank."""
    schema = organizer_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
                               ).json()
    event = events.create_event(name="Blank", game="super_showdown", format="round_robin",
                                by=organizer)
    refused = []
    for template, operations in schema["paths"].items():
        if template.startswith("/api/auth/"):
            continue  # (the account endpoints: their own tests)
        url = (template.replace("{id}", str(event.pk if "/events/" in template
                                            else toy_match.pk)).replace("{key}", "e1"))
        for method, operation in operations.items():
            properties = _body_schema(schema, operation).get("properties", {})
            for name, field in properties.items():
                if field.get("type") != "string" or field.get("minLength") \
                        or field.get("readOnly"):
                    continue
                answer = organizer_api.generic(method.upper(), url, f'{{"{name}": ""}}',
                                               content_type="application/json")
                detail = answer.json().get("detail") if answer.content else None
                if isinstance(detail, dict) and any("blank" in str(message)
                                                    for message in detail.get(name, [])):
                    refused.append(f"{method.upper()} {template} {name}")
    assert refused == []


def test_the_schema_states_the_blank_fields_a_match_create_refuses(
        organizer_api: APIClient) -> None:
    schema = organizer_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
                               ).json()["components"]["schemas"]
    assert schema["MatchCreate"]["properties"]["game"]["minLength"] == 1
    assert schema["Action"]["properties"]["idempotency_key"]["minLength"] == 1
