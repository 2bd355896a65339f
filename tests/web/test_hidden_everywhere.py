"""Hidden information, end to end, in all five games: alice plays seat 0 against bots
through the match service; then every page and API answer she (or a spectator) can
ask for is searched for what only another seat, or nobody yet, knows.

What a viewer "may know" is read from the engine itself, by replaying the stored
stream: every value in that viewer's view after each event, in each event as redacted
for them, and in each narration. What is "hidden" from them is every other value in
the stored events and in the other seats' views. Any hidden value in an answer is a
leak beyond the engine's redaction (the engine's own views are tested by each game's
determinize tests).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from engine import registry
from engine.protocol import Event
from matches import services
from matches.models import Match
from tests.conftest import accepted, event_match
from tests.json_values import strings

# Seeded shuffles and bot choices: the same matches, so the same answers, every run.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("seeded_chance")]

SEATS = {"royal_rumble": 3, "supershow": 2, "superstar_showdown": 2, "super_showdown": 2,
         "ultimate_showdown": 3}
ALICE_MOVES = 6
REPLAY_STEPS = 15  # replay steps read, spread over the stream (and its last)


def decks() -> dict[str, Any]:
    """The Supershow with a constructed (secret) deck for each seat (SH-050)."""
    from engine.games.supershow.cards import CATALOG

    ox, mira = CATALOG.competitors["ox_valdane"], CATALOG.competitors["mira_quickstep"]
    return {"competitors": ["ox_valdane", "mira_quickstep"],
            "decks": [[c.key for c in mira.deck[:27]] + [c.key for c in ox.deck[27:]],
                      [c.key for c in ox.deck[:27]] + [c.key for c in mira.deck[27:]]]}


# Each game as it comes, and the two with more to hide: a Superstar Showdown Event (teams,
# drafts, Match cards) and a Supershow of constructed decks an organizer dealt.
CASES = {**{game: (game, {}) for game in sorted(SEATS)},
         "superstar_showdown event": ("superstar_showdown", {"event": {
             "matches": [{"match": "tag_team", "stipulation": "standard_1"},
                         {"match": "head_to_head", "stipulation": "hardcore"}],
             "superstars_per_team": 2}}),
         "supershow decks": ("supershow", decks())}


def hidden_from(match: Match, viewer: int | None, maker: bool = False) -> set[str]:
    """What is hidden from `viewer`, replayed from the stream (`maker`: they made the
    match, and so wrote its options, constructed decks and all)."""
    rules = registry.get_rules(match.game)
    rows = list(match.events.order_by("seq"))
    state = rules.start(match.options, match.n_seats)
    known: set[str] = set(strings(rules.view(state, viewer)))
    # A seat knows its own entry of a secret option (its constructed deck).
    known |= {value for name in services.secret_options(match.game)
              if viewer is not None and match.options.get(name)
              for value in strings(match.options[name][viewer])}
    known |= set(strings(match.options)) if maker else set()
    seen: set[str] = set()
    for row in rows:
        event = Event.from_json(row.to_event_json())
        known |= set(strings(rules.redact(state, event, viewer)))
        known |= set(strings(rules.narrate(state, event)))
        seen |= set(strings(event.to_json()))
        state = rules.apply(state, event)
        known |= set(strings(rules.view(state, viewer)))
        for other in range(match.n_seats):
            if other != viewer:
                seen |= set(strings(rules.view(state, other)))
    # Short values (a seat's colour letter, "A"/"B") match words anywhere, and a value
    # that a known text quotes (a card's name in another card's rules text) or a seat's
    # name tells nothing: only the rest is searched.
    people = {name for seat in match.seats.select_related("user")
              for name in (seat.bot, seat.user and seat.user.get_username()) if name}
    text = "\n".join(known)
    return {s for s in seen - known - people
                   if len(s) >= 3 and not s.isdigit() and s not in text}


def leaks(text: str, hidden: set[str]) -> list[str]:
    return sorted(s for s in hidden
                  if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text)
                  or re.search(rf"(?<![\w-]){re.escape(json.dumps(s)[1:-1])}(?![\w-])", text))


def played(game: str, options: dict[str, Any], alice: Any, organizer: Any) -> Match:
    """A live match of `game` the organizer made: alice in seat 0 (her last legal action
    each time), bots in the other seats, until she has moved ALICE_MOVES times."""
    seats = [{"player": alice.username}] + [{"bot": "random"}] * (SEATS[game] - 1)
    match = services.create_match(game=game, options=options, seats=seats,
                                  created_by=organizer)
    rules = registry.get_rules(game)
    for _ in range(ALICE_MOVES):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        state = services.load_state(match)
        pending = rules.pending(state)
        if 0 not in pending.seats:
            break
        services.submit_action(match=match, seat=0, user=alice,
                               action=rules.legal_actions(state, 0)[-1])
    match.refresh_from_db()
    return match


def refused(match: Match, hidden: set[str]) -> list[dict[str, Any]]:
    """Seat 0's legal actions with a card or name in them swapped for hidden values: what
    a player probing the hidden cards would send."""
    rules = registry.get_rules(match.game)
    legal = rules.legal_actions(services.load_state(match), 0)
    probes = sorted(hidden)[:10]
    tried = []
    for action in legal[:3]:
        for key, value in action.items():
            if key != "type" and isinstance(value, str):
                tried += [{**action, key: probe} for probe in probes]
            elif isinstance(value, list) and value and isinstance(value[0], str):
                tried += [{**action, key: [probe, *value[1:]]} for probe in probes]
    return tried or [{"type": probe} for probe in probes]


def answers(match: Match, web: Client, api: APIClient,
            probes: list[Any]) -> dict[str, tuple[str, set[str]]]:
    """Every answer about the match a signed-in user can read, and the refusals of
    `probes` sent as seat 0's actions; each with the values it was sent (a refusal may
    quote those back)."""
    m = match.pk
    got = {
        "api detail": api.get(f"/api/matches/{m}/"),
        "api state": api.get(f"/api/matches/{m}/state/"),
        "api events": api.get(f"/api/matches/{m}/events/"),
        "api list": api.get("/api/matches/"),
        "page": web.get(f"/matches/{m}/"),
        "partial": web.get(f"/matches/{m}/state/", HTTP_HX_REQUEST="true"),
        "lobby": web.get("/"),
        "lobby live": web.get("/lobby/live/", HTTP_HX_REQUEST="true"),
    }
    for i, action in enumerate(probes):
        got[f"api refusal {i}"] = api.post(f"/api/matches/{m}/actions/",
                                           {"seat": 0, "action": action}, format="json")
        got[f"refusal {i}"] = web.post(f"/matches/{m}/act/",
                                       {"seat": 0, "action": json.dumps(action)},
                                       HTTP_HX_REQUEST="true")
    for at in sorted({*range(0, match.seq, max(1, match.seq // REPLAY_STEPS)), match.seq}):
        got[f"api replay {at}"] = api.get(f"/api/matches/{m}/replay/", {"at": at})
        got[f"replay {at}"] = web.get(f"/matches/{m}/replay/", {"at": at})
    # An API answer's values are searched, not its field names ("cheap_trick" is both a
    # field and a kind of card).
    sent = {f"{where}refusal {i}": set(strings(action)) for i, action in enumerate(probes)
            for where in ("", "api ")}
    return {name: ("\n".join(strings(response.json())) if name.startswith("api")
                   else response.content.decode(), sent.get(name, set()))
            for name, response in got.items()}


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_answer_tells_a_seat_or_a_spectator_what_is_hidden_from_them(
        case: str, player: Any, outsider: Any, organizer: Any) -> None:
    game, options = CASES[case]
    match = played(game, options, player, organizer)
    assert match.status == Match.Status.ACTIVE
    seq = match.seq
    for user, viewer in ((player, 0), (outsider, None), (organizer, None)):
        web, api = Client(), APIClient()
        web.force_login(user)
        api.force_authenticate(user)
        hidden = hidden_from(match, viewer, maker=user == organizer)
        assert hidden, "nothing is hidden: the search cannot fail"
        probes = refused(match, hidden) if viewer == 0 else []
        found = {name: leaks(text, hidden - echo)
                 for name, (text, echo) in answers(match, web, api, probes).items()}
        assert Match.objects.get(pk=match.pk).seq == seq  # (every probe was refused)
        assert {name: f for name, f in found.items() if f} == {}, (user.username, viewer, sorted(hidden)[:20])


def test_an_event_match_keeps_a_secret_deck_hidden_once_over_until_its_event_is(
        player: Any, player2: Any, outsider: Any, organizer: Any) -> None:
    """An Event deals its decks to every match it makes: alice's constructed deck stays
    hidden in her finished match (its stream, replay, options, pages) while the Event
    goes on, from a rival entrant and from an outsider; then it is all shown."""
    from league import events
    from league.models import Event as LeagueEvent
    from league.models import EventMatch

    event = events.create_event(name="Decks night", game="supershow", format="round_robin",
                                by=organizer)
    events.add_entrant(event=event, by=organizer, bot="random")  # (its bye first)
    alice = events.add_entrant(event=event, by=organizer, player=player.username)
    events.add_entrant(event=event, by=organizer, player=player2.username)
    deck = decks()["decks"][1]  # Mira Quickstep's Finishes, Ox Valdane's other cards
    events.pick(event=event, by=player, key=alice.key,
                picks={"competitors": "mira_quickstep", "decks": deck})
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event)  # alice v bruno: the bot's bye
    match = Match.objects.get(pk=link.match_id)
    mine = link.seats_of(alice.key)[0]
    rules = registry.get_rules("supershow")
    for _ in range(ALICE_MOVES):  # whoever is due plays; then alice's rival forfeits
        match.refresh_from_db()
        state = services.load_state(match)
        pending = rules.pending(state)
        if match.status != Match.Status.ACTIVE or not pending.seats:
            break
        due = pending.seats[0]
        services.submit_action(match=match, seat=due, user=None,
                               action=rules.legal_actions(state, due)[-1])
    services.forfeit_seat(match=match, seat=1 - mine)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert LeagueEvent.objects.get(pk=event.pk).status != LeagueEvent.Status.FINISHED
    hidden = {viewer: hidden_from(match, viewer) for viewer in (None, 1 - mine)}
    assert set(deck) & hidden[1 - mine], "nothing of the deck is hidden: the search cannot fail"

    def found(user: Any, viewer: int | None) -> dict[str, list[str]]:
        web, api = Client(), APIClient()
        web.force_login(user)
        api.force_authenticate(user)
        return {name: f for name, (text, _) in answers(match, web, api, []).items()
                if (f := leaks(text, hidden[viewer]))}

    assert found(player2, 1 - mine) == {}  # her rival, who may meet the deck again
    assert found(outsider, None) == {}
    LeagueEvent.objects.filter(pk=event.pk).update(status=LeagueEvent.Status.FINISHED)
    services.clear_state_cache()
    assert found(outsider, None)  # the Event over, nothing is hidden any more


@pytest.mark.parametrize("game", ["super_showdown", "supershow", "superstar_showdown"])
def test_an_events_pages_tell_its_organizer_nothing_hidden_of_a_live_match(
        game: str, player: Any, organizer: Any) -> None:
    """The organizer who runs the Event holds no seat in its matches: its public page,
    dashboard, live rows, details, standings and API answers show them what a spectator
    sees of a live match, no more; and so do the match's own answers."""

    match = event_match(organizer, player, game=game, finish=False)
    rules, mine = registry.get_rules(game), match.seats.get(user=player).index
    for _ in range(ALICE_MOVES):
        match.refresh_from_db()
        state = services.load_state(match)
        if match.status != Match.Status.ACTIVE or mine not in rules.pending(state).seats:
            break
        services.submit_action(match=match, seat=mine, user=player,
                               action=rules.legal_actions(state, mine)[-1])
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    event = match.event_match.event_id
    hidden = hidden_from(match, None)
    web, api = Client(), APIClient()
    web.force_login(organizer)
    api.force_authenticate(organizer)
    pages = {path: web.get(path, HTTP_HX_REQUEST="true" if "live" in path else None)
             for path in (f"/league/events/{event}/", f"/league/dashboard/events/{event}/",
                          f"/league/dashboard/events/{event}/live/",
                          f"/league/dashboard/events/{event}/standings.csv")}
    pages |= {path: api.get(path) for path in (
        f"/api/events/{event}/", f"/api/events/{event}/records/",
        f"/api/events/{event}/standings/")}
    assert {path: r.status_code for path, r in pages.items() if r.status_code != 200} == {}
    found = {path: f for path, response in pages.items()
             if (f := leaks(response.content.decode(), hidden))}
    found |= {name: f for name, (text, _) in answers(match, web, api, []).items()
              if (f := leaks(text, hidden))}
    assert found == {}


