"""The htmx pages: sign-up, lobby, play, replay.

Views are thin: guard clauses, then one call into `matches.services` (or
`league.services` for sign-up). Partials are their own templates, served by the same
small views when the request comes from htmx.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from rest_framework.authtoken.models import Token

from config.fingerprint import fingerprint
from engine import registry
from engine.protocol import quoted
from league import history
from league.account_data import account_data
from league.events import turn_deadline, turn_deadlines
from league.models import Entrant, Event
from league.services import (
    CLOSED_NAME,
    AccountError,
    change_password,
    close_account,
    confirm_email,
    dropped_zone,
    email_link,
    link_hours,
    player_for,
    register_player,
    rename_player,
    revoke_token,
    send_password_reset,
    sends_mail,
    set_email,
    set_mails,
    set_password,
    set_time_zone,
    shown_name,
    zone_of,
)
from matches import services
from matches.forms import (
    ActionForm,
    CloseAccountForm,
    CreateMatchForm,
    DisplayNameForm,
    EmailForm,
    ForgotPasswordForm,
    NewPasswordForm,
    PasswordChangeForm,
    RegisterForm,
    TimeZoneForm,
    TurnMailForm,
)
from matches.models import (
    KEY_LENGTH,
    PEOPLE,
    SEAT_PEOPLE,
    Match,
    MatchEvent,
    Seat,
    named_as_shown,
)
from matches.narration import as_you, narrated_name
from matches.services import ServiceError

# The play page's log shows the latest events; the replay has them all. A ten-seat match
# runs to thousands, and the page is sent again at every change (on a phone, too).
PAGE_LOG = 80
# The act view's own refusal, shown like the service's (reason, then code).
NOT_SEATED = ServiceError("not_your_seat", "You have no seat in this match.", 403)
QUICK_GAME = "super_showdown"
LOBBY_FINISHED = 20
# The lobby's one-click buttons, in order; the posted `game` field picks one.
QUICK_GAMES = ("super_showdown", "superstar_showdown")
QUICK_BOTS = ("heuristic", "random")
FINISHED = "finished"
# How a game's narration names a seat that its page names by the seat's player: Royal
# Rumble's rules say "Seat 2", its page says who sits there, as the seats line does.
SEAT_IN_NARRATION = {"royal_rumble": re.compile(r"\bSeat (\d+)\b")}


# -- accounts --------------------------------------------------------------------------

def register(request: HttpRequest) -> HttpResponse:
    """Create an account, log in, go to the lobby; says so when sign-up is closed."""
    if not settings.SIGNUP_OPEN:
        status = 403 if request.method == "POST" else 200
        return render(request, "registration/register.html", {"closed": True}, status=status)
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = register_player(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data.get("email", ""),
                request=request,
            )
        except AccountError as exc:
            form.add_error(form.refusals.get(exc.code), exc.detail)
        else:
            login(request, player.user, backend=settings.AUTHENTICATION_BACKENDS[0])
            if player.pending_email:
                messages.info(request, EMAIL_SAID["signed_up"])
            return redirect("lobby")
    status = 400 if form.errors else 200
    return render(request, "registration/register.html",
                  {"form": form, "mails": sends_mail()}, status=status)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The player's display name, email address (on a site that sends no mail, one kept
    from before is only removed), a new password, and their API token revoked."""
    player = player_for(request.user)
    name_form = DisplayNameForm(initial={"display_name": player.display_name})
    email_form = EmailForm(initial={"email": request.user.email})
    turn_form = TurnMailForm(initial={"turn_mail": player.turn_mail,
                                      "event_mail": player.event_mail})
    zone_form = TimeZoneForm(initial={"time_zone": zone_of(player).key})
    password_form = PasswordChangeForm()
    close_form = CloseAccountForm()
    which = request.POST.get("form") if request.method == "POST" else None
    if which == "name":
        name_form = DisplayNameForm(request.POST)
        if _changed(name_form, lambda data: rename_player(player, data["display_name"])):
            return _account_done(request, "Your display name is changed.")
    elif which == "email":
        email_form = EmailForm(request.POST)
        outcome: list[str] = []
        if _changed(email_form, lambda data: outcome.append(set_email(
                request.user, data["email"], password=data["password"], request=request))):
            return _account_done(request, EMAIL_SAID[outcome[0]])
    elif which == "turn_mail":
        turn_form = TurnMailForm(request.POST)
        if _changed(turn_form, lambda data: set_mails(player, turn_mail=data["turn_mail"],
                                                      event_mail=data["event_mail"])):
            return _account_done(request, MAILS_SAID[player.turn_mail, player.event_mail])
    elif which == "time_zone":
        zone_form = TimeZoneForm(request.POST)
        if _changed(zone_form, lambda data: set_time_zone(player, data["time_zone"])):
            return _account_done(request, "Your time zone is "
                                          f"{zone_of(player).key.replace('_', ' ')}.")
    elif which == "password":
        password_form = PasswordChangeForm(request.POST)
        if _changed(password_form, lambda data: change_password(
                request.user, old_password=data["old_password"],
                new_password=data["new_password"], request=request)):
            update_session_auth_hash(request, request.user)
            return _account_done(request, "Your password is changed. Your other sessions "
                                          "and your API token are signed out.")
    elif which == "token":
        revoke_token(request.user)
        return _account_done(request, "Your API token is revoked.")
    elif which == "close":
        close_form = CloseAccountForm(request.POST)
        if _changed(close_form, lambda data: close_account(
                request.user, password=data["password"], request=request)):
            logout(request)
            messages.success(request, "Your account is closed. Thank you for playing.")
            return redirect("login")
    context = {"player": player, "name_form": name_form, "email_form": email_form,
               "turn_form": turn_form, "turn_mail": settings.TURN_MAIL, "mails": sends_mail(),
               "zone_form": zone_form,
               "password_form": password_form, "close_form": close_form,
               "closed_name": CLOSED_NAME, "zone_dropped": dropped_zone(player),
               # the day the token was made in the player's own zone, as their mails say
               "zone": zone_of(player), "token": Token.objects.filter(user=request.user).first()}
    shown = (name_form, email_form, turn_form, zone_form, password_form, close_form)
    status = next((getattr(form, "refused_status", 400) for form in shown if form.errors),
                  200)
    return render(request, "registration/account.html", context, status=status)


