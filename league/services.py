"""League business rules shared by pages, the API and the admin."""

from __future__ import annotations

import contextlib
import logging
import unicodedata
import zoneinfo
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import CharField, Q, QuerySet, Value
from django.db.models.functions import Cast, Concat
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes, punycode
from django.utils.http import urlsafe_base64_encode
from rest_framework.authtoken.models import Token

from config import queue, signin
from league.models import Player, ResetMail

logger = logging.getLogger(__name__)

DISPLAY_NAME_LENGTH = 64
# The zero-width joiner and non-joiner: Persian and Indic spellings and emoji sequences
# need them, and they change no letter.
JOINERS = str.maketrans("", "", "\u200c\u200d")


@dataclass
class AccountError(Exception):
    """Why an account could not be created or changed; `code` is machine-readable, and
    `status` the HTTP status the refusal answers with."""

    code: str
    detail: str
    status: int = 400

    def __str__(self) -> str:
        return self.detail


NO_MAIL = "This site sends no mail, so it needs no email address."


def sends_mail() -> bool:
    """Whether this site sends mail (RESET_BY_MAIL: a mail server, or the demo's console):
    one that sends none takes no email address, which no confirmation link could reach,
    and mails no reset link."""
    return bool(settings.RESET_BY_MAIL)


# Which field of a sign-up each of `signup_refusals` concerns, by its code.
SIGNUP_FIELDS = {"bad_username": "username", "username_taken": "username",
                 "bad_display_name": "display_name", "weak_password": "password",
                 "bad_email": "email", "no_mail": "email"}


def signup_refusals(*, username: str, password: str, display_name: str = "",
                    email: str = "") -> list[AccountError]:
    """Every reason `register_player` would refuse this sign-up, in the order it checks
    them (none: it may go ahead, unless another takes the name first), so a form can say
    them all at once rather than one a try. Sign-up closed is not among them."""
    refusals: list[AccountError] = []
    if (email or "").strip() and not sends_mail():
        refusals.append(AccountError("no_mail", NO_MAIL, 501))
    username = (username or "").strip()
    # ASCII only: a look-alike letter from another script (a Cyrillic a for a Latin one)
    # would pass for somebody else's name at a table or in an invitation. Display names
    # may be in any script.
    if not username or len(username) > 150 or not username.isascii() \
            or not username.replace("_", "").replace("-", "").isalnum():
        refusals.append(AccountError(
            "bad_username", "A username is 1-150 letters (a-z), digits, '-' or '_'."))
    elif reads_as_seat(username):
        # Seats and invitations show the username: "open" would sit there as an open seat.
        # (The display name, when given, shows elsewhere; the username still shows there.)
        refusals.append(AccountError(
            "bad_username", "That is how a seat no player holds is shown (an open one's): "
                            "choose a username of your own."))
    for check, value in ((_display_name, display_name), (_email, email)):
        if (value or "").strip():
            try:
                check(value)
            except AccountError as exc:
                refusals.append(exc)
    User = get_user_model()
    if username and User.objects.filter(username__iexact=username).exists():
        refusals.append(AccountError("username_taken", "That username is taken."))
    try:
        _check_password(password, User(username=username))
    except AccountError as exc:
        refusals.append(exc)
    return refusals


def register_player(*, username: str, password: str, display_name: str = "",
                    email: str = "", request: Any = None) -> Player:
    """Create a user and their Player, or nothing at all. `email` is optional: the
    address reset links and turn mails go to once the link mailed there confirms it; a
    site that sends no mail refuses one (501 no_mail). Refused for the first of
    `signup_refusals`, or for a name another sign-up took meanwhile."""
    if not settings.SIGNUP_OPEN:
        raise AccountError("signup_closed", "Sign-up is closed on this site.", 403)
    refusals = signup_refusals(username=username, password=password,
                               display_name=display_name, email=email)
    if refusals:
        raise refusals[0]
    username = (username or "").strip()
    display_name = _display_name(display_name) if (display_name or "").strip() else username
    email = _email(email)
    User = get_user_model()
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            player = Player.objects.create(user=user, display_name=display_name,
                                           pending_email=email)
            if email:
                _send_confirmation(player, request)
    except IntegrityError:
        raise AccountError("username_taken", "That username is taken.") from None
    return player


def rename_player(player: Player, display_name: str) -> Player:
    """Show `player` under a new display name: in standings, on player pages and in new
    Event entries (an entry keeps the name it was made under)."""
    name = _display_name(display_name, player.user)
    with transaction.atomic():
        # Under the player's lock, which a close takes first (close_user): a name given
        # as the account closed was written after the close, on a player that was to
        # read "Closed account".
        Player.objects.select_for_update(no_key=True).filter(pk=player.pk).first()
        if not get_user_model().objects.filter(pk=player.user_id, is_active=True).exists():
            raise AccountError("account_closed", "This account is closed.", 409)
        player.display_name = name
        player.save(update_fields=["display_name"])
    return player


