"""The Supershow's team match types in an Event: the seats the game plays as one side (a tag
team pair, a handicap pair) are entrants of their own, and win and lose together. The
pair's shared first place is a win for each of them and a loss for the one they beat, in
the standings and in the players' histories; a draw between the sides stays a draw."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league import events, history
from league.models import Entrant, Event, EventMatch, Standing
from league.services import player_for
from matches.models import Match

TAG_TEAM = {"match_type": "tag_team",
            "competitors": ["ox_valdane", "mira_quickstep", "twin_turbines"]}


def tag_team_heats(by: Any) -> Event:
    """Heats of tag team matches: a pod is one pair (seats 1 and 2) against seat 3."""
    return events.create_event(name="Tag night", game="supershow", format="heats", by=by,
                               format_options={"pod_size": 3, "min_pod_size": 3},
                               match_options=TAG_TEAM)


def drawn_pod(by: Any) -> tuple[Event, EventMatch]:
    """A tag team heats Event of three bots whose one match (a pair against one) ended in
    a draw between the sides, recorded; the Event and the match's link."""
    event = tag_team_heats(by)
    for bot in ("random", "heuristic", "random"):
        events.add_entrant(event=event, by=by, bot=bot)
    events.start_event(event=event, by=by)  # no commit: the bots wait
    link = EventMatch.objects.get(event=event)
    Match.objects.filter(pk=link.match_id).update(status=Match.Status.FINISHED, result={
        "placements": [1, 1, 1], "winners": [], "draw": True, "figures": {},
        "summary": "Time limit: a draw."})
    assert events.record_match_result(match=Match.objects.get(pk=link.match_id))
    return event, link


def standings(event: Event) -> dict[str, tuple[int, int, int, float, int]]:
    """Each entrant's wins, draws, losses, points and rank."""
    return {s.entrant.key: (s.wins, s.draws, s.losses, s.points, s.rank)
            for s in Standing.objects.filter(event=event).select_related("entrant")}


@pytest.mark.django_db(transaction=True)
def test_a_tag_teams_win_counts_a_win_for_each_of_its_entrants_in_the_standings(
        organizer: Any, seeded_chance: None) -> None:
    event = tag_team_heats(organizer)
    for bot in ("random", "heuristic", "random"):
        events.add_entrant(event=event, by=organizer, bot=bot)
    events.start_event(event=event, by=organizer)  # the bots play the final pod out

    event.refresh_from_db()
    link = EventMatch.objects.get(event=event)
    result = Match.objects.get(pk=link.match_id).result
    assert event.status == Event.Status.FINISHED and result["draw"] is False
    seated = link.seat_entrants()
    won = {seated[seat] for seat in result["winners"]}
    lost = set(seated) - won
    assert len(won) == 2 or len(lost) == 2  # a side won: the pair, or the lone seat
    rows = standings(event)
    assert {key: rows[key] for key in won} == dict.fromkeys(won, (1, 0, 0, 1.0, 1))
    assert {key: rows[key][:4] for key in lost} == dict.fromkeys(lost, (0, 0, 1, 0.0))


@pytest.mark.django_db
def test_a_draw_between_the_sides_stays_a_draw_in_the_standings(organizer: Any) -> None:
    event, _ = drawn_pod(organizer)
    rows = standings(event)
    assert {row[:3] for row in rows.values()} == {(0, 1, 0)}


@pytest.mark.django_db
def test_each_player_of_the_pair_that_won_has_a_win_in_their_history(
        organizer: Any, player: Any, player2: Any, outsider: Any) -> None:
    """The organizer forfeits the lone seat's entrant: the pair won, each of its players
    won, and the lone player lost (second of the two sides)."""
    event = tag_team_heats(organizer)
    for user in (player, player2, outsider):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    lone = link.seat_entrants()[2]
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=lone)
    events.record_match_result(match=Match.objects.get(pk=link.match_id))  # no commit hook

    match = Match.objects.prefetch_related("seats").get(pk=link.match_id)
    users = {seat.index: seat.user for seat in match.seats.all()}
    finishes = history.Finishes([match])
    assert [finishes.of(match, seat) for seat in range(3)] == [
        history.Finish(1, 2, "win"), history.Finish(1, 2, "win"), history.Finish(2, 2, "loss")]
    api = APIClient()
    api.force_authenticate(player)
    for seat, outcome in ((0, "win"), (1, "win"), (2, "loss")):
        url = f"/api/players/{player_for(users[seat]).pk}/matches/"
        assert [(r["id"], r["outcome"]) for r in api.get(url).json()["results"]] == [
            (match.pk, outcome)]
        assert [r["id"] for r in api.get(f"{url}?result={outcome}").json()["results"]] == [
            match.pk]
    page = Client()
    page.force_login(player)
    for seat, shown in ((0, "Won"), (2, "Lost")):
        html = page.get(reverse("league:player", args=[player_for(users[seat]).pk]))
        assert f'<span class="outcome outcome-{shown.lower()}">{shown}</span>' in html.text


