"""An Event's organizers and players acting at the same instant: each action happens once
or is refused with a code, and the Event's stream replays to what was answered."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from league import events, projections
from league.models import EventMatch, Rating, SeasonStanding, Standing
from matches import services as match_services
from matches.models import Match, MatchEvent
from tests.conftest import stream_is_whole

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "super_showdown"
TRIALS = 4


def user(prefix: str, **extra: Any) -> Any:
    return get_user_model().objects.create_user(username=f"{prefix}-{uuid.uuid4().hex[:8]}",
                                                **extra)


def post(who: Any, path: str, body: dict[str, Any] | None = None) -> tuple[int, str]:
    client = APIClient()
    client.force_authenticate(who)
    response = client.post(path, body or {}, format="json")
    return response.status_code, response.json().get("code", "")


def test_start_pressed_twice_as_a_player_enters_starts_once(race: Any) -> None:
    """Two organizers press Start while a player enters himself: one start, and the player
    is in the Event it started with, or told it started."""
    for _ in range(TRIALS):
        staff, other = user("org", is_staff=True), user("co", is_staff=True)
        cup = events.create_event(name="Night", game=GAME, format="round_robin", by=staff,
                                  open_entry=True)
        cup.organizers.add(other)
        for name in ("a", "b", "c"):
            events.add_entrant(event=cup, by=staff, player=user(name).username)
        late = user("late")
        path = f"/api/events/{cup.pk}"
        answers, errors = race([partial(post, staff, f"{path}/start/"),
                                partial(post, other, f"{path}/start/"),
                                partial(post, late, f"{path}/enter/")])
        assert errors == []
        assert sorted(answers[:2]) == [(200, ""), (409, "event_started")], answers
        assert answers[2] in ((201, ""), (409, "event_started")), answers
        records = stream_is_whole(cup)
        (started,) = [r for r in records if r.kind == "started"]
        assert len(started.payload["order"]) == (4 if answers[2][0] == 201 else 3)
        links = EventMatch.objects.filter(event=cup)
        assert len({link.pairing for link in links}) == links.count() > 0


def test_the_deadline_sweep_racing_the_late_player_s_move_does_one_of_them(
        race: Any) -> None:
    """The player moves and keeps the seat, or the bot takes it and the move is refused;
    a hand-over is written in the Event's stream only when it happened."""
    for _ in range(TRIALS):
        staff = user("org", is_staff=True)
        cup = events.create_event(name="Night", game=GAME, format="round_robin", by=staff,
                                  turn_deadline_minutes=5)
        people = [user("a"), user("b")]
        for person in people:
            events.add_entrant(event=cup, by=staff, player=person.username)
        events.start_event(event=cup, by=staff)
        match = EventMatch.objects.get(event=cup).match
        state = match_services.match_state(match=match, user=None)
        seat = state["pending"]["seats"][0]
        mover = match.seats.get(index=seat).user
        mine = match_services.match_state(match=match, user=mover, seat=seat)

        def move(seat: int = seat, mover: Any = mover, mine: Any = mine,
                 match: Match = match) -> tuple[int, str]:
            return post(mover, f"/api/matches/{match.pk}/actions/", {
                "seat": seat, "action": mine["legal_actions"][0],
                "expected_seq": match.seq})

        # Late for half an hour: the sweep hands the seat over unless the move came first.
        Match.objects.filter(pk=match.pk).update(
            updated_at=timezone.now() - timedelta(minutes=30))
        answers, errors = race([move, events.enforce_deadlines])
        assert errors == []
        (status, code), handed = answers
        assert (status == 201) != (handed == 1), answers
        assert status == 201 or code in ("not_your_seat", "stale_seq"), answers
        bot_seat = match.seats.get(index=seat)
        assert (bot_seat.user_id is None) == (handed == 1)
        assert cup.records.filter(kind="seat_to_bot").count() == handed
        seqs = list(MatchEvent.objects.filter(match=match).order_by("seq")
                    .values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))


def projected() -> list[list[tuple[Any, ...]]]:
    """Every Event's and season's standings and the game's ratings."""
    return [sorted(Standing.objects.values_list("event_id", "entrant__key", "rank", "points",
                                                "wins", "losses")),
            sorted(SeasonStanding.objects.values_list("season_id", "player_id", "rank",
                                                      "points", "wins", "losses")),
            sorted(Rating.objects.filter(game=GAME).values_list("player_id", "matches", "mu"))]


def test_corrections_beside_a_full_rebuild_leave_the_projections_a_rebuild_gives(
        race: Any, played: Any) -> None:
    """Results corrected in three Events of a season while every projection is rebuilt:
    each correction is taken, and the standings, the season's table and the ratings are
    those a rebuild from the streams gives."""
    staff = user("org", is_staff=True)
    season = events.create_season(name=f"Race {uuid.uuid4().hex[:6]}", game=GAME, by=staff)
    cups = []
    for _ in range(3):
        cup = events.create_event(name="Night", game=GAME, format="round_robin", by=staff,
                                  season=season)
        for name in ("a", "b"):
            events.add_entrant(event=cup, by=staff, player=user(name).username)
        events.start_event(event=cup, by=staff)
        link = EventMatch.objects.get(event=cup)
        match_services.forfeit_seat(match=played(link.match, 1), seat=1)
        events.record_match_result(match=link.match)  # the worker may have come first
        projections.refresh_finished(link.match)
        cups.append((cup, link))
    corrections = [partial(post, staff, f"/api/events/{cup.pk}/corrections/", {
        "pairing": link.pairing, "placements": {link.entrants[0]: 2, link.entrants[1]: 1}})
        for cup, link in cups]
    answers, errors = race([projections.rebuild_all, *corrections])
    assert errors == []
    assert answers[1:] == [(200, "")] * len(cups), answers
    live = projected()
    assert [wins for *_, wins, _ in live[1]].count(1) == 3  # the corrected winners
    projections.rebuild_all()
    assert projected() == live
    for cup, _ in cups:
        stream_is_whole(cup)


def test_a_held_round_released_twice_and_paired_by_hand_at_once_is_made_once(
        race: Any) -> None:
    """Two organizers release the held round while a third pairs it by hand: one of them
    makes it, the others are told no round waits, and each pairing has one match."""
    for _ in range(TRIALS):
        staff = user("org", is_staff=True)
        cup = events.create_event(name="Night", game=GAME, format="swiss", by=staff,
                                  hold_rounds=True, format_options={"rounds": 2})
        for name in ("a", "b", "c", "d"):
            events.add_entrant(event=cup, by=staff, player=user(name).username)
        events.start_event(event=cup, by=staff)
        for link in EventMatch.objects.filter(event=cup).select_related("match"):
            match_services.forfeit_seat(match=link.match, seat=1)
            link.match.refresh_from_db()
            events.record_match_result(match=link.match)  # the worker may have come first
        cup.refresh_from_db()
        held = events.held_pairings(cup, events.replay(cup))
        assert len(held) == 2
        path = f"/api/events/{cup.pk}"
        answers, errors = race([
            partial(post, staff, f"{path}/release/"), partial(post, staff, f"{path}/release/"),
            partial(post, staff, f"{path}/pairings/",
                    {"pairings": [list(p.entrants) for p in held]})])
        assert errors == []
        assert Counter(status for status, _ in answers)[200] == 1, answers
        assert {code for status, code in answers if status != 200} <= {
            "nothing_held", "round_made"}, answers
        stream_is_whole(cup)
        second = list(EventMatch.objects.filter(event=cup, round=2).values_list(
            "pairing", flat=True))
        assert len(second) == len(set(second)) == 2
