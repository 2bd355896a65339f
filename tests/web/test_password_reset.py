"""A forgotten password: an email address on the account, a reset link by mail or from
the admin's staff, and the page that sets the new password through that link."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.authtoken.models import Token

from config import signin
from league.models import Player
from league.services import RESETS_PER_ADDRESS, RESETS_TO_ADDRESS, player_for
from tests.conftest import ALICE_ADDRESS, PASSWORD
from tests.league.test_mail_retries import REFUSING

NEW = "another-long-password-7"
LINK = re.compile(r"http://testserver(/password/reset/[^/\s]+/[^/\s]+/)")

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clean_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def _ask(client: Client, email: str) -> Any:
    return client.post(reverse("password_forgot"), {"email": email})


def _mailed_link() -> str:
    (sent,) = mail.outbox
    found = LINK.search(sent.body)
    assert found, sent.body
    return found.group(1)


def _set_password(client: Client, link: str, new: str, again: str | None = None) -> Any:
    """Open the link (Django moves its token into the session) and post the form."""
    opened = client.get(link)
    assert opened.status_code == 302
    return client.post(opened["Location"], {"new_password": new,
                                            "new_password2": new if again is None else again})


def test_the_login_page_offers_the_forgotten_password_page(client: Client) -> None:
    page = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_forgot")}"' in page
    assert client.get(reverse("password_forgot")).status_code == 200


def test_a_mailed_link_sets_a_new_password_signs_in_and_signs_the_rest_out(
        client: Client, alice: Any) -> None:
    elsewhere = Client()
    elsewhere.force_login(alice)
    Token.objects.create(user=alice)
    answer = _ask(client, "  Alice@Example.org ")
    assert answer.status_code == 200 and b"on its way" in answer.content
    assert mail.outbox[0].to == [ALICE_ADDRESS]
    assert '"alice"' in mail.outbox[0].body and "24 hours" in mail.outbox[0].body
    done = _set_password(client, _mailed_link(), NEW)
    assert done.status_code == 302 and done["Location"] == reverse("lobby")
    assert client.get(reverse("lobby")).status_code == 200  # signed in
    alice.refresh_from_db()
    assert alice.check_password(NEW) and not alice.check_password(PASSWORD)
    assert not Token.objects.filter(user=alice).exists()
    assert elsewhere.get(reverse("lobby")).status_code == 302  # the old session ended


@override_settings(EMAIL_BACKEND=REFUSING)  # its refusal names the address, as SMTP's
def test_a_refused_reset_mail_is_logged_by_its_kind_and_error_without_the_address_or_link(
        client: Client, alice: Any, caplog: pytest.LogCaptureFixture) -> None:
    assert _ask(client, ALICE_ADDRESS).status_code == 200
    assert (f"Could not mail account {alice.pk} its password reset mail: "
            f"SMTPRecipientsRefused") in caplog.text
    assert ALICE_ADDRESS not in caplog.text and "/password/reset/" not in caplog.text
    assert not mail.outbox


def test_a_link_works_once(client: Client, alice: Any) -> None:
    _ask(client, ALICE_ADDRESS)
    link = _mailed_link()
    _set_password(client, link, NEW)
    again = Client().get(link, follow=True)
    assert b"no longer works" in again.content
    assert b"new_password" not in again.content


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client: Client,
                                                             alice: Any) -> None:
    known = _ask(client, ALICE_ADDRESS).content.decode()
    mail.outbox.clear()
    unknown = _ask(Client(), "nobody@example.org")
    assert unknown.status_code == 200 and not mail.outbox
    strip = re.compile(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"')
    assert strip.sub("", unknown.content.decode()) == strip.sub("", known)


def test_an_inactive_account_gets_no_mail_and_its_old_link_stops_working(
        client: Client, alice: Any) -> None:
    _ask(client, ALICE_ADDRESS)
    link = _mailed_link()
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    mail.outbox.clear()
    _ask(Client(), ALICE_ADDRESS)
    assert not mail.outbox
    assert b"no longer works" in client.get(link, follow=True).content


def test_a_weak_or_mistyped_password_keeps_the_old_one_and_the_link(client: Client,
                                                                     alice: Any) -> None:
    _ask(client, ALICE_ADDRESS)
    link = _mailed_link()
    weak = _set_password(client, link, "alice")
    assert weak.status_code == 200 and b"This password is too short" in weak.content
    mistyped = client.post(weak.request["PATH_INFO"], {"new_password": NEW,
                                                       "new_password2": NEW + "x"})
    assert b"The two passwords differ." in mistyped.content
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
    assert _set_password(Client(), link, NEW)["Location"] == reverse("lobby")


def test_a_reset_lifts_the_sign_in_brake_its_owner_met_from_there(client: Client,
                                                                  alice: Any) -> None:
    for _ in range(signin.FAILURES):
        client.post(reverse("login"), {"username": "alice", "password": "wrong-guess-0"})
    locked = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert b"Too many wrong passwords" in locked.content
    _ask(client, ALICE_ADDRESS)
    _set_password(client, _mailed_link(), NEW)
    client.logout()
    signed_in = client.post(reverse("login"), {"username": "alice", "password": NEW})
    assert signed_in.status_code == 302


def test_one_address_gets_a_few_links_an_hour(client: Client, alice: Any) -> None:
    for _ in range(RESETS_PER_ADDRESS):
        assert _ask(client, ALICE_ADDRESS).status_code == 200
    refused = _ask(Client(), ALICE_ADDRESS.upper())
    assert refused.status_code == 429 and b"Too many reset links" in refused.content
    assert len(mail.outbox) == RESETS_PER_ADDRESS


def test_a_stranger_asking_for_an_address_uses_up_their_asks_not_its_owners(
        alice: Any) -> None:
    stranger, owner = Client(REMOTE_ADDR="203.0.113.9"), Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(RESETS_PER_ADDRESS):
        assert _ask(stranger, ALICE_ADDRESS).status_code == 200
    assert _ask(stranger, ALICE_ADDRESS).status_code == 429
    assert _ask(owner, ALICE_ADDRESS).status_code == 200  # the owner still gets a link
    assert len(mail.outbox) == RESETS_PER_ADDRESS + 1


def test_an_address_asked_for_from_many_clients_gets_a_bounded_number_of_links(
        alice: Any) -> None:
    """Nobody fills its mailbox from many places either: once it has RESETS_TO_ADDRESS
    links for the hour, the refusal says the links mailed work, which its owner has."""
    for n in range(RESETS_TO_ADDRESS):
        assert _ask(Client(REMOTE_ADDR=f"203.0.113.{n}"), ALICE_ADDRESS).status_code == 200
    refused = _ask(Client(REMOTE_ADDR="198.51.100.7"), ALICE_ADDRESS)
    assert refused.status_code == 429
    assert b"the links mailed to it within the hour work, for 24 hours" in refused.content
    assert len(mail.outbox) == RESETS_TO_ADDRESS
    # The same answer for an address no account has: the count tells nobody whose it is.
    for n in range(RESETS_TO_ADDRESS):
        _ask(Client(REMOTE_ADDR=f"203.0.113.{n}"), "nobody@example.org")
    again = _ask(Client(REMOTE_ADDR="198.51.100.7"), "nobody@example.org")
    assert again.status_code == 429
    assert b"the links mailed to it within the hour work, for 24 hours" in again.content


@override_settings(RESET_BY_MAIL=False)
def test_a_site_that_sends_no_mail_says_whom_to_ask(client: Client, alice: Any) -> None:
    page = client.get(reverse("password_forgot"))
    assert b"This site sends no mail" in page.content and b'name="email"' not in page.content
    client.post(reverse("password_forgot"), {"email": ALICE_ADDRESS})
    assert not mail.outbox


CONFIRM = re.compile(r"http://testserver(/account/email/[^/\s]+/)")


def open_confirmation(to: str) -> Any:
    """Open the confirmation link last mailed to `to` (from any browser) and press its
    page's Confirm (the page of a link refused says why, and offers none)."""
    (sent, *_) = [m for m in reversed(mail.outbox) if m.to == [to]]
    found = CONFIRM.search(sent.body)
    assert found, sent.body
    browser = Client()
    opened = browser.get(found.group(1))
    assert (b"Confirm this address" in opened.content) == (opened.status_code == 200)
    return browser.post(found.group(1))


