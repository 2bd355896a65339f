"""The lobby's one-click match sent twice at the same instant (a double click, a phone
resending it) makes one match."""

from __future__ import annotations

import re
import uuid
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 4


def test_one_click_sent_several_times_at_once_makes_one_match(race: Any) -> None:
    player = get_user_model().objects.create_user(username=f"clicker-{uuid.uuid4().hex[:6]}")
    browser = Client()
    browser.force_login(player)
    page = browser.get(reverse("lobby")).content.decode()
    start = page.index(f'action="{reverse("quick_play")}"')
    sent = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"',
                           page[start:page.index("</form>", start)]))

    def click() -> str:
        return str(browser.post(reverse("quick_play"), sent)["Location"])

    answers, errors = race([click] * THREADS)
    assert errors == []
    made = Match.objects.get(created_by=player)
    assert Counter(answers) == {reverse("match_play", args=[made.pk]): THREADS}
