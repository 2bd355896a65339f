"""The Superstar Showdown play page: the ring, the hand, the spots and the choices.

Bot seats reply in an on_commit hook, so every test here uses a transactional database.
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
from engine.games.superstar_showdown.state import SPOTS
from engine.protocol import Event
from matches import services
from matches.models import Match, MatchEvent

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "superstar_showdown"
MOST_DECISIONS = 3_000  # 50 rounds at most, a few dozen decisions each at the very worst
SIDES = ("Red", "Blue")  # the sides' names, seat 0's first

_PLAY_FORM = re.compile(r'<form[^>]*class="[^"]*st-play-form[^"]*".*?</form>', re.S)
_SPOT = re.compile(r'<select id="st-spot-\d+-(?P<spot>\d+)" name="action.cards" required>'
                   r'(?P<options>.*?)</select>', re.S)
_OPTION = re.compile(r'<option value="(?P<card>[^"]+)">(?P<name>[^<]*)</option>')
_KEY = re.compile(r'name="key" value="(?P<key>[^"]*)"')


def spot_choices(form: str) -> list[list[tuple[str, str]]]:
    """The (card id, name) options of each spot's select of a play form, spot by spot."""
    return [[(m["card"], html.unescape(m["name"])) for m in _OPTION.finditer(spot["options"])]
            for spot in _SPOT.finditer(form)]


def offered(page: str | bytes, pages: Any) -> list[tuple[str, str]]:
    """(action JSON, key) of every choice on the page: buttons, squares, and every play the
    spots' selects compose (a different card on each spot)."""
    text = page.decode() if isinstance(page, bytes) else page
    found = pages.action_forms(text)
    for form in _PLAY_FORM.finditer(text):
        key = _KEY.search(form[0])
        assert key, "the play form carries an idempotency key"
        spots = spot_choices(form[0])
        assert spots and all(spot == spots[0] for spot in spots)
        found += [(json.dumps({"type": "play_spots", "cards": list(cards)}), key["key"])
                  for cards in permutations([card for card, _ in spots[0]], len(spots))]
    return found


