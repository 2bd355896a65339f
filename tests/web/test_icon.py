"""Every page names the site's icon, a file of its own: a browser asks for no
/favicon.ico, which the site does not have (a 404 at every page it opened)."""

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

