"""League API bodies: what organizers send (validated) and what readers get (documented).

Names carry a `League` prefix where a bare one would collide with a component of the
matches API in the OpenAPI schema (its `Event` is a match event).
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

from config.api_json import LARGEST_INT
from config.api_strict import ModelSerializer, Serializer
from league import formats, history, simulation, svg
from league.events import (
    NOTES_LENGTH,
    Replayed,
    held_pairings,
    match_options_readable,
    options_gone,
    readable_entrants,
    replay_to_read,
    result_sides,
    sees_match_options,
    shown_picks,
    shown_record,
    walkovers,
)
from league.models import (
    Entrant,
    Event,
    EventMatch,
    EventRecord,
    Player,
    RankingPoints,
    RankingTotal,
    Rating,
    RatingHistory,
    RoundScore,
    Season,
    SeasonStanding,
    SimulationJob,
    Standing,
    Team,
)
from matches.models import KEY_LENGTH, Departure, Match
from matches.serializers import (
    ChoiceField,
    LabelledSeatsListSerializer,
    LabelledSeatsMixin,
    MatchEventLinkSerializer,
    NamesField,
    NumbersField,
    ObjectField,
    PrimaryKeyRelatedField,
    ResultField,
    SeatSerializer,
    StatedMaxLength,
    StatedMinLength,
    StatedPattern,
    event_link,
    game_filter,
    masked_options,
    text_filter,
)

OUTCOMES = ["win", "draw", "loss"]
# A bracket slot: an entrant in it, known to stay empty (a bye), or an entrant to come.
SLOT_STATES = ["filled", "empty", "pending"]
LARGEST_ID = LARGEST_INT  # a BigAutoField; past it a filter is a 400, not an overflow


class EventStatusField(ChoiceField):
    """An Event's status: draft, running or finished."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", "draft, running or finished.")
        super().__init__(choices=Event.Status.choices, **kwargs)


class ServiceCheckedText(serializers.CharField):
    """Text with limits the service checks, refusing it by its own code (`bad_name`,
    `bad_notes`) where the serializer would say `invalid`: the schema states them
    (`least` and `most` characters, a `pattern` it matches), the service applies them. A
    field with a `least` leaves a blank value (all spaces) to the service too, while the
    schema, not allowing it blank, states its `minLength`."""

    def __init__(self, *, least: int | None = None, most: int | None = None,
                 pattern: str | None = None, **kwargs: Any) -> None:
        if least is not None:
            kwargs["allow_blank"] = False
        super().__init__(validators=[
            *([StatedMinLength(least)] if least is not None else []),
            *([StatedMaxLength(most)] if most is not None else []),
            *([StatedPattern(pattern)] if pattern is not None else [])], **kwargs)
        self.blank_checked = least is not None

    def run_validation(self, data: Any = empty) -> Any:
        if self.blank_checked and isinstance(data, str) and not data.strip():
            return "" if self.trim_whitespace else data
        return super().run_validation(data)


def name_field() -> serializers.CharField:
    """A season's or an Event's name: 1-100 characters (400 invalid past them), not all
    blank (400 bad_name, the service's)."""
    return ServiceCheckedText(max_length=100, least=1, pattern=r"\S")


def notes_field(**kwargs: Any) -> serializers.CharField:
    """An Event's notes: at most NOTES_LENGTH characters once the spaces at their ends
    are cut (400 bad_notes, the service's)."""
    return ServiceCheckedText(allow_blank=True, trim_whitespace=False, most=NOTES_LENGTH,
                              **kwargs)


# -- seasons -----------------------------------------------------------------------------


class CreatedByField(serializers.SlugRelatedField):
    """The username of whoever made it; null once that account is gone."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="username", read_only=True, allow_null=True,
                         help_text="Who made it (a username); null once that account is "
                                   "gone.", **kwargs)


@extend_schema_field({"type": "string"})
class UsernameField(serializers.SlugRelatedField):
    """A user read as their username."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="username", read_only=True, **kwargs)


def organizers_field() -> serializers.ManyRelatedField:
    return serializers.ManyRelatedField(child_relation=UsernameField(), read_only=True,
                                        help_text="The organizers' usernames.")


class SeasonSerializer(ModelSerializer):
    organizers = organizers_field()
    scoring = ObjectField(read_only=True)

    class Meta:
        model = Season
        fields = ["id", "name", "game", "starts_on", "ends_on", "scoring", "organizers",
                  "created_at"]
        read_only_fields = fields


class SeasonCreateSerializer(Serializer):
    name = name_field()
    game = serializers.CharField(max_length=64)
    starts_on = serializers.DateField(default=None, allow_null=True)
    ends_on = serializers.DateField(default=None, allow_null=True)
    scoring = serializers.DictField(default=None, allow_null=True,
                                   help_text='Season points per match: {"win": 3, '
                                             '"draw": 1, "loss": 0} (the default).')
    idempotency_key = serializers.CharField(
        source="key", max_length=KEY_LENGTH, required=False, allow_null=True,
        help_text="A retry with the same key answers with the season the first request made.")


class SeasonStandingSerializer(ModelSerializer):
    class Meta:
        model = SeasonStanding
        fields = ["rank", "name", "player", "team", "event", "points", "events", "wins",
                  "draws", "losses"]
        read_only_fields = fields
        extra_kwargs = {"event": {"help_text": "A bot's row: the Event whose seat it filled "
                                               "(null for a player or a team)."}}


