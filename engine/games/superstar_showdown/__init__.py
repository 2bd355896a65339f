"""Superstar Showdown: one-on-one matches under the Core Rules (rules checklist SS-xxx).

Seats are sides: seat 0 is Red, seat 1 is Blue, one Superstar each. The advanced rules
(teams, drafting, Match cards, Stipulations, Tag Team, Events) come later; the board
already has both Tag Zones.

Decisions on the rulebook's open questions (core `ambiguity` items), one line of why each:

- SS-008: Give Ups, tie-break reveals and the Three Count reshuffle an empty deck from the
  discard pile like any other need for a card (SS-007 says "any time"); a Knock Out comes
  only when hand, deck and discard together cannot pay. A side with no card at all to
  reveal in a tie-break loses the tie (nobody wins if neither can), which keeps a
  position from hanging.
- SS-013: our own 9x9 grid (data/ring.yaml): a 5x5 canvas inside Ropes with Turnbuckles
  at the four corners, the floor around it, Tag Zones by the Red and Blue corners. Ropes
  and Turnbuckle squares count as inside the ring, since the ropes are the ring's edge.
- SS-032: Block against Block in a tie-break keeps the tie going ("continue revealing
  ... until one player wins"); only the top (tie-breaking) card's Actions are used, as
  the Sample Round shows; the buried cards only go to the discard pile with it.
- SS-036: at every round end, Pin or not, all cards on the board (winning cards with their
  tie stacks, Reversal cards and Stun extras) go to their owners' discard piles; a card
  left on the board for ever would break the deck's count.
- SS-044: both Superstars must be inside the ring to Pin ("adjacent to each other in
  the ring" and the ring is where a Pin happens).
- SS-054: a Move value is a maximum: "you MAY move the number of squares", and every
  Action is optional, so stopping early is allowed.
- SS-062: shoving is optional ("may"); a mover who declines, or finds no legal square,
  shares the square. Sharing is neither side by side nor diagonal, so no Attack or Pin.
- SS-068: a diagonal straight line counts for Momentum (moves go diagonally); the stop
  must be orthogonally adjacent because a Momentum Attack is an Attack (SS-070).
- SS-077: the Superstar must be in a Turnbuckle square when it takes the Corner Attack
  ("made from Turnbuckle Squares"), then moves up to 3 squares (no bouncing) and hits
  for 3 if it ends orthogonally adjacent.
- SS-082: a Throw needs the rival within one square in any direction (or on the same
  square); only Attacks and Pins are explicitly "not diagonally".
- SS-083: a thrown rival is not bounced (bouncing belongs to a Move Action); the thrower
  steers each of its up to three squares. Inactive rivals come with the Tag Team issue.
- SS-096: every Stun, an extra card's too, needs the rival to Give Up cards to that card
  ("in order to Stun your opponent, they must Give Up cards"); a waiting Setup bonus
  goes to the next winning card, which may be an extra card.
- SS-102: the card beaten by a Reversal is a losing card (discarded, or Given Up by
  countout outside the ropes); the Reversal card stays under the new winning card and
  is discarded with it at round end, not lost.

Further engine decisions that the rules leave open:

- SS-003 (length): a match that reaches the `round_limit` option (default 50) ends after
  that round; the bigger Performance Stack wins, equal stacks draw. The rules alone do
  not bound a match (hits are optional), and the event log needs a bound.
- SS-038: if both Superstars cannot play three cards in the same round, it is a draw.
- SS-064: a move may bounce at most 4 times; a third bounce repeats the first bounce's
  squares and direction, so the cap changes no reachable outcome.
- SS-063: the bounce direction is perpendicular to the ropes, into the ring, whatever the
  direction you entered the Ropes square from; after a bounce you must run at least one
  square; a run that ends short of the far ropes ends the move.
- SS-087: Power Setup adds +1 to every attack of the next winning card (Attack, Momentum,
  Corner); movement Setups add to its Move action only (not the Corner Attack's 3).
- SS-089: Stun is taken as the card's last Action (taking it ends the card's other
  Actions), and the extra card may be any card in hand.
- SS-101: a position decided by a tie-break allows no Reversal at all.
- SS-025/SS-026: the Block that loses on the board stops the damage of the card that beat
  it; a Block placed in a tie-break reveal that loses does the same.
"""

from __future__ import annotations

from engine.games.superstar_showdown.bots import HeuristicBot
from engine.games.superstar_showdown.rules import SPEC, SuperstarShowdownRules
from engine.registry import register_game

RULES = SuperstarShowdownRules()
register_game(RULES, bots={"heuristic": HeuristicBot})

__all__ = ["RULES", "SPEC", "HeuristicBot", "SuperstarShowdownRules"]
