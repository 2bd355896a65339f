"""The page of a match that ended off the board (a resignation, a forfeit) shows its final
position and its result, and asks nobody to act: its game's view still tells whose
decision was pending when it stopped, which nobody is to take any more."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match
from tests.conftest import played_until

pytestmark = pytest.mark.django_db

EVENT = {"event": {"matches": [{"match": "tag_team", "stipulation": "standard_1"},
                               {"match": "head_to_head", "stipulation": "hardcore"}],
                   "superstars_per_team": 2}}
# Each game, what its page showed of the decision pending when the match stopped, and
# what it shows of the final position.
GAMES = [
    pytest.param("supershow", {}, 2, ("turn:", "Turn ·"), "Crowd Meter", id="supershow"),
    pytest.param("super_showdown", {}, 2, ("First move", "Move your marker"), "Victory pile",
                 id="super_showdown"),
    pytest.param("superstar_showdown", {}, 2, ("Play three cards",), "Performance Stack",
                 id="superstar_showdown"),
    pytest.param("superstar_showdown", EVENT, 2, (" picks", "Draft:"), "Ranking Points",
                 id="superstar_showdown_event"),
    pytest.param("ultimate_showdown", {}, 3, ("Choosing the Challenge sides",), "Your hand",
                 id="ultimate_showdown"),
    pytest.param("royal_rumble", {}, 2, ("Plan", "Planning…"), "Your hand", id="royal_rumble"),
]
ASKING = ("waiting for", "has the turn", "Your turn", "to decide", "deciding", "Waiting for")
DECIDING = re.compile(r'class="[^"]*\b(deciding|next)\b')


def resigned(player: Any, player2: Any, game: str, options: dict[str, Any],
             seats: int) -> Match:
    """Alice's match of `game` with Bruno (and bots), resigned by Bruno at its start."""
    match = services.create_match(
        game=game, options=options, created_by=player,
        seats=[{"player": "alice"}, {"player": "bruno"}] + [{"bot": "random"}] * (seats - 2))
    services.join_match(match=match, user=player2)
    services.resign(match=match, user=player2)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def shown_view(page: str) -> tuple[str, str]:
    """The game's view on a page: its markup, and its text."""
    part = page[page.index('<section class="view'):]
    part = part[:part.index('<section class="log"')] if '<section class="log"' in part else part
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", part)))
    return part, text


def assert_asks_nobody(page: str, asked_then: tuple[str, ...], board: str) -> None:
    markup, text = shown_view(page)
    for words in ASKING + asked_then:
        assert words not in text, f"{words!r} in {text[:400]!r}"
    assert not DECIDING.search(markup)
    assert board in text


@pytest.mark.parametrize(("game", "options", "seats", "asked_then", "board"), GAMES)
def test_a_resigned_match_shows_its_final_position_and_asks_nobody_to_act(
        game: str, options: dict[str, Any], seats: int, asked_then: tuple[str, ...],
        board: str, player: Any, player2: Any, alice_client: Client) -> None:
    match = resigned(player, player2, game, options, seats)
    page = alice_client.get(reverse("match_play", args=[match.pk])).content.decode()
    assert "You won!" in page and "forfeited (resigned)" in page
    assert_asks_nobody(page, asked_then, board)
    last = alice_client.get(reverse("match_replay", args=[match.pk]), {"at": match.seq})
    assert_asks_nobody(last.content.decode(), asked_then, board)


def test_a_replay_shows_its_steps_before_the_last_as_they_were_played(
        player: Any, player2: Any, alice_client: Client) -> None:
    match = resigned(player, player2, "super_showdown", {}, 2)
    before = alice_client.get(reverse("match_replay", args=[match.pk]), {"at": match.seq - 1})
    assert "Round 1 · Rolling the first die" in shown_view(before.content.decode())[1]


def test_an_event_stopped_in_a_match_does_not_say_it_is_playing(
        player: Any, player2: Any, alice_client: Client) -> None:
    """Resigned once its first Match began: that Match is not "Now playing" any more."""
    match = services.create_match(game="superstar_showdown", options=EVENT, created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    played_until(match, lambda: services.match_state(
        match=match, user=None)["view"]["event"]["phase"] == "match")
    live = alice_client.get(reverse("match_play", args=[match.pk])).content.decode()
    assert "Now playing" in live
    services.resign(match=match, user=player2)
    page = alice_client.get(reverse("match_play", args=[match.pk])).content.decode()
    assert "Now playing" not in page and "Stopped by the forfeit" in page
    assert not re.search(r'class="st-match [^"]*\bnow\b', page)


def test_an_event_stopped_in_its_bonuses_does_not_ask_to_spend_the_stack(
        player: Any, player2: Any, alice_client: Client) -> None:
    """Resigned while the teams spent their Performance Stacks on Match bonuses: nobody is
    to spend them any more, so no stack has cards "left to spend"."""
    match = services.create_match(game="superstar_showdown", options=EVENT, created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    played_until(match, lambda: services.match_state(
        match=match, user=None)["view"]["event"]["phase"] == "bonus")
    live = alice_client.get(reverse("match_play", args=[match.pk])).content.decode()
    assert "left to spend" in shown_view(live)[1]
    services.resign(match=match, user=player2)
    page = alice_client.get(reverse("match_play", args=[match.pk])).content.decode()
    assert "left to spend" not in shown_view(page)[1] and "unspent" in shown_view(page)[1]
    assert_asks_nobody(page, ("bonus Ranking Point", "Buy "), "Ranking Points")
