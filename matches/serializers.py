"""API bodies: what clients send (validated) and what they get back (documented)."""

from __future__ import annotations

from typing import Any

from django.core.validators import MaxLengthValidator, MinLengthValidator, RegexValidator
from django.db.models import prefetch_related_objects
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api_json import LARGEST_INT
from config.api_strict import ModelSerializer, Serializer
from engine import registry
from engine.protocol import IllegalAction, quoted
from matches import services
from matches.models import KEY_LENGTH, SEAT_PEOPLE, Match, Seat, named_as_shown

# -- limits the schema states and the services apply -------------------------------------


class Stated:
    """A validator the schema states and the service applies (refusing by its own code),
    not the serializer."""

    def __call__(self, value: Any) -> None:
        return None


class StatedMinLength(Stated, MinLengthValidator):
    pass


class StatedMaxLength(Stated, MaxLengthValidator):
    pass


class StatedPattern(Stated, RegexValidator):
    pass


# -- accounts ----------------------------------------------------------------------------

# What of a display name the schema can state (league.services checks it, 400
# bad_display_name): a visible character, its spaces at the ends cut, and none of the
# controls or the invisible characters that would show it as another name (a right-to-left
# override, a zero-width space; not the joiners that scripts and emoji need) inside. The
# service refuses the other characters that are not printable too, which no pattern lists.
INVISIBLE = r"\x00-\x1f\x7f-\x9f\u00ad\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f\ufeff"
VISIBLE = rf"[^\s{INVISIBLE}]"
DISPLAY_NAME_PATTERN = rf"^\s*{VISIBLE}(?:{VISIBLE}| )*\s*$"


def _password_field() -> serializers.CharField:
    return serializers.CharField(max_length=128, style={"input_type": "password"},
                                 trim_whitespace=False)


class CredentialsSerializer(Serializer):
    username = serializers.CharField(max_length=150)
    password = _password_field()


def _email_field(**kwargs: Any) -> serializers.CharField:
    """An email address or nothing (league.services checks it): where password reset links
    go. Only the account's owner and staff see it."""
    return serializers.CharField(
        max_length=254, required=False, allow_blank=True,
        help_text="Where a password reset link goes (POST /api/auth/password/reset/); "
                  "empty: none. Nobody else sees it. A site that sends no mail takes none "
                  "(501 no_mail).", **kwargs)


class RegisterSerializer(CredentialsSerializer):
    display_name = serializers.CharField(
        max_length=64, required=False, allow_blank=True, trim_whitespace=False,
        validators=[StatedPattern(rf"^\s+$|{DISPLAY_NAME_PATTERN}")],  # (and "")
        help_text="Shown in standings and on player pages; the username when left out (or "
                  "blank). Visible characters, no controls (400 bad_display_name).")
    email = _email_field()


class AccountSerializer(Serializer):
    username = serializers.CharField(read_only=True)
    display_name = serializers.CharField(
        max_length=64, trim_whitespace=False, validators=[StatedPattern(DISPLAY_NAME_PATTERN)],
        help_text="1-64 visible characters, the spaces at the ends cut; no controls (400 "
                  "bad_display_name).")
    player = serializers.IntegerField(read_only=True, help_text="The league Player's id.")
    email = _email_field()
    email_pending = serializers.CharField(
        read_only=True, help_text="A new address given, waiting for the link mailed to it "
                                  "to be opened (`email` stays as it was until then); "
                                  "empty: none.")
    password = serializers.CharField(
        write_only=True, required=False, trim_whitespace=False, max_length=128,
        style={"input_type": "password"},
        help_text="The present password: needed with a new `email` (400 bad_credentials "
                  "without it or when wrong, counting against the sign-in brake, 429 "
                  "too_many_attempts), since a reset link sent there sets the password.")
    turn_mail = serializers.BooleanField(
        required=False, help_text="Whether the email address is mailed when a match has "
                                  "waited the site's TURN_MAIL_MINUTES (5 by default) for "
                                  "your move; needs an address "
                                  "(409 no_email) on a site that mails (409 no_mail), and "
                                  "goes off with the address.")
    event_mail = serializers.BooleanField(
        required=False, help_text="Whether the email address is mailed the site's "
                                  "EVENT_MAIL_HOURS (3 by default) before an "
                                  "Event you are entered in starts (one that says when); as "
                                  "`turn_mail`, needs an address on a site that mails.")
    time_zone = serializers.CharField(
        required=False, allow_blank=True, max_length=64,
        help_text="The IANA time zone the mails give times in, as `Europe/Paris`; `UTC` "
                  "(or empty) for UTC (400 unknown_time_zone for a name the site does not "
                  "list).")