def forfeited_pod(by: Any, users: list[Any], match_options: dict[str, Any]) -> Match:
    """A heats Event of one pod of the three `users`, the third seat's entrant forfeited by
    the organizer: the match is over, its Event's record not yet written (no commit hook
    runs the worker)."""
    event = events.create_event(name="Pod night", game="supershow", format="heats", by=by,
                                format_options={"pod_size": 3, "min_pod_size": 3},
                                match_options=match_options)
    for user in users:
        events.add_entrant(event=event, by=by, player=user.username)
    events.start_event(event=event, by=by)
    link = EventMatch.objects.get(event=event)
    events.forfeit(event=event, by=by, pairing=link.pairing, entrant=link.seat_entrants()[2])
    return Match.objects.prefetch_related("seats").get(pk=link.match_id)


@pytest.mark.django_db
@pytest.mark.parametrize(("match_options", "finishes"), [
    # The pair won: a win for each, the lone seat second of the two sides.
    (TAG_TEAM, [history.Finish(1, 2, "win")] * 2 + [history.Finish(2, 2, "loss")]),
    # Three alone: first shared by two sides is a draw, as the standings count it.
    ({**TAG_TEAM, "match_type": "triple_threat_first_fall"},
     [history.Finish(1, 3, "draw")] * 2 + [history.Finish(3, 3, "loss")]),
])
def test_a_finished_match_reads_in_the_history_as_its_event_will_record_it(
        organizer: Any, player: Any, player2: Any, outsider: Any,
        match_options: dict[str, Any], finishes: list[history.Finish]) -> None:
    """Before the worker wrote the Event's record, the history read the match's own
    result: each of two seats sharing first had won (the result is no draw), places
    counted by seats (third of three); the Event's record then said otherwise."""
    match = forfeited_pod(organizer, [player, player2, outsider], match_options)
    assert match.status == Match.Status.FINISHED
    assert [history.Finishes([match]).of(match, seat) for seat in range(3)] == finishes
    assert events.record_match_result(match=match)
    assert [history.Finishes([match]).of(match, seat) for seat in range(3)] == finishes


