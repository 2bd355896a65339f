"""Superstar Showdown Events in the league service: presets and composed Events, the seats
of Red and Blue, and results recorded for sides of several seats.

These tests are not transactional, so bot seats never move (their tasks wait for commits
that never come): every match stays where it started unless a test finishes it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.superstar_showdown.event import PRESETS
from league import events, projections
from league.models import Event, EventMatch, EventRecord, Rating, Standing, Team
from league.services import player_for
from matches.models import Match

pytestmark = pytest.mark.django_db

GAME = "superstar_showdown"
SMALL = {"matches": [{"match": "head_to_head", "stipulation": None}] * 2,
         "superstars_per_team": 1}


def team(name: str, *users: Any) -> Team:
    made = Team.objects.create(name=name)
    made.members.set([player_for(u) for u in users])
    return made


def showdown(by: Any, **kwargs: Any) -> Event:
    kwargs.setdefault("preset", None)
    if kwargs["preset"] is None:
        kwargs.setdefault("matches", SMALL["matches"])
        kwargs.setdefault("superstars_per_team", SMALL["superstars_per_team"])
    return events.create_showdown_event(by=by, **kwargs)


def link_of(event: Event) -> EventMatch:
    return EventMatch.objects.select_related("match").get(event=event)


def seats_of(match: Match) -> list[str]:
    return [s.user.username if s.user else f"bot:{s.bot}"
            for s in match.seats.order_by("index").select_related("user")]


def finish(match: Match, placements: list[int], figures: dict[str, Any]) -> None:
    """End a match as the engine would have (its stream is not what is under test here)."""
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, result={
        "placements": placements, "figures": figures, "draw": False,
        "winners": [i for i, p in enumerate(placements) if p == 1]})
    match.refresh_from_db()


# -- creating ------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", list(PRESETS))
def test_ss160_ss161_ss162_each_preset_makes_an_event_in_one_call(organizer: Any,
                                                                  preset: str) -> None:
    """SS-160/SS-161/SS-162: Full Card, Tag Team Series and Ultimate Endurance are one call
    (one click on the dashboard) each: the preset's key is the engine's `event` option."""
    event = events.create_showdown_event(by=organizer, preset=preset)
    assert (event.game, event.format, event.status) == (GAME, "showdown_series", "draft")
    assert event.match_options["event"] == preset
    assert event.name == PRESETS[preset].title
    assert list(event.records.values_list("kind", flat=True)) == []


def test_the_full_cards_earlier_key_makes_a_full_card_event(organizer: Any) -> None:
    """A client that still sends "smackdown", the Full Card's earlier key, gets the Full
    Card, stored under today's key."""
    event = events.create_showdown_event(by=organizer, preset="smackdown")
    assert event.match_options["event"] == "full_card" and event.name == "Full Card"


def test_ss127_ss128_ss129_a_composed_event_becomes_the_engine_option(organizer: Any) -> None:
    """SS-127: a series of two Matches or more; SS-128/SS-129: each Match card and
    Stipulation chosen in advance, or left blank to be drawn at random."""
    matches = [{"match": "tag_team", "stipulation": "hardcore"},
               {"match": None, "stipulation": None},
               {"match": "gauntlet", "stipulation": None}]
    event = events.create_showdown_event(by=organizer, name="Friday", matches=matches,
                                         superstars_per_team=2)
    assert event.name == "Friday"
    assert event.match_options["event"] == {"matches": matches, "superstars_per_team": 2}


def test_a_composed_event_drafts_three_superstars_unless_told(organizer: Any) -> None:
    event = events.create_showdown_event(by=organizer, matches=SMALL["matches"])
    assert event.match_options["event"]["superstars_per_team"] == 3


