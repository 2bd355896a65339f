"""Forms of the league pages: seasons, Events, entrants, seeding, pairings, corrections, teams.

Forms only read and shape what was typed; the league's rules (who may, which game, which
options) are checked once, by `league.events`.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from league import events, formats, showdown, simulation
from league.events import LeagueError
from league.models import Event, Season, Team
from league.services import time_zones
from matches.forms import JSON_INPUT, read_json
from matches.services import shown

FORMAT_CHOICES = [
    ("single_elimination", "Single elimination"),
    ("double_elimination", "Double elimination"),
    ("round_robin", "Round robin"),
    ("swiss", "Swiss"),
    ("heats", "Heats"),
    ("multistage", "Multistage"),
    ("showdown_series", "Superstar Showdown Event"),
]
FORMAT_TITLES = dict(FORMAT_CHOICES)
SEED_CHOICES = [("rating", "By rating"), ("hand", "By hand (the order below)"),
                ("random", "At random")]
_WORDS = re.compile(r"[^\s,;]+")


def words(text: str) -> list[str]:
    """The names or keys in a typed list (spaces, commas or new lines between them)."""
    return _WORDS.findall(text or "")


def _json_object(text: str, what: str) -> dict[str, Any]:
    """A typed JSON object ({} when left empty)."""
    if not (text or "").strip():
        return {}
    try:
        value = read_json(text)
    except ValueError as exc:
        raise forms.ValidationError(f"{what} are not valid JSON: {exc} (bad_option).",
                                    code="bad_option") from None
    if not isinstance(value, dict):
        raise forms.ValidationError(f"{what} are a JSON object, like {{\"name\": value}} "
                                    "(bad_option).", code="bad_option")
    return value


class SeasonForm(forms.Form):
    """A new season of one game and its scoring."""

    name = forms.CharField(max_length=100)
    game = forms.ChoiceField()
    starts_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    win = forms.FloatField(initial=3, label="Points for a win")
    draw = forms.FloatField(initial=1, label="Points for a draw")
    loss = forms.FloatField(initial=0, label="Points for a loss")

    def __init__(self, *args: Any, games: list[tuple[str, str]], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "season")
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = games

    def service_kwargs(self) -> dict[str, Any]:
        """The arguments of `events.create_season`."""
        data = self.cleaned_data
        return {"name": data["name"], "game": data["game"], "starts_on": data["starts_on"],
                "ends_on": data["ends_on"],
                "scoring": {"win": data["win"], "draw": data["draw"], "loss": data["loss"]}}


class LocalDateTimeInput(forms.DateTimeInput):
    """A datetime-local input whose initial moment (in UTC) also goes out as data-utc,
    which static/js/league.js shows in the reader's own time zone."""

    def __init__(self) -> None:
        super().__init__(attrs={"type": "datetime-local", "data-local-input": ""},
                         format="%Y-%m-%dT%H:%M")

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> Any:
        context = super().get_context(name, value, attrs)
        if isinstance(value, datetime):  # an initial moment (a bound one is text as typed)
            if value.utcoffset() is None:  # as the field prepares it: in the site's zone
                value = timezone.make_aware(value)
            context["widget"]["attrs"]["data-utc"] = value.isoformat()
        return context


class StartsAtField(forms.DateTimeField):
    """When an Event starts, typed in the reader's own time zone: static/js/league.js
    sends that zone's name again as NAME_zone and the moment in UTC as NAME_utc, which
    `StartsAt` reads first; without scripts the time typed counts as UTC, and the help
    text says so."""

    widget = LocalDateTimeInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", "In your own time zone (UTC where the page runs no "
                                       "scripts); empty: not said.")
        super().__init__(**kwargs)


# How far a time zone's clock runs behind and ahead of UTC (Baker Island, Kiribati).
ZONE_BEHIND, ZONE_AHEAD = timedelta(hours=12), timedelta(hours=14)
MINUTE = timedelta(minutes=1)


def _exists(local: datetime, zone: ZoneInfo) -> bool:
    """Whether the clock time `local` (naive) is shown in `zone` at some moment: one
    in the hour skipped when the clocks go forward is not."""
    there = local.replace(tzinfo=zone).astimezone(UTC).astimezone(zone)
    return there.replace(tzinfo=None) == local


