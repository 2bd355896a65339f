"""A mail's task and the sweeps that send what the broker lost, at once, each on a
connection of its own (PostgreSQL: `on_postgres`): the mail goes once (league.services'
confirmation links, league.event_mail's moved mails)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.core import mail
from django.core.mail.backends import locmem
from django.db import transaction
from django.test import RequestFactory, override_settings
from django.utils import timezone

from config import queue
from league import events
from league.event_mail import mail_event_reminders
from league.models import Player, ResetMail
from league.services import (
    SENDING_SECONDS,
    mail_email_confirmations,
    mail_password_resets,
    player_for,
    send_password_reset,
    set_email,
)
from tests.conftest import PASSWORD
from tests.league.test_mail_retries import asks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("on_postgres")]

TRIALS = 3


class SlowBackend(locmem.EmailBackend):
    """A mail server slow to answer: the other workers arrive while a mail goes."""

    def send_messages(self, email_messages: Any) -> int:
        time.sleep(0.2)
        return super().send_messages(email_messages)


class HeldBackend(locmem.EmailBackend):
    """A mail server that answers once the test lets it (`go`): what the site does while
    a mail goes is seen (`sending`)."""

    sending = threading.Event()
    go = threading.Event()

    def send_messages(self, email_messages: Any) -> int:
        HeldBackend.sending.set()
        assert HeldBackend.go.wait(30)
        return super().send_messages(email_messages)


@pytest.fixture(autouse=True)
def mailing_site() -> Any:
    with override_settings(RESET_BY_MAIL=True, TURN_MAIL=True, EVENT_MAIL_HOURS=3,
                           SITE_URL="https://league.example.org",
                           EMAIL_BACKEND=f"{__name__}.SlowBackend"):
        yield


def held(monkeypatch: pytest.MonkeyPatch, *modules: Any) -> list[tuple[Any, tuple[Any, ...]]]:
    """The tasks queued from now on, held back for the test to run in the race."""
    queued: list[tuple[Any, tuple[Any, ...]]] = []
    for module in modules:
        monkeypatch.setattr(module, "enqueue", lambda task, *args: queued.append((task, args)))
    return queued


def run(task: Any, *args: Any) -> Any:
    """The worker's task, run here; what it raised is raised."""
    return task.apply(args=args).get()


def test_the_task_and_two_sweeps_at_once_mail_a_confirmation_link_once(
        race: Any, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    queued = held(monkeypatch, queue)
    for trial in range(TRIALS):
        address = f"alice{trial}@example.org"
        queued.clear()
        assert set_email(player, address, password=PASSWORD) == "pending"
        ((task, args),) = queued
        answers, errors = race([partial(run, task, *args), mail_email_confirmations,
                                mail_email_confirmations])
        assert errors == []
        assert [sent.to for sent in mail.outbox].count([address]) == 1, answers
        assert sorted(int(went) for went in answers) == [0, 0, 1]
        assert player_for(player).confirm_site == ""


def test_the_task_and_two_sweeps_at_once_send_a_moved_mail_once(
        race: Any, organizer: Any, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    asks(player)
    queued = held(monkeypatch, events)
    for trial in range(TRIALS):
        event = events.create_event(name=f"Night {trial}", game="super_showdown",
                                    format="round_robin", by=organizer,
                                    starts_at=timezone.now() + timedelta(hours=2))
        events.add_entrant(event=event, by=organizer, player="alice")
        assert mail_event_reminders() == 1
        queued.clear()
        events.set_details(event=event, by=organizer,
                           starts_at=timezone.now() + timedelta(days=2))
        ((task, args),) = queued
        answers, errors = race([partial(run, task, *args), mail_event_reminders,
                                mail_event_reminders])
        assert errors == []
        moved = [sent for sent in mail.outbox if sent.subject.startswith(f"Night {trial} moved")]
        assert len(moved) == 1, answers
        assert sorted(answers) == [0, 0, 1]


def test_the_player_s_row_is_not_locked_while_a_confirmation_link_goes(
        race: Any, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The link is claimed in a short transaction and mailed outside it: the player's row
    was locked for as long as the mail server took to answer (EMAIL_TIMEOUT), and every
    change of the account, or the link's opening, waited on it. Claimed, it goes once:
    a sweep meanwhile leaves it to the worker sending it."""
    held(monkeypatch, queue)
    assert set_email(player, "alice@example.org", password=PASSWORD) == "pending"
    HeldBackend.sending.clear()
    HeldBackend.go.clear()

    def meanwhile() -> int:
        assert HeldBackend.sending.wait(30)
        try:
            with transaction.atomic():  # a change of the account takes the row at once
                Player.objects.select_for_update(nowait=True).get(user=player)
            return mail_email_confirmations()
        finally:
            HeldBackend.go.set()

    with override_settings(EMAIL_BACKEND=f"{__name__}.HeldBackend"):
        answers, errors = race([mail_email_confirmations, meanwhile])
    assert errors == [] and answers == [1, 0]
    assert [sent.to for sent in mail.outbox] == [["alice@example.org"]]
    row = player_for(player)
    assert (row.confirm_site, row.confirm_sending, row.confirm_tries) == ("", None, 0)


def test_a_stale_claim_on_a_confirmation_link_is_mailed_by_the_sweep(
        player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that claimed the link and died (its claim older than SENDING_SECONDS)
    leaves it owed: the sweep mails it; a younger claim is left to its worker."""
    held(monkeypatch, queue)
    set_email(player, "alice@example.org", password=PASSWORD)
    owed = Player.objects.filter(user=player)
    owed.update(confirm_sending=timezone.now())
    assert mail_email_confirmations() == 0 and not mail.outbox
    owed.update(confirm_sending=timezone.now() - timedelta(seconds=SENDING_SECONDS + 1))
    assert mail_email_confirmations() == 1
    assert [sent.to for sent in mail.outbox] == [["alice@example.org"]]
    assert mail_email_confirmations() == 0


def test_an_address_given_while_its_link_goes_owes_its_own(
        race: Any, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's marks touch only its claim: a new address given as the first link
    goes keeps the new link owed, which the next sweep mails."""
    held(monkeypatch, queue)
    set_email(player, "alice@example.org", password=PASSWORD)
    HeldBackend.sending.clear()
    HeldBackend.go.clear()

    def meanwhile() -> str:
        assert HeldBackend.sending.wait(30)
        try:
            return set_email(player, "alice@example.net", password=PASSWORD)
        finally:
            HeldBackend.go.set()

    with override_settings(EMAIL_BACKEND=f"{__name__}.HeldBackend"):
        answers, errors = race([mail_email_confirmations, meanwhile])
    assert errors == [] and answers == [1, "pending"]
    assert player_for(player).confirm_site == "https://league.example.org"
    assert mail_email_confirmations() == 1
    assert [sent.to for sent in mail.outbox] == [["alice@example.org"], ["alice@example.net"]]


def test_the_task_and_two_sweeps_at_once_mail_a_reset_link_once(
        race: Any, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    player.email = "alice@example.org"
    player.save(update_fields=["email"])
    queued = held(monkeypatch, queue)
    for trial in range(TRIALS):
        queued.clear()
        mail.outbox.clear()
        send_password_reset("alice@example.org", RequestFactory().post("/"))
        ((task, args),) = queued
        answers, errors = race([partial(run, task, *args), mail_password_resets,
                                mail_password_resets])
        assert errors == []
        assert [sent.to for sent in mail.outbox] == [["alice@example.org"]], (trial, answers)
        assert sorted(answers) == [0, 0, 1]
        assert not ResetMail.objects.exists()
