"""Every page opens with a link past the top bar to its content, for keyboard and screen
reader users (WCAG 2.4.1): the first thing a Tab reaches."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PAGES = ["lobby", "account", "league:seasons", "league:ratings"]


def first_focusable(page: str) -> str:
    body = page[page.index("<body"):]
    found = re.search(r"<(a|button|input|select|textarea)\b[^>]*>", body[body.index(">") + 1:])
    assert found is not None
    return found.group(0)


@pytest.mark.parametrize("name", PAGES)
def test_the_first_tab_skips_to_the_page(alice_client: Client, name: str) -> None:
    page = alice_client.get(reverse(name)).content.decode()
    assert first_focusable(page) == '<a class="skip-link" href="#content">'
    # The target is the page's one main region, which takes focus when jumped to.
    assert page.count('id="content"') == 1
    assert re.search(r'<main class="page" id="content" tabindex="-1">', page)


def test_a_signed_out_page_has_it_too(client: Client) -> None:
    page = client.get(reverse("login")).content.decode()
    assert first_focusable(page) == '<a class="skip-link" href="#content">'
