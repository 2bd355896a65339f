"""The Birdcage (SH-110..SH-125): deal, drafts, entrants, its Crowd Meter, eliminations."""

from __future__ import annotations

import dataclasses
import random

import pytest
from supershow_helpers import RULES, dice, do, legal, refused

from engine.bots import RandomBot
from engine.games.supershow.cards import CATALOG
from engine.games.supershow.state import Phase, State, Step
from engine.playout import play_match
from engine.protocol import Event, EventKind, IllegalAction, PendingKind

SIX = ["ox_valdane", "mira_quickstep", "professor_knot", "kid_kaboom", "granite_gus",
       "tessa_ironbridge"]


def dealt(n: int, entrants: list[int] | None = None) -> State:
    s = RULES.start({"match_type": "birdcage"}, n)
    entrants = entrants or list(range(1, n + 1))
    return RULES.apply(s, Event.chance({"birdcage": {"competitors": SIX, "entrants": entrants}}))


def drafted(n: int = 3) -> State:
    """Every draft choice the first legal one; then the shuffles in file order."""
    return draft_to_the_end(dealt(n))


def draft_to_the_end(s: State) -> State:
    """Every draft choice the first legal one, then the shuffles in file order."""
    while s.phase in (Phase.DRAFT, Phase.OPEN, Phase.PICK):
        seat = RULES.pending(s).seats[0]
        s = do(s, seat, legal(s, seat)[0])
    while s.shuffles:
        seat = s.shuffles[0]
        s = RULES.apply(s, Event.chance({"shuffle": {"seat": seat,
                                                     "order": sorted(s.players[seat].deck)}}))
    return s


def test_the_deal_gives_entrant_numbers_and_six_competitors() -> None:
    """SH-110/111/113/114: up to six; six random Competitors; the meter has 8 cards."""
    s = RULES.start({"match_type": "birdcage"}, 6)
    assert RULES.pending(s).kind is PendingKind.CHANCE and s.phase is Phase.DEAL
    s = dealt(4, [3, 1, 4, 2])
    assert s.entrants == (3, 1, 4, 2) and s.phase is Phase.DRAFT
    assert RULES.pending(s).seats == (1,)  # entrant 1
    view = RULES.view(s, 0)
    assert len(view["draft"]["competitors_left"]) == 6 and view["crowd_meter"]["size"] == 8
    with pytest.raises(IllegalAction) as few:
        RULES.start({"match_type": "birdcage"}, 2)
    assert few.value.message == "A birdcage match takes 3-6 seats, not 2."
    with pytest.raises(IllegalAction) as error:
        RULES.apply(RULES.start({"match_type": "birdcage"}, 3),
                    Event.chance({"birdcage": {"competitors": SIX[:5], "entrants": [1, 2, 3]}}))
    assert error.value.code == "bad_outcome"


def test_the_birdcage_crowd_meter_is_shown_before_the_deal() -> None:
    """SH-111/120: a Birdcage plays with its own eight-card Crowd Meter, so its view shows
    that one from the start; before the deal (no entrant numbers yet) it showed the
    standard five-card meter and its first card."""
    view = RULES.view(RULES.start({"match_type": "birdcage"}, 4), None)
    assert view["crowd_meter"]["size"] == 8
    assert view["crowd_meter"]["next"]["name"] == CATALOG.birdcage_meter[0].name


def test_the_competitor_draft_passes_to_the_right() -> None:
    """SH-115: entrant 1 keeps one, then entrant 2, ... until everyone has one."""
    s = dealt(3, [2, 3, 1])
    s = do(s, 2, {"type": "draft", "competitor": "kid_kaboom"})
    assert RULES.pending(s).seats == (0,)  # entrant 2
    assert refused(s, 0, {"type": "draft", "competitor": "kid_kaboom"}) == "not_in_pool"
    s = do(s, 0, {"type": "draft", "competitor": "ox_valdane"})
    s = do(s, 1, {"type": "draft", "competitor": "granite_gus"})
    assert s.competitors == ("ox_valdane", "granite_gus", "kid_kaboom")
    assert s.phase is Phase.OPEN and RULES.pending(s).seats == (0,)  # entrant 2 opens
    # Every seat shows its drafted Competitor (they read None, on the page and in
    # balance runs, which then rated no Competitor).
    assert [p["competitor"]["key"] for p in RULES.view(s, None)["players"]] == [
        "ox_valdane", "granite_gus", "kid_kaboom"]


