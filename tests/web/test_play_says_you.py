"""The play page tells a seated player's own moves as "you" (its log, its live region and
its result line), and a rival's move done to them too; rivals' own names, spectators'
pages and the API's narration keep the seat names the rules give."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine import registry
from engine.protocol import Event, PendingKind
from matches import services
from matches.models import Match
from matches.narration import SAID_BY_YOU, as_you, narrated_name

# Bot seats reply in an on_commit hook, which needs real commits.
pytestmark = pytest.mark.django_db(transaction=True)

GAMES = ("super_showdown", "superstar_showdown", "supershow", "ultimate_showdown",
         "royal_rumble")


def log_lines(page: str) -> dict[int, list[str]]:
    """The page's log: each event's lines by seq."""
    return {int(seq): [html.unescape(line) for line in
                       re.findall(r'<span class="line">(.*?)</span>', body)]
            for seq, body in re.findall(r'<li value="(\d+)">(.*?)</li>', page, re.S)}


def opens_with(line: str, name: str) -> bool:
    """Whether `line` is a sentence of the seat `name` doing something (a verb follows)."""
    found = re.match(re.escape(name) + r"(?: \((?:Hero|Villain)\))? ([a-z]+)\b", line)
    return found is not None and found[1] in SAID_BY_YOU


def page_of(user: Any, match: Match) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("match_play", args=[match.id])).content.decode()


def played_until_both_told(match: Match, player: Any, rival: int) -> tuple[str, str]:
    """Alice plays her first legal action (the bots answer) until the log has a sentence of
    her seat doing something and one of the rival seat's; the two seats' narrated names."""
    view = services.match_state(match=match, user=player)["view"]
    mine, _ = narrated_name(match, 0, view)
    theirs, _ = narrated_name(match, rival, view)
    assert mine and theirs
    for _ in range(80):
        events = services.match_events(match=match, user=player)
        lines = [line for event in events for line in event["narration"]]
        if any(opens_with(line, mine) for line in lines) and \
                any(opens_with(line, theirs) for line in lines):
            return mine, theirs
        state = services.match_state(match=match, user=player)
        assert state["legal_actions"], "alice should be asked again before it is told"
        services.submit_action(match=match, seat=0, action=state["legal_actions"][0],
                               user=player)
        match.refresh_from_db()
    pytest.fail("no move of each seat was told")


@pytest.mark.parametrize("game", GAMES)
def test_a_seated_player_reads_their_own_moves_as_you_and_the_rivals_by_name(
        game: str, alice_client: Client, player: Any, outsider: Any,
        seeded_chance: None) -> None:
    seats = registry.get_rules(game).spec.min_seats
    match = services.create_match(game=game, options={}, created_by=player,
                                  seats=[{"player": player.username}]
                                  + [{"bot": "random"}] * (seats - 1))
    mine, theirs = played_until_both_told(match, player, 1)
    assert narrated_name(match, 1, services.match_state(match=match, user=player)["view"]) \
        == (theirs, False)
    told = services.match_events(match=match, user=player)  # the API's, unchanged
    alice, olga = log_lines(page_of(player, match)), log_lines(page_of(outsider, match))
    own = rival = last_own = 0
    for event in told:
        if event["seq"] not in alice:
            continue  # (older than the page's log)
        for line, said, seen in zip(event["narration"], alice[event["seq"]],
                                    olga[event["seq"]], strict=True):
            if opens_with(line, mine):
                own, last_own = own + 1, event["seq"]
                assert said.startswith("You ") and not said.startswith(mine), (line, said)
                assert not seen.startswith("You"), seen  # a spectator reads the seat's name
            elif opens_with(line, theirs):
                rival += 1
                # the rival's move reads as a spectator reads it
                assert not said.startswith("You") and said[:9] == seen[:9], (line, said)
            if game != "royal_rumble":  # (whose page names a seat by its player)
                assert seen == line
                assert mine in line or said == line
    assert own and rival
    assert not any(line.startswith("You") for event in told for line in event["narration"])
    # The live region says it too: a poll of a page that showed the match before alice's
    # last told move hears it.
    url = reverse("match_state", args=[match.id])
    partial = alice_client.get(url, {"seq": last_own - 1, "status": match.status},
                               HTTP_HX_REQUEST="true").content.decode()
    announced = html.unescape(
        partial.split('<div id="match-announce" hx-swap-oob="innerHTML">')[1]
        .split("</div>")[0])
    assert re.search(r"(^|[.!?] )You(?: \(\w+\))? [a-z]", announced), announced
    assert not re.search(r"(^|[.!?] )" + re.escape(mine) + r"(?: \(\w+\))? [a-z]",
                         announced), announced


@pytest.mark.parametrize(("line", "name", "said"), [
    ("Red plays three cards face down.", "Red", "You play three cards face down."),
    ("Blue (Hero) stayed at (1, 1).", "Blue", "You (Hero) stayed at (1, 1)."),
    ("Round 2 began: Red (Villain) starts.", "Red", "Round 2 began: you (Villain) start."),
    ("Red held five white cards; Blue became the Villain.", "Blue",
     "Red held five white cards; you became the Villain."),
    ("Seat 1 does not defend.", "Seat 1", "You do not defend."),
    ("Seat 10 does not defend.", "Seat 1", "Seat 10 does not defend."),
    ("Seat 1 is out. Seat 2 has the token.", "Seat 2", "Seat 1 is out. You have the token."),
    ("Seat 1 is out.", "Seat 1", "You are out."),
    ("Ox Valdane shuffles their deck (30 cards).", "Ox Valdane",
     "You shuffle your deck (30 cards)."),
    ("Mira Quickstep buries 2 cards. Ox Valdane finishes it.", "Ox Valdane",
     "Mira Quickstep buries 2 cards. You finish it."),
    ("Ox Valdane searches the deck.", "Ox Valdane", "You search the deck."),
    # A verb joined on by "and" has the sentence's subject: it agrees with "you" too.
    ("Ox Valdane searches the deck and takes a card into hand.", "Ox Valdane",
     "You search the deck and take a card into hand."),
    ("Seat 2 takes the Legends token and is the Titleholder.", "Seat 2",
     "You take the Legends token and are the Titleholder."),
    ("Blue stuns Red and plays an extra card.", "Blue", "You stun Red and play an extra card."),
    ("Ox Valdane has nothing to bury and ends the turn.", "Ox Valdane",
     "You have nothing to bury and end the turn."),
    # Every verb the games open a seat's sentence with.
    ("Ox Valdane ends the turn.", "Ox Valdane", "You end the turn."),
    ("Ox Valdane comes in for the SAVE!", "Ox Valdane", "You come in for the SAVE!"),
    ("Ox Valdane interferes with Chair: DISQUALIFIED!", "Ox Valdane",
     "You interfere with Chair: DISQUALIFIED!"),
    ("Ox Valdane opens pile #2.", "Ox Valdane", "You open pile #2."),
    ("Ox Valdane shows a hand without a Lead and mulligans 5 cards.", "Ox Valdane",
     "You show a hand without a Lead and mulligan 5 cards."),
    ("Red reaches the Tag Zone.", "Red", "You reach the Tag Zone."),
    ("Red tags out: Vex tags in.", "Red", "You tag out: Vex tags in."),
    ("Red drafts Vex.", "Red", "You draft Vex."),
    ("Red sends in Vex.", "Red", "You send in Vex."),
    ("Red spends 3 cards on the Bonus card.", "Red", "You spend 3 cards on the Bonus card."),
    ("Red turns 2 cards into 2 bonus Ranking Points.", "Red",
     "You turn 2 cards into 2 bonus Ranking Points."),
    ("Blue played a Decoy!, so Red chooses and takes it.", "Blue",
     "You played a Decoy!, so Red chooses and takes it."),
    ("Position 1: Red reveals Slam \"Barn Door Slam\".", "Red",
     "Position 1: you reveal Slam \"Barn Door Slam\"."),
    ("The cards were revealed: Blue's Force and Red's Doom.", "Blue",
     "The cards were revealed: your Force and Red's Doom."),
    ("The cards were revealed: Blue's Force and Red's Doom.", "Red",
     "The cards were revealed: Blue's Force and your Doom."),
    # A possessive after none of DONE_TO_AFTER's words, and a clause opened after "so".
    ("A tie! Green's POW! vote counted twice; the marker moves on Red's side.", "Red",
     "A tie! Green's POW! vote counted twice; the marker moves on your side."),
    ("Seat 2 discards Seat 1's Haymaker and Seat 10's Jab.", "Seat 1",
     "Seat 2 discards your Haymaker and Seat 10's Jab."),
    ("Red played a Decoy!, so Blue chooses the outcome.", "Blue",
     "Red played a Decoy!, so you choose the outcome."),
    ("Red played a Decoy!, so Blue chooses the outcome.", "Red",
     "You played a Decoy!, so Blue chooses the outcome."),
    ("Blue pins Red, so Red's side loses a fall.", "Red",
     "Blue pins you, so your side loses a fall."),
    ("Fred's card is played.", "Red", "Fred's card is played."),
    # A card named like a seat is no seat doing something, nor one a move is aimed at.
    ("Red Kicks \"Low Blow\" is played.", "Red", "Red Kicks \"Low Blow\" is played."),
    ("Blue reverses with Red Kicks \"Low Blow\".", "Red",
     "Blue reverses with Red Kicks \"Low Blow\"."),
    # Another's move done to the seat, or aimed at it, says "you" (or "your").
    ("Blue moved into Red's space at (2, 2).", "Red", "Blue moved into your space at (2, 2)."),
    ("Blue pins Red: the first fall! One more to win.", "Red",
     "Blue pins you: the first fall! One more to win."),
    ("Blue pins Red for the count!", "Blue", "You pin Red for the count!"),
    ("Red stuns Blue and plays an extra card.", "Blue", "Red stuns you and plays an extra card."),
    ("The coin flip goes to Blue: Blue picks first.", "Blue",
     "The coin flip goes to you: you pick first."),
    ("Seat 2 places an Attack face down pointed at Seat 1 with a Boost.", "Seat 1",
     "Seat 2 places an Attack face down pointed at you with a Boost."),
    ("Seat 2 reveals Haymaker at Seat 10: speed 4.", "Seat 1",
     "Seat 2 reveals Haymaker at Seat 10: speed 4."),
    ("Ace (Seat 1) is eliminated by Seat 2!", "Seat 2", "Ace (Seat 1) is eliminated by you!"),
    ("Mira Quickstep TEAMS UP with Ox Valdane!", "Ox Valdane",
     "Mira Quickstep TEAMS UP with you!"),
    ("Mira Quickstep plays Suplex against Ox Valdane (2).", "Ox Valdane (2)",
     "Mira Quickstep plays Suplex against you."),
    ("Red won the Ultimate Showdown. Scores: Red 20, Green 13.", "Red",
     "You won the Ultimate Showdown. Scores: Red 20, Green 13."),
    ("Red plays three cards face down.", None, "Red plays three cards face down."),
    # A verb written as a game term, capitalised or shouted, agrees with "you" too, its
    # particles with it; a capitalised one reads as a plain verb, a shouted one shouts.
    ("Red Gives Up the Block Block \"Iron Wall\" and stops the hit.", "Red",
     "You give up the Block Block \"Iron Wall\" and stop the hit."),
    ("Blue Gives Up Grapple \"Millstone Press\" from hand.", "Blue",
     "You give up Grapple \"Millstone Press\" from hand."),
    ("Two! Red Gives Up Strike \"Knee Lift\".", "Red", "Two! You give up Strike \"Knee Lift\"."),
    ("Red Gives Up Strike \"Knee Lift\" and Kicks Out!", "Red",
     "You give up Strike \"Knee Lift\" and kick out!"),
    ("Red Kicks Out!", "Red", "You kick out!"),
    ("Red Gives Up Strike \"Knee Lift\" and Kicks Out!", "Blue",
     "Red Gives Up Strike \"Knee Lift\" and Kicks Out!"),
    ("Red has no card left to Give Up and is Knocked Out!", "Red",
     "You have no card left to Give Up and are Knocked Out!"),
    ("Ox Valdane STOPS it with Stop \"Hard Counter\"!", "Ox Valdane",
     "You STOP it with Stop \"Hard Counter\"!"),
    ("Ox Valdane PROTECTS with Stop \"Hard Counter\" and buries 3 cards from hand.",
     "Ox Valdane", "You PROTECT with Stop \"Hard Counter\" and bury 3 cards from hand."),
    ("Ox Valdane TEAMS UP with Mira Quickstep!", "Ox Valdane",
     "You TEAM UP with Mira Quickstep!"),
    # Two seats doing something together: either may be the reader.
    ("Ox Valdane and Mira Quickstep DOUBLE TEAM!", "Ox Valdane",
     "You and Mira Quickstep DOUBLE TEAM!"),
    ("Ox Valdane and Mira Quickstep DOUBLE TEAM!", "Mira Quickstep",
     "Ox Valdane and you DOUBLE TEAM!"),
    ("Ox Valdane and Mira Quickstep DOUBLE TEAM!", "Quickstep",
     "Ox Valdane and Mira Quickstep DOUBLE TEAM!"),
    ("Blue pins Red and Red loses a fall.", "Red", "Blue pins you and Red loses a fall."),
    # A capitalised word before a quote starts a card's name, a verb or not.
    ("Red Kicks \"Low Blow\" is played.", "Red", "Red Kicks \"Low Blow\" is played."),
    ("Red Stops \"Low Blow\".", "Red", "Red Stops \"Low Blow\"."),
])
def test_a_seats_sentences_say_you_with_the_verb_agreeing(line: str, name: str | None,
                                                           said: str) -> None:
    assert as_you([line], name) == [said]


@pytest.mark.parametrize(("line", "said"), [
    ("Red plays three cards face down.", "Your team plays three cards face down."),
    ("Red shuffles their deck.", "Your team shuffles their deck."),
    ("Position 1: Red reveals Slam.", "Position 1: your team reveals Slam."),
    ("Red's deck is empty.", "Your team's deck is empty."),
    ("Blue plays three cards face down.", "Blue plays three cards face down."),
    ("Blue throws Red.", "Blue throws your team."),
    ("Vex enters the Gauntlet for Red!", "Vex enters the Gauntlet for your team!"),
    ("Blue takes Red's teammate Vex, so Red chooses first.",
     "Blue takes your team's teammate Vex, so your team chooses first."),
    ("Red Gives Up Grapple \"Millstone Press\" from hand.",
     "Your team gives up Grapple \"Millstone Press\" from hand."),
    ("Red Gives Up the Block Block \"Iron Wall\" and stops the hit.",
     "Your team gives up the Block Block \"Iron Wall\" and stops the hit."),
    ("Two! Red Gives Up Strike \"Knee Lift\" and Kicks Out!",
     "Two! Your team gives up Strike \"Knee Lift\" and kicks out!"),
    ("Red STOPS it.", "Your team STOPS it."),
])
def test_a_team_of_several_seats_is_your_team(line: str, said: str) -> None:
    """A Superstar Showdown Event names a side of up to three seats by its colour: each
    of its players reads it as their team, not as "you"."""
    assert as_you([line], "Red", team=True) == [said]


def test_a_seat_of_a_team_of_several_reads_its_teams_moves_as_your_team(
        player: Any, outsider: Any) -> None:
    match = services.create_match(game="superstar_showdown",
                                  options={"event": "tag_team_series"}, created_by=player,
                                  seats=[{"player": player.username}] + [{"bot": "random"}] * 3)
    view = services.match_state(match=match, user=player)["view"]
    assert narrated_name(match, 0, view) == ("Red", True)
    for _ in range(80):
        told = services.match_events(match=match, user=player)
        if any(opens_with(line, "Red") for event in told for line in event["narration"]):
            break
        state = services.match_state(match=match, user=player)
        if state["legal_actions"]:
            services.submit_action(match=match, seat=0, action=state["legal_actions"][0],
                                   user=player)
        match.refresh_from_db()
    else:
        pytest.fail("Red was never told doing something")
    alice, olga = log_lines(page_of(player, match)), log_lines(page_of(outsider, match))
    ours = 0
    for event in told:
        if event["seq"] not in alice:
            continue  # (older than the page's log)
        for line, said, seen in zip(event["narration"], alice[event["seq"]],
                                    olga[event["seq"]], strict=True):
            assert seen == line
            if opens_with(line, "Red"):
                ours += 1
                # only the case of a game term changes: "Your team gives up…"
                assert said.lower() == ("your team" + line[len("Red"):]).lower(), (line, said)
                assert re.match(r"Your team ([a-z]|[A-Z]{2,}\b)", said), (line, said)
    assert ours


def replay_lines(user: Any, match: Match, at: int) -> list[str]:
    """The replay page's narration of event `at`, as `user` reads it."""
    client = Client()
    client.force_login(user)
    page = client.get(reverse("match_replay", args=[match.id]), {"at": at}).content.decode()
    told = page.split('<div class="narration">')[1].split("</div>")[0]
    return [html.unescape(line) for line in re.findall(r"<p>(.*?)</p>", told)]


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_tells_a_seated_player_their_own_moves_as_you(
        game: str, player: Any, outsider: Any, seeded_chance: None) -> None:
    """The replay of a match reads to one of its players as its play page does: their own
    seat's sentences say "you"; the rivals', a spectator's replay and the API's keep the
    names."""
    seats = registry.get_rules(game).spec.min_seats
    match = services.create_match(game=game, options={}, created_by=player,
                                  seats=[{"player": player.username}]
                                  + [{"bot": "random"}] * (seats - 1))
    mine, theirs = played_until_both_told(match, player, 1)
    told = services.match_events(match=match, user=player)
    steps = {kind: next(event for event in told
                        if any(opens_with(line, name) for line in event["narration"]))
             for kind, name in (("own", mine), ("rival", theirs))}
    for kind, event in steps.items():
        at = event["seq"]
        api = services.replay_view(match=match, user=player, at=at)["narration"]
        assert api == event["narration"]  # (the API's replay keeps the seat names)
        said, seen = replay_lines(player, match, at), replay_lines(outsider, match, at)
        assert len(said) == len(seen) == len(api)
        for line, mine_said, spectator_saw in zip(api, said, seen, strict=True):
            if game != "royal_rumble":  # (whose pages name a seat by its player)
                assert spectator_saw == line
            assert not spectator_saw.startswith("You")
            if opens_with(line, mine):
                assert mine_said.startswith("You "), (line, mine_said)
                if game != "royal_rumble":
                    assert mine_said == as_you([line], mine)[0]
            elif opens_with(line, theirs):  # (what it does to the reader says "you")
                assert mine_said == spectator_saw or mine in line, (line, mine_said)
        if kind == "own":
            assert any(line.startswith("You ") for line in said)


