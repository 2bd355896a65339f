"""The lobby: the one-click bot match, the create form, joining an open match."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine import registry
from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db


def test_the_lobbys_first_control_is_the_one_click_bot_match(alice_client: Client) -> None:
    page = alice_client.get(reverse("lobby")).content.decode()
    main = page[page.index("<main"):]
    first_form = re.search(r'<form[^>]*action="([^"]+)"', main)
    assert first_form and first_form[1] == reverse("quick_play")
    assert "Play Super Showdown vs bot" in main


def test_one_click_seats_me_against_the_bot_and_opens_the_play_page(
        alice_client: Client, player: Any, pages: Any) -> None:
    response = alice_client.post(reverse("quick_play"))
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("match_play", args=[match.id])
    seats = list(match.seats.order_by("index"))
    expected_bot = "heuristic" if "heuristic" in registry.bot_names("super_showdown") else "random"
    assert (seats[0].user, seats[1].bot) == (player, expected_bot)
    assert match.game == "super_showdown" and match.status == "active"
    page = alice_client.get(response["Location"])
    assert page.status_code == 200 and b"Your hand" in page.content


def test_a_head_request_for_the_lobby_answers_as_a_get_does(alice_client: Client) -> None:
    head = alice_client.head(reverse("lobby"))
    assert head.status_code == 200 and head.content == b""
    assert head["Content-Type"] == alice_client.get(reverse("lobby"))["Content-Type"]


def test_the_one_click_button_only_answers_a_post(alice_client: Client) -> None:
    assert alice_client.get(reverse("quick_play")).status_code == 405
    assert not Match.objects.exists()


def test_one_click_past_the_live_match_limit_says_why_in_the_lobby(
        alice_client: Client, settings: Any) -> None:
    settings.MAX_LIVE_MATCHES = 1
    assert alice_client.post(reverse("quick_play")).status_code == 302
    refused = alice_client.post(reverse("quick_play"), follow=True)
    assert refused.redirect_chain[-1][0] == reverse("lobby")
    assert "You have 1 match waiting for players or in play" in refused.content.decode()
    assert Match.objects.count() == 1


def test_an_open_seat_match_is_listed_for_others_and_they_can_join(
        alice_client: Client, player2: Any) -> None:
    response = alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "open", "seats": 2, "username": "",
    })
    match = Match.objects.get()
    assert response.status_code == 302 and match.status == "open"
    waiting = alice_client.get(reverse("match_play", args=[match.id]))
    assert b"Waiting for players" in waiting.content

    bruno = Client()
    bruno.force_login(player2)
    lobby = bruno.get(reverse("lobby")).content.decode()
    assert reverse("match_join", args=[match.id]) in lobby
    joined = bruno.post(reverse("match_join", args=[match.id]))
    assert joined.status_code == 302
    match.refresh_from_db()
    assert match.status == "active"
    assert match.seats.get(index=1).user == player2


def test_a_match_against_a_named_player_invites_them(
        alice_client: Client, bruno_client: Client, outsider_client: Client, player: Any,
        player2: Any) -> None:
    """Bruno is invited, not seated: the match waits, his lobby offers Accept and Decline,
    nobody else sees it as open, and accepting seats him and starts it."""
    alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "player", "username": "bruno", "seats": 2,
    })
    match = Match.objects.get()
    assert [s.user for s in match.seats.order_by("index")] == [player, None]
    assert (match.seats.get(index=1).invited, match.status) == (player2, "open")
    lobby = bruno_client.get(reverse("lobby")).content.decode()
    invitations = lobby[lobby.index('id="invitations"'):lobby.index("Open matches")]
    assert f"#{match.pk} " in invitations and "from alice" in invitations
    assert "Accept" in invitations and "Decline" in invitations
    assert f"#{match.pk} " not in outsider_client.get(reverse("lobby")).content.decode()
    page = bruno_client.get(reverse("match_play", args=[match.pk])).content.decode()
    assert "Accept the invitation" in page and "invited: bruno" in page
    bruno_client.post(reverse("match_join", args=[match.pk]))
    match.refresh_from_db()
    assert [s.user for s in match.seats.order_by("index")] == [player, player2]
    assert match.status == "active"


def test_accepting_twice_with_a_double_click_seats_once_and_refuses_nothing(
        alice_client: Client, bruno_client: Client, player2: Any) -> None:
    """The second press finds bruno seated and the match started by the first: the page it
    leads to shows the match, not "This match is not taking players"."""
    alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "player", "username": "bruno", "seats": 2,
    })
    match = Match.objects.get()
    url = reverse("match_join", args=[match.pk])
    bruno_client.post(url)
    again = bruno_client.post(url, follow=True)
    assert again.redirect_chain == [(reverse("match_play", args=[match.pk]), 302)]
    page = again.content.decode()
    assert 'role="alert"' not in page and "not taking players" not in page
    match.refresh_from_db()
    assert match.status == "active" and match.seats.filter(user=player2).count() == 1


def test_a_join_refused_to_a_player_without_a_seat_still_says_why(
        alice_client: Client, bruno_client: Client, player: Any) -> None:
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"bot": "random"}])
    refused = bruno_client.post(reverse("match_join", args=[match.pk]), follow=True)
    assert "This match is not taking players. (match_not_open)" in refused.content.decode()


def test_declining_from_the_lobby_opens_the_seat(
        alice_client: Client, bruno_client: Client, player2: Any) -> None:
    alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "player", "username": "bruno", "seats": 2,
    })
    match = Match.objects.get()
    answer = bruno_client.post(reverse("match_resign", args=[match.pk]))
    assert answer.status_code == 302 and answer.url == reverse("lobby")
    seat = match.seats.get(index=1)
    assert (seat.user, seat.invited, seat.label) == (None, None, "open")
    lobby = bruno_client.get(reverse("lobby")).content.decode()
    assert 'id="invitations"' not in lobby and f"#{match.pk} " in lobby


def test_declining_twice_with_a_double_click_ends_in_the_lobby_as_once_does(
        alice_client: Client, bruno_client: Client) -> None:
    alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "player", "username": "bruno", "seats": 2,
    })
    match = Match.objects.get()
    url = reverse("match_resign", args=[match.pk])
    bruno_client.post(url)
    again = bruno_client.post(url, follow=True)
    assert again.redirect_chain == [(reverse("lobby"), 302)]
    page = again.content.decode()
    # (the match keeps who declined: the second press says what the first did)
    assert 'role="alert"' not in page and f"You declined match #{match.pk}." in page
    assert match.seats.get(index=1).label == "open"


def test_leaving_twice_a_match_others_still_sit_in_ends_in_the_lobby_as_once_does(
        alice_client: Client, bruno_client: Client) -> None:
    """The page's Leave posts the seat it plays: the second press of a double click finds
    that seat no longer hers, and ends in the lobby as the first did, saying the same (the
    match keeps who left), the match left waiting for players with bruno in it."""
    alice_client.post(reverse("match_create"), {
        "game": "royal_rumble", "opponent": "open", "seats": 3, "username": ""})
    match = Match.objects.get()
    bruno_client.post(reverse("match_join", args=[match.pk]))
    page = alice_client.get(reverse("match_play", args=[match.pk])).content.decode()
    assert '<input type="hidden" name="seat" value="0">' in page
    url = reverse("match_resign", args=[match.pk])
    form = {"seat": 0, "status": "open"}
    first = alice_client.post(url, form, follow=True)
    again = alice_client.post(url, form, follow=True)
    assert again.redirect_chain == first.redirect_chain == [(reverse("lobby"), 302)]
    page = again.content.decode()
    assert 'role="alert"' not in page and f"You left match #{match.pk}." in page
    match.refresh_from_db()
    assert match.status == "open" and match.seats.get(index=0).user_id is None


def test_leaving_twice_the_match_the_first_press_removed_ends_in_the_lobby(
        alice_client: Client) -> None:
    """Alone in an open match, the first Leave removes it: the second is no 404."""
    alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "open", "seats": 2, "username": ""})
    match = Match.objects.get()
    url = reverse("match_resign", args=[match.pk])
    alice_client.post(url, {"confirmed": "yes", "status": "open"})
    again = alice_client.post(url, {"confirmed": "yes", "status": "open"}, follow=True)
    assert again.status_code == 200
    assert again.redirect_chain == [(reverse("lobby"), 302)]
    assert f"There is no match #{match.pk}." in again.content.decode()
    assert not Match.objects.exists()


def test_an_unknown_player_is_refused_with_the_services_message(alice_client: Client) -> None:
    response = alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "player", "username": "nobody", "seats": 2,
    })
    assert response.status_code == 400
    assert b"No player called &#x27;nobody&#x27;." in response.content
    assert not Match.objects.exists()


def test_a_seat_count_the_game_refuses_is_shown(alice_client: Client) -> None:
    response = alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "bot:random", "seats": 3,
    })
    assert response.status_code == 400 and b"takes 2 seats" in response.content
    assert not Match.objects.exists()


def test_my_matches_are_listed_in_the_lobby(alice_client: Client, pages: Any) -> None:
    match = pages.quick_play(alice_client)
    lobby = alice_client.get(reverse("lobby")).content.decode()
    assert reverse("match_play", args=[match.id]) in lobby
    assert "bot: " in lobby


def test_a_match_type_chosen_in_the_lobby_reaches_the_game(alice_client: Client) -> None:
    """Any game, any seat count and its options can be set up from the lobby."""
    response = alice_client.post(reverse("match_create"), {
        "game": "supershow", "opponent": "bot:random", "seats": 4, "username": "",
        "options": '{"match_type": "fatal_four_way_elimination"}',
    })
    match = Match.objects.get()
    assert response.status_code == 302
    assert match.options["match_type"] == "fatal_four_way_elimination"
    assert match.n_seats == 4 and match.status == "active"


def test_naming_myself_as_the_opponent_is_refused(alice_client: Client, player: Any) -> None:
    """The pages play one seat a player: a match against myself could never go on."""
    response = alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "player", "username": player.username,
        "seats": 2,
    })
    assert response.status_code == 400
    assert b"Name another player" in response.content
    assert not Match.objects.exists()


def test_options_typed_with_a_phones_curly_quotes_are_read(alice_client: Client) -> None:
    response = alice_client.post(reverse("match_create"), {
        "game": "supershow", "opponent": "bot:random", "seats": 6, "username": "",
        "options": "{\u201cmatch_type\u201d: \u201cbirdcage\u201d}",
    })
    assert response.status_code == 302
    assert Match.objects.get().options["match_type"] == "birdcage"


@pytest.mark.parametrize(("options", "message"), [
    ("{not json", b"Options are a JSON object"),
    ("[" * 1999, b"Options are a JSON object"),  # nested past the recursion limit
    ('{"best_of": NaN}', b"Options are a JSON object"),
    ('{"match_type": "cage_of_doom"}', b"match_type"),
    ('{"colour": "red"}', b"Unknown option"),
])
def test_bad_options_are_refused_and_no_match_is_made(alice_client: Client, options: str,
                                                      message: bytes) -> None:
    response = alice_client.post(reverse("match_create"), {
        "game": "supershow", "opponent": "bot:random", "seats": 2, "username": "",
        "options": options,
    })
    assert response.status_code == 400
    assert message in response.content
    assert not Match.objects.exists()


def test_the_lobby_lists_each_games_options(alice_client: Client) -> None:
    page = alice_client.get(reverse("lobby")).content.decode()
    assert "birdcage" in page and "best_of" in page and "round_limit" in page
    # Seats as a count where the game takes one, and each default as the JSON to type.
    assert "(super_showdown, 2 seats)" in page and "(supershow, 2&ndash;6 seats)" in page
    assert "<code>referee</code> (default <code>null</code>)" in page
    assert ("<code>competitors</code> (default <code>[&quot;ox_valdane&quot;, "
            "&quot;mira_quickstep&quot;]</code>)") in page


def test_the_lineup_sets_every_seat_one_by_one(alice_client: Client, player: Any,
                                               player2: Any) -> None:
    """Each seat its own level, a bot in the first seat, an invitation and an open seat."""
    response = alice_client.post(reverse("match_create"), {
        "game": "royal_rumble", "opponent": "bot:random", "seats": 2, "username": "",
        "lineup": "search-hard, me, random, @Bruno, open, heuristic, search-easy",
    })
    assert response.status_code == 302, response.content
    match = Match.objects.get()
    rows = list(match.seats.order_by("index").values_list("user", "bot", "invited"))
    assert rows == [(None, "search-hard", None), (player.pk, "", None), (None, "random", None),
                    (None, "", player2.pk), (None, "", None), (None, "heuristic", None),
                    (None, "search-easy", None)]
    assert match.n_seats == 7 and match.status == "open"


@pytest.mark.parametrize(("lineup", "message"), [
    ("random, heuristic", "Name yourself (me) in exactly one seat."),
    ("me, me", "Name yourself (me) in exactly one seat."),
    ("me, @alice", "Name yourself (me) in exactly one seat."),
    ("me, @ALICE", "Name yourself (me) in exactly one seat."),
    ("me, deep-thought", "Cannot read the seat &#x27;deep-thought&#x27;"),
])
def test_a_lineup_that_cannot_be_read_is_refused(alice_client: Client, lineup: str,
                                                message: str) -> None:
    response = alice_client.post(reverse("match_create"), {
        "game": "royal_rumble", "opponent": "bot:random", "seats": 2, "username": "",
        "lineup": lineup,
    })
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_the_people_met_are_offered_as_names_to_invite(
        alice_client: Client, player: Any, player2: Any, outsider: Any) -> None:
    from matches import services

    for other in (player2, outsider):
        match = services.create_match(game="super_showdown", options={}, created_by=player,
                                      seats=[{"player": "alice"}, {"player": other.username}])
        services.join_match(match=match, user=other)
    services.forfeit_seat(match=match, seat=1)  # olga's match is over, bruno's live
    page = alice_client.get(reverse("lobby")).content.decode()
    assert re.search(r'<input type="text" name="username"[^>]* list="people-met"', page)
    assert ('<datalist id="people-met"><option value="bruno"><option value="olga">'
            '</datalist>') in page


def test_the_lobby_lists_every_live_match_and_the_newest_finished_ones(
        alice_client: Client, player: Any) -> None:
    from matches import services
    from matches.views import LOBBY_FINISHED

    made = []
    for n in range(LOBBY_FINISHED + 3):
        made.append(services.create_match(game="super_showdown", options={}, created_by=player,
                                          seats=[{"player": "alice"}, {"bot": "random"}]))
        if n < LOBBY_FINISHED + 2:
            services.forfeit_seat(match=made[-1], seat=1)
    page = alice_client.get(reverse("lobby")).content.decode()
    shown = {int(n) for n in re.findall(r'href="/matches/(\d+)/">#', page)}
    assert made[-1].pk in shown
    newest_over = {m.pk for m in made[:-1][-LOBBY_FINISHED:]}
    assert shown == newest_over | {made[-1].pk}


def test_the_lobbys_finished_matches_say_how_the_player_finished(
        alice_client: Client, player: Any) -> None:
    """A finished row says Won or Lost, as the player's page does, not only "finished"."""
    won, lost = (services.create_match(game="super_showdown", options={}, created_by=player,
                                       seats=[{"player": "alice"}, {"bot": "random"}])
                 for _ in range(2))
    services.forfeit_seat(match=won, seat=1)
    services.forfeit_seat(match=lost, seat=0)
    page = alice_client.get(reverse("lobby")).content.decode()
    rows = {int(n): row for row, n in re.findall(
        r'(<li class="match-row">\s*<a id="match-(\d+)-play".*?</li>)', page, re.S)}
    assert '<span class="outcome outcome-won">Won</span>' in rows[won.pk]
    assert '<span class="outcome outcome-lost">Lost</span>' in rows[lost.pk]