def test_the_pile_draft_gives_everyone_one_card_of_each_number() -> None:
    """SH-116/117/118: one card each from every pile; the rest is set aside; a pile
    already drafted cannot be opened again."""
    s = dealt(3)
    for seat in range(3):
        s = do(s, seat, {"type": "draft", "competitor": SIX[seat]})
    s = do(s, 1, {"type": "open_pile", "number": 5})
    assert s.pickers == [1, 2, 0] and len(s.piles[5]) == 6
    for seat in (1, 2, 0):
        s = do(s, seat, legal(s, seat)[0])
    assert 5 not in s.piles and RULES.pending(s).seats == (2,)  # entrant 3 opens next
    assert refused(s, 2, {"type": "open_pile", "number": 5}) == "pile_taken"
    assert refused(s, 2, {"type": "open_pile", "number": 28}) == "pile_taken"
    s = drafted(3)
    for seat in range(3):
        deck = s.decks[seat]
        assert [c.number for c in deck] == list(range(1, 31))
        assert all(c.owner == s.competitors[seat] for c in deck[27:])


def test_entrants_one_and_two_start_the_others_wait() -> None:
    """SH-119."""
    s = drafted(4)
    assert s.waiting == [2, 3] and s.live == [0, 1]
    assert [len(p.hand) for p in s.players] == [3, 3, 0, 0]
    assert s.phase is Phase.ROLL


def roll_won_by(s: State, seat: int) -> State:
    """A turn roll of the seats inside that `seat` wins outright: its best skill against
    the others' worst (each value with its turn bonus)."""
    skills = CATALOG.competitors

    def value(o: int, skill: str) -> int:
        return skills[s.competitors[o]].skills[skill] + s.players[o].boosts.get("turn", 0)

    chosen = {o: (max if o == seat else min)(skills[s.competitors[o]].skills,
                                             key=lambda k, o=o: value(o, k))
              for o in s.live}
    assert all(value(seat, chosen[seat]) > value(o, chosen[o]) for o in s.live if o != seat)
    s = dice(s, *(str(chosen[o]) for o in s.live))
    assert s.active == seat and s.phase is Phase.TURN
    return s


def end_turn(s: State) -> State:
    """The player on turn ends it: a pass, or a bury when the discard pile holds cards."""
    seat = s.active
    assert seat is not None
    return do(s, seat, next(a for a in legal(s, seat) if a["type"] in ("pass", "bury")))


def test_the_sixth_turn_roll_raises_the_meter_and_its_entrant_comes_in_at_the_next() -> None:
    """SH-120/121/123 decision: the meter rises as soon as the sixth turn roll is made; the
    entrant it calls comes in as the next roll is due, draws 3 and rolls with +2."""
    state = roll_won_by(dataclasses.replace(drafted(3), turn_rolls=5).clone(), 0)
    assert state.turn_rolls == 6 and state.crowd == 1 and state.waiting == [2]
    rise = state.journal.index(f"The Birdcage Crowd Meter rises: "
                               f"{CATALOG.birdcage_meter[0].name}.")
    assert state.journal[rise + 1].endswith("(entrant 3) enters at the next turn roll.")
    state = end_turn(state)
    assert state.phase is Phase.ROLL and state.crowd == 1 and state.waiting == []
    assert len(state.players[2].hand) == 3 and state.players[2].boosts == {"turn": 2}
    state = dice(state, "agility", "agility", "agility")
    assert state.last_roll[2].value == CATALOG.competitors[state.competitors[2]].skills[
        "agility"] + 2


