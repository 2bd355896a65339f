"""The Superstar Showdown play page in an Event: scoreboard, draft, Send In, Tag Team
board, bonuses and the Event's result (rules checklist SS-114..SS-162).

Two human seats play the draft and the Send In through the act view; the later phases
are rendered from seeded engine playouts, so nothing here waits on a clock.
"""

from __future__ import annotations

import html
import json
import random
import re
from itertools import permutations
from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from engine import registry
from engine.games.superstar_showdown.board import BOARD
from engine.games.superstar_showdown.cards import ROSTER
from engine.protocol import Event
from matches import services
from matches.models import Match
from matches.templatetags.superstar_showdown import star_action_label

_PLAY_FORM = re.compile(r'<form[^>]*class="[^"]*st-play-form[^"]*".*?</form>', re.S)

GAME = "superstar_showdown"
EVENT = {"event": {"matches": [{"match": "tag_team", "stipulation": "standard_1"},
                               {"match": "head_to_head", "stipulation": "hardcore"}],
                   "superstars_per_team": 2}}
PICKS = (("skylark", "oakhart"), ("quillfeather", "cavallo"))  # Red's, then Blue's
NAMES = {"skylark": "Pip Skylark", "oakhart": 'Thorvald "The Millstone" Oakhart',
         "quillfeather": "Professor Ingrid Quillfeather",
         "cavallo": 'Benny "Back Alley" Cavallo'}
COLOURS = ("red", "blue")
_VIEW_PART = re.compile(r'<section class="view st.*?(?=<section class="log">)', re.S)
_CELL = re.compile(r'<td class="(?P<classes>sq [^"]*)">(?P<body>.*?)</td>', re.S)


@pytest.fixture
def bruno_client(player2: Any) -> Client:
    other = Client()
    other.force_login(player2)
    return other


def start(player: Any, player2: Any) -> Match:
    """Alice is seat 0 (Red), Bruno seat 1 (Blue)."""
    match = services.create_match(game=GAME, options=EVENT, created_by=player,
                                  seats=[{"player": player.username},
                                         {"player": player2.username}])
    services.join_match(match=match, user=player2)  # Bruno takes up Alice's invitation
    return match


def page_of(client: Client, match: Match) -> str:
    return client.get(reverse("match_play", args=[match.id])).content.decode()


def post(client: Client, match: Match, pages: Any, action: dict[str, Any]) -> str:
    """Press the page's button for exactly this action."""
    forms = {json.dumps(json.loads(a), sort_keys=True): (a, key)
             for a, key in pages.action_forms(page_of(client, match))}
    wanted = json.dumps(action, sort_keys=True)
    assert wanted in forms, (wanted, sorted(forms))
    response = pages.act(client, match, *forms[wanted])
    text = response.content.decode()
    assert response.status_code == 200 and "error-banner" not in text, text
    return text


def view_of(match: Match, user: Any) -> dict[str, Any]:
    return services.match_state(match=Match.objects.get(pk=match.pk), user=user)["view"]


def draft(match: Match, clients: tuple[Client, Client], player: Any, pages: Any) -> None:
    """Both teams draft their PICKS in the order the coin flip set."""
    while (view := view_of(match, player))["phase"] == "draft":
        info = view["event"]["draft"]
        team = info["order"][info["picks"]]
        key = next(k for k in PICKS[team] if k not in view["event"]["teams"][team]["superstars"])
        post(clients[team], match, pages, {"type": "draft", "superstar": key})


def visible(page: str) -> str:
    """The view part of a page with the per-request tokens and ids taken out."""
    part = _VIEW_PART.search(page)
    assert part, "the page has the Superstar Showdown view"
    text = re.sub(r'name="(key|csrfmiddlewaretoken)" value="[^"]*"', "", part[0])
    return re.sub(r"/matches/\d+/", "/matches/N/", text)


# -- the draft and the scoreboard ---------------------------------------------------------

