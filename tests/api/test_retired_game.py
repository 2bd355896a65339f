"""A game this site plays no more (taken out of the registry by a release): its matches
and Events are still listed and shown, to anyone signed in.

Which of its options were secret (a constructed deck) can no longer be told, so none of
them is shown but to whom they were never hidden: the match's maker, anyone once the
match is over. The lists answered 500 to everyone else, the whole page failing for one
such match or Event.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import registry
from league import events
from league.models import EventMatch
from matches.models import Match

pytestmark = pytest.mark.django_db


def retire(game: str) -> None:
    """The game gone from the registry (tests/conftest.py's toy_game restores nothing it
    finds gone)."""
    registry._GAMES.pop(game)
    registry._BOTS.pop(game, None)


def test_a_retired_games_match_is_listed_and_shown_without_its_options(
        toy_match: Match, player_api: APIClient, outsider_api: APIClient) -> None:
    retire(toy_match.game)
    for url in ("/api/matches/", f"/api/matches/{toy_match.pk}/"):
        response = outsider_api.get(url)
        assert response.status_code == 200, response.content
        shown = response.json()
        shown = shown["results"][0] if "results" in shown else shown
        assert (shown["id"], shown["options"]) == (toy_match.pk, {})
    made = player_api.get(f"/api/matches/{toy_match.pk}/").json()  # alice made it
    assert made["options"] == toy_match.options != {}
    Match.objects.filter(pk=toy_match.pk).update(status=Match.Status.FINISHED)
    over = outsider_api.get(f"/api/matches/{toy_match.pk}/").json()
    assert over["options"] == toy_match.options


def test_a_retired_games_event_is_listed_and_shown_without_its_match_options(
        toy_game: Any, organizer: Any, organizer_api: APIClient,
        outsider_api: APIClient) -> None:
    event = events.create_event(name="Old times", game=toy_game.TOY_KEY,
                                format="round_robin", by=organizer, deadline_bot="random")
    retire(toy_game.TOY_KEY)
    for url in ("/api/events/", f"/api/events/{event.pk}/"):
        response = outsider_api.get(url)
        assert response.status_code == 200, response.content
        shown = response.json()
        shown = shown["results"][0] if "results" in shown else shown
        assert (shown["id"], shown["match_options"]) == (event.pk, {})
    organized = organizer_api.get(f"/api/events/{event.pk}/").json()
    assert organized["match_options"] == event.match_options != {}


def test_a_retired_games_live_match_is_unplayable_and_can_be_resigned(
        toy_match: Match, player: Any, player_api: APIClient,
        outsider_api: APIClient) -> None:
    """Its state, stream and replay are refused as a match whose rules changed (409
    rules_changed, which a client already meets), not as a request naming an unknown game
    (400 unknown_game); and its players resign it as such a match, where the resignation
    was refused 400 unknown_game: the match stayed live for good, one of the matches its
    maker may have waiting or in play (MAX_LIVE_MATCHES)."""
    retire(toy_match.game)
    url = f"/api/matches/{toy_match.pk}/"
    for read in ("state/", "events/", "replay/?at=1"):
        response = outsider_api.get(url + read)
        assert (response.status_code, response.json()["code"]) == (409, "rules_changed")
    played = player_api.post(url + "actions/", {"seat": 0, "action": {}}, format="json")
    assert (played.status_code, played.json()["code"]) == (409, "rules_changed")
    resigned = player_api.post(url + "resign/", {}, format="json")
    assert (resigned.status_code, resigned.json()) == (200, {"outcome": "resigned"})
    toy_match.refresh_from_db()
    assert (toy_match.status, toy_match.result["forfeit"]) == (Match.Status.FINISHED, 0)


def test_a_retired_games_event_match_is_handed_to_no_bot(
        toy_game: Any, organizer: Any, organizer_api: APIClient, player: Any,
        player2: Any) -> None:
    """The organizer's 'Bot plays' on a live Event match of a game this site plays no
    more is refused as its moves are (409 rules_changed), recorded nowhere: it answered
    500, the registry asked for the bots of a game it no longer holds."""
    event = events.create_event(name="Old times", game=toy_game.TOY_KEY,
                                format="round_robin", by=organizer, deadline_bot="random")
    for user in (player, player2):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    retire(toy_game.TOY_KEY)
    seq = event.records.count()
    response = organizer_api.post(f"/api/events/{event.pk}/seat-to-bot/", {
        "pairing": link.pairing, "entrant": link.entrants[0], "bot": "random"},
        format="json")
    assert (response.status_code, response.json()["code"]) == (409, "rules_changed")
    assert event.records.count() == seq
    assert not link.match.seats.exclude(bot="").exists()
