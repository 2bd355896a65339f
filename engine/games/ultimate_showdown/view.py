"""What each seat may see, the history as each viewer may read it, and determinization.

Hidden: the decks' order, every hand but your own, what each player put face down into
the boxes (and the Box B leftovers), who owns each Contender in the slots (but yours),
secret votes until everyone has voted, and bets until the round is scored.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.games.ultimate_showdown.state import (
    BOXES,
    SEAT_NAMES,
    SPACES,
    STAGES,
    ULTIMATE,
    Phase,
    RoundRecord,
    State,
    Vote,
    box_counts,
    pairing,
    uses_pow,
)
from engine.protocol import JSON, Event, EventKind

if TYPE_CHECKING:
    from engine.games.ultimate_showdown.rules import UltimateShowdownRules

SECRET_ACTIONS = {"vote_challenge", "play_contenders", "bet", "vote_match", "discard",
                  "vote_player"}
PROMPTS = {
    Phase.CHOOSE_SIDES: "You lead this round: pick the side of each Challenge card to use.",
    Phase.CHALLENGE_VOTE: "Vote in secret for Challenge A or B.",
    Phase.PLAY: "Play Contenders face down into Box A (your best) and Box B.",
    Phase.BET: "Place your betting chips face down: Champion, Final and Semi-Final.",
    Phase.MATCH: "Vote in secret for the Contender who wins this match.",
    Phase.DISCARD: "Discard any Contenders you do not want; you then draw back to four.",
    Phase.SUDDEN_DEATH: "Sudden death: vote for the tied player who wins this Challenge.",
}


def _vote(vote: Vote | None) -> JSON | None:
    if vote is None:
        return None
    return {"ballots": list(vote.ballots), "options": list(vote.options),
            "counts": list(vote.counts), "winner": vote.winner, "pow_seat": vote.pow_seat}


def _contenders(rules: UltimateShowdownRules, ids: tuple[str, ...] | list[str]) -> list[JSON]:
    return [rules.cards.contenders[c].to_json() for c in ids]


def _seat(rules: UltimateShowdownRules, state: State, seat: int, pending: tuple[int, ...]
          ) -> JSON:
    points = state.round_points(seat)
    return {
        "seat": seat,
        "name": SEAT_NAMES[seat],
        "score": sum(points),
        "round_points": points,
        "hand_size": len(state.hands[seat]) if state.hands else 0,
        "waiting": seat in pending,
        "bets_placed": sum(b is not None for b in state.bets[seat]) if state.bets else 0,
    }


def _bracket(rules: UltimateShowdownRules, state: State, viewer: int | None) -> JSON | None:
    if not state.slots:
        return None
    slots = [{"slot": i + 1, "contender": rules.cards.contenders[c].to_json(),
              "mine": viewer is not None and state.owners[i] == viewer}
             for i, c in enumerate(state.slots)]
    matches = []
    for m in range(7):
        known = m < 4 or len(state.winners) >= (4 if m < 6 else 6)
        pair = pairing(m, state.winners) if known else (None, None)
        done = m < len(state.winners)
        matches.append({"index": m, "stage": STAGES[m], "orange": pair[0], "blue": pair[1],
                        "winner": state.winners[m] if done else None,
                        "vote": _vote(state.votes[m]) if done else None,
                        "current": state.phase is Phase.MATCH and m == state.match})
    return {"slots": slots, "matches": matches}


def _history(rules: UltimateShowdownRules, record: RoundRecord) -> JSON:
    owner = record.owners[record.champion - 1]
    return {
        "round": record.number,
        "challenge": rules.challenge_of(record.challenge).to_json(),
        "slots": [rules.cards.contenders[c].name for c in record.slots],
        "champion": record.champion,
        "runner_up": record.runner_up,
        "champion_name": rules.cards.contenders[record.slots[record.champion - 1]].name,
        "runner_up_name": rules.cards.contenders[record.slots[record.runner_up - 1]].name,
        "champion_owner": owner,
        "winners": list(record.winners),
        "bets": [dict(zip([str(b) for b in BOXES], bet, strict=True)) for bet in record.bets],
        "points": [{"champion": p[0], "final": p[1], "semi": p[2], "owner": p[3],
                    "total": sum(p)} for p in record.points],
    }


def _challenge_step(rules: UltimateShowdownRules, state: State, viewer: int | None) -> JSON:
    drawn = [{"space": SPACES[i] if state.round != ULTIMATE else "Ultimate", "card": card,
              "front": rules.cards.challenges[card].front.to_json(),
              "back": rules.cards.challenges[card].back.to_json()}
             for i, card in enumerate(state.drawn)]
    ballots = state.challenge_ballots
    return {
        "drawn": drawn if state.phase is Phase.CHOOSE_SIDES else [],
        "choices": [{"space": SPACES[i], "challenge": rules.challenge_of(c).to_json()}
                    for i, c in enumerate(state.choices)] if state.round != ULTIMATE else [],
        "my_ballot": ballots[viewer] if viewer is not None and ballots else None,
        "voted": [b is not None for b in ballots],
        "result": _vote(state.challenge_vote),
    }


def _sudden(rules: UltimateShowdownRules, state: State, viewer: int | None) -> JSON | None:
    sd = state.sudden
    if sd is None:
        return None
    return {"tied": list(sd.tied), "orange": sd.orange, "blue": sd.blue, "queue": list(sd.queue),
            "challenge": rules.challenge_of(sd.challenge).to_json(),
            "voted": [b is not None for b in sd.ballots],
            "my_ballot": sd.ballots[viewer] if viewer is not None else None,
            "votes": [_vote(v) for v in sd.votes], "winner": sd.winner}


def render_view(rules: UltimateShowdownRules, state: State, viewer: int | None) -> JSON:
    """The whole table from one seat (None: a spectator)."""
    pending = rules.pending(state)
    me = viewer if viewer is not None and 0 <= viewer < state.n else None
    boxes = state.boxes[me] if me is not None and state.boxes else None
    ballots = state.ballots
    asked = me is not None and me in pending.seats
    return {
        "game": rules.spec.key,
        "viewer": me,
        "players": state.n,
        "phase": str(state.phase),
        "round": state.round,
        "rounds": ULTIMATE,
        "ultimate": state.round == ULTIMATE,
        "leader": state.leader if state.round else None,
        "pow": {"used": uses_pow(state.n), "holder": state.pow_holder},
        "prompt": PROMPTS.get(state.phase, "") if asked else "",
        "seats": [_seat(rules, state, s, pending.seats) for s in range(state.n)],
        "hand": None if me is None or not state.hands else _contenders(rules, state.hands[me]),
        "challenge_step": _challenge_step(rules, state, me),
        "challenge": rules.challenge_of(state.challenge).to_json() if state.challenge else None,
        "my_boxes": None if boxes is None else {"box_a": _contenders(rules, boxes[0]),
                                                "box_b": _contenders(rules, boxes[1])},
        "played": [b is not None for b in state.boxes],
        "bracket": _bracket(rules, state, me),
        "my_bets": None if me is None or not state.bets else
        dict(zip([str(b) for b in BOXES], state.bets[me], strict=True)),
        "match_vote": {"my_ballot": ballots[me] if me is not None and ballots else None,
                       "voted": [b is not None for b in ballots]},
        "kept": _contenders(rules, state.kept),
        "history": [_history(rules, r) for r in state.history],
        "sudden_death": _sudden(rules, state, me),
        "pending": pending.to_json(),
    }


def redact_event(rules: UltimateShowdownRules, before: State, event: Event,
                 viewer: int | None) -> JSON:
    """Each seat sees its own deal and its own secret choices; shuffles stay hidden."""
    outcome = event.outcome if isinstance(event.outcome, dict) else {}
    if event.kind is EventKind.CHANCE:
        if before.phase is Phase.SETUP:
            people = outcome.get("contenders")
            hand = None
            if viewer is not None and 0 <= viewer < before.n and isinstance(people, list):
                hand = people[4 * viewer:4 * viewer + 4]
            return {"kind": "chance", "outcome": {"setup": "hidden", "hand": hand,
                                                  "pow": outcome.get("pow")}}
        return {"kind": "chance", "outcome": {"slots": outcome.get("slots")}}
    action = event.action or {}
    if action.get("type") in SECRET_ACTIONS and event.seat != viewer:
        return {"kind": "decision", "seat": event.seat,
                "action": {"type": action.get("type"), "hidden": True}}
    return event.to_json()


def _box_cards(box: tuple[tuple[str, ...], tuple[str, ...]] | None) -> tuple[str, ...]:
    return () if box is None else (*box[0], *box[1])


def _bottom(state: State) -> int:
    """How many cards at the bottom of the Challenge deck are known (used ones put back)."""
    used = min(len(state.history), ULTIMATE - 1)
    return used + (len(state.sudden.votes) + 1 if state.sudden else 0)


def determinize(rules: UltimateShowdownRules, state: State, seat: int,
                rng: random.Random) -> State:
    """Resample what `seat` cannot see, keeping every count it can see."""
    if state.phase in (Phase.SETUP, Phase.OVER):
        return state
    others = [s for s in range(state.n) if s != seat]
    # Who played which Contender in the slots: re-dealt among the other seats' boxes.
    state = _regroup(state, seat, rng)
    # Which cards: a bijection over every card `seat` has not seen.
    public = set(state.slots)
    pool = sorted({*state.deck, *(c for o in others for c in state.hands[o]),
                   *(c for o in others for c in state.hidden_discard[o]),
                   *(c for o in others for c in _box_cards(state.boxes[o]) if c not in public)})
    image = pool[:]
    rng.shuffle(image)
    sub = dict(zip(pool, image, strict=True))

    def swap(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sub.get(c, c) for c in cards)

    hands = tuple(h if i == seat else swap(h) for i, h in enumerate(state.hands))
    new_boxes = tuple(b if i == seat or b is None else (swap(b[0]), swap(b[1]))
                      for i, b in enumerate(state.boxes))
    new_hidden = tuple(h if i == seat else swap(h) for i, h in enumerate(state.hidden_discard))
    cut = len(state.challenge_deck) - _bottom(state)
    top = list(state.challenge_deck[:cut])
    rng.shuffle(top)
    guess = replace(state, hands=hands, boxes=new_boxes, hidden_discard=new_hidden,
                    deck=swap(state.deck), challenge_deck=(*top, *state.challenge_deck[cut:]))
    return _resample_secrets(rules, guess, seat, rng)


def _regroup(state: State, seat: int, rng: random.Random) -> State:
    """Deal the other seats' Contenders in the slots at random into their Box A and Box B.

    The slots are public, but not who played which of them, nor whether a Contender was a
    Box A pick or promoted from Box B (US-17, US-18): every Box A spot gets a slot
    Contender, as many Box B spots as Box B promoted, and the other Box B spots the true
    leftovers (hidden; they follow their new owner into its hidden discard pile). Each
    seat keeps its counts; the viewer's own Contenders and, once the round is scored, the
    Champion's owner (public, US-20) stay as they are.
    """
    if not state.slots or None in state.boxes:  # before the slots, or round five
        return state
    in_a, in_b = box_counts(state.n)
    others = [s for s in range(state.n) if s != seat]
    cards = [c for c, o in zip(state.slots, state.owners, strict=True) if o != seat]
    left = {o: [c for c in _box_cards(state.boxes[o]) if c not in state.slots] for o in others}
    a_spots = [(o, 0) for o in others for _ in range(in_a)]
    b_spots = [(o, 1) for o in others for _ in range(in_b)]
    promoted = len(cards) - len(a_spots)
    deal: list[tuple[tuple[int, int], str]] = []
    if state.phase is Phase.DISCARD:  # the Champion's owner has been scored
        slot = state.history[-1].champion - 1
        champion, owner = state.slots[slot], state.owners[slot]
        if owner != seat:
            # A Box B spot holds a slot Contender in promoted / len(b_spots) of the deals.
            theirs = [p for p in (*a_spots, *b_spots) if p[0] == owner]
            spot = rng.choices(theirs, [1.0 if box == 0 else promoted / len(b_spots)
                                        for _, box in theirs])[0]
            (a_spots if spot[1] == 0 else b_spots).remove(spot)
            cards.remove(champion)
            deal.append((spot, champion))
            promoted -= spot[1]
    rng.shuffle(cards)
    rng.shuffle(b_spots)
    deal += zip([*a_spots, *b_spots[:promoted]], cards, strict=True)
    deal += zip(b_spots[promoted:], sorted(c for o in others for c in left[o]), strict=True)
    grouped: dict[int, tuple[list[str], list[str]]] = {o: ([], []) for o in others}
    for (o, box), card in deal:
        grouped[o][box].append(card)
    boxes = tuple(b if s == seat else (tuple(sorted(grouped[s][0])), tuple(sorted(grouped[s][1])))
                  for s, b in enumerate(state.boxes))
    owner_of = {c: o for (o, _), c in deal}
    owners = tuple(o if o == seat else owner_of[c]
                   for c, o in zip(state.slots, state.owners, strict=True))
    hidden = tuple(h if s == seat else
                   (*(c for c in h if c not in left[s]),
                    *(c for c in grouped[s][1] if c not in state.slots))
                   for s, h in enumerate(state.hidden_discard))
    history = state.history
    if state.phase is Phase.DISCARD:
        history = (*history[:-1], replace(history[-1], owners=owners))
    return replace(state, boxes=boxes, owners=owners, hidden_discard=hidden, history=history)


def _resample_secrets(rules: UltimateShowdownRules, state: State, seat: int,
                      rng: random.Random) -> State:
    """Other seats' unrevealed votes and bets, drawn anew."""
    def pick(ballots: tuple[Any, ...], options: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(b if i == seat or b is None else rng.choice(options)
                     for i, b in enumerate(ballots))

    out = state
    if state.phase is Phase.CHALLENGE_VOTE:
        out = replace(out, challenge_ballots=pick(state.challenge_ballots, SPACES))
    if state.phase is Phase.MATCH:
        out = replace(out, ballots=pick(state.ballots, pairing(state.match, state.winners)))
    if state.phase is Phase.SUDDEN_DEATH and state.sudden is not None:
        sd = state.sudden
        out = replace(out, sudden=replace(sd, ballots=pick(sd.ballots, (sd.orange, sd.blue))))
    if state.phase in (Phase.BET, Phase.MATCH):
        bets: list[Any] = []
        for i, bet in enumerate(state.bets):
            if i == seat:
                bets.append(bet)
                continue
            chips = rng.sample(range(1, 9), 3)
            bets.append(tuple(None if b is None else chips[k] for k, b in enumerate(bet)))
        out = replace(out, bets=tuple(bets))
    return out
