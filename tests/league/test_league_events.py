"""The Event service: organizer decisions as records, matches made and results recorded."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from league import events, formats, projections, serializers
from league.models import (
    Entrant,
    Event,
    EventMatch,
    EventRecord,
    Rating,
    RoundScore,
    Standing,
)
from league.services import player_for, rename_player
from matches import services as match_services
from matches.models import Match
from tests.conftest import played_until

GAME = "super_showdown"


def make_event(by: Any, fmt: str = "round_robin", **kwargs: Any) -> Event:
    return events.create_event(name="Thursday night", game=GAME, format=fmt, by=by, **kwargs)


def enter_bots(event: Event, by: Any, n: int) -> list[str]:
    names = ["random", "heuristic"]
    return [events.add_entrant(event=event, by=by, bot=names[i % 2], name=f"Bot {i + 1}").key
            for i in range(n)]


def records(event: Event) -> list[str]:
    return list(event.records.order_by("seq").values_list("kind", flat=True))


@pytest.mark.django_db
def test_each_organizer_decision_is_a_record_in_the_stream(organizer: Any) -> None:
    event = make_event(organizer)
    keys = enter_bots(event, organizer, 3)
    events.seed_event(event=event, by=organizer, method="hand", order=keys[::-1])
    events.withdraw_entrant(event=event, by=organizer, key=keys[0])
    assert records(event) == ["entrant_added"] * 3 + ["seeded", "entrant_withdrawn"]
    assert [e.withdrawn for e in Entrant.objects.filter(event=event).order_by("key")] == [
        True, False, False]


@pytest.mark.django_db
def test_an_entrant_twice_is_refused_and_nothing_is_written(organizer: Any, player: Any) -> None:
    event = make_event(organizer)
    events.add_entrant(event=event, by=organizer, player=player.username)
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=event, by=organizer, player=player.username)
    assert refused.value.code == "entrant_twice"
    assert EventRecord.objects.filter(event=event).count() == 1


@pytest.mark.django_db
def test_a_team_or_player_is_entered_by_name_in_any_case(organizer: Any, player: Any,
                                                        player2: Any) -> None:
    """Names are unique ignoring case, so the spelling does not matter."""
    event = make_event(organizer)
    team = events.create_team(name="Reds", members=[player2.username], by=organizer)
    assert events.add_entrant(event=event, by=organizer, team="REDS").team_id == team.pk
    entrant = events.add_entrant(event=event, by=organizer, player=player.username.upper())
    assert entrant.player is not None and entrant.player.user == player
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=event, by=organizer, team="Blues")
    assert refused.value.code == "unknown_team"


@pytest.mark.django_db
@pytest.mark.parametrize("first", ["player", "team"])
def test_one_person_plays_for_one_entrant_of_an_event(organizer: Any, player: Any,
                                                      player2: Any, first: str) -> None:
    """A player entered alone and in a team (or in two teams) sat on both sides of a
    match, and was served the other side's hidden cards as their own seat's."""
    event = make_event(organizer)
    events.create_team(name="Reds", members=[player.username, player2.username], by=organizer)
    events.create_team(name="Blues", members=[player.username], by=organizer)
    entries = {"player": {"player": player.username}, "team": {"team": "Reds"}}
    events.add_entrant(event=event, by=organizer, **entries[first])
    for second in ({"team": "Blues"}, entries["team" if first == "player" else "player"]):
        with pytest.raises(events.LeagueError) as refused:
            events.add_entrant(event=event, by=organizer, **second)
        assert (refused.value.code, refused.value.status) == ("entrant_overlaps", 409)
        assert player.username in refused.value.detail
    assert records(event) == ["entrant_added"]
    events.withdraw_entrant(event=event, by=organizer, key="e1")  # left: free to enter again
    assert events.add_entrant(event=event, by=organizer, team="Blues").team is not None


@pytest.mark.django_db
def test_the_overlap_refusal_says_whether_the_player_entered_alone_or_in_a_team(
        organizer: Any, player: Any, player2: Any) -> None:
    """A team with alice refused as she entered alone read "alice already plays in this
    Event for alice", her own name standing as if it were a team's."""
    event = make_event(organizer)
    events.create_team(name="Reds", members=[player.username, player2.username], by=organizer)
    events.create_team(name="Blues", members=[player.username], by=organizer)
    events.add_entrant(event=event, by=organizer, player=player.username)
    with pytest.raises(events.LeagueError) as alone:
        events.add_entrant(event=event, by=organizer, team="Reds")
    assert alone.value.detail == (f"{player.username} already plays in this Event, entered "
                                  f"alone, as {player.username}.")
    events.withdraw_entrant(event=event, by=organizer, key="e1")
    events.add_entrant(event=event, by=organizer, team="Reds")
    with pytest.raises(events.LeagueError) as teamed:
        events.add_entrant(event=event, by=organizer, team="Blues")
    assert teamed.value.detail == f"{player.username} already plays in this Event, for Reds."


@pytest.mark.django_db
def test_a_bracket_of_one_entrant_cannot_start(organizer: Any) -> None:
    event = make_event(organizer, fmt="single_elimination")
    enter_bots(event, organizer, 1)
    with pytest.raises(events.LeagueError) as refused:
        events.start_event(event=event, by=organizer)
    assert refused.value.code == "too_few_entrants"
    assert records(event) == ["entrant_added"]


@pytest.mark.django_db
def test_an_outsider_cannot_organize(organizer: Any, outsider: Any) -> None:
    event = make_event(organizer)
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=event, by=outsider, bot="random")
    assert (refused.value.code, refused.value.status) == ("not_organizer", 403)
    with pytest.raises(events.LeagueError):
        events.create_event(name="Mine", game=GAME, format="swiss", by=outsider)


@pytest.mark.django_db
def test_a_season_organizer_organizes_its_events_but_no_other(organizer: Any, player: Any,
                                                              outsider: Any) -> None:
    season = events.create_season(name="Autumn", game=GAME, by=organizer)
    season.organizers.add(player)
    mine = events.create_event(name="Week 1", game=GAME, format="swiss", by=player,
                               season=season)
    assert events.can_organize(mine, player)
    assert not events.can_organize(mine, outsider)
    other = make_event(organizer)
    assert not events.can_organize(other, player)


@pytest.mark.django_db
def test_an_event_of_another_game_than_its_season_is_refused_naming_both_games(
        organizer: Any) -> None:
    """The refusal names the games as the pages do, not by their keys."""
    season = events.create_season(name="Autumn", game=GAME, by=organizer)
    with pytest.raises(events.LeagueError) as refused:
        events.create_event(name="Rumble", game="royal_rumble", format="heats", by=organizer,
                            season=season)
    assert (refused.value.code, refused.value.detail) == (
        "wrong_game", "This season plays Super Showdown, not Royal Rumble.")
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_the_showdown_series_is_refused_to_another_game_naming_both_games(
        organizer: Any) -> None:
    """The Showdown series is a Superstar Showdown Event's: for another game it was a
    single match labelled "Event" standing for the whole Event."""
    with pytest.raises(events.LeagueError) as refused:
        make_event(organizer, fmt="showdown_series")
    assert (refused.value.code, refused.value.status, refused.value.detail) == (
        "format_not_for_game", 400, "The format 'showdown_series' is for Superstar Showdown "
        "Events only, not Super Showdown: choose another format.")
    assert not Event.objects.exists()
    made = events.create_event(name="Series", game="superstar_showdown",
                               format="showdown_series", by=organizer,
                               match_options={"event": "full_card"})
    assert (made.game, made.format) == ("superstar_showdown", "showdown_series")


@pytest.mark.django_db
def test_a_settings_change_to_the_showdown_series_is_refused_to_another_game(
        organizer: Any) -> None:
    event = make_event(organizer)
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, format="showdown_series")
    assert refused.value.code == "format_not_for_game"
    assert settings_of(event)["format"] == "round_robin"
    assert "settings_changed" not in records(event)


@pytest.mark.django_db
def test_an_event_stored_with_another_games_series_is_told_to_change_its_format(
        organizer: Any) -> None:
    """One made before the format was kept to its game: a change keeping the format says
    the stored format is refused now; changing it too is saved."""
    event = make_event(organizer)
    Event.objects.filter(pk=event.pk).update(format="showdown_series")
    event.refresh_from_db()
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, turn_deadline_minutes=60)
    assert refused.value.code == "format_not_for_game"
    assert refused.value.detail.startswith("The Event's format as stored is refused now")
    events.change_settings(event=event, by=organizer, format="swiss",
                           turn_deadline_minutes=60)
    assert settings_of(event)["format"] == "swiss"


@pytest.mark.django_db
def test_bad_options_are_refused_before_anything_is_written(organizer: Any) -> None:
    for kwargs, code in [
        ({"format": "ladder"}, "unknown_format"),
        ({"game": "chess"}, "unknown_game"),
        ({"match_options": {"best_of": 4}}, "bad_option"),
        ({"deadline_bot": "grandmaster"}, "unknown_bot"),
    ]:
        args = {"name": "x", "game": GAME, "format": "round_robin", "by": organizer, **kwargs}
        with pytest.raises(events.LeagueError) as refused:
            events.create_event(**args)
        assert refused.value.code == code
    assert not Event.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_round_robin_of_bots_runs_to_its_end_untouched(organizer: Any) -> None:
    """Matches are made, bots play them in-process, results record and advance."""
    event = make_event(organizer)
    enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    links = EventMatch.objects.filter(event=event)
    assert links.count() == 6  # every pair once
    assert all(link.match.status == Match.Status.FINISHED for link in links)
    standings = list(Standing.objects.filter(event=event).order_by("rank"))
    assert len(standings) == 4
    assert sum(s.wins for s in standings) + sum(s.draws for s in standings) // 2 == 6
    assert all(s.wins + s.draws + s.losses == 3 for s in standings)
    assert records(event).count("result_recorded") == 6
    assert records(event)[-1] == "finished"


@pytest.mark.django_db(transaction=True)
def test_seeding_a_started_event_is_refused(organizer: Any) -> None:
    event = make_event(organizer)
    enter_bots(event, organizer, 2)
    events.start_event(event=event, by=organizer)
    before = EventRecord.objects.filter(event=event).count()
    with pytest.raises(events.LeagueError) as refused:
        events.seed_event(event=event, by=organizer, method="random")
    assert refused.value.code == "event_started"
    assert EventRecord.objects.filter(event=event).count() == before


@pytest.mark.django_db(transaction=True)
def test_a_result_is_recorded_once_however_often_it_is_announced(organizer: Any) -> None:
    event = make_event(organizer)
    enter_bots(event, organizer, 2)
    events.start_event(event=event, by=organizer)
    match = EventMatch.objects.get(event=event).match
    assert events.record_match_result(match=match) is False
    assert records(event).count("result_recorded") == 1


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_and_a_seat_handed_to_a_bot_are_records(organizer: Any, player: Any,
                                                         player2: Any) -> None:
    event = make_event(organizer, fmt="single_elimination")
    a = events.add_entrant(event=event, by=organizer, player=player.username).key
    b = events.add_entrant(event=event, by=organizer, player=player2.username).key
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    events.seat_to_bot(event=event, by=organizer, pairing=link.pairing, entrant=a, bot="random")
    assert link.match.seats.get(index=0).bot == "random"
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=b)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert records(event)[-4:] == ["seat_to_bot", "forfeited", "result_recorded", "finished"]
    top = Standing.objects.filter(event=event).order_by("rank").first()
    assert top is not None and top.entrant.key == a


@pytest.mark.django_db(transaction=True)
def test_a_turn_deadline_hands_a_late_seat_to_a_bot(organizer: Any, player: Any,
                                                   player2: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    event = make_event(organizer, fmt="single_elimination", turn_deadline_minutes=5)
    events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, player=player2.username)
    events.start_event(event=event, by=organizer)
    assert events.enforce_deadlines() == 0  # nobody is late yet
    assert events.enforce_deadlines(now=timezone.now() + timedelta(minutes=6)) >= 1
    event.refresh_from_db()
    assert "seat_to_bot" in records(event)


@pytest.mark.django_db(transaction=True)
def test_a_match_whose_stream_no_longer_replays_waits_for_its_organizer_past_its_deadline(
        organizer: Any, player: Any, player2: Any) -> None:
    """Stored before games had rules versions (version 1), its stream refused by the rules
    of the day: the deadline sweep leaves it to its organizer, as it does a match under an
    earlier version, and goes on with the others instead of failing."""
    import json
    from datetime import timedelta

    from django.db import connection
    from django.utils import timezone

    event = make_event(organizer, fmt="single_elimination", turn_deadline_minutes=5)
    events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, player=player2.username)
    events.start_event(event=event, by=organizer)
    match = EventMatch.objects.get(event=event).match
    first = match.events.order_by("seq").first()
    payload = {"action": {"type": "no_such_action"}} if first.kind == "decision" else \
        {"outcome": {"no_such_outcome": True}}
    with connection.cursor() as cursor:  # the rows are append-only for the ORM
        cursor.execute("UPDATE matches_matchevent SET payload = %s WHERE id = %s",
                       [json.dumps(payload), first.pk])
    match_services.clear_state_cache()
    assert events.enforce_deadlines(now=timezone.now() + timedelta(minutes=6)) == 0
    event.refresh_from_db()
    assert "seat_to_bot" not in records(event)


@pytest.mark.django_db(transaction=True)
def test_every_person_late_at_a_decision_made_at_once_goes_to_the_bot(
        organizer: Any, player: Any, player2: Any) -> None:
    """The first late seat's bot moved as soon as it was handed over, which made the second
    seat's hand-over stale: that absent person kept the seat, with a fresh deadline."""
    from datetime import timedelta

    from django.utils import timezone

    event = make_event(organizer, fmt="single_elimination", turn_deadline_minutes=5)
    events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, player=player2.username)
    events.start_event(event=event, by=organizer)
    match = EventMatch.objects.get(event=event).match
    users = {seat.index: seat.user for seat in match.seats.all()}
    for _ in range(20):  # the people play until both decide at once
        pending = match_services.match_state(match=match, user=None)["pending"]
        if len(pending["seats"]) == 2:
            break
        seat = pending["seats"][0]
        view = match_services.match_state(match=match, user=users[seat])
        match_services.submit_action(match=match, seat=seat, user=users[seat],
                                     action=view["legal_actions"][0])
    assert pending["kind"] == "decision" and len(pending["seats"]) == 2
    assert events.enforce_deadlines(now=timezone.now() + timedelta(minutes=6)) == 2
    match.refresh_from_db()
    assert not match.seats.filter(user__isnull=False).exists()
    assert records(event).count("seat_to_bot") == 2


@pytest.mark.django_db(transaction=True)
def test_one_events_failing_deadline_does_not_keep_the_other_events_waiting(
        organizer: Any, player: Any, player2: Any) -> None:
    """A refusal other than the match moving on (here the Event's deadline bot is no longer
    one the game has) is logged, and the sweep goes on to the other Events' late seats: it
    used to end the sweep, on every run, for every Event after it."""
    from datetime import timedelta

    from django.utils import timezone

    made = []
    for _ in range(2):
        event = make_event(organizer, fmt="single_elimination", turn_deadline_minutes=5)
        events.add_entrant(event=event, by=organizer, player=player.username)
        events.add_entrant(event=event, by=organizer, player=player2.username)
        events.start_event(event=event, by=organizer)
        made.append(event)
    broken, sound = made
    Event.objects.filter(pk=broken.pk).update(deadline_bot="retired")
    before = records(broken)
    assert events.enforce_deadlines(now=timezone.now() + timedelta(minutes=6)) >= 1
    assert "seat_to_bot" in records(sound)
    assert records(broken) == before
    assert not EventMatch.objects.get(event=broken).match.seats.exclude(bot="").exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("policy", ["bot", "forfeit"])
