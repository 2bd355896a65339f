"""The Event page's "Who plays for the team": the team's owner or an organizer chooses
the member who sits its matches from a select, the current one chosen, a refusal beside
it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from league import events
from league.models import Entrant, Event, Team
from league.services import player_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def reds(player: Any, outsider: Any) -> Team:
    """alice (the first member by id) and olga, made by alice, who organizes nothing."""
    team = Team.objects.create(name="Reds", created_by=player)
    team.members.add(player_for(player), player_for(outsider))
    return team


@pytest.fixture
def derby(organizer: Any, player2: Any, reds: Team) -> Event:
    """A draft knockout of the Reds (e1) against bruno (e2)."""
    made = events.create_event(name="Derby", game="super_showdown",
                               format="single_elimination", by=organizer)
    events.add_entrant(event=made, by=organizer, team=reds.name)
    events.add_entrant(event=made, by=organizer, player=player2.username)
    return made


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def options(page: str, key: str) -> list[tuple[str, str, bool]]:
    """The select of `key`'s form: (value, shown, selected) of each option."""
    select = re.search(rf'<select id="player-{key}" name="player"[^>]*>(.*?)</select>',
                       page, re.S)
    assert select, page
    return [(value, shown, bool(chosen)) for value, chosen, shown in re.findall(
        r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select[1])]


def test_the_teams_owner_sees_its_members_the_first_chosen_and_chooses_another(
        player: Any, outsider: Any, derby: Event) -> None:
    client = logged_in(player)
    page = client.get(reverse("league:event", args=[derby.pk])).content.decode()
    assert 'id="team-players"' in page
    assert options(page, "e1") == [("alice", "alice", True), ("olga", "olga", False)]
    answer = client.post(reverse("league:event_team_player", args=[derby.pk]),
                         {"key": "e1", "player": "olga"})
    assert answer.status_code == 302 and answer["Location"].endswith("#team-players")
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [
        "olga plays for Reds from its next match on."]
    assert Entrant.objects.get(event=derby, key="e1").plays == player_for(outsider)
    page = client.get(reverse("league:event", args=[derby.pk])).content.decode()
    assert options(page, "e1") == [("alice", "alice", False), ("olga", "olga", True)]


def test_an_organizer_chooses_for_a_team_they_did_not_make(
        organizer: Any, outsider: Any, derby: Event) -> None:
    client = logged_in(organizer)
    page = client.get(reverse("league:event", args=[derby.pk])).content.decode()
    assert [value for value, _, _ in options(page, "e1")] == ["alice", "olga"]
    client.post(reverse("league:event_team_player", args=[derby.pk]),
                {"key": "e1", "player": "olga"})
    assert Entrant.objects.get(event=derby, key="e1").plays == player_for(outsider)


def test_a_refused_choice_says_why_beside_its_select(player: Any, derby: Event) -> None:
    answer = logged_in(player).post(reverse("league:event_team_player", args=[derby.pk]),
                                    {"key": "e1", "player": "bruno"})
    page = answer.content.decode()
    assert answer.status_code == 400
    assert re.findall(r'<p class="error" id="([^"]+)-error">', page) == ["player-e1"]
    assert "&#x27;bruno&#x27; is not a member of Reds." in \
        page[page.index('id="player-e1-error">'):].split("</p>")[0]
    assert re.search(r'<select id="player-e1" name="player" aria-describedby="player-e1-error" '
                     r'aria-invalid="true">', page)
    assert Entrant.objects.get(event=derby, key="e1").plays is None


def test_one_who_may_not_choose_is_offered_nothing_and_refused_in_words(
        player2: Any, derby: Event) -> None:
    client = logged_in(player2)
    page = client.get(reverse("league:event", args=[derby.pk])).content.decode()
    assert 'id="team-players"' not in page
    answer = client.post(reverse("league:event_team_player", args=[derby.pk]),
                         {"key": "e1", "player": "olga"})
    assert answer.status_code == 302
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [
        "Only the team's owner (who made it) or the Event's organizers choose who plays "
        "for it. (not_your_team)"]
    assert Entrant.objects.get(event=derby, key="e1").plays is None


def test_an_event_without_team_entrants_offers_no_choice(
        organizer: Any, player: Any, player2: Any) -> None:
    made = events.create_event(name="Solo", game="super_showdown",
                               format="single_elimination", by=organizer)
    events.add_entrant(event=made, by=organizer, player=player.username)
    events.add_entrant(event=made, by=organizer, player=player2.username)
    page = logged_in(organizer).get(reverse("league:event", args=[made.pk])).content.decode()
    assert 'id="team-players"' not in page


def test_an_anonymous_choice_is_sent_to_sign_in_and_changes_nothing(derby: Event) -> None:
    answer = Client().post(reverse("league:event_team_player", args=[derby.pk]),
                           {"key": "e1", "player": "olga"})
    assert answer.status_code == 302 and "login" in answer["Location"]
    assert Entrant.objects.get(event=derby, key="e1").plays is None
