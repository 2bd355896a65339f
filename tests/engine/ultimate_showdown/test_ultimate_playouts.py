"""Seeded random playouts at 3, 4 and 8 players: no secret leaks before its reveal,
replay equals the live state, legal actions are never empty for a pending seat, every
game ends, and the Contenders are all accounted for at the start of each round.

SHOWDOWN_PLAYOUTS sets the number of games (default 50; CI sets 1000).
"""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import replace
from typing import Any

import pytest

from engine.games.ultimate_showdown import RULES
from engine.games.ultimate_showdown.state import SPACES, Phase, State, pairing
from engine.protocol import Event, PendingKind, replay_json
from tests.json_values import strings

PLAYOUTS = int(os.environ.get("SHOWDOWN_PLAYOUTS", "50"))
ALL = sorted(RULES.cards.contender_ids)
NAMES = {c: RULES.cards.contenders[c].name for c in ALL}
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
SECRET = {"vote_challenge", "play_contenders", "bet", "vote_match", "discard", "vote_player"}


def known(state: State, viewer: int | None) -> set[str]:
    """Contenders `viewer` may see now: its own hand and boxes, and everything public."""
    seen = {*state.discard, *state.kept, *state.slots}
    seen |= {c for r in state.history for c in r.slots}
    if viewer is not None and state.hands:
        seen |= set(state.hands[viewer])
        box = state.boxes[viewer] if state.boxes else None
        if box:
            seen |= {*box[0], *box[1]}
    return seen


def hidden(state: State, viewer: int | None) -> set[str]:
    return set(ALL) - known(state, viewer)


def perturb(state: State, viewer: int | None) -> State:
    """Change every secret of the other seats that is not yet revealed."""
    def flip(ballots: tuple[Any, ...], options: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(b if s == viewer or b is None else options[1 - options.index(b)]
                     for s, b in enumerate(ballots))

    out = state
    if state.phase is Phase.CHALLENGE_VOTE:
        out = replace(out, challenge_ballots=flip(state.challenge_ballots, SPACES))
    if state.phase is Phase.MATCH:
        out = replace(out, ballots=flip(state.ballots, pairing(state.match, state.winners)))
    if state.phase is Phase.SUDDEN_DEATH and state.sudden:
        sd = state.sudden
        out = replace(out, sudden=replace(sd, ballots=flip(sd.ballots, (sd.orange, sd.blue))))
    if state.phase in (Phase.BET, Phase.MATCH):
        bets = tuple(b if s == viewer else tuple(None if c is None else c % 8 + 1 for c in b)
                     for s, b in enumerate(state.bets))
        others = [s for s in range(state.n) if s != viewer]
        owners = tuple(o if o is None or o == viewer else others[(others.index(o) + 1)
                                                                 % len(others)]
                       for o in state.owners)
        out = replace(out, bets=bets, owners=owners)  # type: ignore[arg-type]
    return out


def check_views(state: State, viewer: int | None) -> None:
    view = RULES.view(state, viewer)
    shown = set(QUOTED.findall(json.dumps(view, ensure_ascii=False)))  # keys too: harmless
    leaked = [c for c in hidden(state, viewer) if c in shown or NAMES[c] in shown]
    assert not leaked, f"view of {viewer} leaks {leaked}"
    changed = perturb(state, viewer)
    if changed is not state:
        assert RULES.view(changed, viewer) == view, "a secret choice shows"


def check_event(before: State, after: State, event: Event, n: int) -> None:
    """Redaction for the actor, the next seat and a spectator; narration for everybody."""
    seat = event.seat
    viewers = [None, *range(n)] if seat is None else [None, seat, (seat + 1) % n]
    for viewer in viewers:
        shown = RULES.redact(before, event, viewer)
        action = event.action or {}
        if event.kind is EventKind_DECISION and event.seat != viewer \
                and action.get("type") in SECRET:
            assert shown["action"] == {"type": action["type"], "hidden": True}
        leaked = set(strings(shown)) & (hidden(before, viewer) & hidden(after, viewer))
        assert not leaked, f"redact for {viewer} leaks {leaked}"
    told = " ".join(RULES.narrate(before, event))
    for card in hidden(after, None):
        assert NAMES[card] not in told, (NAMES[card], told)


EventKind_DECISION = "decision"


def check_conservation(state: State) -> None:
    if state.phase is Phase.CHOOSE_SIDES:
        held = [*state.deck, *(c for h in state.hands for c in h), *state.discard,
                *(c for h in state.hidden_discard for c in h), *state.kept]
        assert sorted(held) == ALL


def playout(seed: int, n: int) -> None:
    rng = random.Random(seed)
    state = RULES.start({}, n)
    log: list[dict[str, Any]] = []
    check_at = rng.randrange(50, 150)
    while not (pending := RULES.pending(state)).is_over:
        if pending.kind is PendingKind.DECISION:
            for seat in pending.seats:
                assert RULES.legal_actions(state, seat), "a pending seat has no action"
            idle = (len(log) % n)
            if idle not in pending.seats:
                assert RULES.legal_actions(state, idle) == []
            seat = rng.choice(pending.seats)
            event = Event.decision(seat, rng.choice(RULES.legal_actions(state, seat)))
        else:
            event = Event.chance(RULES.sample_chance(state, rng))
        after = RULES.apply(state, event)
        check_event(state, after, event, n)
        state = after
        log.append(event.to_json())
        assert len(log) <= RULES.spec.longest_game
        check_views(state, (None, *range(n))[len(log) % (n + 1)])
        check_conservation(state)
        if len(log) == check_at:
            assert replay_json(RULES, {}, n, log) == state
            for seat in range(n):
                guess = RULES.determinize(state, seat, rng)
                assert RULES.view(guess, seat) == RULES.view(state, seat)
    assert replay_json(RULES, {}, n, log) == state
    result = RULES.result(state)
    assert result is not None and 1 in result.placements and len(result.winners) == 1
    assert all(f"round_{i}" in result.figures[s] for s in range(n) for i in range(1, 6))


@pytest.mark.parametrize("block", range(6))
def test_seeded_random_playouts_keep_every_invariant(block: int) -> None:
    """Random legal play at 3, 4 and 8 players (seed i plays (3, 4, 8)[i % 3])."""
    for seed in range(block, PLAYOUTS, 6):
        playout(seed, (3, 4, 8)[seed % 3])


def test_the_leak_checks_catch_a_leak(monkeypatch: pytest.MonkeyPatch, ut: Any) -> None:
    """The checker itself: a view showing another seat's hand or ballot fails it."""
    from engine.games.ultimate_showdown import view as views

    state = ut.decide(ut.sides(ut.fresh(4)), 1, {"type": "vote_challenge", "space": "B"})
    check_views(state, 0)
    real = views.render_view

    def leaky_hand(rules: Any, s: State, viewer: int | None) -> dict[str, Any]:
        return {**real(rules, s, viewer), "peek": list(s.hands[1])}

    monkeypatch.setattr(views, "render_view", leaky_hand)
    with pytest.raises(AssertionError):
        check_views(state, 0)

    def leaky_vote(rules: Any, s: State, viewer: int | None) -> dict[str, Any]:
        return {**real(rules, s, viewer), "peek": list(s.challenge_ballots)}

    monkeypatch.setattr(views, "render_view", leaky_vote)
    with pytest.raises(AssertionError):
        check_views(state, 0)