@pytest.mark.django_db(transaction=True)  # the mail goes on commit
def test_opening_the_link_confirms_nothing_until_its_page_is_confirmed(
        alice_client: Client, player: Any) -> None:
    """A mail service that opens every link it carries, to look into it, confirmed an
    address typed by mistake for its owner, who then received the account's reset links:
    the link's page names the address and the account and confirms at a press."""
    alice_client.post(reverse("account"), {"form": "email", "email": "a@example.org",
                                           "password": PASSWORD})
    link = CONFIRM.search(mail.outbox[0].body).group(1)  # type: ignore[union-attr]
    for opened in (Client().get(link), Client().head(link), Client().get(link)):
        assert opened.status_code == 200
    page = Client().get(link).content.decode()
    assert "Use <strong>a@example.org</strong> as the address of the account " \
           "<strong>alice</strong>?" in page and "Confirm this address" in page
    player.refresh_from_db()
    assert player.email == "" and player_for(player).pending_email == "a@example.org"
    confirmed = Client().post(link)
    assert confirmed.status_code == 200 and b"is now the address" in confirmed.content
    player.refresh_from_db()
    assert player.email == "a@example.org"


@pytest.mark.django_db(transaction=True)  # the mail goes on commit
def test_a_new_address_is_used_once_the_link_mailed_to_it_is_opened(
        alice_client: Client, player: Any) -> None:
    saved = alice_client.post(reverse("account"), {"form": "email", "email": " a@example.org",
                                                   "password": PASSWORD})
    assert saved.status_code == 302
    player.refresh_from_db()
    assert player.email == "" and player_for(player).pending_email == "a@example.org"
    page = alice_client.get(reverse("account")).content.decode()
    assert "Waiting for you to open the link mailed to" in page
    _ask(Client(), "a@example.org")  # not the account's address yet: no reset link
    assert [m.subject for m in mail.outbox] == ["Confirm your Showdown League email address"]
    opened = open_confirmation("a@example.org")
    assert opened.status_code == 200 and b"is now the address of the account" in opened.content
    player.refresh_from_db()
    assert player.email == "a@example.org" and player_for(player).pending_email == ""
    again = open_confirmation("a@example.org")
    assert again.status_code == 400 and b"no longer works" in again.content
    refused = alice_client.post(reverse("account"), {"form": "email", "email": "a@b"})
    assert refused.status_code == 400 and b"That is not an email address." in refused.content
    alice_client.post(reverse("account"), {"form": "email", "email": ""})
    player.refresh_from_db()
    assert player.email == ""


