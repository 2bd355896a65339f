"""The play page of a finished match offers a rematch, and takes it up."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches import services
from matches.models import Match
from tests.chromium import CHROMIUM, signed_in
from tests.conftest import event_match as played_in_an_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def over(player: Any, player2: Any) -> Match:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    services.resign(match=match, user=player2)
    return match


def test_a_finished_match_offers_its_players_a_rematch_and_nobody_else(
        over: Match, alice_client: Client, outsider_client: Client) -> None:
    page = alice_client.get(reverse("match_play", args=[over.pk])).content.decode()
    assert reverse("match_rematch", args=[over.pk]) in page and ">Rematch</button>" in page
    watcher = outsider_client.get(reverse("match_play", args=[over.pk])).content.decode()
    assert reverse("match_rematch", args=[over.pk]) not in watcher


def test_the_match_of_a_maker_deleted_since_offers_its_players_a_rematch(
        django_user_model: Any, player: Any, alice_client: Client,
        bruno_client: Client) -> None:
    staff = django_user_model.objects.create_user(username="sam", is_staff=True)
    match = services.create_match(game="super_showdown", options={}, created_by=staff,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.resign(match=match, user=player)
    staff.delete()
    button = f'action="{reverse("match_rematch", args=[match.pk])}"'
    assert button in alice_client.get(reverse("lobby")).content.decode()
    assert button in alice_client.get(reverse("match_play", args=[match.pk])).content.decode()
    alice_client.post(reverse("match_rematch", args=[match.pk]))
    again = Match.objects.get(rematch_of=match)
    page = bruno_client.get(reverse("match_play", args=[match.pk])).content.decode()
    assert "Accept the rematch" in page
    answer = bruno_client.post(reverse("match_rematch", args=[match.pk]))
    assert answer["Location"] == reverse("match_play", args=[again.pk])
    again.refresh_from_db()
    assert again.status == Match.Status.ACTIVE


def test_rematch_goes_to_the_new_match_and_the_other_player_accepts_it(
        over: Match, alice_client: Client, bruno_client: Client) -> None:
    response = alice_client.post(reverse("match_rematch", args=[over.pk]))
    again = Match.objects.get(rematch_of=over)
    assert response.status_code == 302
    assert response["Location"] == reverse("match_play", args=[again.pk])
    page = alice_client.get(response["Location"]).content.decode()
    assert f'A rematch of <a href="{reverse("match_play", args=[over.pk])}">#{over.pk}</a>' in page
    mine = alice_client.get(reverse("match_play", args=[over.pk])).content.decode()
    assert f"Go to the rematch, #{again.pk}" in mine
    theirs = bruno_client.get(reverse("match_play", args=[over.pk])).content.decode()
    assert f"alice offers a rematch, #{again.pk}." in theirs
    assert "Accept the rematch" in theirs
    accepted = bruno_client.post(reverse("match_rematch", args=[over.pk]))
    assert accepted["Location"] == reverse("match_play", args=[again.pk])
    again.refresh_from_db()
    assert again.status == Match.Status.ACTIVE


def test_the_rematch_sits_under_the_result_above_the_table(
        over: Match, alice_client: Client, bruno_client: Client) -> None:
    """On a phone the table is several screens long: the rematch, offered or made, is
    read with the result, not below the whole board."""
    def above_the_table(client: Client, text: str) -> bool:
        page = client.get(reverse("match_play", args=[over.pk])).content.decode()
        return page.index("result-banner") < page.index(text) < page.index('class="view ')

    assert above_the_table(alice_client, ">Rematch</button>")
    alice_client.post(reverse("match_rematch", args=[over.pk]))
    again = Match.objects.get(rematch_of=over)
    assert above_the_table(alice_client, f"Go to the rematch, #{again.pk}")
    assert above_the_table(bruno_client, "Accept the rematch")


def test_a_refused_rematch_says_why_on_the_match_page(player: Any,
                                                      alice_client: Client) -> None:
    live = services.create_match(game="super_showdown", options={}, created_by=player,
                                 seats=[{"player": "alice"}, {"bot": "random"}])
    response = alice_client.post(reverse("match_rematch", args=[live.pk]), follow=True)
    assert "A match is played again once it is over." in response.content.decode()
    assert not Match.objects.filter(rematch_of=live).exists()
    assert alice_client.get(reverse("match_rematch", args=[live.pk])).status_code == 405


def test_the_lobby_offers_a_rematch_of_a_finished_match_a_player_made(
        over: Match, organizer: Any, player: Any, alice_client: Client) -> None:
    event_match = played_in_an_event(organizer, player)
    lobby = alice_client.get(reverse("lobby")).content.decode()
    assert f'action="{reverse("match_rematch", args=[over.pk])}"' in lobby
    assert reverse("match_rematch", args=[event_match.pk]) not in lobby
    answer = alice_client.post(reverse("match_rematch", args=[over.pk]))
    again = Match.objects.get(rematch_of=over)
    assert answer["Location"] == reverse("match_play", args=[again.pk])


def test_the_lobbys_rematch_button_is_drawn_for_the_card(over: Match,
                                                        alice_client: Client) -> None:
    """The top bar's `link` buttons are white text for its dark bar: on a card's white
    they vanish. A finished row's rematch is a button of its own, as its replay is."""
    lobby = alice_client.get(reverse("lobby")).content.decode()
    row = lobby.split(f'action="{reverse("match_rematch", args=[over.pk])}"')[1]
    button = row.split("</form>")[0]
    assert 'class="row-action"' in button and 'class="link"' not in button
    assert f'class="button-link row-action" href="{reverse("match_replay", args=[over.pk])}' \
        in lobby


