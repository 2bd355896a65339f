"""Game options from a client: any JSON value is a state or a refusal with a code, never a crash.

Options reach `start` from the lobby, the API and league Events as parsed JSON, so a
list where a name belongs or `true` where a number belongs must come back as
`IllegalAction("bad_option")` for the caller to show, not as a TypeError (a 500).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import registry
from engine.protocol import IllegalAction

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=8,
)

OPTIONS = [(key, name) for key in registry.games()
           for name in registry.get_rules(key).spec.options]


@pytest.mark.parametrize(("game", "option"), OPTIONS)
@settings(max_examples=150, deadline=None)
@given(value=JSON_VALUES, data=st.data())
def test_any_json_option_value_starts_a_match_or_is_refused_with_a_code(game, option, value,
                                                                        data):
    rules = registry.get_rules(game)
    n_seats = data.draw(st.integers(rules.spec.min_seats, rules.spec.max_seats))
    # Alongside, any allowed value of the options that list theirs (a Birdcage, say).
    others = data.draw(st.fixed_dictionaries({}, optional={
        name: st.sampled_from(list(opt.choices))
        for name, opt in rules.spec.options.items() if opt.choices and name != option}))
    try:
        state = rules.start(rules.spec.resolve_options({**others, option: value}), n_seats)
    except IllegalAction as exc:
        assert exc.code.isidentifier() and exc.message  # bad_option, bad_deck, deck_size...
        return
    rules.view(state, None)  # a match taken is one that can be shown and played
    rules.pending(state)


@pytest.mark.parametrize("value", [["referee"], {"key": "x"}, 7])
def test_a_supershow_referee_that_is_not_a_name_is_a_bad_option(value):
    rules = registry.get_rules("supershow")
    with pytest.raises(IllegalAction) as exc:
        rules.start(rules.spec.resolve_options({"referee": value}), 2)
    assert exc.value.code == "bad_option"


@pytest.mark.parametrize("value", [True, 1.0, "3"])
def test_a_choice_is_matched_by_type_as_well_as_value(value):
    """`true == 1` and `1.0 == 1` in Python, but `best_of: true` is not a best of one."""
    with pytest.raises(IllegalAction) as exc:
        registry.get_rules("super_showdown").spec.resolve_options({"best_of": value})
    assert exc.value.code == "bad_option"
    assert registry.get_rules("super_showdown").spec.resolve_options({"best_of": 3}) == {
        "best_of": 3}


@pytest.mark.parametrize(("game", "seats", "said"), [
    ("super_showdown", 3, "Super Showdown takes 2 seats, not 3."),
    ("royal_rumble", 11, "Royal Rumble takes 2-10 seats, not 11."),
])
def test_a_refused_seat_count_names_the_seats_the_game_takes(game, seats, said):
    """A game of one seat count says it once ('takes 2 seats'), not as a range '2-2'."""
    with pytest.raises(IllegalAction) as error:
        registry.get_rules(game).spec.check_seats(seats)
    assert error.value.code == "bad_seat_count" and error.value.message == said


@pytest.mark.parametrize(("game", "option"), OPTIONS)
def test_an_options_help_speaks_to_players(game: str, option: str) -> None:
    """The lobby and the API show each option's help to players: it named rule items they
    cannot look up ("SH-126: ...", "see RR-14 decision") and printed lists as Python
    writes them (['ox_valdane', ...]), where a player types JSON."""
    help = registry.get_rules(game).spec.options[option].help
    assert help and not re.search(r"\b[A-Z]{2,3}-\d+", help), help
    assert "['" not in help and "None" not in help, help
