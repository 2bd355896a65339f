"""The lobby's New match form and the account page's forms sit screens below the top of
the page on a phone: each is sent to its own card's anchor, so that a refusal comes back
at its message and fields (the browser scrolls there), not at the top of the page with
the message out of sight; a change that went through comes back at the page's top, where
its message shows."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match

pytestmark = pytest.mark.django_db


def _card(page: str, anchor: str) -> str:
    """The page from the element whose id is `anchor` on."""
    return page[page.index(f'id="{anchor}"'):]


def test_a_refused_new_match_comes_back_at_its_card(alice_client: Client) -> None:
    response = alice_client.post(reverse("match_create") + "#new-match", {
        "game": "super_showdown", "opponent": "bot:random", "seats": 3})
    assert response.status_code == 400
    page = response.content.decode()
    card = _card(page, "new-match")
    said = "takes 2 seats"
    assert f'action="{reverse("match_create")}#new-match"' in card
    assert card.index("#new-match") < card.index(said)  # the message is in the card
    assert not Match.objects.exists()


def test_a_new_match_opens_at_the_match_pages_top_not_at_the_lobby_forms_anchor(
        alice_client: Client) -> None:
    """A redirect naming no anchor keeps the one the form was sent to: the match page's
    address ended in the lobby's #new-match."""
    response = alice_client.post(reverse("match_create") + "#new-match", {
        "game": "super_showdown", "opponent": "bot:random", "seats": 2, "username": ""},
        follow=True)
    match = Match.objects.get()
    assert response.redirect_chain == [
        (reverse("match_play", args=[match.pk]) + "#content", 302)]
    assert 'id="content"' in response.content.decode()


# (the form's name, its card's anchor, what is posted, what the refusal shows)
REFUSED = [
    ("name", "display-name", {"display_name": "x" * 65}, 'id="id_display_name_error"'),
    ("email", "email", {"email": "alice@example.com", "password": "wrong-password-0"},
     "The present password is wrong."),
    ("password", "password", {"old_password": "wrong-password-0",
                              "new_password": "another-long-password-7",
                              "new_password2": "another-long-password-7"},
     "The present password is wrong."),
    ("close", "close", {"password": "wrong-password-0", "sure": "on"},
     "The present password is wrong."),
]


@pytest.mark.parametrize(("form", "anchor", "posted", "said"), REFUSED)
def test_a_refused_account_form_comes_back_at_its_card(
        alice_client: Client, form: str, anchor: str, posted: dict[str, str],
        said: str) -> None:
    response = alice_client.post(reverse("account"), {"form": form, **posted})
    assert response.status_code in (400, 403)
    card = _card(response.content.decode(), anchor)
    assert re.match(rf'id="{anchor}">\s*<h2>', card)
    assert f'action="{reverse("account")}#{anchor}"' in card
    assert card.index(f"#{anchor}") < card.index(said)


def test_a_change_on_the_account_page_comes_back_at_the_top_where_it_is_said(
        alice_client: Client, player: Any) -> None:
    response = alice_client.post(reverse("account") + "#display-name",
                                 {"form": "name", "display_name": "Alice"}, follow=True)
    # (a redirect naming no anchor would keep the form's, out of sight of the message)
    assert response.redirect_chain == [(reverse("account") + "#content", 302)]
    page = response.content.decode()
    assert page.index('id="content"') < page.index("Your display name is changed.") \
        < page.index('id="display-name"')
