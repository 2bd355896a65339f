"""Account changes that arrive at once leave the account as one order of them would."""

from __future__ import annotations

import uuid
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from rest_framework.test import APIClient

from league import services
from league.models import Player
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

TRIALS = 12


def waiting_for(new: str) -> tuple[Any, str]:
    """A player whose address is old@, with `new` pending, and the link mailed to `new`."""
    user = get_user_model().objects.create_user(username=f"mailer-{uuid.uuid4().hex[:8]}",
                                                email="old@example.org", password=PASSWORD)
    Player.objects.create(user=user, display_name=user.username, pending_email=new,
                          turn_mail=True)
    token = signing.dumps({"user": user.pk, "email": new}, salt=services.EMAIL_SALT)
    return user, token


def outcome(call: Any) -> str:
    try:
        return str(call())
    except services.AccountError as exc:
        return exc.code


def confirming(token: str) -> str:
    return outcome(lambda: services.confirm_email(token).email)


def test_an_address_removed_while_its_link_is_opened_stays_removed(race: Any) -> None:
    """Removed first, the link is refused; opened first, the removal takes it away: either
    way the account has no address. The link's reading of the pending address, taken
    before the removal wrote, must not confirm it after."""
    for _ in range(TRIALS):
        user, token = waiting_for("new@example.org")
        answers, errors = race([partial(confirming, token),
                                partial(services.set_email, user, "")])
        assert errors == []
        assert answers[1] == "removed"
        assert answers[0] in ("new@example.org", "bad_link")
        user.refresh_from_db()
        assert (user.email, user.player.pending_email, user.player.turn_mail) == ("", "", False)


def give_another(user: Any) -> int:
    client = APIClient()
    client.force_authenticate(user)
    return client.patch("/api/auth/me/", {"email": "second@example.org", "password": PASSWORD},
                        format="json").status_code


def test_a_new_address_given_while_the_last_link_is_opened_stays_pending(race: Any) -> None:
    """The account page said the newest address waits for its link: opening the older
    link at that moment must not wipe it (either it confirms the older address, which the
    newer then replaces once confirmed, or it is refused as replaced)."""
    for _ in range(TRIALS):
        user, token = waiting_for("first@example.org")
        answers, errors = race([partial(confirming, token), partial(give_another, user)])
        assert errors == []
        assert answers[1] == 200
        user.refresh_from_db()
        assert user.player.pending_email == "second@example.org", answers
        assert user.email == ("first@example.org" if answers[0] == "first@example.org"
                              else "old@example.org")


def turning_on(player: Player) -> str:
    return outcome(lambda: services.set_turn_mail(player, True).turn_mail)


def test_turn_mails_asked_for_as_the_address_is_removed_are_not_left_on(
        race: Any, settings: Any) -> None:
    """Turn mails go to an address: asked for as it is removed, they are refused (no
    address) or turned off with it, never left on with nowhere to go."""
    settings.TURN_MAIL = True
    for _ in range(TRIALS):
        user, _ = waiting_for("")
        Player.objects.filter(user=user).update(turn_mail=False)
        player = Player.objects.get(user=user)
        answers, errors = race([partial(turning_on, player),
                                partial(services.set_email, user, "")])
        assert errors == []
        assert answers[0] in ("True", "no_email"), answers
        player.refresh_from_db()
        assert (player.user.email, player.turn_mail) == ("", False), answers