def test_the_lobby_follows_the_players_matches_and_invitations(
        alice_client: Client, player: Any, player2: Any) -> None:
    """Its live part polls: 204 while nothing of it changed, the new part (and the tab's
    title) once an invitation arrives or a match waits for the player's move."""
    from matches import services

    page = alice_client.get(reverse("lobby")).content.decode()
    version = re.search(r'hx-get="/lobby/live/\?v=(\w+)&amp;told=', page)[1]
    assert "<title>Lobby · Showdown League</title>" in page
    poll = {"HTTP_HX_REQUEST": "true"}
    assert alice_client.get(reverse("lobby_live"), {"v": version}, **poll).status_code == 204
    invite = services.create_match(game="super_showdown", options={}, created_by=player2,
                                   seats=[{"player": "bruno"}, {"player": "alice"}])
    changed = alice_client.get(reverse("lobby_live"), {"v": version}, **poll)
    body = changed.content.decode()
    assert changed.status_code == 200 and 'id="invitations"' in body
    assert f'href="/matches/{invite.pk}/"' in body
    version = re.search(r'hx-get="/lobby/live/\?v=(\w+)&amp;told=', body)[1]
    services.join_match(match=invite, user=player)
    while 1 not in (state := services.match_state(match=invite, user=player2, seat=0)
                    )["pending"]["seats"]:  # bruno moves until alice (seat 1) is awaited
        services.submit_action(match=invite, seat=0, action=state["legal_actions"][0],
                               user=player2)
    body = alice_client.get(reverse("lobby_live"), {"v": version}, **poll).content.decode()
    assert 'id="invitations"' not in body and f'href="/matches/{invite.pk}/"' in body
    assert "<title>(1) Your move · Lobby · Showdown League</title>" in body


