"""Reminders before an Event starts: a player entered in it (alone or in a team) who asked
for them is mailed EVENT_MAIL_HOURS before, once for its time, again when it moves
(league.event_mail)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from league import events
from league.event_mail import mail_event_reminders
from league.models import Entrant, Event, Player, Team
from league.services import player_for

SITE = "https://league.example.org"
GAME = "super_showdown"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("mailing_site")]


@pytest.fixture
def mailing_site() -> Any:
    with override_settings(TURN_MAIL=True, SITE_URL=SITE, EVENT_MAIL_HOURS=3):
        yield


def asks(user: Any, on: bool = True) -> Any:
    user.email = f"{user.username}@example.org"
    user.save(update_fields=["email"])
    player = player_for(user)
    player.event_mail = on
    player.save(update_fields=["event_mail"])
    return user


@pytest.fixture
def night(organizer: Any, player: Any, player2: Any, outsider: Any,
          django_user_model: Any) -> Event:
    """Starting in two hours: alice alone and asking, bruno in a team and asking, olga
    alone and not asking, dora asking but withdrawn."""
    dora = django_user_model.objects.create_user("dora", password="pw-x-99812")
    for user in (player, player2, dora):
        asks(user)
    asks(outsider, on=False)
    event = events.create_event(name="Thursday Night", game=GAME, format="round_robin",
                                by=organizer, starts_at=timezone.now() + timedelta(hours=2),
                                notes="Back room.\nBring dice.")
    team = Team.objects.create(name="Owls")
    team.members.set([player_for(player2)])
    events.add_entrant(event=event, by=organizer, player="alice")
    events.add_entrant(event=event, by=organizer, team="Owls")
    events.add_entrant(event=event, by=organizer, player="olga")
    events.add_entrant(event=event, by=organizer, player="dora")
    events.withdraw_entrant(event=event, by=organizer, key="e4")
    return event


def test_the_entrants_who_asked_are_reminded_once_for_its_time(night: Event,
                                                               organizer: Any) -> None:
    assert mail_event_reminders() == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bruno@example.org"]
    sent = mail.outbox[0]
    assert sent.subject.startswith("Thursday Night starts ")
    assert "Back room.\nBring dice." in sent.body
    assert f"{SITE}/league/events/{night.pk}/" in sent.body
    assert f"{SITE}/league/events/{night.pk}/calendar.ics" in sent.body
    assert f"{SITE}{reverse('account')}" in sent.body
    assert mail_event_reminders() == 0  # the same time
    events.set_details(event=night, by=organizer,
                       starts_at=timezone.now() + timedelta(hours=1))
    assert mail_event_reminders() == 2 and len(mail.outbox) == 4  # moved: told again


def test_none_too_early_none_once_started_none_on_a_site_without_mail(
        night: Event, organizer: Any) -> None:
    assert mail_event_reminders(now=timezone.now() - timedelta(hours=2)) == 0  # 4h ahead
    events.add_entrant(event=night, by=organizer, bot="random")
    events.start_event(event=night, by=organizer)
    assert mail_event_reminders() == 0
    Event.objects.filter(pk=night.pk).update(status=Event.Status.DRAFT)
    with override_settings(TURN_MAIL=False):
        assert mail_event_reminders() == 0
    assert not mail.outbox


def test_the_sweep_runs_on_the_schedule() -> None:
    from config.celery import app

    app.loader.import_default_modules()
    assert settings.CELERY_BEAT_SCHEDULE["mail-event-reminders"]["task"] in app.tasks


def test_the_account_page_and_the_api_set_them_with_an_address(player: Any) -> None:
    client = Client()
    client.force_login(player)
    page = client.get(reverse("account")).content.decode()
    assert 'name="event_mail"' in page
    # Refused without an address, and the other choice is left as it was.
    Player.objects.filter(user=player).update(turn_mail=True)  # from before, say
    refused = client.post(reverse("account"), {"form": "turn_mail", "event_mail": "on"})
    assert refused.status_code == 409 and player_for(player).turn_mail is True
    asks(player, on=False)
    done = client.post(reverse("account"), {"form": "turn_mail", "event_mail": "on"})
    assert done.status_code == 302
    row = player_for(player)
    assert (row.turn_mail, row.event_mail) == (False, True)
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(player)
    assert api.patch("/api/auth/me/", {"event_mail": False},
                     format="json").json()["event_mail"] is False
    api.patch("/api/auth/me/", {"event_mail": True}, format="json")
    api.patch("/api/auth/me/", {"email": ""}, format="json")  # no address: no mails
    assert player_for(player).event_mail is False


def test_an_event_moved_or_started_after_the_sweep_read_it_is_not_claimed_by_it(
        night: Event, organizer: Any) -> None:
    """The sweep reads the Events due, then claims each: one moved meanwhile would be
    mailed at the time read (a time it no longer has), one started meanwhile as starting
    soon."""
    from league.event_mail import _claimed

    read = Event.objects.get(pk=night.pk)
    events.set_details(event=night, by=organizer, starts_at=read.starts_at + timedelta(hours=1))
    assert not _claimed(read, timezone.now())
    assert mail_event_reminders() == 2  # at its new time
    assert {m.subject for m in mail.outbox} == {
        f"Thursday Night starts {Event.objects.get(pk=night.pk).starts_at:%a %-d %b, %H:%M} UTC"}
    read = Event.objects.get(pk=night.pk)
    Event.objects.filter(pk=night.pk).update(reminded={})
    events.add_entrant(event=night, by=organizer, bot="random")
    events.start_event(event=night, by=organizer)
    assert not _claimed(read, timezone.now())


def test_an_entry_made_after_the_reminder_is_reminded_at_the_next_sweep_once(
        night: Event, organizer: Any, django_user_model: Any) -> None:
    """The Event was reminded of once for its time, so an entry its organizer made after
    (or a team's, or a player's own) was never reminded: the entrants are what the
    reminder is for, each once."""
    assert mail_event_reminders() == 2
    erin = asks(django_user_model.objects.create_user("erin", password="pw-x-99812"))
    events.add_entrant(event=night, by=organizer, player="erin")
    assert mail_event_reminders() == 1 and mail.outbox[-1].to == [erin.email]
    assert mail_event_reminders() == 0 and len(mail.outbox) == 3
    # Each change of the Event writes its entries anew: none is reminded again for it.
    events.set_details(event=night, by=organizer, notes="Front room.")
    assert Entrant.objects.filter(event=night).exists()
    assert mail_event_reminders() == 0


def test_a_player_who_asks_once_the_others_were_reminded_is_reminded_next(
        night: Event, outsider: Any) -> None:
    """olga's entry was there at the first sweep, but she had not asked: it was not
    counted reminded, so her asking now brings her reminder at the next sweep."""
    assert mail_event_reminders() == 2
    asks(outsider)
    assert mail_event_reminders() == 1
    assert mail.outbox[-1].to == ["olga@example.org"]
    assert mail_event_reminders() == 0


def test_a_team_member_who_asks_once_a_teammate_was_reminded_is_reminded_next(
        night: Event, django_user_model: Any) -> None:
    """Reminders are kept by player: the Owls' entry was reminded through bruno, but finn,
    in the team and asking later, had heard nothing."""
    finn = django_user_model.objects.create_user("finn", password="pw-x-99812")
    Team.objects.get(name="Owls").members.add(player_for(finn))
    assert mail_event_reminders() == 2
    asks(finn)
    assert mail_event_reminders() == 1
    assert mail.outbox[-1].to == ["finn@example.org"]
    assert mail_event_reminders() == 0


def test_a_player_who_moves_from_her_entry_to_a_team_is_not_reminded_twice(
        night: Event, player: Any, organizer: Any, django_user_model: Any) -> None:
    """alice, reminded, withdraws to play in a team entered after the reminders went: its
    other member is reminded, she is not, being reminded of that time already."""
    assert mail_event_reminders() == 2
    events.withdraw_entrant(event=night, by=organizer,
                            key=Entrant.objects.get(event=night, player__user=player).key)
    finn = asks(django_user_model.objects.create_user("finn", password="pw-x-99812"))
    larks = Team.objects.create(name="Larks")
    larks.members.set([player_for(player), player_for(finn)])
    events.add_entrant(event=night, by=organizer, team="Larks")
    assert mail_event_reminders() == 1
    assert mail.outbox[-1].to == ["finn@example.org"]
    assert mail_event_reminders() == 0