def test_a_late_player_who_moves_while_the_sweep_runs_keeps_the_seat(
        organizer: Any, player: Any, player2: Any, monkeypatch: Any, policy: str) -> None:
    """The sweep reads who is late, then applies the policy; a move between the two (the
    player was only just in time) leaves the seat and the Event as they are."""
    from datetime import timedelta

    from django.utils import timezone

    event = make_event(organizer, fmt="single_elimination", turn_deadline_minutes=5,
                       deadline_policy=policy)
    events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, player=player2.username)
    events.start_event(event=event, by=organizer)
    read = events._late_people

    def late_then_moves(match: Match) -> list[int]:
        late = read(match)
        seat = late[0]
        user = match.seats.get(index=seat).user
        action = match_services.match_state(match=match, user=user, seat=seat)["legal_actions"][0]
        match_services.submit_action(match=match, seat=seat, action=action, user=user)
        return late

    monkeypatch.setattr(events, "_late_people", late_then_moves)
    before = records(event)
    assert events.enforce_deadlines(now=timezone.now() + timedelta(minutes=6)) == 0
    assert records(event) == before
    link = EventMatch.objects.get(event=event)
    assert link.match.status == "active" and not link.match.seats.exclude(bot="").exists()


@pytest.mark.django_db(transaction=True)
def test_ratings_follow_matches_between_people(player: Any, player2: Any, played: Any) -> None:
    match = match_services.create_match(
        game=GAME, options={}, seats=[{"player": player.username}, {"player": player2.username}],
        created_by=player)
    match_services.join_match(match=match, user=player2)
    match_services.forfeit_seat(match=played(match, 1), seat=1)
    winner = Rating.objects.get(game=GAME, player__user=player)
    loser = Rating.objects.get(game=GAME, player__user=player2)
    assert winner.mu > 25 > loser.mu
    assert winner.matches == loser.matches == 1


@pytest.mark.django_db(transaction=True)
def test_a_hot_seat_match_against_yourself_is_not_rated(player: Any, player2: Any,
                                                        played: Any) -> None:
    """One user holding both seats plays both sides; that rates nobody against anybody."""
    for user in (player, player2):  # the same two-seat table, once hot-seat, once real
        match = match_services.create_match(
            game=GAME, options={}, seats=[{"player": player.username}, {"player": user.username}],
            created_by=player)
        if user != player:
            match_services.join_match(match=match, user=user)
        match_services.forfeit_seat(match=played(match, 1), seat=1)
    assert Rating.objects.get(game=GAME, player__user=player).matches == 1
    assert projections.RatingHistory.objects.filter(player__user=player).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("third", ["bot", "olga"])
def test_the_pair_of_a_handicap_match_is_rated_as_one_side(
        player: Any, player2: Any, outsider: Any, third: str) -> None:
    """The Supershow's handicap match seats a pair as one side, which shares first place
    when it wins: against a bot that rates nobody (the pair never played each other),
    against a player it is two against one."""
    match = match_services.create_match(
        game="supershow", created_by=player,
        options={"match_type": "handicap",
                 "competitors": ["ox_valdane", "mira_quickstep", "granite_gus"]},
        seats=[{"player": "alice"}, {"player": "bruno"},
               {"bot": "random"} if third == "bot" else {"player": "olga"}])
    for user in (player2, outsider) if third == "olga" else (player2,):
        match_services.join_match(match=match, user=user)
    # The pair's win, as the engine writes it: its two seats share first place.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, result={
        "placements": [1, 1, 2], "winners": [0, 1], "draw": False, "figures": {},
        "summary": "Granite Gus is pinned."})
    match.refresh_from_db()
    projections.refresh_ratings_after(match)
    ratings = {r.player.user.username: r for r in Rating.objects.filter(game="supershow")}
    if third == "bot":
        assert ratings == {}
        return
    model = projections.MODEL
    pair, lone = model.rate([[model.rating(), model.rating()], [model.rating()]],
                            ranks=[1.0, 2.0])
    assert ratings["alice"].mu == ratings["bruno"].mu == pytest.approx(pair[0].mu)
    assert ratings["olga"].mu == pytest.approx(lone[0].mu)


@pytest.mark.django_db
def test_a_forfeit_by_a_side_one_of_whose_seats_moved_is_rated(
        player: Any, player2: Any, outsider: Any) -> None:
    """The no-show rule asks whether the forfeiting side moved: one of the pair resigns
    the handicap match before their first move, but their partner played it, so it is
    rated."""
    match = match_services.create_match(
        game="supershow", created_by=player,
        options={"match_type": "handicap",
                 "competitors": ["ox_valdane", "mira_quickstep", "granite_gus"]},
        seats=[{"player": "alice"}, {"player": "bruno"}, {"player": "olga"}])
    for user in (player2, outsider):
        match_services.join_match(match=match, user=user)
    # Whoever the dealt match has move first: played until one of the pair has moved.
    played_until(match, lambda: any(match_services.moves_of(match, seat) for seat in (0, 1)))
    unmoved = 1 if match_services.moves_of(match, 0) else 0
    assert match_services.moves_of(match, unmoved) == 0
    match_services.resign(match=match, user=(player, player2)[unmoved])
    match.refresh_from_db()
    projections.refresh_ratings_after(match)
    rated = Rating.objects.filter(game="supershow")
    assert sorted(rated.values_list("player__user__username", flat=True)) == [
        "alice", "bruno", "olga"]


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_by_a_seat_that_never_moved_is_not_rated(organizer: Any, player: Any,
                                                           player2: Any, played: Any) -> None:
    """A no-show forfeited by the organizer, or a player resigning before their first move,
    moves no rating; the Event still scores the forfeit as a loss. The same forfeit after
    a move is rated."""
    event = make_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username).key
    bruno = events.add_entrant(event=event, by=organizer, player=player2.username).key
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    link.match.refresh_from_db()
    assert match_services.moves_of(link.match, link.seats_of(bruno)[0]) == 0
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=bruno)
    assert not Rating.objects.exists() and not projections.RatingHistory.objects.exists()
    rows = {r.entrant.key: r for r in Standing.objects.filter(event=event)}
    assert (rows[alice].wins, rows[bruno].losses) == (1, 1)

    unplayed = match_services.create_match(
        game=GAME, options={}, seats=[{"player": player.username}, {"player": player2.username}],
        created_by=player)
    match_services.join_match(match=unplayed, user=player2)
    unplayed.refresh_from_db()
    seat = 1 if match_services.moves_of(unplayed, 1) == 0 else 0
    assert match_services.resign(match=unplayed, user=unplayed.seats.get(index=seat).user,
                                 seat=seat) == "resigned"
    projections.rebuild_all()
    assert not Rating.objects.exists()

    match = match_services.create_match(
        game=GAME, options={}, seats=[{"player": player.username}, {"player": player2.username}],
        created_by=player)
    match_services.join_match(match=match, user=player2)
    match_services.forfeit_seat(match=played(match, 1), seat=1)
    assert Rating.objects.filter(game=GAME, matches=1).count() == 2


@pytest.mark.django_db(transaction=True)
def test_an_unplayed_forfeit_whose_result_the_organizer_corrects_is_rated(
        organizer: Any, player: Any, player2: Any) -> None:
    """A correction is the organizer's record of a result (a match played off the site)."""
    event = make_event(organizer)
    alice = events.add_entrant(event=event, by=organizer, player=player.username).key
    bruno = events.add_entrant(event=event, by=organizer, player=player2.username).key
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=bruno)
    assert not Rating.objects.exists()
    events.correct_result(event=event, by=organizer, pairing=link.pairing,
                          placements={alice: 2, bruno: 1})
    assert Rating.objects.get(game=GAME, player__user=player2).mu > 25
    assert Rating.objects.get(game=GAME, player__user=player).mu < 25


def alice_beats_bruno(organizer: Any, player: Any, player2: Any, played: Any
                      ) -> tuple[Event, EventMatch, str, str]:
    """A two-player Event whose one match alice wins by bruno's forfeit after a move
    (rated at once)."""
    event = make_event(organizer)
    first = events.add_entrant(event=event, by=organizer, player=player.username).key
    second = events.add_entrant(event=event, by=organizer, player=player2.username).key
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    seat = link.seats_of(second)[0]
    match_services.forfeit_seat(match=played(link.match, seat), seat=seat)
    return event, link, first, second


@pytest.mark.django_db(transaction=True)
def test_a_corrected_result_moves_the_ratings_too(organizer: Any, player: Any,
                                                  player2: Any, played: Any) -> None:
    event, link, first, second = alice_beats_bruno(organizer, player, player2, played)
    assert Rating.objects.get(game=GAME, player__user=player).mu > 25
    events.correct_result(event=event, by=organizer, pairing=link.pairing,
                          placements={first: 2, second: 1})
    winner = Rating.objects.get(game=GAME, player__user=player2)
    loser = Rating.objects.get(game=GAME, player__user=player)
    assert winner.mu > 25 > loser.mu
    assert winner.matches == loser.matches == 1
    kept = records(event)
    with pytest.raises(events.LeagueError) as again:  # the same correction clicked twice
        events.correct_result(event=event, by=organizer, pairing=link.pairing,
                              placements={first: 2, second: 1})
    assert (again.value.code, again.value.status) == ("already_corrected", 409)
    assert records(event) == kept
    before = snapshot()["ratings"]
    projections.rebuild_all()  # the projection rebuilt from the streams agrees
    assert snapshot()["ratings"] == before


@pytest.mark.django_db(transaction=True)
def test_a_result_task_delivered_again_rates_nothing_twice(organizer: Any, player: Any,
                                                           player2: Any, played: Any) -> None:
    """Celery delivers a task at least once: record_result run again for a match already
    rated (or re-rated by a correction first) leaves the ratings as they were."""
    from league import tasks

    event, link, first, second = alice_beats_bruno(organizer, player, player2, played)
    rated = snapshot()["ratings"]
    tasks.record_result(link.match_id)
    assert snapshot()["ratings"] == rated
    assert projections.RatingHistory.objects.filter(match=link.match).count() == 2
    events.correct_result(event=event, by=organizer, pairing=link.pairing,
                          placements={first: 2, second: 1})
    corrected = snapshot()["ratings"]
    projections.refresh_ratings_after(link.match)  # a late task after the correction
    assert snapshot()["ratings"] == corrected
    assert Rating.objects.get(game=GAME, player__user=player2).matches == 1


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every projection row by content (ids are not part of a projection)."""
    return {
        "entrants": sorted(Entrant.objects.values_list(
            "event_id", "key", "name", "player_id", "team_id", "bot", "seed", "withdrawn")),
        "matches": sorted(EventMatch.objects.values_list(
            "event_id", "pairing", "round", "stage", "label", "match_id")),
        "standings": sorted(Standing.objects.values_list(
            "event_id", "entrant__key", "rank", "points", "wins", "draws", "losses")),
        "ratings": sorted(Rating.objects.values_list(
            "game", "player_id", "mu", "sigma", "ordinal", "matches")),
        "history": sorted(projections.RatingHistory.objects.values_list(
            "game", "player_id", "match_id", "mu", "sigma", "ordinal")),
        "season": sorted(projections.SeasonStanding.objects.values_list(
            "season_id", "name", "event_id", "rank", "points", "events", "wins", "draws",
            "losses")),
    }


@pytest.mark.django_db(transaction=True)
def test_a_season_rebuilt_from_its_streams_gives_every_row_again(
        organizer: Any, player: Any, player2: Any, played: Any, seeded_chance: None) -> None:
    season = events.create_season(name="Autumn", game=GAME, by=organizer)
    for fmt in ("round_robin", "swiss", "single_elimination"):
        event = events.create_event(name=fmt, game=GAME, format=fmt, by=organizer,
                                    season=season)
        enter_bots(event, organizer, 5)
        events.start_event(event=event, by=organizer)
    for loser in (1, 0, 1):
        match = match_services.create_match(
            game=GAME, options={},
            seats=[{"player": player.username}, {"player": player2.username}],
            created_by=player)
        match_services.join_match(match=match, user=player2)
        match_services.forfeit_seat(match=played(match, loser), seat=loser)
    live = snapshot()
    assert all(live.values()), "the season produced no rows to compare"
    projections.rebuild_all()
    assert snapshot() == live


@pytest.mark.django_db(transaction=True)
def test_the_season_table_adds_up_its_events_standings_byes_included(organizer: Any) -> None:
    """Five bots in a Swiss Event: the season counts each one's byes as the Event does (it
    counted recorded matches only), and a bot withdrawn before the start is not in it."""
    season = events.create_season(name="Autumn", game=GAME, by=organizer)
    event = events.create_event(name="Swiss night", game=GAME, format="swiss", by=organizer,
                                season=season)
    enter_bots(event, organizer, 5)
    gone = events.add_entrant(event=event, by=organizer, bot="random", name="No show").key
    events.withdraw_entrant(event=event, by=organizer, key=gone)
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    in_event = {s.entrant.name: (s.wins, s.draws, s.losses)
                for s in Standing.objects.filter(event=event).select_related("entrant")}
    table = {r.name: (r.wins, r.draws, r.losses, r.events)
             for r in projections.SeasonStanding.objects.filter(season=season)}
    assert "No show" not in table
    assert table == {name: (*wdl, 1) for name, wdl in in_event.items()}
    assert sum(w + d + lost for w, d, lost, _ in table.values()) > \
        2 * EventMatch.objects.filter(event=event).count()  # the byes are in


def second_seat_forfeits_each_match(event: Event) -> None:
    """A knockout of four decided by forfeits: the two semi-finals, then the final, each
    lost by its second seat. (Bots reply in on_commit hooks, which a test's transaction
    never runs.)"""
    for _ in range(3):
        link = next(link for link in EventMatch.objects.filter(event=event)
                    if link.match.status == Match.Status.ACTIVE)
        match_services.forfeit_seat(match=link.match, seat=1)
        events.record_match_result(match=Match.objects.get(pk=link.match_id))


@pytest.mark.django_db
def test_entrants_level_in_the_season_table_share_its_place(organizer: Any) -> None:
    """A knockout of four: both semi-final losers have one loss and nothing else."""
    season = events.create_season(name="Winter", game=GAME, by=organizer)
    event = events.create_event(name="Cup", game=GAME, format="single_elimination",
                                by=organizer, season=season)
    enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    second_seat_forfeits_each_match(event)
    table = list(projections.SeasonStanding.objects.filter(season=season)
                 .order_by("rank", "name").values_list("rank", "wins", "losses"))
    assert table == [(1, 2, 0), (2, 1, 1), (3, 0, 1), (3, 0, 1)]


@pytest.mark.django_db
def test_the_season_table_names_a_renamed_player_as_their_latest_entry(
        organizer: Any, player: Any) -> None:
    """Each entry keeps the name it was made under; the player's row of the season, which
    adds up all of them, follows the newest instead of keeping the first for good."""
    season = events.create_season(name="Autumn", game=GAME, by=organizer)
    for week in ("Week 1", "Week 2"):
        event = events.create_event(name=week, game=GAME, format="round_robin",
                                    by=organizer, season=season)
        events.add_entrant(event=event, by=organizer, player=player.username)
        events.add_entrant(event=event, by=organizer, bot="random")
        events.start_event(event=event, by=organizer)
        rename_player(player_for(player), "Alice the Bold")
    assert [e.name for e in Entrant.objects.filter(player__user=player).order_by(
        "event_id")] == ["alice", "Alice the Bold"]
    row = projections.SeasonStanding.objects.get(season=season, player__user=player)
    assert (row.name, row.events) == ("Alice the Bold", 2)


@pytest.mark.django_db
def test_the_season_table_keeps_each_events_bot_apart_and_below_the_players(
        organizer: Any, player: Any) -> None:
    """Alice loses to a bot named "Random" in each of two Events: those are two bots,
    one Event each, not one that won twice; and a bot fills a seat of one Event rather
    than competing for the season, so the players and teams lead the table."""
    season = events.create_season(name="Autumn", game=GAME, by=organizer)
    for week in ("Week 1", "Week 2"):
        event = events.create_event(name=week, game=GAME, format="round_robin",
                                    by=organizer, season=season)
        alice = events.add_entrant(event=event, by=organizer, player=player.username).key
        events.add_entrant(event=event, by=organizer, bot="random", name="Random")
        events.start_event(event=event, by=organizer)
        link = EventMatch.objects.get(event=event)
        match_services.forfeit_seat(match=link.match, seat=link.entrants.index(alice))
        events.record_match_result(match=Match.objects.get(pk=link.match_id))
    table = list(projections.SeasonStanding.objects.filter(season=season).order_by(
        "rank", "name", "event__name").values_list("rank", "name", "event__name", "events",
                                                   "wins", "losses"))
    assert table == [(1, "alice", None, 2, 0, 2), (2, "Random", "Week 1", 1, 1, 0),
                     (2, "Random", "Week 2", 1, 1, 0)]


@pytest.mark.django_db
def test_entrants_level_on_season_points_are_ranked_by_wins(organizer: Any) -> None:
    """A season that gives a point for every match played: the knockout's winner (two
    wins) and finalist (a win and a loss) both have 2 points; the wins rank the winner
    first, though the finalist's name comes first (the table was listed by name)."""
    season = events.create_season(name="Spring", game=GAME, by=organizer,
                                  scoring={"win": 1, "draw": 1, "loss": 1})
    event = events.create_event(name="Cup", game=GAME, format="single_elimination",
                                by=organizer, season=season)
    for name in ("Zed", "Amy", "Bea", "Cy"):  # seeded in this order: Zed is seed 1
        events.add_entrant(event=event, by=organizer, bot="random", name=name)
    events.start_event(event=event, by=organizer)
    second_seat_forfeits_each_match(event)
    table = list(projections.SeasonStanding.objects.filter(season=season)
                 .order_by("rank", "name").values_list("rank", "name", "points", "wins"))
    assert table == [(1, "Zed", 2.0, 2), (2, "Amy", 2.0, 1), (3, "Bea", 1.0, 0),
                     (3, "Cy", 1.0, 0)]


