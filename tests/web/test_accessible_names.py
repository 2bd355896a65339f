"""Every control on the player pages has a name a screen reader reads (tests/a11y.py): each
link and button says what it does, each form field has its label, and no id is given twice
(a label then names the first field of that id, and the other goes unnamed); and no title
says again the words a control or a header is read by. The lobby, the account page with
its every form (and with a form's refusals), each game's play page at its seat's
decisions, the replay, an Event's page, a player's page and the ratings."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from engine.protocol import Event, PendingKind
from engine.registry import get_rules
from league import events
from league.models import Player
from matches import services
from tests.a11y import Page, names_shared, text, titles_repeated, unnamed
from tests.conftest import accepted, event_match
from tests.markup import TEMPLATES, template_markup

pytestmark = pytest.mark.django_db

# Glyphs a screen reader reads by their Unicode names ('black star', 'rightwards arrow'):
# on a game's page each stands for words that are beside it or hidden beside it for
# screen readers, and is itself hidden from them.
GLYPHS = "★✖→▶⚡🏆"
# Where a glyph is the thing explained: a legend's "★ starts".
GLYPH_LEGENDS = ("<span>★ starts</span>",)
# A table's headers shown short, each read in its word.
ABBREVIATIONS = {"W", "D", "L", "Pts", "Ev", "RP", "MP"}


def faults(html: str) -> list[str]:
    """What a screen reader finds unnamed on a page, or reads twice."""
    return unnamed(html) + titles_repeated(html)


GAMES = [
    ("super_showdown", {}, 2),
    ("superstar_showdown", {}, 2),
    ("superstar_showdown", {"event": {"matches": [{"match": "tag_team",
                                                   "stipulation": "standard_1"},
                                                  {"match": "head_to_head",
                                                   "stipulation": "hardcore"}],
                                      "superstars_per_team": 2}}, 2),
    ("supershow", {"match_type": "birdcage"}, 3),
    ("royal_rumble", {}, 3),
    ("ultimate_showdown", {}, 3),
]


def test_the_account_page_names_every_field_with_every_form_shown(
        alice_client: Client, settings: Any) -> None:
    settings.TURN_MAIL = True
    page = alice_client.get(reverse("account"))
    assert faults(page.content.decode()) == []
    for form, sent in (("email", {"email": "not an address"}),
                       ("password", {"old_password": "not-it"}),
                       ("close", {"password": "not-it"})):
        page = alice_client.post(reverse("account"), {"form": form, **sent})
        assert page.status_code in (400, 403), form
        assert faults(page.content.decode()) == [], form


def test_the_lobby_names_every_control(alice_client: Client, player: Any, player2: Any,
                                       outsider: Any, organizer: Any) -> None:
    services.create_match(game="royal_rumble", options={}, created_by=player2,
                          seats=[{"player": "bruno"}, {"player": "alice"}, {"open": True}])
    services.create_match(game="super_showdown", options={}, created_by=organizer,
                          seats=[{"player": outsider.username}, {"open": True}])
    over = accepted(services.create_match(game="super_showdown", options={}, created_by=player,
                                          seats=[{"player": "alice"}, {"player": "bruno"}]))
    services.resign(match=over, user=player2)
    event_match(organizer, player, finish=False)  # its row links its Event
    page = alice_client.get(reverse("lobby")).content.decode()
    assert "invitations" in page and "replay" in page and "-event" in page
    assert faults(page) == []


@pytest.mark.parametrize(("game", "options", "seats"), GAMES,
                         ids=["super_showdown", "superstar_showdown", "superstar_event",
                              "supershow", "royal_rumble", "ultimate_showdown"])
def test_each_games_play_page_names_every_control_at_each_decision(
        alice_client: Client, player: Any, player2: Any, outsider: Any, organizer: Any,
        seeded_chance: None, game: str, options: dict[str, Any], seats: int) -> None:
    people = [player, player2, outsider][:seats]
    match = services.create_match(game=game, options=options, created_by=organizer,
                                  seats=[{"player": p.username} for p in people])
    rules, rng, shown = get_rules(game), random.Random(3), 0
    url = reverse("match_play", args=[match.id])
    for _ in range(400):
        match.refresh_from_db()
        state = services.load_state(match)
        pending = rules.pending(state)
        if 0 in pending.seats:
            assert faults(alice_client.get(url).content.decode()) == [], shown
            shown += 1
        if not pending.seats:
            break
        seat = pending.seats[0]
        services.submit_action(match=match, seat=seat, user=people[seat],
                               action=rng.choice(rules.legal_actions(state, seat)))
    assert shown > 3
    assert faults(alice_client.get(url).content.decode()) == []  # over, or still going
    replay = reverse("match_replay", args=[match.id])
    for at in range(0, match.seq + 1, max(1, match.seq // 10)):
        assert faults(alice_client.get(replay, {"at": at}).content.decode()) == [], at


def test_the_league_pages_name_every_control(alice_client: Client, player: Any,
                                             player2: Any, outsider: Any,
                                             organizer: Any) -> None:
    season = events.create_season(name="Spring league", game="super_showdown", by=organizer)
    cup = events.create_event(name="Friday night cup", game="super_showdown",
                              format="single_elimination", season=season, by=organizer)
    for user in (player, player2, outsider):
        events.add_entrant(event=cup, by=organizer, player=user.username)
    events.start_event(event=cup, by=organizer)
    pages = [reverse("league:event", args=[cup.pk]), reverse("league:season", args=[season.pk]),
             reverse("league:seasons"), reverse("league:ratings"),
             reverse("league:player", args=[Player.objects.get(user=player).pk])]
    for url in pages:
        page = alice_client.get(url).content.decode()
        assert faults(page) == [], url
        # The header's link to the account read 'alice', as the links to her player page
        # do: a list of links read two 'alice' leading to different places.
        assert names_shared(page) == [], url


def test_no_template_gives_a_title_its_element_is_read_by_already() -> None:
    """A header read "Wins" (a hidden word beside its "W") had the title "Wins" too, and an
    action button the title of its own label: read twice, and never shown on a phone. Every
    template, for the pages no test above walks (a simulation's, a season's standings)."""
    repeated = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for found in titles_repeated(template_markup(path.read_text())):
            if "title 'x'" not in found:  # a printed title: the pages walked above judge it
                repeated.append(f"{path.relative_to(TEMPLATES)}: {found}")
    assert repeated == []


def test_no_header_is_read_as_its_abbreviation() -> None:
    """A simulation's "W" and "D" headers were read as the letters, their words in a title
    a screen reader reads after them and a phone never shows: the page's other tables show
    the letter and hide the word beside it for screen readers."""
    read = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        page = Page(template_markup(path.read_text()))
        read += [f"{path.relative_to(TEMPLATES)}: <th> at line {e.line} read {text(e)!r}"
                 for e in page.elements if e.tag == "th" and text(e) in ABBREVIATIONS]
    assert read == []


def test_an_events_links_to_its_matches_and_replays_read_apart(
        alice_client: Client, player: Any, organizer: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """Each finished match of an Event's page had a link read 'replay', the same words for
    every match in a screen reader's list of links; the player page's say whose."""
    cup = events.create_event(name="Bots' round robin", game="super_showdown",
                              format="round_robin", by=organizer)
    for name in ("Robo", "Clank", "Whirr"):
        events.add_entrant(event=cup, by=organizer, bot="random", name=name)
    with django_capture_on_commit_callbacks(execute=True):  # the bots play their matches
        events.start_event(event=cup, by=organizer)
    page = alice_client.get(reverse("league:event", args=[cup.pk])).content.decode()
    assert page.count(">replay</a>") >= 2
    assert names_shared(page) == []
    assert 'aria-label="Replay of Round 1 match 1"' in page


def test_a_games_glyphs_are_hidden_from_screen_readers_beside_their_words() -> None:
    """The start square's star read 'black star', a Super Showdown tally 'black star 3/5
    victorious', an attack 'alice rightwards arrow bruno'."""
    loud = []
    for path in sorted((TEMPLATES / "games").rglob("*.html")):
        source = path.read_text()
        for legend in GLYPH_LEGENDS:
            source = source.replace(legend, "")
        for found in re.finditer(f"[{GLYPHS}]", source):
            if not re.search(r'<span[^>]* aria-hidden="true"[^>]*>$', source[:found.start()]):
                before = source[found.start() - 40:found.end()]
                loud.append(f"{path.relative_to(TEMPLATES)}: {before}")
    assert loud == []