def played_until_aimed_at(match: Match, player: Any, phrase: str) -> dict[str, Any]:
    """Alice plays her first legal action (the bots answer) until the API tells a rival's
    move whose narration has `phrase`; that event."""
    for _ in range(80):
        for event in services.match_events(match=match, user=player):
            if event["seat"] != 0 and any(phrase in line for line in event["narration"]):
                return event
        state = services.match_state(match=match, user=player)
        assert state["legal_actions"], "alice should be asked again before it is told"
        services.submit_action(match=match, seat=0, action=state["legal_actions"][0],
                               user=player)
        match.refresh_from_db()
    pytest.fail(f"no rival's move was told {phrase!r}")


def test_a_rivals_move_aimed_at_a_seated_player_says_you_on_their_pages_alone(
        player: Any, outsider: Any, seeded_chance: None) -> None:
    """"Seat 2 places an Attack face down pointed at Seat 1": alice, in seat 1, reads
    "pointed at you" in the play page's log and in the replay; a spectator reads the seat
    by its player's name, and the API the rules' words."""
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": player.username}, {"bot": "random"}])
    event = played_until_aimed_at(match, player, "pointed at Seat 1")
    (line,) = [line for line in event["narration"] if "pointed at Seat 1" in line]
    index = event["narration"].index(line)
    said = log_lines(page_of(player, match))[event["seq"]][index]
    seen = log_lines(page_of(outsider, match))[event["seq"]][index]
    assert "pointed at you" in said and "Seat 1" not in said, said
    assert "you" not in seen.split() and f"pointed at {player.username}" in seen, seen
    replayed = replay_lines(player, match, event["seq"])[index]
    assert replayed == said
    assert replay_lines(outsider, match, event["seq"])[index] == seen
    assert services.replay_view(match=match, user=player, at=event["seq"])["narration"][
        index] == line