# -- Events ------------------------------------------------------------------------------


class EntrantSerializer(ModelSerializer):
    """An entrant; a secret pick (a constructed deck) reads "hidden" but for the entrants
    in the context's `readable_entrants` (see `events.picks_readable`)."""

    picks = serializers.SerializerMethodField(
        help_text="What it brings to its seats, {option: value} (see the picks action); a "
                  "constructed deck reads \"hidden\" but for the entrant's people and the "
                  "Event's organizers who hold no entry in it, until the Event is over.")

    class Meta:
        model = Entrant
        fields = ["key", "name", "player", "team", "bot", "seed", "withdrawn", "picks",
                  "plays"]
        read_only_fields = fields
        extra_kwargs = {"plays": {"help_text": "A team's: the member chosen to sit its "
                                               "matches (the player action); null: its first "
                                               "member by id."}}

    def get_picks(self, entrant: Entrant) -> dict[str, Any]:
        readable = self.context.get("readable_entrants") or set()
        return shown_picks(entrant.event.game, entrant.picks or {}, entrant.key in readable)


class LeagueEventListSerializer(serializers.ListSerializer):
    """A page of Events: whose secret match options the caller reads is asked once."""

    def to_representation(self, data: Any) -> list[Any]:
        found = list(data.all() if hasattr(data, "all") else data)
        user = getattr(self.context.get("request"), "user", None)
        self.context["readable"] = match_options_readable(found, user)
        return super().to_representation(found)


class LeagueEventSerializer(ModelSerializer):
    """An Event as it stands: its status, format, options and entrants. A game's secret
    match options (constructed decks) read "hidden" but for those who organize the Event,
    until it is finished."""

    organizers = organizers_field()
    created_by = CreatedByField()
    entrants = serializers.SerializerMethodField()
    status = EventStatusField(read_only=True)
    format_options = ObjectField(read_only=True)
    match_options = serializers.SerializerMethodField()
    options_gone = serializers.SerializerMethodField(
        help_text="What its match options name that its game no longer has (taken out of "
                  "its card set), quoted, as its organizer page says: its next matches "
                  "cannot be made (409 rules_changed; a result that would make one waits "
                  "unrecorded) until the card set has it again, or, before the start, its "
                  "match options are changed. Empty when there is none, once the Event is "
                  "over, and for a game this site plays no more; a secret option (a "
                  "constructed deck) counts only for those who may read it.")

    class Meta:
        model = Event
        fields = ["id", "season", "name", "game", "format", "format_options", "match_options",
                  "options_gone", "status", "seq", "turn_deadline_minutes", "deadline_policy",
                  "deadline_bot", "hold_rounds", "open_entry", "starts_at", "notes",
                  "organizers", "created_by", "created_at", "updated_at", "entrants"]
        read_only_fields = fields
        list_serializer_class = LeagueEventListSerializer

    @extend_schema_field(EntrantSerializer(many=True))
    def get_entrants(self, event: Event) -> list[Any]:
        rows = list(event.entrants.all())
        user = getattr(self.context.get("request"), "user", None)
        context = {"readable_entrants": readable_entrants(event, user, rows, self.context)}
        return list(EntrantSerializer(rows, many=True, context=context).data)

    def _reads_options(self, event: Event) -> bool:
        """Whether the caller reads the Event's secret match options (asked once an
        Event: its match options and what they name gone both need it)."""
        readable = self.context.get("readable")
        if readable is not None:
            return event.pk in readable
        asked = self.context.setdefault("reads_options", {})
        if event.pk not in asked:
            user = getattr(self.context.get("request"), "user", None)
            asked[event.pk] = sees_match_options(event, user)
        return bool(asked[event.pk])

    def get_match_options(self, event: Event) -> dict[str, Any]:
        options = dict(event.match_options or {})
        if self._reads_options(event):
            return options
        return masked_options(event.game, options, set())

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_options_gone(self, event: Event) -> list[str]:
        return options_gone(event, readable=self._reads_options(event))


class LeagueEventCreateSerializer(Serializer):
    name = name_field()
    game = serializers.CharField(max_length=64)
    format = serializers.CharField(
        max_length=32, help_text="single_elimination, double_elimination, round_robin, "
                                 "swiss, heats or multistage; showdown_series for "
                                 "superstar_showdown alone (400 format_not_for_game for "
                                 "another game), with the match option `event` (400 "
                                 "series_needs_event).")
    season = PrimaryKeyRelatedField(queryset=Season.objects.all(), default=None,
                                                allow_null=True)
    format_options = serializers.DictField(default=dict)
    match_options = serializers.DictField(default=dict)
    turn_deadline_minutes = serializers.IntegerField(default=None, allow_null=True)
    deadline_policy = serializers.CharField(default=Event.DeadlinePolicy.BOT,
                                            help_text="bot or forfeit.")
    deadline_bot = serializers.CharField(default="heuristic", max_length=64)
    hold_rounds = serializers.BooleanField(
        default=False, help_text="Wait for the organizer (release, or pairings by hand) "
                                 "before each new round's matches are made.")
    open_entry = serializers.BooleanField(
        default=False, help_text="Signed-in players enter themselves (and leave) while the "
                                 "Event is a draft; not a Superstar Showdown Event.")
    starts_at = serializers.DateTimeField(
        default=None, allow_null=True, help_text="When the organizers say it starts "
                                                 "(ISO 8601; without an offset, UTC); "
                                                 "over an hour ago is 400 starts_in_past.")
    notes = notes_field(
        default="",
        help_text="What the organizers tell its players (where to meet, what to bring): "
                  "plain text, at most 1000 characters (400 bad_notes).")
    idempotency_key = serializers.CharField(
        source="key", max_length=KEY_LENGTH, required=False, allow_null=True,
        help_text="A retry with the same key answers with the Event the first request made.")


