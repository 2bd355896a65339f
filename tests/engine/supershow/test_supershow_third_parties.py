"""Who is asked to stop a card besides its target (SH-063 Protecting, SH-069 DQ).

Hidden information never reaches a seat that may not see it: who is asked depends only
on public facts (match type, teams, DQ, who is live, the card played), never on a hand.
Each situation is built twice, differing only in one asked player's hidden hand (a
matching Stop or not); everything the other seats and a spectator see (views, pending
seats, narration, the redacted events, their determinized states) must be identical.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from supershow_helpers import RULES, do, legal
from test_supershow_multiplayer import mbuild

from engine.games.supershow import HeuristicBot
from engine.games.supershow.match import MATCH_TYPES
from engine.games.supershow.state import Phase, State, card_id
from engine.protocol import JSON, Event

NO_STOP: JSON = {"type": "no_stop"}


def stops(s: State, seat: int, number: int, played: str) -> bool:
    card = s.card(card_id(seat, number))
    return bool(card.stop and card.stop.matches(s.card(played)))


def lead_and_cards(match_type: str, player: int, asked: int) -> tuple[int, int, int]:
    """A Lead of `player`, a card of `asked` that stops it and one that does not."""
    s = mbuild(match_type, [()] * MATCH_TYPES[match_type].seats)
    for lead in range(2, 28):
        played = card_id(player, lead)
        if s.card(played).type != "lead":
            continue
        yes = [n for n in range(2, 28) if stops(s, asked, n, played)]
        no = [n for n in range(2, 28) if not stops(s, asked, n, played) and n != lead]
        if yes and no:
            return lead, yes[0], no[0]
    raise AssertionError("no Lead with a Stop and a non-Stop")


def not_stopping(match_type: str, seat: int, played: str) -> int:
    """A card number of `seat` that does not stop `played`."""
    s = mbuild(match_type, [()] * MATCH_TYPES[match_type].seats)
    return next(n for n in range(2, 28) if not stops(s, seat, n, played))


def playing(match_type: str, hands: Sequence[Sequence[int]], lead: int,
            target: int) -> tuple[State, list[Event]]:
    """Seat 0 plays its Lead against `target`; the target declines."""
    s = mbuild(match_type, hands)
    events = [Event.decision(0, {"type": "play", "card": card_id(0, lead), "target": target}),
              Event.decision(target, NO_STOP)]
    for e in events:
        s = RULES.apply(s, e)
    return s, events


def public_record(s: State, events: list[Event], hidden: int) -> list[object]:
    """What every seat but `hidden` (and a spectator) sees of these events from `s`."""
    seen: list[object] = []
    for e in events:
        seen.append(RULES.narrate(s, e))
        seen.append([RULES.redact(s, e, v) for v in (None, *range(len(s.players)))
                     if v != hidden])
        s = RULES.apply(s, e)
        seen.append([RULES.view(s, v) for v in (None, *range(len(s.players)))
                     if v != hidden])
        seen.append(RULES.pending(s))
    return seen


def same_for_everyone_else(without: State, with_: State, asked: int) -> None:
    """Views of all but `asked`, their determinized states and everything after the
    decline are identical whether or not `asked` holds a matching Stop."""
    for v in (None, *range(len(without.players))):
        if v != asked:
            assert RULES.view(without, v) == RULES.view(with_, v)
    for v in range(len(without.players)):
        if v != asked:
            for k in range(3):
                a = RULES.determinize(without, v, random.Random(k))
                b = RULES.determinize(with_, v, random.Random(k))
                assert a == b and a.stoppers == without.stoppers
    decline = [Event.decision(asked, NO_STOP)]
    assert public_record(without, decline, asked) == public_record(with_, decline, asked)
    lines = RULES.narrate(without, decline[0])
    assert lines[0] == f"{RULES.view(without, None)['players'][asked]['name']} " \
                       "does not stop it."


def test_a_team_mate_without_a_matching_stop_is_still_asked_to_protect() -> None:
    """SH-063: in a Tornado Tag, Kid (seat 3) is asked to protect his partner Knot from
    Ox's Lead whether or not he holds a Stop for it; without one his only action is the
    decline, and nobody else can tell the two situations apart."""
    lead, yes, no = lead_and_cards("tornado_tag_team", 0, 3)
    base = [(lead,), (1,), (1,)]
    without, events = playing("tornado_tag_team", [*base, (no,)], lead, 2)
    with_, _ = playing("tornado_tag_team", [*base, (yes,)], lead, 2)
    for s in (without, with_):
        assert s.phase is Phase.STOP and RULES.pending(s).seats == (3,)
        assert RULES.view(s, None)["decision"]["asked"] == "protect"
    assert legal(without, 3) == [NO_STOP]
    assert legal(with_, 3) == [{"type": "protect", "card": card_id(3, yes)}, NO_STOP]
    assert HeuristicBot().choose(RULES, without, 3, random.Random(0)) == NO_STOP
    start_a = mbuild("tornado_tag_team", [*base, (no,)])
    start_b = mbuild("tornado_tag_team", [*base, (yes,)])
    assert public_record(start_a, events, 3) == public_record(start_b, events, 3)
    same_for_everyone_else(without, with_, 3)
    after = do(without, 3, NO_STOP)
    assert after.phase is not Phase.STOP and card_id(0, lead) in after.players[0].in_play[2]


def test_a_bystander_without_a_matching_stop_is_still_asked_where_dq_is_in_force() -> None:
    """SH-069 decision (interference): in a Triple Threat Elimination (DQ in force) Knot
    is asked about Ox's Lead on Mira whether or not he holds a Stop for it; without one
    his only action is the decline, and nobody else can tell the two situations apart."""
    lead, yes, no = lead_and_cards("triple_threat_elimination", 0, 2)
    base = [(lead,), (1,)]
    without, events = playing("triple_threat_elimination", [*base, (no,)], lead, 1)
    with_, _ = playing("triple_threat_elimination", [*base, (yes,)], lead, 1)
    for s in (without, with_):
        assert s.dq and RULES.pending(s).seats == (2,)
        assert RULES.view(s, None)["decision"]["asked"] == "interfere"
    assert legal(without, 2) == [NO_STOP]
    assert legal(with_, 2) == [{"type": "interfere", "card": card_id(2, yes)}, NO_STOP]
    assert HeuristicBot().choose(RULES, without, 2, random.Random(0)) == NO_STOP
    start_a = mbuild("triple_threat_elimination", [*base, (no,)])
    start_b = mbuild("triple_threat_elimination", [*base, (yes,)])
    assert public_record(start_a, events, 2) == public_record(start_b, events, 2)
    same_for_everyone_else(without, with_, 2)


def test_every_bystander_is_asked_in_seat_order_where_dq_is_in_force() -> None:
    """SH-069: in a Fatal Four Way Elimination (DQ) both bystanders are asked about a
    card between two others, in seat order, holding a matching Stop or not."""
    lead, _, no = lead_and_cards("fatal_four_way_elimination", 0, 2)
    kid = not_stopping("fatal_four_way_elimination", 3, card_id(0, lead))
    s, _ = playing("fatal_four_way_elimination", [(lead,), (1,), (no,), (kid,)], lead, 1)
    assert s.stoppers == [2, 3] and RULES.pending(s).seats == (2,)
    assert legal(s, 2) == [NO_STOP] and legal(s, 3) == []
    s = do(s, 2, NO_STOP)
    assert RULES.pending(s).seats == (3,) and legal(s, 3) == [NO_STOP]
    assert RULES.view(s, None)["decision"]["asked"] == "interfere"
    s = do(s, 3, NO_STOP)
    assert s.phase is not Phase.STOP


def test_no_third_party_is_asked_where_neither_rule_is_in_force() -> None:
    """SH-078: First Fall has neither DQ nor Protecting: only the target is asked."""
    lead, yes, _ = lead_and_cards("triple_threat_first_fall", 0, 2)
    s, _ = playing("triple_threat_first_fall", [(lead,), (1,), (yes,)], lead, 1)
    assert s.phase is not Phase.STOP and card_id(0, lead) in s.players[0].in_play[1]


def test_an_empty_handed_third_party_is_passed_over() -> None:
    """SH-063: a team-mate with no card (a public count) has nothing to decide."""
    lead, _, _ = lead_and_cards("tornado_tag_team", 0, 3)
    s, _ = playing("tornado_tag_team", [(lead,), (1,), (1,), ()], lead, 2)
    assert s.phase is not Phase.STOP and card_id(0, lead) in s.players[0].in_play[2]