REFUSALS = [
    ({"matches": [{"match": "head_to_head", "stipulation": None}]}, "too_few_matches"),
    ({"matches": []}, "too_few_matches"),
    ({"matches": [{"match": "cage_fight", "stipulation": None}] * 2}, "unknown_match_card"),
    ({"matches": [{"match": None, "stipulation": "mud_pit"}] * 2}, "unknown_stipulation"),
    ({"matches": SMALL["matches"], "superstars_per_team": 4}, "bad_superstars_per_team"),
    ({"matches": SMALL["matches"], "superstars_per_team": 0}, "bad_superstars_per_team"),
    ({"matches": SMALL["matches"], "superstars_per_team": "3"}, "bad_superstars_per_team"),
    ({"matches": [{"match": "six_man_tag", "stipulation": None}] * 2,
      "superstars_per_team": 2}, "too_few_superstars"),
    ({"matches": "two please"}, "bad_event"),
    ({"matches": [{"match": None, "stipulation": None, "crowd": "loud"}] * 2}, "bad_event"),
    ({"matches": [["tag_team", "hardcore"]] * 2}, "bad_event"),
    ({"preset": "wrestlemania"}, "unknown_preset"),
    ({"preset": "full_card", "matches": SMALL["matches"]}, "preset_or_compose"),
    ({"preset": "full_card", "sides": [{"bot": "random"}]}, "two_sides"),
    ({"preset": "full_card", "sides": [{"bot": "random"}, {"team": "Nobody"}]},
     "unknown_team"),
    ({"preset": "full_card", "sides": [{"bot": "random"}, {"bot": "grandmaster"}]},
     "unknown_bot"),
    ({"preset": "full_card", "match_options": {"round_limit": 0}}, "bad_option"),
    ({"preset": "full_card", "match_options": {"confetti": True}}, "unknown_option"),
]


@pytest.mark.parametrize(("kwargs", "code"), REFUSALS, ids=[c for _, c in REFUSALS])
def test_ss127_bad_events_are_refused_with_a_code_and_nothing_is_written(
        organizer: Any, kwargs: dict[str, Any], code: str) -> None:
    """SS-127: fewer than two Matches is not an Event; unknown cards, Stipulations, roster
    sizes, presets and sides are refused too, before anything is written."""
    with pytest.raises(events.LeagueError) as refused:
        events.create_showdown_event(by=organizer, **kwargs)
    assert refused.value.code == code
    assert refused.value.status == 400
    assert not Event.objects.exists() and not EventRecord.objects.exists()
    assert not Match.objects.exists()


def test_the_generic_event_form_checks_the_event_option_too(organizer: Any) -> None:
    with pytest.raises(events.LeagueError) as refused:
        events.create_event(name="Typed by hand", game=GAME, format="showdown_series",
                            by=organizer, match_options={"event": {"matches": []}})
    assert refused.value.code == "too_few_matches"


def test_a_showdown_series_without_the_event_option_is_refused(organizer: Any) -> None:
    """Its one match would be a single Match card (a short game, SS-127) labelled as the
    whole Event."""
    for options in (None, {}, {"event": None}):
        with pytest.raises(events.LeagueError) as refused:
            events.create_event(name="Typed by hand", game=GAME, format="showdown_series",
                                by=organizer, match_options=options)
        assert (refused.value.code, refused.value.status) == ("series_needs_event", 400)
    assert not Event.objects.exists()
    made = events.create_event(name="Typed by hand", game=GAME, format="showdown_series",
                               by=organizer, match_options={"event": "full_card"})
    assert made.match_options["event"] == "full_card"


def test_a_settings_change_dropping_the_event_option_is_refused(organizer: Any) -> None:
    event = showdown(organizer, preset="full_card")
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, match_options={})
    assert refused.value.code == "series_needs_event"
    event.refresh_from_db()
    assert event.match_options["event"] == "full_card"
    assert not EventRecord.objects.filter(event=event, kind="settings_changed").exists()


def test_an_outsider_cannot_create_one(outsider: Any) -> None:
    with pytest.raises(events.LeagueError) as refused:
        events.create_showdown_event(by=outsider, preset="full_card")
    assert (refused.value.code, refused.value.status) == ("not_organizer", 403)


