"""SS-103..SS-113: the rulebook's Sample First Round, step by step, with cards of ours.

Liz is Red, Pete is Blue. Our cards have the types and icons the sample needs.
One difference from the sample's prose: Pete's Block from hand is Given Up (SS-071 says
"Give Up a Block card"), so it sits in Liz's Performance Stack beside the four cards.
"""

from __future__ import annotations

from ss_helpers import RULES, C, build, do, legal, resolve, steps

from engine.games.superstar_showdown.state import Phase
from engine.protocol import Event

# Liz's cards (Red)
BACKBREAKER = C("Crescent Backbreaker", "grapple", "Attack 2", "Throw")
DDT = C("Skyline DDT", "grapple", "Move 1", "Attack 2", "Stun")
LIZ_SLAM = C("Lantern Drop", "slam", "Attack 3")
LIZ_SPARE = C("Cross Step", "maneuver", "Move 1")
CLOTHESLINE = C("Rope Runner Lariat", "strike", "Move 2", "Momentum Attack")
# Pete's cards (Blue)
LEAPFROG = C("Springbok Vault", "maneuver", "Move 3", "Movement Setup", "Reversal")
BULLDOG = C("One-Arm Headlock Drop", "strike", "Attack 2")
PETE_SLAM = C("Anthem Slam", "slam", "Attack 3")
GUARD = C("Forearm Guard", "block", "Move 1")
PETE_SPARE = C("Salute", "grapple", "Attack 1")
PETE_SPARE2 = C("Wave", "strike", "Attack 1")
SHUFFLE_STEP = C("Shuffle Step", "maneuver", "Move 1")
NO_KICK = C("Tired Arm", "grapple", "Attack 1")
KICK = C("Never Stay Down", "maneuver", "Move 1", "Kick Out")


def sample_start():
    """Both decks in the order the sample needs; the opening shuffles are chance events."""
    red = [BACKBREAKER, DDT, LIZ_SLAM, LIZ_SPARE, LIZ_SPARE, LIZ_SPARE, CLOTHESLINE]
    blue = [LEAPFROG, BULLDOG, PETE_SLAM, GUARD, PETE_SPARE, PETE_SPARE2, SHUFFLE_STEP,
            NO_KICK, NO_KICK, NO_KICK, NO_KICK, KICK]
    state = build(red_deck=red, blue_deck=blue, phase=Phase.DRAW)
    state.shuffles = [(0, "setup"), (1, "setup")]
    for seat in (0, 1):
        order = list(state.sides[seat].deck)  # the shuffle happens to leave this order
        state = RULES.apply(state, Event.chance({"shuffle": {"seat": seat, "order": order}}))
    return state


def test_the_sample_first_round_step_by_step() -> None:
    """SS-103..SS-113: Liz (Red) and Pete (Blue) play the rulebook's first round."""
    s = sample_start()
    # SS-103: on the starting stars, six cards each, three face down each.
    assert s.phase is Phase.PLAY and [len(side.hand) for side in s.sides] == [6, 6]
    assert [side.pos for side in s.sides] == [(2, 2), (6, 6)]
    liz, pete = s.sides[0].hand, s.sides[1].hand
    s = do(s, 0, {"type": "play_spots", "cards": [liz[0], liz[1], liz[2]]})
    assert s.phase is Phase.PLAY and RULES.pending(s).seats == (1,)
    s = do(s, 1, {"type": "play_spots", "cards": [pete[0], pete[1], pete[2]]})

    # SS-104: Grapple loses to Maneuver; Liz discards, Pete's card stays face up.
    assert s.outcomes[0]["winner"] == 1 and s.sides[0].discard == [liz[0]]
    assert s.sides[1].stacks[0] == [pete[0]]
    # SS-105: Pete moves three squares toward Liz and takes the Movement Setup;
    # the Reversal icon is not an Action of a winning card.
    assert {a.get("action") for a in legal(s, 1)} == {"move", "movement_setup", None}
    s = resolve(s, 1, "move")
    s = steps(s, 1, (5, 5), (4, 4), (3, 3))
    assert s.sides[1].pos == (3, 3) and s.phase is Phase.ACTIONS
    s = resolve(s, 1, "movement_setup")
    assert s.sides[1].bonus_move == 1

    # SS-106: position 2, Grapple beats Strike; Pete discards his Strike.
    assert s.position == 1 and s.current is not None and s.current.seat == 0
    assert s.sides[1].discard == [pete[1]]
    s = resolve(s, 0, "move")
    s = steps(s, 0, (2, 3))
    s = resolve(s, 0, "attack")
    # SS-107: Pete answers with a Block from hand: no damage, so no Stun extra card.
    guard = pete[3]
    assert {"type": "block", "card": guard} in legal(s, 1)
    s = do(s, 1, {"type": "block", "card": guard})
    assert s.sides[0].performance == [guard]
    # Nothing is left on the DDT (Stun needs cards Given Up), so position 3 comes next.
    assert s.outcomes[1]["winner"] == 0 and s.position == 2

    # SS-108: Slam against Slam ties; Liz reveals a Strike, Pete a Maneuver: Liz wins.
    record = s.outcomes[2]
    assert record["tie"] and record["winner"] == 0
    assert [s.card(c).type for c in record["cards"][0]] == ["slam", "strike"]
    assert [s.card(c).type for c in record["cards"][1]] == ["slam", "maneuver"]
    assert s.sides[1].stacks[2] == [] and len(s.sides[1].discard) == 3
    assert s.current is not None and s.card(s.current.card).name == CLOTHESLINE.name
    # SS-109: two squares to the ropes, bounce across, bounce again, stop beside Pete.
    s = resolve(s, 0, "move")
    s = steps(s, 0, (2, 2), (2, 1))
    s = do(s, 0, {"type": "bounce"})
    s = steps(s, 0, (2, 7))
    s = do(s, 0, {"type": "bounce"})
    s = steps(s, 0, (2, 3))
    assert s.sides[0].pos == (2, 3) and s.current.momentum_line == 4
    s = resolve(s, 0, "momentum_attack")
    assert s.hit is not None and s.hit.power == 4
    # SS-110: no Block left; two cards from hand, two from the deck.
    assert not [a for a in legal(s, 1) if a["type"] == "block"]
    for card in list(s.sides[1].hand):
        s = do(s, 1, {"type": "give_up", "card": card})
    s = do(s, 1, {"type": "give_up_deck"})
    s = do(s, 1, {"type": "give_up_deck"})
    assert len(s.sides[0].performance) == 1 + 4 and s.sides[1].hand == []

    # SS-111: two winning cards against one, side by side in the ring: Liz pins.
    assert (s.sides[0].wins, s.sides[1].wins) == (2, 1)
    assert s.phase is Phase.PIN and RULES.pending(s).seats == (0,)
    s = do(s, 0, {"type": "pin"})
    # SS-112: an empty hand leaves the Three Count; the third card is a Kick Out.
    assert legal(s, 1) == [{"type": "three_count"}]
    s = do(s, 1, {"type": "three_count"})
    assert s.sides[1].kick_outs == 1 and s.winner is None
    performance = [s.card(c).name for c in s.sides[0].performance]
    assert performance[-3:] == [NO_KICK.name, NO_KICK.name, KICK.name]
    assert len(performance) == 8

    # SS-113: the next round starts and both draw back up to six.
    assert s.round == 2 and s.phase is Phase.PLAY
    assert [len(side.hand) for side in s.sides] == [6, 6]
