"""A turn mail or an Event's reminder the mail server refuses is tried again at the next
sweep, MAIL_TRIES times in a row at most, and one that went is never sent again; a
reminder claimed as its Event moves gives the new time or goes not (league.turn_mail,
league.event_mail)."""

from __future__ import annotations

import smtplib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.mail.backends import locmem
from django.core.mail.backends.base import BaseEmailBackend
from django.test import override_settings
from django.utils import timezone

from league import event_mail, events
from league.event_mail import mail_event_reminders
from league.models import Event
from league.services import MAIL_TRIES, player_for
from league.turn_mail import mail_awaited_players
from matches.models import Match, Seat

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("mailing_site")]

REFUSING = f"{__name__}.RefusingBackend"


class RefusingBackend(BaseEmailBackend):
    """A mail server that refuses every mail, as SMTP answers a full mailbox."""

    def send_messages(self, email_messages: Any) -> int:
        raise smtplib.SMTPRecipientsRefused({"alice@example.org": (452, b"Mailbox full")})


@pytest.fixture
def mailing_site() -> Any:
    with override_settings(TURN_MAIL=True, SITE_URL="https://league.example.org",
                           TURN_MAIL_MINUTES=5, EVENT_MAIL_HOURS=3):
        yield


def asks(user: Any) -> Any:
    user.email = f"{user.username}@example.org"
    user.save(update_fields=["email"])
    player = player_for(user)
    player.turn_mail = player.event_mail = True
    player.save(update_fields=["turn_mail", "event_mail"])
    return user


def turn_sweep(*, refused: bool = False) -> int:
    later = timezone.now() + timedelta(minutes=6)
    if refused:
        with override_settings(EMAIL_BACKEND=REFUSING):
            return mail_awaited_players(now=later)
    return mail_awaited_players(now=later)


def reminder_sweep(*, refused: bool = False) -> int:
    if refused:
        with override_settings(EMAIL_BACKEND=REFUSING):
            return mail_event_reminders()
    return mail_event_reminders()


def alice_night(organizer: Any, player: Any) -> Event:
    """An Event starting in two hours, alice entered and asking for its reminder."""
    asks(player)
    event = events.create_event(name="Thursday Night", game="super_showdown",
                                format="round_robin", by=organizer,
                                starts_at=timezone.now() + timedelta(hours=2))
    events.add_entrant(event=event, by=organizer, player="alice")
    return event


@pytest.fixture
def night(organizer: Any, player: Any) -> Event:
    """Starting in two hours, alice entered and asking for its reminder."""
    return alice_night(organizer, player)


def test_a_refused_turn_mail_goes_at_the_next_sweep_and_once(
        toy_match: Match, player: Any, caplog: Any) -> None:
    asks(player)
    assert turn_sweep(refused=True) == 0 and not mail.outbox
    assert f"Could not mail account {player.pk} its turn mail: SMTPRecipientsRefused" \
        in caplog.text
    assert "alice@example.org" not in caplog.text  # the refusal's text names the address
    assert turn_sweep() == 1
    (sent,) = mail.outbox
    assert sent.to == ["alice@example.org"]
    assert turn_sweep() == 0 and len(mail.outbox) == 1  # went: never again for this wait
    assert Seat.objects.get(match=toy_match, index=0).mail_tries == 0


def test_a_turn_mail_refused_every_time_is_given_up_after_its_tries(
        toy_match: Match, player: Any, caplog: Any) -> None:
    asks(player)
    for _ in range(MAIL_TRIES):
        assert turn_sweep(refused=True) == 0
    assert f"Gave up mailing {player.pk} that match {toy_match.pk} waits" in caplog.text
    assert turn_sweep() == 0 and not mail.outbox  # given up for this wait


def test_a_turn_mail_refused_less_than_its_tries_counts_anew_once_one_went(
        toy_match: Match, player: Any) -> None:
    asks(player)
    for _ in range(MAIL_TRIES - 1):
        assert turn_sweep(refused=True) == 0
    assert Seat.objects.get(match=toy_match, index=0).mail_tries == MAIL_TRIES - 1
    assert turn_sweep() == 1
    assert Seat.objects.get(match=toy_match, index=0).mail_tries == 0


def test_a_refused_reminder_goes_at_the_next_sweep_and_once(night: Event, player: Any,
                                                             caplog: Any) -> None:
    assert reminder_sweep(refused=True) == 0 and not mail.outbox
    assert (f"Could not mail account {player.pk} its Event reminder mail about Event "
            f"{night.pk}: SMTPRecipientsRefused") in caplog.text
    assert "alice@example.org" not in caplog.text
    assert reminder_sweep() == 1
    (sent,) = mail.outbox
    assert sent.to == ["alice@example.org"]
    assert reminder_sweep() == 0 and len(mail.outbox) == 1  # went: never again
    assert Event.objects.get(pk=night.pk).reminder_tries == {}


def test_a_reminder_refused_every_time_is_given_up_after_its_tries(
        night: Event, player: Any, caplog: Any) -> None:
    for _ in range(MAIL_TRIES):
        assert reminder_sweep(refused=True) == 0
    assert f"Gave up reminding {player.pk} of Event {night.pk}" in caplog.text
    assert reminder_sweep() == 0 and not mail.outbox
    assert Event.objects.get(pk=night.pk).reminder_tries == {}


def test_a_refused_reminder_leaves_what_the_player_last_heard(night: Event,
                                                              organizer: Any) -> None:
    """alice was reminded of the first time; the reminder of the new one is refused: her
    claim goes back to the time she heard of, which a move's mail tells her from."""
    assert reminder_sweep() == 1
    first = Event.objects.get(pk=night.pk).reminded
    events.set_details(event=night, by=organizer,
                       starts_at=timezone.now() + timedelta(hours=1))
    assert reminder_sweep(refused=True) == 0
    row = Event.objects.get(pk=night.pk)
    assert row.reminded == first and row.reminder_tries == {next(iter(first)): 1}
    assert reminder_sweep() == 1 and len(mail.outbox) == 2
    assert Event.objects.get(pk=night.pk).reminder_tries == {}


