"""Settings read from the environment: a bad value stops the start, naming the variable."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOAD = "import config.settings as s; print(s.SIMULATION_QUEUE_AHEAD, s.SECURE_HSTS_SECONDS, " \
       "getattr(s, 'SECURE_PROXY_SSL_HEADER', None))"
CSP = "import config.settings as s; print(repr(s.CONTENT_SECURITY_POLICY))"


def load(code: str = LOAD, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DJANGO_CSP")}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("name", "value"), [
    ("SIGNUP_OPEN", "maybe"),
    ("DATABASE_URL", "bogus"),
    ("SIMULATION_QUEUE_AHEAD", "0"),
    ("BOT_SWEEP_SECONDS", "-5"),
    ("BOT_SEARCH_MS", "fast"),
    # Two heartbeats or fewer: a live task's claim would pass for a dead one's between beats.
    ("BOT_CLAIM_SECONDS", "4"),
    ("BOT_HEARTBEAT_SECONDS", "0"),
    ("CACHE_AWAY_SECONDS", "0"),
    # Below the 1 s the workers' reads wait on Redis for (BRPOP): they would time out.
    ("BROKER_TIMEOUT_SECONDS", "1"),
    ("DJANGO_HSTS_SECONDS", "-1"),
    ("LOG_LEVEL", "loud"),
    ("DJANGO_CSP", "default-src 'self';\nimg-src 'self' data:"),
    ("EMAIL_PORT", "smtp"),
    ("PASSWORD_RESET_HOURS", "0"),
    ("SITE_URL", "league.example.org"),
    ("SITE_URL", "https://"),
    ("SITE_URL", "https://league.example.org/?from=mail"),
    ("SITE_URL", "https://league.example.org/#top"),
    ("SITE_URL", "https://league.example.org /"),
    ("TURN_MAIL_MINUTES", "0"),
    ("TURN_MAIL_MINUTES", "99999999999"),  # past 30 days: the sweep's dates overflowed
    ("EVENT_MAIL_HOURS", "0"),
    ("EVENT_MAIL_HOURS", "99999999"),
    # A URL or a port never matches the Host a request names: every page answered 400
    # while the health check passed.
    ("DJANGO_ALLOWED_HOSTS", "https://league.example.org"),
    ("DJANGO_ALLOWED_HOSTS", "league.example.org,league.example.org/"),
    ("DJANGO_ALLOWED_HOSTS", "127.0.0.1:8000"),
    # Read at the first use of the cache: every signed-in page answered 500.
    ("CACHE_URL", "redis-host:6379/1"),
    ("CACHE_URL", "memcached://127.0.0.1:11211"),
])
def test_a_bad_value_stops_the_start_with_an_error_naming_the_variable(name: str,
                                                                      value: str) -> None:
    loaded = load(**{name: value})
    assert loaded.returncode != 0
    assert "ConfigError" in loaded.stderr and name in loaded.stderr


def test_good_values_are_read() -> None:
    loaded = load(SIMULATION_QUEUE_AHEAD="3", DJANGO_HSTS_SECONDS="3600",
                  DJANGO_BEHIND_TLS_PROXY="true")
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split(maxsplit=2) == ["3", "3600", "('HTTP_X_FORWARDED_PROTO', 'https')\n"]


def test_an_empty_value_is_the_default() -> None:
    """Compose passes every setting on, empty when it is not set."""
    loaded = load(SIMULATION_QUEUE_AHEAD="", DJANGO_HSTS_SECONDS="", LOG_LEVEL="")
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split()[:2] == ["8", "0"]


@pytest.mark.parametrize(("value", "policy"), [
    ("", "default-src 'self'"), ("off", ""), ("default-src 'none'", "default-src 'none'")])
def test_the_content_security_policy_is_read_from_django_csp(value: str, policy: str) -> None:
    loaded = load(CSP, DJANGO_CSP=value)
    assert loaded.returncode == 0, loaded.stderr
    read = ast.literal_eval(loaded.stdout)
    assert read.startswith(policy) and (policy or read == "")


@pytest.mark.parametrize("cache", ["", "redis://127.0.0.1:6379/9"])
def test_sessions_live_in_the_database_with_or_without_a_shared_cache(cache: str) -> None:
    """Read through the cache, every signed-in page answered 500 while Redis was away
    (tests/config/test_redis_outage.py)."""
    code = "from django.conf import settings; settings._setup(); print(settings.SESSION_ENGINE)"
    loaded = load(code, CACHE_URL=cache, DJANGO_SETTINGS_MODULE="config.settings")
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == "django.contrib.sessions.backends.db"


MAIL = "import config.settings as s; print(s.EMAIL_BACKEND.rsplit('.', 2)[-2], " \
       "s.EMAIL_USE_TLS, s.EMAIL_USE_SSL, s.RESET_BY_MAIL, s.PASSWORD_RESET_TIMEOUT)"


@pytest.mark.parametrize(("env", "read"), [
    ({}, "console True False True 86400"),
    ({"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "k" * 50}, "dummy True False False 86400"),
    ({"EMAIL_HOST": "mail.example.org", "EMAIL_USE_SSL": "true",
      "PASSWORD_RESET_HOURS": "2"}, "smtp False True True 7200"),
])
def test_reset_links_go_by_smtp_when_a_mail_server_is_named(env: dict[str, str],
                                                            read: str) -> None:
    """No server: printed on the console while DEBUG is on, and no mail at all after."""
    loaded = load(MAIL, **{"EMAIL_HOST": "", "EMAIL_USE_TLS": "", "EMAIL_USE_SSL": "",
                           **env})
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == read


def test_starttls_and_tls_from_the_start_cannot_both_be_on() -> None:
    loaded = load(MAIL, EMAIL_USE_TLS="true", EMAIL_USE_SSL="true")
    assert loaded.returncode != 0 and "EMAIL_USE_TLS" in loaded.stderr


def test_every_setting_compose_passes_empty_is_the_default() -> None:
    """Compose passes a setting it is not given as "" (`${NAME:-}`): each must read as
    if it were not set (DEFAULT_FROM_EMAIL read "", mails went from nobody)."""
    compose = (ROOT / "compose.yaml").read_text()
    passed = re.findall(r"^\s+([A-Z_]+): \$\{\1:-\}$", compose, re.MULTILINE)
    assert "DEFAULT_FROM_EMAIL" in passed and len(passed) > 20
    dump = ("import config.settings as s; print(repr({k: v for k, v in vars(s).items() "
            "if k.isupper() and not k.startswith('_')}))")
    unset = load(dump)
    empty = load(dump, **dict.fromkeys(passed, ""))
    assert unset.returncode == 0 and empty.returncode == 0, empty.stderr
    assert empty.stdout == unset.stdout


def test_a_kept_database_connection_is_checked_before_a_request_uses_it() -> None:
    """Compose keeps connections 60 s (DATABASE_CONN_MAX_AGE): after the database
    restarted, each web process answered its next request 500 on the dead connection it
    kept, and only then opened a new one. Checked first, it opens a new one at once."""
    code = ("import config.settings as s; d = s.DATABASES['default']; "
            "print(d['CONN_MAX_AGE'], d.get('CONN_HEALTH_CHECKS'))")
    loaded = load(code, DATABASE_URL="postgres://showdown:pw@postgres:5432/showdown",
                  DATABASE_CONN_MAX_AGE="60")
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == ["60", "True"]


@pytest.mark.parametrize("key", [
    "   ", "insecure-development-key-do-not-use-in-production",
    "django-insecure-4f#k2m9x!q7r1v8z0p3w6e5t2y9u1i4o7a8s5d2f3g6h9j0k1l"])
def test_a_secret_key_anybody_can_read_stops_a_production_start(key: str) -> None:
    """Blank, the development key printed in config/settings.py, or a key Django's
    startproject made for development: signed sessions and reset links would be forgeable."""
    loaded = load(DJANGO_DEBUG="false", DJANGO_SECRET_KEY=key)
    assert loaded.returncode != 0
    assert "ConfigError" in loaded.stderr and "DJANGO_SECRET_KEY" in loaded.stderr
    assert key.strip() not in loaded.stderr.replace("DJANGO_SECRET_KEY", "") or not key.strip()


@pytest.mark.parametrize("key", [
    "insecure-development-key-do-not-use-in-production",
    "django-insecure-4f#k2m9x!q7r1v8z0p3w6e5t2y9u1i4o7a8s5d2f3g6h9j0k1l"])
def test_a_fallback_key_anybody_can_read_stops_a_production_start(key: str) -> None:
    """A fallback key verifies what it signs as the key itself does: a known one would let
    anybody forge a session or a reset link as well."""
    loaded = load(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="n" * 50,
                  DJANGO_SECRET_KEY_FALLBACKS=f"{'o' * 50}, {key}")
    assert loaded.returncode != 0
    assert "ConfigError" in loaded.stderr and "DJANGO_SECRET_KEY_FALLBACKS: key 2" in loaded.stderr
    assert key not in loaded.stderr


SIGN = "import django; django.setup(); from django.core import signing; print(signing.dumps(7))"
READ = ("import django; django.setup(); from django.core import signing\n"
        "try:\n    print(signing.loads({token!r}))\n"
        "except signing.BadSignature:\n    print('refused')")


def test_what_an_earlier_key_signed_is_still_read_while_it_is_a_fallback() -> None:
    """Rotating the key: sessions and links signed with the old one keep working while it
    is listed, and stop once it is dropped."""
    production = {"DJANGO_DEBUG": "false", "DJANGO_SETTINGS_MODULE": "config.settings"}
    signed = load(SIGN, DJANGO_SECRET_KEY="o" * 50, **production)
    assert signed.returncode == 0, signed.stderr

    def read(fallbacks: str) -> str:
        done = load(READ.format(token=signed.stdout.strip()), DJANGO_SECRET_KEY="n" * 50,
                    DJANGO_SECRET_KEY_FALLBACKS=fallbacks, **production)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert read(f"{'p' * 50},{'o' * 50}") == "7"
    assert read("") == "refused"


SEND = ("import django; django.setup(); from django.core.mail import send_mail; "
        "print(send_mail('Confirm', 'Open https://league.example.org/account/email/SECRET/', "
        "None, ['carol@example.org']))")


SENDS = ("import django; django.setup(); from django.conf import settings; "
         "from league.services import sends_mail; "
         "print(sends_mail(), settings.EMAIL_BACKEND.rsplit('.', 2)[-2])")


@pytest.mark.parametrize(("env", "read"), [
    ({"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "k" * 50}, "False dummy"),
    ({"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "k" * 50,
      "EMAIL_HOST": "mail.example.org"}, "True smtp"),
    ({"DJANGO_DEBUG": "true"}, "True console"),  # the demo prints its mails
])
def test_a_site_says_it_mails_when_its_backend_sends(env: dict[str, str], read: str) -> None:
    """What asks for an address (sign-up, the account) and mails reset links asks
    league.services.sends_mail, which says no where the dummy backend sends nothing."""
    loaded = load(SENDS, **{"EMAIL_HOST": "", **env},
                  DJANGO_SETTINGS_MODULE="config.settings")
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == read.split()


def test_a_production_site_without_a_mail_server_prints_no_mail_on_its_log() -> None:
    """The console backend printed every mail a worker sent (an address's confirmation
    link, which signs for it) on the worker's output, the production log, and no player
    got it. Without EMAIL_HOST and with DJANGO_DEBUG off, a mail goes nowhere."""
    loaded = load(SEND, DJANGO_DEBUG="false", DJANGO_SECRET_KEY="k" * 50, EMAIL_HOST="",
                  DJANGO_SETTINGS_MODULE="config.settings")
    assert loaded.returncode == 0, loaded.stderr
    assert "SECRET" not in loaded.stdout + loaded.stderr
    demo = load(SEND, DJANGO_DEBUG="true", EMAIL_HOST="", DJANGO_SETTINGS_MODULE="config.settings")
    assert "account/email/SECRET/" in demo.stdout  # the demo's console shows its mails


def test_allowed_hosts_take_names_addresses_and_wildcards() -> None:
    code = "import config.settings as s; print(s.ALLOWED_HOSTS)"
    loaded = load(code, DJANGO_ALLOWED_HOSTS="league.example.org, .example.net,[::1],10.0.0.5")
    assert loaded.returncode == 0, loaded.stderr
    assert ast.literal_eval(loaded.stdout) == ["league.example.org", ".example.net", "[::1]",
                                               "10.0.0.5"]
