"""A human-vs-bot match through the API, the bot seat played by the real Celery worker."""

from __future__ import annotations

import time
import uuid

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db(transaction=True)


def api_client_for(username: str) -> APIClient:
    user = get_user_model().objects.create_user(username=username, password="not-used-here-1")
    client = APIClient()
    client.force_authenticate(user)
    return client


def wait_for_my_turn(client: APIClient, match_id: int, timeout: float = 30.0) -> dict:
    """Poll the state until this seat has something to do or the match is over."""
    deadline = time.monotonic() + timeout
    while True:
        state = client.get(f"/api/matches/{match_id}/state/").json()
        if state["status"] == "finished" or state["legal_actions"]:
            return state
        if time.monotonic() > deadline:
            pytest.fail(f"the bot seat never moved: {state['pending']}")
        time.sleep(0.05)


def test_a_human_plays_a_bot_to_the_end_with_the_worker_moving_the_bot() -> None:
    human = f"human-{uuid.uuid4().hex[:8]}"
    client = api_client_for(human)
    created = client.post(
        "/api/matches/",
        {"game": "super_showdown", "seats": [{"player": human}, {"bot": "heuristic"}]},
        format="json",
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]

    moves = 0
    state = wait_for_my_turn(client, match_id)
    while state["status"] != "finished":
        posted = client.post(
            f"/api/matches/{match_id}/actions/",
            {"seat": state["seat"], "action": state["legal_actions"][0],
             "expected_seq": state["seq"]},
            format="json",
        )
        # The worker may append a bot move between our read and our post; 409 is honest.
        assert posted.status_code in (201, 409), posted.content
        moves += posted.status_code == 201
        state = wait_for_my_turn(client, match_id)
        assert moves < 500

    detail = client.get(f"/api/matches/{match_id}/").json()
    assert detail["status"] == "finished"
    assert detail["result"]["winners"] or detail["result"]["draw"]
    events = client.get(f"/api/matches/{match_id}/events/?after=0").json()
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, detail["seq"] + 1))
    bot_decisions = [e for e in events if e["kind"] == "decision" and e["seat"] == 1]
    assert bot_decisions, "the bot seat made no decision"
    assert moves > 0
