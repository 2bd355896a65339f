"""Every refusal has a code, and a refused change leaves the state as it was."""

from __future__ import annotations

from typing import Any

import pytest
from format_helpers import better_seed_wins, play_out, refused, seeds

from league.formats import FORMATS, MatchResult, event_from_json, get_format
from league.formats.base import FormatError
from league.formats.events import result_from_json

# key, options, field size, a pairing id that exists but is not ready at the start
CASES: list[tuple[str, dict[str, Any], int, str]] = [
    ("single_elimination", {}, 4, "W2-1"),
    ("double_elimination", {}, 4, "L1-1"),
    ("round_robin", {}, 5, "R1-bye"),
    ("swiss", {}, 5, "R1-bye"),
    ("heats", {"pod_size": 3}, 6, "P1-1"),
    ("multistage", {"groups": 2}, 6, "PO:W1-1"),
]
KEYS = [case[0] for case in CASES]


def _start(key: str, options: dict[str, Any], n: int) -> Any:
    """A fresh event; heats have the first pod emptied by withdrawals so it decides itself."""
    fmt = get_format(key)
    state = fmt.start(seeds(n), options)
    if key == "heats":
        state = fmt.withdraw(fmt.withdraw(state, "s4"), "s5")
    return state


@pytest.mark.parametrize("key", KEYS)
def test_a_bracket_of_one_is_refused(key: str) -> None:
    refused("too_few_entrants", get_format(key).start, ["solo"], None)


@pytest.mark.parametrize("key", KEYS)
def test_an_entrant_twice_is_refused(key: str) -> None:
    refused("duplicate_entrant", get_format(key).start, ["s1", "s2", "s1"], None)
    refused("bad_entrant", get_format(key).start, ["s1", ""], None)


@pytest.mark.parametrize(("key", "options", "n", "not_ready"), CASES)
def test_results_for_pairings_not_ready_unknown_or_already_recorded_are_refused(
    key: str, options: dict[str, Any], n: int, not_ready: str
) -> None:
    fmt = get_format(key)
    state = _start(key, options, n)
    before = state
    refused("not_ready", fmt.record, state, MatchResult(not_ready, {"s1": 1, "s2": 2}))
    refused("unknown_pairing", fmt.record, state, MatchResult("nowhere", {"s1": 1, "s2": 2}))
    pairing = fmt.ready(state)[0]
    recorded = fmt.record(state, better_seed_wins(pairing))
    refused("already_recorded", fmt.record, recorded, better_seed_wins(pairing))
    assert state == before


@pytest.mark.parametrize(("key", "options", "n", "not_ready"), CASES)
def test_placements_must_name_exactly_the_seated_entrants_in_places_that_exist(
    key: str, options: dict[str, Any], n: int, not_ready: str
) -> None:
    fmt = get_format(key)
    state = _start(key, options, n)
    pairing = fmt.ready(state)[0]
    seated = list(pairing.entrants)
    outsider = next(e for e in seeds(n) if e not in seated)
    places = {e: i for i, e in enumerate(seated, start=1)}
    refused("not_in_pairing", fmt.record, state, MatchResult(pairing.id, {**places, outsider: 3}))
    refused(
        "not_in_pairing", fmt.record, state, MatchResult(pairing.id, places, {outsider: {"x": 1.0}})
    )
    refused("missing_placement", fmt.record, state, MatchResult(pairing.id, {seated[0]: 1}))
    refused("bad_placement", fmt.record, state, MatchResult(pairing.id, {**places, seated[0]: 9}))
    # no first place: refused, but where every entrant shares the last (all forfeited)
    no_first = {e: 2 + (i > 0 and len(seated) > 2) for i, e in enumerate(seated)}
    if len(set(no_first.values())) > 1:
        refused("bad_placement", fmt.record, state, MatchResult(pairing.id, no_first))
    fmt.record(state, MatchResult(pairing.id, dict.fromkeys(seated, len(seated))))


