"""Hidden information: views, redaction, narration and determinization (SU-02, SU-18)."""

from __future__ import annotations

import json
import random

from engine.games.super_showdown.state import Phase
from engine.protocol import Event


def _strings(value) -> set[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_other(ss):
    """SU-02: after the deal each seat sees its nine cards, not the nemesis' nine."""
    state = ss.dealt()
    mine = ss.rules.view(state, 0)
    assert sorted(c["id"] for c in mine["hand"]) == sorted(ss.white)
    assert not set(ss.green) & _strings(mine)
    assert mine["seats"][1]["hand_size"] == 9
    spectator = ss.rules.view(state, None)
    assert spectator["hand"] is None
    assert not set(ss.rules.cards.ids) & _strings(spectator)
    json.dumps(mine)  # JSON-ready


def test_a_face_down_card_shows_only_to_its_owner_until_revealed(ss):
    """SU-18: the other seat and spectators see only that a card is face down."""
    state = ss.play(ss.state(phase=Phase.PLAY), 1, "doom-cannon")
    assert ss.rules.view(state, 1)["seats"][1]["played"] == {
        "status": "face_down", "card": ss.rules.cards["doom-cannon"].to_json()}
    for viewer in (0, None):
        view = ss.rules.view(state, viewer)
        assert view["seats"][1]["played"] == {"status": "face_down", "card": None}
        assert "doom-cannon" not in _strings(view)
    revealed = ss.reveal(("jet-flight", "doom-cannon"), ((1, 1), (3, 4)), to=(3, 3))
    for viewer in (0, 1, None):
        assert ss.rules.view(revealed, viewer)["seats"][1]["played"]["status"] == "revealed"


def test_the_deal_redacts_to_each_seats_own_hand(ss):
    """SU-02: the deal outcome shows a seat only its own cards; a spectator none."""
    state = ss.fresh()
    outcome = ss.rules.sample_chance(state, random.Random(3))
    event = Event.chance(outcome)
    for seat, half in ((0, outcome["deal"][:9]), (1, outcome["deal"][9:])):
        shown = ss.rules.redact(state, event, seat)
        assert shown["outcome"]["hand"] == sorted(half)
        other = set(outcome["deal"]) - set(half)
        assert not other & _strings(shown)
    assert not set(outcome["deal"]) & _strings(ss.rules.redact(state, event, None))


def test_a_face_down_play_is_redacted_for_everyone_else(ss):
    """SU-18: the play event hides the card from the other seat and spectators."""
    state = ss.state(phase=Phase.PLAY)
    event = Event.decision(0, {"type": "play_card", "card": "solar-flare"})
    assert ss.rules.redact(state, event, 0)["action"]["card"] == "solar-flare"
    for viewer in (1, None):
        shown = ss.rules.redact(state, event, viewer)
        assert shown["action"] == {"type": "play_card", "card": None, "face_down": True}
    roll = Event.chance({"face": 4})
    assert ss.rules.redact(ss.state(), roll, 0) == roll.to_json()


def test_narration_says_a_card_was_played_face_down_and_names_it_on_reveal(ss):
    """SU-22: narration keeps a card secret until the Showdown reveals it."""
    state = ss.state(phase=Phase.PLAY)
    lines = ss.rules.narrate(state, Event.decision(0, {"type": "play_card", "card": "solar-flare"}))
    assert lines == ["Blue (Hero) played a card face down."]
    last = ss.state(phase=Phase.STARTER_SECOND_MOVE, played=("solar-flare", "ice-blast"),
                    dice=(3, 3), positions=((1, 1), (6, 6)))
    told = " ".join(ss.rules.narrate(last, Event.decision(1, {"type": "move", "to": [6, 6]})))
    assert "Solar Flare (white 15)" in told and "Ice Blast (green 9)" in told
    assert "Wits!" in told and "Round 2 began" in told


def test_narration_of_a_speed_choice_and_a_decoy_swap(ss):
    """SU-34: the narration says who reached the Mayhem and who chooses."""
    last = ss.state(phase=Phase.STARTER_SECOND_MOVE, played=("decoy-white", "ice-blast"),
                    dice=(3, 3), positions=((1, 1), (3, 4)))
    told = ss.rules.narrate(last, Event.decision(1, {"type": "move", "to": [3, 3]}))
    assert "Speed! Red (Villain) reached the Mayhem." in told
    assert any("played a Decoy!, so Blue chooses" in line for line in told)


def test_determinize_resamples_only_the_hidden_face_down_card(ss):
    """A determinized state agrees with everything the seat sees."""
    state = ss.play(ss.state(phase=Phase.PLAY), 1, "doom-cannon")
    seen = ss.rules.view(state, 0)
    chosen = set()
    for seed in range(30):
        guess = ss.rules.determinize(state, 0, random.Random(seed))
        assert ss.rules.view(guess, 0) == seen
        assert sorted(ss.all_cards(guess)) == sorted(ss.rules.cards.ids)
        assert set(guess.hands[1]) | {guess.played[1]} == set(state.hands[1]) | {"doom-cannon"}
        chosen.add(guess.played[1])
    assert len(chosen) > 3
    assert ss.rules.determinize(state, 1, random.Random(0)) == state  # nothing hidden from 1


def test_a_new_game_of_a_series_shows_no_old_cards(ss):
    """SU-44: after a re-deal the view lists no card from the game before."""
    first = ss.reveal(("titan-grip", "ice-blast"), ((1, 1), (6, 6)), best_of=3,
                      victory=("decoy-white", "force-field", "sonic-hearing", "scanner-sight"))
    second = ss.deal(first, ss.green)
    view = ss.rules.view(second, 0)
    assert view["victory_pile"] == [] and view["last_showdown"] is None
    assert not set(ss.white) & _strings(view)
    assert view["series"]["games"][0]["winner"] == 0
