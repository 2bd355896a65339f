"""A mail queued as a change commits whose task the broker lost (Redis away) is sent by a
sweep, once: an address's confirmation link, owed on the player's row written with the
address (league.services), and an Event's moved mail, owed by the time its players last
heard of (league.event_mail)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from config import queue
from league import events, tasks
from league.event_mail import mail_event_reminders
from league.models import Event, Player
from league.services import (
    MAIL_TRIES,
    AccountError,
    mail_email_confirmations,
    player_for,
    set_email,
)
from tests.conftest import PASSWORD
from tests.league.test_mail_retries import REFUSING, alice_night

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("mailing_site")]

SITE = "https://league.example.org"


@pytest.fixture
def mailing_site() -> Any:
    with override_settings(RESET_BY_MAIL=True, TURN_MAIL=True, SITE_URL=SITE,
                           EVENT_MAIL_HOURS=3):
        yield


def broker_away(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on the broker refuses every task queued, as kombu does once Redis is away;
    the names of the tasks lost."""
    lost: list[str] = []

    def refused(task: Any, *args: Any) -> None:
        lost.append(task.name)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(queue, "enqueue", refused)
    monkeypatch.setattr(events, "enqueue", refused)
    return lost


def confirm(sent: Any) -> None:
    """Open the confirmation link in the mail `sent` and confirm."""
    token = re.search(r"/account/email/([^/\s]+)/", sent.body).group(1)  # type: ignore[union-attr]
    assert Client().post(reverse("email_confirm", args=[token])).status_code == 200


def test_the_link_owed_is_written_with_the_new_address(
        player: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks() as hooks:  # not run: nothing queued yet
        assert set_email(player, "alice@example.org", password=PASSWORD) == "pending"
    row = Player.objects.get(user=player)
    assert (row.pending_email, row.confirm_site, row.confirm_tries) == (
        "alice@example.org", SITE, 0)
    assert len(hooks) == 1 and not mail.outbox


def test_a_refused_change_owes_no_link(player: Any) -> None:
    with pytest.raises(AccountError):
        set_email(player, "alice@example.org", password="not-the-password")
    assert player_for(player).confirm_site == ""
    assert mail_email_confirmations() == 0 and not mail.outbox


def test_a_confirmation_link_the_broker_lost_is_mailed_by_the_sweep_once(
        player: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    lost = broker_away(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        assert set_email(player, "alice@example.org", password=PASSWORD) == "pending"
    assert lost == ["league.tasks.mail_email_confirmation"] and not mail.outbox
    assert mail_email_confirmations() == 1
    (sent,) = mail.outbox
    assert sent.to == ["alice@example.org"]
    assert mail_email_confirmations() == 0  # went: never again
    # The lost task delivered after all (the broker kept it): nothing more is owed.
    assert tasks.mail_email_confirmation.apply(args=(player.pk,)).get() is False
    assert len(mail.outbox) == 1
    confirm(sent)
    player.refresh_from_db()
    assert player.email == "alice@example.org"


def test_a_sign_up_with_an_address_while_the_broker_is_away_gets_its_link_from_the_sweep(
        client: Client, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    lost = broker_away(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("register"), {
            "username": "newcomer", "password": PASSWORD, "password2": PASSWORD,
            "email": "newcomer@example.org"})
    assert response.status_code == 302, response.content
    assert lost == ["league.tasks.mail_email_confirmation"] and not mail.outbox
    assert tasks.mail_email_confirmations.apply().get() == 1
    (sent,) = mail.outbox
    assert sent.to == ["newcomer@example.org"] and f"{SITE}/account/email/" in sent.body
    confirm(sent)


def test_a_refused_confirmation_link_is_mailed_at_the_next_sweep(
        player: Any, django_capture_on_commit_callbacks: Any) -> None:
    with override_settings(EMAIL_BACKEND=REFUSING), \
            django_capture_on_commit_callbacks(execute=True):
        set_email(player, "alice@example.org", password=PASSWORD)
    assert not mail.outbox and Player.objects.get(user=player).confirm_tries == 1
    assert mail_email_confirmations() == 1
    assert [sent.to for sent in mail.outbox] == [["alice@example.org"]]
    assert Player.objects.get(user=player).confirm_tries == 0
    assert mail_email_confirmations() == 0 and len(mail.outbox) == 1


def test_a_confirmation_link_refused_every_time_is_given_up_and_logged_without_the_address(
        player: Any, caplog: Any, django_capture_on_commit_callbacks: Any) -> None:
    with override_settings(EMAIL_BACKEND=REFUSING):
        with django_capture_on_commit_callbacks(execute=True):
            set_email(player, "alice@example.org", password=PASSWORD)  # the first try
        for _ in range(MAIL_TRIES - 1):
            assert mail_email_confirmations() == 0
    assert (f"Could not mail account {player.pk} its address confirmation mail: "
            f"SMTPRecipientsRefused") in caplog.text
    assert f"Gave up mailing account {player.pk} the link confirming its address" \
        in caplog.text
    assert "alice@example.org" not in caplog.text and "/account/email/" not in caplog.text
    assert mail_email_confirmations() == 0 and not mail.outbox
    assert Player.objects.get(user=player).confirm_site == ""


def test_a_link_owed_to_an_address_removed_since_is_not_mailed(
        player: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    broker_away(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        set_email(player, "alice@example.org", password=PASSWORD)
        assert set_email(player, "") == "removed"
    assert mail_email_confirmations() == 0 and not mail.outbox
    assert Player.objects.get(user=player).confirm_site == ""


def test_the_confirmation_sweep_runs_on_the_schedule(settings: Any) -> None:
    from config.celery import app

    app.loader.import_default_modules()
    task = settings.CELERY_BEAT_SCHEDULE["mail-email-confirmations"]["task"]
    assert task in app.tasks


@pytest.fixture
def night(organizer: Any, player: Any) -> Event:
    """Starting in two hours, alice entered, asking for its reminder and reminded."""
    event = alice_night(organizer, player)
    assert mail_event_reminders() == 1
    return event


def test_a_moved_mail_the_broker_lost_is_sent_by_the_reminder_sweep_once(
        night: Event, organizer: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    """The Event moves beyond the reminders' window as the broker is away: no reminder
    would tell alice for two days, so the sweep sends the moved mail its task would have."""
    lost = broker_away(monkeypatch)
    later = timezone.now() + timedelta(days=2)
    with django_capture_on_commit_callbacks(execute=True):
        events.set_details(event=night, by=organizer, starts_at=later)
    assert lost == ["league.tasks.mail_event_moved"] and len(mail.outbox) == 1
    assert mail_event_reminders() == 1
    sent = mail.outbox[-1]
    assert sent.to == ["alice@example.org"]
    assert sent.subject == f"Thursday Night moved to {later:%a %-d %b, %H:%M} UTC"
    assert mail_event_reminders() == 0  # went: never again
    assert tasks.mail_event_moved.apply(args=(night.pk, later.isoformat())).get() == 0
    assert len(mail.outbox) == 2


def test_a_moved_mail_lost_for_a_player_who_withdrew_since_is_not_sent(
        night: Event, organizer: Any, player: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    broker_away(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        events.set_details(event=night, by=organizer,
                           starts_at=timezone.now() + timedelta(days=2))
    alice = player_for(player)
    alice.event_mail = False  # she no longer asks
    alice.save(update_fields=["event_mail"])
    assert mail_event_reminders() == 0 and len(mail.outbox) == 1
