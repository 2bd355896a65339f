"""A knockout needs a winner: a drawn match is written down and its pairing played again.

The toy game with two cards a hand ends drawn when each seat takes one round, so the
players here steer their match to a draw and then to a win.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from league import events, projections
from league.models import Event, EventMatch, EventRecord, Standing
from matches import services as match_services
from matches.models import Match


def knockout(toygame: Any, organizer: Any, *players: Any) -> Event:
    event = events.create_event(name="Cup night", game=toygame.TOY_KEY,
                                format="single_elimination", by=organizer,
                                match_options={"rounds": 2}, deadline_bot="random")
    for user in players:
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    return event


def play_out(toygame: Any, match: Match, users: list[Any], draw: bool) -> None:
    """Both seats play their cards in an order that ends the match drawn (each takes a
    round) or won by one seat."""
    match.refresh_from_db()
    state = match_services.load_state(match)
    hands = [sorted(h, key=toygame.CARDS.__getitem__) for h in state.hands]
    for order in itertools.permutations(hands[1]):
        wins = [toygame.ToyRules._round_winner((a, b), state.tiebreak)
                for a, b in zip(hands[0], order, strict=True)]
        if (wins.count(0) == 1) == draw:
            break
    else:
        pytest.fail(f"this deal cannot end {'drawn' if draw else 'won'}: {hands}")
    for a, b in zip(hands[0], order, strict=True):
        for seat, card in ((0, a), (1, b)):
            match_services.submit_action(match=match, seat=seat, user=users[seat],
                                         action={"type": "play", "card": card})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["draw"] is draw


@pytest.mark.django_db(transaction=True)
def test_a_drawn_knockout_match_is_played_again_and_the_replay_decides_it(
        toy_game: Any, seeded_chance: None, organizer: Any, player: Any,
        player2: Any) -> None:
    event = knockout(toy_game, organizer, player, player2)
    first = EventMatch.objects.get(event=event)
    users = [first.match.seats.get(index=i).user for i in range(2)]

    play_out(toy_game, first.match, users, draw=True)

    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    links = list(EventMatch.objects.filter(event=event))
    assert [(x.pairing, x.replay) for x in links] == [(first.pairing, 0), (first.pairing, 1)]
    again = links[1]
    assert again.match_id != first.match_id
    assert again.label.endswith("(replay 1)")
    assert again.entrants == first.entrants
    kinds = list(event.records.order_by("seq").values_list("kind", flat=True))
    assert kinds[-2:] == ["match_drawn", "match_created"]
    drawn = event.records.get(kind=EventRecord.Kind.MATCH_DRAWN).payload
    assert drawn == {"pairing": first.pairing, "match": first.match_id}

    users = [again.match.seats.get(index=i).user for i in range(2)]
    play_out(toy_game, again.match, users, draw=False)

    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    again.match.refresh_from_db()
    (winner_seat,) = again.match.result["winners"]
    done = events.replay(event)
    assert list(done.results) == [first.pairing]
    assert [m["match"] for m in done.drawn] == [first.match_id]
    places = done.results[first.pairing]["placements"]
    assert sorted(places.values()) == [1, 2]
    assert places[again.seat_entrants()[winner_seat]] == 1

    # In the players' histories the first match stays a draw, listed alone or not.
    from league.history import Finishes

    first.match.refresh_from_db()
    for listed in ([first.match], [first.match, again.match]):
        finishes = Finishes(listed)
        assert [finishes.of(first.match, s).outcome for s in (0, 1)] == ["draw", "draw"]
    finishes = Finishes([again.match])
    assert finishes.of(again.match, winner_seat).outcome == "win"
    assert finishes.of(again.match, 1 - winner_seat).outcome == "loss"

    # The projection rebuilt from the records holds both matches, the replay last.
    projections.refresh_event(event)
    assert [(x.match_id, x.replay) for x in EventMatch.objects.filter(event=event)] == [
        (first.match_id, 0), (again.match_id, 1)]


@pytest.mark.django_db(transaction=True)
def test_the_event_page_shows_the_drawn_match_without_the_replays_places(
        toy_game: Any, seeded_chance: None, organizer: Any, player: Any, player2: Any,
        client: Any) -> None:
    event = knockout(toy_game, organizer, player, player2)
    first = EventMatch.objects.get(event=event)
    users = [first.match.seats.get(index=i).user for i in range(2)]
    play_out(toy_game, first.match, users, draw=True)
    again = EventMatch.objects.get(event=event, replay=1)
    users = [again.match.seats.get(index=i).user for i in range(2)]
    play_out(toy_game, again.match, users, draw=False)

    client.force_login(player)
    page = client.get(f"/league/events/{event.pk}/").content.decode()
    assert page.count("drawn: played again") == 1
    assert f"{again.label}" in page
    # Only the replay marks its winner.
    assert page.count("entrant-won") == 1


@pytest.mark.django_db(transaction=True)
def test_a_pairing_drawn_after_its_last_replay_goes_to_the_better_seed(
        toy_game: Any, organizer: Any, player: Any, player2: Any,
        monkeypatch: pytest.MonkeyPatch, client: Any) -> None:
    # Every match deals 1 and 4 against 2 and 3: each seat takes a round whatever is played.
    monkeypatch.setattr(toy_game.ToyRules, "sample_chance", lambda self, state, rng: (
        {"hands": [["anvil", "drum"], ["brick", "comet"]]} if state.hands is None
        else {"tiebreak": 0}))
    event = knockout(toy_game, organizer, player, player2)
    for replay in range(events.MAX_REPLAYS + 1):
        link = EventMatch.objects.get(event=event, replay=replay)
        users = [link.match.seats.get(index=i).user for i in range(2)]
        play_out(toy_game, link.match, users, draw=True)

    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert EventMatch.objects.filter(event=event).count() == events.MAX_REPLAYS + 1
    done = events.replay(event)
    result = done.results[link.pairing]
    best = done.order[0]
    assert result["placements"][best] == 1 and sorted(result["placements"].values()) == [1, 2]
    assert result["decided_by"] == "seed"
    from league.serializers import bracket_of

    (row,) = [r for r in bracket_of(event) if r["pairing"] == link.pairing]
    assert row["decided_by"] == "seed" and row["result"] == result["placements"]
    client.force_login(organizer)
    page = client.get(f"/league/events/{event.pk}/").content.decode()
    assert page.count("drawn again: the better seed goes through") == 1
    assert [r.kind for r in event.records.order_by("seq")].count("match_drawn") == \
        events.MAX_REPLAYS


@pytest.mark.django_db(transaction=True)
def test_the_better_seed_a_drawn_pairing_sends_on_is_named_in_the_next_box_at_once(
        toy_game: Any, organizer: Any, player: Any, player2: Any, outsider: Any,
        django_user_model: Any, monkeypatch: pytest.MonkeyPatch, client: Any) -> None:
    """A semifinal drawn after its last replay sends its better seed on: the final's box
    names them while the other semifinal is still played, as the API's bracket does."""
    from league.serializers import bracket_of
    from tests.conftest import _make_user

    monkeypatch.setattr(toy_game.ToyRules, "sample_chance", lambda self, state, rng: (
        {"hands": [["anvil", "drum"], ["brick", "comet"]]} if state.hands is None
        else {"tiebreak": 0}))
    event = knockout(toy_game, organizer, player, player2, outsider,
                     _make_user(django_user_model, "dora"))
    for replay in range(events.MAX_REPLAYS + 1):
        link = EventMatch.objects.get(event=event, pairing="W1-1", replay=replay)
        play_out(toy_game, link.match, [link.match.seats.get(index=i).user for i in range(2)],
                 draw=True)
    done = events.replay(event)
    assert done.results["W1-1"]["decided_by"] == "seed"
    best = done.order[0]
    assert done.results["W1-1"]["placements"][best] == 1

    (final,) = [row for row in bracket_of(event) if row["pairing"] == "W2-1"]
    assert [(s["entrant"], s["state"]) for s in final["slots"]] == [
        (best, "filled"), (None, "pending")]
    client.force_login(outsider)
    page = client.get(f"/league/events/{event.pk}/").content.decode()
    box = page.split('data-pairing="W2-1"', 1)[1].split("</g>", 1)[0]
    name = done.entrants[best]["name"]
    assert re.findall(r'class="ln ln-(\w+)"[^>]*>([^<]*)<', box) == [
        ("entrant", name), ("pending", "Winner of Semifinal 2")]


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_sent_for_a_drawn_match_does_not_reach_its_replay(
        toy_game: Any, seeded_chance: None, organizer: Any, player: Any, player2: Any,
        client: Any) -> None:
    """Forfeits name a pairing: one sent from a page that showed the drawn match (its seq
    read before the replay was made) is refused, from the API and from the live list."""
    from django.urls import reverse
    from rest_framework.test import APIClient

    event = knockout(toy_game, organizer, player, player2)
    first = EventMatch.objects.get(event=event)
    client.force_login(organizer)
    page = client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    live = page[page.index('id="event-live"'):]
    assert live.count('name="seq"') == live.count("<form") == 4  # forfeit and bot, twice
    event.refresh_from_db()
    read = event.seq
    users = [first.match.seats.get(index=i).user for i in range(2)]
    play_out(toy_game, first.match, users, draw=True)
    again = EventMatch.objects.get(event=event, replay=1)

    api = APIClient()
    api.force_authenticate(organizer)
    refused = api.post(f"/api/events/{event.pk}/forfeit/", {
        "pairing": first.pairing, "entrant": first.entrants[0], "expected_seq": read},
        format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "stale_seq")
    answer = client.post(reverse("league:match_forfeit", args=[event.pk]), {
        "pairing": first.pairing, "entrant": first.entrants[0], "seq": str(read)},
        HTTP_HX_REQUEST="true").content.decode()
    assert "(stale_seq)" in answer
    again.match.refresh_from_db()
    assert again.match.status == Match.Status.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_after_a_draw_not_yet_recorded_makes_no_replay(
        toy_game: Any, seeded_chance: None, organizer: Any, player: Any, player2: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker has not recorded the draw when one side withdraws: the draw is written
    down and the other side goes through, with no replay match made for nobody to play."""
    import league.receivers as receivers
    from league.tasks import record_result

    real = receivers.enqueue
    monkeypatch.setattr(receivers, "enqueue",
                        lambda task, *a: None if task is record_result else real(task, *a))
    event = knockout(toy_game, organizer, player, player2)
    first = EventMatch.objects.get(event=event)
    users = [first.match.seats.get(index=i).user for i in range(2)]
    play_out(toy_game, first.match, users, draw=True)
    assert not event.records.filter(kind=EventRecord.Kind.MATCH_DRAWN).exists()

    gone, stays = first.entrants
    events.withdraw_entrant(event=event, by=organizer, key=gone)

    assert list(EventMatch.objects.filter(event=event).values_list("replay", flat=True)) == [0]
    assert event.records.filter(kind=EventRecord.Kind.MATCH_DRAWN).count() == 1
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert Standing.objects.get(event=event, rank=1).entrant.key == stays
    assert events.record_match_result(match=first.match) is False  # the late task: nothing
