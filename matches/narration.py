"""The play page's and the replay page's narration as a seated player reads it: their own
seat's sentences say "you", and so does another's move done to them (`as_you`), the seat
named as the game's narration names it (`narrated_name`). Spectators, rivals and the API
read the engine's words as they are."""

from __future__ import annotations

import re
from typing import Any

from engine import registry
from matches.models import Match

# The verbs the games' narration opens a seat's sentence with, which `as_you` says to
# that seat as "you" do them, in lower case: the narration writes some as game terms
# ("Red Gives Up…", "Ox Valdane STOPS it…"). A sentence whose next word is not one keeps
# the seat's name (a card named like a seat, "Red Kicks…", is no seat doing something).
SAID_BY_YOU = frozenset((
    "attacks", "bounces", "breaks", "buries", "cancels", "cannot", "catches", "chooses",
    "comes", "discards", "does", "drafts", "draws", "ends", "finds", "finishes", "flips",
    "gives", "goes", "has", "hits", "holds", "interferes", "is", "kicks", "leads", "makes",
    "moves", "mulligans", "opens", "pins", "places", "plays", "picks", "points",
    "protects", "reaches", "reveals", "reverses", "rolls",
    "searches", "sends", "sets", "shows", "shuffles", "spends", "starts", "stays", "stops",
    "stuns", "tags", "takes", "teams", "throws", "turns", "wins",
    "became", "bet", "chose", "discarded", "drew", "held", "moved", "placed", "played",
    "reached", "rolled", "set", "stayed", "voted", "won",
))


def _said_by_you(verb: str) -> str:
    """A narration verb (SAID_BY_YOU) as it agrees with "you": "plays" → "play",
    "chooses" → "choose", "finishes" → "finish", "is" → "are"; the past as it is."""
    if verb in ("is", "has"):
        return {"is": "are", "has": "have"}[verb]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "oes")):
        return verb[:-2]
    if verb.endswith("s"):
        return verb[:-1]
    return verb


# A verb of the narration as its words are written: in lower case ("plays"), or as a game
# term, capitalised ("Gives Up", "Kicks Out") or shouted ("STOPS", "TEAMS UP"), its
# particles capitalised alike. A capitalised word right before a quote starts a card's
# name ('Red Kicks "Low Blow"'), so it is no verb.
_PARTICLES = "up|out|in|off|down|back|over|away"
_VERB = (r"(?:[a-z]+\b|(?:[A-Z][a-z]+|[A-Z]{2,})\b(?:(?i: (?:" + _PARTICLES + r"))\b)*"
         r"(?! \"))")


def _verb_said_by_you(words: str, team: bool = False) -> str | None:
    """A verb of the narration (`_VERB`) as it agrees with "you", or with "your team" when
    `team` (the verb as the seat's name had it), None if it is no verb of SAID_BY_YOU:
    "plays" → "play"; a capitalised game term reads as a plain verb ("Gives Up" → "give
    up", "gives up" for a team) and a shouted one stays shouted ("TEAMS UP" → "TEAM UP")."""
    verb, *particles = words.split(" ")
    if verb.lower() not in SAID_BY_YOU:
        return None
    said = " ".join([verb.lower() if team else _said_by_you(verb.lower()), *particles])
    return said.upper() if verb.isupper() else said.lower()


# Another seat's name, as a clause it opens with the reader's names it: capitalised words
# ("Mira Quickstep", "Seat 2", 'Benny "Back Alley" Cavallo').
_NAMED = r"[A-Z][^\s.!?:;,]*(?: [A-Z0-9\"(][^\s.!?:;,]*)*"

# Where a seat's clause opens: a sentence's start, after a colon or semicolon, or after
# "so" ("Red played a Decoy!, so Red chooses the outcome.").
_OPENS = r"(^|[.!?:;]\s+|\bso\s+)"
# The words after which the games' narration names a seat that a move is done to or aimed
# at ("Red pins Blue", "at Seat 2", "TEAMS UP with Ox Valdane", "moved into Hero's
# space"), which `as_you` says to that seat as "you" ("your"). The name must end a clause
# there (a card named like a seat, "with Red Kicks", is no seat).
DONE_TO_AFTER = ("against", "at", "by", "for", "into", "pins", "stuns", "throws", "to",
                 "with")
_CLAUSE_ENDS = r"(?=[.!?:;,]| (?:and|for|with)\b|$)"