class PasswordResetSerializer(Serializer):
    email = serializers.CharField(max_length=254, help_text="The account's email address.")


class DetailSerializer(Serializer):
    detail = serializers.CharField()


class PasswordChangeSerializer(Serializer):
    old_password = _password_field()
    new_password = _password_field()


class CloseAccountSerializer(Serializer):
    password = _password_field()


# -- fields whose refusals quote what was sent -------------------------------------------

class QuotesCut(serializers.Field):
    """Mixed into a DRF field whose refusal quotes the value sent (DRF quotes it whole,
    at any length): quoted as the services quote one, cut short (engine.protocol.quoted).
    Its messages drop the quotes of their own."""

    def fail(self, key: str, **kwargs: Any) -> None:  # raises, as DRF's
        quoting = {name: quoted(value) if name in ("input", "pk_value") else value
                   for name, value in kwargs.items()}
        super().fail(key, **quoting)


class ChoiceField(QuotesCut, serializers.ChoiceField):
    default_error_messages = {"invalid_choice": "{input} is not a valid choice."}


class PrimaryKeyRelatedField(QuotesCut, serializers.PrimaryKeyRelatedField):
    """An id of a row, refused naming what it was to name (DRF's "Invalid pk" speaks of
    its own insides): "Season 99 does not exist."."""

    default_error_messages = {"does_not_exist": "{thing} {pk_value} does not exist."}

    def fail(self, key: str, **kwargs: Any) -> None:  # raises, as DRF's
        if key == "does_not_exist":
            kwargs["thing"] = self.get_queryset().model._meta.verbose_name.capitalize()
        super().fail(key, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        # The database reads 1.5 as the id 1: a fraction names no row, where it would
        # have filed the Event under a season the client never named.
        if isinstance(data, float) and not data.is_integer():
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)


# -- JSON fields whose shape the schema states (served as stored) -------------------------

@extend_schema_field({"type": "object", "additionalProperties": {}})
class ObjectField(serializers.JSONField):
    """A JSON object (a game's or a format's options, a season's scoring)."""


@extend_schema_field({"type": "object", "additionalProperties": {"type": "number"}})
class NumbersField(serializers.JSONField):
    """Numbers by name (an entrant's tiebreaks)."""


@extend_schema_field({"type": "array", "items": {"type": "string"}})
class NamesField(serializers.JSONField):
    """A list of names (bots, Superstars)."""


@extend_schema_field({"oneOf": [{"type": "string"}, {"type": "object"}, {"type": "array"}]})
class DetailField(serializers.JSONField):
    """What went wrong: a sentence, or the sentences of each field of the body."""


SEATS = {"type": "array", "items": {"type": "integer"}}


@extend_schema_field({
    "type": "object", "nullable": True,
    "required": ["placements", "winners", "draw", "figures", "summary"],
    "properties": {
        "placements": {**SEATS, "description": "Each seat's place, 1 = first; tied seats "
                                               "share a place."},
        "winners": {**SEATS, "description": "The seats in first place."},
        "draw": {"type": "boolean"},
        "figures": {"type": "object", "description": "By seat (its index as text), the "
                                                     "numbers the league reads.",
                    "additionalProperties": {"type": "object",
                                             "additionalProperties": {"type": "number"}}},
        "summary": {"type": "string"},
        "forfeit": {"type": "integer", "description": "The seat whose forfeit ended the "
                                                      "match, if one did (the first, when "
                                                      "several forfeited together)."},
        "forfeited": {**SEATS, "description": "The seats that forfeited together, late at "
                                              "a decision made at once, when several did; "
                                              "if every seat did, nobody won: `winners` is "
                                              "empty and every seat shares the last "
                                              "place."},
        "forfeits": {**SEATS, "description": "The seats a forfeit put out while the others "
                                             "played on (Royal Rumble, The Supershow's "
                                             "Elimination matches), in order, if any."},
    }})
class ResultField(serializers.JSONField):
    """How a finished match ended; null while it is not over."""


class TokenSerializer(Serializer):
    token = serializers.CharField(read_only=True)


class ProblemSerializer(Serializer):
    code = serializers.CharField(read_only=True)
    detail = serializers.CharField(read_only=True)
    field = serializers.CharField(read_only=True,
                                  help_text="The field of the request it concerns; empty: "
                                            "the request as a whole.")


