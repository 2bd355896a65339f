"""Forfeits, seats handed to bots, and the signal a finished match sends."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import registry
from matches import services
from matches.models import Match
from matches.signals import match_finished
from tests.conftest import event_match, played_until

GAME = "super_showdown"


def two_humans(player: Any, player2: Any) -> Match:
    """Alice's match against Bruno, whom she invited and who joined."""
    match = services.create_match(
        game=GAME, options={}, seats=[{"player": player.username}, {"player": player2.username}],
        created_by=player,
    )
    services.join_match(match=match, user=player2)
    return match


@pytest.fixture
def heard() -> Any:
    """The matches `match_finished` announced, in order."""
    got: list[int] = []

    def listen(sender: Any, match: Match, **kwargs: Any) -> None:
        got.append(match.pk)

    match_finished.connect(listen, weak=False)
    yield got
    match_finished.disconnect(listen)


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_ends_the_match_with_every_other_seat_winning(player, player2, heard) -> None:
    match = two_humans(player, player2)
    services.forfeit_seat(match=match, seat=0)
    match.refresh_from_db()
    assert match.status == "finished"
    assert match.result["winners"] == [1]
    assert match.result["placements"] == [2, 1]
    assert match.result["forfeit"] == 0
    assert heard == [match.pk]


@pytest.mark.django_db
def test_a_finished_match_cannot_be_forfeited_again(player, player2) -> None:
    match = two_humans(player, player2)
    services.forfeit_seat(match=match, seat=1)
    with pytest.raises(services.ServiceError) as refused:
        services.forfeit_seat(match=match, seat=0)
    assert refused.value.code == "match_not_active"
    match.refresh_from_db()
    assert match.result["winners"] == [0]


@pytest.mark.django_db(transaction=True)
def test_a_seat_handed_to_a_bot_is_played_by_it_to_the_end(player, player2, heard) -> None:
    match = two_humans(player, player2)
    services.hand_seat_to_bot(match=match, seat=0, bot="random")
    services.hand_seat_to_bot(match=match, seat=1, bot="heuristic")
    match.refresh_from_db()
    assert match.status == "finished"
    assert heard == [match.pk]
    seats = list(match.seats.order_by("index"))
    assert [s.label for s in seats] == [f"bot: random for {player.username}",
                                        f"bot: heuristic for {player2.username}"]
    assert [s.stood_in_for for s in seats] == [player, player2]  # still their matches


@pytest.mark.django_db
def test_an_unknown_bot_cannot_take_a_seat(player, player2) -> None:
    match = two_humans(player, player2)
    with pytest.raises(services.ServiceError) as refused:
        services.hand_seat_to_bot(match=match, seat=0, bot="grandmaster")
    assert (refused.value.code, refused.value.detail) == (
        "unknown_bot", f"{registry.title(GAME)} has no bot called 'grandmaster'.")
    assert registry.title(GAME) != GAME  # the game's name, not its key
    assert match.seats.get(index=0).user == player


@pytest.mark.django_db(transaction=True)
def test_a_match_played_to_the_end_is_announced_once(player, heard) -> None:
    match = services.create_match(
        game=GAME, options={}, seats=[{"player": player.username}, {"bot": "random"}],
        created_by=player,
    )
    for _ in range(200):
        state = services.match_state(match=match, user=player)
        if state["status"] == "finished":
            break
        services.submit_action(match=match, seat=0, action=state["legal_actions"][0],
                               user=player)
    assert heard == [match.pk]


# -- leaving and resigning a match of one's own ----------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_resigning_a_live_match_ends_it_with_the_resigner_last(player, player2, heard) -> None:
    match = two_humans(player, player2)
    assert services.resign(match=match, user=player2) == "resigned"
    assert match.status == "finished"  # the caller's instance sees it too
    match.refresh_from_db()
    assert match.result["placements"] == [1, 2] and match.result["forfeit"] == 1
    assert "resigned" in match.result["summary"]
    assert heard == [match.pk]


