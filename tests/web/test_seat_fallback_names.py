"""A seat the page has no name for (none given to the tag) is named as every page
counts seats, from 1, not by its index from 0."""

from __future__ import annotations

from matches.templatetags import super_showdown, superstar_showdown, ultimate_showdown


def test_a_seat_without_a_name_is_counted_from_one() -> None:
    assert super_showdown.ss_seat_label(0, []) == "Seat 1"
    assert superstar_showdown.star_seat_label(1, None) == "Seat 2"
    assert ultimate_showdown._seat_name({"seats": []}, 2) == "Seat 3"
