"""Closing an account while an organizer enters it in an Event or a player invites it, on
PostgreSQL (SQLite writes one transaction at a time, so nothing there runs at the same
instant): the close or the other is refused, never both done, which left an account that
signs in no more with an Event entry (its next match refused to be made) or a seat held
in an open match."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from league import events
from league.models import Entrant
from league.services import AccountError, close_user
from matches import services
from matches.models import Match, Seat

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "super_showdown"


def in_thread(call: Callable[[], Any], answers: dict[str, Any], name: str) -> threading.Thread:
    def run() -> None:
        try:
            answers[name] = call()
        except (AccountError, events.LeagueError, services.ServiceError) as exc:
            answers[name] = exc.code
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def against_a_close(player: Any, name: str, call: Callable[[], Any]) -> dict[str, Any]:
    """The answers of closing `player`'s account and of `call`, made while the close
    runs: the test holds the player's open match locked, so the close takes the
    account's rows and waits there; `call` comes then, and the match is let go."""
    waiting = services.create_match(game=GAME, options={}, created_by=player,
                                    seats=[{"player": "alice"}, {"open": True}])
    answers: dict[str, Any] = {}
    with transaction.atomic():
        Match.objects.select_for_update().get(pk=waiting.pk)
        closing = in_thread(lambda: close_user(player), answers, "close")
        time.sleep(1)  # the close holds alice's rows and waits for her match
        other = in_thread(call, answers, name)
        other.join(timeout=2)
    closing.join(timeout=30)
    other.join(timeout=30)
    assert not closing.is_alive() and not other.is_alive()
    return answers


def test_an_entry_made_as_the_account_closes_waits_and_is_refused(
        player: Any, organizer: Any) -> None:
    """The close holds the account's row while it leaves alice's open match, which the
    test holds locked meanwhile: the organizer's entry of her waits for the close, then
    finds nobody to enter; it went through and the close went on regardless."""
    cup = events.create_event(name="Late Show", game=GAME, format="round_robin",
                              by=organizer)
    answers = against_a_close(player, "entry", lambda: events.add_entrant(
        event=cup, by=organizer, player="alice"))
    assert answers["close"] is None and answers["entry"] == "unknown_player"
    assert not get_user_model().objects.get(pk=player.pk).is_active
    assert not Entrant.objects.filter(event=cup).exists()


def test_an_invitation_made_as_the_account_closes_waits_and_is_refused(
        player: Any, player2: Any) -> None:
    """bruno invites alice as she closes her account: his match waits for the close, then
    finds nobody to invite; it was made holding a seat for an account that signs in no
    more, which nobody else could take."""
    answers = against_a_close(player, "invite", lambda: services.create_match(
        game=GAME, options={}, created_by=player2,
        seats=[{"player": "bruno"}, {"player": "alice"}]))
    assert answers["close"] is None and answers["invite"] == "unknown_player"
    assert not Seat.objects.filter(invited=player).exists()
    assert not Match.objects.filter(created_by=player2).exists()


def test_a_seat_taken_as_the_account_closes_waits_and_is_refused(
        player: Any, player2: Any) -> None:
    """alice, closing her account in one tab, joins bruno's match in another: the join
    waits for the close and takes no seat (it took one the close had not seen, and the
    match waited for her for good)."""
    his = services.create_match(game="royal_rumble", options={}, created_by=player2,
                                seats=[{"player": "bruno"}, {"open": True}, {"open": True}])
    answers = against_a_close(player, "join",
                              lambda: services.join_match(match=his, user=player))
    assert answers["close"] is None and answers["join"] == "unknown_player"
    assert not Seat.objects.filter(user=player, match=his).exists()


def test_an_address_confirmed_as_the_account_closes_is_refused_after_it(player: Any) -> None:
    """The mailed link opened as the close runs waits for it and finds no address
    waiting: the close took the account's row and then the player's, the link the
    player's and then the account's, and PostgreSQL ended the close as a deadlock."""
    from django.core import signing

    from league.models import Player
    from league.services import EMAIL_SALT, confirm_email, player_for

    Player.objects.filter(pk=player_for(player).pk).update(pending_email="a2@example.org")
    link = signing.dumps({"user": player.pk, "email": "a2@example.org"}, salt=EMAIL_SALT)
    answers = against_a_close(player, "confirm", lambda: confirm_email(link))
    assert answers == {"close": None, "confirm": "bad_link"}
    assert get_user_model().objects.get(pk=player.pk).email == ""


def test_a_name_given_as_the_account_closes_is_refused_after_it(player: Any) -> None:
    """A rename sent from another tab as the account closes waits for the close and is
    refused: it was written after it, and the closed player showed the name given."""
    from league.models import Player
    from league.services import CLOSED_NAME, player_for, rename_player

    alice = player_for(player)
    answers = against_a_close(player, "rename", lambda: rename_player(alice, "Alice Archer"))
    assert answers == {"close": None, "rename": "account_closed"}
    assert Player.objects.get(pk=alice.pk).display_name == CLOSED_NAME
