"""Superstar Showdown Events from the dashboard: one click on a preset, the composed form
and its refusals, and the live Ranking Points table of the Event's pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import events
from league.models import Event, EventMatch, RankingPoints, RankingTotal, Season
from matches.models import Match

pytestmark = pytest.mark.django_db

GAME = "superstar_showdown"


@pytest.fixture
def showdown_season(organizer: Any, sam: Any) -> Season:
    """A Superstar Showdown season that sam (not staff) organizes."""
    made = events.create_season(name="Ring season", game=GAME, by=organizer)
    made.organizers.add(sam)
    return made


def form(season: Season | None = None, **fields: str) -> dict[str, str]:
    data = {"name": "", "season": str(season.pk) if season else "", "preset": "",
            "matches": "3", "superstars_per_team": "3", "red_team": "", "red_player": "",
            "red_bot": "", "blue_team": "", "blue_player": "", "blue_bot": "", **fields}
    return {f"showdown-{k}": v for k, v in data.items()}


def test_the_dashboard_offers_each_preset_as_a_button(sam_client: Client,
                                                      showdown_season: Season) -> None:
    page = sam_client.get(reverse("league:dashboard")).content.decode()
    assert "New Superstar Showdown Event" in page
    for key, title in [("full_card", "Full Card"), ("tag_team_series", "Tag Team Series"),
                       ("ultimate_endurance", "Ultimate Endurance")]:
        assert f'name="showdown-preset" value="{key}" class="primary">{title}</button>' in page
    assert "Or compose the Matches" in page and 'name="showdown-match_6"' in page


def test_an_organizer_with_no_showdown_season_is_told_so_not_given_a_form_that_cannot_send(
        sam_client: Client, staff_client: Client, season: Season) -> None:
    """sam organizes a season of another game only: the form's season would have no
    choice, and every button would come back "This field is required"."""
    page = sam_client.get(reverse("league:dashboard")).content.decode()
    assert "You organize no Superstar Showdown season" in page
    assert 'name="showdown-preset"' not in page
    staff = staff_client.get(reverse("league:dashboard")).content.decode()
    assert 'name="showdown-preset"' in staff


def test_ss160_one_click_on_the_full_card_makes_the_event(sam_client: Client,
                                                      showdown_season: Season) -> None:
    """SS-160: the Full Card preset in one click; the organizer page comes next."""
    response = sam_client.post(reverse("league:showdown_create"),
                               form(showdown_season, preset="full_card"))
    event = Event.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("league:event_admin", args=[event.pk]) + "#content"
    assert (event.name, event.format, event.season) == ("Full Card", "showdown_series",
                                                        showdown_season)
    assert event.match_options["event"] == "full_card"
    page = sam_client.get(response["Location"]).content.decode()
    assert "Full Card created." in page
    assert "Ranking Points" in page and "enter Red and Blue" in page


def test_ss161_a_preset_with_both_sides_named_starts_at_once(sam_client: Client,
                                                             showdown_season: Season) -> None:
    """SS-161: Tag Team Series, a bot on each side: entered, started, its match made."""
    response = sam_client.post(reverse("league:showdown_create"), form(
        showdown_season, preset="tag_team_series", name="Tag night", red_bot="random",
        blue_bot="heuristic"))
    assert response.status_code == 302
    event = Event.objects.get(name="Tag night")
    assert event.status == Event.Status.RUNNING
    link = EventMatch.objects.get(event=event)
    assert link.match.options["event"] == "tag_team_series"
    assert [s.bot for s in link.match.seats.order_by("index")] == ["random", "heuristic"]


def test_a_single_player_is_a_side_as_the_pages_say(sam_client: Client, player: Any,
                                                    player2: Any, showdown_season: Season
                                                    ) -> None:
    """The dashboard and the Event's page say a side is a team, a single player or a bot;
    a player entered on the Event's page is one, in one seat for their whole side."""
    dashboard = sam_client.get(reverse("league:dashboard")).content.decode()
    card = " ".join(dashboard[dashboard.index('id="new-showdown"'):].split())
    assert "(each a team of 1-3 players, a single player or a bot)" in card
    assert "a team or a bot each" not in card and "or a bot, each" not in card
    response = sam_client.post(reverse("league:showdown_create"),
                               form(showdown_season, preset="full_card"))
    event = Event.objects.get()
    page = sam_client.get(response["Location"]).content.decode()
    assert "enter Red and Blue (each a team, a player or a bot) and start the Event" in page
    for side in ({"player": player.username}, {"player": player2.username}):
        answer = sam_client.post(reverse("league:entrant_add", args=[event.pk]), side,
                                 HTTP_HX_REQUEST="true")
        assert answer.status_code == 200 and "error-banner" not in answer.content.decode()
    events.start_event(event=event, by=event.created_by)
    link = EventMatch.objects.get(event=event)
    assert [s.user.username for s in link.match.seats.order_by("index")] == ["alice", "bruno"]


