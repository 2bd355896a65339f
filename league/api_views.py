"""The league REST API: seasons, Events and their brackets, players, ratings and teams.

Views are thin: a guard or two (the object, the organizer permission, the body), then one
call into `league.events`. A refused call is `{code, detail}` with the refusal's status.
Writes are gated by `LeaguePermission`, which reads each view's `organizer_scopes`.
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, mixins, renderers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_json import JSONLinesRenderer, JSONParser
from config.api_metadata import RequestBodies
from config.refusal import Refusal
from league import events, history, leaderboard, simulation
from league.models import (
    Entrant,
    Event,
    EventRecord,
    Player,
    RankingPoints,
    RankingTotal,
    Rating,
    RoundScore,
    Season,
    SimulationJob,
    Standing,
    Team,
)
from league.permissions import ENTRANT, EVENT, SEASON, STAFF, LeaguePermission
from league.serializers import (
    BracketPairingSerializer,
    CorrectionSerializer,
    EnterSerializer,
    EntrantCreateSerializer,
    EntrantSerializer,
    EventDetailsSerializer,
    EventQuerySerializer,
    EventRecordSerializer,
    EventSeasonSerializer,
    EventSettingsSerializer,
    EventWriteSerializer,
    LeagueEventCreateSerializer,
    LeagueEventSerializer,
    MatchHistoryQuerySerializer,
    OpenEntrySerializer,
    PairingsSerializer,
    PicksSerializer,
    PlayedMatchSerializer,
    PlayerQuerySerializer,
    PlayerSerializer,
    RankingSerializer,
    RatingHistoryQuerySerializer,
    RatingHistorySerializer,
    RatingRowSerializer,
    RatingSerializer,
    RatingTableQuerySerializer,
    RoundScoreQuerySerializer,
    RoundScoreSerializer,
    SeasonCreateSerializer,
    SeasonSerializer,
    SeasonStandingSerializer,
    SeatActionSerializer,
    SeatToBotSerializer,
    SeedSerializer,
    ShowdownEventCreateSerializer,
    SimulationCreateSerializer,
    SimulationJobRowSerializer,
    SimulationJobSerializer,
    SimulationProgressSerializer,
    StandingSerializer,
    StartSerializer,
    TeamCreateSerializer,
    TeamPlayerSerializer,
    TeamSerializer,
    bracket_of,
)
from matches.api_views import (
    CREATED_LOCATION,
    IDEMPOTENCY_HEADER,
    by_game,
    created,
    with_header_key,
)
from matches.models import SEAT_PEOPLE, Match, Seat
from matches.serializers import ErrorSerializer


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The `{code, detail}` responses an operation may give."""
    return {code: OpenApiResponse(ErrorSerializer) for code in codes}


READ_ERRORS = errors(401, 404)
WRITE_ERRORS = errors(400, 401, 403, 404, 409)