@pytest.mark.django_db(transaction=True)
def test_a_held_round_waits_for_the_organizer_who_may_pair_it_by_hand(organizer: Any) -> None:
    event = make_event(organizer, fmt="swiss", hold_rounds=True, format_options={"rounds": 2})
    keys = enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    first_round = {tuple(m.entrants) for m in EventMatch.objects.filter(event=event)}
    assert len(first_round) == 2 and event.status == Event.Status.RUNNING
    held = events.held_pairings(event, events.replay(event))
    assert len(held) == 2, "round 2 should wait for the organizer"
    # Pair round 2 by hand, avoiding the round-1 pairs.
    a, b, c, d = keys
    pairs = [[a, c], [b, d]] if (a, b) in first_round or (c, d) in first_round else [[a, b],
                                                                                      [c, d]]
    events.pair_by_hand(event=event, by=organizer, pairings=pairs)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    second = {tuple(m.entrants) for m in EventMatch.objects.filter(event=event, round=2)}
    assert second == {tuple(p) for p in pairs}
    assert "paired_by_hand" in records(event)


@pytest.mark.django_db(transaction=True)
def test_pairing_by_hand_when_no_round_waits_is_refused(organizer: Any) -> None:
    event = make_event(organizer, fmt="swiss")
    keys = enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    before = EventRecord.objects.filter(event=event).count()
    with pytest.raises(events.LeagueError) as refused:
        events.pair_by_hand(event=event, by=organizer, pairings=[keys[:2], keys[2:]])
    assert refused.value.code in {"round_made", "event_not_running"}
    assert EventRecord.objects.filter(event=event).count() == before


@pytest.mark.django_db(transaction=True)
def test_releasing_a_held_round_makes_its_matches(organizer: Any, seeded_chance: None) -> None:
    # Seeded: Super Showdown can end drawn, which a knockout refuses (about one run in 50).
    event = make_event(organizer, fmt="single_elimination", hold_rounds=True)
    enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    assert EventMatch.objects.filter(event=event).count() == 2
    events.release_round(event=event, by=organizer)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert "round_released" in records(event)
    with pytest.raises(events.LeagueError) as refused:
        events.release_round(event=event, by=organizer)
    assert refused.value.code == "nothing_held"


def held_swiss(organizer: Any, bots: int, fmt: str = "swiss", rounds: int = 3) -> Event:
    """A Swiss (or a multi-stage Event's Swiss stage) of `bots` bots in three rounds (or
    `rounds`) that holds its rounds, its first round decided (each board's second entrant
    forfeiting) and its second waiting."""
    options = {"rounds": rounds} | ({"stage1": "swiss"} if fmt == "multistage" else {})
    event = make_event(organizer, fmt=fmt, hold_rounds=True, format_options=options)
    enter_bots(event, organizer, bots)
    events.start_event(event=event, by=organizer)
    for link in EventMatch.objects.filter(event=event):
        events.forfeit(event=event, by=organizer, pairing=link.pairing,
                       entrant=link.entrants[1])
        link.match.refresh_from_db()
        events.record_match_result(match=link.match)
    event.refresh_from_db()
    assert [p.round for p in events.held_pairings(event, events.replay(event))][:1] == [2]
    return event


def second_round(event: Event) -> list[tuple[str, ...]]:
    """The second round's pairings as the replayed Event has them (a bye: one entrant)."""
    state = events.replay(event).state
    swiss = state.groups[0].state if event.format == "multistage" else state
    return [p.entrants for p in swiss.rounds[1]]


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["swiss", "multistage"])
def test_a_late_entrant_of_a_held_swiss_round_is_seated_by_its_release(
        organizer: Any, fmt: str) -> None:
    """Five entrants, round 2 held with a bye; a sixth enters while it waits: the round
    is drawn again with them (three boards, no bye), and Release makes their match (it
    made the round as first drawn, the newcomer in none of it). A multi-stage Event's
    Swiss stage too."""
    event = held_swiss(organizer, 5, fmt)
    assert any(len(p) == 1 for p in second_round(event))
    late = events.add_entrant(event=event, by=organizer, bot="random", name="Latecomer").key
    drawn = second_round(event)
    assert sorted(k for p in drawn for k in p) == [f"e{i}" for i in range(1, 7)]
    assert all(len(p) == 2 for p in drawn)
    assert not EventMatch.objects.filter(event=event, round=2).exists()  # still held
    events.release_round(event=event, by=organizer)
    made = {tuple(link.entrants) for link in EventMatch.objects.filter(event=event, round=2)}
    assert made == set(drawn) and any(late in p for p in made)


@pytest.mark.django_db
def test_a_withdrawal_from_a_held_swiss_round_draws_it_again_without_them(
        organizer: Any) -> None:
    """Six entrants, round 2 held; one of a drawn board withdraws: the round is drawn
    again for the five left (two boards and a bye) rather than released with their
    opponent's walkover, which no standings count."""
    event = held_swiss(organizer, 6)
    gone, opponent = second_round(event)[0]
    events.withdraw_entrant(event=event, by=organizer, key=gone)
    drawn = second_round(event)
    assert sorted(k for p in drawn for k in p) == sorted(
        f"e{i}" for i in range(1, 7) if f"e{i}" != gone)
    done = events.replay(event)
    assert events.walkovers(done) == {}
    events.release_round(event=event, by=organizer)
    made = {tuple(link.entrants) for link in EventMatch.objects.filter(event=event, round=2)}
    assert made == {p for p in drawn if len(p) == 2} and len(made) == 2
    assert opponent in {k for p in drawn for k in p}


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["swiss", "multistage"])
def test_a_late_entrant_of_a_held_last_swiss_round_is_seated_by_its_release(
        organizer: Any, fmt: str) -> None:
    """Two rounds, five entrants, the last round held with a bye: a sixth enters while it
    waits and is drawn into it, as into an earlier held round, rather than refused
    because the last round is paired. A multi-stage Event's Swiss stage too (from its
    revision 5)."""
    event = held_swiss(organizer, 5, fmt, rounds=2)
    assert events.entry_refused(event, events.replay(event)) is None
    late = events.add_entrant(event=event, by=organizer, bot="random", name="Latecomer").key
    drawn = second_round(event)
    assert sorted(k for p in drawn for k in p) == [f"e{i}" for i in range(1, 7)]
    assert all(len(p) == 2 for p in drawn)
    events.release_round(event=event, by=organizer)
    made = {tuple(link.entrants) for link in EventMatch.objects.filter(event=event, round=2)}
    assert made == set(drawn) and any(late in p for p in made)
    now = Event.objects.get(pk=event.pk)
    assert events.replay(now).state == events.replay_to_read(now).state


@pytest.mark.django_db
def test_a_late_entrant_of_a_held_last_swiss_stage_round_under_revision_4_is_refused(
        organizer: Any, monkeypatch: Any) -> None:
    """A multi-stage Event started before revision 5 keeps refusing the entry, saying
    why, as it did when it started."""
    from league.formats import multistage

    with monkeypatch.context() as old:
        old.setattr(multistage.FORMAT, "revision", 4)
        event = held_swiss(organizer, 5, "multistage", rounds=2)
    assert event.records.get(kind=EventRecord.Kind.STARTED).payload["revision"] == 4
    seq = Event.objects.get(pk=event.pk).seq
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=event, by=organizer, bot="random", name="Latecomer")
    assert refused.value.code == "already_started"
    assert Event.objects.get(pk=event.pk).seq == seq


@pytest.mark.django_db
def test_a_late_entrant_of_a_held_last_round_started_under_revision_2_is_refused(
        organizer: Any, monkeypatch: Any) -> None:
    """Before revision 3 a held round is released as drawn: a late entrant would join
    none of the last one, so it is refused, saying why."""
    from league.formats import swiss

    with monkeypatch.context() as old:
        old.setattr(swiss.FORMAT, "revision", 2)
        event = held_swiss(organizer, 5, rounds=2)
    seq = Event.objects.get(pk=event.pk).seq
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=event, by=organizer, bot="random", name="Latecomer")
    assert refused.value.code == "already_started"
    assert "a late entrant joins no round after it" in refused.value.detail
    assert Event.objects.get(pk=event.pk).seq == seq


@pytest.mark.django_db
def test_a_held_swiss_started_under_revision_2_replays_its_late_entry_as_played(
        organizer: Any, monkeypatch: Any) -> None:
    """An Event started before Swiss revision 3 released its held round as drawn, the late
    entrant in none of it: replayed now, it pairs as it was played (the matches made are
    the replay's), where the same records started under revision 3 would seat them."""
    from league.formats import swiss

    with monkeypatch.context() as old:
        old.setattr(swiss.FORMAT, "revision", 2)
        event = held_swiss(organizer, 5)
    assert event.records.get(kind=EventRecord.Kind.STARTED).payload["revision"] == 2
    late = events.add_entrant(event=event, by=organizer, bot="random", name="Latecomer").key
    events.release_round(event=event, by=organizer)
    made = {tuple(link.entrants) for link in EventMatch.objects.filter(event=event, round=2)}
    rows = list(event.records.order_by("seq"))
    assert set(second_round(event)) >= made and all(late not in p for p in made)
    for row in rows:  # as if it had started under revision 3 (never saved)
        if row.kind == EventRecord.Kind.STARTED:
            row.payload = {**row.payload, "revision": 3}
    assert any(late in p.entrants for p in events.replay(event, rows).state.rounds[1])


@pytest.mark.django_db(transaction=True)
def test_a_team_entrant_rates_every_member_together(organizer: Any, player: Any,
                                                    player2: Any, outsider: Any,
                                                    played: Any) -> None:
    """A team plays with its first member seated; its result rates the whole team."""
    reds = events.create_team(name="Reds", members=[player.username, outsider.username],
                              by=organizer)
    event = make_event(organizer, fmt="single_elimination")
    red = events.add_entrant(event=event, by=organizer, team=reds.name).key
    blue = events.add_entrant(event=event, by=organizer, player=player2.username).key
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    assert link.match.seats.get(index=link.entrants.index(red)).user == player
    played(link.match, link.seats_of(blue)[0])
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=blue)
    ratings = {r.player.user.username: r for r in Rating.objects.filter(game=GAME)}
    assert set(ratings) == {player.username, outsider.username, player2.username}
    assert ratings[player.username].mu == ratings[outsider.username].mu > 25
    assert ratings[player2.username].mu < 25


@pytest.mark.django_db(transaction=True)
def test_round_scores_of_a_game_scored_by_rounds_are_projected_as_it_goes(
        player: Any) -> None:
    """Ultimate Showdown: each scored round lands in the projection, and rebuilds alike."""
    match = match_services.create_match(
        game="ultimate_showdown", options={},
        seats=[{"player": player.username}, {"bot": "heuristic"}, {"bot": "random"}],
        created_by=player)
    for _ in range(500):
        state = match_services.match_state(match=match, user=player)
        if state["status"] == "finished":
            break
        match_services.submit_action(match=match, seat=0, action=state["legal_actions"][0],
                                     user=player)
    match.refresh_from_db()
    assert match.status == "finished"
    rows = list(RoundScore.objects.filter(match=match).values_list("seat", "round", "points"))
    assert sorted({r for _, r, _ in rows}) == [1, 2, 3, 4, 5]
    figures = match.result["figures"]
    for seat in range(3):
        assert sum(p for s, _, p in rows if s == seat) == figures[str(seat)]["score"]
    assert RoundScore.objects.filter(match=match, seat=0).first().player.user == player
    projections.rebuild_all()
    assert sorted(RoundScore.objects.filter(match=match).values_list(
        "seat", "round", "points")) == sorted(rows)


def bots_match(organizer: Any) -> Match:
    """An Ultimate Showdown match of bots, played to its end at once (tasks in-process)."""
    return match_services.create_match(
        game="ultimate_showdown", options={}, created_by=organizer,
        seats=[{"bot": "heuristic"}, {"bot": "random"}, {"bot": "random"}])


def round_scores(match: Match) -> list[tuple[int, int, int]]:
    """The match's round scores, (seat, round, points) in order."""
    return sorted(RoundScore.objects.filter(match=match).values_list(
        "seat", "round", "points"))


