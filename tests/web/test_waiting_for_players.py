"""A match waiting for players says whom it waits for: the players invited to its seats,
by name (the invited player reads "you"), and players to take the seats open to anyone.
It said "Waiting for players to take the open seats" of a seat held for one invited
player, which nobody else may take."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.registry import get_rules
from matches import services
from tests.conftest import played_until

pytestmark = pytest.mark.django_db


def status_of(client: Client, match: Any) -> str:
    """The words of the match page's status line."""
    page = client.get(reverse("match_play", args=[match.id])).content.decode()
    line = page[page.index('id="match-status"'):]
    line = line[line.index('<p class="notice">') + len('<p class="notice">'):]
    return line[:line.index("</p>")]


def test_a_match_waiting_for_an_invited_player_names_them(
        alice_client: Client, bruno_client: Client, player: Any, player2: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username},
                                         {"player": player2.username}])
    assert status_of(alice_client, match) == "Waiting for bruno to accept the invitation."
    assert status_of(bruno_client, match) == "Waiting for you to accept the invitation."


def test_a_match_waiting_for_invited_players_and_open_seats_says_both(
        alice_client: Client, outsider_client: Client, player: Any, player2: Any,
        outsider: Any) -> None:
    both = services.create_match(game="royal_rumble", options={}, created_by=player,
                                 seats=[{"player": player.username},
                                        {"player": player2.username}, {"open": True}])
    assert status_of(alice_client, both) == ("Waiting for bruno to accept the invitation, "
                                             "and for players to take the open seats.")
    two = services.create_match(game="royal_rumble", options={}, created_by=player,
                                seats=[{"player": player.username},
                                       {"player": player2.username},
                                       {"player": outsider.username}])
    assert status_of(alice_client, two) == \
        "Waiting for bruno and olga to accept their invitations."
    assert status_of(outsider_client, two) == \
        "Waiting for bruno and you to accept their invitations."


def test_a_match_with_open_seats_alone_waits_for_players(alice_client: Client,
                                                         player: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True}])
    assert status_of(alice_client, match) == "Waiting for players to take the open seats."


def test_the_seats_a_match_waits_for_are_listed_as_a_sentence_lists_them(
        alice_client: Client, player: Any, player2: Any, outsider: Any,
        organizer: Any) -> None:
    """Ultimate Showdown's secret votes are cast by every seat at once: once alice's is
    in, her page waits for the two others, "bruno and olga" (it read "bruno olga")."""
    match = services.create_match(game="ultimate_showdown", options={}, created_by=organizer,
                                  seats=[{"player": user.username}
                                         for user in (player, player2, outsider)])
    rules = get_rules(match.game)
    played_until(match, lambda: rules.pending(services.load_state(match)).seats == (0, 1, 2))
    state = services.load_state(match)
    services.submit_action(match=match, seat=0, user=player,
                           action=rules.legal_actions(state, 0)[0])
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    waiting = page[page.index('<p class="waiting">'):]
    waiting = " ".join(waiting[:waiting.index("</p>")].split())
    assert waiting == ('<p class="waiting">Waiting for <strong>bruno</strong> and '
                       '<strong>olga</strong> …')


def test_a_super_showdown_match_waiting_for_players_says_so_not_that_it_deals(
        alice_client: Client, player: Any) -> None:
    """Its table's heading read "Dealing the cards" while nobody had taken the open seat;
    nothing is dealt before the match starts."""
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"open": True}])
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    heading = re.search(r'<span class="ss-round">(.*?)</span>', page, re.S)
    assert heading is not None and heading[1].strip() == "Waiting for players"
    assert "Dealing the cards" not in page
