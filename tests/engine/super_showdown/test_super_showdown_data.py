"""Loading data/cards.yaml and data/board.yaml: clear errors, nothing half-loaded (SU-05, SU-07, SU-08)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.games.super_showdown import cards as cards_module
from engine.games.super_showdown.board import BoardDataError, load_board
from engine.games.super_showdown.cards import CARDS, CardDataError, load_cards

DATA = Path(cards_module.__file__).parent / "data"


def _entries() -> list[dict]:
    return yaml.safe_load((DATA / "cards.yaml").read_text())["cards"]


def _write(tmp_path: Path, entries: list[dict], name: str = "my-cards.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump({"cards": entries}))
    return path


def test_the_shipped_files_load():
    """SU-08: the package's own card file loads whole, in file order."""
    assert load_cards().ids == CARDS.ids and len(CARDS.ids) == 18
    assert load_board().width == 6


@pytest.mark.parametrize(
    ("change", "card", "field"),
    [
        (lambda e: e[3].pop("number"), "scanner-sight", "number"),
        (lambda e: e[4].update(number="eight"), "wall-crawl", "number"),
        (lambda e: e[4].update(number=25), "wall-crawl", "number"),
        (lambda e: e[5].update(colour="purple"), "jet-flight", "colour"),
        (lambda e: e[6].update(power="laser"), "lightning-reflexes", "power"),
        (lambda e: e[7].update(name=""), "titan-grip", "name"),
        (lambda e: e[8].update(flavour="x"), "solar-flare", "flavour"),
        (lambda e: e[9].update(id="solar-flare"), "solar-flare", "id"),
        (lambda e: e[2].update(id="Bad Id"), "Bad Id", "id"),
        (lambda e: e[17].update(colour="white"), "doom-cannon", "colour"),
    ],
)
def test_a_bad_card_names_the_file_the_card_and_the_field(tmp_path, change, card, field):
    """SU-08: a schema error names the file, the card and the field."""
    entries = _entries()
    change(entries)
    with pytest.raises(CardDataError) as caught:
        load_cards(_write(tmp_path, entries))
    message = str(caught.value)
    assert "my-cards.yaml" in message and repr(card) in message and repr(field) in message
    assert (caught.value.card, caught.value.field) == (card, field)


def test_an_uneven_colour_split_is_refused(tmp_path):
    """SU-05 (decision): the set must be 9 white and 9 green, or the deal could fail."""
    entries = _entries()
    entries[-1]["colour"] = "white"
    with pytest.raises(CardDataError, match="needs 9 white cards, not 10"):
        load_cards(_write(tmp_path, entries))


def test_a_short_set_and_a_broken_file_are_refused(tmp_path):
    """SU-08: eighteen cards in a top-level list, in valid YAML."""
    with pytest.raises(CardDataError, match="needs 18 cards"):
        load_cards(_write(tmp_path, _entries()[:17]))
    broken = tmp_path / "broken.yaml"
    broken.write_text("cards: [unclosed")
    with pytest.raises(CardDataError, match=r"broken\.yaml"):
        load_cards(broken)
    flat = tmp_path / "flat.yaml"
    flat.write_text("- just a list\n")
    with pytest.raises(CardDataError, match="'cards'"):
        load_cards(flat)


def test_nothing_is_half_loaded(tmp_path):
    """SU-08: a fault in the last card leaves the loaded set as it was."""
    before = CARDS.ids
    entries = _entries()
    entries[-1]["number"] = -3
    with pytest.raises(CardDataError):
        load_cards(_write(tmp_path, entries))
    assert cards_module.CARDS.ids == before and cards_module.CARDS is CARDS


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("width: 5\nheight: 6\nstarts: {hero: [1, 1], villain: [6, 6]}\n", "width"),
        ("width: 6\nheight: 6\nstarts: {hero: [1, 1]}\n", "starts.villain"),
        ("width: 6\nheight: 6\nstarts: {hero: [1, 1], villain: [1, 1]}\n", "starts"),
        ("width: 6\nheight: 6\nstarts: {hero: [1, 1], villain: [6, 6]}\n"
         "powerboosts: [[0, 3]]\n", "powerboosts"),
    ],
)
def test_a_bad_board_names_the_file_and_field(tmp_path, text, field):
    """SU-07 (decision): the grid is 6x6 with two distinct starts and squares on the grid."""
    path = tmp_path / "my-board.yaml"
    path.write_text(text)
    with pytest.raises(BoardDataError) as caught:
        load_board(path)
    assert "my-board.yaml" in str(caught.value) and caught.value.field == field
