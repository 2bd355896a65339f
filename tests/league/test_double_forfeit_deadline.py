"""The forfeit deadline policy when several seats are late at a decision made at once:
they forfeit together, and where nobody was on time nobody wins."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league import events, serializers
from league.models import Event, EventMatch, Rating, Season, Standing
from matches import services as match_services
from matches.models import Match

LATE = timedelta(minutes=6)


def forfeit_event(organizer: Any, players: list[Any], fmt: str, game: str = "super_showdown",
                  bots: int = 0, season: Season | None = None, **options: Any) -> Event:
    """A started Event whose turn deadline (5 minutes) forfeits the late; its people
    entered first, then `bots`."""
    event = events.create_event(name="Late night", game=game, format=fmt, by=organizer,
                                turn_deadline_minutes=5, deadline_policy="forfeit",
                                format_options=options, season=season)
    for user in players:
        events.add_entrant(event=event, by=organizer, player=user.username)
    for i in range(bots):
        events.add_entrant(event=event, by=organizer, bot="random", name=f"Bot {i + 1}")
    events.start_event(event=event, by=organizer)
    return event


def at_a_decision_made_at_once(match: Match, people: int = 2) -> None:
    """The people of `match` play their first legal action until it waits for `people` of
    them at once."""
    users = {seat.index: seat.user for seat in match.seats.all() if seat.user_id}
    for _ in range(30):
        pending = match_services.match_state(match=match, user=None)["pending"]
        waited = [seat for seat in pending["seats"] if seat in users]
        if len(waited) >= people:
            return
        seat = waited[0]
        view = match_services.match_state(match=match, user=users[seat], seat=seat)
        match_services.submit_action(match=match, seat=seat, user=users[seat],
                                     action=view["legal_actions"][0])
    raise AssertionError("the match never waited for them at once")


def forfeited_records(event: Event) -> list[dict[str, Any]]:
    return [r.payload for r in event.records.filter(kind="forfeited").order_by("seq")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["super_showdown", "superstar_showdown"])
def test_both_late_in_a_knockout_forfeit_together_and_nobody_wins(
        organizer: Any, player: Any, player2: Any, seeded_chance: Any, game: str) -> None:
    """Only the lower seat used to forfeit, and its rival, as late, won the match and the
    Event by it."""
    event = forfeit_event(organizer, [player, player2], "single_elimination", game=game)
    link = EventMatch.objects.get(event=event)
    at_a_decision_made_at_once(link.match)
    assert events.enforce_deadlines(now=timezone.now() + LATE) == 2
    [record] = forfeited_records(event)
    assert sorted(record["entrants"]) == sorted(link.entrants)
    link.match.refresh_from_db()
    result = link.match.result
    assert link.match.status == Match.Status.FINISHED
    assert (result["winners"], result["placements"], result["forfeited"]) == ([], [2, 2], [0, 1])
    assert result["summary"].endswith("both forfeited (deadline): no winner.")
    [recorded] = [r.payload for r in event.records.filter(kind="result_recorded")]
    assert recorded["placements"] == dict.fromkeys(link.entrants, 2)
    assert sorted(recorded["forfeited"]) == sorted(link.entrants)
    assert not event.records.filter(kind="match_drawn").exists()  # not a draw to replay
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = list(Standing.objects.filter(event=event))
    assert len(rows) == 2 and all(row.losses == 1 and row.wins == 0 for row in rows)
    assert not Rating.objects.exists()  # a loss for both tells nothing: unrated
    [node] = serializers.bracket_of(event)
    assert node["no_winner"] and sorted(node["forfeited"]) == sorted(link.entrants)


@pytest.mark.django_db(transaction=True)
def test_both_late_in_a_round_robin_lose_both(organizer: Any, player: Any,
                                              player2: Any) -> None:
    event = forfeit_event(organizer, [player, player2], "round_robin")
    at_a_decision_made_at_once(EventMatch.objects.get(event=event).match)
    events.enforce_deadlines(now=timezone.now() + LATE)
    rows = list(Standing.objects.filter(event=event))
    assert len(rows) == 2
    assert all((row.points, row.wins, row.draws, row.losses) == (0, 0, 0, 1) for row in rows)


@pytest.mark.django_db(transaction=True)
def test_the_late_forfeit_together_and_the_seat_on_time_wins(
        organizer: Any, player: Any, player2: Any, seeded_chance: Any) -> None:
    """An Ultimate Showdown final pod of two people and a bot: the bot decides at once,
    both people are late, both forfeit in one record, and the bot wins alone."""
    event = forfeit_event(organizer, [player, player2], "heats", game="ultimate_showdown",
                          bots=1, pod_size=3)
    link = EventMatch.objects.get(event=event)
    at_a_decision_made_at_once(link.match)
    people = [key for key in link.entrants if key != link.entrants[-1]]
    bot = link.entrants[-1]
    assert events.enforce_deadlines(now=timezone.now() + LATE) == 2
    [record] = forfeited_records(event)
    assert sorted(record["entrants"]) == sorted(people)
    [recorded] = [r.payload for r in event.records.filter(kind="result_recorded")]
    assert recorded["placements"] == {bot: 1, **dict.fromkeys(people, 2)}
    standings = {row.entrant.key: row for row in Standing.objects.filter(event=event)}
    assert standings[bot].rank == 1 and standings[bot].wins == 1


@pytest.mark.django_db(transaction=True)
def test_one_late_seat_alone_still_forfeits_alone(organizer: Any, player: Any,
                                                  player2: Any) -> None:
    event = forfeit_event(organizer, [player, player2], "single_elimination")
    link = EventMatch.objects.get(event=event)
    pending = match_services.match_state(match=link.match, user=None)["pending"]
    if len(pending["seats"]) > 1:  # one of them moves: the other alone is late
        seat = pending["seats"][0]
        user = link.match.seats.get(index=seat).user
        view = match_services.match_state(match=link.match, user=user, seat=seat)
        match_services.submit_action(match=link.match, seat=seat, user=user,
                                     action=view["legal_actions"][0])
    late = match_services.match_state(match=link.match, user=None)["pending"]["seats"]
    assert len(late) == 1
    assert events.enforce_deadlines(now=timezone.now() + LATE) == 1
    [record] = forfeited_records(event)
    assert "entrants" not in record
    link.match.refresh_from_db()
    assert link.match.result["winners"] == [1 - late[0]]
    assert "forfeited" not in link.match.result


@pytest.mark.django_db(transaction=True)
def test_the_pages_and_the_api_say_both_forfeited_and_nobody_won(
        organizer: Any, player: Any, player2: Any) -> None:
    event = forfeit_event(organizer, [player, player2], "single_elimination")
    link = EventMatch.objects.get(event=event)
    at_a_decision_made_at_once(link.match)
    events.enforce_deadlines(now=timezone.now() + LATE)
    client = Client()
    client.force_login(player)
    page = client.get(reverse("match_play", args=[link.match_id])).content.decode()
    assert "No winner." in page and "You lost." not in page
    assert "both forfeited (deadline): no winner." in page
    results = client.get(reverse("league:event_results", args=[event.pk]),
                         HTTP_HX_REQUEST="true").content.decode()
    assert "forfeited: no winner, a loss for each" in results
    assert "forfeited the deciding match (no winner, a loss for each)" in results
    assert "First place shared" not in results and "Champion" not in results
    assert "all forfeited, no winner." in results  # (the news a screen reader hears)
    state = client.get(f"/api/matches/{link.match_id}/state/")
    assert state.status_code == 200
    assert state.json()["pending"]["result"]["forfeited"] == [0, 1]
    assert state.json()["pending"]["result"]["winners"] == []
    bracket = client.get(f"/api/events/{event.pk}/bracket/")
    assert bracket.status_code == 200
    [node] = bracket.json()
    assert node["no_winner"] is True


@pytest.mark.django_db(transaction=True)
def test_a_knockout_final_both_forfeited_ranks_nobody_first_on_pages_api_and_season(
        organizer: Any, player: Any, player2: Any) -> None:
    """Both finalists were ranked 1, a shared first beside the page's 'No champion'."""
    season = events.create_season(name="Winter", game="super_showdown", by=organizer)
    event = forfeit_event(organizer, [player, player2], "single_elimination", season=season)
    link = EventMatch.objects.get(event=event)
    at_a_decision_made_at_once(link.match)
    events.enforce_deadlines(now=timezone.now() + LATE)
    assert sorted(Standing.objects.filter(event=event).values_list("rank", flat=True)) == [2, 2]
    client = Client()
    client.force_login(player)
    api = client.get(f"/api/events/{event.pk}/standings/").json()
    rows = api["results"] if isinstance(api, dict) else api
    assert [row["rank"] for row in rows] == [2, 2]
    results = client.get(reverse("league:event_results", args=[event.pk]),
                         HTTP_HX_REQUEST="true").content.decode()
    assert "No champion:" in results and "forfeited the deciding match" in results
    assert "First place shared" not in results and "Champion:" not in results
    table = client.get(f"/api/seasons/{season.pk}/standings/").json()
    table = table["results"] if isinstance(table, dict) else table
    assert sorted((row["wins"], row["losses"]) for row in table) == [(0, 1), (0, 1)]


