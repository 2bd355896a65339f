"""Super Showdown's play page: a power card's power is written out beside its chip (revealed,
face down to its owner, in a pile), as the cards in a hand have theirs; it was in the
chip's title alone, which a phone (no hover) never shows. So is what the tally counts."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.registry import get_rules
from matches import services


@pytest.mark.django_db
def test_a_revealed_power_card_shows_its_power_text_on_the_page(
        alice_client: Client, player: Any, player2: Any, seeded_chance: None) -> None:
    rules, rng, people = get_rules("super_showdown"), random.Random(5), [player, player2]
    for _ in range(20):  # matches until a power card is revealed (a few in a deck are)
        match = services.create_match(game="super_showdown", options={}, created_by=player,
                                      seats=[{"player": player.username},
                                             {"player": player2.username}])
        services.join_match(match=match, user=player2)
        while True:
            match.refresh_from_db()
            state = services.load_state(match)
            view = services.match_state(match=match, user=player)["view"]
            revealed = [seat["played"]["card"] for seat in view["seats"]
                        if seat["played"]["status"] == "revealed"
                        and seat["played"]["card"]["power"] != "none"]
            pending = rules.pending(state)
            if revealed or not pending.seats:
                break
            seat = pending.seats[0]
            services.submit_action(match=match, seat=seat, user=people[seat],
                                   action=rng.choice(rules.legal_actions(state, seat)))
        if revealed:
            break
    assert revealed, "no power card was revealed in 20 matches"
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    played = page[page.index('class="ss-players"'):page.index('class="ss-board-wrap"')]
    text = html.escape(revealed[0]["text"])
    # Outside the title attribute: a text node of its own.
    assert f">{text}<" in played


def _power_cards(view: dict[str, Any]) -> set[str]:
    """The ids of the power cards (Ray-Gun, Decoy) a view shows in its hand."""
    return {card["id"] for card in view.get("hand") or () if card["power"] != "none"}


def _played_until(people: list[Any], done: Callable[[Any], bool]) -> Any:
    """Matches played, each seat playing a power card when it may, until done(match)."""
    rules, rng = get_rules("super_showdown"), random.Random(7)
    for _ in range(30):
        match = services.create_match(game="super_showdown", options={}, created_by=people[0],
                                      seats=[{"player": p.username} for p in people])
        services.join_match(match=match, user=people[1])
        while True:
            match.refresh_from_db()
            if done(match):
                return match
            state = services.load_state(match)
            pending = rules.pending(state)
            if not pending.seats:
                break
            seat = pending.seats[0]
            legal = rules.legal_actions(state, seat)
            powers = _power_cards(services.match_state(match=match, user=people[seat])["view"])
            wanted = [a for a in legal if a.get("card") in powers]
            services.submit_action(match=match, seat=seat, user=people[seat],
                                   action=rng.choice(wanted or legal))
    raise AssertionError("not reached in 30 matches")


def _face_down_power(match: Any, owner: Any) -> dict[str, Any] | None:
    """The power card the owner has played face down, unrevealed, if any."""
    for seat in services.match_state(match=match, user=owner)["view"]["seats"]:
        card = seat["played"]["card"]
        if seat["played"]["status"] == "face_down" and card and card["power"] != "none":
            return dict(card)
    return None


@pytest.mark.django_db
def test_a_face_down_power_card_shows_its_power_text_to_its_owner_alone(
        alice_client: Client, bruno_client: Client, player: Any, player2: Any,
        seeded_chance: None) -> None:
    match = _played_until([player, player2],
                          lambda m: _face_down_power(m, player) is not None)
    card = _face_down_power(match, player)
    assert card is not None
    text = html.escape(card["text"])
    own = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    played = own[own.index('class="ss-players"'):own.index('class="ss-board-wrap"')]
    assert f">{text}<" in played
    rival = bruno_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert text not in rival


def _pile_power(match: Any, viewer: Any) -> dict[str, Any] | None:
    """A power card in the Victory or the Defeat pile, if any."""
    view = services.match_state(match=match, user=viewer)["view"]
    cards = [c for c in view["victory_pile"] + view["defeat_pile"] if c["power"] != "none"]
    return dict(cards[0]) if cards else None


@pytest.mark.django_db
def test_a_power_card_in_a_pile_shows_its_power_text_on_the_page(
        alice_client: Client, player: Any, player2: Any, seeded_chance: None) -> None:
    match = _played_until([player, player2], lambda m: _pile_power(m, player) is not None)
    card = _pile_power(match, player)
    assert card is not None
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    piles = page[page.index('class="ss-piles"'):]
    assert f'>{html.escape(card["text"])}<' in piles


@pytest.mark.django_db
def test_the_tally_says_what_it_counts_on_the_page_not_in_a_hover_title(
        alice_client: Client, player: Any, player2: Any) -> None:
    """"★ 0/5 victorious" said whose cards in which pile only in its title, which a phone
    (no hover) never shows: the words are on the page."""
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username},
                                         {"player": player2.username}])
    services.join_match(match=match, user=player2)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    tally = page[page.index('class="ss-tally"'):page.index('class="ss-played"')]
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", tally)).split())
    assert "0/5 nemesis cards defeated" in words
    assert re.search(r"0/5 (\w+ cards|cards of their colour) victorious", words), words
    assert "title=" not in tally