class EventQuerySerializer(Serializer):
    """Filters of the Event list."""

    season = serializers.IntegerField(required=False, min_value=1, max_value=LARGEST_ID,
                                      help_text="Only this season's Events.")
    game = game_filter()
    status = EventStatusField(required=False)
    # allow_null: a boolean left out of a query string would otherwise read as false.
    open_entry = serializers.BooleanField(
        required=False, allow_null=True, help_text="Only Events that take (true) or do not "
                                                   "take (false) entries from players "
                                                   "themselves.")


PICKS_HELP = ("What the entrant brings to each of its seats, {option: value}: The "
              "Supershow's {\"competitors\": key} or Superstar Showdown's "
              "{\"superstars\": key}, one of the game's keys; where the Event's matches "
              "let a seat pick (not a Birdcage, not a Superstar Showdown Event).")


class EventWriteSerializer(Serializer):
    """What every organizer action on an Event may send: the Event's seq as last read."""

    expected_seq = serializers.IntegerField(
        min_value=0, required=False, allow_null=True,
        help_text="The Event's `seq` as the client last read it: the action is refused "
                  "(409 stale_seq) if an organizer's action (or a player's own entry or "
                  "withdrawal) was written since, or a drawn match was replaced by a "
                  "replay (a pairing then names another match); results and matches the "
                  "Event writes otherwise, and entrants' picks, do not count. A client "
                  "that sends it never applies an action twice, nor on top of another "
                  "organizer's change.")


class StartSerializer(EventWriteSerializer):
    """A start, with the field the organizer saw."""

    expected_entrants = serializers.IntegerField(
        min_value=0, required=False, allow_null=True,
        help_text="How many entrants the organizer was shown would start: the start is "
                  "refused (409 entrants_changed, its detail saying how many there are "
                  "now) if players entered or left since.")


class EntrantCreateSerializer(EventWriteSerializer):
    """Exactly one of player (a username), team (a team name) or bot (a bot name)."""

    player = serializers.CharField(default=None, allow_null=True, max_length=150)
    team = serializers.CharField(default=None, allow_null=True, max_length=64)
    bot = serializers.CharField(default=None, allow_null=True, max_length=64)
    name = serializers.CharField(default=None, allow_null=True, max_length=100,
                                 help_text="The name shown in the bracket (default: the "
                                           "player's, team's or bot's).")
    picks = serializers.DictField(default=None, allow_null=True, help_text=PICKS_HELP)
    idempotency_key = serializers.CharField(
        source="key", max_length=KEY_LENGTH, required=False, allow_null=True,
        help_text="A retry with the same key (and the same entrant, picks and name) answers "
                  "with the entrant the first request added; without one, each request "
                  "adds one (two of the same bot are two entrants).")


class PicksSerializer(EventWriteSerializer):
    picks = serializers.DictField(allow_null=True, help_text=PICKS_HELP)


class TeamPlayerSerializer(EventWriteSerializer):
    player = serializers.CharField(max_length=150,
                                   help_text="The username of the team member who plays.")


class EnterSerializer(EventWriteSerializer):
    """A player entering themselves, with what they bring to their seats."""

    picks = serializers.DictField(default=None, allow_null=True, help_text=PICKS_HELP)
    idempotency_key = serializers.CharField(
        source="key", max_length=KEY_LENGTH, required=False, allow_null=True,
        help_text="A retry with the same key (and the same picks) answers with the entry "
                  "the first request made; without one, a second entry is 409 "
                  "entrant_twice.")


class EventDetailsSerializer(EventWriteSerializer):
    """When the Event starts and its notes; what is left out is kept."""

    starts_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="When it starts (ISO 8601; without an "
                                                   "offset, UTC); null: not said. Before "
                                                   "the start, a new time over an hour ago "
                                                   "is 400 starts_in_past.")
    notes = notes_field(
        required=False,
        help_text="Plain text for its players, at most 1000 characters (400 bad_notes).")


class EventSeasonSerializer(EventWriteSerializer):
    """The season the Event is filed under."""

    season = PrimaryKeyRelatedField(
        queryset=Season.objects.all(), allow_null=True,
        help_text="A season of the Event's game (400 wrong_game) that the caller organizes "
                  "(403 not_organizer); null: no season, which staff alone choose.")


class EventSettingsSerializer(EventWriteSerializer):
    """The Event's format, options and turn deadline before the start; what is left out
    is kept."""

    format = serializers.CharField(
        max_length=32, required=False,
        help_text="single_elimination, double_elimination, round_robin, swiss, heats or "
                  "multistage (another format takes its own default options unless "
                  "`format_options` are sent); showdown_series for superstar_showdown "
                  "alone (400 format_not_for_game), with the match option `event` (400 "
                  "series_needs_event).")
    format_options = serializers.DictField(
        required=False, allow_null=True,
        help_text="The format's options, whole, as at the creation: what they leave out "
                  "takes its default.")
    match_options = serializers.DictField(
        required=False, allow_null=True,
        help_text="Every match's options, whole, as at the creation.")
    turn_deadline_minutes = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="1 to 43200 (400 bad_deadline); null: no deadline.")
    deadline_policy = serializers.CharField(required=False, max_length=16,
                                            help_text="bot or forfeit.")
    deadline_bot = serializers.CharField(required=False, max_length=64)


