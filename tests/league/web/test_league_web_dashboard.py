"""The organizer dashboard and an Event's organizer page, through the forms and buttons."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import events, formats, views
from league.formats import Pairing
from league.models import Entrant, Event, EventMatch, EventRecord, Season, Team
from league.services import close_user, player_for
from matches import services
from matches.models import Match
from tests.conftest import played_until

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def event_form(season: Season | None, **fields: str) -> dict[str, str]:
    data = {"name": "Autumn open", "season": str(season.pk) if season else "",
            "game": "super_showdown", "format": "single_elimination",
            "format_options": "{}", "match_options": "{}", "turn_deadline_minutes": "",
            "deadline_policy": "bot", "deadline_bot": "heuristic", **fields}
    return {f"event-{k}": v for k, v in data.items()}


def post(client: Client, name: str, event: Event, data: dict[str, str] | None = None,
         *args: str) -> str:
    """An htmx post of the organizer page; the partial it answered with."""
    response = client.post(reverse(name, args=[event.pk, *args]), data or {}, **HTMX)
    assert response.status_code == 200, response.content
    return response.content.decode()


# -- seasons and Events ------------------------------------------------------------------

def test_staff_create_a_season_through_the_dashboard_form(staff_client: Client,
                                                          organizer: Any) -> None:
    response = staff_client.post(reverse("league:season_create"), {
        "season-name": "Winter", "season-game": "super_showdown", "season-starts_on": "2025-01-01",
        "season-ends_on": "2025-03-01", "season-win": "2", "season-draw": "1",
        "season-loss": "0"})
    assert response.status_code == 302
    # At the page's top, where its message is: one naming no anchor keeps the form's.
    assert response["Location"] == reverse("league:dashboard") + "#content"
    season = Season.objects.get(name="Winter")
    assert season.scoring == {"win": 2, "draw": 1, "loss": 0}
    assert list(season.organizers.all()) == [organizer]
    page = staff_client.get(response["Location"]).content.decode()
    assert "Season Winter created." in page and "Winter" in page


def test_a_refused_season_shows_why_and_writes_nothing(staff_client: Client) -> None:
    response = staff_client.post(reverse("league:season_create"), {
        "season-name": "Backwards", "season-game": "super_showdown",
        "season-starts_on": "2025-03-01", "season-ends_on": "2025-01-01",
        "season-win": "3", "season-draw": "1", "season-loss": "0"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "A season cannot end before it starts." in page
    assert not Season.objects.exists()
    # Sent to its own card's anchor, the card a phone's screens below the page's top: the
    # browser comes back at the refusal, not at the top with the message out of sight.
    card = page[page.index('id="new-season"'):]
    assert f'action="{reverse("league:season_create")}#new-season"' in card
    assert card.index("#new-season") < card.index("A season cannot end before it starts.")


def test_a_season_organizer_creates_an_event_with_format_options(
        sam_client: Client, season: Season, sam: Any) -> None:
    data = event_form(season, name="Knockout", format_options='{"third_place": true}',
                      turn_deadline_minutes="30", deadline_policy="forfeit",
                      deadline_bot="random", hold_rounds="on")
    response = sam_client.post(reverse("league:event_create"), data)
    event = Event.objects.get(name="Knockout")
    assert response.status_code == 302
    # At the page's top: a redirect naming no anchor would keep the form's (#new-event).
    assert response["Location"] == reverse("league:event_admin", args=[event.pk]) + "#content"
    assert (event.season, event.format, event.format_options["third_place"]) == (
        season, "single_elimination", True)
    assert (event.turn_deadline_minutes, event.deadline_policy, event.deadline_bot) == (
        30, "forfeit", "random")
    assert event.hold_rounds
    assert sam in event.organizers.all()
    page = sam_client.get(response["Location"]).content.decode()
    assert "Knockout" in page and "Start the Event" in page


def test_the_new_event_form_sent_twice_makes_one_event(
        sam_client: Client, season: Season) -> None:
    """The form's one-time token: the second post (a double click) goes where the first
    went; a refused post frees its token, so the corrected form still goes through."""
    page = sam_client.get(reverse("league:dashboard")).content.decode()
    form_html = page[page.index('id="new-event"'):]
    token = form_html.split('name="once" value="')[1].split('"')[0]
    assert len(token) > 16 and token not in page[page.index('id="new-showdown"'):]

    refused = sam_client.post(reverse("league:event_create"),
                              {**event_form(season, format_options="{x"), "once": token})
    assert refused.status_code == 400 and not Event.objects.exists()
    data = {**event_form(season, name="Knockout"), "once": token}
    first = sam_client.post(reverse("league:event_create"), data)
    second = sam_client.post(reverse("league:event_create"), data)
    event = Event.objects.get()
    assert first.status_code == 302 and second.status_code == 303
    assert first["Location"] == second["Location"] == reverse("league:event_admin",
                                                              args=[event.pk]) + "#content"
    other = sam_client.post(reverse("league:event_create"),
                            {**data, "once": "another-form-token-0001"})
    assert other.status_code == 302 and Event.objects.count() == 2


def test_a_form_sent_again_while_the_first_is_being_handled_makes_nothing(
        sam_client: Client, season: Season, sam: Any) -> None:
    from django.core.cache import cache

    cache.add(f"league:once:{sam.pk}:busy-token-000001", "", 60)
    response = sam_client.post(reverse("league:event_create"),
                               {**event_form(season), "once": "busy-token-000001"})
    assert response.status_code == 302 and response["Location"] == reverse("league:dashboard")
    assert not Event.objects.exists()
    page = sam_client.get(response["Location"]).content.decode()
    assert "That form was sent twice; it is being handled once." in page


@pytest.mark.parametrize(("fields", "message", "status"), [
    ({"format_options": "{not json"}, "Format options are not valid JSON", 400),
    ({"format_options": "[1, 2]"}, "Format options are a JSON object", 400),
    ({"format_options": '{"rounds": 3}'}, "Unknown option: [&#x27;rounds&#x27;]", 400),
    ({"match_options": '{"best_of": 2}'}, "best_of", 400),
    ({"format_options": '{"third_place": NaN}'}, "Format options are not valid JSON", 400),
    ({"turn_deadline_minutes": "99999999999999999999"}, "less than or equal to 43200", 400),
    ({"format": "showdown_series"}, "The format &#x27;showdown_series&#x27; is for Superstar "
                                    "Showdown Events only, not Super Showdown", 400),
])
def test_a_refused_event_shows_why_and_writes_nothing(
        sam_client: Client, season: Season, fields: dict[str, str], message: str,
        status: int) -> None:
    response = sam_client.post(reverse("league:event_create"), event_form(season, **fields))
    assert response.status_code == status
    page = response.content.decode()
    assert message in page
    assert not Event.objects.exists()
    # The form is sent to its own card's anchor: the browser comes back at the refusal,
    # not at the top of a dashboard whose lists push the card out of sight.
    card = page[page.index('id="new-event"'):]
    assert f'action="{reverse("league:event_create")}#new-event"' in card
    assert card.index("#new-event") < card.index(message)


def test_a_showdown_series_without_its_event_option_is_refused_beside_the_match_options(
        sam_client: Client, organizer: Any, sam: Any) -> None:
    """Its one match would be a single Match card standing for the whole Event."""
    season = events.create_season(name="Showdowns", game="superstar_showdown", by=organizer)
    season.organizers.add(sam)
    response = sam_client.post(reverse("league:event_create"), event_form(
        season, game="superstar_showdown", format="showdown_series"))
    assert response.status_code == 400
    page = response.content.decode()
    assert not Event.objects.exists()
    field = page[page.index('name="event-match_options"'):]
    assert "A Superstar Showdown Event is a series of at least two Matches" in field
    response = sam_client.post(reverse("league:event_create"), event_form(
        season, game="superstar_showdown", format="showdown_series",
        match_options='{"event": "full_card"}'))
    assert response.status_code == 302
    assert Event.objects.get().format == "showdown_series"


def test_the_new_event_form_marks_the_showdown_series_as_its_games_alone(
        sam_client: Client, season: Season) -> None:
    """The page's script offers a format made for one game only while that game is
    chosen: the option says which game; the others are for any game."""
    page = sam_client.get(reverse("league:dashboard")).content.decode()
    select = page[page.index('name="event-format"'):]
    select = select[:select.index("</select>")]
    assert '<option value="showdown_series" data-game="superstar_showdown">' in select
    assert '<option value="swiss">' in select and select.count("data-game") == 1


def test_a_season_organizer_must_pick_one_of_their_seasons(sam_client: Client,
                                                           season: Season) -> None:
    response = sam_client.post(reverse("league:event_create"), event_form(None))
    assert response.status_code == 400 and not Event.objects.exists()


def test_the_dashboard_lists_what_the_user_organizes(
        sam_client: Client, cup: Event, season: Season, organizer: Any) -> None:
    events.create_event(name="Staff only", game="super_showdown", format="swiss",
                        by=organizer)
    page = sam_client.get(reverse("league:dashboard")).content.decode()
    assert "Spring league" in page and "Cup" in page and "Staff only" not in page
    assert f'<option value="{season.pk}">Spring league (Super Showdown)</option>' in page
    assert "New season" not in page  # only staff create seasons
    assert "third_place" in page  # the format options help


def test_the_dashboard_puts_tonights_events_first_and_pages_those_over(
        staff_client: Client, organizer: Any, django_assert_max_num_queries: Any) -> None:
    """Staff see every Event the site ran: the running and the coming ones first (running
    first, then soonest), those over a page at a time, the latest first."""
    from datetime import timedelta

    from django.utils import timezone

    from league.views import FINISHED_PER_PAGE

    made = [events.create_event(name=f"Night {n:02}", game="super_showdown",
                                format="round_robin", by=organizer) for n in range(45)]
    Event.objects.filter(pk__in=[e.pk for e in made[:43]]).update(
        status=Event.Status.FINISHED)
    Event.objects.filter(pk=made[43].pk).update(
        starts_at=timezone.now() + timedelta(days=1))
    running = events.create_event(name="Live one", game="super_showdown",
                                  format="round_robin", by=organizer)
    Event.objects.filter(pk=running.pk).update(status=Event.Status.RUNNING)
    with django_assert_max_num_queries(30):
        page = staff_client.get(reverse("league:dashboard")).content.decode()
    coming = page[:page.index('id="finished-events"')]
    assert coming.index("Live one") < coming.index("Night 43") < coming.index("Night 44")
    assert "Night 42" not in coming  # over: listed below
    over = page[page.index('id="finished-events"'):page.index('id="new-event"')]
    shown = re.findall(r"Night (\d\d)</a>", over)
    assert shown == [f"{n:02}" for n in range(42, 42 - FINISHED_PER_PAGE, -1)]
    pages = -(-43 // FINISHED_PER_PAGE)
    assert f"Page 1 of {pages}" in over and 'href="?finished=2#finished-events"' in over
    last = staff_client.get(reverse("league:dashboard") + f"?finished={pages}").content.decode()
    assert re.findall(r"Night (\d\d)</a>", last[last.index('id="finished-events"'):
                                                 last.index('id="new-event"')]) == [
        f"{n:02}" for n in range(43 - (pages - 1) * FINISHED_PER_PAGE - 1, -1, -1)]
    assert staff_client.get(reverse("league:dashboard") + "?finished=x").status_code == 200


def test_the_events_running_or_to_come_are_paged_running_first_then_soonest(
        staff_client: Client, organizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Staff see every running and coming Event of the site: a page of them at a time, on
    `?current=`, the running ones first, then the soonest to start; a page past the end or
    no number at all shows a page, never an error."""
    from datetime import timedelta

    from django.utils import timezone

    from league import views

    monkeypatch.setattr(views, "CURRENT_PER_PAGE", 3)
    now = timezone.now()
    made = {}
    for name, days in (("Late", 9), ("Soon", 1), ("Undated", None), ("Mid", 4),
                       ("Live", None)):
        made[name] = events.create_event(name=name, game="super_showdown",
                                         format="round_robin", by=organizer)
        Event.objects.filter(pk=made[name].pk).update(
            starts_at=now + timedelta(days=days) if days is not None else None)
    Event.objects.filter(pk=made["Live"].pk).update(status=Event.Status.RUNNING)

    def listed(query: str) -> tuple[list[str], str]:
        page = staff_client.get(reverse("league:dashboard") + query)
        assert page.status_code == 200
        html = page.content.decode()
        html = html[html.index('id="current-events"'):html.index('id="new-event"')]
        return re.findall(r'/">([A-Za-z]+)</a>', html), html

    first, html = listed("")
    assert first == ["Live", "Soon", "Mid"]
    assert "Page 1 of 2" in html and 'href="?current=2#current-events">Later</a>' in html
    second, html = listed("?current=2")
    assert second == ["Late", "Undated"]
    assert 'href="?current=1#current-events">Earlier</a>' in html and ">Later<" not in html
    for bad in ("x", "0", "-1", "99", "9" * 40, "2.5"):
        assert listed(f"?current={bad}")[0] in (first, second), bad