def canonical(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def same_choices(posted: list[tuple[str, str]], legal: list[Any], match: Match) -> None:
    """Every choice on the page is an item of legal_actions, verbatim, and every legal
    action is on the page, or one that differs only in the copy of a card it uses."""
    state = services.load_state(Match.objects.get(pk=match.pk))

    def design(action: Any) -> str:
        named = dict(action)
        if "card" in named:
            named["card"] = state.card(named["card"]).name
        if "cards" in named:
            named["cards"] = [state.card(c).name for c in named["cards"]]
        return canonical(named)

    actions = [json.loads(a) for a, _ in posted]
    assert set(map(canonical, actions)) <= set(map(canonical, legal))
    assert len(set(map(canonical, actions))) == len(actions)  # no choice offered twice
    assert {design(a) for a in actions} == {design(a) for a in legal}


def start(player: Any, bot: str = "random") -> Match:
    return services.create_match(game=GAME, options={},
                                 seats=[{"player": player.username}, {"bot": bot}],
                                 created_by=player)


def hidden_names(match: Match, user: Any, secret_seats: tuple[int, ...]) -> set[str]:
    """Names of the cards in those seats' hands and face-down spots that the user's view
    and the narrated log do not show anywhere (the same design may be public elsewhere)."""
    state = services.load_state(match)
    secret = set()
    for seat in secret_seats:
        side = state.sides[seat]
        secret |= {state.card(c).name for c in [*side.hand, *(c for c in side.spots if c)]}
    public = json.dumps(services.match_state(match=match, user=user)["view"])
    public += " ".join(line for event in services.match_events(match=match, user=user)
                       for line in event["narration"])
    return {name for name in secret if name not in public}


def assert_hidden(page: str, names: set[str]) -> None:
    for name in names:
        assert html.escape(name) not in page and name not in page, name


# -- lobby -------------------------------------------------------------------------------

def test_the_lobby_has_a_one_click_superstar_showdown_match(
        alice_client: Client, player: Any) -> None:
    lobby = alice_client.get(reverse("lobby")).content.decode()
    assert "Play Super Showdown vs bot" in lobby and "Play Superstar Showdown vs bot" in lobby
    assert f'name="game" value="{GAME}"' in lobby

    response = alice_client.post(reverse("quick_play"), {"game": GAME})

    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("match_play", args=[match.id])
    assert match.game == GAME and match.status == "active"
    seats = list(match.seats.order_by("index"))
    assert (seats[0].user, seats[1].bot) == (player, "heuristic")


def test_the_one_click_button_refuses_a_game_it_does_not_offer(alice_client: Client) -> None:
    response = alice_client.post(reverse("quick_play"), {"game": "chess"}, follow=True)
    assert b"There is no one-click match of" in response.content
    assert not Match.objects.exists()


# -- the page ----------------------------------------------------------------------------

def test_the_page_shows_the_ring_both_miniatures_my_hand_and_the_spots(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player, bot="heuristic")
    state = services.match_state(match=match, user=player)
    view = state["view"]
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()

    # The ring: one cell per square, every kind drawn distinctly, starts and Tag Zones.
    assert 'class="st-ring"' in page
    kinds = [kind for row in BOARD.to_json()["squares"] for kind in row]
    for kind in set(kinds):
        assert page.count(f"sq sq-{kind}") == kinds.count(kind)
    for seat, colour in enumerate(("red", "blue")):
        assert len(re.findall(rf'class="sq sq-\w+ tag-{colour}', page)) == len(
            BOARD.tag_zones[seat])
        assert len(re.findall(rf'class="sq sq-ring start-{colour}', page)) == 1
    # Both miniatures, in their colour with their initial, on their squares; a screen
    # reader reads the Superstar's name, not the letter.
    for colour, initial in (("red", "O"), ("blue", "S")):
        marker = re.search(rf'class="st-marker mk-{colour}"[^>]*><span aria-hidden="true">'
                           rf'{initial}</span><span class="visually-hidden">([^<]+) \({colour}\)',
                           page)
        assert marker and html.unescape(marker[1]) in {
            side["superstar"]["name"] for side in view["sides"]}
    # Both sides' panels.
    for side in view["sides"]:
        assert html.escape(side["superstar"]["name"]) in page
        assert f"<b>{side['deck_count']}</b> in deck" in page
    assert "Performance Stack" in page
    # My hand, as cards with their Action icons.
    assert "Your hand" in page
    for card in view["sides"][0]["hand"]:
        assert html.escape(card["name"]) in page
        for icon in card["icons"]:
            assert f'st-icon icon-{icon["action"]}">{icon["label"]}<' in page
    # The three spots: the bot has played face down, I have not played yet.
    assert view["sides"][1]["spots_played"] and not view["sides"][0]["spots_played"]
    assert page.count("st-cell st-face_down") == SPOTS
    assert page.count('class="st-card st-back back-blue"') == SPOTS
    assert page.count("st-cell st-empty") == SPOTS
    assert view["decision"]["prompt"] in page


def test_neither_my_page_nor_the_spectators_shows_a_hidden_card(
        alice_client: Client, outsider_client: Client, player: Any, outsider: Any,
        pages: Any) -> None:
    match = start(player)
    secret_from_alice = hidden_names(match, player, (1,))
    secret_from_olga = hidden_names(match, outsider, (0, 1))
    assert secret_from_alice and secret_from_olga  # the check below checks something

    mine = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    theirs = outsider_client.get(reverse("match_play", args=[match.id])).content.decode()

    assert_hidden(mine, secret_from_alice)
    assert_hidden(theirs, secret_from_olga)
    assert "Your hand" not in theirs and offered(theirs, pages) == []
    assert theirs.count('class="st-card st-back back-blue"') == SPOTS

    # After alice plays, her spots are face down for the spectator, face up for her.
    action, key = offered(mine, pages)[0]
    played = json.loads(action)["cards"]
    mine = pages.act(alice_client, match, action, key).content.decode()
    state = services.load_state(Match.objects.get(pk=match.pk))
    names = {state.card(c).name for c in played}
    revealed = {state.card(c).name for side in state.sides for s in side.stacks for c in s}
    theirs = outsider_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert_hidden(theirs, hidden_names(match, outsider, (0, 1)))
    assert_hidden(mine, hidden_names(match, player, (1,)))
    for name in names - revealed:
        assert html.escape(name) in mine


def test_the_choices_are_exactly_the_legal_actions(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    legal = services.match_state(match=match, user=player)["legal_actions"]

    choices = offered(page, pages)

    assert len(legal) == 120  # six cards in hand, three spots in order
    same_choices(choices, legal, match)
    assert '<button type="submit" class="primary">Play face down</button>' in page
    # One select per spot, each offering the hand by name (not 120 orders in one list).
    state = services.load_state(match)
    hand = sorted(state.sides[0].hand)
    spots = spot_choices(_PLAY_FORM.search(page)[0])
    assert [sorted(card for card, _ in spot) for spot in spots] == [hand] * 3
    for card, label in spots[0]:  # "Name (Type)", the type as the hand's cards show it
        assert label.startswith(f"{state.card(card).name} (")
    for spot in (1, 2, 3):
        assert f'<label for="st-spot-{match.id}-{spot}">Spot {spot}</label>' in page


def test_a_play_composed_spot_by_spot_is_made_and_a_bad_one_refused(
        alice_client: Client, player: Any, pages: Any) -> None:
    """The form posts `{"type": "play_spots"}` and one `action.cards` per spot, as a
    browser does without script; the engine judges the composed action."""
    match = start(player)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    form = _PLAY_FORM.search(page)[0]
    key = _KEY.search(form)["key"]
    cards = [card for card, _ in spot_choices(form)[0]]
    url = reverse("match_act", args=[match.id])
    fixed = '{"type": "play_spots"}'

    twice = alice_client.post(url, {"action": fixed, "key": "t1",
                                    "action.cards": [cards[0], cards[0], cards[1]]})
    unset = alice_client.post(url, {"action": fixed, "key": "t2",
                                    "action.cards": [cards[0], "", cards[1]]})
    assert (twice.status_code, unset.status_code) == (400, 400)
    assert "error-banner" in twice.content.decode()
    assert services.moves_of(match, 0) == 0  # nothing was played

    response = alice_client.post(url, {"action": fixed, "key": key,
                                       "action.cards": [cards[2], cards[0], cards[1]]})
    assert response.status_code == 302
    made = MatchEvent.objects.get(match=match, kind="decision", seat=0)
    assert made.payload["action"] == {"type": "play_spots", "cards": [cards[2], cards[0],
                                                                      cards[1]]}


@pytest.mark.parametrize("htmx", [True, False])
def test_a_refused_play_comes_back_with_its_cards_still_chosen_on_their_spots(
        alice_client: Client, player: Any, pages: Any, htmx: bool) -> None:
    """The same card on two spots is refused: the form the refusal shows holds the three
    choices as they were, for the player to mend one, not pick all three again."""
    match = start(player)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    cards = [card for card, _ in spot_choices(_PLAY_FORM.search(page)[0])[0]]
    posted = [cards[1], cards[0], cards[1]]
    extra = pages.htmx if htmx else {}
    refused = alice_client.post(reverse("match_act", args=[match.id]), {
        "action": '{"type": "play_spots"}', "key": "twice", "action.cards": posted}, **extra)
    answer = refused.content.decode()
    assert "error-banner" in answer and services.moves_of(match, 0) == 0
    form = _PLAY_FORM.search(answer)[0]
    chosen = [re.findall(r'<option value="([^"]*)" selected>', spot[0])
              for spot in re.finditer(r"<select.*?</select>", form, re.S)]
    assert chosen == [[card] for card in posted]
    assert '<option value="" selected>' not in form

    fresh = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert _PLAY_FORM.search(fresh)[0].count('<option value="" selected>') == 3


_SELECT = re.compile(r"<select [^>]*>")


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(("spots", "code", "marked"), [
    ((1, 0, 1), "duplicate_card", [1, 3]),
    ((0, None, 1), "move_incomplete", [2]),
    ((0, 1, "nope"), "card_not_in_hand", [3]),
    ((0, 1), "wrong_card_count", []),
])
def test_a_refused_play_marks_the_spots_it_concerns_and_focuses_the_first(
        alice_client: Client, player: Any, pages: Any, htmx: bool, spots: tuple[Any, ...],
        code: str, marked: list[int]) -> None:
    """The refusal, read out as an alert, describes the spots at fault, which are marked
    invalid, and the first of them takes focus: a screen reader lands on what to mend.
    Every spot was marked whatever the refusal, and focus went to the status line. A
    refusal of the whole play marks none. A page not refused marks nothing."""
    match = start(player)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    cards = [card for card, _ in spot_choices(_PLAY_FORM.search(page)[0])[0]]
    assert "aria-invalid" not in _PLAY_FORM.search(page)[0]
    posted = [cards[spot] if isinstance(spot, int) else spot or "" for spot in spots]
    refused = alice_client.post(reverse("match_act", args=[match.id]), {
        "action": '{"type": "play_spots"}', "key": "bad", "action.cards": posted},
        **(pages.htmx if htmx else {}))
    answer = refused.content.decode()
    banner = re.search(r'<div class="error-banner" id="match-error" role="alert">([^<]*)</div>',
                       answer)
    assert banner is not None and f"({code})" in banner[1]
    assert answer.count('id="match-error"') == 1
    selects = _SELECT.findall(_PLAY_FORM.search(answer)[0])
    assert len(selects) == 3
    assert [n for n, select in enumerate(selects, 1)
            if 'aria-describedby="match-error" aria-invalid="true"' in select] == marked
    assert [n for n, select in enumerate(selects, 1) if "autofocus" in select] == marked[:1]
    assert "aria-invalid" not in "".join(selects[n - 1] for n in (1, 2, 3) if n not in marked)
    assert services.moves_of(match, 0) == 0


@pytest.mark.parametrize("htmx", [True, False])
def test_a_play_with_a_spot_left_unchosen_is_refused_saying_so(
        alice_client: Client, player: Any, pages: Any, htmx: bool) -> None:
    """A browser that does not check the form first sends the unchosen spot's "Choose a
    card…" (it sent nothing for it once, and the rules' refusal was "A play_spots action
    needs the field 'cards'", or "That action could not be read." for an empty part):
    the page says which choice is missing, and keeps the two made."""
    match = start(player)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    cards = [card for card, _ in spot_choices(_PLAY_FORM.search(page)[0])[0]]
    posted = [cards[0], "", cards[1]]
    refused = alice_client.post(reverse("match_act", args=[match.id]), {
        "action": '{"type": "play_spots"}', "key": "gap", "action.cards": posted},
        **(pages.htmx if htmx else {}))
    answer = html.unescape(refused.content.decode())
    assert "Choose all of the move's cards: one is not chosen yet. (move_incomplete)" in answer
    assert services.moves_of(match, 0) == 0
    form = _PLAY_FORM.search(answer)[0]
    chosen = [re.findall(r'<option value="([^"]*)" selected>', spot[0])
              for spot in re.finditer(r"<select.*?</select>", form, re.S)]
    assert chosen == [[card] for card in posted]


def test_a_whole_match_against_the_random_bot_through_the_act_view(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = start(player)
    partial = pages.state(alice_client, match).content.decode()
    decisions, labels = 0, set()
    while "result-banner" not in partial:
        legal = services.match_state(match=match, user=player)["legal_actions"]
        choices = offered(partial, pages)
        same_choices(choices, legal, match)
        labels |= set(re.findall(r'class="action st-btn st-btn-(\w+)"', partial))
        if decisions % 25 == 0:
            assert_hidden(partial, hidden_names(match, player, (1,)))
        response = pages.act(alice_client, match, *choices[0])
        partial = response.content.decode()
        assert response.status_code == 200 and "error-banner" not in partial
        decisions += 1
        assert decisions < MOST_DECISIONS

    match.refresh_from_db()
    assert match.status == "finished" and match.result is not None
    assert "every 2s" not in partial
    assert offered(partial, pages) == [] and 'class="st-ring"' in partial
    assert "done" in labels or "no_pin" in labels or "three_count" in labels


def test_the_replay_renders_the_ring_at_a_few_seqs(
        alice_client: Client, outsider_client: Client, player: Any, pages: Any) -> None:
    match = start(player)
    for _ in range(12):
        partial = pages.state(alice_client, match).content.decode()
        choices = offered(partial, pages)
        if not choices:
            break
        pages.act(alice_client, match, *choices[0])
    match.refresh_from_db()
    url = reverse("match_replay", args=[match.id])
    for at in sorted({0, 1, match.seq // 2, match.seq}):
        mine = alice_client.get(url, {"at": at})
        theirs = outsider_client.get(url, {"at": at}, **pages.htmx)
        assert mine.status_code == theirs.status_code == 200
        assert b'class="st-ring"' in mine.content and b'class="st-ring"' in theirs.content
        assert b"<html" not in theirs.content
        assert b"Your hand" in mine.content and b"Your hand" not in theirs.content
        assert offered(mine.content, pages) == []


DECISION_PHASES = {"play", "reversal", "actions", "motion", "shove", "hit", "stun", "pin",
                   "kick_out"}


def sample_states(per_phase: int = 4, games: int = 12) -> dict[str, list[Any]]:
    """A few states of every decision phase, from heuristic-against-random games."""
    rules = registry.get_rules(GAME)
    samples: dict[str, list[Any]] = {}
    for seed in range(games):
        rng = random.Random(seed)
        bots = [registry.get_bot(GAME, "heuristic"), registry.get_bot(GAME, "random")]
        state = rules.start({}, 2)
        while (pending := rules.pending(state)).kind != "end":
            if pending.kind == "chance":
                state = rules.apply(state, Event.chance(rules.sample_chance(state, rng)))
                continue
            phase = samples.setdefault(str(state.phase), [])
            if len(phase) < per_phase:
                phase.append(state)
            seat = pending.seats[0]
            action = bots[seat].choose(rules, state, seat, rng)
            state = rules.apply(state, Event.from_json(
                {"kind": "decision", "seat": seat, "action": action}))
        if set(samples) >= DECISION_PHASES:
            break
    return samples


def test_every_kind_of_decision_renders_with_readable_choices() -> None:
    """Engine-only: states of every decision phase, drawn for both seats and a spectator;
    the choices on the page are legal actions verbatim, one per distinct effect."""
    rules = registry.get_rules(GAME)
    samples = sample_states()
    assert set(samples) >= DECISION_PHASES
    for phase, states in samples.items():
        for state in states:
            for viewer in (0, 1, None):
                legal = rules.legal_actions(state, viewer) if viewer is not None else []
                entries = [{"action": a, "json": canonical(a), "key": f"k{i}"}
                           for i, a in enumerate(legal)]
                view = rules.view(state, viewer)
                page = render_to_string(f"games/{GAME}/_view.html", {
                    "view": view, "actions": entries, "seats": [],
                    "match": SimpleNamespace(id=1)})
                posted = [json.loads(html.unescape(a)) for a in re.findall(
                    r'name="action" value="([^"]+)"', page)]
                for form in _PLAY_FORM.finditer(page):
                    spots = spot_choices(form[0])
                    posted += [{"type": "play_spots", "cards": list(cards)} for cards in
                               permutations([card for card, _ in spots[0]], len(spots))]
                assert {canonical(a) for a in posted} <= {canonical(a) for a in legal}
                assert bool(posted) == bool(legal), (phase, viewer)
                text = re.sub(r"<[^>]+>", " ", page)
                assert "None" not in text and "{" not in text, (phase, viewer)
                if legal and view["decision"]:
                    assert html.escape(view["decision"]["prompt"]) in page


def test_the_corner_attacks_hit_is_offered_with_its_power() -> None:
    """SS-033/SS-075: a Corner Attack that ends side by side asks its player whether to
    hit, the button naming the power; the rival's page asks nothing."""
    rules = registry.get_rules(GAME)
    rng = random.Random(35)  # a heuristic-against-random game that reaches the choice
    bots = [registry.get_bot(GAME, "heuristic"), registry.get_bot(GAME, "random")]
    state = rules.start({}, 2)
    while str(state.phase) != "corner":
        pending = rules.pending(state)
        assert pending.kind != "end"
        if pending.kind == "chance":
            state = rules.apply(state, Event.chance(rules.sample_chance(state, rng)))
            continue
        seat = pending.seats[0]
        state = rules.apply(state, Event.decision(seat, bots[seat].choose(rules, state, seat,
                                                                          rng)))
    decider = rules.pending(state).seats[0]
    for viewer in (decider, 1 - decider):
        legal = rules.legal_actions(state, viewer)
        entries = [{"action": a, "json": canonical(a), "key": f"k{i}"}
                   for i, a in enumerate(legal)]
        page = render_to_string(f"games/{GAME}/_view.html", {
            "view": rules.view(state, viewer), "actions": entries, "seats": [],
            "match": SimpleNamespace(id=1)})
        bonus = state.current.power_bonus
        asked = f"Hit with the Corner Attack (power {3 + bonus})" in page
        assert asked == (viewer == decider) and ("Don&#x27;t hit" in page) == asked


def test_a_superstars_initial_is_never_read_out_alone(alice_client: Client) -> None:
    """A marker's initial ('O') stands beside the Superstar's name in the side panels and
    the roster, and names the Superstar in words on the ring: a screen reader never
    hears the letter."""
    response = alice_client.post(reverse("quick_play"), {"game": "superstar_showdown"})
    page = alice_client.get(response["Location"]).content.decode()
    markers = re.findall(r'<span class="st-marker[^"]*"[^>]*>(?:<span aria-hidden="true">)?',
                         page)
    assert len(markers) >= 4  # two on the ring, two in the side panels
    for marker in markers:
        assert 'aria-hidden="true"' in marker, marker


def test_a_ring_square_one_may_move_to_says_what_square_it_is(
        alice_client: Client, pages: Any, seeded_chance: None) -> None:
    """A square's button is named by its move; whether it is the ring, the ropes, a
    turnbuckle or outside (and a start or a Tag Zone) showed in its colour alone, which a
    screen reader user moving did not hear."""
    response = alice_client.post(reverse("quick_play"), {"game": "superstar_showdown"})
    url = response["Location"]
    match = Match.objects.get(pk=int(url.rstrip("/").rsplit("/", 1)[1]))
    page = alice_client.get(url).content.decode()
    rng = random.Random(5)
    for _ in range(200):
        if 'class="sq-go"' in page:
            break
        if choices := offered(page, pages):  # else the bot is still to move
            pages.act(alice_client, match, *rng.choice(choices))
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE, "the match ended before a move"
        page = alice_client.get(url).content.decode()
    buttons = re.findall(r'<button type="submit" id="act-\w+" class="sq-go"[^>]*>', page)
    assert buttons, "no square was offered within 200 moves"
    for button in buttons:
        named = re.search(r'aria-label="([^"]*)"', button)
        assert named is not None
        assert re.fullmatch(r"[^:]+\[\d, \d\]: (ring|ropes|turnbuckle|outside)"
                            r"(, (Red|Blue) (start|Tag Zone))*(, [^,]+ \((red|blue)[^)]*\))*",
                            html.unescape(named[1])), named[1]


def test_a_performance_stack_cards_type_is_in_its_words_not_only_its_border() -> None:
    """The Performance Stack's top cards told their type (Slam, Grapple, ...) by their
    border's colour, and a hover title no screen reader or phone reads."""
    rules = registry.get_rules(GAME)
    shown = 0
    for states in sample_states().values():
        for state in states:
            view = rules.view(state, 0)
            page = render_to_string(f"games/{GAME}/_view.html", {
                "view": view, "actions": [], "seats": [], "match": SimpleNamespace(id=1)})
            chips = re.findall(r'<span class="chip type-(\w+)"[^>]*>([^<]*)</span>', page)
            for kind, words in chips:
                assert html.unescape(words).endswith(f" · {kind.capitalize()}"), words
            shown += len(chips)
    assert shown


def test_every_ring_square_says_what_it_is_in_its_words(alice_client: Client) -> None:
    """A square's kind (ring, ropes, turnbuckle, outside), a start and a Tag Zone showed in
    its colour and a hover title on the cell, which only some screen readers read and a
    phone never shows: each square says it in words, a square one may move to in its
    button's name, and no square has a title (the legend and the row and column numbers
    say the rest)."""
    response = alice_client.post(reverse("quick_play"), {"game": "superstar_showdown"})
    page = alice_client.get(response["Location"]).content.decode()
    ring = page.split('<table class="st-ring"')[1].split("</table>")[0]
    assert "title=" not in ring
    cells = re.findall(r'<td class="sq [^"]*">(.*?)</td>', ring, re.S)
    ring_json = BOARD.to_json()
    squares = ring_json["squares"]
    assert len(cells) == sum(len(row) for row in squares)
    starts = {tuple(sq): f"{SIDES[seat]} start" for seat, sq in enumerate(ring_json["starts"])}
    zones = {tuple(sq): f"{SIDES[seat]} Tag Zone"
             for seat, zone in enumerate(ring_json["tag_zones"]) for sq in zone}
    for i, body in enumerate(cells):
        square = divmod(i, len(squares[0]))
        place = ", ".join([squares[square[0]][square[1]]]
                          + [words[square] for words in (starts, zones) if square in words])
        said = (f'<span class="visually-hidden">{place}</span></div>' in body
                or re.search(rf'aria-label="[^"]*: {re.escape(place)}[",]', body))
        assert said, (place, body)