@pytest.mark.parametrize(("game", "seats"), [("supershow", 2), ("royal_rumble", 3)])
def test_the_seat_deciding_is_said_in_words_while_the_match_is_live(game: str,
                                                                    seats: int) -> None:
    """The ring around the deciding seat is a colour a screen reader does not read: its
    name says "(deciding)" beside it, and not once a forfeit has halted the match."""
    rules = get_rules(game)
    state = rules.start({}, seats)
    rng = random.Random(0)
    while rules.pending(state).kind is PendingKind.CHANCE:
        state = rules.apply(state, Event.chance(rules.sample_chance(state, rng)))
    view = rules.view(state, None)
    template = f"games/{game}/_view.html"
    live = render_to_string(template, {"view": view})
    heads = re.findall(r'<div class="\w+-seat([^"]*)">\s*<div><strong>(.*?)</strong>', live)
    assert len(heads) == seats
    ringed = [" deciding" in classes for classes, _ in heads]
    said = ['<span class="visually-hidden"> (deciding)</span>' in name for _, name in heads]
    assert any(ringed) and said == ringed
    assert "(deciding)" not in render_to_string(template, {"view": view, "halted": True})


def test_the_logs_heading_reads_its_words_alone_with_the_replay_link_beside_it(
        alice_client: Client, pages: Any) -> None:
    """The replay link sat inside the log's <h2>, which a screen reader's list of headings
    read as "What happened replay"."""
    match = pages.quick_play(alice_client)
    page = Page(alice_client.get(reverse("match_play", args=[match.id])).content.decode())
    log = next(e for e in page.elements if e.attrs.get("class") == "log")
    headings = [e for e in page.elements if e.tag == "h2" and text(e).startswith("What")]
    assert [text(h) for h in headings] == ["What happened"]
    replay = next(e for e in page.elements if e.attrs.get("id") == "log-replay")
    assert text(replay) == "replay" and replay.line >= log.line
