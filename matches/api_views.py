"""The REST API: thin views, each a guard or two and one call into the services.

Every error body is `{code, detail}`: service refusals carry their own code and status,
DRF's errors get theirs from config.api_errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth import authenticate
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.authentication import TokenAuthentication
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from config import signin
from config.api_json import JSONParser
from config.api_metadata import RequestBodies
from engine import registry
from engine.protocol import quoted
from league.account_data import account_data, account_fields
from league.events import turn_deadline
from league.serializers import AccountDataSerializer
from league.services import (
    RESET_WINDOW,
    RESETS_FROM_CLIENT,
    RESETS_PER_ADDRESS,
    RESETS_TO_ADDRESS,
    SIGNUP_FIELDS,
    AccountError,
    change_password,
    close_account,
    player_for,
    register_player,
    rename_player,
    revoke_token,
    send_password_reset,
    sends_mail,
    set_email,
    set_event_mail,
    set_time_zone,
    set_turn_mail,
    signup_refusals,
    token_for,
)
from matches import services
from matches.models import SEAT_PEOPLE, Match
from matches.serializers import (
    KEY_LENGTH,
    AccountSerializer,
    ActionSerializer,
    AppendedSerializer,
    CloseAccountSerializer,
    CredentialsSerializer,
    DetailSerializer,
    ErrorSerializer,
    EventSerializer,
    EventsQuerySerializer,
    GameSerializer,
    MatchCreateSerializer,
    MatchListQuerySerializer,
    MatchSerializer,
    PasswordChangeSerializer,
    PasswordResetSerializer,
    QuerySerializer,
    RegisterSerializer,
    ReplayQuerySerializer,
    ReplaySerializer,
    ResignedSerializer,
    ResignSerializer,
    SeatSerializer,
    StateSerializer,
    TokenSerializer,
)
from matches.services import ServiceError

ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404, 409, 429)}
# A site that sends no mail (league.services.sends_mail) refuses what would mail.
NO_MAIL = OpenApiResponse(ErrorSerializer, "The site sends no mail (no_mail).")
# The match views that answer with the match itself, seats and people included.
SHOWS_MATCHES = ("list", "retrieve", "create", "rematch")


IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": KEY_LENGTH, "pattern": r"\S"},
    OpenApiParameter.HEADER,
    description="The body's `idempotency_key` (1 to 128 characters), when the body has none.")


# A 201 names what it made, so a client need not build the address from the id.
CREATED_LOCATION = OpenApiParameter(
    "Location", OpenApiTypes.URI, OpenApiParameter.HEADER, response=[201], required=True,
    description="The API address of what the request made.")


# A new account's player: the account itself is read at /api/auth/me/, the same address
# for every caller.
PLAYER_LOCATION = OpenApiParameter(
    "Location", OpenApiTypes.URI, OpenApiParameter.HEADER, response=[201], required=True,
    description="The API address of the new account's player (/api/players/{id}/).")


def created(data: Any, request: Request, view_name: str, pk: int) -> Response:
    """A 201 answer of `data`, its Location header the made resource's API address."""
    return Response(data, status=status.HTTP_201_CREATED,
                    headers={"Location": reverse(view_name, args=[pk], request=request)})


def with_header_key(request: Request) -> Any:
    """The body, given the Idempotency-Key header as its `idempotency_key` when it has none
    (checked like the body's own key)."""
    given = request.data
    header = request.headers.get("Idempotency-Key")
    if header is not None and isinstance(given, dict) and given.get("idempotency_key") is None:
        if not header.strip() or len(header) > KEY_LENGTH:
            # Named as the client sent it, not as the body field it stands for.
            raise exceptions.ValidationError({"Idempotency-Key": [
                f"The header must hold a key of 1 to {KEY_LENGTH} characters, or be left out."]})
        given = given.copy()  # a form's QueryDict stays one: its fields are not lists
        given["idempotency_key"] = header
    return given