class OpenEntrySerializer(EventWriteSerializer):
    open_entry = serializers.BooleanField(
        help_text="true: signed-in players enter themselves until the start; false: only "
                  "the organizers enter them.")


@extend_schema_field({
    "type": "array", "minItems": 2, "nullable": True,
    "items": {"type": "object", "properties": {
        "match": {"type": "string", "nullable": True},
        "stipulation": {"type": "string", "nullable": True}}}})
class ComposedMatchesField(serializers.JSONField):
    """A composed Event's Matches, read as they come: the service checks each one and
    answers with its own codes (unknown_match_card, unknown_stipulation)."""


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": 3, "nullable": True})
class PerTeamField(serializers.JSONField):
    """Superstars a team sends into each Match; the service checks it
    (bad_superstars_per_team)."""


class ShowdownEventCreateSerializer(Serializer):
    """A Superstar Showdown Event: a preset, or Matches composed one by one (the service
    checks them, answering with its own codes)."""

    name = serializers.CharField(max_length=100, default="", allow_blank=True,
                                 help_text="Default: the preset's title.")
    season = PrimaryKeyRelatedField(queryset=Season.objects.all(), default=None,
                                                allow_null=True)
    preset = serializers.CharField(default=None, allow_null=True, max_length=32,
                                   help_text="full_card, tag_team_series or "
                                             "ultimate_endurance; or leave it out and "
                                             "compose `matches`.")
    matches = ComposedMatchesField(
        default=None, allow_null=True,
        help_text='At least two: [{"match": "tag_team" or null, "stipulation": "hardcore" '
                  'or null}, ...]; null is drawn at random.')
    superstars_per_team = PerTeamField(default=None, allow_null=True,
                                       help_text="1-3 (composed Events; default 3).")
    sides = EntrantCreateSerializer(many=True, default=None, allow_null=True,
                                    help_text="Red's and Blue's entrant; with both given "
                                              "the Event starts at once.")
    match_options = serializers.DictField(default=dict,
                                          help_text='Other match options, e.g. '
                                                    '{"round_limit": 20}.')
    turn_deadline_minutes = serializers.IntegerField(default=None, allow_null=True)
    deadline_policy = serializers.CharField(default=Event.DeadlinePolicy.BOT,
                                            help_text="bot or forfeit.")
    deadline_bot = serializers.CharField(default="heuristic", max_length=64)
    idempotency_key = serializers.CharField(
        source="key", max_length=KEY_LENGTH, required=False, allow_null=True,
        help_text="A retry with the same key answers with the Event the first request made.")

    def validate_sides(self, value: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        """Only the names given (the service refuses anything but one of the three)."""
        if any(side is None for side in value or []):
            raise serializers.ValidationError("A side is an entrant, not null.")
        return [{k: v for k, v in side.items() if v is not None} for side in value or []]


class SeedSerializer(EventWriteSerializer):
    method = serializers.CharField(help_text="rating, hand or random.")
    order = serializers.ListField(child=serializers.CharField(), default=None, allow_null=True,
                                  help_text="Every entrant key once, best seed first "
                                            "(method hand).")


class SeedOrderSerializer(Serializer):
    order = serializers.ListField(child=serializers.CharField(), read_only=True)


class PairingsSerializer(EventWriteSerializer):
    pairings = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(allow_null=True)),
        help_text='The next round: [["e1", "e4"], ["e2", "e3"]]; a lone entrant has a bye.')


class SeatActionSerializer(EventWriteSerializer):
    """A pairing and one of its entrants (forfeit)."""

    pairing = serializers.CharField(max_length=32)
    entrant = serializers.CharField(max_length=16)


class SeatToBotSerializer(SeatActionSerializer):
    bot = serializers.CharField(default=None, allow_null=True, max_length=64,
                                help_text="Default: the Event's deadline bot.")


class CorrectionSerializer(EventWriteSerializer):
    pairing = serializers.CharField(max_length=32)
    placements = serializers.DictField(child=serializers.IntegerField(),
                                       help_text='A place per entrant: {"e1": 2, "e2": 1}. All placed '
                                                 'last ({"e1": 2, "e2": 2}): nobody won, '
                                                 'a loss for each; all placed 1: a draw.')


class StandingSerializer(ModelSerializer):
    entrant = serializers.CharField(source="entrant.key", read_only=True)
    name = serializers.CharField(source="entrant.name", read_only=True)
    withdrawn = serializers.BooleanField(source="entrant.withdrawn", read_only=True)
    tiebreaks = NumbersField(
        read_only=True,
        help_text="Each tiebreak's value by name (figure:NAME, diff:NAME for a game's "
                  "figures); head-to-head taken again among those it left level adds each "
                  "further pass's points, head_to_head:2, head_to_head:3, ...")

    class Meta:
        model = Standing
        fields = ["rank", "entrant", "name", "points", "wins", "draws", "losses", "tiebreaks",
                  "withdrawn"]
        read_only_fields = fields


