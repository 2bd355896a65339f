"""Bot seats: played by tasks after each commit, with fallbacks, staleness and the sweep.

Celery runs eagerly here (no broker), so a bot's move is played inside the on_commit hook
of the append that made it pending. Tests that rely on that hook use a transactional
database; the others call the task or the service directly.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from engine import registry
from matches import services, tasks
from matches.models import Match, Seat

HUMAN_VS = "toy_showdown"


def create(user: Any, *seats: dict[str, Any], rounds: int = 3) -> Match:
    return services.create_match(game=HUMAN_VS, options={"rounds": rounds}, seats=list(seats),
                                 created_by=user)


def human_plays_to_the_end(match: Match, user: Any) -> int:
    """The human seat 0 plays its first legal card whenever it has one; its moves."""
    moves = 0
    while True:
        state = services.match_state(match=match, user=user)
        if state["status"] == "finished":
            return moves
        assert state["legal_actions"], f"the match stalled at {state['pending']}"
        services.submit_action(match=match, seat=0, action=state["legal_actions"][0],
                               user=user, expected_seq=state["seq"])
        moves += 1
        assert moves <= 10


def decisions_of(match: Match, seat: int) -> int:
    return match.events.filter(kind="decision", seat=seat).count()


@pytest.mark.django_db(transaction=True)
def test_a_bot_seat_plays_as_soon_as_the_deal_and_each_human_move_commit(player: Any) -> None:
    match = create(player, {"player": player.username}, {"bot": "random"})
    assert decisions_of(match, 1) == 1  # played right after the deal
    assert human_plays_to_the_end(match, player) == 3
    match.refresh_from_db()
    assert (match.status, decisions_of(match, 1)) == ("finished", 3)


@pytest.mark.django_db(transaction=True)
def test_a_bot_versus_bot_match_plays_to_the_end_inside_the_create_call(organizer: Any) -> None:
    match = create(organizer, {"bot": "random"}, {"bot": "random"})
    match.refresh_from_db()
    assert match.status == "finished"
    assert match.seq == 2 + 6


@pytest.mark.django_db(transaction=True)
def test_a_bot_match_longer_than_one_task_is_handed_on_and_still_ends(
        organizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_STEPS_PER_TASK", 1)
    match = create(organizer, {"bot": "random"}, {"bot": "random"})
    match.refresh_from_db()
    assert match.status == "finished"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("bot", ["boom", "cheat"])
def test_a_failing_bot_is_logged_and_replaced_by_a_random_legal_move(
        player: Any, bot: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="matches.services"):
        match = create(player, {"player": player.username}, {"bot": bot})
        human_plays_to_the_end(match, player)
    assert decisions_of(match, 1) == 3
    assert any(f"bot {bot}" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db(transaction=True)
def test_a_bot_out_of_time_is_replaced_by_a_random_legal_move(
        player: Any, settings: Any, caplog: pytest.LogCaptureFixture) -> None:
    settings.BOT_TIME_BUDGET = 0.05
    with caplog.at_level(logging.ERROR, logger="matches.services"):
        match = create(player, {"player": player.username}, {"bot": "slow"}, rounds=1)
    # The slow bot would answer after 1.5 s; the log shows its budget ran out first.
    assert decisions_of(match, 1) == 1
    assert any("bot slow failed" in r.getMessage() for r in caplog.records)


# Without a transactional database on_commit never fires, so bot seats stay waiting and
# the tests below can drive the task and the sweep by hand.

@pytest.mark.django_db
def test_a_task_with_a_stale_seq_does_nothing(player: Any) -> None:
    match = create(player, {"player": player.username}, {"bot": "random"})
    assert tasks.play_bot_seat(match.pk, 1, match.seq - 1) is False
    assert match.events.count() == 2
    assert tasks.play_bot_seat(match.pk, 1, match.seq) is True
    assert decisions_of(match, 1) == 1


@pytest.mark.django_db
def test_a_task_for_a_seat_with_nothing_pending_or_no_match_does_nothing(
        player: Any, player2: Any) -> None:
    match = create(player, {"player": player.username}, {"bot": "random"})
    assert tasks.play_bot_seat(match.pk, 0, match.seq) is False  # a human seat
    assert tasks.play_bot_seat(match.pk + 1000, 1, 2) is False
    assert match.events.count() == 2


@pytest.mark.django_db
def test_a_task_that_plays_its_seat_goes_on_while_only_bots_are_pending(
        organizer: Any) -> None:
    match = create(organizer, {"bot": "random"}, {"bot": "random"})
    assert tasks.play_bot_seat(match.pk, 0, match.seq) is True
    match.refresh_from_db()
    assert match.status == "finished"


@pytest.mark.django_db
def test_the_sweep_finds_every_waiting_bot_seat_and_plays_it(
        player: Any, player2: Any, organizer: Any, accept: Any, left_waiting: Any) -> None:
    one = create(player, {"player": player.username}, {"bot": "random"})
    two = create(organizer, {"bot": "random"}, {"player": player2.username})
    humans = accept(create(player, {"player": player.username}, {"player": player2.username}))
    left_waiting(one, two, humans)
    assert sorted(services.waiting_bot_seats()) == [(one.pk, 1, 2), (two.pk, 0, 2)]
    assert tasks.sweep_bot_seats() == 2
    assert services.waiting_bot_seats() == []
    assert decisions_of(one, 1) == decisions_of(two, 0) == 1
    assert humans.events.count() == 2


@pytest.mark.django_db
def test_the_sweep_leaves_a_seat_whose_match_moved_within_its_interval(
        player: Any, player2: Any, left_waiting: Any) -> None:
    """Every sweep queued every waiting bot seat, its task from the last move's commit
    still queued or thinking: one of the two appended, but a search bot thought twice."""
    moved = create(player, {"player": player.username}, {"bot": "random"})
    waited = create(player2, {"player": player2.username}, {"bot": "random"})
    left_waiting(waited)
    assert sorted(seat[:2] for seat in services.waiting_bot_seats()) == [
        (moved.pk, 1), (waited.pk, 1)]
    assert tasks.sweep_bot_seats() == 1
    assert (decisions_of(moved, 1), decisions_of(waited, 1)) == (0, 1)
    # Its task lost, the seat is still waiting a sweep's interval later: that sweep queues it.
    left_waiting(moved)
    assert tasks.sweep_bot_seats() == 1
    assert decisions_of(moved, 1) == 1


@pytest.mark.django_db
@pytest.mark.usefixtures("seeded_chance")
def test_a_bot_task_delivered_again_while_its_bot_thinks_leaves_the_decision_to_it(
        player: Any, counting_bot: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A second task for a decision (a copy the sweep queued, the broker delivering it
    twice) read the same seq and thought it too; one of the two appends was refused, the
    other's worker seconds wasted (a search bot's whole budget)."""
    match = create(player, {"player": player.username}, {"bot": "counting"})
    seq, copies = match.seq, []
    think = services._bot_action

    def delivered_again_meanwhile(*args: Any) -> Any:
        if not copies:
            copies.append(tasks.play_bot_seat.apply(args=(match.pk, 1, seq)).get())
        return think(*args)

    monkeypatch.setattr(services, "_bot_action", delivered_again_meanwhile)
    assert tasks.play_bot_seat.apply(args=(match.pk, 1, seq)).get() is True
    assert copies == [False]
    assert counting_bot == [1] and decisions_of(match, 1) == 1