@pytest.mark.django_db
def test_the_draft_is_played_from_the_page_and_fills_the_scoreboard(
        alice_client: Client, bruno_client: Client, player: Any, player2: Any,
        pages: Any) -> None:
    """SS-116/SS-117: a coin flip picks the first team, then one, two, one; each pick is
    a button with the Superstar's stat card, only for the team whose pick it is."""
    match = start(player, player2)
    clients = (alice_client, bruno_client)
    view = view_of(match, player)
    first = view["event"]["draft"]["first_pick"]
    assert view["phase"] == "draft" and view["event"]["draft"]["order"] == [
        first, 1 - first, 1 - first, first]

    picker, waiter = page_of(clients[first], match), page_of(clients[1 - first], match)

    for page in (picker, waiter):
        assert 'aria-label="Event scoreboard"' in page and "Event · Draft" in page
        assert "Tag Team Match" in page and "Head-to-Head" in page
        assert "Hardcore Match" in page and html.escape("No countouts.") in page
        assert "pick 1 of 4" in page and 'class="st-ring"' not in page
        for name in NAMES.values():  # every undrafted Superstar with its stat card
            assert html.escape(name) in page
        assert "<dt>Speed</dt><dd>5</dd>" in page  # Pip Skylark's stat card
    drafts = [json.loads(a) for a, _ in pages.action_forms(picker)]
    assert len(drafts) == 6 and {a["type"] for a in drafts} == {"draft"}
    assert f'>Draft {html.escape(NAMES["skylark"])}</button>' in picker
    assert pages.action_forms(waiter) == []
    assert "Draft a Superstar for your team." in picker

    draft(match, clients, player, pages)

    view = view_of(match, player)
    assert view["phase"] == "send_in"
    assert [t["superstars"] for t in view["event"]["teams"]] == [list(p) for p in PICKS]
    page = page_of(alice_client, match)
    team_panels = re.findall(r'<div class="st-team side-(\w+)[^"]*">(.*?)</ul>', page, re.S)
    assert [colour for colour, _ in team_panels] == list(COLOURS)
    for (_, panel), keys in zip(team_panels, PICKS, strict=True):
        assert "0</b> Ranking Points" in panel
        for key in keys:
            assert html.escape(NAMES[key]) in panel
    assert "(your team)" in team_panels[0][1] and "(your team)" not in team_panels[1][1]
    assert "Match 1 of 2:" in page and "Send in the Superstars" in page


# -- the Send In ----------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_draft_order_says_in_words_which_picks_are_made_and_whose_is_next(
        alice_client: Client, bruno_client: Client, player: Any, player2: Any,
        pages: Any) -> None:
    """A pick made was only faded and the next one only bold, which a screen reader does
    not read out: the order read 'Red Blue Blue Red' at every pick."""
    match = start(player, player2)
    first = view_of(match, player)["event"]["draft"]["first_pick"]
    order = re.compile(r'<ol class="st-draft-order">(.*?)</ol>', re.S)

    def said() -> list[str]:
        found = order.search(page_of(alice_client, match))
        assert found is not None
        return [re.sub(r"<[^>]+>", "", item).strip()
                for item in re.findall(r"<li[^>]*>(.*?)</li>", found[1])]

    names = ["Red", "Blue"]
    assert said() == [f"{names[first]} (picks now)", names[1 - first], names[1 - first],
                      names[first]]
    clients = (alice_client, bruno_client)
    key = PICKS[first][0]
    post(clients[first], match, pages, {"type": "draft", "superstar": key})
    assert said() == [f"{names[first]} (picked)", f"{names[1 - first]} (picks now)",
                      names[1 - first], names[first]]