@pytest.mark.django_db(transaction=True)  # the mail goes on commit
def test_a_link_to_an_address_given_up_since_confirms_nothing(alice_client: Client,
                                                              player: Any) -> None:
    for address in ("first@example.org", "second@example.org"):
        alice_client.post(reverse("account"), {"form": "email", "email": address,
                                               "password": PASSWORD})
    assert open_confirmation("first@example.org").status_code == 400
    assert open_confirmation("second@example.org").status_code == 200
    player.refresh_from_db()
    assert player.email == "second@example.org"


@pytest.mark.django_db(transaction=True)  # the mail goes on commit
def test_an_altered_or_old_link_confirms_nothing(alice_client: Client, player: Any) -> None:
    alice_client.post(reverse("account"), {"form": "email", "email": "a@example.org",
                                           "password": PASSWORD})
    link = CONFIRM.search(mail.outbox[0].body).group(1)  # type: ignore[union-attr]
    payload = link.split("/")[3].split(":")[0]  # base64 of {"user": .., "email": ..}
    other = base64.urlsafe_b64encode(base64.urlsafe_b64decode(payload + "==").replace(
        b"a@example.org", b"b@example.org")).decode().rstrip("=")
    forged = link.replace(payload, other)
    assert Client().get(link[:-3] + "x/").status_code == 400
    assert Client().get(forged).status_code == 400
    with override_settings(PASSWORD_RESET_TIMEOUT=-1):
        assert Client().get(link).status_code == 400
    player.refresh_from_db()
    assert player.email == ""