@pytest.mark.django_db(transaction=True)
def test_a_heats_round_every_pod_of_which_all_forfeited_says_no_champion(
        organizer: Any, django_user_model: Any, seeded_chance: Any) -> None:
    """Everyone tied first and the page said 'First place shared: ...'."""
    people = [django_user_model.objects.create_user(f"late{i}", password="x") for i in range(6)]
    event = forfeit_event(organizer, people, "heats", game="ultimate_showdown", pod_size=4,
                          advance=2)
    links = list(EventMatch.objects.filter(event=event))
    assert len(links) == 2
    for link in links:
        at_a_decision_made_at_once(link.match, people=3)
    assert events.enforce_deadlines(now=timezone.now() + LATE) == 6
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert 1 not in set(Standing.objects.filter(event=event).values_list("rank", flat=True))
    client = Client()
    client.force_login(people[0])
    results = client.get(reverse("league:event_results", args=[event.pk]),
                         HTTP_HX_REQUEST="true").content.decode()
    assert "No champion:" in results and "every match of the last round played" in results
    assert all(f"late{i}" in results.split("No champion:")[1].split("</div>")[0]
               for i in range(6))
    assert "First place shared" not in results


@pytest.mark.django_db(transaction=True)
def test_a_pod_everyone_forfeited_reads_last_on_each_players_page(
        organizer: Any, django_user_model: Any, seeded_chance: Any) -> None:
    """Each read 'Place 1 of 3' there, nobody ahead of them in a match nobody won."""
    people = [django_user_model.objects.create_user(f"late{i}", password="x") for i in range(3)]
    event = forfeit_event(organizer, people, "heats", game="ultimate_showdown", pod_size=3)
    link = EventMatch.objects.get(event=event)
    at_a_decision_made_at_once(link.match, people=3)
    assert events.enforce_deadlines(now=timezone.now() + LATE) == 3
    client = Client()
    client.force_login(people[0])
    for user in people:
        page = client.get(reverse("league:player", args=[user.player.pk])).content.decode()
        assert "Place 3 of 3" in page and "Place 1 of 3" not in page