def test_paging_one_list_of_the_dashboard_keeps_the_others_page(
        staff_client: Client, organizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from league import views

    monkeypatch.setattr(views, "CURRENT_PER_PAGE", 1)
    monkeypatch.setattr(views, "FINISHED_PER_PAGE", 1)
    made = [events.create_event(name=f"Night {n}", game="super_showdown",
                                format="round_robin", by=organizer) for n in range(6)]
    Event.objects.filter(pk__in=[e.pk for e in made[:3]]).update(
        status=Event.Status.FINISHED)
    html = staff_client.get(reverse("league:dashboard"),
                            {"current": "2", "finished": "2"}).content.decode()
    links = re.findall(r'rel="(?:prev|next)" href="([^"]*)"', html)
    assert links == ["?current=1&amp;finished=2#current-events",
                     "?current=3&amp;finished=2#current-events",
                     "?current=2&amp;finished=1#finished-events",
                     "?current=2&amp;finished=3#finished-events"]


def test_the_pager_of_the_events_over_keeps_the_pages_other_query(
        staff_client: Client, organizer: Any) -> None:
    """A click on Earlier or Later keeps a simulation job's progress (`?job=`) showing and
    the rest of the query; only the list's own page changes."""
    from league.views import FINISHED_PER_PAGE

    made = [events.create_event(name=f"Night {n:02}", game="super_showdown",
                                format="round_robin", by=organizer)
            for n in range(2 * FINISHED_PER_PAGE + 1)]
    Event.objects.filter(pk__in=[e.pk for e in made]).update(status=Event.Status.FINISHED)
    page = staff_client.get(reverse("league:dashboard"),
                            {"job": "abc", "finished": "2", "like": "x"}).content.decode()
    pager = page[page.index('aria-label="Events over, pages"'):]
    pager = pager[:pager.index("</nav>")]
    assert re.findall(r'rel="(prev|next)" href="([^"]*)"', pager) == [
        ("prev", "?job=abc&amp;finished=1&amp;like=x#finished-events"),
        ("next", "?job=abc&amp;finished=3&amp;like=x#finished-events")]


def seasons_listed(client: Client, query: dict[str, str]) -> tuple[list[str], str]:
    """The dashboard's "Your seasons" card as `query` shows it: the seasons' names, and
    the card's HTML."""
    response = client.get(reverse("league:dashboard"), query)
    assert response.status_code == 200
    html = response.content.decode()
    card = html[html.index("<h2>Your seasons</h2>"):html.index("<h2>Your Events</h2>")]
    return re.findall(r'/">(Season \d\d)</a>', card), card


def test_staff_see_every_season_a_page_at_a_time_the_newest_first(
        staff_client: Client, organizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy site's seasons are paged on `?seasons=`, the newest first; a page past the
    end, or no number at all, shows a page, never an error."""
    from league import views

    monkeypatch.setattr(views, "SEASONS_PER_PAGE", 2)
    for n in range(5):
        events.create_season(name=f"Season {n:02}", game="super_showdown", by=organizer)
    first, card = seasons_listed(staff_client, {})
    assert first == ["Season 04", "Season 03"]
    assert "Page 1 of 3" in card and 'href="?seasons=2#your-seasons">Older</a>' in card
    second, card = seasons_listed(staff_client, {"seasons": "2"})
    assert second == ["Season 02", "Season 01"]
    assert 'href="?seasons=1#your-seasons">Newer</a>' in card
    last, card = seasons_listed(staff_client, {"seasons": "3"})
    assert last == ["Season 00"] and ">Older<" not in card
    for bad in ("x", "0", "-1", "99", "9" * 40, "2.5", ""):
        assert seasons_listed(staff_client, {"seasons": bad})[0] in (first, last), bad


def test_one_page_of_seasons_shows_no_pager(sam_client: Client, season: Season) -> None:
    _, card = seasons_listed(sam_client, {})
    assert "Spring league" in card and 'aria-label="Your seasons, pages"' not in card


def test_the_seasons_pager_keeps_the_pages_other_query(
        staff_client: Client, organizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A click on Newer or Older keeps the Events lists' pages and a job's progress; only
    the seasons' page changes."""
    from league import views

    monkeypatch.setattr(views, "SEASONS_PER_PAGE", 1)
    for n in range(3):
        events.create_season(name=f"Season {n:02}", game="super_showdown", by=organizer)
    _, card = seasons_listed(staff_client, {"current": "2", "seasons": "2", "job": "abc",
                                            "finished": "3"})
    assert re.findall(r'rel="(prev|next)" href="([^"]*)"', card) == [
        ("prev", "?current=2&amp;seasons=1&amp;job=abc&amp;finished=3#your-seasons"),
        ("next", "?current=2&amp;seasons=3&amp;job=abc&amp;finished=3#your-seasons")]


def test_the_events_over_are_listed_by_when_they_ended(staff_client: Client,
                                                         organizer: Any) -> None:
    from datetime import timedelta
    from unittest import mock

    from django.utils import timezone

    made = [events.create_event(name=name, game="super_showdown", format="round_robin",
                                by=organizer) for name in ("Made first", "Made second")]
    now = timezone.now()
    for event, days_ago in zip(made, (1, 3), strict=True):  # the first made ended last
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
        with mock.patch("django.utils.timezone.now", return_value=now - timedelta(days_ago)):
            EventRecord.objects.create(event=event, seq=event.seq + 1,
                                       kind=EventRecord.Kind.FINISHED, payload={})
    page = staff_client.get(reverse("league:dashboard")).content.decode()
    over = page[page.index('id="finished-events"'):]
    assert over.index("Made first") < over.index("Made second")


def test_a_team_is_created_by_name_and_member_usernames(
        sam_client: Client, season: Season, player: Any, player2: Any) -> None:
    response = sam_client.post(reverse("league:team_create"),
                               {"name": "Reds", "members": "alice, bruno"})
    assert response.status_code == 302
    team = Team.objects.get(name="Reds")
    assert sorted(p.user.username for p in team.members.all()) == ["alice", "bruno"]
    again = sam_client.post(reverse("league:team_create"), {"name": "Blues",
                                                            "members": "alice nobody"})
    assert again.status_code == 400
    assert "No player called &#x27;nobody&#x27;." in again.content.decode()
    assert not Team.objects.filter(name="Blues").exists()


def test_create_a_team_goes_back_to_the_event_page_it_was_opened_from(
        sam_client: Client, cup: Event, player: Any, player2: Any) -> None:
    """It went to the dashboard whatever page it was opened from: the organizer entering
    teams on an Event's page had to find their way back to it."""
    panel = sam_client.get(reverse("league:event_admin", args=[cup.pk])).content.decode()
    link = re.search(r'<a id="create-team" class="tap-link" href="([^"]+)"', panel)
    assert link is not None
    back = reverse("league:event_admin", args=[cup.pk]) + "#add-team"
    opened = sam_client.get(link[1].replace("&amp;", "&")).content.decode()
    assert f'<input type="hidden" name="next" value="{back}">' in opened
    assert f'<a class="tap-link" href="{back}">Back to the page you came from</a>' in opened
    refused = sam_client.post(reverse("league:team_create"),
                              {"name": "Reds", "members": "nobody", "next": back})
    assert refused.status_code == 400  # comes back still knowing where to go after
    assert f'name="next" value="{back}"' in refused.content.decode()
    made = sam_client.post(reverse("league:team_create"),
                           {"name": "Reds", "members": "alice bruno", "next": back})
    assert (made.status_code, made["Location"]) == (302, back)
    assert "Team Reds created." in sam_client.get(back).content.decode()


@pytest.mark.parametrize("elsewhere", ["https://evil.example/", "//evil.example/x",
                                       "javascript:alert(1)", "/\\evil.example"])
def test_create_a_team_goes_nowhere_off_the_site(sam_client: Client, season: Season,
                                                 player: Any, elsewhere: str) -> None:
    url = reverse("league:team_create")
    opened = sam_client.get(url, {"next": elsewhere}).content.decode()
    assert 'name="next"' not in opened and "evil" not in opened and "javascript" not in opened
    made = sam_client.post(url, {"name": "Reds", "members": "alice", "next": elsewhere})
    assert made["Location"] == reverse("league:dashboard")


def test_the_team_form_sent_twice_makes_one_team_and_says_nothing_taken(
        sam_client: Client, season: Season, player: Any) -> None:
    page = sam_client.get(reverse("league:team_create")).content.decode()
    token = page.split('name="once" value="')[1].split('"')[0]
    data = {"name": "Greens", "members": "alice", "once": token}
    first = sam_client.post(reverse("league:team_create"), data)
    again = sam_client.post(reverse("league:team_create"), data)
    assert (first.status_code, again.status_code) == (302, 303)
    assert again["Location"] == first["Location"] == reverse("league:dashboard")
    assert Team.objects.filter(name="Greens").count() == 1


# -- entrants, seeding, start ------------------------------------------------------------

def test_entrants_are_registered_as_player_team_and_bot(
        sam_client: Client, make_event: Callable[..., Event], player: Any,
        player2: Any) -> None:
    event = make_event()
    team = Team.objects.create(name="Reds")
    from league.services import player_for

    team.members.add(player_for(player2))
    post(sam_client, "league:entrant_add", event, {"player": "alice"})
    post(sam_client, "league:entrant_add", event, {"team": "Reds"})
    panel = post(sam_client, "league:entrant_add", event, {"bot": "heuristic", "name": "Robo"})
    assert [(e.key, e.name, e.bot) for e in Entrant.objects.filter(event=event)] == [
        ("e1", "alice", ""), ("e2", "Reds", ""), ("e3", "Robo", "heuristic")]
    assert "error-banner" not in panel and "Robo" in panel


def test_the_register_card_offers_its_forms_only_while_the_event_takes_an_entrant(
        sam_client: Client, sam: Any, duel: Event, make_event: Callable[..., Event]) -> None:
    """A started bracket takes no late entrant: the card says why instead of offering
    forms whose every post was refused. A running Swiss takes one for its next round."""
    page = sam_client.get(reverse("league:event_admin", args=[duel.pk])).content.decode()
    assert "No entrant can be added now: The matches of this round are already made" in page
    assert "Add player" not in page and "Add bot" not in page
    refused = post(sam_client, "league:entrant_add", duel, {"bot": "random"})
    assert "(late_entry_conflicts)" in refused and "Add bot" not in refused

    swiss = make_event(format="swiss", bots=4)
    events.start_event(event=swiss, by=sam)
    page = sam_client.get(reverse("league:event_admin", args=[swiss.pk])).content.decode()
    assert "No entrant can be added now" not in page and "Add bot" in page
    assert "error-banner" not in post(sam_client, "league:entrant_add", swiss, {"bot": "random"})


def test_the_register_card_says_in_words_why_it_takes_no_entrant(
        sam_client: Client, sam: Any, make_event: Callable[..., Event]) -> None:
    """Its last round paired, a Swiss takes no late entrant: the card says so as a
    sentence; the refusal's code is for the API's answers, not a card's words."""
    swiss = make_event(format="swiss", bots=4, format_options={"rounds": 1})
    events.start_event(event=swiss, by=sam)
    page = sam_client.get(reverse("league:event_admin", args=[swiss.pk])).content.decode()
    card = page[page.index('id="event-register"'):].split("</section>")[0]
    assert "No entrant can be added now: The last round is already paired: a late entrant " \
           "joins no round after it, nor one whose matches are made.</p>" in card
    assert "already_started" not in card and "Add bot" not in card


def test_an_entrant_twice_shows_the_message_and_writes_nothing(
        sam_client: Client, make_event: Callable[..., Event], player: Any) -> None:
    event = make_event()
    post(sam_client, "league:entrant_add", event, {"player": "alice"})
    records = EventRecord.objects.count()
    panel = post(sam_client, "league:entrant_add", event, {"player": "alice"})
    assert "error-banner" in panel and "alice is already entered." in panel
    assert EventRecord.objects.count() == records
    assert Entrant.objects.filter(event=event).count() == 1


def test_every_panel_form_sends_the_events_seq_and_a_second_click_adds_nothing(
        sam_client: Client, make_event: Callable[..., Event]) -> None:
    """The panel's forms carry the Event's seq as shown: a double click on "Add bot" (two
    posts of one form) adds one bot, and the second answer says why it added nothing."""
    event = make_event(bots=2)
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    panel = page[page.index('id="event-panel"'):page.index('id="event-live"')]
    assert panel.count("<form") == panel.count(f'name="seq" value="{event.seq}"') > 5

    form = {"bot": "random", "seq": str(event.seq)}
    first = post(sam_client, "league:entrant_add", event, form)
    second = post(sam_client, "league:entrant_add", event, form)
    assert "error-banner" not in first
    assert "The Event changed since it was read" in second and "(stale_seq)" in second
    assert Entrant.objects.filter(event=event).count() == 3
    event.refresh_from_db()
    assert f'name="seq" value="{event.seq}"' in second  # the panel shown again is current


@pytest.mark.parametrize(("data", "message"), [
    ({"player": "nobody"}, "No player called &#x27;nobody&#x27;."),
    ({"team": "Ghosts"}, "No team called &#x27;Ghosts&#x27;."),
    ({"bot": "genius"}, "Super Showdown has no bot called &#x27;genius&#x27;."),
    ({}, "Give one player, one team or one bot."),
    ({"player": "alice", "bot": "random"}, "Give one player, one team or one bot."),
    # a field's refusal names the field: the banner is away from it
    ({"bot": "random", "name": "N" * 101},
     "Shown as: Ensure this value has at most 100 characters (it has 101)."),
    ({"team": "T" * 65}, "Team name: Ensure this value has at most 64 characters (it has 65)."),
])
def test_a_refused_entrant_shows_why(sam_client: Client, cup: Event, player: Any,
                                     data: dict[str, str], message: str) -> None:
    records = EventRecord.objects.count()
    panel = post(sam_client, "league:entrant_add", cup, data)
    assert message in panel
    assert EventRecord.objects.count() == records


def test_without_htmx_an_action_redirects_and_a_refusal_is_the_page_again(
        sam_client: Client, cup: Event) -> None:
    """Without scripts an action that succeeds goes back to the page, which says what it
    did; one refused is the page again, the reason beside its form."""
    response = sam_client.post(reverse("league:entrant_add", args=[cup.pk]),
                               {"bot": "random", "name": "Bot 3"})
    assert response.status_code == 302
    page = sam_client.get(response["Location"]).content.decode()
    assert "Bot 3 entered as e3." in page
    response = sam_client.post(reverse("league:entrant_add", args=[cup.pk]),
                               {"bot": "random", "name": "Bot 1"})
    assert response.status_code == 400
    assert ('<p class="error" id="add-bot-error">Bot 1 is already entered.'
            in response.content.decode())


@pytest.mark.parametrize(("method", "said"), [
    ("rating", "Seeded by rating."), ("random", "Seeded at random.")])
def test_the_panel_says_how_the_entrants_were_seeded(
        sam_client: Client, make_event: Callable[..., Event], method: str, said: str) -> None:
    event = make_event(bots=3)
    assert said in post(sam_client, "league:event_seed", event, {"method": method})


def test_seed_by_hand_then_start_makes_the_first_round(
        sam_client: Client, make_event: Callable[..., Event]) -> None:
    event = make_event(bots=4)
    panel = post(sam_client, "league:event_seed", event, {"method": "hand",
                                                          "order": "e4 e3, e2 e1"})
    assert "Seeded by hand." in panel
    assert [e.key for e in Entrant.objects.filter(event=event).order_by("seed")] == [
        "e4", "e3", "e2", "e1"]
    response = sam_client.post(reverse("league:event_start", args=[event.pk]), **HTMX)
    assert response["HX-Trigger"] == "league-changed"
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    # Seed 1 (e4) meets seed 4 (e1), seed 2 (e3) meets seed 3 (e2).
    assert sorted(sorted(m.entrants) for m in EventMatch.objects.filter(event=event)) == [
        ["e1", "e4"], ["e2", "e3"]]
    assert "Start the Event" not in response.content.decode()


@pytest.mark.parametrize(("data", "message"), [
    ({"method": "hand", "order": "e1"}, "A seeding by hand lists every entrant once."),
    ({"method": "sideways"}, "Method: Select a valid choice."),
])
def test_a_bad_seeding_is_refused(sam_client: Client, cup: Event, data: dict[str, str],
                                  message: str) -> None:
    records = EventRecord.objects.count()
    assert message in post(sam_client, "league:event_seed", cup, data)
    assert EventRecord.objects.count() == records


def test_an_event_with_one_entrant_cannot_start(sam_client: Client,
                                                make_event: Callable[..., Event]) -> None:
    event = make_event(bots=1)
    panel = post(sam_client, "league:event_start", event)
    assert "An Event needs at least two entrants." in panel
    event.refresh_from_db()
    assert event.status == Event.Status.DRAFT


def test_a_field_too_small_for_the_format_options_is_told_so_at_the_start(
        sam_client: Client, make_event: Callable[..., Event]) -> None:
    """Three Swiss rounds fit a field of four, not the two entered: the refusal says the
    field is why, not an option the organizer never typed wrong."""
    event = make_event(format="swiss", format_options={"rounds": 3}, bots=2)
    panel = post(sam_client, "league:event_start", event)
    assert ("2 entrants cannot start with this Event&#x27;s format options (rounds must be "
            "1 to 1): enter more. (bad_option)") in panel
    event.refresh_from_db()
    assert event.status == Event.Status.DRAFT
    events.add_entrant(event=event, by=event.created_by, bot="random", name="Bot 3")
    events.add_entrant(event=event, by=event.created_by, bot="random", name="Bot 4")
    event.refresh_from_db()
    assert "error-banner" not in post(sam_client, "league:event_start", event)


def test_an_entrant_withdraws_before_the_start(sam_client: Client,
                                               make_event: Callable[..., Event]) -> None:
    event = make_event(bots=3)
    post(sam_client, "league:entrant_withdraw", event, None, "e2")
    assert Entrant.objects.get(event=event, key="e2").withdrawn
    again = post(sam_client, "league:entrant_withdraw", event, None, "e2")
    assert "No active entrant &#x27;e2&#x27;." in again


def test_a_bracket_cannot_be_paired_by_hand(sam_client: Client, cup: Event) -> None:
    events.start_event(event=cup, by=cup.organizers.first())
    records = EventRecord.objects.count()
    panel = post(sam_client, "league:event_pair", cup, {"pairings": "e1 e2"})
    assert "single_elimination pairs by seed, not by hand." in panel
    assert EventRecord.objects.count() == records


# -- live matches ------------------------------------------------------------------------

def test_the_live_partial_lists_the_matches_with_links_and_polls(
        sam_client: Client, duel: Event) -> None:
    link = EventMatch.objects.get(event=duel)
    response = sam_client.get(reverse("league:event_live", args=[duel.pk]), **HTMX)
    html = response.content.decode()
    assert f'href="/matches/{link.match_id}/"' in html
    assert "Forfeit" in html and "Bot plays" in html and 'every 3s' in html
    version = html.split("?v=")[1].split('"')[0]
    unchanged = sam_client.get(reverse("league:event_live", args=[duel.pk]), {"v": version},
                               **HTMX)
    assert unchanged.status_code == 204


def test_the_live_list_says_whom_each_match_waits_for_and_follows_the_moves(
        sam_client: Client, duel: Event, played: Callable[[Any, int], Any]) -> None:
    """Which player holds a match up is what the organizer decides a forfeit or a bot on:
    the list marks them, and its poll answers anew once someone moved (without making
    the panel refresh, as a result does), 204 while nobody did."""
    link = EventMatch.objects.select_related("match").get(event=duel)

    def marked() -> tuple[set[str], str]:
        html = sam_client.get(reverse("league:event_live", args=[duel.pk]), **HTMX
                              ).content.decode()
        controls = html.split('<div class="seat-control">')[1:]
        names = {re.search(r'class="who-name">(\w+)<', c).group(1)  # type: ignore[union-attr]
                 for c in controls if "to move" in c}
        return names, html.split("?v=")[1].split('"')[0]

    names = dict(Entrant.objects.filter(event=duel).values_list("key", "name"))
    awaited = {names[link.seat_entrants()[s.index]]
               for s in link.match.seats.all() if s.awaited}
    shown, version = marked()
    assert awaited and shown == awaited
    seat = next(s.index for s in link.match.seats.all() if s.awaited)
    played(link.match, seat)
    after = sam_client.get(reverse("league:event_live", args=[duel.pk]), {"v": version},
                           **HTMX)
    assert after.status_code == 200 and "HX-Trigger" not in after
    now = {names[link.seat_entrants()[s.index]]
           for s in link.match.seats.all() if s.awaited}
    assert marked()[0] == now
    still = sam_client.get(reverse("league:event_live", args=[duel.pk]),
                           {"v": marked()[1]}, **HTMX)
    assert still.status_code == 204


def test_forfeit_ends_the_match_and_the_result_reaches_the_bracket(
        sam_client: Client, duel: Event, django_capture_on_commit_callbacks: Any) -> None:
    link = EventMatch.objects.get(event=duel)
    with django_capture_on_commit_callbacks(execute=True):
        html = post(sam_client, "league:match_forfeit", duel,
                    {"pairing": link.pairing, "entrant": "e1"})
    assert "error-banner" not in html
    link.match.refresh_from_db()
    assert link.match.status == Match.Status.FINISHED
    duel.refresh_from_db()
    assert duel.status == Event.Status.FINISHED
    assert duel.records.filter(kind="forfeited").count() == 1
    assert duel.standings.get(rank=1).entrant.name == "bruno"


@pytest.mark.parametrize(("game", "options", "pods", "n", "ends"), [
    ("royal_rumble", {}, {"pod_size": 4}, 8, False),
    # a final of three, of four, of three: the pods' winners
    ("supershow", {"match_type": "triple_threat_elimination"},
     {"pod_size": 3, "min_pod_size": 3}, 9, False),
    ("supershow", {"match_type": "fatal_four_way_first_fall"},
     {"pod_size": 4, "min_pod_size": 4}, 16, True),
    # (its bots not yet drafted: the others draft on without the one who forfeits)
    ("supershow", {"match_type": "birdcage"}, {"pod_size": 4, "min_pod_size": 3}, 11, False)])
def test_a_seat_of_a_match_of_several_is_forfeited_from_the_event_page(
        staff_client: Client, organizer: Any, game: str, options: dict[str, Any],
        pods: dict[str, int], n: int, ends: bool,
        django_capture_on_commit_callbacks: Any) -> None:
    """A Royal Rumble or The Supershow pod seats three or four: each of its entrants has
    its own Forfeit in the live list, as in a match of two. Where the game eliminates
    players (Royal Rumble, an Elimination match: the forfeit decision of each game's
    package) the one who forfeits is out and the others play on, so it places last when
    the match ends; elsewhere (a first fall) it places last at once, the others sharing
    first. The pod's result reaches the Event either way."""
    event = events.create_event(name="Pods", game=game, format="heats", by=organizer,
                                match_options=options, format_options={**pods, "advance": 1})
    for i in range(n):
        events.add_entrant(event=event, by=organizer, bot="random", name=f"Bot {i + 1}")
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    live = staff_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    links = list(EventMatch.objects.filter(event=event).order_by("pairing"))
    assert len(links) == n // pods["pod_size"] + (n % pods["pod_size"] > 0)
    assert all(len(link.entrants) >= 3 for link in links)
    for link in links:
        for key in link.entrants:
            assert f'id="forfeit-{link.pairing}-{key}"' in live
    link = links[0]
    # Asked first, saying what a forfeit does to a match of several.
    name = Entrant.objects.get(event=event, key=link.entrants[1]).name
    told = (f"The match ends at once: {name} places last, the {len(link.entrants) - 1} "
            "others share first." if ends else f"{name} is out, and the others play on.")
    assert f'hx-confirm="{name} forfeits {link.label}? {told}"' in live
    gone = link.entrants[1]
    with django_capture_on_commit_callbacks(execute=True):
        html = post(staff_client, "league:match_forfeit", event,
                    {"seq": str(event.seq), "pairing": link.pairing, "entrant": gone})
    assert "error-banner" not in html
    link.match.refresh_from_db()
    assert link.match.status == Match.Status.FINISHED  # (the bots played it on to its end)
    placements = events.replay(event).results[link.pairing]["placements"]
    last = len(link.entrants)
    if ends:  # after the others sharing first
        assert placements == {key: last if key == gone else 1 for key in link.entrants}
    else:  # out first, alone in last place
        assert placements[gone] == last
        assert all(placements[key] < last for key in link.entrants if key != gone)
    assert event.records.filter(kind="forfeited", payload__entrant=gone).count() == 1


def test_an_entrant_the_rules_put_out_of_an_elimination_pod_is_offered_no_forfeit_or_bot(
        staff_client: Client, organizer: Any) -> None:
    """SH-072/106: a Triple Threat Elimination pod plays on after a fall eliminates an
    entrant. The live list says that entrant is out and offers it neither a Forfeit nor a
    bot (it is asked nothing any more), while the others keep theirs; a bot posted for it
    all the same is refused (seat_out) and recorded nowhere."""
    event = events.create_event(name="Pods", game="supershow", format="heats", by=organizer,
                                match_options={"match_type": "triple_threat_elimination"},
                                format_options={"pod_size": 3, "min_pod_size": 3,
                                                "advance": 1})
    for i in range(3):
        events.add_entrant(event=event, by=organizer, bot="random", name=f"Bot {i + 1}")
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    link = EventMatch.objects.get(event=event)
    match = played_until(link.match, lambda: bool(services.load_state(link.match).out))
    assert match.status == Match.Status.ACTIVE and not services.forfeited_seats(match)
    (seat,) = services.load_state(match).out
    gone = link.seat_entrants()[seat]
    name = Entrant.objects.get(event=event, key=gone).name
    live = staff_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert (f'<span class="who-name">{name}</span> <span class="muted small">is out</span>'
            in live)
    for form in ("forfeit", "to-bot"):
        assert f'id="{form}-{link.pairing}-{gone}"' not in live
        for key in link.entrants:
            if key != gone:
                assert f'id="{form}-{link.pairing}-{key}"' in live
    records = EventRecord.objects.count()
    html = post(staff_client, "league:match_seat_to_bot", event,
                {"pairing": link.pairing, "entrant": gone, "bot": "random"})
    assert "is out of the match" in html and "(seat_out)" in html
    assert EventRecord.objects.count() == records


def test_the_forfeit_that_leaves_one_in_a_pod_is_asked_as_ending_the_match(
        staff_client: Client, organizer: Any, player: Any, player2: Any, outsider: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """A Royal Rumble pod of three people, olga forfeited and out: a forfeit of alice or
    bruno leaves one at the table, who wins (RR-55 and the forfeit decision of
    engine/games/royal_rumble). The live list asked "alice is out, and the others play
    on"; it says the match ends. The result reaches the Event."""
    event = events.create_event(name="Trio", game="royal_rumble", format="heats",
                                by=organizer, format_options={"pod_size": 3})
    for user in (player, player2, outsider):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant="e3")
    live = staff_client.get(reverse("league:event_live", args=[event.pk]),
                            **HTMX).content.decode()
    for name in ("alice", "bruno"):
        assert (f'hx-confirm="{name} forfeits {link.label}? {name} is out, and the match '
                'ends: the one left in wins it."') in live
    assert "olga</span> <span class=\"muted small\">forfeited and is out" in live
    event.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        post(staff_client, "league:match_forfeit", event,
             {"seq": str(event.seq), "pairing": link.pairing, "entrant": "e1"})
    link.match.refresh_from_db()
    assert link.match.status == Match.Status.FINISHED
    assert events.replay(event).results[link.pairing]["placements"] == {
        "e1": 2, "e2": 1, "e3": 3}


def test_a_forfeit_of_a_finished_match_is_refused_and_writes_nothing(
        sam_client: Client, duel: Event, django_capture_on_commit_callbacks: Any) -> None:
    link = EventMatch.objects.get(event=duel)
    with django_capture_on_commit_callbacks(execute=True):
        post(sam_client, "league:match_forfeit", duel, {"pairing": link.pairing, "entrant": "e1"})
    records = EventRecord.objects.count()
    html = post(sam_client, "league:match_forfeit", duel,
                {"pairing": link.pairing, "entrant": "e2"})
    assert "Only a live match can be forfeited. (match_not_active)" in html
    assert EventRecord.objects.count() == records


def test_a_seat_is_handed_to_a_bot(sam_client: Client, duel: Event) -> None:
    link = EventMatch.objects.get(event=duel)
    html = post(sam_client, "league:match_seat_to_bot", duel,
                {"pairing": link.pairing, "entrant": "e2", "bot": "random"})
    assert "error-banner" not in html
    seat = link.match.seats.get(index=1)
    assert (seat.user_id, seat.bot) == (None, "random")
    assert duel.records.filter(kind="seat_to_bot").get().payload["bot"] == "random"
    # The list says who plays the seat now, and offers only another bot for it.
    live = sam_client.get(reverse("league:event_live", args=[duel.pk]), **HTMX).content.decode()
    bruno = live.split('aria-label="Bot for bruno in')[1].split("</select>")[0]
    alice = live.split('aria-label="Bot for alice in')[1].split("</select>")[0]
    assert 'value="random"' not in bruno and 'value="heuristic"' in bruno
    assert 'value="random"' in alice and live.count("random plays") == 1
    refused = post(sam_client, "league:match_seat_to_bot", duel,
                   {"pairing": link.pairing, "entrant": "e9"})
    assert "No entrant" in refused and "e9" in refused


def test_withdrawing_an_entrant_in_a_live_match_asks_first_naming_the_forfeit(
        sam_client: Client, sam: Any, make_event: Callable[..., Event], player: Any,
        player2: Any) -> None:
    """A withdrawal forfeits the entrant's live match at once, as the Forfeit button's
    question says of a forfeit: the Withdraw button's question says so too."""
    event = make_event(name="Trio", format="round_robin", bots=1)
    for name in ("alice", "bruno"):
        events.add_entrant(event=event, by=sam, player=name)
    events.start_event(event=event, by=sam)
    playing = EventMatch.objects.get(event=event, match__status=Match.Status.ACTIVE)
    idle = ({"e1", "e2", "e3"} - set(playing.entrants)).pop()
    panel = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    asked = dict(re.findall(r'hx-confirm="(Withdraw ([^?]+)\?[^"]*)"', panel))
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    for key in playing.entrants:
        assert (f"Withdraw {names[key]}? {names[key]} forfeits {playing.label} at once: the "
                "match they are playing ends for them as a loss.") in asked
    assert f"Withdraw {names[idle]}?" in asked


def test_a_result_is_corrected_and_the_standings_follow(
        sam_client: Client, duel: Event, django_capture_on_commit_callbacks: Any) -> None:
    link = EventMatch.objects.get(event=duel)
    with django_capture_on_commit_callbacks(execute=True):
        post(sam_client, "league:match_forfeit", duel, {"pairing": link.pairing, "entrant": "e1"})
    panel = sam_client.get(reverse("league:event_admin", args=[duel.pk])).content.decode()
    assert "Correct a result" in panel and 'name="place_e1"' in panel
    html = post(sam_client, "league:result_correct", duel,
                {"pairing": link.pairing, "place_e1": "1", "place_e2": "2"})
    assert "error-banner" not in html
    assert duel.standings.get(rank=1).entrant.name == "alice"
    refused = post(sam_client, "league:result_correct", duel,
                   {"pairing": link.pairing, "place_e1": "1", "place_e3": "2"})
    assert ("Give a place (1 = first, at most the number of entrants) to each entrant of "
            "that match.") in refused


def test_the_results_to_correct_are_listed_in_the_order_of_the_matches(
        sam_client: Client, sam: Any, make_event: Callable[..., Event],
        django_capture_on_commit_callbacks: Any) -> None:
    """By round and board, as the matches are, not in the order they happened to finish:
    on a busy night the organizer finds "Quarterfinal 1" where it stands."""
    event = make_event(bots=8)
    events.start_event(event=event, by=sam)
    for pairing in ("W1-3", "W1-1"):  # the third board finishes first
        link = EventMatch.objects.get(event=event, pairing=pairing)
        with django_capture_on_commit_callbacks(execute=True):
            events.forfeit(event=event, by=sam, pairing=pairing, entrant=link.entrants[1])
    panel = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    listed = panel.split("Correct a result")[1]
    assert listed.index("Quarterfinal 1") < listed.index("Quarterfinal 3")


# -- exports and scoring -----------------------------------------------------------------

def test_a_correction_the_bracket_moved_past_is_refused_naming_the_pairings_as_listed(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """The refusal names the matches as the page lists them, "Final", "Semifinal 1", not by
    their ids alone."""
    event = make_event(bots=4)
    started_and_decided(event)
    semi = EventMatch.objects.get(event=event, pairing="W1-1")
    winner, loser = semi.entrants
    event.refresh_from_db()
    panel = post(sam_client, "league:result_correct", event, {
        "seq": str(event.seq), "pairing": "W1-1", f"place_{winner}": "2",
        f"place_{loser}": "1"})
    assert ("The later pairing Final (W2-1) was drawn from Semifinal 1 (W1-1)&#x27;s result "
            "as it stands; the corrected one would have drawn it otherwise") in panel
    assert EventRecord.objects.filter(event=event,
                                      kind=EventRecord.Kind.RESULT_CORRECTED).count() == 0


def test_a_correction_that_would_reseat_a_made_match_is_refused_naming_it_as_listed(
        sam_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, outsider: Any, organizer: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """People, not bots, in the semifinals: the final is made and waits for them."""
    event = make_event()
    for user in (player, player2, outsider, organizer):
        events.add_entrant(event=event, by=sam, player=user.username)
    events.start_event(event=event, by=sam)
    for link in EventMatch.objects.filter(event=event):
        with django_capture_on_commit_callbacks(execute=True):
            events.forfeit(event=event, by=sam, pairing=link.pairing,
                           entrant=link.entrants[1])
    assert EventMatch.objects.filter(event=event, pairing="W2-1").exists()
    winner, loser = EventMatch.objects.get(event=event, pairing="W1-1").entrants
    event.refresh_from_db()
    panel = post(sam_client, "league:result_correct", event, {
        "seq": str(event.seq), "pairing": "W1-1", f"place_{winner}": "2",
        f"place_{loser}": "1"})
    assert ("Final (W2-1) was already made, seating those whom Semifinal 1 (W1-1)&#x27;s "
            "result as it stands sent there; the corrected one would seat others.") in panel


def test_event_standings_export_as_csv(sam_client: Client, duel: Event,
                                       django_capture_on_commit_callbacks: Any) -> None:
    link = EventMatch.objects.get(event=duel)
    with django_capture_on_commit_callbacks(execute=True):
        post(sam_client, "league:match_forfeit", duel, {"pairing": link.pairing, "entrant": "e2"})
    response = sam_client.get(reverse("league:event_csv", args=[duel.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:8] == ["rank", "entrant", "name", "points", "wins", "draws", "losses",
                           "withdrawn"]
    assert [r[:3] for r in rows[1:]] == [["1", "e1", "alice"], ["2", "e2", "bruno"]]
    assert [r[7] for r in rows[1:]] == ["no", "no"]


def test_the_event_csv_names_each_column_once(sam_client: Client, sam: Any,
                                              make_event: Callable[..., Event]) -> None:
    """A round robin's tiebreaks end with "wins", the name of a column before them."""
    event = make_event(format="round_robin", bots=2)
    events.start_event(event=event, by=sam)
    rows = list(csv.DictReader(io.StringIO(sam_client.get(
        reverse("league:event_csv", args=[event.pk])).content.decode())))
    header = list(rows[0])
    assert len(header) == len(set(header))
    assert header[8:] == ["head_to_head", "sonneborn_berger", "wins (tiebreak)", "group"]
    assert [row["group"] for row in rows] == ["", ""]


def test_the_event_csv_names_each_multistage_entrants_group_last(
        sam_client: Client, sam: Any, make_event: Callable[..., Event]) -> None:
    """Its standings rank the groups' winners first, then their seconds: a group winner of
    1 point stood above another group's second of 2, the CSV not saying they had played
    in different groups, which the Event page names."""
    event = make_event(format="multistage", bots=8,
                       format_options={"groups": 2, "playoff_size": 4})
    events.start_event(event=event, by=sam)
    event.refresh_from_db()
    done = events.replay_to_read(event)
    groups = {key: group.name for group in done.state.groups for key in group.state.entrants}
    rows = list(csv.reader(io.StringIO(sam_client.get(
        reverse("league:event_csv", args=[event.pk])).content.decode())))
    assert rows[0][:8] == ["rank", "entrant", "name", "points", "wins", "draws", "losses",
                           "withdrawn"]
    assert rows[0][-1] == "group" and rows[0].count("group") == 1
    assert len(rows) == 9
    assert {row[1]: row[-1] for row in rows[1:]} == groups
    assert sorted(set(groups.values())) == ["A", "B"]


def test_a_multistage_event_of_one_group_leaves_the_csvs_group_empty(
        sam_client: Client, sam: Any, make_event: Callable[..., Event]) -> None:
    event = make_event(format="multistage", bots=4, format_options={"playoff_size": 2})
    events.start_event(event=event, by=sam)
    rows = list(csv.DictReader(io.StringIO(sam_client.get(
        reverse("league:event_csv", args=[event.pk])).content.decode())))
    assert len(rows) == 4 and {row["group"] for row in rows} == {""}


def test_the_event_csv_says_who_withdrew(sam_client: Client, sam: Any,
                                         make_event: Callable[..., Event]) -> None:
    event = make_event(bots=3)
    events.start_event(event=event, by=sam)
    events.withdraw_entrant(event=event, by=sam, key="e3")
    rows = list(csv.reader(io.StringIO(sam_client.get(
        reverse("league:event_csv", args=[event.pk])).content.decode())))
    assert {r[1]: r[7] for r in rows[1:]} == {"e1": "no", "e2": "no", "e3": "yes"}


def test_season_standings_export_as_csv(sam_client: Client, duel: Event, season: Season,
                                        player: Any, player2: Any,
                                        django_capture_on_commit_callbacks: Any) -> None:
    link = EventMatch.objects.get(event=duel)
    with django_capture_on_commit_callbacks(execute=True):
        post(sam_client, "league:match_forfeit", duel, {"pairing": link.pairing, "entrant": "e2"})
    response = sam_client.get(reverse("league:season_csv", args=[season.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["rank", "name", "events", "points", "wins", "draws", "losses",
                       "kind", "id", "event"]
    alice, bruno = (player_for(user) for user in (player, player2))
    assert rows[1:] == [["1", "alice", "1", "3.0", "1", "0", "0", "player", str(alice.pk), ""],
                        ["2", "bruno", "1", "0.0", "0", "0", "1", "player", str(bruno.pk), ""]]


def test_a_formula_looking_name_is_quoted_in_the_csv(sam_client: Client,
                                                     make_event: Callable[..., Event]) -> None:
    event = make_event()
    post(sam_client, "league:entrant_add", event, {"bot": "random", "name": "=1+1"})
    post(sam_client, "league:entrant_add", event, {"bot": "random", "name": "Plain"})
    post(sam_client, "league:event_start", event)
    body = sam_client.get(reverse("league:event_csv", args=[event.pk])).content.decode()
    assert "'=1+1" in body and "\n1,e1,=1+1" not in body


def test_rerun_scoring_shows_its_progress_bar_done(staff_client: Client, duel: Event) -> None:
    response = staff_client.post(reverse("league:rescore"), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Done: 100%." in html
    assert "every 1s" not in html  # a finished job stops polling
    # A progress bar is named, or a screen reader says "progress bar, 100" of nothing.
    assert '<progress class="progress" aria-label="Scoring rebuilt" max="100" value="100">' \
        in html
    job = html.split('id="rescore-')[1].split('"')[0]
    again = staff_client.get(reverse("league:rescore_progress", args=[job]), **HTMX)
    assert "Done: 100%." in again.content.decode() and "1 events" in again.content.decode()


def test_rerun_scoring_tells_a_screen_reader_it_started_and_how_it_ended(
        staff_client: Client, duel: Event) -> None:
    """The bar and its words changed in silence: a screen reader user who pressed Re-run
    scoring heard nothing, then or when it ended. A live region outside the polled bar
    reads the answer to the press and the poll that ends it; the polls between say
    nothing."""
    import re

    from league import dashboard_tasks

    def told(html: str) -> str | None:
        found = re.search(r'<div id="rescore-announce" hx-swap-oob="innerHTML">(.*?)</div>',
                          html, re.S)
        return " ".join(re.sub(r"<[^>]+>", "", found[1]).split()) if found else None

    page = staff_client.get(reverse("league:dashboard")).content.decode()
    assert '<div id="rescore-announce" class="visually-hidden" role="status" ' \
           'aria-live="polite"></div>' in page
    pressed = staff_client.post(reverse("league:rescore"), **HTMX).content.decode()
    assert (told(pressed) or "").startswith("Scoring: Done: 100%.")
    dashboard_tasks._note("waiting-job", 0, "queued")
    url = reverse("league:rescore_progress", args=["waiting-job"])
    assert told(staff_client.get(url, **HTMX).content.decode()) is None
    dashboard_tasks._note("waiting-job", 40, "failed", error="the worker stopped")
    assert told(staff_client.get(url, **HTMX).content.decode()) \
        == "Scoring: Failed: the worker stopped"


def test_a_queued_job_polls_and_an_unknown_job_says_so(staff_client: Client,
                                                       season: Season) -> None:
    from league import dashboard_tasks

    dashboard_tasks._note("waiting-job", 0, "queued")
    queued = staff_client.get(reverse("league:rescore_progress", args=["waiting-job"]))
    assert "every 1s" in queued.content.decode() and "Queued: 0%" in queued.content.decode()
    unknown = staff_client.get(reverse("league:rescore_progress", args=["gone"]))
    assert "This job is not known" in unknown.content.decode()


def test_a_second_rerun_while_one_is_queued_follows_it(
        staff_client: Client, season: Season, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two clicks (or two staff) queue one rebuild; once it is over, a click queues
    a new one."""
    from django.core.cache import cache

    from league import dashboard_tasks

    queued: list[str] = []
    monkeypatch.setattr(dashboard_tasks, "enqueue", lambda task, job: queued.append(job))
    cache.delete(dashboard_tasks.CURRENT)
    try:
        jobs = [staff_client.post(reverse("league:rescore"), **HTMX).content.decode()
                .split('id="rescore-')[1].split('"')[0] for _ in range(2)]
        assert jobs[0] == jobs[1] and queued == jobs[:1]
        dashboard_tasks._note(jobs[0], 100, "done", counts={})
        third = dashboard_tasks.start_rescore()
        assert third != jobs[0] and queued == [jobs[0], third]
    finally:
        cache.delete(dashboard_tasks.CURRENT)


def test_two_reruns_that_both_find_the_last_one_over_queue_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache

    from league import dashboard_tasks

    queued: list[str] = []
    monkeypatch.setattr(dashboard_tasks, "enqueue", lambda task, job: queued.append(job))
    cache.set(dashboard_tasks.CURRENT, "old-job", 60)
    dashboard_tasks._note("old-job", 100, "done")
    real_progress, answers, reads = dashboard_tasks.progress, [], []

    def progress(job: str) -> Any:  # the second click runs while the first reads "over"
        reads.append(job)
        if len(reads) == 1:
            answers.append(dashboard_tasks.start_rescore())
        return real_progress(job)

    monkeypatch.setattr(dashboard_tasks, "progress", progress)
    try:
        answers.append(dashboard_tasks.start_rescore())
        assert len(queued) == 1 and answers == queued * 2
        assert cache.get(dashboard_tasks.CURRENT) == queued[0]
    finally:
        cache.delete(dashboard_tasks.CURRENT)


def test_a_rerun_that_cannot_be_queued_reads_failed_and_the_next_click_queues_anew(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache

    from league import dashboard_tasks

    def down(task: Any, job: str) -> None:
        raise ConnectionError("broker down")

    cache.delete(dashboard_tasks.CURRENT)
    monkeypatch.setattr(dashboard_tasks, "enqueue", down)
    try:
        dead = dashboard_tasks.start_rescore()
        failed = dashboard_tasks.progress(dead)
        assert failed is not None and failed["state"] == "failed"
        assert "could not be queued: broker down" in failed["error"]
        queued: list[str] = []
        monkeypatch.setattr(dashboard_tasks, "enqueue", lambda task, job: queued.append(job))
        again = dashboard_tasks.start_rescore()
        assert again != dead and queued == [again]
    finally:
        cache.delete(dashboard_tasks.CURRENT)


def test_a_rerun_lost_on_the_way_is_given_up_and_the_next_click_queues_anew(
        staff_client: Client, season: Season, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its task lost (the broker dropped it, its worker died), a queued or running job was
    followed by every click for the hour its progress note lived: scores could not be
    re-run. Unheard of for LOST_AFTER it reads lost, the next click queues a new one, and
    the lost task, should it run after all, leaves the rebuild to its successor."""
    import time

    from django.core.cache import cache

    from league import dashboard_tasks, projections

    queued: list[str] = []
    monkeypatch.setattr(dashboard_tasks, "enqueue", lambda task, job: queued.append(job))
    rebuilt: list[int] = []
    monkeypatch.setattr(projections, "rebuild_all",
                        lambda progress=None: rebuilt.append(1) or {"events": 0})
    cache.delete(dashboard_tasks.CURRENT)
    try:
        for state in ("queued", "running"):
            lost = dashboard_tasks.start_rescore()
            dashboard_tasks._note(lost, 40, state)
            assert dashboard_tasks.start_rescore() == lost  # heard of lately: followed
            silent = time.time() - dashboard_tasks.LOST_AFTER - 1
            cache.set(dashboard_tasks._key(lost), {"percent": 40, "state": state, "at": silent})
            page = staff_client.get(reverse("league:rescore_progress", args=[lost]),
                                  **HTMX).content.decode()
            assert "Lost: no worker has run it or said how far it got for 10 minutes" in page
            assert "every 1s" not in page
            after = dashboard_tasks.start_rescore()
            assert after != lost and queued[-1] == after
            dashboard_tasks.rescore(lost)  # the lost task runs after all
            assert rebuilt == [] and dashboard_tasks.progress(lost)["state"] == "failed"
            dashboard_tasks.rescore(after)
            assert rebuilt == [1] and dashboard_tasks.progress(after)["state"] == "done"
            rebuilt.clear()
    finally:
        cache.delete(dashboard_tasks.CURRENT)


# -- held rounds -------------------------------------------------------------------------

def test_a_held_round_waits_on_the_organizer_page(sam_client: Client,
                                                  held_swiss: Event) -> None:
    page = sam_client.get(reverse("league:event_admin", args=[held_swiss.pk])).content.decode()
    assert "Round 2 is waiting for you" in page and "Release the round as drawn" in page
    assert EventMatch.objects.filter(event=held_swiss, round=2).count() == 0


def test_a_held_swiss_round_offers_the_hand_pairing_form(sam_client: Client,
                                                         held_swiss: Event) -> None:
    page = sam_client.get(reverse("league:event_admin", args=[held_swiss.pk])).content.decode()
    assert "Round 2 is waiting for you" in page
    assert "pair it by hand" in page and 'name="pairings"' in page
    assert reverse("league:event_pair", args=[held_swiss.pk]) in page


@pytest.mark.usefixtures("swiss_revision_2")
def test_a_late_entrant_the_held_draw_leaves_out_is_named_on_its_card(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """An entrant added while round 2 waits is in none of its drawn pairings (an Event
    started under Swiss revision 2): the card said nothing of it, and releasing the round
    as drawn left them out unwarned."""
    event = make_event(format="swiss", bots=4, hold_rounds=True, format_options={"rounds": 3})
    started_and_decided(event)
    event.refresh_from_db()
    events.add_entrant(event=event, by=event.created_by, bot="random", name="Latecomer")
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert "Round 2 is waiting for you" in page
    assert all("Latecomer" not in item for item in held_list(page))
    assert ("In no pairing of this draw (entered after it was drawn): Latecomer (e5). "
            "Released as drawn, the round leaves them out; pair it by hand to seat them.") \
        in page


def test_a_late_entrant_of_a_held_round_is_on_its_card_and_seated_by_release(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """An entrant added while round 2 waits: the round is drawn again with them, so the
    card lists them in it, names nobody left out, and Release makes their match."""
    event = make_event(format="swiss", bots=4, hold_rounds=True, format_options={"rounds": 3})
    started_and_decided(event)
    event.refresh_from_db()
    late = events.add_entrant(event=event, by=event.created_by, bot="random",
                              name="Latecomer").key
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert "Round 2 is waiting for you" in page and "held-left-out" not in page
    assert any("Latecomer" in item for item in held_list(page))
    post(sam_client, "league:round_release", event)
    seated = {k for link in EventMatch.objects.filter(event=event, round=2)
              for k in link.entrants}
    bye = [p.entrants for p in events.replay(event).state.rounds[1] if len(p.entrants) == 1]
    assert late in seated | {k for p in bye for k in p}
    assert seated | {k for p in bye for k in p} == {f"e{i}" for i in range(1, 6)}


def test_a_held_rounds_draw_names_each_entrants_key_the_hand_pairing_is_typed_in(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """Pair by hand takes entrant keys ("e1 e3"), its text the draw's: the draw listed
    above it named its entrants alone, so an organizer on a phone scrolled back to the
    entrants table to learn who "e3" was."""
    event = make_event(format="swiss", bots=4, hold_rounds=True, format_options={"rounds": 3})
    started_and_decided(event)
    done = events.replay(event)
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    drawn = [p for p in formats.get_format("swiss").pairings(done.state) if p.round == 2]
    names = {key: entrant["name"] for key, entrant in done.entrants.items()}
    assert held_list(page) == [
        f"{p.label} " + " vs ".join(f"{names[k]} ({k})" for k in p.entrants) for p in drawn]


def test_a_held_round_drawn_with_everyone_names_nobody_left_out(
        sam_client: Client, held_swiss: Event) -> None:
    page = sam_client.get(reverse("league:event_admin", args=[held_swiss.pk])).content.decode()
    assert "Round 2 is waiting for you" in page and "held-left-out" not in page


def test_a_held_bracket_round_offers_no_hand_pairing(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """A bracket refuses hand pairings: its held round is only released as drawn."""
    event = make_event(bots=4, hold_rounds=True)
    started_and_decided(event)
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert "Round 2 is waiting for you" in page and "Release the round as drawn" in page
    assert "pair it by hand" not in page and 'name="pairings"' not in page
    assert reverse("league:event_pair", args=[event.pk]) not in page


def held_list(page: str) -> list[str]:
    """The held card's pairings as text: "label names"."""
    card = page[page.index('class="card held-round"'):]
    card = card[:card.index("</section>")]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item)).strip()
            for item in re.findall(r"<li>(.*?)</li>", card, re.S)]


def test_a_double_eliminations_round_held_alone_is_named_by_its_bracket() -> None:
    """The losers' round 2 held alone read "Round 2 is waiting for you", as if the
    winners' round 2 (long played) waited again; a grand final read "Round 1"."""
    losers = Pairing("L2-2", 2, ("e5", "e1"), "losers", "Losers round 2 match 2")
    final = Pairing("GF", 1, ("e1", "e2"), "grand_final", "Grand final")
    assert views._held_rounds([losers]) == ["Losers round 2"]
    assert views._held_rounds([final]) == ["Grand final"]
    single = Pairing("W2-1", 2, ("e1", "e2"), "bracket", "Final")
    assert views._held_rounds([single]) == ["round 2"]


@pytest.mark.parametrize("fmt", ["single_elimination", "double_elimination"])
def test_a_held_card_lists_what_the_release_makes_and_no_slot_waiting_on_a_result(
        sam_client: Client, make_event: Callable[..., Event], fmt: str,
        started_and_decided: Callable[..., None]) -> None:
    """Two of four first-round matches over: the second round is half drawn. Its other
    half waits on results (not a bye), and in a double elimination the losers' first round
    is released by the same button, so listed too."""
    event = make_event(format=fmt, bots=8, hold_rounds=True)
    started_and_decided(event, ["W1-1", "W1-2"])
    held = [p.id for p in events.held_pairings(event, events.replay(event))]
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    listed = held_list(page)
    assert len(listed) == len(held) == (1 if fmt == "single_elimination" else 2)
    assert not any("bye" in item for item in listed)
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    drawn = formats.get_format(fmt).pairings(events.replay(event).state)
    for pairing in (p for p in drawn if p.id in held):
        assert any(item.endswith(" vs ".join(names[k] for k in pairing.slots))
                   for item in listed), (pairing, listed)
    assert ("Round 2 is waiting for you" in page) == (fmt == "single_elimination")
    assert ("Winners round 2 and Losers round 1 are waiting for you" in page) == (
        fmt == "double_elimination")

    post(sam_client, "league:round_release", event)
    made = set(EventMatch.objects.filter(event=event).values_list("pairing", flat=True))
    assert set(held) <= made
    released = EventRecord.objects.filter(event=event, kind="round_released").get()
    assert released.payload["pairings"] == held


def test_a_held_final_and_its_third_place_match_are_one_round(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    event = make_event(bots=4, hold_rounds=True, format_options={"third_place": True})
    started_and_decided(event)
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert "Round 2 is waiting for you" in page
    assert [item.split()[0] for item in held_list(page)] == ["Final", "Third-place"]


def test_a_held_swiss_card_shows_the_rounds_bye(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    event = make_event(format="swiss", bots=5, hold_rounds=True,
                       format_options={"rounds": 2})
    started_and_decided(event)
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    listed = held_list(page)
    assert len(listed) == 3 and [item for item in listed if item.endswith("vs bye")] == [
        next(item for item in listed if item.startswith("Round 2 bye"))]


@pytest.mark.usefixtures("swiss_revision_2")
def test_a_held_swiss_card_says_a_withdrawn_entrants_bye_gives_no_point(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """The entrant drawn round 2's bye withdraws while the round waits: the card listed
    the bye as before, though released as drawn it gives them nothing. (An Event started
    under Swiss revision 2: from revision 3 the round is drawn again without them.)"""
    event = make_event(format="swiss", bots=5, hold_rounds=True, format_options={"rounds": 2})
    started_and_decided(event)
    bye = next(p for p in formats.get_format("swiss").pairings(events.replay(event).state)
               if p.round == 2 and len(p.entrants) == 1)
    post(sam_client, "league:entrant_withdraw", event, {}, bye.entrants[0])
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    listed = [item for item in held_list(page) if item.startswith("Round 2 bye")]
    assert len(listed) == 1 and listed[0].endswith("withdrawn: the bye gives no point")


def held_swiss_board(make_event: Callable[..., Event],
                     started_and_decided: Callable[..., None]) -> tuple[Event, Any]:
    """A Swiss of six bots whose rounds are held, its first round decided, and a board of
    the second round drawn for two entrants, waiting to be released."""
    event = make_event(format="swiss", bots=6, hold_rounds=True,
                       format_options={"rounds": 2})
    started_and_decided(event)
    drawn = next(p for p in formats.get_format("swiss").pairings(events.replay(event).state)
                 if p.round == 2 and len(p.entrants) == 2)
    return event, drawn


@pytest.mark.usefixtures("swiss_revision_2")
def test_a_held_card_shows_the_walkover_a_withdrawal_left_and_its_text_seats_everyone(
        sam_client: Client, sam: Any, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """An entrant withdraws while the Swiss round drawn for them waits (an Event started
    under Swiss revision 2): their opponent's board is a walkover, shown as such, and the
    hand pairing the card offers seats that opponent too (it left them out, and sent as
    offered was refused: Not paired)."""
    event, drawn = held_swiss_board(make_event, started_and_decided)
    leaving, staying = drawn.entrants
    post(sam_client, "league:entrant_withdraw", event, {}, leaving)
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    assert any(item.endswith(f"walkover: {names[staying]} wins, a withdrawal decided it")
               for item in held_list(page))
    text = re.search(r'name="pairings"[^>]*>(.*?)</textarea>', page, re.S)
    assert text is not None
    lines = [line.split() for line in text.group(1).splitlines()]
    assert sorted(k for line in lines for k in line) == sorted(set(names) - {leaving})

    panel = post(sam_client, "league:event_pair", event, {"pairings": text.group(1)})
    assert "error-banner" not in panel
    assert EventMatch.objects.filter(event=event, round=2).count() == 2


def test_a_withdrawal_from_a_held_round_draws_it_again_with_no_walkover_on_the_card(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """An entrant withdraws while the Swiss round drawn for them waits: the round is drawn
    again for the five left (two boards and a bye), their drawn opponent paired again
    rather than given a walkover, and Release makes those two boards."""
    event, drawn = held_swiss_board(make_event, started_and_decided)
    leaving, staying = drawn.entrants
    post(sam_client, "league:entrant_withdraw", event, {}, leaving)
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    listed = held_list(page)
    assert len(listed) == 3 and not any("walkover" in item for item in listed)
    assert any(names[staying] in item for item in listed)
    assert not any(names[leaving] in item for item in listed)
    post(sam_client, "league:round_release", event)
    made = EventMatch.objects.filter(event=event, round=2)
    assert len(made) == 2 and all(leaving not in link.entrants for link in made)


@pytest.mark.usefixtures("swiss_revision_2")
def test_a_held_walkover_whose_winner_withdrew_in_turn_stays_on_the_card_naming_them(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """Both entrants of a held Swiss board withdraw, one after the other (an Event started
    under Swiss revision 2): the first withdrawal gave the board to the second, and the
    standings count it so. The card worked its walkovers out from who was still in, so it
    left that board off (and named who withdrew, not who won): it lists it, won by the one
    the format counts."""
    event, drawn = held_swiss_board(make_event, started_and_decided)
    first, second = drawn.entrants
    post(sam_client, "league:entrant_withdraw", event, {}, first)
    post(sam_client, "league:entrant_withdraw", event, {}, second)
    assert events.walkovers(events.replay(event))[drawn.id] == second
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    listed = held_list(page)
    assert len(listed) == 3
    assert f"{drawn.label} {names[first]} ({first}) vs {names[second]} ({second}) " \
           f"walkover: {names[second]} wins, a withdrawal decided it" in listed
    text = re.search(r'name="pairings"[^>]*>(.*?)</textarea>', page, re.S)
    assert text is not None  # (it seats neither: both are out)
    assert sorted(text.group(1).split()) == sorted(set(names) - {first, second})


def test_a_held_walkover_that_is_a_loss_for_both_says_so(
        sam_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """A round robin played round by round: one entrant withdraws, then their opponent of
    a later round does. That later pairing is a loss for both (the second was there for
    none of it); once it is the held round, the card lists it as one."""
    event = make_event(format="round_robin", bots=4, hold_rounds=True,
                       format_options={"round_by_round": True})
    started_and_decided(event)
    schedule = formats.get_format("round_robin").pairings(events.replay(event).state)
    first = schedule[0].entrants[0]
    later = next(p for p in schedule if p.round == 3 and first in p.entrants)
    (second,) = set(later.entrants) - {first}
    post(sam_client, "league:entrant_withdraw", event, {}, first)
    post(sam_client, "league:entrant_withdraw", event, {}, second)
    done = events.replay(event)
    assert [p.round for p in events.held_pairings(event, done)] == [3]
    assert later.id in events.walkovers(done) and events.walkovers(done)[later.id] is None
    page = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    assert "Round 3 is waiting for you" in page
    assert f"{later.label} {' vs '.join(names[k] for k in later.slots)} walkover: a loss " \
           "for both, a withdrawal decided it" in held_list(page)


def test_a_held_round_is_released_as_drawn(sam_client: Client, held_swiss: Event) -> None:
    panel = post(sam_client, "league:round_release", held_swiss)
    assert "error-banner" not in panel and "is waiting for you" not in panel
    assert EventMatch.objects.filter(event=held_swiss, round=2).count() == 2
    again = post(sam_client, "league:round_release", held_swiss)
    assert "No round is waiting to be released." in again


def test_a_held_round_is_paired_by_hand(sam_client: Client, held_swiss: Event) -> None:
    records = EventRecord.objects.count()
    refused = post(sam_client, "league:event_pair", held_swiss, {"pairings": "e1 e2"})
    assert "Not paired: Bot 3, Bot 4." in refused and EventRecord.objects.count() == records
    refused = post(sam_client, "league:event_pair", held_swiss, {"pairings": "e1 e2 e3\ne4"})
    assert "A pairing seats two entrants or one with a bye, not Bot 1, Bot 2, Bot 3." in refused
    panel = post(sam_client, "league:event_pair", held_swiss, {"pairings": "e1 e4\ne2, e3"})
    assert "error-banner" not in panel
    assert sorted(sorted(m.entrants) for m in
                  EventMatch.objects.filter(event=held_swiss, round=2)) == [["e1", "e4"],
                                                                            ["e2", "e3"]]


def test_a_pairing_refused_names_its_entrants_as_the_page_does_not_by_key(
        sam_client: Client, sam: Any, held_swiss: Event) -> None:
    """The format knows entrants by key ("e2 has withdrawn.", "e3 is paired twice."),
    which neither the page's lists nor its held card show: the refusal names them. A key
    the Event has not is quoted as typed."""
    events.withdraw_entrant(event=held_swiss, by=sam, key="e2")
    refused = post(sam_client, "league:event_pair", held_swiss, {"pairings": "e1 e2\ne3 e4"})
    assert "Bot 2 has withdrawn. (withdrawn_entrant)" in refused
    refused = post(sam_client, "league:event_pair", held_swiss, {"pairings": "e1 e3\ne3 e4"})
    assert "Bot 3 is paired twice. (duplicate_entrant)" in refused
    refused = post(sam_client, "league:event_pair", held_swiss, {"pairings": "e1 e12"})
    assert "&#x27;e12&#x27; is not entered." in refused
    link = EventMatch.objects.filter(event=held_swiss, round=1).first()
    assert link is not None
    refused = post(sam_client, "league:match_forfeit", held_swiss,
                   {"pairing": link.pairing, "entrant": next(
                       key for key in ("e1", "e2", "e3", "e4") if key not in link.entrants)})
    assert f"does not play {link.label}." in refused
    assert re.search(r"Bot \d does not play", refused)


def test_a_refusal_names_a_closed_players_entry_as_the_pages_do(
        sam_client: Client, sam: Any, player: Any, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None]) -> None:
    """alice withdrew, then closed her account: the page names her entry "Closed account",
    and so does a refusal that quotes it, not the name her records keep."""
    event = make_event(format="swiss", bots=3, hold_rounds=True, format_options={"rounds": 2})
    events.add_entrant(event=event, by=sam, player=player.username)
    started_and_decided(event)
    events.withdraw_entrant(event=event, by=sam, key="e4")
    close_user(player)
    refused = post(sam_client, "league:event_pair", event, {"pairings": "e1 e2\ne3 e4"})
    assert "Closed account has withdrawn. (withdrawn_entrant)" in refused
    assert "alice" not in refused


def test_a_refusal_names_a_match_by_its_label_as_the_page_lists_it(
        sam_client: Client, held_swiss: Event) -> None:
    """The refusal said "R2-1 has no recorded result to correct.": the page lists the
    match as "Round 2 board 1". A pairing the Event has not is quoted as typed."""
    refused = post(sam_client, "league:result_correct", held_swiss,
                   {"pairing": "R2-1", "place_e1": "1", "place_e2": "2"})
    assert "Round 2 board 1 has no recorded result to correct. (no_result)" in refused
    refused = post(sam_client, "league:match_forfeit", held_swiss,
                   {"pairing": "R2-1", "entrant": "e1"})
    assert "Round 2 board 1 has no match yet. (unknown_pairing)" in refused
    refused = post(sam_client, "league:result_correct", held_swiss,
                   {"pairing": "R9-9", "place_e1": "1", "place_e2": "2"})
    assert "No pairing &#x27;R9-9&#x27; in this Event. (unknown_pairing)" in refused


def test_a_refused_panel_form_comes_back_holding_what_was_typed(
        sam_client: Client, held_swiss: Event, cup: Event) -> None:
    """A whole round of hand pairings, a seeding order, a name or a correction refused for
    one slip is shown again as typed, to mend: the panel came back with its defaults."""
    typed = "e1 e3\ne2 e9"
    refused = post(sam_client, "league:event_pair", held_swiss, {"pairings": typed})
    assert "&#x27;e9&#x27; is not entered." in refused
    assert f">{typed}</textarea>" in refused

    refused = post(sam_client, "league:entrant_add", cup,
                   {"bot": "heuristic", "name": "N" * 101})
    assert "Shown as: Ensure" in refused and f'name="name" value="{"N" * 101}"' in refused
    assert '<option value="heuristic" selected>' in refused
    refused = post(sam_client, "league:event_seed", cup, {"method": "hand", "order": "e2"})
    assert "(bad_order)" in refused and 'name="order" value="e2"' in refused
    assert '<option value="hand" selected>' in refused

    first = EventMatch.objects.filter(event=held_swiss).order_by("pairing").first()
    assert first is not None
    winner, loser = first.entrants
    refused = post(sam_client, "league:result_correct", held_swiss,
                   {"pairing": first.pairing, f"place_{winner}": "2", f"place_{loser}": "3"})
    assert "(bad_placements)" in refused
    unfolded = next(part for part in refused.split("<details")[1:]
                    if f'value="{first.pairing}"' in part)
    assert unfolded.startswith(' class="correction" open>')
    assert f'name="place_{winner}" value="2"' in unfolded
    assert f'name="place_{loser}" value="3"' in unfolded
    assert f"1. {Entrant.objects.get(event=held_swiss, key=winner).name}" in unfolded


def test_a_round_that_is_not_held_cannot_be_paired_by_hand(
        sam_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    event = make_event(format="swiss", bots=4)
    events.start_event(event=event, by=sam)
    records = EventRecord.objects.count()
    panel = post(sam_client, "league:event_pair", event, {"pairings": "e1 e2\ne3 e4"})
    assert "No round is waiting" in panel and EventRecord.objects.count() == records


def test_a_new_event_like_another_starts_from_its_settings(
        sam_client: Client, season: Season, sam: Any, organizer: Any) -> None:
    like = events.create_event(name="Thursday night", game="super_showdown", format="swiss",
                               by=sam, season=season, format_options={"rounds": 3},
                               turn_deadline_minutes=20, deadline_policy="forfeit",
                               deadline_bot="random", hold_rounds=True, open_entry=True)
    admin_page = sam_client.get(reverse("league:event_admin", args=[like.pk])).content.decode()
    link = f'{reverse("league:dashboard")}?like={like.pk}#new-event'
    assert f'href="{link}"' in admin_page
    page = sam_client.get(reverse("league:dashboard"), {"like": like.pk}).content.decode()
    form = page[page.index('id="new-event"'):page.index('id="new-showdown"')]
    assert 'name="event-name" value="Thursday night"' in form
    assert f'<option value="{season.pk}" selected>' in form
    assert '<option value="swiss" selected>' in form
    assert "{&quot;rounds&quot;: 3, " in form  # with the defaults the format filled in
    assert 'name="event-turn_deadline_minutes" value="20"' in form
    assert '<option value="forfeit" selected>' in form
    assert '<option value="random" selected>' in form
    for box in ("hold_rounds", "open_entry"):
        assert re.search(rf'<input type="checkbox" name="event-{box}"[^>]* checked', form)
    # Sent as it stands, it makes a second Event with the same settings.
    data = event_form(season, name="Thursday night", format="swiss",
                      format_options=json.dumps(like.format_options),
                      match_options=json.dumps(like.match_options), turn_deadline_minutes="20",
                      deadline_policy="forfeit", deadline_bot="random", hold_rounds="on",
                      open_entry="on")
    assert sam_client.post(reverse("league:event_create"), data).status_code == 302
    again = Event.objects.exclude(pk=like.pk).get(name="Thursday night")
    like.refresh_from_db()
    assert (again.format_options, again.hold_rounds, again.open_entry) == (
        like.format_options, True, True)


@pytest.mark.parametrize("like", ["999999", "x", "9" * 40, "-1"])
def test_a_like_of_no_event_of_theirs_is_the_blank_form(
        sam_client: Client, season: Season, organizer: Any, like: str) -> None:
    theirs = events.create_event(name="Not sam's", game="super_showdown", format="swiss",
                                 by=organizer)
    for asked in (like, str(theirs.pk)):
        response = sam_client.get(reverse("league:dashboard"), {"like": asked})
        assert response.status_code == 200
        assert "Not sam" not in response.content.decode()


def test_a_new_event_like_one_the_organizer_plays_in_keeps_its_decks_hidden(
        organizer: Any, player: Any, django_user_model: Any) -> None:
    """An organizer who holds an entry in a running Event does not read the decks it deals
    (as its page, the API and the admin keep them); its New Event like this form showed
    them in the match options."""
    from engine.games.supershow.cards import CATALOG

    seats = ["ox_valdane", "mira_quickstep"]
    own, lent = CATALOG.competitors[seats[0]], CATALOG.competitors[seats[1]]
    deck = [card.key for card in lent.deck[:27]] + [card.key for card in own.deck[27:]]
    league = events.create_season(name="Supershow league", game="supershow", by=organizer)
    like = events.create_event(name="Deck night", game="supershow", format="round_robin",
                               by=organizer, season=league,
                               match_options={"competitors": seats, "decks": [deck, None]})
    events.add_entrant(event=like, by=organizer, player=player.username)
    events.add_entrant(event=like, by=organizer, bot="random")
    events.start_event(event=like, by=organizer)
    league.organizers.add(player)  # made an organizer of the season since entering
    browser = Client()
    browser.force_login(player)
    page = browser.get(reverse("league:dashboard"), {"like": like.pk}).content.decode()
    form = page[page.index('id="new-event"'):page.index('id="new-showdown"')]
    assert 'value="Deck night"' in form and "ox_valdane" in form
    assert deck[0] not in form and "decks" not in form
    staff = Client()
    staff.force_login(organizer)  # who holds no entry reads them, and makes the like
    page = staff.get(reverse("league:dashboard"), {"like": like.pk}).content.decode()
    assert deck[0] in page[page.index('id="new-event"'):page.index('id="new-showdown"')]