def test_a_meter_card_counts_in_the_turn_the_sixth_roll_decides() -> None:
    """SH-120 decision: the fourth Birdcage card (+1 to Finish Rolls) rises with turn roll
    24, so the Finish played in the turn that roll decides gets the +1 already."""
    assert CATALOG.birdcage_meter[3].finish_bonus == 1
    values = {}
    for rolls in (22, 23):
        s = dataclasses.replace(drafted(3), turn_rolls=rolls, rises=3, crowd=3,
                                waiting=[]).clone()
        s = roll_won_by(s, 0)
        assert s.crowd == (3 if rolls == 22 else 4)
        s, _ = _finish_on_seat_one(s)
        assert s.finish is not None and s.finish.roll is not None
        values[rolls] = s.finish.roll.value
    assert values[23] == values[22] + 1


def _finish_on_seat_one(s: State) -> tuple[State, str]:
    """Seat 0 plays its Finish (A28, the chain A01-A13 in play) on seat 1 and rolls its own
    best skill for the Finish Roll: the state awaiting seat 1's Breakout Roll, and seat
    1's weakest skill."""
    s.phase, s.active = Phase.TURN, 0
    s.plan = [Step(0, (1,))]
    s.players[0].in_play[1] = ["A01", "A13"]
    for cid in ("A01", "A13", "A28"):
        for pile in (s.players[0].deck, s.players[0].hand):
            if cid in pile:
                pile.remove(cid)
    s.players[0].hand.append("A28")
    s = do(s, 0, {"type": "play", "card": "A28", "target": 1})
    while RULES.pending(s).kind is PendingKind.DECISION:
        seat = RULES.pending(s).seats[0]
        s = do(s, seat, {"type": "no_team_up"} if s.phase is Phase.TEAM_UP
               else {"type": "no_stop"})
    top = max(CATALOG.competitors[s.competitors[0]].skills.items(), key=lambda kv: kv[1])[0]
    low = min(CATALOG.competitors[s.competitors[1]].skills.items(), key=lambda kv: kv[1])[0]
    return dice(s, str(top)), str(low)


def test_a_breakout_does_not_raise_the_birdcage_meter() -> None:
    """SH-122 and SH-124: a failed breakout eliminates, the match goes on."""
    s, low = _finish_on_seat_one(drafted(3).clone())
    broke = dice(s, str(max(CATALOG.competitors[s.competitors[1]].skills.items(),
                            key=lambda kv: kv[1])[0]))
    assert broke.finish is None and broke.crowd == 0 and broke.out == []
    for _ in range(3):
        s = dice(s, low)
    assert s.out == [1] and s.phase is not Phase.OVER  # entrant 3 still to come
    # SH-124 decision: Ox alone inside would roll against nobody; entrant 3 comes in at
    # once, the meter rising as at any entry (it was left waiting for the sixth roll).
    assert s.waiting == [] and s.live == [0, 2] and s.crowd == 1
    assert len(s.players[2].hand) == CATALOG.birdcage_meter[0].entrant_draw


def test_an_entry_forced_early_leaves_the_six_roll_schedule_where_it_was() -> None:
    """SH-120 decision (the meter rises every six turn rolls) with the SH-124 decision
    (an entrant comes in at once when one player is left inside): in a 4-seat Birdcage,
    entrant 2 is eliminated at turn roll 3, so entrant 3 comes in at once (meter 1); the
    sixth roll still raises the meter (2) and calls entrant 4, who comes in at the next
    roll, and the twelfth raises it again."""
    s = drafted(4).clone()
    s.turn_rolls = 3
    s, low = _finish_on_seat_one(s)
    for _ in range(3):
        s = dice(s, low)
    assert s.out == [1] and s.live == [0, 2] and s.waiting == [3] and s.crowd == 1
    s = end_turn(s) if s.phase is Phase.TURN else s
    for rolls, crowd, waiting in ((4, 1, [3]), (5, 1, [3]), (6, 2, [3])):
        s = roll_won_by(s, 0)
        assert (s.turn_rolls, s.crowd, s.waiting) == (rolls, crowd, waiting)
        s = end_turn(s)
    assert s.waiting == [] and s.live == [0, 2, 3] and s.crowd == 2
    s = dataclasses.replace(s, turn_rolls=10).clone()
    for rolls, crowd in ((11, 2), (12, 3)):
        s = end_turn(roll_won_by(s, 0))
        assert (s.turn_rolls, s.crowd) == (rolls, crowd)


