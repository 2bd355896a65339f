"""The Royal Rumble table page: every seat's Legend, the plans, the reveal, the hand and
the choices; a whole game through the act view.

Bot seats reply in an on_commit hook, so every test here uses a transactional database.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

import engine.games.royal_rumble  # noqa: F401  (importing the package registers the game)
from engine.games.royal_rumble.cards import Kind, card
from engine.games.royal_rumble.view import PROMPTS
from matches import services
from matches.models import Match
from matches.templatetags.royal_rumble import rr_phase
from tests.conftest import played_until

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "royal_rumble"
MOST_DECISIONS = 600


def start(player: Any, bots: int = 3, options: dict[str, Any] | None = None) -> Match:
    seats = [{"player": player.username}] + [{"bot": "random"} for _ in range(bots)]
    return services.create_match(game=GAME, options=options or {}, seats=seats,
                                 created_by=player)


def hidden_names(match: Match, user: Any, secret_seats: list[int], *,
                 required: bool = True) -> set[str]:
    """Names of the cards in those seats' hands and face-down plans that the rules keep
    from the user: none of them lies face up (a placard's damage, a Signature, the
    discard pile, a revealed plan, the attack being resolved, the other seats' hands and
    plans) or is named in the narrated log. Taken from the true state, not from what the
    page is made of, and never empty unless not `required` (late in a game every name
    may have shown somewhere)."""
    state = services.load_state(Match.objects.get(pk=match.pk))
    told = " ".join(line for event in services.match_events(match=match, user=user)
                    for line in event["narration"])
    planning = str(state.phase) == "plan"
    secret: set[str] = set()
    public = {card(c).name for c in state.discard}
    public |= {card(c).name for r in state.reveal + state.last_reveal
               for c in (r.attack, r.boost) if c}
    if state.current is not None:
        public.add(card(state.current.card).name)
    for seat, p in enumerate(state.players):
        held = p.hand + (p.plan_cards() if planning else [])
        (secret if seat in secret_seats else public).update(card(c).name for c in held)
        public |= {card(c).name for c in p.damage + ([p.signature] if p.signature else [])}
    # A name inside a public one ("Lariat" in "Twin Lariat") cannot be looked for.
    names = {name for name in secret - public
             if name not in told and not any(name in other for other in public)}
    assert names or not required, "the check below checks something"
    return names


def assert_hidden(page: str, names: set[str]) -> None:
    """None of the names is on the page, outside the fixed prompts: every seat the rules
    let answer is asked (RR-28 decision), and the intervene and Holding On prompts name
    the Run-In and Holding On cards whatever anyone holds."""
    for prompt in PROMPTS.values():
        page = page.replace(html.escape(prompt), "").replace(prompt, "")
    for name in names:
        assert html.escape(name) not in page and name not in page, name


def test_the_page_shows_every_legend_my_hand_and_my_choices(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player, bots=9)
    view = services.match_state(match=match, user=player)["view"]
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()

    assert 'aria-label="The ring"' in page
    for p in view["players"]:
        assert html.escape(p["legend"]["name"]) in page
        assert f"health {p['health']}" in page
    assert page.count('class="rr-seat') == 10
    # Each Legend's damage as a share of its health, drawn by site.css (no style="").
    meters = re.findall(r'<meter class="rr-bar" aria-label="(\d+) damage of (\d+)" min="0" '
                        r'max="100" value="(\d+)">', page)
    assert [health for _, health, _ in meters] == [str(p["health"]) for p in view["players"]]
    assert all(int(value) == min(100, 100 * int(damage) // int(health))
               for damage, health, value in meters)
    assert "Your hand" in page
    for c in view["players"][0]["hand"]:
        assert html.escape(c["name"]) in page
    legal = services.match_state(match=match, user=player)["legal_actions"]
    forms = pages.action_forms(page)
    offered = [json.loads(a) for a, _ in forms]
    assert offered == [a for a in legal if a in offered]  # verbatim, in order
    names = {c["id"]: c["name"] for c in view["players"][0]["hand"]}

    def design(action: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(sorted((k, str(names.get(v, v))) for k, v in action.items()))

    # Every choice is there once: copies of one card are one button.
    assert sorted(map(design, offered)) == sorted(set(map(design, legal)))
    assert not re.search(r'title="[^"]*card [a-z]?\d', page)  # tooltips name the cards too
    assert "Take a breather" in page and html.escape(view["decision"]["prompt"]) in page


def test_no_other_seats_hand_or_face_down_plan_is_on_the_page(
        alice_client: Client, outsider_client: Client, player: Any, outsider: Any,
        pages: Any) -> None:
    match = start(player, bots=5)
    # Alice plans an attack; the bots plan theirs face down after her.
    for _ in range(3):
        partial = pages.state(alice_client, match).content.decode()
        pages.act(alice_client, match, *pages.action_forms(partial)[0])
    match.refresh_from_db()
    mine = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    theirs = outsider_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert_hidden(mine, hidden_names(match, player, [1, 2, 3, 4, 5]))
    assert_hidden(theirs, hidden_names(match, outsider, [0, 1, 2, 3, 4, 5]))
    assert "Your hand" not in theirs and pages.action_forms(theirs) == []


def test_a_whole_game_through_the_act_view(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player, bots=3, options={"round_limit": 6})
    partial = pages.state(alice_client, match).content.decode()
    decisions, checked, saw_reveal = 0, 0, False
    while "result-banner" not in partial:
        forms = pages.action_forms(partial)
        legal = services.match_state(match=match, user=player)["legal_actions"]
        offered = [json.loads(a) for a, _ in forms]
        assert bool(offered) == bool(legal) and offered == [a for a in legal if a in offered]
        saw_reveal |= "reveal" in partial and "Speed <b>" in partial
        if decisions % 10 == 0:
            names = hidden_names(match, player, [1, 2, 3], required=False)
            assert_hidden(partial, names)
            checked += bool(names)
        response = pages.act(alice_client, match, *forms[0])
        partial = response.content.decode()
        assert response.status_code == 200 and "error-banner" not in partial
        decisions += 1
        assert decisions < MOST_DECISIONS
    match.refresh_from_db()
    assert match.status == "finished" and match.result is not None
    assert "every 2s" not in partial and pages.action_forms(partial) == []
    assert saw_reveal and checked, "the hidden cards were checked along the way"


def test_the_replay_renders_the_table(alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player, bots=2)
    for _ in range(4):
        partial = pages.state(alice_client, match).content.decode()
        forms = pages.action_forms(partial)
        if not forms:
            break
        pages.act(alice_client, match, *forms[0])
    match.refresh_from_db()
    url = reverse("match_replay", args=[match.id])
    for at in sorted({0, 1, match.seq // 2, match.seq}):
        page = alice_client.get(url, {"at": at})
        assert page.status_code == 200
        assert b'aria-label="The ring"' in page.content
        assert pages.action_forms(page.content) == []


@pytest.mark.parametrize(("phase", "step", "shown"), [
    ("plan", "choose", "Plan"), ("plan", "boost", "Plan · Plan: Boost"),
    ("attack", "defend", "Attack · Defense"), ("end_of_turn", None, "End of Turn")])
def test_the_phase_line_names_a_step_only_when_it_adds_something(phase: str, step: Any,
                                                                 shown: str) -> None:
    assert rr_phase({"phase": phase, "step": step}) == shown


def test_a_face_down_plan_is_named_for_screen_readers_not_an_empty_box(
        outsider_client: Client) -> None:
    """A seat's planned Attack and Boost show face down as card backs: each reads as
    'a face-down Attack' (or Boost), never as nothing at all."""
    match = services.create_match(game="royal_rumble", options={}, created_by=None,
                                  seats=[{"bot": "random"}] * 3)
    match.refresh_from_db()
    url = reverse("match_replay", args=[match.id])
    backs: list[str] = []
    for at in range(1, min(match.seq, 40) + 1):
        page = outsider_client.get(url, {"at": at}).content.decode()
        backs += re.findall(r'<span class="rr-back"[^>]*>', page)
    assert backs, "no plan was face down in the first 40 steps"
    for back in backs:
        assert re.search(r'role="img" aria-label="a face-down (Attack|Boost)"', back), back


@pytest.mark.parametrize("kind", list(Kind))
def test_a_card_says_its_kind_in_words_not_by_its_colour_alone(kind: Kind) -> None:
    """A card's kind was its background colour alone, which a screen reader does not read
    and not everybody tells apart: the card says it, before its rules text."""
    shown = render_to_string("games/royal_rumble/_card.html", {
        "card": {"kind": str(kind), "name": "Elbow Drop", "text": "3 damage"}})
    words = " ".join(re.sub(r"<[^>]+>", " ", shown).split())
    assert words == f"Elbow Drop {kind.value.capitalize()} · 3 damage"


def test_a_legend_s_signature_says_it_is_a_signature_once(
        alice_client: Client, player: Any) -> None:
    """The seat panel's "Signature:" names the card's kind, which the card said again
    ("Signature: Piledriver Signature · ...")."""
    match = start(player, bots=2)
    view = services.match_state(match=match, user=player)["view"]
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    sigs = [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", sig)).split())
            for sig in re.findall(r'<div class="rr-sig">(.*?)</div>', page, re.S)]
    assert sigs == [f"Signature: {s['name']}" + (f" {s['text']}" if s["text"] else "")
                    for s in (p["legend"]["signature"] for p in view["players"])]


def test_the_table_and_its_log_name_each_seat_by_its_player(
        alice_client: Client, player: Any, player2: Any, outsider: Any) -> None:
    """The log said "Seat 2 plays the Signature ... at Seat 1" (and the panels "Seat 2")
    where the seats line names bruno and alice: every seat is named by its player, on the
    page, in its log and in the replay, whose players the seats line shows everyone."""
    match = services.create_match(game=GAME, options={}, created_by=player, seats=[
        {"player": "alice"}, {"player": "bruno"}, {"player": "olga"}])
    services.join_match(match=match, user=player2)
    services.join_match(match=match, user=outsider)
    played_until(match, lambda: services.load_state(match).round >= 2)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    log = text[text.index("What happened"):]
    # (alice's own seat is "you" on her page; the others read her name)
    assert "You hold the Legends token" in log and "for bruno" in log and "for olga" in log
    theirs = Client()
    theirs.force_login(player2)
    told = html.unescape(theirs.get(reverse("match_play", args=[match.id])).content.decode())
    assert "alice holds the Legends token" in told
    assert "alice (you)" in text[text.index("Round 2"):text.index("What happened")]
    assert not re.search(r"\bSeat \d", text)
    step = alice_client.get(reverse("match_replay", args=[match.id]), {"at": match.seq})
    assert not re.search(r"\bSeat \d", html.unescape(step.content.decode()))


def test_how_the_match_ended_names_the_seat_by_its_player(
        alice_client: Client, player: Any, player2: Any) -> None:
    """The result said "Seat 2 forfeited (resigned)." under a seats line that names bruno."""
    match = services.create_match(game=GAME, options={}, created_by=player, seats=[
        {"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    services.resign(match=match, user=player2)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert "bruno forfeited (resigned)." in page and not re.search(r"\bSeat \d", page)


def test_a_match_under_earlier_rules_names_the_seat_that_ended_it_by_its_player(
        alice_client: Client, player: Any, player2: Any, revise_rules: Any) -> None:
    """A match whose rules changed since shows only why, its seats and its result, which
    said "Seat 2 forfeited (resigned)." under a seats line that names bruno."""
    match = services.create_match(game=GAME, options={}, created_by=player, seats=[
        {"player": "alice"}, {"player": "bruno"}])
    services.join_match(match=match, user=player2)
    services.resign(match=match, user=player2)
    revise_rules(GAME)
    services.clear_state_cache()
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert "(rules_changed)" in page and "Its result stands." in page
    assert "bruno forfeited (resigned)." in page and not re.search(r"\bSeat \d", page)


def test_a_seat_that_forfeited_reads_as_out_not_as_attacking_without_a_legend(
        alice_client: Client, bruno_client: Client, outsider_client: Client, player: Any,
        player2: Any, outsider: Any) -> None:
    """The forfeit decision of engine/games/royal_rumble (RR-34): alice resigns a
    three-seat Rumble and is out, asked nothing any more. Her panel said "No Legend left:
    attacks as Cheap Tricks" (RR-59's player whose last Legend fell, who still plays) to
    every viewer, alice too; it says she forfeited and is out."""
    match = services.create_match(game=GAME, options={}, created_by=player, seats=[
        {"player": "alice"}, {"player": "bruno"}, {"player": "olga"}])
    services.join_match(match=match, user=player2)
    services.join_match(match=match, user=outsider)
    services.resign(match=match, user=player)
    url = reverse("match_play", args=[match.id])
    for client in (alice_client, bruno_client, outsider_client):
        page = client.get(url).content.decode()
        first = page.index('<div class="rr-seat')
        panel = page[first:page.index('<div class="rr-seat', first + 1)]
        panel = " ".join(re.sub(r"<[^>]+>", " ", panel).split())
        assert panel.startswith("alice") and "Forfeited: out of the match" in panel
        assert "Cheap Tricks" not in panel
