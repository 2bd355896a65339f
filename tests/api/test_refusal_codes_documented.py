"""Each write's schema names every refusal code it may answer: a client built from the
schema met a code it was never told of (a join's 409 no_open_seat, a forfeit's 404
unknown_entrant)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

OPENAPI_JSON = "application/vnd.oai.openapi+json"

# (path, method): the codes its view or the service it calls may answer, as the refusal
# tests meet them.
CODES = {
    ("/api/matches/{id}/join/", "post"): ["already_seated", "match_not_open", "no_open_seat"],
    ("/api/matches/{id}/resign/", "post"): [
        "seat_required", "bad_seat", "not_your_seat", "not_seated", "match_started",
        "match_over", "seat_out", "event_match"],
    ("/api/events/{id}/forfeit/", "post"): [
        "unknown_pairing", "unknown_entrant", "not_in_match", "match_not_active", "seat_out",
        "not_organizer", "stale_seq"],
    ("/api/events/{id}/seat-to-bot/", "post"): [
        "unknown_pairing", "unknown_entrant", "not_in_match", "unknown_bot", "match_over",
        "seat_out", "already_bot", "not_organizer", "stale_seq"],
    ("/api/events/{id}/entrants/{key}/withdraw/", "post"): [
        "unknown_entrant", "event_finished", "not_organizer", "stale_seq"],
}


def test_each_write_names_every_code_it_may_answer(organizer_api: APIClient) -> None:
    schema = organizer_api.get("/api/schema/", HTTP_ACCEPT=OPENAPI_JSON).json()
    for (path, method), codes in CODES.items():
        operation = schema["paths"][path][method]
        told = " ".join([operation.get("description", "")] + [
            answer.get("description", "") for answer in operation["responses"].values()])
        missing = [code for code in codes if code not in told]
        assert missing == [], (path, missing)
