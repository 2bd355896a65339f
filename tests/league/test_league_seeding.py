"""Seeding an Event by rating: the best openskill ordinal in the Event's game first.

A team is seeded by its members' ratings (their mean), where it counted as unrated; an
unrated member, an unrated player and a bot count as a player new to the ratings table.
"""

from __future__ import annotations

from typing import Any

import pytest

from league import events, projections
from league.models import Event, Rating
from league.services import player_for

pytestmark = pytest.mark.django_db

GAME = "super_showdown"


@pytest.fixture
def people(django_user_model: Any) -> dict[str, Any]:
    names = ["alice", "carol", "bruno", "ivo", "jan", "ulla", "dora"]
    return {name: django_user_model.objects.create_user(username=name, password="pw-12345678")
            for name in names}


def rate(user: Any, ordinal: float, game: str = GAME) -> None:
    """`user`'s rating in `game`, as the projection holds it after their matches."""
    Rating.objects.create(game=game, player=player_for(user), mu=25.0 + ordinal, sigma=5.0,
                          ordinal=ordinal, matches=3)


def entered(event: Event, by: Any, **entrant: Any) -> str:
    return events.add_entrant(event=event, by=by, **entrant).key


def test_a_team_is_seeded_by_its_members_mean_rating(organizer: Any,
                                                     people: dict[str, Any]) -> None:
    rate(people["alice"], 10.0)
    rate(people["bruno"], 2.0)
    rate(people["ivo"], -6.0)
    rate(people["dora"], 20.0, game="royal_rumble")  # another game's rating counts not
    events.create_team(name="High", members=["alice", "carol"], by=organizer)
    events.create_team(name="Low", members=["ivo", "jan"], by=organizer)
    event = events.create_event(name="Night", game=GAME, format="round_robin", by=organizer)
    bot = entered(event, organizer, bot="random")
    ulla = entered(event, organizer, player="ulla")
    low = entered(event, organizer, team="Low")  # (-6 + 0) / 2
    bruno = entered(event, organizer, player="bruno")
    high = entered(event, organizer, team="High")  # (10 + 0) / 2
    dora = entered(event, organizer, player="dora")
    seeded = events.seed_event(event=event, by=organizer, method="rating")
    # the teams by their means; the bot, the unrated and dora level at 0, in entry order
    assert seeded == [high, bruno, bot, ulla, dora, low]
    record = event.records.get(kind="seeded").payload
    assert record == {"method": "rating", "order": seeded}
    assert events.replay(event).order == seeded


def test_an_unrated_member_counts_as_a_player_new_to_the_ratings(
        organizer: Any, people: dict[str, Any]) -> None:
    """A team of one rated 6 and one unrated is seeded at 3, between players rated 3.5 and
    2: the unrated member counts as openskill's new player (0), not as left out (6)."""
    assert abs(projections.NEW_PLAYER_ORDINAL) < 1e-9
    rate(people["alice"], 6.0)
    rate(people["bruno"], 2.0)
    rate(people["ivo"], 3.5)
    events.create_team(name="Half rated", members=["alice", "carol"], by=organizer)
    event = events.create_event(name="Night", game=GAME, format="round_robin", by=organizer)
    ulla = entered(event, organizer, player="ulla")
    bruno = entered(event, organizer, player="bruno")
    team = entered(event, organizer, team="Half rated")
    ivo = entered(event, organizer, player="ivo")
    seeded = events.seed_event(event=event, by=organizer, method="rating")
    assert seeded == [ivo, team, bruno, ulla]
