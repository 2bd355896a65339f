"""An Event's bot entrants are named on its pages as they entered ("heuristic bot",
"heuristic bot 2"); the page of an Event's match names their seats the same way, on the
seats line, in the log, the result, the replay and the poll, so that the table and the
Event agree on who played. A match no Event made keeps "bot: heuristic".

Bot seats reply in an on_commit hook, so these tests use a transactional database."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import events
from league.models import EventMatch
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def seats_line(page: str) -> str:
    start = page.index('<p class="seats">')
    return page[start:page.index("</p>", start)]


def test_an_event_matchs_bot_seats_read_as_the_event_names_its_entrants(
        organizer: Any, player: Any, seeded_chance: None) -> None:
    """(Seeded: the bots' own Rumble may end with the last Legends falling together, no
    winner to name; these seeds play it to a winner.)"""
    event = events.create_event(name="Rumble night", game="royal_rumble",
                                format="round_robin", by=organizer)
    events.add_entrant(event=event, by=organizer, player=player.username)
    first = events.add_entrant(event=event, by=organizer, bot="heuristic")
    second = events.add_entrant(event=event, by=organizer, bot="heuristic")
    assert (first.name, second.name) == ("heuristic bot", "heuristic bot 2")
    events.start_event(event=event, by=organizer)
    browser = Client()
    browser.force_login(player)
    alice = next(key for key, e in events.replay(event).entrants.items() if e["player"])
    names = {first.key: first.name, second.key: second.name}

    def pages_of(link: EventMatch) -> list[str]:
        """The match's page, its poll and its replay, each naming its bots as the Event."""
        shown = [browser.get(reverse(view, args=[link.match_id])).content.decode()
                 for view in ("match_play", "match_state")]
        shown.append(browser.get(reverse("match_replay", args=[link.match_id]),
                                 {"at": 1}).content.decode())
        line = seats_line(shown[0])
        for key in set(link.entrants) & set(names):
            assert names[key] in line
        assert "(seat " not in line
        for page in shown:
            assert "bot: heuristic" not in page
        return shown

    while (live := EventMatch.objects.filter(event=event, match__status="active").first()):
        pages_of(live)  # alice's match with a bot, in play
        events.forfeit(event=event, by=organizer, pairing=live.pairing, entrant=alice)
        events.record_match_result(match=Match.objects.get(pk=live.match_id))
    links = list(EventMatch.objects.filter(event=event))
    assert len(links) == 3
    for link in links:
        page = pages_of(link)[0]
        summary = page[page.index('<span class="summary">'):]
        summary = summary[:summary.index("</span>")]
        if alice not in link.entrants:  # the bots' own match: its winner by its name
            assert "heuristic bot" in summary, summary


def test_a_match_no_event_made_names_its_bots_as_before(alice_client: Client,
                                                         player: Any) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "heuristic"},
                                         {"bot": "heuristic"}])
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    line = seats_line(page)
    assert "bot: heuristic (seat 2)" in line and "bot: heuristic (seat 3)" in line


def test_the_lobby_and_the_player_page_name_an_event_bot_as_the_event_does(
        organizer: Any, player: Any) -> None:
    """Alice's row of her Event match against a bot entrant read 'alice vs bot: random' in
    the lobby and 'vs bot: random' on her player page, where the match's page and the
    Event's name it 'Clank'."""
    from league.models import Player

    event = events.create_event(name="Duel night", game="super_showdown",
                                format="round_robin", by=organizer)
    events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, bot="random", name="Clank")
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    browser = Client()
    browser.force_login(player)
    lobby = browser.get(reverse("lobby")).content.decode()
    row = lobby[lobby.index(f'id="match-{link.match_id}-play"'):]
    row = row[:row.index("</li>")]
    assert "Clank" in row and "bot: random" not in row
    mine = reverse("league:player", args=[Player.objects.get(user=player).pk])
    history = browser.get(mine).content.decode()
    row = history[history.index(f'href="/matches/{link.match_id}/"'):]
    row = row[:row.index("</li>")]
    assert "vs Clank" in row and "bot: random" not in row
