"""Every refusal of the Event service, through the API: `{code, detail}` with its status,
and nothing written (no record, no season, Event or team)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from league_api_helpers import GAME, first_link, written
from rest_framework.test import APIClient

from league import events
from league.models import Event, EventMatch, Team

pytestmark = pytest.mark.django_db

# A setup gives the url, the body and, optionally, the client fixture (default: staff).
Setup = Callable[[pytest.FixtureRequest], tuple[Any, ...]]


def fx(request: pytest.FixtureRequest, name: str) -> Any:
    return request.getfixturevalue(name)


def draft(r: pytest.FixtureRequest, path: str) -> str:
    return f"/api/events/{fx(r, 'draft_event').pk}/{path}"


def running(r: pytest.FixtureRequest, path: str) -> tuple[Event, EventMatch, str]:
    event = fx(r, "running_event")
    return event, first_link(event), f"/api/events/{event.pk}/{path}"


def withdrawn_then_started(r: pytest.FixtureRequest, path: str) -> str:
    """A draft Event whose first entrant withdrew, then started without them."""
    event = fx(r, "draft_event")
    events.withdraw_entrant(event=event, by=fx(r, "organizer"), key="e1")
    events.start_event(event=event, by=fx(r, "organizer"))
    return f"/api/events/{event.pk}/{path}"


def swiss_running(r: pytest.FixtureRequest, path: str) -> str:
    """A started Swiss of four bots that does not hold its rounds."""
    event = fx(r, "make_event")("swiss")
    events.start_event(event=event, by=fx(r, "organizer"))
    return f"/api/events/{event.pk}/{path}"


def played(r: pytest.FixtureRequest, path: str) -> tuple[Event, EventMatch, str]:
    event, link, url = running(r, path)
    fx(r, "finish")(link, link.entrants[1])
    link.match.refresh_from_db()
    return event, link, url


def finished_event(r: pytest.FixtureRequest) -> Event:
    """A round robin of two bots whose one match is over: the Event is finished."""
    event = fx(r, "make_event")(bots=2)
    events.start_event(event=event, by=fx(r, "organizer"))
    link = first_link(event)
    fx(r, "finish")(link, link.entrants[0])
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    return event


def started(r: pytest.FixtureRequest, fmt: str, bots: int = 4) -> Event:
    event = fx(r, "make_event")(fmt, bots=bots)
    events.start_event(event=event, by=fx(r, "organizer"))
    return event


def twice(r: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    event = fx(r, "make_event")(bots=0)
    events.add_entrant(event=event, by=fx(r, "organizer"), player="alice")
    return f"/api/events/{event.pk}/entrants/", {"player": "alice", "name": "Alice again"}


def empty_team(r: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    Team.objects.create(name="Nobody home")
    return draft(r, "entrants/"), {"team": "Nobody home"}


def elimination_conflict(r: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    """Both semi-finals played, so the final was made with their winners."""
    event = started(r, "single_elimination")
    for link in EventMatch.objects.filter(event=event).select_related("match"):
        fx(r, "finish")(link, link.entrants[1])
    semi = EventMatch.objects.filter(event=event).order_by("round", "pairing").first()
    assert semi is not None and EventMatch.objects.filter(event=event).count() == 3
    first, second = semi.entrants
    return (f"/api/events/{event.pk}/corrections/",
            {"pairing": semi.pairing, "placements": {first: 2, second: 1}})


def correction(r: pytest.FixtureRequest, placements: Callable[[list[str]], dict[str, int]],
               play: bool = True) -> tuple[str, dict[str, Any]]:
    _, link, url = (played if play else running)(r, "corrections/")
    return url, {"pairing": link.pairing, "placements": placements(link.entrants)}


def seat(r: pytest.FixtureRequest, path: str, play: bool = False, **body: Any
         ) -> tuple[str, dict[str, Any]]:
    _, link, url = (played if play else running)(r, path)
    return url, {"pairing": link.pairing, "entrant": link.entrants[0], **body}


def seat_already_bot(r: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    """A second click on the same 'a bot plays this seat'."""
    event, link, url = running(r, "seat-to-bot/")
    entrant = link.entrants[0]
    now = link.match.seats.get(index=link.seats_of(entrant)[0]).bot
    body = {"pairing": link.pairing, "entrant": entrant,
            "bot": "heuristic" if now == "random" else "random"}
    events.seat_to_bot(event=event, by=fx(r, "organizer"), **body)
    return url, body


def moved_meanwhile(r: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    """The draft Event moved to another season since the client read it: moving it back
    from that read."""
    event = fx(r, "draft_event")
    read = event.seq
    spring = events.create_season(name="Spring league", game=GAME, by=fx(r, "organizer"))
    events.change_season(event=event, by=fx(r, "organizer"), season=spring)
    return (f"/api/events/{event.pk}/season/",
            {"season": fx(r, "season").pk, "expected_seq": read})


def outsider_of_link(r: pytest.FixtureRequest, path: str) -> tuple[str, dict[str, Any]]:
    event, link, url = running(r, path)
    other = next(e.key for e in event.entrants.all() if e.key not in link.entrants)
    return url, {"pairing": link.pairing, "entrant": other}


def taken_team(r: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    Team.objects.create(name="Reds")
    fx(r, "player")
    return "/api/teams/", {"name": "Reds", "members": ["alice"]}


def showdown_draft(r: pytest.FixtureRequest, path: str) -> str:
    """A draft round robin of Superstar Showdown, the Showdown series' game, of three bots."""
    organizer = fx(r, "organizer")
    event = events.create_event(name="Showdown night", game="superstar_showdown",
                                format="round_robin", by=organizer)
    for i in range(3):
        events.add_entrant(event=event, by=organizer, bot="random", name=f"Bot {i + 1}")
    return f"/api/events/{event.pk}/{path}"


