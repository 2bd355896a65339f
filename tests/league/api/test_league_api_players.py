"""/api/players/: search, a player's match history with each filter, and ratings."""

from __future__ import annotations

from typing import Any

import pytest
from league_api_helpers import GAME
from rest_framework.pagination import PageNumberPagination
from rest_framework.test import APIClient

from league import events, projections
from league.models import EventMatch, Player, Season
from league.services import player_for
from matches import services as match_services
from matches.models import Match

pytestmark = pytest.mark.django_db


def duel(a: Any, b: Any) -> Match:
    """a's match against b, whom a invited and who joined."""
    match = match_services.create_match(game=GAME, options={}, created_by=a,
                                        seats=[{"player": a.username}, {"player": b.username}])
    match_services.join_match(match=match, user=b)
    return match


@pytest.fixture
def alice(player: Any, player2: Any, outsider: Any) -> Player:
    for user in (player, player2, outsider):
        player_for(user)
    return Player.objects.get(user=player)


@pytest.fixture
def history(alice: Player, player: Any, player2: Any, outsider: Any, organizer: Any,
            season: Season, played: Any) -> dict[str, Match]:
    """alice lost to bruno, beat olga in a season Event, drew with bruno, and is still
    playing bruno; bruno also played olga without her."""
    lost = duel(player, player2)
    match_services.forfeit_seat(match=played(lost, 0), seat=0)

    event = events.create_event(name="Week 1", game=GAME, format="round_robin", by=organizer,
                                season=season)
    events.add_entrant(event=event, by=organizer, player="alice")
    events.add_entrant(event=event, by=organizer, player="olga")
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.select_related("match").get(event=event)
    olga = link.entrants.index("e2")
    match_services.forfeit_seat(match=played(link.match, olga), seat=olga)
    won = Match.objects.get(pk=link.match_id)

    # A draw cannot be forced by play; its stored result is written as the engine would.
    drawn = duel(player2, player)
    Match.objects.filter(pk=drawn.pk).update(status=Match.Status.FINISHED, result={
        "placements": [1, 1], "winners": [0, 1], "draw": True, "figures": {}, "summary": "A draw."})
    drawn.refresh_from_db()

    live = duel(player, player2)
    duel(player2, outsider)
    return {"lost": lost, "won": won, "drawn": drawn, "live": live}


def ids(response: Any) -> set[int]:
    assert response.status_code == 200, response.content
    return {row["id"] for row in response.json()["results"]}


def test_the_history_lists_every_match_the_player_sat_in_newest_first(
        outsider_api: APIClient, alice: Player, history: dict[str, Match]) -> None:
    response = outsider_api.get(f"/api/players/{alice.pk}/matches/")
    rows = {row["id"]: row for row in response.json()["results"]}
    assert set(rows) == {m.pk for m in history.values()}
    assert response.json()["count"] == 4
    assert [row["id"] for row in response.json()["results"]] == sorted(rows, reverse=True)
    outcomes = {name: rows[m.pk]["outcome"] for name, m in history.items()}
    assert outcomes == {"lost": "loss", "won": "win", "drawn": "draw", "live": None}
    drawn = rows[history["drawn"].pk]
    assert (drawn["seat"], [s["label"] for s in drawn["seats"]]) == (1, ["bruno", "alice"])
    assert rows[history["lost"].pk]["event"] is None
    assert rows[history["won"].pk]["event"]["name"] == "Week 1"
    assert rows[history["live"].pk]["status"] == "active"


def test_a_match_a_bot_took_over_stays_in_the_players_history(
        player_api: APIClient, alice: Player, player: Any, player2: Any,
        played: Any) -> None:
    """Handed to a bot (absent, out of time), the seat still belongs to alice's history,
    the match list's player filter, and names her."""
    match = played(duel(player, player2), 0)
    match_services.hand_seat_to_bot(match=match, seat=0, bot="random")
    rows = player_api.get(f"/api/players/{alice.pk}/matches/").json()["results"]
    assert [(r["id"], r["seat"]) for r in rows] == [(match.pk, 0)]
    seat = rows[0]["seats"][0]
    assert (seat["player"], seat["bot"], seat["stood_in_for"]) == (None, "random", "alice")
    listed = player_api.get("/api/matches/?player=alice").json()["results"]
    assert [m["id"] for m in listed] == [match.pk]


def test_an_opponent_a_bot_took_over_from_still_filters_the_history(
        player_api: APIClient, alice: Player, player: Any, player2: Any,
        played: Any) -> None:
    """bruno's seat handed to a bot (absent, out of time) was still bruno's: alice's
    matches against him include it, as his own history and the match list do."""
    match = played(duel(player, player2), 0)
    match_services.hand_seat_to_bot(match=match, seat=1, bot="random")
    url = f"/api/players/{alice.pk}/matches/"
    assert ids(player_api.get(f"{url}?opponent=bruno")) == {match.pk}
    assert ids(player_api.get(f"{url}?opponent=alice")) == set()


def test_a_corrected_event_result_is_the_outcome_in_the_history(
        player_api: APIClient, alice: Player, history: dict[str, Match],
        organizer: Any) -> None:
    won = history["won"]
    link = EventMatch.objects.get(match=won)
    events.record_match_result(match=won)  # the commit hook that records it does not run here
    events.correct_result(event=link.event, by=organizer, pairing=link.pairing,
                          placements={"e1": 2, "e2": 1})
    url = f"/api/players/{alice.pk}/matches/"
    rows = {r["id"]: r["outcome"] for r in player_api.get(url).json()["results"]}
    assert rows[won.pk] == "loss"
    assert ids(player_api.get(f"{url}?result=loss")) == {history["lost"].pk, won.pk}
    assert ids(player_api.get(f"{url}?result=win")) == set()


