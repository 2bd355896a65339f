"""Which member of a team entrant sits its matches: its first by id until its owner or
the Event's organizers choose one."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league import events
from league.models import Entrant, Event, EventMatch, EventRecord, Team
from league.services import player_for

pytestmark = pytest.mark.django_db

GAME = "super_showdown"


@pytest.fixture
def reds(organizer: Any, player: Any, outsider: Any) -> Team:
    """alice (the first member by id) and olga, made by the organizer."""
    return events.create_team(name="Reds", members=[player.username, outsider.username],
                              by=organizer)


@pytest.fixture
def event(organizer: Any, player2: Any, reds: Team) -> Event:
    """A draft knockout of the Reds (e1) against bruno (e2)."""
    made = events.create_event(name="Derby", game=GAME, format="single_elimination",
                               by=organizer)
    events.add_entrant(event=made, by=organizer, team=reds.name)
    events.add_entrant(event=made, by=organizer, player=player2.username)
    return made


def seated(event: Event, key: str) -> str:
    """The username at the seat of `key` in the Event's one match."""
    link = EventMatch.objects.get(event=event)
    return link.match.seats.get(index=link.entrants.index(key)).user.username


def test_a_team_sits_its_first_member_until_one_is_chosen(organizer: Any,
                                                           event: Event) -> None:
    events.start_event(event=event, by=organizer)
    assert seated(event, "e1") == "alice"


def test_the_chosen_member_sits_the_teams_matches(organizer: Any, outsider: Any,
                                                  event: Event) -> None:
    entrant = events.choose_team_player(event=event, by=organizer, key="e1",
                                        player=outsider.username)
    assert entrant.plays == player_for(outsider)
    assert EventRecord.objects.filter(event=event, kind="team_player_chosen").count() == 1
    events.start_event(event=event, by=organizer)
    assert seated(event, "e1") == "olga"


def test_a_match_made_keeps_its_seat_and_the_choice_counts_from_the_next(
        organizer: Any, outsider: Any, event: Event) -> None:
    events.start_event(event=event, by=organizer)
    events.choose_team_player(event=event, by=organizer, key="e1", player=outsider.username)
    assert seated(event, "e1") == "alice"
    done = events.replay_to_read(Event.objects.get(pk=event.pk))
    assert events._seat_for(done.entrants["e1"]) == {"player": "olga"}


def test_the_teams_owner_chooses_though_no_organizer(
        django_user_model: Any, organizer: Any, player: Any, outsider: Any,
        event: Event, reds: Team) -> None:
    owner = django_user_model.objects.create_user("carla", password="x")
    Team.objects.filter(pk=reds.pk).update(created_by=owner)
    events.choose_team_player(event=event, by=owner, key="e1", player=outsider.username)
    assert Entrant.objects.get(event=event, key="e1").plays == player_for(outsider)


def test_a_member_who_is_not_its_owner_may_not_choose(player: Any, outsider: Any,
                                                       event: Event) -> None:
    seq = Event.objects.get(pk=event.pk).seq
    with pytest.raises(events.LeagueError) as refused:
        events.choose_team_player(event=event, by=player, key="e1", player=outsider.username)
    assert (refused.value.code, refused.value.status) == ("not_your_team", 403)
    assert Event.objects.get(pk=event.pk).seq == seq


def test_a_player_not_of_the_team_is_refused_and_nothing_is_written(
        organizer: Any, player2: Any, event: Event) -> None:
    seq = Event.objects.get(pk=event.pk).seq
    with pytest.raises(events.LeagueError) as refused:
        events.choose_team_player(event=event, by=organizer, key="e1", player=player2.username)
    assert (refused.value.code, refused.value.status) == ("not_a_member", 400)
    assert "'bruno' is not a member of Reds" in refused.value.detail
    assert Event.objects.get(pk=event.pk).seq == seq


def test_a_player_entrant_has_no_member_to_choose(organizer: Any, player2: Any,
                                                  event: Event) -> None:
    with pytest.raises(events.LeagueError) as refused:
        events.choose_team_player(event=event, by=organizer, key="e2",
                                  player=player2.username)
    assert (refused.value.code, refused.value.status) == ("not_a_team", 409)


def test_a_superstar_showdown_team_seats_every_member_and_takes_no_choice(
        organizer: Any, outsider: Any, reds: Team) -> None:
    event = events.create_showdown_event(
        by=organizer, preset=None, superstars_per_team=1,
        matches=[{"match": "head_to_head", "stipulation": None}] * 2,
        sides=[{"team": reds.name}, {"bot": "random"}])
    key = Entrant.objects.get(event=event, team=reds).key
    with pytest.raises(events.LeagueError) as refused:
        events.choose_team_player(event=event, by=organizer, key=key,
                                  player=outsider.username)
    assert (refused.value.code, refused.value.status) == ("every_member_plays", 409)


def test_a_chosen_member_who_left_the_team_sits_no_more(organizer: Any, outsider: Any,
                                                        event: Event, reds: Team) -> None:
    events.choose_team_player(event=event, by=organizer, key="e1", player=outsider.username)
    reds.members.remove(player_for(outsider))
    events.start_event(event=event, by=organizer)
    assert seated(event, "e1") == "alice"


def test_the_api_chooses_and_lists_the_member_who_plays(
        client_for: Any, organizer: Any, outsider: Any, player2: Any, event: Event) -> None:
    api: APIClient = client_for(organizer)
    url = f"/api/events/{event.pk}/entrants/e1/player/"
    refused = api.post(url, {"player": player2.username}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "not_a_member")
    answer = api.post(url, {"player": outsider.username}, format="json")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["key"], answer.json()["plays"]) == ("e1", player_for(outsider).pk)
    listed = api.get(f"/api/events/{event.pk}/").json()["entrants"]
    assert {e["key"]: e["plays"] for e in listed} == {"e1": player_for(outsider).pk, "e2": None}