@pytest.mark.parametrize("key", KEYS)
def test_withdrawing_an_unknown_entrant_or_twice_is_refused(key: str) -> None:
    fmt = get_format(key)
    state = fmt.start(seeds(6), {"pod_size": 3} if key == "heats" else None)
    refused("unknown_entrant", fmt.withdraw, state, "nobody")
    refused("already_withdrawn", fmt.withdraw, fmt.withdraw(state, "s6"), "s6")
    refused("duplicate_entrant", fmt.add_entrant, state, "s1")


@pytest.mark.parametrize("key", KEYS)
def test_changes_after_the_event_is_over_are_refused(key: str) -> None:
    fmt = get_format(key)
    state = play_out(fmt, fmt.start(seeds(4), {"pod_size": 3} if key == "heats" else None))
    refused("event_complete", fmt.withdraw, state, "s1")


@pytest.mark.parametrize(
    "key", ["single_elimination", "double_elimination", "round_robin", "heats"]
)
def test_hand_pairing_is_refused_where_the_format_has_none(key: str) -> None:
    refused(
        "not_supported",
        get_format(key).pair_by_hand,
        get_format(key).start(seeds(4)),
        [["s1", "s2"]],
    )


@pytest.mark.parametrize(
    ("key", "options", "takes"),
    [
        ("single_elimination", {}, False),
        ("double_elimination", {}, False),
        ("round_robin", {}, False),
        ("heats", {}, False),
        ("showdown_series", {}, False),
        ("multistage", {}, False),
        ("swiss", {}, True),
        ("multistage", {"stage1": "swiss"}, True),
    ],
)
def test_a_format_says_whether_it_takes_hand_pairings_as_pair_by_hand_does(
    key: str, options: dict[str, Any], takes: bool
) -> None:
    fmt = get_format(key)
    n = 2 if key == "showdown_series" else 4
    state = fmt.start(seeds(n), options)
    assert fmt.takes_hand_pairings(state) is takes
    pairs = [["s1", "s2"], ["s3", "s4"]][: n // 2]
    if takes:
        fmt.pair_by_hand(state, pairs)
    else:
        refused("not_supported", fmt.pair_by_hand, state, pairs)


def test_a_swiss_stage_one_takes_no_hand_pairings_once_the_playoff_is_drawn() -> None:
    fmt = get_format("multistage")
    state = fmt.start(seeds(8), {"stage1": "swiss", "rounds": 3, "playoff_size": 4})
    while not any(p.id.startswith("PO:") for p in fmt.ready(state)):
        state = fmt.record(state, better_seed_wins(fmt.ready(state)[0]))
    assert not fmt.takes_hand_pairings(state)
    refused("not_supported", fmt.pair_by_hand, state, [["s1", "s2"], ["s3", "s4"]])


def test_options_are_refused_when_unknown_or_of_the_wrong_kind() -> None:
    refused("unknown_option", FORMATS["single_elimination"].start, seeds(4), {"thirdplace": True})
    refused("bad_option", FORMATS["single_elimination"].start, seeds(4), {"third_place": "yes"})
    refused("bad_option", FORMATS["round_robin"].start, seeds(4), {"tiebreaks": ["coin_toss"]})
    refused("bad_option", FORMATS["swiss"].start, seeds(4), {"rounds": 0})
    refused("unknown_format", get_format, "king_of_the_hill")


def test_malformed_events_are_refused() -> None:
    refused("bad_event", event_from_json, {"kind": "result_recorded", "pairing_id": 3})
    refused("bad_event", event_from_json, {"kind": "coin_tossed"})
    refused("bad_event", result_from_json, {"pairing_id": "W1-1"})


@pytest.mark.parametrize(("options", "said"), [
    ({"thirdplace": True}, "Unknown option: ['thirdplace']."),
    ({"thirdplace": True, "seeded": 1}, "Unknown options: ['seeded', 'thirdplace']."),
])
def test_unknown_options_are_named_in_the_singular_or_the_plural(options: dict[str, Any],
                                                                 said: str) -> None:
    """An organizer read "Unknown option(s): …", a form's wording."""
    with pytest.raises(FormatError) as caught:
        FORMATS["single_elimination"].start(seeds(4), options)
    assert (caught.value.code, caught.value.message) == ("unknown_option", said)
