"""Both seats of a face-down decision post their cards from the play page at the same
instant, each with a double click: each move is stored once, neither refused."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from engine.registry import get_rules
from matches import services
from matches.models import MatchEvent

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "super_showdown"
TRIALS = 4


def at_a_decision_of_both(match: Any) -> Any:
    """`match` once both seats decide at once (the system plays the first legal action of
    whoever is due until then)."""
    rules = get_rules(GAME)
    for _ in range(40):
        match.refresh_from_db()
        pending = rules.pending(services.load_state(match))
        if len(pending.seats) == 2:
            return match
        state = services.load_state(match)
        seat = pending.seats[0]
        services.submit_action(match=match, seat=seat, user=None,
                               action=rules.legal_actions(state, seat)[0])
    raise AssertionError("the match never waited for both seats at once")


def act(browser: Client, match_id: int, form: dict[str, Any]) -> int:
    return int(browser.post(reverse("match_act", args=[match_id]), form).status_code)


def test_both_seats_and_their_double_clicks_at_once_store_one_move_each(race: Any) -> None:
    for _ in range(TRIALS):
        tag = uuid.uuid4().hex[:6]
        people = [get_user_model().objects.create_user(username=f"{n}-{tag}")
                  for n in ("ann", "ben")]
        match = at_a_decision_of_both(services.create_match(
            game=GAME, options={}, created_by=None,
            seats=[{"player": person.username} for person in people]))
        before = match.seq
        posts = []
        for seat, person in enumerate(people):
            browser = Client()
            browser.force_login(person)
            action = services.match_state(match=match, user=person, seat=seat)[
                "legal_actions"][0]
            form = {"action": json.dumps(action), "key": uuid.uuid4().hex, "seat": seat,
                    "moves": services.moves_of(match, seat)}
            posts += [partial(act, browser, match.pk, form)] * 2
        answers, errors = race(posts)
        assert errors == []
        assert answers == [302] * 4, answers
        rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
        moved = Counter(row.seat for row in rows if row.seq > before and row.kind == "decision")
        assert moved == {0: 1, 1: 1}
        services.load_state(match)  # replays
