"""A match is an append-only stream of events; its state is rebuilt by replay.

`Match.seq` is the seq of the last appended event (0 before any), kept on the row so an
append can lock the row, read the seq and write the next one without a gap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, NoReturn

from django.conf import settings
from django.db import models

KEY_LENGTH = 128  # an idempotency key, on a match (its creation) and on an event
# The users a seat names (its label, the API): who sits, who is invited, whom a bot stands
# in for; loaded with the seats wherever many are shown.
PEOPLE = ("user", "invited", "stood_in_for")
SEAT_PEOPLE = tuple(f"seats__{field}" for field in PEOPLE)


class Match(models.Model):
    """One game played at one table; its truth is the `events` stream."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"

    game = models.CharField(max_length=64, db_index=True)
    options = models.JSONField(default=dict, blank=True)
    n_seats = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    seq = models.PositiveIntegerField(default=0)
    # The game's rules version the stream is recorded under (GameSpec.rules_version): a
    # stream is only replayed by the rules it was played by.
    rules_version = models.PositiveSmallIntegerField(default=1)
    result = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="created_matches",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When it ended (its result written), set once: `updated_at` moves with any later save
    # of the row. A match finished before this was kept holds its last save of then.
    finished_at = models.DateTimeField(null=True, blank=True)
    # The client's key for the request that created it: a retried create gets this match.
    idempotency_key = models.CharField(max_length=KEY_LENGTH, blank=True, default="")
    # The finished match this one plays again, at the same seats with the same options.
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="rematches")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["created_by", "idempotency_key"],
                                    condition=~models.Q(idempotency_key=""),
                                    name="match_unique_creation_key"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} ({self.status})"


