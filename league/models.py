"""League models.

An Event's truth is its `records` stream: entrants, entry opened to players or closed,
seeding, start, pairings by hand, matches created, results, forfeits, seats handed to
bots, corrections. Everything else here that is marked a projection (entrants,
standings, ratings) is derived from the streams and rebuilt by
`manage.py rebuild_projections`.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

from matches.models import KEY_LENGTH


class Player(models.Model):
    """One per user: the name shown at tables and in standings."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=64)
    # Whether to mail the account's address when a match has waited a while for its move
    # (league.turn_mail).
    turn_mail = models.BooleanField(default=False)
    # Whether to mail the account's address before an Event it is entered in starts
    # (league.event_mail).
    event_mail = models.BooleanField(default=False)
    # The IANA time zone the times in those mails are given in (empty: UTC), as the player
    # chose it (league.services.set_time_zone).
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # An address given but not yet confirmed by the link mailed to it (league.services
    # .set_email): nothing is sent there but that link.
    pending_email = models.EmailField(blank=True)
    # The site (scheme and host) a link confirming `pending_email` is owed at, until it is
    # mailed (empty: none owed), and how many times in a row the mail server refused it:
    # written with the address, so a link whose task the broker lost is mailed by the
    # sweep (league.services.mail_email_confirmation). Not the admin's to edit: the site a
    # link opens at would be staff's to choose. Nor to write: the admin saves only the
    # columns its form changed (league.admin.PlayerAdmin), not a link mailed since.
    confirm_site = models.CharField(max_length=300, blank=True, default="", editable=False)
    confirm_tries = models.PositiveSmallIntegerField(default=0, editable=False)
    # When a worker claimed that link to mail it (null: nobody is mailing it), so the
    # row is not locked while the mail goes; a claim older than league.services
    # .SENDING_SECONDS is a dead worker's, and the sweep mails the link again.
    confirm_sending = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        indexes = [
            # The confirmation sweep's scan (league.services.mail_email_confirmations), a
            # minute apart: the few players owed a link, not every player.
            models.Index(fields=["id"], condition=~models.Q(confirm_site=""),
                         name="player_confirmation_owed"),
        ]

    def __str__(self) -> str:
        return self.display_name


class ResetMail(models.Model):
    """A password reset mail asked for and not sent yet (league.services
    .send_password_reset): written for every ask, whether an account has the address or
    not, so neither the answer nor the work done tells; a worker's task or the sweep mails
    the links of the accounts that have it, then deletes it. Not the admin's: it holds an
    address a stranger may have typed."""

    email = models.EmailField()
    # The site (scheme and host) the links open at (league.services._site).
    site = models.CharField(max_length=300)
    # The accounts mailed their link already (an address two accounts share: one refused
    # is tried again, the other not mailed twice).
    mailed = models.JSONField(default=list)
    # How many times in a row the mail server refused it (league.services.MAIL_TRIES).
    tries = models.PositiveSmallIntegerField(default=0)
    # When a worker claimed it to send (null: nobody is sending it); a claim older than
    # league.services.SENDING_SECONDS is a dead worker's, and the sweep takes it again.
    sending_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]


