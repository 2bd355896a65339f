"""Ultimate Showdown's score board names each colour's seat as the seats line names it:
the colours alone ("Green won") left a table of eight to guess who was who."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from matches import services

pytestmark = pytest.mark.django_db


def board_rows(page: str) -> list[str]:
    """The score board's row headings, as text."""
    board = page[page.index('class="us-scoreboard"'):]
    board = board[board.index("<tbody>"):]
    board = board[:board.index("</table>")]
    return [re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", row))).strip()
            for row in re.findall(r"<tr[^>]*><th>(.*?)</th>", board, re.S)]


@pytest.mark.parametrize("where", ["", "replay/?at=1"])
def test_each_colour_on_the_score_board_says_who_sits_there(player: Any, where: str) -> None:
    match = services.create_match(
        game="ultimate_showdown", options={}, created_by=player,
        seats=[{"player": player.username}, {"bot": "random"}, {"bot": "heuristic"}])
    client = Client()
    client.force_login(player)
    page = client.get(f"/matches/{match.pk}/{where}").content.decode()
    rows = board_rows(page)
    assert rows[0].startswith("Red (you)")
    assert rows[1].startswith("Green bot: random") and rows[2].startswith("Yellow bot: heuristic")