@pytest.mark.django_db(transaction=True)
def test_a_rebuild_keeps_the_round_scores_of_a_match_under_earlier_rules(
        organizer: Any, revise_rules: Any) -> None:
    """Its stream cannot be replayed any more: its rows stay as they were projected when it
    was played, and the matches under today's rules are rebuilt as ever."""
    old = bots_match(organizer)
    projected = round_scores(old)
    assert len(projected) == 3 * 5
    revise_rules("ultimate_showdown")
    new = bots_match(organizer)
    assert len(round_scores(new)) == 3 * 5
    RoundScore.objects.filter(match=new).delete()
    counts = projections.rebuild_all()
    assert round_scores(old) == projected and len(round_scores(new)) == 3 * 5
    assert counts["matches kept as played under earlier rules"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_rebuild_keeps_the_round_scores_of_a_match_whose_stream_no_longer_replays(
        organizer: Any) -> None:
    """A stream stored before games had rules versions is version 1, though the rules it
    was played under may refuse it now: the rebuild keeps its rows as it does a match
    under an earlier version, instead of failing whole."""
    import json

    from django.db import connection

    old, new = bots_match(organizer), bots_match(organizer)
    projected = round_scores(old)
    assert len(projected) == 3 * 5
    first = old.events.filter(kind="decision").order_by("seq").first()
    with connection.cursor() as cursor:  # the rows are append-only for the ORM
        cursor.execute("UPDATE matches_matchevent SET payload = %s WHERE id = %s",
                       [json.dumps({"action": {"type": "no_such_action"}}), first.pk])
    match_services.clear_state_cache()
    RoundScore.objects.filter(match=new).delete()
    counts = projections.rebuild_all()
    assert round_scores(old) == projected and len(round_scores(new)) == 3 * 5
    assert counts["matches kept as played under earlier rules"] == 1


@pytest.mark.django_db(transaction=True)
def test_heats_of_a_multi_seat_game_run_to_their_end(organizer: Any) -> None:
    """Free-for-all heats: nine bots in pods of three, winners to a final pod."""
    event = events.create_event(name="Prediction night", game="ultimate_showdown",
                                format="heats", by=organizer,
                                format_options={"pod_size": 3, "advance": 1})
    enter_bots(event, organizer, 9)
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    links = list(EventMatch.objects.filter(event=event).order_by("round", "pairing"))
    assert [len(link.entrants) for link in links] == [3, 3, 3, 3]
    champion = Standing.objects.filter(event=event).order_by("rank").first()
    assert champion is not None and champion.rank == 1
    assert champion.entrant.key in links[-1].entrants


def rumble_heats(organizer: Any, player: Any, *, entrants: int, pod_size: int,
                 advance: int, game: str = "royal_rumble") -> tuple[Event, str, EventMatch]:
    """A started Royal Rumble (or `game`) heats Event: the player first seed, bots after;
    the player's live first-round pod."""
    event = events.create_event(name="Rumble night", game=game, format="heats",
                                by=organizer,
                                format_options={"pod_size": pod_size, "advance": advance})
    human = events.add_entrant(event=event, by=organizer, player=player.username).key
    enter_bots(event, organizer, entrants - 1)
    events.seed_event(event=event, by=organizer, method="hand",
                      order=[e.key for e in Entrant.objects.filter(event=event).order_by("pk")])
    events.start_event(event=event, by=organizer)
    pod = next(link for link in EventMatch.objects.filter(event=event, round=1)
               if human in link.entrants)
    assert pod.match.status == Match.Status.ACTIVE
    return event, human, pod


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_in_a_heat_sends_on_the_better_seed_of_those_left(organizer: Any,
                                                                      player: Any) -> None:
    """The forfeit leaves two bots sharing first across a cut of one: the Event goes on
    (it used to refuse the result and sit running with nothing to play). A party game's
    pod: in a Royal Rumble the two would play on."""
    event, human, pod = rumble_heats(organizer, player, entrants=9, pod_size=3, advance=1,
                                     game="ultimate_showdown")
    events.forfeit(event=event, by=organizer, pairing=pod.pairing, entrant=human)
    assert "result_recorded" in records(event)
    others = [e for e in pod.entrants if e != human]
    final = EventMatch.objects.get(event=event, round=2)
    assert others[0] in final.entrants and others[1] not in final.entrants


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_from_a_live_pod_scores_the_pod_without_them_and_the_heats_go_on(
        organizer: Any, player: Any) -> None:
    """The withdrawn player's seat forfeits the pod's match; the pod, still open to the
    three left, takes its result without them (it used to refuse it, not_in_pairing, and
    the Event sat running with nothing to play, its sweep failing on it)."""
    event, human, pod = rumble_heats(organizer, player, entrants=8, pod_size=4, advance=2)

    events.withdraw_entrant(event=event, by=organizer, key=human)

    recorded = [r.payload for r in event.records.filter(kind="result_recorded")
                if r.payload["pairing"] == pod.pairing]
    assert len(recorded) == 1
    assert sorted(recorded[0]["placements"]) == sorted(e for e in pod.entrants if e != human)
    assert events.sweep_results() == 0
    event.refresh_from_db()
    assert EventMatch.objects.filter(event=event, round=2).exists() or \
        event.status == Event.Status.FINISHED
    final = EventMatch.objects.filter(event=event, round=2).first()
    assert final is None or human not in final.entrants


@pytest.mark.django_db
def test_a_late_entrant_taking_a_bye_slot_gets_their_match_at_once(organizer: Any) -> None:
    """Six in a bracket of eight: two byes. A seventh entrant takes one and plays now (the
    pairing used to wait, matchless, until some other result came in)."""
    event = make_event(organizer, fmt="single_elimination")
    enter_bots(event, organizer, 6)
    events.start_event(event=event, by=organizer)
    made = EventMatch.objects.filter(event=event).count()
    late = events.add_entrant(event=event, by=organizer, bot="random", name="Latecomer").key
    links = [link for link in EventMatch.objects.filter(event=event) if late in link.entrants]
    assert len(links) == 1 and links[0].match_id is not None
    assert EventMatch.objects.filter(event=event).count() == made + 1
    assert links[0].match.seats.count() == 2


@pytest.mark.django_db
def test_a_swiss_correction_after_the_next_round_was_paired_says_why(organizer: Any) -> None:
    """The refusal names the later pairing drawn from the result and when a correction is
    still possible (it said "R2-1 was already played", of a match not yet played)."""
    event = make_event(organizer, fmt="swiss")
    enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    for link in EventMatch.objects.filter(event=event, round=1):
        match_services.forfeit_seat(match=link.match, seat=1)
        events.record_match_result(match=Match.objects.get(pk=link.match_id))
    later = sorted(EventMatch.objects.filter(event=event, round=2)
                   .values_list("pairing", flat=True))
    assert later
    first = EventMatch.objects.filter(event=event, round=1).order_by("pairing").first()
    assert first is not None
    winner, loser = first.entrants
    with pytest.raises(events.LeagueError) as refused:
        events.correct_result(event=event, by=organizer, pairing=first.pairing,
                              placements={winner: 2, loser: 1})
    assert refused.value.code == "correction_conflicts"
    assert any(p in refused.value.detail for p in later), refused.value.detail
    assert first.pairing in refused.value.detail
    assert "until a later pairing is drawn from it" in refused.value.detail


@pytest.mark.django_db
def test_a_bracket_correction_names_only_the_pairings_drawn_from_that_result(
        organizer: Any) -> None:
    """Eight in a knockout, both semifinals played and the final made: correcting
    quarterfinal 1 names its semifinal, the final and the third-place match, in the order
    they were drawn (it named every later round's pairing, the other semifinal too, which
    quarterfinal 1 has no part in)."""
    event = make_event(organizer, fmt="single_elimination",
                       format_options={"third_place": True})
    enter_bots(event, organizer, 8)
    events.start_event(event=event, by=organizer)
    for round_ in (1, 2):
        for link in EventMatch.objects.filter(event=event, round=round_):
            match_services.forfeit_seat(match=link.match, seat=1)
            events.record_match_result(match=Match.objects.get(pk=link.match_id))
    assert EventMatch.objects.filter(event=event, pairing="W3-1").exists()
    winner, loser = EventMatch.objects.get(event=event, pairing="W1-1").entrants
    with pytest.raises(events.LeagueError) as refused:
        events.correct_result(event=event, by=organizer, pairing="W1-1",
                              placements={winner: 2, loser: 1})
    assert refused.value.code == "correction_conflicts"
    assert refused.value.detail.startswith(
        "The later pairings Semifinal 1 (W2-1), Third-place match (3P), Final (W3-1) were "
        "drawn from Quarterfinal 1 (W1-1)'s result as it stands"), refused.value.detail
    assert "W2-2" not in refused.value.detail


@pytest.mark.django_db
def test_a_late_entrant_who_would_redraw_made_matches_is_refused(organizer: Any) -> None:
    """Round robin: the first round's matches exist, so a redraw is no longer possible."""
    event = make_event(organizer, fmt="round_robin")
    enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    before = EventRecord.objects.filter(event=event).count()
    with pytest.raises(events.LeagueError) as refused:
        events.add_entrant(event=event, by=organizer, bot="random", name="Latecomer")
    assert refused.value.code in {"late_entry_conflicts", "already_started"}
    assert EventRecord.objects.filter(event=event).count() == before


@pytest.mark.django_db
def test_a_late_entrant_joins_a_swiss_from_its_next_round(organizer: Any) -> None:
    event = make_event(organizer, fmt="swiss")
    enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    late = events.add_entrant(event=event, by=organizer, bot="random", name="Latecomer")
    assert late.key == "e5"
    assert "entrant_added" in records(event)[-1:]
    first = list(EventMatch.objects.filter(event=event))
    assert all("e5" not in link.entrants for link in first)
    for link in first:  # round 1 ends (bots play only once a transaction commits)
        events.forfeit(event=event, by=organizer, pairing=link.pairing,
                       entrant=link.entrants[1])
        link.match.refresh_from_db()
        assert events.record_match_result(match=link.match) is True
    second = events.replay(event).state.rounds[1]
    assert [p.slots.count("e5") for p in second].count(1) == 1
    # with five entrants someone sits out: the newcomer, lowest on points and byes
    assert ("e5", None) in [p.slots for p in second]


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_mid_event_ends_their_match_and_the_event_goes_on(organizer: Any,
                                                                      player: Any,
                                                                      player2: Any) -> None:
    """The withdrawn entrant's live match is forfeited; the bracket advances past it."""
    event = make_event(organizer, fmt="single_elimination")
    a = events.add_entrant(event=event, by=organizer, player=player.username).key
    events.add_entrant(event=event, by=organizer, player=player2.username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    events.withdraw_entrant(event=event, by=organizer, key=a)
    link.match.refresh_from_db()
    event.refresh_from_db()
    assert link.match.status == Match.Status.FINISHED
    assert event.status == Event.Status.FINISHED
    assert events.record_match_result(match=link.match) is False
    top = Standing.objects.filter(event=event).order_by("rank").first()
    assert top is not None and top.entrant.key != a


@pytest.mark.django_db
def test_a_match_over_but_not_yet_recorded_counts_as_played_when_its_winner_withdraws(
        organizer: Any, player: Any, player2: Any) -> None:
    """The result task runs after the match's commit; a withdrawal in between turned the
    played win into a walkover for the loser, and the result was then dropped."""
    event = make_event(organizer, fmt="single_elimination")
    a = events.add_entrant(event=event, by=organizer, player=player.username).key
    b = events.add_entrant(event=event, by=organizer, player=player2.username).key
    bots = enter_bots(event, organizer, 2)
    events.seed_event(event=event, by=organizer, method="hand", order=[a, *bots, b])
    events.start_event(event=event, by=organizer)
    link = next(link for link in EventMatch.objects.filter(event=event) if a in link.entrants)
    match_services.forfeit_seat(match=link.match, seat=link.seats_of(b)[0])  # a won
    events.withdraw_entrant(event=event, by=organizer, key=a)
    assert records(event)[-2:] == ["result_recorded", "entrant_withdrawn"]
    assert events.record_match_result(match=link.match) is False  # the worker, late
    done = events.replay(event)
    assert done.results[link.pairing]["placements"] == {a: 1, b: 2}
    wins = {s.entrant.key: s.wins for s in Standing.objects.filter(event=event)}
    assert wins[a] == 1 and wins[b] == 0


@pytest.mark.django_db
def test_a_withdrawal_the_last_result_makes_moot_is_refused(
        organizer: Any, player: Any, player2: Any) -> None:
    """The final ended (a forfeit) before its result was recorded: the withdrawal records
    it, which finishes the Event, and is refused, the result kept (the refusal used to roll
    the recording back too, leaving the Event running with "The Event is over")."""
    event = make_event(organizer, fmt="single_elimination")
    a = events.add_entrant(event=event, by=organizer, player=player.username).key
    b = events.add_entrant(event=event, by=organizer, player=player2.username).key
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    match_services.forfeit_seat(match=link.match, seat=link.seats_of(b)[0])
    with pytest.raises(events.LeagueError) as refused:
        events.withdraw_entrant(event=event, by=organizer, key=a)
    assert refused.value.code == "event_finished"
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert records(event)[-2:] == ["result_recorded", "finished"]
    assert events.replay(event).results[link.pairing]["placements"] == {a: 1, b: 2}
    assert events.record_match_result(match=link.match) is False  # the worker, late


@pytest.mark.django_db
def test_withdrawing_from_the_dashboard_shows_a_match_services_refusal_not_a_500(
        organizer: Any, player: Any, player2: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.test import Client
    from django.urls import reverse

    event = make_event(organizer, fmt="single_elimination")
    a = events.add_entrant(event=event, by=organizer, player=player.username).key
    events.add_entrant(event=event, by=organizer, player=player2.username)
    events.start_event(event=event, by=organizer)

    def ended(**kwargs: Any) -> None:
        raise match_services.ServiceError("match_not_active", "Only a live match can be "
                                                              "forfeited.", 409)

    monkeypatch.setattr(match_services, "forfeit_seat", ended)
    client = Client()
    client.force_login(organizer)
    page = client.post(reverse("league:entrant_withdraw", args=[event.pk, a]),
                       HTTP_HX_REQUEST="true")
    assert page.status_code == 200 and "match_not_active" in page.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "fmt", "format_options", "match_options", "code"), [
    ("royal_rumble", "round_robin", {}, {"round_limit": -5}, "bad_option"),
    ("super_showdown", "swiss", {"rounds": 0}, {}, "bad_option"),
    ("super_showdown", "swiss", {"rounds": 99}, {}, "bad_option"),
    ("royal_rumble", "heats", {"pod_size": 4, "advance": 0}, {}, "bad_option"),
    ("super_showdown", "multistage", {"groups": 0}, {}, "bad_option"),
    # points a season would refuse: a draw worth more than a win, a loss more than a draw
    ("super_showdown", "swiss", {"win_points": 0, "draw_points": 3}, {}, "bad_scoring"),
    ("super_showdown", "round_robin", {"loss_points": 1.0}, {}, "bad_scoring"),
    # a tiebreak typed twice
    ("super_showdown", "swiss", {"tiebreaks": ["buchholz", "wins", "buchholz"]}, {},
     "bad_option"),
    ("royal_rumble", "heats", {"pod_size": 4, "tiebreaks": ["wins", "wins"]}, {}, "bad_option"),
    ("ultimate_showdown", "heats", {"pod_size": 4, "min_pod_size": 2}, {}, "bad_pod_size"),
    # a Triple Threat in pods of three, but Competitors named for two seats
    ("supershow", "heats", {"pod_size": 3, "min_pod_size": 3},
     {"match_type": "triple_threat_first_fall", "competitors": ["mira_quickstep", "ox_valdane"]},
     "bad_option"),
    # heats seat pods of two to four, a One-on-One seats two
    ("supershow", "heats", {"pod_size": 4}, {}, "bad_seat_count"),
])
def test_options_no_match_or_field_could_use_are_refused_when_the_event_is_created(
        organizer: Any, game: str, fmt: str, format_options: dict[str, Any],
        match_options: dict[str, Any], code: str) -> None:
    """An Event whose options fail only at Start would sit in Draft for good."""
    with pytest.raises(events.LeagueError) as refused:
        events.create_event(name="Night", game=game, format=fmt, by=organizer,
                            format_options=format_options, match_options=match_options)
    assert refused.value.code == code
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_swiss_rounds_are_checked_against_the_largest_field_not_the_smallest(
        organizer: Any) -> None:
    """Five rounds need at least 32 entrants, who may still enter: the Event is taken."""
    event = make_event(organizer, fmt="swiss", format_options={"rounds": 5})
    assert event.format_options["rounds"] == 5


@pytest.mark.django_db(transaction=True)
def test_heats_seat_no_pod_below_the_games_fewest_seats(organizer: Any) -> None:
    """Ultimate Showdown needs three at a table. Six entrants in pods of four play two pods
    of three whose two winners would meet in a final of two, which the game cannot seat:
    Start refuses instead of leaving the Event running with nothing to play. Nine (three
    pods of three, their winners a final of three) start."""
    event = events.create_event(name="Heats", game="ultimate_showdown", format="heats",
                                by=organizer, format_options={"pod_size": 4, "advance": 1})
    assert event.format_options["min_pod_size"] == 3
    for i in range(6):
        events.add_entrant(event=event, by=organizer, bot="random", name=f"Bot {i + 1}")
    with pytest.raises(events.LeagueError) as refused:
        events.start_event(event=event, by=organizer)
    assert refused.value.code == "bad_entrant_count"  # the field, not the options
    assert "enter more" in refused.value.detail
    event.refresh_from_db()
    assert event.status == Event.Status.DRAFT
    for i in range(6, 9):
        events.add_entrant(event=event, by=organizer, bot="random", name=f"Bot {i + 1}")
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    assert event.status != Event.Status.DRAFT
    tables = list(Match.objects.filter(event_match__event=event).order_by("pk").values_list(
        "n_seats", flat=True))
    assert tables[:3] == [3, 3, 3] and set(tables) == {3}  # the bots play on to the final


def test_league_and_service_errors_survive_pickling() -> None:
    """Celery pickles a task's error to report it; these used to arrive as a wrapper."""
    import pickle

    for error in (events.LeagueError("not_ready", "Not yet.", 409),
                  match_services.ServiceError("stale_seq", "Moved on.", 409)):
        back = pickle.loads(pickle.dumps(error))
        assert (type(back), back.code, back.detail, back.status, str(back)) == (
            type(error), error.code, error.detail, 409, str(error))


@pytest.mark.django_db
def test_the_bracket_says_whom_a_withdrawal_walkover_counts_for(organizer: Any) -> None:
    """It read result null and forfeit null, while the standings counted a win."""
    from league.serializers import bracket_of

    event = make_event(organizer, fmt="swiss")
    enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.filter(event=event, round=1).order_by("pairing").first()
    assert link is not None and link.match.status == Match.Status.ACTIVE
    gone, stays = link.entrants
    events.withdraw_entrant(event=event, by=organizer, key=gone)
    row = next(r for r in bracket_of(event) if r["pairing"] == link.pairing)
    assert (row["result"], row["walkover"]) == (None, stays)
    others = [r for r in bracket_of(event) if r["pairing"] != link.pairing]
    assert all(r["walkover"] is None for r in others)
    wins = {s.entrant.key: s.wins for s in Standing.objects.filter(event=event)}
    assert wins[stays] == 1


@pytest.mark.django_db(transaction=True)
def test_a_pods_result_can_be_corrected_after_one_of_its_players_withdrew(
        organizer: Any, player: Any) -> None:
    """The result places the three left; a correction gives places to those three (it
    used to ask for the withdrawn player's place too and then refuse it)."""
    event = events.create_event(name="Rumble night", game="royal_rumble", format="heats",
                                by=organizer, hold_rounds=True,
                                format_options={"pod_size": 4, "advance": 2})
    human = events.add_entrant(event=event, by=organizer, player=player.username).key
    enter_bots(event, organizer, 7)
    events.start_event(event=event, by=organizer)
    pod = next(link for link in EventMatch.objects.filter(event=event) if human in link.entrants)
    events.withdraw_entrant(event=event, by=organizer, key=human)
    recorded = events.replay(event).results[pod.pairing]["placements"]
    assert sorted(recorded) == sorted(e for e in pod.entrants if e != human)

    with pytest.raises(events.LeagueError) as refused:
        events.correct_result(event=event, by=organizer, pairing=pod.pairing,
                              placements={**recorded, human: 4})
    assert refused.value.code == "bad_placements"

    order = sorted(recorded, key=recorded.__getitem__)
    swapped = {**recorded, order[0]: recorded[order[1]], order[1]: recorded[order[0]]}
    events.correct_result(event=event, by=organizer, pairing=pod.pairing, placements=swapped)
    assert events.replay(event).results[pod.pairing]["placements"] == swapped
    assert records(event)[-1] == "result_corrected"


@pytest.mark.django_db
def test_a_corrected_tie_places_those_after_it_as_a_finished_match_would(
        organizer: Any) -> None:
    """A finished match that two share first in places the next seat third, not second
    (1, 1, 3, 4): a correction written 1, 1, 2, 3 is recorded that way too. Taken as
    written, the pod's last stood third and ranked above the other pod's last."""
    event, pods = bot_heats(organizer, 8, hold_rounds=True, advance=1)
    forfeited(event, organizer, "P1-1", pods["P1-1"][3])
    forfeited(event, organizer, "P1-2", pods["P1-2"][3])
    a, b, c, d = pods["P1-1"]
    events.correct_result(event=event, by=organizer, pairing="P1-1",
                          placements={a: 1, b: 1, c: 2, d: 3})
    assert events.replay(event).results["P1-1"]["placements"] == {a: 1, b: 1, c: 3, d: 4}
    rank = {s.entrant.key: s.rank for s in Standing.objects.filter(event=event)}
    assert rank[d] == rank[pods["P1-2"][3]] == 7
    with pytest.raises(events.LeagueError) as again:
        events.correct_result(event=event, by=organizer, pairing="P1-1",
                              placements={a: 1, b: 1, c: 3, d: 4})
    assert again.value.code == "already_corrected"


@pytest.mark.django_db
def test_an_action_on_an_older_read_of_the_event_is_refused_and_writes_nothing(
        organizer: Any) -> None:
    """`expected_seq`: a random seeding sent twice draws once; a correction made on a page
    read before another organizer's correction does not overwrite it."""
    event = make_event(organizer, fmt="single_elimination", hold_rounds=True)
    enter_bots(event, organizer, 4)
    event.refresh_from_db()
    read = event.seq
    drawn = events.seed_event(event=event, by=organizer, method="random", expected_seq=read)
    with pytest.raises(events.LeagueError) as refused:
        events.seed_event(event=event, by=organizer, method="random", expected_seq=read)
    assert (refused.value.code, refused.value.status) == ("stale_seq", 409)
    assert records(event).count("seeded") == 1
    assert events.replay(event).order == drawn

    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.filter(event=event).order_by("pairing").first()
    assert link is not None
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=link.entrants[1])
    events.record_match_result(match=Match.objects.get(pk=link.match_id))
    event.refresh_from_db()
    read = event.seq
    first, second = link.entrants
    events.correct_result(event=event, by=organizer, pairing=link.pairing,
                          placements={first: 2, second: 1}, expected_seq=read)
    with pytest.raises(events.LeagueError) as stale:
        events.correct_result(event=event, by=organizer, pairing=link.pairing,
                              placements={first: 1, second: 2}, expected_seq=read)
    assert stale.value.code == "stale_seq"
    assert events.replay(event).results[link.pairing]["placements"] == {first: 2, second: 1}

    # A result the Event records by itself meanwhile does not make the page stale.
    event.refresh_from_db()
    read = event.seq
    other = EventMatch.objects.filter(event=event).exclude(pairing=link.pairing).get()
    match_services.forfeit_seat(match=other.match, seat=0)
    assert events.record_match_result(match=Match.objects.get(pk=other.match_id))
    event.refresh_from_db()
    assert event.seq > read
    events.correct_result(event=event, by=organizer, pairing=link.pairing,
                          placements={first: 1, second: 2}, expected_seq=read)
    assert events.replay(event).results[link.pairing]["placements"] == {first: 1, second: 2}


