"""The Ultimate Showdown play page: bracket, hand, secret bets, votes, the score board.

Bot seats reply in an on_commit hook, so every test here uses a transactional database.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.games.ultimate_showdown import RULES
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "ultimate_showdown"
MOST_DECISIONS = 200


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    services.clear_state_cache()
    yield
    services.clear_state_cache()


def start(player: Any, bots: int = 3) -> Match:
    seats = [{"player": player.username}] + [
        {"bot": "heuristic" if i % 2 else "random"} for i in range(bots)]
    return services.create_match(game=GAME, options={}, seats=seats, created_by=player)


def secrets_of_others(match: Match) -> set[str]:
    """Names of Contenders in other seats' hands, and face-down cards not yet public."""
    state = services.load_state(Match.objects.get(pk=match.pk))
    public = {*state.slots, *state.kept, *state.discard}
    public |= {c for r in state.history for c in r.slots}
    secret = {c for seat in range(1, state.n) for c in state.hands[seat]}
    secret |= {c for seat in range(1, state.n) if state.boxes and state.boxes[seat]
               for c in (*state.boxes[seat][0], *state.boxes[seat][1])}
    secret |= {c for seat in range(1, state.n) for c in state.hidden_discard[seat]}
    mine = set(state.hands[0])
    return {RULES.cards.contenders[c].name for c in secret - public - mine}


def assert_hidden(page: str, names: set[str]) -> None:
    for name in names:
        assert html.escape(name) not in page and name not in page, name


def canonical(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def test_the_page_shows_my_hand_the_score_board_and_my_choices(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    view = services.match_state(match=match, user=player)["view"]
    legal = services.match_state(match=match, user=player)["legal_actions"]
    assert "Your hand" in page and 'aria-label="Score board"' in page
    for card in view["hand"]:
        assert html.escape(card["name"]) in page
    offered = [json.loads(a) for a, _ in pages.action_forms(page)]
    assert {canonical(a) for a in offered} == {canonical(a) for a in legal}
    assert legal and legal[0]["type"] == "choose_sides"  # seat 0 leads round one
    assert_hidden(page, secrets_of_others(match))


def test_a_whole_game_through_the_act_view_with_no_secret_of_another_seat_shown(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player)
    partial = pages.state(alice_client, match).content.decode()
    decisions, seen_bracket, seen_bets, seen_secret_vote = 0, False, False, False
    while "result-banner" not in partial:
        legal = services.match_state(match=match, user=player)["legal_actions"]
        forms = pages.action_forms(partial)
        assert {canonical(json.loads(a)) for a, _ in forms} == {canonical(a) for a in legal}
        assert_hidden(partial, secrets_of_others(match))
        seen_bracket |= 'aria-label="Bracket"' in partial
        current = re.search(r'<div class="us-match current">(.*?)</div>\s*</div>', partial, re.S)
        if current:  # the others have voted already, in secret: no ballot on the page
            seen_secret_vote = True
            assert "us-ballots" not in current[1] and "Winner" not in current[1]
        seen_bets |= "Your secret bets" in partial
        assert forms, "seat 0 has nothing to press while the game goes on"
        response = pages.act(alice_client, match, *forms[-1])
        partial = response.content.decode()
        assert response.status_code == 200 and "error-banner" not in partial
        decisions += 1
        assert decisions < MOST_DECISIONS
    match.refresh_from_db()
    assert match.status == "finished" and match.result is not None
    figures = match.result["figures"]["0"]
    assert {"score", "round_1", "round_5"} <= set(figures)
    assert seen_bracket and seen_bets and seen_secret_vote
    assert pages.action_forms(partial) == []
    assert "Rounds played" in partial


def test_a_spectator_sees_the_bracket_but_no_hand(
        alice_client: Client, outsider_client: Client, player: Any, pages: Any) -> None:
    match = start(player, bots=2)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    for _ in range(6):
        forms = pages.action_forms(page)
        if not forms:
            break
        page = pages.act(alice_client, match, *forms[0]).content.decode()
    theirs = outsider_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert "Your hand" not in theirs and pages.action_forms(theirs) == []
    state = services.load_state(Match.objects.get(pk=match.pk))
    for card in state.hands[0]:
        assert html.escape(RULES.cards.contenders[card].name) not in theirs
