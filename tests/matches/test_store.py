"""The event store: appends, seq, append-only rows, idempotency, staleness, chance, replay."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from matches import services
from matches.models import AppendOnlyError, Match, MatchEvent
from matches.services import ServiceError

pytestmark = pytest.mark.django_db


def legal(match: Match, user: Any) -> list[dict[str, Any]]:
    return services.match_state(match=match, user=user)["legal_actions"]


def play_first_legal(match: Match, user: Any, seat: int, **kwargs: Any) -> int:
    return services.submit_action(match=match, seat=seat, action=legal(match, user)[0],
                                  user=user, **kwargs)


# -- starting ----------------------------------------------------------------------------

def test_a_full_table_starts_at_once_with_the_deal_and_toss_stored_as_chance_events(
        toy_match: Match) -> None:
    events = list(toy_match.events.order_by("seq"))
    assert toy_match.status == Match.Status.ACTIVE
    assert [(e.seq, e.kind, e.seat) for e in events] == [(1, "chance", None), (2, "chance", None)]
    assert "hands" in events[0].payload["outcome"]
    assert events[1].payload["outcome"]["tiebreak"] in (0, 1)
    assert toy_match.seq == 2


def test_a_table_with_an_open_seat_waits_and_the_last_to_join_starts_it(
        toy_game: Any, player: Any, player2: Any) -> None:
    match = services.create_match(game=toy_game.TOY_KEY, options={"rounds": 2},
                                  seats=[{"player": player.username}, {"open": True}],
                                  created_by=player)
    assert (match.status, match.seq, match.events.count()) == ("open", 0, 0)
    seat = services.join_match(match=match, user=player2)
    match.refresh_from_db()
    assert seat.index == 1 and seat.label == "bruno"
    assert (match.status, match.seq) == ("active", 2)


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        ([{"player": "alice"}], {}, "bad_seat_count"),
        ([{"player": "alice"}, {"bot": "nobody"}], {}, "unknown_bot"),
        ([{"player": "alice"}, {"player": "ghost"}], {}, "unknown_player"),
        ([{"player": "alice"}, {"chair": 1}], {}, "bad_seat"),
        ([{"player": "alice"}, {"open": True}], {"rounds": 9}, "bad_option"),
        ([{"player": "alice"}, {"open": True}], {"colour": "red"}, "unknown_option"),
    ],
)
def test_a_bad_match_request_is_refused_with_its_code_and_nothing_is_created(
        toy_game: Any, player: Any, seats: list[dict[str, Any]], options: dict[str, Any],
        code: str) -> None:
    with pytest.raises(ServiceError) as refused:
        services.create_match(game=toy_game.TOY_KEY, options=options, seats=seats,
                              created_by=player)
    assert (refused.value.code, refused.value.status) == (code, 400)
    assert not Match.objects.exists()


@pytest.mark.parametrize("seat", [{"me": True}, {"open": False}, {"player": ""}])
def test_a_seat_not_read_says_what_a_seat_is(toy_game: Any, player: Any,
                                             seat: dict[str, Any]) -> None:
    """"Cannot read the seat {'me': True}." left a client to guess the form wanted."""
    with pytest.raises(ServiceError) as refused:
        services.create_match(game=toy_game.TOY_KEY, options={}, created_by=player,
                              seats=[{"player": "alice"}, seat])
    assert refused.value.code == "bad_seat"
    assert refused.value.detail.endswith(
        ': a seat is {"player": name}, {"bot": name} or {"open": true}.')


def test_an_unknown_game_is_refused(player: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        services.create_match(game="chess", options={}, seats=[], created_by=player)
    assert refused.value.code == "unknown_game"


def test_a_player_must_sit_in_the_match_they_create_but_staff_need_not(
        toy_game: Any, player: Any, player2: Any, organizer: Any) -> None:
    seats = [{"player": player2.username}, {"open": True}]
    with pytest.raises(ServiceError) as refused:
        services.create_match(game=toy_game.TOY_KEY, options={}, seats=seats, created_by=player)
    assert (refused.value.code, refused.value.status) == ("not_seated", 403)
    match = services.create_match(game=toy_game.TOY_KEY, options={}, seats=seats,
                                  created_by=organizer)
    assert match.status == "open"


def test_joining_twice_a_full_table_or_a_started_match_is_refused(
        toy_game: Any, player: Any, player2: Any, outsider: Any) -> None:
    match = services.create_match(game=toy_game.TOY_KEY, options={},
                                  seats=[{"player": player.username}, {"open": True}],
                                  created_by=player)
    with pytest.raises(ServiceError) as twice:
        services.join_match(match=match, user=player)
    assert (twice.value.code, twice.value.status) == ("already_seated", 409)
    services.join_match(match=match, user=player2)
    with pytest.raises(ServiceError) as started:
        services.join_match(match=match, user=outsider)
    assert (started.value.code, started.value.status) == ("match_not_open", 409)


# -- appending ---------------------------------------------------------------------------

def test_a_decision_is_appended_at_the_next_seq(toy_match: Match, player: Any) -> None:
    action = legal(toy_match, player)[0]
    seq = services.submit_action(match=toy_match, seat=0, action=action, user=player)
    row = toy_match.events.get(seq=seq)
    assert seq == 3 and toy_match.seq == 3
    assert (row.kind, row.seat, row.payload) == ("decision", 0, {"action": action})


def test_two_events_can_never_share_a_seq(toy_match: Match) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchEvent.objects.create(match=toy_match, seq=2, kind="chance",
                                  payload={"outcome": {"tiebreak": 0}})


def test_a_stored_event_is_never_updated_or_deleted(toy_match: Match) -> None:
    row = toy_match.events.get(seq=1)
    row.payload = {"outcome": {"hands": [["anvil"], ["brick"]]}}
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    with pytest.raises(AppendOnlyError):
        toy_match.events.all().delete()
    with pytest.raises(AppendOnlyError):
        MatchEvent.objects.filter(match=toy_match).update(seat=1)
    assert MatchEvent.objects.get(pk=row.pk).payload != row.payload


def test_a_repeated_idempotency_key_gets_the_first_seq_and_writes_nothing(
        toy_match: Match, player: Any) -> None:
    action = legal(toy_match, player)[0]
    first = services.submit_action(match=toy_match, seat=0, action=action, user=player,
                                   key="k-1")
    again = services.submit_action(match=toy_match, seat=0, action=action, user=player,
                                   key="k-1")
    assert first == again == 3
    assert toy_match.events.count() == 3


def test_a_repeated_key_is_answered_even_after_the_match_moved_on(
        toy_match: Match, player: Any, player2: Any) -> None:
    action = legal(toy_match, player)[0]
    first = services.submit_action(match=toy_match, seat=0, action=action, user=player,
                                   expected_seq=2, key="k-1")
    play_first_legal(toy_match, player2, 1)
    again = services.submit_action(match=toy_match, seat=0, action=action, user=player,
                                   expected_seq=2, key="k-1")
    assert again == first


def test_a_key_reused_for_a_different_action_is_refused(
        toy_match: Match, player: Any) -> None:
    first, second = legal(toy_match, player)[:2]
    services.submit_action(match=toy_match, seat=0, action=first, user=player, key="k-1")
    with pytest.raises(ServiceError) as refused:
        services.submit_action(match=toy_match, seat=0, action=second, user=player, key="k-1")
    assert (refused.value.code, refused.value.status) == ("key_reused", 409)


def test_two_players_may_happen_on_the_same_key(toy_match: Match, player: Any,
                                                player2: Any) -> None:
    """A key is the seat's own: the rival's "k-1" is a new action, not a reuse."""
    first = play_first_legal(toy_match, player, 0, key="k-1")
    second = play_first_legal(toy_match, player2, 1, key="k-1")
    assert (first, second) == (3, 4)
    assert toy_match.events.filter(idempotency_key="k-1").count() == 2


def test_a_stale_seq_is_refused_and_writes_nothing(toy_match: Match, player: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        play_first_legal(toy_match, player, 0, expected_seq=1)
    assert (refused.value.code, refused.value.status) == ("stale_seq", 409)
    assert toy_match.events.count() == 2


def test_the_current_seq_is_accepted(toy_match: Match, player: Any) -> None:
    assert play_first_legal(toy_match, player, 0, expected_seq=2) == 3


def test_only_the_seat_holder_may_act_for_a_seat(
        toy_match: Match, player: Any, outsider: Any) -> None:
    action = legal(toy_match, player)[0]
    for user, seat in ((outsider, 0), (player, 1)):
        with pytest.raises(ServiceError) as refused:
            services.submit_action(match=toy_match, seat=seat, action=action, user=user)
        assert (refused.value.code, refused.value.status) == ("not_your_seat", 403)


def test_a_seat_that_does_not_exist_is_refused(toy_match: Match, player: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        services.submit_action(match=toy_match, seat=5, action={}, user=player)
    assert (refused.value.code, refused.value.status) == ("bad_seat", 400)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "play", "card": "joker"}, "illegal_action"),
        ({"type": "pass"}, "illegal_action"),
        ("play anvil", "malformed_action"),
    ],
)
def test_the_engine_refuses_an_illegal_action_with_its_code_and_nothing_changes(
        toy_match: Match, player: Any, action: Any, code: str) -> None:
    with pytest.raises(ServiceError) as refused:
        services.submit_action(match=toy_match, seat=0, action=action, user=player)
    assert (refused.value.code, refused.value.status) == (code, 400)
    assert toy_match.events.count() == 2


def test_a_seat_that_already_played_this_round_is_not_pending(
        toy_match: Match, player: Any) -> None:
    play_first_legal(toy_match, player, 0)
    assert legal(toy_match, player) == []
    with pytest.raises(ServiceError) as refused:
        services.submit_action(match=toy_match, seat=0, action={"type": "play", "card": "x"},
                               user=player)
    assert refused.value.code == "not_your_turn"


def test_acting_in_a_match_that_has_not_started_is_refused(
        toy_game: Any, player: Any) -> None:
    match = services.create_match(game=toy_game.TOY_KEY, options={},
                                  seats=[{"player": player.username}, {"open": True}],
                                  created_by=player)
    with pytest.raises(ServiceError) as refused:
        services.submit_action(match=match, seat=0, action={}, user=player)
    assert (refused.value.code, refused.value.status) == ("match_not_active", 409)


def play_to_the_end(match: Match, users: dict[int, Any]) -> None:
    """Both seats play their first legal card until the match is over."""
    for _ in range(50):
        match.refresh_from_db()
        if match.status == "finished":
            return
        for seat, user in users.items():
            actions = services.match_state(match=match, user=user, seat=seat)["legal_actions"]
            if actions:
                services.submit_action(match=match, seat=seat, action=actions[0], user=user)
    raise AssertionError("the match did not end")


def test_the_last_decision_finishes_the_match_and_stores_its_result(
        toy_match: Match, player: Any, player2: Any) -> None:
    play_to_the_end(toy_match, {0: player, 1: player2})
    toy_match.refresh_from_db()
    assert toy_match.status == "finished"
    assert toy_match.seq == 2 + 6
    assert toy_match.result["placements"] in ([1, 2], [2, 1], [1, 1])
    with pytest.raises(ServiceError) as refused:
        services.submit_action(match=toy_match, seat=0, action={}, user=player)
    assert (refused.value.code, refused.value.status) == ("match_over", 409)


def test_only_a_match_ended_off_the_board_is_halted_for_its_page(
        toy_game: Any, toy_match: Match, player: Any, player2: Any) -> None:
    """Its page leaves out the decision its game still waits on; the API's state is as
    ever (no `halted`), and a match played to its end is not halted."""
    assert services.page_state(match=toy_match, user=player)["halted"] is False
    resigned = services.create_match(
        game=toy_game.TOY_KEY, options={}, created_by=player,
        seats=[{"player": player.username}, {"player": player2.username}])
    services.join_match(match=resigned, user=player2)
    services.resign(match=resigned, user=player2)
    page = services.page_state(match=resigned, user=player)
    assert page["halted"] is True and page["pending"]["kind"] == "end"
    assert services.match_state(match=resigned, user=player) == \
        {key: value for key, value in page.items() if key not in ("halted", "resign")}
    play_to_the_end(toy_match, {0: player, 1: player2})
    assert services.page_state(match=toy_match, user=player)["halted"] is False


def test_a_decision_and_the_chance_events_after_it_commit_or_fail_together(
        toy_game: Any, player: Any, player2: Any) -> None:
    """A chance node that follows a decision is drawn and stored in the same transaction."""
    match = services.create_match(
        game=toy_game.TOY_KEY, options={"rounds": 1},
        seats=[{"player": player.username}, {"player": player2.username}], created_by=player)
    services.join_match(match=match, user=player2)
    with pytest.raises(RuntimeError), transaction.atomic():
        play_first_legal(match, player, 0)
        assert match.events.count() == 3
        raise RuntimeError("the surrounding transaction fails")
    assert match.events.count() == 2


# -- replay ------------------------------------------------------------------------------

def test_replaying_to_any_seq_gives_the_state_the_match_had_then(
        toy_match: Match, player: Any, player2: Any) -> None:
    rules = toy_game_rules()
    live = {2: services.load_state(toy_match)}
    for _ in range(3):
        for seat, user in ((0, player), (1, player2)):
            play_first_legal(toy_match, user, seat)
            live[toy_match.seq] = services.load_state(toy_match)
    services.clear_state_cache()
    for seq, state in live.items():
        assert services.load_state(toy_match, upto=seq) == state
    assert rules.pending(live[toy_match.seq]).is_over


def test_a_test_inside_one_transaction_replays_from_the_states_it_wrote(
        toy_match: Match, player: Any, player2: Any) -> None:
    """tests/conftest.py puts the states a test's transaction holds into the replay cache,
    as their commit would (without it, each move of a test replayed its match from the
    start); a write rolled back leaves none."""
    key = services._cache_key(toy_match)
    play_first_legal(toy_match, player, 0)
    services.load_state(toy_match)
    held = toy_match.seq
    assert services._cache.nearest(key, held)[0] == held  # type: ignore[index]
    with pytest.raises(RuntimeError), transaction.atomic():
        play_first_legal(toy_match, player2, 1)
        raise RuntimeError("the surrounding transaction fails")
    toy_match.refresh_from_db()
    assert services.load_state(toy_match) is not None and toy_match.seq == held
    assert services._cache.nearest(key, held + 9)[0] == held  # type: ignore[index]


def toy_game_rules() -> Any:
    from engine import registry

    return registry.get_rules("toy_showdown")


def test_replay_beyond_the_stream_is_refused(toy_match: Match) -> None:
    with pytest.raises(ServiceError) as refused:
        services.load_state(toy_match, upto=99)
    assert refused.value.code == "bad_seq"


def test_a_stale_instance_saying_finished_does_not_unveil_a_live_match(
        toy_match: Match, player: Any) -> None:
    """Whether the history is shown in full is read from the database: an instance whose
    status was changed and not saved still gets the seat's redacted history and replay."""
    stale = Match.objects.get(pk=toy_match.pk)
    stale.status = Match.Status.FINISHED  # not saved: the match is live
    deal = services.match_events(match=stale, user=player, seat=0)[0]["data"]["outcome"]
    assert "hands" not in deal and "hand" in deal
    assert services.replay_view(match=stale, user=player, at=1, seat=0)["seats"] is None