@pytest.mark.django_db
def test_leaving_an_open_match_frees_the_seat_and_the_last_to_leave_removes_it(
        player, player2) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True},
                                         {"open": True}])
    services.join_match(match=match, user=player2)
    assert services.resign(match=match, user=player) == "left"
    assert list(match.seats.order_by("index").values_list("user", flat=True)) == [
        None, player2.pk, None]
    assert match.events.count() == 0
    services.join_match(match=match, user=player)  # the freed seat is open again
    assert services.resign(match=match, user=player) == "left"
    assert services.resign(match=match, user=player2) == "left"
    assert not Match.objects.filter(pk=match.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "system", "finish", "code"), [
    ("outsider", False, False, "not_seated"),
    ("player", True, False, "event_match"),
    ("player", False, True, "match_over"),
])
def test_what_cannot_be_resigned(organizer, player, player2, django_user_model, who, system,
                                 finish, code) -> None:
    if system:  # an Event's match, which its organizer ends
        match = event_match(organizer, player, finish=False)
    else:
        match = services.create_match(game=GAME, options={}, created_by=player, seats=[
            {"player": player.username}, {"player": player2.username}])
        services.join_match(match=match, user=player2)
    if finish:
        services.forfeit_seat(match=match, seat=1)
    user = player if who == "player" else django_user_model.objects.create_user("olga")
    with pytest.raises(services.ServiceError) as refused:
        services.resign(match=match, user=user)
    assert refused.value.code == code
    match.refresh_from_db()
    assert match.status == ("finished" if finish else "active")


@pytest.mark.django_db
def test_a_player_resigns_a_live_match_whose_maker_was_deleted(
        django_user_model: Any, player: Any, player2: Any) -> None:
    """No maker does not make it an Event's match, which only its organizer ends."""
    staff = django_user_model.objects.create_user(username="sam", is_staff=True)
    match = services.create_match(game=GAME, options={}, created_by=staff,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    staff.delete()
    match.refresh_from_db()
    assert services.resign(match=match, user=player2) == "resigned"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["forfeit"] == 1


# -- invitations ---------------------------------------------------------------------------

def seat_rows(match: Match) -> list[tuple[Any, Any, str]]:
    return list(match.seats.order_by("index").values_list("user", "invited", "bot"))


@pytest.mark.django_db
def test_a_player_named_by_another_player_is_invited_and_only_they_may_take_the_seat(
        player, player2, outsider, django_user_model) -> None:
    """Nobody is seated without their say: the seat is held for Bruno, an open seat
    beside it is anyone's, and Bruno's joining takes the seat held for him."""
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True},
                                         {"player": player2.username}])
    assert (match.status, seat_rows(match)) == (
        "open", [(player.pk, None, ""), (None, None, ""), (None, player2.pk, "")])
    services.join_match(match=match, user=outsider)  # the seat open to anyone
    with pytest.raises(services.ServiceError) as refused:
        services.join_match(match=match, user=django_user_model.objects.create_user("ada"))
    assert (refused.value.code, refused.value.status) == ("no_open_seat", 409)
    services.join_match(match=match, user=player2)
    match.refresh_from_db()
    assert (match.status, seat_rows(match)) == (
        "active", [(player.pk, None, ""), (outsider.pk, None, ""), (player2.pk, None, "")])


@pytest.mark.django_db
def test_staff_and_the_league_seat_whom_they_name(player, player2, organizer) -> None:
    for maker in (organizer, None):
        match = services.create_match(game=GAME, options={}, created_by=maker,
                                      seats=[{"player": player.username},
                                             {"player": player2.username}])
        assert (match.status, seat_rows(match)) == (
            "active", [(player.pk, None, ""), (player2.pk, None, "")])


@pytest.mark.django_db
def test_a_player_is_invited_to_one_seat_only_but_may_hold_two_themselves(
        player, player2) -> None:
    with pytest.raises(services.ServiceError) as refused:
        services.create_match(game="royal_rumble", options={}, created_by=player,
                              seats=[{"player": player.username}, {"player": player2.username},
                                     {"player": player2.username}])
    assert refused.value.code == "bad_seat"
    assert not Match.objects.exists()
    hot_seat = services.create_match(game=GAME, options={}, created_by=player,
                                     seats=[{"player": player.username},
                                            {"player": player.username}])
    assert hot_seat.status == "active"


