"""Multiplayer rules and match types (SH-051..SH-108), each situation built exactly.

Ratings: Ox Valdane (A) power 10, technique 6, agility 5, strike 9, submission 7,
grapple 8; Mira Quickstep (B) agility 10, strike 9, technique 8, grapple 7, submission 6,
power 5; Professor Knot (C) submission 10, technique 9, grapple 8, power 7, agility 6,
strike 5 (+1 on Breakout Rolls); Kid Kaboom (D) strike 10, agility 9, power 8,
grapple 7, technique 6, submission 5.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest
from supershow_helpers import RULES, dice, do, legal, refused

from engine.bots import RandomBot
from engine.games.supershow.cards import CATALOG
from engine.games.supershow.match import MATCH_TYPES
from engine.games.supershow.rules import who
from engine.games.supershow.state import Phase, Player, State, Step, card_id
from engine.playout import play_match
from engine.protocol import Event, IllegalAction, PendingKind

COMPS = ("ox_valdane", "mira_quickstep", "professor_knot", "kid_kaboom")


def mbuild(match_type: str, hands: Sequence[Sequence[int]], *,
           in_play: Mapping[tuple[int, int], Sequence[int]] | None = None,
           discards: Mapping[int, Sequence[int]] | None = None,
           decks: Mapping[int, Sequence[int]] | None = None, phase: Phase = Phase.TURN,
           plan: Sequence[Step] | None = None, count_outs: bool | None = None,
           dq: bool | None = None, rest: bool = True) -> State:
    """A multiplayer state with exactly these cards (numbers) per seat."""
    mtype = MATCH_TYPES[match_type]
    n = mtype.seats
    comps = COMPS[:n]
    in_play, discards, decks = in_play or {}, discards or {}, decks or {}
    players = []
    for seat in range(n):
        piles = {o: [card_id(seat, c) for c in in_play.get((seat, o), ())]
                 for o in range(n) if o != seat and mtype.team(o) != mtype.team(seat)}
        placed = [*hands[seat], *discards.get(seat, ()), *decks.get(seat, ()),
                  *(c for (s, _), cs in in_play.items() if s == seat for c in cs)]
        others = [c for c in range(1, 31) if c not in placed] if rest else []
        players.append(Player(
            competitor=comps[seat], hand=[card_id(seat, c) for c in hands[seat]],
            deck=[card_id(seat, c) for c in [*decks.get(seat, ()), *others]],
            discard=[card_id(seat, c) for c in discards.get(seat, ())], in_play=piles,
            turns=1))
    if plan is None:
        plan = [Step(0, tuple(o for o in range(n) if mtype.team(o) != mtype.team(0)))]
    return State(match_type=match_type, competitors=comps,
                 decks=tuple(CATALOG.competitors[c].deck for c in comps), players=players,
                 turn_limit=200, teams=mtype.teams or (),
                 count_outs=mtype.count_outs if count_outs is None else count_outs,
                 dq=mtype.dq if dq is None else dq, phase=phase,
                 active=plan[0].seat if plan and phase is Phase.TURN else None,
                 plan=list(plan) if phase is Phase.TURN else [])


def roll(match_type: str, *faces: str, **kw) -> State:
    n = MATCH_TYPES[match_type].seats
    s = mbuild(match_type, [(1,)] * n, phase=Phase.ROLL, plan=[], **kw)
    return dice(s, *faces)


def test_every_match_type_is_offered_with_its_seats() -> None:
    """The match_type option lists every type; each takes its own number of seats.
    SH-109 decision: Battle Royal has no rules, so it is not offered."""
    assert set(RULES.spec.options["match_type"].choices) == set(MATCH_TYPES)
    assert not any("battle" in key for key in MATCH_TYPES)
    for key, mtype in MATCH_TYPES.items():
        s = RULES.start({"match_type": key, **({"competitors": [*list(COMPS[:2]), "twin_turbines"]}
                                              if key == "tag_team" else {})}, mtype.seats)
        assert len(s.players) == mtype.seats
    with pytest.raises(IllegalAction) as error:
        RULES.start({"match_type": "fatal_four_way_first_fall"}, 3)
    assert error.value.code == "bad_seat_count"


def test_the_rules_in_force_per_match_type() -> None:
    """SH-071/078/083/091/098/101/105/107/112 (decisions SH-062, SH-085, SH-104).
    SH-057/060: Bump Out and Team Up are in force with three or more active opponents
    (Fatal Four Way, Birdcage); SH-082: Handicap seats two team-mates against one."""
    m = MATCH_TYPES
    tte, ttf = m["triple_threat_elimination"], m["triple_threat_first_fall"]
    assert (tte.elimination, tte.count_outs, tte.dq, tte.team_up, tte.bump_out) == (
        True, False, True, True, False)
    assert (ttf.elimination, ttf.count_outs, ttf.dq, ttf.team_up) == (False, True, False, False)
    for key in ("handicap", "tag_team"):
        h = m[key]
        assert (h.elimination, h.dq, h.protect, h.save, h.lone_plays_each, h.teams) == (
            False, True, True, True, True, (0, 0, 1))
    t = m["tornado_tag_team"]
    assert (t.count_outs, t.dq, t.protect, t.save, t.teams) == (False, False, True, True,
                                                                (0, 0, 1, 1))
    f4e, f4f = m["fatal_four_way_elimination"], m["fatal_four_way_first_fall"]
    assert (f4e.bump_out, f4e.team_up, f4e.dq, f4e.count_outs, f4e.elimination) == (
        True, True, True, False, True)
    assert (f4f.bump_out, f4f.team_up, f4f.dq, f4f.elimination) == (True, True, False, False)
    b = m["birdcage"]
    assert (b.bump_out, b.team_up, b.dq, b.count_outs, b.elimination, b.min_seats,
            b.seats) == (True, True, True, False, True, 3, 6)
    assert all(mt.bump_out for mt in m.values() if mt.seats >= 4 and not mt.teams)
    assert not any(mt.bump_out for mt in m.values() if mt.seats <= 3)


def test_a_play_names_its_target_and_goes_into_that_pile() -> None:
    """SH-051/053: a Follow-Up only against an opponent with a Lead of yours in play."""
    s = mbuild("triple_threat_first_fall", [(13, 2), (1,), (1,)], in_play={(0, 1): (1,)})
    acts = legal(s, 0)
    assert {"type": "play", "card": "A13", "target": 1} in acts
    assert {"type": "play", "card": "A13", "target": 2} not in acts
    assert refused(s, 0, {"type": "play", "card": "A13", "target": 2}) == "needs_lead"
    assert refused(s, 0, {"type": "play", "card": "A13"}) == "needs_target"
    assert refused(s, 0, {"type": "play", "card": "A02", "target": 0}) == "bad_target"
    s = do(s, 0, {"type": "play", "card": "A13", "target": 1})
    assert RULES.pending(s).seats == (1,)
    s = do(s, 1, {"type": "no_stop"})
    assert s.players[0].in_play == {1: ["A01", "A13"], 2: []}


def test_counts_read_only_the_pile_against_the_target() -> None:
    """SH-052: Dropkick Burst draws for the Leads against Mira only."""
    s = mbuild("triple_threat_first_fall", [(14,), (1,), (1,)],
               in_play={(0, 1): (1,), (0, 2): (2, 3)}, decks={0: (20, 21, 22)})
    s = do(do(s, 0, {"type": "play", "card": "A14", "target": 1}), 1, {"type": "no_stop"})
    assert s.players[0].hand == ["A20"]


def test_conditions_read_only_the_pile_against_the_target() -> None:
    """SH-052: Deadlift German flips two only with two Follow-Ups in play; against Mira
    it is the only one (Suplex Snap is in the pile against Knot): no flip."""
    s = mbuild("triple_threat_first_fall", [(22,), (1,), (1,)],
               in_play={(0, 1): (1,), (0, 2): (2, 13)})
    s = do(do(s, 0, {"type": "play", "card": "A22", "target": 1}), 1, {"type": "no_stop"})
    assert s.players[1].discard == [] and s.players[0].in_play[1] == ["A01", "A22"]
    s = mbuild("triple_threat_first_fall", [(22,), (1,), (1,)],
               in_play={(0, 1): (1, 13), (0, 2): (2,)})
    s = do(do(s, 0, {"type": "play", "card": "A22", "target": 1}), 1, {"type": "no_stop"})
    assert len(s.players[1].discard) == 2 and s.players[2].discard == []


def test_bump_out_zeroes_equal_values_and_the_odd_one_wins() -> None:
    """SH-054/056: three 10s bump out to 0; Knot's technique 9 wins."""
    s = roll("fatal_four_way_first_fall", "power", "agility", "technique", "strike")
    assert s.active == 2 and s.phase is Phase.TURN


