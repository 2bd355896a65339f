"""The kept replay (events.replay_to_read, events.replay_to_write) is the stream replayed."""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league import events
from league.events import LeagueError
from league.models import Event, EventMatch
from matches import services as match_services
from matches.models import Match

# Every format, with options that give it a round the organizer holds where it has rounds.
FORMATS = [
    ("super_showdown", "single_elimination", {"third_place": True}, 6),
    ("super_showdown", "double_elimination", {}, 5),
    ("super_showdown", "round_robin", {}, 5),
    ("super_showdown", "swiss", {"rounds": 3}, 7),
    ("super_showdown", "multistage", {"groups": 2, "third_place": True}, 8),
    ("ultimate_showdown", "heats", {"pod_size": 3, "advance": 1}, 9),
]


class Watch:
    """Each write to one Event checked against the stream replayed afresh, and the
    records it wrote folded into its own replay as it wrote them (none read back from
    the stream afterwards to be folded a second time)."""

    def __init__(self, event: Event, monkeypatch: Any) -> None:
        self.event = event
        self.writes = 0
        self.late: list[str] = []  # kinds of the records folded into a replay read back
        fold = events._fold

        def watched(event: Event, out: events.Replayed, rows: Any, corrections: Any,
                    undone: Any = ()) -> events.Replayed:
            rows = list(rows)
            if out.seq:  # (a replay from the start folds every record, as it must)
                self.late += [row.kind for row in rows]
            return fold(event, out, rows, corrections, undone)
        monkeypatch.setattr(events, "_fold", watched)

    def write(self, action: Any) -> Any:
        """`action`'s answer (None when refused), the kept replay it found unchanged, and
        both kept replays equal to a fresh one after it."""
        self.event.refresh_from_db()
        events.replay_to_read(self.event)  # (a replay kept before the write)
        kept = events._kept(self.event)
        assert kept is not None
        before = copy.deepcopy(kept)
        self.late.clear()
        try:
            answer = action()
        except LeagueError:
            answer = None
        # What the writer wrote was folded in as it wrote it: the matches it made, and
        # what it wrote after them.
        assert not {"match_created", "result_recorded", "round_released"} & set(self.late)
        assert kept == before  # the writer folded into a copy of its own
        self.event.refresh_from_db()
        fresh = events.replay(self.event)
        assert events.replay_to_write(self.event) == fresh
        assert events.replay_to_read(self.event) == fresh
        self.writes += 1
        return answer


def _live(event: Event) -> list[EventMatch]:
    return list(EventMatch.objects.filter(event=event, match__status=Match.Status.ACTIVE)
                .order_by("pairing", "replay"))


_names = itertools.count()


def play_through(organizer: Any, django_user_model: Any, game: str, fmt: str,
                 options: dict[str, Any], people: int, choose: Callable[[int], int]) -> Event:
    """An Event of `people` players played to its end, each write watched (`Watch`):
    entries, a withdrawal before and after the start (each reinstated where it may be,
    the one before the start then written again), a late entry where the format takes
    one, held rounds released, results (the seat that forfeits each match, of `n`:
    `choose(n)`) and a correction."""
    event = events.create_event(name="Kept night", game=game, format=fmt, by=organizer,
                                format_options=options, hold_rounds=True)
    with pytest.MonkeyPatch.context() as patch:
        return _play_through(Watch(event, patch), organizer, django_user_model, people, choose)


def _play_through(watch: Watch, organizer: Any, django_user_model: Any, people: int,
                  choose: Callable[[int], int]) -> Event:
    event = watch.event
    users = [django_user_model.objects.create_user(username=f"k{next(_names)}")
             for _ in range(people + 2)]
    keys = [watch.write(lambda u=u: events.add_entrant(event=event, by=organizer,
                                                       player=u.username)).key
            for u in users[:people + 1]]
    for undo in (events.withdraw_entrant, events.reinstate_entrant, events.withdraw_entrant):
        watch.write(lambda u=undo: u(event=event, by=organizer, key=keys[-1]))
    watch.write(lambda: events.seed_event(event=event, by=organizer, method="random"))
    watch.write(lambda: events.start_event(event=event, by=organizer))
    corrected = late = withdrawn = False
    for _ in range(400):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        live = _live(event)
        if not live:
            watch.write(lambda: events.release_round(event=event, by=organizer))
            assert _live(event) or Event.objects.get(pk=event.pk).status \
                == Event.Status.FINISHED, "a held round was released"
            continue
        if not late:  # refused by the formats that take no late entrant
            late = True
            watch.write(lambda: events.add_entrant(event=event, by=organizer,
                                                   player=users[-1].username))
            continue
        match = Match.objects.get(pk=live[0].match_id)
        seat = choose(match.n_seats)
        watch.write(lambda m=match, s=seat: match_services.forfeit_seat(match=m, seat=s))
        done = events.replay(event)
        if done.results and not corrected:  # (until a later pairing was drawn from it)
            pairing, result = list(done.results.items())[-1]
            places = sorted(result["placements"].values(), reverse=True)
            swapped = dict(zip(result["placements"], places, strict=True))
            watch.write(lambda p=pairing, s=swapped: events.correct_result(
                event=event, by=organizer, pairing=p, placements=s))
            corrected = event.records.filter(kind="result_corrected").exists()
        elif len(done.results) >= 2 and not withdrawn:
            withdrawn = True
            still = [k for k in done.order if not done.entrants[k]["withdrawn"]]
            gone = still[choose(len(still))]
            watch.write(lambda k=gone: events.withdraw_entrant(event=event, by=organizer,
                                                               key=k))
            # undone where nothing went by it yet (a held round waits), else refused
            watch.write(lambda k=gone: events.reinstate_entrant(event=event, by=organizer,
                                                                key=k))
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert withdrawn and watch.writes > people
    return event


@pytest.mark.parametrize(("game", "fmt", "options", "people"), FORMATS,
                         ids=[f for _, f, _, _ in FORMATS])
@pytest.mark.django_db(transaction=True)  # (a replay is kept once its records commit)
def test_the_kept_replays_stay_the_stream_replayed_through_a_whole_event(
        organizer: Any, django_user_model: Any, game: str, fmt: str, options: dict[str, Any],
        people: int) -> None:
    """After each write of a whole Event of every format, what the pages read and what
    the next writer starts from are the whole stream replayed, and no writer changed the
    replay it was kept from."""
    rng = random.Random(f"{fmt}-kept")
    event = play_through(organizer, django_user_model, game, fmt, options, people,
                         rng.randrange)
    kinds = set(event.records.values_list("kind", flat=True))
    assert {"result_corrected", "entrant_withdrawn"} <= kinds


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.django_db(transaction=True)  # (a replay is kept once its records commit)
def test_the_kept_replays_stay_the_stream_replayed_whatever_the_field_and_its_results(
        organizer: Any, django_user_model: Any, data: st.DataObject) -> None:
    """The same for fields of other sizes, other seats forfeiting and other entrants
    withdrawing."""
    game, fmt, options, least = data.draw(st.sampled_from(FORMATS), label="format")
    people = least if fmt == "heats" else data.draw(st.integers(least, least + 3),
                                                    label="people")
    play_through(organizer, django_user_model, game, fmt, options, people,
                 lambda n: data.draw(st.integers(0, n - 1)))
