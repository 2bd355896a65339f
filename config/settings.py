"""Settings: embedded defaults (SQLite, tasks in-process), production by environment."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from kombu import Exchange, Queue

from config.env import ConfigError, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", True)
DEVELOPMENT_KEY = "insecure-development-key-do-not-use-in-production"


def _known_key(key: str) -> bool:
    """Whether anybody can read this key: blank, this file's, or one startproject made for
    development. Sessions, reset links and tokens signed with it could be forged."""
    return not key.strip() or key == DEVELOPMENT_KEY or key.startswith("django-insecure-")


SECRET_KEY = env_str("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ConfigError("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = DEVELOPMENT_KEY
elif not DEBUG and _known_key(SECRET_KEY):
    # The error does not repeat the key.
    raise ConfigError("DJANGO_SECRET_KEY is blank or a development key: set a long random "
                      "one when DJANGO_DEBUG is off (README: Production with compose)")
# Earlier keys, still accepted on what they signed (sessions, reset and mail-change links)
# while DJANGO_SECRET_KEY signs everything new: a key is rotated without signing everybody
# out. Checked as DJANGO_SECRET_KEY is, since a known one forges as well.
SECRET_KEY_FALLBACKS = env_list("DJANGO_SECRET_KEY_FALLBACKS", [])
for _place, _key in enumerate(SECRET_KEY_FALLBACKS, start=1):
    if not DEBUG and _known_key(_key):
        raise ConfigError(f"DJANGO_SECRET_KEY_FALLBACKS: key {_place} of the list is a "
                          "development key, which anybody can read: list only long random "
                          "keys the site signed with before")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
for _host in ALLOWED_HOSTS:
    # Django matches the Host without its port: a URL or a port never matches, and every
    # page answered 400 while the health check (which needs no Host) passed.
    if "/" in _host or re.fullmatch(r".*:\d*", _host):
        raise ConfigError("DJANGO_ALLOWED_HOSTS lists host names (league.example.org, "
                          f".example.org, [::1]) without a scheme, path or port, not {_host!r}")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# Sign-in counts wrong passwords and locks a name out for a while (config/signin.py).
AUTHENTICATION_BACKENDS = ["config.signin.ThrottledModelBackend"]

# Whether anybody may create an account (the register page and API).
SIGNUP_OPEN = env_bool("SIGNUP_OPEN", True)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # runserver (the demo) leaves the static files to whitenoise, which tells a browser to
    # ask again at every page (max-age=0, answered by a 304 while unchanged); Django's own
    # static handler sent no Cache-Control, and a browser guessed how long to keep a file,
    # hours for one not changed for days, so it ran an old league.js after an update.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "matches",
    "league",
]

MIDDLEWARE = [
    "config.health.HealthMiddleware",  # first: a probe needs no allowed Host nor HTTPS
    "config.logs.RequestLineMiddleware",  # REQUEST_LOG: the rest's time counted, the probe not
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.api_paths.ApiSlashMiddleware",  # before CommonMiddleware's slash redirect
    "django.middleware.common.CommonMiddleware",
    "config.nul_chars.NulCharsMiddleware",  # before anything reads a field of the request
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.private_answers.PrivateAnswersMiddleware",  # reads the user the API signed in
    "config.api_etags.ApiETagMiddleware",  # inside it: a 304 is made private as the 200 is
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.htmx_login.HtmxLoginMiddleware",
]
# A post the CSRF check refuses: the site's page says why; an htmx one reloads its page.
CSRF_FAILURE_VIEW = "config.csrf.csrf_failure"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context.site",
            ],
        },
    },
]

try:
    DATABASES = {
        "default": dj_database_url.parse(
            env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0, least=0),
            # A connection kept from an earlier request (compose keeps them 60 s) is
            # checked before a request uses it: after the database restarted, the dead one
            # is replaced rather than failing that request with a 500.
            conn_health_checks=True,
        )
    }
except (ValueError, dj_database_url.UnknownSchemeError) as exc:
    raise ConfigError(f"DATABASE_URL cannot be read ({exc})") from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent appends from threads wait for the write lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"

# Shared by web and workers in production (job progress); in-process memory by default.
CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL and not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    # Redis reads it only at the cache's first use: every signed-in page answered 500.
    raise ConfigError("CACHE_URL must be a Redis URL (redis://host:6379/1, rediss:// or "
                      "unix://), not another kind")
# A Redis that is away answers within 2 s rather than holding the request; after one
# operation had no answer in that time, the process does not ask it again for
# CACHE_AWAY_SECONDS (config/cache_down.py): a request touching the cache more than once
# waits 2 s in all, not 2 s each time.
CACHE_AWAY_SECONDS = env_int("CACHE_AWAY_SECONDS", 30, least=1)
CACHES = {
    "default": (
        {"BACKEND": "config.cache_down.RedisCache", "LOCATION": CACHE_URL,
         "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2}}
        if CACHE_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# Sessions live in the database only (Django's default `db` engine), whatever CACHE_URL
# says: read through the cache (`cached_db`), every signed-in page answered 500 while
# Redis was away, since Django writes a session back to the cache without catching the
# error. The database is needed for a signed-in page anyway (the user's row).

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Password reset links go by mail: over SMTP when EMAIL_HOST is set; otherwise, while
# DEBUG is on (the demo), printed on the server's output. A site with neither sends no
# mail, and its staff hand reset links over from the admin.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587, least=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ConfigError("EMAIL_USE_TLS (STARTTLS) and EMAIL_USE_SSL (TLS from the start) "
                      "cannot both be on")
EMAIL_TIMEOUT = 10
# Without a server, a production site sends nothing (the dummy backend): the console's
# mails, links that sign for an account among them, went to the workers' log.
EMAIL_BACKEND = ("django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
                 else "django.core.mail.backends.console.EmailBackend" if DEBUG
                 else "django.core.mail.backends.dummy.EmailBackend")
# Empty (as compose passes it when not set) is the default too: mails need a sender.
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "") or "Showdown League <noreply@localhost>"
RESET_BY_MAIL = bool(EMAIL_HOST) or DEBUG
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_HOURS", 24, least=1) * 60 * 60
# The site's address as players reach it (https://league.example.org): mails link to it
# (league.turn_mail, sent only when it is set; password reset links, which otherwise take
# the host the request named).
SITE_URL = env_str("SITE_URL", "").rstrip("/")
_site = urlsplit(SITE_URL)
if SITE_URL and (not SITE_URL.startswith(("http://", "https://")) or not _site.hostname
                 or "@" in _site.netloc or _site.query or _site.fragment
                 or any(char.isspace() for char in SITE_URL)):
    # a path may follow the host (the site served under it); the mails' paths follow that
    raise ConfigError("SITE_URL must be http:// or https://, a host and nothing but a "
                      f"path, not {SITE_URL!r}")
# A player who asks for it is mailed when a match has waited this long for their move.
# (At most 30 days, as for a turn deadline: past that a sweep's date arithmetic overflows.)
TURN_MAIL_MINUTES = env_int("TURN_MAIL_MINUTES", 5, least=1, most=30 * 24 * 60)
TURN_MAIL = RESET_BY_MAIL and bool(SITE_URL)
# A player who asks for it is mailed this long before an Event they are entered in starts
# (league.event_mail), on a site that sends turn mails.
EVENT_MAIL_HOURS = env_int("EVENT_MAIL_HOURS", 3, least=1, most=30 * 24)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# In production the pages name their static files by a hash of their content (written by
# the image's collectstatic, with a manifest), which whitenoise serves cached for a year:
# a new version is a new name, so a browser never runs yesterday's script against today's
# page. The demo and the tests, which run no collectstatic, keep the plain names.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
                    if DEBUG else "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "config.api_json.JSONParser",
        "config.api_json.FormParser",
        "config.api_json.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.api_pagination.PageNumberPagination",
    "PAGE_SIZE": env_int("API_PAGE_SIZE", 25, least=1),
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.api_negotiation.ContentNegotiation",
    # OPTIONS describes the body each write takes, not the object it answers with.
    "DEFAULT_METADATA_CLASS": "config.api_metadata.ActionMetadata",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Showdown League API",
    "DESCRIPTION": "Matches, their event streams, and the league.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A text field a request may not leave blank says so (minLength 1): a client built from
    # the schema would otherwise send "" and meet a 400 `invalid` the schema never stated.
    "ENFORCE_NON_BLANK_FIELDS": True,
    # Enums named "status" in several places (a match's, an Event's, a job's) by their own.
    "ENUM_NAME_OVERRIDES": {"EventStatusEnum": "league.models.Event.Status",
                            "MatchStatusEnum": "matches.models.Match.Status",
                            "SimulationStatusEnum": "league.models.SimulationJob.Status",
                            "RankingPointsStatusEnum": "league.models.RankingPoints.Status",
                            # a player's match and a bracket slot: win, draw or loss
                            "OutcomeEnum": "league.serializers.OUTCOMES",
                            "SlotStateEnum": "league.serializers.SLOT_STATES"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.api_schema.document_401",
        "config.api_schema.document_common_errors",
        "config.api_schema.bound_integers",
        "config.api_schema.document_conditional_gets",
    ],
}

# Celery: without a broker, tasks run in-process (eagerly) so the demo needs nothing.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A worker that loses the broker lets the tasks it runs finish (Celery 6 would cancel
# them): each is acks-late and idempotent, and writes to the database, not the broker,
# so its work stands, and its message, which it cannot acknowledge any more, comes back
# to find the work done or claimed (a bot's decision, a simulation chunk). Cancelled, a
# task left its claim fresh: its redelivery waited until the claim grew old
# (BOT_CLAIM_SECONDS; a chunk's SIMULATION_STALE_SECONDS, its matches played again).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A simulation chunk may play for minutes: on the one default queue it held up every bot
# seat of a league night queued behind it. Chunks go to a queue of their own; everything
# else stays on `celery`. A worker started without `-Q` consumes both (a purge empties
# both); compose gives the bots a worker of their own, `-Q celery`, that no chunk can fill
# (README "Production with compose").
CELERY_TASK_DEFAULT_QUEUE = "celery"
SIMULATION_QUEUE = "simulations"
# Each as Celery makes a queue it is not told of: a direct exchange and routing key of its name.
CELERY_TASK_QUEUES = [Queue(name, Exchange(name), routing_key=name)
                      for name in (CELERY_TASK_DEFAULT_QUEUE, SIMULATION_QUEUE)]
CELERY_TASK_ROUTES = {"league.sim_tasks.run_chunk": {"queue": SIMULATION_QUEUE}}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", "") or None
# A task is queued after its write commits, in the request that made it (a bot's reply, a
# mail): a broker host that hangs rather than refuses held the player's answer (each try
# waited on its socket without end). Each try now gives up after BROKER_TIMEOUT_SECONDS,
# and a publish tries twice (a pooled connection the broker dropped is made anew by the
# second), so the answer waits a few seconds at most; the write stands, and the sweeps
# queue what was missed (bot seats, simulation chunks, mails). Above the transport's 1 s
# BRPOP, which the worker's reads wait on.
BROKER_TIMEOUT_SECONDS = env_int("BROKER_TIMEOUT_SECONDS", 2, least=2)
CELERY_BROKER_CONNECTION_TIMEOUT = float(BROKER_TIMEOUT_SECONDS)
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": BROKER_TIMEOUT_SECONDS,
                                   "socket_timeout": BROKER_TIMEOUT_SECONDS}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0,
                                    "interval_step": 0.2, "interval_max": 0.2}
# The bot sweep's interval; it leaves a seat whose match moved within it (its task was
# queued on that move's commit, and may still be queued or thinking).
BOT_SWEEP_SECONDS = env_int("BOT_SWEEP_SECONDS", 30, least=1)
CELERY_BEAT_SCHEDULE = {
    "sweep-waiting-bot-seats": {
        "task": "matches.tasks.sweep_bot_seats",
        "schedule": float(BOT_SWEEP_SECONDS),
    },
    "enforce-turn-deadlines": {
        "task": "league.tasks.enforce_deadlines",
        "schedule": float(env_int("DEADLINE_SWEEP_SECONDS", 60, least=1)),
    },
    "sweep-missed-results": {
        "task": "league.tasks.sweep_results",
        "schedule": float(env_int("RESULT_SWEEP_SECONDS", 120, least=1)),
    },
    "mail-awaited-players": {
        "task": "league.tasks.mail_awaited_players",
        "schedule": float(env_int("TURN_MAIL_SWEEP_SECONDS", 60, least=1)),
    },
    "mail-email-confirmations": {
        "task": "league.tasks.mail_email_confirmations",
        "schedule": float(env_int("CONFIRM_MAIL_SWEEP_SECONDS", 60, least=1)),
    },
    # The same interval for the reset links owed: both are mails a player waits for.
    "mail-password-resets": {
        "task": "league.tasks.mail_password_resets",
        "schedule": float(env_int("CONFIRM_MAIL_SWEEP_SECONDS", 60, least=1)),
    },
    "mail-event-reminders": {
        "task": "league.tasks.mail_event_reminders",
        "schedule": float(env_int("EVENT_MAIL_SWEEP_SECONDS", 300, least=1)),
    },
    "sweep-simulation-chunks": {
        "task": "league.sim_tasks.sweep_simulations",
        "schedule": float(env_int("SIMULATION_SWEEP_SECONDS", 60, least=1)),
    },
}
# Seconds a bot may think before a random legal move is played instead.
BOT_TIME_BUDGET = float(env_int("BOT_TIME_BUDGET_SECONDS", 5, least=1))
# A bot task claims a decision before its bot thinks, and beats on the claim (writes its
# time anew) every BOT_HEARTBEAT_SECONDS while the bot thinks, and once more as the choice
# goes to be appended. Another task for the decision (a copy queued twice, a redelivery)
# leaves it to the claim's run until BOT_CLAIM_SECONDS pass without a beat: then its worker
# died, the sweep queues the seat again, and a task delivered again after the crash takes
# the decision over. A live run's claim never goes that long without a beat while its bot
# thinks, however long the budget; an append that waits on the match's lock for longer
# than BOT_CLAIM_SECONDS lets another task think the decision too (the stream takes one of
# the two choices and refuses the other), so it is well above a lock's wait.
BOT_HEARTBEAT_SECONDS = env_int("BOT_HEARTBEAT_SECONDS", 2, least=1)
BOT_CLAIM_SECONDS = env_int("BOT_CLAIM_SECONDS", 5 * BOT_HEARTBEAT_SECONDS,
                            least=2 * BOT_HEARTBEAT_SECONDS + 1)
# Milliseconds a search bot (search-easy, search-hard) spends at most on one decision in a
# live match: it plans to end a tenth short of it (HEADROOM) and starts no playout that
# could end past that, given its slowest playout so far.
BOT_SEARCH_MS = env_int("BOT_SEARCH_MS", 200, least=1)
# How many matches a player may have made that are waiting for players or in play at
# once (staff and the league's Events are not counted): bot seats cost worker time.
MAX_LIVE_MATCHES = env_int("MAX_LIVE_MATCHES", 20, least=1)
# Simulation jobs: how many chunks of a job wait in the queue at once (enough to keep every
# worker busy; a cancelled job leaves at most this many tasks that do nothing), and after
# how long a chunk claimed or queued without finishing counts as lost to a crashed worker.
SIMULATION_QUEUE_AHEAD = env_int("SIMULATION_QUEUE_AHEAD", 8, least=1)
SIMULATION_STALE_SECONDS = env_int("SIMULATION_STALE_SECONDS", 600, least=1)
# Where `manage.py balance_report` writes its files unless told (`--out`): the shipped
# reports' folder in a checkout; a container's code is read-only, so compose (and the
# image) name a folder under /tmp.
BALANCE_REPORT_DIR = Path(env_str("BALANCE_REPORT_DIR", "")
                          or BASE_DIR / "benchmarks" / "reports")

LOG_LEVEL = (env_str("LOG_LEVEL", "") or "WARNING").upper()
# One line per request (config.logs.RequestLineMiddleware), whatever LOG_LEVEL: on by
# default in production, where gunicorn writes none; the demo's runserver writes its own.
REQUEST_LOG = env_bool("REQUEST_LOG", not DEBUG)
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, "
                      f"not {LOG_LEVEL!r}")
# Django's own loggers write through the root's handler alone, at LOG_LEVEL: its default
# console handler (debug only) wrote each of their lines a second time on the demo's
# console, and its INFO level let their INFO lines past a LOG_LEVEL of WARNING. Setting
# "django" resets the loggers under it, so runserver's request lines (django.server) are
# set again as Django sets them. A line says when (UTC, TIME_ZONE), how bad and which
# logger, as gunicorn's and Celery's own lines do; a request refused as suspicious (a bad
# Host) is one warning line (config/logs.py). The request lines (REQUEST_LOG) have a
# logger and a handler of their own, which writes from a thread (config/logs.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "[{asctime}] {levelname} {name}: {message}",
                            "style": "{"},
                   "django.server": {"()": "django.utils.log.ServerFormatter",
                                     "format": "[{server_time}] {message}", "style": "{"}},
    "filters": {"refused_request": {"()": "config.logs.RefusedRequestFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line",
                             "filters": ["refused_request"]},
                 "request_line": {"class": "config.logs.BackgroundHandler",
                                  "formatter": "line"},
                 "django.server": {"class": "logging.StreamHandler",
                                   "formatter": "django.server"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"django": {"handlers": [], "level": "NOTSET", "propagate": True},
                "django.server": {"handlers": ["django.server"], "level": "INFO",
                                  "propagate": False},
                "config.requests": {"handlers": ["request_line"],
                                    "level": "INFO" if REQUEST_LOG else "CRITICAL",
                                    "propagate": False}},
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and strips it from clients),
# requests it forwarded over HTTPS count as secure: secure cookies, https links.
BEHIND_TLS_PROXY = env_bool("DJANGO_BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Sent with every answer (config/csp.py says why each source); DJANGO_CSP replaces it,
# and "off" sends none.
CONTENT_SECURITY_POLICY = env_str("DJANGO_CSP", "") or "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
if CONTENT_SECURITY_POLICY == "off":
    CONTENT_SECURITY_POLICY = ""
if any(char in CONTENT_SECURITY_POLICY for char in "\r\n"):
    # A header is one line: every answer would fail, while the health probe still passed.
    raise ConfigError("DJANGO_CSP must be one line: join a policy written over several "
                      "lines with spaces")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0, least=0)
