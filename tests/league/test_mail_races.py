"""A mail's task and the sweeps that send what the broker lost, at once, each on a
connection of its own (PostgreSQL: `on_postgres`): the mail goes once (league.services'
confirmation links, league.event_mail's moved mails)."""

from __future__ import annotations

import time
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.core import mail
from django.core.mail.backends import locmem
from django.test import override_settings
from django.utils import timezone

from config import queue
from league import events
from league.event_mail import mail_event_reminders
from league.services import mail_email_confirmations, player_for, set_email
from tests.conftest import PASSWORD
from tests.league.test_mail_retries import asks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("on_postgres")]

TRIALS = 3


class SlowBackend(locmem.EmailBackend):
    """A mail server slow to answer: the other workers arrive while a mail goes."""

    def send_messages(self, email_messages: Any) -> int:
        time.sleep(0.2)
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