def claimed_then(change: Callable[[Event], None], monkeypatch: Any) -> None:
    """The sweep's claims are made, and then, before its mails go, `change` is made."""
    claimed = event_mail._claimed

    def claimed_then_changed(event: Event, now: Any) -> Any:
        claims = claimed(event, now)
        change(Event.objects.get(pk=event.pk))
        return claims

    monkeypatch.setattr(event_mail, "_claimed", claimed_then_changed)


def test_a_reminder_claimed_as_its_event_moves_gives_its_new_time(
        night: Event, organizer: Any, monkeypatch: Any) -> None:
    """Moved within the window after the sweep claimed alice and before her mail went: the
    mail would give a time the Event no longer has. It goes not, and the next sweep
    reminds her of the new time."""
    moved = night.starts_at + timedelta(minutes=30)
    claimed_then(lambda event: events.set_details(event=event, by=organizer, starts_at=moved),
                 monkeypatch)
    assert reminder_sweep() == 0 and not mail.outbox
    monkeypatch.undo()
    assert reminder_sweep() == 1
    (sent,) = mail.outbox
    assert sent.subject == f"Thursday Night starts {moved:%a %-d %b, %H:%M} UTC"
    assert reminder_sweep() == 0


def test_a_reminder_claimed_as_its_event_moves_out_of_the_window_goes_not(
        night: Event, organizer: Any, monkeypatch: Any) -> None:
    """Moved a day on: alice heard of no time, so neither a reminder nor a move's mail
    comes before the new time nears."""
    moved = night.starts_at + timedelta(days=1)
    claimed_then(lambda event: events.set_details(event=event, by=organizer, starts_at=moved),
                 monkeypatch)
    assert reminder_sweep() == 0
    assert Event.objects.get(pk=night.pk).reminded == {}
    assert not mail.outbox


def test_a_reminder_claimed_as_its_player_withdraws_goes_not(
        night: Event, organizer: Any, monkeypatch: Any) -> None:
    claimed_then(lambda event: events.withdraw_entrant(event=event, by=organizer, key="e1"),
                 monkeypatch)
    assert reminder_sweep() == 0 and not mail.outbox


class RefusingBruno(locmem.EmailBackend):
    """A mail server that refuses bruno's mail (his mailbox is full) and takes the rest."""

    def send_messages(self, email_messages: Any) -> int:
        if any("bruno@example.org" in sent.to for sent in email_messages):
            raise smtplib.SMTPRecipientsRefused({"bruno@example.org": (452, b"Mailbox full")})
        return super().send_messages(email_messages)


def moved_away(event: Event, organizer: Any, capture: Any, backend: str = REFUSING) -> Any:
    """Move `event` two days on, its moved mail sent (it runs once the move commits)
    through `backend`; the new start."""
    later = timezone.now() + timedelta(days=2)
    with override_settings(EMAIL_BACKEND=backend), capture(execute=True):
        events.set_details(event=event, by=organizer, starts_at=later)
    return later


def test_a_refused_moved_mail_goes_at_the_next_sweep_and_once(
        night: Event, organizer: Any, caplog: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """alice was reminded; the Event moves beyond the reminders' window, and the mail
    telling her is refused: she still counts as knowing the first time, and the next sweep
    tells her of the move (no reminder would, for two days)."""
    assert reminder_sweep() == 1
    first = Event.objects.get(pk=night.pk).reminded
    later = moved_away(night, organizer, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    assert f"its Event moved mail about Event {night.pk}: SMTPRecipientsRefused" in caplog.text
    row = Event.objects.get(pk=night.pk)
    assert row.reminded == first and row.reminder_tries == {next(iter(first)): 1}
    assert reminder_sweep() == 1
    sent = mail.outbox[-1]
    assert sent.to == ["alice@example.org"]
    assert sent.subject == f"Thursday Night moved to {later:%a %-d %b, %H:%M} UTC"
    assert Event.objects.get(pk=night.pk).reminder_tries == {}
    assert reminder_sweep() == 0 and len(mail.outbox) == 2  # went: never again


def test_a_moved_mail_refused_every_time_is_given_up_after_its_tries(
        night: Event, organizer: Any, player: Any, caplog: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    assert reminder_sweep() == 1
    moved_away(night, organizer, django_capture_on_commit_callbacks)  # the first try
    for _ in range(MAIL_TRIES - 1):
        assert reminder_sweep(refused=True) == 0
    assert f"Gave up telling {player.pk} that Event {night.pk} moved" in caplog.text
    assert reminder_sweep() == 0 and len(mail.outbox) == 1  # the reminder alone
    assert Event.objects.get(pk=night.pk).reminder_tries == {}


def test_a_moved_mail_refused_to_one_player_is_sent_again_to_them_alone(
        night: Event, organizer: Any, player2: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    asks(player2)
    events.add_entrant(event=night, by=organizer, player="bruno")
    assert reminder_sweep() == 2
    mail.outbox.clear()
    moved_away(night, organizer, django_capture_on_commit_callbacks,
               backend=f"{__name__}.RefusingBruno")
    assert [sent.to for sent in mail.outbox] == [["alice@example.org"]]
    assert reminder_sweep() == 1
    assert [sent.to for sent in mail.outbox] == [["alice@example.org"], ["bruno@example.org"]]
    assert reminder_sweep() == 0 and len(mail.outbox) == 2