def change_password(user: Any, *, old_password: str, new_password: str,
                    request: Any = None) -> None:
    """Give `user` a new password, on their present one. A wrong present password counts
    against the sign-in brake like a wrong sign-in (`config.signin`), so a stolen session
    or token cannot guess it freely. The account's API token is revoked with the old
    password, and Django ends the account's other sessions; the caller keeps its own."""
    with transaction.atomic():
        # Checked under the account's lock: of two changes sent on one present password,
        # the second finds it changed, as it would one after the other.
        _lock_account(user)
        _check_present_password(user, old_password, request)
        # As checked just now: the check may have stored it again, under the preferred
        # hasher (set_password refuses a password other than the one it was shown).
        user.refresh_from_db(fields=["password"])
        set_password(user, new_password, request)


def _check_present_password(user: Any, password: str, request: Any) -> None:
    """Refused unless `password` is `user`'s present one: a wrong one counts against the
    sign-in brake (`config.signin`), and a locked-out name is refused whatever it gives."""
    username = user.get_username()
    if signin.locked_out(username, request):
        raise AccountError("too_many_attempts", signin.LOCKED_OUT, 429)
    if authenticate(request, username=username, password=password) is None:
        raise AccountError("bad_credentials", "The present password is wrong.")


def set_password(user: Any, password: str, request: Any = None) -> None:
    """Give `user` the new `password` (the checks of AUTH_PASSWORD_VALIDATORS) once they
    have shown who they are: by their present password or a reset link. The API token
    is revoked with the old password and Django ends the other sessions; the wrong
    passwords counted against the name from where `request` comes are forgotten."""
    _check_password(password, user)
    with transaction.atomic():
        # A token handed out meanwhile waits, and then is refused; a change shown to
        # another password than the account's now (a reset link opened twice at once,
        # whose first use changed it) is refused here.
        if _lock_account(user) != user.password:
            raise AccountError("bad_credentials", PASSWORD_CHANGED)
        user.set_password(password)
        user.save(update_fields=["password"])
        revoke_token(user)
    signin.forget(user.get_username(), request)


def set_email(user: Any, email: str, *, password: str | None = None,
              request: Any = None) -> str:
    """Where `user`'s password reset links and turn mails go: "removed" (empty: nowhere,
    and no turn mails), "kept" (the same address), or "pending": a new address is used
    once the link mailed to it is opened (`confirm_email`), so nobody has the site mail
    an address that is not theirs. Only its owner, staff and the mail it is sent to ever
    see it. A new address needs the present `password`, checked as change_password
    checks it: a reset link sent to it sets the password, so a stolen session or token
    that could set it would take the account. A site that sends no mail refuses a new
    address (501 no_mail), and keeps or removes one it has."""
    email = _email(email)
    with transaction.atomic():
        # Under the player's lock, which a confirmation takes too: a link opened at the
        # same moment comes before this change or after it, never across it.
        player = Player.objects.select_for_update().get(pk=player_for(user).pk)
        user.refresh_from_db(fields=["email"])
        return _set_email(user, player, email, password, request)


def _set_email(user: Any, player: Player, email: str, password: str | None,
               request: Any) -> str:
    """`set_email` on the player's locked row."""
    if not email or email == user.email:
        user.email = email
        user.save(update_fields=["email"])
        player.pending_email = ""
        player.turn_mail = player.turn_mail and bool(email)
        player.event_mail = player.event_mail and bool(email)
        player.save(update_fields=["pending_email", "turn_mail", "event_mail"])
        return "kept" if email else "removed"
    if not sends_mail():
        raise AccountError("no_mail", NO_MAIL, 501)
    if not password:
        raise AccountError("bad_credentials", "Give your present password to change "
                                              "the email address.")
    _check_present_password(user, password, request)
    player.pending_email = email
    player.save(update_fields=["pending_email"])
    _send_confirmation(player, request)
    return "pending"


EMAIL_SALT = "league.confirm-email"