@pytest.mark.django_db
@pytest.mark.usefixtures("seeded_chance")
def test_the_sweep_leaves_a_seat_whose_decision_a_task_claimed_until_the_claim_is_old(
        player: Any, counting_bot: list[int], left_waiting: Any) -> None:
    """A seat handed to a bot moves no `updated_at`, and a task may wait in the queue for
    longer than the sweep's interval: the sweep queued a second task for a decision the
    first was thinking. A claim older than BOT_CLAIM_SECONDS is a dead worker's."""
    match = create(player, {"player": player.username}, {"bot": "counting"})
    left_waiting(match)
    assert services.claim_bot_turn(match.pk, 1, match.seq, services.new_bot_claim())
    assert tasks.sweep_bot_seats() == 0
    assert counting_bot == [] and decisions_of(match, 1) == 0
    old = timezone.now() - timedelta(seconds=settings.BOT_CLAIM_SECONDS + 1)
    Seat.objects.filter(match=match, index=1).update(bot_claimed_at=old)  # its worker died
    assert tasks.sweep_bot_seats() == 1
    assert counting_bot == [1] and decisions_of(match, 1) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("seeded_chance")
def test_a_seat_handed_to_a_bot_is_not_queued_again_by_the_sweep_while_its_bot_thinks(
        player: Any, player2: Any, counting_bot: list[int], accept: Any, left_waiting: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline sweep hands a seat to a bot in a match that has not moved for a while;
    the bot sweep, which finds waiting seats by the match's last move, queued the seat
    again while the hand-over's task thought it."""
    match = accept(create(player, {"player": player.username}, {"player": player2.username}))
    left_waiting(match)
    think, swept = services._bot_action, []

    def the_sweep_runs_meanwhile(*args: Any) -> Any:
        swept.append(tasks.sweep_bot_seats())
        return think(*args)

    monkeypatch.setattr(services, "_bot_action", the_sweep_runs_meanwhile)
    services.hand_seat_to_bot(match=match, seat=1, bot="counting")
    assert swept == [0]
    assert counting_bot == [1] and decisions_of(match, 1) == 1


@pytest.mark.django_db(transaction=True)
def test_super_showdowns_own_bots_play_each_other_to_the_end(organizer: Any) -> None:
    from engine import registry

    bots = registry.bot_names("super_showdown")
    match = services.create_match(game="super_showdown", options={},
                                  seats=[{"bot": bots[0]}, {"bot": bots[-1]}],
                                  created_by=organizer)
    match.refresh_from_db()
    assert match.status == "finished"
    assert match.result is not None


@pytest.mark.django_db(transaction=True)
def test_a_search_seat_in_a_live_match_stops_at_the_search_time_limit(
        player: Any, settings: Any, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A search bot given a budget of a million playouts still answers in time: the match
    service hands it the clock and BOT_SEARCH_MS, so it is never replaced at random."""
    settings.BOT_SEARCH_MS = 30
    settings.BOT_TIME_BUDGET = 20
    build = registry._BOTS[HUMAN_VS]["search-hard"]

    def endless() -> Any:
        bot = build()
        bot.iterations = 1_000_000
        return bot
    monkeypatch.setitem(registry._BOTS[HUMAN_VS], "search-hard", endless)
    with caplog.at_level(logging.ERROR, logger="matches.services"):
        match = create(player, {"player": player.username}, {"bot": "search-hard"}, rounds=2)
        human_plays_to_the_end(match, player)
    match.refresh_from_db()
    assert (match.status, decisions_of(match, 1)) == ("finished", 2)
    assert not [r for r in caplog.records if "failed" in r.getMessage()]


@pytest.mark.django_db
def test_a_seat_handed_to_a_bot_while_the_bots_play_is_played_too(
        player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The task read who held which seat once, and a seat handed to a bot meanwhile (a
    turn deadline's policy) crashed it (KeyError): the match waited for the sweep."""
    match = create(player, {"player": player.username}, {"bot": "random"})
    think = services._bot_action

    def and_hand_over(*args: Any) -> Any:
        match.seats.filter(index=0).update(bot="heuristic", user=None)
        return think(*args)

    monkeypatch.setattr(services, "_bot_action", and_hand_over)
    assert services.play_bot_turns(match=match, seat=1, expected_seq=match.seq)
    match.refresh_from_db()
    assert match.status == "finished" and decisions_of(match, 0) == 3


@pytest.mark.django_db
def test_on_a_worker_a_long_bot_chain_hands_on_so_other_matches_get_their_turn(
        organizer: Any, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """A bot-only search-hard table played minutes in one task while people's bot replies
    waited behind it on the same worker."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(services, "BOT_TASK_SECONDS", 0.0)
    handed: list[tuple[int, list[int], int]] = []
    monkeypatch.setattr(services, "_enqueue_bots",
                        lambda match_id, seats, seq: handed.append((match_id, seats, seq)))
    match = create(organizer, {"bot": "random"}, {"bot": "random"})
    handed.clear()  # the create's own first tasks
    assert services.play_bot_turns(match=match, seat=0, expected_seq=match.seq)
    match.refresh_from_db()
    assert decisions_of(match, 0) + decisions_of(match, 1) == 1
    assert handed == [(match.pk, [1], match.seq)]


@pytest.mark.django_db
def test_a_task_delivered_again_after_its_worker_died_plays_on_from_the_stream(
        player: Any) -> None:
    """Its seq was stale by the decisions the dead run had made, so the redelivered task
    did nothing and the match waited for the sweep (or for ever without beat)."""
    from types import SimpleNamespace

    match = create(player, {"player": player.username}, {"bot": "random"})
    assert not services.play_bot_turns(match=match, seat=1, expected_seq=match.seq - 1)
    assert services.play_bot_turns(match=match, seat=1, expected_seq=match.seq - 1,
                                   resume=True)
    assert decisions_of(match, 1) == 1
    assert tasks.redelivered(SimpleNamespace(delivery_info={"redelivered": True}))
    assert not tasks.redelivered(SimpleNamespace(delivery_info={"redelivered": False}))
    assert not tasks.redelivered(SimpleNamespace(delivery_info=None))


@pytest.mark.django_db
def test_a_task_retried_after_a_database_error_plays_on_from_the_stream(
        organizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot-only chain that met a database error after some moves was retried with the
    seq its first run began at, found it stale and did nothing: the match waited for the
    sweep (or for ever without beat)."""
    from django.db import OperationalError

    match = create(organizer, {"bot": "random"}, {"bot": "random"})
    _, seat, seq = services.waiting_bot_seats()[0]
    append, calls = services._append_decision, []

    def dropped_at_the_second_move(**kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise OperationalError("server closed the connection unexpectedly")
        return append(**kwargs)

    monkeypatch.setattr(services, "_append_decision", dropped_at_the_second_move)
    tasks.play_bot_seat.apply(args=(match.pk, seat, seq))  # the retry runs in the process
    match.refresh_from_db()
    assert match.status == "finished" and len(calls) > 2
    assert not tasks.retried(SimpleNamespace(retries=0))


@pytest.mark.django_db
@pytest.mark.usefixtures("seeded_chance")
def test_a_retry_takes_back_its_own_claim_when_the_database_missed_its_release(
        player: Any, counting_bot: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim of a run a database error stopped is still fresh if its release did not
    reach the database: the retry names it, so it plays rather than waits for the sweep."""
    from django.db import OperationalError

    match = create(player, {"player": player.username}, {"bot": "counting"})
    append, calls = services._append_decision, []

    def dropped_once(**kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return append(**kwargs)

    monkeypatch.setattr(services, "_append_decision", dropped_once)
    monkeypatch.setattr(services, "release_bot_claims", lambda match_id, claim: None)
    seq = match.seq
    tasks.play_bot_seat.apply(args=(match.pk, 1, seq))  # the retry runs in the process
    assert decisions_of(match, 1) == 1 and len(calls) == 2
    # The claim was the run's all along: another run still finds it fresh.
    assert not services.claim_bot_turn(match.pk, 1, seq, services.new_bot_claim())


@pytest.mark.django_db
def test_a_bots_secret_choice_stands_when_another_seat_moves_while_it_thinks(
        player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both seats play face down at once: the person's move made the bot's append stale,
    so it searched again (live Ultimate Showdown replies took twice the decision)."""
    match = create(player, {"player": player.username}, {"bot": "random"})
    think = services._bot_action
    thought: list[int] = []

    def person_moves_meanwhile(*args: Any) -> Any:
        thought.append(1)
        if len(thought) == 1:
            state = services.match_state(match=match, user=player)
            services.submit_action(match=match, seat=0, action=state["legal_actions"][0],
                                   user=player)
        return think(*args)

    monkeypatch.setattr(services, "_bot_action", person_moves_meanwhile)
    seq = match.seq
    assert services.play_bot_turns(match=match, seat=1, expected_seq=seq)
    assert (decisions_of(match, 0), decisions_of(match, 1), len(thought)) == (1, 2, 2)
    # A choice read before the seat's own move (a duplicate task) is never appended.
    first = match.events.filter(kind="decision", seat=1).order_by("seq").first()
    assert first is not None
    stream = services._replay(match, seq)
    assert not services._append_bot_choice(match, seq, stream.rules.pending(stream.state), 1,
                                           first.payload["action"])
    assert decisions_of(match, 1) == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("seeded_chance")
def test_a_person_moving_while_the_bot_thinks_a_decision_made_at_once_has_it_thought_once(
        player: Any, counting_bot: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The person's move queued a task for the bot seat at the new seq, a claim of its own:
    it thought the decision again while the first run still thought it (a search bot's
    budget spent twice), and the first run's choice was appended, the second's refused."""
    with monkeypatch.context() as held:  # the deal's task is the one run below
        held.setattr(services, "_enqueue_bots", lambda match_id, seats, seq: None)
        match = create(player, {"player": player.username}, {"bot": "counting"})
    seq, think, moved = match.seq, services._bot_action, []

    def person_moves_meanwhile(*args: Any) -> Any:
        if not moved:
            moved.append(seq)
            state = services.match_state(match=match, user=player)
            moved.append(services.submit_action(match=match, seat=0, user=player,
                                                action=state["legal_actions"][0]))
        return think(*args)

    monkeypatch.setattr(services, "_bot_action", person_moves_meanwhile)
    assert tasks.play_bot_seat.apply(args=(match.pk, 1, seq)).get() is True
    assert moved == [seq, seq + 1]  # its task for the bot seat ran on the move's commit
    # One think for each of the bot's decisions: round one's, then round two's.
    assert counting_bot == [1, 1] and decisions_of(match, 1) == 2
    assert human_plays_to_the_end(match, player) == 2
    match.refresh_from_db()
    assert match.status == "finished" and counting_bot == [1, 1, 1]


@pytest.mark.django_db
@pytest.mark.usefixtures("seeded_chance")
def test_a_bot_whose_choice_the_stream_moved_past_plays_the_decision_its_seat_owes_now(
        player: Any, counting_bot: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The run gave up when its choice could not be appended, trusting whoever moved to
    queue the seat; the task queued by another seat's move had found the decision claimed
    by that very run and left it, so the seat waited for the sweep."""
    queued: list[tuple[int, list[int], int]] = []  # the broker's messages, held
    monkeypatch.setattr(services, "_enqueue_bots",
                        lambda match_id, seats, seq: queued.append((match_id, seats, seq)))
    match = create(player, {"player": player.username}, {"bot": "counting"})
    seq, think = match.seq, services._bot_action

    def the_stream_moves_past_it(*args: Any) -> Any:
        if len(counting_bot) == 0 and match.seq == seq:
            state = services.match_state(match=match, user=player)
            services.submit_action(match=match, seat=0, user=player,
                                   action=state["legal_actions"][0])
            # The seat's own choice of the round, from a run whose claim had gone stale:
            # the choice being thought can no longer be appended.
            legal = services._replay(match, match.seq)
            services.submit_action(match=match, seat=1, user=None, action=legal.rules
                                   .legal_actions(legal.state, 1)[-1])
        return think(*args)

    monkeypatch.setattr(services, "_bot_action", the_stream_moves_past_it)
    assert services.play_bot_turns(match=match, seat=1, expected_seq=seq)
    assert counting_bot == [1, 1]  # round one's choice, refused; round two's, appended
    assert decisions_of(match, 0) == 1 and decisions_of(match, 1) == 2
    assert services.waiting_bot_seats() == []


@pytest.mark.django_db
def test_one_match_that_cannot_replay_does_not_keep_the_others_bots_waiting(
        player: Any, player2: Any, caplog: pytest.LogCaptureFixture, left_waiting: Any) -> None:
    """The sweep replayed every live match in one go: one broken stream (a bad row, a game
    whose rules changed) raised, and no match's bot seats were recovered."""
    broken = create(player, {"player": player.username}, {"bot": "random"})
    fine = create(player2, {"player": player2.username}, {"bot": "random"})
    first = broken.events.order_by("seq").first()
    assert first is not None
    with connection.cursor() as cursor:  # behind the append-only guard, as a bad row would
        cursor.execute(f"UPDATE {first._meta.db_table} SET payload = %s WHERE id = %s",
                       ['{"outcome": "garbage"}', first.pk])
    services.clear_state_cache()
    left_waiting(broken, fine)
    with caplog.at_level(logging.ERROR, logger="matches.services"):
        assert tasks.sweep_bot_seats() == 1
    assert decisions_of(fine, 1) == 1 and decisions_of(broken, 1) == 0
    assert any(f"match {broken.pk} cannot be replayed" in r.getMessage()
               for r in caplog.records)


@pytest.mark.django_db
def test_a_bot_that_changes_its_state_and_fails_leaves_the_match_as_the_stream_has_it(
        player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots were handed the replay cache's own state: one that changed it (a mutable
    Royal Rumble state) and then failed left every later view and move in the process
    built on the changed state."""
    seen: list[int] = []

    class Meddler:
        name = "meddler"

        def choose(self, rules: Any, state: Any, seat: int, rng: Any) -> Any:
            seen.append(len(state.deck))
            state.deck.clear()
            raise RuntimeError("a bot bug")

    registry.get_rules("royal_rumble")
    monkeypatch.setitem(registry._BOTS["royal_rumble"], "meddler", Meddler)
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "meddler"}])
    rules = registry.get_rules("royal_rumble")
    for _ in range(50):  # the person plays until the bot seat is asked
        match.refresh_from_db()
        if 1 in rules.pending(services.load_state(match)).seats:
            break
        view = services.match_state(match=match, user=player)
        services.submit_action(match=match, seat=0, action=view["legal_actions"][0],
                               user=player)
    asked = match.seq
    # In the process's replay cache, as after any committed view (on_commit puts it there).
    services._cache.put((services._cache_key(match), asked), services.load_state(match))
    services.play_bot_turns(match=match, seat=1, expected_seq=asked)
    cached = len(services.load_state(match, asked).deck)
    services.clear_state_cache()
    assert seen and seen[0] > 0
    assert cached == len(services.load_state(match, asked).deck) == seen[0]


@pytest.mark.django_db(transaction=True)
def test_a_bot_seat_that_cannot_be_queued_after_a_move_waits_for_the_sweep(
        player: Any, monkeypatch: pytest.MonkeyPatch, left_waiting: Any) -> None:
    """The broker away as a move commits: the move stands and is answered (it used to be an
    error for a move already stored), and the sweep queues the bot seat it left waiting."""
    match = create(player, {"player": player.username}, {"bot": "random"})
    real = services.enqueue

    def broker_away(task: Any, *args: Any) -> None:
        raise ConnectionError("the broker is away")

    monkeypatch.setattr(services, "enqueue", broker_away)
    state = services.match_state(match=match, user=player)
    seq = services.submit_action(match=match, seat=0, action=state["legal_actions"][0],
                                 user=player, expected_seq=state["seq"])
    assert seq == state["seq"] + 1
    assert decisions_of(match, 1) == 1  # round two: the bot's seat was not queued
    monkeypatch.setattr(services, "enqueue", real)
    assert tasks.sweep_bot_seats() == 0  # the sweep takes it for queued a while yet
    left_waiting(match)
    assert tasks.sweep_bot_seats() == 1
    assert decisions_of(match, 1) == 2


@pytest.mark.django_db
@pytest.mark.usefixtures("seeded_chance")
def test_a_task_delivered_again_after_its_worker_died_takes_over_once_the_claims_beats_stop(
        player: Any, counting_bot: list[int], settings: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """It found its dead run's claim fresh and did nothing: the seat waited until the claim
    was BOT_CLAIM_SECONDS old (20 s), then for a sweep (30 s more)."""
    import time

    settings.BOT_HEARTBEAT_SECONDS, settings.BOT_CLAIM_SECONDS = 1, 2
    match = create(player, {"player": player.username}, {"bot": "counting"})
    seq = match.seq
    assert services.claim_bot_turn(match.pk, 1, seq, services.new_bot_claim())  # then died
    monkeypatch.setattr(tasks, "redelivered", lambda request: True)
    began = time.monotonic()
    assert tasks.play_bot_seat.apply(args=(match.pk, 1, seq)).get() is True
    waited = time.monotonic() - began
    assert counting_bot == [1] and decisions_of(match, 1) == 1
    assert settings.BOT_CLAIM_SECONDS <= waited < settings.BOT_CLAIM_SECONDS + 2


@pytest.mark.django_db
@pytest.mark.usefixtures("seeded_chance")
def test_a_task_delivered_again_takes_over_though_another_seat_chose_while_it_waited(
        player: Any, counting_bot: list[int], settings: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In a decision the seats take at once, the person's choice while the task waited for
    the dead run's beats to stop leaves the seat's own decision the one it waits on (the
    dead run's claim still covers it): the task must not take the move for the decision
    played and leave the seat to the sweep."""
    settings.BOT_HEARTBEAT_SECONDS, settings.BOT_CLAIM_SECONDS = 1, 2
    match = create(player, {"player": player.username}, {"bot": "counting"})
    seq = match.seq
    assert services.claim_bot_turn(match.pk, 1, seq, services.new_bot_claim())  # then died
    claim, tries = services.claim_bot_turn, []

    def the_person_chooses_meanwhile(*args: Any) -> Any:
        tries.append(1)
        if len(tries) == 2:  # the task's first look while it waits
            state = services.match_state(match=match, user=player)
            services.submit_action(match=match, seat=0, user=player,
                                   action=state["legal_actions"][0])
        return claim(*args)

    monkeypatch.setattr(services, "claim_bot_turn", the_person_chooses_meanwhile)
    assert services.play_bot_turns(match=match, seat=1, expected_seq=seq, resume=True,
                                   outwait=True)
    # Round one's decision, then round two's (both seats are asked again at once).
    assert counting_bot == [1, 1] and decisions_of(match, 0) == 1
    assert decisions_of(match, 1) == 2


@pytest.mark.django_db
@pytest.mark.usefixtures("seeded_chance")
def test_a_bot_thinking_longer_than_the_claims_age_keeps_its_claim_by_its_beats(
        player: Any, counting_bot: Any, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim was held for BOT_CLAIM_SECONDS from when it was taken, however long the bot
    thought: the live run's decision passed for a dead worker's while it still thought."""
    settings.BOT_HEARTBEAT_SECONDS, settings.BOT_CLAIM_SECONDS = 1, 2
    counting_bot.seconds = 2.6
    match = create(player, {"player": player.username}, {"bot": "counting"})
    seq, beat, append, taken = match.seq, services.beat_bot_claim, services._append_decision, []

    def others_try_first(*args: Any) -> Any:
        # What a second task and the sweep see between two beats.
        taken.append(services.claim_bot_turn(match.pk, 1, seq, services.new_bot_claim()))
        taken.append(services.waiting_bot_seats() != [])
        return beat(*args)

    def and_at_the_append(**kwargs: Any) -> Any:
        taken.append(services.claim_bot_turn(match.pk, 1, seq, services.new_bot_claim()))
        return append(**kwargs)

    monkeypatch.setattr(services, "beat_bot_claim", others_try_first)
    monkeypatch.setattr(services, "_append_decision", and_at_the_append)
    assert services.play_bot_turns(match=match, seat=1, expected_seq=seq)
    assert len(taken) >= 5 and not any(taken)
    assert counting_bot == [1] and decisions_of(match, 1) == 1


@pytest.mark.django_db
@pytest.mark.usefixtures("seeded_chance")
def test_an_append_waiting_for_the_lock_has_the_claims_whole_age_after_the_bot_thought(
        player: Any, counting_bot: Any, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim's last beat could be a whole beat before the choice went to be appended:
    an append that then waited on the match's lock lost the decision to another task
    sooner than BOT_CLAIM_SECONDS. It is beaten once more as the append begins. (Waiting
    longer than that, another task thinks it too, and the stream takes one choice.)"""
    import time

    settings.BOT_HEARTBEAT_SECONDS, settings.BOT_CLAIM_SECONDS = 60, 2
    counting_bot.seconds = 1.2  # between beats
    match = create(player, {"player": player.username}, {"bot": "counting"})
    seq, append, taken = match.seq, services._append_decision, []

    def after_a_wait_for_the_lock(**kwargs: Any) -> Any:
        time.sleep(1.2)
        taken.append(services.claim_bot_turn(match.pk, 1, seq, services.new_bot_claim()))
        return append(**kwargs)

    monkeypatch.setattr(services, "_append_decision", after_a_wait_for_the_lock)
    assert services.play_bot_turns(match=match, seat=1, expected_seq=seq)
    assert taken == [False] and decisions_of(match, 1) == 1


@pytest.mark.django_db
@pytest.mark.usefixtures("seeded_chance")
def test_the_sweep_leaves_a_seat_whose_decision_a_claim_at_an_earlier_seq_still_covers(
        player: Any, counting_bot: list[int], left_waiting: Any) -> None:
    """The sweep counted only a claim taken at the match's seq: a bot thinking a decision
    the seats make at once, claimed before the person chose, was queued again, a task
    that found the decision claimed (`claim_bot_turn` reads the covering claim) and did
    nothing."""
    match = create(player, {"player": player.username}, {"bot": "counting"})
    seq = match.seq
    assert services.claim_bot_turn(match.pk, 1, seq, services.new_bot_claim())
    state = services.match_state(match=match, user=player)
    services.submit_action(match=match, seat=0, action=state["legal_actions"][0], user=player)
    match.refresh_from_db()
    left_waiting(match)
    assert match.seq > seq and services.waiting_bot_seats() == []
    assert tasks.sweep_bot_seats() == 0 and counting_bot == []
    old = timezone.now() - timedelta(seconds=settings.BOT_CLAIM_SECONDS + 1)
    Seat.objects.filter(match=match, index=1).update(bot_claimed_at=old)  # its worker died
    assert services.waiting_bot_seats() == [(match.pk, 1, match.seq)]
