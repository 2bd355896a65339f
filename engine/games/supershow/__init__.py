"""The Supershow (rules checklist SH-xxx in shared/rules/supershow.md).

Every seat runs one Competitor and its 30-card deck. Match types (option `match_type`):
one_on_one (2 seats), triple_threat_elimination, triple_threat_first_fall, handicap,
tag_team (3 seats: seats 0 and 1 are the team of two, seat 2 the lone side),
tornado_tag_team (4 seats: 0+1 against 2+3), fatal_four_way_elimination and
fatal_four_way_first_fall (4 seats) and birdcage (3-6 seats). Special Guest Referee
(`referee`) and Accompanied to Ringside (`ringside`, `ringside_kind`) combine with the
others (the Birdcage takes a referee). Which rules each type has in force is data
(match.py).

Decisions on the rulebook's open questions, one line of why each:

- SH-006: every Competitor card prints its own six ratings, each a permutation of the
  rulebook's 5-10 (the first Competitor has exactly the listed ones): the card "shows that
  Competitor's Skills", and a permutation keeps raw rolls equally strong for everyone.
- SH-021: a Stop cannot itself be Stopped, its own text does not resolve (only a hit card
  performs its text), and it stays in play as a Lead/Follow-Up that counts for its
  player's chain and `per` counts: "the Stop card played goes into play".
- SH-025: with an empty discard pile a player may still end the turn ("pass"); with cards
  there, ending the turn without a play means burying one: otherwise a hand with no
  playable card would leave no legal action. A player who already played a card this
  turn (the lone Handicap or Tag Team player, SH-087/094: "may play 1 card vs each
  opponent") may end it without the next play and without a bury, and may not bury
  then: a bury is the turn spent instead of a play (SH-011/023).
- SH-027: a bury (or pass) is followed by a turn roll like a play; after a successful
  Breakout a turn roll decides the next turn: every turn ends in a roll.
- SH-034: a Breakout Roll is valued with the defender's own rating for the rolled skill,
  as every other roll is.
- SH-037: our Crowd Meter (data/crowd_meter.yaml) is five cards put into play in order;
  every card in play adds to Finish Rolls or takes from Breakout Rolls; once all five are
  in play it stays there (a Finish is then escaped only by a Breakout bonus or a Save,
  which also ends long matches).
- SH-040: a draw from an empty deck draws nothing (no reshuffle rule); the count-out is
  checked after the turn-roll winner's draw, which is the same thing since that draw can
  only add a card when the deck has one.
- SH-042: Gimmicks are data: always-on roll bonuses and triggered effects from the same
  vocabulary as the cards (see cards.py).
- SH-047: the Mulligan is once only, the deck is not shuffled (the hand goes under it and
  the top cards are drawn), and "the same number" is the hand as it is then (turn-roll
  card included).

- SH-033 (multiplayer): after a successful Breakout only the piles between the finisher
  and the defender go to the discard piles; "either player" names those two.
- SH-053: the Follow-Up/Finish prerequisites are checked per pile: a Lead against one
  opponent does not let you play a Follow-Up against another ("cards in play against a
  specific opponent only interact with that opponent").
- SH-061: a Team Up player discards only their pile against the Finish's target: the
  other piles are about other opponents.
- SH-062: each match type's own list decides (Triple Threat Elimination has Team Up but
  not Bump Out; Triple Threat First Fall neither; both Fatal Four Ways both): the match
  lists are the official rules, the general threshold sentence contradicts them.
- SH-064: a Saver joins once per Finish and rolls with each of its Breakout Rolls; a
  Save die adds its value when it shows the Breakout die's skill. Only team-mates of the
  defender may Save (nobody else has a reason to), and, in a Triple Threat, the
  finisher's Double Team partner (SH-067: "you may still ... SAVE the other player"),
  unless they Teamed Up on that Finish (they cannot be on both sides of it).
- SH-068: "combine their turn roll" is a shared win: the pair takes the turn together,
  both draw a card, the first plays (a Finish resolves), then the second, whose part
  starts as a turn does: a count-out (SH-038) is checked for them then, and each
  partner's "when you win a turn roll" Gimmicks fire at the start of their own part,
  the partners not being each other's opponents for that turn. Bump Out and
  Double Team are never in force in the same match type, so they never meet.
- SH-069: disqualification is outside interference: where DQ is in force and Protecting
  is not, a player may stop a card played between two other players (`interfere`),
  except a Double Team partner's card: the partner Protects the third player from it
  (SH-067, in a First Fall too; no DQ, and the Protector buries the hand, SH-063); the
  card is stopped, the Stop card is thrown out to its discard pile and the interferer is
  disqualified: eliminated in an Elimination match, else their side loses the match
  (a team is one side, as SH-100 has it). The organizer's `dq` option can switch it on or
  off. In the two-sided team matches (Handicap, Tag Team, Tornado Tag Team) every
  bystander is the target's team-mate, who Protects instead (SH-063), so nobody there can
  interfere and `dq` changes nothing: SH-100's team disqualification cannot arise under
  this reading, and "DQ in effect" (SH-083/091) is moot.
- SH-070: the "GM" is the organizer: the options `count_outs`, `dq`, `referee`,
  `ringside` and `ringside_kind` are the GM's statements at the start.
- SH-077: when both double-teaming partners rolled the same value, the lower seat plays
  first.
- SH-086/088/093: a choice the rulebook gives a pair ("they choose", "they can
  choose": whether to Double Team, which tied team-mate starts) is posted once, for both,
  by the partner who would play first (the higher die; on equal dice the lower seat).
  "Attack any opposing player in their chosen order" is read as each partner choosing
  whom their own play is against; the pair plays in the Triple Threat's order
  (SH-076/077). A partner is never offered to Stop the other's card in the two-sided
  team matches: it would only help the other side.
- SH-080: a submission Finish is a fall like a pinfall (the Finish rules head both).
- SH-081: an Elimination match ends when one player (or one team) is left; they win.
  Result placements: winners first, then players still in, then the eliminated, the
  last one out best.
- SH-085: DQ is in force in the Handicap and Tag Team matches whether or not count-outs
  are (the line stands on its own in both lists).
- SH-089: a tie for the highest turn roll across sides (or between lone players, without
  Bump Out) is an ordinary bump: everyone draws a card and rolls again.
- SH-096: the Tag Team match's lone seat runs a printed Tag Team, or a single Competitor
  with a second single as its ringside companion: one deck and the first's ratings, both
  Gimmicks.
- SH-104: every multiplayer match keeps separate in-play piles (Tornado Tag included);
  Fatal Four Way First Fall has count-outs on, like Triple Threat First Fall.
- SH-109: Battle Royal is named but has no rules: it is not offered.
- SH-111/114: our 162 preset cards are six of each number 1-27, the number's two designs
  in turn; the six Competitor sets are dealt at random (one stored chance event with the
  entrant numbers); the draft is open: every pick is public.
- SH-118: each player takes exactly one card from an opened pile and the rest is set
  aside, so every deck keeps one card of each number (SH-050) whatever the player count;
  the opener of the next pile moves one entrant to the right each time (entrant 2 first;
  a seat out of the match is skipped, see the forfeit below).
- SH-120: the meter rises every six turn rolls (after rolls 6, 12, 18, ...) until its
  eight cards are in play, whether or not an entrant is still waiting. It rises as soon as
  that roll is made, so each card's Finish and Breakout modifiers count already in the turn
  the roll decides; the entrant it calls comes in at the next turn roll and rolls in it.
- SH-123: an entrant draws three cards (an opening hand) and gets +2 on its first turn
  roll, as our meter cards say; the last two cards bring no one.
- SH-124/125: in the Birdcage a disqualified interferer is eliminated too (DQ is in
  force); the last one standing wins only once nobody is waiting to enter. A player left
  alone inside while entrants wait does not roll against nobody: the next entrant comes in
  at once, the Birdcage Crowd Meter rising as at any entry; that extra rise leaves the
  six-roll schedule (SH-120) where it was.

Further engine decisions:

- Termination: after `turn_limit` turn rolls (default 200, bumps included) the match is a
  time-limit draw; the rules alone do not end a match whose players only bury. Those
  still in share first place; in a Birdcage whose limit comes before every entrant is in,
  the entrants still waiting share the next place (never beaten, but never in), ahead of
  the eliminated; one the meter called at the last roll is still waiting (it would enter
  during the next turn roll, SH-120).
- Stop window: who is asked depends only on public facts, never on a hand, so that
  being asked reveals nothing about it. The target is asked whenever they hold any card,
  even without a matching Stop; then the card's player's Double Team partner, who
  Protects (SH-067); then, in seat order, every team-mate of the target where
  Protecting is in force (SH-063), or every player on neither side where DQ is
  (interference, SH-069), again whenever they hold any card. A seat without a matching
  Stop has one action, the decline (`no_stop`), narrated as any other decline.
- Multiplayer card texts: "your opponent" in a card's text means the card's target; in a
  Gimmick it means every opponent; `per` and `in_play` counts of a Gimmick read every
  pile of yours.
- Search: the searcher picks one matching card from the deck (only they see the choices),
  then the deck is shuffled as a stored chance event.
- A Finish with a submission skill wins "by submission", any other "by pinfall".

A forfeit (a player resigns, an organizer forfeits the seat) in an Elimination match
(Triple Threat and Fatal Four Way Elimination, the Birdcage: SH-072/106/124) is a
`{"kind": "forfeit", "seat": s}` event in the stream, the system's event as a chance
outcome is, which `apply` takes for any seat still in (or still waiting to enter) once the
Competitors are in the ring, and in a Birdcage from the deal of its entrant numbers on,
its draft included (`forfeit_eliminates`). The seat is eliminated as SH-072 eliminates a
player, and the match goes on; in every other match type the match service ends the
match as before (the forfeiter's side last):

- Its cards in play, and those played against it, go to the discard piles (SH-072); its
  hand goes under its deck unseen, so nothing hidden is shown. A Birdcage entrant still
  waiting never enters (the meter's call of it passes to the next one waiting, SH-120).
- If it takes part in the turn under way (it takes the turn, a play or a Finish is
  against it, it is a Double Team partner, or the turn roll is not settled yet), the turn
  stops: a card waiting for Stops goes to its player's discard pile, a Finish and effects
  still to come lapse, and a turn roll follows (SH-027: every turn ends in a roll). So
  does a turn whose player has nobody left to play against (a Birdcage's last two inside).
- Otherwise only its own part ends: it is asked no more to Stop, Team Up, Save or choose
  for an effect, and what waited on it goes on (the card hits when nobody else may Stop).
- SH-081: one side left, nobody waiting, wins; placements put the eliminated after those
  still in, the last out best, the forfeit counting as its elimination.
- During a Birdcage's draft (SH-115..118) the others draft on without the seat, as the
  SH-118 decision has fewer players draft. Its Competitor and the cards it took are set
  aside face up with the cards nobody takes (the draft is open, so nothing is revealed):
  nothing goes back to the Competitor pile or a number pile, so a forfeit never changes
  what the others may choose from, nor hands a card on to the next picker; every pile
  still holds a card for each player left (six for at most five), so their decks are
  whole 1-30 decks. The seat is skipped when a pile passes to the right (if it was to
  pick, the next player to its right picks) and when its turn to open a pile comes: the
  next player to its right still in opens it, and the openers go on to the right from
  there (entrant 3 opens the first pile if entrant 2 forfeited).
  It gets no deck and never enters the cage: the two lowest entrant numbers still in
  start inside (SH-119; entrants 2 and 3 if entrant 1 forfeited), the others wait in
  entrant order for the meter's calls (SH-120). A forfeit that leaves one player ends the
  match, that player winning (SH-125), as after the draft.
"""

from __future__ import annotations

from engine.games.supershow.bots import SEARCH, HeuristicBot
from engine.games.supershow.rules import SPEC, SupershowRules
from engine.registry import register_game

RULES = SupershowRules()
register_game(RULES, bots={"heuristic": HeuristicBot}, search=SEARCH)

__all__ = ["RULES", "SPEC", "HeuristicBot", "SupershowRules"]
