"""A stream is replayed only by the rules it was recorded under (GameSpec.rules_version).

A release that changes how a game's streams replay raises the game's rules version; a match
recorded under an earlier one is then refused with `rules_changed` (409) wherever it would
be replayed, rather than shown as a game nobody played. It can still be ended, and its
result stands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine.protocol import IllegalAction
from engine.registry import get_rules
from matches import services, tasks
from matches.models import Match
from matches.services import ServiceError

pytestmark = pytest.mark.django_db

TOY = "toy_showdown"


def first_move(match: Match, user: Any, seat: int) -> None:
    state = services.match_state(match=match, user=user)
    services.submit_action(match=match, seat=seat, action=state["legal_actions"][0], user=user)


def refusal(call: Callable[[], Any]) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call()
    return caught.value


def test_a_match_records_the_rules_version_its_game_plays(
        toy_match: Match, player: Any, player2: Any, revise_rules: Any) -> None:
    assert toy_match.rules_version == 1
    version = revise_rules(TOY)
    newer = services.create_match(game=TOY, options={}, seats=[
        {"player": player.username}, {"bot": "random"}], created_by=player)
    assert version == 2 and Match.objects.get(pk=newer.pk).rules_version == 2
    assert Match.objects.get(pk=toy_match.pk).rules_version == 1


def test_a_stream_recorded_under_earlier_rules_is_refused_wherever_it_would_be_replayed(
        toy_match: Match, player: Any, revise_rules: Any) -> None:
    first_move(toy_match, player, 0)
    events = toy_match.events.count()
    revise_rules(TOY)
    services.clear_state_cache()  # a cached state is no way round the refusal
    toy_match.refresh_from_db()
    calls = [
        lambda: services.match_state(match=toy_match, user=player),
        lambda: services.match_events(match=toy_match, user=player),
        lambda: services.replay_view(match=toy_match, user=player, at=1),
        lambda: services.load_state(toy_match),
        lambda: services.submit_action(match=toy_match, seat=1, user=None,
                                       action={"type": "play", "card": "anvil"}),
    ]
    for call in calls:
        exc = refusal(call)
        assert (exc.code, exc.status) == ("rules_changed", 409)
        assert "version 1 of the rules of Toy Showdown" in exc.detail
        assert "plays version 2" in exc.detail and "resigned or forfeited" in exc.detail
    assert toy_match.events.count() == events  # nothing was written


def test_a_cached_state_does_not_get_round_the_refusal(
        toy_match: Match, player: Any, revise_rules: Any) -> None:
    services.match_state(match=toy_match, user=player)  # cached under the old rules
    revise_rules(TOY)
    assert refusal(lambda: services.match_state(match=toy_match, user=player)).code \
        == "rules_changed"


def test_such_a_match_can_still_be_resigned_or_forfeited_and_its_result_stands(
        toy_match: Match, player: Any, player2: Any, revise_rules: Any) -> None:
    revise_rules(TOY)
    assert services.resign(match=toy_match, user=player2) == "resigned"
    toy_match.refresh_from_db()
    assert toy_match.status == "finished" and toy_match.result["winners"] == [0]
    exc = refusal(lambda: services.match_state(match=toy_match, user=player))
    assert exc.code == "rules_changed" and "Its result stands." in exc.detail

    other = services.create_match(game=TOY, options={}, seats=[
        {"player": player.username}, {"bot": "random"}], created_by=player)
    revise_rules(TOY)
    services.forfeit_seat(match=other, seat=1, reason="stuck")
    other.refresh_from_db()
    assert other.status == "finished" and other.result["forfeit"] == 1


def test_a_match_still_waiting_for_players_starts_under_the_rules_of_the_day(
        player: Any, player2: Any, revise_rules: Any) -> None:
    waiting = services.create_match(game=TOY, options={}, seats=[
        {"player": player.username}, {"open": True}], created_by=player)
    assert waiting.rules_version == 1
    revise_rules(TOY)
    services.join_match(match=waiting, user=player2)
    waiting.refresh_from_db()
    assert (waiting.status, waiting.rules_version) == ("active", 2)
    assert services.match_state(match=waiting, user=player)["legal_actions"]


def test_the_bot_sweep_leaves_a_match_under_earlier_rules_alone(
        player: Any, revise_rules: Any, caplog: pytest.LogCaptureFixture,
        left_waiting: Any) -> None:
    """Its bot cannot play it: re-queuing it every sweep would fail every time (it is not
    even tried: no replay fails in the log)."""
    old = services.create_match(game=TOY, options={}, seats=[
        {"player": player.username}, {"bot": "random"}], created_by=player)
    assert [seat[:2] for seat in services.waiting_bot_seats()] == [(old.pk, 1)]
    revise_rules(TOY)
    new = services.create_match(game=TOY, options={}, seats=[
        {"player": player.username}, {"bot": "random"}], created_by=player)
    assert [seat[:2] for seat in services.waiting_bot_seats()] == [(new.pk, 1)]
    left_waiting(old, new)  # both left waiting: the rules alone keep the old one out
    assert tasks.sweep_bot_seats() == 1
    old.refresh_from_db()
    assert old.events.filter(kind="decision").count() == 0
    assert not [r for r in caplog.records if "cannot be replayed" in r.getMessage()]


def test_a_bot_task_queued_before_the_rules_changed_does_nothing(
        player: Any, revise_rules: Any) -> None:
    match = services.create_match(game=TOY, options={}, seats=[
        {"player": player.username}, {"bot": "random"}], created_by=player)
    revise_rules(TOY)
    outcome = tasks.play_bot_seat.apply(args=(match.pk, 1, match.seq))
    assert outcome.successful() and outcome.result is False
    assert match.events.filter(kind="decision").count() == 0


def test_the_api_names_the_version_and_answers_a_replay_with_rules_changed(
        toy_match: Match, player_api: APIClient, revise_rules: Any) -> None:
    games = {game["key"]: game for game in player_api.get("/api/games/").json()}
    assert games[TOY]["rules_version"] == 1
    assert player_api.get(f"/api/matches/{toy_match.pk}/").json()["rules_version"] == 1
    revise_rules(TOY)
    games = {game["key"]: game for game in player_api.get("/api/games/").json()}
    assert games[TOY]["rules_version"] == 2
    for path in ("state/", "events/", "replay/?at=1"):
        response = player_api.get(f"/api/matches/{toy_match.pk}/{path}")
        assert response.status_code == 409, path
        assert response.json()["code"] == "rules_changed"
    body = player_api.get(f"/api/matches/{toy_match.pk}/").json()
    assert (body["rules_version"], body["status"]) == (1, "active")


def test_a_stream_that_no_longer_replays_under_the_same_version_is_refused_not_a_500(
        toy_match: Match, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Streams stored before games had versions are version 1; one the rules of the day
    refuse (the rules changed before versions were kept) is `rules_changed` as well."""
    first_move(toy_match, player, 0)
    rules = get_rules(TOY)

    def refuse(state: Any, seat: int, action: Any) -> Any:
        raise IllegalAction("not_in_hand", "Seat 1 holds no card 7 (it holds 3 and 9).")
    monkeypatch.setattr(rules, "_decide", refuse)
    services.clear_state_cache()
    toy_match.refresh_from_db()
    calls = [
        lambda: services.match_state(match=toy_match, user=player),
        lambda: services.match_events(match=toy_match, user=player),
        lambda: services.replay_view(match=toy_match, user=player, at=toy_match.seq),
        lambda: services.load_state(toy_match),
    ]
    for call in calls:
        exc = refusal(call)
        assert (exc.code, exc.status) == ("rules_changed", 409)
        assert "no longer replays under version 1" in exc.detail
        assert "resigned or forfeited" in exc.detail
        assert "holds" not in exc.detail  # the engine's reason may name a hidden card
    client = APIClient()
    client.force_authenticate(player)
    for path in ("state/", "events/"):
        response = client.get(f"/api/matches/{toy_match.pk}/{path}")
        assert response.status_code == 409 and response.json()["code"] == "rules_changed"
    client.force_login(player)
    assert client.get(f"/matches/{toy_match.pk}/").status_code < 500


