"""Ultimate Showdown: predict who wins each Challenge (rulebook seed 004, checklist US-xx).

3 to 8 seats. Content (150 Contenders, 50 double-sided Challenge cards) is ours, in
`data/`; a Contender's fit for a Challenge is the weighted sum of its attributes.

Decisions on the rulebook's open questions (checklist `ambiguity` items), each pinned by
a test in tests/engine/ultimate_showdown/test_ultimate_ambiguities.py:

- US-07: the set-up chance event draws the POW! holder uniformly among the seats. Why:
  software knows no ages, and a stored random draw is as arbitrary and as fair.
- US-10: the round's leader (seat (round - 1) mod players, rotating) picks the side of
  each drawn card in one decision; then everyone votes. Why: "pick whichever side you
  prefer" names one picker, and rotating the role keeps it fair.
- US-13: a tied Challenge vote is broken like a match: the POW! holder's vote counts
  twice and the marker then passes right. Why: it is the only tie-break the rules give.
- US-20: every played Contender keeps its owner, wherever it lands (Box A or promoted
  from Box B); others see an owner only when the Champion's owner is scored. Why: that
  is what the face-down cards physically do, and only the Champion's owner matters.
- US-25: the three bets must name three different slots. Why: each player has only
  one chip per number.
- US-32: in every match the lower slot (or the winner from the upper half of the
  bracket) is orange and the other blue; votes name the slot number.
- US-47: round five draws a single Challenge card and the leader picks its side; there
  is no A/B vote. Why: the text says "draw a new Challenge card", one card.
- US-54: players tied for first meet in a ladder of sudden-death matches in seat
  order: the first two tied (the earlier seat orange), then the winner (orange) against
  the next tied player, and so on; each match flips the top Challenge card (front side,
  then the card goes to the bottom), everyone votes, the POW! breaks ties. Why: the rule
  names a two-player match; a ladder extends it, and seat order is a neutral choice.
  Only the ladder's winner places first; every other tied player places equal second.
  Why: the ladder decides only the winner; an early loser never meets the later ones.

Further choices the rules leave open: seats are numbered to the right, so the POW!
passes from seat s to seat s + 1; after round four nobody discards or draws (hands are
not used in round five); bets are placed one chip at a time in any box order.
"""

from __future__ import annotations

from engine.games.ultimate_showdown.bots import SEARCH, HeuristicBot
from engine.games.ultimate_showdown.rules import SPEC, UltimateShowdownRules
from engine.registry import register_game

RULES = UltimateShowdownRules()
register_game(RULES, bots={"heuristic": HeuristicBot}, search=SEARCH)

__all__ = ["RULES", "SPEC", "HeuristicBot", "UltimateShowdownRules"]