class LeagueViewSet(RequestBodies, viewsets.GenericViewSet):
    """What every league view shares: JSON bodies, the permission, refusals as errors."""

    permission_classes = [LeaguePermission]
    parser_classes = [JSONParser]
    lookup_value_regex = r"\d+"
    organizer_scopes: dict[str, str] = {}
    not_found = "Not found."

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, Refusal):
            return Response(exc.body(), status=exc.status)
        if isinstance(exc, Http404):
            exc = exceptions.NotFound(self.not_found)
        return super().handle_exception(exc)

    def body(self, *, keyed: bool = False) -> dict[str, Any]:
        """The request body, read by the action's `request_serializers` entry and validated
        (a 400 `invalid` otherwise); with `keyed`, a create taking its `idempotency_key`
        from the Idempotency-Key header too, as a match's."""
        body = self.get_serializer_class()(data=with_header_key(self.request) if keyed
                                           else self.request.data)
        body.is_valid(raise_exception=True)
        return dict(body.validated_data)

    def query(self, serializer_class: type[Any]) -> dict[str, Any]:
        """The query parameters, validated (a 400 `invalid` otherwise)."""
        query = serializer_class(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        return dict(query.validated_data)

    def page(self, rows: Any, serializer_class: type[Any], **context: Any) -> Response:
        """One page of `rows`, serialized."""
        page = self.paginate_queryset(rows)
        data = serializer_class(page, many=True, context=context).data
        return self.get_paginated_response(data)


# -- seasons -----------------------------------------------------------------------------

class SeasonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, LeagueViewSet):
    """Seasons: a run of Events of one game with its organizers and scoring."""

    serializer_class = SeasonSerializer
    request_serializers = {"create": SeasonCreateSerializer}
    organizer_scopes = {"create": STAFF}
    not_found = "No such season."

    def get_queryset(self) -> QuerySet[Season]:
        return Season.objects.prefetch_related("organizers").order_by("-created_at", "-id")

    @extend_schema(summary="List seasons", responses={200: SeasonSerializer(many=True),
                                                      401: READ_ERRORS[401]})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One season", responses={200: SeasonSerializer, **READ_ERRORS})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(summary="Create a season (staff)",
                   description="The creator becomes one of its organizers. A create sent "
                               "again with the same `idempotency_key` (in the body or the "
                               "Idempotency-Key header) answers with the season the first "
                               "made (409 key_reused for another game).",
                   parameters=[IDEMPOTENCY_HEADER, CREATED_LOCATION],
                   responses={201: SeasonSerializer, **errors(400, 401, 403, 409)})
    def create(self, request: Request) -> Response:
        body = self.body(keyed=True)
        season = events.create_season(by=request.user, **body)
        return created(SeasonSerializer(self.get_queryset().get(pk=season.pk)).data, request,
                       "season-detail", season.pk)

    @extend_schema(summary="The season's table",
                   description="Every recorded result of its Events, by the season's "
                               "scoring; best first.",
                   responses={200: SeasonStandingSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request: Request, pk: str) -> Response:
        season = self.get_object()
        rows = season.standings.order_by("rank", "name")
        return Response(SeasonStandingSerializer(rows, many=True).data)


# -- Events ------------------------------------------------------------------------------

# An entrant has no address of its own: its Event's lists it, by its `key`.
ENTRANT_LOCATION = OpenApiParameter(
    "Location", OpenApiTypes.URI, OpenApiParameter.HEADER, response=[201], required=True,
    description="The API address of the Event, whose `entrants` hold the new entrant (by "
                "its `key`): an entrant has no address of its own.")

KEY = OpenApiParameter("key", OpenApiTypes.STR, OpenApiParameter.PATH,
                       description="The entrant's key (e1, e2, ...).")


class EventViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, LeagueViewSet):
    """Events, their entrants, bracket, standings and record stream; organizer writes.

    Every write is one record in the Event's stream (or a refusal that writes nothing).
    """

    serializer_class = LeagueEventSerializer
    request_serializers = {
        "create": LeagueEventCreateSerializer, "showdown": ShowdownEventCreateSerializer,
        "entrants": EntrantCreateSerializer, "picks": PicksSerializer,
        "team_player": TeamPlayerSerializer,
        "withdraw": EventWriteSerializer, "reinstate": EventWriteSerializer,
        "open_entry": OpenEntrySerializer,
        "details": EventDetailsSerializer, "change_settings": EventSettingsSerializer,
        "season": EventSeasonSerializer, "enter": EnterSerializer,
        "leave": EventWriteSerializer, "seed": SeedSerializer, "start": StartSerializer,
        "pairings": PairingsSerializer, "release": EventWriteSerializer,
        "forfeit": SeatActionSerializer, "seat_to_bot": SeatToBotSerializer,
        "corrections": CorrectionSerializer,
    }
    organizer_scopes = {
        "create": SEASON, "showdown": SEASON, "entrants": EVENT, "picks": ENTRANT, "withdraw": EVENT,
        "reinstate": EVENT, "seed": EVENT, "start": EVENT,
        "pairings": EVENT, "release": EVENT, "forfeit": EVENT, "seat_to_bot": EVENT,
        "corrections": EVENT, "open_entry": EVENT, "details": EVENT, "change_settings": EVENT,
        "season": EVENT,
        "enter": ENTRANT, "team_player": ENTRANT,
        "leave": ENTRANT,
    }
    not_found = "No such Event."

    def get_queryset(self) -> QuerySet[Event]:
        found = (Event.objects.select_related("created_by", "season")
                 .prefetch_related("organizers", "entrants").order_by("-created_at", "-id"))
        if self.action != "list":
            return found
        query = self.query(EventQuerySerializer)
        if "season" in query:
            found = found.filter(season_id=query["season"])
        if query.get("game"):
            found = by_game(found, query["game"])
        if "status" in query:
            found = found.filter(status=query["status"])
        if query.get("open_entry") is not None:
            found = found.filter(open_entry=query["open_entry"])
        return found

    def _detail(self, event: Event, code: int = status.HTTP_200_OK) -> Response:
        data = LeagueEventSerializer(self.get_queryset().get(pk=event.pk),
                                     context=self.get_serializer_context()).data
        if code == status.HTTP_201_CREATED:
            return created(data, self.request, "league-event-detail", event.pk)
        return Response(data, status=code)

    @extend_schema(summary="List Events", parameters=[EventQuerySerializer],
                   responses={200: LeagueEventSerializer(many=True), **errors(400, 401)})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One Event with its entrants",
                   responses={200: LeagueEventSerializer, **READ_ERRORS})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(summary="Create an Event (staff or the season's organizers)",
                   description="Every option is checked before anything is written; the "
                               "Event takes entrants until it starts. A create sent again "
                               "with the same `idempotency_key` (in the body or the "
                               "Idempotency-Key header) answers with the Event the first "
                               "made (409 key_reused for another game or format).",
                   parameters=[IDEMPOTENCY_HEADER, CREATED_LOCATION],
                   responses={201: LeagueEventSerializer, **errors(400, 401, 403, 409)})
    def create(self, request: Request) -> Response:
        body = self.body(keyed=True)
        event = events.create_event(by=request.user, **body)
        return self._detail(event, status.HTTP_201_CREATED)

    @extend_schema(summary="Create a Superstar Showdown Event (staff or season organizers)",
                   description="From a preset (`full_card`, `tag_team_series`, "
                               "`ultimate_endurance`) or composed Match by Match; a "
                               "`showdown_series` Event of two entrants, Red and Blue, whose "
                               "one match is the whole series. With both `sides` it starts "
                               "at once. Refusals: too_few_matches, unknown_match_card, "
                               "unknown_stipulation, bad_superstars_per_team, unknown_preset, "
                               "preset_or_compose, two_sides, ...; nothing is written. "
                               "Sent again with the same `idempotency_key` (or "
                               "Idempotency-Key header), it answers "
                               "with the Event the first made.",
                   parameters=[IDEMPOTENCY_HEADER, CREATED_LOCATION],
                   responses={201: LeagueEventSerializer, **errors(400, 401, 403, 404, 409)})
    @action(detail=False, methods=["post"])
    def showdown(self, request: Request) -> Response:
        body = self.body(keyed=True)
        event = events.create_showdown_event(by=request.user, **body)
        return self._detail(event, status.HTTP_201_CREATED)

    @extend_schema(summary="A Superstar Showdown Event's Ranking Points",
                   description="Each team's totals (match points, bonus points, Matches "
                               "won) and each Match's card, Stipulation and points, as "
                               "projected from the match's public view. Empty for other "
                               "Events and before the start.",
                   responses={200: RankingSerializer, **READ_ERRORS})
    @action(detail=True, methods=["get"], url_path="ranking-points", pagination_class=None)
    def ranking_points(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        return Response(RankingSerializer({
            "teams": RankingTotal.objects.filter(event=event).order_by("match_id", "team"),
            "matches": RankingPoints.objects.filter(event=event)
            .order_by("match_id", "number", "team"),
        }).data)

    @extend_schema(summary="Enter a player, a team or a bot",
                   description="Late entries where the format takes them; none past "
                               "what the format seats (a Showdown series is two: 409 "
                               "too_many_entrants). An entry sent again with the same "
                               "`idempotency_key` (in the body or the Idempotency-Key "
                               "header), the same player, team or bot, the same picks and "
                               "the same name (or none) answers with the entrant the first "
                               "added, whatever was written since (its `expected_seq` is "
                               "not checked again); with another entrant, name or picks it "
                               "is 409 key_reused. A key is the organizer's own, in this "
                               "Event. Without a key each entry adds an entrant: the same "
                               "bot entered twice is two entrants.",
                   parameters=[IDEMPOTENCY_HEADER, ENTRANT_LOCATION],
                   responses={201: EntrantSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def entrants(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        entrant = events.add_entrant(event=event, by=request.user, **self.body(keyed=True))
        return created(self._entrant(event, entrant), request, "league-event-detail", event.pk)

    def _entrant(self, event: Event, entrant: Entrant) -> Any:
        readable = events.readable_entrants(event, self.request.user, [entrant])
        return EntrantSerializer(entrant, context={"readable_entrants": readable}).data

    @extend_schema(summary="Say what an entrant brings to its seats",
                   description="Its organizers, the player or a member of the team; from "
                               "the entrant's next match on (a match made keeps its "
                               "options). Empty `picks` go back to the Event's options. "
                               "Refusals: no_picks, bad_picks, picks_need_every_seat, the "
                               "game's own (bad_option), not_your_entrant, "
                               "unknown_entrant, event_finished, entrant_out (409: "
                               "the format counts the entrant out, no match of theirs "
                               "to come), stale_seq.",
                   parameters=[KEY], responses={200: EntrantSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], url_path=r"entrants/(?P<key>[^/.]+)/picks")
    def picks(self, request: Request, pk: str, key: str) -> Response:
        event = self.get_object()
        entrant = events.pick(event=event, by=request.user, key=key, **self.body())
        return Response(self._entrant(event, entrant))

    @extend_schema(summary="Choose the member who plays for a team entrant",
                   description="The team's owner (who made it) or the Event's organizers; "
                               "from the team's next match on (a match made keeps its "
                               "seats). Until one is chosen a team sits its first member "
                               "by id. Refusals: not_a_member (400), not_a_team (409: a "
                               "player or a bot entrant), every_member_plays (409: a "
                               "Superstar Showdown Event seats the whole team), "
                               "not_your_team (403), unknown_entrant, event_finished, "
                               "stale_seq.",
                   parameters=[KEY], responses={200: EntrantSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], url_path=r"entrants/(?P<key>[^/.]+)/player")
    def team_player(self, request: Request, pk: str, key: str) -> Response:
        event = self.get_object()
        entrant = events.choose_team_player(event=event, by=request.user, key=key,
                                            **self.body())
        return Response(self._entrant(event, entrant))

    @extend_schema(summary="Withdraw an entrant",
                   description="Before the start it leaves; after, the format drops it. "
                               "Refusals: "
                               "unknown_entrant (404: no active entrant of that key), "
                               "event_finished (409), not_organizer (403), stale_seq.",
                   parameters=[KEY],
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], url_path=r"entrants/(?P<key>[^/.]+)/withdraw")
    def withdraw(self, request: Request, pk: str, key: str) -> Response:
        event = self.get_object()
        events.withdraw_entrant(event=event, by=request.user, key=key, **self.body())
        return self._detail(event)

    @extend_schema(summary="Reinstate a withdrawn entrant",
                   description="Undoes a withdrawal made by mistake: before the start the "
                               "entrant is entered again (the checks of an entry: "
                               "entrant_twice, entrant_overlaps, too_many_entrants ...); "
                               "after it the format is replayed as if they never withdrew, "
                               "the walkovers it gave gone. 404 not_withdrawn; 409 "
                               "event_finished, stale_seq, and reinstate_too_late, naming "
                               "why, once anything went by the withdrawal: the Event "
                               "started after it, a match of theirs ended with it, or since "
                               "then a match was made, a round paired or released, an "
                               "entrant joined or withdrew, or a pairing it left short "
                               "decided.",
                   parameters=[KEY], responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], url_path=r"entrants/(?P<key>[^/.]+)/reinstate")
    def reinstate(self, request: Request, pk: str, key: str) -> Response:
        event = self.get_object()
        events.reinstate_entrant(event=event, by=request.user, key=key, **self.body())
        return self._detail(event)

    @extend_schema(summary="Open entry to players, or close it",
                   description="While the Event is a draft (409 event_started): with open "
                               "entry, signed-in players enter themselves (`enter`). Not a "
                               "Superstar Showdown Event, whose sides are teams (409 "
                               "teams_only). Asking for what the Event already does writes "
                               "nothing. `expected_seq` is stale only when entry was "
                               "switched since: players entering meanwhile do not count.",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], url_path="open-entry")
    def open_entry(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.set_open_entry(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="Say when the Event starts, and what its players should know "
                           "(organizers)",
                   description="`starts_at` and `notes`, shown on its page and in the lobby; "
                               "what is left out is kept, and what the Event already says "
                               "writes nothing. Any time, the Event over included. "
                               "`expected_seq` is stale only when the details changed since.",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def details(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.set_details(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="File the Event under another season, or none (organizers)",
                   description="`season`: a season of the Event's game (400 wrong_game) "
                               "that the caller organizes as well as the Event (403 "
                               "not_organizer); null for no season, which staff alone "
                               "choose. Any time, the Event over included: the tables of "
                               "the season it leaves and the one it joins are written again "
                               "with the move, its results counted in the new one alone. "
                               "The season it is in already writes nothing. The old "
                               "season's organizers no longer organize it (unless they are "
                               "its own). `expected_seq` is stale only when its season "
                               "changed since.",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def season(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.change_season(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="Change the Event's format, options and turn deadline before "
                           "it starts (organizers)",
                   description="`format`, `format_options`, `match_options`, "
                               "`turn_deadline_minutes`, `deadline_policy`, `deadline_bot`: "
                               "each one sent replaces the Event's, checked as at the "
                               "creation with the same codes (bad_option, unknown_option, "
                               "bad_scoring, bad_pod_size, needs_heats, bad_deadline, "
                               "bad_policy, unknown_bot, ...); what is left out is kept (a "
                               "new format takes its own default options unless "
                               "`format_options` are sent), and what the Event already has "
                               "writes nothing. Refused once the Event has started (409 "
                               "event_started, event_finished), for a field past what the "
                               "new settings seat (409 too_many_entrants), and, where its "
                               "matches deal constructed decks or its entrants bring them, "
                               "for an organizer who holds an entry in it (403 "
                               "hidden_options). An entrant's picks the new settings no "
                               "longer take are dropped (an `entrant_picked` record with "
                               "`dropped`), and it may pick again. `expected_seq` as for "
                               "every organizer action (409 stale_seq).",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    # (not `settings`, which DRF's views hold for their own)
    @action(detail=True, methods=["post"], url_path="settings")
    def change_settings(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.change_settings(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="Enter the Event yourself (open entry)",
                   description="The caller enters as a player, with their `picks` where the "
                               "Event takes them, after the checks an organizer's entry "
                               "passes. Refusals: entry_closed, event_started, "
                               "event_finished, teams_only, entrant_twice, entrant_overlaps, "
                               "too_many_entrants, reads_decks, entry_limit (a player who "
                               "left it three times) (409); bad_picks, no_picks (400); "
                               "stale_seq. An entry sent again with the same "
                               "`idempotency_key` (in the body or the Idempotency-Key "
                               "header) and the same picks answers with the entry the "
                               "first made, whatever was written since (its "
                               "`expected_seq` and these refusals are not checked again); "
                               "with other picks, or a key the caller gave another entry "
                               "in this Event, it is 409 key_reused. Without a key a "
                               "second entry is 409 entrant_twice, as before.",
                   parameters=[IDEMPOTENCY_HEADER, ENTRANT_LOCATION],
                   responses={201: EntrantSerializer, **errors(400, 401, 404, 409)})
    @action(detail=True, methods=["post"])
    def enter(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        entrant = events.enter_event(event=event, by=request.user, **self.body(keyed=True))
        return created(self._entrant(event, entrant), request, "league-event-detail", event.pk)

    @extend_schema(summary="Withdraw your own entry",
                   description="Before the start (409 event_started, event_finished); the "
                               "caller's own player entry, never another's (404 not_entered; "
                               "a team's entry is withdrawn by an organizer).",
                   responses={200: LeagueEventSerializer, **errors(400, 401, 404, 409)})
    @action(detail=True, methods=["post"])
    def leave(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.leave_event(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="Seed the entrants",
                   description="By rating (the best ordinal in the Event's game first, a "
                               "team by its members' mean, anyone unrated and a bot as a "
                               "new player), by hand (`order`: every entrant key once) or "
                               "at random (the drawn order is stored). Only before the "
                               "start.",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def seed(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.seed_event(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="Start the Event",
                   description="The format is laid out in seed order and the first matches "
                               "are made; bot seats start playing.",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.start_event(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="Pair a held round by hand",
                   description="In an Event that holds its rounds, while a new round waits "
                               "(409 `round_made` otherwise), where the format allows it "
                               "(`not_supported` otherwise). Its matches are made at once.",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def pairings(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.pair_by_hand(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="Release a held round",
                   description="Make the matches of the round that waits for the organizer "
                               "(409 `nothing_held` when none waits), as its `held` pairings "
                               "list them: a Swiss started under revision 3 or later (a "
                               "multi-stage Event's Swiss stage, 4 or later) draws that "
                               "round again whenever an entrant joins or withdraws "
                               "while it waits, seating the newcomer and pairing a "
                               "withdrawn entrant's opponent again (no walkover); a held "
                               "last round takes a late entrant too (a multi-stage "
                               "Event's Swiss stage, from 5).",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def release(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.release_round(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="An entrant forfeits a live match",
                   description="The match ends, the other seats sharing first; where the "
                               "game eliminates players (a Royal Rumble pod of three or "
                               "more, a Supershow Elimination match) the entrant is out and "
                               "the others play on, and one out already is 409 seat_out. The "
                               "result is recorded like any other once the match is over. "
                               "Refusals: unknown_pairing (404: no match for it), "
                               "unknown_entrant (404: no entrant of the Event), "
                               "not_in_match (400: an entrant who does not play it), "
                               "match_not_active (409), not_organizer (403), stale_seq.",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.forfeit(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="Hand an entrant's seat to a bot",
                   description="A bot (`bot`, else the Event's deadline bot) plays the "
                               "entrant's seats for the rest of the match. An entrant out of "
                               "a match that goes on (a forfeit put it out) is asked nothing "
                               "any more and gets no bot (409 seat_out); nor does a seat the "
                               "bot plays already (409 already_bot). Refusals too: "
                               "unknown_pairing (404: no match for it), unknown_entrant "
                               "(404: no entrant of the Event), not_in_match (400: an "
                               "entrant who does not play it), unknown_bot (400), "
                               "match_over (409), not_organizer (403), stale_seq.",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], url_path="seat-to-bot")
    def seat_to_bot(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.seat_to_bot(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="Correct a recorded result",
                   description="Every entrant placed last (each at the number of entrants) "
                               "records no winner, a loss for each, as a match every side "
                               "forfeited ends (the bracket's `no_winner`); every entrant "
                               "placed 1 records a draw. "
                               "Refused (409 correction_conflicts) when a later match was "
                               "already made with the old winner; 409 no_result for a "
                               "pairing with no result recorded yet, 404 unknown_pairing "
                               "for one the Event has not.",
                   responses={200: LeagueEventSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def corrections(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        events.correct_result(event=event, by=request.user, **self.body())
        return self._detail(event)

    @extend_schema(summary="The bracket: every pairing, played or to come",
                   description="Future slots carry their `source`; a played pairing its "
                               "match and result. Empty before the start.",
                   responses={200: BracketPairingSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def bracket(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        # (polled by a league night's phones: the replay kept by the Event's seq, which
        # the row just read holds)
        done = events.replay_to_read(event)
        return Response(BracketPairingSerializer(bracket_of(event, done), many=True).data)

    @extend_schema(summary="The Event's standings",
                   description="Best first, rows sharing a rank in seed order (as the "
                               "Event's page lists them); empty before the start.",
                   responses={200: StandingSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        # The order the format ranks them in: by key as text, e10 came before e2.
        rows = Standing.objects.filter(event=event).select_related("entrant")
        return Response(StandingSerializer(rows.order_by("position"), many=True).data)

    @extend_schema(summary="The Event's record stream",
                   description="Every organizer decision and recorded result, in order.",
                   responses={200: EventRecordSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"])
    def records(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        rows = EventRecord.objects.filter(event=event).select_related("actor").order_by("seq")
        # Every entrant, whatever it brings now: an earlier record may hold a deck since
        # taken back. (Each page asks: the replay kept by the Event's seq, not one a page.)
        entrants = events.replay_to_read(event).entrants
        readable = events.picks_readable(event, request.user, entrants)
        return self.page(rows, EventRecordSerializer, game=event.game,
                         readable_entrants=readable, names=events.shown_names(entrants),
                         options_readable=events.sees_match_options(event, request.user),
                         users=events.organizer_names(event))


# -- players -----------------------------------------------------------------------------

def match_history(user_id: int, *, game: str | None = None, season: int | None = None,
                  opponent: str | None = None, result: str | None = None) -> QuerySet[Match]:
    """The matches a user sat in, newest first, filtered."""
    found = Match.objects.filter(history.held_by(user_id, "seats__")).distinct()
    if game:
        found = by_game(found, game)
    if season is not None:
        found = found.filter(event_match__event__season_id=season)
    if opponent:
        # Another seat the opponent held, or had a bot take over (as the player's own count).
        others = Seat.objects.filter(match=OuterRef("pk")).exclude(history.held_by(user_id))
        found = found.filter(Exists(others.filter(
            Q(user__username__iexact=opponent) | Q(stood_in_for__username__iexact=opponent))))
    if result:
        found = found.filter(pk__in=_with_outcome(found, user_id, result))
    return (found.select_related("event_match__event").prefetch_related(*SEAT_PEOPLE)
            .order_by("-created_at", "-id"))


def _with_outcome(matches: QuerySet[Match], user_id: int, outcome: str) -> list[int]:
    """Finished matches among `matches` whose outcome for the user is `outcome`."""
    done = list(matches.filter(status=Match.Status.FINISHED).prefetch_related("seats"))
    finishes = history.Finishes(done)
    found = []
    for match in done:
        seat = history.seat_of(match, user_id)
        finish = finishes.of(match, seat) if seat is not None else None
        if finish is not None and finish.outcome == outcome:
            found.append(match.pk)
    return found


class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, LeagueViewSet):
    """Players, their match history and their ratings."""

    serializer_class = PlayerSerializer
    not_found = "No such player."

    def get_queryset(self) -> QuerySet[Player]:
        found = Player.objects.select_related("user").order_by("display_name", "id")
        if self.action == "list":
            search = self.query(PlayerQuerySerializer).get("search")
            if search:
                found = found.filter(Q(display_name__icontains=search)
                                     | Q(user__username__icontains=search))
        return found

    @extend_schema(summary="List players", parameters=[PlayerQuerySerializer],
                   responses={200: PlayerSerializer(many=True), **errors(400, 401)})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One player", responses={200: PlayerSerializer, **READ_ERRORS})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(summary="The player's match history",
                   description="Every match the player sat in, newest first, with the "
                               "outcome for the player and its Event, if any.",
                   parameters=[MatchHistoryQuerySerializer],
                   responses={200: PlayedMatchSerializer(many=True), **errors(400, 401, 404)})
    @action(detail=True, methods=["get"])
    def matches(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        played = match_history(player.user_id, **self.query(MatchHistoryQuerySerializer))
        page = self.paginate_queryset(played)
        data = PlayedMatchSerializer(page, many=True, context={
            "user_id": player.user_id, "finishes": history.Finishes(page or [])}).data
        return self.get_paginated_response(data)

    @extend_schema(summary="The player's current ratings, one per game",
                   description="None for a closed or deactivated account's player, whom "
                               "the ratings table leaves out too.",
                   responses={200: RatingSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)
    def ratings(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        return Response(RatingSerializer(_shown_ratings(player, player.ratings)
                                         .order_by("game"), many=True).data)

    @extend_schema(summary="The player's rating after each rated match",
                   description="None for a closed or deactivated account's player, whom "
                               "the ratings table leaves out too.",
                   parameters=[RatingHistoryQuerySerializer],
                   responses={200: RatingHistorySerializer(many=True), **errors(400, 401, 404)})
    @action(detail=True, methods=["get"], url_path="ratings/history", url_name="rating-history")
    def rating_history(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        rows = _shown_ratings(player, player.rating_history).order_by("game", "match_id")
        game = self.query(RatingHistoryQuerySerializer).get("game")
        if game:
            rows = by_game(rows, game)
        return self.page(rows, RatingHistorySerializer)


def _shown_ratings(player: Player, rows: Any) -> Any:
    """`rows` (a player's ratings or rating history), or none where
    `leaderboard.shows_ratings` hides them."""
    return rows.all() if leaderboard.shows_ratings(player) else rows.none()


# -- ratings tables ----------------------------------------------------------------------

class RatingViewSet(LeagueViewSet):
    """Each game's ratings table (a projection of the ratings), best first."""

    serializer_class = RatingRowSerializer

    def get_queryset(self) -> QuerySet[Rating]:
        """Every game's table (the browsable API's filter form asks for it)."""
        return leaderboard.board(None)

    @extend_schema(summary="The ratings tables",
                   description="A game's rated active players, best rating (openskill's "
                               "ordinal, mu - 3 sigma) first, each with its place in the "
                               "game's table.",
                   parameters=[RatingTableQuerySerializer],
                   responses={200: RatingRowSerializer(many=True), **errors(400, 401)})
    def list(self, request: Request) -> Response:
        query = self.query(RatingTableQuerySerializer)
        rows = leaderboard.board(None, query.get("search", ""))
        if query.get("game"):
            rows = by_game(rows, query["game"])
        return self.page(rows, RatingRowSerializer)


# -- scores by round --------------------------------------------------------------------

class RoundScoreViewSet(LeagueViewSet):
    """Points per seat and round of the games that score by rounds (a projection)."""

    serializer_class = RoundScoreSerializer

    def get_queryset(self) -> QuerySet[RoundScore]:
        return RoundScore.objects.order_by("match_id", "round", "seat")

    @extend_schema(summary="Scores by round", parameters=[RoundScoreQuerySerializer],
                   responses={200: RoundScoreSerializer(many=True), **errors(400, 401)})
    def list(self, request: Request) -> Response:
        rows = self.get_queryset()
        query = self.query(RoundScoreQuerySerializer)
        game = query.pop("game", "")
        if game:
            rows = by_game(rows, game)
        return self.page(rows.filter(**{f"{name}_id": value for name, value in query.items()}),
                         RoundScoreSerializer)


# -- teams -------------------------------------------------------------------------------

class TeamViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, LeagueViewSet):
    """Teams for the team games; staff and season organizers make them."""

    serializer_class = TeamSerializer
    request_serializers = {"create": TeamCreateSerializer}
    organizer_scopes = {"create": SEASON}
    not_found = "No such team."

    def get_queryset(self) -> QuerySet[Team]:
        return (Team.objects.select_related("created_by")
                .prefetch_related("members__user").order_by("name"))

    @extend_schema(summary="List teams", responses={200: TeamSerializer(many=True),
                                                    401: READ_ERRORS[401]})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One team", responses={200: TeamSerializer, **READ_ERRORS})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(summary="Create a team (staff or a season organizer)",
                   description="A name taken already, in any case, is 409 team_exists. A "
                               "create sent again with the same `idempotency_key` (or "
                               "Idempotency-Key header), name and members answers with the "
                               "team the first made; with other members it is 409 "
                               "team_exists too (the name is that team's), and with another "
                               "name 409 key_reused.",
                   parameters=[IDEMPOTENCY_HEADER, CREATED_LOCATION],
                   responses={201: TeamSerializer, **errors(400, 401, 403, 409)})
    def create(self, request: Request) -> Response:
        team = events.create_team(by=request.user, **self.body(keyed=True))
        return created(TeamSerializer(self.get_queryset().get(pk=team.pk)).data, request,
                       "team-detail", team.pk)


# -- simulation jobs ---------------------------------------------------------------------

class SimulationPermission(BasePermission):
    """Staff and organizers (of a season or an Event) only, for reads too; cancelling and
    resuming is for the job's creator or staff (the service checks that)."""

    code = "not_organizer"
    message = "Only staff and organizers may run simulations."

    def has_permission(self, request: Any, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated
                    and simulation.can_simulate(request.user))


class SimulationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, LeagueViewSet):
    """Simulation jobs: many bot-vs-bot matches played in chunks on the workers."""

    serializer_class = SimulationJobSerializer
    request_serializers = {"create": SimulationCreateSerializer, "cancel": None, "resume": None}
    permission_classes = [SimulationPermission]
    not_found = "No such simulation."

    def get_queryset(self) -> QuerySet[SimulationJob]:
        found = SimulationJob.objects.select_related("created_by").order_by("-created_at", "-id")
        return found.defer("totals") if self.action != "list" else found.defer("totals",
                                                                                "summary")

    def _detail(self, job: SimulationJob, code: int = status.HTTP_200_OK) -> Response:
        data = SimulationJobSerializer(self.get_queryset().get(pk=job.pk),
                                       context=self.get_serializer_context()).data
        if code == status.HTTP_201_CREATED:
            return created(data, self.request, "simulation-detail", job.pk)
        return Response(data, status=code)

    @extend_schema(summary="List simulation jobs", description="Newest first; without "
                   "their summaries (read one job for it).",
                   responses={200: SimulationJobRowSerializer(many=True), **errors(401, 403)})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(SimulationJobRowSerializer(
            page, many=True, context=self.get_serializer_context()).data)

    @extend_schema(summary="One simulation job with its summary",
                   responses={200: SimulationJobSerializer, **errors(401, 403, 404)})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(summary="Start a simulation job (staff and organizers)",
                   description="Checked before anything is written or queued; refusals: "
                               "unknown_game, unknown_bot, bad_seat_count (the number of "
                               "bots is the seat count), bad_matches, bad_chunk, bad_seed, "
                               "bad_option (or the engine's code for options it refuses). "
                               "Match i plays with a seed derived from the job's seed and i, "
                               "so a job is reproducible. A create sent again with the same "
                               "`idempotency_key` (or Idempotency-Key header) answers with "
                               "the job the first made and "
                               "queues nothing more (409 key_reused for another game or "
                               "other bots).",
                   parameters=[IDEMPOTENCY_HEADER, CREATED_LOCATION],
                   responses={201: SimulationJobSerializer, **errors(400, 401, 403, 409)})
    def create(self, request: Request) -> Response:
        body = self.body(keyed=True)
        job = simulation.create_job(by=request.user, **body)
        return self._detail(job, status.HTTP_201_CREATED)

    @extend_schema(summary="How far the job is", description="Cheap to poll.",
                   responses={200: SimulationProgressSerializer, **errors(401, 403, 404)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def progress(self, request: Request, pk: str) -> Response:
        job = self.get_object()
        return Response(SimulationProgressSerializer(simulation.progress(job)).data)

    @extend_schema(summary="Cancel the job (its creator or staff)",
                   description="No more chunks are queued; the finished ones stay in the "
                               "summary. 409 job_finished when it has ended already.",
                   request=None, responses={200: SimulationJobSerializer,
                                            **errors(401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str) -> Response:
        job = simulation.cancel_job(job=self.get_object(), by=request.user)
        return self._detail(job)

    @extend_schema(summary="Resume the job after a worker crash (its creator or staff)",
                   description="Every chunk claimed or queued but not finished is queued "
                               "again (a chunk is written once, so one still playing "
                               "elsewhere costs only time). 409 job_cancelled or job_failed.",
                   request=None, responses={200: SimulationJobSerializer,
                                            **errors(401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def resume(self, request: Request, pk: str) -> Response:
        job = self.get_object()
        simulation.resume_job(job=job, by=request.user)
        return self._detail(job)

    @extend_schema(summary="The kept match logs, as JSON lines",
                   description="One match a line, in match order: `{match, seed, options, "
                               "rules_version, placements, events}`; replaying `events` with "
                               "`options` under the game's rules of that version rebuilds the "
                               "match. 404 no_logs unless the job keeps logs.",
                   responses={(200, "application/x-ndjson"): OpenApiTypes.STR,
                              **errors(401, 403, 404)})
    @action(detail=True, methods=["get"], pagination_class=None,
            renderer_classes=[renderers.JSONRenderer, JSONLinesRenderer])
    def logs(self, request: Request, pk: str) -> StreamingHttpResponse | Response:
        job = self.get_object()
        if not simulation.reads_secrets(job, request.user):
            return Response({"code": "not_organizer", "detail": "The logs replay its secret "
                             "options (constructed decks): its creator alone reads them."},
                            status=status.HTTP_403_FORBIDDEN)
        if not job.logs:
            return Response({"code": "no_logs", "detail": "This job keeps no logs."},
                            status=status.HTTP_404_NOT_FOUND)
        lines = (json.dumps(match, separators=(",", ":")) + "\n"
                 for match in simulation.iter_logs(job))
        response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
        response["Content-Disposition"] = (f'attachment; filename="simulation-{job.pk}'
                                           '-logs.jsonl"')
        return response