def test_everyone_bumped_out_draws_and_rolls_again() -> None:
    """SH-055: values 10, 10, 9, 9: all bump out."""
    s = roll("fatal_four_way_first_fall", "power", "agility", "technique", "agility")
    assert s.phase is Phase.ROLL and [len(p.hand) for p in s.players] == [2, 2, 2, 2]


def test_without_bump_out_a_tie_for_the_top_is_a_bump() -> None:
    """SH-089 decision (and Triple Threat): a top tie across sides: all draw, roll again."""
    s = roll("triple_threat_first_fall", "power", "agility", "power")
    assert s.phase is Phase.ROLL and [len(p.hand) for p in s.players] == [2, 2, 2]


def test_team_up_adds_one_on_the_same_skill_and_discards_the_pile() -> None:
    """SH-058/059/061: Knot teams up with Ox's Finish on Mira."""
    s = mbuild("fatal_four_way_first_fall", [(28,), (1,), (4,), (5,)],
               in_play={(0, 1): (1, 13), (2, 1): (2,), (2, 3): (3,)})
    s = do(do(s, 0, {"type": "play", "card": "A28", "target": 1}), 1, {"type": "no_stop"})
    assert s.phase is Phase.TEAM_UP and RULES.pending(s).seats == (2,)
    s = do(s, 2, {"type": "team_up"})
    assert s.players[2].in_play == {0: [], 1: [], 3: ["C03"]} and s.players[2].discard == ["C02"]
    s = do(s, 3, {"type": "no_team_up"})
    s = dice(s, "grapple", "grapple")  # Ox 8 (+1 Team Up) = 9
    assert s.finish.roll.value == 9 and s.finish.team_ups == [2]
    assert s.phase is Phase.BREAKOUT


