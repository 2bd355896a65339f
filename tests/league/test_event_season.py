"""Moving an Event to another season (`events.change_season`): a season_changed record,
both seasons' tables written again, and the refusals, which write nothing."""

from __future__ import annotations

from typing import Any

import pytest

from league import events, projections
from league.models import Event, EventMatch, EventRecord, Season, SeasonStanding
from matches import services as match_services
from matches.models import Match

pytestmark = pytest.mark.django_db

GAME = "super_showdown"


def cup(by: Any, season: Season | None, name: str = "Cup", play: bool = True) -> Event:
    """A knockout of four bots in `season`, played out by forfeits of each second seat
    (the Event is over) unless not `play`."""
    event = events.create_event(name=name, game=GAME, format="single_elimination", by=by,
                                season=season)
    for i in range(4):
        events.add_entrant(event=event, by=by, bot="random", name=f"{name} bot {i + 1}")
    if not play:
        return event
    events.start_event(event=event, by=by)
    for _ in range(3):
        link = next(link for link in EventMatch.objects.filter(event=event)
                    if link.match.status == Match.Status.ACTIVE)
        match_services.forfeit_seat(match=link.match, seat=1)
        events.record_match_result(match=Match.objects.get(pk=link.match_id))
    event.refresh_from_db()
    return event


def table(season: Season) -> list[tuple[str, int, int, int, int]]:
    return sorted(SeasonStanding.objects.filter(season=season).values_list(
        "name", "rank", "events", "wins", "losses"))


def kinds(event: Event) -> list[str]:
    return list(event.records.order_by("seq").values_list("kind", flat=True))


@pytest.fixture
def seasons(organizer: Any) -> tuple[Season, Season]:
    return (events.create_season(name="Wrong league", game=GAME, by=organizer),
            events.create_season(name="Right league", game=GAME, by=organizer))


def test_a_finished_event_takes_its_results_to_the_new_seasons_table(
        organizer: Any, seasons: tuple[Season, Season]) -> None:
    wrong, right = seasons
    stays = cup(organizer, wrong, "Stays")
    moved = cup(organizer, wrong, "Moved")
    assert moved.status == Event.Status.FINISHED
    before = table(wrong)
    assert len(before) == 8 and table(right) == []
    assert events.change_season(event=moved, by=organizer, season=right) is True
    moved.refresh_from_db()
    assert moved.season == right
    assert [row for row in table(wrong) if row[0].startswith("Moved")] == []
    assert {row[0] for row in table(wrong)} == {f"Stays bot {i}" for i in range(1, 5)}
    assert {row[0] for row in table(right)} == {f"Moved bot {i}" for i in range(1, 5)}
    assert [r[3:] for r in table(right)] == [r[3:] for r in before if r[0].startswith("Moved")]
    record = moved.records.get(kind=EventRecord.Kind.SEASON_CHANGED)
    assert (record.payload, record.actor) == ({"season": right.pk, "was": wrong.pk}, organizer)
    assert stays.season == wrong
    # the tables are what a rebuild from the streams gives
    written = (table(wrong), table(right))
    projections.rebuild_all()
    assert (table(wrong), table(right)) == written


def test_an_event_under_no_season_joins_one_and_leaves_it_again(
        organizer: Any, seasons: tuple[Season, Season]) -> None:
    _, right = seasons
    event = cup(organizer, None)
    assert events.change_season(event=event, by=organizer, season=right)
    assert len(table(right)) == 4
    assert events.change_season(event=event, by=organizer, season=None)
    assert table(right) == []
    assert [r.payload for r in event.records.filter(kind="season_changed").order_by("seq")] \
        == [{"season": right.pk, "was": None}, {"season": None, "was": right.pk}]


def test_the_season_it_is_in_already_writes_nothing(organizer: Any,
                                                    seasons: tuple[Season, Season]) -> None:
    wrong, _ = seasons
    event = cup(organizer, wrong, play=False)
    was = kinds(event)
    assert events.change_season(event=event, by=organizer, season=wrong) is False
    assert kinds(event) == was


def test_an_organizer_of_both_seasons_moves_it_and_the_old_seasons_no_longer_run_it(
        organizer: Any, player: Any, player2: Any, seasons: tuple[Season, Season]) -> None:
    wrong, right = seasons
    wrong.organizers.add(player, player2)
    right.organizers.add(player)
    event = cup(organizer, wrong, play=False)
    assert events.change_season(event=event, by=player, season=right)
    event.refresh_from_db()
    assert events.can_organize(event, player) and not events.can_organize(event, player2)


@pytest.mark.parametrize("case", ["not the target's organizer", "no season for a non-staff",
                                  "not the event's organizer", "another game's season"])
def test_a_refused_move_has_its_code_and_writes_nothing(
        organizer: Any, player: Any, seasons: tuple[Season, Season], case: str) -> None:
    wrong, right = seasons
    event = cup(organizer, wrong)
    by, to, code, status = {
        "not the target's organizer": (player, right, "not_organizer", 403),
        "no season for a non-staff": (player, None, "not_organizer", 403),
        "not the event's organizer": (player, right, "not_organizer", 403),
        "another game's season": (organizer, events.create_season(
            name="Rumble league", game="royal_rumble", by=organizer), "wrong_game", 400),
    }[case]
    if case != "not the event's organizer":
        wrong.organizers.add(player)
    if case == "not the event's organizer":
        right.organizers.add(player)
    before = (kinds(event), table(wrong), table(right))
    with pytest.raises(events.LeagueError) as refused:
        events.change_season(event=event, by=by, season=to)
    assert (refused.value.code, refused.value.status) == (code, status)
    event.refresh_from_db()
    assert event.season == wrong and (kinds(event), table(wrong), table(right)) == before


def test_a_page_is_stale_for_a_move_only_when_the_season_changed_since(
        organizer: Any, seasons: tuple[Season, Season]) -> None:
    wrong, right = seasons
    event = cup(organizer, wrong, play=False)
    read = event.seq
    events.set_details(event=event, by=organizer, notes="Bring dice.")
    assert events.change_season(event=event, by=organizer, season=right, expected_seq=read)
    with pytest.raises(events.LeagueError) as refused:
        events.change_season(event=event, by=organizer, season=wrong, expected_seq=read)
    assert refused.value.code == "stale_seq"
    assert Event.objects.get(pk=event.pk).season == right