def test_a_showdown_series_is_two_entrants_and_refuses_a_third_at_the_entry(
        organizer: Any) -> None:
    event = showdown(organizer)
    for _ in range(2):
        events.add_entrant(event=event, by=organizer, bot="random")
    seq = Event.objects.get(pk=event.pk).seq
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=event, by=organizer, bot="random")
    assert (refused.value.code, refused.value.status) == ("too_many_entrants", 409)
    assert Event.objects.get(pk=event.pk).seq == seq and event.entrants.count() == 2
    # One side withdrawn, another takes its place; the Event starts with the two.
    events.withdraw_entrant(event=event, by=organizer, key="e2")
    events.add_entrant(event=event, by=organizer, bot="random")
    events.start_event(event=event, by=organizer)
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING


# -- seats ---------------------------------------------------------------------------------

def test_ss114_a_two_member_team_against_a_bot_takes_two_seats_to_its_one(
        organizer: Any, player: Any, player2: Any) -> None:
    """SS-114: every member of a team plays (a seat each); a bot entrant is one seat that
    plays its whole side. Red holds the even seats, so the engine hears of the odd third
    seat through `teams`."""
    team("Tag Champs", player, player2)
    event = showdown(organizer, sides=[{"team": "Tag Champs"}, {"bot": "random"}])
    assert event.status == Event.Status.RUNNING
    link = link_of(event)
    assert seats_of(link.match) == ["alice", "bot:random", "bruno"]
    assert link.match.options["teams"] == [0, 1, 0]
    assert (link.entrants, link.seat_entrants()) == (["e1", "e2"], ["e1", "e2", "e1"])
    assert link.seats_of("e1") == [0, 2]
    assert link.match.options["event"] == SMALL


def test_a_bot_against_a_team_of_three_gives_blue_the_extra_seats(
        organizer: Any, player: Any, player2: Any, outsider: Any) -> None:
    team("Trio", player, player2, outsider)
    event = showdown(organizer, sides=[{"bot": "heuristic"}, {"team": "Trio"}])
    match = link_of(event).match
    assert seats_of(match) == ["bot:heuristic", "alice", "bruno", "olga"]
    assert match.options["teams"] == [0, 1, 1, 1]


def test_teams_of_equal_size_sit_red_blue_red_blue(organizer: Any, player: Any, player2: Any,
                                                   outsider: Any, django_user_model: Any
                                                   ) -> None:
    dora = django_user_model.objects.create_user(username="dora", password="x-pass-12345")
    team("Reds", player, player2)
    team("Blues", outsider, dora)
    match = link_of(showdown(organizer, sides=[{"team": "Reds"}, {"team": "Blues"}])).match
    assert seats_of(match) == ["alice", "olga", "bruno", "dora"]
    assert match.options.get("teams") is None  # the engine's default: seat s is team s % 2


def test_ss114_a_team_of_four_is_refused(organizer: Any, player: Any, player2: Any,
                                         outsider: Any, django_user_model: Any) -> None:
    """SS-114: a team is one to three players."""
    dora = django_user_model.objects.create_user(username="dora", password="x-pass-12345")
    team("Crowd", player, player2, outsider, dora)
    event = showdown(organizer)
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=event, by=organizer, team="Crowd")
    assert refused.value.code == "team_too_big"


def test_ss114_settings_that_make_an_entered_team_of_four_a_side_are_refused(
        organizer: Any, player: Any, player2: Any, outsider: Any, django_user_model: Any
        ) -> None:
    """SS-114: a plain Superstar Showdown round robin holds the team of four; changed into
    a Showdown Event, each member would take a seat of a side of one to three. Refused
    at the change (409 team_too_big), nothing written, where the start refused it."""
    dora = django_user_model.objects.create_user(username="dora", password="x-pass-12345")
    team("Crowd", player, player2, outsider, dora)
    event = events.create_event(name="Plain", game="superstar_showdown",
                                format="round_robin", by=organizer)
    events.add_entrant(event=event, by=organizer, team="Crowd")
    shape = showdown(organizer)
    before = Event.objects.get(pk=event.pk)
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, format=shape.format,
                               format_options=shape.format_options,
                               match_options=shape.match_options)
    assert (refused.value.code, refused.value.status) == ("team_too_big", 409)
    event.refresh_from_db()
    assert (event.format, event.match_options, event.seq) == (
        "round_robin", before.match_options, before.seq)
    assert not before.match_options.get("event")


