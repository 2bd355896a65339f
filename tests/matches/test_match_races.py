"""Two players, or two deliveries of a bot's task, at one match at the same instant, each
on a connection of its own (PostgreSQL: `on_postgres`): one of them happens, the other is
told why with a code, and the stream has no gap and nothing twice."""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from matches import services
from matches.models import Match, MatchEvent
from matches.tasks import play_bot_seat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("on_postgres")]

GAME = "super_showdown"
TRIALS = 3


def stream_is_whole(match: Match) -> list[MatchEvent]:
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
    services.clear_state_cache()
    services.load_state(match)  # replays
    return rows


def join(user: Any, match: Match) -> tuple[int, str]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post(f"/api/matches/{match.pk}/join/", {}, format="json")
    return response.status_code, response.json().get("code", "")


def test_two_players_taking_the_last_seat_at_once_seat_one_and_start_once(
        race: Any, player: Any) -> None:
    for trial in range(TRIALS):
        others = [get_user_model().objects.create_user(username=f"{name}-{trial}")
                  for name in ("cora", "dane")]
        match = services.create_match(game=GAME, options={}, created_by=player,
                                      seats=[{"player": player.username}, {"open": True}])
        answers, errors = race([partial(join, person, match) for person in others])
        assert errors == []
        assert sorted(answers) == [(200, ""), (409, "match_not_open")], answers
        match.refresh_from_db()
        seated = set(match.seats.values_list("user_id", flat=True))
        winner = others[[status for status, _ in answers].index(200)]
        assert match.status == Match.Status.ACTIVE and seated == {player.pk, winner.pk}
        stream_is_whole(match)