class ErrorSerializer(Serializer):
    code = serializers.CharField(read_only=True)
    detail = DetailField(read_only=True)
    seq = serializers.IntegerField(  # not read_only, which the schema makes required
        required=False,
        help_text="Only with stale_seq: the seq the match or Event is at now, to read it "
                  "again from.")
    seat = serializers.IntegerField(
        required=False,
        help_text="With a refusal of something of one seat (seat_out, already_bot, "
                  "not_your_turn, not_your_seat, an illegal action...): that seat's index, as "
                  "the API numbers seats (from 0). The detail names the seat as the pages "
                  "and a seat's `label` do: \"Seat 2\" (from 1), or by its game's name.")
    problems = ProblemSerializer(
        many=True, required=False,
        help_text="Only with a refused sign-up: every reason it was refused at once (a "
                  "name taken and a weak password...), the first being `code` and `detail`; "
                  "with `invalid`, each sentence of `detail`, its code `invalid`, then the "
                  "reasons of the fields that could be read.")


# -- games -------------------------------------------------------------------------------


class GameSerializer(Serializer):
    """A game's spec as the engine declares it, with the bots that can take a seat."""

    key = serializers.CharField(read_only=True)
    title = serializers.CharField(read_only=True)
    min_seats = serializers.IntegerField(read_only=True)
    max_seats = serializers.IntegerField(read_only=True)
    has_chance = serializers.BooleanField(read_only=True)
    has_hidden_information = serializers.BooleanField(read_only=True)
    rules_version = serializers.IntegerField(
        read_only=True, help_text="The rules a new match of this game is recorded under.")
    options = serializers.DictField(read_only=True)
    figures = serializers.ListField(
        child=serializers.CharField(), read_only=True,
        help_text="The figures its results report by seat, which an Event's figure:NAME and "
                  "diff:NAME tiebreaks may name.")
    bots = serializers.ListField(child=serializers.CharField(), read_only=True)


# -- matches -----------------------------------------------------------------------------


class SeatSerializer(ModelSerializer):
    player = serializers.SerializerMethodField()
    invited = serializers.SerializerMethodField(
        help_text="The player this open seat is held for until they join or decline.")

    stood_in_for = serializers.SerializerMethodField(
        help_text="The player whose seat this bot took over (absent, or out of time).")
    label = serializers.CharField(
        read_only=True,
        help_text="Who sits here as the pages name them: a bot an Event seated by the name "
                  "its entrant entered under (\"heuristic bot 2\"), others as \"bot: "
                  "heuristic\", and a seat another of the match reads the same as, with its "
                  "number (\"bot: heuristic (seat 3)\"); a closed account reads \"Closed "
                  "account\" here, where `player`, `invited` and `stood_in_for` keep its "
                  "username.")

    class Meta:
        model = Seat
        fields = ["index", "player", "bot", "invited", "stood_in_for", "label", "awaited"]
        read_only_fields = fields
        extra_kwargs = {"awaited": {"help_text": "Whether the live match waits for this "
                                                 "seat's decision now."}}

    def get_player(self, seat: Seat) -> str | None:
        return seat.user.get_username() if seat.user_id is not None else None

    def get_stood_in_for(self, seat: Seat) -> str | None:
        return seat.stood_in_for.get_username() if seat.stood_in_for_id is not None else None

    def get_invited(self, seat: Seat) -> str | None:
        return seat.invited.get_username() if seat.invited_id is not None else None