def test_nobody_ever_rolls_alone_in_the_birdcage() -> None:
    """SH-124 decision: whenever a turn roll is made, at least two are inside to make it."""
    rolls_alone = 0
    for seed in range(40, 70):
        def watch(state: State, event: Event) -> None:
            nonlocal rolls_alone
            if state.phase is Phase.ROLL and event.kind is EventKind.CHANCE \
                    and "dice" in (event.outcome or {}):
                rolls_alone += len(state.live) < 2

        play_match(RULES, [RandomBot()] * 6, random.Random(seed), {"match_type": "birdcage"},
                   watch)
    assert rolls_alone == 0


def test_a_time_limit_before_every_entrant_is_in_places_those_waiting_after_those_in() -> None:
    """Termination (package docstring): at the time limit those inside share first, the
    entrants still waiting share the next place, the eliminated come after. With the
    option's shortest limit (10 turn rolls) six entrants cannot all be in: one enters
    every six rolls after the first two."""
    state, _ = play_match(RULES, [RandomBot()] * 6, random.Random(4),
                          {"match_type": "birdcage", "turn_limit": 10})
    result = RULES.result(state)
    assert state.phase is Phase.OVER and result.draw and state.waiting
    inside, waiting, out = list(state.live), list(state.waiting), list(state.out)
    assert all(result.placements[seat] == 1 for seat in inside)
    assert all(result.placements[seat] == 2 for seat in waiting)
    assert all(result.placements[seat] > 2 for seat in out)
    assert sorted(inside + waiting + out) == list(range(6))


def test_an_entrant_called_by_the_last_turn_roll_before_the_time_limit_stays_out() -> None:
    """SH-120 (the called entrant enters during the next turn roll) with the time limit
    (package docstring: entrants still waiting place after those inside): the twelfth roll
    raises the meter and calls entrant 3, but the limit of 12 ends the match before another
    roll; entrant 3 never came in, so shares second place, not first with those inside."""
    s = dataclasses.replace(drafted(3), turn_limit=12, turn_rolls=11, rises=1).clone()
    s = roll_won_by(s, 0)
    assert s.turn_rolls == 12 and s.called is not None and s.waiting == [2]
    s = end_turn(s)
    result = RULES.result(s)
    assert s.phase is Phase.OVER and result.draw
    assert s.waiting == [2] and len(s.players[2].hand) == 0
    assert result.placements == (1, 1, 2)


# -- a forfeit during the draft (the package docstring's forfeit decision) ----------------

def forfeit(s: State, seat: int) -> State:
    return RULES.apply(s, Event.forfeit(seat))


def competitors_drafted(s: State) -> State:
    """Each seat still to draft a Competitor keeps the first one offered (SH-115)."""
    while s.phase is Phase.DRAFT:
        seat = RULES.pending(s).seats[0]
        s = do(s, seat, legal(s, seat)[0])
    return s


def test_no_forfeit_is_taken_before_the_entrant_numbers_are_dealt() -> None:
    """SH-113: before the deal there is no table order to draft on in; the match service
    ends the match instead. A seat out is refused a second forfeit."""
    s = RULES.start({"match_type": "birdcage"}, 4)
    assert not RULES.forfeit_eliminates(s, 1)
    with pytest.raises(IllegalAction) as before_the_deal:
        forfeit(s, 1)
    assert before_the_deal.value.code == "no_forfeit"
    s = forfeit(dealt(4), 1)
    with pytest.raises(IllegalAction) as again:
        forfeit(s, 1)
    assert again.value.code == "seat_out"


