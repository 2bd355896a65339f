"""Hidden information through the whole site, in all five games: two matches whose
streams differ only where a seat cannot see give that seat (and a spectator) the same
bytes, in the API's state and history, on the play page, its polled partial and the
replay.

The twin stream is played beside a seeded random playout: at every step it takes another
event than the real one (another decision of the same seat, another chance draw) whenever
the engine says seat 0 cannot tell them apart (its view after, its history entry and the
narration all the same); the two streams are stored as two matches of the same people and
every answer is compared (the second match takes the first one's id and time). SHOWDOWN_PLAYOUTS sets the
size (default 50: one twin a game; CI's 1000: twenty).
"""

from __future__ import annotations

import os
import random
import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from engine import registry
from engine.bots import RandomBot
from engine.playout import next_event
from engine.protocol import Event, EventKind, IllegalAction, PendingKind
from matches import services
from matches.models import Match, MatchEvent, Seat
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

TWINS = max(1, int(os.environ.get("SHOWDOWN_PLAYOUTS", "50")) // 50)
STEPS = 80  # events a twin
MOMENT = timezone.now()
# Drawn anew for every page: the CSRF token's mask, a move's idempotency key.
NONCES = re.compile(r'name="(?:csrfmiddlewaretoken|key)" value="[^"]*"|"X-CSRFToken": "[^"]*"')
SEATS = {"royal_rumble": 3, "supershow": 2, "superstar_showdown": 2, "super_showdown": 2,
         "ultimate_showdown": 3}


def alike(rules: Any, state: Any, one: Event, twin_state: Any, other: Event) -> Any:
    """The twin state after `other` if seat 0 and a spectator cannot tell it from `one`."""
    try:
        after, twin_after = rules.apply(state, one), rules.apply(twin_state, other)
    except IllegalAction:
        return None
    for viewer in (0, None):
        if (rules.view(after, viewer) != rules.view(twin_after, viewer)
                or rules.redact(state, one, viewer) != rules.redact(twin_state, other, viewer)):
            return None
    return twin_after if rules.narrate(state, one) == rules.narrate(twin_state, other) else None


def candidates(rules: Any, twin_state: Any, event: Event, rng: random.Random,
               diverge: bool) -> list[Event]:
    """Events that could stand in the twin where `event` stands, other ones first if it
    is to `diverge`, a third of the time (what differs is seen soon, a hand drawn from
    another shuffle, cards played face down revealed, and the twin can follow no further:
    the later it comes, the more is compared)."""
    if not diverge or rng.random() < 2 / 3:
        return [event]
    if event.kind is EventKind.CHANCE:
        found = [Event.chance(rules.sample_chance(twin_state, random.Random(rng.random())))
                 for _ in range(4)]
    elif event.kind is EventKind.DECISION and event.seat not in (None, 0):
        legal = rules.legal_actions(twin_state, event.seat)
        found = [Event.decision(event.seat, a) for a in rng.sample(legal, min(4, len(legal)))]
    else:
        found = []
    return [*found, event]


def twin_streams(game: str, seed: int, options: dict[str, Any] | None = None,
                 twin_options: dict[str, Any] | None = None) -> tuple[list[Event], list[Event]]:
    """A playout and its twin, as far as the twin can follow it: of other options, if
    given, and then of the same events; else of other events where it can."""
    rules, n = registry.get_rules(game), SEATS[game]
    rng, bots = random.Random(seed), [RandomBot()] * n
    state, twin = rules.start(options or {}, n), rules.start(twin_options or options or {}, n)
    real: list[Event] = []
    other: list[Event] = []
    for _ in range(STEPS):
        if rules.pending(state).kind is PendingKind.END:
            break
        event = next_event(rules, state, bots, rng)
        assert event is not None
        for candidate in candidates(rules, twin, event, rng, twin_options is None):
            twin_after = alike(rules, state, event, twin, candidate)
            if twin_after is not None:
                break
        else:
            break
        state, twin = rules.apply(state, event), twin_after
        real.append(event)
        other.append(candidate)
    return real, other


def stored(game: str, events: list[Event], people: list[Any], pk: int | None = None,
           options: dict[str, Any] | None = None) -> Match:
    """The stream as a match of `people` (under id `pk`, once the first twin is gone)."""
    rules = registry.get_rules(game)
    match = Match.objects.create(pk=pk, game=game, options=rules.spec.resolve_options(options),
                                 n_seats=len(people), status=Match.Status.ACTIVE,
                                 seq=len(events), rules_version=rules.spec.rules_version)
    Seat.objects.bulk_create(Seat(match=match, index=i, user=p) for i, p in enumerate(people))
    MatchEvent.objects.bulk_create(
        MatchEvent(match=match, seq=i, kind=str(e.kind), seat=e.seat,
                   payload={"action": e.action} if e.kind is EventKind.DECISION
                   else {"outcome": e.outcome})
        for i, e in enumerate(events, 1))
    Match.objects.filter(pk=match.pk).update(created_at=MOMENT, updated_at=MOMENT)
    match.refresh_from_db()
    return match


class Undone(Exception):
    """Rolls the first twin back."""


def read(client: Client, match: Match) -> list[str]:
    """Everything the client is answered about `match`."""
    urls = [f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/state/", f"/api/matches/{match.pk}/events/",
            f"/matches/{match.pk}/", f"/matches/{match.pk}/state/",
            *(f"/matches/{match.pk}/replay/?at={at}" for at in range(0, match.seq + 1, 7))]
    said = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        said.append(NONCES.sub("", response.content.decode()))
    return said


def told_alike(game: str, real: list[Event], twin: list[Event], people: list[Any],
               options: tuple[dict[str, Any] | None, dict[str, Any] | None] = (None, None),
               ) -> None:
    """Seat 0 and a spectator read the same of the two streams stored as matches."""
    clients = {name: Client() for name in ("p0", "watcher")}
    for name, client in clients.items():
        assert client.login(username=name, password=PASSWORD)
    with pytest.raises(Undone), transaction.atomic():  # (its id is given to its twin)
        one = stored(game, real, people, options=options[0])
        told = {name: read(client, one) for name, client in clients.items()}
        raise Undone
    services.clear_state_cache()
    other = stored(game, twin, people, pk=one.pk, options=options[1])
    for name, client in clients.items():
        assert read(client, other) == told[name], name


def people_of(game: str, django_user_model: Any) -> list[Any]:
    django_user_model.objects.create_user(username="watcher", password=PASSWORD)
    return [django_user_model.objects.create_user(username=f"p{i}", password=PASSWORD)
            for i in range(SEATS[game])]


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_seat_is_told_the_same_of_two_matches_it_cannot_tell_apart(
        game: str, django_user_model: Any) -> None:
    people = people_of(game, django_user_model)
    differed = 0
    for seed in range(TWINS * 3):
        real, twin = twin_streams(game, seed)
        if [e.to_json() for e in real] == [e.to_json() for e in twin]:
            continue
        differed += 1
        told_alike(game, real, twin, people)
        if differed == TWINS:
            break
    assert differed > 0


def test_a_rivals_constructed_deck_tells_a_seat_nothing_before_it_is_seen(
        django_user_model: Any) -> None:
    """SH-050: two matches whose seat 1 brought different decks read the same to seat 0
    and a spectator (options, state, history, pages) as long as no card of them is seen."""
    from engine.games.supershow.cards import CATALOG

    ox, mira = CATALOG.competitors["ox_valdane"], CATALOG.competitors["mira_quickstep"]
    decks = ([c.key for c in mira.deck], [c.key for c in ox.deck[:27] + mira.deck[27:]])
    one, other = ({"competitors": ["ox_valdane", "mira_quickstep"], "decks": [None, deck]}
                  for deck in decks)
    real, twin = twin_streams("supershow", 0, one, other)
    assert len(real) > 5
    told_alike("supershow", real, twin, people_of("supershow", django_user_model),
               (one, other))