class MatchEventLinkSerializer(Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    pairing = serializers.CharField(read_only=True)


def event_link(match: Match) -> dict[str, Any] | None:
    """The Event that made `match`, and its pairing there; None for a player's match."""
    link = getattr(match, "event_match", None)
    if link is None:
        return None
    return {"id": link.event_id, "name": link.event.name, "pairing": link.pairing}


def label_seats(matches: list[Match]) -> None:
    """The seats of `matches` (read here with their people, unless they were) labelled as
    the pages label them (`named_as_shown`), the instances the seats field then shows."""
    prefetch_related_objects(matches, *SEAT_PEOPLE)
    named_as_shown((match, list(match.seats.all())) for match in matches)


class LabelledSeatsListSerializer(serializers.ListSerializer):
    """A page of matches, their seats labelled as the pages label them, the Events among
    them read once for the page."""

    def to_representation(self, data: Any) -> list[Any]:
        matches = list(data.all() if hasattr(data, "all") else data)
        label_seats(matches)
        return super().to_representation(matches)


class LabelledSeatsMixin:
    """A match serializer whose `seats` read as the match's pages name them: "heuristic bot
    2" where an Event seated its bot entrant so, not "bot: heuristic"; a page of them is
    labelled by its list serializer (`LabelledSeatsListSerializer`)."""

    parent: Any

    def to_representation(self, match: Match) -> Any:
        if self.parent is None:
            label_seats([match])
        return super().to_representation(match)  # type: ignore[misc]


class MatchListSerializer(LabelledSeatsListSerializer):
    """A page of matches: which of them stay sealed is asked once for the page."""

    def to_representation(self, data: Any) -> list[Any]:
        matches = list(data.all() if hasattr(data, "all") else data)
        self.context["sealed"] = services.sealed_among(
            m for m in matches if m.status == Match.Status.FINISHED)
        return super().to_representation(matches)


class MatchSerializer(LabelledSeatsMixin, ModelSerializer):
    """A match as anyone signed in may see it. A game's secret options (a constructed
    deck) read "hidden" for every seat but the caller's own until the match is over,
    unless the caller made the match (and so wrote them)."""

    seats = SeatSerializer(many=True, read_only=True)
    # None for the matches the league makes for its Events.
    created_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True,
        help_text="The player who made the match; null for an Event's matches.")
    options = serializers.SerializerMethodField()
    result = ResultField(read_only=True, allow_null=True)
    rematch_of = PrimaryKeyRelatedField(
        read_only=True, allow_null=True,
        help_text="The finished match this one plays again (`rematch/`); null for others.")
    event = serializers.SerializerMethodField(
        help_text="The Event that made the match, and its pairing there; null for others.")
    # `updated_at` moves on with any later save of the row (the admin's); this does not.
    finished_at = serializers.DateTimeField(
        read_only=True, allow_null=True,
        help_text="When the match ended (its last move, a resignation, a forfeit); null "
                  "while it is unfinished.")

    class Meta:
        model = Match
        fields = ["id", "game", "rules_version", "options", "n_seats", "status", "seq", "seats",
                  "result", "created_by", "created_at", "updated_at", "finished_at",
                  "rematch_of", "event"]
        read_only_fields = fields
        list_serializer_class = MatchListSerializer

    @extend_schema_field(MatchEventLinkSerializer(allow_null=True))
    def get_event(self, match: Match) -> dict[str, Any] | None:
        return event_link(match)

    def get_options(self, match: Match) -> dict[str, Any]:
        options = dict(match.options or {})
        user = getattr(self.context.get("request"), "user", None)
        if services.unveiled(match, sealed=self.context.get("sealed")) or (
                user is not None and user.pk is not None and match.created_by_id == user.pk):
            return options
        mine = {seat.index for seat in match.seats.all()
                if user is not None and seat.user_id is not None and seat.user_id == user.pk}
        return masked_options(match.game, options, mine)


def masked_options(game: str, options: dict[str, Any], shown: set[int]) -> dict[str, Any]:
    """`options` with each seat's entry of a secret option (a constructed deck) read
    "hidden", but for the seats in `shown`; none at all for a game this site plays no
    more, whose secret options it cannot tell."""
    try:
        specs = registry.get_rules(game).spec.options
    except IllegalAction:
        return {}
    masked = dict(options)
    for name, value in options.items():
        spec = specs.get(name)
        if spec is not None and spec.secret and isinstance(value, list):
            masked[name] = [entry if seat in shown else "hidden"
                            for seat, entry in enumerate(value)]
    return masked


class SeatSpecField(serializers.DictField):
    """`{"player": username}`, `{"bot": name}` or `{"open": true}`; the service checks it."""


class MatchCreateSerializer(Serializer):
    game = serializers.CharField(max_length=64)
    options = serializers.DictField(required=False, allow_null=True, default=dict)
    seats = serializers.ListField(child=SeatSpecField(), allow_empty=False, min_length=1)
    idempotency_key = serializers.CharField(
        max_length=KEY_LENGTH, required=False, allow_null=True,
        help_text="A retry with the same key answers with the match the first request made.")


class ActionSerializer(Serializer):
    seat = serializers.IntegerField(min_value=0)
    action = serializers.DictField(help_text="An item of the state's legal_actions, verbatim.")
    expected_seq = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    idempotency_key = serializers.CharField(max_length=KEY_LENGTH, required=False, allow_null=True)


class ResignSerializer(Serializer):
    seat = serializers.IntegerField(min_value=0, required=False, allow_null=True,
                                    help_text="Which of your seats: needed where you hold "
                                              "several (400 seat_required); one held is the "
                                              "default.")
    leaving = serializers.BooleanField(
        required=False, default=False,
        help_text="Only leave the match while it waits for players (or decline it): if it "
                  "started meanwhile, refuse (409 match_started) rather than resign it.")