# -- results -------------------------------------------------------------------------------

def test_ss130_the_winning_team_wins_the_league_event(organizer: Any, player: Any,
                                                      player2: Any) -> None:
    """SS-130: the engine's first place (most Ranking Points) wins the league Event; the
    side's figures come from its first seat."""
    team("Tag Champs", player, player2)
    event = showdown(organizer, sides=[{"team": "Tag Champs"}, {"bot": "random"}])
    link = link_of(event)
    red = {"ranking_points": 95.0, "match_points": 60.0, "bonus_points": 35.0,
           "matches_won": 2.0}
    blue = {"ranking_points": 40.0, "match_points": 10.0, "bonus_points": 30.0,
            "matches_won": 0.0}
    finish(link.match, [1, 2, 1], {"0": red, "1": blue, "2": red})
    assert events.record_match_result(match=link.match)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = {s.entrant.key: s for s in Standing.objects.filter(event=event)}
    assert (rows["e1"].rank, rows["e2"].rank) == (1, 2)
    assert rows["e1"].tiebreaks["figure:ranking_points"] == 95.0
    result = event.records.get(kind="result_recorded").payload
    assert result["placements"] == {"e1": 1, "e2": 2}


def test_one_member_forfeiting_loses_the_whole_team_the_event(organizer: Any, player: Any,
                                                              player2: Any) -> None:
    team("Tag Champs", player, player2)
    event = showdown(organizer, sides=[{"team": "Tag Champs"}, {"bot": "random"}])
    link = link_of(event)
    events.forfeit(event=event, by=organizer, pairing="S1", entrant="e1")
    link.match.refresh_from_db()
    assert link.match.result["forfeit"] == 0
    # The match says so too: Red's other seat lost with it, Blue alone won.
    assert (link.match.result["placements"], link.match.result["winners"]) == ([2, 1, 2], [1])
    assert events.record_match_result(match=link.match)
    result = event.records.get(kind="result_recorded").payload
    assert (result["placements"], result["forfeit"]) == ({"e1": 2, "e2": 1}, "e1")
    assert Standing.objects.get(event=event, rank=1).entrant.key == "e2"


def test_handing_a_team_to_a_bot_hands_over_every_seat_of_it(organizer: Any, player: Any,
                                                              player2: Any) -> None:
    team("Tag Champs", player, player2)
    event = showdown(organizer, sides=[{"team": "Tag Champs"}, {"bot": "random"}])
    events.seat_to_bot(event=event, by=organizer, pairing="S1", entrant="e1", bot="heuristic")
    assert seats_of(link_of(event).match) == ["bot:heuristic", "bot:random", "bot:heuristic"]
    assert event.records.get(kind="seat_to_bot").payload["seats"] == [0, 2]


def test_a_team_is_rated_once_however_many_seats_it_holds(organizer: Any, player: Any,
                                                           player2: Any, outsider: Any,
                                                           django_user_model: Any) -> None:
    dora = django_user_model.objects.create_user(username="dora", password="x-pass-12345")
    team("Reds", player, player2)
    team("Blues", outsider, dora)
    link = link_of(showdown(organizer, sides=[{"team": "Reds"}, {"team": "Blues"}]))
    finish(link.match, [2, 1, 2, 1], {})
    projections.refresh_ratings_after(link.match)
    ratings = {r.player.user.username: r for r in Rating.objects.select_related("player__user")}
    assert sorted(ratings) == ["alice", "bruno", "dora", "olga"]
    assert all(r.matches == 1 for r in ratings.values())
    assert ratings["olga"].ordinal > ratings["alice"].ordinal


