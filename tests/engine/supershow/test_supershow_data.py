"""The card data: our Competitors and decks, and a loader that refuses bad files whole."""

from __future__ import annotations

import pytest

from engine.games.supershow.cards import (
    CATALOG,
    SKILLS,
    CardDataError,
    CardType,
    parse_catalog,
    read_files,
)


def test_the_roster_has_eight_singles_two_tag_teams_and_a_trio() -> None:
    """SH-001/004: Competitors with six skills, a Gimmick and a 30-card deck."""
    kinds = [c.kind for c in CATALOG.competitors.values()]
    assert kinds.count("single") >= 8 and kinds.count("tag_team") >= 2
    assert kinds.count("trio") >= 1
    for comp in CATALOG.competitors.values():
        assert set(comp.skills) == set(SKILLS) and comp.gimmick.text
        assert [c.number for c in comp.deck] == list(range(1, 31))
        assert all(c.type is CardType.FINISH and c.owner == comp.key for c in comp.deck[27:])
        assert all(c.type is not CardType.FINISH for c in comp.deck[:27])


def test_every_deck_card_is_a_lead_a_follow_up_or_a_finish() -> None:
    """SH-012: the three card types, and nothing else, in every deck."""
    types = {c.type for comp in CATALOG.competitors.values() for c in comp.deck}
    assert types == {CardType.LEAD, CardType.FOLLOW_UP, CardType.FINISH}


def test_ratings_are_the_rulebook_values_in_each_competitors_own_order() -> None:
    """SH-005/006 decision: Ox Valdane has exactly the listed values; everyone a
    permutation of 5-10."""
    ox = CATALOG.competitors["ox_valdane"].skills
    assert {str(k): v for k, v in ox.items()} == {
        "power": 10, "technique": 6, "agility": 5, "strike": 9, "submission": 7, "grapple": 8}
    for comp in CATALOG.competitors.values():
        assert sorted(comp.skills.values()) == [5, 6, 7, 8, 9, 10]


def test_the_crowd_meters_are_loaded() -> None:
    """SH-003/037 and SH-111: five standard cards, eight Birdcage cards."""
    assert len(CATALOG.crowd_meter) == 5 and len(CATALOG.birdcage_meter) == 8


def test_the_rulebook_stop_example_holds_for_our_cards() -> None:
    """SH-020: our Side Headlock stops any Lead Strike, as our Brow Beater is."""
    lib = CATALOG.library
    assert lib["side_headlock"].stop.matches(lib["brow_beater"])
    assert not lib["side_headlock"].stop.matches(lib["shoulder_charge"])


def files_with(name: str, old: str, new: str) -> dict[str, str]:
    files = read_files()
    assert old in files[name], old
    files[name] = files[name].replace(old, new, 1)
    return files


@pytest.mark.parametrize(("name", "old", "new", "card", "field"), [
    ("cards.yaml", "effects: [{do: draw, count: 1}]", "effects: [{do: teleport}]",
     "Chop Flurry", "effects[0].do"),
    ("cards.yaml", "effects: [{do: draw, per: lead}]", "effects: [{do: draw, per: chair}]",
     "Dropkick Burst", "effects[0].per"),
    ("cards.yaml", "stop: {types: [lead], skill: strike}", "stop: {types: [leed]}",
     "Side Headlock", "stop.types"),
    ("cards.yaml", "skill: technique\n    text: STOP any Lead Strike",
     "skill: karate\n    text: STOP any Lead Strike", "Side Headlock", "skill"),
    ("cards.yaml", "number: 5\n    name: Side Headlock", "number: 31\n    name: Side Headlock",
     "Side Headlock", "number"),
    ("cards.yaml", "effects: [{do: draw, count: 1}]", "effects: [{do: draw, colour: red}]",
     "Chop Flurry", "effects[0].colour"),
])
def test_a_bad_card_is_refused_naming_the_card_and_field(name, old, new, card, field) -> None:
    with pytest.raises(CardDataError) as error:
        parse_catalog(files_with(name, old, new))
    assert error.value.card == card and error.value.field == field
    assert card in str(error.value)


