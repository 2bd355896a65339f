"""What each seat may see: views, redacted events and resampled hidden cards.

Hidden: a hand (from the rival and spectators), every deck's order (from everyone),
face-down spots before they are revealed (from the rival and spectators). Everything
else (positions, revealed stacks, discard piles, Performance Stacks) is public.
"""

from __future__ import annotations

import random

from engine.games.superstar_showdown.board import BOARD
from engine.games.superstar_showdown.cards import ROSTER, CardType
from engine.games.superstar_showdown.event import (
    BONUS_CARDS,
    MATCH_CARDS,
    STIPULATIONS,
    draft_order,
)
from engine.games.superstar_showdown.state import (
    COLOURS,
    SEATS,
    ActionType,
    Phase,
    State,
)
from engine.protocol import JSON, Event, EventKind

PROMPTS = {
    Phase.PLAY: "Play three cards face down to positions 1, 2 and 3.",
    Phase.REVERSAL: "Your Reversal card lost: play a card from hand that beats the rival's, "
                    "or decline (you decline when none does).",
    Phase.ACTIONS: "Take the next Action of the winning card, or finish it.",
    Phase.MOTION: "Move one square at a time, bounce off the ropes, or stop.",
    Phase.SHOVE: "You ended on a Superstar: shove them one square, or leave them.",
    Phase.HIT: "You are hit: Give Up a Block from hand, or Give Up cards one at a time "
               "from hand or deck.",
    Phase.CORNER: "Your Corner Attack ended side by side with the rival: hit them with it, or not.",
    Phase.STUN: "Stun! Play an extra card from your hand.",
    Phase.PIN: "You have more winning cards and stand side by side: Pin or not?",
    Phase.KICK_OUT: "You are Pinned: Give Up a Kick Out card from hand, or take the Three Count.",
    Phase.TAG: "End of the round: tag out with a teammate in your Tag Zone, or stay in.",
    Phase.DRAFT: "Draft a Superstar for your team.",
    Phase.SEND_IN: "Choose face down who goes into the ring (the first one starts as Active).",
    Phase.BONUS: "Spend your whole Performance Stack: Bonus cards for your Superstars, "
                 "the rest as bonus Ranking Points.",
}
NAMES = ("Red", "Blue")


def card_json(state: State, card_id: str) -> JSON:
    return state.card(card_id).to_json(card_id)


def _cards(state: State, ids: list[str]) -> list[JSON]:
    return [card_json(state, c) for c in ids]


def side_view(state: State, seat: int, viewer: int | None) -> JSON:
    """One side (team) as the team `viewer` sees it."""
    side = state.sides[seat]
    own = viewer == seat
    return {
        "seat": seat,
        "team": seat,
        "players": state.players(seat),
        "colour": COLOURS[seat],
        "superstar": ROSTER[side.superstar].to_json() if side.superstar else None,
        "bench": [{"superstar": ROSTER[m.superstar].to_json(),
                   "position": list(m.pos) if m.pos is not None else None,
                   "in_tag_zone": m.pos in BOARD.tag_zones[seat],
                   "deck_count": len(m.deck) + len(m.discard)} for m in side.bench],
        "falls": side.falls,
        "position": list(side.pos),
        "square": str(BOARD.kind(side.pos)),
        "in_ring": BOARD.in_ring(side.pos),
        "hand": _cards(state, sorted(side.hand)) if own else None,
        "hand_count": len(side.hand),
        "deck_count": len(side.deck),
        "discard": _cards(state, side.discard),
        "discard_count": len(side.discard),
        "spots_played": side.committed,
        "spots": [
            {"position": p + 1,
             "card": card_json(state, card) if own else None}
            for p, card in enumerate(side.spots) if card is not None
        ],
        "stacks": [_cards(state, stack) for stack in side.stacks],
        "extras": _cards(state, side.extras),
        "performance_stack": _cards(state, side.performance),
        "performance_count": len(side.performance),
        "winning_cards": side.wins,
        "setup_bonus": {"move": side.bonus_move, "power": side.bonus_power},
        "pins": side.pins,
        "kick_outs": side.kick_outs,
    }


def _outcome_json(state: State, record: JSON) -> JSON:
    """A settled position. Its cards may have been reshuffled into a deck since, so they
    are shown without ids: the id would tell where a now hidden card came from."""
    cards = [[state.card(c).to_json(None) for c in ids] for ids in record["cards"]]
    return {**record, "cards": cards}