def test_a_bot_seats_task_delivered_twice_at_once_moves_once(
        race: Any, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    queued: list[tuple[int, list[int], int]] = []  # the broker's messages, held
    monkeypatch.setattr(services, "_enqueue_bots",
                        lambda match_id, seats, seq: queued.append((match_id, seats, seq)))
    for _ in range(TRIALS):
        queued.clear()
        match = services.create_match(game=GAME, options={}, created_by=player,
                                      seats=[{"bot": "random"}, {"player": player.username}])
        while not queued[-1][1]:  # the player opens: they move until the bot is due
            state = services.match_state(match=match, user=player, seat=1)
            services.submit_action(match=match, seat=1, user=player,
                                   action=state["legal_actions"][0])
        match.refresh_from_db()
        assert queued[-1] == (match.pk, [0], match.seq)
        before = match.seq
        deliver = partial(play_bot_seat.apply, args=(match.pk, 0, before))
        answers, errors = race([lambda deliver=deliver: deliver().get()] * 2)
        assert errors == []
        assert sorted(answers) == [False, True]  # False: the copy appended nothing
        rows = stream_is_whole(match)
        moved = [row.seat for row in rows if row.seq > before and row.kind == "decision"]
        assert moved and set(moved) == {0}  # the bot's turn (a decision or several)


@pytest.mark.usefixtures("seeded_chance")
def test_a_bot_seats_task_delivered_twice_at_once_thinks_once(
        race: Any, player: Any, counting_bot: Any, monkeypatch: pytest.MonkeyPatch,
        toy_game: Any) -> None:
    """Both deliveries read the same seq and both bots thought (one append was refused):
    a search bot spent its whole budget twice. Now the second finds the first's claim."""
    monkeypatch.setattr(services, "_enqueue_bots", lambda match_id, seats, seq: None)
    counting_bot.seconds = 0.3  # (both would be thinking at once)
    for _ in range(TRIALS):
        counting_bot.clear()
        match = services.create_match(game=toy_game.TOY_KEY, options={"rounds": 3},
                                      created_by=player,
                                      seats=[{"player": player.username}, {"bot": "counting"}])
        deliver = partial(play_bot_seat.apply, args=(match.pk, 1, match.seq))
        answers, errors = race([lambda deliver=deliver: deliver().get()] * 2)
        assert errors == []
        assert sorted(answers) == [False, True]
        assert counting_bot == [1]  # the toy's seats play at once: one bot decision is due
        rows = stream_is_whole(match)
        assert [row.seat for row in rows if row.kind == "decision"] == [1]


@pytest.mark.usefixtures("seeded_chance")
def test_a_person_moving_while_the_bot_thinks_a_decision_made_at_once_has_it_thought_once(
        race: Any, player: Any, counting_bot: Any, monkeypatch: pytest.MonkeyPatch,
        toy_game: Any) -> None:
    """The person's move (on a connection of its own) queued a task for the bot seat at
    the new seq: that task's claim was its own, so it thought the decision the first run
    was still thinking, and the first run's choice was appended, the second's refused."""
    think = services._bot_action
    for _ in range(TRIALS):
        counting_bot.clear()
        with monkeypatch.context() as held:  # the deal's task is the one delivered below
            held.setattr(services, "_enqueue_bots", lambda match_id, seats, seq: None)
            match = services.create_match(
                game=toy_game.TOY_KEY, options={"rounds": 3}, created_by=player,
                seats=[{"player": player.username}, {"bot": "counting"}])
        thinking, moved, first = threading.Event(), threading.Event(), [True]

        def waits_for_the_person(*args: Any, first: list[bool] = first,
                                 thinking: threading.Event = thinking,
                                 moved: threading.Event = moved) -> Any:
            if first and first.pop():  # the delivered task's first decision alone
                thinking.set()
                assert moved.wait(30)
            return think(*args)

        def person_moves(match: Match = match, thinking: threading.Event = thinking,
                         moved: threading.Event = moved) -> int:
            assert thinking.wait(30)
            try:
                state = services.match_state(match=match, user=player)
                return services.submit_action(match=match, seat=0, user=player,
                                              action=state["legal_actions"][0])
            finally:
                moved.set()

        monkeypatch.setattr(services, "_bot_action", waits_for_the_person)
        seq = match.seq
        deliver = partial(play_bot_seat.apply, args=(match.pk, 1, seq))
        answers, errors = race([lambda deliver=deliver: deliver().get(), person_moves])
        assert errors == []
        assert answers == [True, seq + 1]
        assert counting_bot == [1, 1]  # round one's decision, then round two's
        rows = stream_is_whole(match)
        assert [row.seat for row in rows if row.kind == "decision"] == [0, 1, 1]


@pytest.mark.usefixtures("seeded_chance")
def test_a_task_delivered_again_while_a_live_run_thinks_longer_than_the_claims_age_waits(
        race: Any, player: Any, counting_bot: Any, monkeypatch: pytest.MonkeyPatch,
        toy_game: Any, settings: Any) -> None:
    """A task delivered again after a crash waits for the claim it finds to lapse and takes
    the decision over; Redis marks a live run's restored message delivered again too, so
    a live run's claim, which it beats on while its bot thinks, must never lapse, however
    long the bot thinks: the copy leaves the decision to it and thinks nothing."""
    settings.BOT_HEARTBEAT_SECONDS, settings.BOT_CLAIM_SECONDS = 1, 2
    monkeypatch.setattr(services, "_enqueue_bots", lambda match_id, seats, seq: None)
    counting_bot.seconds = 3.5
    match = services.create_match(game=toy_game.TOY_KEY, options={"rounds": 3},
                                  created_by=player,
                                  seats=[{"player": player.username}, {"bot": "counting"}])
    seq, think, thinking = match.seq, services._bot_action, threading.Event()

    def tells_it_thinks(*args: Any) -> Any:
        thinking.set()
        return think(*args)

    def delivered_again() -> bool:
        assert thinking.wait(30)
        return services.play_bot_turns(match=Match.objects.get(pk=match.pk), seat=1,
                                       expected_seq=seq, resume=True, outwait=True)

    monkeypatch.setattr(services, "_bot_action", tells_it_thinks)
    live = partial(play_bot_seat.apply, args=(match.pk, 1, seq))
    answers, errors = race([lambda: live().get(), delivered_again])
    assert errors == []
    assert answers == [True, False]
    assert counting_bot == [1]
    rows = stream_is_whole(match)
    assert [row.seat for row in rows if row.kind == "decision"] == [1]