def test_the_dashboard_form_makes_a_single_player_a_side_and_starts_at_once(
        sam_client: Client, player: Any, player2: Any, showdown_season: Season) -> None:
    """A side named by a player's username, as the Event's page and the API take one: the
    form named a team or a bot alone, so a single player had to be entered later."""
    dashboard = sam_client.get(reverse("league:dashboard")).content.decode()
    assert '<label for="id_showdown-red_player">or a player&#x27;s username</label>' in dashboard
    response = sam_client.post(reverse("league:showdown_create"), form(
        showdown_season, preset="full_card", name="Solo night", red_player=player.username,
        blue_player=player2.username))
    assert response.status_code == 302
    event = Event.objects.get(name="Solo night")
    assert event.status == Event.Status.RUNNING
    link = EventMatch.objects.get(event=event)
    assert [s.user.username for s in link.match.seats.order_by("index")] == ["alice", "bruno"]
    response = sam_client.post(reverse("league:showdown_create"), form(
        showdown_season, preset="full_card", name="Mixed", red_player=player.username,
        blue_bot="random"))
    link = EventMatch.objects.get(event__name="Mixed")
    assert [(s.user.username if s.user else s.bot) for s in
            link.match.seats.order_by("index")] == ["alice", "random"]


def test_ss128_ss129_the_composed_form_becomes_the_engine_option(staff_client: Client) -> None:
    """SS-128/SS-129: a Match card and Stipulation per row, blank = drawn at random; rows
    past the number of Matches are left out."""
    response = staff_client.post(reverse("league:showdown_create"), form(
        name="Composed", matches="2", superstars_per_team="2", match_1="tag_team",
        stipulation_1="hardcore", match_2="", stipulation_2="endurance",
        match_3="gauntlet"))
    assert response.status_code == 302
    event = Event.objects.get(name="Composed")
    assert event.season is None
    assert event.match_options["event"] == {
        "matches": [{"match": "tag_team", "stipulation": "hardcore"},
                    {"match": None, "stipulation": "endurance"}],
        "superstars_per_team": 2}


def test_matches_past_the_rows_are_drawn_at_random(staff_client: Client) -> None:
    staff_client.post(reverse("league:showdown_create"), form(name="Long", matches="8"))
    matches = Event.objects.get(name="Long").match_options["event"]["matches"]
    assert len(matches) == 8
    assert matches[6:] == [{"match": None, "stipulation": None}] * 2


@pytest.mark.parametrize(("fields", "message"), [
    ({"matches": "1"}, "at least 2 Matches (SS-127)"),
    ({"matches": ""}, "at least 2 Matches (SS-127)"),
    ({"matches": "99999999999999999999"}, "less than or equal to"),
    ({"matches": "2", "superstars_per_team": "1", "match_1": "six_man_tag"},
     "needs 3 Superstars a team"),
    ({"match_1": "cage_fight"}, "Select a valid choice"),
    ({"preset": "wrestlemania"}, "Select a valid choice"),
    ({"preset": "full_card", "red_bot": "random"}, "Red and Blue: give both or neither"),
    ({"preset": "full_card", "red_team": "Ghosts", "blue_bot": "random"},
     "No team called &#x27;Ghosts&#x27;"),
    ({"preset": "full_card", "red_team": "Ghosts", "red_bot": "random"},
     "Red is a team, a player or a bot: one of them."),
    ({"preset": "full_card", "red_player": "alice", "red_bot": "random"},
     "Red is a team, a player or a bot: one of them."),
    ({"preset": "full_card", "red_player": "nobody-here", "blue_bot": "random"},
     "No player called &#x27;nobody-here&#x27;"),
])
def test_ss127_a_refused_event_shows_why_and_writes_nothing(
        staff_client: Client, fields: dict[str, str], message: str) -> None:
    """SS-127 (at least two Matches) and the other refusals: the dashboard again with the
    reason, the composed part open, and nothing written."""
    response = staff_client.post(reverse("league:showdown_create"), form(**fields))
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert '<details class="compose" open>' in page
    assert not Event.objects.exists() and not Match.objects.exists()
    # sent to its own card's anchor, the browser comes back at the refusal
    assert f'action="{reverse("league:showdown_create")}#new-showdown"' in page
    assert 'id="new-showdown"' in page