@pytest.mark.django_db(transaction=True)
def test_a_knockout_whose_semifinals_all_forfeited_says_no_champion(
        organizer: Any, django_user_model: Any) -> None:
    """Nobody reached the final: the four shared first, and the page said 'First place
    shared', the diagram's final waiting for the semifinals' winners."""
    people = [django_user_model.objects.create_user(f"late{i}", password="x") for i in range(4)]
    event = forfeit_event(organizer, people, "single_elimination")
    for link in EventMatch.objects.filter(event=event):
        at_a_decision_made_at_once(link.match)
    assert events.enforce_deadlines(now=timezone.now() + LATE) == 4
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert set(Standing.objects.filter(event=event).values_list("rank", flat=True)) == {2}
    client = Client()
    client.force_login(people[0])
    results = client.get(reverse("league:event_results", args=[event.pk]),
                         HTTP_HX_REQUEST="true").content.decode()
    assert "No champion:" in results and "every match of the last round played" in results
    assert "First place shared" not in results and "Winner of" not in results


def knockout_of_four_with_third_place(organizer: Any, people: list[Any]) -> Event:
    """A finished knockout of four with a third-place match, each match won by the better
    seed by the other's forfeit: semifinals, then the final, then the third-place match."""
    event = forfeit_event(organizer, people, "single_elimination", third_place=True)
    for pairing in ("W1-1", "W1-2", "W2-1", "3P"):
        link = EventMatch.objects.get(event=event, pairing=pairing)
        loser = max(link.entrants, key=lambda key: event.entrants.get(key=key).seed)
        events.forfeit(event=event, by=organizer, pairing=pairing, entrant=loser)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    return event