def test_a_team_is_rated_at_its_worst_seats_place(organizer: Any, player: Any,
                                                   player2: Any, outsider: Any,
                                                   django_user_model: Any) -> None:
    """A forfeit places only the team's first seat last: the team lost, whatever place its
    other seat shows, and is rated as the loser (it was rated as a draw at its best)."""
    dora = django_user_model.objects.create_user(username="dora", password="x-pass-12345")
    team("Reds", player, player2)
    team("Blues", outsider, dora)
    link = link_of(showdown(organizer, sides=[{"team": "Reds"}, {"team": "Blues"}]))
    reds = [i for i, key in enumerate(link.seat_entrants()) if key == "e1"]
    finish(link.match, [2 if i == reds[0] else 1 for i in range(4)], {})
    projections.refresh_ratings_after(link.match)
    mu = {r.player.user.username: r.mu for r in Rating.objects.select_related("player__user")}
    assert mu["alice"] == mu["bruno"] < 25 < mu["olga"] == mu["dora"]


def test_a_late_member_alone_goes_to_the_bot_at_the_deadline(
        organizer: Any, player: Any, player2: Any, outsider: Any, django_user_model: Any
        ) -> None:
    """The deadline policy hands only the seat that let its turn pass to the bot; the rest
    of the team keeps playing."""
    from datetime import timedelta

    from django.utils import timezone

    from matches import services as match_services

    dora = django_user_model.objects.create_user(username="dora", password="x-pass-12345")
    team("Reds", player, player2)
    team("Blues", outsider, dora)
    event = showdown(organizer, sides=[{"team": "Reds"}, {"team": "Blues"}],
                     turn_deadline_minutes=5)
    match = link_of(event).match
    late = match_services.match_state(match=match, user=None)["pending"]["seats"]
    assert late
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    assert events.enforce_deadlines() == len(late)
    seated = seats_of(match)
    people = ["alice", "olga", "bruno", "dora"]
    assert seated == [f"bot:{event.deadline_bot}" if i in late else people[i] for i in range(4)]
    record = event.records.filter(kind="seat_to_bot").first()
    assert record is not None and record.payload["seats"] == [late[0]]


def reds_and_blues(organizer: Any, player: Any, player2: Any, outsider: Any,
                   django_user_model: Any, **settings: Any) -> Event:
    """An Event of Reds (alice, bruno) against Blues (olga, dora), started."""
    dora = django_user_model.objects.create_user(username="dora", password="x-pass-12345")
    team("Reds", player, player2)
    team("Blues", outsider, dora)
    return showdown(organizer, sides=[{"team": "Reds"}, {"team": "Blues"}], **settings)


def rated_after_and_rebuilt(match: Match) -> tuple[list[str], list[str]]:
    """Who is rated once the finished match is rated, and again after a rebuild of every
    projection."""
    def names() -> list[str]:
        return sorted(Rating.objects.values_list("player__user__username", flat=True))

    projections.refresh_ratings_after(match)
    first = names()
    projections.rebuild_all()
    return first, names()


def test_a_player_whose_seat_went_to_a_bot_is_not_rated(organizer: Any, player: Any,
                                                        player2: Any) -> None:
    """A single player on each side: one handed to a bot leaves no person on that side,
    so the match rates nobody."""
    event = showdown(organizer, sides=[{"player": player.username},
                                       {"player": player2.username}])
    link = link_of(event)
    events.seat_to_bot(event=event, by=organizer, pairing=link.pairing, entrant="e1",
                       bot="heuristic")
    assert seats_of(link.match) == ["bot:heuristic", "bruno"]
    finish(link.match, [2, 1], {})
    assert rated_after_and_rebuilt(link.match) == ([], [])


def test_a_team_whose_every_seat_went_to_a_bot_is_not_rated(organizer: Any, player: Any,
                                                             player2: Any, outsider: Any,
                                                             django_user_model: Any) -> None:
    """As the single player: a team the organizer handed to a bot is not rated, and the
    other team is not rated against the bot; a rebuild agrees."""
    event = reds_and_blues(organizer, player, player2, outsider, django_user_model)
    link = link_of(event)
    events.seat_to_bot(event=event, by=organizer, pairing=link.pairing, entrant="e1",
                       bot="heuristic")
    assert seats_of(link.match) == ["bot:heuristic", "olga", "bot:heuristic", "dora"]
    finish(link.match, [2, 1, 2, 1], {})
    assert rated_after_and_rebuilt(link.match) == ([], [])