class EventRecordSerializer(ModelSerializer):
    # None for what the league does on its own (a match made, a result recorded).
    actor = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True,
        help_text="Who did it; null for what the league records on its own.")
    payload = serializers.SerializerMethodField(
        help_text="What was decided; an entrant's constructed deck reads \"hidden\" as in "
                  "its `picks`, a settings change's secret match options as the "
                  "Event's own `match_options`, an entry of a closed account under "
                  "the name \"Closed account\", and the organizers an "
                  "`organizers_changed` record added and removed by their usernames "
                  "(\"Closed account\" once closed, null once deleted).")

    class Meta:
        model = EventRecord
        fields = ["seq", "kind", "payload", "actor", "created_at"]
        read_only_fields = fields

    def get_payload(self, record: EventRecord) -> dict[str, Any]:
        return shown_record(self.context["game"], record.kind, record.payload,
                            self.context.get("readable_entrants") or set(),
                            self.context.get("names"),
                            bool(self.context.get("options_readable")),
                            self.context.get("users"))


# -- the bracket -------------------------------------------------------------------------


class BracketSlotSerializer(Serializer):
    entrant = serializers.CharField(allow_null=True, read_only=True,
                                    help_text="The entrant key; null while not yet known "
                                              "or for a bye (`state` tells which).")
    name = serializers.CharField(allow_null=True, read_only=True)
    state = ChoiceField(
        choices=SLOT_STATES, read_only=True,
        help_text='"filled": `entrant` sits here. "empty": nobody will, a bye (a seed beyond '
                  "the field, a round robin's or Swiss bye, the winner of a match both sides "
                  'forfeited or nobody reached, the loser of a bye). "pending": not known '
                  "yet: an earlier match still decides who comes (`source`). A slot whose "
                  "entrant is known already (the winner of a bye, of a walkover or of a "
                  "decided match) is filled while the pairing's other slot is pending.")
    source = serializers.CharField(read_only=True, help_text='Where the slot comes from: '
                                                             '"seed 3", "winner of W1-2".')
    place = serializers.IntegerField(allow_null=True, read_only=True,
                                     help_text="Its place in the recorded result.")
    outcome = ChoiceField(
        choices=OUTCOMES, allow_null=True, read_only=True,
        help_text="What its place counts as: a win when its side alone holds first place "
                  "(both seats of a tag team or handicap pair that won, each placed "
                  "first), a draw when other sides share it, a loss otherwise; null while "
                  "no result is recorded (a walkover's winner is named by `walkover`).")


class BracketPairingSerializer(Serializer):
    """One pairing of an Event, played, playing or still to be decided."""

    pairing = serializers.CharField(read_only=True)
    round = serializers.IntegerField(read_only=True)
    stage = serializers.CharField(read_only=True)
    label = serializers.CharField(read_only=True)
    slots = BracketSlotSerializer(many=True, read_only=True)
    match = serializers.IntegerField(allow_null=True, read_only=True)
    match_status = ChoiceField(choices=Match.Status.choices, allow_null=True,
                                           read_only=True)
    result = serializers.DictField(child=serializers.IntegerField(), allow_null=True,
                                   read_only=True, help_text="Place by entrant key, once "
                                                             "recorded (corrections applied).")
    forfeit = serializers.CharField(allow_null=True, read_only=True,
                                    help_text="The entrant whose forfeit ended the match, "
                                              "else the first of `forfeits`; null if none.")
    forfeited = serializers.ListField(
        child=serializers.CharField(), read_only=True,
        help_text="The entrants that forfeited together (late at a decision made at once) "
                  "when several did; where they were all of them, nobody won (`no_winner`). "
                  "Empty otherwise.")
    no_winner = serializers.BooleanField(
        read_only=True,
        help_text="Played and ended with nobody first: every entrant forfeited (all late "
                  "together), counted as a loss for each, as `walkover_no_winner` is.")
    forfeits = serializers.ListField(
        child=serializers.CharField(), read_only=True,
        help_text="The entrants a forfeit put out while the others played on (a Royal "
                  "Rumble pod, The Supershow's Elimination matches), in order; empty if "
                  "none.")
    walkover = serializers.CharField(
        allow_null=True, read_only=True,
        help_text="Unplayed because an entrant withdrew: the entrant it counts as a win "
                  "for, as the standings do (still so when that one withdrew later too); "
                  "null otherwise, and where it counts as a loss for both "
                  "(`walkover_no_winner`).")
    walkover_no_winner = serializers.BooleanField(
        read_only=True,
        help_text="Decided by withdrawals with no winner: unplayed, and counted as a loss "
                  "for both, as the standings do (a round robin played round by round, "
                  "say, whose walkover's winner withdrew before its round came); `walkover` "
                  "is then null. False otherwise, a walkover with a winner included.")
    decided_by = serializers.CharField(
        allow_null=True, read_only=True,
        help_text='"seed" when the pairing was drawn again after its last replay and the '
                  "better seed went through, or when a heats pod that withdrawals left with "
                  "fewer entrants than the game seats was settled by seed, with no match; "
                  "null otherwise.")
    held = serializers.BooleanField(read_only=True, help_text="Ready, but its round waits "
                                                              "for the organizer's release.")