def test_the_seat_drafting_a_competitor_forfeits_and_the_pile_passes_on() -> None:
    """SH-115 and the forfeit decision: entrant 2 forfeits while the Competitor pile is in
    front of it; it keeps nothing, the pile passes to entrant 3, and the others draft on;
    entrant 3 opens the first number pile since entrant 2 is out (SH-116)."""
    s = dealt(4, [1, 2, 3, 4])
    s = do(s, 0, {"type": "draft", "competitor": "ox_valdane"})
    assert RULES.pending(s).seats == (1,)
    s = forfeit(s, 1)
    assert s.out == [1] and s.forfeits == [1] and s.phase is Phase.DRAFT
    assert "Player 2 forfeited and is out." in s.journal
    assert RULES.pending(s).seats == (2,) and s.pickers == [2, 3]
    assert len(s.pool) == 5 and RULES.legal_actions(s, 1) == []
    s = competitors_drafted(s)
    assert s.competitors[1] == "" and s.phase is Phase.OPEN
    assert RULES.pending(s).seats == (2,)  # entrant 3: entrant 2 is out


def test_a_seat_waiting_its_turn_is_skipped_and_its_picks_are_set_aside() -> None:
    """SH-116/118 and the forfeit decision: entrant 3 forfeits while entrant 1 picks from
    the open pile. Its Competitor and its pick of the first pile are set aside, not put
    back; it is skipped when the pile passes and when its turn to open comes (entrant 4
    opens after entrant 2); the others end with whole 1-30 decks (SH-117)."""
    s = competitors_drafted(dealt(4, [1, 2, 3, 4]))
    s = do(s, 1, {"type": "open_pile", "number": 7})
    for seat in (1, 2, 3):
        s = do(s, seat, legal(s, seat)[0])
    s = do(s, 0, legal(s, 0)[0])  # pile 7 is done
    s = do(s, 2, {"type": "open_pile", "number": 9})  # entrant 3 opens the second
    s = do(s, 2, legal(s, 2)[0])
    assert s.pickers == [3, 0, 1]
    comp, picks, pool = s.competitors[2], list(s.picks[2]), list(s.pool)
    s = forfeit(s, 2)
    assert s.out == [2] and s.competitors[2] == comp and s.picks[2] == picks
    assert s.pool == pool and len(s.piles[9]) == 5  # nothing goes back
    assert f"{CATALOG.competitors[comp].name}'s picks are set aside." in s.journal
    assert s.pickers == [3, 0, 1] and RULES.pending(s).seats == (3,)
    for seat in (3, 0, 1):
        s = do(s, seat, legal(s, seat)[0])
    assert s.phase is Phase.OPEN and RULES.pending(s).seats == (3,)  # entrant 4
    s = do(s, 3, legal(s, 3)[0])
    assert s.pickers == [3, 0, 1]  # entrant 3 skipped as the pile passes
    view = RULES.view(s, 0)
    assert view["forfeited"] == [2] and view["draft"]["picked"][2] == picks
    s = draft_to_the_end(s)
    for seat in (0, 1, 3):
        assert [c.number for c in s.decks[seat]] == list(range(1, 31))
        assert len(s.picks[seat]) == 27
    assert s.decks[2] == () and s.players[2].deck == [] and len(s.picks[2]) == 2
    assert s.live == [0, 1] and s.waiting == [3]  # SH-119: entrant 3 never enters


def test_the_opener_forfeits_and_the_next_player_to_its_right_opens() -> None:
    """SH-118 decision with the forfeit decision: entrant 2 was to open the first pile;
    entrant 3 opens it instead, and entrant 4 the next (the openers go on to the right)."""
    s = competitors_drafted(dealt(4, [2, 1, 4, 3]))  # seats by entrant: 1, 0, 3, 2
    assert RULES.pending(s).seats == (0,)  # entrant 2
    s = forfeit(s, 0)
    assert s.phase is Phase.OPEN and RULES.pending(s).seats == (3,)  # entrant 3
    s = do(s, 3, {"type": "open_pile", "number": 1})
    assert s.pickers == [3, 2, 1]  # entrants 3, 4, 1
    for seat in (3, 2, 1):
        s = do(s, seat, legal(s, seat)[0])
    assert RULES.pending(s).seats == (2,)  # entrant 4