@login_required
@require_safe
def account_data_file(request: HttpRequest) -> HttpResponse:
    """What the site keeps about the player, as a JSON file to save
    (league.account_data)."""
    response = JsonResponse(account_data(request.user), encoder=DjangoJSONEncoder,
                            json_dumps_params={"indent": 2, "ensure_ascii": False})
    # A username the admin made may hold any letter: such a name goes as RFC 6266's
    # filename*, where the header encoded whole read as neither a file nor a name.
    response["Content-Disposition"] = content_disposition_header(
        True, f"showdown-league-{request.user.get_username()}.json")
    response["Cache-Control"] = "private, no-store"
    return response


MAILS_SAID = {
    (True, True): "You will be mailed when a match waits for you, and before your Events.",
    (True, False): "You will be mailed when a match waits for you.",
    (False, True): "You will be mailed before your Events start.",
    (False, False): "No more mails about your turns or your Events.",
}


EMAIL_SAID = {
    "kept": "Your email address is kept.",
    "removed": "Your email address is removed.",
    "pending": "We mailed a link to the new address: open it to use that address. Until "
               "then mails go where they went.",
    # A new account has had no address for mails to go to before.
    "signed_up": "We mailed a link to your address: open it to have your mails (a password "
                 "reset link, turn mails) sent there.",
}