@pytest.mark.parametrize(("query", "expected"), [
    ("game=super_showdown", {"lost", "won", "drawn", "live"}),
    ("game=superstar_showdown", set()),
    ("opponent=bruno", {"lost", "drawn", "live"}),
    ("opponent=olga", {"won"}),
    ("opponent=alice", set()),
    ("result=win", {"won"}),
    ("result=loss", {"lost"}),
    ("result=draw", {"drawn"}),
    ("opponent=bruno&result=loss", {"lost"}),
])
def test_the_history_filters(player_api: APIClient, alice: Player, history: dict[str, Match],
                             query: str, expected: set[str]) -> None:
    found = ids(player_api.get(f"/api/players/{alice.pk}/matches/?{query}"))
    assert found == {history[name].pk for name in expected}


def test_a_team_that_won_a_match_no_event_counts_won_it(
        player_api: APIClient, alice: Player, player: Any, player2: Any) -> None:
    """A Supershow handicap match seats one team at two seats, which share first place
    when it wins; the result says it was no draw, and the team's players won it."""
    match = match_services.create_match(
        game="supershow", created_by=player,
        options={"match_type": "handicap",
                 "competitors": ["ox_valdane", "mira_quickstep", "granite_gus"]},
        seats=[{"player": "alice"}, {"player": "bruno"}, {"bot": "random"}])
    match_services.join_match(match=match, user=player2)
    # Written as the engine writes the team's win (placements shared by its seats).
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, result={
        "placements": [1, 1, 2], "winners": [0, 1], "draw": False, "figures": {},
        "summary": "Granite Gus is pinned."})
    bruno = Player.objects.get(user=player2)
    for who in (alice, bruno):
        url = f"/api/players/{who.pk}/matches/"
        rows = player_api.get(url).json()["results"]
        assert [(row["id"], row["outcome"]) for row in rows] == [(match.pk, "win")]
        assert ids(player_api.get(f"{url}?result=win")) == {match.pk}
        assert ids(player_api.get(f"{url}?result=draw")) == set()


def test_the_history_filters_by_season(player_api: APIClient, alice: Player, season: Season,
                                       organizer: Any, history: dict[str, Match]) -> None:
    other = events.create_season(name="Other", game=GAME, by=organizer)
    url = f"/api/players/{alice.pk}/matches/"
    assert ids(player_api.get(f"{url}?season={season.pk}")) == {history["won"].pk}
    assert ids(player_api.get(f"{url}?season={other.pk}")) == set()


@pytest.mark.parametrize("query", ["result=victory", "season=autumn",
                                   "season=99999999999999999999999"])
def test_a_bad_filter_is_refused(player_api: APIClient, alice: Player, query: str) -> None:
    response = player_api.get(f"/api/players/{alice.pk}/matches/?{query}")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_the_history_is_paginated(monkeypatch: pytest.MonkeyPatch, player_api: APIClient,
                                  alice: Player, history: dict[str, Match]) -> None:
    monkeypatch.setattr(PageNumberPagination, "page_size", 3)
    first = player_api.get(f"/api/players/{alice.pk}/matches/").json()
    second = player_api.get(first["next"]).json()
    assert (first["count"], len(first["results"]), len(second["results"])) == (4, 3, 1)
    assert second["next"] is None
    assert ids_of(first) | ids_of(second) == {m.pk for m in history.values()}


def ids_of(page: dict[str, Any]) -> set[int]:
    return {row["id"] for row in page["results"]}


def test_players_are_searched_by_name(player_api: APIClient, alice: Player) -> None:
    everyone = player_api.get("/api/players/").json()["results"]
    assert [p["username"] for p in everyone] == ["alice", "bruno", "olga"]
    Player.objects.filter(user__username="bruno").update(display_name="the Bold")
    found = player_api.get("/api/players/?search=BOLD").json()["results"]
    assert [(p["username"], p["display_name"]) for p in found] == [("bruno", "the Bold")]
    assert [p["username"] for p in player_api.get("/api/players/?search=olg").json()[
        "results"]] == ["olga"]
    one = player_api.get(f"/api/players/{alice.pk}/").json()
    assert (one["username"], one["display_name"]) == ("alice", "alice")


def test_an_unknown_player_is_404(player_api: APIClient) -> None:
    response = player_api.get("/api/players/999999/matches/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_ratings_and_their_history(player_api: APIClient, alice: Player,
                                   history: dict[str, Match]) -> None:
    for name in ("lost", "won", "drawn"):
        projections.refresh_ratings_after(history[name])
    ratings = player_api.get(f"/api/players/{alice.pk}/ratings/").json()
    assert [(r["game"], r["matches"]) for r in ratings] == [(GAME, 3)]
    url = f"/api/players/{alice.pk}/ratings/history/"
    rows = player_api.get(f"{url}?game={GAME}").json()["results"]
    assert [r["match"] for r in rows] == sorted(history[n].pk for n in ("lost", "won", "drawn"))
    assert rows[-1]["ordinal"] == pytest.approx(ratings[0]["ordinal"])
    assert player_api.get(f"{url}?game=superstar_showdown").json()["results"] == []
    assert len(player_api.get(url).json()["results"]) == 3
