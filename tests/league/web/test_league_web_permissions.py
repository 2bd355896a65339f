"""Who may open each league page and use each organizer action: a permission table.

Anonymous visitors are sent to log in; an outsider may read the public pages but gets 403
from every organizer page and action; the season's organizer and staff may use them
(except creating a season and rebuilding the whole site's scoring, which only staff may do).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event, EventRecord, Season

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ALLOWED = "allowed"
LOGIN = "login"
FORBIDDEN = 403

# name, method, url args from (event, season), form data, htmx
ORGANIZER_ENDPOINTS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("league:dashboard", "get", "", {}),
    ("league:team_create", "get", "", {}),
    ("league:team_create", "post", "", {"name": "Reds", "members": "organizer"}),
    ("league:event_create", "post", "", {
        "event-name": "Open", "event-season": "{season}", "event-game": "super_showdown",
        "event-format": "round_robin", "event-format_options": "{}",
        "event-match_options": "{}", "event-deadline_policy": "bot",
        "event-deadline_bot": "random"}),
    ("league:event_admin", "get", "event", {}),
    ("league:entrant_add", "post", "event", {"bot": "heuristic", "name": "Extra"}),
    ("league:entrant_withdraw", "post", "event+key", {}),
    ("league:entrant_reinstate", "post", "event+key", {}),
    ("league:event_open_entry", "post", "event", {"open_entry": "on"}),
    ("league:event_settings", "post", "event", {
        "format": "swiss", "format_options": "{}", "match_options": "{}",
        "deadline_policy": "bot", "deadline_bot": "random"}),
    ("league:event_season", "post", "event", {"season": "{season}"}),
    ("league:event_seed", "post", "event", {"method": "random"}),
    ("league:event_start", "post", "event", {}),
    ("league:event_pair", "post", "event", {"pairings": "e1 e2"}),
    ("league:round_release", "post", "event", {}),
    ("league:result_correct", "post", "event", {"pairing": "W1-1", "place_e1": "1",
                                                "place_e2": "2"}),
    ("league:event_live", "get", "event", {}),
    ("league:match_forfeit", "post", "event", {"pairing": "W1-1", "entrant": "e1"}),
    ("league:match_seat_to_bot", "post", "event", {"pairing": "W1-1", "entrant": "e1"}),
    ("league:event_csv", "get", "event", {}),
    ("league:event_results_csv", "get", "event", {}),
    ("league:season_csv", "get", "season", {}),
]

EXPECTED = {"anonymous": LOGIN, "outsider": FORBIDDEN, "season_organizer": ALLOWED,
            "staff": ALLOWED}


def _url(name: str, args: str, event: Event, season: Season) -> str:
    if args == "event":
        return reverse(name, args=[event.pk])
    if args == "event+key":
        return reverse(name, args=[event.pk, "e1"])
    if args == "season":
        return reverse(name, args=[season.pk])
    if args == "job":
        return reverse(name, args=["no-such-job"])
    return reverse(name)


def _request(client: Client, method: str, url: str, data: dict[str, Any],
             season: Season) -> Any:
    data = {k: v.replace("{season}", str(season.pk)) for k, v in data.items()}
    return getattr(client, method)(url, data, **HTMX)


def _outcome(response: Any) -> str | int:
    if response.status_code == 302 and response["Location"].startswith(reverse("login")):
        return LOGIN
    if response.get("HX-Redirect", "").startswith(reverse("login")):  # htmx: the whole page
        return LOGIN
    if response.status_code == 403:
        return FORBIDDEN
    assert response.status_code in (200, 204, 302), response.status_code
    return ALLOWED


@pytest.mark.parametrize("role", list(EXPECTED))
@pytest.mark.parametrize(("name", "method", "args", "data"), ORGANIZER_ENDPOINTS,
                         ids=[f"{m} {n}" for n, m, _, _ in ORGANIZER_ENDPOINTS])
def test_who_may_use_each_organizer_page_and_action(
        as_role: Callable[[str], Client], cup: Event, season: Season, role: str,
        name: str, method: str, args: str, data: dict[str, Any]) -> None:
    records = EventRecord.objects.count()
    response = _request(as_role(role), method, _url(name, args, cup, season), data, season)
    assert _outcome(response) == EXPECTED[role]
    if EXPECTED[role] != ALLOWED:
        assert EventRecord.objects.count() == records  # a refusal writes nothing


@pytest.mark.parametrize(("role", "expected"), [
    ("anonymous", LOGIN), ("outsider", FORBIDDEN), ("season_organizer", FORBIDDEN),
    ("staff", ALLOWED)])
def test_only_staff_may_create_a_season(as_role: Callable[[str], Client], season: Season,
                                        role: str, expected: str | int) -> None:
    response = as_role(role).post(reverse("league:season_create"), {
        "season-name": "Summer", "season-game": "super_showdown",
        "season-win": "3", "season-draw": "1", "season-loss": "0"})
    assert _outcome(response) == expected
    assert Season.objects.filter(name="Summer").exists() == (expected == ALLOWED)


# A rebuild of every projection is the whole site's work: an organizer of one season
# or Event neither starts it nor watches it.
STAFF_ENDPOINTS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("league:rescore", "post", "", {}),
    ("league:rescore_progress", "get", "job", {}),
]


@pytest.mark.parametrize(("role", "expected"), [
    ("anonymous", LOGIN), ("outsider", FORBIDDEN), ("season_organizer", FORBIDDEN),
    ("staff", ALLOWED)])
@pytest.mark.parametrize(("name", "method", "args", "data"), STAFF_ENDPOINTS,
                         ids=[f"{m} {n}" for n, m, _, _ in STAFF_ENDPOINTS])
def test_only_staff_may_rebuild_the_whole_sites_scoring(
        as_role: Callable[[str], Client], cup: Event, season: Season, role: str,
        expected: str | int, name: str, method: str, args: str,
        data: dict[str, Any]) -> None:
    from django.core.cache import cache

    from league import dashboard_tasks

    cache.delete(dashboard_tasks.CURRENT)
    response = _request(as_role(role), method, _url(name, args, cup, season), data, season)
    assert _outcome(response) == expected
    if expected == FORBIDDEN:
        assert "Only staff may rebuild the whole site" in response.content.decode()
        assert cache.get(dashboard_tasks.CURRENT) is None  # nothing was queued


def test_the_scoring_card_is_shown_to_staff_alone(sam_client: Client, staff_client: Client,
                                                  season: Season) -> None:
    rescore = reverse("league:rescore")
    sam_page = sam_client.get(reverse("league:dashboard")).content.decode()
    assert "Re-run scoring" not in sam_page and rescore not in sam_page
    assert "Re-run scoring" in staff_client.get(reverse("league:dashboard")).content.decode()


PUBLIC_PAGES = ["league:seasons", "league:season", "league:event", "league:event_results",
                "league:player"]


@pytest.mark.parametrize("role", list(EXPECTED))
@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_public_pages_need_a_login_but_no_organizer_rights(
        as_role: Callable[[str], Client], cup: Event, season: Season, player: Any,
        role: str, name: str) -> None:
    from league.services import player_for

    args = {"league:season": [season.pk], "league:event": [cup.pk],
            "league:event_results": [cup.pk], "league:player": [player_for(player).pk]}
    response = as_role(role).get(reverse(name, args=args.get(name, [])))
    assert _outcome(response) == (LOGIN if role == "anonymous" else ALLOWED)


@pytest.mark.parametrize("role", list(EXPECTED))
@pytest.mark.parametrize(("name", "args"), [
    *((n, a) for n, m, a, _ in ORGANIZER_ENDPOINTS + STAFF_ENDPOINTS if m == "get"),
    *((n, "") for n in PUBLIC_PAGES)])
def test_a_head_request_is_answered_as_its_get(
        as_role: Callable[[str], Client], cup: Event, season: Season, player: Any,
        role: str, name: str, args: str) -> None:
    """HEAD is GET without the body (RFC 9110, 9.3.2): every page that answers GET
    answers it, with the same status, rather than 405."""
    from league.services import player_for

    pages = {"league:season": [season.pk], "league:event": [cup.pk],
             "league:event_results": [cup.pk], "league:player": [player_for(player).pk]}
    url = (reverse(name, args=pages[name]) if name in pages
           else _url(name, args, cup, season))
    client = as_role(role)
    got, head = client.get(url), client.head(url)
    assert head.status_code == got.status_code != 405
    assert head.get("Location") == got.get("Location") and head.content == b""


def test_an_event_organizer_of_another_season_gets_403(
        make_event: Callable[..., Any], django_user_model: Any, organizer: Any) -> None:
    """Organizing one Event gives the dashboard, not the Events of others."""
    from league import events

    mine = events.create_event(name="Mine", game="super_showdown", format="swiss",
                               by=organizer)
    other_user = django_user_model.objects.create_user(username="ed", password="x-pass-123")
    mine.organizers.add(other_user)
    theirs = make_event(name="Not yours")
    client = Client()
    client.force_login(other_user)
    assert client.get(reverse("league:dashboard")).status_code == 200
    assert client.get(reverse("league:event_admin", args=[mine.pk])).status_code == 200
    assert client.get(reverse("league:event_admin", args=[theirs.pk])).status_code == 403


def test_an_organizer_of_events_alone_makes_no_event_or_team(
        django_user_model: Any, organizer: Any) -> None:
    """Events and teams are made by staff and season organizers (as the API says with a
    403): an organizer of one Event alone is shown no form it cannot send, and a post is
    a 403 that writes nothing, not a 400 form error."""
    from league import events
    from league.models import Team

    mine = events.create_event(name="Mine", game="super_showdown", format="swiss",
                               by=organizer)
    helper = django_user_model.objects.create_user(username="ed", password="x-pass-123")
    mine.organizers.add(helper)
    client = Client()
    client.force_login(helper)
    page = client.get(reverse("league:dashboard")).content.decode()
    assert "Create Event" not in page and reverse("league:team_create") not in page
    assert "made by staff" in page
    assert client.get(reverse("league:team_create")).status_code == 403
    assert client.post(reverse("league:team_create"),
                       {"name": "Eds", "members": "ed"}).status_code == 403
    assert client.post(reverse("league:event_create"), {
        "event-name": "Second", "event-game": "super_showdown", "event-format": "swiss",
        "event-format_options": "{}", "event-match_options": "{}",
        "event-deadline_policy": "bot", "event-deadline_bot": "random"}).status_code == 403
    assert not Team.objects.exists() and list(Event.objects.all()) == [mine]
    events.create_season(name="Spring", game="super_showdown", by=organizer) \
        .organizers.add(helper)  # organizing a season, it may
    page = client.get(reverse("league:dashboard")).content.decode()
    assert "Create Event" in page and reverse("league:team_create") in page
    assert client.post(reverse("league:team_create"),
                       {"name": "Eds", "members": "ed"}).status_code == 302
