"""An Event's match results as its organizers download them, and a season's table telling
a player, a team and a bot apart."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from league import events
from league.models import Event, EventMatch, Season, Team
from league.services import player_for
from matches.models import Match
from tests.conftest import played_until

pytestmark = pytest.mark.django_db

HEADER = ["stage", "round", "pairing", "label", "entrants", "places", "winner", "note",
          "match", "link", "finished"]


def results(client: Client, event: Event) -> list[dict[str, str]]:
    response = client.get(reverse("league:event_results_csv", args=[event.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == \
        f'attachment; filename="event-{event.pk}-results.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == HEADER
    return [dict(zip(HEADER, row, strict=True)) for row in rows[1:]]


@pytest.fixture
def three(make_event: Callable[..., Event], sam: Any, player: Any, player2: Any) -> Event:
    """A started round robin of alice (e1), bruno (e2) and a bot named like a formula (e3):
    one match a round, and a bye."""
    event = make_event(format="round_robin", name="Three")
    events.add_entrant(event=event, by=sam, player="alice")
    events.add_entrant(event=event, by=sam, player="bruno")
    events.add_entrant(event=event, by=sam, bot="random", name="=HYPERLINK(1)")
    events.start_event(event=event, by=sam)
    event.refresh_from_db()
    return event


def test_the_results_csv_lists_each_pairing_in_the_events_order(
        sam_client: Client, sam: Any, three: Event,
        django_capture_on_commit_callbacks: Any) -> None:
    first = EventMatch.objects.get(event=three)
    with django_capture_on_commit_callbacks(execute=True):
        played_until(first.match, lambda: Match.objects.get(pk=first.match_id).status
                     == Match.Status.FINISHED)
    # alice withdraws: the live round 2 match is a walkover, and so is round 3's, unmade
    with django_capture_on_commit_callbacks(execute=True):
        events.withdraw_entrant(event=three, by=sam, key="e1")
    second = EventMatch.objects.get(event=three, round=2)
    second.match.refresh_from_db()
    rows = results(sam_client, three)

    assert [(r["round"], r["pairing"], r["label"], r["entrants"]) for r in rows] == [
        ("1", "R1-1", "Round 1 match 1", "bruno vs =HYPERLINK(1)"),
        ("1", "R1-bye", "Round 1 bye", "alice"),
        ("2", "R2-1", "Round 2 match 1", "'=HYPERLINK(1) vs alice"),
        ("2", "R2-bye", "Round 2 bye", "bruno"),
        ("3", "R3-1", "Round 3 match 1", "alice vs bruno"),
        ("3", "R3-bye", "Round 3 bye", "'=HYPERLINK(1)"),
    ]
    played = rows[0]
    places = dict(cell.split(": ") for cell in played["places"].split("; "))
    assert sorted(places.values()) == ["1", "2"]
    winner = next(name for name, place in places.items() if place == "1")
    assert played["winner"] in (winner, f"'{winner}") and played["note"] == ""
    assert played["match"] == str(first.match_id)
    assert played["link"] == f"http://testserver/matches/{first.match_id}/"
    assert played["finished"].startswith(str(first.match.created_at.year))
    assert rows[2] | {"finished": ""} == {
        "stage": "round_robin", "round": "2", "pairing": "R2-1", "label": "Round 2 match 1",
        "entrants": "'=HYPERLINK(1) vs alice", "places": "'=HYPERLINK(1): 1; alice: 2",
        "winner": "'=HYPERLINK(1)", "note": "walkover: alice withdrew",
        "match": str(second.match_id), "link": f"http://testserver/matches/{second.match_id}/",
        "finished": ""}
    assert rows[2]["finished"] == second.match.finished_at.isoformat()
    assert rows[4] == {
        "stage": "round_robin", "round": "3", "pairing": "R3-1", "label": "Round 3 match 1",
        "entrants": "alice vs bruno", "places": "", "winner": "bruno",
        "note": "walkover: alice withdrew", "match": "", "link": "", "finished": ""}
    assert [(r["winner"], r["note"]) for r in rows[1::2]] == [
        ("alice", "bye"), ("bruno", "bye"), ("'=HYPERLINK(1)", "bye")]


def test_a_live_match_shows_no_result_and_a_later_rounds_bye_waits(
        sam_client: Client, three: Event) -> None:
    link = EventMatch.objects.get(event=three)
    rows = results(sam_client, three)
    assert rows == [
        {"stage": "round_robin", "round": "1", "pairing": "R1-1", "label": "Round 1 match 1",
         "entrants": "bruno vs =HYPERLINK(1)", "places": "", "winner": "", "note": "live",
         "match": str(link.match_id), "link": f"http://testserver/matches/{link.match_id}/",
         "finished": ""},
        {"stage": "round_robin", "round": "1", "pairing": "R1-bye", "label": "Round 1 bye",
         "entrants": "alice", "places": "", "winner": "alice", "note": "bye", "match": "",
         "link": "", "finished": ""},
    ]


def test_a_match_saved_again_after_it_ended_reads_the_time_it_ended(
        sam_client: Client, sam: Any, duel: Event,
        django_capture_on_commit_callbacks: Any) -> None:
    """The row's `finished` was the match row's last save: a save after the end (the
    admin's change form saves the whole row) moved it on."""
    link = EventMatch.objects.get(event=duel)
    with django_capture_on_commit_callbacks(execute=True):
        events.forfeit(event=duel, by=sam, pairing=link.pairing, entrant="e2")
    match = Match.objects.get(pk=link.match_id)
    ended = match.finished_at
    assert ended is not None
    match.save()
    match.refresh_from_db()
    assert match.updated_at > ended and match.finished_at == ended
    [row] = results(sam_client, duel)
    assert row["finished"] == ended.isoformat()


def test_a_round_of_byes_alone_lists_its_bye(sam_client: Client, sam: Any,
                                             make_event: Callable[..., Event]) -> None:
    """Three in a double elimination: the one first-round loser drops into a losers' round
    that is a bye alone, no match of it ever made, where a bye was listed once a match of
    its round was: it is listed once its slots are known, as another round's bye is."""
    event = make_event(format="double_elimination", bots=3)
    events.start_event(event=event, by=sam)
    assert "L1-1" not in [r["pairing"] for r in results(sam_client, event)]
    events.forfeit(event=event, by=sam, pairing="W1-2", entrant="e3")
    events.record_match_result(match=EventMatch.objects.get(event=event, pairing="W1-2").match)
    rows = results(sam_client, event)
    assert [(r["stage"], r["round"], r["pairing"], r["note"]) for r in rows] == [
        ("winners", "1", "W1-1", "bye"), ("winners", "1", "W1-2", "forfeit: Bot 3"),
        ("winners", "2", "W2-1", "live"), ("losers", "1", "L1-1", "bye")]
    assert (rows[-1]["entrants"], rows[-1]["winner"]) == ("Bot 3", "Bot 3")


def test_a_forfeit_is_noted(sam_client: Client, duel: Event,
                            django_capture_on_commit_callbacks: Any) -> None:
    link = EventMatch.objects.get(event=duel)
    with django_capture_on_commit_callbacks(execute=True):
        sam_client.post(reverse("league:match_forfeit", args=[duel.pk]),
                        {"pairing": link.pairing, "entrant": "e2"}, HTTP_HX_REQUEST="true")
    [row] = results(sam_client, duel)
    assert (row["entrants"], row["places"], row["winner"], row["note"]) == (
        "alice vs bruno", "alice: 1; bruno: 2", "alice", "forfeit: bruno")


def test_a_finished_match_whose_result_is_not_recorded_yet_says_so(
        sam_client: Client, sam: Any, duel: Event,
        django_capture_on_commit_callbacks: Any) -> None:
    # The match is over but its result task has not run (a worker busy or down: the sweep
    # of missed results records it): the row read as a finished match nobody won, with no
    # places and no note.
    link = EventMatch.objects.get(event=duel)
    with django_capture_on_commit_callbacks(execute=False):
        events.forfeit(event=duel, by=sam, pairing=link.pairing, entrant="e2")
    assert Match.objects.get(pk=link.match_id).status == Match.Status.FINISHED
    [row] = results(sam_client, duel)
    assert (row["places"], row["winner"], row["note"]) == (
        "", "", "finished, result not recorded yet")
    events.sweep_results()
    [row] = results(sam_client, duel)
    assert (row["winner"], row["note"]) == ("alice", "forfeit: bruno")


def test_a_draft_event_has_no_results(sam_client: Client, cup: Event) -> None:
    assert results(sam_client, cup) == []


def test_a_player_of_the_event_may_not_download_its_results(
        alice_client: Client, duel: Event) -> None:
    response = alice_client.get(reverse("league:event_results_csv", args=[duel.pk]))
    assert response.status_code == 403


def test_the_organizer_page_links_the_results_csv(sam_client: Client, duel: Event) -> None:
    page = sam_client.get(reverse("league:event_admin", args=[duel.pk])).content.decode()
    assert f'href="{reverse("league:event_results_csv", args=[duel.pk])}"' in page


# -- the season's table ------------------------------------------------------------------

def test_the_season_csv_tells_a_player_a_team_and_a_bot_of_one_name_apart(
        sam_client: Client, sam: Any, season: Season, player: Any, player2: Any,
        make_event: Callable[..., Event], django_capture_on_commit_callbacks: Any) -> None:
    event = make_event(format="round_robin", name="Alike")
    name = events.add_entrant(event=event, by=sam, player="alice").name
    team = Team.objects.create(name=name)
    team.members.add(player_for(player2))
    events.add_entrant(event=event, by=sam, team=name)
    events.add_entrant(event=event, by=sam, bot="random", name=name)
    events.start_event(event=event, by=sam)
    link = EventMatch.objects.get(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        events.forfeit(event=event, by=sam, pairing=link.pairing, entrant=link.entrants[1])
    response = sam_client.get(reverse("league:season_csv", args=[season.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["rank", "name", "events", "points", "wins", "draws", "losses",
                       "kind", "id", "event"]
    assert {r[1] for r in rows[1:]} == {name}
    assert sorted((r[7], r[8], r[9]) for r in rows[1:]) == [
        ("bot", "", "Alike"), ("player", str(player_for(player).pk), ""),
        ("team", str(team.pk), "")]


def test_the_season_table_names_each_bots_event(
        sam_client: Client, sam: Any, season: Season, player: Any,
        make_event: Callable[..., Event], django_capture_on_commit_callbacks: Any) -> None:
    """Two Events' bots both called "Random" are two rows below the people: the page, the
    CSV and the API name the Event each filled a seat of, where each read "Random" alone."""
    made = []
    for name in ("Spring Open", "Summer Cup"):
        event = make_event(format="round_robin", name=name)
        events.add_entrant(event=event, by=sam, player="alice")
        events.add_entrant(event=event, by=sam, bot="random", name="Random")
        events.start_event(event=event, by=sam)
        link = EventMatch.objects.get(event=event)
        with django_capture_on_commit_callbacks(execute=True):
            events.forfeit(event=event, by=sam, pairing=link.pairing, entrant="e1")
        made.append(event)
    response = sam_client.get(reverse("league:season_csv", args=[season.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert sorted((r[1], r[7], r[9]) for r in rows[1:]) == [
        ("Random", "bot", "Spring Open"), ("Random", "bot", "Summer Cup"),
        ("alice", "player", "")]
    page = sam_client.get(reverse("league:season", args=[season.pk])).content.decode()
    for event in made:
        assert (f'Random <span class="muted">(<a href="{reverse("league:event", args=[event.pk])}">'
                f'{event.name}</a>)</span>') in page
    table = sam_client.get(f"/api/seasons/{season.pk}/standings/").json()
    assert sorted((r["name"], r["event"]) for r in table) == [
        ("Random", made[0].pk), ("Random", made[1].pk), ("alice", None)]


def test_a_brackets_bye_is_a_row_of_its_round(sam_client: Client, sam: Any,
                                               make_event: Callable[..., Event]) -> None:
    event = make_event(bots=3)
    events.start_event(event=event, by=sam)
    rows = results(sam_client, event)
    assert [(r["stage"], r["round"], r["pairing"], r["note"]) for r in rows] == [
        ("bracket", "1", "W1-1", "bye"), ("bracket", "1", "W1-2", "live")]
    [bye] = [r for r in rows if r["note"] == "bye"]
    assert bye["entrants"] == bye["winner"] == "Bot 1"  # the top seed
    assert bye["match"] == bye["places"] == ""


def test_a_losers_round_of_byes_alone_is_listed_once_the_bracket_went_past_it(
        sam_client: Client, sam: Any, make_event: Callable[..., Event],
        django_capture_on_commit_callbacks: Any) -> None:
    # Six in a bracket of eight: the top two seeds' first matches are byes, so each of the
    # losers' first-round pairings holds one first-round loser and nobody else. No match is
    # ever made in that round, and its byes were never listed, the Event over or not.
    event = make_event(format="double_elimination")
    for n in range(6):
        User.objects.create_user(f"p{n}", password="x")
        events.add_entrant(event=event, by=sam, player=f"p{n}")
    events.start_event(event=event, by=sam)
    # each live match is forfeited by its second entrant until the losers' second round
    while not EventMatch.objects.filter(event=event, pairing__startswith="L2").exists():
        link = EventMatch.objects.filter(event=event,
                                         match__status=Match.Status.ACTIVE).first()
        assert link is not None
        with django_capture_on_commit_callbacks(execute=True):
            events.forfeit(event=event, by=sam, pairing=link.pairing, entrant=link.entrants[1])
    rows = results(sam_client, event)
    assert [(r["pairing"], r["note"]) for r in rows if r["stage"] == "losers"
            and r["round"] == "1"] == [("L1-1", "bye"), ("L1-2", "bye")]
    # the bye's entrant is the first round's loser, who goes on to the second
    byes = [r["entrants"] for r in rows if r["pairing"] in ("L1-1", "L1-2")]
    losers = [r["places"].split("; ")[1].split(":")[0] for r in rows
              if r["pairing"] in ("W1-2", "W1-4")]
    assert byes == losers
