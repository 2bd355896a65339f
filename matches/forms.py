"""Forms of the pages: sign-up, accounts, creating a match, posting a legal action."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm

from config import api_json, signin
from config.refusal import Refusal
from engine.protocol import quoted
from league.services import SIGNUP_FIELDS, sends_mail, signup_refusals, time_zones

OPEN_SEAT = "open"
PLAYER_SEAT = "player"
BOT_PREFIX = "bot:"
# Phones type curly quotes into text fields ("smart punctuation"); JSON wants straight ones.
STRAIGHT_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"'})
JSON_INPUT = {"autocapitalize": "none", "autocorrect": "off", "spellcheck": "false"}


def read_json(text: str) -> Any:
    """A value typed or posted as JSON; ValueError when it is not JSON or not JSON every
    store takes (`config.api_json.loads`: NaN, Infinity, a number past 64 bits...)."""
    return api_json.loads(text.translate(STRAIGHT_QUOTES))


def _password_field(label: str, autocomplete: str = "new-password") -> forms.CharField:
    """A password as typed: spaces at its ends are part of it, as at sign-in."""
    return forms.CharField(label=label, strip=False,
                           widget=forms.PasswordInput(attrs={"autocomplete": autocomplete}))


def _email_field(help_text: str) -> forms.CharField:
    """An email address, or nothing; what makes one valid lives in league.services."""
    return forms.CharField(max_length=254, required=False, help_text=help_text,
                           widget=forms.EmailInput(attrs={"autocomplete": "email"}))


def _typed_twice(form: forms.Form, field: str, again: str) -> dict[str, Any]:
    """The form's cleaned data, with an error on `again` when it differs from `field`."""
    data = form.cleaned_data
    if data.get(field) and data.get(field) != data.get(again):
        form.add_error(again, "The two passwords differ.")
    return data


class SignInForm(AuthenticationForm):
    """Django's login form, saying so when the name is locked out for wrong passwords."""

    def clean(self) -> dict[str, Any]:
        if signin.locked_out(self.cleaned_data.get("username"), self.request):
            raise forms.ValidationError(signin.LOCKED_OUT, code="too_many_attempts")
        return super().clean()


