"""The lobby in headless Chromium (tests/chromium.py), as a keyboard user follows it: focus
on a match's link, which the lobby's poll takes away once the match ended, goes on to the
Your matches card; it fell to the page's top. A refused New match form comes back with
focus on the field at fault. Skipped where no Chromium is installed."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from matches import services
from matches.models import Match
from tests.chromium import CHROMIUM, signed_in
from tests.conftest import accepted

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed"),
              pytest.mark.django_db(transaction=True)]


def test_focus_on_a_match_the_poll_takes_away_goes_to_the_your_matches_card(
        live_server: Any, player: Any, player2: Any) -> None:
    match = accepted(services.create_match(game="super_showdown", options={},
                                           created_by=player,
                                           seats=[{"player": player.username},
                                                  {"player": player2.username}]))
    with signed_in(live_server.url, player) as tab:
        tab.open(live_server.url + reverse("lobby"))
        tab.js(f"document.getElementById('match-{match.id}-play').focus(); true")
        services.resign(match=match, user=player2)
        tab.until(f"document.getElementById('match-{match.id}-play') === null", 12)
        tab.until("document.activeElement.matches('#your-matches h2')", 3)


@pytest.mark.parametrize(("options", "field"), [('{"best_of": 2', "id_options"),
                                                ('{"best_of": 2}', "id_options")])
def test_a_refused_create_comes_back_with_focus_on_the_field_to_mend(
        live_server: Any, player: Any, options: str, field: str) -> None:
    """Sent by keyboard, a create the form refuses (unreadable options) or the service
    refuses (an option the game has not) comes back with focus on the field at fault, so
    a screen reader reads its name, that it is invalid and the reason beside it; focus
    was on the page's body, and nothing was read out."""
    with signed_in(live_server.url, player) as tab:
        tab.open(live_server.url + reverse("lobby"))
        tab.send("(() => { const form = document.getElementById('id_options').form;"
                 " form.game.value = 'super_showdown'; form.opponent.value = 'bot:random';"
                 f" form.options.value = {options!r}; form.submit(); }})()")
        assert tab.js("document.activeElement.id") == field
        described = tab.js("document.activeElement.getAttribute('aria-describedby')")
        assert f"{field}_error" in described.split()


def test_picking_a_game_of_three_seats_or_more_brings_the_seat_count_into_its_range(
        live_server: Any, player: Any) -> None:
    """The New match form's seat count stayed at the two it starts at when the player
    picked Ultimate Showdown (3-8 seats): Create match was refused (bad_seat_count). Now
    the count follows the game picked, into its range, and the match is made."""
    with signed_in(live_server.url, player) as tab:
        tab.open(live_server.url + reverse("lobby"))
        pick = ("(game => { const select = document.getElementById('id_game');"
                " select.value = game; select.dispatchEvent(new Event('change',"
                " {bubbles: true})); const seats = select.form.seats;"
                " return [seats.value, seats.min, seats.max]; })")
        assert tab.js(pick + "('ultimate_showdown')") == ["3", "3", "8"]
        assert tab.js(pick + "('super_showdown')") == ["2", "2", "2"]
        tab.js("document.getElementById('id_seats').value = '5'; true")
        assert tab.js(pick + "('royal_rumble')") == ["5", "2", "10"]
        tab.js(pick + "('ultimate_showdown')")
        tab.send("document.getElementById('id_game').form.requestSubmit()")
        assert tab.js("location.pathname").startswith("/matches/")
        match = Match.objects.get(seats__user=player)
        assert (match.game, match.seats.count()) == ("ultimate_showdown", 5)