@pytest.mark.django_db
def test_declining_opens_the_seat_and_a_bot_given_the_seat_ends_the_invitation(
        player, player2, outsider) -> None:
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"player": player2.username},
                                         {"player": outsider.username}])
    assert services.resign(match=match, user=player2) == "declined"
    assert seat_rows(match)[1] == (None, None, "")
    services.hand_seat_to_bot(match=match, seat=2, bot="random")
    assert seat_rows(match)[2] == (None, None, "random")
    with pytest.raises(services.ServiceError) as refused:
        services.resign(match=match, user=outsider)  # no longer invited
    assert refused.value.code == "not_seated"
    services.join_match(match=match, user=player2)  # changed their mind: the seat is open
    match.refresh_from_db()
    assert match.status == "active"


@pytest.mark.django_db
def test_a_match_its_maker_leaves_goes_with_its_invitations(player, player2) -> None:
    match = services.create_match(game=GAME, options={}, created_by=player,
                                  seats=[{"player": player.username},
                                         {"player": player2.username}])
    assert services.resign(match=match, user=player) == "left"
    assert not Match.objects.filter(pk=match.pk).exists()


@pytest.mark.django_db
def test_a_match_removed_under_a_caller_is_not_found_not_a_crash(player, player2) -> None:
    """A join, an action or a resignation that loaded the match just before its last
    player left it (which removes it) is answered 404 not_found."""
    match = services.create_match(game=GAME, options={}, created_by=player,
                                  seats=[{"player": player.username}, {"open": True}])
    loaded = Match.objects.get(pk=match.pk)  # what the other request read
    assert services.resign(match=match, user=player) == "left"
    calls = [lambda: services.join_match(match=loaded, user=player2),
             lambda: services.submit_action(match=loaded, seat=0, action={"type": "pass"},
                                            user=player),
             lambda: services.resign(match=loaded, user=player),
             lambda: services.hand_seat_to_bot(match=loaded, seat=1, bot="random")]
    for call in calls:
        with pytest.raises(services.ServiceError) as refused:
            call()
        assert (refused.value.code, refused.value.status) == ("not_found", 404)


# -- a forfeit where the game eliminates and plays on ------------------------------------------

def rumble(organizer: Any, *seats: dict[str, str], round_limit: int = 3) -> Match:
    """A Royal Rumble the organizer seats as named (staff seat whom they name)."""
    return services.create_match(game="royal_rumble", options={"round_limit": round_limit},
                                 seats=list(seats), created_by=organizer)


def play_out(match: Match, user: Any, seat: int) -> None:
    """The user's seat plays its first legal action until the match ends (the bots play
    theirs as they are due)."""
    for _ in range(2000):
        state = services.match_state(match=match, user=user, seat=seat)
        if state["status"] == "finished":
            return
        assert state["legal_actions"], state["pending"]
        services.submit_action(match=match, seat=seat, action=state["legal_actions"][0],
                               user=user)
    raise AssertionError("the match did not end")


@pytest.mark.django_db(transaction=True)
def test_a_resignation_in_a_three_seat_rumble_eliminates_the_seat_and_the_rest_play_on(
        organizer, player, player2, heard) -> None:
    """RR-34/55/58 (the forfeit decision in engine/games/royal_rumble): Bruno resigns
    seat 2; Alice and the bot play on to a result, Bruno placed as eliminated first."""
    match = rumble(organizer, {"player": "alice"}, {"player": "bruno"}, {"bot": "random"})
    assert services.resign(match=match, user=player2) == "resigned"
    match.refresh_from_db()
    assert match.status == "active" and heard == []
    last = match.events.order_by("-seq").first()
    assert (last.kind, last.seat, last.payload) == ("forfeit", 1, {"reason": "resigned"})
    for user in (player, player2, None):
        state = services.match_state(match=match, user=user)
        assert state["view"]["players"][1]["forfeited"] is True
        assert 1 not in state["pending"]["seats"]
    narration = [line for e in services.match_events(match=match, user=player)
                 for line in e["narration"]]
    assert "Seat 2 forfeited and is out." in narration
    # Sent again (its answer lost), it answers as the first did and writes nothing.
    assert services.resign(match=match, user=player2) == "resigned"
    assert services.forfeited_seats(match) == [1]
    play_out(match, player, 0)
    match.refresh_from_db()
    assert heard == [match.pk]
    assert match.result["placements"][1] == 3 and 1 not in match.result["winners"]
    assert match.result["forfeits"] == [1] and "forfeit" not in match.result
    assert match.events.filter(kind="decision", seat=2).exists()  # the bot played on
    state = services.load_state(match)
    services.clear_state_cache()
    assert services.load_state(match) == state  # the stream replays to the same state


