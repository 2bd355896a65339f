"""Royal Rumble: 2-10 players, last Legend standing (rules checklist RR-xx).

Seats go clockwise in seat order. Content (30 Legends, 150 Action cards) is ours, in
`data/*.yaml`, validated at load (`cards.py`).

Decisions on the rulebook's open questions (`ambiguity` items), one line of why each:

- RR-07: three Legends per player at every count (2 -> 6 ... 10 -> 30): the rulebook's
  3-6 player counts are all exactly three per player, and 30 placards cover 10 players.
- RR-13: seat 0 is the first Titleholder; the league's seat draw already randomises seats
  and "who watched a match last" has no software meaning.
- RR-16: a planned Attack's target (and whether a Boost lies beside it) is public during
  Plan, since the face-down card is physically pointed at someone; the cards stay hidden.
- RR-28: only the target plays Defense cards; others intervene only with Ref cards (against
  Cheap Tricks) and Run-In Specials (against an attack on someone else), Titleholder first
  then clockwise (RR-72). Everyone the rules let answer is asked (the target of a
  blockable attack, every eligible responder, the thrown target), whatever they hold: online
  the prompt itself would otherwise tell the table what a hand holds. Holding nothing that
  answers, the only action is the decline, which reads the same either way.
- RR-29: a blocked or cancelled attack's Attack and Boost cards go to the discard pile (a
  Signature goes to the box); cards left nowhere would break the count.
- RR-50: the token passes only to whoever eliminates the Titleholder's Legend (the detailed
  rule wins over the summary); a Titleholder whose Legend falls to its own recoil keeps it.
  The token goes to a player, not a Legend: an eliminator whose own Legend falls to the
  same attack's recoil still takes it, and stays at the table to take a reserve Legend.
- RR-52: a new Legend (the top of the face-down reserve) enters at End of Turn, so a fallen
  player's plan this round is discarded (RR-69); fallen players still draw up to six and,
  like players with no Legend left (RR-59), may still Ref or Run-In an attack on another
  Legend: the player is still at the table with a hand. Several fallen players take
  reserve Legends in the order they fell, ties clockwise from the Titleholder (as the
  rulebook orders players acting at once). With fewer reserve Legends than fallen players,
  the first in that order take them and the rest have no Legend left (RR-59): two last
  Legends in the ring falling together beside a reserve Legend are not the "last two
  remaining Legends" of RR-71, so whoever takes it wins.
- RR-53: damage cards on an eliminated placard go to the discard pile (Signatures to the box).
- RR-58: bragging rights is a per-seat figure (`bragging_rights` 1 for everyone tied on the
  most placards, 0 otherwise; with no placard taken at all nobody has any to brag of, so
  everyone's is 0), not a placement; placements follow the order of final
  elimination (later is better; simultaneous ones share a place).
- RR-59: a player with no Legend left (reserve empty) cannot be targeted or eliminated, still
  plans, attacks (every attack a Cheap Trick, RR-70), defends nothing (no Legend), may Ref or
  Run-In, draws and takes breathers; the game ends as soon as the reserve is empty and at
  most one Legend is in the ring, so such players never keep a game alive.
- RR-60: our own content; effects come from a small vocabulary: attack_again, signature,
  cheap_trick, unblockable, over_the_top, recoil N (a hit also damages the attacker's own
  Legend by N: how two final Legends can fall at once, RR-71).

Further engine decisions:

- RR-14 (length): the `round_limit` option (default 40) ends the game after that round; the
  Legends still standing share first place (a draw if more than one). Breathers and
  cancellations mean the rules alone do not bound a game.
- RR-47: Holding On is played by the thrown Legend's player and removes the damage card
  with the most damage (the defender's best choice, one step fewer).
- Attack-again and Signature follow-ups may pick any target; a follow-up's own Attack card
  effects trigger on its hit (never a Boost's, RR-41). As with RR-28, the attacker is asked
  whenever the card that hit allows one, whatever its hand holds (else only "skip"). The
  Signature is itself an attack; once played it ends in the box, after sitting on the
  placard if it hit (RR-45).
- Speed order is fixed at the Reveal, with the Titleholder of that moment breaking ties.

A forfeit (a player resigns, an organizer forfeits the seat) at three seats or more is a
`{"kind": "forfeit", "seat": s}` event in the stream, the system's event as a chance
outcome is, which `apply` takes for any seat still at the table while the game is live
(`forfeit_eliminates`); at two seats the match service ends the match as in every game.
The seat is eliminated as the rules eliminate a player, and the game goes on:

- Its Legend in the ring is eliminated by no one (RR-34, placard to the box as after a
  recoil, RR-50/53/65); it takes no reserve Legend and is asked nothing any more (no plan,
  Ref, Run-In or draw). Placements follow the order of final elimination (RR-58
  decision), the forfeit being its player's: one whose last Legend fell before keeps that
  moment.
- Its hand and a face-down plan not yet revealed leave the game face down (`withdrawn`),
  so nothing hidden is shown; its revealed plan is discarded (RR-69), and so is every plan
  pointed at its Legend, at the Reveal if it was still face down. The Plan goes on with
  the next planner.
- An attack it makes or receives that has not hit is called off, its cards to the
  discard pile (RR-29 decision); a hit's throw or follow-up of its own lapses; its Legend
  thrown and Holding On is already out, and the attack goes on with the recoil and the
  attacker's follow-up; a seat still to answer an attack is asked no more.
- A Titleholder who forfeits hands the token to the next player clockwise still at the
  table (RR-13/50: the token orders the table, and must be at it).
- With the reserve empty and one Legend standing the game ends (RR-55, RR-59 decision);
  with one player left at the table it ends too, a Legend of theirs that fell this round
  first replaced from the reserve (RR-51), and they win.
"""

from __future__ import annotations

from engine.games.royal_rumble.bots import SEARCH, HeuristicBot
from engine.games.royal_rumble.rules import SPEC, RoyalRumbleRules
from engine.registry import register_game

RULES = RoyalRumbleRules()
register_game(RULES, bots={"heuristic": HeuristicBot}, search=SEARCH)

__all__ = ["RULES", "SPEC", "HeuristicBot", "RoyalRumbleRules"]