def test_the_lobby_poll_is_only_for_the_signed_in(client: Client) -> None:
    response = client.get(reverse("lobby_live"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def form_of(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the lobby's first form posting to `action` (at any anchor)."""
    found = re.search(rf'action="{re.escape(action)}[#"]', page)
    assert found is not None, action
    start = found.start()
    form = page[start:page.index("</form>", start)]
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_a_one_click_sent_twice_makes_one_match(alice_client: Client) -> None:
    """A double click, or a phone resending the request: the same rendered form makes one
    match, and both answers open it; the next page's button makes another."""
    page = alice_client.get(reverse("lobby")).content.decode()
    sent = form_of(page, reverse("quick_play"))
    answers = [alice_client.post(reverse("quick_play"), sent) for _ in range(2)]
    match = Match.objects.get()
    assert [a["Location"] for a in answers] == [reverse("match_play", args=[match.id])] * 2
    page = alice_client.get(reverse("lobby")).content.decode()
    alice_client.post(reverse("quick_play"), form_of(page, reverse("quick_play")))
    assert Match.objects.count() == 2


def test_the_create_form_sent_twice_makes_one_match(alice_client: Client) -> None:
    page = alice_client.get(reverse("lobby")).content.decode()
    sent = {**form_of(page, reverse("match_create")), "game": "super_showdown",
            "opponent": "open", "seats": 2, "username": ""}
    answers = [alice_client.post(reverse("match_create"), sent) for _ in range(2)]
    match = Match.objects.get()
    assert [a["Location"] for a in answers] == [reverse("match_play", args=[match.id]) + "#content"] * 2


def test_a_lobby_page_kept_from_before_a_finished_match_makes_a_new_one(
        alice_client: Client) -> None:
    """The browser's Back shows the lobby as it was, its button holding the key of the
    match since played out: pressed, it makes a new match (once, pressed twice), not the
    finished one again."""
    page = alice_client.get(reverse("lobby")).content.decode()
    sent = form_of(page, reverse("quick_play"))
    alice_client.post(reverse("quick_play"), sent)
    first = Match.objects.get()
    services.forfeit_seat(match=first, seat=0)
    answers = [alice_client.post(reverse("quick_play"), sent) for _ in range(2)]
    second = Match.objects.exclude(pk=first.pk).get()
    assert second.status != Match.Status.FINISHED
    assert [a["Location"] for a in answers] == [reverse("match_play", args=[second.id])] * 2
    services.forfeit_seat(match=second, seat=0)
    alice_client.post(reverse("quick_play"), sent)
    assert Match.objects.count() == 3


def test_the_lobbys_poll_gives_back_keyboard_focus_to_the_control_that_had_it(
        alice_client: Client, player: Any, player2: Any) -> None:
    """The live part is swapped whole when a match or an invitation changes; htmx focuses
    the element with the focused one's id again, so each control keeps one id from poll
    to poll: a keyboard user on a match's link is not sent back to the top."""
    from matches import services

    live = services.create_match(game="super_showdown", options={}, created_by=player,
                                 seats=[{"player": "alice"}, {"bot": "random"}])
    over = services.create_match(game="super_showdown", options={}, created_by=player,
                                 seats=[{"player": "alice"}, {"bot": "random"}])
    services.forfeit_seat(match=over, seat=1)
    invite = services.create_match(game="super_showdown", options={}, created_by=player2,
                                   seats=[{"player": "bruno"}, {"player": "alice"}])
    page = alice_client.get(reverse("lobby")).content.decode()
    polled = alice_client.get(reverse("lobby_live"), HTTP_HX_REQUEST="true").content.decode()
    for html in (page, polled):
        for control in (f'<a id="match-{live.pk}-play" href="/matches/{live.pk}/">',
                        f'<a id="invitation-{invite.pk}-play" href="/matches/{invite.pk}/">',
                        f'id="invitation-{invite.pk}-accept"',
                        f'id="invitation-{invite.pk}-decline"'):
            assert html.count(control) == 1, control
    for control in (f'<a id="match-{over.pk}-play" href="/matches/{over.pk}/">',
                    f'id="match-{over.pk}-replay"', f'id="match-{over.pk}-rematch"'):
        assert page.count(control) == 1, control
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))


def test_each_rows_join_accept_and_decline_name_their_match(
        alice_client: Client, player2: Any, outsider: Any) -> None:
    """Tabbing through the lobby, a screen reader hears which match a button acts on, not
    'Accept, Accept, Join, Join'."""
    from matches import services

    invite = services.create_match(game="super_showdown", options={}, created_by=player2,
                                   seats=[{"player": "bruno"}, {"player": "alice"}])
    open_one = services.create_match(game="super_showdown", options={}, created_by=outsider,
                                     seats=[{"player": "olga"}, {"open": True}])
    page = alice_client.get(reverse("lobby")).content.decode()
    assert f'aria-label="Accept the invitation to match #{invite.pk}">Accept</button>' in page
    assert f'aria-label="Decline the invitation to match #{invite.pk}">Decline</button>' \
        in page
    assert f'<button type="submit" aria-label="Join match #{open_one.pk}">Join</button>' in page


def test_a_match_the_service_refuses_for_no_one_field_is_said_in_an_alert(
        alice_client: Client, settings: Any) -> None:
    """The lobby comes back at its top: a refusal of the whole form, above it, is read
    out."""
    settings.MAX_LIVE_MATCHES = 1
    assert alice_client.post(reverse("quick_play")).status_code == 302
    response = alice_client.post(reverse("match_create"), {
        "game": "super_showdown", "opponent": "bot:random", "seats": "2"})
    assert response.status_code == 409
    assert re.search(r'<ul class="errors" role="alert"><li>[^<]*\(too_many_matches\)</li>',
                     response.content.decode())


def _field_error(page: str, name: str) -> str:
    """The error shown beside the lobby form's field `name`, which it describes and marks
    invalid ('' if none)."""
    field = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', page)
    assert field is not None, name
    error = re.search(rf'<div class="error" id="id_{name}_error">(.*?)</div></div>', page, re.S)
    if error is None:
        return ""
    assert f"id_{name}_error" in field[0] and 'aria-invalid="true"' in field[0]
    return re.sub(r"<[^>]+>", "", error[1])


@pytest.mark.parametrize(("sent", "field", "code"), [
    ({"game": "ultimate_showdown", "opponent": "bot:random", "seats": "2"},
     "seats", "bad_seat_count"),
    ({"game": "supershow", "opponent": "bot:random", "seats": "2",
      "options": '{"match_type": "tag_team"}'}, "seats", "bad_seat_count"),
    ({"game": "super_showdown", "opponent": "bot:random", "seats": "2",
      "lineup": "me, random, random"}, "lineup", "bad_seat_count"),
    ({"game": "super_showdown", "opponent": "bot:random", "seats": "2",
      "options": '{"best_of": 2}'}, "options", "bad_option"),
    ({"game": "royal_rumble", "opponent": "bot:random", "seats": "2",
      "options": '{"nope": 1}'}, "options", "unknown_option"),
    ({"game": "super_showdown", "opponent": "player", "seats": "2", "username": "nobody"},
     "username", "unknown_player"),
    ({"game": "super_showdown", "opponent": "bot:random", "seats": "2",
      "lineup": "me, @nobody"}, "lineup", "unknown_player"),
])
def test_a_refusal_about_one_field_is_said_beside_that_field(
        alice_client: Client, sent: dict[str, str], field: str, code: str) -> None:
    """A seat count, an option or a player the service refuses is said beside the field
    that holds it, which it describes, as the form's own checks are: the screen reader
    user mends that field with the reason read to them there, not in a banner above."""
    response = alice_client.post(reverse("match_create"), sent)
    assert response.status_code == 400
    page = response.content.decode()
    assert f"({code})" in _field_error(page, field)
    assert 'class="errors"' not in page
    assert not Match.objects.exists()


def test_a_screen_reader_hears_what_newly_waits_for_the_player_and_only_that(
        alice_client: Client, player: Any, player2: Any) -> None:
    """The tab's title says '(1) Your move', which a screen reader does not read out: the
    lobby's live region tells each match that came to wait for the player's move and each
    invitation once, as the poll brings it, not again at every later move."""
    from matches import services

    def poll(page: str) -> tuple[str, str]:
        found = re.search(r'hx-get="(/lobby/live/\?[^"]+)"', page)
        assert found is not None
        body = alice_client.get(found[1].replace("&amp;", "&"),
                                HTTP_HX_REQUEST="true").content.decode()
        told = body.split('<div id="lobby-announce" hx-swap-oob="innerHTML">')[1]
        return body, told.split("</div>")[0]

    page = alice_client.get(reverse("lobby")).content.decode()
    assert page.count('id="lobby-announce"') == 1
    assert '<div id="lobby-announce" class="visually-hidden" role="status" ' \
           'aria-live="polite"></div>' in page
    invite = services.create_match(game="super_showdown", options={}, created_by=player2,
                                   seats=[{"player": "bruno"}, {"player": "alice"}])
    page, told = poll(page)
    assert told == f"bruno invites you to #{invite.pk} Super Showdown. "

    services.join_match(match=invite, user=player)
    while 1 not in (state := services.match_state(match=invite, user=player2, seat=0)
                    )["pending"]["seats"]:
        services.submit_action(match=invite, seat=0, action=state["legal_actions"][0],
                               user=player2)
    page, told = poll(page)
    assert told == f"Your move in #{invite.pk} Super Showdown. "

    other = services.create_match(game="royal_rumble", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"bot": "random"},
                                         {"bot": "random"}])
    page, told = poll(page)
    assert told == f"Your move in #{other.pk} Royal Rumble. "  # and #invite not again
    services.resign(match=invite, user=player2)  # the lobby changes; nothing new waits
    body, told = poll(page)
    assert f'href="/matches/{invite.pk}/"' not in body and told == ""