def test_protecting_a_team_mate_then_burying_the_hand() -> None:
    """SH-063: Mira protects Ox from Knot's Lead Strike... with Side Headlock."""
    s = mbuild("handicap", [(2,), (5, 6, 7), (11,)],
               plan=[Step(2, (0, 1)), Step(2, (0, 1))])
    knot_lead = 11  # Knot's #11 is a Lead Strike? check below
    card = s.card("C11")
    if not (card.type == "lead" and card.skill == "strike"):
        knot_lead = next(n for n in range(1, 28) if s.decks[2][n - 1].type == "lead"
                         and s.decks[2][n - 1].skill == "strike")
        s = mbuild("handicap", [(2,), (5, 6, 7), (knot_lead,)],
                   plan=[Step(2, (0, 1)), Step(2, (0, 1))])
    cid = f"C{knot_lead:02d}"
    s = do(s, 2, {"type": "play", "card": cid, "target": 0})
    s = do(s, 0, {"type": "no_stop"})
    assert RULES.view(s, 1)["decision"]["asked"] == "protect"
    assert {"type": "protect", "card": "B05"} in legal(s, 1)
    assert refused(s, 1, {"type": "stop", "card": "B05"}) == "wrong_role"
    s = do(s, 1, {"type": "protect", "card": "B05"})
    assert s.players[2].discard == [cid] and s.players[1].in_play[2] == ["B05"]
    assert s.players[1].hand == [] and s.players[1].deck[-2:] == ["B06", "B07"]
    # counted in words, not a form's "2 card(s)"
    assert next(line for line in s.journal if "PROTECTS" in line).endswith(
        "and buries 2 cards from hand.")
    assert s.phase is Phase.TURN and s.plan == [Step(2, (1,))]  # SH-087: one more play


def test_a_save_roll_adds_its_value_on_the_same_skill() -> None:
    """SH-064: Mira saves Ox from Knot's Finish."""
    s = mbuild("handicap", [(2,), (3,), (28,)], in_play={(2, 0): (1, 13)},
               plan=[Step(2, (0, 1))])
    s = do(do(s, 2, {"type": "play", "card": "C28", "target": 0}), 0, {"type": "no_stop"})
    # SH-063: Mira is asked to protect though her Lead cannot stop a Finish
    assert RULES.pending(s).seats == (1,) and legal(s, 1) == [{"type": "no_stop"}]
    s = do(s, 1, {"type": "no_stop"})
    s = dice(s, "submission")  # Knot 10
    assert s.phase is Phase.SAVE and RULES.pending(s).seats == (1,)
    s = do(s, 1, {"type": "save"})
    s = dice(s, "agility", "strike")  # Ox 5, Mira's strike: no help
    assert s.finish.breakouts[-1].value == 5
    s = dice(s, "agility", "agility")  # Ox 5 + Mira 10
    assert s.finish is None and s.phase is Phase.ROLL


def test_triple_threat_double_team_of_two_would_be_losers() -> None:
    """SH-065/074/075/076: Ox 6 and Mira 8 roll TECHNIQUE, Knot 10 would win.
    SH-068 decision: "combine their turn roll" is a shared win: both take the turn."""
    s = roll("triple_threat_first_fall", "technique", "technique", "submission")
    assert s.phase is Phase.DOUBLE and RULES.pending(s).seats == (1,)  # the higher plays first
    s = do(s, 1, {"type": "double_team"})
    assert s.plan == [Step(1, (2,)), Step(0, (2,))] and s.active == 1
    assert [len(p.hand) for p in s.players] == [2, 2, 1]
    s = do(s, 1, {"type": "bury", "card": "B01"}) if s.players[1].discard else \
        do(s, 1, {"type": "pass"})
    assert s.phase is Phase.TURN and s.active == 0 and s.plan == [Step(0, (2,))]


def test_declining_a_double_team_leaves_the_roll_as_it_was() -> None:
    s = roll("triple_threat_first_fall", "technique", "technique", "submission")
    s = do(s, 1, {"type": "no_double_team"})
    assert s.active == 2 and s.phase is Phase.TURN