@pytest.mark.django_db(transaction=True)
def test_the_sweep_of_a_lost_result_rates_the_match_too(
        organizer: Any, player: Any, player2: Any, played: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The result task lost (the broker away as the match ended): the sweep recorded the
    Event's result, but the ratings the task would have written with it never came."""
    from league import receivers

    monkeypatch.setattr(receivers, "enqueue", lambda task, *args: None)  # never delivered
    event, link, _, _ = alice_beats_bruno(organizer, player, player2, played)
    assert "result_recorded" not in records(event)
    assert not projections.RatingHistory.objects.filter(match=link.match).exists()
    assert events.sweep_results() == 1
    assert "result_recorded" in records(event)
    assert projections.RatingHistory.objects.filter(match=link.match).count() == 2
    assert Rating.objects.get(game=GAME, player__user=player).mu > 25
    rated = snapshot()["ratings"]
    assert events.sweep_results() == 0  # swept again: nothing twice
    assert snapshot()["ratings"] == rated


@pytest.mark.django_db(transaction=True)
def test_the_sweep_rates_a_match_outside_events_whose_result_task_was_lost(
        toy_match: Any, player: Any, played: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match outside any Event has no result for the missed-results sweep to record, so
    with its result task lost (the broker away as it ended) nothing rated it. The sweep
    rates it once its task has had time to come."""
    from datetime import timedelta

    from django.utils import timezone

    from league import receivers, tasks

    monkeypatch.setattr(receivers, "enqueue", lambda task, *args: None)  # never delivered
    match_services.forfeit_seat(match=played(toy_match, 1), seat=1)
    toy_match.refresh_from_db()
    assert toy_match.status == Match.Status.FINISHED
    assert not projections.RatingHistory.objects.filter(match=toy_match).exists()
    assert tasks.sweep_results() == 0  # just finished: its own task may still come
    later = timezone.now() + timedelta(minutes=5)
    assert projections.sweep_unrated(now=later) == 1
    assert projections.RatingHistory.objects.filter(match=toy_match).count() == 2
    assert Rating.objects.get(game=toy_match.game, player__user=player).mu > 25
    assert projections.sweep_unrated(now=later) == 0  # swept again: nothing twice


@pytest.mark.django_db(transaction=True)
def test_a_result_task_that_fails_rating_leaves_the_result_to_the_sweep_which_rates(
        organizer: Any, player: Any, player2: Any, played: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The result task recorded the Event's result, then failed rating the match (a
    database away past its retries): the sweep passed the recorded result by, and nothing
    rated the match. The result is now recorded last, so it waits for the sweep."""
    real = projections.refresh_ratings_after

    def away(match: Match) -> None:
        raise RuntimeError("the database is away")

    monkeypatch.setattr(projections, "refresh_ratings_after", away)
    event, link, _, _ = alice_beats_bruno(organizer, player, player2, played)
    assert not Rating.objects.exists()
    monkeypatch.setattr(projections, "refresh_ratings_after", real)
    assert events.sweep_results() == 1
    assert "result_recorded" in records(event)
    assert projections.RatingHistory.objects.filter(match=link.match).count() == 2


@pytest.mark.django_db(transaction=True)
def test_one_events_failure_does_not_stop_the_sweep_of_the_others(
        organizer: Any, player: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Any error recording one Event's result (a database refusal, say) is logged, and the
    sweep goes on to the other Events' missed results."""
    first, _, _ = rumble_heats(organizer, player, entrants=6, pod_size=3, advance=1)
    second, _, _ = rumble_heats(organizer, player, entrants=6, pod_size=3, advance=1)
    real, swept = events.record_match_result, []

    def failing_for_the_first(*, match: Match) -> bool:
        event = EventMatch.objects.get(match=match).event_id
        swept.append(event)
        if event == first.pk:
            raise RuntimeError("a database refusal")
        return real(match=match)

    monkeypatch.setattr(events, "record_match_result", failing_for_the_first)
    assert events.sweep_results() == 0  # (nothing was missed: each call is idempotent)
    assert first.pk in swept and second.pk in swept


def forfeited(event: Event, by: Any, pairing: str, loser: str) -> None:
    """`loser` forfeits `pairing`'s match and its result is recorded (a Royal Rumble's
    others play it out first, `loser` out and placed last)."""
    events.forfeit(event=event, by=by, pairing=pairing, entrant=loser)
    link = EventMatch.objects.get(event=event, pairing=pairing)
    events.record_match_result(match=played_out(Match.objects.get(pk=link.match_id)))


def bot_heats(by: Any, n: int, *, hold_rounds: bool,
              advance: int) -> tuple[Event, dict[str, list[str]]]:
    """A started Royal Rumble heats Event of `n` bots in pods of four, and its pods."""
    event = events.create_event(name="Rumble", game="royal_rumble", format="heats", by=by,
                                hold_rounds=hold_rounds,
                                format_options={"pod_size": 4, "advance": advance})
    enter_bots(event, by, n)
    events.start_event(event=event, by=by)
    return event, {link.pairing: link.entrants
                   for link in EventMatch.objects.filter(event=event)}


def refused_and_unchanged(event: Event, by: Any, pairing: str,
                          placements: dict[str, int]) -> events.LeagueError:
    """The correction is refused, and the Event is as it was: still finished, no record or
    match added."""
    kept, made = records(event), EventMatch.objects.filter(event=event).count()
    with pytest.raises(events.LeagueError) as refused:
        events.correct_result(event=event, by=by, pairing=pairing, placements=placements)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert records(event) == kept
    assert EventMatch.objects.filter(event=event).count() == made
    return refused.value


@pytest.mark.django_db
def test_a_correction_that_would_reopen_a_finished_grand_final_is_refused(
        organizer: Any) -> None:
    """The grand final given to the losers' side calls for a reset match: a correction
    made one inside the finished Event (which no sweep then looked after)."""
    event = make_event(organizer, fmt="double_elimination")
    first, second = enter_bots(event, organizer, 2)
    events.start_event(event=event, by=organizer)
    forfeited(event, organizer, "W1-1", second)
    forfeited(event, organizer, "GF", second)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    refusal = refused_and_unchanged(event, organizer, "GF", {first: 2, second: 1})
    assert (refusal.code, refusal.status) == ("correction_conflicts", 409)
    assert "GF" in refusal.detail and "finished" in refusal.detail


@pytest.mark.django_db
def test_a_correction_that_would_undo_a_finals_walkover_is_refused(organizer: Any) -> None:
    """W1-1's winner withdrew, so the final was a walkover; W1-1 given to the other player
    would need the final played."""
    event = make_event(organizer, fmt="single_elimination")
    keys = enter_bots(event, organizer, 4)
    events.seed_event(event=event, by=organizer, method="hand", order=keys)
    events.start_event(event=event, by=organizer)
    semis = {link.pairing: link.entrants for link in EventMatch.objects.filter(event=event)}
    (one, one_pair), (two, two_pair) = sorted(semis.items())
    forfeited(event, organizer, one, one_pair[1])
    events.withdraw_entrant(event=event, by=organizer, key=one_pair[0])
    forfeited(event, organizer, two, two_pair[1])
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    refusal = refused_and_unchanged(event, organizer, one, {one_pair[0]: 2, one_pair[1]: 1})
    assert refusal.code == "correction_conflicts"


@pytest.mark.django_db
def test_a_finished_events_correction_that_keeps_it_decided_is_taken(organizer: Any) -> None:
    """The final given to the other player: the Event stays finished with a new winner."""
    event = make_event(organizer, fmt="single_elimination")
    first, second = enter_bots(event, organizer, 2)
    events.start_event(event=event, by=organizer)
    forfeited(event, organizer, "W1-1", second)
    events.correct_result(event=event, by=organizer, pairing="W1-1",
                          placements={first: 2, second: 1})
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert records(event)[-2:] == ["finished", "result_corrected"]
    top = Standing.objects.get(event=event, rank=1)
    assert top.entrant.key == second


@pytest.mark.django_db
def test_a_correction_the_format_refuses_for_itself_keeps_the_formats_code(
        organizer: Any) -> None:
    """A draw in a bracket is the correction's own error, not a conflict with what
    followed."""
    event = make_event(organizer, fmt="single_elimination")
    enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.filter(event=event).order_by("pairing").first()
    assert link is not None
    forfeited(event, organizer, link.pairing, link.entrants[1])
    with pytest.raises(events.LeagueError) as refused:
        events.correct_result(event=event, by=organizer, pairing=link.pairing,
                              placements=dict.fromkeys(link.entrants, 1))
    assert refused.value.code == "draw_not_allowed"


def cage_heats(organizer: Any, *, hold_rounds: bool) -> tuple[Event, list[str]]:
    """Nine bots in Ultimate Showdown heats (three at a table): three pods of three, whose
    winners meet in a final of three; the round-one pods' matches made."""
    event = events.create_event(name="Heats", game="ultimate_showdown", format="heats",
                                by=organizer, hold_rounds=hold_rounds,
                                format_options={"pod_size": 4, "advance": 1})
    keys = enter_bots(event, organizer, 9)
    events.start_event(event=event, by=organizer)
    assert sorted(len(link.entrants) for link in EventMatch.objects.filter(event=event)) == [
        3, 3, 3]
    return event, keys


def settled(event: Event, pairing: str) -> dict[str, Any]:
    """The result recorded for a pairing that had no match."""
    assert not EventMatch.objects.filter(event=event, pairing=pairing).exists()
    return events.replay(event).results[pairing]


@pytest.mark.django_db
def test_a_held_final_left_below_the_games_seats_is_settled_by_seed(organizer: Any,
                                                                    client: Any) -> None:
    """A finalist withdraws before the held final is released: two are left in a game of
    three, which no match seats. Its release used to be refused (bad_seat_count) until
    another withdrew; the final is now settled by seed, and the Event ends."""
    event, keys = cage_heats(organizer, hold_rounds=True)
    for link in EventMatch.objects.filter(event=event).order_by("pairing"):
        forfeited(event, organizer, link.pairing, link.entrants[-1])
    final = events.held_pairings(event, events.replay(event))
    assert [p.id for p in final] == ["P2-1"] and len(final[0].entrants) == 3
    events.withdraw_entrant(event=event, by=organizer, key=final[0].entrants[0])
    events.release_round(event=event, by=organizer)

    left = sorted(final[0].entrants[1:], key=keys.index)
    result = settled(event, "P2-1")
    assert result["placements"] == {left[0]: 1, left[1]: 2}
    assert result["decided_by"] == "seed"
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert Standing.objects.get(event=event, rank=1).entrant.key == left[0]
    row = next(r for r in serializers.bracket_of(event) if r["pairing"] == "P2-1")
    assert (row["match"], row["decided_by"], row["result"]) == (None, "seed", {
        left[0]: 1, left[1]: 2})
    client.force_login(organizer)
    page = client.get(reverse("league:event", args=[event.pk]))
    assert page.status_code == 200 and "Final pod" in page.content.decode()
    panel = client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert 'aria-label="Correct Final pod"' in panel  # by its label, as a played pod

    # The organizer may still give it to the other (played off the site, say).
    events.correct_result(event=event, by=organizer, pairing="P2-1",
                          placements={left[0]: 2, left[1]: 1})
    assert Standing.objects.get(event=event, rank=1).entrant.key == left[1]
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


@pytest.mark.django_db
def test_a_final_dealt_below_the_games_seats_is_settled_by_seed(organizer: Any) -> None:
    """A heat's players all withdraw after it ended (the next best of a heat go on in
    place of a winner who withdraws): the final is dealt to two. Making its match used to
    fail inside the recording of the last heat's result, so that result was never recorded
    and every sweep failed on it."""
    event, _ = cage_heats(organizer, hold_rounds=False)
    first, *rest = EventMatch.objects.filter(event=event).order_by("pairing")
    forfeited(event, organizer, first.pairing, first.entrants[-1])
    for key in first.entrants:
        events.withdraw_entrant(event=event, by=organizer, key=key)
    for link in rest:
        forfeited(event, organizer, link.pairing, link.entrants[-1])

    assert all(link.pairing in events.replay(event).results for link in rest)
    result = settled(event, "P2-1")
    assert len(result["placements"]) == 2 and result["decided_by"] == "seed"
    assert events.sweep_results() == 0
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert records(event)[-2:] == ["result_recorded", "finished"]


@pytest.mark.django_db
def test_a_round_dealt_by_settled_pods_waits_for_its_own_release(organizer: Any) -> None:
    """Twenty-seven in pods of three: the released second round's pods, each left with two,
    are settled by seed, which deals the final; the final waits for its own release."""
    event = events.create_event(name="Heats", game="ultimate_showdown", format="heats",
                                by=organizer, hold_rounds=True,
                                format_options={"pod_size": 3, "advance": 1})
    enter_bots(event, organizer, 27)
    events.start_event(event=event, by=organizer)
    for link in EventMatch.objects.filter(event=event).order_by("pairing"):
        forfeited(event, organizer, link.pairing, link.entrants[-1])
    second = events.held_pairings(event, events.replay(event))
    assert [len(p.entrants) for p in second] == [3, 3, 3]
    for pod in second:
        events.withdraw_entrant(event=event, by=organizer, key=pod.entrants[0])
    events.release_round(event=event, by=organizer)

    assert all(settled(event, pod.id)["decided_by"] == "seed" for pod in second)
    final = events.held_pairings(event, events.replay(event))
    assert [(p.stage, len(p.entrants)) for p in final] == [("final", 3)]
    assert not EventMatch.objects.filter(event=event, stage="final").exists()
    events.release_round(event=event, by=organizer)
    assert EventMatch.objects.get(event=event, stage="final").match.n_seats == 3


@pytest.mark.django_db
@pytest.mark.parametrize("hold_rounds", [False, True])
def test_a_pod_a_player_left_does_not_block_the_correction_of_another(
        organizer: Any, hold_rounds: bool) -> None:
    """A player leaves P1-2 while its match is live: the pod, down to the two who go on,
    decides itself. A correction of P1-1 that sends on the same two used to be refused,
    "P1-2 was already made with the entrants...": the pod's match seated the one who left."""
    event, pods = bot_heats(organizer, 9, hold_rounds=hold_rounds, advance=2)
    one = pods["P1-1"]
    forfeited(event, organizer, "P1-1", one[2])
    events.withdraw_entrant(event=event, by=organizer, key=pods["P1-2"][0])
    events.correct_result(event=event, by=organizer, pairing="P1-1",
                          placements={one[0]: 2, one[1]: 1, one[2]: 3})
    assert events.replay(event).results["P1-1"]["placements"][one[1]] == 1

    # A correction that would send on another still conflicts once the next round is made.
    forfeited(event, organizer, "P1-3", pods["P1-3"][2])
    if hold_rounds:
        events.release_round(event=event, by=organizer)
    assert EventMatch.objects.filter(event=event, round=2).exists()
    with pytest.raises(events.LeagueError) as refused:
        events.correct_result(event=event, by=organizer, pairing="P1-1",
                              placements={one[0]: 1, one[1]: 3, one[2]: 2})
    assert refused.value.code == "correction_conflicts"


@pytest.mark.django_db
@pytest.mark.parametrize(("fmt", "options", "revision", "stage"), [
    ("swiss", {}, 3, 3), ("multistage", {"stage1": "swiss"}, 5, 3),
    ("double_elimination", {}, 2, 2)])
def test_an_event_replays_under_the_format_revision_it_started_under(
        organizer: Any, fmt: str, options: dict[str, Any], revision: int, stage: int) -> None:
    """Pairings are found again on every replay, so a fix to how a format pairs raises its
    revision: the started record keeps the one the Event started under, and an Event
    started before formats had revisions pairs as revision 1, as it was played."""
    event = make_event(organizer, fmt, format_options=options)
    enter_bots(event, organizer, 5)
    events.start_event(event=event, by=organizer)
    started = event.records.get(kind=EventRecord.Kind.STARTED)
    assert started.payload["revision"] == formats.get_format(fmt).revision == revision

    def paired_as(rows: list[EventRecord]) -> tuple[int, int]:
        """The revision the replayed state pairs as, and its Swiss stage's in a multistage."""
        state = events.replay(event, rows).state
        stage = state.groups[0].state if fmt == "multistage" else state
        return int(state.revision), int(stage.revision)

    rows = list(event.records.order_by("seq"))
    assert paired_as(rows) == (revision, stage)
    for row in rows:  # as an Event started before revisions recorded it (never saved)
        if row.kind == EventRecord.Kind.STARTED:
            row.payload = {k: v for k, v in row.payload.items() if k != "revision"}
    assert paired_as(rows) == (1, 1)


@pytest.mark.django_db
def test_a_refused_correction_names_the_matches_by_their_labels_not_their_ids(
        organizer: Any) -> None:
    """The format quotes pairings by id ("Bot 4 is not seated in L1-1.", "W1-2 is not
    ready"), and so did the service ("W2-1 has no recorded result to correct."): the
    organizer page lists a match by its label, which the refusal now names it by. A
    pairing the Event has not is quoted as typed."""
    event = make_event(organizer, fmt="double_elimination")
    enter_bots(event, organizer, 4)
    events.start_event(event=event, by=organizer)
    forfeited(event, organizer, "W1-1", "e4")
    forfeited(event, organizer, "W1-2", "e3")
    forfeited(event, organizer, "L1-1", "e3")
    with pytest.raises(events.LeagueError) as refused:
        events.correct_result(event=event, by=organizer, pairing="W2-1",
                              placements={"e1": 1, "e2": 2})
    assert refused.value.detail == "Winners final has no recorded result to correct."
    with pytest.raises(events.LeagueError) as refused:
        events.correct_result(event=event, by=organizer, pairing="W1-1",
                              placements={"e1": 2, "e4": 1})
    assert refused.value.code == "correction_conflicts"
    assert "(Bot 4 is not seated in Losers round 1 match 1)" in refused.value.detail
    with pytest.raises(events.LeagueError) as refused:
        events.correct_result(event=event, by=organizer, pairing="Z9",
                              placements={"e1": 1, "e2": 2})
    assert (refused.value.code, refused.value.detail) == (
        "unknown_pairing", "No pairing 'Z9' in this Event.")
    with pytest.raises(events.LeagueError) as refused:
        events.forfeit(event=event, by=organizer, pairing="GF", entrant="e1")
    assert (refused.value.code, refused.value.detail) == ("unknown_pairing",
                                                          "Grand final has no match yet.")


# -- the settings, until the start ---------------------------------------------------------

def settings_of(event: Event) -> dict[str, Any]:
    event.refresh_from_db()
    return {name: getattr(event, name) for name in events.SETTINGS}


def forfeit_round(event: Event) -> None:
    """Every live match of the Event ends by its second seat's forfeit, results recorded."""
    for link in EventMatch.objects.filter(event=event, match__status=Match.Status.ACTIVE):
        match_services.forfeit_seat(match=link.match, seat=1)
        assert events.record_match_result(match=link.match)


@pytest.mark.django_db
def test_twelve_came_instead_of_eight_so_the_draft_becomes_a_swiss_of_its_records(
        organizer: Any) -> None:
    """The organizer changes the format, its options, the match options and the turn
    deadline before the start: one record holding the new settings and the old, the
    Event's columns agree with it, and the Event starts and replays with them."""
    event = make_event(organizer, "single_elimination", format_options={"third_place": True})
    before = settings_of(event)
    enter_bots(event, organizer, 12)
    dropped = events.change_settings(
        event=event, by=organizer, format="swiss", format_options={"rounds": 4},
        match_options={"best_of": 3}, turn_deadline_minutes=10, deadline_policy="forfeit",
        expected_seq=Event.objects.get(pk=event.pk).seq)
    assert dropped == []
    now = settings_of(event)
    assert now["format"] == "swiss" and now["format_options"]["rounds"] == 4
    assert now["format_options"]["tiebreaks"] == [
        "buchholz", "sonneborn_berger", "head_to_head"]  # the format's defaults, filled in
    assert (now["match_options"], now["turn_deadline_minutes"], now["deadline_policy"],
            now["deadline_bot"]) == ({"best_of": 3}, 10, "forfeit", "heuristic")
    (record,) = event.records.filter(kind=EventRecord.Kind.SETTINGS_CHANGED)
    assert (record.actor, record.payload) == (organizer, {**now, "was": before})
    # Asking for what it has writes nothing; what is left out is kept.
    events.change_settings(event=event, by=organizer, format="swiss",
                           format_options={"rounds": 4})
    events.change_settings(event=event, by=organizer, turn_deadline_minutes=10)
    assert records(event).count("settings_changed") == 1 and settings_of(event) == now
    events.start_event(event=event, by=organizer)
    assert EventMatch.objects.filter(event=event).count() == 6  # a Swiss round of twelve
    match = EventMatch.objects.filter(event=event).first()
    assert match is not None and match.match.options["best_of"] == 3
    forfeit_round(event)
    rows = list(Standing.objects.filter(event=event).order_by("entrant__key")
                .values_list("entrant__key", "rank", "points"))
    events.clear_read_replays()
    assert events.replay(event).state.options.rounds == 4
    projections.rebuild_all()  # the projections rebuilt from the stream agree
    assert list(Standing.objects.filter(event=event).order_by("entrant__key")
                .values_list("entrant__key", "rank", "points")) == rows


@pytest.mark.django_db
def test_a_new_format_takes_its_own_defaults_unless_given_options(organizer: Any) -> None:
    event = make_event(organizer, "swiss", format_options={"rounds": 3})
    events.change_settings(event=event, by=organizer, format="single_elimination")
    assert settings_of(event)["format_options"] == {"third_place": False}
    events.change_settings(event=event, by=organizer, format_options={"third_place": True})
    assert settings_of(event)["format_options"] == {"third_place": True}


@pytest.mark.django_db
def test_the_settings_are_refused_once_the_event_has_started(organizer: Any) -> None:
    event = make_event(organizer)
    enter_bots(event, organizer, 2)
    events.start_event(event=event, by=organizer)
    before, kinds = settings_of(event), records(event)
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, turn_deadline_minutes=5)
    assert (refused.value.code, refused.value.status) == ("event_started", 409)
    assert settings_of(event) == before and records(event) == kinds


SETTINGS_REFUSED = [
    ({"format": "ladder"}, "unknown_format"),
    ({"format_options": {"rounds": 3}}, "unknown_option"),
    ({"format": "swiss", "format_options": {"tiebreaks": ["wins", "wins"]}}, "bad_option"),
    ({"format": "swiss", "format_options": {"win_points": 0, "draw_points": 1,
                                            "loss_points": 0}}, "bad_scoring"),
    ({"format": "heats", "format_options": {"pod_size": 9}}, "bad_pod_size"),
    ({"match_options": {"best_of": 2}}, "bad_option"),
    ({"turn_deadline_minutes": 0}, "bad_deadline"),
    ({"deadline_policy": "nap"}, "bad_policy"),
    ({"deadline_bot": "oracle"}, "unknown_bot"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("settings", "code"), SETTINGS_REFUSED)
def test_bad_settings_are_refused_with_the_creations_code_and_nothing_written(
        organizer: Any, settings: dict[str, Any], code: str) -> None:
    event = make_event(organizer)
    enter_bots(event, organizer, 2)
    before, kinds = settings_of(event), records(event)
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, **settings)
    assert refused.value.code == code
    with pytest.raises(events.LeagueError) as at_creation:
        make_event(organizer, **{"fmt": "round_robin", **{
            ("fmt" if name == "format" else name): value for name, value in settings.items()}})
    assert at_creation.value.code == code
    assert settings_of(event) == before and records(event) == kinds


@pytest.mark.django_db
@pytest.mark.parametrize(("format", "options", "said"), [
    ("heats", {"pod_size": 4.0}, "pod_size must be a whole number, not 4.0."),
    ("single_elimination", {"third_place": "yes"},
     "third_place must be true or false, not 'yes'."),
    ("swiss", {"win_points": "3"}, "win_points must be a number, not '3'."),
    ("multistage", {"stage1": "ladder"},
     "stage1 must be one of ['round_robin', 'swiss'], not 'ladder'."),
    ("swiss", {"tiebreaks": "wins"}, "tiebreaks must be a list of tiebreak names, not "
                                     "'wins'."),
])
def test_a_format_option_of_the_wrong_kind_is_refused_saying_what_it_must_be(
        organizer: Any, format: str, options: dict[str, Any], said: str) -> None:
    """A settings change (as a creation) sent an option of the wrong kind was told
    "pod_size must be a int" or "stage1 must be a choice", which names no choice."""
    event = make_event(organizer)
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, format=format,
                               format_options=options)
    assert (refused.value.code, refused.value.detail) == ("bad_option", said)
    assert "settings_changed" not in records(event)


@pytest.mark.django_db
def test_a_field_past_what_the_new_format_seats_is_refused_naming_how_many(
        organizer: Any) -> None:
    event = events.create_event(name="Showdown night", game="superstar_showdown",
                                format="round_robin", by=organizer)
    enter_bots(event, organizer, 3)
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, format="showdown_series",
                               match_options={"event": "full_card"})
    assert (refused.value.code, refused.value.status) == ("too_many_entrants", 409)
    assert refused.value.detail.startswith("3 entrants are entered, more than these settings "
                                           "seat")
    assert settings_of(event)["format"] == "round_robin"
    assert "settings_changed" not in records(event)


