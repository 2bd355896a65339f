"""Reinstating a withdrawn entrant: the withdrawal undone while nothing went by it, its
walkovers gone with it; refused, naming why, once something did."""

from __future__ import annotations

from typing import Any

import pytest

from league import events
from league.models import Entrant, Event, EventMatch, EventRecord, Standing, Walkover
from matches.models import Match
from tests.conftest import stream_is_whole

GAME = "super_showdown"


def make_event(by: Any, fmt: str = "round_robin", **kwargs: Any) -> Event:
    return events.create_event(name="League night", game=GAME, format=fmt, by=by, **kwargs)


def enter_bots(event: Event, by: Any, n: int) -> list[str]:
    return [events.add_entrant(event=event, by=by, bot="random", name=f"Bot {i + 1}").key
            for i in range(n)]


def withdrawn(event: Event) -> dict[str, bool]:
    return dict(Entrant.objects.filter(event=event).values_list("key", "withdrawn"))


def walkovers(event: Event) -> list[str]:
    return list(Walkover.objects.filter(event=event).values_list("pairing", flat=True))


def standings(event: Event) -> list[tuple[str, float, int, int, int]]:
    return list(Standing.objects.filter(event=event).order_by("entrant__key").values_list(
        "entrant__key", "points", "wins", "draws", "losses"))


def refused(call: Any) -> events.LeagueError:
    with pytest.raises(events.LeagueError) as refusal:
        call()
    return refusal.value


@pytest.mark.django_db
def test_a_withdrawal_before_the_start_is_undone_and_recorded(organizer: Any) -> None:
    event = make_event(organizer)
    keys = enter_bots(event, organizer, 3)
    events.withdraw_entrant(event=event, by=organizer, key=keys[0])
    events.reinstate_entrant(event=event, by=organizer, key=keys[0])
    assert withdrawn(event) == dict.fromkeys(keys, False)
    record = EventRecord.objects.filter(event=event).order_by("-seq").first()
    assert record is not None and (record.kind, record.payload, record.actor) == (
        "entrant_reinstated", {"key": keys[0], "withdrawal": 4}, organizer)
    events.start_event(event=event, by=organizer)
    played = {k for link in EventMatch.objects.filter(event=event) for k in link.entrants}
    assert keys[0] in played
    stream_is_whole(event)


@pytest.mark.django_db
def test_only_a_withdrawn_entrant_is_reinstated_and_only_by_an_organizer(
        organizer: Any, outsider: Any) -> None:
    event = make_event(organizer)
    keys = enter_bots(event, organizer, 3)
    assert (refused(lambda: events.reinstate_entrant(event=event, by=organizer, key=keys[0]))
            .code) == "not_withdrawn"
    events.withdraw_entrant(event=event, by=organizer, key=keys[0])
    assert refused(lambda: events.reinstate_entrant(event=event, by=outsider, key=keys[0])
                   ).status == 403
    assert withdrawn(event)[keys[0]] is True


@pytest.mark.django_db
def test_a_withdrawal_before_the_start_is_not_undone_once_it_started(organizer: Any) -> None:
    event = make_event(organizer)
    keys = enter_bots(event, organizer, 3)
    events.withdraw_entrant(event=event, by=organizer, key=keys[0])
    events.start_event(event=event, by=organizer)
    before = event.records.count()
    refusal = refused(lambda: events.reinstate_entrant(event=event, by=organizer, key=keys[0]))
    assert (refusal.code, refusal.status) == ("reinstate_too_late", 409)
    assert refusal.detail == ("Bot 1 cannot be reinstated: the Event started after they "
                              "withdrew, without them.")
    assert event.records.count() == before and withdrawn(event)[keys[0]] is True


@pytest.mark.django_db
def test_an_entrant_whose_live_match_ended_at_the_withdrawal_is_not_reinstated(
        organizer: Any) -> None:
    """Their match was forfeited when they withdrew: it cannot be played again."""
    event = make_event(organizer)
    keys = enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    link = next(link for link in EventMatch.objects.filter(event=event)
                if keys[0] in link.entrants)
    events.withdraw_entrant(event=event, by=organizer, key=keys[0])
    assert Match.objects.get(pk=link.match_id).status == Match.Status.FINISHED
    refusal = refused(lambda: events.reinstate_entrant(event=event, by=organizer, key=keys[0]))
    assert refusal.code == "reinstate_too_late"
    assert f"their match {link.label} ended when they withdrew" in refusal.detail
    assert withdrawn(event)[keys[0]] is True


@pytest.mark.django_db
def test_an_entrant_whose_pod_plays_on_is_told_their_seat_was_forfeited(
        organizer: Any) -> None:
    """A heats pod goes on when one of its four withdraws: the refusal said their match
    "ended when they withdrew" while the organizer watched it being played."""
    event = events.create_event(name="Rumble night", game="royal_rumble", format="heats",
                                by=organizer)
    keys = enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    [link] = EventMatch.objects.filter(event=event)
    events.withdraw_entrant(event=event, by=organizer, key=keys[0])
    assert Match.objects.get(pk=link.match_id).status == Match.Status.ACTIVE
    refusal = refused(lambda: events.reinstate_entrant(event=event, by=organizer, key=keys[0]))
    assert refusal.code == "reinstate_too_late"
    assert refusal.detail == (
        f"Bot 1 cannot be reinstated: their seat in {link.label} was forfeited when they "
        "withdrew, and the match plays on without them.")


