"""A post the CSRF check refuses (config/csrf.py): a move from a page older than the
player's sign-in reloads that page, which says nothing was done; a plain form's answer is
the site's 403 page saying why."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match
from tests.conftest import PASSWORD
from tests.markup import inline_code

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def signed_in(client: Client, user: Any) -> None:
    """Sign in through the login form, as a browser does (a new CSRF token each time)."""
    client.get(reverse("login"))
    client.post(reverse("login"), {"username": user.username, "password": PASSWORD,
                                   "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def on_play_page(player: Any) -> tuple[Client, Match, str]:
    """A browser signed in as alice on her play page: the token the page holds."""
    browser = Client(enforce_csrf_checks=True)
    signed_in(browser, player)
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"}])
    page = browser.get(reverse("match_play", args=[match.id])).content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page)
    assert token is not None
    return browser, match, token[1]


def stale_page(player: Any) -> tuple[Client, Match, str]:
    """A browser on alice's play page, then signed in again: the token the page holds."""
    browser, match, token = on_play_page(player)
    # (in another tab) signed out and in again
    browser.post(reverse("logout"), {"csrfmiddlewaretoken": browser.cookies["csrftoken"].value})
    signed_in(browser, player)
    return browser, match, token


def test_a_move_from_a_page_older_than_the_sign_in_reloads_it_and_says_nothing_was_done(
        player: Any) -> None:
    browser, match, token = stale_page(player)
    seq = match.seq
    # (whichever move: the check refuses the post before the move is read)
    answer = browser.post(reverse("match_act", args=[match.id]),
                          {"action": '{"type": "move", "to": [1, 1]}', "key": "k1"},
                          HTTP_X_CSRFTOKEN=token, **HTMX)
    assert answer.status_code == 403 and answer["HX-Refresh"] == "true"
    match.refresh_from_db()
    assert match.seq == seq
    reloaded = browser.get(reverse("match_play", args=[match.id])).content.decode()
    assert "Nothing was done: the page was older than your sign-in" in reloaded
    assert 'role="alert"' in reloaded


def test_a_plain_form_from_such_a_page_gets_the_sites_403_page_saying_why(
        player: Any) -> None:
    browser, match, token = stale_page(player)
    answer = browser.post(reverse("match_resign", args=[match.id]),
                          {"confirmed": "yes", "csrfmiddlewaretoken": token})
    assert answer.status_code == 403 and "HX-Refresh" not in answer
    page = answer.content.decode()
    assert "<h1>Not allowed</h1>" in page and "Nothing was done" in page
    assert reverse("lobby") in page and not inline_code(page)
    match.refresh_from_db()
    assert match.status == "active"


@pytest.mark.parametrize("htmx", [True, False])
def test_a_post_from_an_address_the_site_does_not_trust_is_not_reloaded_and_says_so(
        player: Any, htmx: bool) -> None:
    """A reload mends no Origin the site refuses (a proxy, DJANGO_CSRF_TRUSTED_ORIGINS
    set wrong): the answer says where the post came from instead."""
    browser, match, token = on_play_page(player)
    extra = HTMX if htmx else {}
    answer = browser.post(reverse("match_resign", args=[match.id]),
                          {"confirmed": "yes", "csrfmiddlewaretoken": token},
                          HTTP_ORIGIN="https://elsewhere.example", **extra)
    assert answer.status_code == 403 and "HX-Refresh" not in answer
    said = answer.content.decode()
    assert "does not take posts from the address" in said and "elsewhere.example" in said
    match.refresh_from_db()
    assert match.status == "active"
