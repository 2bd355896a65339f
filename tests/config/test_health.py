"""`/healthz` for the container's healthcheck: up or down, before any other middleware."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def test_healthz_answers_ok_when_the_database_answers(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert client.head("/healthz").status_code == 200


@override_settings(ALLOWED_HOSTS=["league.example.org"], SECURE_SSL_REDIRECT=True)
def test_a_probe_from_inside_the_container_needs_no_allowed_host_nor_https(
        client: Client) -> None:
    """The probe says Host 127.0.0.1 over plain HTTP; any other page is refused there."""
    assert client.get("/healthz", HTTP_HOST="127.0.0.1:8000").status_code == 200
    assert client.get("/", HTTP_HOST="127.0.0.1:8000").status_code == 400


def test_healthz_is_503_with_a_code_when_the_database_does_not_answer(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"
    assert "refused" not in response.content.decode()  # nothing of the error leaks


def test_healthz_takes_no_writes(client: Client) -> None:
    response = client.post("/healthz")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


def test_a_failed_probe_is_logged_once(client: Client, monkeypatch: pytest.MonkeyPatch,
                                       caplog: pytest.LogCaptureFixture) -> None:
    """The probe's own line says why, with the traceback; Django's request log added
    "Service Unavailable: /healthz" at ERROR after it, two errors for each probe (every
    15 s from the container's healthcheck, more from the proxy's) while the database is
    away."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    with caplog.at_level("WARNING"):
        assert client.get("/healthz").status_code == 503
    logged = [(record.name, record.getMessage()) for record in caplog.records]
    assert logged == [("config.health", "health check: the database does not answer")]
    assert caplog.records[0].exc_info is not None