def test_a_status_message_is_shown_at_once_and_its_live_region_is_empty_at_load(
        alice_client: Client) -> None:
    """A role=status region that has its words at load is read out by few screen readers:
    the message is shown outside it (so it shows without scripts), for league.js to move
    into it a moment later (tests/web/test_league_script.py); a refusal is an alert."""
    said = "There is no match #999."
    page = alice_client.post(reverse("match_resign", args=[999]), follow=True)
    shown = page.content.decode()
    assert 'js/league.js' in shown
    region = '<div role="status" data-announce-here></div>'
    messages = shown.split('<div class="messages">')[1].split(region)[0]
    assert f'<div class="msg msg-info" data-announce>{said}</div>' in messages
    assert "role=" not in messages
    refused = alice_client.post(reverse("quick_play"), {"game": "nothing"}, follow=True)
    assert re.search(r'<div class="msg msg-error" role="alert">There is no one-click match',
                     refused.content.decode())


def test_every_page_loads_league_js_once_to_announce_its_messages(
        alice_client: Client, player: Any) -> None:
    """The login page (where a closed account's farewell shows), the ratings and season
    pages loaded no league.js, so their messages reached no live region."""
    match = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"bot": "random"}])
    for client, url in [(Client(), reverse("login")), (alice_client, reverse("lobby")),
                        (alice_client, reverse("league:ratings")),
                        (alice_client, reverse("match_play", args=[match.pk]))]:
        assert client.get(url).content.decode().count("/static/js/league.js") == 1, url


