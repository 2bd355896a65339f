"""An address's domain spelt in Unicode or in IDNA (x@bücher.example and
x@xn--bcher-kva.example), in either case, is one address: stored in ASCII, lower case, and
so found and counted as one by the reset links (league.services.normalized_email)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core import mail, signing
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse

from league.services import (
    EMAIL_SALT,
    RESETS_PER_ADDRESS,
    AccountError,
    confirm_email,
    normalized_email,
    player_for,
    register_player,
    send_password_reset,
    set_email,
)
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

UNICODE = "Carla.B@Bücher.Example"
ASCII = "Carla.B@xn--bcher-kva.example"


@pytest.fixture(autouse=True)
def clean_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def test_the_domain_is_kept_in_ascii_and_lower_case_the_rest_as_given() -> None:
    assert normalized_email(UNICODE) == ASCII
    assert normalized_email("Carla.B@XN--BCHER-KVA.example") == ASCII
    assert normalized_email("Carla.B@Example.ORG") == "Carla.B@example.org"


def test_an_address_given_in_unicode_is_stored_in_ascii(player: Any) -> None:
    player.email = ASCII
    player.save(update_fields=["email"])
    # The same address in its other spelling changes nothing and mails no confirmation.
    assert set_email(player, UNICODE) == "kept"
    player.refresh_from_db()
    assert player.email == ASCII and player_for(player).pending_email == ""
    carla = register_player(username="carla", password=PASSWORD, email=UNICODE,
                            request=RequestFactory().post("/"))
    assert carla.pending_email == ASCII


def test_a_confirmation_link_mailed_before_to_the_unicode_spelling_still_works(
        player: Any) -> None:
    """Its link names the address as it was then given; the migration (league 0022) has
    stored it in ASCII since."""
    token = signing.dumps({"user": player.pk, "email": "carla@bücher.example"},
                          salt=EMAIL_SALT)
    type(player_for(player)).objects.filter(user=player).update(
        pending_email="carla@xn--bcher-kva.example")
    assert confirm_email(token).email == "carla@xn--bcher-kva.example"


def test_a_reset_link_asked_in_either_spelling_reaches_the_account(player: Any) -> None:
    player.email = ASCII
    player.save(update_fields=["email"])
    client = Client()
    assert client.post(reverse("password_forgot"), {"email": UNICODE}).status_code == 200
    (sent,) = mail.outbox
    assert sent.to == [ASCII]


def test_both_spellings_count_against_one_address(player: Any) -> None:
    request = RequestFactory().post("/")
    for _ in range(RESETS_PER_ADDRESS):
        send_password_reset(UNICODE, request)
    with pytest.raises(AccountError) as refused:
        send_password_reset(ASCII.upper(), request)
    assert refused.value.code == "too_many_requests"