@pytest.mark.django_db
def test_a_settings_change_on_a_stale_read_is_refused_and_makes_older_reads_stale(
        organizer: Any, outsider: Any) -> None:
    event = make_event(organizer)
    enter_bots(event, organizer, 2)
    read = event.seq
    events.add_entrant(event=event, by=organizer, bot="random", name="Late bot")
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, format="swiss", expected_seq=read)
    assert refused.value.code == "stale_seq"
    read = Event.objects.get(pk=event.pk).seq
    events.change_settings(event=event, by=organizer, format="swiss", expected_seq=read)
    with pytest.raises(events.LeagueError) as refused:  # a start asked before the change
        events.start_event(event=event, by=organizer, expected_seq=read)
    assert refused.value.code == "stale_seq"
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=outsider, format="round_robin")
    assert (refused.value.code, refused.value.status) == ("not_organizer", 403)
    assert settings_of(event)["format"] == "swiss"


def played_out(match: Match) -> Match:
    """`match` played to its end: whoever is due plays its first legal action."""
    rules = match_services.registry.get_rules(match.game)
    for _ in range(5000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        state = match_services.load_state(match)
        due = rules.pending(state).seats[0]
        match_services.submit_action(match=match, seat=due, user=None,
                                     action=rules.legal_actions(state, due)[0])
    raise AssertionError("the match did not end")


def people_pod(organizer: Any, people: tuple[Any, ...], bots: int,
               **settings: Any) -> tuple[Event, list[str], EventMatch]:
    """A started Royal Rumble heats Event of one pod (a final): the `people` seeded in
    order, then `bots` bots; rounds limited to four; its entrants' keys and the pod."""
    event = events.create_event(name="Rumble night", game="royal_rumble", format="heats",
                                by=organizer, match_options={"round_limit": 4},
                                format_options={"pod_size": len(people) + bots,
                                                "advance": 1}, **settings)
    keys = [events.add_entrant(event=event, by=organizer, player=user.username).key
            for user in people] + enter_bots(event, organizer, bots)
    events.seed_event(event=event, by=organizer, method="hand", order=keys)
    events.start_event(event=event, by=organizer)
    return event, keys, EventMatch.objects.get(event=event)


@pytest.mark.django_db(transaction=True)
def test_an_organizers_forfeit_in_a_four_entrant_rumble_puts_one_out_and_the_rest_play_on(
        organizer: Any, player: Any, player2: Any, outsider: Any, client: Any) -> None:
    """RR-34/55/58 and the forfeit decision (engine/games/royal_rumble): the organizer
    forfeits bruno's seat of the pod; alice, olga and the bot play on, and the Event
    records the result when the match ends, bruno placed as eliminated first. Bruno
    never moved, so he is not rated (as an unplayed forfeit is not); alice and olga
    played it and are."""
    event, keys, link = people_pod(organizer, (player, player2, outsider), bots=1)
    bruno = keys[1]
    seat = link.seats_of(bruno)[0]
    assert match_services.moves_of(link.match, seat) == 0
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=bruno)
    match = Match.objects.get(pk=link.match_id)
    assert match.status == Match.Status.ACTIVE
    assert records(event)[-1] == "forfeited"
    assert link.pairing not in events.replay(event).results
    assert match.events.filter(kind="forfeit", seat=seat).count() == 1
    narration = [line for e in match_services.match_events(match=match, user=player)
                 for line in e["narration"]]
    assert f"Seat {seat + 1} forfeited and is out." in narration
    with pytest.raises(events.LeagueError) as again:
        events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=bruno)
    assert again.value.code == "seat_out"
    client.force_login(organizer)
    page = client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert "bruno</span> <span class=\"muted small\">forfeited and is out</span>" in page
    assert f'id="forfeit-{link.pairing}-{bruno}"' not in page
    assert f'id="forfeit-{link.pairing}-{keys[0]}"' in page
    assert "alice is out, and the others play on." in page

    played_out(match)
    result = events.replay(event).results[link.pairing]
    assert result["placements"][bruno] == 4 and result["forfeit"] == bruno
    assert result["forfeits"] == [bruno]
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rated = Rating.objects.filter(game="royal_rumble")
    assert sorted(rated.values_list("player__user__username", flat=True)) == ["alice", "olga"]


