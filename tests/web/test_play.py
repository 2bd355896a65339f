"""The play page, its polled state partial and the act view."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from engine import registry
from engine.games.super_showdown.cards import CARDS
from engine.games.super_showdown.view import REFERENCE
from matches import services
from matches.models import Match, MatchEvent
from matches.views import PAGE_LOG

# Bot seats reply in an on_commit hook, which needs real commits.
pytestmark = pytest.mark.django_db(transaction=True)


def bot_decisions(match: Match) -> int:
    return MatchEvent.objects.filter(match=match, kind="decision", seat=1).count()


def canonical(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def test_the_play_page_shows_my_hand_and_every_legal_action(
        alice_client: Client, player: Any, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    state = services.match_state(match=match, user=player)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()

    assert state["legal_actions"], "alice should have a decision once the bot has moved"
    assert "Your hand" in page
    for card in state["view"]["hand"]:
        assert html.escape(card["name"]) in page
    posted = sorted(canonical(json.loads(a)) for a, _ in pages.action_forms(page))
    assert posted == sorted(canonical(a) for a in state["legal_actions"])
    # data-guard-edits: league.js holds the poll while alice is choosing in a form.
    assert 'hx-trigger="every 2s, league-refresh" hx-swap="outerHTML"\n     data-guard-edits' \
        in page
    assert '<script src="/static/js/league.js" defer></script>' in page
    config = re.search(r'<meta name="htmx-config" content=\'([^\']*)\'>', page)
    assert config is not None  # htmx reads it before it processes the page
    assert json.loads(config[1]) == {"allowEval": False, "allowScriptTags": False,
                                     "includeIndicatorStyles": False}
    reload = f'<noscript><p><a href="{reverse("match_play", args=[match.id])}">Reload'
    assert reload in page  # without JavaScript the page does not poll


def test_an_action_posted_by_htmx_advances_the_match_and_the_bot_replies(
        alice_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    page = alice_client.get(reverse("match_play", args=[match.id])).content
    seq, replies = match.seq, bot_decisions(match)
    action, key = pages.action_forms(page)[0]

    response = pages.act(alice_client, match, action, key)

    match.refresh_from_db()
    assert response.status_code == 200
    assert b'id="match-state"' in response.content and b"<html" not in response.content
    assert b"error-banner" not in response.content
    assert match.seq > seq + 1
    assert bot_decisions(match) > replies
    assert f"seq={match.seq}&amp;" in response.content.decode()


def test_without_htmx_an_action_redirects_back_to_the_play_page(
        alice_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    action, key = pages.action_forms(alice_client.get(f"/matches/{match.id}/").content)[0]
    response = pages.act(alice_client, match, action, key, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("match_play", args=[match.id])


def test_a_double_posted_idempotency_key_writes_once(alice_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    action, key = pages.action_forms(alice_client.get(f"/matches/{match.id}/").content)[0]
    pages.act(alice_client, match, action, key)
    written = MatchEvent.objects.filter(match=match).count()
    mine = MatchEvent.objects.filter(match=match, idempotency_key=key).count()

    again = pages.act(alice_client, match, action, key)

    assert again.status_code == 200 and b"error-banner" not in again.content
    assert MatchEvent.objects.filter(match=match).count() == written
    assert mine == 1


def test_a_second_tabs_form_is_refused_once_the_seat_has_moved(
        alice_client: Client, pages: Any) -> None:
    """Two tabs show the same decision; a press in each (fresh keys both) plays once:
    the forms carry the seat's move count, and the second is stale."""
    match = pages.quick_play(alice_client)
    page = alice_client.get(f"/matches/{match.id}/").content.decode()
    moves = re.search(r'name="moves" value="(\d+)"', page)
    assert moves is not None and int(moves[1]) == services.moves_of(match, 0)
    (first, _), (second, _) = pages.action_forms(page)[:2]
    post = reverse("match_act", args=[match.id])
    played = alice_client.post(post, {"action": first, "key": "tab-1", "moves": moves[1]},
                               **pages.htmx)
    assert played.status_code == 200 and b"error-banner" not in played.content
    written = MatchEvent.objects.filter(match=match).count()
    stale = alice_client.post(post, {"action": second, "key": "tab-2", "moves": moves[1]},
                              **pages.htmx)
    assert b"(stale_page)" in stale.content
    assert MatchEvent.objects.filter(match=match).count() == written