def event_body(**extra: Any) -> dict[str, Any]:
    return {"name": "Week 3", "game": GAME, "format": "round_robin", **extra}


# case -> (setup giving the url and body, status, code)
REFUSALS: dict[str, tuple[Setup, int, str]] = {
    # seasons
    "a season of an unknown game": (lambda r: ("/api/seasons/", {"name": "X", "game": "chess"}),
                                    400, "unknown_game"),
    "a season without a name": (lambda r: ("/api/seasons/", {"name": " ", "game": GAME}),
                                400, "bad_name"),
    "a season scoring only wins": (lambda r: ("/api/seasons/", {"name": "X", "game": GAME,
                                                                "scoring": {"win": 3}}),
                                   400, "bad_scoring"),
    "a season scoring a loss above a win": (
        lambda r: ("/api/seasons/", {"name": "X", "game": GAME,
                                     "scoring": {"win": -5, "draw": 1, "loss": 0}}),
        400, "bad_scoring"),
    "a season scoring past a hundred points": (
        lambda r: ("/api/seasons/", {"name": "X", "game": GAME,
                                     "scoring": {"win": 10**9, "draw": 1, "loss": 0}}),
        400, "bad_scoring"),
    "a season ending before it starts": (
        lambda r: ("/api/seasons/", {"name": "X", "game": GAME, "starts_on": "2025-05-01",
                                     "ends_on": "2025-04-01"}), 400, "bad_dates"),
    # Events
    "an Event of an unknown game": (lambda r: ("/api/events/", event_body(game="chess")),
                                    400, "unknown_game"),
    "an Event of an unknown format": (lambda r: ("/api/events/", event_body(format="ladder")),
                                      400, "unknown_format"),
    "an Event with an unknown format option": (
        lambda r: ("/api/events/", event_body(format_options={"colour": "red"})),
        400, "unknown_option"),
    "an Event whose match options start no match": (
        lambda r: ("/api/events/", event_body(game="royal_rumble",
                                              match_options={"round_limit": -5})),
        400, "bad_option"),
    "an Event with Swiss rounds no field can play": (
        lambda r: ("/api/events/", event_body(format="swiss", format_options={"rounds": 99})),
        400, "bad_option"),
    "an Event with a turn deadline past thirty days": (
        lambda r: ("/api/events/", event_body(turn_deadline_minutes=10**9)), 400,
        "bad_deadline"),
    "an Event with an unknown match option": (
        lambda r: ("/api/events/", event_body(match_options={"colour": "red"})),
        400, "unknown_option"),
    "an Event of another game than its season's": (
        lambda r: ("/api/events/", event_body(game="superstar_showdown",
                                              season=fx(r, "season").pk)),
        400, "wrong_game"),
    "an Event of another game's format": (
        lambda r: ("/api/events/", event_body(format="showdown_series")), 400,
        "format_not_for_game"),
    "an Event without a name": (lambda r: ("/api/events/", event_body(name="")),
                                400, "bad_name"),
    "heats with tables too big for the game": (
        lambda r: ("/api/events/", event_body(format="heats", format_options={"pod_size": 3})),
        400, "bad_pod_size"),
    "an unknown deadline policy": (lambda r: ("/api/events/", event_body(deadline_policy="nap")),
                                   400, "bad_policy"),
    "an unknown deadline bot": (lambda r: ("/api/events/", event_body(deadline_bot="nope")),
                                400, "unknown_bot"),
    "a deadline of no minutes": (lambda r: ("/api/events/", event_body(turn_deadline_minutes=0)),
                                 400, "bad_deadline"),
    # entrants
    "an entrant twice": (twice, 409, "entrant_twice"),
    "an unknown bot": (lambda r: (draft(r, "entrants/"), {"bot": "nope"}), 400, "unknown_bot"),
    "an unknown player": (lambda r: (draft(r, "entrants/"), {"player": "nobody"}),
                          400, "unknown_player"),
    "an unknown team": (lambda r: (draft(r, "entrants/"), {"team": "Nobody"}),
                        400, "unknown_team"),
    "a team without members": (empty_team, 400, "empty_team"),
    "a player and a bot at once": (lambda r: (draft(r, "entrants/"),
                                              {"player": "alice", "bot": "random"}),
                                   400, "bad_entrant"),
    "a late entrant once the bracket has results": (
        lambda r: (f"/api/events/{elimination_started(r).pk}/entrants/", {"bot": "random"}),
        400, "already_started"),
    "an entrant in a finished Event": (
        lambda r: (f"/api/events/{finished_event(r).pk}/entrants/", {"bot": "random"}),
        409, "event_finished"),
    "a withdrawal of an unknown entrant": (lambda r: (draft(r, "entrants/e9/withdraw/"), {}),
                                           404, "unknown_entrant"),
    "a withdrawal from a finished Event": (
        lambda r: (f"/api/events/{finished_event(r).pk}/entrants/e1/withdraw/", {}),
        409, "event_finished"),
    "a reinstatement of an entrant not withdrawn": (
        lambda r: (draft(r, "entrants/e1/reinstate/"), {}), 404, "not_withdrawn"),
    "a reinstatement after a round was paired without them": (
        lambda r: (withdrawn_then_started(r, "entrants/e1/reinstate/"), {}),
        409, "reinstate_too_late"),
    # seeding and starting
    "seeding a started Event": (lambda r: (running(r, "seed/")[2], {"method": "random"}),
                                409, "event_started"),
    "seeding by an unknown method": (lambda r: (draft(r, "seed/"), {"method": "alphabet"}),
                                     400, "bad_method"),
    "seeding by hand without every entrant": (
        lambda r: (draft(r, "seed/"), {"method": "hand", "order": ["e1", "e2"]}),
        400, "bad_order"),
    "starting twice": (lambda r: (running(r, "start/")[2], {}), 409, "event_started"),
    # settings, until the start, checked as at the creation
    "settings of a started Event": (lambda r: (running(r, "settings/")[2],
                                               {"turn_deadline_minutes": 10}),
                                    409, "event_started"),
    "settings of a finished Event": (
        lambda r: (f"/api/events/{finished_event(r).pk}/settings/", {"format": "swiss"}),
        409, "event_finished"),
    "settings with a match option the game refuses": (
        lambda r: (draft(r, "settings/"), {"match_options": {"best_of": 2}}),
        400, "bad_option"),
    "settings with an option the format has not": (
        lambda r: (draft(r, "settings/"), {"format_options": {"rounds": 3}}),
        400, "unknown_option"),
    "settings scoring a loss above a win": (
        lambda r: (draft(r, "settings/"), {"format": "swiss", "format_options": {
            "win_points": 0, "draw_points": 0, "loss_points": 1}}), 400, "bad_scoring"),
    "settings with a deadline of no minutes": (
        lambda r: (draft(r, "settings/"), {"turn_deadline_minutes": 0}), 400, "bad_deadline"),
    "settings with an unknown deadline bot": (
        lambda r: (draft(r, "settings/"), {"deadline_bot": "oracle"}), 400, "unknown_bot"),
    "settings seating fewer than are entered": (
        lambda r: (showdown_draft(r, "settings/"), {"format": "showdown_series",
                                                    "match_options": {"event": "full_card"}}),
        409, "too_many_entrants"),
    "an Event of the Showdown series without its event option": (
        lambda r: ("/api/events/", event_body(game="superstar_showdown",
                                              format="showdown_series")),
        400, "series_needs_event"),
    "settings of the Showdown series without its event option": (
        lambda r: (showdown_draft(r, "settings/"), {"format": "showdown_series"}),
        400, "series_needs_event"),
    "settings with another game's format": (
        lambda r: (draft(r, "settings/"), {"format": "showdown_series"}),
        400, "format_not_for_game"),
    "a start asked of a field that changed since": (
        lambda r: (draft(r, "start/"), {"expected_entrants": 3}), 409, "entrants_changed"),
    "a bracket of one entrant": (
        lambda r: (f"/api/events/{fx(r, 'make_event')('single_elimination', bots=1).pk}"
                   "/start/", {}), 400, "too_few_entrants"),
    # pairing by hand
    "pairings before the start": (lambda r: (draft(r, "pairings/"),
                                             {"pairings": [["e1", "e2"], ["e3", "e4"]]}),
                                  409, "event_not_running"),
    "pairings while no round is held": (lambda r: (swiss_running(r, "pairings/"),
                                                   {"pairings": [["e1", "e2"], ["e3", "e4"]]}),
                                        409, "round_made"),
    "pairings in a round robin": (
        lambda r: (f"/api/events/{fx(r, 'held_event')('round_robin').pk}/pairings/",
                   {"pairings": [["e1", "e2"], ["e3", "e4"]]}), 400, "not_supported"),
    "pairings that leave an entrant out": (
        lambda r: (f"/api/events/{fx(r, 'held_event')('swiss').pk}/pairings/",
                   {"pairings": [["e1", "e2"]]}), 400, "missing_entrant"),
    "a release with no round held": (lambda r: (running(r, "release/")[2], {}),
                                     409, "nothing_held"),
    # forfeits and seats
    "a forfeit by a non-organizer": (lambda r: (*seat(r, "forfeit/"), "outsider_api"),
                                     403, "not_organizer"),
    "a forfeit in an unknown pairing": (
        lambda r: (running(r, "forfeit/")[2], {"pairing": "Z9", "entrant": "e1"}),
        404, "unknown_pairing"),
    "a forfeit by an entrant of another match": (lambda r: outsider_of_link(r, "forfeit/"),
                                                 400, "not_in_match"),
    "a forfeit of a match that is over": (lambda r: seat(r, "forfeit/", play=True),
                                          409, "match_not_active"),
    "a seat to an unknown bot": (lambda r: seat(r, "seat-to-bot/", bot="nope"),
                                 400, "unknown_bot"),
    "a seat to a bot after the match": (lambda r: seat(r, "seat-to-bot/", play=True),
                                        409, "match_over"),
    "a seat to a bot for an entrant of another match": (
        lambda r: outsider_of_link(r, "seat-to-bot/"), 400, "not_in_match"),
    "a forfeit by a key that is no entrant of the Event": (
        lambda r: seat(r, "forfeit/", entrant="e9"), 404, "unknown_entrant"),
    "a seat to a bot for a key that is no entrant of the Event": (
        lambda r: seat(r, "seat-to-bot/", entrant="e9"), 404, "unknown_entrant"),
    # corrections
    "a correction of a pairing with no result": (
        lambda r: correction(r, lambda ks: {ks[0]: 1, ks[1]: 2}, play=False),
        409, "no_result"),
    "a correction naming someone else": (lambda r: correction(r, lambda ks: {ks[0]: 1, "e9": 2}),
                                         400, "bad_placements"),
    "a correction with a place of zero": (lambda r: correction(r, lambda ks: {ks[0]: 0,
                                                                               ks[1]: 1}),
                                          400, "bad_placements"),
    "a correction with a place past the match's entrants": (
        lambda r: correction(r, lambda ks: {ks[0]: 1, ks[1]: 3}), 400, "bad_placements"),
    "a correction the bracket already contradicts": (elimination_conflict, 409,
                                                     "correction_conflicts"),
    # a client that read an older Event (expected_seq behind its seq)
    "an entrant on a stale read": (lambda r: (draft(r, "entrants/"),
                                              {"bot": "random", "expected_seq": 0}),
                                   409, "stale_seq"),
    "a withdrawal on a stale read": (lambda r: (draft(r, "entrants/e1/withdraw/"),
                                                {"expected_seq": 0}), 409, "stale_seq"),
    "a seeding on a stale read": (lambda r: (draft(r, "seed/"),
                                             {"method": "random", "expected_seq": 0}),
                                  409, "stale_seq"),
    "a start on a stale read": (lambda r: (draft(r, "start/"), {"expected_seq": 3}),
                                409, "stale_seq"),
    "settings on a stale read": (lambda r: (draft(r, "settings/"),
                                            {"format": "swiss", "expected_seq": 3}),
                                 409, "stale_seq"),
    "pairings on a stale read": (
        lambda r: (f"/api/events/{fx(r, 'held_event')('swiss').pk}/pairings/",
                   {"pairings": [["e1", "e2"], ["e3", "e4"]], "expected_seq": 1}),
        409, "stale_seq"),
    "a release on a stale read": (
        lambda r: (f"/api/events/{fx(r, 'held_event')('swiss').pk}/release/",
                   {"expected_seq": 1}), 409, "stale_seq"),
    "a forfeit on a stale read": (lambda r: seat(r, "forfeit/", expected_seq=1),
                                  409, "stale_seq"),
    "a seat to a bot on a stale read": (lambda r: seat(r, "seat-to-bot/", expected_seq=1),
                                        409, "stale_seq"),
    "a correction on a stale read": (
        lambda r: (lambda url, body: (url, {**body, "expected_seq": 1}))(
            *correction(r, lambda ks: {ks[0]: 1, ks[1]: 2})), 409, "stale_seq"),
    "a seat to the bot that already plays it": (seat_already_bot, 409, "already_bot"),
    # the season, of the Event's game, one the caller organizes
    "a season of another game": (lambda r: (draft(r, "season/"), {"season": events.create_season(
        name="Rumble league", game="royal_rumble", by=fx(r, "organizer")).pk}),
        400, "wrong_game"),
    "a season its organizer does not organize": (
        lambda r: (draft(r, "season/"), {"season": events.create_season(
            name="Spring league", game=GAME, by=fx(r, "organizer")).pk}, "player_api"),
        403, "not_organizer"),
    "no season, chosen by a season's organizer": (
        lambda r: (draft(r, "season/"), {"season": None}, "player_api"),
        403, "not_organizer"),
    "a season move on a stale read": (moved_meanwhile, 409, "stale_seq"),
    "a season that does not exist": (lambda r: (draft(r, "season/"), {"season": 10**9}),
                                     400, "invalid"),
    # the API's own checks
    "a body of the wrong shape": (lambda r: (running(r, "corrections/")[2],
                                             {"pairing": "R1-1", "placements": ["e1"]}),
                                  400, "invalid"),
    # the database would read 1.5 as the id 1, filing the Event under that season
    "a season id with a fraction": (lambda r: ("/api/events/", {
        "name": "Spring night", "game": GAME, "format": "swiss",
        "season": fx(r, "season").pk + 0.5}), 400, "invalid"),
    "a team with an unknown member": (lambda r: ("/api/teams/", {"name": "Reds",
                                                                 "members": ["nobody"]}),
                                      400, "unknown_player"),
    "a team name taken": (taken_team, 409, "team_exists"),
    "a team of nobody": (lambda r: ("/api/teams/", {"name": "Reds", "members": []}),
                         400, "empty_team"),
}


def elimination_started(r: pytest.FixtureRequest) -> Event:
    """A single elimination of four whose first semi-final is played."""
    event = started(r, "single_elimination")
    link = first_link(event)
    fx(r, "finish")(link, link.entrants[1])
    return event


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_refusal_has_its_code_and_writes_nothing(request: pytest.FixtureRequest,
                                                   organizer_api: APIClient, case: str) -> None:
    setup, status, code = REFUSALS[case]
    url, body, *who = setup(request)
    client = fx(request, who[0]) if who else organizer_api
    before = written()
    response = client.post(url, body, format="json")
    assert response.status_code == status, response.content
    data = response.json()
    # a stale read is told where the Event is now (its seq), to read it again from
    shape = {"code", "detail", "seq"} if code == "stale_seq" else {"code", "detail"}
    # and a refusal of one seat names its index (the entrant's seat in the match)
    shape |= {"seat"} if code in ("already_bot", "seat_out") else set()
    assert (data["code"], set(data)) == (code, shape)
    if code == "stale_seq":
        assert data["seq"] == Event.objects.get().seq
    assert written() == before