@pytest.mark.parametrize(("role", "expected"), [("anonymous", 302), ("outsider", 403)])
def test_only_organizers_create_showdown_events(as_role: Any, role: str, expected: int) -> None:
    response = as_role(role).post(reverse("league:showdown_create"), form(preset="full_card"))
    assert response.status_code == expected
    assert not Event.objects.exists()


# -- the Ranking Points table --------------------------------------------------------------

@pytest.fixture
def running(organizer: Any) -> Event:
    """A running two-bot Event of two head-to-head Matches, one Superstar a team."""
    return events.create_showdown_event(
        by=organizer, name="Duel night", sides=[{"bot": "random"}, {"bot": "heuristic"}],
        matches=[{"match": "head_to_head", "stipulation": None}] * 2, superstars_per_team=1)


def project(event: Event, match_done: bool) -> None:
    """Ranking Points rows as the projection writes them after Match 1 (and the bonus)."""
    match = EventMatch.objects.get(event=event).match
    RankingTotal.objects.bulk_create([
        RankingTotal(match=match, event=event, entrant="e1", team=0, name="Red",
                     superstars=["oakhart"], match_points=30, bonus_points=12, total=42,
                     matches_won=1),
        RankingTotal(match=match, event=event, entrant="e2", team=1, name="Blue",
                     superstars=["skylark"], match_points=5, bonus_points=9, total=14),
    ])
    status = "done" if match_done else "playing"
    RankingPoints.objects.bulk_create([
        RankingPoints(match=match, event=event, team=0, number=1, card="head_to_head",
                      stipulation="hardcore", status=status, outcome="won" if match_done
                      else "", points=30, bonus_points=12),
        RankingPoints(match=match, event=event, team=1, number=1, card="head_to_head",
                      stipulation="hardcore", status=status, outcome="lost" if match_done
                      else "", points=5, bonus_points=9),
        RankingPoints(match=match, event=event, team=0, number=2, status="pending"),
        RankingPoints(match=match, event=event, team=1, number=2, status="pending"),
    ])


def test_ss130_ss134_the_event_page_shows_the_ranking_points(alice_client: Client,
                                                             running: Event) -> None:
    """SS-134: the Match card's points for the Match won, SS-138's bonus points beside
    them, and SS-130's totals per team."""
    project(running, match_done=True)
    page = alice_client.get(reverse("league:event", args=[running.pk])).content.decode()
    assert 'id="ranking-points"' in page and "every 3s" in page
    assert "2 Matches, 1 Superstar a team" in page
    assert "Red <span class=\"muted\">· random bot</span>" in page
    assert "Thorvald &quot;The Millstone&quot; Oakhart" in page and "Pip Skylark" in page
    assert '<td class="pts">42</td>' in page and '<td class="pts">14</td>' in page
    assert "Head-to-Head" in page and "Hardcore Match" in page and "Red won" in page
    assert "30 <span class=\"muted small\">+ 12 bonus</span>" in page
    assert "To be drawn" in page and "To come" in page


def test_the_organizer_page_shows_them_too(sam_client: Client, organizer: Any,
                                           running: Event, sam: Any) -> None:
    running.organizers.add(sam)
    project(running, match_done=False)
    page = sam_client.get(reverse("league:event_admin", args=[running.pk])).content.decode()
    assert 'id="ranking-points"' in page and "Playing" in page


def test_the_polled_table_answers_204_until_the_points_change(alice_client: Client,
                                                              running: Event) -> None:
    url = reverse("league:event_ranking", args=[running.pk])
    first = alice_client.get(url)
    assert first.status_code == 200 and "No Ranking Points yet" in first.content.decode()
    version = first.content.decode().split("?v=")[1].split('"')[0]
    assert alice_client.get(f"{url}?v={version}").status_code == 204
    project(running, match_done=False)
    changed = alice_client.get(f"{url}?v={version}")
    assert changed.status_code == 200 and "Duel night" not in changed.content.decode()
    assert "Playing" in changed.content.decode()


