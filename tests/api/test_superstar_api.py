"""Superstar Showdown through the API: whole matches, refusals, and what each seat may read."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import registry
from engine.games.superstar_showdown.state import deck_ids
from engine.protocol import Event
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db

GAME = "superstar_showdown"
CHECKED_DECISIONS = 120  # several rounds; the check stops at the finish anyway


def state_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/state/"


def actions_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/actions/"


def two_players(player: Any) -> Match:
    """Alice's match against Bruno, whom she invited and who joined."""
    match = services.create_match(game=GAME, options={},
                                  seats=[{"player": "alice"}, {"player": "bruno"}],
                                  created_by=player)
    services.join_match(match=match, user=services.user_named("bruno"))
    return match


def states_after(match: Match) -> list[Any]:
    """The state after each seq of the stream (index 0: before any event), replayed here."""
    rules = registry.get_rules(GAME)
    state = rules.start(match.options, match.n_seats)
    states = [state]
    for row in match.events.order_by("seq"):
        state = rules.apply(state, Event.from_json(row.to_event_json()))
        states.append(state)
    return states


def secret_ids(state: Any, reader: int | None) -> set[str]:
    """Card ids the reader may not see: every deck (its order is nobody's), and the other
    seats' hands and face-down spots."""
    ids: set[str] = set()
    for seat, side in enumerate(state.sides):
        ids |= set(side.deck)
        if seat != reader:
            ids |= {*side.hand, *(c for c in side.spots if c)}
    return ids


def leaks(payload: Any, ids: set[str]) -> set[str]:
    """The ids that appear as JSON strings anywhere in a response body."""
    text = json.dumps(payload)
    return {card for card in ids if f'"{card}"' in text}


# -- whole matches -----------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_a_player_plays_each_bot_to_the_finish_through_the_api(
        client_for: Any, player: Any, bot: str) -> None:
    assert bot in registry.bot_names(GAME)
    client = client_for(player)
    created = client.post("/api/matches/", {"game": GAME, "seats": [{"player": "alice"},
                                                                    {"bot": bot}]},
                          format="json")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    rng = random.Random(f"superstar-{bot}")
    for _ in range(registry.get_rules(GAME).spec.longest_game):
        state = client.get(state_url(match_id)).json()
        if state["status"] == "finished":
            break
        assert state["legal_actions"], f"alice cannot act and the bot did not: {state['pending']}"
        body = {"seat": 0, "action": rng.choice(state["legal_actions"]),
                "expected_seq": state["seq"]}
        response = client.post(actions_url(match_id), body, format="json")
        assert response.status_code == 201, response.content
    final = client.get(f"/api/matches/{match_id}/").json()
    assert final["status"] == "finished"
    assert final["result"]["winners"] or final["result"]["draw"]
    events = client.get(f"/api/matches/{match_id}/events/").json()
    assert any(e["kind"] == "decision" and e["seat"] == 1 for e in events)


# -- refusals ----------------------------------------------------------------------------

def _not_in_hand(hand: list[str]) -> dict[str, Any]:
    other = next(c for c in deck_ids(0) if c not in hand)
    return {"type": "play_spots", "cards": [other, hand[0], hand[1]]}


BAD_ACTIONS = {
    "a card not in hand": (_not_in_hand, "card_not_in_hand"),
    "the rival's card": (lambda h: {"type": "play_spots", "cards": ["b01", h[0], h[1]]},
                         "card_not_in_hand"),
    "one card in two spots": (lambda h: {"type": "play_spots", "cards": [h[0], h[0], h[1]]},
                              "duplicate_card"),
    "two cards for three spots": (lambda h: {"type": "play_spots", "cards": h[:2]},
                                  "wrong_card_count"),
    "a Pin while cards are played": (lambda h: {"type": "pin"}, "out_of_order"),
    "a move while cards are played": (lambda h: {"type": "step", "to": [3, 3]},
                                       "out_of_order"),
    "an unknown type": (lambda h: {"type": "suplex"}, "malformed_action"),
    "no type": (lambda h: {"cards": h[:3]}, "malformed_action"),
    "cards not a list": (lambda h: {"type": "play_spots", "cards": h[0]}, "malformed_action"),
    "a stray field": (lambda h: {"type": "play_spots", "cards": h[:3], "x": 1},
                      "malformed_action"),
    "a bad square": (lambda h: {"type": "step", "to": "C3"}, "malformed_action"),
}


@pytest.mark.parametrize("case", list(BAD_ACTIONS))
def test_a_bad_action_is_400_with_a_code_and_writes_nothing(
        player: Any, player2: Any, player_api: APIClient, case: str) -> None:
    match = two_players(player)
    state = player_api.get(state_url(match.pk)).json()
    hand = [card["id"] for card in state["view"]["sides"][0]["hand"]]
    make, code = BAD_ACTIONS[case]
    before = match.events.count()

    response = player_api.post(actions_url(match.pk), {"seat": 0, "action": make(hand)},
                               format="json")

    assert (response.status_code, response.json()["code"]) == (400, code)
    assert response.json()["detail"]
    assert match.events.count() == before
    assert Match.objects.get(pk=match.pk).seq == state["seq"]


# -- hidden information ------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_nothing_hidden_reaches_the_other_seat_or_a_spectator_before_the_finish(
        player: Any, player2: Any, player_api: APIClient, player2_api: APIClient,
        outsider_api: APIClient, seeded_chance: None) -> None:
    # Seeded shuffles and rolls: with the system's, random play ended some matches within
    # thirty decisions, before the checks below had seen several rounds.
    match = two_players(player)
    seats = {0: player_api, 1: player2_api}
    readers = [(None, outsider_api), (0, player_api), (1, player2_api)]
    rng = random.Random(5)
    checks = 0
    for step in range(CHECKED_DECISIONS):
        match.refresh_from_db()
        if match.status == "finished":
            break
        now = services.load_state(match)
        states = states_after(match) if step % 10 == 0 else []
        for reader, client in readers:
            state = client.get(state_url(match.pk)).json()
            assert not leaks(state, secret_ids(now, reader))
            if reader is not None:  # my own hand and face-down spots are there for me
                mine = state["view"]["sides"][reader]
                assert {c["id"] for c in mine["hand"]} == set(now.sides[reader].hand)
                assert {s["card"]["id"] for s in mine["spots"]} == {
                    c for c in now.sides[reader].spots if c}
            if not states:
                continue
            events = client.get(f"/api/matches/{match.pk}/events/").json()
            for event in events:
                assert not leaks(event, secret_ids(states[event["seq"]], reader)), event
            shuffles = [e["data"]["outcome"]["shuffle"] for e in events if e["kind"] == "chance"]
            assert shuffles and all("order" not in shuffle for shuffle in shuffles)
            for at in {0, match.seq // 3, match.seq // 2, match.seq}:
                replay = client.get(f"/api/matches/{match.pk}/replay/?at={at}").json()
                assert replay["seats"] is None
                assert not leaks(replay, secret_ids(states[at], reader)), at
            checks += 1
        # Whoever must decide plays at random.
        for seat, client in seats.items():
            legal = client.get(f"{state_url(match.pk)}?seat={seat}").json()["legal_actions"]
            if legal:
                body = {"seat": seat, "action": rng.choice(legal)}
                assert client.post(actions_url(match.pk), body, format="json").status_code == 201
                break
    assert checks >= 3 * 5
    assert services.load_state(Match.objects.get(pk=match.pk)).round >= 3