def test_a_match_set_up_with_a_superstar_since_taken_out_of_the_set_is_refused_not_a_500(
        player: Any) -> None:
    """A card file taken out (README, "Adding a card set") leaves the matches stored with
    it naming what the game no longer has: `rules_changed`, and they can still be ended."""
    match = services.create_match(
        game="superstar_showdown", options={"superstars": ["abbot", "blaze"]},
        seats=[{"player": player.username}, {"bot": "random"}], created_by=player)
    Match.objects.filter(pk=match.pk).update(options={**match.options,
                                                      "superstars": ["retired", "blaze"]})
    services.clear_state_cache()
    match.refresh_from_db()
    for call in (lambda: services.match_state(match=match, user=player),
                 lambda: services.match_events(match=match, user=player),
                 lambda: services.replay_view(match=match, user=player, at=match.seq)):
        exc = refusal(call)
        assert (exc.code, exc.status) == ("rules_changed", 409)
        assert "no longer has" in exc.detail and "resigned or forfeited" in exc.detail
    client = APIClient()
    client.force_login(player)
    assert client.get(f"/api/matches/{match.pk}/state/").json()["code"] == "rules_changed"
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 200 and "no longer has" in page.content.decode()
    assert services.waiting_bot_seats() == []
    client.post(f"/api/matches/{match.pk}/resign/", {}, format="json")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def test_joining_a_match_set_up_with_a_superstar_since_taken_out_is_refused_not_a_500(
        player: Any, player2: Any) -> None:
    """The last seat's join starts the match: its stored options no longer start one."""
    match = services.create_match(
        game="superstar_showdown", options={"superstars": ["abbot", "blaze"]},
        seats=[{"player": player.username}, {"open": True}], created_by=player)
    Match.objects.filter(pk=match.pk).update(options={**match.options,
                                                      "superstars": ["retired", "blaze"]})
    client = APIClient()
    client.force_login(player2)
    response = client.post(f"/api/matches/{match.pk}/join/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "rules_changed")
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN
    assert not match.seats.filter(user=player2).exists()
