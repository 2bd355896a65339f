"""Shared fixtures: an organizer (staff), two players, an outsider, and API clients.

`toy_game` registers the toy game (tests/matches/toygame.py) for one test and takes it
out again afterwards, so the registry other tests see holds only the real games; the
match and API test folders use it for every test.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from engine.registry import get_rules

PASSWORD = "a-long-test-password-9"
ALICE_ADDRESS = "alice@example.org"


def _load_toygame() -> Any:
    """Import tests/matches/toygame.py as `toygame`, whatever pytest's import mode."""
    if "toygame" in sys.modules:
        return sys.modules["toygame"]
    path = Path(__file__).resolve().parent / "matches" / "toygame.py"
    spec = importlib.util.spec_from_file_location("toygame", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["toygame"] = module
    spec.loader.exec_module(module)
    return module


toygame = _load_toygame()


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing() -> Iterator[None]:
    """Real hashing costs a third of a second per user; tests do not need its strength."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


def _done() -> None:
    """An on-commit hook run already (`_states_cached_in_the_test_transaction`)."""


@pytest.fixture(autouse=True)
def _no_swiss_pairing_kept_from_another_test() -> None:
    """Swiss pairings are kept per process by what they pair (`swiss._paired`): two tests'
    Events of the same field would share them, and a test counting the pairings made
    would count none."""
    from league.formats import swiss

    swiss.forget_pairings()


@pytest.fixture(autouse=True)
def _states_cached_in_the_test_transaction(request: pytest.FixtureRequest,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A test inside one transaction (django_db without transaction=True) commits nothing,
    so the replay cache, filled on commit (matches.services._remember), stayed empty there
    and each move replayed its match from the start: a test playing a few hundred moves
    spent most of its time replaying. Before each replay, the states whose writes the
    test's transaction holds (their savepoints released, not rolled back: Django drops a
    rolled-back savepoint's hooks) go into the cache, as their commit would put them.
    Marked `uncached_in_transaction`, a test keeps the cache as its commits leave it
    (tests/web/test_query_counts.py counts the reads of a replay)."""
    if request.node.get_closest_marker("django_db") is None or \
            request.node.get_closest_marker("uncached_in_transaction"):
        return
    request.getfixturevalue("_django_db_helper")
    from django.db import connection

    from matches import services

    if not connection.in_atomic_block:  # a transactional test: commits fill the cache
        return
    held = set(connection.savepoint_ids)  # the test's own
    # (the hooks are told by `_remember`'s name: tests/matches/test_store.py fails if the
    # cache stops filling here)

    def settled() -> None:
        # Each hook run is left in its place as a no-op: the list keeps its length, which
        # django_capture_on_commit_callbacks counts from.
        open_now = set(connection.savepoint_ids) - held
        for i, (sids, hook, robust) in enumerate(connection.run_on_commit):
            if getattr(hook, "__qualname__", "") == "_remember.<locals>.<lambda>" \
                    and not sids & open_now:
                hook()
                connection.run_on_commit[i] = (sids, _done, robust)

    replay, clear = services._replay, services.clear_state_cache

    def replay_settled(*args: Any, **kwargs: Any) -> Any:
        settled()
        return replay(*args, **kwargs)

    def clear_settled() -> None:
        settled()  # what was written before is forgotten too, as after its commit
        clear()

    monkeypatch.setattr(services, "_replay", replay_settled)
    monkeypatch.setattr(services, "clear_state_cache", clear_settled)


def _race(calls: list[Callable[[], Any]]) -> tuple[list[Any], list[str]]:
    import threading

    from django.db import connection

    start = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)
    errors: list[str] = []  # a crash in a thread must fail the test, not vanish

    def run(i: int) -> None:
        try:
            start.wait()
            answers[i] = calls[i]()
        except Exception as exc:
            errors.append(repr(exc))
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    return answers, errors


@pytest.fixture
def race() -> Callable[[list[Callable[[], Any]]], tuple[list[Any], list[str]]]:
    """`race([call, ...])`: the calls in threads let go at one barrier; what each returned
    (None if it raised) and what they raised."""
    return _race


@pytest.fixture
def on_postgres() -> None:
    """Skips the test but on PostgreSQL: threads with a connection each wait there on one
    another's row locks, where SQLite lets one writer in at a time and does not share its
    test database between threads, so a race run on it tells nothing."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("races between connections need PostgreSQL (DATABASE_URL)")


@pytest.fixture
def staff_with(django_user_model: Any) -> Callable[..., tuple[Any, Any]]:
    """A new staff account holding only the named permissions (a superuser if asked),
    and a browser signed in as it: the admin as a desk that may do just that sees it."""
    from django.contrib.auth.models import Permission
    from django.test import Client

    def make(username: str, *codenames: str, superuser: bool = False) -> tuple[Any, Any]:
        user = django_user_model.objects.create_user(username, password=PASSWORD,
                                                     is_staff=True, is_superuser=superuser)
        user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
        client = Client()
        client.force_login(user)
        return user, client

    return make


@pytest.fixture
def seeded_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded shuffles and rolls for matches made through the services (the site draws them
    from the system): a test whose assertions depend on how bot matches go, such as a
    knockout that refuses a draw, then plays the same matches every run."""
    seeds = itertools.count(1)
    monkeypatch.setattr("matches.services._chance_rng", lambda: random.Random(next(seeds)))