def test_a_missing_number_is_refused_whole() -> None:
    """Both designs of #4 gone: the library has no card 4."""
    files = read_files()
    lines = [ln for ln in files["cards.yaml"].splitlines() if "number: 4," not in ln]
    files["cards.yaml"] = "\n".join(lines)
    with pytest.raises(CardDataError) as error:
        parse_catalog(files)
    assert error.value.field == "number" and "[4]" in str(error.value)


def test_a_competitor_deck_with_a_gap_or_a_stray_card_is_refused() -> None:
    files = files_with("competitors/ox_valdane.yaml", "collar_tie_up, ", "")
    with pytest.raises(CardDataError) as error:
        parse_catalog(files)
    assert error.value.source == "competitors/ox_valdane.yaml" and error.value.field == "deck"
    files = files_with("competitors/ox_valdane.yaml", "collar_tie_up", "flying_kangaroo")
    with pytest.raises(CardDataError) as error:
        parse_catalog(files)
    assert error.value.card == "flying_kangaroo"


def test_a_bad_gimmick_is_refused() -> None:
    files = files_with("competitors/ox_valdane.yaml", "roll: finish", "roll: everything")
    with pytest.raises(CardDataError) as error:
        parse_catalog(files)
    assert error.value.field == "gimmick.bonuses[0].roll"


def test_the_shipped_files_load() -> None:
    assert parse_catalog(read_files()) == CATALOG


def test_a_copied_state_shares_its_card_designs_and_nothing_it_may_change() -> None:
    """A bot thinks on a deep copy of the state (matches/services.py): the designs, which
    never change, are shared rather than copied at every move; the rest is its own."""
    import copy

    from engine.games.supershow import RULES

    state = RULES.start({}, 2)
    own = copy.deepcopy(state)
    assert own == state and own.decks[0][0] is state.decks[0][0]
    assert own.players is not state.players and own.players[0] is not state.players[0]



@pytest.mark.parametrize(("new", "field"), [
    ("  bonuses: 5\n", "gimmick.bonuses"),
    ("  triggers: 3\n", "gimmick.triggers"),
])
def test_a_gimmick_whose_bonuses_or_triggers_are_no_list_is_refused_naming_the_field(
        new, field) -> None:
    """A number where the list goes is a data error naming the file and field, not a
    TypeError from inside the loader."""
    files = files_with("competitors/ox_valdane.yaml",
                       "  bonuses:\n  - {roll: finish, skill: power, amount: 1}\n", new)
    with pytest.raises(CardDataError) as error:
        parse_catalog(files)
    assert error.value.source == "competitors/ox_valdane.yaml"
    assert error.value.field == field and "list" in error.value.problem


def test_a_competitor_whose_skills_are_not_the_ratings_5_to_10_is_refused() -> None:
    """SH-006 decision: every Competitor rates its six skills 5-10, each value once; a set
    that rates one otherwise is refused at the load, not first by a test of the roster."""
    files = files_with("competitors/ox_valdane.yaml", "agility: 5,", "agility: 4,")
    with pytest.raises(CardDataError) as error:
        parse_catalog(files)
    assert error.value.source == "competitors/ox_valdane.yaml"
    assert error.value.field == "skills" and "5-10" in error.value.problem
    files = files_with("competitors/ox_valdane.yaml", "agility: 5,", "agility: 6,")
    with pytest.raises(CardDataError) as error:
        parse_catalog(files)
    assert error.value.field == "skills"


def test_a_copied_competitor_whose_key_was_left_names_both_files() -> None:
    """A copy of ox_valdane.yaml saved as a_new_one.yaml with its key unchanged: the error
    names the copy as well as the shipped file."""
    files = read_files()
    files["competitors/a_new_one.yaml"] = files["competitors/ox_valdane.yaml"]
    with pytest.raises(CardDataError) as error:
        parse_catalog(files)
    assert error.value.field == "key"
    assert "a_new_one.yaml" in str(error.value) and "ox_valdane.yaml" in str(error.value)