def test_the_organizer_is_told_a_forfeit_that_leaves_one_entrant_ends_the_pod(
        organizer: Any, player: Any, player2: Any, outsider: Any, client: Any) -> None:
    """RR-55: two of a four-entrant pod forfeited; the organizer's question before a third
    forfeit says the match ends and the one left wins it, not that the others play on."""
    event, keys, link = people_pod(organizer, (player, player2, outsider), bots=1)
    client.force_login(organizer)

    def asked() -> str:
        return client.get(reverse("league:event_admin", args=[event.pk])).content.decode()

    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=keys[1])
    assert "alice is out, and the others play on." in asked()
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=keys[0])
    assert Match.objects.get(pk=link.match_id).status == Match.Status.ACTIVE
    page = asked()
    assert "olga forfeits" in page
    assert "olga is out, and the match ends: the one left in wins it." in page
    assert "olga is out, and the others play on." not in page


@pytest.mark.django_db(transaction=True)
def test_a_rumble_entrant_out_by_a_forfeit_is_given_no_bot_by_the_organizer_or_the_deadline(
        organizer: Any, player: Any, player2: Any, outsider: Any, client: Any) -> None:
    """The forfeit decision (engine/games/royal_rumble): bruno forfeited the pod and is
    asked nothing any more. The organizer's bot for him is refused (seat_out) and
    recorded nowhere, the organizer page offers none, and the turn deadline, which hands
    the late seats to a bot, never hands his (the match never waits for it)."""
    from datetime import timedelta

    from django.utils import timezone

    event, keys, link = people_pod(organizer, (player, player2, outsider), bots=1,
                                   turn_deadline_minutes=5, deadline_bot="random")
    bruno = keys[1]
    seat = link.seats_of(bruno)[0]
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=bruno)
    with pytest.raises(events.LeagueError) as refused:
        events.seat_to_bot(event=event, by=organizer, pairing=link.pairing, entrant=bruno,
                           bot="random")
    assert (refused.value.code, refused.value.status) == ("seat_out", 409)
    assert records(event)[-1] == "forfeited"
    client.force_login(organizer)
    page = client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert f'id="to-bot-{link.pairing}-{bruno}"' not in page
    assert f'id="to-bot-{link.pairing}-{keys[0]}"' in page

    for _ in range(20):  # each sweep hands whoever is late then; their bots play on
        if Match.objects.get(pk=link.match_id).status == Match.Status.FINISHED:
            break
        events.enforce_deadlines(now=timezone.now() + timedelta(minutes=6))
    assert Match.objects.get(pk=link.match_id).status == Match.Status.FINISHED
    handed = [r.payload["entrant"] for r in event.records.filter(kind="seat_to_bot")]
    assert handed and bruno not in handed
    row = link.match.seats.get(index=seat)
    assert (row.user_id, row.bot) == (player2.pk, "")


@pytest.mark.django_db
def test_an_entrant_withdrawn_from_a_live_rumble_pod_reads_withdrawn_not_forfeited(
        organizer: Any, player: Any, player2: Any, outsider: Any, client: Any) -> None:
    """The forfeit decision of engine/games/royal_rumble: bruno leaves the Event while his
    pod of four plays on without him. The organizer's live list said he "forfeited and
    is out"; it says he was withdrawn, and alice, who forfeited, that she forfeited."""
    event, keys, link = people_pod(organizer, (player, player2, outsider), bots=1)
    events.withdraw_entrant(event=event, by=organizer, key=keys[1])
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=keys[0])
    assert Match.objects.get(pk=link.match_id).status == Match.Status.ACTIVE
    client.force_login(organizer)
    page = client.get(reverse("league:event_admin", args=[event.pk])).content.decode()
    assert 'bruno</span> <span class="muted small">withdrawn and is out</span>' in page
    assert 'alice</span> <span class="muted small">forfeited and is out</span>' in page


def test_an_entrant_out_of_a_live_rumble_pod_is_withdrawn_from_the_event(
        organizer: Any, player: Any, player2: Any, outsider: Any) -> None:
    """Forfeited out of a pod of three (RR-34 and the forfeit decision of
    engine/games/royal_rumble), alice then leaves the Event: her withdrawal was refused
    (409 seat_out, "Seat 1 already forfeited"), the withdrawal forfeiting her seat again.
    It is written, the pod plays on without her, and its result is the others'."""
    event = events.create_event(name="Trio night", game="royal_rumble", format="heats",
                                by=organizer, format_options={"pod_size": 3})
    keys = [events.add_entrant(event=event, by=organizer, player=user.username).key
            for user in (player, player2, outsider)]
    events.seed_event(event=event, by=organizer, method="hand", order=keys)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)
    events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=keys[0])
    events.withdraw_entrant(event=event, by=organizer, key=keys[0])
    assert records(event)[-2:] == ["forfeited", "entrant_withdrawn"]
    match = Match.objects.get(pk=link.match_id)
    assert match.status == Match.Status.ACTIVE
    assert match.events.filter(kind="forfeit").count() == 1
    events.record_match_result(match=played_out(match))
    placements = events.replay(event).results[link.pairing]["placements"]
    # bruno and olga placed by their match (a Rumble may end with both standing: a draw)
    assert sorted(placements) == sorted(keys[1:])
    assert sorted(placements.values()) in ([1, 2], [1, 1])


def swiss_of(people: int, organizer: Any, django_user_model: Any) -> Event:
    """A started Swiss of `people` players (named p{people}x0...)."""
    event = make_event(organizer, "swiss")
    for i in range(people):
        user = django_user_model.objects.create_user(username=f"p{people}x{i}")
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    return event


@pytest.mark.django_db
def test_recording_a_result_asks_the_same_queries_whatever_the_field(
        organizer: Any, django_user_model: Any) -> None:
    """Each recorded result rewrites the Event's projections (entrants, match links,
    standings): one insert for all its entrants, not one an entrant."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for people in (4, 12):
        event = swiss_of(people, organizer, django_user_model)
        link = EventMatch.objects.filter(event=event).first()
        match_services.forfeit_seat(match=link.match, seat=1)
        with CaptureQueriesContext(connection) as done:
            assert events.record_match_result(match=Match.objects.get(pk=link.match_id))
        counts.append(len(done))
        assert list(Standing.objects.filter(event=event, entrant__player__isnull=False)
                    .values_list("entrant__key", flat=True).order_by("position"))[:1] \
            == [link.entrants[0]]
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_a_result_keeps_every_entrant_row_and_match_link_and_their_ids_whatever_the_field(
        organizer: Any, django_user_model: Any) -> None:
    """A result changes no entrant and, until its round is decided, makes no match: their
    rows are left as they are, neither deleted nor written again, and keep their ids; a
    withdrawal updates its entrant's row in place and adds nothing but the matches it
    deals."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def ids(model: Any, key: str) -> dict[Any, int]:
        return dict(model.objects.filter(event=event).values_list(key, "pk"))

    for people in (4, 12):
        event = swiss_of(people, organizer, django_user_model)
        entrants, links = ids(Entrant, "key"), ids(EventMatch, "match_id")
        link = EventMatch.objects.filter(event=event).first()
        match_services.forfeit_seat(match=link.match, seat=1)
        with CaptureQueriesContext(connection) as done:
            assert events.record_match_result(match=Match.objects.get(pk=link.match_id))
        writes = [q["sql"] for q in done if not q["sql"].startswith("SELECT") and any(
            table in q["sql"].split(" WHERE ")[0]
            for table in ('"league_entrant"', '"league_eventmatch"'))]
        assert writes == []
        assert (ids(Entrant, "key"), ids(EventMatch, "match_id")) == (entrants, links)
        events.withdraw_entrant(event=event, by=organizer, key=link.entrants[0])
        assert ids(Entrant, "key") == entrants
        assert ids(EventMatch, "match_id").items() >= links.items()
        assert Entrant.objects.get(pk=entrants[link.entrants[0]]).withdrawn


