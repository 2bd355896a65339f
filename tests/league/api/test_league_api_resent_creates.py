"""A create sent again with its idempotency key (a phone resending it after a timeout)
answers with what the first made (an Event, a season, a team), and makes no second one."""

from __future__ import annotations

from typing import Any

import pytest
from league_api_helpers import GAME, written
from rest_framework.test import APIClient

from league.models import Event, EventRecord, Season, Team
from league.services import player_for

pytestmark = pytest.mark.django_db


def test_a_create_sent_again_with_its_key_answers_with_the_first_event(
        organizer_api: APIClient) -> None:
    body = {"name": "Night", "game": GAME, "format": "round_robin",
            "idempotency_key": "night-1"}
    answers = [organizer_api.post("/api/events/", body, format="json") for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert Event.objects.count() == 1
    other = organizer_api.post("/api/events/", {**body, "idempotency_key": "night-2"},
                               format="json")
    assert other.status_code == 201 and Event.objects.count() == 2


def test_a_key_reused_for_another_format_is_refused(organizer_api: APIClient) -> None:
    body = {"name": "Night", "game": GAME, "format": "round_robin", "idempotency_key": "k"}
    assert organizer_api.post("/api/events/", body, format="json").status_code == 201
    refused = organizer_api.post("/api/events/", {**body, "format": "swiss"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "key_reused")
    assert Event.objects.count() == 1


def test_keys_are_each_creators_own(organizer_api: APIClient, as_role: Any,
                                    season: Any) -> None:
    body = {"name": "Night", "game": GAME, "format": "round_robin", "idempotency_key": "k",
            "season": season.pk}
    first = organizer_api.post("/api/events/", body, format="json").json()
    second = as_role("season_organizer").post("/api/events/", body, format="json")
    assert second.status_code == 201 and second.json()["id"] != first["id"]


@pytest.mark.django_db(transaction=True)
def test_a_showdown_event_sent_again_with_its_key_is_entered_and_started_once(
        organizer_api: APIClient, player: Any) -> None:
    # The resend comes once the first is committed (its bot's moves too, up to the person's
    # turn): with two bots the first create played the whole Event, which nothing here reads.
    body = {"preset": "full_card", "sides": [{"player": player.username}, {"bot": "random"}],
            "idempotency_key": "card-1"}
    answers = [organizer_api.post("/api/events/showdown/", body, format="json")
               for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201], answers[1].content
    assert answers[0].json()["id"] == answers[1].json()["id"]
    (event,) = Event.objects.all()
    kinds = list(EventRecord.objects.filter(event=event).values_list("kind", flat=True))
    assert kinds.count("entrant_added") == 2 and kinds.count("started") == 1


def test_a_season_create_sent_again_with_its_key_answers_with_the_first_season(
        organizer_api: APIClient, organizer: Any) -> None:
    body = {"name": "Spring", "game": GAME, "idempotency_key": "spring-1"}
    first = organizer_api.post("/api/seasons/", body, format="json")
    before = written()
    again = organizer_api.post("/api/seasons/", body, format="json")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert written() == before
    (season,) = Season.objects.all()
    assert (season.created_by, season.idempotency_key) == (organizer, "spring-1")
    assert list(season.organizers.all()) == [organizer]
    other = organizer_api.post("/api/seasons/", {**body, "idempotency_key": "spring-2"},
                               format="json")
    assert other.status_code == 201 and Season.objects.count() == 2


def test_a_season_key_reused_for_another_game_is_refused(organizer_api: APIClient) -> None:
    body = {"name": "Spring", "game": GAME, "idempotency_key": "k"}
    assert organizer_api.post("/api/seasons/", body, format="json").status_code == 201
    refused = organizer_api.post("/api/seasons/", {**body, "game": "supershow"},
                                 format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "key_reused")
    assert "season" in refused.json()["detail"]
    assert Season.objects.count() == 1


def test_a_team_create_sent_again_with_its_key_answers_with_the_team(
        organizer_api: APIClient, player: Any, player2: Any) -> None:
    body = {"name": "Reds", "members": ["alice", "bruno"], "idempotency_key": "reds-1"}
    first = organizer_api.post("/api/teams/", body, format="json")
    before = written()
    again = organizer_api.post("/api/teams/", body, format="json")
    assert (first.status_code, again.status_code) == (201, 201), again.content
    assert again.json() == first.json()
    assert written() == before
    (team,) = Team.objects.all()
    assert sorted(m.user.username for m in team.members.all()) == ["alice", "bruno"]
    unkeyed = organizer_api.post("/api/teams/", {**body, "idempotency_key": None},
                                 format="json")
    assert (unkeyed.status_code, unkeyed.json()["code"]) == (409, "team_exists")


def test_a_team_key_reused_for_another_name_is_refused(organizer_api: APIClient,
                                                        player: Any) -> None:
    body = {"name": "Reds", "members": ["alice"], "idempotency_key": "k"}
    assert organizer_api.post("/api/teams/", body, format="json").status_code == 201
    refused = organizer_api.post("/api/teams/", {**body, "name": "Blues"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "key_reused")
    assert list(Team.objects.values_list("name", flat=True)) == ["Reds"]


def test_a_team_key_sent_again_with_other_members_is_refused_as_the_name_is_taken(
        organizer_api: APIClient, player: Any, player2: Any, outsider: Any) -> None:
    body = {"name": "Reds", "members": ["alice", "bruno"], "idempotency_key": "k"}
    first = organizer_api.post("/api/teams/", body, format="json")
    assert first.status_code == 201
    before = written()
    for members in ([outsider.username], ["alice"], ["alice", "bruno", outsider.username]):
        refused = organizer_api.post("/api/teams/", {**body, "members": members},
                                     format="json")
        assert (refused.status_code, refused.json()) == (409, {
            "code": "team_exists",
            "detail": "There is already a team called 'Reds' with other members."})
    assert written() == before
    # The members in another order, or one named twice, are the same team: a resend.
    again = organizer_api.post("/api/teams/", {**body, "members": ["bruno", "alice", "bruno"]},
                               format="json")
    assert (again.status_code, again.json()) == (201, first.json())
    assert written() == before


@pytest.mark.parametrize(("path", "body", "model"), [
    ("/api/events/", {"name": "Night", "game": GAME, "format": "round_robin"}, Event),
    ("/api/seasons/", {"name": "Spring", "game": GAME}, Season),
    ("/api/teams/", {"name": "Reds", "members": ["alice"]}, Team),
    ("/api/simulations/", {"game": GAME, "bots": ["random", "random"], "matches": 2}, None),
])
def test_the_key_may_come_in_the_header_as_for_a_match(
        organizer_api: APIClient, player: Any, path: str, body: dict[str, Any],
        model: Any) -> None:
    from league.models import SimulationJob

    model = model or SimulationJob
    first = organizer_api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="tap-1")
    again = organizer_api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="tap-1")
    assert (first.status_code, again.status_code) == (201, 201), again.content
    assert again.json()["id"] == first.json()["id"] and model.objects.count() == 1
    assert model.objects.get().idempotency_key == "tap-1"
    # The body's own key wins over the header's; an empty header is refused, naming it.
    body_keyed = organizer_api.post(path, {**body, "idempotency_key": "tap-1"},
                                    format="json", HTTP_IDEMPOTENCY_KEY="other")
    assert body_keyed.json()["id"] == first.json()["id"]
    refused = organizer_api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=" ")
    assert refused.status_code == 400 and "Idempotency-Key" in refused.json()["detail"]
    assert model.objects.count() == 1