def _skipped(local: datetime, zone: ZoneInfo) -> forms.ValidationError:
    """The refusal of a clock time in the stretch `zone` skips: which stretch that is."""
    first = local.replace(second=0, microsecond=0)
    while not _exists(first - MINUTE, zone):
        first -= MINUTE
    jump = (local.replace(tzinfo=zone, fold=1).utcoffset() or timedelta()) \
        - (local.replace(tzinfo=zone, fold=0).utcoffset() or timedelta())
    return forms.ValidationError(
        f"There is no {local:%H:%M} on {local.day} {local:%b %Y} in "
        f"{zone.key.replace('_', ' ')}: the clocks go from {first:%H:%M} straight to "
        f"{first + jump:%H:%M} that day. Type a time before or after "
        "(nonexistent_time).", code="nonexistent_time")


class StartsAt(forms.Form):
    """A form with `starts_at` and the Event's `notes`."""

    starts_at = StartsAtField(label="Starts at")
    # Its length is the service's to check (events._notes): a browser, as the service,
    # counts a line break as one character, which it sends as two ("\r\n").
    notes = forms.CharField(
        required=False, label="Notes for the players",
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": events.NOTES_LENGTH}),
        help_text="Where to meet, what to bring; plain text, shown on its page.")

    def clean_starts_at(self) -> Any:
        """The time typed in the zone the script named; else the moment the script sent,
        when it is the time typed in some time zone (UTC-12 to UTC+14); else the time
        typed, as UTC. A moment no zone gives from the time typed (a forged or stale
        field) is not what the organizer saw."""
        typed = self.cleaned_data["starts_at"]
        zone = self._typing_zone()
        if typed is not None and zone is not None:
            local = typed.replace(tzinfo=None)
            if not _exists(local, zone):
                # A browser moves a time the clocks skip by the length of the jump, and
                # the Event would start an hour from when the organizer said.
                raise _skipped(local, zone)
            # A time the clocks pass twice (when they go back) is the first of the two,
            # as browsers read it; the mails add its offset (league_extras.repeated_hour).
            return local.replace(tzinfo=zone, fold=0).astimezone(UTC)
        sent = self.data.get(self.add_prefix("starts_at") + "_utc", "")
        try:
            utc = parse_datetime(sent) if sent else None
        except ValueError:
            utc = None
        if typed is None or utc is None or utc.utcoffset() is None:
            return typed
        # The time typed, read as UTC, less the moment: the typing zone's offset.
        return utc if -ZONE_BEHIND <= typed - utc <= ZONE_AHEAD else typed

    def _typing_zone(self) -> ZoneInfo | None:
        """The time zone the script says the time was typed in, when the site knows it."""
        name = self.data.get(self.add_prefix("starts_at") + "_zone", "")
        return ZoneInfo(name) if name in time_zones() else None


class EventDetailsForm(StartsAt):
    """When an Event starts and its notes, on its organizer page."""


class FormatSelect(forms.Select):
    """The format choices, each made for one game alone marked `data-game` with it, which
    static/js/league.js offers only while that game is chosen."""

    def create_option(self, name: str, value: Any, label: Any, selected: Any, index: int,
                      subindex: int | None = None, attrs: dict[str, Any] | None = None
                      ) -> dict[str, Any]:
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        game = formats.game_of(str(value))
        if game is not None:
            option["attrs"]["data-game"] = game
        return option


def format_choices(game: str) -> list[tuple[str, str]]:
    """The formats an Event of `game` may take."""
    return [(key, title) for key, title in FORMAT_CHOICES
            if formats.game_of(key) in (None, game)]