@require_http_methods(["GET", "HEAD", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to a new address: its page names the address and the account and
    confirms it at a press (POST), and the account uses it from then on. Opening the link
    changes nothing: a mail service that opens the links of every mail it carries, to look
    into them, would otherwise confirm an address typed by mistake for its owner, whose
    mail service then received the account's reset links."""
    context: dict[str, Any]
    try:
        if request.method == "POST":
            context = {"confirmed": confirm_email(token)}
        else:
            player = email_link(token)
            context = {"asked": player.user, "email": player.pending_email}
    except AccountError as exc:
        context = {"refusal": exc.detail}
    return render(request, "registration/email_confirmed.html", context,
                  status=400 if "refusal" in context else 200)


def forgot_password(request: HttpRequest) -> HttpResponse:
    """Ask for a password reset link by mail; the answer is the same whether an account
    has the address. A site that sends no mail says whom to ask instead."""
    form = ForgotPasswordForm(request.POST or None)
    context: dict[str, Any] = {"form": form, "by_mail": sends_mail(), "hours": link_hours()}
    status = 200
    if request.method == "POST" and context["by_mail"]:
        context["sent"] = _changed(form, lambda data: send_password_reset(data["email"],
                                                                            request))
        status = 200 if context["sent"] else getattr(form, "refused_status", 400)
    return render(request, "registration/forgot_password.html", context, status=status)


class ResetPassword(auth_views.PasswordResetConfirmView):
    """A new password on a reset link (mailed, or handed over by staff from the admin):
    Django checks the link and keeps it out of the address bar; the password is set
    through league.services, as on the account page, and the owner is signed in."""

    form_class = NewPasswordForm
    template_name = "registration/reset_password.html"
    post_reset_login = True
    post_reset_login_backend = settings.AUTHENTICATION_BACKENDS[0]
    success_url = reverse_lazy("lobby")

    def get_user(self, uidb64: str) -> Any:
        """The link's account, while it is active (a deactivated one signs in no more)."""
        user = super().get_user(uidb64)
        return user if user is not None and user.is_active else None

    def form_valid(self, form: Any) -> HttpResponse:
        if not _changed(form, lambda data: set_password(self.user, data["new_password"],
                                                        self.request)):
            return self.form_invalid(form)
        messages.success(self.request, "Your password is changed, and you are signed in. "
                                       "Your other sessions and your API token are signed out.")
        return super().form_valid(form)


def _changed(form: Any, change: Callable[[dict[str, Any]], Any]) -> bool:
    """Whether the form is valid and `change` of its data went through; a refusal is put
    on the form, at the field it names (`form.refusals`), and its status is kept as
    `form.refused_status`."""
    if not form.is_valid():
        return False
    try:
        change(form.cleaned_data)
    except AccountError as exc:
        form.add_error(form.refusals.get(exc.code), exc.detail)
        form.refused_status = exc.status
        return False
    return True


def _account_done(request: HttpRequest, said: str) -> HttpResponse:
    """Back to the account page at its top, where `said` shows: each form is sent to its
    own card's anchor, which a redirect naming none would keep."""
    messages.success(request, said)
    return redirect(f"{reverse('account')}#content")


# -- lobby -----------------------------------------------------------------------------

@login_required
@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """Quick play, the create form, my matches and the open ones to join."""
    return _render_lobby(request, _create_form())


@login_required
@require_POST
def quick_play(request: HttpRequest) -> HttpResponse:
    """One click: the posted `game` (default Super Showdown) against its best bot, me in seat 0."""
    game = request.POST.get("game") or QUICK_GAME
    if game not in _quick_games():
        messages.error(request, f"There is no one-click match of {quoted(game)}.")
        return redirect("lobby")
    try:
        match = services.create_match(
            game=game,
            options={},
            seats=[{"player": request.user.get_username()}, {"bot": _quick_bot(game)}],
            created_by=request.user, key=_form_key(request),
        )
    except ServiceError as exc:
        messages.error(request, services.shown(exc))
        return redirect("lobby")
    return redirect("match_play", match_id=match.id)


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    """Create a match from the lobby form."""
    form = _create_form(request.POST, me=request.user.get_username())
    if not form.is_valid():
        return _render_lobby(request, form, status=400)
    try:
        match = services.create_match(
            game=form.cleaned_data["game"],
            options=form.cleaned_data["options"],
            seats=form.seat_specs(request.user.get_username()),
            created_by=request.user, key=_form_key(request),
        )
    except ServiceError as exc:
        form.add_error(form.refused_field(exc.code), services.shown(exc))
        return _render_lobby(request, form, status=exc.status)
    # At the match page's top: a redirect naming no anchor keeps the form's (#new-match).
    return redirect(f"{reverse('match_play', args=[match.id])}#content")


@login_required
@require_POST
def join(request: HttpRequest, match_id: int) -> HttpResponse:
    """Take an open seat. A second press (a double click, a page sent again) finds the
    player seated by the first: done, not refused."""
    match = get_object_or_404(Match, pk=match_id)
    try:
        services.join_match(match=match, user=request.user)
    except ServiceError as exc:
        if services.seat_of(match, request.user) is None:
            messages.error(request, services.shown(exc))
    return redirect("match_play", match_id=match.id)


# -- play ------------------------------------------------------------------------------

@login_required
@require_safe
def play(request: HttpRequest, match_id: int) -> HttpResponse:
    """The seat's view (or a spectator's), its legal actions and the log; an Event's
    match names its pairing and links to its Event."""
    match = get_object_or_404(Match.objects.select_related("event_match__event"),
                              pk=match_id)
    return _render_state(request, match, "matches/play.html")


@login_required
@require_safe
def state(request: HttpRequest, match_id: int) -> HttpResponse:
    """The polled partial; 204 (htmx swaps nothing) while the stream has not moved. An open
    match its last player left is gone: the page says so and stops polling."""
    match = Match.objects.select_related("event_match").filter(pk=match_id).first()
    if match is None:
        return render(request, "matches/_gone.html", {"match_id": match_id})
    seats = _seat_rows(match)
    if _unchanged(request, match, seats) and services.plays_on(match):
        return HttpResponse(status=204)
    return _render_state(request, match, "matches/_state.html", seats=seats,
                         since=_shown_seq(request.GET.get("seq"), match.seq))


@login_required
@require_POST
def act(request: HttpRequest, match_id: int) -> HttpResponse:
    """Post one legal action; answers with the refreshed state (or the refusal)."""
    match = get_object_or_404(Match, pk=match_id)
    form = ActionForm(request.POST)
    error, status, since, code = None, 200, None, ""
    if not form.is_valid():
        # What was wrong, in words (a spot left without its card), else that it was unread.
        refusal = form.refusal()
        error, status, code = services.shown(refusal), refusal.status, refusal.code
    else:
        try:
            # The seat the form was rendered for (one person may hold several), else theirs.
            seat = services.viewer_seat(match, request.user, form.cleaned_data["seat"])
            if seat is None:
                raise NOT_SEATED
            since = services.submit_action(
                match=match, seat=seat, action=form.cleaned_data["action"],
                user=request.user, key=form.cleaned_data["key"] or None,
                seat_moves=form.cleaned_data["moves"],
            ) - 1  # the player's own move is told too, then whatever followed it
        except ServiceError as exc:
            error, status, code = services.shown(exc), exc.status, exc.code
    # A refused move composed on the page (a card for each spot) comes back chosen as it
    # was, a spot left unchosen too, for the player to mend rather than choose all over;
    # the refusal's code tells the game's form which parts of it were at fault.
    refused = form.sent if error is not None else None
    if not request.htmx:
        if error is None:
            return redirect("match_play", match_id=match.id)
        return _render_state(request, match, "matches/play.html", error, status,
                             refused=refused, refused_code=code)
    # htmx swaps only 2xx answers, so a refusal comes back as 200 with its message.
    match = Match.objects.select_related("event_match").get(pk=match.pk)
    return _render_state(request, match, "matches/_state.html", error, since=since,
                         refused=refused, refused_code=code)


@login_required
@require_safe
def rematch_offer(request: HttpRequest, match_id: int) -> HttpResponse:
    """A finished match's rematch slot, polled while its player waits for a rival's offer
    (`awaits_offer`): 204 (htmx swaps nothing) until one comes, then the slot with it,
    which asks no more, in the live region that reads it out."""
    match = get_object_or_404(Match.objects.select_related("event_match"), pk=match_id)
    context = _rematch_context(match, _seat_rows(match), request.user)
    if context["awaits_offer"]:
        return HttpResponse(status=204)
    if not context["can_rematch"]:
        return HttpResponse("")  # (a watcher's page has no slot)
    return render(request, "matches/_rematch_slot.html", {"match": match, **context})


@login_required
@require_POST
def rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    """Play a finished match again: make the rematch, or take the seat held in it."""
    match = get_object_or_404(Match, pk=match_id)
    try:
        made, _ = services.rematch(match=match, user=request.user)
    except ServiceError as exc:
        messages.error(request, services.shown(exc))
        return redirect("match_play", match_id=match.id)
    return redirect("match_play", match_id=made.id)


@login_required
@require_POST
def resign(request: HttpRequest, match_id: int) -> HttpResponse:
    """Leave an open match, or resign a live one (the other sides share first place; where
    the game eliminates players, the player is out and the rest play on).

    The page's button asks in the browser first and then posts `confirmed`; a post without
    it (no JavaScript) gets a page that asks, since a resignation cannot be taken back. The
    button also posts the `status` it was shown for: Leave this match never resigns a
    match that started meanwhile; and the `seat` the page plays, which is the one resigned
    (one person may hold several: a post naming none resigns their first still in it).
    Pressed twice (a double click), the second press finds the player out of the match, or
    the match gone, and goes to the lobby as the first did; or finds the seat it resigned
    out, or the match its side resigned over, and shows it as the first did."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:  # (its last player left it: a second press of Leave comes here)
        messages.info(request, f"There is no match #{match_id}.")
        return redirect("lobby")
    held = services.held_seats(match, request.user)
    try:
        posted = _posted_seat(request)
    except ServiceError as exc:
        messages.error(request, services.shown(exc))
        return redirect("match_play", match_id=match.id)
    seat = posted if posted is not None else services.resigning_seat(match, request.user, held)
    if seat in held and match.status == Match.Status.ACTIVE \
            and seat in services.seats_out(match, [seat]):
        # Out already by this resignation (a double tap's second press): shown as once.
        return redirect("match_play", match_id=match.id)
    if (match.status == Match.Status.ACTIVE and request.POST.get("confirmed") != "yes"
            and seat in held):
        return render(request, "matches/resign_confirm.html", {
            "match": match, "game_title": registry.title(match.game), "seat": seat,
            # which seat, said where one person holds several
            "seat_name": services.seat_name(match, seat) if len(held) > 1 else None,
            "outcome": services.forfeit_outcome(match, seat)})
    try:
        outcome = services.resign(match=match, user=request.user, seat=posted,
                                  leaving=request.POST.get("status") == Match.Status.OPEN)
    except ServiceError as exc:
        if exc.code in ("not_seated", "not_your_seat") and match.status == Match.Status.OPEN:
            # No seat here, nor one left or declined (those answer as they did): nothing to
            # undo, and the lobby is where the page's player goes.
            messages.info(request, f"You hold no seat in match #{match_id}.")
            return redirect("lobby")
        if exc.code == "seat_out" or (exc.code == "match_over"
                                      and _forfeited_by(match, request.user)):
            # Resigned already (a double tap's second press): the page shows it, as once.
            return redirect("match_play", match_id=match.id)
        messages.error(request, services.shown(exc))
        return redirect("match_play", match_id=match.id)
    if outcome in ("left", "declined"):
        messages.info(request, f"You {outcome} match #{match_id}.")
        return redirect("lobby")
    return redirect("match_play", match_id=match.id)


def _posted_seat(request: HttpRequest) -> int | None:
    """The `seat` a form posts (the one its page plays), None if it names none."""
    posted = request.POST.get("seat", "")
    if not posted:
        return None
    if not posted.isdigit():
        raise ServiceError("bad_seat", f"There is no seat {quoted(posted)} in this match.",
                           400)
    return int(posted)


def _forfeited_by(match: Match, user: Any) -> bool:
    """Whether the match ended by the forfeit of a side the user sits on, or a forfeit put
    one of their seats out of it (the last forfeit of a Royal Rumble or an Elimination
    match ends it too, the one left winning)."""
    result = Match.objects.values_list("result", flat=True).get(pk=match.pk) or {}
    forfeits = set(result.get("forfeits", [])) | set(result.get("forfeited", [])) | (
        {result["forfeit"]} if "forfeit" in result else set())
    return any(forfeits & set(services.side_of(match, seat.index))
               for seat in match.seats.filter(user=user))


@login_required
@require_safe
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step through the stream: the view at `at` and the narration of event `at`."""
    match = get_object_or_404(Match, pk=match_id)
    at = _clamped_at(request.GET.get("at"), match.seq)
    seats = _seat_rows(match)
    try:
        frame = services.replay_view(match=match, user=request.user, at=at, seats=seats)
    except ServiceError as exc:
        if exc.code != "rules_changed":  # (the match's page says why there is no replay)
            messages.error(request, services.shown(exc))
        return redirect("match_play", match_id=match.id)
    # The reader's own seat (the one whose eyes the replay shows) is "you", as on the
    # play page; a spectator reads the seat names.
    you, team = narrated_name(match, services.seat_of(match, request.user, seats),
                              frame["view"])
    context = {
        "match": match,
        "game_title": registry.title(match.game),
        "seats": seats,
        "frame": {**frame, "narration": _told(match.game,
                                              as_you(frame["narration"], you, team), seats)},
        "at": at,
        "last": match.seq,
        "prev": max(at - 1, 0),
        "next": min(at + 1, match.seq),
        "at_start": at == 0,
        "at_end": at == match.seq,
        "view": frame["view"],
        # The last step of a match that ended off the board: no decision is pending there.
        "halted": at == match.seq and match.status == FINISHED
        and frame["pending"]["kind"] != "end",
        "view_templates": _game_templates(match.game, "_view.html", "matches/_view_generic.html"),
    }
    partial = request.htmx and not request.htmx.history_restore_request
    template = "matches/_replay.html" if partial else "matches/replay.html"
    return render(request, template, {**context, "partial": partial})


# -- helpers ---------------------------------------------------------------------------

def _form_key(request: HttpRequest) -> str | None:
    """The key the lobby rendered into the create form that was posted: the same form sent
    twice (a double click, a resent request) makes one match, and both answers lead to
    it. A form posted without one (or with one no page renders) makes a match each time.
    A key whose match is over was sent from a lobby page kept from before it (the
    browser's Back): it stands for a new match, under a key made from it and that match,
    so that page sent twice still makes one."""
    key = request.POST.get("key", "")
    if not (0 < len(key) <= KEY_LENGTH // 2 and key.isascii() and key.isalnum()):
        return None
    while len(key) <= KEY_LENGTH - 24:
        over = (Match.objects.filter(created_by=request.user, idempotency_key=key,
                                     status=Match.Status.FINISHED)
                .values_list("pk", flat=True).first())
        if over is None:
            return key
        key = f"{key}r{over}"
    return None


def _quick_bot(game: str = QUICK_GAME) -> str:
    """The heuristic bot when the game has one, else the random bot."""
    names = registry.bot_names(game)
    return next((name for name in QUICK_BOTS if name in names), names[0])


def _quick_games() -> list[str]:
    """The one-click games that are registered, in button order."""
    registered = registry.games()
    return [game for game in QUICK_GAMES if game in registered]


def _create_form(data: Any = None, me: str = "") -> CreateMatchForm:
    games = registry.games()
    bots = sorted({name for key in games for name in registry.bot_names(key)})
    choices = [(key, rules.spec.title) for key, rules in sorted(games.items())]
    form = CreateMatchForm(data, games=choices, bots=bots, me=me, initial={"game": QUICK_GAME})
    # Each game's seat range, for league.js to keep the seat count inside it as the game
    # changes: a game of three seats or more was refused at the count of two left there.
    form.fields["game"].widget.attrs["data-seats"] = json.dumps(
        {key: [rules.spec.min_seats, rules.spec.max_seats] for key, rules in games.items()})
    return form


def _game_options() -> list[dict[str, Any]]:
    """Each game's seats and options with their defaults and allowed values, for the lobby;
    a default as the JSON the options field takes (`null`, `["ox_valdane", …]`)."""
    return [{"key": key, "title": rules.spec.title, "seats": (rules.spec.min_seats,
                                                              rules.spec.max_seats),
             "options": [{"name": name, "default": json.dumps(opt.default),
                          "choices": opt.choices, "help": opt.help}
                         for name, opt in rules.spec.options.items()]}
            for key, rules in sorted(registry.games().items())]


def _render_lobby(request: HttpRequest, form: CreateMatchForm, status: int = 200) -> HttpResponse:
    user = request.user
    live = _lobby_live(user)
    finished = list(_matches_of(user).filter(status=FINISHED)
                    .select_related("event_match")[:LOBBY_FINISHED])
    named_as_shown((match, list(match.seats.all())) for match in finished)
    finishes = history.Finishes(finished)
    # How the player finished each: the lobby's match history says it as their page does.
    outcomes = {match.pk: history.said(match, finishes.of(match, history.seat_of(
        match, user.pk) or 0)) for match in finished}
    # Open to anyone: a seat with nobody in it, no bot and held for nobody.
    joinable = (_waiting_for_others(user).exclude(seats__invited=user)
                .filter(seats__user__isnull=True, seats__bot="", seats__invited__isnull=True)
                .distinct())
    quick = [{"game": game, "title": registry.title(game), "bot": _quick_bot(game),
              "key": uuid.uuid4().hex} for game in _quick_games()]
    # The people met lately, offered as the names to invite (a phone's keyboard types less).
    met = sorted({seat.user.get_username() for match in live["current"] + finished
                  for seat in match.seats.all()
                  if seat.user_id is not None and seat.user_id != user.pk
                  and seat.user.is_active}, key=str.casefold)
    form.fields["username"].widget.attrs["list"] = "people-met"
    context = {
        **live,
        "form": form,
        "game_options": _game_options(),
        "quick_games": quick,
        "quick_bots": " or ".join(sorted({entry["bot"] for entry in quick})),
        "finished": finished,
        "outcomes": outcomes,
        # (a lineup that seated someone else twice is played again at their asking)
        "rematchable": {m.pk for m in finished
                        if services.may_make_rematch(m, m.seats.all(), user)},
        "joinable": joinable[:20],
        "open_events": _open_events(user),
        "people_met": met,
        "create_key": uuid.uuid4().hex,
    }
    return render(request, "matches/lobby.html", context, status=status)


@login_required
@require_safe
def lobby_live(request: HttpRequest) -> HttpResponse:
    """The lobby's polled part, the player's live matches and invitations; 204 while the
    reader's copy (`v`) is current."""
    live = _lobby_live(request.user)
    if request.GET.get("v") == live["version"]:
        return HttpResponse(status=204)
    # What the reader's copy already told them waits for them (`told`), so that a screen
    # reader hears what came since, not the whole list at every move in any match.
    told = set(request.GET.get("told", "").split(".")[:200])
    news = {"your_move_news": [m for m in live["current"]
                               if m.pk in live["your_move"] and f"m{m.pk}" not in told],
            "invitation_news": [m for m in live["invitations"] if f"i{m.pk}" not in told]}
    return render(request, "matches/_lobby_live.html", {**live, **news})


def _lobby_live(user: Any) -> dict[str, Any]:
    """What the lobby follows as it changes: the player's live matches (those waiting for
    their move first), their invitations, and a version of both."""
    # Every live match of the player's: a long-time player's whole history is the player
    # page's. (Whose move it is is read from the seats fetched with them.)
    live = list(_matches_of(user).exclude(status=FINISHED))
    named_as_shown((match, list(match.seats.all())) for match in live)
    your_move = {match.pk for match in live if match.status == Match.Status.ACTIVE
                 and any(seat.user_id == user.pk and seat.awaited for seat in match.seats.all())}
    invitations = list(_waiting_for_others(user).filter(seats__invited=user).distinct()[:20])
    forfeited = _forfeited_all(user, [m for m in live if m.status == Match.Status.ACTIVE])
    return {
        # their move first, the matches they forfeited out of (the others play on) last
        "current": sorted(live, key=lambda m: (m.pk in forfeited, m.pk not in your_move)),
        "your_move": your_move,
        "forfeited": forfeited,
        # (one gone by, the sweep not yet applying it, is said to have passed)
        "deadlines": {pk: {**deadline, "passed": deadline["at"] <= timezone.now()}
                      for pk, deadline in turn_deadlines(
                          m for m in live if m.pk in your_move).items()},
        "invitations": invitations,
        # (as the poll URL carries it: m12 waits for the player's move, i13 invites them)
        "told": ".".join([f"m{pk}" for pk in sorted(your_move)]
                         + [f"i{m.pk}" for m in invitations]),
        "titles": {key: rules.spec.title for key, rules in registry.games().items()},
        "version": fingerprint(
            [(m.pk, m.status, m.seq, _seats_key(m.seats.all())) for m in live],
            [(m.pk, m.created_by and shown_name(m.created_by), _seats_key(m.seats.all()))
             for m in invitations]),
    }


def _forfeited_all(user: Any, live: list[Match]) -> set[int]:
    """The live matches (`live`, their seats fetched) whose every seat the user holds a
    forfeit put out while the others play on (a Royal Rumble of three or more): nothing
    there waits for them any more."""
    held = {m.pk: {seat.index for seat in m.seats.all() if seat.user_id == user.pk}
            for m in live}
    out: dict[int, set[int]] = {}
    for match_id, seat in MatchEvent.objects.filter(
            match_id__in=held, kind=MatchEvent.Kind.FORFEIT).values_list("match_id", "seat"):
        out.setdefault(match_id, set()).add(seat)
    return {pk for pk, seats in held.items() if seats and seats <= out.get(pk, set())}


def _matches_of(user: Any) -> QuerySet[Match]:
    return (Match.objects.filter(seats__user=user).distinct()
            .select_related("event_match__event").prefetch_related(*SEAT_PEOPLE)
            .order_by("-created_at", "-id"))


def _waiting_for_others(user: Any) -> QuerySet[Match]:
    """The open matches the user holds no seat in."""
    return (Match.objects.filter(status="open").exclude(seats__user=user)
            .select_related("created_by").prefetch_related(*SEAT_PEOPLE)
            .order_by("-created_at"))


def _open_events(user: Any) -> list[Event]:
    """The Events taking entries from players themselves, the soonest to start first (then
    those that say no time, newest first), each marked `entered` when the player holds an
    entry there, alone or in a team."""
    mine = Entrant.objects.filter(Q(player__user=user) | Q(team__members__user=user),
                                  event=OuterRef("pk"), withdrawn=False)
    return list(Event.objects.filter(status=Event.Status.DRAFT, open_entry=True)
                .annotate(entered=Exists(mine))
                .order_by(F("starts_at").asc(nulls_last=True), "-created_at", "-id")[:20])


def _render_state(request: HttpRequest, match: Match, template: str, error: str | None = None,
                  status: int = 200, seats: list[Seat] | None = None,
                  since: int | None = None,
                  refused: dict[str, Any] | None = None,
                  refused_code: str = "") -> HttpResponse:
    """The play page or its partial; a match recorded under rules its game no longer plays
    shows its seats, its result (or a resign button) and why it cannot be shown. The
    match's `seats` are read here unless the caller has read them already; the events
    after seq `since` (the newest alone without it) are announced to screen readers; the
    action the `error` refused is `refused` and the refusal's code `refused_code`, for the
    game's forms to show it again and mark what was at fault."""
    seats = _seat_rows(match) if seats is None else seats
    try:
        context = {**_state_context(match, request.user, seats, error, since),
                   "refused": refused, "refused_code": refused_code}
    except ServiceError as exc:
        if exc.code != "rules_changed":
            raise
        seat = services.seat_of(match, request.user, seats)
        # How it ended, its seats named as the page names them (as a playable one's).
        summary = (match.result or {}).get("summary")
        context = {**_table_context(match, seat, seats), "state": {"seat": seat},
                   "unplayable": services.shown(exc),
                   "summary": _told(match.game, [summary], seats)[0] if summary else None}
    return render(request, template, context, status=status)


def _told(game: str, lines: list[str], seats: list[Seat]) -> list[str]:
    """Narration `lines` of a match of `game` with each seat named as its page names it
    (SEAT_IN_NARRATION): by its player, whom the seats line shows every viewer."""
    pattern = SEAT_IN_NARRATION.get(game)
    if pattern is None:
        return lines
    labels = {seat.index + 1: seat.label for seat in seats}
    return [pattern.sub(lambda found: labels.get(int(found[1]), found[0]), line)
            for line in lines]


def _seat_rows(match: Match) -> list[Seat]:
    """The match's seats in order, with the people they name, labelled as its pages name
    them (`named_as_shown`: a bot an Event seated by its entrant's name, seats that read
    the same told apart): the one read of them that a page of the match makes."""
    seats = list(match.seats.select_related(*PEOPLE).order_by("index"))
    named_as_shown([(match, seats)])
    return seats


def _table_context(match: Match, seat: int | None, seats: list[Seat]) -> dict[str, Any]:
    """What the play page shows of any match, playable or not: its `seats`, the Event
    pairing it plays (if an Event made it), whether it is over, and whether the viewer's
    `seat` may resign it."""
    return {
        "match": match,
        "game_title": registry.title(match.game),
        "event_match": match.event_match if services.is_event_match(match) else None,
        "seats": seats,
        "finished": match.status == FINISHED,
        # An Event's matches are the organizer's to end.
        "can_resign": seat is not None and match.status != FINISHED
        and not services.is_event_match(match),
    }


def _state_context(match: Match, user: Any, seats: list[Seat],
                   error: str | None = None, since: int | None = None) -> dict[str, Any]:
    """What the play page and its polled partial render, of the match's `seats`."""
    state = services.page_state(match=match, user=user, seats=seats,
                                seat=services.page_seat(match, user, seats))
    # The viewer's own seat is "you" in what the page tells (not in the API's narration).
    you, team = narrated_name(match, state["seat"], state["view"])
    if summary := (state["pending"].get("result") or {}).get("summary"):
        # How the match ended, its seats named as the page names them.
        (summary,) = _told(match.game, as_you([summary], you, team), seats)
        state["pending"] = {**state["pending"], "result": {**state["pending"]["result"],
                                                           "summary": summary}}
    earlier = max(0, match.seq - PAGE_LOG)
    table = _table_context(match, state["seat"], seats)
    events = [{**event, "narration": _told(match.game, as_you(event["narration"], you, team),
                                          seats)}
              for event in services.match_events(match=match, user=user, after=earlier,
                                                 seats=seats)]
    waiting = match.status == "open" and state["seat"] is None
    if state["resign"] == "already_out":  # (a forfeit put the seat out: nothing to resign)
        table["can_resign"] = False
    held = [row for row in seats if row.user_id is not None and row.user_id == user.pk]
    deadline = turn_deadline(match, state["pending"], seats)
    return {
        **table,
        "state": state,
        "view": state["view"],
        # The game's view tells whose decision it waits for: the page leaves that out of a
        # match that ended off the board (each game's _view.html reads `halted`).
        "halted": state["halted"],
        # which seat a Resign resigns, said where the viewer holds several
        "resign_seat_name": services.seat_name(match, state["seat"])
        if len(held) > 1 and state["seat"] is not None else None,
        "seats_key": _seats_key(seats),
        # whom the match waits for, as the status line says it
        "awaited": [seat.label for seat in seats
                    if seat.index in (state["pending"].get("seats") or ())],
        "actions": [_action_entry(action) for action in state["legal_actions"]],
        # The seat's decisions so far: a second tab's stale form is refused, not played.
        "moves": services.moves_of(match, state["seat"]) if state["legal_actions"] else None,
        "events": list(reversed(events)),
        # What a screen reader hears: every move since the page last showed the match (the
        # rivals' and the bots' between two of the player's), not the newest alone.
        "announced": events[-1:] if since is None else [e for e in events if e["seq"] > since],
        "earlier": earlier,
        "error": error,
        "deadline": deadline,
        # Gone by, the sweep not yet applying it: a move still counts until it does.
        "deadline_passed": deadline is not None and deadline["at"] <= timezone.now(),
        **_rematch_context(match, seats, user),
        **_awaited_people(match, seats, user),
        "can_join": waiting and any(seat.is_open_to(user) for seat in seats),
        "invited": waiting and any(seat.invited_id == user.pk for seat in seats),
        "view_templates": _game_templates(match.game, "_view.html", "matches/_view_generic.html"),
        "actions_templates": _game_templates(match.game, "_actions.html", "matches/_actions.html"),
    }


def _awaited_people(match: Match, seats: list[Seat], user: Any) -> dict[str, Any]:
    """Whom a match waiting for players waits for: the players its seats are held for
    (`invitees`, in words, the viewer as "you"; `invitees_count`), and whether a seat is
    open to anyone (`seats_open`). A seat held for one player is no seat anyone may take."""
    if match.status != Match.Status.OPEN:
        return {}
    held = [seat for seat in seats if seat.is_open and seat.invited_id is not None]
    names = ["you" if seat.invited_id == user.pk else shown_name(seat.invited)
             for seat in held]
    return {"invitees": _listed(names),
            "invitees_count": len(names),
            "seats_open": any(seat.is_open and seat.invited_id is None for seat in seats)}


def _listed(names: list[str]) -> str:
    """Names as a sentence lists them: "alice", "alice and bruno", "alice, bruno and olga"."""
    return " and ".join(filter(None, [", ".join(names[:-1]), *names[-1:]]))


# How long after a match ends its page looks for a rival's rematch offer (`rematch_offer`).
REMATCH_WAIT = timedelta(minutes=30)


def _rematch_context(match: Match, seats: list[Seat], user: Any) -> dict[str, Any]:
    """Whether the viewer may play the finished match again, and the rematch they already
    sit in or are invited to (`services.rematch`); `awaits_offer`: none yet, and the
    match ended within REMATCH_WAIT, so the page looks for a rival's offer."""
    played = (match.status == FINISHED and services.played_in(seats, user)
              and not services.is_event_match(match))
    again = services.rematch_of_theirs(match, user) if played else None
    can = again is not None or services.may_make_rematch(match, seats, user)
    return {"can_rematch": can, "rematch": again,
            "rematch_offered": again is not None and again.status == Match.Status.OPEN
            and not again.seats.filter(user=user).exists(),
            "awaits_offer": can and again is None
            and timezone.now() - match.updated_at < REMATCH_WAIT}


def _action_entry(action: dict[str, Any]) -> dict[str, Any]:
    """A legal action as a form renders it: verbatim JSON and a fresh idempotency key."""
    return {"action": action, "json": json.dumps(action, sort_keys=True), "key": uuid.uuid4().hex}


def _game_templates(game: str, name: str, fallback: str) -> list[str]:
    """The per-game partial first, the generic one if the game has none."""
    return [f"games/{game}/{name}", fallback]


def _unchanged(request: HttpRequest, match: Match, seats: list[Seat]) -> bool:
    """Whether the poller already shows the match's current seq, status and `seats` (a
    join that leaves seats open, a seat handed to a bot, change neither seq nor status)."""
    return (request.GET.get("seq") == str(match.seq)
            and request.GET.get("status") == match.status
            and request.GET.get("seats") == _seats_key(seats))


def _shown_seq(raw: str | None, last: int) -> int | None:
    """The seq a polling page shows (its `?seq=`), None when unreadable or beyond `last`."""
    try:
        seq = int(raw) if raw is not None else None
    except ValueError:
        return None
    return seq if seq is not None and 0 <= seq <= last else None


def _seats_key(seats: Iterable[Seat]) -> str:
    """Who holds each seat and the name it shows (`Seat.label`: an account closed since
    reads "Closed account", though it holds the seat as before), in a few characters for
    the poll URL."""
    return fingerprint(*[(seat.user_id, seat.bot, seat.invited_id, seat.label)
                         for seat in seats], length=10)


def _clamped_at(raw: str | None, last: int) -> int:
    """`?at=N` within 0..last; missing or unreadable means the last event."""
    try:
        at = int(raw) if raw is not None else last
    except ValueError:
        at = last
    return min(max(at, 0), last)