def bracket_of(event: Event, done: Replayed | None = None) -> list[dict[str, Any]]:
    """Every pairing the format knows (future slots with their sources), each with its
    match and recorded result; empty before the start. `done`: the Event replayed, where
    the caller has it (the API's poll: the replay kept by the Event's seq); else the one
    kept by the seq its row holds now (the caller's row may be older than its matches)."""
    done = done if done is not None else replay_to_read(Event.objects.get(pk=event.pk))
    if done.state is None:
        return []
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    given = walkovers(done)
    links = {m.pairing: m for m in EventMatch.objects.filter(event=event).select_related("match")}
    known = formats.get_format(event.format).pairings(done.state)
    held = {p.id for p in held_pairings(event, done)}
    # The entrants the game plays as one side (a tag team pair) win and lose together.
    sides = {pid: result_sides(event, m.entrants, m.seats) for pid, m in links.items()}
    # A slot the format gives only once its pairing's other one is known too, named where
    # the diagram names it already: who a bye, a walkover or a decided match sends there.
    ended = {pid: winner for pid, winner in given.items() if pid not in done.results
             and (pid not in links or links[pid].match.status == "finished")}
    shown = svg.known_slots(known, {pid: r["placements"] for pid, r in done.results.items()},
                            ended, sides)
    rows = [_pairing_row(p.id, p.round, p.stage, p.label,
                         [slot if slot is not None else seen for slot, seen
                          in zip_longest(p.slots, shown.get(p.id, ())[:len(p.slots)])],
                         list(p.sources),
                         links.get(p.id), done.results.get(p.id), names, given,
                         sides.get(p.id, {}), p.waiting)
            | {"held": p.id in held} for p in known]
    seen = {p.id for p in known}
    rows += [_pairing_row(m.pairing, m.round, m.stage, m.label, list(m.entrants), [], m,
                          done.results.get(m.pairing), names, given, sides[pid])
             | {"held": False}
             for pid, m in links.items() if pid not in seen]
    return rows


def _pairing_row(pid: str, round_: int, stage: str, label: str, slots: list[str | None],
                 sources: list[str], link: EventMatch | None, result: dict[str, Any] | None,
                 names: dict[str, str], given: dict[str, str | None],
                 sides: dict[str, int], waiting: tuple[bool, ...] = ()) -> dict[str, Any]:
    places = result["placements"] if result else {}
    outcomes = formats.outcomes(places, sides)
    # (the winner the format counts, not the one still in: both may have withdrawn since)
    decided = pid in given and result is None and (link is None
                                                   or link.match.status == "finished")
    walkover = given[pid] if decided else None
    return {
        "pairing": pid, "round": round_, "stage": stage, "label": label,
        "slots": [{"entrant": key, "name": names.get(key) if key else None,
                   "state": "filled" if key else "pending" if waits else "empty",
                   "source": str(source or ""), "place": places.get(key) if key else None,
                   "outcome": outcomes.get(key) if key else None}
                  for key, source, waits in zip_longest(slots, sources[:len(slots)],
                                                        waiting[:len(slots)])],
        "match": link.match_id if link else None,
        "match_status": link.match.status if link else None,
        "result": dict(places) if result else None,
        "forfeit": result.get("forfeit") if result else None,
        "forfeits": list(result.get("forfeits") or ()) if result else [],
        "forfeited": list(result.get("forfeited") or ()) if result else [],
        "no_winner": bool(places) and 1 not in places.values(),
        "walkover": walkover,
        "walkover_no_winner": decided and walkover is None,
        "decided_by": result.get("decided_by") if result else None,
    }


# -- players and their matches -----------------------------------------------------------