def link_hours() -> int:
    """How many hours a mailed link (a password reset, an address confirmation) works."""
    return int(settings.PASSWORD_RESET_TIMEOUT // 3600)


def _send_confirmation(player: Player, request: Any) -> None:
    """Owe `player` the link that confirms their pending address, written with it (in
    the caller's transaction), and have a worker mail it once that commits (as reset
    links go): a change refused after it owes nothing, and a task the broker lost leaves
    the link owed, for the sweep to mail (`mail_email_confirmations`)."""
    from league.tasks import mail_email_confirmation

    player.confirm_site = _absolute("", _site(request))
    player.confirm_tries = 0
    player.confirm_sending = None  # a link going to the address before is not this one
    player.save(update_fields=["confirm_site", "confirm_tries", "confirm_sending"])
    user_id = player.user_id
    queue.after_commit(lambda: queue.enqueue(mail_email_confirmation, user_id))


def mail_email_confirmation(user_id: int) -> bool:
    """Mail the link owed to account `user_id` that confirms its pending address; whether
    it went. Claimed first (`claim_sending`), so of the task and the sweep (or two
    sweeps) one mails it, then sent outside any lock (the player's row is not held while
    the mail server answers) and marked sent. The link is signed as it goes: its hours
    count from the mail. A refusal leaves it owed for the next sweep, MAIL_TRIES times in
    a row at most; then it is given up, logged (a new address, or the same given again,
    owes a new one). A new address given while it goes owes its own link, which the
    marks of this one leave owed (this one's link confirms an address no longer waited
    for). A mail the server took whose mark then fails (the database away) is mailed
    again once its claim is stale: once, as far as the database lets it be."""
    stamp = claim_sending(Player.objects.filter(user_id=user_id).exclude(confirm_site=""),
                          "confirm_sending")
    player = None if stamp is None else (Player.objects.select_related("user")
                                         .filter(user_id=user_id, confirm_sending=stamp)
                                         .first())
    if player is None:
        return False
    mine = Player.objects.filter(pk=player.pk, confirm_sending=stamp)
    sent = {"confirm_site": "", "confirm_sending": None, "confirm_tries": 0}
    if not (player.pending_email and player.user.is_active):
        mine.update(**sent)  # owed to nobody: the address removed or confirmed, or closed
        return False
    token = signing.dumps({"user": user_id, "email": player.pending_email}, salt=EMAIL_SALT)
    try:
        mail_rendered("registration/confirm_email", {
            "user": player.user, "hours": link_hours(),
            "link": player.confirm_site + reverse("email_confirm", args=[token])},
            player.pending_email, player)
    except Exception as error:  # the mail server's refusal: tried again, see above
        mail_failed("address confirmation", user_id, error)
        tries = player.confirm_tries + 1
        if tries < MAIL_TRIES:
            mine.update(confirm_sending=None, confirm_tries=tries)
        elif mine.update(**sent):
            logger.error("Gave up mailing account %s the link confirming its address, "
                         "after %s tries", user_id, MAIL_TRIES)
        return False
    mine.update(**sent)
    return True


# How long a worker's claim on a mail it sends keeps the others from sending it
# (`claim_sending`): longer than a mail takes (each step of the talk with the mail server
# waits EMAIL_TIMEOUT at most), so an older claim is a dead worker's.
SENDING_SECONDS = 5 * 60


def claim_sending(owed: QuerySet[Any], field: str) -> datetime | None:
    """Claim the mail that the row `owed` owes (none: nothing owed) for this worker to
    send: its column `field` marked with the time, in one short statement, unless another
    worker's claim on it is younger than SENDING_SECONDS; the mark, or None when it is
    not this worker's to send. Of two at once, one claims it: the other's UPDATE waits
    for the first's row and finds it marked."""
    now = timezone.now()
    return now if owed.filter(_unclaimed(field, now)).update(**{field: now}) else None


def _unclaimed(field: str, now: datetime) -> Q:
    """Rows whose claim column `field` holds no worker's live claim at `now`: none, or
    one older than SENDING_SECONDS (a dead worker's)."""
    stale = now - timedelta(seconds=SENDING_SECONDS)
    return Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__lt": stale})


def mail_email_confirmations() -> int:
    """Mail the links confirming a pending address that are still owed (their task lost
    with the broker, or refused by the mail server); how many went."""
    if not sends_mail():
        return 0
    owed = Player.objects.exclude(confirm_site="").order_by("pk").values_list("user_id",
                                                                               flat=True)
    return sum(mail_email_confirmation(user_id) for user_id in owed)


# How many sweeps in a row try a mail the mail server refuses (league.turn_mail,
# league.event_mail, an address's confirmation link) before it is given up: a server down
# for a while loses none, and an address it always refuses is not tried forever.
MAIL_TRIES = 3


def mail_rendered(template: str, context: dict[str, Any], to: str,
                  player: Player | None = None) -> None:
    """Mail `to` the text `template`.txt renders, under the subject `template`_subject.txt
    renders (on one line, without control characters: an Event's name takes any); the
    times in it are given in `player`'s zone (`zone_of`; the site's, UTC, for a mail to
    no player yet), which `time_zone` names, and `zone_dropped` the zone they chose that
    UTC stands in for (`dropped_zone`)."""
    zone: tzinfo = zone_of(player) if player is not None else timezone.get_default_timezone()
    dropped = dropped_zone(player) if player is not None else ""
    # Named by its place, as the player chose it: an abbreviation (CST) names several.
    context = {**context, "time_zone": str(zone).replace("_", " "), "zone_dropped": dropped}
    with timezone.override(zone):
        subject = one_line(render_to_string(f"{template}_subject.txt", context))
        send_mail(subject, render_to_string(f"{template}.txt", context), None, [to])


def mail_failed(kind: str, account: Any, error: BaseException, about: str = "") -> None:
    """Log that the `kind` mail to account `account` (`about` what, if said) failed, and
    the error's class: neither its text nor a traceback, which carry the address (an SMTP
    refusal names it) or a link's token."""
    logger.error("Could not mail account %s its %s mail%s: %s", account, kind,
                 f" about {about}" if about else "", type(error).__name__)


def one_line(text: str) -> str:
    """`text` on one line, without control characters: a mail's subject, an iCalendar
    TEXT value (RFC 5545 3.3.11 refuses them; the icalendar package escapes only CR and
    LF). An Event's name takes any character (its notes are checked as lines of visible
    text), so a line break other than CR or LF, or an escape sequence, reached them."""
    spaced = " ".join(text.split())
    return "".join(ch for ch in spaced
                   if unicodedata.category(ch) not in {"Cc", "Zl", "Zp"}).strip()


def email_link(token: str) -> Player:
    """The player whose pending address the mailed link `token` would confirm, changing
    nothing (its page asks before confirming: a mail service that opens every link it
    carries, to look into it, would confirm an address typed by mistake for its owner);
    refused as confirm_email refuses it."""
    return _awaiting(_link_of(token), Player.objects.all())


def confirm_email(token: str) -> Any:
    """The account whose pending address the mailed link `token` confirms, now using it;
    refused when the link is altered, older than PASSWORD_RESET_TIMEOUT, or for an address
    the account no longer waits for (another given since, or removed)."""
    found = _link_of(token)
    with transaction.atomic():
        # Read under the lock set_email takes: an address removed or replaced as the link
        # is opened is not confirmed after it.
        player = _awaiting(found, Player.objects.select_for_update(of=("self",)))
        player.user.email = player.pending_email
        player.user.save(update_fields=["email"])
        player.pending_email = ""
        player.save(update_fields=["pending_email"])
    return player.user


def _link_of(token: str) -> dict[str, Any]:
    """What the mailed link `token` signed (its account and address), while it is whole and
    younger than PASSWORD_RESET_TIMEOUT."""
    try:
        found: dict[str, Any] = signing.loads(token, salt=EMAIL_SALT,
                                              max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        raise AccountError("bad_link", "This link no longer works: it is too old or "
                                       "not whole.") from None
    return found


def _awaiting(found: Mapping[str, Any], players: QuerySet[Player]) -> Player:
    """The active account of a link's `found`, waiting for the link's address still."""
    player = (players.select_related("user")
              .filter(user_id=found["user"], user__is_active=True).first())
    if player is None or not player.pending_email \
            or player.pending_email != normalized_email(found["email"]):
        raise AccountError("bad_link", "This link no longer works: another address was "
                                       "given since, or it was confirmed already.")
    return player


def set_turn_mail(player: Player, on: bool) -> Player:
    """Whether `player` is mailed when a match has waited a while for their move
    (league.turn_mail); only with an email address to mail, on a site that mails."""
    return _set_mail_choice(player, "turn_mail", on)


def set_event_mail(player: Player, on: bool) -> Player:
    """Whether `player` is mailed before an Event they are entered in starts
    (league.event_mail); as set_turn_mail."""
    return _set_mail_choice(player, "event_mail", on)


def set_mails(player: Player, *, turn_mail: bool, event_mail: bool,
              time_zone: str | None = None) -> Player:
    """Both of `player`'s mail choices and, when given, the time zone of the mails' times,
    or none of them (a refusal of one keeps the others)."""
    with transaction.atomic():
        if time_zone is not None:
            set_time_zone(player, time_zone)
        set_turn_mail(player, turn_mail)
        return set_event_mail(player, event_mail)


@cache
def time_zones() -> tuple[str, ...]:
    """The time zones a player may choose: UTC and the IANA zones named by a place
    (Europe/Paris, America/Argentina/Salta), in alphabetical order. Not the Etc/GMT+N
    zones, whose sign reads backwards, nor the database's internal names."""
    return ("UTC", *sorted(name for name in zoneinfo.available_timezones()
                           if "/" in name and not name.startswith(("Etc/", "SystemV/",
                                                                   "posix/", "right/"))))


def set_time_zone(player: Player, name: str) -> Player:
    """The IANA time zone the times in `player`'s mails are given in; empty or UTC: UTC."""
    name = name.strip()
    if name and name not in time_zones():
        raise AccountError("unknown_time_zone", "Name a time zone by its place, as "
                                                "Europe/Paris or America/New_York, or UTC.")
    player.time_zone = "" if name == "UTC" else name
    player.save(update_fields=["time_zone"])
    return player


def zone_of(player: Player) -> zoneinfo.ZoneInfo:
    """The time zone `player`'s mails give times in (UTC when they chose none, or chose
    one a later time zone database no longer has: `dropped_zone`)."""
    try:
        return zoneinfo.ZoneInfo(player.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def dropped_zone(player: Player) -> str:
    """The zone `player` chose when the time zone database had it, which a later one no
    longer has ("" when none): their times are given in UTC instead, and the mails and
    the account page say why, rather than leave them to take UTC for their own zone."""
    try:
        zoneinfo.ZoneInfo(player.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return player.time_zone
    return ""


def _set_mail_choice(player: Player, choice: str, on: bool) -> Player:
    if on and not settings.TURN_MAIL:
        # A site that mails reset links but has no address of its own (SITE_URL) for
        # the reminders' links sends none: it does send mail.
        raise AccountError("no_mail", "This site sends no reminders: it mails password "
                           "reset links only." if settings.RESET_BY_MAIL
                           else "This site sends no mail.", 409)
    with transaction.atomic():
        # The address read under the lock set_email takes: one removed at this moment
        # turns the mails off after this, or refuses them here.
        email = (Player.objects.select_for_update(of=("self",)).filter(pk=player.pk)
                 .values_list("user__email", flat=True).get())
        if on and not email:
            raise AccountError("no_email", "Give an email address first: the mails go "
                                           "there.", 409)
        setattr(player, choice, on)
        player.save(update_fields=[choice])
    return player


# Reset links to one address within RESET_WINDOW seconds (an hour): RESETS_PER_ADDRESS
# asked from one client, RESETS_TO_ADDRESS in all; and one client asks at most
# RESETS_FROM_CLIENT times, whatever the addresses. The counts are the same whether an
# account has the address, so they tell nothing. (`send_password_reset` says why.)
RESETS_PER_ADDRESS = 3
RESETS_TO_ADDRESS = 10
RESETS_FROM_CLIENT = 20
RESET_WINDOW = 60 * 60
TOO_MANY_RESETS = "Too many reset links asked for: try again in an hour."
LINKS_MAILED = ("Too many reset links asked for that address: try again in an hour. If an "
                "account has it, the links mailed to it within the hour work, for {hours} "
                "hours or until the password is set with one of them.")


def send_password_reset(email: str, request: Any) -> None:
    """Mail a password reset link to every active account that gave `email` (none: no
    mail, and the same answer, so nobody learns whose address it is). The link works
    once, for PASSWORD_RESET_TIMEOUT seconds, and not after the password changed.

    The brakes keep a stranger from filling a mailbox and from taking the owner's links:
    an address's count is kept by client (RESETS_PER_ADDRESS each), so whoever asks for
    another's address from elsewhere uses up their own asks, not the owner's. Asked from
    many clients, an address gets RESETS_TO_ADDRESS links in all; then nobody gets more
    for the hour, and the refusal says that the links mailed work (each does, until the
    password is set with one), since the owner has them."""
    email = _email(email)
    if not email:
        raise AccountError("bad_email", "Give the email address of your account.")
    address, client = signin.digest(email.casefold()), signin.client_address(request)
    # Counted first, then compared: asks sent at the same instant each see their own count.
    from_client = signin.count("reset-from:" + signin.digest(client), RESET_WINDOW)
    asked_here = signin.count("reset-to-from:" + signin.digest(address, client),
                              RESET_WINDOW)
    if from_client > RESETS_FROM_CLIENT:
        raise AccountError("too_many_requests", TOO_MANY_RESETS, 429)
    # Only the asks let through count against the address: one client's refused asks
    # leave the others theirs.
    if asked_here > RESETS_PER_ADDRESS \
            or signin.count("reset-to:" + address, RESET_WINDOW) > RESETS_TO_ADDRESS:
        raise AccountError("too_many_requests", LINKS_MAILED.format(hours=link_hours()), 429)
    owe_password_reset(email, _absolute("", _site(request)))


def owe_password_reset(email: str, site: str) -> None:
    """Owe the reset mail asked for `email` (`ResetMail`), links opening at `site`, and
    have a worker mail it. Written for every ask, whether an account
    has the address or not: the answer, and the work the request does, tell nothing. A
    worker, not the request, mails it: an answer that waited on the mail server would
    take longer for a known address than for an unknown one. An ask not yet claimed for
    the same address joins it (one mail for both); a task the broker lost (Redis away)
    leaves it owed, for the sweep to mail (`mail_password_resets`)."""
    from league.tasks import mail_password_reset

    if ResetMail.objects.filter(email=email, site=site, sending_at__isnull=True).exists():
        return
    owed = ResetMail.objects.create(email=email, site=site)  # committed: no transaction
    try:
        queue.enqueue(mail_password_reset, owed.pk)
    except queue.BROKER_DOWN as exc:
        logger.warning("Reset mail %s left to the sweep (broker away: %s)", owed.pk, exc)


def _site(request: Any) -> tuple[str, bool]:
    """Where a mailed link opens, and whether over https: the site's own address
    (SITE_URL) when it is set. The request's Host header is the client's to write, and
    any name ALLOWED_HOSTS lets through (a wildcard, a second domain) would otherwise
    carry the token to a host the client chose."""
    if settings.SITE_URL:
        scheme, _, rest = settings.SITE_URL.partition("://")
        return rest, scheme == "https"
    return request.get_host(), request.is_secure()


def mail_password_reset(owed_id: int) -> int:
    """Mail the reset mail `owed_id` owes (`owe_password_reset`): the link of each active
    account with its address not mailed yet; how many went. Claimed first
    (`claim_sending`), so of the task and the sweep one mails it, and mailed outside any
    lock. Each link that went is marked on it at once; once none is refused it is
    deleted. A refusal leaves the rest owed for the next sweep, MAIL_TRIES times in a row
    at most; then it is given up, logged. One not mailed within PASSWORD_RESET_TIMEOUT
    (the broker and the sweeps away that long) is dropped: its links would arrive long
    after they were asked for. A link the server took whose mark then fails (the
    database away) is mailed again once the claim is stale."""
    stamp = claim_sending(ResetMail.objects.filter(pk=owed_id), "sending_at")
    owed = None if stamp is None else ResetMail.objects.filter(pk=owed_id,
                                                                sending_at=stamp).first()
    if owed is None:
        return 0
    mine = ResetMail.objects.filter(pk=owed.pk, sending_at=stamp)
    asked_before = timezone.now() - timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    if owed.created_at < asked_before:
        mine.delete()
        logger.error("Dropped the password reset asked %s, never mailed", owed.created_at)
        return 0
    scheme, _, domain = owed.site.partition("://")
    before = len(owed.mailed)
    form = _ResetLinkForm({"email": owed.email}, owed=owed, mine=mine)
    if form.is_valid():
        form.save(domain_override=domain, use_https=scheme == "https",
                  subject_template_name="registration/password_reset_subject.txt",
                  email_template_name="registration/password_reset_email.txt",
                  extra_email_context={"hours": link_hours()})
    if not form.refused:
        mine.delete()
    elif owed.tries + 1 < MAIL_TRIES:
        mine.update(sending_at=None, tries=owed.tries + 1)
    elif mine.delete()[0]:
        logger.error("Gave up mailing account%s %s its password reset link, after %s tries",
                     "s" if len(form.refused) > 1 else "",
                     ", ".join(map(str, form.refused)), MAIL_TRIES)
    return len(owed.mailed) - before


def mail_password_resets() -> int:
    """Mail the reset mails still owed (their task lost with the broker, refused by the
    mail server, or claimed by a worker that died); how many links went."""
    if not sends_mail():
        return 0
    owed = ResetMail.objects.filter(_unclaimed("sending_at", timezone.now()))
    return sum(mail_password_reset(pk) for pk in owed.values_list("pk", flat=True))


class _ResetLinkForm(PasswordResetForm):
    """Django's reset form, mailing the reset `owed` (its row as claimed, `mine`): the
    accounts it mailed are passed by and each link that goes is marked at once; a failed
    mail is logged as the site's others are (`mail_failed`: Django logs the traceback,
    whose SMTP refusal names the address) and counted in `refused`."""

    def __init__(self, *args: Any, owed: ResetMail, mine: QuerySet[Any],
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owed, self.mine, self.refused = owed, mine, list[int]()

    def get_users(self, email: str) -> Any:
        return (user for user in super().get_users(email) if user.pk not in self.owed.mailed)

    def send_mail(self, subject_template_name: str, email_template_name: str,
                  context: dict[str, Any], from_email: str | None, to_email: str,
                  html_email_template_name: str | None = None) -> None:
        account = context["user"].pk
        subject = one_line(render_to_string(subject_template_name, context))
        try:
            send_mail(subject, render_to_string(email_template_name, context), from_email,
                      [to_email])
        except Exception as error:  # the mail server's refusal: tried again, see above
            mail_failed("password reset", account, error)
            self.refused.append(account)
            return
        self.owed.mailed = [*self.owed.mailed, account]
        self.mine.update(mailed=self.owed.mailed)


def reset_link(user: Any, request: Any) -> str:
    """A password reset link for `user`, to hand over in person (the admin's action):
    what the mail would carry, at the same address (the staff member may have opened the
    admin at one the player cannot reach)."""
    path = reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user)})
    return _absolute(path, _site(request))


def _absolute(path: str, site: tuple[str, bool]) -> str:
    """`path` at `site` (its host, and whether over https: `_site`)."""
    domain, secure = site
    return f"{'https' if secure else 'http'}://{domain}{path}"


CLOSED_NAME = "Closed account"
# How a seat no player holds begins at the table (`matches.models.Seat.label`): a player
# named so would sit there looking like a bot or an invitation.
SEAT_LABELS = ("bot:", "invited:")


def reads_as_seat(name: str) -> bool:
    """Whether `name` would read at the table as a seat no player holds: "open", "bot:
    heuristic", "invited: bruno", in any case."""
    folded = name.strip().casefold()
    return folded == "open" or folded.startswith(SEAT_LABELS)


# A closed account's username, then its id (`closed_username`).
CLOSED_PREFIX = "closed."


def closed_username(pk: int) -> str:
    """The username `close_user` gives account `pk`: sign-up never makes a name with a
    dot, so it is taken by nobody else."""
    return f"{CLOSED_PREFIX}{pk}"


# A closed account's player (`close_user`): inactive, under the username the close gave
# it; it reads CLOSED_NAME, which no live player may take. (`shown_name` reads the same
# of a user row it holds, asking the database nothing.)
CLOSED = Q(user__is_active=False, user__username=Concat(
    Value(CLOSED_PREFIX), Cast("user_id", output_field=CharField())))


def closed_players(ids: Iterable[int]) -> set[int]:
    """Which of the players `ids` closed their account (`close_user`): they read
    CLOSED_NAME wherever a name of theirs is shown (`shown_name`)."""
    return set(Player.objects.filter(CLOSED, pk__in=set(ids)).values_list("pk", flat=True))


def is_closed(user: Any) -> bool:
    """Whether `user`'s account is closed (`close_user`), read from the row it holds
    (`CLOSED` says the same in a query)."""
    return not user.is_active and user.get_username() == closed_username(user.pk)


def shown_name(user: Any) -> str:
    """The name pages show for `user`'s account (its seats, invitations, matches, the
    template filter `shown_name`): its username, but CLOSED_NAME once closed (`CLOSED`),
    as its Event entries read (`closed_players`): `closed.ID` is no name for people."""
    return CLOSED_NAME if is_closed(user) else str(user.get_username())


def close_account(user: Any, *, password: str, request: Any = None) -> None:
    """A player closes their own account (`close_user`), on their present password
    (checked as change_password checks it). Refused for staff (409 `staff_account`):
    another administrator closes it in the admin, so a site never loses its last one by
    a click. Sent twice (a double click, a client resending it), the second is answered
    as the first, whose close it found done."""
    try:
        _check_present_password(user, password, request)
    except AccountError:
        # A password is checked only against an active account: this one was active as
        # the request came, and a close of it at the same moment has been written since.
        if not get_user_model().objects.filter(pk=user.pk, is_active=True).exists():
            return
        raise
    if user.is_staff or user.is_superuser:
        raise AccountError("staff_account", "A staff account is closed by another "
                                            "administrator, in the admin.", 409)
    close_user(user)


def close_user(user: Any, *, by: Any = None) -> None:
    """Close `user`'s account for good: what they play outside Events is left or
    resigned, as they would leave it (a live match they resign is rated like any
    resignation), then the account signs in no more (its sessions and API token end) and
    keeps nothing personal: its username becomes `closed.ID` (sign-up never makes a name
    with a dot, so the old name is free again and the new one taken by nobody), its email
    addresses and turn mails go, it leaves the teams no Event entered, and its player is
    shown as "Closed account". The matches they played stay in the other players'
    histories, and its Event entries read "Closed account" too (`_rename_entries`).
    It organizes nothing more: it leaves the organizers of every season and Event (each
    Event records it, `_record_organizers_left`). One that it alone organized stays as
    it is, with the site's staff, who organize every season and Event (their dashboard
    says it has no organizer), so its players' Event runs on and its results stay; staff
    name a new organizer in the admin if they wish.
    Refused while they hold an entry in an Event not over (alone or in a team) or sit in
    a live Event match (409 `in_event`: they leave it, or its organizers withdraw them,
    first). The admin's history of the account says who closed it and when: `by`, staff
    in the admin, else the player themselves."""
    from league.models import Entrant, Event
    from matches import services as match_services
    from matches.models import Departure, Match, Seat

    player = player_for(user)
    with transaction.atomic():
        # The player's row first, then the account's, as an address change and its
        # confirmation take them (set_email, confirm_email): one of those at this moment
        # comes before the close or is refused after it, where the opposite order made a
        # deadlock of them. One close at a time. Not a key lock: an entry that holds the
        # account (league.events) still writes rows naming the player, then meets the
        # close's `in_event` check.
        player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
        _lock_account(user)
        entered = (Entrant.objects.filter(Entrant.held_by(player), withdrawn=False)
                   .exclude(event__status=Event.Status.FINISHED).values("event__name"))
        seated = (Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE,
                                      match__event_match__isnull=False)
                  .values("match__event_match__event__name"))
        names = sorted({row["event__name"] for row in entered}
                       | {row["match__event_match__event__name"] or "an Event"
                          for row in seated})
        if names:
            raise AccountError("in_event", f"{user.get_username()} plays in "
                                           f"{', '.join(names)}: the entry is left, or "
                                           "withdrawn by the organizers, before the "
                                           "account is closed.", 409)
        unfinished = (Match.objects.filter(Q(seats__user=user) | Q(seats__invited=user),
                                           event_match__isnull=True)
                      .exclude(status=Match.Status.FINISHED).distinct().order_by("pk"))
        for match in unfinished:
            _leave(match, user, match_services)
        # Who left which open match is kept for a leave sent again: a closed account
        # sends none, and keeps nothing of the kind.
        Departure.objects.filter(user=user).delete()
        # A team is entered with every member seatable (league.events): the others play
        # on as the team, without the closed account. Not a team an Event entered, whose
        # members its results rate (a ratings rebuild reads them): a new team is made.
        player.teams.remove(*player.teams.filter(entries__isnull=True))
        revoke_token(user)
        user.username = closed_username(user.pk)
        user.email = user.first_name = user.last_name = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save(update_fields=["username", "email", "first_name", "last_name",
                                 "is_active", "is_staff", "is_superuser", "password"])
        user.groups.clear()  # were it ever made active again, it would hold nothing
        user.user_permissions.clear()
        user.organized_seasons.clear()
        organized = list(user.organized_events.order_by("pk").values_list("pk", flat=True))
        user.organized_events.clear()
        player.display_name, player.pending_email = CLOSED_NAME, ""
        player.turn_mail = player.event_mail = False
        player.time_zone = ""
        player.save(update_fields=["display_name", "pending_email", "turn_mail",
                                   "event_mail", "time_zone"])
        _log_close(user, by or user)
    _rename_entries(player)
    _record_organizers_left(user, by or user, organized)


def _rename_entries(player: Player) -> None:
    """The Events `player` entered show their entry as "Closed account" (the projections
    read `closed_players`): in their standings, matches, bracket and season table. Their
    records keep the name it was made under (they are never rewritten), which the pages
    and the API show no more. After the close, one Event at a time under its lock, as its
    results are recorded; one missed here (a crash between) is named so by the Event's
    next change, or by a rebuild of the projections. Each Event's row is saved too
    (`updated_at`, which its pages' polls read with its records): a page open on it
    shows the new name at its next poll, not at the Event's next record."""
    from league import projections
    from league.models import Event

    entered = Event.objects.filter(entrants__player=player).order_by("pk")
    for pk in entered.values_list("pk", flat=True).distinct():
        with transaction.atomic():
            event = Event.objects.select_for_update().filter(pk=pk).first()
            if event is not None:
                projections.refresh_event(event)
                Event.objects.filter(pk=pk).update(updated_at=timezone.now())


def _record_organizers_left(user: Any, by: Any, organized: list[int]) -> None:
    """Each Event the account organized records that it left its organizers (one
    organizers_changed record, `by` its actor), as a change of them in the admin does:
    after the close, one Event at a time under its lock (a crash between leaves the
    record out, not the account in)."""
    from league import events

    for pk in organized:
        events.record_closed_organizer(event_id=pk, user=user, by=by)


def _log_close(user: Any, by: Any) -> None:
    """An entry in the admin's log (the account's history there): who closed it, and
    when. It names the account as it now reads (`closed.ID`), nothing it dropped."""
    said = "Closed by its player." if by.pk == user.pk else "Closed by staff in the admin."
    LogEntry.objects.log_actions(user_id=by.pk, queryset=[user], action_flag=CHANGE,
                                 change_message=said, single_object=True)


def _leave(match: Any, user: Any, match_services: Any) -> None:
    """Out of `match` for good: every seat held in a match waiting for players given back
    (an invitation declined), a live one resigned (each seat held, where the game puts a
    resigning seat out and plays on). A resignation answered without a record written
    (the user's seats were all resigned already) ends it, as does a leave or decline that
    leaves the user nothing held there (answered as made, it would be again)."""
    while True:
        seq = match.seq
        try:
            outcome = match_services.resign(match=match, user=user)
            if outcome == "resigned" and match.seq == seq:
                return
            if outcome in ("left", "declined") and not match.seats.filter(
                    Q(user=user) | Q(invited=user)).exists():
                return
        except match_services.ServiceError as exc:
            if exc.code in ("not_seated", "not_found", "match_over", "seat_out"):
                # nothing left held, the match gone with its last seat, over, or going on
                # with every seat held out of it
                return
            raise


def token_for(user: Any) -> Token:
    """The account's API token (made if it has none) for `user` as signed in; refused
    when its password changed since it was checked: the change revoked the account's
    token, and one handed out on the old password after that would outlive it."""
    with transaction.atomic():
        if _lock_account(user) != user.password:
            raise AccountError("bad_credentials", PASSWORD_CHANGED)
        token, _ = Token.objects.get_or_create(user=user)
    return token


PASSWORD_CHANGED = "The password was changed meanwhile: sign in with the new one."


def _lock_account(user: Any) -> str | None:
    """Lock the account's row until the transaction ends; its stored password hash."""
    return get_user_model().objects.select_for_update().filter(pk=user.pk).values_list(
        "password", flat=True).first()


def revoke_token(user: Any) -> None:
    """Sign the account's API token out, wherever it is held; signing in to the API
    again makes a new one."""
    Token.objects.filter(user=user).delete()


def _display_name(text: str, user: Any = None) -> str:
    """A display name as given, without spaces at its ends: 1-64 characters, none of them
    invisible or a control (a right-to-left override would show another name) but the
    joiners that scripts and emoji need, and not another account's username, ignoring case
    (`user`: the account it is for, if it exists)."""
    name = (text or "").strip()
    if not name or len(name) > DISPLAY_NAME_LENGTH \
            or not name.translate(JOINERS).isprintable():
        raise AccountError("bad_display_name",
                           f"A display name is 1-{DISPLAY_NAME_LENGTH} visible characters.")
    others = get_user_model().objects.filter(username__iexact=name)
    if others.exclude(pk=getattr(user, "pk", None)).exists():
        raise AccountError("bad_display_name", "That is another player's username: choose "
                                               "a name nobody would take for them.")
    if name.casefold() == CLOSED_NAME.casefold():
        raise AccountError("bad_display_name", "That is what a closed account is shown as: "
                                               "choose a name of your own.")
    if reads_as_seat(name):
        raise AccountError("bad_display_name", "That is how a seat no player holds is shown "
                                               "(a bot's, an invitation's, an open one's): "
                                               "choose a name of your own.")
    return name


def _email(text: str) -> str:
    """An email address as given, without spaces at its ends, its domain normalized
    (`normalized_email`); empty stays empty."""
    email = (text or "").strip()
    if not email:
        return ""
    try:
        validate_email(email)
    except ValidationError:
        raise AccountError("bad_email", "That is not an email address.") from None
    return normalized_email(email)


def normalized_email(email: str) -> str:
    """`email` with its domain in ASCII (IDNA, as Django mails it) and lower case, the
    part before the @ as given: x@Bücher.example and x@xn--bcher-kva.example are one
    address, stored and compared (reset links, their counts) as the latter. An address
    whose domain IDNA refuses is kept as given, lower-cased."""
    local, at, domain = email.rpartition("@")
    if not at:
        return email
    with contextlib.suppress(UnicodeError):
        domain = punycode(domain)
    return f"{local}@{domain.lower()}"


def _check_password(password: str, user: Any) -> None:
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise AccountError("weak_password", " ".join(exc.messages)) from None


def player_for(user) -> Player:  # type: ignore[no-untyped-def]
    """The user's Player, created on first use (for accounts made in the admin)."""
    player, _ = Player.objects.get_or_create(user=user, defaults={"display_name": user.username})
    return player
