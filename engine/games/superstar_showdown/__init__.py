"""Superstar Showdown: the Core Rules one against one, and the Advanced Rules' Events
(rules checklist SS-xxx).

Without the `event` option a match is the Core Rules: two seats, seat 0 Red, seat 1 Blue,
one Superstar each. With it (a preset such as "full_card", the Full Card, or a
composed list of Matches) the stream holds a whole Event: the coin flip and draft, each
Match's card, Stipulation and face-down Send In, the Matches under their rules (Tag Team
too), and every Bonus decision; 2-6 seats, each on team Red or Blue. Match cards,
Stipulations and Bonus cards are our own, in data/*.yaml (event.py loads them).

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
  must be orthogonally adjacent because a Momentum Attack is an Attack (SS-070), and the
  line counts only while both Superstars stay where the move stopped (a stop elsewhere
  and a Throw to get side by side is no Momentum).
- SS-077: the Superstar must be in a Turnbuckle square when it takes the Corner Attack
  ("made from Turnbuckle Squares"), then moves up to 3 squares (no bouncing); if it
  ends orthogonally adjacent, the player chooses to hit for 3 (`corner_hit`) or not
  (`no_corner_hit`), as every Action is optional (SS-033).
- SS-082: a Throw needs the rival within one square in any direction (or on the same
  square); only Attacks and Pins are explicitly "not diagonally".
- SS-083: a thrown rival is not bounced (bouncing belongs to a Move Action); the thrower
  steers each of its up to three squares; only the rival Active Superstar is thrown.
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
- SS-097/SS-099: a side whose Reversal card lost is asked to Reverse whenever some card
  type beats the rival's card, whether or not its hand holds one (then declining is its
  only choice): the table sees who is asked, and being asked must not tell it the hand.
- SS-025/SS-026: the Block that loses on the board stops the damage of the card that beat
  it; a Block placed in a tie-break reveal that loses does the same.
- SS-025 with SS-097/098: when two Blocks meet, both lose, so a Reversal Block among them
  may reverse (any card but a Block beats the other Block). Red is asked first, then Blue
  if Red declines; after a reversal the other side may reverse back (SS-100); if nobody
  reverses, nobody wins the position.
- SS-100: only the card first revealed in a position can Reverse, once per side: a card
  played from hand to reverse does not Reverse again with its own icon when it is
  reversed back, as SS-100 allows each of the two revealed cards one Reversal.
- SS-071: a Block played from hand against a hit is Given Up as the rule says, so it goes
  to the attacker's Performance Stack; the Sample Round's prose starts that stack with
  the four cards Given Up later, and the rule's text is the one followed.

Decisions on the Advanced Rules' open questions:

- SS-119: teams draft `superstars_per_team` each (1-3, set by the organizer; presets use
  3, the whole box of six). The pick order is first team one, other team two, then one
  at a time, skipping any team already full: with one a team it is simply one each.
- SS-123: our four Match cards (data/match_cards.yaml): Head-to-Head 30 for a win, Tag
  Team 60 (the rulebook's figure), 6-Man Tag 80, Gauntlet 50 plus 15 for each rival
  Superstar a team defeats; the loser gets a little (5-15) for taking part, a drawn
  Match gives both half the win. A Gauntlet is two a side sent in order; a defeated
  Superstar (Pinned or Knocked Out) is replaced at its team's starting star by the next
  one with a fresh deck while the winner carries on as it stands; the team that runs
  out first loses.
- SS-126: our seven special Stipulations each change one rule (data/stipulations.yaml):
  Hardcore (no countouts), Last Man Standing (no Pins), Endurance (two falls: the first
  Pin ends the round, the second wins), Steel Cage (Active Superstars cannot step or be
  Thrown out of the ring), Falls Count Anywhere (Pins outside the ring too), Fast Count
  (a two-card count), Time Limit (eight rounds, or the `round_limit` option if that is
  fewer, then the bigger stack wins).
- SS-131: a tie in Ranking Points goes to the team that won more Matches; still equal,
  the Event is a draw (both teams placed first).
- SS-132: yes. Every Match starts from each Superstar's own deck, whole again, plus the
  Bonus cards bought for it; Given Up cards only count for the Match they were won in.
- SS-140: our 30 Bonus cards (data/bonus_cards.yaml) cost 10, 15, 20 or 25 cards; the
  five 25s are Slams. Each card exists once: both teams buy from one pool, in turn,
  the Match's loser spending first (after a draw the team behind, if level the team
  that picked second), a catch-up that keeps the pool fair.
- SS-159: a Tag Team Match (and a 6-Man) ends when an Active Superstar is defeated,
  Pinned or Knocked Out, as a tag match ends on one fall.

Further Advanced Rules decisions:

- SS-127: an Event has 2 to 12 Matches, not "as many as you'd like": twelve Matches is
  already longer than a league night, and the cap bounds an Event's event stream.
- SS-114: a team's drafted Superstars are dealt to its players in pick order (player 1
  the first pick, player 2 the second, ...): whoever holds the Active Superstar makes the
  ring decisions for the team; the team's first seat (its captain) drafts, sends in and
  spends the Performance Stack. Teammates see the same hand.
- SS-133: a Send In is an ordered list: the first Superstar starts as the Active one
  (in a Gauntlet the order is the order of entry). The face-down choice is hidden from
  the other team, in views and in the event history, until both have chosen.
- SS-128/129: Match cards and Stipulations left blank are drawn from the cards not yet
  drawn in this Event (reshuffled when all have come up), so the Full Card's four drawn
  Matches are one of each card; only cards the rosters can field are drawn.
- SS-143/146: Inactive teammates start on their own Tag Zone squares nearest the corner;
  "adjacent" for a tag means any of the eight squares around (a hand slap over the
  ropes, not an Attack), never the same square.
- SS-147: at the end of a round Red answers first, then Blue; the tagged-out deck (with
  hand and discard) is shuffled as a chance event. A Tag Team Kick Out (SS-151) counts as
  a Kick Out, and the tag happens as the board is cleared (unless that round ends the
  Match on its round limit: then there is no tag, and no deck to shuffle).
- SS-155/156: the teammate's Move 3 is an `assist` action offered before the Active's
  first Action of the winning card or after the Active is done with the card (its
  `done`, or nothing left to take), never between two of its Actions; once per winning
  card (a Stun's extra card too, as it counts as a winning card; a Stun ends its own
  card, so that card's teammate moves before it); it never bounces and never enters
  the ring.
- SS-154: any Superstar that ends a move on another's square may shove that one (a
  teammate too); the shove keeps the shoved one in or out of the ring as it was.
- SS-158: "next to" is side by side, as for an Attack; the +2 a teammate applies to
  every kind of Attack (plain, Momentum, Corner). A Throw moves only the rival Active
  Superstar.
"""

from __future__ import annotations

from engine.games.superstar_showdown.bots import SEARCH, HeuristicBot
from engine.games.superstar_showdown.rules import SPEC, SuperstarShowdownRules, between_matches
from engine.registry import register_game

RULES = SuperstarShowdownRules()
register_game(RULES, bots={"heuristic": HeuristicBot}, search=SEARCH)

__all__ = ["RULES", "SPEC", "HeuristicBot", "SuperstarShowdownRules", "between_matches"]