class EventSettingsForm(forms.Form):
    """An Event's format and its options, match options and turn deadline: chosen when it
    is made (EventForm) and changed on its organizer page until it starts."""

    format = forms.ChoiceField(choices=FORMAT_CHOICES, widget=FormatSelect)
    format_options = forms.CharField(
        required=False, initial="{}", widget=forms.Textarea(attrs={"rows": 3, **JSON_INPUT}),
        help_text='JSON, e.g. {"third_place": true}; the options of each format are listed '
                  "below.")
    match_options = forms.CharField(
        required=False, initial="{}", widget=forms.Textarea(attrs={"rows": 2, **JSON_INPUT}),
        help_text='JSON options of every match, e.g. {"best_of": 3}.')
    turn_deadline_minutes = forms.IntegerField(
        required=False, min_value=1, max_value=events.LONGEST_TURN_DEADLINE,
        help_text="Empty: no deadline.")
    deadline_policy = forms.ChoiceField(choices=Event.DeadlinePolicy.choices)
    deadline_bot = forms.ChoiceField(help_text="The bot that takes a late seat.")

    def __init__(self, *args: Any, bots: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["deadline_bot"].choices = [(b, b) for b in bots]
        if "heuristic" in bots:
            self.fields["deadline_bot"].initial = "heuristic"

    def clean_format_options(self) -> dict[str, Any]:
        return _json_object(self.cleaned_data["format_options"], "Format options")

    def clean_match_options(self) -> dict[str, Any]:
        return _json_object(self.cleaned_data["match_options"], "Match options")

    def settings_kwargs(self) -> dict[str, Any]:
        """The settings as `events.create_event` and `events.change_settings` take them."""
        return {name: self.cleaned_data[name] for name in events.SETTINGS}


class EventForm(StartsAt, EventSettingsForm):
    """A new Event: game, format and its options, match options and the turn deadline."""

    name = forms.CharField(max_length=100)
    season = forms.ChoiceField(required=False)
    game = forms.ChoiceField()
    hold_rounds = forms.BooleanField(
        required=False, label="Hold each new round",
        help_text="After round 1, each round waits for you: release it as drawn, or pair it "
                  "by hand.")
    open_entry = forms.BooleanField(
        required=False, label="Open entry",
        help_text="Signed-in players enter themselves (and leave) on the Event's page until "
                  "it starts.")

    field_order = ["name", "season", "game", "format", "format_options", "match_options",
                   "turn_deadline_minutes", "deadline_policy", "deadline_bot", "hold_rounds",
                   "open_entry", "starts_at", "notes"]

    def __init__(self, *args: Any, games: list[tuple[str, str]], seasons: list[Season],
                 bots: list[str], season_optional: bool, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "event")
        super().__init__(*args, bots=bots, **kwargs)
        self._seasons = {str(s.pk): s for s in seasons}
        titles = dict(games)
        choices = [(str(s.pk), f"{s.name} ({titles.get(s.game, s.game)})") for s in seasons]
        self.fields["season"].choices = [("", "No season")] * season_optional + choices
        self.fields["season"].required = not season_optional
        self.fields["game"].choices = games

    def clean(self) -> dict[str, Any]:
        """A format made for another game alone is refused beside the format; a Showdown
        series without its `event` option beside the match options."""
        data = super().clean()
        game, format = data.get("game"), data.get("format")
        refusal = events.format_refused(format, game) if game and format else None
        if refusal is not None:
            self.add_error("format", forms.ValidationError(shown(refusal), code=refusal.code))
        elif game and format and "match_options" in data:
            refusal = events.series_refused(format, game, data["match_options"])
            if refusal is not None:
                self.add_error("match_options",
                               forms.ValidationError(shown(refusal), code=refusal.code))
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """The arguments of `events.create_event`."""
        data = self.cleaned_data
        return {"name": data["name"], "game": data["game"],
                "season": self._seasons.get(data["season"] or ""), **self.settings_kwargs(),
                "hold_rounds": data["hold_rounds"], "open_entry": data["open_entry"],
                "starts_at": data["starts_at"], "notes": data["notes"]}


class ShowdownEventForm(forms.Form):
    """A Superstar Showdown Event: one click on a preset, or composed Match by Match; with
    both sides named it starts at once.

    The pressed button says which: `preset` is a preset's key, or empty to compose from the
    rows (a blank Match card or Stipulation is drawn at random; with more Matches than
    rows, the extra ones are drawn at random too).
    """

    ROWS = 6
    RANDOM = [("", "Drawn at random")]

    name = forms.CharField(max_length=100, required=False,
                           help_text="Empty: the preset's title.")
    season = forms.ChoiceField(required=False)
    preset = forms.ChoiceField(required=False)
    matches = forms.IntegerField(initial=3, required=False, label="Number of Matches",
                                 max_value=showdown.MAX_MATCHES,
                                 help_text=f"Two to {showdown.MAX_MATCHES} (SS-127).")
    superstars_per_team = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(1, showdown.MAX_PER_TEAM + 1)], coerce=int,
        initial=showdown.DEFAULT_PER_TEAM, label="Superstars per team")
    # Each side is a team, a single player or a bot, as on the Event's page and in the API.
    red_team = forms.CharField(max_length=64, required=False, label="Red: team name")
    red_player = forms.CharField(max_length=150, required=False,
                                 label="or a player's username")
    red_bot = forms.ChoiceField(required=False, label="or a bot")
    blue_team = forms.CharField(max_length=64, required=False, label="Blue: team name")
    blue_player = forms.CharField(max_length=150, required=False,
                                  label="or a player's username")
    blue_bot = forms.ChoiceField(required=False, label="or a bot")

    def __init__(self, *args: Any, seasons: list[Season], bots: list[str],
                 season_optional: bool, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "showdown")
        super().__init__(*args, **kwargs)
        self._seasons = {str(s.pk): s for s in seasons if s.game == showdown.GAME}
        choices = [(pk, s.name) for pk, s in self._seasons.items()]
        self.fields["season"].choices = [("", "No season")] * season_optional + choices
        self.fields["season"].required = not season_optional
        self.fields["preset"].choices = [("", "Composed"), *showdown.preset_titles().items()]
        for side in ("red", "blue"):
            self.fields[f"{side}_bot"].choices = [("", "—"), *((b, b) for b in bots)]
        cards = self.RANDOM + list(showdown.match_card_titles().items())
        # The three Standard Rules cards play alike (SS-125): one choice stands for them.
        first_of: dict[str, str] = {}
        for key, title in showdown.stipulation_titles().items():
            first_of.setdefault(title, key)
        stipulations = self.RANDOM + [(key, title) for title, key in first_of.items()]
        for row in range(1, self.ROWS + 1):
            self.fields[f"match_{row}"] = forms.ChoiceField(
                choices=cards, required=False, label=f"Match {row}",
                widget=forms.Select(attrs={"aria-label": f"Match card {row}"}))
            self.fields[f"stipulation_{row}"] = forms.ChoiceField(
                choices=stipulations, required=False, label=f"Stipulation {row}",
                widget=forms.Select(attrs={"aria-label": f"Stipulation {row}"}))

    def has_a_season(self) -> bool:
        """Whether there is a season to make the Event in: staff need none, a season's
        organizer needs a Superstar Showdown season of theirs."""
        return not self.fields["season"].required or bool(self._seasons)

    def rows(self) -> list[tuple[Any, Any]]:
        """The (Match card, Stipulation) fields of each row, for the template."""
        return [(self[f"match_{row}"], self[f"stipulation_{row}"])
                for row in range(1, self.ROWS + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for side in ("red", "blue"):
            if len(self._side(side)) > 1:
                raise forms.ValidationError(f"{side.title()} is a team, a player or a bot: "
                                            "one of them.")
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """The arguments of `events.create_showdown_event` besides who asks."""
        data = self.cleaned_data
        kwargs: dict[str, Any] = {"name": data["name"],
                                  "season": self._seasons.get(data["season"] or ""),
                                  "sides": self._sides()}
        if data["preset"]:
            return {**kwargs, "preset": data["preset"]}
        count = data["matches"] if data["matches"] is not None else 0
        matches = [{"match": data.get(f"match_{row}") or None,
                    "stipulation": data.get(f"stipulation_{row}") or None}
                   for row in range(1, min(count, self.ROWS) + 1)]
        matches += [{"match": None, "stipulation": None}] * max(0, count - self.ROWS)
        return {**kwargs, "matches": matches,
                "superstars_per_team": data["superstars_per_team"]}

    def _side(self, side: str) -> dict[str, str]:
        """What names the side (`add_entrant`'s team, player or bot), as filled in."""
        given = {kind: (self.cleaned_data.get(f"{side}_{kind}") or "").strip()
                 for kind in ("team", "player", "bot")}
        return {kind: value for kind, value in given.items() if value}

    def _sides(self) -> list[dict[str, str]]:
        """Red's and Blue's entrants as named; none when neither side is."""
        return [named for named in map(self._side, ("red", "blue")) if named]


class EntrantForm(forms.Form):
    """One entrant: a player by username, a team by name, or a bot (optionally renamed)."""

    player = forms.CharField(max_length=150, required=False, label="Player's username")
    team = forms.CharField(max_length=64, required=False, label="Team name")
    bot = forms.CharField(max_length=64, required=False)
    name = forms.CharField(max_length=100, required=False, label="Shown as")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        given = [k for k in ("player", "team", "bot") if (data.get(k) or "").strip()]
        if len(given) != 1:
            raise forms.ValidationError("Give one player, one team or one bot.")
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """The arguments of `events.add_entrant` besides the Event and who asks."""
        data = self.cleaned_data
        kwargs: dict[str, Any] = {k: data[k].strip() for k in ("player", "team", "bot")
                                  if (data.get(k) or "").strip()}
        kwargs["name"] = data["name"].strip() or None
        return kwargs


class SeedForm(forms.Form):
    method = forms.ChoiceField(choices=SEED_CHOICES)
    order = forms.CharField(required=False, help_text="By hand: every entrant key, best first.")

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        order = words(data["order"]) if data["method"] == "hand" else None
        return {"method": data["method"], "order": order}


class PairForm(forms.Form):
    """The next round by hand: one pairing per line, entrant keys apart ("e1 e4")."""

    pairings = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}))

    def clean_pairings(self) -> list[list[str]]:
        lines = [words(line) for line in self.cleaned_data["pairings"].splitlines()]
        pairings = [line for line in lines if line]
        if not pairings:
            raise forms.ValidationError("Write one pairing per line, like: e1 e4")
        return pairings