@pytest.mark.django_db(transaction=True)  # the mail goes on commit
def test_sign_up_takes_an_optional_email_address(client: Client) -> None:
    form = {"username": "carla", "password": PASSWORD, "password2": PASSWORD}
    refused = client.post(reverse("register"), {**form, "email": "carla at home"})
    assert refused.status_code == 400 and not Player.objects.filter(
        user__username="carla").exists()
    made = client.post(reverse("register"), {**form, "email": "carla@example.org"},
                       follow=True)
    said = made.content.decode()
    assert "We mailed a link to your address: open it" in said
    assert "Until then mails go where they went" not in said  # no mail went anywhere before
    carla = Player.objects.get(user__username="carla")
    assert (carla.user.email, carla.pending_email) == ("", "carla@example.org")
    open_confirmation("carla@example.org")
    assert Player.objects.get(user__username="carla").user.email == "carla@example.org"


NO_MAIL = "This site sends no mail, so it needs no email address."


@pytest.mark.django_db(transaction=True)  # a mail would go on commit
@override_settings(RESET_BY_MAIL=False)
def test_sign_up_on_a_site_that_sends_no_mail_asks_for_no_address(client: Client) -> None:
    """It offered the field and said "We mailed a link", and the address stayed pending
    for good: no mail goes from such a site."""
    page = client.get(reverse("register")).content.decode()
    assert NO_MAIL in page and 'name="email"' not in page
    form = {"username": "carla", "password": PASSWORD, "password2": PASSWORD}
    made = client.post(reverse("register"), form, follow=True)
    assert made.status_code == 200 and b"We mailed a link" not in made.content
    carla = Player.objects.get(user__username="carla")
    assert (carla.user.email, carla.pending_email) == ("", "")
    assert not mail.outbox


@pytest.mark.django_db(transaction=True)  # a mail would go on commit
@override_settings(RESET_BY_MAIL=False)
def test_sign_up_from_a_page_that_offered_an_address_is_refused_beside_it(
        client: Client) -> None:
    """A page loaded before the site stopped mailing posts an address: the account was
    made without it, and the player never learned their reset links go nowhere. It is
    refused, beside the field, as the API refuses it (501 no_mail), and nothing is made."""
    refused = client.post(reverse("register"), {
        "username": "carla", "password": PASSWORD, "password2": PASSWORD,
        "email": "carla@example.org"})
    assert refused.status_code == 400
    field = re.search(r'<div class="field has-error">(.*?)</div>\s*</div>',
                      refused.content.decode(), re.S)
    assert field and 'name="email"' in field.group(1) and NO_MAIL in field.group(1)
    assert not Player.objects.filter(user__username="carla").exists() and not mail.outbox