# A Supershow match type with each of its game terms: Team Ups (at four seats), Protects
# (a team's).
MATCH_TYPES = {"supershow": (("fatal_four_way_first_fall", 4), ("tornado_tag_team", 4))}


def game_term_sentences(game: str, seed: int) -> list[tuple[str, str]]:
    """A seeded random playout of `game` in the rules alone: each sentence of its
    narration that a seat's name opens with a capitalised word after it (a game term,
    "Red Gives Up…", "Ox Valdane STOPS it…"), with that name."""
    rules, rng = registry.get_rules(game), random.Random(seed)
    options, seats = {}, rules.spec.min_seats
    if game in MATCH_TYPES:
        match_type, seats = MATCH_TYPES[game][seed % len(MATCH_TYPES[game])]
        options = {"match_type": match_type}
    state = rules.start(options, seats)
    told: list[tuple[str, str]] = []
    while (pending := rules.pending(state)).kind is not PendingKind.END:
        if pending.kind is PendingKind.CHANCE:
            event = Event.chance(rules.sample_chance(state, rng))
        else:
            seat = rng.choice(pending.seats)
            event = Event.decision(seat, rng.choice(rules.legal_actions(state, seat)))
        view = rules.view(state, None)
        names = ([player["name"] for player in view["players"]] if game == "supershow"
                 else list(rules.spec.seat_names))
        for line in rules.narrate(state, event):
            for sentence in re.split(r"(?<=[.!?])\s+", line):
                told += [(sentence, name) for name in names
                         if re.match(re.escape(name) + r" [A-Z]{1,}[a-z]*\b(?! \")",
                                     re.sub(r"^(One|Two|Three)! ", "", sentence))]
        state = rules.apply(state, event)
    return told


@pytest.mark.parametrize(("game", "terms"), [
    ("superstar_showdown", ("Gives Up", "Kicks Out")),
    ("supershow", ("STOPS", "PROTECTS", "TEAMS UP")),
])
def test_a_seats_sentences_told_with_a_game_term_say_you(game: str,
                                                        terms: tuple[str, ...]) -> None:
    """The games' own narration, as random play tells it: every sentence a seat opens with
    a capitalised game term reads "You" to that seat, the term agreeing, and as it is to
    the other seats."""
    told: list[tuple[str, str]] = []
    for seed in range(40):
        told += game_term_sentences(game, seed)
        if all(any(term in sentence for sentence, _ in told) for term in terms):
            break
    for term in terms:
        assert any(term in sentence for sentence, _ in told), term
    for sentence, name in told:
        said = as_you([sentence], name)[0]
        assert re.match(r"(?:(?:One|Two|Three)! )?You [a-z]+|You [A-Z]+\b", said), said
        assert not re.search(r"\bYou (?:[A-Z][a-z]+|[A-Z]+S)\b", said), said
        for other in {other for _, other in told} - {name}:
            if other not in sentence:
                assert as_you([sentence], other) == [sentence]