@pytest.mark.django_db
def test_the_send_in_is_face_down_until_both_teams_have_chosen(
        alice_client: Client, bruno_client: Client, outsider_client: Client, player: Any,
        player2: Any, pages: Any) -> None:
    """SS-133: each team places its choice face down; the rival sees only that a choice
    was made, never which, so Red's page is the same whatever Blue chose."""
    clients = (alice_client, bruno_client)
    matches = [start(player, player2), start(player, player2)]
    for match in matches:
        draft(match, clients, player, pages)
    orders = [["quillfeather", "cavallo"], ["cavallo", "quillfeather"]]

    before = page_of(alice_client, matches[0])
    labels = re.findall(r'class="action st-btn st-btn-send_in">([^<]*)</button>', before)
    assert sorted(html.unescape(label) for label in labels) == sorted([
        f"{NAMES['skylark']} (starts), then {NAMES['oakhart']}",
        f"{NAMES['oakhart']} (starts), then {NAMES['skylark']}"])
    assert before.count("still choosing") == 2

    for match, order in zip(matches, orders, strict=True):
        mine = post(bruno_client, match, pages, {"type": "send_in", "superstars": order})
        assert html.escape(f"{NAMES[order[0]]}, then {NAMES[order[1]]}") in mine
        assert "(face down)" in mine

    reds = [page_of(alice_client, match) for match in matches]
    for page, order in zip(reds, orders, strict=True):
        assert "has chosen, face down" in page
        assert html.escape(f"{NAMES[order[0]]} (starts)") not in page
        assert html.escape(f"{NAMES[order[0]]}, then") not in page
        assert "Blue sent in" not in page and "Blue sends in" not in page
        assert "Blue chooses face down who goes in." in page
    assert visible(reds[0]) == visible(reds[1])  # nothing on the page tells them apart
    assert "has chosen, face down" in visible(reds[0])
    assert view_of(matches[0], player)["event"]["teams"][1]["sent_in"] is None
    spectator = page_of(outsider_client, matches[0])
    assert "has chosen, face down" in spectator
    assert html.escape(f"{NAMES[orders[0][0]]}, then") not in spectator


# -- the Tag Team Match ---------------------------------------------------------------------

@pytest.mark.django_db
def test_a_tag_team_match_shows_inactive_teammates_in_their_tag_zones(
        alice_client: Client, bruno_client: Client, player: Any, player2: Any,
        pages: Any) -> None:
    """SS-143/SS-144/SS-146: the Active Superstars on their stars, each Inactive teammate
    drawn hollow on its own team's Tag Zone, the zones highlighted, the bench listed
    with its deck; the rival's hand stays hidden."""
    match = start(player, player2)
    draft(match, (alice_client, bruno_client), player, pages)
    post(bruno_client, match, pages, {"type": "send_in", "superstars": ["cavallo", "quillfeather"]})
    post(alice_client, match, pages, {"type": "send_in", "superstars": ["skylark", "oakhart"]})

    view = view_of(match, player)
    page = page_of(alice_client, match)

    assert view["match_kind"] == "tag" and view["phase"] == "play"
    assert "Now playing" in page and "Red sent in" in page and "Blue sent in" in page
    across = len(BOARD.to_json()["squares"][0])  # the ring's squares, row by row
    cells = {f"[{i // across}, {i % across}]": m for i, m in enumerate(_CELL.finditer(page))}
    live = [m for m in cells.values() if "tag-live" in m["classes"]]
    assert len(live) == sum(len(zone) for zone in BOARD.tag_zones)
    for team, (colour, (active, inactive)) in enumerate(
            zip(COLOURS, [("skylark", "oakhart"), ("cavallo", "quillfeather")], strict=True)):
        side = view["sides"][team]
        assert side["superstar"]["key"] == active
        member = side["bench"][0]
        assert member["superstar"]["key"] == inactive and member["in_tag_zone"]
        r, c = member["position"]
        assert [r, c] in [list(sq) for sq in BOARD.tag_zones[team]]
        cell = cells[f"[{r}, {c}]"]
        assert f"tag-{colour} tag-live" in cell["classes"]
        assert f'class="st-marker mk-{colour} inactive"' in cell["body"]
        assert f">{inactive[0].upper()}<" in cell["body"]
        ar, ac = side["position"]
        assert f'class="st-marker mk-{colour}"' in cells[f"[{ar}, {ac}]"]["body"]
        assert (f"Inactive · in the Tag Zone [{r}, {c}] · {member['deck_count']} in deck"
                in html.unescape(page))
    assert "Inactive teammate" in page  # the legend
    match.refresh_from_db()
    for at in (1, match.seq):  # the replay draws the same Event view
        replay = alice_client.get(reverse("match_replay", args=[match.id]), {"at": at})
        assert replay.status_code == 200 and b'aria-label="Event scoreboard"' in replay.content
    blue_hand = {s["name"] for s in view_of(match, player2)["sides"][1]["hand"]}
    red_sees = json.dumps(view)
    for name in blue_hand - {n for n in blue_hand if n in red_sees}:
        assert html.escape(name) not in page


