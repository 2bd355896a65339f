"""A finished match played again by its players (`services.rematch`)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from matches import services
from matches.models import Match
from matches.services import ServiceError
from tests.conftest import event_match

pytestmark = pytest.mark.django_db
GAME = "super_showdown"


def finished(creator: Any, seats: list[dict[str, Any]], *others: Any, game: str = GAME,
             options: dict[str, Any] | None = None) -> Match:
    """A match `creator` made with `seats`, joined by `others`, ended by the creator's
    resignation."""
    match = services.create_match(game=game, options=options or {}, seats=seats,
                                  created_by=creator)
    for other in others:
        services.join_match(match=match, user=other)
    services.resign(match=match, user=creator)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def people(match: Match) -> list[tuple[str | None, str | None, str]]:
    return [(s.user.username if s.user else None, s.invited.username if s.invited else None,
             s.bot) for s in match.seats.order_by("index")]


def test_the_first_to_ask_makes_it_and_the_other_accepts_by_asking(player: Any,
                                                                   player2: Any) -> None:
    match = finished(player, [{"player": "alice"}, {"player": "bruno"}], player2)
    again, made = services.rematch(match=match, user=player2)
    assert made and again.rematch_of == match and again.created_by == player2
    assert again.status == Match.Status.OPEN and again.options == match.options
    assert people(again) == [(None, "alice", ""), ("bruno", None, "")]
    accepted, made = services.rematch(match=match, user=player)
    assert not made and accepted.pk == again.pk
    assert accepted.status == Match.Status.ACTIVE
    assert people(accepted) == [("alice", None, ""), ("bruno", None, "")]
    for user in (player, player2):  # asking again answers with it, makes nothing
        assert services.rematch(match=match, user=user) == (accepted, False)
    assert Match.objects.filter(rematch_of=match).count() == 1


def test_a_rematch_against_bots_starts_at_once_with_the_same_bots(player: Any) -> None:
    # (a party game: in Royal Rumble the resignation would leave the bots playing on)
    match = finished(player, [{"bot": "heuristic"}, {"player": "alice"}, {"bot": "random"}],
                     game="ultimate_showdown")
    again, made = services.rematch(match=match, user=player)
    assert made and again.status == Match.Status.ACTIVE and again.game == "ultimate_showdown"
    assert people(again) == [(None, None, "heuristic"), ("alice", None, ""),
                             (None, None, "random")]


def test_a_seat_a_bot_took_over_goes_back_to_its_player(player: Any, player2: Any) -> None:
    match = services.create_match(game=GAME, options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    services.hand_seat_to_bot(match=match, seat=1, bot="random")
    services.resign(match=match, user=player)
    again, _ = services.rematch(match=match, user=player2)  # bruno was stood in for
    assert people(again) == [(None, "alice", ""), ("bruno", None, "")]


@pytest.mark.parametrize("game", sorted(registry.games()))
def test_every_game_plays_again_with_the_options_it_was_played_with(
        player: Any, game: str) -> None:
    rules = registry.get_rules(game)
    seats = [{"player": "alice"}] + [{"bot": "random"}] * (rules.spec.min_seats - 1)
    match = finished(player, seats, game=game)
    again, made = services.rematch(match=match, user=player)
    assert made and again.game == game and again.options == match.options
    assert again.status == Match.Status.ACTIVE and again.seq > 0  # dealt
    assert again.rules_version == rules.spec.rules_version


def test_staff_invite_the_others_to_a_rematch_like_anyone(organizer: Any,
                                                            player: Any) -> None:
    """Staff seat whom they name when they make a match; a rematch asks the others."""
    match = services.create_match(game=GAME, options={}, created_by=organizer,
                                  seats=[{"player": "organizer"}, {"player": "alice"}])
    services.resign(match=match, user=organizer)
    again, _ = services.rematch(match=match, user=organizer)
    assert people(again) == [("organizer", None, ""), (None, "alice", "")]


def test_a_lineup_that_seated_another_player_twice_is_played_again_at_their_asking(
        organizer: Any, player: Any, player2: Any) -> None:
    """An invitation holds one seat: bruno cannot ask alice back to the two she held."""
    match = services.create_match(game="ultimate_showdown", options={}, created_by=organizer,
                                  seats=[{"player": "alice"}, {"player": "alice"},
                                         {"player": "bruno"}])
    services.resign(match=match, user=player)
    with pytest.raises(ServiceError) as refused:
        services.rematch(match=match, user=player2)
    assert (refused.value.code, refused.value.status) == ("lineup_rematch", 409)
    assert not Match.objects.filter(rematch_of=match).exists()
    again, made = services.rematch(match=match, user=player)
    assert made and people(again) == [("alice", None, ""), ("alice", None, ""),
                                      (None, "bruno", "")]
    accepted, _ = services.rematch(match=match, user=player2)
    assert accepted.pk == again.pk and accepted.status == Match.Status.ACTIVE


@pytest.mark.parametrize(("who", "code"), [("olga", "not_seated"), ("alice", "match_not_over")])
def test_only_the_players_of_a_finished_match_play_it_again(
        player: Any, player2: Any, outsider: Any, who: str, code: str) -> None:
    if who == "olga":
        match = finished(player, [{"player": "alice"}, {"player": "bruno"}], player2)
    else:
        match = services.create_match(game=GAME, options={}, created_by=player,
                                      seats=[{"player": "alice"}, {"bot": "random"}])
    with pytest.raises(ServiceError) as refused:
        services.rematch(match=match, user={"olga": outsider, "alice": player}[who])
    assert refused.value.code == code
    assert not Match.objects.filter(rematch_of=match).exists()


def test_an_events_match_is_not_replayed(organizer: Any, player: Any) -> None:
    match = event_match(organizer, player)
    assert match.status == Match.Status.FINISHED
    with pytest.raises(ServiceError) as refused:
        services.rematch(match=match, user=player)
    assert (refused.value.code, refused.value.status) == ("event_match", 409)


def test_the_players_of_a_match_whose_maker_was_deleted_still_play_it_again(
        django_user_model: Any, player: Any, player2: Any) -> None:
    """A lineup staff made for two players: its maker's account is deleted since, so the
    match names no maker, as an Event's match does; it is still the players' match."""
    staff = django_user_model.objects.create_user(username="sam", is_staff=True)
    match = services.create_match(game=GAME, options={}, created_by=staff,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.resign(match=match, user=player)
    staff.delete()
    match.refresh_from_db()
    assert (match.status, match.created_by) == (Match.Status.FINISHED, None)
    assert services.may_make_rematch(match, match.seats.all(), player2)
    again, made = services.rematch(match=match, user=player2)
    assert made and again.rematch_of == match and again.created_by == player2
    accepted, made = services.rematch(match=match, user=player)
    assert not made and accepted.pk == again.pk
    assert people(accepted) == [("alice", None, ""), ("bruno", None, "")]
    assert accepted.status == Match.Status.ACTIVE


def test_a_rematch_counts_against_the_live_match_cap(player: Any, settings: Any) -> None:
    match = finished(player, [{"player": "alice"}, {"bot": "random"}])
    settings.MAX_LIVE_MATCHES = 1
    services.create_match(game=GAME, options={}, created_by=player,
                          seats=[{"player": "alice"}, {"bot": "random"}])
    with pytest.raises(ServiceError) as refused:
        services.rematch(match=match, user=player)
    assert refused.value.code == "too_many_matches"
    assert not Match.objects.filter(rematch_of=match).exists()


def test_after_leaving_an_unaccepted_rematch_asking_makes_a_new_one(player: Any,
                                                                      player2: Any) -> None:
    match = finished(player, [{"player": "alice"}, {"player": "bruno"}], player2)
    first, _ = services.rematch(match=match, user=player)
    services.resign(match=first, user=player)  # left before bruno came: it is removed
    assert not Match.objects.filter(pk=first.pk).exists()
    second, made = services.rematch(match=match, user=player)
    assert made and second.pk != first.pk

