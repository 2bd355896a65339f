"""Seeded random playouts, per match type, with the invariants checked at every step.

SHOWDOWN_PLAYOUTS sets how many games per match type (default 50; CI runs 1000).
Conservation, liveness, input purity and replay are checked at every step of every game;
the views and redactions of every seat are checked at every step of the first two games
of each match type, and the views at every tenth step (and the end) of the rest: building
every view is what costs.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re

import pytest

from engine.games.supershow import RULES
from engine.games.supershow.cards import CATALOG
from engine.games.supershow.match import MATCH_TYPES
from engine.games.supershow.state import Phase, State
from engine.protocol import Event, EventKind, PendingKind

PLAYOUTS = int(os.environ.get("SHOWDOWN_PLAYOUTS", "50"))
KEYS = sorted(CATALOG.competitors)
DRAFTING = (Phase.DRAFT, Phase.OPEN, Phase.PICK)
ID = re.compile(r'"([A-F]\d\d)"')


def hidden_from(state: State, viewer: int | None) -> set[str]:
    """Card ids the viewer may not see: other hands and every deck, but for the cards that
    went under a deck in the viewer's sight (SH-023/045; the owner's own, SH-063)."""
    hidden: set[str] = set()
    for seat, p in enumerate(state.players):
        assert len(p.tail) <= len(p.deck)
        hidden |= set(p.deck) - {c for c, seen in p.under() if seen or seat == viewer}
        if seat != viewer:
            hidden |= set(p.hand)
    return hidden


def check_conservation(state: State) -> None:
    """SH-001/050: every card is in exactly one place, 30 per seat."""
    for seat, p in enumerate(state.players):
        places = p.deck + p.hand + p.discard + p.all_in_play()
        if not state.decks[seat]:
            assert not places  # a Birdcage deck still being drafted
            continue
        if state.played and state.played[0] == "ABCDEF"[seat]:
            places.append(state.played)
        assert len(places) == 30 and len(set(places)) == 30, (seat, state.phase)
        assert {c[0] for c in places} == {"ABCDEF"[seat]}


def check_views(state: State) -> dict[int | None, set[str]]:
    """No view shows a card its viewer may not see (a search shows its own choices)."""
    seen: dict[int | None, set[str]] = {}
    for viewer in [*state.seats, None]:
        view = RULES.view(state, viewer)
        searchable = {c["id"] for c in view["search"] or []}
        shown = set(ID.findall(json.dumps(view)))
        assert not (shown - searchable) & hidden_from(state, viewer), viewer
        seen[viewer] = shown
    return seen


def options_for(match_type: str, seed: int, rng: random.Random) -> tuple[dict, int]:
    mtype = MATCH_TYPES[match_type]
    n = rng.randint(mtype.min_seats, mtype.seats) if mtype.min_seats else mtype.seats
    options: dict = {"match_type": match_type,
                     "competitors": [rng.choice(KEYS) for _ in range(n)],
                     "turn_limit": 10 + seed % 60}
    if match_type in ("handicap", "tag_team"):
        # SH-082/090: the team of two runs single Competitors (in a Handicap, all three).
        singles = [k for k in KEYS if CATALOG.competitors[k].kind == "single"]
        picked = 3 if match_type == "handicap" else 2
        options["competitors"][:picked] = [rng.choice(singles) for _ in range(picked)]
    if seed % 7 == 2 and not mtype.birdcage:
        options["ringside"] = [next(k for k in KEYS if k != c) for c in options["competitors"]]
    if match_type == "tag_team":
        # SH-090/096: the third seat runs a printed Tag Team, or two singles.
        teams = [k for k in KEYS if CATALOG.competitors[k].kind == "tag_team"]
        options["competitors"][2] = rng.choice(teams)
        if "ringside" in options:
            options["ringside"][2] = None
    if seed % 5 == 1:
        # SH-126: an extra Competitor, not one in the match nor a ringside companion
        taken = options["competitors"] + options.get("ringside", [])
        options["referee"] = rng.choice([k for k in KEYS if k not in taken])
    if seed % 3 == 0:
        options["count_outs"] = "off" if mtype.birdcage else rng.choice(["on", "off"])  # SH-112
    if seed % 4 == 0:
        options["dq"] = rng.choice(["on", "off"])
    return options, n


def draft_forfeit_steps(seed: int, match_type: str, n: int, forfeits: bool) -> set[int]:
    """The Birdcage draft decisions (counted from 0) before which a seat forfeits: one in
    every other game, a second in every fourth, at steps the seed picks among the first
    27 * n (the draft takes more). Elsewhere, and in the draft, no other forfeit comes:
    the 3% a step of the rest would end most drafts with one player left."""
    if not forfeits or not MATCH_TYPES[match_type].birdcage or seed % 2:
        return set()
    span = 27 * n
    return {seed * 37 % span} | ({seed * 53 % span + 1} if seed % 4 == 0 else set())


def playout(seed: int, match_type: str = "one_on_one", forfeits: bool = False) -> int:
    """`forfeits`: now and then a seat still in forfeits, at any step (Elimination); in a
    Birdcage, during its draft too (`draft_forfeit_steps`). How many forfeits came during
    a draft."""
    rng = random.Random(seed)
    options, n = options_for(match_type, seed, rng)
    state = RULES.start(options, n)
    log: list[Event] = []
    draft_steps = draft_forfeit_steps(seed, match_type, n, forfeits)
    drafted, draft_forfeits = 0, []  # draft decisions made; the seats that forfeited in it
    full = seed < 2
    seen: dict[int | None, set[str]] | None = check_views(state)
    while True:
        pending = RULES.pending(state)
        if pending.kind is PendingKind.END:
            break
        assert len(log) < RULES.spec.longest_game
        in_ = [seat for seat in state.seats if seat not in state.out
               and RULES.forfeit_eliminates(state, seat)]
        drafting = state.phase in DRAFTING
        if pending.kind is PendingKind.CHANCE:
            event = Event.chance(RULES.sample_chance(state, rng))
        elif drafting and in_ and drafted in draft_steps:
            draft_steps.discard(drafted)
            event = Event.forfeit(rng.choice(in_))
            draft_forfeits.append(event.seat)
        elif forfeits and in_ and not drafting and rng.random() < 0.03:
            event = Event.forfeit(rng.choice(in_))
        else:
            assert len(pending.seats) == 1
            seat = pending.seats[0]
            actions = RULES.legal_actions(state, seat)
            assert actions, (seat, state.phase)
            event = Event.decision(seat, rng.choice(actions))
            drafted += drafting
        snapshot = copy.deepcopy(state, {id(state.decks): state.decks}) \
            if len(log) % 10 == 0 else None
        after = RULES.apply(state, event)
        if snapshot is not None:
            assert snapshot == state, "apply mutated its input"
        seen_after = None
        if full:
            assert seen is not None
            seen_after = check_views(after)
            for viewer in [*state.seats, None]:
                redacted = set(ID.findall(json.dumps(RULES.redact(state, event, viewer))))
                assert redacted <= seen[viewer] | seen_after[viewer], (viewer, event)
        elif len(log) % 10 == 0 or RULES.pending(after).is_over:
            check_views(after)
        check_conservation(after)
        assert not set(after.forfeits) & set(RULES.pending(after).seats)
        if event.kind is EventKind.FORFEIT:
            check_views(after)
            assert event.seat in after.out and event.seat in RULES.view(after, None)["forfeited"]
            assert "forfeited and is out." in " ".join(RULES.narrate(state, event))
        log.append(event)
        state, seen = after, seen_after
    replayed = RULES.replay(options, n, (Event.from_json(e.to_json()) for e in log))
    assert replayed == state
    for seat in draft_forfeits:  # no deck, never inside nor waiting to enter (SH-119/120)
        assert not state.decks[seat] and seat not in state.live + state.waiting
        assert not state.players[seat].turns
    result = RULES.result(state)
    assert result is not None and min(result.placements) == 1
    assert len(result.placements) == n
    if state.forfeits:  # SH-081: the eliminated after those still in, the last out best
        out = [seat for seat in state.out if seat not in result.winners]
        assert [result.placements[seat] for seat in out] == sorted(
            (result.placements[seat] for seat in out), reverse=True)
    return len(draft_forfeits)


@pytest.mark.parametrize("match_type", sorted(MATCH_TYPES))
def test_random_playouts_keep_every_invariant(match_type: str) -> None:
    """SH-001/002/007/026/048/050 and every match type: conservation, hiding, replay,
    liveness, termination."""
    for seed in range(PLAYOUTS):
        playout(seed, match_type)


@pytest.mark.parametrize("match_type", sorted(k for k, m in MATCH_TYPES.items() if m.elimination))
def test_random_playouts_with_forfeits_keep_every_invariant(match_type: str) -> None:
    """The forfeit decision (package docstring), SH-072/081/106/124: a seat forfeiting at
    any step is eliminated, never asked again, its cards conserved and hidden; the match
    plays on to its end and replays to the same state. In a Birdcage some forfeit during
    the draft (SH-115..119): the others draft on, whole decks, the forfeiter never in."""
    in_drafts = sum(playout(seed, match_type, forfeits=True) for seed in range(PLAYOUTS))
    assert in_drafts or not MATCH_TYPES[match_type].birdcage or not PLAYOUTS
