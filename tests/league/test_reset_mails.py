"""A password reset asked for is owed in the database (league.models.ResetMail) and
mailed by its task or, when the broker lost the task or the mail server refused the
mail, by the sweep: once, whether or not an account has the address, which the ask
never tells."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from config import queue
from league import services, tasks
from league.models import ResetMail
from league.services import (
    MAIL_TRIES,
    SENDING_SECONDS,
    mail_password_resets,
    send_password_reset,
)
from tests.conftest import ALICE_ADDRESS
from tests.league.test_mail_retries import REFUSING

pytestmark = pytest.mark.django_db

SITE = "https://league.example.org"


@pytest.fixture(autouse=True)
def mailing_site() -> Any:
    cache.clear()
    with override_settings(RESET_BY_MAIL=True, SITE_URL=SITE):
        yield
    cache.clear()


def broker_away(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """The broker refuses every task queued from now on; the tasks lost."""
    lost: list[tuple[str, tuple[Any, ...]]] = []

    def refused(task: Any, *args: Any) -> None:
        lost.append((task.name, args))
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(queue, "enqueue", refused)
    return lost


def ask(email: str = ALICE_ADDRESS, client: Client | None = None) -> Any:
    return (client or Client()).post(reverse("password_forgot"), {"email": email})


def test_an_ask_the_broker_lost_is_answered_as_always_and_mailed_by_the_sweep_once(
        alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    lost = broker_away(monkeypatch)
    assert ask().status_code == 200
    (owed,) = ResetMail.objects.all()
    assert lost == [("league.tasks.mail_password_reset", (owed.pk,))]  # no address
    assert not mail.outbox
    assert tasks.mail_password_resets.apply().get() == 1
    (sent,) = mail.outbox
    assert sent.to == [ALICE_ADDRESS]
    assert re.search(rf"{SITE}/password/reset/[^/\s]+/[^/\s]+/", sent.body)
    assert mail_password_resets() == 0 and not ResetMail.objects.exists()
    # The lost task delivered after all: nothing is owed any more.
    assert tasks.mail_password_reset.apply(args=(owed.pk,)).get() == 0
    assert len(mail.outbox) == 1


def test_an_unknown_address_is_owed_and_answered_as_a_known_one_and_mails_nobody(
        alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    broker_away(monkeypatch)
    known, unknown = ask(), ask("nobody@example.org")
    strip = re.compile(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"')
    assert known.status_code == unknown.status_code == 200
    assert strip.sub("", known.content.decode()) == strip.sub("", unknown.content.decode())
    assert ResetMail.objects.count() == 2
    assert mail_password_resets() == 1
    assert [sent.to for sent in mail.outbox] == [[ALICE_ADDRESS]]
    assert not ResetMail.objects.exists()


def test_asks_waiting_for_the_sweep_are_one_mail(alice: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    broker_away(monkeypatch)
    for _ in range(3):
        assert ask().status_code == 200
    assert ResetMail.objects.count() == 1
    assert mail_password_resets() == 1 and len(mail.outbox) == 1


def test_a_refused_reset_mail_is_mailed_at_the_next_sweep(alice: Any) -> None:
    with override_settings(EMAIL_BACKEND=REFUSING):
        assert ask().status_code == 200
    assert not mail.outbox
    assert ResetMail.objects.get().tries == 1
    assert mail_password_resets() == 1
    assert [sent.to for sent in mail.outbox] == [[ALICE_ADDRESS]]
    assert mail_password_resets() == 0 and not ResetMail.objects.exists()


def test_a_reset_mail_refused_every_time_is_given_up_and_logged_without_the_address(
        alice: Any, caplog: pytest.LogCaptureFixture) -> None:
    with override_settings(EMAIL_BACKEND=REFUSING):
        ask()
        for _ in range(MAIL_TRIES - 1):
            assert mail_password_resets() == 0
    assert f"Gave up mailing account {alice.pk} its password reset link" in caplog.text
    assert ALICE_ADDRESS not in caplog.text and "/password/reset/" not in caplog.text
    assert not ResetMail.objects.exists() and not mail.outbox


def test_of_two_accounts_with_the_address_the_one_mailed_is_not_mailed_again(
        alice: Any, django_user_model: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second account's mail refused: the next sweep mails it alone."""
    other = django_user_model.objects.create_user("alice2", password="x-long-password-7",
                                                  email=ALICE_ADDRESS)
    lost = broker_away(monkeypatch)
    ask()
    ((_, (owed_id,)),) = lost
    sent_to: list[int] = []
    original = services.send_mail

    def send_mail(subject: str, body: str, sender: Any, to: list[str]) -> int:
        if f"/password/reset/{_uid(other.pk)}/" in body and not sent_to:
            sent_to.append(other.pk)
            raise OSError("connection reset")
        return original(subject, body, sender, to)

    monkeypatch.setattr(services, "send_mail", send_mail)
    assert mail_password_resets() == 1
    assert ResetMail.objects.get(pk=owed_id).mailed == [alice.pk]
    assert mail_password_resets() == 1
    bodies = [sent.body for sent in mail.outbox]
    assert len(bodies) == 2
    assert sum(f"/password/reset/{_uid(alice.pk)}/" in body for body in bodies) == 1
    assert sum(f"/password/reset/{_uid(other.pk)}/" in body for body in bodies) == 1
    assert not ResetMail.objects.exists()


def _uid(pk: int) -> str:
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    return urlsafe_base64_encode(force_bytes(pk))


def test_a_stale_claim_is_mailed_by_the_sweep_and_a_young_one_left_to_its_worker(
        alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    broker_away(monkeypatch)
    ask()
    owed = ResetMail.objects.all()
    owed.update(sending_at=timezone.now())
    assert mail_password_resets() == 0 and not mail.outbox
    owed.update(sending_at=timezone.now() - timedelta(seconds=SENDING_SECONDS + 1))
    assert mail_password_resets() == 1 and len(mail.outbox) == 1


def test_an_ask_never_mailed_within_a_link_s_hours_is_dropped(
        alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    broker_away(monkeypatch)
    ask()
    ResetMail.objects.update(created_at=timezone.now() - timedelta(
        seconds=settings.PASSWORD_RESET_TIMEOUT + 1))
    assert mail_password_resets() == 0 and not mail.outbox
    assert not ResetMail.objects.exists()


def test_a_task_queued_before_asks_were_owed_is_mailed(alice: Any) -> None:
    """Tasks queued by the version before carried the address and the site."""
    tasks.mail_reset_link.apply(args=(ALICE_ADDRESS, "league.example.org", True)).get()
    (sent,) = mail.outbox
    assert sent.to == [ALICE_ADDRESS] and f"{SITE}/password/reset/" in sent.body
    assert not ResetMail.objects.exists()


def test_the_reset_sweep_runs_on_the_schedule() -> None:
    from config.celery import app

    app.loader.import_default_modules()
    assert settings.CELERY_BEAT_SCHEDULE["mail-password-resets"]["task"] in app.tasks


def test_an_ask_is_owed_with_the_site_s_address_not_the_request_s_host(alice: Any,
                                                                      monkeypatch: Any) -> None:
    broker_away(monkeypatch)
    send_password_reset(ALICE_ADDRESS, RequestFactory().post("/", HTTP_HOST="evil.example"))
    assert ResetMail.objects.get().site == SITE