def test_the_lobby_marks_a_live_match_the_player_forfeited_out_of_and_lists_it_last(
        alice_client: Client, player: Any, player2: Any, outsider: Any) -> None:
    """RR-34 and the forfeit decision of engine/games/royal_rumble: alice resigned a Rumble
    of three, which bruno and olga play on; her lobby lists it among her live matches,
    after her others, saying she forfeited and the others play on. bruno's does not."""
    rumble = services.create_match(game="royal_rumble", options={}, created_by=player,
                                   seats=[{"player": "alice"}, {"player": "bruno"},
                                          {"player": "olga"}])
    services.join_match(match=rumble, user=player2)
    services.join_match(match=rumble, user=outsider)
    other = services.create_match(game="super_showdown", options={}, created_by=player,
                                  seats=[{"player": "alice"}, {"bot": "random"}])
    page = alice_client.get(reverse("lobby")).content.decode()
    assert "you forfeited" not in page
    assert services.resign(match=rumble, user=player) == "resigned"
    assert Match.objects.get(pk=rumble.pk).status == "active"
    page = alice_client.get(reverse("lobby")).content.decode()
    rows = re.findall(r'<li class="match-row">(.*?)</li>', page, re.S)
    listed = [int(re.search(r'href="/matches/(\d+)/"', row)[1]) for row in rows]
    assert listed.index(other.pk) < listed.index(rumble.pk)
    (row,) = [row for row in rows if f'href="/matches/{rumble.pk}/"' in row]
    assert "you forfeited: the others play on" in row
    bruno = Client()
    bruno.force_login(player2)
    assert "you forfeited" not in bruno.get(reverse("lobby")).content.decode()


def test_an_event_matchs_row_names_its_event_linked_to_its_page(
        alice_client: Client, player: Any, organizer: Any) -> None:
    """A lobby row said nothing of the Event a match was played for; the play page says
    it, and now the row does too (a player's own match names none)."""
    from league.models import EventMatch
    from tests.conftest import event_match

    live = event_match(organizer, player, finish=False)
    over = event_match(organizer, player)
    own = services.create_match(game="super_showdown", options={}, created_by=player,
                                seats=[{"player": "alice"}, {"bot": "random"}])
    page = alice_client.get(reverse("lobby")).content.decode()
    for match in (live, over):
        event = EventMatch.objects.get(match=match).event
        link = re.search(rf'<a [^>]*id="match-{match.pk}-event"[^>]*>([^<]*)</a>', page)
        assert link is not None, match.pk
        assert f'href="{reverse("league:event", args=[event.pk])}"' in link[0]
        assert link[1] == event.name == "Night"
    assert f'id="match-{own.pk}-play"' in page and f'id="match-{own.pk}-event"' not in page