class Seat(models.Model):
    """A place at the table: a user, a bot, or still open.

    An open seat may be held for one invited player: a player who makes a match and names
    another one there invites them, and only they may take that seat (or decline it, which
    opens it to anyone). Nobody is seated in a match without their say.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="seats",
    )
    bot = models.CharField(max_length=64, blank=True)
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="invitations",
    )
    # The player whose seat a bot took over (an absent player, a turn deadline): the
    # match stays in their history, and the Event's result still counts for them.
    stood_in_for = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="seats_stood_in_for",
    )
    # Whether the live match waits for this seat's decision now (a projection of the
    # stream, written with each append; public, as every seat's view shows whose turn it is).
    awaited = models.BooleanField(default=False)
    # The match's `seq` when its player was last mailed that it waits for them
    # (league.turn_mail): one mail a wait.
    mailed_seq = models.PositiveIntegerField(null=True, blank=True)
    # How many times in a row the mail server refused that mail: the seat is claimed
    # again for the next sweep until league.services.MAIL_TRIES, then given up.
    mail_tries = models.PositiveSmallIntegerField(default=0)
    # A bot task's claim on this seat's decision at the match's seq `bot_claim_seq`, taken
    # before the bot thinks (matches.services.claim_bot_turn): another task for the same
    # decision (a copy the sweep or a hand-over queued, a redelivery) leaves it to the
    # claim's run, `bot_claim` (a token, 0 for none), until `bot_claimed_at`, which the
    # run beats on while its bot thinks, is older than BOT_CLAIM_SECONDS (its worker
    # died): then the sweep queues the seat again.
    bot_claim = models.PositiveIntegerField(default=0)
    bot_claim_seq = models.PositiveIntegerField(null=True, blank=True)
    bot_claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=True) | models.Q(bot=""),
                name="seat_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index}: {self.label}"

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot

    def is_open_to(self, user: Any) -> bool:
        """Whether `user` may take this seat: open, and held for nobody else."""
        return self.is_open and self.invited_id in (None, user.pk)

    # Set by `tell_apart` on the seats of a match that a page names together.
    numbered = False
    # Set by the page of an Event's match on a bot's seat: the name its entrant entered
    # under, as the Event's pages name it ("heuristic bot 2"), so that both agree.
    entrant_name = ""

    @property
    def label(self) -> str:
        """Who sits here, as shown at the table, a closed account as "Closed account"
        (`shown_name`); with its number where another seat of the page's match reads the
        same (`tell_apart`)."""
        name = self._who()
        return f"{name} (seat {self.index + 1})" if self.numbered else name

    def _who(self) -> str:
        """Who sits here, by name alone."""
        from league.services import shown_name

        if self.user_id is not None:
            return shown_name(self.user)
        if self.bot:
            if self.stood_in_for_id is not None:
                return f"bot: {self.bot} for {shown_name(self.stood_in_for)}"
            return self.entrant_name or f"bot: {self.bot}"
        if self.invited_id is not None:
            return f"invited: {shown_name(self.invited)}"
        return "open"


class Departure(models.Model):
    """A player who left a seat of an open match, or declined the invitation it held for
    them: a leave sent again, its answer lost, is answered as the first was ("left",
    "declined"), writing nothing, where it would otherwise be refused as coming from
    someone who holds no seat (403 not_seated). Gone with its match."""

    class Outcome(models.TextChoices):
        LEFT = "left"
        DECLINED = "declined"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="departures")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    seat = models.PositiveSmallIntegerField()  # the seat left, or held for the invitation
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user", "seat"],
                                    name="departure_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.outcome} seat {self.seat} of match {self.match_id}"


def tell_apart(seats: list[Seat]) -> list[Seat]:
    """The `seats` of one match, each whose label another shares numbered ("bot: heuristic
    (seat 3)"): a Royal Rumble against the lobby's bots seats three "bot: heuristic", and
    its page, which names seats by their labels (its narration too), could not say which
    one attacked, nor which won."""
    alike = Counter(seat.label for seat in seats)
    for seat in seats:
        seat.numbered = alike[seat.label] > 1
    return seats


def named_as_shown(tables: Iterable[tuple[Match, list[Seat]]]) -> None:
    """Each table's seats (a match and its seats, in order) labelled as its pages name
    them: a bot an Event seated by the name its entrant entered under ("heuristic bot 2",
    not "bot: heuristic"), so that the table, the Event's pages and the API agree on who
    played (a bot standing in for a player keeps saying for whom), then told apart
    (`tell_apart`). The bot entrants of every Event among them are read at once."""
    from league.models import Entrant
    from matches.services import is_event_match

    tables = list(tables)
    wanted: dict[int, list[tuple[Seat, str]]] = {}
    for match, seats in tables:
        bots = [seat for seat in seats if seat.bot and seat.stood_in_for_id is None]
        if not bots or not is_event_match(match):  # (its link read only where it names)
            continue
        keys = match.event_match.seat_entrants()
        wanted.setdefault(match.event_match.event_id, []).extend(
            (seat, keys[seat.index]) for seat in bots if seat.index < len(keys))
    if wanted:
        names = {(event, key): name for event, key, name in Entrant.objects.filter(
            event_id__in=wanted).exclude(bot="").values_list("event_id", "key", "name")}
        for event, seats_and_keys in wanted.items():
            for seat, key in seats_and_keys:
                seat.entrant_name = names.get((event, key), "")
    for _, seats in tables:
        tell_apart(seats)


class AppendOnlyError(RuntimeError):
    """Somebody tried to rewrite or erase a stored event."""


class MatchEventQuerySet(models.QuerySet["MatchEvent"]):
    """Bulk updates and deletes would rewrite history; they are refused."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("Match events are never updated.")

    def delete(self) -> NoReturn:
        raise AppendOnlyError("Match events are never deleted.")


class MatchEvent(models.Model):
    """One appended event: a seat's decision, a stored chance outcome, or a seat's forfeit
    in a game that eliminates it and plays on (engine/protocol.py)."""

    class Kind(models.TextChoices):
        DECISION = "decision", "Decision"
        CHANCE = "chance", "Chance"
        FORFEIT = "forfeit", "Forfeit"

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # {"action": {...}} for a decision, {"outcome": {...}} for chance, {"reason": "resigned"}
    # for a forfeit.
    payload = models.JSONField()
    idempotency_key = models.CharField(max_length=KEY_LENGTH, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = MatchEventQuerySet.as_manager()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="matchevent_unique_seq"),
            models.UniqueConstraint(
                fields=["match", "seat", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="matchevent_unique_seat_key",
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} #{self.seq} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert only: an event once written is history."""
        if not self._state.adding:
            raise AppendOnlyError("Match events are never updated.")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("Match events are never deleted.")

    def to_event_json(self) -> dict[str, Any]:
        """The engine's stored form of this event."""
        if self.kind == self.Kind.DECISION:
            return {"kind": "decision", "seat": self.seat, "action": self.payload["action"]}
        if self.kind == self.Kind.FORFEIT:
            return {"kind": "forfeit", "seat": self.seat}
        return {"kind": "chance", "outcome": self.payload["outcome"]}
