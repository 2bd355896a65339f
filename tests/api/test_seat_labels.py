"""A seat's `label` in the API reads as the match's pages name the seat: an Event's bot
entrant by the name it entered under ("heuristic bot 2", not "bot: heuristic"), and two
seats that read the same told apart by their number ("bot: heuristic (seat 2)"), in a
match, in the match list and in a player's match history."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league import events
from league.models import EventMatch
from league.services import player_for
from matches import services

pytestmark = pytest.mark.django_db


def seats_line(player: Any, match_id: int) -> str:
    """The seats line of the match's play page, as `player` reads it."""
    browser = Client()
    browser.force_login(player)
    page = browser.get(reverse("match_play", args=[match_id])).content.decode()
    line = page[page.index('<p class="seats">'):]
    return line[:line.index("</p>")]


def test_an_event_matchs_bot_seats_are_labelled_as_the_event_names_them(
        organizer: Any, player: Any, player_api: APIClient) -> None:
    event = events.create_event(name="Rumble night", game="royal_rumble",
                                format="round_robin", by=organizer)
    events.add_entrant(event=event, by=organizer, player=player.username)
    first = events.add_entrant(event=event, by=organizer, bot="heuristic")
    second = events.add_entrant(event=event, by=organizer, bot="heuristic")
    third = events.add_entrant(event=event, by=organizer, bot="random")
    events.start_event(event=event, by=organizer)
    names = {entrant.key: entrant.name for entrant in (first, second, third)}
    links = list(EventMatch.objects.filter(event=event))
    assert len(links) == 2
    listed = {m["id"]: m for m in player_api.get("/api/matches/?page_size=50").json()[
        "results"]}
    history = {m["id"]: m for m in player_api.get(
        f"/api/players/{player_for(player).pk}/matches/").json()["results"]}
    for link in links:
        shown = [names.get(key, "alice") for key in link.seat_entrants()]
        one = player_api.get(f"/api/matches/{link.match_id}/").json()
        assert [s["label"] for s in one["seats"]] == shown
        assert [s["label"] for s in listed[link.match_id]["seats"]] == shown
        line = seats_line(player, link.match_id)
        assert all(label in line for label in shown) and "bot: " not in line
        if "alice" in shown:
            assert [s["label"] for s in history[link.match_id]["seats"]] == shown
    assert any(set(shown) == {"heuristic bot", "heuristic bot 2"}
               for shown in ([names[k] for k in link.seat_entrants() if k in names]
                             for link in links))


def test_seats_that_read_the_same_are_labelled_with_their_number_as_on_the_page(
        player: Any, player_api: APIClient) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "heuristic"},
                                         {"bot": "heuristic"}])
    labels = [s["label"] for s in player_api.get(f"/api/matches/{match.id}/").json()["seats"]]
    assert labels == ["alice", "bot: heuristic (seat 2)", "bot: heuristic (seat 3)"]
    listed = next(m for m in player_api.get("/api/matches/").json()["results"]
                  if m["id"] == match.id)
    assert [s["label"] for s in listed["seats"]] == labels
    line = seats_line(player, match.id)
    assert all(label in line for label in labels[1:])


def test_a_refusal_of_one_seat_names_it_as_the_pages_do_and_gives_its_index(
        player: Any, player_api: APIClient) -> None:
    """Sentences count seats from 1, as a seat's `label` and the pages do ("Seat 2"); the
    API numbers them from 0, so a refusal of one seat gives that seat's index as `seat`
    beside the sentence (as a stale_seq refusal gives `seq`)."""
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"bot": "random"}, {"player": player.username},
                                         {"bot": "random"}])
    url = f"/api/matches/{match.pk}/"
    assert player_api.post(f"{url}resign/", {"seat": 1}, format="json").status_code == 200
    moved = player_api.post(f"{url}actions/", {"seat": 1, "action": {"type": "pass"}},
                            format="json")
    assert moved.status_code == 400 and moved.json()["seat"] == 1, moved.content
    with pytest.raises(services.ServiceError) as out:
        services.hand_seat_to_bot(match=match, seat=1, bot="random")
    assert out.value.body() == {"code": "seat_out", "seat": 1, "detail": (
        "Seat 2 is out of the match and is asked nothing more: no bot is needed to play it.")}
    with pytest.raises(services.ServiceError) as played:
        services.hand_seat_to_bot(match=match, seat=0, bot="random")
    assert played.value.body() == {"code": "already_bot", "seat": 0,
                                   "detail": "The random bot already plays Seat 1."}
