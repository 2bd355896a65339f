"""Names people type (a season's, an Event's, a team's, an entrant's, a display name) come
out escaped on every page that shows them, in HTML and in the server-made SVG: markup in a
name is text, never a tag or an attribute."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import events
from league.models import Entrant, Event, EventMatch, Season, Team
from league.services import player_for
from matches import services

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
BREAKOUT = '"><img src=x onerror=alert(1)>'
HOSTILE = SCRIPT + BREAKOUT
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def hostile(organizer: Any, player: Any, player2: Any,
            django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """A season, an Event, a team, a bot entrant and alice's display name all named with
    markup; the Event started, its match finished (standings, ratings, the champion)."""
    alice = player_for(player)
    alice.display_name = f"A{HOSTILE}"
    alice.save()
    season = events.create_season(name=f"S{HOSTILE}", game="super_showdown", by=organizer)
    team = events.create_team(name=f"T{HOSTILE}", members=["alice"], by=organizer)
    event = events.create_event(name=f"E{HOSTILE}", game="super_showdown",
                                format="round_robin", season=season, by=organizer)
    events.add_entrant(event=event, by=organizer, team=team.name)
    events.add_entrant(event=event, by=organizer, player="bruno", name=f"B{HOSTILE}")
    events.add_entrant(event=event, by=organizer, bot="random", name=f"N{HOSTILE}")
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.filter(event=event, match__isnull=False).first()
    assert link is not None and link.match is not None
    with django_capture_on_commit_callbacks(execute=True):
        services.forfeit_seat(match=link.match, seat=1)
    return {"season": season, "event": event, "team": team, "alice": alice,
            "entrant": Entrant.objects.get(event=event, key="e1")}


PAGES: dict[str, Callable[[dict[str, Any]], str]] = {
    "seasons": lambda h: reverse("league:seasons"),
    "season": lambda h: reverse("league:season", args=[h["season"].pk]),
    "event": lambda h: reverse("league:event", args=[h["event"].pk]),
    "event_results": lambda h: reverse("league:event_results", args=[h["event"].pk]),
    "event_admin": lambda h: reverse("league:event_admin", args=[h["event"].pk]),
    "event_live": lambda h: reverse("league:event_live", args=[h["event"].pk]),
    "dashboard": lambda h: reverse("league:dashboard"),
    "player": lambda h: reverse("league:player", args=[h["alice"].pk]),
    "admin_seasons": lambda h: "/admin/league/season/",
    "admin_season": lambda h: f"/admin/league/season/{h['season'].pk}/change/",
    "admin_events": lambda h: "/admin/league/event/",
    "admin_event": lambda h: f"/admin/league/event/{h['event'].pk}/change/",
    "admin_teams": lambda h: "/admin/league/team/",
    "admin_team": lambda h: f"/admin/league/team/{h['team'].pk}/change/",
    "admin_entrants": lambda h: "/admin/league/entrant/",
    "admin_entrant": lambda h: f"/admin/league/entrant/{h['entrant'].pk}/change/",
    "admin_players": lambda h: "/admin/league/player/",
    "admin_standings": lambda h: "/admin/league/standing/",
    "admin_season_standings": lambda h: "/admin/league/seasonstanding/",
}


@pytest.mark.parametrize("page", sorted(PAGES))
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_name_with_markup_is_shown_escaped(hostile: dict[str, Any], django_user_model: Any,
                                             page: str, htmx: bool) -> None:
    root = django_user_model.objects.create_superuser("root", password="x-admin-pass-2")
    client = Client()
    client.force_login(root)
    response = client.get(PAGES[page](hostile), **(HTMX if htmx else {}))
    assert response.status_code == 200
    body = response.content.decode()
    assert SCRIPT not in body and BREAKOUT not in body
    assert ESCAPED in body  # the name is on the page, as text


def test_the_bracket_diagram_escapes_the_names_it_shortens(hostile: dict[str, Any],
                                                           alice_client: Client) -> None:
    """The diagram cuts a long name to fit its box: it cuts the name, then escapes it, and
    its <title> has the whole name, escaped."""
    event_page = alice_client.get(reverse("league:event", args=[hostile["event"].pk]))
    diagram = event_page.content.decode().split('<svg xmlns="http://www.w3.org/2000/svg"')[1]
    diagram = diagram.split("</svg>")[0]
    assert "N&lt;script&gt;alert(1)&lt;\u2026<title>N&lt;script&gt;alert(1)&lt;/script&gt;" in diagram
    assert "<script" not in diagram and "<img" not in diagram


def test_a_refusal_that_quotes_a_name_shows_it_escaped(hostile: dict[str, Any],
                                                       staff_client: Client) -> None:
    """The dashboard's refusals quote what was typed (a team name already taken)."""
    answer = staff_client.post(reverse("league:team_create"),
                               {"name": hostile["team"].name, "members": "alice"})
    body = answer.content.decode()
    assert Team.objects.count() == 1
    assert "already a team called" in body
    assert SCRIPT not in body and BREAKOUT not in body


def test_a_season_and_event_made_with_markup_keep_it_as_written(hostile: dict[str, Any]) -> None:
    """Escaping is the page's: the stored names are what was typed."""
    assert Season.objects.get().name == f"S{HOSTILE}"
    assert Event.objects.get().name == f"E{HOSTILE}"