# -- readable labels ------------------------------------------------------------------------

def _tag_view(phase: str, motion: dict[str, Any] | None = None) -> dict[str, Any]:
    """A small Tag Team view: Red's Active Skylark with Oakhart on the bench."""
    return {"viewer": 0, "teams": [0, 1], "phase": phase, "motion": motion,
            "sides": [{"seat": 0, "superstar": {"key": "skylark", "name": "Pip Skylark"},
                       "bench": [{"superstar": {"key": "oakhart", "name": "Oakhart"},
                                  "position": [0, 1], "in_tag_zone": True}]},
                      {"seat": 1, "superstar": {"key": "cavallo", "name": "Cavallo"},
                       "bench": []}],
            "event": {"roster": {k: star.to_json() for k, star in ROSTER.items()},
                      "pool": [{"id": "g06", "name": "Apron Dash",
                                              "type": "maneuver", "icons": [], "price": 10}]}}


@pytest.mark.parametrize(("phase", "motion", "action", "label"), [
    ("tag", None, {"type": "tag_out", "superstar": "oakhart"}, "Tag Out: Oakhart comes in"),
    ("tag", None, {"type": "no_tag"}, "Stay in (no Tag Out)"),
    ("kick_out", None, {"type": "tag_out", "superstar": "oakhart"},
     "Tag Team Kick Out: tag in Oakhart"),
    ("actions", None, {"type": "assist", "superstar": "oakhart"},
     "Oakhart takes a Move 3 outside the ring"),
    ("motion", {"mover": 0, "member": 0}, {"type": "step", "to": [0, 0]},
     "Move Oakhart to [0, 0]"),
    ("motion", {"mover": 0, "member": 0}, {"type": "stop"}, "Oakhart stops here"),
    ("motion", {"mover": 0, "member": None}, {"type": "step", "to": [3, 3]}, "Move to [3, 3]"),
    ("motion", {"mover": 1, "member": None}, {"type": "step", "to": [3, 3]},
     "Throw Blue to [3, 3]"),
    ("bonus", None, {"type": "buy_bonus", "card": "g06", "superstar": "skylark"},
     "Buy Apron Dash (10) for Pip Skylark"),
    ("bonus", None, {"type": "bonus_points", "points": 17}, "Take 17 bonus Ranking Points"),
    ("bonus", None, {"type": "bonus_points", "points": 1}, "Take 1 bonus Ranking Point"),
    ("send_in", None, {"type": "send_in", "superstars": ["abbot"]}, "Send in The Iron Abbot"),
    ("send_in", None, {"type": "send_in", "superstars": ["abbot", "blaze", "oakhart"]},
     "The Iron Abbot (starts), then Juniper Blaze, then Oakhart"),
    ("draft", None, {"type": "draft", "superstar": "quillfeather"},
     "Draft Professor Ingrid Quillfeather"),
])
def test_the_advanced_rules_choices_read_as_words(
        phase: str, motion: dict[str, Any] | None, action: dict[str, Any], label: str) -> None:
    """SS-117, SS-133, SS-138, SS-147, SS-151, SS-155: each new choice has its own label
    (a Superstar named by the view, or by its printed stat card when not yet drafted)."""
    assert star_action_label(action, _tag_view(phase, motion)) == label


# -- bonuses, the result and every Event decision (engine playouts) --------------------------