@pytest.mark.django_db
def test_a_result_keeps_the_standing_rows_in_place_in_the_formats_order_whatever_the_field(
        organizer: Any, django_user_model: Any) -> None:
    """A result writes the standing rows whose figures or place it changed again, each
    under its id, and leaves the others be: every row keeps its id, the queries asked of
    the standings do not grow with the field, and the rows read in their position order
    are the format's own order (rows sharing a rank in its tie order). Written again
    with nothing changed, no row is."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def ids() -> dict[str, int]:
        return dict(Standing.objects.filter(event=event).values_list("entrant__key", "pk"))

    asked = []
    for people in (4, 12, 40):
        event = swiss_of(people, organizer, django_user_model)
        before = ids()
        link = EventMatch.objects.filter(event=event).first()
        match_services.forfeit_seat(match=link.match, seat=1)
        with CaptureQueriesContext(connection) as done:
            assert events.record_match_result(match=Match.objects.get(pk=link.match_id))
        standings = [q["sql"] for q in done if '"league_standing"' in q["sql"]]
        asked.append(len(standings))
        assert ids() == before
        fmt = formats.get_format(event.format)
        assert list(Standing.objects.filter(event=event).order_by("position")
                    .values_list("entrant__key", flat=True)) \
            == [row.entrant for row in fmt.standings(events.replay(event).state)]
        assert Standing.objects.get(pk=before[link.entrants[0]]).wins == 1
        with CaptureQueriesContext(connection) as again:
            projections.refresh_event(Event.objects.get(pk=event.pk))
        assert [q["sql"][:6] for q in again if '"league_standing"' in q["sql"]] == ["SELECT"]
        assert ids() == before
    assert asked[0] == asked[1] == asked[2] <= 3


class _Calls:
    """How often a function of a module was called, the function still doing its work."""

    def __init__(self, monkeypatch: Any, module: Any, name: str) -> None:
        self.count = 0
        real = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(module, name, counted)


@pytest.mark.django_db
def test_recording_a_result_replays_the_event_once_whatever_the_field(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """The replay the result is checked against carries the records it writes on to the
    matches it deals and the projections it rewrites: the stream is read once, not once
    for each of them."""
    replays = _Calls(monkeypatch, events, "replay")
    counts = []
    for people in (4, 12):
        event = swiss_of(people, organizer, django_user_model)
        link = EventMatch.objects.filter(event=event).first()
        match_services.forfeit_seat(match=link.match, seat=1)
        replays.count = 0
        assert events.record_match_result(match=Match.objects.get(pk=link.match_id))
        counts.append(replays.count)
        assert events.replay(event).results[link.pairing]["placements"] \
            == {link.entrants[0]: 1, link.entrants[1]: 2}
    assert counts == [1, 1]


@pytest.mark.django_db
def test_a_withdrawal_from_a_started_event_replays_it_once_whatever_the_field(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """The replay the withdrawal is checked against goes on to the walkover it gives and
    the projections it rewrites, as a result's does."""
    replays = _Calls(monkeypatch, events, "replay")
    counts = []
    for people in (4, 12):
        event = swiss_of(people, organizer, django_user_model)
        link = EventMatch.objects.filter(event=event).first()
        replays.count = 0
        events.withdraw_entrant(event=event, by=organizer, key=link.entrants[1])
        counts.append(replays.count)
        assert events.walkovers(events.replay(event)) == {link.pairing: link.entrants[0]}
        assert Entrant.objects.get(event=event, key=link.entrants[1]).withdrawn
    assert counts == [1, 1]


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_a_swiss_result_pairs_no_round_already_paired_again(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """Each result folds its records into the replay kept from the one before: it replays
    nothing, and only the result that decides a round pairs (the next round), however
    many rounds came before."""
    from league.formats import swiss

    replays = _Calls(monkeypatch, events, "replay")
    pairings = _Calls(monkeypatch, swiss, "pair_field")
    event = make_event(organizer, "swiss", format_options={"rounds": 3})
    for i in range(8):
        user = django_user_model.objects.create_user(username=f"p{i}")
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    seen = []
    for round_ in (1, 2, 3):
        for link in EventMatch.objects.filter(event=event, round=round_).order_by("pairing"):
            replays.count = pairings.count = 0
            match_services.forfeit_seat(match=link.match, seat=1)  # (its result on commit)
            seen.append((replays.count, pairings.count))
    assert records(event).count("result_recorded") == 12
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    # The round's last result pairs the next one once: the state it was checked with is kept.
    assert seen == [(0, 0)] * 3 + [(0, 1)] + [(0, 0)] * 3 + [(0, 1)] + [(0, 0)] * 4
    events.clear_read_replays()
    assert events.replay_to_read(Event.objects.get(pk=event.pk)).results \
        == events.replay(event).results


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_a_result_replays_none_of_the_season_s_other_events_while_they_did_not_change(
        organizer: Any, django_user_model: Any) -> None:
    """A result rewrites its season's table from every Event of the season; those it did
    not change are read as the replay kept by their seq, not replayed again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league.models import SeasonStanding

    def started(season: Any) -> Event:
        event = make_event(organizer, season=season)
        for _ in range(2):
            user = django_user_model.objects.create_user(
                username=f"u{django_user_model.objects.count()}")
            events.add_entrant(event=event, by=organizer, player=user.username)
        events.start_event(event=event, by=organizer)
        return event

    reads = []
    for others in (1, 3):
        season = events.create_season(name=f"Season {others}", game=GAME, by=organizer)
        for _ in range(others):
            started(season)
        link = EventMatch.objects.get(event=started(season))
        with CaptureQueriesContext(connection) as done:  # (its result recorded on commit)
            match_services.forfeit_seat(match=link.match, seat=1)
        assert records(link.event).count("result_recorded") == 1
        reads.append(sum('FROM "league_eventrecord"' in q["sql"] for q in done))
        table = dict(SeasonStanding.objects.filter(season=season).values_list("rank", "events"))
        assert sorted(table) == [1, 2] and set(table.values()) == {1}
    assert reads[0] == reads[1]


@pytest.mark.django_db(transaction=True)  # (as a league night's worker records it)
def test_a_result_of_a_season_s_event_replays_it_no_more_than_one_of_no_season(
        organizer: Any, django_user_model: Any) -> None:
    """The season's table takes the replay the Event's own projections were rewritten
    from, rather than replaying the Event again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league.models import SeasonStanding

    season = events.create_season(name="Autumn", game=GAME, by=organizer)
    reads = []
    for home in (None, season):
        event = make_event(organizer, season=home)
        for i in range(2):
            user = django_user_model.objects.create_user(username=f"u{i}{home is None}")
            events.add_entrant(event=event, by=organizer, player=user.username)
        events.start_event(event=event, by=organizer)
        link = EventMatch.objects.get(event=event)
        with CaptureQueriesContext(connection) as done:  # (its result recorded on commit)
            match_services.forfeit_seat(match=link.match, seat=1)
        assert records(event).count("result_recorded") == 1
        reads.append(sum('FROM "league_eventrecord"' in q["sql"] for q in done))
    assert sorted(SeasonStanding.objects.filter(season=season).values_list("rank", flat=True)) \
        == [1, 2]
    assert reads[0] == reads[1]


def _draft_of(people: int, organizer: Any, django_user_model: Any, **kwargs: Any
              ) -> tuple[Event, list[str]]:
    """A draft Event open to entry, with `people` players (named d{people}x0...)."""
    event = make_event(organizer, open_entry=True, **kwargs)
    keys = [events.add_entrant(event=event, by=organizer, player=django_user_model.objects
                               .create_user(username=f"d{people}x{i}").username).key
            for i in range(people)]
    return event, keys


def _action_replays(people: int, organizer: Any, django_user_model: Any,
                    replays: _Calls) -> list[int]:
    """How often each action of a draft Event of `people` players to its start replayed
    the stream."""
    event, keys = _draft_of(people, organizer, django_user_model)
    walker = django_user_model.objects.create_user(username=f"walker{people}")
    late = django_user_model.objects.create_user(username=f"late{people}")
    actions = [
        lambda: events.add_entrant(event=event, by=organizer, bot="random"),
        lambda: events.add_entrant(event=event, by=organizer, player=late.username),
        lambda: events.seed_event(event=event, by=organizer, method="random"),
        lambda: events.change_settings(event=event, by=organizer, format="swiss"),
        lambda: events.enter_event(event=event, by=walker),
        lambda: events.leave_event(event=event, by=walker),
        lambda: events.start_event(event=event, by=organizer),
        lambda: events.forfeit(event=event, by=organizer, pairing="nowhere", entrant=keys[0]),
    ]
    seen = []
    for action in actions:
        event.refresh_from_db()
        replays.count = 0
        try:
            action()
        except events.LeagueError as exc:
            assert exc.code == "unknown_pairing"
        seen.append(replays.count)
    event.refresh_from_db()
    done = events.replay(event)
    assert event.status == Event.Status.RUNNING and done.format == "swiss"
    assert len(done.order) == people + 2 and done.seeded_by == "random"
    assert EventMatch.objects.filter(event=event).count() == (people + 2) // 2
    return seen


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_each_organizer_and_entrant_action_replays_none_of_the_stream_whatever_the_field(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """An entry, a bot's, a seeding, a change of settings, a player entering and leaving,
    the start and an action naming a pairing the Event has not each start from the replay
    kept by the one before and fold in what they write: none replays the stream, however
    many entrants it holds."""
    replays = _Calls(monkeypatch, events, "replay")
    counts = [_action_replays(people, organizer, django_user_model, replays)
              for people in (4, 12)]
    assert counts == [[0] * 8, [0] * 8]


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_a_correction_replays_the_stream_only_to_check_itself_whatever_the_field(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """A correction replays the stream as it was when the result came in and as it is with
    the correction; the matches it deals and the projections it rewrites take the second
    of those replays rather than a third."""
    replays = _Calls(monkeypatch, events, "replay")
    counts = []
    for people in (4, 12):
        event = swiss_of(people, organizer, django_user_model)
        link = EventMatch.objects.filter(event=event).order_by("pairing").first()
        assert link is not None
        match_services.forfeit_seat(match=link.match, seat=1)  # (its result on commit)
        first, second = link.entrants
        replays.count = 0
        events.correct_result(event=Event.objects.get(pk=event.pk), by=organizer,
                              pairing=link.pairing, placements={first: 2, second: 1})
        counts.append(replays.count)
        assert events.replay(event).results[link.pairing]["placements"] \
            == {first: 2, second: 1}
        assert Standing.objects.get(event=event, entrant__key=second).wins == 1
    assert counts == [2, 2]


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_a_replay_from_the_start_pairs_no_swiss_round_paired_before(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """A replay from the start (after a correction, or where no replay is kept) finds the
    pairings of a field paired before, in the same order with the same points, byes and
    meetings: the rounds are not paired again (a correction is taken until a later round
    is drawn from its result, so what it changes is never paired before)."""
    from league.formats import swiss

    event = make_event(organizer, "swiss", format_options={"rounds": 3})
    for i in range(8):
        user = django_user_model.objects.create_user(username=f"p{i}")
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.start_event(event=event, by=organizer)
    for round_ in (1, 2, 3):
        for link in EventMatch.objects.filter(event=event, round=round_).order_by("pairing"):
            match_services.forfeit_seat(match=link.match, seat=1)  # (its result on commit)
    played = events.replay(event)
    pairings = _Calls(monkeypatch, swiss, "pair_field")
    events.clear_read_replays()
    assert events.replay(event) == played
    assert pairings.count == 0
    link = EventMatch.objects.get(event=event, pairing="R3-1")
    events.correct_result(event=event, by=organizer, pairing=link.pairing,
                          placements={link.entrants[0]: 2, link.entrants[1]: 1})
    assert event.records.filter(kind="result_corrected").exists()
    assert pairings.count == 0
    swiss.forget_pairings()
    assert events.replay(event) == events.replay_to_read(Event.objects.get(pk=event.pk))


@pytest.mark.django_db
def test_the_start_pairs_the_first_round_once_whatever_the_field(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """The state the start is checked with is the one its matches are made from: the
    first round is not paired again when the started record is folded in."""
    from league.formats import swiss

    pairings = _Calls(monkeypatch, swiss, "pair_field")
    counts = []
    for people in (4, 12):
        event, _ = _draft_of(people, organizer, django_user_model, fmt="swiss")
        pairings.count = 0
        swiss.forget_pairings()  # (the draft's checks paired the field already)
        events.start_event(event=event, by=organizer)
        counts.append(pairings.count)
        assert EventMatch.objects.filter(event=event).count() == people // 2
        assert events.replay_to_write(Event.objects.get(pk=event.pk)) == events.replay(event)
    assert counts == [1, 1]


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_a_withdrawal_that_decides_a_swiss_round_pairs_the_next_one_once(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """The state the withdrawal is checked with is the one folded in: the walkover that
    decides the round pairs the next round once, not again when the record is folded."""
    from league.formats import swiss

    event = swiss_of(4, organizer, django_user_model)
    played, left = EventMatch.objects.filter(event=event, round=1).order_by("pairing")
    match_services.forfeit_seat(match=played.match, seat=1)  # (its result on commit)
    pairings = _Calls(monkeypatch, swiss, "pair_field")
    events.withdraw_entrant(event=event, by=organizer, key=left.entrants[1])
    assert pairings.count == 1
    assert EventMatch.objects.filter(event=event, round=2).count() == 1
    done = events.replay(event)
    assert events.walkovers(done) == {left.pairing: left.entrants[0]}
    assert events.replay_to_write(Event.objects.get(pk=event.pk)) == done


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_a_late_entry_joins_a_started_swiss_once(organizer: Any, django_user_model: Any,
                                                 monkeypatch: Any) -> None:
    """The state the late entry is checked with is the one folded in: the format takes
    the entrant once, not again when the record is folded."""
    from league.formats import swiss

    event = swiss_of(4, organizer, django_user_model)
    joins = _Calls(monkeypatch, swiss.Swiss, "add_entrant")
    pairings = _Calls(monkeypatch, swiss, "pair_field")
    late = events.add_entrant(event=event, by=organizer, player=django_user_model.objects
                              .create_user(username="late").username)
    assert (joins.count, pairings.count) == (1, 0)
    done = events.replay(event)
    assert late.key in done.state.entrants and late.key in done.order
    assert events.replay_to_write(Event.objects.get(pk=event.pk)) == done


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_pods_settled_by_seed_deal_the_next_round_once(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """The state each settled pod is checked with is the one folded in: the last of them
    deals the final once, not again when its result is folded."""
    from league.formats import heats

    event = events.create_event(name="Heats", game="ultimate_showdown", format="heats",
                                by=organizer, hold_rounds=True,
                                format_options={"pod_size": 3, "advance": 1})
    for i in range(27):  # (people, whose matches wait for them, as bots' would not)
        events.add_entrant(event=event, by=organizer, player=django_user_model.objects
                           .create_user(username=f"h{i}").username)
    events.start_event(event=event, by=organizer)
    for link in EventMatch.objects.filter(event=event).order_by("pairing"):
        forfeited(event, organizer, link.pairing, link.entrants[-1])
    second = events.held_pairings(event, events.replay(event))
    for pod in second:
        events.withdraw_entrant(event=event, by=organizer, key=pod.entrants[0])
    deals = _Calls(monkeypatch, heats, "deal")
    events.release_round(event=event, by=organizer)
    assert deals.count == 1
    done = events.replay(event)
    assert all(done.results[pod.id]["decided_by"] == "seed" for pod in second)
    assert [p.stage for p in events.held_pairings(event, done)] == ["final"]
    assert events.replay_to_write(Event.objects.get(pk=event.pk)) == done


@pytest.mark.django_db(transaction=True)  # a replay is kept once its records committed
def test_the_bracket_read_without_a_replay_takes_the_kept_one_even_from_an_old_row(
        organizer: Any, django_user_model: Any, monkeypatch: Any) -> None:
    """The bracket of an Event read by a row older than its records (one read before its
    start) shows the pairings and results as they are, from the replay kept by the Event's
    seq: no record is folded again for it."""
    from league.serializers import bracket_of

    event = make_event(organizer, fmt="swiss")
    for i in range(4):
        events.add_entrant(event=event, by=organizer, player=django_user_model.objects
                           .create_user(username=f"b{i}").username)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.filter(event=event).order_by("pairing").first()
    assert link is not None
    match_services.forfeit_seat(match=link.match, seat=1)  # (its result on commit)
    folds = _Calls(monkeypatch, events, "_fold")
    rows = {row["pairing"]: row for row in bracket_of(event)}
    assert folds.count == 0
    assert rows[link.pairing]["result"] == {link.entrants[0]: 1, link.entrants[1]: 2}
    assert len(rows) == 2