def view(state: State, viewer: int | None, deciders: tuple[int, ...], chance: bool,
         available: list[str], result: JSON | None) -> JSON:
    """The whole table from one seat (None: a spectator); teammates share what they see."""
    c, m, hit = state.current, state.motion, state.hit
    team = state.teams[viewer] if viewer is not None else None
    decision = None
    if deciders:
        decision = {"seats": list(deciders), "phase": str(state.phase),
                    "prompt": PROMPTS.get(state.phase, "")}
    return {
        "game": "superstar_showdown",
        "viewer": viewer,
        "round": state.round,
        "round_limit": state.round_limit,
        "phase": str(state.phase),
        "position": state.position + 1 if state.position < 3 else None,
        "waiting_for": "chance" if chance else ("decision" if deciders else "nobody"),
        "decision": decision,
        "board": BOARD.to_json(),
        "positions": [list(side.pos) for side in state.sides],
        "sides": [side_view(state, seat, team) for seat in SEATS],
        "teams": list(state.teams),
        "match_kind": str(state.kind),
        "stipulation_effect": state.effect,
        "count_needed": state.count_needed,
        "current": None if c is None else {
            "seat": c.seat, "card": card_json(state, c.card), "position": c.position + 1,
            "extra": c.extra, "blocked": c.blocked, "move": c.move, "attack": c.attack,
            "power_bonus": c.power_bonus, "used": [str(a) for a in c.used],
            "available": available, "momentum": c.momentum_line,
        },
        "motion": None if m is None else {
            "mover": m.mover, "member": m.member, "mode": str(m.mode),
            "squares_left": m.left, "line": m.line,
            "on_ropes": m.on_ropes, "bouncing": m.bounce_dir is not None,
            "bounces": m.bounces,
        },
        "hit": None if hit is None else {
            "attacker": hit.attacker, "target": 1 - hit.attacker, "power": hit.power,
            "given": hit.given, "stunned": hit.stunned,
        },
        "pin": None if state.pinner is None else {
            "pinner": state.pinner, "pinned": 1 - state.pinner, "count": state.count,
        },
        "showdown": [_outcome_json(state, r) for r in state.outcomes],
        "last_showdown": [_outcome_json(state, r) for r in state.last_outcomes],
        "result": result,
        **({"event": event_view(state, team)} if state.event is not None else {}),
    }


def _event_phase(state: State) -> str:
    if state.phase is Phase.DRAFT:
        return "draft"
    if state.phase in (Phase.SETUP, Phase.SEND_IN):
        return "send_in"
    if state.phase is Phase.BONUS:
        return "bonus"
    if state.phase is Phase.OVER:
        return "over"
    return "match"


def event_view(state: State, viewer_team: int | None) -> JSON:
    """The Event's public table: draft, Matches, Ranking Points (SS-130, SS-134..SS-139)."""
    ev = state.event
    assert ev is not None
    phase = _event_phase(state)
    teams = []
    for t in SEATS:
        match_points, bonus_points = ev.totals(t)
        choice = state.send_in[t]
        teams.append({
            "team": t, "name": NAMES[t], "seats": state.players(t),
            "superstars": list(ev.rosters[t]),
            "match_points": match_points, "bonus_points": bonus_points,
            "total": match_points + bonus_points, "matches_won": ev.wins(t),
            "bonus_cards": [{"card": b, "superstar": ev.rosters[t][slot], "price":
                             BONUS_CARDS[b].price, "name": BONUS_CARDS[b].card.name}
                            for slot, cards in enumerate(ev.bonus[t]) for b in cards],
            "stack_left": ev.stack_left[t] if phase == "bonus" else 0,
            "sent_in_chosen": phase == "send_in" and choice is not None,
            "sent_in": ([ev.rosters[t][j] for j in choice]
                        if phase == "send_in" and choice is not None and viewer_team == t
                        else None),
        })
    matches = []
    for i, rec in enumerate(ev.matches):
        if phase == "over" or i < ev.current:
            status = "done"
        elif i > ev.current:
            status = "pending"
        else:
            status = {"draft": "pending", "send_in": "pending", "bonus": "bonus"}.get(
                phase, "playing")
        matches.append({
            "number": i + 1, "match": rec.card,
            "match_title": MATCH_CARDS[rec.card].title if rec.card else None,
            "stipulation": rec.stipulation,
            "stipulation_title": STIPULATIONS[rec.stipulation].title if rec.stipulation
            else None,
            "stipulation_text": STIPULATIONS[rec.stipulation].text if rec.stipulation
            else None,
            "status": status, "winner": rec.winner if rec.finished else None,
            "draw": rec.draw, "points": list(rec.points),
            "bonus_points": list(rec.bonus_points), "stacks": list(rec.stacks),
            "sent": [[ev.rosters[t][j] for j in sent] if sent is not None else None
                     for t, sent in enumerate(rec.sent)],
            "bought": [list(b) for b in rec.bought],
        })
    order = (draft_order(ev.first_pick, ev.plan.superstars_per_team)
             if ev.first_pick is not None else [])
    return {
        "preset": ev.plan.preset, "phase": phase,
        "superstars_per_team": ev.plan.superstars_per_team,
        "teams": teams, "matches": matches,
        "current": None if phase == "over" else ev.current,
        "over": phase == "over", "winner": state.winner if phase == "over" else None,
        "draft": {"first_pick": ev.first_pick, "order": order, "picks": len(ev.picks),
                  "available": sorted(k for k in ROSTER
                                      if k not in ev.rosters[0] + ev.rosters[1])},
        "pool": ([BONUS_CARDS[b].to_json() for b in ev.pool] if phase == "bonus" else []),
        "roster": {k: star.to_json() for k, star in ROSTER.items()},  # the box, all public
    }