def held_round_robin(organizer: Any) -> tuple[Event, list[str]]:
    """A round robin of four bots whose round 1 is played and round 2 waits."""
    event = make_event(organizer, hold_rounds=True)
    keys = enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    assert EventMatch.objects.filter(event=event).count() == 2
    assert all(link.match.status == Match.Status.FINISHED
               for link in EventMatch.objects.filter(event=event))
    assert len(events.held_pairings(event, events.replay(event))) == 2
    return event, keys


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_in_a_held_round_is_undone_with_its_walkovers(organizer: Any) -> None:
    event, keys = held_round_robin(organizer)
    table = standings(event)
    events.withdraw_entrant(event=event, by=organizer, key=keys[0])
    assert walkovers(event) and standings(event) != table
    events.reinstate_entrant(event=event, by=organizer, key=keys[0])
    assert walkovers(event) == [] and withdrawn(event) == dict.fromkeys(keys, False)
    assert standings(event) == table
    event.refresh_from_db()
    again = events.replay(event)
    assert not again.entrants[keys[0]]["withdrawn"]
    held = events.held_pairings(event, again)
    assert len(held) == 2 and any(keys[0] in p.entrants for p in held)
    # The round they are back in is played with them.
    events.release_round(event=event, by=organizer)
    round_2 = {k for link in EventMatch.objects.filter(event=event, round=2)
               for k in link.entrants}
    assert set(keys) == round_2
    stream_is_whole(event)


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_is_not_undone_once_the_round_was_released_without_them(
        organizer: Any) -> None:
    event, keys = held_round_robin(organizer)
    events.withdraw_entrant(event=event, by=organizer, key=keys[0])
    events.release_round(event=event, by=organizer)
    left = walkovers(event)
    before = event.records.count()
    refusal = refused(lambda: events.reinstate_entrant(event=event, by=organizer, key=keys[0]))
    assert (refusal.code, refusal.status) == ("reinstate_too_late", 409)
    assert refusal.detail.startswith("Bot 1 cannot be reinstated: a round was released since")
    assert event.records.count() == before
    assert walkovers(event) == left and withdrawn(event)[keys[0]] is True


@pytest.mark.django_db
def test_an_entrant_entered_anew_since_is_not_entered_twice(organizer: Any, player: Any
                                                             ) -> None:
    """Before the start a reinstatement passes an entry's checks: the player withdrawn by
    mistake and entered again meanwhile is not entered a second time."""
    event = make_event(organizer)
    first = events.add_entrant(event=event, by=organizer, player=player.username).key
    events.withdraw_entrant(event=event, by=organizer, key=first)
    events.add_entrant(event=event, by=organizer, player=player.username)
    refusal = refused(lambda: events.reinstate_entrant(event=event, by=organizer, key=first))
    assert (refusal.code, refusal.status) == ("entrant_twice", 409)
    assert withdrawn(event)[first] is True


@pytest.mark.django_db(transaction=True)
def test_the_entrants_that_may_be_reinstated_are_told_in_one_query(
        organizer: Any, django_assert_num_queries: Any) -> None:
    """The organizer page offers Reinstate where the press would not be refused
    reinstate_too_late: here the last withdrawal alone, the earlier one having another
    withdrawal since; however many withdrew, one query over the records."""
    event, keys = held_round_robin(organizer)
    for key in keys[:2]:  # (a third would finish the Event)
        events.withdraw_entrant(event=event, by=organizer, key=key)
    event.refresh_from_db()
    done = events.replay(event)
    with django_assert_num_queries(1):
        assert events.reinstatable(event, done) == {keys[1]}
    assert refused(lambda: events.reinstate_entrant(event=event, by=organizer, key=keys[0])
                   ).code == "reinstate_too_late"
    events.reinstate_entrant(event=event, by=organizer, key=keys[1])
    event.refresh_from_db()
    assert events.reinstatable(event, events.replay(event)) == set()


@pytest.mark.django_db
def test_every_withdrawal_before_the_start_may_be_reinstated_none_after_it(
        organizer: Any) -> None:
    """Before the start a Reinstate runs an entry's checks on the press; a withdrawal
    the start went by is too late."""
    event = make_event(organizer)
    keys = enter_bots(event, organizer, 4)
    for key in keys[:2]:
        events.withdraw_entrant(event=event, by=organizer, key=key)
    assert events.reinstatable(event, events.replay(event)) == set(keys[:2])
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    assert events.reinstatable(event, events.replay(event)) == set()


@pytest.mark.django_db(transaction=True)
def test_a_teams_player_chosen_since_leaves_the_withdrawal_undoable(
        organizer: Any, player: Any, outsider: Any) -> None:
    """Choosing who plays for a team pairs nobody: after it, a withdrawal is undone as
    after a pick."""
    event = make_event(organizer, hold_rounds=True)
    keys = enter_bots(event, organizer, 3)
    events.create_team(name="Reds", members=[player.username, outsider.username],
                       by=organizer)
    team = events.add_entrant(event=event, by=organizer, team="Reds").key
    events.start_event(event=event, by=organizer)
    done = [k for link in EventMatch.objects.filter(event=event)
            if link.match.status == Match.Status.FINISHED for k in link.entrants]
    assert len(done) == 2  # the bots' match; the Reds' waits for alice
    events.withdraw_entrant(event=event, by=organizer, key=done[0])
    events.choose_team_player(event=event, by=organizer, key=team, player=outsider.username)
    events.reinstate_entrant(event=event, by=organizer, key=done[0])
    assert withdrawn(event) == dict.fromkeys([*keys, team], False)
    stream_is_whole(event)