class ServiceErrorsMixin:
    """A refused service call becomes `{code, detail}` with the refusal's status."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ServiceError):
            return Response(exc.body(), status=exc.status)
        if isinstance(exc, Http404):
            # DRF's own NotFound carries the code "not_found"; Django's Http404 has none.
            exc = exceptions.NotFound("No such match.")
        return super().handle_exception(exc)  # type: ignore[misc]


def _token_for(user: Any) -> Response:
    try:
        # A token is kept by no cache (RFC 6749, 5.1), the browser's included.
        return Response({"token": token_for(user).key}, headers={"Cache-Control": "no-store"})
    except AccountError as exc:
        return _refused(exc)


# How long a client told "too many" waits at most, by the refusal's code: the window its
# count runs for (RFC 9110's Retry-After, in seconds), as its detail says in words.
RETRY_AFTER = {"too_many_attempts": signin.WINDOW, "too_many_requests": RESET_WINDOW}


def _refused(exc: AccountError) -> Response:
    response = Response({"code": exc.code, "detail": exc.detail}, status=exc.status)
    if exc.code in RETRY_AFTER:
        response["Retry-After"] = str(RETRY_AFTER[exc.code])
    return response


# -- accounts ----------------------------------------------------------------------------

class RegisterView(APIView):
    """Create an account (and its league Player) and get an API token."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(summary="Create an account",
                   description="Sign-up closed is 403 signup_closed. An `email` given on a "
                               "site that sends no mail, where no link could confirm it, is "
                               "501 no_mail, and no account is made. A refused sign-up "
                               "lists in `problems` every reason it was refused, the "
                               "first being the answer's `code`; one with a field it "
                               "cannot read (400 invalid) lists each of those fields' "
                               "sentences first, then the reasons of the fields it "
                               "read.",
                   request=RegisterSerializer, parameters=[PLAYER_LOCATION],
                   responses={201: TokenSerializer, 400: ERRORS[400], 403: ERRORS[403],
                              501: NO_MAIL})
    def post(self, request: Request) -> Response:
        body = RegisterSerializer(data=request.data)
        if not body.is_valid():
            return _unreadable_signup(body, request.data)
        try:
            player = register_player(**body.validated_data, request=request._request)
        except AccountError as exc:
            response = _refused(exc)
            if exc.code != "signup_closed":
                # Every reason at once, not one a try; the first is the answer's own.
                every = signup_refusals(**body.validated_data) or [exc]
                response.data["problems"] = _problems(every)
            return response
        response = _token_for(player.user)
        response.status_code = status.HTTP_201_CREATED
        response["Location"] = reverse("player-detail", args=[player.pk], request=request)
        return response


def _problems(refusals: list[AccountError]) -> list[dict[str, str]]:
    return [{"code": each.code, "detail": each.detail,
             "field": SIGNUP_FIELDS.get(each.code, "")} for each in refusals]


def _unreadable_signup(body: RegisterSerializer, data: Any) -> Response:
    """400 `invalid` for a sign-up with a field it cannot read (a number for a name, a
    password left out), its detail mapping each such field to its sentences as any
    `invalid` does, and its `problems` listing them, each sentence with its field, and
    then the reasons the service gives for the fields it could read (a name taken, an
    email on a site that mails none): every reason at once, as another refused sign-up."""
    errors = dict(body.errors)
    problems = [{"code": "invalid", "detail": str(sentence),
                 "field": "" if name == api_settings.NON_FIELD_ERRORS_KEY else name}
                for name, sentences in errors.items() for sentence in sentences]
    if isinstance(data, Mapping) and api_settings.NON_FIELD_ERRORS_KEY not in errors:
        read = {name: data[name] for name in body.fields
                if name in data and name not in errors}
        problems += _problems([
            each for each in signup_refusals(**{"username": "", "password": "", **read})
            if SIGNUP_FIELDS.get(each.code) not in errors])
    return Response({"code": "invalid", "detail": errors, "problems": problems},
                    status=status.HTTP_400_BAD_REQUEST)


