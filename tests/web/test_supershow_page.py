"""The Supershow play page: every seat's Competitor, the piles in play per opponent, the
dice, the Crowd Meter, the hand and the choices; a whole match through the act view.

Bot seats reply in an on_commit hook, so every test here uses a transactional database.
"""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from engine.bots import RandomBot
from engine.games.supershow import RULES
from engine.playout import next_event
from engine.protocol import Event, PendingKind
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "supershow"
MOST_DECISIONS = 3_000
_BUTTON = re.compile(r'<button type="submit" id="act-\w+" class="action sx-btn[^"]*"[^>]*>'
                     r'(?P<label>[^<]*)</button>')
_CARD_ID = re.compile(r"\b[A-F]\d\d\b")


def start(player: Any, bots: int = 1, options: dict[str, Any] | None = None) -> Match:
    seats = [{"player": player.username}] + [{"bot": "random"} for _ in range(bots)]
    return services.create_match(game=GAME, options=options or {}, seats=seats,
                                 created_by=player)


def hidden_names(match: Match, user: Any, secret_seats: list[int], *,
                 required: bool = True) -> set[str]:
    """Names of the cards in those seats' hands and in every deck that the rules keep from
    the user: none of them lies in an open pile (in play, a discard pile, the other seats'
    hands, under a deck in the user's sight, the user's own deck search) or is named in the
    narrated log. Taken from the true state, not from what the page is made of, and never
    empty unless not `required` (late in a match every hidden name may also lie in an
    open pile)."""
    state = services.load_state(Match.objects.get(pk=match.pk))
    shown = services.match_state(match=match, user=user)
    viewer = shown["seat"]
    searched = {card["name"] for card in shown["view"]["search"] or ()} if viewer is not None \
        else set()
    told = " ".join(line for event in services.match_events(match=match, user=user)
                    for line in event["narration"])
    secret: set[str] = set()
    public: set[str] = set()
    for seat in state.seats:
        p = state.players[seat]
        seen = [c for c, by_all in p.under() if by_all or seat == viewer]
        hidden = [c for c in p.deck if c not in seen]
        (hidden if seat in secret_seats else seen).extend(p.hand)
        secret |= {state.card(c).name for c in hidden}
        public |= {state.card(c).name for c in seen + p.discard + p.all_in_play()}
    names = {name for name in secret - public - searched if name not in told}
    assert names or not required, "the check below checks something"
    return names


def assert_hidden(page: str, names: set[str]) -> None:
    for name in names:
        assert html.escape(name) not in page and name not in page, name


def assert_actions(page: str, match: Match, user: Any, pages: Any) -> None:
    """Every legal action is a form posting it verbatim, in order, with a readable label."""
    legal = services.match_state(match=match, user=user)["legal_actions"]
    forms = pages.action_forms(page)
    assert [json.loads(a) for a, _ in forms] == legal
    labels = [html.unescape(m["label"]).strip() for m in _BUTTON.finditer(page)]
    assert len(labels) == len(legal)
    for label in labels:
        assert label and not _CARD_ID.search(label), label


def test_the_page_shows_the_competitors_my_hand_and_my_choices(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player)
    state = services.match_state(match=match, user=player)
    view = state["view"]
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()

    assert 'aria-label="The ring"' in page and 'aria-label="Crowd Meter"' in page
    assert page.count('class="sx-seat') == 2
    for p in view["players"]:
        assert html.escape(p["competitor"]["name"]) in page
        assert html.escape(p["competitor"]["gimmick"]) in page
    assert "Your hand" in page
    for c in view["players"][0]["hand"]:
        assert html.escape(c["name"]) in page
    assert state["legal_actions"], "alice is asked something once the bot has moved"
    assert_actions(page, match, player, pages)
    assert html.escape(view["decision"]["prompt"]) in page
    if view["last_turn_roll"]:
        die = view["last_turn_roll"][0]
        assert f"{die['skill'].upper()} {die['value']}" in page


