"""The history in plain English, for everybody: no secret is named before it is revealed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.ultimate_showdown.state import (
    SEAT_NAMES,
    SPACES,
    STAGES,
    ULTIMATE,
    Phase,
    RoundRecord,
    State,
    Vote,
)
from engine.protocol import Event, EventKind, counted

if TYPE_CHECKING:
    from engine.games.ultimate_showdown.rules import UltimateShowdownRules

SECRET = {
    "vote_challenge": "voted in secret for a Challenge.",
    "play_contenders": "played Contenders face down into the boxes.",
    "bet": "placed a betting chip face down.",
    "vote_match": "voted in secret.",
    "vote_player": "voted in secret.",
}


def narrate(rules: UltimateShowdownRules, before: State, event: Event) -> list[str]:
    """Describe one event, then whatever it revealed or scored."""
    after = rules.apply(before, event)
    if event.kind is EventKind.CHANCE:
        lines = _setup(after) if before.phase is Phase.SETUP else _slots(rules, after)
    else:
        assert event.seat is not None and event.action is not None
        lines = _decided(rules, before, after, event.seat, event.action)
    if after.challenge_vote is not None and before.challenge_vote is None:
        lines += _challenge_chosen(rules, after)
    if len(after.winners) > len(before.winners) or (
            len(after.history) > len(before.history) and before.phase is Phase.MATCH):
        vote = after.votes[-1] if after.votes and len(after.history) == len(before.history) \
            else after.history[-1].matches[-1]
        slots = after.slots if len(after.history) == len(before.history) \
            else after.history[-1].slots
        lines += _match(rules, slots, vote, len(before.winners))
    if len(after.history) > len(before.history):
        lines += _scored(rules, after.history[-1])
    if after.round > before.round and before.round:
        lines += _new_round(rules, after)
    if after.sudden is not None and (before.sudden is None
                                     or len(after.sudden.votes) > len(before.sudden.votes)):
        lines += _sudden(rules, before, after)
    result = rules.result(after)
    if result is not None:
        lines.append(summary(after, result.winners))
    return lines


def _setup(after: State) -> list[str]:
    lines = ["Both decks were shuffled and four Contenders dealt to each player."]
    if after.pow_holder is not None:
        lines.append(f"{SEAT_NAMES[after.pow_holder]} holds the POW! marker.")
    return lines


def _slots(rules: UltimateShowdownRules, after: State) -> list[str]:
    names = [f"#{i} {rules.cards.contenders[c].name}" for i, c in enumerate(after.slots, 1)]
    return ["The Contenders were shuffled into the slots: " + ", ".join(names) + "."]


def _decided(rules: UltimateShowdownRules, before: State, after: State, seat: int,
             action: dict[str, object]) -> list[str]:
    name = SEAT_NAMES[seat]
    kind = action.get("type")
    if kind == "choose_sides":
        texts = [rules.challenge_of(c).text for c in after.choices]
        if before.round == ULTIMATE:
            return [f"{name} drew the Ultimate Showdown's Challenge: {texts[0]}"]
        return [f"{name} set out the Challenges: A: {texts[0]} B: {texts[1]}"]
    if kind == "discard":
        cards = action.get("cards")
        count = len(cards) if isinstance(cards, list) else 0
        return [f"{name} discarded {count or 'no'} Contender{'' if count == 1 else 's'}."]
    return [f"{name} {SECRET.get(str(kind), 'acted.')}"]


def _vote_words(vote: Vote, labels: dict[object, str]) -> str:
    ballots = ", ".join(f"{SEAT_NAMES[s]} {labels[b]}" for s, b in enumerate(vote.ballots))
    return f"The votes: {ballots}."


def _pow_line(vote: Vote) -> list[str]:
    if vote.pow_seat is None:
        return []
    return [f"A tie! {SEAT_NAMES[vote.pow_seat]}'s POW! vote counted twice; the marker "
            "passes to the right."]


def _challenge_chosen(rules: UltimateShowdownRules, after: State) -> list[str]:
    vote = after.challenge_vote
    assert vote is not None and after.challenge is not None
    labels: dict[object, str] = {space: space for space in SPACES}
    return [_vote_words(vote, labels), *_pow_line(vote),
            f"The Challenge is {vote.winner}: {rules.challenge_of(after.challenge).text}"]


def _match(rules: UltimateShowdownRules, slots: tuple[str, ...], vote: Vote,
           index: int) -> list[str]:
    def label(slot: object) -> str:
        return f"#{slot} {rules.cards.contenders[slots[int(str(slot)) - 1]].name}"

    labels: dict[object, str] = {o: label(o) for o in vote.options}
    orange, blue = vote.options
    won = vote.options.index(vote.winner)  # the winner's count first
    return [f"{STAGES[index].capitalize()}: {labels[orange]} (orange) v {labels[blue]} (blue).",
            _vote_words(vote, labels), *_pow_line(vote),
            f"{labels[vote.winner]} wins {vote.counts[won]}-{vote.counts[1 - won]}."]


def _scored(rules: UltimateShowdownRules, record: RoundRecord) -> list[str]:
    champ = rules.cards.contenders[record.slots[record.champion - 1]].name
    second = rules.cards.contenders[record.slots[record.runner_up - 1]].name
    lines = [f"Round {record.number}: the Champion is #{record.champion} {champ}; second "
             f"place #{record.runner_up} {second}."]
    owner = record.owners[record.champion - 1]
    if owner is not None:
        lines.append(f"{SEAT_NAMES[owner]} played the Champion.")
    for seat, (bet, pts) in enumerate(zip(record.bets, record.points, strict=True)):
        lines.append(f"{SEAT_NAMES[seat]} bet Champion #{bet[0]}, Final #{bet[1]}, Semi-Final "
                     f"#{bet[2]}: {counted(sum(pts), 'point')}.")
    return lines


def _new_round(rules: UltimateShowdownRules, after: State) -> list[str]:
    if after.round == ULTIMATE:
        return ["The Ultimate Showdown begins with the eight kept Contenders: points are "
                "doubled and nobody scores for owning the Champion."]
    return [f"Round {after.round} begins; {SEAT_NAMES[after.leader]} leads."]


def _sudden(rules: UltimateShowdownRules, before: State, after: State) -> list[str]:
    sd = after.sudden
    assert sd is not None
    lines = []
    if before.sudden is not None and len(sd.votes) > len(before.sudden.votes):
        vote = sd.votes[-1]
        labels: dict[object, str] = {o: SEAT_NAMES[int(str(o))] for o in vote.options}
        lines += [_vote_words(vote, labels), *_pow_line(vote),
                  f"{labels[vote.winner]} wins the sudden-death match."]
    if after.phase is Phase.SUDDEN_DEATH:
        lines.append(f"Sudden death: {SEAT_NAMES[sd.orange]} (orange) v {SEAT_NAMES[sd.blue]} "
                     f"(blue). The Challenge: {rules.challenge_of(sd.challenge).text}")
    return lines


def summary(state: State, winners: tuple[int, ...]) -> str:
    """One line on how the game ended."""
    scores = state.scores()
    board = ", ".join(f"{SEAT_NAMES[s]} {scores[s]}" for s in range(state.n))
    who = " and ".join(SEAT_NAMES[w] for w in winners)
    how = " after sudden death" if state.sudden is not None else ""
    return f"{who} won the Ultimate Showdown{how}. Scores: {board}."
