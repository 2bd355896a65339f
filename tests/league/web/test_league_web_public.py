"""The public league pages: seasons, a season's table, an Event, a player."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import events, formats
from league.models import Entrant, Event, EventMatch, RatingHistory, Season, Standing
from league.serializers import bracket_of
from league.services import player_for
from league.templatetags.league_extras import num
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def finish_by_forfeit(match: Match, seat: int, capture: Any) -> None:
    """End a live match: `seat` forfeits; the league hears of it after the commit."""
    with capture(execute=True):
        services.forfeit_seat(match=match, seat=seat)


def started_duel(make_event: Callable[..., Event], sam: Any) -> Event:
    """A started Event of alice against bruno: one live match."""
    event = make_event(name="Duel")
    events.add_entrant(event=event, by=sam, player="alice")
    events.add_entrant(event=event, by=sam, player="bruno")
    events.start_event(event=event, by=sam)
    return event


def test_the_seasons_list_shows_seasons_and_loose_events(
        alice_client: Client, season: Season, cup: Event, organizer: Any) -> None:
    events.create_event(name="Friday fight", game="super_showdown", format="swiss",
                        by=organizer)
    events.create_event(name="Open night", game="super_showdown", format="swiss",
                        by=organizer, open_entry=True)
    page = alice_client.get(reverse("league:seasons")).content.decode()
    assert "Spring league" in page and "1 Event" in page
    assert "Friday fight" in page and "Swiss" in page
    assert "Organizer dashboard" not in page  # alice organizes nothing
    rows = {row.split("</a>")[0].rsplit(">", 1)[-1]: row for row in page.split("<li")[1:]}
    assert "open for entry" in rows["Open night"]
    assert "open for entry" not in rows["Friday fight"]


def test_a_seasons_dates_show_whichever_are_set(alice_client: Client,
                                                organizer: Any) -> None:
    """A season's first and last days, on the list and on its page: a season that says
    only when it ends shows that too (it showed no date at all)."""
    both = events.create_season(name="Both", game="super_showdown", by=organizer,
                                starts_on=date(2027, 3, 1), ends_on=date(2027, 3, 31))
    until = events.create_season(name="Until", game="super_showdown", by=organizer,
                                 ends_on=date(2027, 6, 30))
    since = events.create_season(name="Since", game="super_showdown", by=organizer,
                                 starts_on=date(2027, 9, 1))
    listed = alice_client.get(reverse("league:seasons")).content.decode()
    rows = {row.split("</a>")[0].rsplit(">", 1)[-1]: row for row in listed.split("<li")[1:]}
    said = {both: "March 1, 2027 \N{EN DASH} March 31, 2027", until: "until June 30, 2027",
            since: "from Sept. 1, 2027"}
    for season, text in said.items():
        assert text in rows[season.name]
        page = alice_client.get(reverse("league:season", args=[season.pk])).content.decode()
        assert text in page


def test_a_draft_event_lists_its_entrants_and_does_not_poll(alice_client: Client,
                                                            cup: Event) -> None:
    page = alice_client.get(reverse("league:event", args=[cup.pk])).content.decode()
    assert "Bot 1" in page and "Bot 2" in page and "Taking entrants" in page
    assert "<svg" not in page and "hx-trigger" not in page


def test_a_running_event_draws_its_bracket_and_polls_its_results(
        alice_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    event = make_event(bots=4)
    events.start_event(event=event, by=sam)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="bracket"' in page
    assert 'hx-trigger="every 4s"' in page
    for link in EventMatch.objects.filter(event=event):
        # listed below too: Tab reaches it there
        assert f'<a href="/matches/{link.match_id}/" id="bracket-{link.pairing}" ' \
            'tabindex="-1"><g ' \
            'class="bx bx-live"' in page
    assert "Winner of Semifinal 1" in page  # the final's slots, not yet known
    version = page.split("results/?v=")[1].split("&amp;")[0]
    url = reverse("league:event_results", args=[event.pk])
    assert alice_client.get(url, {"v": version}, **HTMX).status_code == 204
    assert alice_client.get(url, {"v": "old"}, **HTMX).status_code == 200


@pytest.mark.parametrize(("format", "options", "title"), [
    ("single_elimination", {}, "Bracket"),
    ("swiss", {"rounds": 2}, "Rounds"),
    ("round_robin", {}, "Rounds"),
])
def test_the_diagram_is_called_a_bracket_only_where_the_format_has_one(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, format: str,
        options: dict[str, Any], title: str) -> None:
    """A Swiss and a round robin (and heats) were drawn under "Bracket", a word of the
    eliminations: their diagram is of rounds, and is called so, heading, region and
    drawing alike."""
    event = make_event(bots=4, format=format, format_options=options)
    events.start_event(event=event, by=sam)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert f"<h2>{title}</h2>" in page
    assert f'role="region" aria-label="{title} diagram">' in page
    assert f"<title>{title} diagram</title>" in page
    other = {"Bracket", "Rounds"} - {title}
    assert all(f"<h2>{word}</h2>" not in page for word in other)


def test_a_multistage_events_standings_name_each_entrants_group(
        alice_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    # The groups' winners rank first, then their seconds, each place by points a match:
    # group A's winner of 1 point stood above group B's second of 2, the table not saying
    # that they had played in different groups.
    event = make_event(format="multistage", bots=8,
                       format_options={"groups": 2, "playoff_size": 4})
    events.start_event(event=event, by=sam)
    event.refresh_from_db()
    done = events.replay_to_read(event)
    groups = {key: group.name for group in done.state.groups for key in group.state.entrants}
    assert sorted(set(groups.values())) == ["A", "B"]
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    table = page[page.index('<table class="standings"'):]
    table = table[:table.index("</table>")]
    named = re.findall(r'<td class="name">([^<]+) <span class="muted small">Group (\w)</span>',
                       table)
    assert len(named) == 8
    assert all(groups[key] == group for key, group in (
        (Entrant.objects.get(event=event, name=name).key, group) for name, group in named))


def test_a_multistage_event_of_one_group_names_none(
        alice_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    event = make_event(format="multistage", bots=4, format_options={"playoff_size": 2})
    events.start_event(event=event, by=sam)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    table = page[page.index('<table class="standings"'):]
    assert "Group A" not in table[:table.index("</table>")]


@pytest.mark.parametrize("fmt", ["single_elimination", "swiss"])
def test_a_withdrawals_walkover_is_not_drawn_as_playing_now(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, fmt: str) -> None:
    """A withdrawal ends the entrant's live match and the format scores it as a walkover,
    with no result recorded: its box in the diagram is over, not "Playing now" (it said so
    to the end of the Event, a Showdown series' one box too once its Event was over),
    while the other semifinal, still played, says so."""
    event = make_event(format=fmt, bots=4)
    events.start_event(event=event, by=sam)
    gone, other = EventMatch.objects.filter(event=event, round=1).order_by("pairing")
    events.withdraw_entrant(event=event, by=sam, key=gone.entrants[0])
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert f'id="bracket-{gone.pairing}" tabindex="-1"><g class="bx bx-done"' in page
    assert f'id="bracket-{other.pairing}" tabindex="-1"><g class="bx bx-live"' in page
    assert page.count(">Playing now<") == 1


def test_a_round_robins_later_pairings_a_withdrawal_left_are_not_drawn_as_waiting(
        alice_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    """A withdrawn entrant's unplayed round robin pairings are walkovers, their opponent
    winning, and no match is made for them: the diagram draws them over, as the API's
    bracket says `walkover`, where they waited for a match to the end of the Event. The
    later pairings of those still in wait for their round."""
    event = make_event(format="round_robin", bots=4)
    events.start_event(event=event, by=sam)
    events.withdraw_entrant(event=event, by=sam, key="e1")
    later = [p for p in formats.get_format(event.format).pairings(events.replay(event).state)
             if p.round > 1]
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    boxes = {pid: state for state, pid in
             re.findall(r'<g class="bx bx-(\w+)" data-pairing="([^"]+)"', page)}
    assert {p.id: boxes[p.id] for p in later} == {
        p.id: "done" if "e1" in p.slots else "waiting" for p in later}
    assert {row["pairing"]: row["walkover"] for row in bracket_of(event)
            if row["pairing"] in boxes and boxes[row["pairing"]] == "done"
            and row["round"] > 1} == {p.id: next(k for k in p.slots if k != "e1")
                                      for p in later if "e1" in p.slots}


def test_a_walkovers_winner_is_marked_in_the_diagram_as_the_standings_count_it(
        alice_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    """The format scores a withdrawn entrant's pairings as wins for the one left in them
    (the match it ended, those never made): the diagram drew those boxes over with
    nobody marked the winner, where the match list and the standings named one."""
    event = make_event(format="round_robin", bots=4)
    events.start_event(event=event, by=sam)
    events.withdraw_entrant(event=event, by=sam, key="e1")
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    theirs = [p for p in formats.get_format(event.format).pairings(events.replay(event).state)
              if "e1" in p.slots and None not in p.slots]
    assert len(theirs) == 3
    for pairing in theirs:
        box = page.split(f'data-pairing="{pairing.id}"')[1].split("</g>")[0]
        left = next(k for k in pairing.slots if k != "e1")
        assert re.findall(r'class="ln ln-entrant ln-won"[^>]*>([^<]+)<', box) == [names[left]]


def match_list(page: str) -> dict[str, tuple[list[str], list[str]]]:
    """The public page's match list: each row's pairing id to (its entrants, those won)."""
    listed = page.split('<ul class="match-list">')[1].split("</ul>")[0]
    return {row.split('<span class="muted small">')[1].split("<")[0]:
            ([name for _, name in re.findall(r'<span class="(entrant-won)?">([^<]+)', row)],
             re.findall(r'<span class="entrant-won">([^<]+)', row))
            for row in listed.split('<li class="match-row"')[1:]}


def test_a_walkover_whose_winner_withdrew_later_still_names_them(
        alice_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    """Both entrants of a round-1 match withdraw, the second after the first: the format
    keeps the walkover the first withdrawal gave the second, and the standings count it.
    The match row and the diagram read who is still in, and named nobody."""
    event = make_event(format="round_robin", bots=4)
    events.start_event(event=event, by=sam)
    link = EventMatch.objects.get(event=event, pairing="R1-1")
    first, second = link.entrants
    events.withdraw_entrant(event=event, by=sam, key=first)
    events.withdraw_entrant(event=event, by=sam, key=second)
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert match_list(page)["R1-1"] == ([names[first], names[second]], [names[second]])
    box = page.split('data-pairing="R1-1"')[1].split("</g>")[0]
    assert re.findall(r'class="ln ln-entrant ln-won[^"]*"[^>]*>([^<]+)<', box) == [names[second]]


def test_every_walkover_the_standings_count_is_in_the_match_list(
        alice_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    """A withdrawn entrant's round robin pairings no match was made for are walkovers the
    standings count, but the match list showed only the matches made: a player shown 3
    losses had 1 match listed. Each is a row naming its winner, or nobody where it is a
    loss for both (its winner-to-be left in round 1, before the round it was to win)."""
    event = make_event(format="round_robin", bots=4)
    events.start_event(event=event, by=sam)
    pairings = formats.get_format(event.format).pairings(events.replay(event).state)
    first = EventMatch.objects.get(event=event, pairing="R1-1").entrants[0]
    events.withdraw_entrant(event=event, by=sam, key=first)
    later = next(p for p in pairings if p.round == 2 and first in p.slots)
    second = next(k for k in later.entrants if k != first)  # given `later`, then leaves
    events.withdraw_entrant(event=event, by=sam, key=second)
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    rows = match_list(alice_client.get(reverse("league:event", args=[event.pk]))
                      .content.decode())
    assert rows[later.id] == ([names[k] for k in later.entrants], [])
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert "walkover: not played, a withdrawal decided it, a loss for both" in \
        page.split(f'id="event-walkover-{later.id}"')[1].split("</li>")[0]
    for key in (first, second):  # every pairing of theirs is decided
        standing = Standing.objects.get(event=event, entrant__key=key)
        theirs = [row for row in rows.values() if names[key] in row[0]]
        assert len(theirs) == standing.wins + standing.draws + standing.losses == 3
        assert sum(names[key] in won for _, won in theirs) == standing.wins


def test_a_match_rows_winner_is_said_in_words_not_only_in_bold(
        alice_client: Client, make_event: Callable[..., Event], sam: Any,
        player: Any, player2: Any, django_capture_on_commit_callbacks: Any) -> None:
    """A screen reader does not hear bold type: the winner's name carries '(won)'."""
    event = started_duel(make_event, sam)
    link = EventMatch.objects.get(event=event)
    winner = link.match.seats.get(index=0).user.get_username()
    loser = link.match.seats.get(index=1).user.get_username()
    finish_by_forfeit(link.match, 1, django_capture_on_commit_callbacks)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    row = page.split('<ul class="match-list">')[1].split("</ul>")[0]
    assert f'<span class="entrant-won">{winner}<span class="visually-hidden"> (won)</span>' \
        in row
    assert row.count("(won)") == 1 and f'<span class="">{loser}</span>' in row


def test_the_results_poll_gives_back_keyboard_focus_to_the_link_that_had_it(
        alice_client: Client, make_event: Callable[..., Event], sam: Any,
        player: Any, player2: Any, django_capture_on_commit_callbacks: Any) -> None:
    """A result swaps the Event's results in whole; htmx focuses the element with the
    focused one's id again, so each link keeps one id from poll to poll: a keyboard user
    on their match, a replay, a player or a live match's box in the diagram is not sent
    back to the top."""
    event = make_event(name="League night", format="round_robin")
    for name in ("alice", "bruno"):
        events.add_entrant(event=event, by=sam, player=name)
    events.add_entrant(event=event, by=sam, bot="random", name="Bot 1")
    events.start_event(event=event, by=sam)
    over = EventMatch.objects.filter(event=event).first()
    assert over is not None
    finish_by_forfeit(over.match, 1, django_capture_on_commit_callbacks)
    links = list(EventMatch.objects.filter(event=event))
    alices = [link for link in links if link.match.seats.filter(user=player).exists()
              and link.match.status != "finished"]
    assert alices
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    polled = alice_client.get(reverse("league:event_results", args=[event.pk]),
                              **HTMX).content.decode()
    keys = dict(Entrant.objects.filter(event=event).values_list("player_id", "key"))
    for html in (page, polled):
        for link in links:
            assert html.count(f'<a id="event-match-{link.match_id}" href=') == 1
            if link.match.status != "finished":  # its box in the diagram links to it
                assert html.count(f'id="bracket-{link.pairing}"') == 1
        assert html.count(f'id="event-match-{over.match_id}-replay"') == 1
        for link in alices:
            assert html.count(f'id="your-match-{link.match_id}"') == 1
        for who in (player, player2):
            key = keys[player_for(who).pk]
            assert html.count(f'<a id="standing-{key}" href=') == 1
        ids = re.findall(r' id="([^"]+)"', html)
        assert len(ids) == len(set(ids))


def test_a_held_round_is_said_to_wait_for_the_organizer_on_the_events_page(
        alice_client: Client, held_swiss: Event, sam: Any) -> None:
    """The diagram draws a held round's pairings; the page says they make no match yet,
    and a Swiss's may still be paired by hand."""
    url = reverse("league:event", args=[held_swiss.pk])
    page = alice_client.get(url).content.decode()
    assert ('<p class="muted" id="held-note">Round 2 waits for the organizer to release it: '
            "its pairings may still change.</p>") in page
    assert "held-note" in alice_client.get(
        reverse("league:event_results", args=[held_swiss.pk])).content.decode()
    events.release_round(event=held_swiss, by=sam)
    assert "held-note" not in alice_client.get(url).content.decode()


@pytest.mark.parametrize(("fmt", "note"), [
    ("single_elimination", "Round 2 waits for the organizer to release it."),
    # the winners' second round and the losers' first, released by one click: as the
    # bracket names them, not "Rounds 1 and 2", which are of two brackets
    ("double_elimination",
     "Winners round 2 and Losers round 1 wait for the organizer to release them.")])
def test_a_held_bracket_round_is_said_to_wait_with_no_word_of_a_change(
        alice_client: Client, make_event: Callable[..., Event],
        started_and_decided: Callable[..., None], fmt: str, note: str) -> None:
    event = make_event(format=fmt, bots=8, hold_rounds=True)
    started_and_decided(event, ["W1-1", "W1-2"])
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert f'<p class="muted" id="held-note">{note}</p>' in page


def polled_news(client: Client, page: str) -> str:
    """What the Event page's results poll tells a screen reader, asked with the poll URL
    the page (a whole page, or a poll's answer) carries."""
    url = re.search(r'hx-get="([^"]*/results/[^"]*)"', page)
    assert url is not None
    answer = client.get(url[1].replace("&amp;", "&"), **HTMX).content.decode()
    told = re.search(r'<div id="event-announce" hx-swap-oob="innerHTML">(.*?)</div>', answer,
                     re.S)
    assert told is not None
    return told[1].strip()


def test_the_results_poll_tells_a_screen_reader_what_changed_since_the_page_showed(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, outsider: Any, organizer: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """A result, the next round's matches (the reader's own said so) and the champion are
    read out once, from a live region outside the swapped results; a poll only said
    nothing, and a screen reader user had to read the page again to find what changed."""
    event = make_event(name="Swiss night", format="swiss", format_options={"rounds": 2})
    for user in (player, player2, outsider, organizer):
        events.add_entrant(event=event, by=sam, player=user.username)
    events.start_event(event=event, by=sam)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert '<div id="event-announce" class="visually-hidden" role="status" ' \
           'aria-live="polite"></div>' in page
    first, second = EventMatch.objects.filter(event=event).order_by("match_id")
    winner = first.match.seats.get(index=0).user.get_username()
    loser = first.match.seats.get(index=1).user.get_username()
    finish_by_forfeit(first.match, 1, django_capture_on_commit_callbacks)
    label = first.label or first.pairing
    assert polled_news(alice_client, page) == f"{label}, {winner} vs {loser}: {winner} won."
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    finish_by_forfeit(second.match, 1, django_capture_on_commit_callbacks)
    news = polled_news(alice_client, page)
    assert news.count("won.") == 1 and first.pairing not in news
    mine = EventMatch.objects.filter(event=event, round=2, match__seats__user=player).get()
    assert f"Your match {mine.label or mine.pairing} is ready: " in news
    assert news.count("New match ") == 1
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    for link in EventMatch.objects.filter(event=event, round=2):
        finish_by_forfeit(link.match, 1, django_capture_on_commit_callbacks)
    news = polled_news(alice_client, page)
    assert news.count("won.") == 2 and "Your match" not in news
    assert re.search(r"The Event is over\. Champion: \w+\.$", news), news


def told_each_walkover_once(event: Event, news: str) -> list[Any]:
    """The pairings of a round robin after its first round that e1's withdrawal decided,
    once it is checked that `news` reads each out once, with its winner."""
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    state = events.replay(event).state
    unmade = [p for p in formats.get_format(event.format).pairings(state)
              if "e1" in p.slots and None not in p.slots and p.round > 1]
    assert unmade
    for pairing in unmade:
        left = next(k for k in pairing.entrants if k != "e1")
        said = " vs ".join(names[k] for k in pairing.entrants)
        assert news.count(f"{pairing.label}, {said}: walkover, {names[left]} won.") == 1
    return unmade


def test_the_results_poll_tells_the_walkovers_a_withdrawal_decided_and_keeps_them(
        alice_client: Client, make_event: Callable[..., Event], sam: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """A withdrawal in a round robin decides its later pairings as walkovers no match is
    made for: the poll's answer lists them as the page does, and its live region reads each
    once (its winner, or a loss for both), where it read nothing of them; a poll from a
    copy that shows them reads the next result and them no more."""
    event = make_event(format="round_robin", bots=4)
    events.start_event(event=event, by=sam)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    events.withdraw_entrant(event=event, by=sam, key="e1")
    unmade = told_each_walkover_once(event, polled_news(alice_client, page))
    url = re.search(r'hx-get="([^"]*/results/[^"]*)"', page)
    assert url is not None
    polled = alice_client.get(url[1].replace("&amp;", "&"), **HTMX).content.decode()
    for pairing in unmade:
        assert f'id="event-walkover-{pairing.id}"' in polled
    other = EventMatch.objects.get(event=event, round=1, match__status="active")
    finish_by_forfeit(other.match, 1, django_capture_on_commit_callbacks)
    news = polled_news(alice_client, polled)
    assert f"{other.label or other.pairing}, " in news and "walkover" not in news


def test_standings_columns_are_named_in_full_for_screen_readers(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, season: Season,
        player: Any, player2: Any, django_capture_on_commit_callbacks: Any) -> None:
    """A screen reader names a cell by its column's header: 'Wins 1', not 'W 1'."""
    event = started_duel(make_event, sam)
    finish_by_forfeit(EventMatch.objects.get(event=event).match, 1,
                      django_capture_on_commit_callbacks)
    for url in (reverse("league:event", args=[event.pk]),
                reverse("league:season", args=[season.pk])):
        page = alice_client.get(url).content.decode()
        head = page.split('<table class="standings">')[1].split("</thead>")[0]
        for short, full in (("#", "Rank"), ("W", "Wins"), ("D", "Draws"), ("L", "Losses"),
                            ("Pts", "Points")):
            assert f'<span aria-hidden="true">{short}</span>' \
                   f'<span class="visually-hidden">{full}</span>' in head, (url, full)


def test_a_result_shows_in_the_bracket_standings_and_season_table(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, season: Season,
        player: Any, player2: Any, django_capture_on_commit_callbacks: Any) -> None:
    event = started_duel(make_event, sam)
    link = EventMatch.objects.get(event=event)
    finish_by_forfeit(link.match, 1, django_capture_on_commit_callbacks)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert "Champion: alice" in page
    assert 'class="standings"' in page and "every 4s" not in page
    assert f'href="{reverse("league:player", args=[player_for(player).pk])}"' in page
    table = alice_client.get(reverse("league:season", args=[season.pk])).content.decode()
    assert table.index("alice") < table.index("bruno") and "Export standings" not in table


def test_an_event_over_with_first_place_shared_says_so_rather_than_nothing(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, django_capture_on_commit_callbacks: Any) -> None:
    """A round robin whose two entrants end level on everything (its one match corrected
    to a draw) has no champion: its page said only "Finished", as if the result were
    missing; it names the entrants who share first place."""
    event = make_event(name="Duel", format="round_robin")
    events.add_entrant(event=event, by=sam, player="alice")
    events.add_entrant(event=event, by=sam, player="bruno")
    events.start_event(event=event, by=sam)
    link = EventMatch.objects.get(event=event)
    finish_by_forfeit(link.match, 1, django_capture_on_commit_callbacks)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    events.correct_result(event=event, by=sam, pairing=link.pairing,
                          placements=dict.fromkeys(link.entrants, 1))
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert "Champion" not in page
    assert "First place shared: alice and bruno" in page


def test_a_players_page_lists_each_event_once_as_their_entry_stands(
        alice_client: Client, make_event: Callable[..., Event], sam: Any,
        player: Any) -> None:
    """Entries left and made again (before the start) are rows of one Event: listed once,
    entered if the last entry stands, withdrawn if each was left."""
    again = make_event(name="Back again")
    gone = make_event(name="Left twice")
    for event, times, stays in ((again, 2, True), (gone, 2, False)):
        for _ in range(times):
            events.add_entrant(event=event, by=sam, player=player.username)
            key = Entrant.objects.filter(event=event, withdrawn=False).get().key
            events.withdraw_entrant(event=event, by=sam, key=key)
        if stays:
            events.add_entrant(event=event, by=sam, player=player.username)
    page = alice_client.get(reverse("league:player", args=[player_for(player).pk]))
    rows = re.findall(r'<li class="match-row">\s*<a href="/league/events/\d+/">([^<]+)</a>'
                      r'(.*?)</li>', page.content.decode(), re.S)
    listed = {name: "withdrawn" in rest for name, rest in rows}
    assert [name for name, _ in rows].count("Back again") == 1
    assert [name for name, _ in rows].count("Left twice") == 1
    assert listed == {"Back again": False, "Left twice": True}


def event_rows(client: Client, user: Any) -> dict[str, str]:
    """A player page's Events list: each Event's name to the words of its row."""
    page = client.get(reverse("league:player", args=[player_for(user).pk])).content.decode()
    rows = re.findall(r'<li class="match-row">\s*<a href="/league/events/\d+/">([^<]+)</a>'
                      r'(.*?)</li>', page.split('id="player-walkovers"')[0], re.S)
    return {name: " ".join(re.sub(r"<[^>]+>", " ", rest).split()) for name, rest in rows}


def test_a_players_page_says_where_they_finished_each_event_as_the_standings_do(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, django_capture_on_commit_callbacks: Any) -> None:
    """A finished Event's row said "Finished" and no more: the place the player finished
    in is beside it, of how many, the champion named so, and first place shared (a
    drawn decider) "joint 1st", with no champion, as the Event page's banner says."""
    event = make_event(name="Duel", format="round_robin")
    events.add_entrant(event=event, by=sam, player="alice")
    events.add_entrant(event=event, by=sam, player="bruno")
    events.start_event(event=event, by=sam)
    assert event_rows(alice_client, player)["Duel"] == "Running"
    link = EventMatch.objects.get(event=event)
    finish_by_forfeit(link.match, 1, django_capture_on_commit_callbacks)
    assert event_rows(alice_client, player)["Duel"] == "Finished 1st of 2: champion"
    assert event_rows(alice_client, player2)["Duel"] == "Finished 2nd of 2"
    events.correct_result(event=event, by=sam, pairing=link.pairing,
                          placements=dict.fromkeys(link.entrants, 1))
    for user in (player, player2):
        assert event_rows(alice_client, user)["Duel"] == "Finished joint 1st of 2: no champion"


def test_a_players_page_says_who_won_their_events_without_replaying_them(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The page replayed every Event that ranked the player first to tell "champion" from
    "no champion" (a replay an Event a view: a Swiss of 128 pairs seven rounds again); it
    reads the standings and the deciding result as stored, and says the same."""
    for name, drawn in (("Won", False), ("Won again", False), ("Drawn", True)):
        event = make_event(name=name, format="round_robin")
        events.add_entrant(event=event, by=sam, player="alice")
        events.add_entrant(event=event, by=sam, player="bruno")
        events.start_event(event=event, by=sam)
        link = EventMatch.objects.get(event=event)
        finish_by_forfeit(link.match, 1, django_capture_on_commit_callbacks)
        if drawn:
            events.correct_result(event=event, by=sam, pairing=link.pairing,
                                  placements=dict.fromkeys(link.entrants, 1))
    folds = []
    real = events._fold
    monkeypatch.setattr(events, "_fold", lambda *a: folds.append(a) or real(*a))
    events.clear_read_replays()
    assert event_rows(alice_client, player) == {
        "Won": "Finished 1st of 2: champion", "Won again": "Finished 1st of 2: champion",
        "Drawn": "Finished joint 1st of 2: no champion"}
    assert event_rows(alice_client, player2)["Drawn"] == "Finished joint 1st of 2: no champion"
    assert folds == []


def test_a_players_page_lists_the_events_their_team_entered(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any) -> None:
    """An Event entered by a team the player is in is one of their Events (their data
    download and the close-account check count it so): their page listed only their own
    entries, leaving out the team's night. It is listed, with the team it was entered as."""
    team = events.create_team(name="Odd Couple", members=[player.username, player2.username],
                              by=sam)
    night = make_event(name="Team night")
    events.add_entrant(event=night, by=sam, team=team.name)
    page = alice_client.get(reverse("league:player", args=[player_for(player).pk]))
    rows = re.findall(r'<li class="match-row">\s*<a href="/league/events/\d+/">([^<]+)</a>'
                      r'(.*?)</li>', page.content.decode(), re.S)
    assert [name for name, _ in rows] == ["Team night"]
    assert "with Odd Couple" in rows[0][1]


def test_a_players_page_lists_their_teams_and_whom_they_play_with(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any, django_user_model: Any) -> None:
    """A team is made by its organizers: a member saw it nowhere until it entered an
    Event, and then its name alone, not who else was in it."""
    make_event(name="Team night")  # (in a season sam organizes: he makes teams)
    django_user_model.objects.create_user(username="erin", password="x")
    events.create_team(name="Night Owls", members=["alice", "bruno", "erin"], by=sam)
    events.create_team(name="Solo", members=["alice"], by=sam)
    page = alice_client.get(reverse("league:player", args=[player_for(player).pk]))
    teams = page.content.decode().split("<h2>Teams</h2>")[1].split("</section>")[0]
    words = [" ".join(re.sub(r"<[^>]+>", " ", row).split())
             for row in re.findall(r'<li class="match-row">(.*?)</li>', teams, re.S)]
    assert words == ["Night Owls with bruno and erin", "Solo no other member"]
    assert f'href="{reverse("league:player", args=[player_for(player2).pk])}"' in teams


def test_a_players_page_lists_the_pairings_a_withdrawal_decided_for_them(
        alice_client: Client, started_with_four: Callable[..., Event], sam: Any,
        player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """alice's later round robin opponent withdraws: their pairing is alice's win by
    walkover, no match made for it, and the standings count it. Her page listed the
    matches she played alone; it lists the walkover as the Event's page does, her win
    said, with the Event it was in. It reads them as the Event's projections hold them:
    it replayed every Event of hers with a withdrawal (a replay an Event a view, kept per
    process only: a Swiss of 128 pairs seven rounds again)."""
    event = started_with_four(format="round_robin", name="League night")
    mine = Entrant.objects.get(event=event, player__user=player).key
    later = next(p for p in formats.get_format(event.format).pairings(events.replay(event).state)
                 if p.round > 1 and mine in p.slots and None not in p.slots)
    gone = next(k for k in later.entrants if k != mine)
    events.withdraw_entrant(event=event, by=sam, key=gone)
    folds = []
    real = events._fold
    monkeypatch.setattr(events, "_fold", lambda *a: folds.append(a) or real(*a))
    events.clear_read_replays()
    page = alice_client.get(reverse("league:player", args=[player_for(player).pk])).content.decode()
    row = page.split(f'id="walkover-{event.pk}-{later.id}"')[1].split("</li>")[0]
    assert f'href="/league/events/{event.pk}/">League night</a>' in row
    assert "walkover: not played, a withdrawal decided it" in row
    assert re.findall(r'<span class="entrant-won">([^<]+)', row) == ["alice"]
    assert page.count('id="walkover-') == 1  # the other pairings of the one gone are not hers
    assert folds == []


def test_swiss_standings_show_tiebreak_columns(alice_client: Client,
                                               make_event: Callable[..., Event],
                                               sam: Any) -> None:
    event = make_event(format="swiss", bots=4)
    events.start_event(event=event, by=sam)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert '<th class="tb on-ask">Buchholz</th>' in page
    assert "Round 1" in page


def test_a_player_page_has_match_history_and_a_rating_chart(
        alice_client: Client, player: Any, player2: Any,
        django_capture_on_commit_callbacks: Any, played: Any) -> None:
    for loser in (1, 0, 1):
        match = services.create_match(game="super_showdown", options={}, created_by=player,
                                      seats=[{"player": "alice"}, {"player": "bruno"}])
        services.join_match(match=match, user=player2)
        finish_by_forfeit(played(match, loser), loser, django_capture_on_commit_callbacks)
    alice = player_for(player)
    assert RatingHistory.objects.filter(player=alice).count() == 3
    page = alice_client.get(reverse("league:player", args=[alice.pk])).content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart"' in page
    assert page.count("<circle") == 3 and "3 matches" in page
    assert page.count("vs bruno") == 3
    assert page.count(">Won<") == 2 and page.count(">Lost<") == 1
    assert f'href="/matches/{match.pk}/replay/?at=0"' in page


def test_a_players_history_names_no_partner_of_their_side_as_an_opponent(
        alice_client: Client, player: Any, player2: Any) -> None:
    """A tornado tag team match: alice and bruno are one side against two bots; her
    history's row read "vs bruno, ..." as if her partner were against her."""
    match = services.create_match(game="supershow", options={"match_type": "tornado_tag_team"},
                                  created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"},
                                         {"bot": "random"}, {"bot": "random"}])
    services.join_match(match=match, user=player2)
    page = alice_client.get(reverse("league:player", args=[player_for(player).pk])).content
    against = re.findall(r'<span class="muted">vs ([^<]*)</span>', page.decode())
    assert len(against) == 1 and "bruno" not in against[0] and against[0]


def test_a_player_without_rated_matches_has_no_chart(alice_client: Client,
                                                     player2: Any) -> None:
    page = alice_client.get(reverse("league:player", args=[player_for(player2).pk]))
    assert b"No rated match yet" in page.content and b"<svg" not in page.content


def test_a_players_page_tells_the_reader_how_they_finished_against_them(
        alice_client: Client, player: Any, player2: Any, outsider: Any) -> None:
    """Only finished matches both played count, bot take-overs included; a mirror of
    the reader's own page shows nothing of the kind."""
    for loser in (1, 0, 1):
        match = services.create_match(game="super_showdown", options={}, created_by=player,
                                      seats=[{"player": "alice"}, {"player": "bruno"}])
        services.join_match(match=match, user=player2)
        if loser == 0:
            services.hand_seat_to_bot(match=match, seat=0, bot="random")
        services.forfeit_seat(match=match, seat=loser)
    three = services.create_match(game="ultimate_showdown", options={}, created_by=player, seats=[
        {"player": "alice"}, {"player": "bruno"}, {"player": "olga"}])
    for other in (player2, outsider):
        services.join_match(match=three, user=other)
    services.forfeit_seat(match=three, seat=2)  # olga last; alice and bruno share first
    live = services.create_match(game="super_showdown", options={}, created_by=player,
                                 seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=live, user=player2)
    bruno = alice_client.get(reverse("league:player", args=[player_for(player2).pk]))
    section = bruno.content.decode().split('id="meetings"')[1].split("</section>")[0]
    assert "You and bruno" in section and "4 finished matches together" in section
    assert "ahead in <strong>2</strong>, behind in <strong>1</strong>" in section
    assert "level in <strong>1</strong>" in section
    olga = alice_client.get(reverse("league:player", args=[player_for(outsider).pk]))
    assert "1 finished match together" in olga.content.decode()
    mine = alice_client.get(reverse("league:player", args=[player_for(player).pk]))
    assert b'id="meetings"' not in mine.content


def test_a_player_never_met_is_said_so(alice_client: Client, player2: Any) -> None:
    page = alice_client.get(reverse("league:player", args=[player_for(player2).pk]))
    assert b"No finished match together yet." in page.content


def test_a_running_events_page_points_the_reader_to_their_live_match(
        alice_client: Client, make_event: Callable[..., Event], sam: Any, player: Any,
        player2: Any) -> None:
    event = make_event(bots=3)
    events.add_entrant(event=event, by=sam, player="alice")
    events.start_event(event=event, by=sam)
    theirs = EventMatch.objects.get(event=event, match__seats__user=player).match
    for url in (reverse("league:event", args=[event.pk]),
                reverse("league:event_results", args=[event.pk])):
        page = alice_client.get(url, **HTMX).content.decode()
        mine = page.split('class="your-match notice"')[1].split("</p>")[0]
        assert f'href="/matches/{theirs.pk}/"' in mine and "alice" in mine
    other = Client()
    other.force_login(player2)
    assert b"your-match" not in other.get(reverse("league:event", args=[event.pk])).content
    services.forfeit_seat(match=theirs, seat=0)
    assert b"your-match" not in alice_client.get(reverse("league:event", args=[event.pk])).content


def test_a_player_a_forfeit_put_out_of_a_rumble_that_plays_on_is_not_pointed_to_it(
        alice_client: Client, sam: Any, season: Season, player: Any, player2: Any,
        outsider: Any) -> None:
    """RR-34/55: the organizer forfeits alice's seat of a four-entrant pod and the others
    play on. Her Event page no longer says "Your match" of it, as the match asks nothing
    more of her (it did, to the pod's end); bruno, still in, is pointed to it."""
    season = events.create_season(name="Rumbles", game="royal_rumble", by=season.created_by)
    season.organizers.add(sam)
    event = events.create_event(name="Rumble night", game="royal_rumble", format="heats",
                                by=sam, season=season, match_options={"round_limit": 4},
                                format_options={"pod_size": 4, "advance": 1})
    for user in (player, player2, outsider):
        events.add_entrant(event=event, by=sam, player=user.username)
    events.add_entrant(event=event, by=sam, bot="random", name="Bot 1")
    events.start_event(event=event, by=sam)
    link = EventMatch.objects.get(event=event)
    alice = next(e.key for e in Entrant.objects.filter(event=event, player__user=player))
    events.forfeit(event=event, by=sam, pairing=link.pairing, entrant=alice)
    assert Match.objects.get(pk=link.match_id).status == Match.Status.ACTIVE
    bruno = Client()
    bruno.force_login(player2)
    for url in (reverse("league:event", args=[event.pk]),
                reverse("league:event_results", args=[event.pk])):
        assert b"your-match" not in alice_client.get(url, **HTMX).content
        assert f'id="your-match-{link.match_id}"'.encode() in bruno.get(url, **HTMX).content


@pytest.mark.parametrize(("value", "shown"), [
    (3.0, "3"), (2.5, "2.5"), (1.23456, "1.23"), (-0.5, "-0.5"),
    # sums of a differential's thirds, a hair off a whole number
    (0.9999999999999998, "1"), (2.9999999999999996, "3"), (-0.001, "0"),
])
def test_a_standings_number_reads_as_people_write_it(value: float, shown: str) -> None:
    assert num(value) == shown


def test_a_drafts_entrants_are_listed_in_the_order_they_entered(
        alice_client: Client, sam_client: Client, make_event: Callable[..., Event],
        sam: Any) -> None:
    """Eleven entrants before a seeding: Bot 10 and 11 come last, not after Bot 1 (their
    keys sort as text); once seeded, in seed order."""
    event = make_event(bots=11)
    in_order = [f"Bot {i}" for i in range(1, 12)]
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert re.findall(r"<li>(Bot \d+)</li>", page) == in_order
    panel = sam_client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert re.findall(r"<td><code>(e\d+)</code></td>", panel) == [
        f"e{i}" for i in range(1, 12)]
    order = [f"e{i}" for i in range(11, 0, -1)]
    events.seed_event(event=event, by=sam, method="hand", order=order)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert re.findall(r"<li>(Bot \d+)</li>", page) == in_order[::-1]


def test_standings_sharing_a_rank_are_listed_in_seed_order(
        alice_client: Client, make_event: Callable[..., Event], sam: Any) -> None:
    """Before any result all eleven share first place, listed in seed order as the format
    ranks them (by key, e10 and e11 came second and third)."""
    event = make_event(format="round_robin", bots=11)
    order = ["e2", *(f"e{i}" for i in range(11, 2, -1)), "e1"]
    events.seed_event(event=event, by=sam, method="hand", order=order)
    events.start_event(event=event, by=sam)
    page = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    table = page[page.index('class="standings"'):]
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    shown = re.findall(r'<td class="name">(Bot \d+)', table)
    assert shown == [names[key] for key in order]


def _listed(html: str) -> set[int]:
    """The matches the Event page's Matches list names, by id."""
    return {int(found) for found in re.findall(r'id="event-match-(\d+)"', html)}


def _round_ids(event: Event, *rounds: int) -> set[int]:
    return set(EventMatch.objects.filter(event=event, round__in=rounds)
               .values_list("match_id", flat=True))


def test_a_big_events_page_lists_the_round_being_played_and_links_the_others(
        alice_client: Client, make_event: Callable[..., Event],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the size the organizer page pages at, the public page lists the matches of the
    rounds being played, as many after two rounds as after one; each other round, or
    all of them, a plain link away (no script needed), and its poll stays on the round
    asked for."""
    from league import views
    from tests.league.web.test_league_web_organizer_page import play_round

    monkeypatch.setattr(views, "PAGED_FROM", 4)  # (a field of eight: four matches a round)
    event = make_event(format="swiss", bots=8, format_options={"rounds": 3})
    events.start_event(event=event, by=event.created_by)
    url = reverse("league:event", args=[event.pk])
    assert _listed(alice_client.get(url).content.decode()) == _round_ids(event, 1)  # unpaged
    for played in (1, 2):
        play_round(event, played)
        html = alice_client.get(url).content.decode()
        assert _listed(html) == _round_ids(event, played + 1)
        assert len(_listed(html)) == 4
        links = dict(re.findall(r'<a href="([^"]+)" id="round-(\w+)"', html))
        assert links == {**{f"{url}?round={n}#event-matches": str(n)
                            for n in range(1, played + 2)},
                         f"{url}?round=all#event-matches": "all"}
    first = alice_client.get(f"{url}?round=1").content.decode()
    assert _listed(first) == _round_ids(event, 1)
    poll = re.search(r'hx-get="([^"]+)"', first.split('id="event-results"', 1)[1])
    assert poll is not None and poll.group(1).endswith("&amp;round=1")
    polled = alice_client.get(reverse("league:event_results", args=[event.pk]) + "?round=1",
                              **HTMX).content.decode()
    assert _listed(polled) == _round_ids(event, 1)
    assert _listed(alice_client.get(f"{url}?round=all").content.decode()) \
        == _round_ids(event, 1, 2, 3) and len(_round_ids(event, 1, 2, 3)) == 12


def _drawn(html: str) -> set[int]:
    """The rounds the Event page's diagram draws a box of."""
    svg = html.split('id="bracket-scroll"', 1)[1].split("</svg>", 1)[0]
    return {int(n) for n in re.findall(r">Round (\d+) board \d+<", svg)}


def test_a_big_swiss_diagram_draws_the_rounds_beside_the_one_listed(
        alice_client: Client, make_event: Callable[..., Event],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the size the page pages at, a Swiss's diagram draws the rounds the match list
    shows and the one either side, and says so; all of them with the whole list."""
    from league import views
    from tests.league.web.test_league_web_organizer_page import play_round

    monkeypatch.setattr(views, "PAGED_FROM", 4)
    event = make_event(format="swiss", bots=8, format_options={"rounds": 4})
    events.start_event(event=event, by=event.created_by)
    for played in (1, 2, 3):
        play_round(event, played)
    url = reverse("league:event", args=[event.pk])
    html = alice_client.get(url).content.decode()
    assert _drawn(html) == {3, 4} and "Rounds 3 to 4 of 4 drawn" in html
    html = alice_client.get(f"{url}?round=1").content.decode()
    assert _drawn(html) == {1, 2} and "Rounds 1 to 2 of 4 drawn" in html
    assert _drawn(alice_client.get(f"{url}?round=2").content.decode()) == {1, 2, 3}
    html = alice_client.get(f"{url}?round=all").content.decode()
    assert _drawn(html) == {1, 2, 3, 4} and " of 4 drawn" not in html


def _boxes(html: str) -> dict[str, list[str]]:
    """The Event page's diagram: each box drawn, by pairing, to the words of its lines."""
    svg = html.split('id="bracket-scroll"', 1)[1].split("</svg>", 1)[0]
    return {pid: re.findall(r'<text class="ln ln-[^"]*"[^>]*>([^<]*)', box)
            for pid, box in re.findall(r'data-pairing="([^"]+)"(.*?)</g>', svg, re.S)}


def test_a_big_brackets_diagram_draws_the_rounds_beside_the_one_listed(
        alice_client: Client, make_event: Callable[..., Event], sam: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An elimination bracket was drawn whole on a big Event's page, whichever round was
    listed: it draws the rounds the match list shows and the one either side, as a Swiss
    does, each box as the whole bracket draws it (who a walkover in a round not drawn
    sends on included); "All rounds" draws it whole up to DRAWN_WHOLE_UP_TO boxes, else
    near the rounds being played."""
    from league import views
    from matches import services as match_services
    from tests.league.web.test_league_web_organizer_page import play_round

    monkeypatch.setattr(views, "PAGED_FROM", 4)
    event = make_event(format="single_elimination", bots=16)  # (15 matches, 4 rounds)
    events.start_event(event=event, by=sam)
    # The winner of round 1's first match withdraws before round 2 is made: the walkover
    # their round 2 match is, unmade, is drawn in round 2, and the one it sends on in round 3.
    first, *others = EventMatch.objects.filter(event=event, round=1).order_by("pk")
    for link in (first, *others):
        match_services.forfeit_seat(match=link.match, seat=1)
        assert events.record_match_result(match=Match.objects.get(pk=link.match_id))
        if link == first:
            events.withdraw_entrant(event=event, by=sam, key=first.entrants[0])
    play_round(event, 2)
    url = reverse("league:event", args=[event.pk])
    monkeypatch.setattr(views, "PAGED_FROM", 100)  # (drawn whole: every box as it is)
    whole = _boxes(alice_client.get(url).content.decode())
    assert len(whole) == 15
    monkeypatch.setattr(views, "PAGED_FROM", 4)
    html = alice_client.get(url).content.decode()
    assert sorted(_boxes(html)) == ["W2-1", "W2-2", "W2-3", "W2-4", "W3-1", "W3-2", "W4-1"]
    assert "Rounds 2 to 4 of 4 drawn" in html
    assert all(whole[pid] == lines for pid, lines in _boxes(html).items())
    first = _boxes(alice_client.get(f"{url}?round=1").content.decode())
    assert {pid.partition("-")[0] for pid in first} == {"W1", "W2"}
    assert all(whole[pid] == lines for pid, lines in first.items())
    assert len(_boxes(alice_client.get(f"{url}?round=all").content.decode())) == 15
    monkeypatch.setattr(views, "DRAWN_WHOLE_UP_TO", 8)
    html = alice_client.get(f"{url}?round=all").content.decode()
    assert {pid.partition("-")[0] for pid in _boxes(html)} == {"W2", "W3", "W4"}
    assert "Rounds 2 to 4 of 4 drawn: those beside the rounds being played" in html
    assert len(_listed(html)) == 13  # (every match made is listed: 8, 3 and 2)


def test_a_big_double_eliminations_losers_final_is_drawn_with_the_finals_it_meets(
        alice_client: Client, make_event: Callable[..., Event],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rounds drawn beside those being played were chosen per stage: once only the
    losers' side plays, its last rounds were drawn without the winners' final whose loser
    its final waits for and the grand final its winner goes to. Both are drawn now."""
    from league import views
    from tests.league.web.test_league_web_organizer_page import play_links

    monkeypatch.setattr(views, "PAGED_FROM", 4)
    event = make_event(format="double_elimination", bots=16)  # (winners 4, losers 6 rounds)
    events.start_event(event=event, by=event.created_by)
    for stage, number in [*(("winners", n) for n in range(1, 5)),
                          *(("losers", n) for n in range(1, 5))]:
        play_links(EventMatch.objects.filter(event=event, stage=stage, round=number))
    playing = EventMatch.objects.filter(event=event).exclude(match__status="finished")
    assert {(link.stage, link.round) for link in playing} == {("losers", 5)}
    html = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert sorted(_boxes(html)) == ["GF", "L4-1", "L4-2", "L5-1", "L6-1", "W4-1"]
    assert "Losers&#x27; rounds 4 to 6 of 6 with the winners&#x27; final and the grand final " \
        "drawn" in html
    # Listed at an earlier round of the losers' side, the finals are not drawn.
    early = alice_client.get(reverse("league:event", args=[event.pk]) + "?round=losers-2")
    assert {pid[:2] for pid in _boxes(early.content.decode())} == {"L1", "L2", "L3"}


def test_a_big_double_eliminations_drawn_rounds_are_named_by_their_bracket(
        alice_client: Client, make_event: Callable[..., Event],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its winners' and losers' rounds, each numbered apart, were said as one run of the
    losers' count ("Rounds 1 to 4 of 6" for winners' rounds 2 to 4 and losers' rounds 1
    to 3): each bracket's are said of its own count."""
    from league import views
    from tests.league.web.test_league_web_organizer_page import play_links

    monkeypatch.setattr(views, "PAGED_FROM", 4)
    event = make_event(format="double_elimination", bots=16)  # (winners 4, losers 6 rounds)
    events.start_event(event=event, by=event.created_by)
    for stage, number in (("winners", 1), ("winners", 2), ("losers", 1)):
        play_links(EventMatch.objects.filter(event=event, stage=stage, round=number))
    playing = EventMatch.objects.filter(event=event).exclude(match__status="finished")
    assert {(link.stage, link.round) for link in playing} == {("winners", 3), ("losers", 2)}
    html = alice_client.get(reverse("league:event", args=[event.pk])).content.decode()
    assert {pid.split("-")[0] for pid in _boxes(html)} == {"W2", "W3", "W4", "L1", "L2", "L3"}
    assert "Winners&#x27; rounds 2 to 4 of 4 and losers&#x27; rounds 1 to 3 of 6 drawn" in html


def test_a_big_events_walkover_stands_on_its_rounds_page_as_its_matches_do(
        alice_client: Client, make_event: Callable[..., Event], sam: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A walkover no match was made for (a bracket's next match, its winner withdrawn) is
    listed with the matches of its round, not on every round's page."""
    from league import views
    from matches import services as match_services

    monkeypatch.setattr(views, "PAGED_FROM", 2)
    event = make_event(format="single_elimination", bots=8)
    events.start_event(event=event, by=sam)
    first, *others = EventMatch.objects.filter(event=event, round=1).order_by("pairing")
    match_services.forfeit_seat(match=first.match, seat=1)
    assert events.record_match_result(match=Match.objects.get(pk=first.match_id))
    events.withdraw_entrant(event=event, by=sam, key=first.entrants[0])
    for link in others:
        match_services.forfeit_seat(match=link.match, seat=1)
        assert events.record_match_result(match=Match.objects.get(pk=link.match_id))
    given = events.walkovers(events.replay(event))
    walkover = next(p for p in given if not EventMatch.objects.filter(
        event=event, pairing=p).exists())
    assert EventMatch.objects.filter(event=event, round=2).exists()
    url = reverse("league:event", args=[event.pk])
    row = f'id="event-walkover-{walkover}"'
    assert row in alice_client.get(url).content.decode()
    assert row in alice_client.get(f"{url}?round=2").content.decode()
    assert row not in alice_client.get(f"{url}?round=1").content.decode()
    assert row in alice_client.get(f"{url}?round=all").content.decode()


def test_a_big_events_page_tells_a_player_of_their_match_whichever_round_is_listed(
        alice_client: Client, make_event: Callable[..., Event], sam: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The notice of the reader's own live match stands on a past round's page too."""
    from league import views
    from tests.league.web.test_league_web_organizer_page import play_round

    monkeypatch.setattr(views, "PAGED_FROM", 4)
    event = make_event(format="swiss", bots=7, format_options={"rounds": 3})
    events.add_entrant(event=event, by=sam, player="alice")
    events.start_event(event=event, by=sam)
    play_round(event, 1)
    theirs = next(link for link in EventMatch.objects.filter(event=event, round=2)
                  if "e8" in link.entrants)
    html = alice_client.get(f"{reverse('league:event', args=[event.pk])}?round=1") \
        .content.decode()
    assert f'id="your-match-{theirs.match_id}"' in html
    assert theirs.match_id not in _listed(html)
