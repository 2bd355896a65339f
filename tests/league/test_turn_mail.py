"""Turn mails: a player who asked for them is mailed when a match has waited a few minutes
for their move, or an invitation for their answer, once a wait, one mail for all their
matches that wait (league.turn_mail)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from league import events
from league.models import EventMatch
from league.services import player_for
from league.turn_mail import mail_awaited_players
from matches import services
from matches.models import Match

SITE = "https://league.example.org"
LATER = timedelta(minutes=6)

pytestmark = [pytest.mark.django_db,
              pytest.mark.usefixtures("mailing_site")]


@pytest.fixture
def mailing_site() -> Any:
    with override_settings(TURN_MAIL=True, SITE_URL=SITE, TURN_MAIL_MINUTES=5):
        yield


def asks_for_mail(user: Any, email: str = "") -> Any:
    user.email = email or f"{user.username}@example.org"
    user.save(update_fields=["email"])
    player = player_for(user)
    player.turn_mail = True
    player.save(update_fields=["turn_mail"])
    return user


def sweep(after: timedelta = LATER) -> int:
    return mail_awaited_players(now=timezone.now() + after)


def move(match: Match, seat: int) -> None:
    user = match.seats.get(index=seat).user
    action = services.match_state(match=match, user=user)["legal_actions"][0]
    services.submit_action(match=match, seat=seat, user=user, action=action)
    match.refresh_from_db()


def new_match(game: str, alice: Any, bruno: Any) -> Match:
    match = services.create_match(
        game=game, options={},
        seats=[{"player": alice.username}, {"player": bruno.username}], created_by=alice)
    services.join_match(match=match, user=bruno)
    match.refresh_from_db()
    return match


def test_a_match_that_waited_mails_the_player_who_asked_once_a_wait(
        toy_match: Match, player: Any, player2: Any) -> None:
    asks_for_mail(player)
    assert sweep(timedelta(minutes=2)) == 0 and not mail.outbox  # not long enough
    assert sweep() == 1
    (sent,) = mail.outbox
    assert sent.to == ["alice@example.org"]  # bruno, awaited too, did not ask
    assert sent.subject == f"Your move in Toy Showdown #{toy_match.pk}"
    assert f"{SITE}/matches/{toy_match.pk}/" in sent.body
    assert f"{SITE}{reverse('account')}" in sent.body
    assert sweep() == 0 and len(mail.outbox) == 1  # the same wait
    # bruno's half of the decision both make at once: alice faces what she was mailed about
    move(toy_match, 1)
    assert sweep() == 0 and len(mail.outbox) == 1
    move(toy_match, 0)  # alice plays; the next round waits for her again
    assert sweep() == 1 and len(mail.outbox) == 2


def test_a_player_at_the_table_who_moves_in_time_gets_none(toy_match: Match,
                                                           player: Any) -> None:
    asks_for_mail(player)
    move(toy_match, 0)
    assert toy_match.seats.get(index=0).awaited is False
    assert sweep() == 0 and not mail.outbox


def test_one_mail_names_every_match_that_waits(toy_match: Match, player: Any,
                                               player2: Any) -> None:
    asks_for_mail(player)
    other = new_match(toy_match.game, player, player2)
    assert sweep() == 2
    (sent,) = mail.outbox
    assert sent.subject == "2 matches wait for you"
    assert set(re.findall(rf"{SITE}/matches/(\d+)/", sent.body)) == {str(toy_match.pk),
                                                                    str(other.pk)}


def test_an_invitation_left_unanswered_is_mailed_once(toy_game: Any, player: Any,
                                                      player2: Any) -> None:
    asks_for_mail(player2)
    match = services.create_match(
        game=toy_game.TOY_KEY, options={},
        seats=[{"player": player.username}, {"player": player2.username}], created_by=player)
    assert sweep() == 1
    (sent,) = mail.outbox
    assert sent.to == ["bruno@example.org"]
    assert sent.subject == f"alice invites you to Toy Showdown #{match.pk}"
    assert "Invitations to answer:" in sent.body and "Your move:" not in sent.body
    assert f"{SITE}/matches/{match.pk}/" in sent.body
    assert sweep() == 0
    services.join_match(match=match, user=player2)  # accepted: now the match waits to move
    assert sweep() == 1 and mail.outbox[1].subject == f"Your move in Toy Showdown #{match.pk}"


def test_an_invitation_from_a_closed_account_names_it_as_the_pages_do(
        player: Any, player2: Any, outsider: Any) -> None:
    """alice made the match that invites bruno, left it to olga, and closed her account:
    the mail said "closed.ID invites you", where his lobby says "Closed account"."""
    from league.services import CLOSED_NAME, close_user

    asks_for_mail(player2)
    match = services.create_match(game="royal_rumble", options={}, created_by=player, seats=[
        {"player": "alice"}, {"open": True}, {"player": "bruno"}])
    services.join_match(match=match, user=outsider)
    services.resign(match=match, user=player)
    close_user(player)
    assert sweep() == 1
    (sent,) = mail.outbox
    assert sent.subject.startswith(f"{CLOSED_NAME} invites you to ")
    assert f"#{match.pk}, from {CLOSED_NAME}:" in sent.body
    assert f"closed.{player.pk}" not in sent.subject + sent.body


@pytest.mark.parametrize("why", ["no address", "turned off", "inactive", "finished",
                                 "site sends none"])
def test_nobody_is_mailed_who_cannot_or_should_not_be(toy_match: Match, player: Any,
                                                      why: str) -> None:
    asks_for_mail(player)
    player_row = player_for(player)
    if why == "no address":
        type(player).objects.filter(pk=player.pk).update(email="")
    elif why == "turned off":
        type(player_row).objects.filter(pk=player_row.pk).update(turn_mail=False)
    elif why == "inactive":
        type(player).objects.filter(pk=player.pk).update(is_active=False)
    elif why == "finished":
        services.forfeit_seat(match=toy_match, seat=1)
    with override_settings(TURN_MAIL=why != "site sends none"):
        assert sweep() == 0
    assert not mail.outbox


def test_an_event_match_names_its_turn_deadline(organizer: Any, player: Any,
                                                player2: Any) -> None:
    asks_for_mail(player)
    asks_for_mail(player2)
    event = events.create_event(name="Mail night", game="super_showdown",
                                format="single_elimination", by=organizer,
                                turn_deadline_minutes=60)
    for user in (player, player2):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    match = EventMatch.objects.get(event=event).match
    assert sweep() == 1
    (sent,) = mail.outbox
    at = timezone.localtime(match.updated_at + timedelta(minutes=60),
                            timezone.get_default_timezone())
    assert f"Its turn deadline passes at {at:%-d %b %Y, %H:%M} UTC." in sent.body
    assert "Super Showdown" in sent.subject


def test_a_turn_deadline_gone_by_is_told_as_passed(organizer: Any, player: Any,
                                                   player2: Any) -> None:
    """The mail sweep that runs before the deadline sweep has handed the seat over (a
    deadline no longer than the wait before a mail, the sweeps behind): the mail says the
    deadline passed, not that it passes at a time gone by."""
    asks_for_mail(player)
    asks_for_mail(player2)
    event = events.create_event(name="Mail night", game="super_showdown",
                                format="single_elimination", by=organizer,
                                turn_deadline_minutes=3)
    for user in (player, player2):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    match = EventMatch.objects.get(event=event).match
    assert mail_awaited_players(now=match.updated_at + timedelta(minutes=6)) == 1
    (sent,) = mail.outbox
    at = timezone.localtime(match.updated_at + timedelta(minutes=3),
                            timezone.get_default_timezone())
    assert (f"Its turn deadline passed at {at:%-d %b %Y, %H:%M} UTC: a bot plays your seat "
            "when the site next applies it.") in sent.body
    assert "passes at" not in sent.body


def test_the_sweep_runs_on_the_schedule() -> None:
    from config.celery import app

    app.loader.import_default_modules()
    task = settings.CELERY_BEAT_SCHEDULE["mail-awaited-players"]["task"]
    assert task in app.tasks


# -- asking for them -----------------------------------------------------------------------

@pytest.fixture
def alice_client(player: Any) -> Client:
    client = Client()
    client.force_login(player)
    return client


def confirm(email: str) -> None:
    """Open the confirmation link mailed to `email` and confirm."""
    (sent,) = [m for m in mail.outbox if m.to == [email]]
    token = re.search(r"/account/email/([^/\s]+)/", sent.body).group(1)  # type: ignore[union-attr]
    assert Client().post(reverse("email_confirm", args=[token])).status_code == 200


def test_the_account_page_turns_them_on_with_an_address_and_off_without(
        alice_client: Client, player: Any, django_capture_on_commit_callbacks: Any) -> None:
    page = alice_client.get(reverse("account")).content.decode()
    assert 'name="turn_mail"' in page
    refused = alice_client.post(reverse("account"), {"form": "turn_mail", "turn_mail": "on"})
    assert refused.status_code == 409 and b"Give an email address first" in refused.content
    assert player_for(player).turn_mail is False
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post(reverse("account"), {"form": "email", "email": "a@example.org",
                                               "password": "a-long-test-password-9"})
    pending = alice_client.post(reverse("account"), {"form": "turn_mail", "turn_mail": "on"})
    assert pending.status_code == 409  # not the account's address until it is confirmed
    confirm("a@example.org")
    done = alice_client.post(reverse("account"), {"form": "turn_mail", "turn_mail": "on"})
    assert done.status_code == 302 and player_for(player).turn_mail is True
    alice_client.post(reverse("account"), {"form": "email", "email": ""})
    assert player_for(player).turn_mail is False


@override_settings(TURN_MAIL=False)
def test_a_site_that_mails_nothing_does_not_offer_them(alice_client: Client) -> None:
    assert b'name="turn_mail"' not in alice_client.get(reverse("account")).content


def test_the_api_turns_them_on_and_off(player_api: Any, player: Any,
                                       django_capture_on_commit_callbacks: Any) -> None:
    refused = player_api.patch("/api/auth/me/", {"turn_mail": True}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "no_email")
    new_address = {"email": "a@example.org", "password": "a-long-test-password-9"}
    with django_capture_on_commit_callbacks(execute=True):
        both = player_api.patch("/api/auth/me/", {**new_address, "turn_mail": True},
                                format="json")
    assert (both.status_code, both.json()["code"]) == (409, "no_email")  # unconfirmed
    assert not mail.outbox and player_for(player).pending_email == ""  # nothing written
    with django_capture_on_commit_callbacks(execute=True):
        given = player_api.patch("/api/auth/me/", new_address, format="json")
    assert given.json()["email_pending"] == "a@example.org"
    confirm("a@example.org")
    on = player_api.patch("/api/auth/me/", {"turn_mail": True}, format="json")
    assert on.status_code == 200 and on.json()["turn_mail"] is True
    cleared = player_api.patch("/api/auth/me/", {"email": ""}, format="json")
    assert cleared.json()["turn_mail"] is False and player_for(player).turn_mail is False
    with override_settings(TURN_MAIL=False):
        player_api.patch("/api/auth/me/", new_address, format="json")
        off = player_api.patch("/api/auth/me/", {"turn_mail": True}, format="json")
    assert (off.status_code, off.json()["code"]) == (409, "no_mail")
    assert off.json()["detail"] == ("This site sends no reminders: it mails password reset "
                                    "links only.")
    with override_settings(TURN_MAIL=False, RESET_BY_MAIL=False):
        none = player_api.patch("/api/auth/me/", {"turn_mail": True}, format="json")
    assert none.json()["detail"] == "This site sends no mail."
