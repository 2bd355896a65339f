"""A seat awaited past its Event's turn deadline goes to the Event's policy: the player it
awaits, and the others at the table, see when and what, in the match's state (API) and on
its play page, at the very time the deadline sweep acts."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league import events
from league.models import Event, EventMatch
from matches import services as match_services
from matches.models import Match


def deadline_match(organizer: Any, player: Any, player2: Any, **options: Any) -> Match:
    """The one match of a two-player knockout that sets `options` (a deadline, a policy)."""
    event = events.create_event(name="Late night", game="super_showdown",
                                format="single_elimination", by=organizer, **options)
    events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, player=player2.username)
    events.start_event(event=event, by=organizer)
    return EventMatch.objects.get(event=event).match


def awaited(match: Match, *users: Any) -> tuple[Any, Any]:
    """Of `users`, the one the match waits for and the other."""
    seats = match_services.match_state(match=match, user=None)["pending"]["seats"]
    first, second = users
    return (first, second) if match.seats.get(user=first).index in seats else (second, first)


def state_of(api: APIClient, user: Any, match: Match) -> dict[str, Any]:
    api.force_authenticate(user)
    answer = api.get(f"/api/matches/{match.pk}/state/")
    assert answer.status_code == 200
    return answer.json()


def page_of(user: Any, match: Match) -> str:
    client = Client()
    client.force_login(user)
    answer = client.get(reverse("match_play", args=[match.pk]))
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_state_says_when_the_deadline_sweep_hands_the_seat_to_a_bot(
        organizer: Any, player: Any, player2: Any) -> None:
    match = deadline_match(organizer, player, player2, turn_deadline_minutes=5)
    late, other = awaited(match, player, player2)
    seat = match.seats.get(user=late).index
    for user in (late, other):  # the same for whoever asks
        deadline = state_of(APIClient(), user, match)["deadline"]
        assert deadline["policy"] == "bot" and deadline["seats"] == [seat]
    at = datetime.fromisoformat(deadline["at"])
    match.refresh_from_db()
    assert at == match.updated_at + timedelta(minutes=5)
    assert events.enforce_deadlines(now=at - timedelta(seconds=1)) == 0
    assert events.enforce_deadlines(now=at + timedelta(seconds=1)) == 1
    assert not match.seats.filter(user=late).exists()
    # The bot has played; a deadline runs only for a person still awaited, from then.
    after = state_of(APIClient(), other, match)
    pending, mine = after["pending"], match.seats.get(user=other).index
    assert seat not in pending["seats"]
    if pending["kind"] == "decision" and mine in pending["seats"]:
        assert after["deadline"]["seats"] == [mine]
        assert datetime.fromisoformat(after["deadline"]["at"]) > at - timedelta(minutes=5)
    else:
        assert after["deadline"] is None


@pytest.mark.django_db(transaction=True)
def test_the_play_page_tells_the_awaited_player_and_the_table_what_the_deadline_does(
        organizer: Any, player: Any, player2: Any) -> None:
    match = deadline_match(organizer, player, player2, turn_deadline_minutes=90,
                           deadline_policy=Event.DeadlinePolicy.FORFEIT)
    late, other = awaited(match, player, player2)
    match.refresh_from_db()
    at = match.updated_at + timedelta(minutes=90)
    shown = f'<time datetime="{at.isoformat()}" data-local>{at:%-d %b, %H:%M} UTC</time>'
    mine = page_of(late, match)
    assert f"Move by {shown}: then your side forfeits the match." in mine
    assert "Their turn deadline" not in mine
    theirs = page_of(other, match)
    assert f"Their turn deadline: {shown}; then their side forfeits the match." in theirs
    assert "Move by" not in theirs


@pytest.mark.django_db(transaction=True)
def test_a_deadline_gone_by_before_the_sweep_acts_reads_as_passed(
        organizer: Any, player: Any, player2: Any) -> None:
    """Between the deadline and the sweep that applies it (a minute, or longer with the
    sweeps behind) the page said to move by a time gone by; it says the deadline passed,
    what comes of it, and that a move until then still counts."""
    match = deadline_match(organizer, player, player2, turn_deadline_minutes=5,
                           deadline_policy=Event.DeadlinePolicy.FORFEIT)
    late, other = awaited(match, player, player2)
    match.refresh_from_db()
    gone = match.updated_at - timedelta(minutes=10)
    Match.objects.filter(pk=match.pk).update(updated_at=gone)
    at = gone + timedelta(minutes=5)
    shown = f'<time datetime="{at.isoformat()}" data-local>{at:%-d %b, %H:%M} UTC</time>'
    mine = page_of(late, match)
    assert (f"Your turn deadline passed at {shown}: your side forfeits the match when the "
            "site next applies it; a move until then still counts.") in mine
    assert "Move by" not in mine
    theirs = page_of(other, match)
    assert (f"Their turn deadline passed at {shown}: their side forfeits the match when "
            "the site next applies it.") in theirs


@pytest.mark.django_db(transaction=True)
def test_no_deadline_is_shown_where_none_runs(organizer: Any, player: Any,
                                              player2: Any) -> None:
    """An Event without a turn deadline, and one whose matches are over."""
    match = deadline_match(organizer, player, player2)
    late, _ = awaited(match, player, player2)
    assert state_of(APIClient(), late, match)["deadline"] is None
    assert "Move by" not in page_of(late, match)
    timed = deadline_match(organizer, player, player2, turn_deadline_minutes=5)
    late, _ = awaited(timed, player, player2)
    Match.objects.filter(pk=timed.pk).update(status=Match.Status.FINISHED)
    assert state_of(APIClient(), late, timed)["deadline"] is None


@pytest.mark.django_db(transaction=True)
def test_the_lobby_says_by_when_the_player_must_move(organizer: Any, player: Any,
                                                    player2: Any) -> None:
    match = deadline_match(organizer, player, player2, turn_deadline_minutes=30)
    late, other = awaited(match, player, player2)
    match.refresh_from_db()
    at = match.updated_at + timedelta(minutes=30)
    client = Client()
    client.force_login(late)
    lobby = client.get(reverse("lobby")).content.decode()
    row = lobby.split(f"#{match.pk} ")[1].split("</li>")[0]
    assert "your move" in row
    assert f'by <time datetime="{at.isoformat()}" data-local>' in row
    assert "js/league.js" in lobby  # which shows it in the reader's time zone
    client.force_login(other)
    assert "data-local" not in client.get(reverse("lobby")).content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_lobby_says_a_deadline_gone_by_passed(organizer: Any, player: Any,
                                                  player2: Any) -> None:
    """Before the sweep applies it, a deadline gone by read as one to move by."""
    match = deadline_match(organizer, player, player2, turn_deadline_minutes=5)
    late, _ = awaited(match, player, player2)
    match.refresh_from_db()
    gone = match.updated_at - timedelta(minutes=10)
    Match.objects.filter(pk=match.pk).update(updated_at=gone)
    at = gone + timedelta(minutes=5)
    client = Client()
    client.force_login(late)
    row = client.get(reverse("lobby")).content.decode().split(f"#{match.pk} ")[1]
    row = row.split("</li>")[0]
    assert f'deadline passed <time datetime="{at.isoformat()}" data-local>' in row
    assert "by <time" not in row