@pytest.mark.django_db(transaction=True)  # a mail would go on commit
@override_settings(RESET_BY_MAIL=False)
def test_the_account_page_of_a_site_that_sends_no_mail_takes_no_new_address(
        alice_client: Client, player: Any) -> None:
    """No field to give an address; one posted is refused (501 no_mail) and nothing is
    stored; an address kept from before shows, and is removed."""
    page = alice_client.get(reverse("account")).content.decode()
    assert NO_MAIL in page and 'name="email"' not in page
    refused = alice_client.post(reverse("account"), {"form": "email", "password": PASSWORD,
                                                     "email": "a@example.org"})
    assert refused.status_code == 501 and NO_MAIL in refused.content.decode()
    player.refresh_from_db()
    assert (player.email, player_for(player).pending_email) == ("", "")
    assert not mail.outbox
    player.email = ALICE_ADDRESS
    player.save(update_fields=["email"])
    Player.objects.filter(user=player).update(pending_email="new@example.org")
    page = alice_client.get(reverse("account")).content.decode()
    assert ALICE_ADDRESS in page and "new@example.org" in page and 'name="email"' in page
    assert "Waiting for you to open the link" not in page
    removed = alice_client.post(reverse("account"), {"form": "email", "email": ""},
                                follow=True)
    assert b"Your email address is removed." in removed.content
    player.refresh_from_db()
    assert (player.email, player_for(player).pending_email) == ("", "")


def test_nobody_else_reads_the_address(alice: Any, bruno_client: Client) -> None:
    pid = player_for(alice).pk
    for url in (reverse("league:player", args=[pid]), f"/api/players/{pid}/",
                "/api/players/"):
        assert ALICE_ADDRESS not in bruno_client.get(url).content.decode(), url


def _staff(staff_with: Callable[..., tuple[Any, Client]]) -> Client:
    return staff_with("desk", "view_user", "change_user")[1]


def test_staff_make_a_reset_link_for_a_player_without_an_email_address(
        django_user_model: Any, staff_with: Any, player: Any) -> None:
    boss = django_user_model.objects.create_superuser("boss", password=PASSWORD)
    page = _staff(staff_with).post("/admin/auth/user/", {
        "action": "make_reset_links", "_selected_action": [player.pk, boss.pk]})
    assert page.status_code == 200
    text = page.content.decode()
    (link,) = LINK.findall(text)
    assert "No link for boss" in text
    fresh = Client()
    assert _set_password(fresh, link, NEW)["Location"] == reverse("lobby")
    player.refresh_from_db()
    assert player.check_password(NEW)


def test_staff_make_no_reset_link_for_another_staff_account(
        django_user_model: Any, staff_with: Any, player: Any, organizer: Any) -> None:
    """Whoever opens a link holds the account: a staff member who may change users made
    one for another staff account (the organizer of every Event, with permissions of its
    own) and took it over. They make links for players and their own account only, and
    cannot reach the account another way: its password form, its address (then its
    mailed link) or its staff flag (then a player's link)."""
    organizer.email = "organizer@example.org"
    organizer.save(update_fields=["email"])
    client = _staff(staff_with)
    desk = django_user_model.objects.get(username="desk")
    boss = django_user_model.objects.create_superuser("boss", password=PASSWORD)
    page = client.post("/admin/auth/user/", {
        "action": "make_reset_links",
        "_selected_action": [player.pk, organizer.pk, boss.pk, desk.pk]})
    assert page.status_code == 200
    text = page.content.decode()
    assert re.findall(r'aria-label="Reset link for (\w+)"', text) == ["alice", "desk"]
    assert "No link for boss, organizer: a staff account's password is a " \
           "superuser's to reset" in text
    alices, __ = LINK.findall(text)
    assert _set_password(Client(), alices, NEW)["Location"] == reverse("lobby")
    player.refresh_from_db()
    organizer.refresh_from_db()
    assert player.check_password(NEW) and not organizer.check_password(NEW)

    form = {"username": "organizer", "email": "desk@example.org", "is_active": "on",
            "is_staff": "", "date_joined_0": "2026-01-01", "date_joined_1": "10:00:00"}
    assert client.post(f"/admin/auth/user/{organizer.pk}/change/", form).status_code == 403
    assert client.post(f"/admin/auth/user/{organizer.pk}/password/", {
        "password1": "taken-Over-77", "password2": "taken-Over-77"}).status_code == 403
    organizer.refresh_from_db()
    assert (organizer.email, organizer.is_staff) == ("organizer@example.org", True)
    assert not organizer.check_password("taken-Over-77")