def test_team_mates_rolling_the_same_skill_may_double_team() -> None:
    """SH-088/095/103: in team matches the pair attacks opponents of their choice."""
    s = roll("tornado_tag_team", "power", "power", "agility", "strike")
    assert s.phase is Phase.DOUBLE and s.offer == (0, 1)
    s = do(s, 0, {"type": "double_team"})
    assert s.plan == [Step(0, (2, 3)), Step(1, (2, 3))]


def test_when_both_teams_may_double_team_a_declined_offer_passes_to_the_other() -> None:
    """SH-065/103: any two team-mates on the same skill may Double Team; the pair with the
    higher die is asked first, and its refusal asks the other team (it was never asked)."""
    s = roll("tornado_tag_team", "power", "power", "strike", "strike")
    assert s.phase is Phase.DOUBLE and s.offer[0] in (0, 1) and set(s.offer) == {0, 1}
    s = do(s, s.offer[0], {"type": "no_double_team"})
    assert s.phase is Phase.DOUBLE and set(s.offer) == {2, 3}
    second = do(s, s.offer[0], {"type": "double_team"})
    assert [step.targets for step in second.plan] == [(0, 1), (0, 1)]
    s = do(s, s.offer[0], {"type": "no_double_team"})  # both declined: the roll stands
    assert s.phase is not Phase.DOUBLE and s.offer == ()


@pytest.mark.parametrize("match_type", ["handicap", "tag_team", "tornado_tag_team"])
def test_in_two_sided_team_matches_nobody_can_interfere_even_with_dq_on(
        match_type: str) -> None:
    """SH-069 decision, SH-083/091/100: every bystander is the target's team-mate, who may
    Protect (or decline), never interfere; so DQ on changes nothing in these matches."""
    seats = MATCH_TYPES[match_type].seats
    singles = sorted(k for k, c in CATALOG.competitors.items() if c.kind == "single")
    comps = singles[:seats]
    if match_type == "tag_team":
        comps[2] = next(k for k, c in CATALOG.competitors.items() if c.kind == "tag_team")
    bystander_answers: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)

        def watch(state: State, event: Event) -> None:
            if state.phase is Phase.STOP and event.seat is not None \
                    and event.seat != state.target:
                bystander_answers.update(a["type"] for a in legal(state, event.seat))

        play_match(RULES, [RandomBot()] * seats, rng,
                   {"match_type": match_type, "dq": "on", "competitors": comps}, watch)
    assert "protect" in bystander_answers  # bystanders were asked
    assert "interfere" not in bystander_answers


def test_tied_team_mates_both_draw_and_choose_who_starts() -> None:
    """SH-086/093/102: Ox 10 and Mira 10 on different skills."""
    s = roll("handicap", "power", "agility", "strike")
    assert s.phase is Phase.STARTER and [len(p.hand) for p in s.players] == [2, 2, 1]
    assert legal(s, 0) == [{"type": "starter", "seat": 0}, {"type": "starter", "seat": 1}]
    s = do(s, 0, {"type": "starter", "seat": 1})
    assert s.active == 1 and len(s.players[1].hand) == 2 and s.phase is Phase.TURN


def test_a_pair_choice_is_posted_once_by_the_partner_who_would_play_first() -> None:
    """SH-086/088 decision: the Double Team offer goes to the partner with the higher die
    (Mira 8 over Ox 6), the starter choice of equal dice to the lower seat; the other
    partner has nothing to post, and a post of theirs is refused."""
    double = roll("triple_threat_first_fall", "technique", "technique", "submission")
    starter = roll("handicap", "power", "agility", "strike")
    for s, first, other in ((double, 1, 0), (starter, 0, 1)):
        assert RULES.pending(s).seats == (first,) and legal(s, other) == []
    assert refused(double, 0, {"type": "double_team"})
    assert refused(starter, 1, {"type": "starter", "seat": 1})


def test_the_lone_player_draws_two_and_plays_against_each_opponent() -> None:
    """SH-087/094."""
    s = roll("handicap", "agility", "power", "submission")  # Knot 10 alone
    assert s.active == 2 and len(s.players[2].hand) == 3
    assert s.plan == [Step(2, (0, 1)), Step(2, (0, 1))]


def test_the_lone_player_may_end_the_turn_after_one_play_without_a_bury() -> None:
    """SH-087/094 ("may play 1 card vs each opponent") with SH-023 (a bury ends a turn
    without a play) and the SH-025 decision: after Knot's first play, the second is
    optional: he may end the turn plainly, his discard pile untouched; before any play,
    ending the turn with cards in the discard pile still means a bury."""
    s = mbuild("handicap", [(2,), (3,), (1, 5)], discards={2: (20,)},
               plan=[Step(2, (0, 1)), Step(2, (0, 1))])
    assert {"type": "pass"} not in legal(s, 2)
    assert refused(s, 2, {"type": "pass"}) == "must_bury"
    s = do(s, 2, {"type": "play", "card": "C01", "target": 0})
    while s.phase is not Phase.TURN:
        s = do(s, RULES.pending(s).seats[0], {"type": "no_stop"})
    assert s.plan == [Step(2, (1,))] and {"type": "pass"} in legal(s, 2)
    assert not [a for a in legal(s, 2) if a["type"] == "bury"]  # SH-011: a play, so no bury
    assert refused(s, 2, {"type": "bury", "card": "C20"}) == "played_this_turn"
    s = do(s, 2, {"type": "pass"})
    assert s.phase is Phase.ROLL and s.players[2].discard == ["C20"]
    assert s.plan == [] and not s.played_once