def test_a_rematch_offered_is_among_the_invitations_saying_so(
        over: Match, player: Any, bruno_client: Client) -> None:
    services.rematch(match=over, user=player)
    lobby = bruno_client.get(reverse("lobby")).content.decode()
    invitations = lobby.split('id="invitations"')[1].split("</section>")[0]
    assert f"a rematch of #{over.pk} from alice" in invitations


def test_only_the_player_a_lineup_seated_twice_is_offered_its_rematch(
        organizer: Any, player: Any, alice_client: Client, bruno_client: Client) -> None:
    """bruno could not ask alice back to both her seats (`services.rematch`)."""
    lineup = services.create_match(game="ultimate_showdown", options={}, created_by=organizer,
                                   seats=[{"player": "alice"}, {"player": "alice"},
                                          {"player": "bruno"}])
    services.resign(match=lineup, user=player)
    ask = reverse("match_rematch", args=[lineup.pk])
    for page in (reverse("match_play", args=[lineup.pk]), reverse("lobby")):
        assert ask in alice_client.get(page).content.decode()
        assert ask not in bruno_client.get(page).content.decode()
    alice_client.post(ask)
    offered = bruno_client.get(reverse("match_play", args=[lineup.pk])).content.decode()
    assert "Accept the rematch" in offered  # once alice asked, bruno accepts


def test_leaving_a_rematch_the_other_player_accepted_meanwhile_does_not_resign_it(
        over: Match, alice_client: Client, bruno_client: Client) -> None:
    """alice's page offered to leave the rematch while it waited for bruno; he accepted
    before her click arrived: she is still in the match, not its loser."""
    alice_client.post(reverse("match_rematch", args=[over.pk]))
    again = Match.objects.get(rematch_of=over)
    page = alice_client.get(reverse("match_play", args=[again.pk])).content.decode()
    assert "Leave this match" in page and 'name="status" value="open"' in page
    bruno_client.post(reverse("match_rematch", args=[over.pk]))
    response = alice_client.post(reverse("match_resign", args=[again.pk]),
                                 {"confirmed": "yes", "status": "open"}, follow=True)
    again.refresh_from_db()
    assert again.status == Match.Status.ACTIVE and again.result is None
    assert "The match started meanwhile" in response.content.decode()


def test_a_rivals_rematch_offer_shows_on_the_finished_page_without_a_reload(
        over: Match, alice_client: Client, bruno_client: Client,
        outsider_client: Client) -> None:
    """The finished page polls nothing else: bruno, looking at the result, saw alice's
    offer only once he reloaded. Its rematch slot asks while none is made, for a while."""
    offer = reverse("match_rematch_offer", args=[over.pk])
    page = bruno_client.get(reverse("match_play", args=[over.pk])).content.decode()
    assert f'hx-get="{offer}"' in page
    assert bruno_client.get(offer).status_code == 204  # nothing yet: nothing swapped
    alice_client.post(reverse("match_rematch", args=[over.pk]))
    again = Match.objects.get(rematch_of=over)
    slot = bruno_client.get(offer).content.decode()
    assert f"alice offers a rematch, #{again.pk}." in slot and "Accept the rematch" in slot
    assert "hx-get" not in slot  # found: it asks no more
    # A watcher has no slot; a page looked at long after the end no longer asks.
    assert outsider_client.get(offer).content.decode().strip() == ""
    Match.objects.filter(pk=over.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    Match.objects.filter(pk=again.pk).delete()
    later = bruno_client.get(reverse("match_play", args=[over.pk])).content.decode()
    assert ">Rematch</button>" in later and f'hx-get="{offer}"' not in later


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed")
@pytest.mark.django_db(transaction=True)
def test_in_a_browser_the_offer_comes_into_the_open_page(live_server: Any, player: Any,
                                                         player2: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    services.resign(match=match, user=player2)
    with signed_in(live_server.url, player2) as browser:
        browser.open(live_server.url + reverse("match_play", args=[match.id]))
        browser.until("document.querySelector('.rematch-slot button')")
        services.rematch(match=match, user=player)
        browser.until("document.querySelector('.rematch-slot').textContent"
                      ".includes('alice offers a rematch')")
        assert browser.js("document.querySelector('.rematch-slot')"
                          ".getAttribute('aria-live')") == "polite"