class LiveSeatForm(forms.Form):
    """An entrant of one live pairing (to forfeit, or to hand to a bot)."""

    pairing = forms.CharField(max_length=32)
    entrant = forms.CharField(max_length=16)
    bot = forms.CharField(max_length=64, required=False)


class CorrectionForm(forms.Form):
    """A corrected result: the pairing and a place (`place_<key>`) for each entrant."""

    pairing = forms.CharField(max_length=32)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        placements: dict[str, int] = {}
        for name, value in self.data.items():
            if not name.startswith("place_"):
                continue
            try:
                placements[name.removeprefix("place_")] = int(value)
            except (TypeError, ValueError):
                raise forms.ValidationError("Every place is a whole number (1 = first).") from None
        if not placements:
            raise forms.ValidationError("Give each entrant a place.")
        data["placements"] = placements
        return data


class TeamForm(forms.Form):
    """A team and its members by username."""

    name = forms.CharField(max_length=64)
    members = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}),
                              help_text="Usernames, separated by spaces, commas or new lines.")

    def save(self, *, by: Any) -> Team:
        """The team through the league service (which checks names and members)."""
        return events.create_team(name=self.cleaned_data["name"],
                                  members=words(self.cleaned_data["members"]), by=by)


class SimulationForm(forms.Form):
    """A simulation job: a game, one bot per seat, how many matches and how to run them."""

    game = forms.ChoiceField(error_messages={
        "invalid_choice": "There is no game %(value)s (unknown_game)."})
    bots = forms.CharField(
        max_length=500, initial="random, heuristic",
        widget=forms.TextInput(attrs=JSON_INPUT),  # keys: no capital from a phone keyboard
        help_text="One bot per seat, in seat order (the number of bots is the seat count).",
        error_messages={"required": "Name one bot per seat (bad_seat_count)."})
    matches = forms.IntegerField(initial=1000, error_messages={
        "required": "Give the number of matches (bad_matches).",
        "invalid": "The number of matches is a whole number (bad_matches)."})
    options = forms.CharField(
        required=False, initial="{}", widget=forms.Textarea(attrs={"rows": 2, **JSON_INPUT}),
        help_text='The game\'s options as JSON, e.g. {"best_of": 3}.')
    balance = forms.BooleanField(
        required=False, label="Balance run",
        help_text="Each match draws every seat's Superstar, Competitor or Legend at random and "
                  "the summary rates each one (Super Showdown: Hero and Villain).")
    logs = forms.BooleanField(required=False, label="Keep the match logs",
                              help_text="Every match's events, downloadable as JSON lines.")
    chunk = forms.IntegerField(
        required=False, label="Matches per task",
        # Left empty, not 50: a job past 500,000 matches then takes a bigger chunk.
        widget=forms.NumberInput(attrs={"placeholder": "50"}),
        help_text="Empty: 50, or enough to keep a very long job within 10,000 tasks.",
        error_messages={"invalid": "Matches per task is a whole number (bad_chunk)."})
    seed = forms.IntegerField(required=False, min_value=0,
                              help_text="Empty: a random seed (the job shows it).",
                              error_messages={
                                  "min_value": "The seed is a whole number from 0 (bad_seed).",
                                  "invalid": "The seed is a whole number from 0 (bad_seed)."})

    def __init__(self, *args: Any, games: list[tuple[str, str]], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "sim")
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = games

    def clean_bots(self) -> list[str]:
        try:
            return simulation.typed_bots(self.cleaned_data["bots"].lower())
        except LeagueError as exc:
            raise forms.ValidationError(shown(exc)) from None

    def clean_options(self) -> dict[str, Any]:
        return _json_object(self.cleaned_data["options"], "Options")

    def service_kwargs(self) -> dict[str, Any]:
        """The arguments of `simulation.create_job`."""
        data = self.cleaned_data
        return {"game": data["game"], "bots": data["bots"],
                "matches": data["matches"], "options": data["options"],
                "balance": data["balance"], "logs": data["logs"], "chunk": data["chunk"],
                "seed": data["seed"]}