def interference_cards(s: State) -> tuple[int, int]:
    """An Ox Lead and a Knot card that stops it."""
    return next((lead, stop) for lead in range(1, 28) for stop in range(1, 28)
                if s.decks[0][lead - 1].type == "lead"
                and (st := s.decks[2][stop - 1].stop) and st.matches(s.decks[0][lead - 1]))


def test_interference_disqualifies_and_eliminates() -> None:
    """SH-069 decision, SH-072: Knot stops a card between Ox and Mira: out."""
    lead, stop = interference_cards(mbuild("triple_threat_elimination", [(), (), ()]))
    keep = next(n for n in (3, 5, 6, 7) if n not in (lead, stop))
    s = mbuild("triple_threat_elimination", [(lead,), (1,), (stop,)],
               in_play={(2, 0): (keep,), (0, 2): (28,)})
    s = do(s, 0, {"type": "play", "card": f"A{lead:02d}", "target": 1})
    s = do(s, 1, {"type": "no_stop"})
    assert RULES.view(s, 2)["decision"]["asked"] == "interfere"
    s = do(s, 2, {"type": "interfere", "card": f"C{stop:02d}"})
    assert s.out == [2] and s.players[0].discard == [f"A{lead:02d}", "A28"]
    assert sorted(s.players[2].discard) == sorted([f"C{keep:02d}", f"C{stop:02d}"])
    assert s.phase is Phase.ROLL
    assert RULES.view(s, None)["eliminated"] == [2]


def test_interference_in_a_first_fall_match_with_dq_loses_it() -> None:
    """SH-069/100: with DQ switched on, the interferer's side loses at once."""
    lead, stop = interference_cards(mbuild("triple_threat_elimination", [(), (), ()]))
    s = mbuild("triple_threat_first_fall", [(lead,), (1,), (stop,)], dq=True)
    s = do(do(s, 0, {"type": "play", "card": f"A{lead:02d}", "target": 1}), 1,
           {"type": "no_stop"})
    s = do(s, 2, {"type": "interfere", "card": f"C{stop:02d}"})
    result = RULES.result(s)
    assert result.winners == (0, 1) and "disqualification" in result.summary


def test_no_interference_where_dq_is_off() -> None:
    """SH-078: First Fall has no DQ, so nobody but the target may stop."""
    lead, stop = interference_cards(mbuild("triple_threat_elimination", [(), (), ()]))
    s = mbuild("triple_threat_first_fall", [(lead,), (1,), (stop,)])
    s = do(do(s, 0, {"type": "play", "card": f"A{lead:02d}", "target": 1}), 1,
           {"type": "no_stop"})
    assert s.phase is Phase.ROLL


def finish_on(match_type: str, hands, **kw) -> State:
    s = mbuild(match_type, hands, in_play={(0, 1): (1, 13)}, **kw)
    s = do(do(s, 0, {"type": "play", "card": "A28", "target": 1}), 1, {"type": "no_stop"})
    while s.phase is Phase.STOP:  # SH-069: where DQ is in force every bystander is asked
        bystander = RULES.pending(s).seats[0]
        assert s.dq and bystander not in (0, 1)
        assert legal(s, bystander) == [{"type": "no_stop"}]  # no matching Stop in hand
        s = do(s, bystander, {"type": "no_stop"})
    while s.phase is Phase.TEAM_UP:
        s = do(s, RULES.pending(s).seats[0], {"type": "no_team_up"})
    s = dice(s, "power")  # 10 + 1
    for _ in range(3):
        s = dice(s, "power")  # Mira 5
    return s


def test_a_fall_eliminates_and_the_match_goes_on_until_one_is_left() -> None:
    """SH-072/081/106 (SH-081 decision: the last one left wins)."""
    s = finish_on("triple_threat_elimination", [(28,), (1,), (2,)])
    assert s.out == [1] and RULES.pending(s).kind is PendingKind.CHANCE
    assert s.players[0].in_play == {1: [], 2: []} and "A28" in s.players[0].discard
    s.out.append(2)
    s2 = mbuild("triple_threat_elimination", [(28,), (1,), (2,)], in_play={(0, 2): (1, 13)},
                plan=[Step(0, (2,))])
    s2.out.append(1)
    s2 = do(do(s2, 0, {"type": "play", "card": "A28", "target": 2}), 2, {"type": "no_stop"})
    s2 = dice(s2, "power")
    for _ in range(3):
        s2 = dice(s2, "strike")  # Knot 5 + 1
    result = RULES.result(s2)
    assert result.winners == (0,) and result.placements == (1, 3, 2)


