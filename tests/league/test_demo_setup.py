"""`manage.py demo_setup` (make demo): the demo organizer and players, made once however
often it runs, each with an address its mails are printed for."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.test import Client

from league.models import Player

pytestmark = pytest.mark.django_db


def test_the_demo_accounts_sign_in_with_the_passwords_printed() -> None:
    for _ in range(2):
        out = StringIO()
        call_command("demo_setup", "--url", "http://127.0.0.1:8765", stdout=out)
    users = get_user_model().objects.order_by("username")
    assert [(u.username, u.email, u.is_staff) for u in users] == [
        ("alice", "alice@example.org", False), ("bob", "bob@example.org", False),
        ("organizer", "organizer@example.org", True)]
    assert Player.objects.count() == 3
    printed = out.getvalue()
    assert "http://127.0.0.1:8765/login/" in printed
    for line in printed.splitlines()[1:4]:
        username, _, password = line.split()[:3]
        assert authenticate(username=username, password=password) is not None, line


def test_a_second_make_demo_keeps_the_players_signed_in(client: Client) -> None:
    call_command("demo_setup", stdout=StringIO())
    client.login(username="alice", password="alice-demo-2026")
    assert client.get("/").status_code == 200
    call_command("demo_setup", stdout=StringIO())
    assert client.get("/").status_code == 200


def test_a_second_make_demo_gives_back_the_printed_password() -> None:
    call_command("demo_setup", stdout=StringIO())
    alice = get_user_model().objects.get(username="alice")
    alice.set_password("changed-in-the-demo")
    alice.save()
    call_command("demo_setup", stdout=StringIO())
    assert authenticate(username="alice", password="alice-demo-2026") is not None
