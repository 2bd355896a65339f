"""The Superstar Showdown page's own sentences (matches.templatetags.superstar_showdown)
count in words: "the losing card", "2 squares left", never a form's "card(s)"."""

from __future__ import annotations

from matches.templatetags.superstar_showdown import _context_lines, star_last_showdown


def countout(lost: int) -> dict:
    return {"position": 1, "winner": 1, "tie": False, "reversed_by": [], "countout": [0],
            "cards": [[{"name": f"Card {i}"} for i in range(lost)], [{"name": "Slam"}]]}


def test_a_countout_says_the_losing_card_or_cards() -> None:
    one, two = (star_last_showdown({"last_showdown": [countout(n)]})[0]["text"]
                for n in (1, 2))
    assert one == "Blue wins; countout: Red Gives Up the losing card"
    assert two == "Blue wins; countout: Red Gives Up the losing cards"


def test_a_move_counts_the_squares_left() -> None:
    said = [_context_lines({"phase": "motion", "motion": {"mover": 0, "squares_left": n}})
            for n in (1, 3)]
    assert said == [["Red: 1 square left."], ["Red: 3 squares left."]]