def test_a_showdown_event_takes_the_header_key(organizer_api: APIClient) -> None:
    body = {"preset": "full_card"}
    answers = [organizer_api.post("/api/events/showdown/", body, format="json",
                                  HTTP_IDEMPOTENCY_KEY="card-9") for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json()["id"] == answers[1].json()["id"]
    assert Event.objects.get().idempotency_key == "card-9"


def test_the_header_key_joins_a_form_body_as_one_more_field() -> None:
    """A form-encoded body (a QueryDict) given the header's key keeps its fields whole:
    spread into a dict, each became a list of its values."""
    from rest_framework.parsers import FormParser
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from matches.api_views import with_header_key

    raw = APIRequestFactory().post("/api/teams/", "name=Reds&members=alice",
                                   content_type="application/x-www-form-urlencoded",
                                   HTTP_IDEMPOTENCY_KEY="tap-2")
    body = with_header_key(Request(raw, parsers=[FormParser()]))
    assert (body.get("name"), body.get("members"), body.get("idempotency_key")) == (
        "Reds", "alice", "tap-2")


def _supershow_night(organizer: Any) -> Event:
    from league import events

    return events.create_event(name="Supershow night", game="supershow",
                               format="round_robin", by=organizer)


def test_an_entrant_create_sent_again_with_its_key_answers_with_the_first_entrant(
        organizer_api: APIClient, organizer: Any) -> None:
    """A bot is entered as often as asked (two of the same bot are two entrants), so a
    create resent after a timeout entered a second bot: with its key it answers with the
    first, the same bot, name and picks, even past the seq it was sent with."""
    from league.models import Entrant

    event = _supershow_night(organizer)
    url = f"/api/events/{event.pk}/entrants/"
    body = {"bot": "random", "picks": {"competitors": "velvet_vendetta"},
            "idempotency_key": "bot-1", "expected_seq": event.seq}
    first = organizer_api.post(url, body, format="json")
    assert first.status_code == 201, first.content
    before = written()
    again = organizer_api.post(url, body, format="json")
    assert (again.status_code, again.json()) == (201, first.json())
    named = organizer_api.post(url, {**body, "name": first.json()["name"]}, format="json")
    assert (named.status_code, named.json()) == (201, first.json())
    headed = organizer_api.post(url, {k: v for k, v in body.items() if k != "idempotency_key"},
                                format="json", HTTP_IDEMPOTENCY_KEY="bot-1")
    assert (headed.status_code, headed.json()) == (201, first.json())
    assert written() == before
    assert list(Entrant.objects.filter(event=event).values_list("key", "bot", "picks")) == [
        ("e1", "random", {"competitors": "velvet_vendetta"})]


@pytest.mark.parametrize("other", [
    {"name": "Another name"},
    {"picks": {"competitors": "granite_gus"}},
    {"picks": None},
    {"bot": None, "player": "alice"},
])
def test_an_entrant_key_sent_again_with_another_body_is_refused(
        organizer_api: APIClient, organizer: Any, player: Any, other: dict[str, Any]) -> None:
    event = _supershow_night(organizer)
    url = f"/api/events/{event.pk}/entrants/"
    body = {"bot": "random", "picks": {"competitors": "velvet_vendetta"},
            "idempotency_key": "bot-1"}
    assert organizer_api.post(url, body, format="json").status_code == 201
    before = written()
    refused = organizer_api.post(url, {**body, **other}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "key_reused")
    assert refused.json()["detail"] == ("That idempotency key entered 'random bot' in this "
                                       "Event: use a new key for a new entrant.")
    assert written() == before


def test_entrant_keys_are_each_events_and_creators_own_and_none_means_another_bot(
        organizer_api: APIClient, organizer: Any, as_role: Any, season: Any) -> None:
    from league import events
    from league.models import Entrant

    event = events.create_event(name="Night", game=GAME, format="round_robin",
                                by=organizer, season=season)
    other_event = _supershow_night(organizer)
    body = {"bot": "random", "idempotency_key": "bot-1"}
    for client, target in ((organizer_api, event), (organizer_api, other_event),
                           (as_role("season_organizer"), event)):
        answer = client.post(f"/api/events/{target.pk}/entrants/", body, format="json")
        assert answer.status_code == 201, answer.content
    unkeyed = [organizer_api.post(f"/api/events/{event.pk}/entrants/", {"bot": "random"},
                                  format="json") for _ in range(2)]
    assert [a.status_code for a in unkeyed] == [201, 201]
    assert Entrant.objects.filter(event=event).count() == 4
    assert Entrant.objects.filter(event=other_event).count() == 1


def test_a_player_or_team_entry_sent_again_with_its_key_answers_with_it(
        organizer_api: APIClient, organizer: Any, player: Any, player2: Any) -> None:
    """Without a key a second entry of the same player is 409 entrant_twice: the client
    could not tell its own resend from an entry someone else made."""
    team = Team.objects.create(name="Reds")
    team.members.set([player_for(player2)])
    event = _supershow_night(organizer)
    url = f"/api/events/{event.pk}/entrants/"
    for body in ({"player": "alice", "idempotency_key": "a-1"},
                 {"team": "Reds", "idempotency_key": "r-1"}):
        first = organizer_api.post(url, body, format="json")
        assert first.status_code == 201, first.content
        before = written()
        shouted = {k: v.upper() for k, v in body.items() if k != "idempotency_key"}
        again = organizer_api.post(url, {**body, **shouted}, format="json")
        assert (again.status_code, again.json()) == (201, first.json())
        assert written() == before
        unkeyed = organizer_api.post(url, {**body, "idempotency_key": None}, format="json")
        assert (unkeyed.status_code, unkeyed.json()["code"]) == (409, "entrant_twice")


def test_a_self_entry_sent_again_with_its_key_answers_with_the_entry_made(
        player_api: APIClient, organizer: Any, player: Any) -> None:
    """A second entry of the same player is 409 entrant_twice, so a player whose entry
    timed out could not tell their own resend from an entry made elsewhere: with its key
    (body or header) it answers with the entry, even past the seq it was sent with."""
    from league import events
    from league.models import Entrant

    event = events.create_event(name="Open Supershow", game="supershow",
                                format="round_robin", by=organizer, open_entry=True)
    url = f"/api/events/{event.pk}/enter/"
    body = {"picks": {"competitors": "velvet_vendetta"}, "idempotency_key": "in-1",
            "expected_seq": event.seq}
    first = player_api.post(url, body, format="json")
    assert first.status_code == 201, first.content
    events.add_entrant(event=event, by=organizer, bot="random")
    before = written()
    again = player_api.post(url, body, format="json")
    assert (again.status_code, again.json()) == (201, first.json())
    headed = player_api.post(url, {k: v for k, v in body.items() if k != "idempotency_key"},
                             format="json", HTTP_IDEMPOTENCY_KEY="in-1")
    assert (headed.status_code, headed.json()) == (201, first.json())
    assert written() == before
    assert list(Entrant.objects.filter(event=event).values_list("key", "player__user")) == [
        ("e1", player.pk), ("e2", None)]
    unkeyed = player_api.post(url, {"picks": body["picks"]}, format="json")
    assert (unkeyed.status_code, unkeyed.json()["code"]) == (409, "entrant_twice")
    assert written() == before


@pytest.mark.parametrize("other", [{"picks": {"competitors": "granite_gus"}},
                                   {"picks": None}])
def test_a_self_entry_key_sent_again_with_other_picks_is_refused(
        player_api: APIClient, organizer: Any, player: Any, other: dict[str, Any]) -> None:
    from league import events

    event = events.create_event(name="Open Supershow", game="supershow",
                                format="round_robin", by=organizer, open_entry=True)
    url = f"/api/events/{event.pk}/enter/"
    body = {"picks": {"competitors": "velvet_vendetta"}, "idempotency_key": "in-1"}
    assert player_api.post(url, body, format="json").status_code == 201
    before = written()
    refused = player_api.post(url, {**body, **other}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "key_reused")
    assert refused.json()["detail"] == ("That idempotency key entered 'alice' in this "
                                       "Event: use a new key for a new entrant.")
    assert written() == before