def ranked(client: Client, event: Event) -> dict[str, int]:
    api = client.get(f"/api/events/{event.pk}/standings/").json()
    return {row["name"]: row["rank"] for row in (api["results"] if isinstance(api, dict)
                                                else api)}


@pytest.mark.django_db(transaction=True)
def test_a_third_place_match_nobody_won_leaves_third_empty_on_pages_api_and_csv(
        organizer: Any, django_user_model: Any) -> None:
    """Both ranked third, a third place shared that nobody won: they rank fourth now."""
    people = [django_user_model.objects.create_user(f"p{i}", password="x") for i in range(4)]
    event = knockout_of_four_with_third_place(organizer, people)
    third = EventMatch.objects.get(event=event, pairing="3P")
    placed = events.correct_result(event=event, by=organizer, pairing="3P",
                                   placements=dict.fromkeys(third.entrants, 2))
    assert placed == dict.fromkeys(third.entrants, 2)  # all last: nobody won, not a draw
    client = Client()
    client.force_login(organizer)
    ranks = ranked(client, event)
    assert sorted(ranks.values()) == [1, 2, 4, 4]
    assert {name for name, rank in ranks.items() if rank == 4} == {
        event.entrants.get(key=key).name for key in third.entrants}
    csv_rows = client.get(reverse("league:event_csv", args=[event.pk])).content.decode()
    assert sorted(line.split(",")[0] for line in csv_rows.splitlines()[1:]) == [
        "1", "2", "4", "4"]
    results = client.get(reverse("league:event_results", args=[event.pk]),
                         HTTP_HX_REQUEST="true").content.decode()
    assert "Champion: p0" in results and "No champion" not in results
    assert "<td>3</td>" not in results and results.count("<td>4</td>") == 2


@pytest.mark.django_db(transaction=True)
def test_a_final_nobody_won_says_no_champion_with_the_third_place_match_played_after_it(
        organizer: Any, django_user_model: Any) -> None:
    """The page read the last result recorded, the third-place match's, which had a
    winner: no banner at all (nor a first place); with both nobody's, it named the
    third-place match's two as having forfeited the deciding match."""
    people = [django_user_model.objects.create_user(f"p{i}", password="x") for i in range(4)]
    event = knockout_of_four_with_third_place(organizer, people)
    final = EventMatch.objects.get(event=event, pairing="W2-1")
    events.correct_result(event=event, by=organizer, pairing="W2-1",
                          placements=dict.fromkeys(final.entrants, 2))
    client = Client()
    client.force_login(organizer)
    assert sorted(ranked(client, event).values()) == [2, 2, 4, 5]
    results = client.get(reverse("league:event_results", args=[event.pk]),
                         HTTP_HX_REQUEST="true").content.decode()
    assert "No champion: p0 and p1 forfeited the deciding match" in results
    third = EventMatch.objects.get(event=event, pairing="3P")
    events.correct_result(event=event, by=organizer, pairing="3P",
                          placements=dict.fromkeys(third.entrants, 2))
    assert sorted(ranked(client, event).values()) == [2, 2, 5, 5]
    results = client.get(reverse("league:event_results", args=[event.pk]),
                         HTTP_HX_REQUEST="true").content.decode()
    assert "No champion: p0 and p1 forfeited the deciding match" in results


