"""Every page names the site's icon, a file of its own: a browser asks for no
/favicon.ico (a 404 at every page it opened, before it led to the icon)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["login", "lobby", "account"])
def test_a_page_names_the_icon_and_the_icon_is_a_static_file(
        client: Client, player: Any, name: str) -> None:
    if name != "login":
        client.force_login(player)
    page = client.get(reverse(name)).content.decode()
    icon = re.search(r'<link rel="icon" href="/static/([^"]+)" type="image/svg\+xml">', page)
    assert icon is not None
    found = finders.find(icon[1])
    assert found is not None and "<svg" in Path(str(found)).read_text()


def test_the_browsable_api_names_the_icon(client: Client, player: Any) -> None:
    """The API's pages as Django REST framework draws them named none (a 404 for
    /favicon.ico at each)."""
    client.force_login(player)
    page = client.get(reverse("api-root"), HTTP_ACCEPT="text/html").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page


def test_favicon_ico_leads_to_the_icon(client: Client) -> None:
    """A page that names no icon (an answer as JSON, the admin's) has the browser ask for
    /favicon.ico: it leads to the site's icon, not to a 404."""
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302 and answer["Location"] == "/static/favicon.svg"
    found = finders.find("favicon.svg")
    assert found is not None and "<svg" in Path(str(found)).read_text()
