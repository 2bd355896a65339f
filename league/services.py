"""League business rules shared by pages, the API and the admin."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from league.models import Player


@dataclass
class RegistrationError(Exception):
    """Why an account could not be created; `code` is machine-readable."""

    code: str
    detail: str

    def __str__(self) -> str:
        return self.detail


def register_player(*, username: str, password: str, display_name: str = "") -> Player:
    """Create a user and their Player, or nothing at all."""
    if not settings.SIGNUP_OPEN:
        raise RegistrationError("signup_closed", "Sign-up is closed on this site.")
    username = (username or "").strip()
    # ASCII only: a look-alike letter from another script (a Cyrillic a for a Latin one)
    # would pass for somebody else's name at a table or in an invitation. Display names
    # may be anything.
    if not username or len(username) > 150 or not username.isascii() \
            or not username.replace("_", "").replace("-", "").isalnum():
        raise RegistrationError(
            "bad_username", "A username is 1-150 letters (a-z), digits, '-' or '_'."
        )
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise RegistrationError("username_taken", "That username is taken.")
    try:
        validate_password(password, User(username=username))
    except ValidationError as exc:
        raise RegistrationError("weak_password", " ".join(exc.messages)) from None
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            return Player.objects.create(user=user, display_name=display_name or username)
    except IntegrityError:
        raise RegistrationError("username_taken", "That username is taken.") from None


def player_for(user) -> Player:  # type: ignore[no-untyped-def]
    """The user's Player, created on first use (for accounts made in the admin)."""
    player, _ = Player.objects.get_or_create(user=user, defaults={"display_name": user.username})
    return player