@pytest.mark.django_db(transaction=True)
def test_a_correction_placing_everyone_last_is_no_winner_and_says_so(
        organizer: Any, player: Any, player2: Any) -> None:
    """Everyone placed last was made everyone first, a draw, and said only 'Result
    corrected.'; it is no winner, a loss for each, and the answer says so."""
    event = forfeit_event(organizer, [player, player2], "round_robin")
    link = EventMatch.objects.get(event=event)
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=link.entrants[1])
    client = Client()
    client.force_login(organizer)
    event.refresh_from_db()
    answer = client.post(f"/api/events/{event.pk}/corrections/", {
        "pairing": link.pairing, "placements": dict.fromkeys(link.entrants, 2)},
        content_type="application/json")
    assert answer.status_code == 200, answer.content
    rows = list(Standing.objects.filter(event=event))
    assert all((row.points, row.wins, row.draws, row.losses) == (0, 0, 0, 1) for row in rows)
    [node] = client.get(f"/api/events/{event.pk}/bracket/").json()
    assert node["no_winner"] is True
    # Back to a win, then all last again from the organizer page's form.
    events.correct_result(event=event, by=organizer, pairing=link.pairing,
                          placements={link.entrants[0]: 1, link.entrants[1]: 2})
    event.refresh_from_db()
    page = client.post(reverse("league:result_correct", args=[event.pk]), {
        "pairing": link.pairing, "seq": event.seq,
        **{f"place_{key}": 2 for key in link.entrants}}, HTTP_HX_REQUEST="true")
    said = page.content.decode()
    assert page.status_code == 200
    assert "everyone placed last, so nobody won it, a loss for each" in said
    assert all(row.losses == 1 and row.draws == 0
               for row in Standing.objects.filter(event=event))
    panel = client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert "Everyone placed last records no winner, a loss for each" in panel
    assert f"2. {player.username}, 2. {player2.username}: all last, no winner)" in panel \
        or f"2. {player2.username}, 2. {player.username}: all last, no winner)" in panel


@pytest.mark.django_db(transaction=True)
def test_a_round_robin_nobody_won_a_match_of_says_no_champion(
        organizer: Any, django_user_model: Any) -> None:
    """Everyone level on no points read 'First place shared: ...' (ranked first by
    nothing), where nobody won a match."""
    people = [django_user_model.objects.create_user(f"p{i}", password="x") for i in range(3)]
    event = forfeit_event(organizer, people, "round_robin")
    while (link := EventMatch.objects.filter(event=event).exclude(
            match__status=Match.Status.FINISHED).first()) is not None:
        events.forfeit(event=event, by=organizer, pairing=link.pairing,
                       entrant=link.entrants[0])
        events.correct_result(event=event, by=organizer, pairing=link.pairing,
                              placements=dict.fromkeys(link.entrants, 2))
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert EventMatch.objects.filter(event=event).count() == 3
    client = Client()
    client.force_login(people[0])
    assert sorted(ranked(client, event).values()) == [2, 2, 2]
    results = client.get(reverse("league:event_results", args=[event.pk]),
                         HTTP_HX_REQUEST="true").content.decode()
    assert "No champion: p0, p1 and p2 forfeited every match" in results
    assert "First place shared" not in results and "Champion:" not in results