class _SignedInToDelete(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method != "DELETE" or bool(request.user and request.user.is_authenticated)


class TokenView(APIView):
    """Exchange a username and password for the account's API token, or revoke it."""

    permission_classes = [_SignedInToDelete]

    def get_authenticators(self) -> list[Any]:
        # Getting a token asks for no credentials, so a stale token sent along cannot
        # refuse it; revoking one is done with that token. (The schema asks before it has
        # a request.)
        deleting = getattr(self.request, "method", None) == "DELETE"
        return [TokenAuthentication()] if deleting else []

    @extend_schema(summary="Get an API token",
                   description="After 10 wrong passwords for a name from one address "
                               "within 15 minutes (or 50 for any names), the name (the "
                               "address) is refused from there (429 too_many_attempts) "
                               "until they are up.",
                   request=CredentialsSerializer,
                   responses={200: TokenSerializer, 400: ERRORS[400], 429: ERRORS[429]})
    def post(self, request: Request) -> Response:
        body = CredentialsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if signin.locked_out(body.validated_data["username"], request):
            return _refused(AccountError("too_many_attempts", signin.LOCKED_OUT, 429))
        user = authenticate(request._request, **body.validated_data)
        if user is None:
            return Response({"code": "bad_credentials",
                             "detail": "Unknown username or wrong password."}, status=400)
        return _token_for(user)

    @extend_schema(summary="Revoke your API token",
                   description="Signs the token sent out, on every device that holds it; "
                               "the next `POST` with the password makes a new one.",
                   request=None, responses={204: None, 401: ERRORS[401]})
    def delete(self, request: Request) -> Response:
        revoke_token(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AccountView(APIView):
    """The signed-in account: its username, and the display name and email address it
    may change."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your account", responses={200: AccountSerializer, 401: ERRORS[401]})
    def get(self, request: Request) -> Response:
        return Response(account_fields(player_for(request.user)))

    @extend_schema(summary="Change your display name, email address, mails or time zone",
                   description="The display name shows in standings, on player pages and "
                               "in new Event entries (an entry already made keeps its "
                               "name); the email address is where a password reset link "
                               "and turn mails go, and a new one needs the present "
                               "`password` (a reset link sent there sets the password): "
                               "a wrong one counts against the sign-in brake. A site that "
                               "sends no mail takes no new address (501 no_mail), and keeps "
                               "or removes (`\"\"`) the one it has. Every field "
                               "sent changes, or none (400 bad_display_name, bad_email, "
                               "bad_credentials, unknown_time_zone; 409 no_email, no_mail, "
                               "account_closed "
                               "(the account closed as it was sent); 429 "
                               "too_many_attempts; 501 no_mail).",
                   request=AccountSerializer,
                   responses={200: AccountSerializer, 400: ERRORS[400], 401: ERRORS[401],
                              409: ERRORS[409], 429: ERRORS[429], 501: NO_MAIL})
    def patch(self, request: Request) -> Response:
        body = AccountSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        player = player_for(request.user)
        changes = body.validated_data
        try:
            with transaction.atomic():
                if "display_name" in changes:
                    rename_player(player, changes["display_name"])
                if "email" in changes:
                    set_email(player.user, changes["email"], request=request._request,
                              password=changes.get("password"))
                    player.refresh_from_db(fields=["turn_mail", "event_mail", "pending_email"])
                if "turn_mail" in changes:
                    set_turn_mail(player, changes["turn_mail"])
                if "event_mail" in changes:
                    set_event_mail(player, changes["event_mail"])
                if "time_zone" in changes:
                    set_time_zone(player, changes["time_zone"])
        except AccountError as exc:
            return _refused(exc)
        return Response(account_fields(player))


class AccountDataView(APIView):
    """What the site keeps about the signed-in player."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your data, to take away",
                   description="The account, ratings and their history, every match the "
                               "player sat in (as their match history shows it), their "
                               "Event entries and teams, in one document. The account "
                               "page offers the same as a file.",
                   responses={200: AccountDataSerializer, 401: ERRORS[401]})
    def get(self, request: Request) -> Response:
        # Personal data: kept by no shared cache, nor by the browser, as the page's file.
        return Response(account_data(request.user),
                        headers={"Cache-Control": "private, no-store"})


class CloseAccountView(APIView):
    """Close the signed-in account for good."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Close your account",
                   description="Needs the present password (400 bad_credentials, counted "
                               "against the sign-in brake: 429 too_many_attempts). The "
                               "player's matches outside Events that wait for players are "
                               "left and invitations declined, their live ones resigned; "
                               "then the account signs in no more (its token and sessions "
                               "end), its username becomes `closed.ID`, its email "
                               "addresses go and its player, and its Event entries, "
                               "read \"Closed account\". "
                               "Refused while the player holds an entry in an Event not "
                               "over or sits in a live Event match (409 in_event), and for "
                               "staff (409 staff_account).",
                   request=CloseAccountSerializer,
                   responses={204: None, 400: ERRORS[400], 401: ERRORS[401],
                              409: ERRORS[409], 429: ERRORS[429]})
    def post(self, request: Request) -> Response:
        body = CloseAccountSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            close_account(request.user, request=request._request, **body.validated_data)
        except AccountError as exc:
            return _refused(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordView(APIView):
    """A new password for the signed-in account."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Change your password",
                   description="Needs the present password: a wrong one is 400 "
                               "bad_credentials and counts against the sign-in brake "
                               "(429 too_many_attempts, as for a token). The old API token "
                               "is revoked and the account's web sessions end; the answer "
                               "carries the new token.",
                   request=PasswordChangeSerializer,
                   responses={200: TokenSerializer, 400: ERRORS[400], 401: ERRORS[401],
                              429: ERRORS[429]})
    def post(self, request: Request) -> Response:
        body = PasswordChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            change_password(request.user, request=request._request, **body.validated_data)
        except AccountError as exc:
            return _refused(exc)
        return _token_for(request.user)


