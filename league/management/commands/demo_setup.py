"""Create the demo organizer and two demo players (idempotent) and print how to log in.

Run again (every `make demo`), it gives back the printed password of an account whose
password was changed, and leaves alone one that still has it, so a restart signs nobody
out.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from league.services import player_for

DEMO_ACCOUNTS = [
    # (username, password, is_staff)
    ("organizer", "organizer-demo-2026", True),
    ("alice", "alice-demo-2026", False),
    ("bob", "bob-demo-2026", False),
]


class Command(BaseCommand):
    help = "Create the demo organizer and players for `make demo`."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000",
                            help="Where the demo site is served, for the message.")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        self.stdout.write(f"Demo accounts (log in at {options['url']}/login/):")
        for username, password, staff in DEMO_ACCOUNTS:
            user, _ = User.objects.get_or_create(username=username)
            user.is_staff = staff
            user.is_superuser = staff
            user.email = user.email or f"{username}@example.org"
            if not user.check_password(password):
                # a new hash would sign the account out of every browser at each restart
                user.set_password(password)
            user.save()
            player_for(user)
            role = "organizer (admin at /admin/)" if staff else "player"
            self.stdout.write(f"  {username:<10} password {password:<22} {role}")
        self.stdout.write("Each has the address USERNAME@example.org: mails to it (a password "
                          "reset link, turn mails) are printed on this console.")