@pytest.mark.parametrize(("entrant", "inside", "waiting"), [
    (1, [1, 2], [3]),  # entrants 2 and 3 start
    (2, [0, 2], [3]),  # entrants 1 and 3 start
    (4, [0, 1], [2]),
])
def test_a_forfeit_during_the_draft_leaves_the_two_lowest_entrants_still_in_to_start(
        entrant: int, inside: list[int], waiting: list[int]) -> None:
    """SH-119 with the forfeit decision: the forfeiter never enters the cage; the two
    lowest entrant numbers still in start inside, draw three and roll; the others wait in
    entrant order for the meter's call (SH-120)."""
    s = forfeit(dealt(4, [1, 2, 3, 4]), entrant - 1)
    s = draft_to_the_end(s)
    assert s.live == inside and s.waiting == waiting and s.phase is Phase.ROLL
    assert [len(s.players[seat].hand) for seat in inside] == [3, 3]
    assert s.players[entrant - 1].hand == [] and s.players[entrant - 1].deck == []
    assert len(RULES.sample_chance(s, random.Random(1))["dice"]) == 2  # the two inside
    # Nothing hidden reaches another seat: no view shows a hand or deck card not its own.
    for viewer in (*range(4), None):
        view = RULES.view(s, viewer)
        for p in view["players"]:
            assert p["hand"] is None or p["seat"] == viewer
            assert all(card is None or p["seat"] == viewer for card in p["deck_bottom"])
    guess = RULES.determinize(s, entrant - 1, random.Random(2))
    assert guess.decks[entrant - 1] == () and guess.live == s.live


def test_the_last_picker_of_the_last_pile_forfeits_and_the_match_starts() -> None:
    """SH-117/119: the draft ends when the forfeiter was the one still to pick from the
    27th pile; the others' decks are whole and shuffled, the forfeiter has none."""
    s = dealt(3, [1, 2, 3])
    while not (s.phase is Phase.PICK and len(s.piles) == 1 and len(s.pickers) == 1):
        seat = RULES.pending(s).seats[0]
        s = do(s, seat, legal(s, seat)[0])
    last = s.pickers[0]
    s = forfeit(s, last)
    assert s.phase is Phase.SETUP and sorted(s.shuffles) == [o for o in range(3) if o != last]
    assert s.decks[last] == () and len(s.picks[last]) == 26
    s = draft_to_the_end(s)
    assert s.live == [o for o in range(3) if o != last] and s.waiting == []


def test_forfeits_during_the_draft_that_leave_one_player_make_them_the_winner() -> None:
    """SH-125 with the forfeit decision: in a three-seat Birdcage entrant 3 forfeits
    while drafting and entrant 1 while waiting its turn; entrant 2 is the last one left
    and wins, the last one out placed second."""
    s = dealt(3, [1, 2, 3])
    s = do(s, 0, legal(s, 0)[0])
    s = do(s, 1, legal(s, 1)[0])
    s = forfeit(s, 2)
    assert RULES.pending(s).kind is PendingKind.DECISION and s.phase is Phase.OPEN
    s = do(s, 1, {"type": "open_pile", "number": 3})
    s = do(s, 1, legal(s, 1)[0])
    s = forfeit(s, 0)
    result = RULES.result(s)
    assert s.phase is Phase.OVER and result is not None
    assert result.winners == (1,) and not result.draw and result.placements == (2, 1, 3)
    assert result.summary.endswith("is the last left standing! (last_standing)")
    assert RULES.view(s, None)["forfeited"] == [2, 0]
