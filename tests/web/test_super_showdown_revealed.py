"""Super Showdown's play page: a revealed card's power is written out beside it, as the
cards in a hand have theirs; it was in the chip's title alone, which a phone (no hover)
never shows."""

from __future__ import annotations

import html
import random
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
