"""`figure:NAME` and `diff:NAME` tiebreaks name a figure the Event's game reports.

A name the game's results never carry (`figure:eliminations` in Royal Rumble) ranked every
entrant alike, a column of zeros: it is refused at the creation and at a settings change,
naming the figures the game reports. An Event stored with one replays as it was made.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from league import events
from league.models import Event, EventRecord, Standing

pytestmark = pytest.mark.django_db

RUMBLE_FIGURES = "placards, bragging_rights, legends_used, rounds"


@pytest.mark.parametrize(("game", "fmt", "format_options"), [
    ("royal_rumble", "heats", {"pod_size": 4, "tiebreaks": ["figure:eliminations"]}),
    ("royal_rumble", "heats", {"pod_size": 4, "tiebreaks": ["wins", "diff:pins"]}),
    ("super_showdown", "swiss", {"tiebreaks": ["buchholz", "figure:score"]}),
    ("super_showdown", "round_robin", {"tiebreaks": ["diff:placards"]}),
    ("super_showdown", "multistage", {"tiebreaks": ["figure:ranking_points"]}),
])
def test_a_figure_the_game_does_not_report_is_refused_at_the_creation(
        organizer: Any, game: str, fmt: str, format_options: dict[str, Any]) -> None:
    with pytest.raises(events.LeagueError) as refused:
        events.create_event(name="Night", game=game, format=fmt, by=organizer,
                            format_options=format_options)
    assert refused.value.code == "bad_option"
    spec = registry.get_rules(game).spec
    named = next(t for t in format_options["tiebreaks"] if ":" in t)
    assert f"'{named}'" in refused.value.detail
    assert f"its figures are {', '.join(spec.figures)}" in refused.value.detail
    assert not Event.objects.exists()


def test_the_refusal_lists_royal_rumbles_figures(organizer: Any) -> None:
    with pytest.raises(events.LeagueError) as refused:
        events.create_event(name="Rumble", game="royal_rumble", format="heats", by=organizer,
                            format_options={"pod_size": 4,
                                            "tiebreaks": ["figure:eliminations"]})
    assert refused.value.detail == ("The tiebreak 'figure:eliminations' names a figure Royal "
                                    f"Rumble does not report: its figures are "
                                    f"{RUMBLE_FIGURES}.")


@pytest.mark.parametrize(("game", "fmt", "format_options"), [
    ("royal_rumble", "heats", {"pod_size": 4, "tiebreaks": ["wins", "figure:placards",
                                                            "diff:legends_used"]}),
    ("super_showdown", "swiss", {"tiebreaks": ["buchholz", "diff:games_won"]}),
    ("ultimate_showdown", "heats", {"pod_size": 4, "min_pod_size": 3,
                                    "tiebreaks": ["figure:round_5", "figure:score"]}),
    ("supershow", "round_robin", {"tiebreaks": ["figure:crowd_meter", "head_to_head"]}),
    ("superstar_showdown", "multistage", {"tiebreaks": ["diff:kick_outs"]}),
])
def test_a_figure_the_game_reports_is_taken(organizer: Any, game: str, fmt: str,
                                            format_options: dict[str, Any]) -> None:
    event = events.create_event(name="Night", game=game, format=fmt, by=organizer,
                                format_options=format_options)
    assert event.format_options["tiebreaks"] == format_options["tiebreaks"]


def test_a_settings_change_to_a_figure_the_game_does_not_report_is_refused(
        organizer: Any) -> None:
    event = events.create_event(name="Rumble", game="royal_rumble", format="heats",
                                by=organizer, format_options={"pod_size": 4})
    before = EventRecord.objects.filter(event=event).count()
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, format_options={
            "pod_size": 4, "tiebreaks": ["diff:eliminations"]})
    assert refused.value.code == "bad_option"
    assert RUMBLE_FIGURES in refused.value.detail
    event.refresh_from_db()
    assert event.format_options["tiebreaks"] == []
    assert EventRecord.objects.filter(event=event).count() == before
    events.change_settings(event=event, by=organizer, format_options={
        "pod_size": 4, "tiebreaks": ["diff:placards"]})
    event.refresh_from_db()
    assert event.format_options["tiebreaks"] == ["diff:placards"]


@pytest.mark.django_db(transaction=True)
def test_an_event_stored_with_a_figure_its_game_does_not_report_still_runs(
        organizer: Any) -> None:
    """Made before the check: it starts and replays with the tiebreak it was made with."""
    event = events.create_event(name="Old night", game="super_showdown",
                                format="round_robin", by=organizer)
    stored = {**event.format_options, "tiebreaks": ["figure:eliminations", "wins"]}
    Event.objects.filter(pk=event.pk).update(format_options=stored)
    event.refresh_from_db()
    for name in ("random", "heuristic", "random"):
        events.add_entrant(event=event, by=organizer, bot=name)
    events.start_event(event=event, by=organizer)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = list(Standing.objects.filter(event=event))
    assert len(rows) == 3
    assert all(row.tiebreaks["figure:eliminations"] == 0.0 for row in rows)
    assert events.replay(event).state is not None


def test_a_retired_games_event_is_refused_a_change_as_before(toy_game: Any,
                                                             organizer: Any) -> None:
    """A game this site plays no more: a change is refused unknown_game, as it was, before
    any tiebreak is read."""
    event = events.create_event(name="Old times", game=toy_game.TOY_KEY,
                                format="round_robin", by=organizer, deadline_bot="random",
                                format_options={"tiebreaks": ["figure:points"]})
    registry._GAMES.pop(toy_game.TOY_KEY)
    registry._BOTS.pop(toy_game.TOY_KEY, None)
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer, format_options={
            "tiebreaks": ["figure:anything"]})
    assert refused.value.code == "unknown_game"


def _stored_with_an_unreported_figure(organizer: Any) -> Event:
    """A draft made before the check: its tiebreaks name a figure Super Showdown never
    reports."""
    event = events.create_event(name="Old night", game="super_showdown",
                                format="round_robin", by=organizer)
    stored = {**event.format_options, "tiebreaks": ["figure:eliminations", "wins"]}
    Event.objects.filter(pk=event.pk).update(format_options=stored)
    event.refresh_from_db()
    return event


def test_a_change_that_keeps_a_stored_unreported_figure_is_refused_naming_it(
        organizer: Any) -> None:
    """The organizer sets a turn deadline: the refusal says the stored format options hold
    the figure, and to change them too, not as if the deadline were at fault."""
    event = _stored_with_an_unreported_figure(organizer)
    before = EventRecord.objects.filter(event=event).count()
    for change in ({"turn_deadline_minutes": 30},
                   {"match_options": {"best_of": 3}},
                   {"format_options": dict(event.format_options), "deadline_policy": "forfeit"}):
        with pytest.raises(events.LeagueError) as refused:
            events.change_settings(event=event, by=organizer, **change)
        assert refused.value.code == "bad_option"
        assert refused.value.detail.startswith(
            "The Event's format options as stored are refused now, and this change keeps "
            "them: The tiebreak 'figure:eliminations' names a figure Super Showdown does not "
            "report")
        assert refused.value.detail.endswith(
            "Change the format options too, in the same change, to save it.")
    event.refresh_from_db()
    assert event.turn_deadline_minutes is None and event.match_options["best_of"] == 1
    assert EventRecord.objects.filter(event=event).count() == before


def test_a_change_that_replaces_a_stored_unreported_figure_goes_through(
        organizer: Any) -> None:
    event = _stored_with_an_unreported_figure(organizer)
    events.change_settings(event=event, by=organizer, turn_deadline_minutes=30,
                           format_options={"tiebreaks": ["figure:games_won", "wins"]})
    event.refresh_from_db()
    assert event.format_options["tiebreaks"] == ["figure:games_won", "wins"]
    assert event.turn_deadline_minutes == 30
    record = EventRecord.objects.filter(event=event).last()
    assert record is not None and record.kind == EventRecord.Kind.SETTINGS_CHANGED
    assert record.payload["was"]["format_options"]["tiebreaks"] == ["figure:eliminations",
                                                                    "wins"]


def test_a_change_of_format_leaves_a_stored_unreported_figure_behind(organizer: Any) -> None:
    """Another format takes its own default options: the old tiebreaks go with it."""
    event = _stored_with_an_unreported_figure(organizer)
    events.change_settings(event=event, by=organizer, format="swiss")
    event.refresh_from_db()
    assert event.format == "swiss" and event.format_options["tiebreaks"] != [
        "figure:eliminations", "wins"]


def test_a_new_bad_figure_over_a_stored_one_is_refused_as_the_change_s_own(
        organizer: Any) -> None:
    """What the change itself sends is refused as at any change, not as stored."""
    event = _stored_with_an_unreported_figure(organizer)
    with pytest.raises(events.LeagueError) as refused:
        events.change_settings(event=event, by=organizer,
                               format_options={"tiebreaks": ["diff:pins"]})
    assert refused.value.code == "bad_option"
    assert refused.value.detail.startswith("The tiebreak 'diff:pins' names a figure")