@pytest.mark.django_db(transaction=True)
def test_cached_states_are_the_ones_a_fresh_replay_gives(
        toy_game: Any, player: Any, player2: Any) -> None:
    match = services.create_match(
        game=toy_game.TOY_KEY, options={},
        seats=[{"player": player.username}, {"player": player2.username}], created_by=player)
    services.join_match(match=match, user=player2)
    play_to_the_end(match, {0: player, 1: player2})
    cached = [services.load_state(match, upto=seq) for seq in range(match.seq + 1)]
    services.clear_state_cache()
    fresh = [services.load_state(match, upto=seq) for seq in range(match.seq + 1)]
    assert cached == fresh


def test_seat_of_names_the_first_seat_a_user_holds_and_none_for_a_spectator(
        toy_match: Match, player: Any, player2: Any, outsider: Any) -> None:
    assert services.seat_of(toy_match, player) == 0
    assert services.seat_of(toy_match, player2) == 1
    assert services.seat_of(toy_match, outsider) is None
    assert services.seat_of(toy_match, None) is None


def test_whose_eyes_are_used_is_decided_alike_from_the_seats_a_caller_read_already(
        toy_game: Any, toy_match: Match, organizer: Any, player: Any, player2: Any,
        outsider: Any) -> None:
    from django.contrib.auth.models import AnonymousUser

    lineup = services.create_match(game=toy_game.TOY_KEY, options={}, created_by=organizer,
                                   seats=[{"player": "organizer"}, {"player": "organizer"}])

    def decided(match: Match, user: Any, seat: int | None, seats: Any) -> Any:
        try:
            return (services.viewer_seat(match, user, seat, seats),
                    services.page_seat(match, user, seats))
        except ServiceError as exc:
            return exc.code, exc.status

    rows = {match.pk: list(match.seats.order_by("index")) for match in (toy_match, lineup)}
    for match in (toy_match, lineup):
        for user in (player, player2, outsider, organizer, AnonymousUser(), None):
            for seat in (None, 0, 1):
                assert decided(match, user, seat, rows[match.pk]) \
                    == decided(match, user, seat, None)
    assert decided(toy_match, player, 1, rows[toy_match.pk]) == ("not_your_seat", 403)
    assert decided(toy_match, outsider, None, rows[toy_match.pk]) == (None, None)
    assert services.viewer_seat(lineup, organizer, 1, rows[lineup.pk]) == 1