def test_first_fall_ends_the_match() -> None:
    """SH-079/108: the first pinfall wins; SH-080 decision: a submission counts too."""
    s = finish_on("fatal_four_way_first_fall", [(28,), (1,), (2,), (3,)])
    result = RULES.result(s)
    assert result.winners == (0,) and result.placements == (1, 2, 2, 2)


def test_a_team_fall_wins_for_both_members() -> None:
    """SH-097: Tornado Tag: the first team to score a fall."""
    s = mbuild("tornado_tag_team", [(28,), (1,), (2,), (3,)], in_play={(0, 2): (1, 13)})
    s = do(do(s, 0, {"type": "play", "card": "A28", "target": 2}), 2, {"type": "no_stop"})
    # SH-063: Kid, Knot's team-mate, is asked to protect, with nothing that stops a Finish
    assert RULES.view(s, None)["decision"]["asked"] == "protect"
    assert legal(s, 3) == [{"type": "no_stop"}]
    s = do(s, 3, {"type": "no_stop"})
    s = dice(s, "power")
    s = do(s, 3, {"type": "no_save"})
    for _ in range(3):
        s = dice(s, "strike")
    assert RULES.result(s).winners == (0, 1)


def test_count_outs_where_the_organizer_switches_them_on() -> None:
    """SH-073: Elimination with count-outs: an empty player eliminates the rest.
    SH-070 decision: the organizer (the "GM") sets count-outs as a match option.
    SH-084/092/099: a team wins only when both members are empty."""
    s = mbuild("triple_threat_elimination", [(), (1,), (2,)], phase=Phase.ROLL, plan=[],
               count_outs=True, rest=False, in_play={(0, 1): (3,)})
    s = dice(s, "power", "power", "agility")  # Ox 10, Mira 5, Knot 6
    assert RULES.result(s).winners == (0,)
    s = mbuild("handicap", [(), (1,), (2,)], phase=Phase.ROLL, plan=[], count_outs=True,
               rest=False)
    s = dice(s, "power", "strike", "power")  # Ox 10, Mira 9, Knot 7
    assert s.phase is Phase.TURN  # Mira still holds a card
    s = mbuild("handicap", [(), (), (2,)], phase=Phase.ROLL, plan=[], count_outs=True,
               rest=False)
    s = dice(s, "power", "strike", "power")
    assert RULES.result(s).winners == (0, 1)


def test_a_tag_team_seat_uses_a_printed_tag_team_or_two_singles() -> None:
    """SH-090/096 decision."""
    base = {"match_type": "tag_team"}
    RULES.start({**base, "competitors": ["ox_valdane", "mira_quickstep", "twin_turbines"]}, 3)
    RULES.start({**base, "competitors": ["ox_valdane", "mira_quickstep", "granite_gus"],
                 "ringside": [None, None, "sunny_salazar"]}, 3)
    with pytest.raises(IllegalAction) as error:
        RULES.start({**base, "competitors": ["ox_valdane", "mira_quickstep", "granite_gus"]}, 3)
    assert error.value.code == "bad_tag_team"


def test_a_double_team_finish_resolves_before_the_partner_plays() -> None:
    """SH-066/067: Mira's Finish on Knot is broken out of; then Ox plays, and Knot may
    still stop either partner's card."""
    s = mbuild("triple_threat_first_fall", [(2,), (28,), (1,)],
               in_play={(1, 2): (1, 13)}, plan=[Step(1, (2,)), Step(0, (2,))])
    s = do(s, 1, {"type": "play", "card": "B28", "target": 2})
    assert RULES.pending(s).seats == (2,)  # the target is asked about the Stop
    s = do(s, 2, {"type": "no_stop"})
    s = dice(s, "agility")  # Mira 10
    s = dice(s, "submission")  # Knot 10 + 1: out
    assert s.finish is None and s.phase is Phase.TURN and s.active == 0
    assert s.plan == [Step(0, (2,))]
    assert {"type": "play", "card": "A02", "target": 2} in legal(s, 0)


@pytest.mark.parametrize("match_type", ["triple_threat_first_fall",
                                        "triple_threat_elimination"])
def test_a_double_team_partner_without_cards_is_counted_out_at_the_start_of_their_part(
        match_type: str) -> None:
    """SH-038/075 (SH-073: count-outs switched on in the Elimination): Ox 6 and Mira 8 roll
    TECHNIQUE and Double Team Knot; Ox has no hand and no deck, so once Mira's part is
    over, Ox's part starts with a win by count-out, as a turn roll won alone would."""
    s = mbuild(match_type, [(), (1,), (1,)], phase=Phase.ROLL, plan=[], count_outs=True,
               rest=False, decks={1: (5, 6), 2: (5, 6)})
    s = dice(s, "technique", "technique", "submission")
    s = do(s, 1, {"type": "double_team"})
    assert s.phase is Phase.TURN and s.active == 1  # Mira holds cards: her part goes on
    s = do(s, 1, {"type": "pass"})
    assert s.phase is Phase.OVER and s.end_reason == "count_out"
    assert RULES.result(s).winners == (0,)