def redact(event: Event, viewer: int | None, teams: tuple[int, ...] = (0, 1)) -> JSON:
    """A shuffle's order is secret from everyone; face-down plays and face-down Send Ins
    from all but the team that made them."""
    if event.kind is EventKind.CHANCE:
        outcome = event.outcome or {}
        shuffle = outcome.get("shuffle") if isinstance(outcome, dict) else None
        if not isinstance(shuffle, dict):
            return event.to_json()  # coin flips and drawn cards are public
        order = shuffle.get("order")
        count = len(order) if isinstance(order, list) else 0
        public = {"seat": shuffle.get("seat"), "cards": count}
        if shuffle.get("member") is not None:
            public["member"] = shuffle.get("member")
        return {"kind": "chance", "outcome": {"shuffle": public}}
    action = event.action or {}
    own = viewer is not None and event.seat is not None and teams[viewer] == teams[event.seat]
    kind = action.get("type")
    if kind in (ActionType.PLAY_SPOTS, ActionType.SEND_IN) and not own:
        return {"kind": "decision", "seat": event.seat, "action": {"type": kind}}
    return event.to_json()


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A state `seat` cannot tell apart: decks reshuffled, the rival's hidden cards redealt
    (keeping a Block in the rival's hand when the table knows it holds one)."""
    s = state.clone()
    seat = s.teams[seat]
    mine = s.sides[seat]
    rng.shuffle(mine.deck)
    for side in s.sides:
        for member in side.bench:
            rng.shuffle(member.deck)
    rival = s.sides[1 - seat]
    if s.phase is Phase.SEND_IN and s.send_in[1 - seat] is not None and s.event is not None:
        slots = list(range(len(s.event.rosters[1 - seat])))  # their choice is face down
        rng.shuffle(slots)
        s.send_in[1 - seat] = slots[:s.event.card().per_side]
    face_down = [p for p, card in enumerate(rival.spots) if card is not None]
    pool = rival.hand + rival.deck + [rival.spots[p] or "" for p in face_down]
    pool.sort()
    rng.shuffle(pool)
    n_hand = len(rival.hand)
    if _holds_a_block(s, seat):
        blocks = [i for i, c in enumerate(pool) if s.card(c).type is CardType.BLOCK]
        if n_hand and blocks and min(blocks) >= n_hand:  # none in the hand: swap one in
            i, j = rng.choice(blocks), rng.randrange(n_hand)
            pool[i], pool[j] = pool[j], pool[i]
    rival.hand = pool[:n_hand]
    for i, p in enumerate(face_down):
        rival.spots[p] = pool[n_hand + i]
    rival.deck = pool[n_hand + len(face_down):]
    return s


def _holds_a_block(state: State, seat: int) -> bool:
    """Whether the table knows the rival of `seat` (a side) holds a Block: it is being
    hit for more cards than its hand, deck and discard hold, and a target that cannot
    pay is Knocked Out at once unless it has a Block to give (rules._start_hit)."""
    hit, rival = state.hit, state.sides[1 - seat]
    return (state.phase is Phase.HIT and hit is not None and hit.attacker == seat
            and len(rival.hand) + len(rival.deck) + len(rival.discard) < hit.power - hit.given)