@pytest.mark.django_db(transaction=True)
def test_a_listener_failing_after_the_last_move_commits_leaves_the_move_answered(
        toy_game: Any, player: Any, player2: Any) -> None:
    """What follows a stored move runs after its commit: a listener that fails there (the
    league's, its broker away) used to turn the stored move into an error for the player
    and keep the hooks after it from running (the match's advance went unheard)."""
    from matches.signals import match_advanced, match_finished

    match = services.create_match(
        game=toy_game.TOY_KEY, options={"rounds": 1},
        seats=[{"player": player.username}, {"player": player2.username}], created_by=player)
    services.join_match(match=match, user=player2)
    heard: list[int] = []

    def broker_away(**kwargs: Any) -> None:
        raise ConnectionError("the broker is away")

    def advanced(match_id: int, seq: int, **kwargs: Any) -> None:
        heard.append(seq)

    match_finished.connect(broker_away, dispatch_uid="test.broker_away")
    match_advanced.connect(advanced, dispatch_uid="test.advanced")
    try:
        play_first_legal(match, player, 0)
        last = play_first_legal(match, player2, 1)
    finally:
        match_finished.disconnect(dispatch_uid="test.broker_away")
        match_advanced.disconnect(dispatch_uid="test.advanced")
    match.refresh_from_db()
    assert (match.status, match.seq) == (Match.Status.FINISHED, last)
    assert heard[-1] == last