class RegisterForm(forms.Form):
    """Sign-up; the rules on names and passwords live in league.services."""

    # Which field a refusal of league.services belongs to, by its code (others: the form).
    refusals = SIGNUP_FIELDS

    username = forms.CharField(max_length=150, widget=forms.TextInput(
        attrs={"autocomplete": "username", "autocapitalize": "none"}))
    display_name = forms.CharField(max_length=64, required=False,
                                   help_text="Shown in standings and on player pages.")
    password = _password_field("Password")
    password2 = _password_field("Password again")
    email = _email_field("Optional: where a link to reset a forgotten password goes. "
                         "Nobody else sees it.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # No link could confirm an address (the page says so). One posted all the same (a
        # page loaded before the site stopped mailing) keeps the field, for the service's
        # refusal to stand beside it: dropped, the account came without the address.
        if not sends_mail() and not str(self.data.get("email") or "").strip():
            del self.fields["email"]

    def clean(self) -> dict[str, Any]:
        """Every problem at once, each beside its field: the service's refusals (a name
        taken, a weak password...) with the form's own (two passwords that differ), not
        one a try. `register_player` checks again, and refuses a name taken meanwhile."""
        data = _typed_twice(self, "password", "password2")
        # A field refused already (left empty, too long) keeps that one reason.
        for refusal in signup_refusals(username=data.get("username") or "",
                                       password=data.get("password") or "",
                                       display_name=data.get("display_name") or "",
                                       email=data.get("email") or ""):
            field = self.refusals.get(refusal.code)
            if field is None or field not in self.errors:
                self.add_error(field, refusal.detail)
        return data


class DisplayNameForm(forms.Form):
    """A new display name; what makes one valid lives in league.services."""

    refusals = {"bad_display_name": "display_name"}

    display_name = forms.CharField(max_length=64, strip=False,
                                   help_text="Shown in standings, on player pages and in new "
                                             "Event entries.")


class PasswordChangeForm(forms.Form):
    """The present password and the new one twice; the checks live in league.services."""

    refusals = {"bad_credentials": "old_password", "weak_password": "new_password"}

    old_password = _password_field("Present password", "current-password")
    new_password = _password_field("New password")
    new_password2 = _password_field("New password again")

    def clean(self) -> dict[str, Any]:
        return _typed_twice(self, "new_password", "new_password2")


class EmailForm(forms.Form):
    """Where password reset links go; empty: nowhere."""

    refusals = {"bad_email": "email", "bad_credentials": "password"}

    email = _email_field("Where password reset links, and the turn mails you ask for, go; "
                         "leave it empty for none. Nobody else sees it.")
    password = forms.CharField(
        label="Present password", strip=False, required=False,
        help_text="Needed for a new address: a reset link sent there sets your password.",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


class CloseAccountForm(forms.Form):
    """The present password, and a box ticked to say the player means it."""

    refusals = {"bad_credentials": "password"}

    password = _password_field("Present password", "current-password")
    sure = forms.BooleanField(label="I understand: my account is closed for good, and I "
                                    "cannot sign in to it again")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its fields' ids are its own: the email form above it on the account page has a
        # "password" too, and a label names only the first field of its id.
        kwargs.setdefault("auto_id", "id_close_%s")
        super().__init__(*args, **kwargs)


class TurnMailForm(forms.Form):
    """Whether to be mailed when a match waits for the player's move, and before an Event
    they are entered in starts."""

    refusals: dict[str, str | None] = {}

    turn_mail = forms.BooleanField(
        required=False, label="Mail me when a match has waited for my move or an invitation "
                              "for my answer")
    event_mail = forms.BooleanField(
        required=False, label="Mail me before an Event I am entered in starts")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # How long, as the site sets it (TURN_MAIL_MINUTES, EVENT_MAIL_HOURS: up to 30 days).
        self.fields["turn_mail"].label = (
            f"Mail me when a match has waited {_count(settings.TURN_MAIL_MINUTES, 'minute')} "
            "for my move or an invitation for my answer")
        self.fields["event_mail"].label = (
            f"Mail me {_count(settings.EVENT_MAIL_HOURS, 'hour')} before an Event I am "
            "entered in starts")


class TimeZoneForm(forms.Form):
    """The time zone the player's mails give their times in, and the account page its
    dates: a card of its own, as it serves a site that sends no turn mail too."""

    refusals = {"unknown_time_zone": "time_zone"}

    time_zone = forms.ChoiceField(
        label="My time zone", required=False,
        widget=forms.Select(attrs={"data-time-zone": ""}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zone: Any = self.fields["time_zone"]
        zone.choices = [(name, name.replace("_", " ")) for name in time_zones()]


def _count(number: int, unit: str) -> str:
    """"1 hour", "3 hours"."""
    return f"{number} {unit}{'' if number == 1 else 's'}"


class ForgotPasswordForm(forms.Form):
    """The address a reset link is sent to."""

    refusals = {"bad_email": "email"}

    email = forms.CharField(max_length=254, label="Your account's email address",
                            widget=forms.EmailInput(attrs={"autocomplete": "email"}))


class NewPasswordForm(forms.Form):
    """A new password twice, on a reset link (Django's reset view hands it the user)."""

    refusals = {"weak_password": "new_password"}

    new_password = _password_field("New password")
    new_password2 = _password_field("New password again")

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean(self) -> dict[str, Any]:
        return _typed_twice(self, "new_password", "new_password2")

    def save(self) -> Any:
        """The view sets the password through league.services; nothing is left to save."""
        return self.user


class CreateMatchForm(forms.Form):
    """A game and who sits opposite: a bot, an open seat, or a named player."""

    game = forms.ChoiceField()
    opponent = forms.ChoiceField()
    username = forms.CharField(max_length=150, required=False,
                               help_text="Only for \u201cinvite a player by name\u201d: "
                                         "the match starts once they accept.")
    seats = forms.IntegerField(min_value=2, max_value=10, initial=2,
                               help_text="All seats besides yours get the chosen opponent.")
    options = forms.CharField(
        required=False, max_length=2000,
        widget=forms.TextInput(attrs={"placeholder": '{"match_type": "birdcage"}',
                                      **JSON_INPUT}),
        help_text="Optional game options as JSON; each game's options are listed below.")
    lineup = forms.CharField(
        required=False, max_length=400, label="Seats one by one",
        widget=forms.TextInput(attrs={"placeholder": "search-hard, me, random, @bruno, open",
                                      **JSON_INPUT}),
        help_text="Optional, in seat order, overriding the opponent and seat count above: "
                  "me (once), open, a bot level, or @name to invite a player.")

    def __init__(self, *args: Any, games: list[tuple[str, str]],
                 bots: list[str], me: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.me = me
        self.bots = bots
        self.fields["game"].choices = games
        self.fields["opponent"].choices = [
            *[(f"{BOT_PREFIX}{name}", f"Bot: {name}") for name in bots],
            (OPEN_SEAT, "Open seat for another player"),
            (PLAYER_SEAT, "Invite a player by name"),
        ]

    def clean_options(self) -> dict[str, Any]:
        raw = (self.cleaned_data.get("options") or "").strip()
        if not raw:
            return {}
        try:
            options = read_json(raw)
        except ValueError:
            raise forms.ValidationError("Options are a JSON object, e.g. "
                                        '{"best_of": 3}.') from None
        if not isinstance(options, dict):
            raise forms.ValidationError("Options are a JSON object.")
        return options

    def clean_lineup(self) -> list[dict[str, Any]] | None:
        """The seats typed one by one, as create_match's seat items; None if left empty."""
        words = [w.strip() for w in (self.cleaned_data.get("lineup") or "").split(",")]
        if not any(words):
            return None
        seats: list[dict[str, Any]] = []
        for word in words:
            if word.casefold() == "me":
                seats.append({"player": self.me})
            elif word.casefold() == "open":
                seats.append({"open": True})
            elif word in self.bots:
                seats.append({"bot": word})
            elif word.startswith("@") and word[1:].strip():
                seats.append({"player": word[1:].strip()})
            else:
                raise forms.ValidationError(
                    f"Cannot read the seat {quoted(word)}: write me, open, a bot level "
                    f"({', '.join(self.bots)}) or @name.")
        # Names are read ignoring case (services.user_named): "@ALICE" is alice too.
        mine = [s for s in seats if str(s.get("player", "")).casefold() == self.me.casefold()]
        if len(mine) != 1:
            raise forms.ValidationError("Name yourself (me) in exactly one seat.")
        return seats

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("lineup"):
            return data
        named = data.get("username", "").strip()
        if data.get("opponent") == PLAYER_SEAT and not named:
            self.add_error("username", "Name the player you want to play.")
        elif data.get("opponent") == PLAYER_SEAT and named.casefold() == self.me.casefold():
            # The pages play one seat a player (the API can play both, naming the seat).
            self.add_error("username", "Name another player: you already hold the first seat.")
        return data

    def refused_field(self, code: str) -> str | None:
        """The field a refusal of create_match's belongs to, by its code: the seats typed
        one by one when they were, else the field that chose them; None: the form."""
        lineup = bool(self.cleaned_data.get("lineup"))
        field = {"bad_seat_count": "seats", "bad_seat": "seats", "unknown_bot": "opponent",
                 "unknown_player": "username", "bad_option": "options",
                 "unknown_option": "options"}.get(code)
        return "lineup" if lineup and field in ("seats", "opponent", "username") else field

    def seat_specs(self, me: str) -> list[dict[str, Any]]:
        """The `seats` argument of create_match: the lineup typed, else me in seat 0 and
        then the opponents."""
        if self.cleaned_data.get("lineup"):
            return list(self.cleaned_data["lineup"])
        opponent, others = self.cleaned_data["opponent"], self.cleaned_data["seats"] - 1
        if opponent.startswith(BOT_PREFIX):
            return [{"player": me}] + [{"bot": opponent[len(BOT_PREFIX):]}] * others
        if opponent == PLAYER_SEAT:
            rest: list[dict[str, Any]] = [{"open": True}] * (others - 1)
            return [{"player": me}, {"player": self.cleaned_data["username"].strip()}, *rest]
        return [{"player": me}] + [{"open": True}] * others


PART = re.compile(r"action\.([a-z_]{1,32})")
MOST_PARTS = 10  # list items an action may be composed of (Superstar Showdown plays three)
UNREAD = "That action could not be read: reload the page and choose again."
# The codes of ActionForm's own refusals, which say in words what was wrong with a move.
MOVE_REFUSALS = ("bad_action", "move_incomplete", "move_too_long", "bad_move_part")


class ActionForm(forms.Form):
    """One legal action posted back verbatim, with an idempotency key.

    An action may also be composed on the page: `action` holds what is fixed (`{"type":
    "play_spots"}`) and each field `action.NAME` (repeated, in order: one select per
    spot) becomes the list `action[NAME]`. The engine then judges the whole action like
    any other. A form it cannot read is refused with what was wrong (`refusal`).
    """

    action = forms.CharField(max_length=4000)  # the longest legal action is far shorter
    key = forms.CharField(max_length=64, required=False)
    moves = forms.IntegerField(min_value=0, max_value=10**6, required=False)
    seat = forms.IntegerField(min_value=0, max_value=10**6, required=False)
    # The action as far as it was read, refused or not: a composed move's choices, which
    # its form shows again for the player to mend.
    sent: dict[str, Any] | None = None

    def clean_action(self) -> dict[str, Any]:
        try:
            action = read_json(self.cleaned_data["action"])
        except ValueError:
            raise forms.ValidationError(UNREAD, code="bad_action") from None
        if not isinstance(action, dict):
            raise forms.ValidationError(UNREAD, code="bad_action")
        self.sent = action
        for field in self.data:
            part = PART.fullmatch(field)
            if part is None:
                continue
            items = self.data.getlist(field) if hasattr(self.data, "getlist") \
                else [self.data[field]]
            action[part[1]] = list(items)
            self._check_parts(part[1], items)
        return action

    @staticmethod
    def _check_parts(name: str, items: list[Any]) -> None:
        """Refuse one part of a composed move (each spot's card) that is not whole."""
        words = name.replace("_", " ")
        if not items or any(item == "" for item in items):
            raise forms.ValidationError(
                f"Choose all of the move's {words}: one is not chosen yet.",
                code="move_incomplete")
        if len(items) > MOST_PARTS:
            raise forms.ValidationError(f"A move has at most {MOST_PARTS} {words}.",
                                        code="move_too_long")
        if not all(isinstance(item, str) and len(item) <= 64 for item in items):
            raise forms.ValidationError(f"One of the move's {words} is none that a page "
                                        "offers.", code="bad_move_part")

    def refusal(self) -> Refusal:
        """Why the form was refused, in words for its player, and the refusal's code: the
        move's own fault first, else the page's form was not one this site sent."""
        for error in self.errors.as_data().get("action", ()):
            if error.code in MOVE_REFUSALS:
                return Refusal(str(error.code), str(error.message))
        return Refusal("bad_action", UNREAD)