class Team(models.Model):
    """A named group of players, for the team games (Red and Blue sides)."""

    name = models.CharField(max_length=64, unique=True)
    members = models.ManyToManyField(Player, related_name="teams", blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    # The key its creator's client sent (empty: none): a create resent with it answers
    # with this team instead of being refused as a name taken.
    idempotency_key = models.CharField(max_length=KEY_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # Names are told apart ignoring case (create_team), also when two arrive at once.
            models.UniqueConstraint(Lower("name"), name="team_name_unique_ignoring_case"),
            models.UniqueConstraint(fields=["created_by", "idempotency_key"],
                                    condition=~models.Q(idempotency_key=""),
                                    name="team_unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return self.name


def default_scoring() -> dict[str, Any]:
    return {"win": 3, "draw": 1, "loss": 0}


class Season(models.Model):
    """A run of Events of one game, with its organizers and scoring scheme."""

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=64, db_index=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organized_seasons", blank=True
    )
    # Season points per Event placement: {"win": 3, "draw": 1, "loss": 0} per match.
    scoring = models.JSONField(default=default_scoring)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    # The key its creator's client sent (empty: none): a create resent with it answers
    # with this season instead of making another.
    idempotency_key = models.CharField(max_length=KEY_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["created_by", "idempotency_key"],
                                    condition=~models.Q(idempotency_key=""),
                                    name="season_unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """A tournament of one game in one format; its truth is the `records` stream."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Taking entrants"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class DeadlinePolicy(models.TextChoices):
        BOT = "bot", "A bot plays the seat"
        FORFEIT = "forfeit", "The seat forfeits"

    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=64, db_index=True)
    format = models.CharField(max_length=32)
    format_options = models.JSONField(default=dict, blank=True)
    match_options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    seq = models.PositiveIntegerField(default=0)
    turn_deadline_minutes = models.PositiveIntegerField(null=True, blank=True)
    deadline_policy = models.CharField(
        max_length=16, choices=DeadlinePolicy.choices, default=DeadlinePolicy.BOT
    )
    deadline_bot = models.CharField(max_length=64, default="heuristic")
    # Wait for the organizer (release, or pairings by hand) before each new round's matches.
    hold_rounds = models.BooleanField(default=False)
    # Signed-in players enter (and leave) themselves while it is a draft; an organizer
    # switches it before the start (entry_opened / entry_closed records).
    open_entry = models.BooleanField(default=False)
    # When its organizers say it starts, and what they tell its players (where to meet,
    # what to bring): shown on its page and in the lobby; changed by details_changed
    # records (league.events.set_details).
    starts_at = models.DateTimeField(null=True, blank=True)
    notes = models.TextField(blank=True)
    # The `starts_at` each player taking part was reminded of, by their Player's pk as a
    # string (league.event_mail): a new time is reminded of again, and a player entered, or
    # asking, after the others' reminder gets their own; a player told by mail that the
    # Event moved holds "moved:" and the time that mail gave (league.event_mail.MOVED).
    # Here, not on the Entrant rows, which every change of the Event writes anew
    # (league.projections.refresh_event).
    reminded = models.JSONField(default=dict, blank=True)
    # How many times in a row the mail server refused a player's reminder or moved mail,
    # by the same key: their claim is undone for the next sweep until
    # league.services.MAIL_TRIES, then their mail of that time is given up.
    reminder_tries = models.JSONField(default=dict, blank=True)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organized_events", blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    # The key its creator's client sent (empty: none): a create resent with it answers
    # with this Event instead of making another.
    idempotency_key = models.CharField(max_length=KEY_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["created_by", "idempotency_key"],
                                    condition=~models.Q(idempotency_key=""),
                                    name="event_unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return self.name


class AppendOnlyError(RuntimeError):
    """Somebody tried to rewrite or erase a stored record."""


class RecordQuerySet(models.QuerySet["EventRecord"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("Event records are never updated.")

    def delete(self) -> NoReturn:
        raise AppendOnlyError("Event records are never deleted.")


class EventRecord(models.Model):
    """One organizer decision or recorded result in an Event's stream."""

    class Kind(models.TextChoices):
        ENTRANT_ADDED = "entrant_added"
        ENTRANT_WITHDRAWN = "entrant_withdrawn"
        # a withdrawal undone by the organizers (its seq in the payload, `withdrawal`)
        ENTRANT_REINSTATED = "entrant_reinstated"
        ENTRANT_PICKED = "entrant_picked"  # what the entrant brings to its seat (a Competitor)
        TEAM_PLAYER_CHOSEN = "team_player_chosen"  # the member who sits a team's matches
        ENTRY_OPENED = "entry_opened"  # players may enter themselves (Event.open_entry)
        ENTRY_CLOSED = "entry_closed"
        DETAILS_CHANGED = "details_changed"  # when it starts and its notes (Event.starts_at)
        # its format, options and turn deadline before the start (Event.format ...)
        SETTINGS_CHANGED = "settings_changed"
        # who organizes it: the users added and removed (Event.organizers, in the admin)
        ORGANIZERS_CHANGED = "organizers_changed"
        # the season it is filed under, and the one it was in (Event.season; ids, or null)
        SEASON_CHANGED = "season_changed"
        SEEDED = "seeded"
        STARTED = "started"
        PAIRED_BY_HAND = "paired_by_hand"
        ROUND_RELEASED = "round_released"
        MATCH_CREATED = "match_created"
        MATCH_DRAWN = "match_drawn"  # a draw the format refuses: the pairing plays again
        RESULT_RECORDED = "result_recorded"
        RESULT_CORRECTED = "result_corrected"
        FORFEITED = "forfeited"
        SEAT_TO_BOT = "seat_to_bot"
        FINISHED = "finished"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="records")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32, choices=Kind.choices)
    payload = models.JSONField(default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    # The key its actor's create was sent with (an entrant added through the API): that
    # create sent again answers with what this record added. Never shown.
    idempotency_key = models.CharField(max_length=KEY_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RecordQuerySet.as_manager()

    class Meta:
        ordering = ["event", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["event", "seq"], name="eventrecord_unique_seq"),
            models.UniqueConstraint(fields=["event", "actor", "idempotency_key"],
                                    condition=~models.Q(idempotency_key=""),
                                    name="eventrecord_unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return f"event {self.event_id} #{self.seq} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("Event records are never updated.")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("Event records are never deleted.")


# -- projections: derived from the streams, rebuilt by rebuild_projections ---------------

class Entrant(models.Model):
    """Projection: an entrant as registered (its name is kept when a player is renamed)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    key = models.CharField(max_length=16)
    name = models.CharField(max_length=100)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    bot = models.CharField(max_length=64, blank=True)
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)
    # What it brings to each of its seats: an entry of a per-seat match option by option
    # name ({"competitors": "ox_valdane"}), where the game offers one (Rules.seat_picks).
    picks = models.JSONField(default=dict, blank=True)
    # A team's: the member chosen to sit its matches from its next one on (none: the first
    # member by id). A chosen member who left the team sits no more.
    plays = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")

    class Meta:
        ordering = ["event", "seed", "key"]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="entrant_unique_key"),
        ]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def held_by(player: Player) -> models.Q:
        """The entries `player` holds: their own, and their teams'."""
        return models.Q(player=player) | models.Q(team__members=player)


class EventMatch(models.Model):
    """Projection: which match plays which pairing of an Event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="event_matches")
    pairing = models.CharField(max_length=32)
    round = models.PositiveIntegerField(default=1)
    stage = models.CharField(max_length=32, blank=True)
    label = models.CharField(max_length=64, blank=True)
    entrants = models.JSONField(default=list)  # the pairing's entrant keys, in slot order
    # The entrant key of each seat when a side takes several seats (every member of a team
    # in a Superstar Showdown Event); empty when seat i is simply `entrants[i]`.
    seats = models.JSONField(default=list, blank=True)
    match = models.OneToOneField(
        "matches.Match", on_delete=models.PROTECT, related_name="event_match"
    )
    # 0 for the pairing's first match; n for the n-th played again after a draw that the
    # format refuses (a knockout needs a winner). The highest is the pairing's match.
    replay = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["event", "round", "pairing", "replay"]
        constraints = [
            models.UniqueConstraint(fields=["event", "pairing", "replay"],
                                    name="eventmatch_unique"),
        ]

    def seat_entrants(self) -> list[str]:
        """The entrant key of every seat of the match, in seat order."""
        return list(self.seats or self.entrants)

    def seats_of(self, entrant: str) -> list[int]:
        """The seats an entrant holds in the match."""
        return [i for i, key in enumerate(self.seat_entrants()) if key == entrant]

    @staticmethod
    def played_again() -> models.Exists:
        """Annotation: the match was drawn and its pairing played again since (its Event's
        result for the pairing belongs to the later match)."""
        return models.Exists(EventMatch.objects.filter(
            event=models.OuterRef("event"), pairing=models.OuterRef("pairing"),
            replay__gt=models.OuterRef("replay")))


class Standing(models.Model):
    """Projection: one row of an Event's standings."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    # The row's place in the format's own order (rows sharing a rank in its tie order):
    # rows are kept and updated in place, so their ids say nothing of the order.
    position = models.PositiveIntegerField(default=0)
    rank = models.PositiveIntegerField()
    points = models.FloatField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    tiebreaks = models.JSONField(default=dict)

    class Meta:
        ordering = ["event", "position"]


class Walkover(models.Model):
    """Projection: a pairing of an Event a withdrawal decided with no match made for it (a
    round robin's later rounds, a bracket's next match), as `events.walkovers` gives it:
    the player page lists a player's walkovers from these rows, with no replay."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="walkovers")
    pairing = models.CharField(max_length=32)
    # Its place in the format's order of pairings.
    position = models.PositiveIntegerField(default=0)
    label = models.CharField(max_length=64, blank=True)
    entrants = models.JSONField(default=list)  # the pairing's entrant keys, in slot order
    # The entrant the standings count its win for; "" where it is a loss for both.
    winner = models.CharField(max_length=16, blank=True)

    class Meta:
        ordering = ["event", "position"]
        constraints = [
            models.UniqueConstraint(fields=["event", "pairing"], name="walkover_unique"),
        ]


class SeasonStanding(models.Model):
    """Projection: a season's table, summed over its Events by the season's scoring."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    name = models.CharField(max_length=100)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    # A bot's row: the Event whose seat it filled (a bot is a row of one Event), so that
    # two Events' "Random" are told apart on the table; none for a player or a team.
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    rank = models.PositiveIntegerField()
    points = models.FloatField(default=0)
    events = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["season", "rank", "name"]


class Rating(models.Model):
    """Projection: a player's current rating in one game (openskill)."""

    game = models.CharField(max_length=64)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_unique"),
        ]


class RatingHistory(models.Model):
    """Projection: a player's rating after each rated match, in match order."""

    game = models.CharField(max_length=64)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["player", "game", "match_id"]


class RoundScore(models.Model):
    """Projection: a seat's points in one scored round of a match (games that score by
    rounds show `round_points` per seat in their public view)."""

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=64)
    seat = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="round_scores")

    class Meta:
        ordering = ["match", "round", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat", "round"],
                                    name="roundscore_unique"),
        ]


class RankingTotal(models.Model):
    """Projection: a team's Ranking Points so far in a Superstar Showdown Event (SS-130: the
    most at the end wins), read from the match's public view."""

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    # The league Event the match plays for, and the entrant on this side (none outside one).
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="ranking_totals")
    entrant = models.CharField(max_length=16, blank=True)
    team = models.PositiveSmallIntegerField()  # 0 Red, 1 Blue
    name = models.CharField(max_length=32)
    superstars = models.JSONField(default=list)
    match_points = models.IntegerField(default=0)
    bonus_points = models.IntegerField(default=0)
    total = models.IntegerField(default=0)
    matches_won = models.PositiveSmallIntegerField(default=0)
    winner = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "team"]
        constraints = [
            models.UniqueConstraint(fields=["match", "team"], name="rankingtotal_unique"),
        ]


