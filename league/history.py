"""A player's matches as the league counts them.

The seats a player held, and those a bot took over from them (`Seat.stood_in_for`), are
their history. A match of an Event finishes for them as the Event recorded it, corrections
included: a team's seats share the team's place (a team win is a win, not a draw among
its own seats), so do the entrants the game played as one side (The Supershow's tag team
and handicap pairs: their side's win is a win for each), and an entrant who withdrew from
a pairing that went on without them placed after everyone in it. Until the Event has
recorded a finished match, the match's own places are counted by the same rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from league.formats import entrant_places, entrant_sides, outcomes, side_key
from league.models import EventMatch, EventRecord
from matches.models import Match
from matches.services import game_teams

RESULTS = (EventRecord.Kind.RESULT_RECORDED, EventRecord.Kind.RESULT_CORRECTED)


def held_by(user_id: int, prefix: str = "") -> Q:
    """Seats (or, with `prefix="seats__"`, matches) the user held or had a bot take over."""
    return Q(**{f"{prefix}user_id": user_id}) | Q(**{f"{prefix}stood_in_for_id": user_id})


def seat_of(match: Match, user_id: int) -> int | None:
    """The user's first seat in the match (read from prefetched seats)."""
    return next((s.index for s in match.seats.all()
                 if user_id in (s.user_id, s.stood_in_for_id)), None)


@dataclass(frozen=True)
class Finish:
    """Where a seat finished: its place among `of` sides, and win, draw or loss (in an
    Event as its standings count it: first place held by the seat's side alone wins, a
    tag team's included, and first shared with other sides draws; elsewhere first wins
    unless the result is a draw)."""

    place: int
    of: int
    outcome: str


class Finishes:
    """The finishes of some matches, their Events' results read at once."""

    def __init__(self, matches: Iterable[Match]) -> None:
        done = [m for m in matches if m.status == Match.Status.FINISHED]
        self.links = {link.match_id: link for link in
                      EventMatch.objects.filter(match__in=[m.pk for m in done])
                      .annotate(drawn=EventMatch.played_again())}
        # A drawn knockout match keeps its own (drawn) result; the pairing's is its replay's.
        by_pairing = {(link.event_id, link.pairing): link.match_id
                      for link in self.links.values() if not link.drawn}
        self.places: dict[int, dict[str, int]] = {}
        records = (EventRecord.objects.filter(event_id__in={k[0] for k in by_pairing},
                                              kind__in=RESULTS)
                   .order_by("seq").values_list("event_id", "payload"))
        for event_id, payload in records:
            match_id = by_pairing.get((event_id, payload.get("pairing")))
            if match_id is not None:
                self.places[match_id] = {k: int(v) for k, v in payload["placements"].items()}

    def of(self, match: Match, seat: int) -> Finish | None:
        """The seat's finish; None while the match is not over."""
        if match.status != Match.Status.FINISHED or not match.result:
            return None
        placements = match.result.get("placements") or []
        link, places = self.links.get(match.pk), self.places.get(match.pk)
        if link is not None:
            entrants = link.seat_entrants()
            if seat >= len(entrants):
                return None
            if not places and len(placements) == len(entrants):
                # Over, its Event's record still to come (a worker writes it): counted
                # from the match's own places by the rule the record will be counted by.
                places = entrant_places(placements, entrants)
            if places:
                return _event_finish(places, entrants, seat,
                                     entrant_sides(entrants, game_teams(match)))
        if seat >= len(placements):
            return None
        # No Event counts it: placed among the sides as an Event places its entrants (a
        # shared place skips the next: third of three after two share first), and the
        # result says whether it was drawn. The seats of a team that won (The Supershow's
        # tag teams) share first place, and won.
        seats = [str(s) for s in range(len(placements))]
        placed = _event_finish(entrant_places(placements, seats), seats, seat,
                               entrant_sides(seats, game_teams(match)))
        drawn = match.result.get("draw", placements.count(1) > 1)
        outcome = "loss" if placed.place != 1 else ("draw" if drawn else "win")
        return Finish(placed.place, placed.of, outcome)


def said(match: Match, finish: Finish | None) -> str:
    """A seat's finish as a player's match history words it: "Won", "Draw", "Lost" or,
    among more than two sides, "Place 3 of 4"; a match not over, "Open" or "Playing"."""
    if finish is None:
        if match.status == Match.Status.FINISHED:
            return "—"
        return "Open" if match.status == Match.Status.OPEN else "Playing"
    if finish.outcome != "loss":
        return {"win": "Won", "draw": "Draw"}[finish.outcome]
    return f"Place {finish.place} of {finish.of}" if finish.of > 2 else "Lost"


def _event_finish(places: dict[str, int], entrants: list[str], seat: int,
                  sides: dict[str, int]) -> Finish:
    """The seat's finish as its Event recorded its entrant's, counted by sides: entrants
    the game played as one (a tag team) won, drew or lost together, and place among the
    sides (the lone player a pair beat lost, second of two, not third of three). An
    entrant who withdrew from a pairing that went on without them placed after it."""
    entrant, placed = entrants[seat], {side_key(k, sides) for k in places}
    of = len({side_key(k, sides) for k in [*entrants, *places]})
    if entrant not in places:
        return Finish(len(placed) + 1, of, "loss")
    if 1 not in places.values():
        # Nobody won (every side forfeited together): each placed last, as recorded, not
        # first of a field nobody beat.
        return Finish(of, of, "loss")
    ahead = {side_key(k, sides) for k, place in places.items() if place < places[entrant]}
    return Finish(len(ahead) + 1, of, outcomes(places, sides)[entrant])


@dataclass(frozen=True)
class Meetings:
    """How one player finished against another over the finished matches both played."""

    ahead: int = 0
    behind: int = 0
    level: int = 0

    @property
    def total(self) -> int:
        return self.ahead + self.behind + self.level


def meetings(user_id: int, other_id: int) -> Meetings:
    """How `user_id` placed against `other_id` in the finished matches both played (their
    own seats or those a bot took over), by the places the league counts: ahead, behind,
    or level (a shared place: a draw, or the same team's side)."""
    together = list(Match.objects.filter(status=Match.Status.FINISHED)
                    .filter(held_by(user_id, "seats__")).filter(held_by(other_id, "seats__"))
                    .distinct().prefetch_related("seats"))
    finishes = Finishes(together)
    counts = {-1: 0, 0: 0, 1: 0}
    for match in together:
        mine, theirs = (finishes.of(match, seat) if seat is not None else None
                        for seat in (seat_of(match, user_id), seat_of(match, other_id)))
        if mine is not None and theirs is not None:
            counts[(mine.place > theirs.place) - (mine.place < theirs.place)] += 1
    return Meetings(ahead=counts[-1], behind=counts[1], level=counts[0])
