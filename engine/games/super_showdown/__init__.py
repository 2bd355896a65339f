"""Super Showdown: Hero against Villain on a city grid (rulebook seed 002).

Two seats, "Blue" (seat 0) and "Red" (seat 1); the deal decides which is the Hero
(white, scanner die) and which the Villain (green, rumors die). Options: `best_of` 1 or 3.

Decisions on the rulebook's open questions (rules checklist ids), each pinned by a test:

- SU-05: the set is exactly 9 white and 9 green cards (the loader refuses any other
  split), so every deal makes one player the Hero (5+ white) and the other the Villain
  (5+ green). Why: it is the only split where the two set-up steps always name one of each.
- SU-07: a 6x6 grid of squares [column, row] from 1 to 6; the white die's face names the
  column and the green die's face the row, so Mayhem is the square (white, green). The
  Hero starts on (1, 1), the Villain on (6, 6); Powerboosts are (3, 3), (4, 4), (2, 5) and
  (5, 2). Why: one line per die face makes "where the dice intersect" literal, and opposite
  corners with a point-symmetric Powerboost layout are fair to both sides.
- SU-08: each colour has the numbers 1, 2, 4, 6, 8, 9, 11, 13, 15; green holds the
  Ray-Gun (2) and a Decoy! (1), white holds the other Decoy! (1); every other card is a
  plain number. Why: the Ray-Gun is the Villain's weapon and "any Decoy!" implies more than
  one, one counter for each side; these numbers make a same-colour sum of exactly 19 and
  one over 19 both possible.
- SU-17: after the supers meet, the nemesis' roll (step 5) and both later moves (steps
  6-7) are skipped: the cards are played, then revealed at once as a Brawn; the round's
  nemesis still starts the next round. Every move (steps 2, 3, 6, 7) has the same limit:
  up to 2 orthogonal steps, 3 when it begins on a Powerboost, staying put allowed. Why: a
  Brawn ignores the Mayhem, so the roll could change nothing, and "then switch" holds.
- SU-25: different colours showing the same number: neither is high, so both cards are
  defeated. Same-colour cards are one high card, so in a Brawn both are victorious (the
  19 limit is a Wits rule only). Why: "high card is victorious" needs a higher card, and
  the rulebook writes the over-19 rule under Wits alone.
- SU-27: both supers on the Mayhem share a space, so it is a Brawn. A super reaches the
  Mayhem only by ending the move on it; passing through does not count. Why: "cards resolve
  ... based on where you end your movement", and Brawn is the first case listed.
- SU-32: a Decoy! reverses only a Ray-Gun outcome in a Brawn; a Decoy! of either colour,
  played by either super, counts. Without a Ray-Gun a Decoy! in a Brawn is just its number.
  Why: the reversal is written inside the Ray-Gun bullet and says "a Decoy!", not "yours".
- SU-35: the Speed chooser sets each card victorious or defeated freely (both victorious or
  both defeated is allowed), except that same-colour cards are one summed high card and
  share one fate. Why: "chooses which cards are victorious" sets no quota, and SU-24 merges
  same-colour cards into one.
- SU-42: if both supers reach a win in the same Showdown, the one with more cards counting
  for them (own colour victorious plus nemesis' colour defeated) wins the game; an equal
  count is a drawn game. Nine rounds without a winner cannot happen (the nine white cards
  all end up on the piles, so five of them share a pile); the same comparison closes a game
  if the hands ever run out. Why: more progress is the fair tiebreak, and a draw when even
  that is level.
- SU-44: in a best of 3 every game is dealt anew, so the cards decide the roles again and
  the Villain starts round 1 of each game. The series ends when a seat has won 2 games, or
  after 3 games (more game wins takes it; level, possible after a drawn game, is a drawn
  series). Why: the set-up, "RANDOM!", belongs to each game, and three games cap the series.
"""

from __future__ import annotations

from engine.games.super_showdown.bots import SEARCH, HeuristicBot
from engine.games.super_showdown.rules import SuperShowdownRules
from engine.registry import register_game

RULES = SuperShowdownRules()
register_game(RULES, bots={"heuristic": HeuristicBot}, search=SEARCH)

__all__ = ["RULES", "HeuristicBot", "SuperShowdownRules"]