def as_you(lines: list[str], name: str | None, team: bool = False) -> list[str]:
    """Narration `lines` as the seat narration calls `name` reads them: a sentence it
    opens ("Red plays three cards face down.", "Blue (Hero) stayed at (1, 1).") says
    "You" with the verb agreeing ("You play…"), as does a clause it opens after "so"
    ("…, so you choose the outcome."), and the sentence's "their" is "your"; its
    possessive anywhere says "your" ("Your deck…", "…revealed: Blue's Force and your
    Doom."); another's move done to it or aimed at it says "you" ("Blue pins you.",
    "…pointed at you."), as does its name beside another's opening a clause they share
    ("You and Mira Quickstep DOUBLE TEAM!"); every other mention of the name, and every line of a viewer with
    no `name`, stays as it is. A `team` of
    several seats is "Your team", its verb as the seat's, a capitalised game term in
    plain words ("Your team gives up the Block…"). Words only: the sentences are the
    ones every viewer reads, so nothing more is told."""
    if not name:
        return lines
    opener = re.compile(_OPENS + re.escape(name) + r"(?!\w)((?: \((?:Hero|Villain)\))?)"
                        r"(?:('s)\b|( )(" + _VERB + "))")

    def said(found: re.Match[str]) -> str:
        lead, role, possessive, _, verb = found.groups()
        capital = not lead.strip() or lead.strip()[-1] in ".!?"
        if possessive:
            return lead + ("Your" if capital else "your") + (" team's" if team else "")
        agreeing = _verb_said_by_you(verb, team)
        if agreeing is None:
            return found[0]
        if team:
            return f"{lead}{'Your' if capital else 'your'} team{role} {agreeing}"
        return f"{lead}{'You' if capital else 'you'}{role} {agreeing}"

    done_to = re.compile(r"\b(" + "|".join(DONE_TO_AFTER) + r") " + re.escape(name)
                         + r"(?:('s)\b|" + _CLAUSE_ENDS + ")")
    # The seat's possessive anywhere else ("…revealed: Blue's Force and Red's Doom.").
    owned = re.compile(r"(?<![\w'])" + re.escape(name) + r"'s\b")

    def done_to_you(found: re.Match[str]) -> str:
        word, possessive = found.groups()
        if possessive:
            return f"{word} " + ("your team's" if team else "your")
        return f"{word} " + ("your team" if team else "you")

    # Two seats that do something together open a clause ("Ox Valdane and Mira Quickstep
    # DOUBLE TEAM!"): either may be the reader, and the verb agrees with both already.
    you = "your team" if team else "you"
    first = re.compile(_OPENS + re.escape(name) + r" and (?=[A-Z])")
    second = re.compile(_OPENS + "(" + _NAMED + ") and " + re.escape(name)
                        + r"(?= [A-Za-z])")

    def together(part: str) -> str:
        part = first.sub(lambda found: found[1] + (you.capitalize() if not found[1].strip()
                         or found[1].strip()[-1] in ".!?" else you) + " and ", part)
        return second.sub(lambda found: f"{found[1]}{found[2]} and {you}", part)

    out = []
    for line in lines:
        parts = re.split(r"(?<=[.!?])(\s+)", line)
        told = []
        for part in parts:
            new = opener.sub(said, part)
            if new != part and re.match(r"\s*[Yy]ou\b", new):
                new = re.sub(r"\btheir\b", "your", new)
                new = _and_you(new)
            elif new != part and team and re.match(r"\s*[Yy]our team\b", new):
                new = _and_you(new, team=True)
            new = done_to.sub(done_to_you, together(new))
            told.append(owned.sub("your team's" if team else "your", new))
        out.append("".join(told))
    return out


# Where a sentence's own clause ends and another's, which may have another subject, opens.
_NEXT_CLAUSE = re.compile(r"[:;]\s|,\s+so\s")


def _and_you(sentence: str, team: bool = False) -> str:
    """A sentence opened with "You": a verb of its clause joined on by "and" agrees with
    "you" too ("You search the deck and take a card into hand."); opened with "Your team",
    a game term joined so reads as a plain verb ("Your team gives up … and kicks out!").
    A verb after "and" has the clause's subject: another subject would stand between
    them."""
    cut = _NEXT_CLAUSE.search(sentence)
    head, rest = (sentence[:cut.start()], sentence[cut.start():]) if cut else (sentence, "")
    head = re.sub(r"\band (" + _VERB + ")",
                  lambda found: "and " + (_verb_said_by_you(found[1], team) or found[1]),
                  head)
    return head + rest


def narrated_name(match: Match, seat: int | None, view: Any) -> tuple[str | None, bool]:
    """How the narration of `match` names the viewer's `seat`, of which `view` is the
    seat's view (None: a spectator), and whether that name is a team of several seats
    (a Superstar Showdown Event's Red or Blue)."""
    if seat is None or not isinstance(view, dict):
        return None, False
    if match.game == "supershow":  # (by its Competitor, as the seat's panel names it)
        players = view.get("players") or []
        return (str(players[seat].get("name") or "") or None if seat < len(players)
                else None), False
    names = registry.get_rules(match.game).spec.seat_names
    team = False
    if match.game == "superstar_showdown":  # (by its team)
        teams = view.get("teams") or []
        if seat >= len(teams):
            return None, False
        team, seat = teams.count(teams[seat]) > 1, teams[seat]
    return (names[seat] if 0 <= seat < len(names) else None), team