def test_a_screen_reader_hears_the_totals_when_the_points_change(
        alice_client: Client, organizer: Any, running: Event) -> None:
    """The table changed in silence at each result; a live region outside it reads the
    teams' totals from the poll that brought them."""
    region = '<div id="ranking-announce" class="visually-hidden" role="status" ' \
        'aria-live="polite"></div>'
    page = alice_client.get(reverse("league:event", args=[running.pk])).content.decode()
    assert region in page
    staff = Client()
    staff.force_login(organizer)
    assert region in staff.get(reverse("league:event_admin", args=[running.pk])).content.decode()
    url = reverse("league:event_ranking", args=[running.pk])
    version = page.split("ranking-points/?v=")[1].split('"')[0]
    project(running, match_done=False)
    changed = alice_client.get(f"{url}?v={version}", HTTP_HX_REQUEST="true").content.decode()
    assert '<div id="ranking-announce" hx-swap-oob="innerHTML">Ranking Points: Red 42, ' \
           "Blue 14. </div>" in changed


def test_other_events_have_no_ranking_points(alice_client: Client, cup: Event) -> None:
    assert alice_client.get(reverse("league:event_ranking", args=[cup.pk])).status_code == 404
    page = alice_client.get(reverse("league:event", args=[cup.pk])).content.decode()
    assert 'id="ranking-points"' not in page


def test_a_finished_event_stops_polling(alice_client: Client, running: Event) -> None:
    project(running, match_done=True)
    Event.objects.filter(pk=running.pk).update(status=Event.Status.FINISHED)
    page = alice_client.get(reverse("league:event_ranking", args=[running.pk])).content.decode()
    assert "every 3s" not in page and "Red won" in page


def test_a_match_a_finished_event_never_ended_is_not_said_to_be_playing(
        alice_client: Client, running: Event) -> None:
    """A series ended off the board (a side withdrawn or forfeited mid-Match) leaves the
    Match it stopped in "playing" and the next "pending" in its last view: the finished
    Event's table said "Playing" and "To come" under its champion."""
    project(running, match_done=False)
    Event.objects.filter(pk=running.pk).update(status=Event.Status.FINISHED)
    page = alice_client.get(reverse("league:event_ranking", args=[running.pk])).content.decode()
    assert "Playing" not in page and "To come" not in page
    assert "Stopped: the series ended" in page and "Not played" in page


@pytest.mark.parametrize("model", ["rankingtotal", "rankingpoints"])
def test_the_admin_lists_the_ranking_points_but_never_writes_them(
        django_user_model: Any, running: Event, model: str) -> None:
    project(running, match_done=True)
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("ss-root", password="x-9"))
    assert client.get(f"/admin/league/{model}/").status_code == 200
    assert client.get(f"/admin/league/{model}/add/").status_code == 403


def test_a_refusal_of_the_whole_showdown_form_is_read_out_as_an_alert(
        staff_client: Client) -> None:
    """Sent back to its card's anchor, the page does not lead a screen reader to the
    refusal: it is an alert, as the other forms' refusals are."""
    response = staff_client.post(reverse("league:showdown_create"),
                                 form(preset="full_card", red_bot="random"))
    page = response.content.decode()
    start = page.index('<ul class="errors"')
    assert page[start:page.index("</ul>", start)].startswith(
        '<ul class="errors" role="alert"><li>An Event has two sides, Red and Blue')


def test_a_showdown_events_page_names_its_preset_in_its_options_line(
        organizer: Any, staff_client: Client) -> None:
    event = events.create_showdown_event(by=organizer, preset="tag_team_series")
    page = staff_client.get(reverse("league:event", args=[event.pk])).content.decode()
    shown = page[page.index('id="event-settings"'):].split("</p>")[0]
    assert "event: Tag Team Series" in shown and "{" not in shown


@pytest.mark.parametrize(("game", "columns"), [
    # The game's figures in the order it declares them: Ranking Points, which decide the
    # Event, first (by name they came last, after the bonus points).
    ("superstar_showdown", ["figure:ranking_points", "figure:match_points",
                            "figure:bonus_points", "figure:matches_won", "buchholz"]),
    ("no_such_game", ["buchholz", "figure:bonus_points", "figure:match_points",
                      "figure:matches_won", "figure:ranking_points"]),  # by name
])
def test_the_standings_columns_follow_the_games_figures_where_the_event_names_no_order(
        game: str, columns: list[str]) -> None:
    from types import SimpleNamespace

    from league.views import _tiebreak_columns

    row = SimpleNamespace(tiebreaks=dict.fromkeys(
        ["buchholz", "figure:bonus_points", "figure:match_points", "figure:matches_won",
         "figure:ranking_points"], 0.0))
    assert _tiebreak_columns(Event(game=game, format_options={}), [row]) == columns
    named = Event(game=game, format_options={"tiebreaks": ["figure:matches_won"]})
    assert _tiebreak_columns(named, [row])[0] == "figure:matches_won"