def test_an_illegal_action_is_refused_in_the_partial_without_a_500(
        alice_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    seq = Match.objects.get(pk=match.pk).seq
    bad = json.dumps({"type": "move", "to": [9, 9]})

    response = pages.act(alice_client, match, bad, "k-illegal")

    assert response.status_code == 200
    assert b"error-banner" in response.content
    assert b"That action is not legal now. (illegal_action)" in response.content
    assert Match.objects.get(pk=match.pk).seq == seq
    plain = pages.act(alice_client, match, bad, "k-illegal-2", htmx=False)
    assert plain.status_code == 400 and b"That action is not legal now." in plain.content


@pytest.mark.parametrize("action", ["{not json", "[" * 5000, '{"a": ' * 3000,
                                    '{"type": NaN}', '{"type": "' + "x" * 5000 + '"}'])
def test_unreadable_action_json_is_refused(alice_client: Client, pages: Any,
                                           action: str) -> None:
    match = pages.quick_play(alice_client)
    seq = match.seq
    response = pages.act(alice_client, match, action, "k")
    assert response.status_code == 200 and b"could not be read" in response.content
    assert Match.objects.get(pk=match.pk).seq == seq


@pytest.mark.parametrize(("parts", "said"), [
    (["c"] * 11, "A move has at most 10 cards. (move_too_long)"),
    (["x" * 65], "One of the move's cards is none that a page offers. (bad_move_part)"),
    ([""], "Choose all of the move's cards: one is not chosen yet. (move_incomplete)"),
    (["c", "", "d"], "Choose all of the move's cards: one is not chosen yet. (move_incomplete)"),
])
def test_a_composed_action_with_too_many_long_or_empty_parts_is_refused_saying_why(
        alice_client: Client, pages: Any, parts: list[str], said: str) -> None:
    """It said "That action could not be read." whatever was wrong with it."""
    match = pages.quick_play(alice_client)
    seq = match.seq
    response = alice_client.post(reverse("match_act", args=[match.id]),
                                 {"action": '{"type": "play"}', "key": "k",
                                  "action.cards": parts}, **pages.htmx)
    assert response.status_code == 200 and said in html.unescape(response.content.decode())
    assert Match.objects.get(pk=match.pk).seq == seq


def test_an_outsider_sees_the_spectator_view_without_any_hand_card(
        alice_client: Client, outsider_client: Client, player: Any, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    hand = services.match_state(match=match, user=player)["view"]["hand"]
    page = outsider_client.get(reverse("match_play", args=[match.id])).content.decode()

    assert "Your hand" not in page and 'class="ss-card' not in page
    assert pages.action_forms(page) == []
    reference = " ".join(REFERENCE)
    for card in hand:
        assert card["id"] not in page
        if card["name"] not in reference:
            assert html.escape(card["name"]) not in page
    refused = pages.act(outsider_client, match, json.dumps({"type": "move", "to": [1, 1]}), "k")
    assert b"You have no seat in this match." in refused.content


def poll_url(page: Any) -> str:
    """The URL the page's state partial polls."""
    found = re.search(r'hx-get="([^"]*/state/[^"]*)"', page.content.decode())
    assert found is not None
    return html.unescape(found.group(1))


def test_a_join_that_leaves_seats_open_reaches_the_pages_already_open(
        alice_client: Client, player2: Any) -> None:
    """Neither seq nor status moves, but the seats line and the Join button must."""
    alice_client.post(reverse("match_create"), {
        "game": "royal_rumble", "opponent": "open", "seats": 3, "username": ""})
    match = Match.objects.get()
    poll = poll_url(alice_client.get(reverse("match_play", args=[match.id])))
    assert alice_client.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    bruno = Client()
    bruno.force_login(player2)
    assert "Join this match" in bruno.get(reverse("match_play", args=[match.id])).content.decode()
    bruno.post(reverse("match_join", args=[match.id]))
    refreshed = alice_client.get(poll, HTTP_HX_REQUEST="true")
    assert refreshed.status_code == 200 and player2.username in refreshed.content.decode()
    assert "Join this match" not in bruno.get(reverse("match_play", args=[match.id])).content.decode()


def test_the_state_partial_is_204_while_the_stream_has_not_moved(
        alice_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    match.refresh_from_db()
    poll = poll_url(alice_client.get(reverse("match_play", args=[match.id])))

    unchanged = alice_client.get(poll, HTTP_HX_REQUEST="true")
    moved = alice_client.get(poll.replace(f"seq={match.seq}&", f"seq={match.seq - 1}&"),
                             HTTP_HX_REQUEST="true")

    assert unchanged.status_code == 204
    assert moved.status_code == 200 and b'id="match-state"' in moved.content
    assert b"<html" not in moved.content


def test_a_poll_after_the_session_ended_sends_the_whole_page_to_log_in(
        alice_client: Client, pages: Any) -> None:
    """Not the login page swapped into the match, nor `next` set to the fragment."""
    match = pages.quick_play(alice_client)
    play = reverse("match_play", args=[match.id])
    alice_client.logout()
    polled = alice_client.get(reverse("match_state", args=[match.id]), {"seq": 0},
                              HTTP_HX_REQUEST="true",
                              HTTP_HX_CURRENT_URL=f"http://testserver{play}")
    assert polled.status_code == 200 and polled.content == b""
    assert polled["HX-Redirect"] == f"{reverse('login')}?next={play.replace('/', '%2F')}"
    elsewhere = alice_client.get(reverse("match_state", args=[match.id]),
                                 HTTP_HX_REQUEST="true",
                                 HTTP_HX_CURRENT_URL="https://elsewhere.example/x")
    assert elsewhere["HX-Redirect"] == f"{reverse('login')}?next=%2F"
    plain = alice_client.get(play)  # without htmx the usual redirect
    assert plain.status_code == 302 and "HX-Redirect" not in plain


def test_the_play_page_of_an_unknown_match_is_404(alice_client: Client) -> None:
    response = alice_client.get(reverse("match_play", args=[999999]))
    assert response.status_code == 404
    page = response.content.decode()  # the site's own page: navigation and a way back
    assert 'name="viewport"' in page and "<h1>Not found</h1>" in page
    assert f'href="{reverse("lobby")}"' in page


def test_a_move_is_announced_to_screen_readers_and_focus_comes_back_to_the_status(
        alice_client: Client, pages: Any) -> None:
    """The page holds one polite live region outside the swapped state; each swap fills
    it (out of band) with what just happened and whose turn it is."""
    match = pages.quick_play(alice_client)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert page.count('id="match-announce"') == 1
    assert '<div id="match-announce" class="visually-hidden" role="status" ' \
           'aria-live="polite"></div>' in page
    assert '<div class="status-line" id="match-status" tabindex="-1">' in page  # focus goes here
    action, key = pages.action_forms(page)[0]

    partial = pages.act(alice_client, match, action, key).content.decode()

    announced = partial.split('<div id="match-announce" hx-swap-oob="innerHTML">')[1]
    announced = announced.split("</div>")[0]
    newest = services.match_events(match=match, user=match.seats.get(index=0).user)[-1]
    assert newest["narration"] and newest["narration"][-1] in html.unescape(announced)
    state = services.match_state(match=match, user=match.seats.get(index=0).user)
    if state["legal_actions"]:
        assert "Your turn." in announced


# The play page's focus script (static/js/play.js) run against a stand-in for the page:
# the match state holds the status line and a card button; a swap puts new ones in; htmx
# drops focus to the body when the focused element is gone and no element with its id
# came back.
FOCUS_DRILL = """
const listeners = {};
const outside = {name: "top bar link"};
const window = {addEventListener() {}};  // the ring's resize: no ring here
const document = {
  body: {name: "body"}, activeElement: null,
  addEventListener(name, fn) { (listeners[name] = listeners[name] || []).push(fn); },
  getElementById(id) { return id === "match-state" ? state : null; },
  querySelector(sel) { return sel === "#match-state .status-line" ? state.status : null; },
};
let state;
function draw() {
  const status = {name: "status line", focus() { document.activeElement = this; }};
  const card = {name: "card button"};
  state = {status, card, contains(el) { return el === status || el === card; }};
}
function swap(verb, focused) {
  draw();
  const before = focused(state);
  document.activeElement = before;
  listeners["htmx:beforeSwap"].forEach(fn => fn({detail: {}}));
  const gone = state.contains(before);
  draw();
  document.activeElement = gone ? document.body : before;
  listeners["htmx:afterSettle"].forEach(fn => fn({detail: {requestConfig: {verb}}}));
  return document.activeElement === state.status ? "status line"
    : document.activeElement.name;
}
SCRIPT
console.log(JSON.stringify({
  move: swap("post", () => document.body),  // the pressed button, disabled, lost it
  poll_on_a_card: swap("get", now => now.card),
  poll_elsewhere: swap("get", () => outside),
  poll_unfocused: swap("get", () => document.body),
}));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_focus_swapped_away_by_a_poll_comes_back_to_the_status_line(
        alice_client: Client, pages: Any) -> None:
    """A rival's move swaps the state in while a keyboard user is on a card: they go on
    from the status line, not from the top of the page. A poll takes no focus the
    reader put outside the state, or never put anywhere."""
    match = pages.quick_play(alice_client)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert '<script src="/static/js/play.js" defer></script>' in page
    found = finders.find("js/play.js")
    assert found is not None
    script = Path(str(found)).read_text()
    ran = subprocess.run(["node", "-e", FOCUS_DRILL.replace("SCRIPT", script)],
                         capture_output=True, text=True, timeout=30, check=True)
    assert json.loads(ran.stdout) == {"move": "status line", "poll_on_a_card": "status line",
                                      "poll_elsewhere": "top bar link",
                                      "poll_unfocused": "body"}


def test_the_status_line_keeps_one_id_across_polls(alice_client: Client, pages: Any) -> None:
    """htmx gives focus back to the element with the focused one's id after a swap: the
    status line, where focus goes after a move, stays focused when a rival moves."""
    match = pages.quick_play(alice_client)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    partial = alice_client.get(reverse("match_state", args=[match.id]), **pages.htmx)
    for html_ in (page, partial.content.decode()):
        assert html_.count('id="match-status"') == 1
        assert '<div class="status-line" id="match-status" tabindex="-1">' in html_


def announcement(partial: str) -> str:
    """What the partial puts in the page's live region, as a screen reader reads it."""
    told = partial.split('<div id="match-announce" hx-swap-oob="innerHTML">')[1]
    return html.unescape(told.split("</div>")[0])


def narrated(match: Match, user: Any, after: int) -> list[str]:
    """The lines of the events after seq `after`, as the user's log on the page tells
    them (which names Royal Rumble's seats by their players, as its narration does not)."""
    page = services.match_events(match=match, user=user, after=after)
    assert page, "some events to tell"
    log = Client()
    log.force_login(user)
    shown = log.get(reverse("match_play", args=[match.id])).content.decode()
    told = dict(re.findall(r'<li value="(\d+)">(.*?)</li>', shown, re.S))
    return [html.unescape(line) for event in page
            for line in re.findall(r'<span class="line">(.*?)</span>', told[str(event["seq"])])]


def test_a_move_announces_every_event_after_it_not_only_the_newest(
        alice_client: Client, player: Any, pages: Any) -> None:
    """Three bots plan and their attacks are revealed and resolved between two of alice's
    decisions: a screen reader hears all of it, as the log shows it, not its last line."""
    match = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": "alice"}] + [{"bot": "heuristic"}] * 3)
    for _ in range(12):
        match.refresh_from_db()
        before = match.seq
        page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
        action, key = pages.action_forms(page)[0]
        told = announcement(pages.act(alice_client, match, action, key).content.decode())
        match.refresh_from_db()
        if match.seq > before + 2:  # alice's move and more than one after it
            break
    else:
        pytest.fail("the bots never answered alice with several events")
    lines = narrated(match, player, before)
    assert len(lines) > 2
    assert all(line in told for line in lines)


def test_a_poll_announces_every_event_since_the_seq_the_page_showed(
        alice_client: Client, player: Any, pages: Any) -> None:
    """The rival's moves reach the page by its poll; it hears each of them."""
    match = pages.quick_play(alice_client)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    shown = int(re.search(r"\?seq=(\d+)", page)[1])  # type: ignore[index]
    for _ in range(3):  # alice plays on in another tab; the bot answers each move
        state = services.match_state(match=match, user=player)
        if not state["legal_actions"]:
            break
        services.submit_action(match=match, seat=0, action=state["legal_actions"][0],
                               user=player)
    match.refresh_from_db()
    assert match.seq > shown + 2
    url = reverse("match_state", args=[match.id])
    told = announcement(alice_client.get(url, {"seq": shown, "status": "active"},
                                         **pages.htmx).content.decode())
    lines = narrated(match, player, shown)
    assert len(lines) > 2 and all(line in told for line in lines)
    # A seq the page could not have shown tells the newest event alone.
    newest = narrated(match, player, match.seq - 1)
    for odd in ("x", str(match.seq + 5), "-1"):
        told = announcement(alice_client.get(url, {"seq": odd, "status": "active"},
                                             **pages.htmx).content.decode())
        assert newest and all(line in told for line in newest)
        assert len(told) < len(" ".join(lines))


def test_on_a_phone_a_finished_matchs_replay_links_are_full_taps(
        alice_client: Client, pages: Any) -> None:
    """'Watch the replay' in the result banner and the log's replay link were 21 and 15
    pixels tall on a phone: both are padded to a 44px tap there."""
    match = pages.quick_play(alice_client)
    services.forfeit_seat(match=match, seat=1)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    banner = page.split('<div class="result-banner')[1].split("</div>")[0]
    assert f'<a href="{reverse("match_replay", args=[match.id])}?at=0">Watch the replay' in banner
    assert '<h2>What happened</h2> <a class="small" id="log-replay" href=' in page
    css = Path(str(finders.find("css/site.css"))).read_text()
    phone = css.split("/* Phone taps:")[1].split("\n}\n")[0]
    assert "@media (max-width: 480px)" in phone
    assert re.search(r"\.result-banner a, \.log-head a \{[^}]*min-height: 2\.75rem", phone)


def test_on_a_phone_the_fields_a_move_is_made_with_are_full_taps() -> None:
    """Superstar Showdown's play is three selects (40px tall, under a later rule of their
    own), the lobby's form two selects and text fields (41-43px): 44px on a phone."""
    css = Path(str(finders.find("css/site.css"))).read_text()
    phone = css.split("/* Phone taps:")[1].split("\n}\n")[0]
    rule = re.search(r"\n  ([^{\n]*) \{ min-height: 2\.75rem; \}\n  \.match-row", phone)
    assert rule is not None
    chosen = [part.strip() for part in rule[1].split(",")]
    assert {"select", ".st-play-form select"} <= set(chosen)
    assert 'input:not([type="checkbox"]):not([type="radio"])' in chosen
    # (the rule of their own the phone's must outweigh)
    assert re.search(r"\.st-play-form select \{[^}]*min-height: 2\.5rem", css)


def test_the_log_shows_the_latest_events_and_sends_the_rest_to_the_replay(
        alice_client: Client) -> None:
    """A long match's page (sent again at every change) carries its last PAGE_LOG events."""
    match = services.create_match(game="royal_rumble", options={}, created_by=None,
                                  seats=[{"bot": "random"}] * 4)
    match.refresh_from_db()
    assert match.status == "finished" and match.seq > PAGE_LOG
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    log = page[page.index('<section class="log">'):]
    assert log.count("<li value=") == PAGE_LOG
    assert f'<li value="{match.seq}">' in log
    assert f'<li value="{match.seq - PAGE_LOG}">' not in log
    assert f"{match.seq - PAGE_LOG} earlier events" in log


def test_a_player_resigns_a_live_match_from_the_page(alice_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert reverse("match_resign", args=[match.id]) in page and ">Resign<" in page
    # league.js asks the form's question and sets `confirmed` before it posts.
    form = re.search(r'<form method="post" action="[^"]*/resign/" class="resign"\s+'
                     r'data-confirm="([^"]*)">(.*?)</form>', page, re.S)
    assert form is not None and form[1] == "Resign? The match ends and you lose it."
    assert '<input type="hidden" name="confirmed" value="">' in form[2]
    response = alice_client.post(reverse("match_resign", args=[match.id]), {"confirmed": "yes"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == "finished" and match.result["placements"][0] == 2
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert "You lost." in page and ">Resign<" not in page


@pytest.mark.parametrize("confirmed", ["yes", ""])
def test_resigning_twice_with_a_double_tap_ends_on_the_match_page_as_once_does(
        alice_client: Client, pages: Any, confirmed: str) -> None:
    """The second press found the match over and said so as an error ("The match is
    over."); it shows the resigned match as the first press does, a press sent without
    its question's answer too."""
    match = pages.quick_play(alice_client)
    url = reverse("match_resign", args=[match.id])
    first = alice_client.post(url, {"confirmed": "yes"}, follow=True)
    again = alice_client.post(url, {"confirmed": confirmed}, follow=True)
    assert again.redirect_chain == first.redirect_chain == [
        (reverse("match_play", args=[match.id]), 302)]
    page = again.content.decode()
    assert "You lost." in page and "forfeited (resigned)" in page
    assert 'role="alert"' not in page and "match_over" not in page
    match.refresh_from_db()
    assert match.status == "finished" and match.result["placements"][0] == 2


def test_resigning_a_match_a_rival_ended_first_says_it_was_over(
        alice_client: Client, player: Any, player2: Any) -> None:
    """Only a second press of one's own resignation is taken as done: a match the other
    side ended first is refused as over."""
    match = services.create_match(game="super_showdown", options={}, created_by=player2,
                                  seats=[{"player": "bruno"}, {"player": "alice"}])
    services.join_match(match=match, user=player)
    services.resign(match=match, user=player2)
    refused = alice_client.post(reverse("match_resign", args=[match.id]),
                                {"confirmed": "yes"}, follow=True)
    assert "The match is over. (match_over)" in refused.content.decode()


def test_without_javascript_a_resignation_is_asked_on_a_page_before_it_counts(
        alice_client: Client, pages: Any) -> None:
    """The button's confirm() needs JavaScript; a bare post gets a page that asks."""
    match = pages.quick_play(alice_client)
    url = reverse("match_resign", args=[match.id])
    asked = alice_client.post(url)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert f"Resign match #{match.id}" in page and "cannot be taken back" in page
    assert 'name="confirmed" value="yes"' in page
    assert reverse("match_play", args=[match.id]) in page  # the way back
    match.refresh_from_db()
    assert match.status == "active" and match.seq == match.events.count()

    response = alice_client.post(url, {"confirmed": "yes"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == "finished" and match.result["placements"][0] == 2


@pytest.mark.parametrize("confirmed", ["yes", ""])
def test_resigning_a_three_seat_rumble_puts_the_player_out_and_the_others_play_on(
        alice_client: Client, organizer: Any, player2: Any, confirmed: str) -> None:
    """RR-34 and the forfeit decision of engine/games/royal_rumble: the page says what a
    resignation does there, and after it the player is out (the log says so), the match
    goes on, nothing is left to resign, and a second press shows the match as once."""
    match = services.create_match(game="royal_rumble", options={}, created_by=organizer,
                                  seats=[{"player": "alice"}, {"player": "bruno"},
                                         {"player": "bruno"}])
    url = reverse("match_resign", args=[match.id])
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert 'data-confirm="Resign? You are out, and the others play on."' in page
    asked = alice_client.post(url).content.decode()
    assert "You are out of the match, and the others play on." in asked
    first = alice_client.post(url, {"confirmed": "yes"}, follow=True)
    again = alice_client.post(url, {"confirmed": confirmed}, follow=True)
    assert again.redirect_chain == first.redirect_chain == [
        (reverse("match_play", args=[match.id]), 302)]
    page = again.content.decode()
    assert "alice forfeited and is out." in page and ">Resign<" not in page
    assert 'role="alert"' not in page and "seat_out" not in page
    match.refresh_from_db()
    assert match.status == "active" and match.events.filter(kind="forfeit").count() == 1


def test_one_who_holds_several_rumble_seats_resigns_the_seat_the_page_plays(
        alice_client: Client, organizer: Any, player: Any, player2: Any,
        outsider: Any) -> None:
    """RR-34 and the forfeit decision of engine/games/royal_rumble: alice holds two seats
    of a four-seat Rumble (a staff lineup). The page's Resign posts the seat the page
    plays and names it, on the no-JavaScript page too; once that seat is out the page
    plays her other one, and its Resign puts that one out. A second press of the first
    Resign shows the page as once and resigns nothing more."""
    match = services.create_match(game="royal_rumble", options={}, created_by=organizer,
                                  seats=[{"player": "alice"}, {"player": "alice"},
                                         {"player": "bruno"}, {"player": "olga"}])
    play, url = (reverse(name, args=[match.id]) for name in ("match_play", "match_resign"))
    first = services.page_seat(match, player)
    other = 1 - first
    page = alice_client.get(play).content.decode()
    assert (f'data-confirm="Resign for Seat {first + 1}? Seat {first + 1} is out, and the '
            'others play on."') in page
    asked = alice_client.post(url, {"seat": first}).content.decode()
    assert f"Resign match #{match.id} (Royal Rumble) for Seat {first + 1}?" in asked
    assert f"Seat {first + 1} is out of the match, and the others play on." in asked
    assert f'name="seat" value="{first}"' in asked
    resigned = alice_client.post(url, {"confirmed": "yes", "seat": first}, follow=True)
    assert services.forfeited_seats(match) == [first]
    page = resigned.content.decode()
    assert (f'data-confirm="Resign for Seat {other + 1}? Seat {other + 1} is out, and the '
            'others play on."') in page
    again = alice_client.post(url, {"confirmed": "yes", "seat": first}, follow=True)
    assert again.redirect_chain == resigned.redirect_chain == [(play, 302)]
    assert 'role="alert"' not in again.content.decode()
    assert services.forfeited_seats(match) == [first]
    alice_client.post(url, {"confirmed": "yes", "seat": other})
    assert services.forfeited_seats(match) == [first, other]
    page = alice_client.get(play).content.decode()
    assert ">Resign<" not in page
    match.refresh_from_db()
    assert match.status == "active"


def two_left_of_a_rumble(alice: Any, bruno: Any, olga: Any) -> Match:
    """A live Royal Rumble of three whose seat 2, olga, resigned: alice and bruno are the
    last at the table (RR-55)."""
    match = services.create_match(game="royal_rumble", options={}, created_by=alice,
                                  seats=[{"player": "alice"}, {"player": "bruno"},
                                         {"player": "olga"}])
    services.join_match(match=match, user=bruno)
    services.join_match(match=match, user=olga)
    services.resign(match=match, user=olga)
    return match


def test_resigning_when_two_are_left_in_a_rumble_says_the_match_ends(
        alice_client: Client, player: Any, player2: Any, outsider: Any) -> None:
    """Olga resigned a three-seat Rumble; alice and bruno are the last at the table, so
    alice resigning ends the match and bruno wins it (RR-55 and the forfeit decision of
    engine/games/royal_rumble). The page and the no-JavaScript page said she would be out
    "and the others play on"; they say the match ends."""
    match = two_left_of_a_rumble(player, player2, outsider)
    said = "You are out, and the match ends: the one left in wins it."
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert f'data-confirm="Resign? {said}"' in page and "the others play on" not in page
    url = reverse("match_resign", args=[match.id])
    asked = alice_client.post(url).content.decode()
    assert said in asked and "the others play on" not in asked
    alice_client.post(url, {"confirmed": "yes"})
    match.refresh_from_db()
    assert match.status == "finished" and match.result["winners"] == [1]
    assert match.result["forfeits"] == [2, 0]


def test_a_second_press_of_a_resignation_that_ended_a_rumble_shows_it_as_once(
        alice_client: Client, player: Any, player2: Any, outsider: Any) -> None:
    """Alice's resignation left bruno alone at the table and ended the match (RR-55): a
    double tap's second press came back with "The match is over." as an error, where a
    resignation that ends a match of two shows the page as the first press did."""
    match = two_left_of_a_rumble(player, player2, outsider)
    url = reverse("match_resign", args=[match.id])
    first = alice_client.post(url, {"confirmed": "yes"}, follow=True)
    again = alice_client.post(url, {"confirmed": "yes"}, follow=True)
    assert again.redirect_chain == first.redirect_chain == [
        (reverse("match_play", args=[match.id]), 302)]
    page = again.content.decode()
    assert 'role="alert"' not in page and "match_over" not in page
    match.refresh_from_db()
    assert match.status == "finished" and match.result["forfeits"] == [2, 0]


def test_a_player_out_of_a_rumble_by_a_forfeit_is_told_so_not_shown_waiting(
        alice_client: Client, organizer: Any, player2: Any) -> None:
    """Resigned from a three-seat Rumble (its forfeit decision, RR-34), alice is out while
    the others play on: her status line said "Waiting for bruno", as if her turn were to
    come, with their turn deadline; it says she is out. The others' pages do not."""
    match = services.create_match(game="royal_rumble", options={}, created_by=organizer,
                                  seats=[{"player": "alice"}, {"player": "bruno"},
                                         {"player": "bruno"}])
    services.resign(match=match, user=match.seats.get(index=0).user)
    url = reverse("match_play", args=[match.id])
    status = re.search(r'<div class="status-line".*?</div>',
                       alice_client.get(url).content.decode(), re.S)
    assert status is not None
    words = " ".join(re.sub(r"<[^>]+>", " ", status.group(0)).split())
    assert words == "You are out of this match: the others play on to its end."
    bruno = Client()
    bruno.force_login(player2)
    assert "You are out of this match" not in bruno.get(url).content.decode()


def test_a_player_leaves_an_open_match_from_the_page(alice_client: Client) -> None:
    alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "open", "seats": 2, "username": ""})
    match = Match.objects.get()
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert ">Leave this match<" in page and 'data-confirm="Leave this match?"' in page
    response = alice_client.post(reverse("match_resign", args=[match.id]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert f"You left match #{match.id}." in response.content.decode()
    assert not Match.objects.exists()


def test_every_cards_text_is_on_the_card_not_only_in_a_hover_title() -> None:
    """Touch screens show no title: Ray-Gun and Decoy! carry their rule on the card, and a
    card without a power its line (it was in the title alone)."""
    for card in CARDS:
        shown = render_to_string("games/super_showdown/_card.html", {"card": card.to_json()})
        kind = "power-text" if str(card.power) != "none" else "card-text"
        assert f'<span class="{kind}">{html.escape(card.text)}</span>' in shown
        assert "title=" not in shown
        chip = render_to_string("games/super_showdown/_card_chip.html", {"card": card.to_json()})
        chip += render_to_string("games/super_showdown/_card_text.html", {"card": card.to_json()})
        assert f'<span class="ss-played-text">{html.escape(card.text)}</span>' in chip
        assert "title=" not in chip


def test_board_square_buttons_are_named_by_their_move_not_their_glyph(
        alice_client: Client, pages: Any) -> None:
    """A square's face shows a marker letter or a bolt; a screen reader reads the move."""
    match = pages.quick_play(alice_client)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    for _ in range(60):
        if 'class="sq-btn"' in page:
            break
        action, key = pages.action_forms(page)[0]
        page = pages.act(alice_client, match, action, key).content.decode()
    buttons = re.findall(r'<button type="submit" id="act-\w+" class="sq-btn"[^>]*>', page)
    assert buttons, "no square was offered within 60 moves"
    for button in buttons:
        assert re.search(r'aria-label="Move: to \(\d, \d\)', button), button
        assert "title=" not in button  # the move again, read after it


def test_a_grid_squares_marker_and_tags_read_as_words_not_letters() -> None:
    """Off the squares one may move to, a marker read 'H' and a Powerboost the bolt's
    emoji: the letter and glyph are hidden from screen readers and the words stand in."""
    seats = [SimpleNamespace(index=0, label="alice"), SimpleNamespace(index=1, label="bot")]
    marked = render_to_string("games/super_showdown/_cell.html", {"seats": seats, "cell": {
        "markers": [{"seat": 0, "role": "hero"}, {"seat": 1, "role": "villain"}],
        "boost": True, "mayhem": False}})
    assert '<span aria-hidden="true">H</span><span class="visually-hidden">alice (Hero)' \
        in marked
    assert '<span aria-hidden="true">V</span><span class="visually-hidden">bot (Villain)' \
        in marked
    assert '<span aria-hidden="true">⚡</span><span class="visually-hidden">Powerboost' in marked
    mayhem = render_to_string("games/super_showdown/_cell.html", {"seats": seats, "cell": {
        "markers": [], "boost": True, "mayhem": True}})
    assert '<span aria-hidden="true">M</span><span class="visually-hidden">Mayhem' in mayhem
    assert "title=" not in marked + mayhem  # a hover title: no phone shows it


def test_a_square_one_may_move_to_says_what_it_shows_after_the_move() -> None:
    """A square's button is named by its move; a Powerboost, the Mayhem square, a marker
    or a start on it were in glyphs and colour alone, which its name left out."""
    seats = [SimpleNamespace(index=0, label="alice"), SimpleNamespace(index=1, label="bot")]

    def named(cell: dict[str, Any]) -> str:
        shown = render_to_string("matches/_action_button.html", {
            "match": SimpleNamespace(id=1), "seats": seats, "state": {"seat": 0},
            "entry": {"label": "Move: to (2, 3)", "json": "{}", "key": "k"},
            "cell": {"markers": [], "boost": False, "mayhem": False, "start": None, **cell},
            "button_class": "sq-btn", "button_template": "games/super_showdown/_cell.html",
            "aria_template": "games/super_showdown/_cell_words.html"})
        found = re.search(r'aria-label="([^"]*)"', shown)
        assert found is not None
        return html.unescape(found[1])

    assert named({}) == "Move: to (2, 3)"
    assert named({"boost": True}) == "Move: to (2, 3), Powerboost"
    assert named({"boost": True, "mayhem": True}) == "Move: to (2, 3), Mayhem"
    assert named({"markers": [{"seat": 1, "role": "villain"}], "start": "hero"}) \
        == "Move: to (2, 3), bot (Villain), Hero start"


def test_the_dice_row_and_column_and_the_start_squares_are_said_in_words(
        alice_client: Client, pages: Any) -> None:
    """The scanner dice's column and row were marked by colour and a hover title alone
    (which a phone never shows), the start squares by their border's colour: the die
    heading its column or row is named to a screen reader, and the legend under the board
    writes out each die's colour, name and line."""
    match = pages.quick_play(alice_client)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    for _ in range(60):
        if "die-white" in page:
            break
        action, key = pages.action_forms(page)[0]
        page = pages.act(alice_client, match, action, key).content.decode()
    white = re.search(r'<span class="die die-white">(\d)<span '
                      r'class="visually-hidden"> \(white scanner die\)</span></span>', page)
    green = re.search(r'<span class="die die-green">(\d)<span '
                      r'class="visually-hidden"> \(green rumors die\)</span></span>', page)
    assert white and green
    legend = page.split('<p class="legend dice-legend">')[1].split("</p>")[0]
    assert f"</span> white scanner die: column {white[1]}</span>" in legend
    assert f"</span> green rumors die: row {green[1]}</span>" in legend
    board = page.split('<div class="ss-board-wrap">')[1].split('<p class="legend muted">')[0]
    assert "<span class=\"die" in board and not re.search(r"<(span|td)[^>]* title=", board)
    shown = render_to_string("games/super_showdown/_cell.html", {"cell": {
        "markers": [], "boost": False, "mayhem": False, "start": "villain"}})
    assert '<span class="visually-hidden">Villain start</span>' in shown


def test_a_players_marker_beside_their_name_is_hidden_from_screen_readers(
        alice_client: Client, pages: Any) -> None:
    """The player boxes spell the role out ('Blue · Hero'); the marker's letter is noise."""
    match = pages.quick_play(alice_client)
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    boxes = page.split('<div class="ss-players">')[1].split('<div class="ss-board-wrap">')[0]
    markers = re.findall(r'<span class="marker [^"]*"[^>]*>', boxes)
    assert len(markers) == 2 and all('aria-hidden="true"' in m for m in markers)


def test_a_super_showdown_cards_colour_is_in_its_text_not_only_its_background() -> None:
    """White and green cards share their numbers: a screen reader, or a phone's high
    contrast theme, needs the colour in words, on the hand card and on the chip."""
    for colour in ("white", "green"):
        card = next(c for c in CARDS if str(c.colour) == colour).to_json()
        for template in ("_card.html", "_card_chip.html"):
            shown = render_to_string(f"games/super_showdown/{template}", {"card": card})
            assert f'<span class="visually-hidden">{colour}</span>' in shown


def test_the_viewers_own_seat_is_said_in_words_not_only_in_bold(
        alice_client: Client, outsider_client: Client, pages: Any) -> None:
    """The seats line at the top of every game's page ('alice vs Bot'): bold alone marked
    the viewer's seat, which a screen reader does not read out."""
    match = pages.quick_play(alice_client)
    url = reverse("match_play", args=[match.id])
    seats = alice_client.get(url).content.decode().split('<p class="seats">')[1]
    assert '<span class="seat me">alice (you)</span>' in seats.split("</p>")[0]
    watched = outsider_client.get(url).content.decode().split('<p class="seats">')[1]
    assert "(you)" not in watched.split("</p>")[0]


def test_a_face_down_card_is_named_for_screen_readers_not_read_as_its_star() -> None:
    shown = render_to_string("games/superstar_showdown/_back.html", {"colour": "red"})
    assert 'role="img" aria-label="a face-down card"' in shown
    assert '<span class="st-back-mark" aria-hidden="true">' in shown


def test_a_page_left_open_on_a_match_its_last_player_left_says_so_and_stops_polling(
        alice_client: Client, bruno_client: Client, player: Any) -> None:
    match = services.create_match(game="super_showdown", options={},
                                  seats=[{"player": "alice"}, {"open": True}],
                                  created_by=player)
    page = bruno_client.get(reverse("match_play", args=[match.id])).content.decode()
    poll = html.unescape(re.search(r'hx-get="([^"]*/state/[^"]*)"', page)[1])
    alice_client.post(reverse("match_resign", args=[match.id]), {"confirmed": "yes"})
    assert not Match.objects.filter(pk=match.id).exists()
    polled = bruno_client.get(poll, HTTP_HX_REQUEST="true")
    body = polled.content.decode()
    assert polled.status_code == 200 and 'id="match-state"' in body
    assert f"Match #{match.id} is gone" in body and "hx-get" not in body
    assert f'href="{reverse("lobby")}"' in body


def test_a_match_recorded_under_earlier_rules_says_why_it_cannot_be_shown_and_can_be_resigned(
        alice_client: Client, pages: Any, revise_rules: Any) -> None:
    match = pages.quick_play(alice_client)
    play = reverse("match_play", args=[match.id])
    before = re.search(r"seats=(\w+)", alice_client.get(play).content.decode())
    assert before is not None
    match.refresh_from_db()
    revise_rules(match.game)
    services.clear_state_cache()
    response = alice_client.get(play)
    assert response.status_code == 200
    page = response.content.decode()
    assert "cannot replay it" in page and "(rules_changed)" in page
    assert "every 2s" not in page  # nothing to poll for
    assert ">Resign<" in page and '<section class="log">' not in page
    assert "(rules_changed)" in pages.state(alice_client, match).content.decode()
    # A page left open since before the release hears of it at its next poll, although
    # nothing moved in the match.
    polled = pages.state(alice_client, match, seq=match.seq, status=match.status,
                         seats=before[1])
    assert polled.status_code == 200 and "(rules_changed)" in polled.content.decode()
    acted = pages.act(alice_client, match, '{"type": "play"}', "a-key")
    assert acted.status_code == 200 and "(rules_changed)" in acted.content.decode()
    # The replay sends the player back to the page that says why, and says it once.
    replay = alice_client.get(reverse("match_replay", args=[match.id]), follow=True)
    assert replay.redirect_chain[-1][0] == play
    assert replay.content.decode().count("(rules_changed)") == 1

    alice_client.post(reverse("match_resign", args=[match.id]), {"confirmed": "yes"})
    match.refresh_from_db()
    page = alice_client.get(play).content.decode()
    assert match.status == "finished" and "Its result stands." in page
    assert html.escape(match.result["summary"]) in page and ">Resign<" not in page


def test_one_player_holding_several_seats_plays_each_from_the_page_in_turn(
        alice_client: Client, organizer: Any, player: Any, pages: Any) -> None:
    """A staff lineup may seat one person twice (one phone at a club table): the page
    plays whichever of their seats has a decision pending, and its forms say which."""
    match = services.create_match(game="royal_rumble", options={}, created_by=organizer,
                                  seats=[{"player": "alice"}, {"player": "alice"},
                                         {"bot": "random"}])
    post = reverse("match_act", args=[match.id])
    played = set()
    for _ in range(12):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        page = alice_client.get(f"/matches/{match.id}/").content.decode()
        seat = re.search(r'name="seat" value="(\d+)"', page)
        assert seat is not None, "a seat of alice's must act: the page gives it a form"
        deciding = services.match_state(match=match, user=None)["pending"]["seats"]
        assert int(seat[1]) in deciding and int(seat[1]) in (0, 1)
        moves = re.search(r'name="moves" value="(\d+)"', page)
        assert moves is not None
        action, key = pages.action_forms(page)[0]
        answer = alice_client.post(post, {"action": action, "key": key, "seat": seat[1],
                                          "moves": moves[1]}, **pages.htmx)
        assert b"error-banner" not in answer.content
        played.add(int(seat[1]))
    assert played == {0, 1}
    # A form for a seat alice does not hold is refused, and writes nothing.
    match.refresh_from_db()
    written = MatchEvent.objects.filter(match=match).count()
    refused = alice_client.post(post, {"action": "{}", "key": "x", "seat": "2"}, **pages.htmx)
    assert b"error-banner" in refused.content
    assert MatchEvent.objects.filter(match=match).count() == written


def test_resigning_during_a_birdcage_draft_puts_the_player_out_and_the_draft_goes_on(
        alice_client: Client, organizer: Any, player2: Any) -> None:
    """SH-115..118 and the forfeit decision of engine/games/supershow: during the draft
    the page says a resignation puts the player out while the others play on (it ended
    the match), and after it the draft is still on the page, the player out of it."""
    match = services.create_match(game="supershow", options={"match_type": "birdcage"},
                                  created_by=organizer,
                                  seats=[{"player": "alice"}, {"player": "bruno"},
                                         {"player": "bruno"}])
    url = reverse("match_resign", args=[match.id])
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    assert ">The draft<" in page
    assert 'data-confirm="Resign? You are out, and the others play on."' in page
    assert "You are out of the match, and the others play on." in alice_client.post(
        url).content.decode()
    page = alice_client.post(url, {"confirmed": "yes"}, follow=True).content.decode()
    assert "Player 1 forfeited and is out." in page and ">The draft<" in page
    assert ">Resign<" not in page
    match.refresh_from_db()
    assert match.status == "active" and match.events.filter(kind="forfeit").count() == 1


def test_a_resignation_that_would_leave_one_player_says_the_match_ends(
        alice_client: Client, organizer: Any, player2: Any) -> None:
    """SH-125 with the forfeit decision of engine/games/supershow: once a seat of a
    three-seat Birdcage forfeited during the draft, Alice's resignation would leave one
    player, who wins: the page says she is out and the match ends, the one left winning
    it (with and without JavaScript), not that the others play on, and so it goes."""
    match = services.create_match(game="supershow", options={"match_type": "birdcage"},
                                  created_by=organizer,
                                  seats=[{"player": "alice"}, {"player": "bruno"},
                                         {"player": "bruno"}])
    services.forfeit_seat(match=match, seat=1)
    url = reverse("match_resign", args=[match.id])
    page = alice_client.get(reverse("match_play", args=[match.id])).content.decode()
    said = "You are out, and the match ends: the one left in wins it."
    assert f'data-confirm="Resign? {said}"' in page
    asked = alice_client.post(url).content.decode()
    assert said in asked and "others play on" not in asked
    alice_client.post(url, {"confirmed": "yes"})
    match.refresh_from_db()
    assert match.status == "finished" and match.result["winners"] == [2]
    assert match.result["placements"] == [2, 3, 1]


@pytest.mark.parametrize("game", sorted(registry.games()))
def test_a_refused_move_is_said_again_where_the_moves_are(
        alice_client: Client, player: Any, pages: Any, game: str) -> None:
    """The banner at the top of the page is off-screen on a phone scrolled down to the
    moves: the refusal is said again just above them, in every game, hidden from screen
    readers, which hear the banner (role=alert) once."""
    bot = {"bot": registry.bot_names(game)[0]}
    seats = registry.get_rules(game).spec.min_seats
    match = services.create_match(game=game, options={}, created_by=player,
                                  seats=[{"player": player.username}] + [bot] * (seats - 1))
    for htmx in (True, False):
        answer = pages.act(alice_client, match, json.dumps({"type": "no such move"}),
                           f"k-note-{htmx}", htmx=htmx).content.decode()
        banner = re.search(r'<div class="error-banner" id="match-error" role="alert">'
                           r'([^<]+)</div>', answer)
        assert banner is not None, answer
        note = f'<p class="error-banner refusal-note" aria-hidden="true">{banner[1]}</p>'
        assert answer.count(note) == 1, answer
        assert answer.count('role="alert"') == 1
        after = answer.split(note)[1]
        # Nothing of the game's view between the note and its moves.
        moves = after.find('<section class="actions')
        if moves >= 0:
            assert after[:moves].strip() == ""
        else:
            assert not pages.action_forms(after)