@pytest.mark.django_db
def test_the_events_page_names_the_pair_that_won_its_match_and_the_event(
        organizer: Any, player: Any, player2: Any, outsider: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """The row joins the pair with "and" and marks both winners, not the lone player they
    beat, and so does the bracket diagram; the results poll tells a screen reader that
    both won. The final pod decided the Event: both are its champions."""
    event = tag_team_heats(organizer)
    for user in (player, player2, outsider):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    pair = [Entrant.objects.get(event=event, key=key).name for key in link.seat_entrants()]
    client = Client()
    client.force_login(organizer)
    page = client.get(reverse("league:event", args=[event.pk])).content.decode()
    poll = re.search(r'hx-get="([^"]*/results/[^"]*)"', page)
    assert poll is not None
    with django_capture_on_commit_callbacks(execute=True):
        events.forfeit(event=event, by=organizer, pairing=link.pairing,
                       entrant=link.seat_entrants()[2])

    page = client.get(reverse("league:event", args=[event.pk])).content.decode()
    row = page[page.index(f'id="event-match-{link.match_id}"'):]
    row = row[:row.index("</li>")]
    won = '<span class="entrant-won">{}<span class="visually-hidden"> (won)</span></span>'
    assert (f'{won.format(pair[0])} <span class="muted">and</span> {won.format(pair[1])} '
            f'<span class="muted">vs</span> <span class="">{pair[2]}</span>') in row
    assert "drawn" not in row
    # The bracket diagram's pod box marks both lines of the pair, as won.
    box = page[page.index(f'data-pairing="{link.pairing}"'):]
    box = box[:box.index("</g>")]
    assert re.findall(r'class="ln ln-entrant ln-won"[^>]*>([^<]*)</text>', box) == pair[:2]
    answer = client.get(poll[1].replace("&amp;", "&"), HTTP_HX_REQUEST="true").content.decode()
    label = link.label or link.pairing
    assert (f"{label}, {pair[0]} and {pair[1]} vs {pair[2]}: {pair[0]} and {pair[1]} won."
            in answer)
    # The final pod decided the Event: the pair are its champions.
    champions = f"{pair[0]} and {pair[1]}"
    assert f"The Event is over. Champions: {champions}." in answer
    assert f'<div class="result-banner won champion-banner">Champions: {champions}</div>' \
        in page
    assert re.search(r'<text class="champ-label"[^>]*>Champions</text>'
                     rf'<text class="champ-name"[^>]*>{champions}</text>', page)
    # Their pages say so too, from the stored result (no replay); the lone player lost.
    events.clear_read_replays()
    for user in (player, player2, outsider):
        mine = Entrant.objects.get(event=event, player__user=user).name
        place = "joint 1st of 3: champions" if mine in pair[:2] else "3rd of 3"
        page = client.get(reverse("league:player", args=[player_for(user).pk])).content.decode()
        assert f"Finished {place}" in " ".join(re.sub(r"<[^>]+>", " ", page).split())


@pytest.mark.django_db
def test_the_apis_bracket_tells_the_pairs_win_from_a_draw(
        organizer: Any, player: Any, player2: Any, outsider: Any) -> None:
    """Both seats of the pair that won are placed first, as two sides sharing first place
    would be: each slot's outcome says which it was."""
    event = tag_team_heats(organizer)
    for user in (player, player2, outsider):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    pair, lone = link.seat_entrants()[:2], link.seat_entrants()[2]
    api = APIClient()
    api.force_authenticate(player)
    url = f"/api/events/{event.pk}/bracket/"

    def slots() -> dict[str, tuple[int | None, str | None]]:
        [row] = [r for r in api.get(url).json() if r["pairing"] == link.pairing]
        return {s["entrant"]: (s["place"], s["outcome"]) for s in row["slots"]}

    assert slots() == dict.fromkeys(link.seat_entrants(), (None, None))  # unplayed
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=lone)
    events.record_match_result(match=Match.objects.get(pk=link.match_id))  # no commit hook
    assert slots() == {pair[0]: (1, "win"), pair[1]: (1, "win"), lone: (3, "loss")}


@pytest.mark.django_db
def test_the_apis_bracket_says_a_first_place_shared_across_the_sides_is_a_draw(
        organizer: Any) -> None:
    event, link = drawn_pod(organizer)
    api = APIClient()
    api.force_authenticate(organizer)
    [row] = [r for r in api.get(f"/api/events/{event.pk}/bracket/").json()
             if r["pairing"] == link.pairing]
    assert [(s["place"], s["outcome"]) for s in row["slots"]] == [(1, "draw")] * 3


@pytest.mark.django_db
@pytest.mark.parametrize(("match_options", "draw", "finishes"), [
    # The pair won: a win for each, the lone seat second of the two sides (not of three).
    (TAG_TEAM, False, [history.Finish(1, 2, "win")] * 2 + [history.Finish(2, 2, "loss")]),
    # Three alone, two sharing first at the time limit: the third is third, not second.
    ({**TAG_TEAM, "match_type": "triple_threat_first_fall"}, True,
     [history.Finish(1, 3, "draw")] * 2 + [history.Finish(3, 3, "loss")]),
])
def test_a_friendly_match_places_its_seats_among_the_sides_as_an_event_would(
        match_options: dict[str, Any], draw: bool, finishes: list[history.Finish]) -> None:
    """Outside an Event the history read a seat's place as the game wrote it (The
    Supershow numbers the places after a shared first 1, 1, 2) and of every seat: the lone
    seat a pair beat read second of three, and the third of a drawn Triple Threat second."""
    match = Match.objects.create(game="supershow", options=match_options, n_seats=3,
                                 status=Match.Status.FINISHED,
                                 result={"placements": [1, 1, 2], "draw": draw,
                                         "winners": [] if draw else [0, 1]})
    finishes_now = history.Finishes([match])
    assert [finishes_now.of(match, seat) for seat in range(3)] == finishes
