"""What each seat may see: views, redacted events and resampled hidden cards.

Hidden: a hand (from everyone but its owner), every deck's order and content (from
everyone; a searching player sees only the cards it may pick). Everything else (the
Competitors, discard piles, cards in play, dice, the Crowd Meter) is public.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from engine.games.supershow.cards import CATALOG, Card, Do
from engine.games.supershow.match import MATCH_TYPES
from engine.games.supershow.state import (
    ActionType,
    Phase,
    Player,
    State,
    card_id,
    id_number,
)
from engine.protocol import JSON, Event, EventKind

PROMPTS = {
    "turn": "You won the turn roll: play one card (a Lead any time, a Follow-Up on a Lead, "
            "a Finish on a Follow-Up) or bury one card from your discard pile.",
    "stop": "A card is played against you: STOP it with a matching card, or let it hit.",
    "protect": "A card hits your team-mate unless you PROTECT (then bury your whole hand).",
    "interfere": "You may stop a card between two others, but that is interference: "
                 "you would be disqualified.",
    "team_up": "A Finish Roll is coming: Team Up (your cards in play against its target "
               "are discarded; the same skill adds +1)?",
    "save": "Your team-mate must break out: roll a Save with each Breakout Roll?",
    "double": "You and your partner rolled the same skill: Double Team?",
    "starter": "You and your team-mate tied for the turn: choose who starts.",
    "draft": "Keep one Competitor from the pile; the rest pass to the right.",
    "open": "Choose one of the number piles to draft next.",
    "pick": "Take one card from the open pile; the rest pass to the right.",
    "choose": "An effect asks you to pick a card.",
    "discard_down": "You hold more than 10 cards: discard one.",
}


@functools.cache
def _design_json(card: Card) -> JSON:
    return card.to_json(None)


def card_json(state: State, cid: str) -> JSON:
    """A face-up card (the design's part is shared between views: treat it as read-only)."""
    return {**_design_json(state.card(cid)), "id": cid}


def _cards(state: State, ids: list[str]) -> list[JSON]:
    return [card_json(state, c) for c in ids]


def draft_view(state: State) -> JSON | None:
    """The Birdcage draft, all public: piles and picks as card keys, each design once."""
    if state.phase not in (Phase.DRAFT, Phase.OPEN, Phase.PICK):
        return {"done": True, "picked": [list(p) for p in state.picks]}
    keys = {k for pile in state.piles.values() for k in pile} | {
        k for p in state.picks for k in p}
    return {
        "done": False,
        "competitors_left": [CATALOG.competitors[k].to_json() for k in sorted(state.pool)],
        "piles": {str(n): list(pile) for n, pile in sorted(state.piles.items())},
        "open_pile": state.open_pile,
        "picked": [list(p) for p in state.picks],
        "designs": {k: _design_json(CATALOG.library[k]) for k in sorted(keys)},
    }


def deck_bottom(state: State, p: Player, own: bool) -> list[JSON | None]:
    """The cards that went under a deck in sight since its last shuffle, top to bottom:
    a card where the viewer saw it go (its owner sees them all), null where it went face
    down."""
    return [card_json(state, cid) if own or seen else None for cid, seen in p.under()]


def player_view(state: State, seat: int, viewer: int | None,
                who: Callable[[State, int], str]) -> JSON:
    """One seat as `viewer` sees it."""
    p = state.players[seat]
    own = viewer == seat
    return {
        "seat": seat,
        "name": who(state, seat),
        # The Birdcage drafts it into the table's list (SH-115), not the seat's.
        "competitor": CATALOG.competitors[key].to_json()
        if (key := state.competitors[seat] or p.competitor) else None,
        "entrant": state.entrants[seat] if state.entrants else None,
        "waiting": seat in state.waiting,
        # SH-120: the entrant the Birdcage meter called, who comes in at the next turn roll
        "entering": state.called is not None and state.waiting[:1] == [seat],
        "ringside": CATALOG.competitors[companion].to_json()
        if (companion := state.ringside[seat] if state.ringside else None) else None,
        "hand": _cards(state, sorted(p.hand)) if own else None,
        "hand_count": len(p.hand),
        "deck_count": len(p.deck),
        "deck_bottom": deck_bottom(state, p, own),
        "discard": _cards(state, p.discard),
        "in_play": [{"against": opp, "cards": _cards(state, pile)}
                    for opp, pile in sorted(p.in_play.items())],
        "turns": p.turns,
        "mulliganed": p.mulliganed,
        "boosts": dict(sorted(p.boosts.items())),
    }


def view(state: State, viewer: int | None, deciders: tuple[int, ...], asked: str | None,
         chance: bool, search: list[str] | None, result: JSON | None,
         who: Callable[[State, int], str]) -> JSON:
    """The whole table from one seat (None: a spectator)."""
    decision = None
    if deciders:
        task = state.tasks[0] if state.phase is Phase.CHOOSE and state.tasks else None
        decision = {"seats": list(deciders), "asked": asked,
                    "prompt": PROMPTS.get(asked or "", ""),
                    "effect": None if task is None or asked != "choose" else {
                        "do": str(task.effect_do), "left": task.count, "owner": task.owner,
                        "target": task.target, "source": task.source}}
    f = state.finish
    # SH-111: a Birdcage has its own meter from the start (its entrants are dealt later)
    meter = (CATALOG.birdcage_meter if MATCH_TYPES[state.match_type].birdcage
             else CATALOG.crowd_meter)
    return {
        "game": "supershow",
        "match_type": state.match_type,
        "viewer": viewer,
        "phase": str(state.phase),
        "waiting_for": "chance" if chance else ("decision" if deciders else "nobody"),
        "decision": decision,
        "active": state.active,
        "teams": list(state.teams) or None,
        "eliminated": list(state.out),
        "forfeited": list(state.forfeits),
        "count_outs": state.count_outs,
        "dq": state.dq,
        "plan": [{"seat": st.seat, "targets": list(st.targets)} for st in state.plan],
        "offer": list(state.offer),
        "target": state.target,
        "referee": CATALOG.competitors[state.referee].to_json() if state.referee else None,
        "turn_rolls": state.turn_rolls,
        "turn_limit": state.turn_limit,
        "last_turn_roll": [d.to_json() for d in state.last_roll],
        "played": None if state.played is None else card_json(state, state.played),
        "finish": None if f is None else {
            "seat": f.seat, "target": f.target, "card": card_json(state, f.card),
            "roll": f.roll.to_json() if f.roll else None,
            "breakouts": [d.to_json() for d in f.breakouts],
            "team_ups": list(f.team_ups), "savers": list(f.savers),
            "helper_dice": [d.to_json() for d in f.helpers]},
        "crowd_meter": {"level": state.crowd, "in_play": [c.to_json() for c in meter[:state.crowd]],
                        "next": meter[state.crowd].to_json() if state.crowd < len(meter) else None,
                        "size": len(meter)},
        "search": None if search is None else _cards(state, search),
        "draft": None if not state.entrants else draft_view(state),
        "players": [player_view(state, seat, viewer, who) for seat in state.seats],
        "result": result,
    }


def redact(event: Event, viewer: int | None, searcher: int | None) -> JSON:
    """A shuffle's order is secret from everyone; a card picked by a search from all but
    the searcher. Dice and every other decision are public."""
    if event.kind is EventKind.CHANCE:
        outcome = event.outcome or {}
        shuffle = outcome.get("shuffle")
        if isinstance(shuffle, dict):
            order = shuffle.get("order")
            count = len(order) if isinstance(order, list) else 0
            return {"kind": "chance",
                    "outcome": {"shuffle": {"seat": shuffle.get("seat"), "cards": count}}}
        return event.to_json()
    action = event.action or {}
    if (action.get("type") == ActionType.CHOOSE and searcher is not None
            and viewer != searcher):
        return {"kind": "decision", "seat": event.seat, "action": {"type": "choose"}}
    return event.to_json()


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A state `seat` cannot tell apart: its deck reordered, the others' hands redealt.

    A card that went under a deck in sight (a bury, SH-023/024; a Mulligan's shown hand,
    SH-045) stays where it lies until the deck runs down to it or is shuffled; a
    Protect's hand (SH-063) went under face down, so only its owner keeps those cards,
    the others know just how many lie there.

    With constructed decks (SH-050, a secret option) the designs of the others' cards out
    of sight are drawn anew too, each from the designs its number may have: the seat
    knows a rival's deck only by the cards it has in sight now.
    """
    s = state.clone()
    designs = list(s.decks)
    for owner in s.seats:
        p = s.players[owner]
        mine = owner == seat
        sighted = {cid for cid, seen in p.under() if mine or seen}
        unknown = [cid for cid in p.deck if cid not in sighted]
        pool = sorted(unknown if mine else p.hand + unknown)  # own hand: seen, kept
        if s.secret_decks and not mine:
            designs[owner] = _guessed_deck(s, owner, set(pool), rng)
        rng.shuffle(pool)
        if not mine:
            p.hand, pool = pool[:len(p.hand)], pool[len(p.hand):]
        fresh = iter(pool)
        p.deck = [cid if cid in sighted else next(fresh) for cid in p.deck]
    s.decks = tuple(designs)
    _keep_a_find(s, seat, rng)
    return s


def _guessed_deck(s: State, owner: int, unseen: set[str],
                  rng: random.Random) -> tuple[Card, ...]:
    """`owner`'s 30 designs with each card in `unseen` given a design its number allows."""
    competitor = s.competitors[owner]
    return tuple(rng.choice(_designs(n, competitor)) if card_id(owner, n) in unseen
                 else card for n, card in enumerate(s.decks[owner], start=1))


@functools.cache
def _designs(number: int, competitor: str) -> tuple[Card, ...]:
    """The designs a constructed deck of `competitor` may hold as card `number` (SH-050:
    one of each number, and only its own Finishes), in a fixed order."""
    cards = [c for c in CATALOG.library.values() if c.number == number]
    cards += [c for c in CATALOG.finishes.values()
              if c.number == number and c.owner == competitor]
    return tuple(sorted(cards, key=lambda c: c.key))


def _keep_a_find(s: State, seat: int, rng: random.Random) -> None:
    """Another seat choosing from its deck search found a card there (a search that finds
    nothing is skipped): if the redeal put every such card in its hand, one goes back
    into the deck in place of an unknown card, so the guess still has a choice to make."""
    task = s.tasks[0] if s.phase is Phase.CHOOSE and s.tasks else None
    if task is None or task.effect_do is not Do.SEARCH or task.owner == seat:
        return
    p = s.players[task.owner]
    if any(task.finds(s.card(cid)) for cid in p.deck):
        return
    in_hand = sorted(cid for cid in p.hand if task.finds(s.card(cid)))
    sighted = {cid for cid, seen in p.under() if seen}
    slots = [i for i, cid in enumerate(p.deck) if cid not in sighted]
    if in_hand and slots:
        card, at = rng.choice(in_hand), rng.choice(slots)
        p.hand[p.hand.index(card)], p.deck[at] = p.deck[at], card
    elif s.secret_decks and slots:  # guessed designs: give one unseen card a findable one
        rng.shuffle(slots)
        for at in slots:
            number = id_number(p.deck[at])
            found = [d for d in _designs(number, s.competitors[task.owner]) if task.finds(d)]
            if found:
                deck = list(s.decks[task.owner])
                deck[number - 1] = rng.choice(found)
                s.decks = (*s.decks[:task.owner], tuple(deck), *s.decks[task.owner + 1:])
                return