def test_a_team_with_one_seat_a_bot_played_is_not_rated(
        organizer: Any, player: Any, player2: Any, outsider: Any, django_user_model: Any
        ) -> None:
    """A team's result is the whole team's: a late member handed to the bot at the
    deadline makes it partly the bot's, so the team is not rated, as a single player
    handed to a bot is not; the other team then has nobody to be rated against."""
    from datetime import timedelta

    from django.utils import timezone

    from matches import services as match_services

    event = reds_and_blues(organizer, player, player2, outsider, django_user_model,
                           turn_deadline_minutes=5)
    match = link_of(event).match
    late = match_services.match_state(match=match, user=None)["pending"]["seats"]
    assert len(late) == 1  # one member of one team, the other three people still
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    assert events.enforce_deadlines() == 1
    people = ["alice", "olga", "bruno", "dora"]
    assert seats_of(match) == [f"bot:{event.deadline_bot}" if i in late else people[i]
                               for i in range(4)]
    finish(match, [2, 1, 2, 1], {})
    assert rated_after_and_rebuilt(match) == ([], [])


def test_the_teams_a_bot_did_not_play_for_are_rated_as_before(
        organizer: Any, player: Any, player2: Any, outsider: Any, django_user_model: Any
        ) -> None:
    """Nothing handed over: both teams are rated, at once and by a rebuild alike."""
    link = link_of(reds_and_blues(organizer, player, player2, outsider, django_user_model))
    finish(link.match, [2, 1, 2, 1], {})
    everyone = ["alice", "bruno", "dora", "olga"]
    assert rated_after_and_rebuilt(link.match) == (everyone, everyone)


def test_a_team_win_is_a_win_in_every_members_history(organizer: Any, player: Any,
                                                      player2: Any, outsider: Any,
                                                      django_user_model: Any,
                                                      client_for: Any) -> None:
    """The team's seats share its place: the winners' history says win (it said draw,
    two seats at place 1), the losers' loss, as the Event recorded it."""
    dora = django_user_model.objects.create_user(username="dora", password="x-pass-12345")
    team("Reds", player, player2)
    team("Blues", outsider, dora)
    link = link_of(showdown(organizer, sides=[{"team": "Reds"}, {"team": "Blues"}]))
    blues = [i for i, key in enumerate(link.seat_entrants()) if key == "e2"]
    finish(link.match, [1 if i in blues else 2 for i in range(4)], {})
    assert events.record_match_result(match=link.match)
    api = client_for(player)
    for user, outcome in ((player, "loss"), (player2, "loss"), (outsider, "win"), (dora, "win")):
        rows = api.get(f"/api/players/{player_for(user).pk}/matches/").json()["results"]
        assert [(r["id"], r["outcome"]) for r in rows] == [(link.match_id, outcome)], user
    found = api.get(f"/api/players/{player_for(dora).pk}/matches/?result=win").json()
    assert [r["id"] for r in found["results"]] == [link.match_id]


def test_a_team_half_handed_to_the_bot_at_the_deadline_is_handed_whole_by_its_organizer(
        organizer: Any, player: Any, player2: Any) -> None:
    """The deadline gave one member's seat to the Event's bot; the organizer then hands
    the team to that bot: the other member's seat goes to it too (it was refused,
    already_bot, for the seat the bot held)."""
    team("Tag Champs", player, player2)
    event = showdown(organizer, sides=[{"team": "Tag Champs"}, {"bot": "random"}])
    link = link_of(event)
    # as the deadline sweep hands the late member alone
    events._seat_to_bot(event, link, "e1", "heuristic", None, seats=[0])
    assert seats_of(link.match) == ["bot:heuristic", "bot:random", "bruno"]
    events.seat_to_bot(event=event, by=organizer, pairing="S1", entrant="e1", bot="heuristic")
    assert seats_of(link.match) == ["bot:heuristic", "bot:random", "bot:heuristic"]
    handed = event.records.filter(kind="seat_to_bot").last()
    assert handed is not None and handed.payload["seats"] == [2]
    with pytest.raises(events.LeagueError) as exc:
        events.seat_to_bot(event=event, by=organizer, pairing="S1", entrant="e1",
                           bot="heuristic")
    assert exc.value.code == "already_bot"