@pytest.mark.parametrize("game", ["royal_rumble", "supershow"])
def test_a_player_who_resigned_and_the_rest_learn_nothing_hidden_as_play_goes_on(
        game: str, player: Any, player2: Any, outsider: Any) -> None:
    """Where the game eliminates the seat that resigns, the others play on: the cards it
    held leave face down, and neither it (now out, still seated) nor its rivals nor an
    outsider read anything hidden from them in any answer as the match goes on."""
    options = {"match_type": "triple_threat_elimination"} if game == "supershow" else {}
    seats = [{"player": player.username}, {"player": player2.username}, {"bot": "random"}]
    match = services.create_match(game=game, options=options, seats=seats,
                                  created_by=player)
    match = accepted(match)
    rules = registry.get_rules(game)

    def play(moves: int) -> None:  # whoever is due plays its last legal action
        for _ in range(moves):
            match.refresh_from_db()
            state = services.load_state(match)
            pending = rules.pending(state)
            if match.status != Match.Status.ACTIVE or not pending.seats:
                return
            due = pending.seats[0]
            services.submit_action(match=match, seat=due, user=None,
                                   action=rules.legal_actions(state, due)[-1])

    play(3 * ALICE_MOVES)
    web = Client()
    web.force_login(player)
    web.post(f"/matches/{match.pk}/resign/", {"confirmed": "yes", "seat": 0})
    assert services.seats_out(match, [0]) == {0}
    play(2 * ALICE_MOVES)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    for user, viewer in ((player, 0), (player2, 1), (outsider, None)):
        web, api = Client(), APIClient()
        web.force_login(user)
        api.force_authenticate(user)
        hidden = hidden_from(match, viewer)
        assert hidden, "nothing is hidden: the search cannot fail"
        found = {name: f for name, (text, _) in answers(match, web, api, []).items()
                 if (f := leaks(text, hidden))}
        assert found == {}, (user.username, viewer)