class RankingPoints(models.Model):
    """Projection: what one team earned in one Match of a Superstar Showdown Event: the Match
    card's Ranking Points (SS-134) and the bonus Ranking Points bought after it (SS-138)."""

    class Outcome(models.TextChoices):
        WON = "won"
        LOST = "lost"
        DRAW = "draw"
        PENDING = ""

    class Status(models.TextChoices):
        """Where the Event's play stands in this Match (the game's view of it)."""

        PENDING = "pending"
        PLAYING = "playing"
        BONUS = "bonus"
        DONE = "done"

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="ranking_points")
    team = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()  # the Match's number in the Event, from 1
    card = models.CharField(max_length=32, blank=True)  # blank until drawn
    stipulation = models.CharField(max_length=32, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, blank=True)
    points = models.IntegerField(default=0)
    bonus_points = models.IntegerField(default=0)

    class Meta:
        ordering = ["match", "number", "team"]
        constraints = [
            models.UniqueConstraint(fields=["match", "team", "number"],
                                    name="rankingpoints_unique"),
        ]


# -- simulation jobs: bot-vs-bot matches played in memory on the workers ---------------

class SimulationJob(models.Model):
    """Many bot-vs-bot matches of one game, played in chunks on the workers.

    `totals` is the merge of the finished chunks' tallies and `summary` what it reads as
    (see `league.simulation`); both change only when a chunk's result is written.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        CANCELLED = "cancelled", "Cancelled"
        FAILED = "failed", "Failed"

    game = models.CharField(max_length=64)
    bots = models.JSONField(default=list)  # one bot name per seat
    options = models.JSONField(default=dict, blank=True)
    balance = models.BooleanField(default=False)
    logs = models.BooleanField(default=False)
    seed = models.PositiveBigIntegerField()
    planned = models.PositiveIntegerField()
    chunk_size = models.PositiveIntegerField()
    chunk_count = models.PositiveIntegerField()
    done_matches = models.PositiveIntegerField(default=0)
    done_chunks = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True)
    totals = models.JSONField(default=dict, blank=True)
    summary = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    # The key its creator's client sent (empty: none): a create resent with it answers
    # with this job instead of writing and queuing another.
    idempotency_key = models.CharField(max_length=KEY_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["created_by", "idempotency_key"],
                                    condition=~models.Q(idempotency_key=""),
                                    name="simulationjob_unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return f"simulation {self.pk} ({self.game}, {self.planned} matches)"

    @property
    def finished(self) -> bool:
        """Nothing more will run: done, cancelled or failed."""
        return self.status in {self.Status.DONE, self.Status.CANCELLED, self.Status.FAILED}


class SimulationChunk(models.Model):
    """A run of consecutive matches of a job: one task, its result written once."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    job = models.ForeignKey(SimulationJob, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    start = models.PositiveIntegerField()  # the index of its first match in the job
    count = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    queued_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)  # or last heard of, playing
    finished_at = models.DateTimeField(null=True, blank=True)
    tallies = models.JSONField(null=True, blank=True)
    log = models.JSONField(null=True, blank=True)  # only when the job keeps the logs
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="simulationchunk_unique"),
        ]
        indexes = [models.Index(fields=["job", "status"], name="simulationchunk_status")]

    def __str__(self) -> str:
        return f"simulation {self.job_id} chunk {self.index}"