@pytest.mark.django_db
def test_a_forfeiting_seats_face_down_plan_and_hand_reach_nobody(organizer, player, player2,
                                                                 outsider) -> None:
    """RR-16 decision and the forfeit decision: Bruno's Attack is face down when the
    organizer forfeits his seat; no other seat nor a spectator ever reads it or his hand,
    and the round goes on without him."""
    for _ in range(50):  # a deal that gives Bruno an Attack card (the deal is random)
        match = rumble(organizer, {"player": "alice"}, {"player": "bruno"}, {"player": "olga"})
        services.submit_action(match=match, seat=0, action={"type": "breather"}, user=player)
        services.submit_action(match=match, seat=0, action={"type": "end_breather"},
                               user=player)
        attack = next((a for a in services.match_state(match=match, user=player2)
                       ["legal_actions"] if a["type"] == "plan_attack"), None)
        if attack is not None:
            break
    assert attack is not None
    services.submit_action(match=match, seat=1, action=attack, user=player2)
    services.submit_action(match=match, seat=1, action={"type": "target", "seat": 0},
                           user=player2)
    hidden = {attack["card"], *services.load_state(match).players[1].hand}
    services.forfeit_seat(match=match, seat=1)
    for user in (player, outsider, None):
        state = services.match_state(match=match, user=user)
        read = json.dumps([state, services.match_events(match=match, user=user)])
        assert not {card for card in hidden if f'"{card}"' in read}
    assert services.match_state(match=match, user=outsider)["pending"]["seats"] == [2]


@pytest.mark.django_db
def test_one_who_holds_several_seats_of_a_rumble_resigns_them_one_by_one(
        organizer, player, player2, outsider) -> None:
    """RR-34 and the forfeit decision of engine/games/royal_rumble: alice holds two seats
    of a four-seat Rumble (a staff lineup). A resignation naming no seat takes her first
    seat still in the match, then the other; her page plays the seat still in; with both
    out, a resignation sent again answers as the first did and writes nothing, and bruno
    and olga play on."""
    match = rumble(organizer, {"player": "alice"}, {"player": "alice"},
                   {"player": "bruno"}, {"player": "olga"})
    assert services.resigning_seat(match, player) == 0
    assert services.resign(match=match, user=player) == "resigned"
    assert services.seats_out(match) == {0}
    assert services.resigning_seat(match, player) == 1
    assert services.page_seat(match, player) == 1
    assert services.resign(match=match, user=player) == "resigned"
    assert services.forfeited_seats(match) == [0, 1]
    assert services.seats_out(match) == {0, 1}
    for seat in (None, 0, 1):
        assert services.resign(match=match, user=player, seat=seat) == "resigned"
    assert services.forfeited_seats(match) == [0, 1]
    match.refresh_from_db()
    assert match.status == "active"
    assert set(services.match_state(match=match, user=None)["pending"]["seats"]) <= {2, 3}


@pytest.mark.django_db
def test_a_resignation_naming_a_seat_puts_that_one_out_and_one_naming_none_the_other(
        organizer, player, player2) -> None:
    """The forfeit decision (RR-55: one player left at the table wins): alice resigns her
    second seat by name, then, naming none, her first; bruno is left alone and wins."""
    match = rumble(organizer, {"player": "alice"}, {"player": "alice"}, {"player": "bruno"})
    assert services.resign(match=match, user=player, seat=1) == "resigned"
    match.refresh_from_db()
    assert match.status == "active" and services.forfeited_seats(match) == [1]
    assert services.resigning_seat(match, player) == 0
    assert services.resign(match=match, user=player) == "resigned"
    match.refresh_from_db()
    assert match.status == "finished" and match.result["forfeits"] == [1, 0]
    assert match.result["winners"] == [2]