def test_a_superuser_makes_reset_links_for_staff_accounts(
        django_user_model: Any, player: Any, organizer: Any) -> None:
    boss = django_user_model.objects.create_superuser("boss", password=PASSWORD)
    client = Client()
    client.force_login(boss)
    text = client.post("/admin/auth/user/", {
        "action": "make_reset_links",
        "_selected_action": [player.pk, organizer.pk]}).content.decode()
    assert "No link for" not in text
    links = LINK.findall(text)
    assert len(links) == 2
    assert _set_password(Client(), links[1], NEW)["Location"] == reverse("lobby")
    organizer.refresh_from_db()
    assert organizer.check_password(NEW)


def test_staff_without_the_change_permission_are_offered_no_links(
        staff_with: Any, player: Any) -> None:
    _, client = staff_with("viewer", "view_user")
    listing = client.get("/admin/auth/user/").content.decode()
    assert "make_reset_links" not in listing
    client.post("/admin/auth/user/", {"action": "make_reset_links",
                                      "_selected_action": [player.pk]})
    assert not LINK.search(client.get("/admin/auth/user/").content.decode())


@override_settings(SITE_URL="https://league.example", ALLOWED_HOSTS=[".example", "testserver"])
def test_a_mailed_link_opens_at_the_site_whatever_host_the_request_named(
        client: Client, alice: Any) -> None:
    """A Host header is the client's to write: the link goes to SITE_URL, not to a host
    an attacker named while asking for the victim's link."""
    answer = client.post(reverse("api-password-reset"), {"email": ALICE_ADDRESS},
                         content_type="application/json", HTTP_HOST="attacker.example")
    assert answer.status_code == 202
    (sent,) = mail.outbox
    assert "attacker.example" not in sent.body
    assert re.search(r"https://league\.example/password/reset/[^/\s]+/[^/\s]+/", sent.body)


@override_settings(SITE_URL="https://league.example")
def test_a_link_staff_make_opens_at_the_site_not_where_they_opened_the_admin(
        django_user_model: Any, staff_with: Any, player: Any) -> None:
    page = _staff(staff_with).post("/admin/auth/user/", {
        "action": "make_reset_links", "_selected_action": [player.pk]})
    text = page.content.decode()
    assert "http://testserver/password/reset/" not in text
    (path,) = re.findall(r"https://league\.example(/password/reset/[^/\s\"]+/[^/\s\"]+/)", text)
    assert _set_password(Client(), path, NEW)["Location"] == reverse("lobby")


@pytest.mark.django_db(transaction=True)  # the mail goes on commit
def test_a_new_address_needs_the_present_password(alice_client: Client,
                                                  player: Any) -> None:
    """A reset link sent to it sets the password: a session someone else holds (a shared
    computer left signed in) must not be able to send the account's links to themselves."""
    for given in ({}, {"password": "not-the-password"}):
        refused = alice_client.post(reverse("account"), {"form": "email",
                                                         "email": "thief@example.org", **given})
        assert refused.status_code == 400
        player.refresh_from_db()
        assert player.email == ""
    assert b"The present password is wrong." in refused.content
    _ask(Client(), "thief@example.org")
    assert not mail.outbox
    alice_client.post(reverse("account"), {"form": "email", "email": ALICE_ADDRESS,
                                           "password": PASSWORD})
    open_confirmation(ALICE_ADDRESS)
    player.refresh_from_db()
    assert player.email == ALICE_ADDRESS
    same = alice_client.post(reverse("account"), {"form": "email", "email": ALICE_ADDRESS})
    removed = alice_client.post(reverse("account"), {"form": "email", "email": ""})
    assert same.status_code == removed.status_code == 302  # no new address: no password