class PlayerSerializer(ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Player
        fields = ["id", "username", "display_name", "created_at"]
        read_only_fields = fields


class PlayerQuerySerializer(Serializer):
    search = text_filter(help_text="Part of a display name or username.")


class PlayedMatchSerializer(LabelledSeatsMixin, ModelSerializer):
    """One match of a player's history, seen from that player's seat."""

    seats = SeatSerializer(many=True, read_only=True)
    seat = serializers.SerializerMethodField()
    outcome = serializers.SerializerMethodField()
    event = serializers.SerializerMethodField()
    result = ResultField(read_only=True, allow_null=True)

    class Meta:
        model = Match
        fields = ["id", "game", "status", "created_at", "seats", "seat", "result", "outcome",
                  "event"]
        read_only_fields = fields
        list_serializer_class = LabelledSeatsListSerializer

    def _seat(self, match: Match) -> int | None:
        return history.seat_of(match, self.context["user_id"])

    def get_seat(self, match: Match) -> int | None:
        """The player's seat (the first, should they hold several; or the one a bot took
        over from them)."""
        return self._seat(match)

    @extend_schema_field(serializers.ChoiceField(choices=OUTCOMES, allow_null=True))
    def get_outcome(self, match: Match) -> str | None:
        """win, draw or loss for the player, as the match's Event recorded it (a team's
        win is a win; a corrected result as corrected), else as its result says (first
        place is a win unless it was drawn); null until the match is over."""
        seat = self._seat(match)
        finishes = self.context.get("finishes") or history.Finishes([match])
        finish = finishes.of(match, seat) if seat is not None else None
        return finish.outcome if finish is not None else None

    @extend_schema_field(MatchEventLinkSerializer(allow_null=True))
    def get_event(self, match: Match) -> dict[str, Any] | None:
        return event_link(match)


class MatchHistoryQuerySerializer(Serializer):
    game = game_filter()
    season = serializers.IntegerField(required=False, min_value=1, max_value=LARGEST_ID,
                                      help_text="Only matches of this season's Events.")
    opponent = text_filter(help_text="Only matches where this user held another seat (or "
                                     "had a bot take it over).")
    result = ChoiceField(choices=OUTCOMES, required=False,
                                     help_text="Only finished matches with this outcome for "
                                               "the player.")


class RatingSerializer(ModelSerializer):
    class Meta:
        model = Rating
        fields = ["game", "mu", "sigma", "ordinal", "matches"]
        read_only_fields = fields


class RatingRowSerializer(ModelSerializer):
    """One row of a game's ratings table."""

    place = serializers.IntegerField(read_only=True, help_text=(
        "The player's place in the game's whole table (equal ratings share one), "
        "whatever `search` leaves out."))
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Rating
        fields = ["place", "player", "game", "ordinal", "mu", "sigma", "matches"]
        read_only_fields = fields


class RatingTableQuerySerializer(Serializer):
    game = game_filter(help_text=(
        "Only this game's table (a key of /api/games/; another is 400 unknown_game); "
        "without it, every game's, one after the other in the order of their keys."))
    search = text_filter(max_length=64, help_text="Part of a display name or username.")


class RoundScoreSerializer(ModelSerializer):
    class Meta:
        model = RoundScore
        fields = ["match", "game", "seat", "round", "points", "player"]
        read_only_fields = fields


class RankingTotalSerializer(ModelSerializer):
    superstars = NamesField(read_only=True)

    class Meta:
        model = RankingTotal
        fields = ["match", "team", "name", "entrant", "superstars", "match_points",
                  "bonus_points", "total", "matches_won", "winner"]
        read_only_fields = fields


class RankingPointsSerializer(ModelSerializer):
    class Meta:
        model = RankingPoints
        fields = ["match", "number", "team", "card", "stipulation", "status", "outcome",
                  "points", "bonus_points"]
        read_only_fields = fields


class RankingSerializer(Serializer):
    """A Superstar Showdown Event's Ranking Points: each team's totals, each Match's points."""

    teams = RankingTotalSerializer(many=True, read_only=True)
    matches = RankingPointsSerializer(many=True, read_only=True)


class RoundScoreQuerySerializer(Serializer):
    match = serializers.IntegerField(required=False, min_value=1, max_value=LARGEST_ID)
    player = serializers.IntegerField(required=False, min_value=1, max_value=LARGEST_ID)
    game = game_filter()


class RatingHistorySerializer(ModelSerializer):
    class Meta:
        model = RatingHistory
        fields = ["game", "match", "mu", "sigma", "ordinal"]
        read_only_fields = fields


class RatingHistoryQuerySerializer(Serializer):
    game = game_filter()


# -- teams -------------------------------------------------------------------------------


class TeamSerializer(ModelSerializer):
    members = PlayerSerializer(many=True, read_only=True)
    created_by = CreatedByField()

    class Meta:
        model = Team
        fields = ["id", "name", "members", "created_by", "created_at"]
        read_only_fields = fields


class TeamCreateSerializer(Serializer):
    # 1-64 characters once the spaces at its ends are cut, not all blank (400 bad_name,
    # the service's); DRF refuses one over 64 itself.
    name = ServiceCheckedText(max_length=64, least=1, pattern=r"\S")
    members = serializers.ListField(child=serializers.CharField(max_length=150),
                                    help_text="Usernames of the members (at least one).")
    idempotency_key = serializers.CharField(
        source="key", max_length=KEY_LENGTH, required=False, allow_null=True,
        help_text="A retry with the same key answers with the team the first request made.")


# -- simulation jobs ---------------------------------------------------------------------

class SimulationCreateSerializer(Serializer):
    game = serializers.CharField(max_length=64, help_text="The game's key.")
    bots = serializers.ListField(child=serializers.CharField(max_length=64),
                                 help_text="One bot per seat, in seat order.")
    matches = serializers.IntegerField(help_text="How many matches (1-1,000,000).")
    options = ObjectField(required=False, default=dict, help_text="The game's options.")
    balance = serializers.BooleanField(
        required=False, default=False,
        help_text="Sample each seat's Superstar, Competitor or Legend per match and rate "
                  "each one (Super Showdown: Hero and Villain).")
    logs = serializers.BooleanField(required=False, default=False,
                                    help_text="Keep every match's event log.")
    chunk = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="Matches per task (1-10,000); null: 50, or enough to keep a job of over "
                  "500,000 matches within 10,000 tasks.")
    seed = serializers.IntegerField(required=False, allow_null=True, default=None,
                                    help_text="The job's seed; null: a random one.")
    idempotency_key = serializers.CharField(
        source="key", max_length=KEY_LENGTH, required=False, allow_null=True,
        help_text="A retry with the same key answers with the job the first request made.")


class SimulationSeatSerializer(Serializer):
    seat = serializers.IntegerField()
    bot = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField(
        help_text="First places the seat's side held alone: a team's win (a tag team or "
                  "handicap pair) is a win for each of its seats.")
    draws = serializers.IntegerField(help_text="First places shared with other sides.")
    points = serializers.FloatField(
        help_text="1 a win (for every seat of the winning side), 1/k a first place shared "
                  "by k sides.")
    rate = serializers.FloatField(help_text="points / games.")
    low = serializers.FloatField(help_text="The 95% Wilson interval's lower end.")
    high = serializers.FloatField(help_text="The 95% Wilson interval's upper end.")