@pytest.mark.django_db
def test_a_seat_out_by_a_forfeit_is_handed_to_no_bot(organizer, player, player2,
                                                     outsider) -> None:
    """The forfeit decision of engine/games/royal_rumble: bruno's seat is out and asked
    nothing any more, so a bot for it is refused (409 seat_out) and nothing changes; a
    seat still in goes to the bot as before."""
    match = rumble(organizer, {"player": "alice"}, {"player": "bruno"}, {"player": "olga"})
    services.forfeit_seat(match=match, seat=1)
    match.refresh_from_db()
    seq = match.seq
    with pytest.raises(services.ServiceError) as refused:
        services.hand_seat_to_bot(match=match, seat=1, bot="random")
    assert (refused.value.code, refused.value.status) == ("seat_out", 409)
    assert "Seat 2 is out of the match" in refused.value.detail
    row = match.seats.get(index=1)
    assert (row.user_id, row.bot, row.stood_in_for_id) == (player2.pk, "", None)
    match.refresh_from_db()
    assert match.seq == seq
    assert services.hand_seat_to_bot(match=match, seat=2, bot="random").bot == "random"


@pytest.mark.django_db
def test_a_seat_a_fall_eliminated_is_out_too_resigned_by_nobody_and_given_no_bot(
        organizer) -> None:
    """SH-072/081: a fall eliminates a seat of a Fatal Four Way Elimination and the match
    goes on. The engine tells it out as one a forfeit put out: the organizer, holding
    every seat, resigns their first seat still in by default, and the eliminated one is
    refused a bot (409 seat_out)."""
    match = services.create_match(
        game="supershow", options={"match_type": "fatal_four_way_elimination"},
        seats=[{"player": "organizer"}] * 4, created_by=organizer)
    played_until(match, lambda: bool(services.load_state(match).out))
    (seat,) = services.load_state(match).out
    assert services.seats_out(match) == {seat} and not services.forfeited_seats(match)
    assert services.resigning_seat(match, organizer) == (1 if seat == 0 else 0)
    with pytest.raises(services.ServiceError) as refused:
        services.hand_seat_to_bot(match=match, seat=seat, bot="random")
    assert (refused.value.code, refused.value.status) == ("seat_out", 409)
    assert services.resign(match=match, user=organizer) == "resigned"
    assert services.forfeited_seats(match) == [1 if seat == 0 else 0]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "options", "seats"), [
    ("royal_rumble", {}, 2),
    ("supershow", {"match_type": "triple_threat_first_fall"}, 3),
    ("ultimate_showdown", {}, 3),
])
def test_where_the_game_does_not_play_on_a_forfeit_still_ends_the_match(
        organizer, game, options, seats) -> None:
    """Two seats, a first fall, a party game: the forfeiter's side last, the others first,
    and the stream holds no forfeit."""
    match = services.create_match(game=game, options=options, created_by=organizer,
                                  seats=[{"player": "organizer"}] * seats)
    services.forfeit_seat(match=match, seat=1)
    match.refresh_from_db()
    assert match.status == "finished" and match.result["forfeit"] == 1
    assert match.result["placements"] == [1, 2] + [1] * (seats - 2)
    assert not match.events.filter(kind="forfeit").exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("match_type", ["triple_threat_elimination",
                                        "fatal_four_way_elimination"])
def test_a_resignation_in_a_supershow_elimination_match_eliminates_the_seat_and_it_goes_on(
        organizer, player, player2, heard, match_type) -> None:
    """SH-072/081/106 and the forfeit decision in engine/games/supershow: Bruno resigns;
    he is eliminated as a fall eliminates, the others play on to a result, Bruno placed
    as the first one out, and the stream replays to the same state."""
    bots = [{"bot": "random"}] * (2 if match_type.startswith("fatal") else 1)
    match = services.create_match(
        game="supershow", options={"match_type": match_type, "turn_limit": 60},
        seats=[{"player": "alice"}, {"player": "bruno"}, *bots], created_by=organizer)
    assert services.resign(match=match, user=player2) == "resigned"
    match.refresh_from_db()
    assert match.status == "active" and heard == []
    assert match.events.filter(kind="forfeit", seat=1).count() == 1
    for user in (player, player2, None):
        state = services.match_state(match=match, user=user)
        assert state["view"]["forfeited"] == [1] and 1 in state["view"]["eliminated"]
        assert 1 not in state["pending"]["seats"]
    narration = [line for e in services.match_events(match=match, user=None)
                 for line in e["narration"]]
    assert any(line.endswith("forfeited and is out.") for line in narration)
    play_out(match, player, 0)
    match.refresh_from_db()
    assert heard == [match.pk] and match.result["forfeits"] == [1]
    places = match.result["placements"]  # (SH-081: the first out places last, alone)
    assert all(place < places[1] for seat, place in enumerate(places) if seat != 1)
    state = services.load_state(match)
    services.clear_state_cache()
    assert services.load_state(match) == state