class PasswordResetView(APIView):
    """Mail a link to choose a new password, for a client whose player forgot theirs."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(summary="Ask for a password reset link",
                   description="Mails a link to every active account that gave this "
                               "address; the answer is the same when none did. The link "
                               "opens a page of this site that sets the new password, "
                               f"and works once. An address gets at most {RESETS_PER_ADDRESS} "
                               "links an hour asked from one client and "
                               f"{RESETS_TO_ADDRESS} in all, so a stranger cannot use up its "
                               f"owner's; a client asks at most {RESETS_FROM_CLIENT} "
                               "times (429 too_many_requests). A site that sends no mail "
                               "answers 501 no_mail: its staff make reset links in the "
                               "admin. While the mail queue is away, the link is mailed "
                               "once it is back.",
                   request=PasswordResetSerializer,
                   responses={202: DetailSerializer, 400: ERRORS[400], 429: ERRORS[429],
                              501: NO_MAIL})
    def post(self, request: Request) -> Response:
        body = PasswordResetSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if not sends_mail():
            return _refused(AccountError("no_mail", "This site sends no mail: ask its "
                                                    "staff for a password reset link.", 501))
        try:
            send_password_reset(body.validated_data["email"], request._request)
        except AccountError as exc:
            return _refused(exc)
        return Response({"detail": "If an account has that email address, a reset link is "
                                   "on its way to it."}, status=status.HTTP_202_ACCEPTED)


# -- games -------------------------------------------------------------------------------

RULES_CHANGED = ("409 rules_changed: the match was recorded under an earlier version of its "
                 "game's rules (`rules_version`), or plays a game this site plays no more, "
                 "which it no longer replays.")


class GamesView(APIView):
    """Every game the engine offers, its options and its bots."""

    permission_classes = [AllowAny]

    @extend_schema(summary="List the games", responses={200: GameSerializer(many=True)})
    def get(self, request: Request) -> Response:
        games = registry.games()
        return Response([
            {**rules.spec.to_json(), "bots": registry.bot_names(key)}
            for key, rules in sorted(games.items())
        ])


# -- matches -----------------------------------------------------------------------------

def by_game(rows: QuerySet[Any], game: str) -> QuerySet[Any]:
    """`rows` of the game `game`: a list's `game` filter. A key that is no game of
    /api/games/ is 400 unknown_game, as in a body, unless the site keeps rows of it (a game
    it plays no more: its matches, Events and ratings are still listed)."""
    found = rows.filter(game=game)
    if game not in registry.games() and not rows.model._default_manager.filter(
            game=game).exists():
        raise ServiceError("unknown_game", f"No game called {quoted(game)}.", 400)
    return found


class MatchViewSet(ServiceErrorsMixin, RequestBodies, mixins.ListModelMixin,
                   mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Matches, their seats, their state and their event streams.

    Anyone signed in may watch any match (as a spectator); only a seat's holder may act.
    """

    serializer_class = MatchSerializer
    request_serializers = {"create": MatchCreateSerializer, "submit": ActionSerializer,
                           "resign": ResignSerializer, "join": None, "rematch": None}
    parser_classes = [JSONParser]
    lookup_value_regex = r"\d+"

    def get_queryset(self) -> QuerySet[Match]:
        if self.action not in SHOWS_MATCHES:
            # The state, a move, the stream...: the match row alone (polled every few
            # seconds, and the services read the seats they need themselves).
            return Match.objects.all()
        matches = (Match.objects.select_related("created_by", "event_match__event")
                   .prefetch_related(*SEAT_PEOPLE)
                   .order_by("-created_at", "-id"))
        if self.action != "list":
            return matches  # the filters are the list's: one match is found by its id alone
        query = MatchListQuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        if params.get("game"):
            matches = by_game(matches, params["game"])
        if params.get("status"):
            matches = matches.filter(status=params["status"])
        if "event" in params:
            matches = matches.filter(event_match__event_id=params["event"])
        if params.get("player"):
            name = params["player"]  # their own seats, and those a bot took over from them
            matches = matches.filter(Q(seats__user__username__iexact=name)
                                     | Q(seats__stood_in_for__username__iexact=name)).distinct()
        if params.get("invited"):
            matches = matches.filter(seats__invited__username__iexact=params["invited"]).distinct()
        if params.get("awaiting"):
            matches = matches.filter(seats__user__username__iexact=params["awaiting"],
                                     seats__awaited=True).distinct()
        return matches

    @extend_schema(summary="List matches", parameters=[MatchListQuerySerializer])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One match with its seats and result",
                   responses={200: MatchSerializer, 404: ERRORS[404]})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(summary="Create a match",
                   description="Seats are `{\"player\": username}`, `{\"bot\": name}` or "
                               "`{\"open\": true}`. Name yourself in one seat at least; "
                               "another player you name is invited (the seat is held for "
                               "them until they join or decline). A full table starts at "
                               "once. A repeated `idempotency_key` (or Idempotency-Key "
                               "header) answers with the match the first request made. "
                               "A player has at most MAX_LIVE_MATCHES (default 20) matches "
                               "of their making waiting or in play (409 too_many_matches).",
                   parameters=[IDEMPOTENCY_HEADER, CREATED_LOCATION],
                   responses={201: MatchSerializer, 400: ERRORS[400], 403: ERRORS[403],
                              409: ERRORS[409]})
    def create(self, request: Request) -> Response:
        body = self.get_serializer(data=with_header_key(request))
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        key = data.pop("idempotency_key", None)
        match = services.create_match(created_by=request.user, key=key, **data)
        return created(self._detail(match.pk), request, "match-detail", match.pk)

    def _detail(self, pk: int) -> dict[str, Any]:
        return MatchSerializer(self.get_queryset().get(pk=pk),
                               context=self.get_serializer_context()).data

    @extend_schema(summary="Take the seat held for you, else the first open seat",
                   description="Accepts an invitation, or takes a seat open to anyone. "
                               "One who holds a seat in the match is 409 already_seated, "
                               "even once the table is full (a join sent again, its answer "
                               "lost, after it started the match); another, once the match "
                               "takes no more players, 409 match_not_open, and while every "
                               "seat is taken or held for an invited player, 409 "
                               "no_open_seat.",
                   request=None,
                   responses={200: SeatSerializer, 404: ERRORS[404], 409: ERRORS[409]})
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str) -> Response:
        seat = services.join_match(match=self.get_object(), user=request.user)
        return Response(SeatSerializer(seat).data)

    @extend_schema(summary="Leave an open match, or resign a live one",
                   description="An open match gives your seat back (a match nobody is left "
                               "in is removed), or declines the invitation you hold there "
                               "(outcome `declined`: the seat opens to anyone); a live one "
                               "ends, your seat last (with a tag team's other seats) and the "
                               "others sharing first, except where the game eliminates "
                               "players (a Royal Rumble of three or more, a Supershow "
                               "Elimination match): there your seat is out and the others "
                               "play on, and a seat already out is 409 seat_out. A "
                               "resignation sent again once made (its answer lost) answers "
                               "`resigned` again and writes nothing, and so does a leave "
                               "(`left`, even once the match started) or a decline "
                               "(`declined`); a leave that removed the match (nobody left "
                               "in it) is 404 sent again. `seat` "
                               "picks one of your seats: one who holds several names the "
                               "one to leave or resign (400 seat_required), so that a "
                               "request sent again does not leave or resign the next; a "
                               "seat the match has not is 400 bad_seat, one not yours 403 "
                               "not_your_seat, and one who holds none 403 not_seated. "
                               "An open match that started meanwhile is not left (409 "
                               "match_started), nor is one over (409 match_over). "
                               "An Event's match is its "
                               "organizer's to forfeit (409 event_match).",
                   responses={200: ResignedSerializer, 400: ERRORS[400], 403: ERRORS[403],
                              404: ERRORS[404], 409: ERRORS[409]})
    @action(detail=True, methods=["post"])
    def resign(self, request: Request, pk: str) -> Response:
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        outcome = services.resign(match=self.get_object(), user=request.user,
                                  seat=body.validated_data.get("seat"),
                                  leaving=body.validated_data["leaving"], name_the_seat=True)
        return Response({"outcome": outcome})

    @extend_schema(summary="Play a finished match again",
                   description="The first of its players to ask makes the rematch (201): "
                               "the same game and options, the same seats, the asker "
                               "seated and the other players invited (a seat a bot took "
                               "over goes back to its player). A player invited to it who "
                               "asks takes their seat (200), as does one who asks again. "
                               "It names the match it replays (`rematch_of`). Refused for "
                               "a match not over (409 match_not_over), an Event's match "
                               "(409 event_match), anyone who did not play it (403 "
                               "not_seated), and while no rematch is made, anyone but the "
                               "player a lineup seated several times (409 lineup_rematch: "
                               "an invitation holds one seat), and a match whose options or "
                               "bots the game no longer takes (409 setup_changed).",
                   request=None, parameters=[CREATED_LOCATION],
                   responses={200: MatchSerializer, 201: MatchSerializer, 403: ERRORS[403],
                              404: ERRORS[404], 409: ERRORS[409]})
    @action(detail=True, methods=["post"])
    def rematch(self, request: Request, pk: str) -> Response:
        made, new = services.rematch(match=self.get_object(), user=request.user)
        if new:
            return created(self._detail(made.pk), request, "match-detail", made.pk)
        return Response(self._detail(made.pk))

    @extend_schema(summary="What your seat (or a spectator) sees now",
                   description="`legal_actions` are the items you may post back verbatim; "
                               "`seat` picks one of your seats if you hold several. "
                               + RULES_CHANGED,
                   parameters=[QuerySerializer],
                   responses={200: StateSerializer, 403: ERRORS[403], 404: ERRORS[404],
                              409: ERRORS[409]})
    @action(detail=True, methods=["get"])
    def state(self, request: Request, pk: str) -> Response:
        query = QuerySerializer(data=request.query_params).values()
        match = self.get_object()
        seats = list(match.seats.order_by("index"))  # (whose they are: it shows no people)
        state = services.match_state(match=match, user=request.user, seats=seats, **query)
        return Response({**state, "deadline": turn_deadline(match, state["pending"], seats)})

    @extend_schema(summary="Play an action for your seat",
                   description="`expected_seq` refuses the action (409 stale_seq) if the "
                               "match moved on, unless the same decision of the same seat "
                               "is the one made right after it (the action sent again, its "
                               "answer lost: the first answer, nothing written); a repeated "
                               "`idempotency_key` (or Idempotency-Key header) returns the "
                               "first answer.",
                   parameters=[IDEMPOTENCY_HEADER],
                   responses={201: AppendedSerializer, 400: ERRORS[400], 403: ERRORS[403],
                              404: ERRORS[404], 409: ERRORS[409]})
    @action(detail=True, methods=["post"], url_path="actions")
    def submit(self, request: Request, pk: str) -> Response:
        match = self.get_object()
        body = self.get_serializer(data=with_header_key(request))
        body.is_valid(raise_exception=True)
        data = body.validated_data
        seq = services.submit_action(
            match=match, seat=data["seat"], action=data["action"], user=request.user,
            expected_seq=data.get("expected_seq"), key=data.get("idempotency_key"),
        )
        return Response({"seq": seq}, status=status.HTTP_201_CREATED)

    @extend_schema(summary="The event stream as you may read it",
                   description="Events after seq `after`, each redacted for your seat and "
                               "narrated; shown in full once the match is finished (a "
                               "match of an Event dealt secret decks: once the Event is). "
                               + RULES_CHANGED,
                   parameters=[EventsQuerySerializer],
                   responses={200: EventSerializer(many=True), 403: ERRORS[403],
                              404: ERRORS[404], 409: ERRORS[409]})
    @action(detail=True, methods=["get"], pagination_class=None)
    def events(self, request: Request, pk: str) -> Response:
        query = EventsQuerySerializer(data=request.query_params).values()
        return Response(services.match_events(match=self.get_object(), user=request.user,
                                              **query))

    @extend_schema(summary="The match as it was after event `at`",
                   description=RULES_CHANGED,
                   parameters=[ReplayQuerySerializer],
                   responses={200: ReplaySerializer, 400: ERRORS[400], 403: ERRORS[403],
                              404: ERRORS[404], 409: ERRORS[409]})
    @action(detail=True, methods=["get"])
    def replay(self, request: Request, pk: str) -> Response:
        query = ReplayQuerySerializer(data=request.query_params).values()
        return Response(services.replay_view(match=self.get_object(), user=request.user,
                                             **query))