class SimulationEntitySerializer(Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField(help_text="superstar, competitor, legend or role.")
    games = serializers.IntegerField()
    points = serializers.FloatField()
    rate = serializers.FloatField()
    low = serializers.FloatField()
    high = serializers.FloatField()


class SimulationFirstPlayerSerializer(Serializer):
    rate = serializers.FloatField(help_text="The points rate of the seat of the first decision.")
    low = serializers.FloatField()
    high = serializers.FloatField()
    fair = serializers.FloatField(help_text="1 / sides (the seats, a team's counted once).")
    games = serializers.IntegerField(
        required=False, help_text="Matches whose first decision was one seat's; 0 when every "
                                  "seat makes the opening decision at once (then the rate "
                                  "means nothing).")


class SimulationLengthSerializer(Serializer):
    mean = serializers.FloatField(help_text="Engine events per match.")
    min = serializers.IntegerField()
    max = serializers.IntegerField()
    histogram = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="[inclusive upper bound, matches] per bin.")


class SimulationSummarySerializer(Serializer):
    game = serializers.CharField()
    bots = serializers.ListField(child=serializers.CharField())
    options = ObjectField()
    balance = serializers.BooleanField()
    matches = serializers.IntegerField(help_text="Matches done.")
    planned = serializers.IntegerField()
    by_seat = SimulationSeatSerializer(many=True)
    by_entity = SimulationEntitySerializer(many=True, help_text="Empty unless a balance run.")
    first_player = SimulationFirstPlayerSerializer()
    length = SimulationLengthSerializer()
    seconds = serializers.FloatField(help_text="CPU seconds of the finished chunks.")
    matches_per_second = serializers.FloatField(help_text="Per core.")


class SimulationProgressSerializer(Serializer):
    id = serializers.IntegerField()
    status = ChoiceField(choices=SimulationJob.Status.choices)
    finished = serializers.BooleanField(help_text="Nothing more will run.")
    matches = serializers.IntegerField(help_text="Matches done.")
    planned = serializers.IntegerField()
    percent = serializers.IntegerField()
    chunks = serializers.IntegerField()
    chunks_done = serializers.IntegerField()
    matches_per_second = serializers.FloatField(help_text="Wall clock, since the start.")
    error = serializers.CharField(allow_blank=True, help_text="Why it failed; empty unless "
                                                              "it did.")


class SimulationJobSerializer(ModelSerializer):
    status = ChoiceField(choices=SimulationJob.Status.choices, read_only=True)
    bots = NamesField(read_only=True)
    options = ObjectField(read_only=True)
    matches = serializers.IntegerField(source="done_matches", read_only=True)
    chunks = serializers.IntegerField(source="chunk_count", read_only=True)
    created_by = CreatedByField()
    summary = SimulationSummarySerializer(read_only=True)

    class Meta:
        model = SimulationJob
        fields = ["id", "game", "bots", "options", "balance", "logs", "seed", "status",
                  "planned", "matches", "chunk_size", "chunks", "done_chunks", "error",
                  "created_by", "created_at", "started_at", "finished_at", "summary"]
        read_only_fields = fields

    def to_representation(self, instance: SimulationJob) -> dict[str, Any]:
        """`options` as the caller may read them (`simulation.shown_options`)."""
        data = super().to_representation(instance)
        request = self.context.get("request")
        data["options"] = simulation.shown_options(instance, getattr(request, "user", None))
        return data


class SimulationJobRowSerializer(SimulationJobSerializer):
    """A job in the list: everything but its summary (read the job for that)."""

    class Meta(SimulationJobSerializer.Meta):
        fields = [f for f in SimulationJobSerializer.Meta.fields if f != "summary"]
        read_only_fields = fields


# -- a player's own data -----------------------------------------------------------------

class AccountDataAccountSerializer(Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    player = serializers.IntegerField(help_text="The league Player's id.")
    email = serializers.CharField(allow_blank=True, help_text="Empty: none.")
    email_pending = serializers.CharField(allow_blank=True, help_text="Empty: none.")
    turn_mail = serializers.BooleanField()
    event_mail = serializers.BooleanField()
    time_zone = serializers.CharField(help_text="Of the mails' times.")
    joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)


class AccountDataEntrySerializer(ModelSerializer):
    """An Event entry of the player's, alone (`team` null) or in a team."""

    event_name = serializers.CharField(source="event.name")
    team = serializers.CharField(source="team.name", allow_null=True, default=None)
    picks = ObjectField(help_text="What the entry brought to its seats.")

    class Meta:
        model = Entrant
        fields = ["event", "event_name", "key", "name", "team", "withdrawn", "picks"]
        read_only_fields = fields


class AccountDataTeamSerializer(ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name"]
        read_only_fields = fields


class AccountDataDepartureSerializer(ModelSerializer):
    """An open match the player left, or whose invitation they declined, before it
    started (kept so that a leave sent again is answered as the first was)."""

    class Meta:
        model = Departure
        fields = ["match", "seat", "outcome", "at"]
        read_only_fields = fields


class AccountDataSerializer(Serializer):
    """What the site keeps about a player, for them to take away
    (league.account_data)."""

    format = serializers.CharField(help_text="showdown-league/account-data")
    version = serializers.IntegerField()
    made_at = serializers.DateTimeField()
    account = AccountDataAccountSerializer()
    ratings = RatingSerializer(many=True)
    rating_history = RatingHistorySerializer(many=True)
    matches = PlayedMatchSerializer(many=True, help_text="Every match the player sat in, "
                                                         "newest first, as their match "
                                                         "history shows it.")
    entries = AccountDataEntrySerializer(many=True)
    teams = AccountDataTeamSerializer(many=True)
    departures = AccountDataDepartureSerializer(many=True, help_text="Open matches left or "
                                                "declined, by the API's seat index (from 0).")