@pytest.mark.django_db(transaction=True)
def test_a_resignation_during_a_birdcage_draft_puts_the_seat_out_and_the_bots_draft_on(
        organizer, player, player2, heard) -> None:
    """SH-115..119/125 and the forfeit decision in engine/games/supershow: Bruno resigns
    while the Birdcage drafts; the draft goes on without him, the bots drafting too, he
    never enters the cage, and the match plays on to a result that places him last."""
    match = services.create_match(
        game="supershow", options={"match_type": "birdcage", "turn_limit": 10},
        seats=[{"player": "alice"}, {"player": "bruno"}, {"bot": "random"}, {"bot": "random"}],
        created_by=organizer)
    assert services.load_state(match).phase == "draft"  # a person's pick is awaited
    assert services.page_state(match=match, user=player2)["resign"] == "out"
    assert services.resign(match=match, user=player2) == "resigned"
    match.refresh_from_db()
    assert match.status == "active" and heard == []
    forfeit = match.events.get(kind="forfeit")
    assert (forfeit.seat, forfeit.payload) == (1, {"reason": "resigned"})
    for user in (player, player2, None):
        state = services.page_state(match=match, user=user)
        assert state["view"]["forfeited"] == [1] and not state["view"]["draft"]["done"]
        assert 1 not in state["pending"]["seats"]
    assert services.page_state(match=match, user=player2)["resign"] == "already_out"
    play_out(match, player, 0)
    match.refresh_from_db()
    assert heard == [match.pk] and match.result["forfeits"] == [1]
    places = match.result["placements"]
    assert all(place < places[1] for seat, place in enumerate(places) if seat != 1)
    after = match.events.filter(seq__gt=forfeit.seq)
    assert after.filter(kind="decision", seat__in=[2, 3], payload__action__type="pick").exists()
    state = services.load_state(match)
    assert state.decks[1] == () and not state.players[1].turns  # never in the cage
    services.clear_state_cache()
    assert services.load_state(match) == state


@pytest.mark.django_db(transaction=True)
def test_both_seats_forfeiting_together_end_the_match_once_with_no_winner(
        player, player2, heard) -> None:
    match = two_humans(player, player2)
    services.forfeit_seats(match=match, seats=[0, 1], reason="deadline")
    match.refresh_from_db()
    assert match.status == "finished"
    assert (match.result["winners"], match.result["placements"]) == ([], [2, 2])
    assert (match.result["forfeit"], match.result["forfeited"]) == (0, [0, 1])
    assert match.result["summary"] == "Blue and Red both forfeited (deadline): no winner."
    assert heard == [match.pk]


@pytest.mark.django_db
def test_seats_forfeiting_together_leave_the_others_sharing_first(organizer) -> None:
    match = services.create_match(game="ultimate_showdown", options={}, created_by=organizer,
                                  seats=[{"player": "organizer"}] * 4)
    services.forfeit_seats(match=match, seats=[3, 1])
    match.refresh_from_db()
    assert (match.result["winners"], match.result["placements"]) == ([0, 2], [1, 2, 1, 2])
    assert match.result["forfeited"] == [1, 3] and match.result["forfeit"] == 1


@pytest.mark.django_db
def test_seats_of_a_game_that_plays_on_without_them_are_not_forfeited_together(
        organizer, player, player2, outsider) -> None:
    """A Royal Rumble forfeit puts one seat out and the match goes on: the seats forfeit
    one by one (409 forfeit_eliminates), and nothing changes."""
    match = rumble(organizer, {"player": "alice"}, {"player": "bruno"}, {"player": "olga"})
    seq = match.seq
    with pytest.raises(services.ServiceError) as refused:
        services.forfeit_seats(match=match, seats=[0, 1])
    assert (refused.value.code, refused.value.status) == ("forfeit_eliminates", 409)
    match.refresh_from_db()
    assert match.status == "active" and match.seq == seq
