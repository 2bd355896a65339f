"""16 threads race appends on one match: nothing lost, nothing written twice, seq gap-free."""

from __future__ import annotations

import threading
import uuid
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from matches.models import MatchEvent

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 16
ROUNDS_PER_THREAD = 12


def test_sixteen_threads_racing_appends_lose_nothing_and_duplicate_nothing() -> None:
    users = [
        get_user_model().objects.create_user(username=f"racer-{i}-{uuid.uuid4().hex[:6]}")
        for i in range(2)
    ]
    creator = APIClient()
    creator.force_authenticate(users[0])
    created = creator.post(
        "/api/matches/",
        {"game": "super_showdown",
         "seats": [{"player": users[0].username}, {"player": users[1].username}]},
        format="json",
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    invited = APIClient()  # the second player takes up the invitation, which starts it
    invited.force_authenticate(users[1])
    assert invited.post(f"/api/matches/{match_id}/join/").status_code == 200

    accepted: list[tuple[str, int]] = []  # (idempotency key, seq) of every 201
    replays: list[tuple[str, int]] = []  # answers to a key sent a second time
    errors: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def racer(index: int) -> None:
        client = APIClient()
        client.force_authenticate(users[index % 2])
        try:
            start.wait()
            for round_ in range(ROUNDS_PER_THREAD):
                state = client.get(f"/api/matches/{match_id}/state/").json()
                if state["status"] == "finished":
                    return
                if not state["legal_actions"]:
                    continue
                key = f"t{index}-r{round_}-{uuid.uuid4().hex[:6]}"
                body = {"seat": state["seat"], "action": state["legal_actions"][-1],
                        "idempotency_key": key}
                first = client.post(f"/api/matches/{match_id}/actions/", body, format="json")
                if first.status_code == 201:
                    again = client.post(f"/api/matches/{match_id}/actions/", body, format="json")
                    with lock:
                        accepted.append((key, first.json()["seq"]))
                        replays.append((key, again.json().get("seq", -1)))
                elif first.status_code not in (400, 409):
                    with lock:
                        errors.append(f"{first.status_code}: {first.content!r}")
        except Exception as exc:  # a crash in a thread must fail the test, not vanish
            with lock:
                errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert accepted, "no append succeeded"

    rows = list(MatchEvent.objects.filter(match_id=match_id).order_by("seq"))
    seqs = [row.seq for row in rows]
    assert seqs == list(range(1, len(rows) + 1)), "seq has a gap or a duplicate"
    decisions = {row.idempotency_key: row.seq for row in rows if row.kind == "decision"}
    # Every accepted append is stored once, at the seq it was answered with...
    assert all(decisions.get(key) == seq for key, seq in accepted)
    # ...a repeated key answered the first seq and wrote nothing...
    assert replays == accepted
    assert Counter(key for key, _ in accepted).most_common(1)[0][1] == 1
    # ...and nothing was stored that no caller was told about.
    assert set(decisions) == {key for key, _ in accepted}


def test_racing_creates_with_one_idempotency_key_make_one_match() -> None:
    from matches.models import Match

    user = get_user_model().objects.create_user(username=f"creator-{uuid.uuid4().hex[:6]}")
    answers: list[tuple[int, int | None]] = []
    lock = threading.Lock()
    start = threading.Barrier(8)

    def racer() -> None:
        client = APIClient()
        client.force_authenticate(user)
        try:
            start.wait()
            response = client.post("/api/matches/", {
                "game": "super_showdown", "seats": [{"player": user.username}, {"open": True}],
                "idempotency_key": "one-create"}, format="json")
            with lock:
                answers.append((response.status_code, response.json().get("id")))
        finally:
            connection.close()

    threads = [threading.Thread(target=racer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    made = list(Match.objects.filter(created_by=user).values_list("pk", flat=True))
    assert len(made) == 1
    assert answers == [(201, made[0])] * 8