@pytest.mark.parametrize("match_type", ["triple_threat_first_fall",
                                        "triple_threat_elimination"])
def test_a_double_team_partner_may_protect_the_third_player_from_the_partners_card(
        match_type: str) -> None:
    """SH-067 (SH-069 decision: a Double Team partner Protects, never interferes): Ox 6 and
    Mira 8 roll TECHNIQUE and Double Team Knot; Mira plays Lead Technique #8 on Knot, who
    does not stop it; Ox may still stop it with #11 (STOP: Lead Technique) and PROTECT
    Knot, burying his hand (SH-063), with no disqualification; then Ox's part begins."""
    s = mbuild(match_type, [(11,), (8,), (1,)], phase=Phase.ROLL, plan=[])
    s = dice(s, "technique", "technique", "submission")
    s = do(s, 1, {"type": "double_team"})
    s = do(s, 1, {"type": "play", "card": "B08", "target": 2})
    s = do(s, 2, {"type": "no_stop"})
    assert s.phase is Phase.STOP and RULES.pending(s).seats == (0,)
    assert {"type": "protect", "card": "A11"} in legal(s, 0)
    assert refused(s, 0, {"type": "interfere", "card": "A11"}) == "wrong_role"
    s = do(s, 0, {"type": "protect", "card": "A11"})
    assert "B08" in s.players[1].discard and s.players[2].in_play[1] == []
    assert s.players[0].hand == [] and s.out == [] and s.phase is Phase.TURN
    assert s.active == 0 and s.plan == [Step(0, (2,))]
    s = do(s, 0, {"type": "pass"})  # Ox's hand went under his deck: nothing to play
    assert s.partners == () and s.phase is Phase.ROLL


def test_a_double_team_partner_may_save_the_third_player() -> None:
    """SH-067 (SH-064 decision): Mira hits her Finish on Knot during the Ox+Mira Double
    Team; Ox may still SAVE Knot: his STRIKE 9 adds to Knot's STRIKE 5 to break out."""
    s = mbuild("triple_threat_first_fall", [(2,), (28,), (1,)], phase=Phase.ROLL, plan=[],
               in_play={(1, 2): (1, 13)})
    s = dice(s, "technique", "technique", "submission")
    s = do(s, 1, {"type": "double_team"})
    s = do(s, 1, {"type": "play", "card": "B28", "target": 2})
    s = do(do(s, 2, {"type": "no_stop"}), 0, {"type": "no_stop"})
    s = dice(s, "agility")  # Mira 10
    assert s.phase is Phase.SAVE and RULES.pending(s).seats == (0,)
    s = do(s, 0, {"type": "save"})
    s = dice(s, "strike", "strike")  # Knot 5 + Ox 9
    assert s.finish is None and s.phase is Phase.TURN and s.active == 0


def test_a_double_team_partner_who_teamed_up_is_not_asked_to_save() -> None:
    """SH-058/067: in the Elimination the partner is asked to Team Up first; once on the
    finisher's side of the Finish Roll, they are not asked to Save its target too."""
    s = mbuild("triple_threat_elimination", [(2,), (28,), (1,)], phase=Phase.ROLL, plan=[],
               in_play={(1, 2): (1, 13)})
    s = dice(s, "technique", "technique", "submission")
    s = do(s, 1, {"type": "double_team"})
    s = do(s, 1, {"type": "play", "card": "B28", "target": 2})
    s = do(do(s, 2, {"type": "no_stop"}), 0, {"type": "no_stop"})
    assert s.phase is Phase.TEAM_UP and RULES.pending(s).seats == (0,)
    declined = dice(do(s, 0, {"type": "no_team_up"}), "agility")
    assert declined.phase is Phase.SAVE and RULES.pending(declined).seats == (0,)
    s = dice(do(s, 0, {"type": "team_up"}), "agility", "agility")
    assert s.phase is Phase.BREAKOUT and s.finish is not None and s.finish.savers == []


def test_turn_won_gimmicks_fire_for_both_partners_not_against_each_other() -> None:
    """SH-041/126 with the SH-068 decision (a shared win of the turn roll): the Special
    Guest Referee Marsh Kings ("When you win a turn roll, your opponent flips 1 card")
    fires at the start of Mira's part and again of Ox's; only Knot, the third player, is
    their opponent: the partners never flip for each other."""
    s = mbuild("triple_threat_first_fall", [(2,), (1,), (1,)], phase=Phase.ROLL, plan=[])
    s.referee = "marsh_kings"
    s = dice(s, "technique", "technique", "submission")  # Ox 6, Mira 8 vs Knot 10
    s = do(s, 1, {"type": "double_team"})
    assert [len(p.discard) for p in s.players] == [0, 0, 1]
    s = do(s, 1, {"type": "play", "card": "B01", "target": 2})
    s = do(do(s, 2, {"type": "no_stop"}), 0, {"type": "no_stop"})
    assert s.phase is Phase.TURN and s.active == 0
    assert [len(p.discard) for p in s.players] == [0, 0, 2]