def _render(rules: Any, state: Any, viewer: int | None) -> tuple[str, dict[str, Any], list[Any]]:
    legal = rules.legal_actions(state, viewer) if viewer is not None else []
    entries = [{"action": a, "json": json.dumps(a, sort_keys=True), "key": f"k{i}"}
               for i, a in enumerate(legal)]
    view = rules.view(state, viewer)
    page = render_to_string(f"games/{GAME}/_view.html", {
        "view": view, "actions": entries, "seats": [], "match": SimpleNamespace(id=1)})
    return page, view, legal


def _playout(seed: int, options: dict[str, Any], seats: int) -> Any:
    """A seeded Event between bots, yielding every state a seat decides in."""
    rules = registry.get_rules(GAME)
    rng = random.Random(seed)
    bots = [registry.get_bot(GAME, "heuristic" if s % 2 else "random") for s in range(seats)]
    state = rules.start(options, seats)
    while (pending := rules.pending(state)).kind != "end":
        if pending.kind == "chance":
            state = rules.apply(state, Event.chance(rules.sample_chance(state, rng)))
            continue
        yield state, pending.seats
        seat = pending.seats[0]
        action = bots[seat].choose(rules, state, seat, rng)
        state = rules.apply(state, Event.from_json(
            {"kind": "decision", "seat": seat, "action": action}))
    yield state, ()


def test_an_endurance_match_shows_each_sides_falls() -> None:
    """SS-124 (Endurance Stipulation): a Pin scores a fall; both sides' falls are on the page."""
    rules = registry.get_rules(GAME)
    for state, _ in _playout(2, {"event": "ultimate_endurance"}, 2):
        if any(side.falls for side in state.sides) and str(state.phase) == "play":
            break
    else:
        pytest.fail("no fall scored")
    page, view, _ = _render(rules, state, 0)
    for side in view["sides"]:
        assert f'<p class="st-falls">Falls: <b>{side["falls"]}</b>' in page
    assert "(the second fall wins)" in page


def test_the_bonus_phase_groups_bonus_cards_per_card_and_superstar() -> None:
    """SS-135/SS-136/SS-138/SS-139: the deciding team's stack, each affordable Bonus card
    (name, type, icons, price) with one button per Superstar, and the rest as points."""
    rules = registry.get_rules(GAME)
    for state, seats in _playout(3, EVENT, 2):
        legal = rules.legal_actions(state, seats[0]) if seats else []
        if str(state.phase) == "bonus" and any(a["type"] == "buy_bonus" for a in legal):
            break
    else:
        pytest.fail("no bonus phase with a Bonus card to buy")
    seat = seats[0]
    page, view, legal = _render(rules, state, seat)
    team = view["teams"][seat]
    left = view["event"]["teams"][team]["stack_left"]
    roster = view["event"]["teams"][team]["superstars"]
    pool = {card["id"]: card for card in view["event"]["pool"]}

    assert "Match bonuses" in page and f"Your team has <b>{left}</b> Performance Stack" in page
    groups = re.findall(r'<div class="st-bonus-card">(.*?)</div>\s*</div>', page, re.S)
    bought = {a["card"] for a in legal if a["type"] == "buy_bonus"}
    assert len(groups) == len(bought) and all(pool[c]["price"] <= left for c in bought)
    for card in bought:
        group = next(g for g in groups if html.escape(pool[card]["name"]) in g)
        assert f'{pool[card]["price"]} cards' in group
        assert f'st-card type-{pool[card]["type"]}' in group
        for icon in pool[card]["icons"]:
            assert icon["label"] in group
        for key in roster:
            name = view["event"]["roster"][key]["name"]
            assert f">for {html.escape(name)}</button>" in group
    assert f"Take {left} bonus Ranking Point" in page