def test_no_other_seats_hand_is_on_the_page(
        alice_client: Client, outsider_client: Client, player: Any, outsider: Any,
        pages: Any) -> None:
    match = start(player, bots=3, options={"match_type": "fatal_four_way_elimination"})
    for _ in range(3):
        partial = pages.state(alice_client, match).content.decode()
        forms = pages.action_forms(partial)
        if not forms:
            break
        pages.act(alice_client, match, *forms[0])
    match.refresh_from_db()
    mine = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    theirs = outsider_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert_hidden(mine, hidden_names(match, player, [1, 2, 3]))
    assert_hidden(theirs, hidden_names(match, outsider, [0, 1, 2, 3]))
    assert "Your hand" not in theirs and pages.action_forms(theirs) == []
    assert 'aria-label="The ring"' in theirs


def test_a_whole_one_on_one_match_through_the_act_view(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player, options={"match_type": "one_on_one", "turn_limit": 60})
    partial = pages.state(alice_client, match).content.decode()
    decisions, saw_dice, checked = 0, False, 0
    while "result-banner" not in partial:
        assert_actions(partial, match, player, pages)
        saw_dice |= "Last turn roll:" in partial
        if decisions % 10 == 0:
            names = hidden_names(match, player, [1], required=decisions == 0)
            assert_hidden(partial, names)
            checked += bool(names)
        forms = pages.action_forms(partial)
        response = pages.act(alice_client, match, *forms[0])
        partial = response.content.decode()
        assert response.status_code == 200 and "error-banner" not in partial
        decisions += 1
        assert decisions < MOST_DECISIONS
    match.refresh_from_db()
    assert match.status == "finished" and match.result is not None
    assert "every 2s" not in partial and pages.action_forms(partial) == []
    assert saw_dice and checked, "the hidden cards were checked along the way"
    # Over: the seat that had the last turn is not said to have the turn still.
    assert "has the turn" not in partial and " · turn: " not in partial


def test_a_fatal_four_way_page_with_three_bots(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player, bots=3, options={"match_type": "fatal_four_way_first_fall"})
    view = services.match_state(match=match, user=player)["view"]
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()

    assert page.count('class="sx-seat') == 4
    for p in view["players"]:
        assert html.escape(p["competitor"]["name"]) in page
        assert (p["hand"] is None) == (p["seat"] != 0)
    assert page.count("In play vs ") == 4 * 3  # every seat has a pile per opponent
    assert "Your hand" in page and "(you)" in page
    assert_actions(page, match, player, pages)