class ResignedSerializer(Serializer):
    outcome = ChoiceField(choices=["left", "declined", "resigned"])


class AppendedSerializer(Serializer):
    seq = serializers.IntegerField(read_only=True)


class PendingSerializer(Serializer):
    kind = ChoiceField(choices=["decision", "chance", "end"], read_only=True)
    seats = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    result = ResultField(allow_null=True, read_only=True)


class DeadlineSerializer(Serializer):
    at = serializers.DateTimeField(
        read_only=True, help_text="The earliest time the Event's turn deadline passes.")
    policy = ChoiceField(
        choices=["bot", "forfeit"], read_only=True,
        help_text="What then happens: a bot plays the seats, or their side forfeits.")
    seats = serializers.ListField(child=serializers.IntegerField(), read_only=True,
                                  help_text="The seats of people it applies to.")


class StateSerializer(Serializer):
    seq = serializers.IntegerField(read_only=True)
    status = ChoiceField(choices=Match.Status.choices, read_only=True)
    seat = serializers.IntegerField(allow_null=True, read_only=True,
                                    help_text="Your seat; null for a spectator.")
    pending = PendingSerializer(read_only=True)
    legal_actions = serializers.ListField(child=serializers.DictField(), read_only=True)
    view = serializers.DictField(read_only=True, help_text="What your seat may see.")
    deadline = DeadlineSerializer(
        allow_null=True, read_only=True,
        help_text="The turn deadline of the people the match waits for, in an Event that "
                  "sets one; null otherwise.")


class EventSerializer(Serializer):
    seq = serializers.IntegerField(read_only=True)
    kind = ChoiceField(choices=["decision", "chance", "forfeit"], read_only=True)
    seat = serializers.IntegerField(allow_null=True, read_only=True)
    data = serializers.DictField(read_only=True, help_text="The event as you may read it.")
    narration = serializers.ListField(child=serializers.CharField(), read_only=True)


class ReplaySerializer(Serializer):
    seq = serializers.IntegerField(read_only=True)
    view = serializers.DictField(read_only=True)
    seats = serializers.ListField(
        child=serializers.DictField(), allow_null=True, read_only=True,
        help_text="Every seat's view once the match is over (a match of an Event dealt "
                  "secret decks: once the Event is); null before.",
    )
    narration = serializers.ListField(child=serializers.CharField(), read_only=True)
    pending = PendingSerializer(read_only=True)


def text_filter(**kwargs: Any) -> serializers.CharField:
    """A list's filter by text: left empty (or blank), it is left out, as a form's empty
    field is, and the schema does not forbid it (no minLength)."""
    return serializers.CharField(required=False, allow_blank=True, **kwargs)


def game_filter(**kwargs: Any) -> serializers.CharField:
    """A list's `game` filter: a key of /api/games/ (or of a game this site plays no more
    whose rows it keeps); another is 400 unknown_game (`api_views.by_game`)."""
    kwargs.setdefault("help_text", "Only this game (a key of /api/games/; another is 400 "
                                   "unknown_game).")
    return text_filter(**kwargs)


class MatchListQuerySerializer(Serializer):
    """Filters of the match list."""

    game = game_filter()
    player = text_filter(help_text="Only matches this user sits in (or sat in, until a bot "
                                   "took the seat over).")
    invited = text_filter(help_text="Only matches holding a seat for this user's answer.")
    awaiting = text_filter(help_text="Only live matches waiting for a decision of this "
                                     "user's.")
    status = ChoiceField(choices=Match.Status.choices, required=False,
                         help_text="Only matches with this status.")
    event = serializers.IntegerField(required=False, min_value=1, max_value=LARGEST_INT,
                                     help_text="Only the matches this Event (its id) made.")


class QuerySerializer(Serializer):
    """Query parameters of the read endpoints."""

    seat = serializers.IntegerField(min_value=0, max_value=LARGEST_INT, required=False,
                                    allow_null=True, default=None)

    def values(self) -> dict[str, Any]:
        self.is_valid(raise_exception=True)
        return dict(self.validated_data)


class EventsQuerySerializer(QuerySerializer):
    after = serializers.IntegerField(min_value=0, max_value=LARGEST_INT, required=False,
                                     default=0)
    limit = serializers.IntegerField(min_value=1, max_value=10_000, required=False,
                                     allow_null=True, default=None)


class ReplayQuerySerializer(QuerySerializer):
    at = serializers.IntegerField(min_value=-LARGEST_INT, max_value=LARGEST_INT)