def test_the_event_result_names_the_winning_team_and_its_ranking_points() -> None:
    """SS-130/SS-134: the Event's winner, each team's Ranking Points (Match and bonus)
    and Matches won; every Match shows its winner and points."""
    rules = registry.get_rules(GAME)
    *_, (state, _) = _playout(3, EVENT, 2)
    page, view, _ = _render(rules, state, None)
    event = view["event"]
    assert event["over"]
    winner = event["winner"]
    headline = ("The Event is a draw." if winner is None
                else f"{COLOURS[winner].title()} wins the Event!")
    assert headline in page and "Event over" in page
    for team in event["teams"]:
        assert (f"<b>{team['name']}</b> {team['total']} Ranking Points <span class=\"muted "
                f"small\">({team['match_points']} Match + {team['bonus_points']} bonus") in page
    for match in event["matches"]:
        assert match["status"] == "done"
        assert (f"Red {match['points'][0]}</span> \N{EN DASH} <span class=\"mk-blue\">Blue "
                f"{match['points'][1]}") in page


@pytest.mark.parametrize(("seed", "options", "seats"), [
    (1, {"event": "tag_team_series"}, 4),
    (2, {"event": "full_card"}, 2),
])
def test_every_event_decision_offers_exactly_the_legal_actions(
        seed: int, options: dict[str, Any], seats: int) -> None:
    """SS-114: with several seats a team, every seat (and a spectator) gets a page whose
    choices are the legal actions verbatim, one per distinct effect, with words only; a
    team's players all see its hand."""
    rules = registry.get_rules(GAME)
    seen: dict[str, int] = {}
    for state, _ in _playout(seed, options, seats):
        phase = str(state.phase)
        seen[phase] = seen.get(phase, 0) + 1
        if seen[phase] > 2 and phase not in ("tag", "send_in", "bonus", "draft"):
            continue
        for viewer in [*range(seats), None]:
            page, _, legal = _render(rules, state, viewer)
            posted = [json.loads(html.unescape(a or b)) for a, b in re.findall(
                r'name="action" value="([^"]+)"|<option value="([^"]+)"',
                _PLAY_FORM.sub("", page))]
            for form in _PLAY_FORM.finditer(page):  # one select per spot: every order
                spots = [re.findall(r'<option value="([^"]+)">', select)
                         for select in re.findall(r'name="action.cards" required>(.*?)</select>',
                                                  form[0], re.S)]
                assert spots and all(spot == spots[0] for spot in spots)
                posted += [{"type": "play_spots", "cards": list(cards)}
                           for cards in permutations(spots[0], len(spots))]

            def design(action: dict[str, Any], state: Any = state) -> str:
                named = dict(action)
                if "card" in named and named["type"] != "buy_bonus":
                    named["card"] = state.card(named["card"]).name
                if "cards" in named:
                    named["cards"] = [state.card(c).name for c in named["cards"]]
                return json.dumps(named, sort_keys=True)

            assert {design(a) for a in posted} == {design(a) for a in legal}, (phase, viewer)
            assert len(posted) == len({json.dumps(a, sort_keys=True) for a in posted})
            text = re.sub(r"<[^>]+>", " ", page)
            assert "None" not in text and "{" not in text, (phase, viewer)
            if viewer is not None and phase == "play":
                assert "Your hand" in page, viewer
    assert {"draft", "send_in", "bonus"} <= set(seen)


def test_a_superstars_bonus_card_shows_its_price_on_the_page_not_in_a_hover_title() -> None:
    """SS-136: a Bonus card bought for a Superstar is a chip on the scoreboard; its price was
    in the chip's title alone, which a phone (no hover) never shows."""
    rules = registry.get_rules(GAME)
    bought: list[dict[str, Any]] = []
    for seed in range(20):  # Events until a bot buys a Bonus card
        *_, (state, _) = _playout(seed, EVENT, 2)
        view = rules.view(state, None)
        bought = [card for team in view["event"]["teams"] for card in team["bonus_cards"]]
        if bought:
            break
    assert bought, "no Bonus card bought in 20 Events"
    page, _, _ = _render(rules, state, None)
    chips = re.findall(r'<span class="chip bonus"[^>]*>.*?</span></span>', page)
    assert chips and not [chip for chip in chips if "title=" in chip]
    for card in bought:
        assert f'+{html.escape(card["name"])} <span class="chip-price">(Bonus card, ' \
               f'{card["price"]} cards)</span>' in page