@pytest.fixture
def toy_game() -> Iterator[Any]:
    """The toy game module (TOY_KEY, CARDS, TOY_RULES), registered; an empty replay cache."""
    from engine import registry
    from matches import services

    toygame.register()
    services.clear_state_cache()
    yield toygame
    services.clear_state_cache()
    registry._GAMES.pop(toygame.TOY_KEY, None)
    registry._BOTS.pop(toygame.TOY_KEY, None)


@pytest.fixture
def revise_rules(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], int]:
    """`revise_rules(game)`: the game plays a new rules version from now on (this test
    only), as after a release that changed how its streams replay; that version."""
    import dataclasses

    def revise(game: str) -> int:
        rules = get_rules(game)
        spec = dataclasses.replace(rules.spec, rules_version=rules.spec.rules_version + 1)
        monkeypatch.setattr(rules, "spec", spec)
        return spec.rules_version

    return revise


def _make_user(django_user_model: Any, username: str, **extra: Any) -> Any:
    return django_user_model.objects.create_user(username=username, password=PASSWORD, **extra)


@pytest.fixture
def organizer(django_user_model: Any) -> Any:
    return _make_user(django_user_model, "organizer", is_staff=True)


@pytest.fixture
def player(django_user_model: Any) -> Any:
    return _make_user(django_user_model, "alice")


@pytest.fixture
def alice(player: Any) -> Any:
    """The `player` account, alice, with a mail address (ALICE_ADDRESS)."""
    player.email = ALICE_ADDRESS
    player.save(update_fields=["email"])
    return player


@pytest.fixture
def player2(django_user_model: Any) -> Any:
    return _make_user(django_user_model, "bruno")


@pytest.fixture
def outsider(django_user_model: Any) -> Any:
    return _make_user(django_user_model, "olga")


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    """An API client that authenticates as the user with a real token (None: anonymous)."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


@pytest.fixture
def anon_api() -> APIClient:
    return APIClient()


@pytest.fixture
def organizer_api(client_for: Callable[[Any], APIClient], organizer: Any) -> APIClient:
    return client_for(organizer)


@pytest.fixture
def player_api(client_for: Callable[[Any], APIClient], player: Any) -> APIClient:
    return client_for(player)


@pytest.fixture
def player2_api(client_for: Callable[[Any], APIClient], player2: Any) -> APIClient:
    return client_for(player2)


@pytest.fixture
def outsider_api(client_for: Callable[[Any], APIClient], outsider: Any) -> APIClient:
    return client_for(outsider)


def accepted(match: Any) -> Any:
    """`match` once every player its maker invited has joined (the last one starts it)."""
    from matches import services

    for seat in list(match.seats.filter(invited__isnull=False).select_related("invited")):
        services.join_match(match=match, user=seat.invited)
    match.refresh_from_db()
    return match


def played_until(match: Any, done: Callable[[], bool]) -> Any:
    """`match` once `done()` holds: whoever is due plays its first legal action until
    then (the match must not end first)."""
    from matches import services

    rules = get_rules(match.game)
    while not done():
        match.refresh_from_db()
        assert match.status == match.Status.ACTIVE, "the match ended first"
        state = services.load_state(match)
        due = rules.pending(state).seats[0]
        services.submit_action(match=match, seat=due, user=None,
                               action=rules.legal_actions(state, due)[0])
    match.refresh_from_db()
    return match


def stream_is_whole(event: Any) -> list[Any]:
    """The Event's records, checked gap-free and replayable; in order."""
    from league import events

    event.refresh_from_db()
    records = list(event.records.order_by("seq"))
    assert [r.seq for r in records] == list(range(1, event.seq + 1))
    events.replay(event, records)
    return records


def event_match(organizer: Any, player: Any, game: str = "super_showdown",
                finish: bool = True) -> Any:
    """The match an Event (a round robin the `organizer` runs) paired `player` in against
    a bot, finished (`finish`: the bot's seat forfeited)."""
    from league import events
    from league.models import EventMatch
    from matches import services

    event = events.create_event(name="Night", game=game, format="round_robin", by=organizer)
    events.add_entrant(event=event, by=organizer, player=player.get_username())
    events.add_entrant(event=event, by=organizer, bot="random")
    events.start_event(event=event, by=organizer)
    match = EventMatch.objects.get(event=event).match
    if finish:
        services.forfeit_seat(match=match, seat=match.seats.get(bot="random").index)
        match.refresh_from_db()
    return match


def moved(match: Any, seat: int) -> Any:
    """`match` once `seat` has made a move (`played_until`). A forfeit after that is
    rated; one by a seat that never moved is not."""
    from matches import services

    return played_until(match, lambda: services.moves_of(match, seat) > 0)


@pytest.fixture
def played() -> Callable[[Any, int], Any]:
    """`played(match, seat)`: the match once that seat has moved (see `moved`)."""
    return moved


@pytest.fixture
def accept() -> Callable[[Any], Any]:
    """`accept(create_match(...))`: the match with its invitations taken up."""
    return accepted


@pytest.fixture
def toy_match(toy_game: Any, player: Any, player2: Any) -> Any:
    """An active toy match, alice in seat 0 and bruno in seat 1 (invited by alice, and
    joined), dealt and tossed."""
    from matches import services

    return accepted(services.create_match(
        game=toygame.TOY_KEY, options={},
        seats=[{"player": player.username}, {"player": player2.username}], created_by=player,
    ))