def test_the_replay_renders_the_ring(alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player)
    for _ in range(4):
        partial = pages.state(alice_client, match).content.decode()
        forms = pages.action_forms(partial)
        if not forms:
            break
        pages.act(alice_client, match, *forms[0])
    match.refresh_from_db()
    url = reverse("match_replay", args=[match.id])
    for at in sorted({0, 1, match.seq // 2, match.seq}):
        page = alice_client.get(url, {"at": at})
        assert page.status_code == 200
        assert b'aria-label="The ring"' in page.content
        assert pages.action_forms(page.content) == []


@pytest.mark.parametrize(("match_type", "seats"), [
    ("triple_threat_elimination", 3), ("handicap", 3), ("tag_team", 3),
    ("tornado_tag_team", 4), ("birdcage", 4),
])
def test_every_match_type_renders_with_labelled_choices(
        alice_client: Client, player: Any, pages: Any, match_type: str, seats: int) -> None:
    match = start(player, bots=seats - 1, options={"match_type": match_type})
    view = services.match_state(match=match, user=player)["view"]
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert page.count('class="sx-seat') == seats
    assert_actions(page, match, player, pages)
    if view["teams"]:
        assert "Team 1" in page and "Team 2" in page
    if match_type == "birdcage":
        assert "The draft" in page and "Keep " in page  # alice drafts a Competitor first


@pytest.mark.django_db(transaction=False)
def test_the_birdcage_page_says_who_waits_and_who_enters_at_the_next_roll() -> None:
    """SH-119/120: after the sixth turn roll the meter has called the next entrant in; the
    others still wait."""
    state, rng = RULES.start({"match_type": "birdcage"}, 5), random.Random(3)
    while state.called is None:
        event = next_event(RULES, state, [RandomBot()] * 5, rng)
        assert event is not None
        state = RULES.apply(state, event)
    page = render_to_string("games/supershow/_view.html", {"view": RULES.view(state, None)})
    heads = [seat.split("</div>")[0] for seat in page.split('class="sx-seat')[1:]]
    called, *later = state.waiting
    assert later and heads[called].endswith("· enters at the next turn roll")
    assert all(heads[seat].endswith("· waiting to enter") for seat in later)
    assert all(" enter" not in heads[seat] for seat in state.live)


@pytest.mark.django_db(transaction=False)
def test_the_page_lists_what_lies_under_each_deck_and_hides_face_down_cards() -> None:
    """SH-023/063: a buried card is shown under its deck to everybody; a Protect's hand
    only to its owner."""
    state = RULES.start({}, 2)
    rng = random.Random(0)
    while RULES.pending(state).kind is PendingKind.CHANCE:
        state = RULES.apply(state, Event.chance(RULES.sample_chance(state, rng)))
    mine = state.players[0]
    buried, hidden = mine.deck[0], mine.deck[1]
    mine.deck.remove(buried)
    mine.deck.remove(hidden)
    mine.put_under([buried], seen=True)
    mine.put_under([hidden], seen=False)
    own = render_to_string("games/supershow/_view.html", {"view": RULES.view(state, 0)})
    other = render_to_string("games/supershow/_view.html", {"view": RULES.view(state, 1)})
    for page in (own, other):
        assert "Under the deck (2)" in page
        assert html.escape(state.card(buried).name) in page
    assert html.escape(state.card(hidden).name) in own
    assert "a face-down card" in other and "a face-down card" not in own


def test_the_seat_with_the_turn_says_so_in_words(outsider_client: Client) -> None:
    """The seat with the turn is marked ▶, which a screen reader reads as a triangle (or
    not at all): the words 'has the turn' stand beside it for screen readers."""
    match = services.create_match(game="supershow", options={}, created_by=None,
                                  seats=[{"bot": "random"}] * 2)
    match.refresh_from_db()
    url = reverse("match_replay", args=[match.id])
    for at in range(1, match.seq + 1):
        page = outsider_client.get(url, {"at": at}).content.decode()
        if "▶" in page:
            break
    else:
        pytest.fail("no seat had the turn")
    assert page.count("▶") == 1
    assert '<span aria-hidden="true">▶</span><span class="visually-hidden">has the turn</span>' \
        in page


def test_a_lit_crowd_meter_card_shows_what_it_does_in_words() -> None:
    """A lit Crowd Meter card's Finish bonus and Breakout penalty were in a hover title,
    which neither a screen reader, a keyboard nor a phone reaches."""
    state, rng = RULES.start({}, 2), random.Random(1)
    while not state.crowd:
        event = next_event(RULES, state, [RandomBot()] * 2, rng)
        assert event is not None, "no Breakout lit the Crowd Meter"
        state = RULES.apply(state, event)
    view = RULES.view(state, None)
    page = render_to_string("games/supershow/_view.html", {"view": view})
    for card in view["crowd_meter"]["in_play"]:
        does = ", ".join([f"Finish +{card['finish_bonus']}"] * bool(card["finish_bonus"])
                         + [f"Breakout \u2212{card['breakout_penalty']}"]
                         * bool(card["breakout_penalty"]))
        assert does, card
        assert f'<span class="lit">{html.escape(card["name"])} ({does})</span>' in page
