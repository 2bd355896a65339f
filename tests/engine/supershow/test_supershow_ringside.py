"""Special Guest Referee and Accompanied to Ringside (SH-126..SH-129)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from supershow_helpers import RULES, build, dice, do

from engine.games.supershow.state import Phase
from engine.protocol import Event, IllegalAction


def test_the_referees_gimmick_applies_to_every_competitor() -> None:
    """SH-126: Granite Gus refereeing: +1 on GRAPPLE turn rolls for both players."""
    s = dataclasses.replace(build(((1,), (2,)), phase=Phase.ROLL, active=None),
                            referee="granite_gus")
    s = dice(s, "grapple", "grapple")
    assert [d.value for d in s.last_roll] == [9, 8]
    view = RULES.view(s, None)
    assert view["referee"]["name"] == "Granite Gus"


def test_the_referee_is_no_players_gimmick() -> None:
    """SH-127: the Referee's Gimmick belongs to no player, so nothing done to a player's
    Gimmick reaches it (our vocabulary has no Blank effect yet)."""
    s = RULES.start({"referee": "granite_gus"}, 2)
    assert s.referee == "granite_gus" and "granite_gus" not in s.competitors


def test_a_ringside_companion_adds_its_gimmick() -> None:
    """SH-128: Ox accompanied by Professor Knot also gets his +1 on Breakout Rolls that
    show SUBMISSION."""
    s = dataclasses.replace(build(((2,), (30,)), in_play=((), (1, 13)), active=1),
                            ringside=("professor_knot", None))
    s = do(do(s, 1, {"type": "play", "card": "B30"}), 0, {"type": "no_stop"})
    s = dice(dice(s, "agility"), "submission")  # Mira's 10 against Ox's 7 + 1
    assert s.finish.breakouts[0].value == 8
    start = RULES.start({"ringside": ["professor_knot", None]}, 2)
    assert RULES.view(start, 1)["players"][0]["ringside"]["name"] == "Professor Knot"


def test_ringside_companions_must_be_another_competitor_of_the_kind_allowed() -> None:
    """SH-128/129."""
    with pytest.raises(IllegalAction) as error:
        RULES.start({"ringside": ["ox_valdane", None]}, 2)
    assert error.value.code == "bad_ringside"
    with pytest.raises(IllegalAction) as error:
        RULES.start({"ringside": ["professor_knot", None], "ringside_kind": "trio"}, 2)
    assert error.value.code == "bad_ringside"
    s = RULES.start({"ringside": ["marsh_kings", None], "ringside_kind": "trio"}, 2)
    assert s.ringside == ("marsh_kings", None)
    with pytest.raises(IllegalAction):
        RULES.start({"referee": "nobody"}, 2)


@pytest.mark.parametrize(("options", "seats"), [
    ({"referee": "ox_valdane"}, 2),  # Ox is in the match (the default pair)
    ({"referee": "professor_knot", "ringside": [None, "professor_knot"]}, 2),  # SH-128
    ({"match_type": "birdcage", "referee": "nobody"}, 3),
    ({"match_type": "birdcage", "referee": 5}, 3),
    ({"match_type": "birdcage", "count_outs": "on"}, 4),  # SH-112: no count-outs
    ({"match_type": "birdcage", "ringside": [None, "ox_valdane", None]}, 3),
    ({"match_type": "tag_team", "competitors": ["twin_turbines", "mira_quickstep",
                                                "marsh_kings"]}, 3),  # SH-090
    ({"match_type": "handicap", "competitors": ["ox_valdane", "lighthouse_keepers",
                                                "mira_quickstep"]}, 3),  # SH-082
    ({"match_type": "handicap", "competitors": ["ox_valdane", "mira_quickstep",
                                                "twin_turbines"]}, 3),  # SH-082: lone
    ({"match_type": "handicap", "competitors": ["ox_valdane", "mira_quickstep",
                                                "marsh_kings"]}, 3),  # SH-082: lone
])
def test_options_the_rulebook_rules_out_are_refused_at_the_start(options: dict,
                                                                 seats: int) -> None:
    """SH-126 (the Referee is an extra Competitor, not one in the match nor a seat's
    ringside companion, SH-128: its Gimmick would count twice), SH-112, SH-082/090 (the
    Handicap's lone player runs a single Competitor too). A Birdcage took a referee of any
    value and crashed at its first view; the others played on."""
    with pytest.raises(IllegalAction) as error:
        RULES.start(options, seats)
    assert error.value.code == "bad_option"


def test_a_birdcage_referee_is_never_dealt_into_the_draft() -> None:
    """SH-126: an extra Competitor; the six the Birdcage deals are the others."""
    state = RULES.start({"match_type": "birdcage", "referee": "granite_gus"}, 6)
    for seed in range(40):
        dealt = RULES.sample_chance(state, random.Random(seed))
        assert "granite_gus" not in dealt["birdcage"]["competitors"]
    dealt["birdcage"]["competitors"][0] = "granite_gus"
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, Event.chance(dealt))
    assert error.value.code == "bad_outcome"