def test_equal_double_team_values_let_the_lower_seat_play_first() -> None:
    """SH-077 decision: Ox and Mira both roll STRIKE for 9; Knot's 10 would win."""
    s = roll("triple_threat_first_fall", "strike", "strike", "submission")
    assert s.offer == (0, 1) and RULES.pending(s).seats == (0,)


def test_a_submission_finish_is_a_fall() -> None:
    """SH-080 decision: Knot's Thesis Lock (a Submission Finish) wins a First Fall."""
    s = mbuild("fatal_four_way_first_fall", [(2,), (3,), (28,), (4,)],
               in_play={(2, 0): (1, 13)}, plan=[Step(2, (0, 1, 3))])
    assert s.card("C28").skill == "submission"
    s = do(do(s, 2, {"type": "play", "card": "C28", "target": 0}), 0, {"type": "no_stop"})
    while s.phase is Phase.TEAM_UP:
        s = do(s, RULES.pending(s).seats[0], {"type": "no_team_up"})
    s = dice(s, "submission")  # Knot 10
    for _ in range(3):
        s = dice(s, "agility")  # Ox 5
    result = RULES.result(s)
    assert result.winners == (2,) and result.summary.endswith("(submission)")


@pytest.mark.parametrize(("match_type", "seats", "teams"), [
    ("one_on_one", 2, None), ("triple_threat_first_fall", 3, None),
    ("handicap", 3, (0, 0, 1)), ("tag_team", 3, (0, 0, 1)),
    ("tornado_tag_team", 4, (0, 0, 1, 1)), ("birdcage", 5, None)])
def test_the_seats_a_match_type_plays_as_one_side_are_its_teams(
        match_type: str, seats: int, teams: tuple[int, ...] | None) -> None:
    assert RULES.teams({"match_type": match_type}, seats) == teams
    # a search bot holds a state, not its options: the state answers the same
    assert RULES.teams_at(RULES.start({"match_type": match_type}, seats)) == teams


NEWCOMER = """key: aaron_anvil
name: Aaron Anvil
kind: single
skills: {power: 10, technique: 9, agility: 8, strike: 7, submission: 6, grapple: 5}
gimmick: {text: Add 1 to your turn rolls., bonuses: [{roll: turn, amount: 1}]}
finishes:
- {number: 28, name: Forge Drop, type: finish, skill: power}
- {number: 29, name: Bellows Slam, type: finish, skill: power}
- {number: 30, name: Quench Press, type: finish, skill: grapple}
"""


@pytest.mark.parametrize(("match_type", "seats"), [
    ("triple_threat_elimination", 3), ("handicap", 3), ("tag_team", 3),
    ("tornado_tag_team", 4), ("fatal_four_way_first_fall", 4)])
def test_a_competitor_added_to_the_set_leaves_the_default_tables_as_they_were(
        monkeypatch: pytest.MonkeyPatch, match_type: str, seats: int) -> None:
    """A match of more than two seats that names no Competitors plays a fixed table: a new
    Competitor file (sorting first) changed it, so a default Tag Team match could not
    start (its third seat a single) and a stored match replayed with other Competitors."""
    from engine.games.supershow import cards, rules
    from engine.games.supershow.cards import parse_catalog, read_files

    def table() -> list[str]:
        state = RULES.start({"match_type": match_type}, seats)
        return [p.competitor for p in state.players]

    shipped = table()
    pool = sorted(k for k, c in CATALOG.competitors.items()  # as matches stored so far
                  if match_type != "handicap" or c.kind == "single")
    assert shipped == pool[:seats]
    files = read_files()
    deck = files["competitors/ox_valdane.yaml"].split("deck:")[1].split("finishes:")[0]
    files["competitors/aaron_anvil.yaml"] = NEWCOMER + "deck:" + deck
    bigger = parse_catalog(files)
    assert "aaron_anvil" in bigger.competitors
    monkeypatch.setattr(rules, "CATALOG", bigger)
    monkeypatch.setattr(cards, "CATALOG", bigger)
    assert table() == shipped


def test_a_target_refused_is_named_from_1() -> None:
    """The refusal repeated the target as the action gave it, from 0 ("Seat 0 is not an
    opponent"), where every sentence counts seats from 1: it names the target as the
    narration does, and one past the table by its number counted from 1."""
    s = mbuild("triple_threat_first_fall", [(13, 2), (1,), (1,)], in_play={(0, 1): (1,)})
    for target, named in [(0, who(s, 0)), (5, "Player 6")]:
        try:
            RULES.apply(s, Event.decision(0, {"type": "play", "card": "A02", "target": target}))
        except IllegalAction as error:
            assert (error.code, error.message) == (
                "bad_target", f"{named} is not an opponent you may attack now.")
        else:
            raise AssertionError("a target that is no opponent was accepted")
