"""The API answers what its OpenAPI schema documents.

A client generates its code from /api/schema/, so every answer that the schema does not
describe is a bug for it: a status code the operation does not list, a body that does not
validate against the schema documented for that status (a field missing, of another type,
null where the schema says it is never null, a field the schema does not know, `2.0`
where it says integer, a date-time that is not RFC 3339), or a header the schema documents
as sent (a 201's Location) missing. The other way too: a request the documented request
schema allows (body, query parameters, headers) that the server refuses as malformed (400
`invalid`), or one it forbids that the server takes.

One test drives every operation of the schema's `paths` with realistic data through the
real services (matches of each game, legal and illegal actions, Events of several formats
in every stage, seasons, teams, players, simulations, the auth endpoints), checks each
answer and collects every mismatch, so a single run lists them all. The database is
transactional so that bot seats play (and Event results record themselves) on commit, as
they do in production with Celery run eagerly.
"""

from __future__ import annotations

import json
import os
import re
import traceback
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.test import RequestFactory, override_settings
from jsonschema import Draft202012Validator, FormatChecker, validators
from rest_framework.test import APIClient

from config import signin
from league.events import NOTES_LENGTH

SCHEMA_URL = "/api/schema/"
OPENAPI_JSON = "application/vnd.oai.openapi+json"
REF_PREFIX = "#/components/schemas/"
DUMP = os.environ.get("CONFORMANCE_DUMP")  # a file to append every call and answer to
GAMES = ["super_showdown", "superstar_showdown", "supershow", "royal_rumble",
         "ultimate_showdown"]
# Refusals of a field's text past limits the schema states (its length, blank or not): a
# request the schema allows never meets one.
STATED_LIMITS = {"bad_name", "bad_notes"}
# OpenAPI keywords JSON Schema has no use for (or reads otherwise).
DROPPED = {"nullable", "readOnly", "writeOnly", "example", "examples", "discriminator",
           "xml", "externalDocs", "deprecated"}


# -- OpenAPI 3.0 schema objects as JSON Schema (Draft 2020-12) ----------------------------

def to_json_schema(node: Any, strict: bool = True) -> Any:
    """An OpenAPI 3.0 schema object as JSON Schema: `$ref`s to #/$defs, `nullable: true`
    as a type (or an alternative) that also takes null, and an object that lists its
    `properties` (and says nothing of others) closed to the fields it does not document."""
    if isinstance(node, list):
        return [to_json_schema(item, strict) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in DROPPED:
            continue
        if key == "$ref":
            out["$ref"] = "#/$defs/" + value.removeprefix(REF_PREFIX)
        elif key in ("properties", "patternProperties"):
            out[key] = {name: to_json_schema(sub, strict) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = to_json_schema(value, strict)
        elif key in ("allOf", "oneOf", "anyOf"):
            out[key] = [to_json_schema(sub, strict) for sub in value]
        else:
            out[key] = value
    if strict and "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if node.get("nullable"):
        composite = any(k in out for k in ("allOf", "oneOf", "anyOf", "$ref"))
        if "type" in out and not composite:
            out["type"] = [out["type"], "null"]
            if "enum" in out and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        elif out:
            out = {"anyOf": [{"type": "null"}, out]}
    return out


# "integer" as a typed client reads it: `2.0` is a float in JSON, which a generated
# client's integer field refuses (jsonschema's own check takes it as 2).
StrictValidator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)))


FORMATS = FormatChecker(formats=())


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    """RFC 3339: a date, "T", a time and an offset (or Z)."""
    if not isinstance(value, str):
        return True
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)", value):
        raise ValueError(f"{value!r} is not an RFC 3339 date-time")
    datetime.fromisoformat(value.replace("Z", "+00:00"))
    return True


@FORMATS.checks("date", raises=ValueError)
def _date(value: object) -> bool:
    if isinstance(value, str):
        if not re.fullmatch(r"\d{4}-\d\d-\d\d", value):
            raise ValueError(f"{value!r} is not a date")
        date.fromisoformat(value)
    return True


@FORMATS.checks("uri", raises=ValueError)
def _uri(value: object) -> bool:
    if isinstance(value, str) and not re.match(r"^[a-z][a-z0-9+.-]*://", value):
        raise ValueError(f"{value!r} is not an absolute URI")
    return True


def _path_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile("^" + "".join("[^/]+" if p.startswith("{") else re.escape(p)
                                    for p in parts) + "$")


@dataclass
class Mismatch:
    operation: str
    status: int
    where: str
    what: str
    example: str
    count: int = 1

    def __str__(self) -> str:
        times = f" (x{self.count})" if self.count > 1 else ""
        return f"{self.operation} -> {self.status}: {self.where}: {self.what}{times}\n" \
               f"        e.g. {self.example}"


@dataclass
class Conformance:
    """Calls the API and checks every answer against the schema."""

    schema: dict[str, Any]
    mismatches: dict[tuple[Any, ...], Mismatch] = field(default_factory=dict)
    covered: dict[tuple[str, str], set[int]] = field(default_factory=dict)
    drift: list[str] = field(default_factory=list)
    validators: dict[tuple[str, str, str, str], Any] = field(
        default_factory=dict)

    def __post_init__(self) -> None:
        components = self.schema["components"]["schemas"]
        self.defs = {name: to_json_schema(body) for name, body in components.items()}
        # Requests: an object may carry fields it does not list (they are ignored).
        self.request_defs = {name: to_json_schema(body, strict=False)
                             for name, body in components.items()}
        self.routes = []
        for template, operations in self.schema["paths"].items():
            for method, operation in operations.items():
                if method in ("get", "post", "put", "patch", "delete"):
                    self.routes.append((method, template, _path_regex(template), operation))
        # Literal segments first: /api/events/showdown/ before /api/events/{id}/.
        self.routes.sort(key=lambda r: (r[1].count("{"), -len(r[1])))

    # -- calling -----------------------------------------------------------------------

    def call(self, client: APIClient, method: str, url: str, data: Any = None,
             expect: int | set[int] | None = None, **extra: Any) -> Any:
        """The answer to `method url`, checked; `expect` is what the scenario meant to
        provoke (a different status is noted as drift, not as a mismatch)."""
        refused = self.request_errors(method, url, data, extra)
        if method == "get":
            response = client.get(url, data, **extra)
        else:
            response = client.generic(method.upper(), url,
                                      json.dumps(data) if data is not None else "",
                                      content_type="application/json", **extra) \
                if data is not None else getattr(client, method)(url, **extra)
        self.check(method, url, response, data)
        self.check_request(method, url, data, refused, response, extra)
        if DUMP:
            with open(DUMP, "a") as out:
                out.write(f"{method.upper()} {url} {_short(data, 300) if data else ''} -> "
                          f"{response.status_code} {_short(_body(response), 4000)}\n")
        wanted = {expect} if isinstance(expect, int) else expect
        if wanted is not None and response.status_code not in wanted:
            self.drift.append(f"{method.upper()} {url}: wanted {sorted(wanted)}, got "
                              f"{response.status_code} {_short(_body(response))}")
        return response

    def get(self, client: APIClient, url: str, params: Any = None,
            expect: int | set[int] | None = 200, **extra: Any) -> Any:
        return self.call(client, "get", url, params, expect, **extra)

    def post(self, client: APIClient, url: str, data: Any = None,
             expect: int | set[int] | None = None, **extra: Any) -> Any:
        return self.call(client, "post", url, data, expect, **extra)

    # -- checking ----------------------------------------------------------------------

    def route(self, method: str, url: str) -> tuple[str, dict[str, Any]] | None:
        path = url.split("?", 1)[0]
        for m, template, regex, operation in self.routes:
            if m == method and regex.match(path):
                return template, operation
        return None

    def note(self, operation: str, status: int, where: str, what: str, example: str) -> None:
        key = (operation, status, where, what)
        if key in self.mismatches:
            self.mismatches[key].count += 1
        else:
            self.mismatches[key] = Mismatch(operation, status, where, what, example)

    def check(self, method: str, url: str, response: Any, sent: Any) -> None:
        status = response.status_code
        found = self.route(method, url)
        example = f"{method.upper()} {url}" + (f" {_short(sent, 160)}" if sent else "")
        if found is None:
            self.note(f"{method.upper()} {url}", status, "path", "not in the schema", example)
            return
        template, operation = found
        name = f"{method.upper()} {template}"
        self.covered.setdefault((method, template), set()).add(status)
        responses = operation["responses"]
        documented = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") \
            or responses.get("default")
        if documented is None:
            self.note(name, status, "status",
                      f"not documented (documented: {', '.join(sorted(responses))}); "
                      f"body {_short(_body(response), 160)}", example)
            return
        for header, spec in (documented.get("headers") or {}).items():
            if spec.get("required") and not response.get(header):
                self.note(name, status, "headers", f"{header} documented, not sent", example)
        content = documented.get("content") or {}
        media = (response.get("Content-Type") or "").split(";")[0].strip()
        if not content:
            if _raw(response):
                self.note(name, status, "body", f"documented without a body, got {media}",
                          example)
            return
        if media not in content:
            self.note(name, status, "content type",
                      f"{media or 'no body'} not documented ({', '.join(content)})", example)
            return
        body_schema = content[media].get("schema")
        if body_schema is None:
            return
        raw = _raw(response)
        if media == "application/json":
            texts = [raw or b"null"]
        elif body_schema.get("type") == "string":
            return  # text, whatever it holds
        elif media == "application/x-ndjson":
            texts = [line for line in raw.splitlines() if line.strip()]  # a JSON value a line
        else:
            self.note(name, status, "body", f"{media} documented as {body_schema}", example)
            return
        key = (method, template, str(status), media)
        if key not in self.validators:
            self.validators[key] = StrictValidator(
                {**to_json_schema(body_schema), "$defs": self.defs}, format_checker=FORMATS)
        for text in texts:
            try:
                body = json.loads(text)
            except ValueError:
                self.note(name, status, "body", f"not JSON ({media})", example)
                continue
            for error in self.validators[key].iter_errors(body):
                self.note(name, status, _where(error.absolute_path), _what(error), example)

    def request_errors(self, method: str, url: str, data: Any,
                       headers: dict[str, Any]) -> list[str] | None:
        """What the documented request schema (the JSON body, the query parameters, the
        headers) says of this request; None when it documents none of what is sent."""
        found = self.route(method, url)
        if found is None:
            return None
        operation = found[1]
        sent: list[tuple[str, Any, Any]] = []  # (what, value, schema)
        params = {(p["in"], p["name"].lower()): p for p in operation.get("parameters", [])}
        for name, value in (data or {}).items() if method == "get" else ():
            param = params.get(("query", name.lower()))
            if param is not None:
                sent.append((f"query {name}", value, param.get("schema", {})))
        for name, value in headers.items():
            header = name.removeprefix("HTTP_").replace("_", "-").lower()
            param = params.get(("header", header))
            if param is not None:
                sent.append((f"header {param['name']}", value, param.get("schema", {})))
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if method != "get" and data is not None and body is not None:
            sent.append(("body", data, body["schema"]))
        if not sent:
            return None
        errors = []
        for what, value, schema in sent:
            checker = Draft202012Validator({**to_json_schema(schema, strict=False),
                                            "$defs": self.request_defs})
            errors += [f"{what}{_where(e.absolute_path)[4:]}: {_what(e)}"
                       for e in checker.iter_errors(value)]
        return errors

    def check_request(self, method: str, url: str, data: Any, refused: list[str] | None,
                      response: Any, headers: dict[str, Any]) -> None:
        """A body the request schema allows, refused as malformed (400 `invalid`); or one
        it forbids, taken."""
        if refused is None:
            return
        template = self.route(method, url)[0]  # type: ignore[index]
        name, status = f"{method.upper()} {template}", response.status_code
        example = f"{method.upper()} {url} {_short(data, 160)}" + "".join(
            f" [{k.removeprefix('HTTP_').replace('_', '-').title()}: {_short(v, 40)!r}]"
            for k, v in headers.items())
        body = _body(response)
        if not refused and status == 400 and isinstance(body, dict) \
                and body.get("code") == "invalid" and "does not exist" not in str(body):
            self.note(name, status, "request",
                      f"a request the schema allows refused as invalid: "
                      f"{_short(body.get('detail'), 160)}", example)
        elif refused and 200 <= status < 300:
            self.note(name, status, "request", "a request the schema forbids taken: "
                      + "; ".join(refused), example)
        elif not refused and status == 400 and isinstance(body, dict) \
                and body.get("code") in STATED_LIMITS:
            self.note(name, status, "request",
                      f"a request the schema allows refused for a limit it does not state "
                      f"({body['code']}): {_short(body.get('detail'), 160)}", example)

    # -- the report --------------------------------------------------------------------

    def uncovered(self) -> list[str]:
        return sorted(f"{m.upper()} {t}" for m, t, _, _ in self.routes
                      if (m, t) not in self.covered)

    def statuses(self) -> list[str]:
        """Each operation: the statuses seen, and those documented but never provoked."""
        rows = []
        for m, t, _, operation in sorted(self.routes, key=lambda r: (r[1], r[0])):
            seen = self.covered.get((m, t), set())
            unseen = sorted(set(operation["responses"]) - {str(x) for x in seen})
            rows.append(f"{m.upper()} {t}: seen {sorted(seen)}; documented, not seen {unseen}")
        return rows

    def report(self) -> str:
        lines = [f"{len(self.mismatches)} mismatches between the API and its schema "
                 f"({len(self.covered)} of {len(self.routes)} operations exercised):"]
        lines += [f"  {m}" for m in sorted(self.mismatches.values(),
                                           key=lambda m: (m.operation, m.status, m.where))]
        if self.uncovered():
            lines.append("Operations not exercised: " + ", ".join(self.uncovered()))
        if self.drift:
            lines.append("Scenario drift (answers the scenario did not aim at):")
            lines += [f"  {d}" for d in self.drift]
        return "\n".join(lines)


def _raw(response: Any) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return bytes(response.content)


def _body(response: Any) -> Any:
    raw = _raw(response)
    try:
        return json.loads(raw)
    except ValueError:
        return raw[:200]


def _short(value: Any, limit: int = 240) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, (str, bytes)) else str(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _where(path: Any) -> str:
    out = "body"
    for part in path:
        out += "[*]" if isinstance(part, int) else f".{part}"
    return out


def _what(error: Any) -> str:
    """The error, told by what the schema says and what came back."""
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"undocumented field(s) {extra}"
    if error.validator == "required":
        return error.message.replace("is a required property", "is documented as required "
                                                               "but missing")
    if error.validator in ("anyOf", "oneOf") and error.context:
        said = [sub for sub in error.context
                if not (sub.validator == "type" and sub.validator_value == "null")]
        inner = "; ".join(sorted({_what(sub) for sub in said})) or error.message
        return f"{_short(error.instance, 80)} matches no alternative ({inner})"
    if error.validator == "type":
        return f"schema says type {error.validator_value}, got {_short(error.instance, 80)}"
    if error.validator == "enum":
        return f"schema says one of {error.validator_value}, got {_short(error.instance, 80)}"
    return f"{error.validator} {_short(error.validator_value, 80)}: " \
           f"{_short(error.instance, 80)}"


# -- the scenario ----------------------------------------------------------------------

@pytest.fixture
def api(anon_api: APIClient) -> Conformance:
    answer = anon_api.get(SCHEMA_URL, HTTP_ACCEPT=OPENAPI_JSON)
    assert answer.status_code == 200
    return Conformance(answer.json())


def state_of(api: Conformance, client: APIClient, match_id: int,
             seat: int | None = None) -> dict[str, Any]:
    params = {"seat": seat} if seat is not None else None
    return api.get(client, f"/api/matches/{match_id}/state/", params).json()


def exercise_auth(api: Conformance, anon: APIClient) -> None:
    body = {"username": "conformance_probe", "password": "a-long-test-password-9"}
    api.post(anon, "/api/auth/register/", body, expect=201)
    api.post(anon, "/api/auth/register/", body, expect=400)  # the name is taken
    api.post(anon, "/api/auth/register/", {"username": "x"}, expect=400)
    api.post(anon, "/api/auth/register/", {"username": "short", "password": "1"}, expect=400)
    with override_settings(SIGNUP_OPEN=False):
        api.post(anon, "/api/auth/register/", {"username": "late", "password": "a-long-pw-77"},
                 expect=403)
    api.post(anon, "/api/auth/token/", body, expect=200)
    api.post(anon, "/api/auth/token/", {**body, "password": "wrong-one"}, expect=400)
    api.post(anon, "/api/auth/token/", {"password": "x"}, expect=400)
    for _ in range(10):
        api.post(anon, "/api/auth/token/", {"username": "conformance_probe", "password": "bad"})
    api.post(anon, "/api/auth/token/", body, expect=429)
    # No lockout left for other tests (the test client's address is the factory's).
    cache.delete_many(signin._keys("conformance_probe", RequestFactory().post("/")))
    api.post(anon, "/api/auth/token/", "not json", expect=400)
    # Form bodies, documented beside JSON for these two.
    form, media = ("username=conformance_form&password=a-long-test-password-9",
                   "application/x-www-form-urlencoded")
    for url in ("/api/auth/register/", "/api/auth/token/"):
        api.check("post", url, anon.generic("POST", url, form, content_type=media), form)
    response = anon.post("/api/auth/token/", {"username": "conformance_form",
                                              "password": "a-long-test-password-9"},
                         format="multipart")
    api.check("post", "/api/auth/token/", response, "(multipart)")
    # A body of another type is 415.
    response = anon.generic("POST", "/api/auth/token/", "<x/>", content_type="application/xml")
    api.check("post", "/api/auth/token/", response, "<x/>")
    # The account: read it, rename it, change its password, revoke its token.
    token = api.post(anon, "/api/auth/token/", body, expect=200).json()["token"]
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    api.get(me, "/api/auth/me/")
    api.call(me, "patch", "/api/auth/me/", {"display_name": "Probe"}, expect=200)
    api.call(me, "patch", "/api/auth/me/", {"display_name": " "}, expect=400)
    api.call(me, "patch", "/api/auth/me/", {}, expect=200)
    api.call(me, "patch", "/api/auth/me/", {"display_name": "x" * 65}, expect=400)
    api.call(me, "patch", "/api/auth/me/", {"turn_mail": True}, expect=409)
    api.call(me, "patch", "/api/auth/me/", {"email": "probe@example.org"}, expect=400)
    api.call(me, "patch", "/api/auth/me/", {"email": "probe@example.org",
                                            "password": body["password"]}, expect=200)
    api.call(me, "patch", "/api/auth/me/", {"email": "not an address"}, expect=400)
    api.post(anon, "/api/auth/password/reset/", {"email": "probe@example.org"}, expect=202)
    api.post(anon, "/api/auth/password/reset/", {"email": "nobody"}, expect=400)
    api.post(anon, "/api/auth/password/reset/", {}, expect=400)
    for _ in range(3):
        api.post(anon, "/api/auth/password/reset/", {"email": "flood@example.org"})
    api.post(anon, "/api/auth/password/reset/", {"email": "flood@example.org"}, expect=429)
    with override_settings(RESET_BY_MAIL=False):  # no mail: no reset link, no new address
        api.post(anon, "/api/auth/password/reset/", {"email": "probe@example.org"},
                 expect=501)
        api.call(me, "patch", "/api/auth/me/", {"email": "other@example.org",
                                                "password": body["password"]}, expect=501)
        api.post(anon, "/api/auth/register/", {"username": "no_mail", "email": "n@example.org",
                                               "password": "a-long-pw-77"}, expect=501)
    api.post(me, "/api/auth/password/", {"old_password": "wrong-one",
                                         "new_password": "another-long-pw-8"}, expect=400)
    api.post(me, "/api/auth/password/", {"old_password": body["password"],
                                         "new_password": "1"}, expect=400)
    api.post(me, "/api/auth/password/", {"old_password": body["password"]}, expect=400)
    for _ in range(10):
        api.post(me, "/api/auth/password/", {"old_password": "bad", "new_password": "x"})
    api.post(me, "/api/auth/password/", {**body, "old_password": body["password"],
                                         "new_password": "another-long-pw-8"}, expect=429)
    cache.delete_many(signin._keys("conformance_probe", RequestFactory().post("/")))
    token = api.post(me, "/api/auth/password/", {
        "old_password": body["password"], "new_password": "another-long-pw-8"},
        expect=200).json()["token"]
    me.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    api.call(me, "delete", "/api/auth/token/", expect=204)
    api.call(me, "delete", "/api/auth/token/", expect=401)
    api.get(me, "/api/auth/me/", expect=401)
    # Closing an account.
    closer = {"username": "conformance_closer", "password": "a-long-test-password-9"}
    token = api.post(anon, "/api/auth/register/", closer, expect=201).json()["token"]
    me.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    api.get(me, "/api/auth/me/data/")
    api.get(anon, "/api/auth/me/data/", expect=401)
    api.post(me, "/api/auth/me/close/", {"password": "wrong-one"}, expect=400)
    api.post(me, "/api/auth/me/close/", {}, expect=400)
    api.post(me, "/api/auth/me/close/", {"password": closer["password"]}, expect=204)
    api.post(me, "/api/auth/me/close/", {"password": closer["password"]}, expect=401)


def exercise_games(api: Conformance, anon: APIClient) -> None:
    api.get(anon, "/api/games/")
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    api.get(bad, "/api/games/", expect=401)


def play_a_few(api: Conformance, client: APIClient, match_id: int, seat: int,
               moves: int) -> dict[str, Any]:
    """Up to `moves` legal actions of `seat` (bots answer on commit); the last state."""
    state = state_of(api, client, match_id, seat)
    for _ in range(moves):
        if state["status"] != "active" or seat not in state["pending"]["seats"] \
                or not state["legal_actions"]:
            break
        api.post(client, f"/api/matches/{match_id}/actions/",
                 {"seat": seat, "action": state["legal_actions"][0],
                  "expected_seq": state["seq"]}, expect=201)
        state = state_of(api, client, match_id, seat)
    return state


def exercise_matches(api: Conformance, c: dict[str, APIClient]) -> dict[str, Any]:
    alice, bruno, olga, staff, anon = c["alice"], c["bruno"], c["olga"], c["staff"], c["anon"]
    games = {g["key"]: g for g in api.get(alice, "/api/games/").json()}
    made: dict[str, Any] = {}
    for game in GAMES:
        n = games[game]["min_seats"] if game != "ultimate_showdown" else 3
        # alice against bots: the bots play on commit until she is due.
        seats = [{"player": "alice"}] + [{"bot": "random"}] * (n - 1)
        mine = api.post(alice, "/api/matches/", {"game": game, "seats": seats},
                        expect=201).json()
        made[game] = mine
        mid = mine["id"]
        api.get(alice, f"/api/matches/{mid}/")
        api.get(olga, f"/api/matches/{mid}/")  # a spectator
        state = play_a_few(api, alice, mid, 0, 3)
        api.get(olga, f"/api/matches/{mid}/state/")
        api.get(alice, f"/api/matches/{mid}/events/")
        api.get(olga, f"/api/matches/{mid}/events/", {"after": 1, "limit": 5})
        api.get(alice, f"/api/matches/{mid}/replay/", {"at": 1})
        api.get(alice, f"/api/matches/{mid}/replay/", {"at": state["seq"] + 50},
                expect={400, 404, 409})
        api.get(alice, f"/api/matches/{mid}/replay/", expect=400)  # `at` is required
        api.get(alice, f"/api/matches/{mid}/state/", {"seat": 7}, expect={400, 403})
        api.get(alice, f"/api/matches/{mid}/state/", {"seat": "x"}, expect=400)
        if state["status"] == "active":
            url = f"/api/matches/{mid}/actions/"
            api.post(alice, url, {"seat": 0, "action": {"type": "nonsense"}},
                     expect={400, 409})
            api.post(alice, url, {"seat": 0, "action": state["legal_actions"][0]
                                  if state["legal_actions"] else {},
                                  "expected_seq": 0}, expect=409)
            api.post(alice, url, {"seat": 1, "action": {}}, expect=403)
            api.post(olga, url, {"seat": 0, "action": {}}, expect=403)
            api.post(alice, url, {"seat": "zero"}, expect=400)
            api.post(alice, url, {"seat": 0, "action": {}}, expect={400, 409},
                     HTTP_IDEMPOTENCY_KEY="")
        # resign: the match ends; every read again, now unveiled.
        api.post(alice, f"/api/matches/{mid}/resign/", {}, expect=200)
        api.post(alice, f"/api/matches/{mid}/resign/", {}, expect=409)
        api.post(alice, f"/api/matches/{mid}/actions/", {"seat": 0, "action": {}},
                 expect=409)
        api.get(alice, f"/api/matches/{mid}/")
        api.get(olga, f"/api/matches/{mid}/state/")
        api.get(olga, f"/api/matches/{mid}/events/")
        api.get(olga, f"/api/matches/{mid}/replay/", {"at": 2})
        # bots alone, played to the game's own end (staff may seat only bots).
        bots = api.post(staff, "/api/matches/", {
            "game": game, "seats": [{"bot": "random"}] * n}, expect=201).json()
        api.get(alice, f"/api/matches/{bots['id']}/")
        api.get(alice, f"/api/matches/{bots['id']}/state/")
        api.get(alice, f"/api/matches/{bots['id']}/events/", {"limit": 3})
        api.get(alice, f"/api/matches/{bots['id']}/replay/", {"at": 3})
        made[f"{game}-bots"] = bots

    # Options, including a secret one, read "hidden" for the other seats.
    api.post(alice, "/api/matches/", {"game": "supershow", "options": {
        "match_type": "triple_threat_first_fall"},
        "seats": [{"player": "alice"}, {"bot": "random"}, {"bot": "random"}]}, expect=201)
    # People: an invitation, joined; an open seat; a declined invitation; leaving.
    duel = api.post(alice, "/api/matches/", {"game": "super_showdown", "seats": [
        {"player": "alice"}, {"player": "bruno"}], "idempotency_key": "duel-1"},
        expect=201).json()
    api.post(alice, "/api/matches/", {"game": "super_showdown", "seats": [
        {"player": "alice"}, {"player": "bruno"}], "idempotency_key": "duel-1"}, expect=201)
    api.post(alice, "/api/matches/", {"game": "royal_rumble", "seats": [
        {"player": "alice"}, {"bot": "random"}], "idempotency_key": "duel-1"}, expect=409)
    api.get(bruno, "/api/matches/", {"invited": "bruno"})
    api.post(bruno, f"/api/matches/{duel['id']}/join/", expect=200)
    api.post(olga, f"/api/matches/{duel['id']}/join/", expect=409)
    api.post(olga, "/api/matches/999999/join/", expect=404)
    state = state_of(api, alice, duel["id"], 0)
    due = state["pending"]["seats"]
    mover = alice if 0 in due else bruno
    seat = 0 if 0 in due else 1
    play_a_few(api, mover, duel["id"], seat, 1)
    api.post(olga, f"/api/matches/{duel['id']}/resign/", {}, expect=403)
    api.post(alice, f"/api/matches/{duel['id']}/resign/", {"seat": 1}, expect={400, 403})
    api.post(mover, f"/api/matches/{duel['id']}/resign/", {"seat": seat}, expect=200)
    made["duel"] = duel
    # The duel again: bruno makes the rematch, alice takes her seat in it.
    again = api.post(bruno, f"/api/matches/{duel['id']}/rematch/", expect=201).json()
    api.post(alice, f"/api/matches/{duel['id']}/rematch/", expect=200)
    api.post(olga, f"/api/matches/{duel['id']}/rematch/", expect=403)
    api.post(alice, f"/api/matches/{again['id']}/rematch/", expect=409)
    opened = api.post(alice, "/api/matches/", {"game": "royal_rumble", "seats": [
        {"player": "alice"}, {"open": True}, {"open": True}]}, expect=201).json()
    api.get(olga, f"/api/matches/{opened['id']}/state/")
    api.get(olga, f"/api/matches/{opened['id']}/events/")
    api.post(alice, f"/api/matches/{opened['id']}/join/", expect=409)
    api.post(olga, f"/api/matches/{opened['id']}/join/", expect=200)
    api.post(olga, f"/api/matches/{opened['id']}/resign/", {"leaving": True}, expect=200)
    invited = api.post(alice, "/api/matches/", {"game": "super_showdown", "seats": [
        {"player": "alice"}, {"player": "olga"}]}, expect=201).json()
    api.post(olga, f"/api/matches/{invited['id']}/resign/", {}, expect=200)  # declined
    api.post(alice, f"/api/matches/{invited['id']}/resign/", {}, expect=200)  # left
    api.get(alice, f"/api/matches/{invited['id']}/", expect=404)

    # Refused creations.
    api.post(alice, "/api/matches/", {"game": "nope", "seats": [{"player": "alice"}]},
             expect=400)
    api.post(alice, "/api/matches/", {"game": "super_showdown", "seats": [
        {"bot": "random"}, {"bot": "random"}]}, expect=403)
    api.post(alice, "/api/matches/", {"game": "super_showdown", "seats": []}, expect=400)
    api.post(alice, "/api/matches/", {"game": "super_showdown", "seats": [
        {"player": "alice"}, {"bot": "random"}], "options": {"bogus": 1}}, expect=400)
    api.post(alice, "/api/matches/", {"game": "super_showdown", "seats": [
        {"player": "alice"}, {"bot": "random"}]}, expect=400,
        HTTP_IDEMPOTENCY_KEY="k" * 300)
    api.post(alice, "/api/matches/", {"game": "super_showdown", "seats": [
        {"player": "alice"}, {"player": "ghost"}]}, expect=400)

    # The list and its filters.
    api.get(alice, "/api/matches/")
    api.get(alice, "/api/matches/", {"game": "supershow"})
    api.get(alice, "/api/matches/", {"status": "finished", "player": "alice"})
    api.get(alice, "/api/matches/", {"status": "bogus"}, expect=400)
    api.get(alice, "/api/matches/", {"game": "chess"}, expect=400)  # unknown_game
    api.get(alice, "/api/matches/", {"format": "xml"}, expect=406)
    api.get(alice, "/api/matches/", {"page": 999}, expect=404)
    api.get(alice, "/api/matches/", {"page": "abc"}, expect=400)
    api.get(alice, "/api/matches/", {"page": 0}, expect=400)
    api.get(alice, "/api/matches/", {"page_size": 2, "page": 2})
    api.get(alice, "/api/matches/", {"page_size": 500}, expect=400)
    api.get(anon, "/api/matches/", expect=401)
    api.get(alice, "/api/matches/999999/", expect=404)
    api.get(alice, "/api/matches/999999/state/", expect=404)
    api.get(alice, "/api/matches/999999/events/", expect=404)
    api.get(alice, "/api/matches/999999/replay/", {"at": 1}, expect=404)
    api.post(alice, "/api/matches/999999/actions/", {"seat": 0, "action": {}}, expect=404)
    api.post(alice, "/api/matches/999999/resign/", {}, expect=404)
    api.get(alice, "/api/matches/1/events/", {"after": -1}, expect=400)
    api.get(alice, "/api/matches/1/events/", {"limit": 0}, expect=400)
    return made


def exercise_league(api: Conformance, c: dict[str, APIClient]) -> None:
    alice, bruno, olga, staff, anon = c["alice"], c["bruno"], c["olga"], c["staff"], c["anon"]
    # -- seasons
    autumn = {"name": "Autumn", "game": "super_showdown", "starts_on": "2026-09-01",
              "scoring": {"win": 3, "draw": 1, "loss": 0}, "idempotency_key": "autumn-1"}
    season = api.post(staff, "/api/seasons/", autumn, expect=201).json()
    resent = api.post(staff, "/api/seasons/", autumn, expect=201).json()  # a phone's retry
    assert resent["id"] == season["id"]
    api.post(staff, "/api/seasons/", {**autumn, "game": "supershow"}, expect=409)  # key_reused
    api.post(staff, "/api/seasons/", {"name": "", "game": "super_showdown"}, expect=400)
    api.post(staff, "/api/seasons/", {"name": " ", "game": "super_showdown"}, expect=400)
    api.post(staff, "/api/seasons/", {"name": "X", "game": "nope"}, expect=400)
    api.post(olga, "/api/seasons/", {"name": "Mine", "game": "super_showdown"}, expect=403)
    api.post(anon, "/api/seasons/", {"name": "Mine", "game": "super_showdown"}, expect=401)
    sid = season["id"]
    api.get(olga, "/api/seasons/")
    api.get(olga, f"/api/seasons/{sid}/")
    api.get(olga, "/api/seasons/999999/", expect=404)
    api.get(olga, "/api/seasons/999999/standings/", expect=404)

    # -- teams
    reds = {"name": "Reds", "members": ["alice", "bruno"], "idempotency_key": "reds-1"}
    team = api.post(staff, "/api/teams/", reds, expect=201).json()
    assert api.post(staff, "/api/teams/", reds, expect=201).json()["id"] == team["id"]
    api.post(staff, "/api/teams/", {**reds, "name": "Greens"}, expect=409)  # key_reused
    api.post(staff, "/api/teams/", {"name": "Blues", "members": ["olga"]}, expect=201)
    api.post(staff, "/api/teams/", {"name": "Reds", "members": ["olga"]}, expect=409)
    api.post(staff, "/api/teams/", {"name": "Nobody", "members": []}, expect=400)
    api.post(staff, "/api/teams/", {"name": "Ghosts", "members": ["ghost"]}, expect=400)
    api.post(olga, "/api/teams/", {"name": "Mine", "members": ["olga"]}, expect=403)
    api.get(olga, "/api/teams/")
    api.get(olga, f"/api/teams/{team['id']}/")
    api.get(olga, "/api/teams/999999/", expect=404)

    base = {"game": "super_showdown", "season": sid}
    # -- a round robin of bots: played out when it starts (finished).
    night = {**base, "name": "Bots' night", "format": "round_robin",
             "idempotency_key": "bots-night"}
    rr = api.post(staff, "/api/events/", night, expect=201).json()
    assert api.post(staff, "/api/events/", night, expect=201).json()["id"] == rr["id"]
    api.post(staff, "/api/events/", {**night, "format": "swiss"}, expect=409)  # key_reused
    for blank in ("", "   "):  # bad_name, as the schema states
        api.post(staff, "/api/events/", {**night, "name": blank, "idempotency_key": None},
                 expect=400)
    api.post(staff, "/api/events/", {**night, "notes": "x" * 1001, "idempotency_key": None},
             expect=400)  # bad_notes
    url = f"/api/events/{rr['id']}/"
    for i, bot in enumerate(["random", "heuristic", "random", "heuristic"]):
        api.post(staff, f"{url}entrants/", {"bot": bot, "name": f"Bot {i}"}, expect=201)
    api.get(olga, f"{url}bracket/")  # before the start: empty
    api.get(olga, f"{url}standings/")
    api.post(staff, f"{url}seed/", {"method": "random"}, expect=200)
    api.post(staff, f"{url}start/", {}, expect=200)
    for tail in ("", "bracket/", "standings/", "records/", "ranking-points/"):
        api.get(olga, f"{url}{tail}")
    api.get(olga, f"{url}records/", {"page": 99}, expect=404)
    api.post(staff, f"{url}start/", {}, expect=409)
    api.post(staff, f"{url}entrants/", {"bot": "random"}, expect=409)
    api.post(staff, f"{url}release/", {}, expect=409)
    api.get(olga, f"/api/seasons/{sid}/standings/")
    bracket = api.get(olga, f"{url}bracket/").json()
    played = [p for p in bracket if p["result"]]
    if played:
        p = played[0]
        keys = [s["entrant"] for s in p["slots"]]
        api.post(staff, f"{url}corrections/", {"pairing": p["pairing"],
                                               "placements": {keys[0]: 2, keys[1]: 1}},
                 expect=200)
        api.post(staff, f"{url}corrections/", {"pairing": p["pairing"],
                                               "placements": {"e99": 1}}, expect=400)
        api.post(olga, f"{url}corrections/", {"pairing": p["pairing"],
                                              "placements": {keys[0]: 1, keys[1]: 2}},
                 expect=403)

    # -- a single elimination with people: running, their matches wait for them.
    se = api.post(staff, "/api/events/", {**base, "name": "Cup",
                                          "format": "single_elimination",
                                          "turn_deadline_minutes": 60,
                                          "deadline_policy": "forfeit"}, expect=201).json()
    url = f"/api/events/{se['id']}/"
    api.post(staff, f"{url}entrants/", {"player": "alice"}, expect=201)
    api.post(staff, f"{url}entrants/", {"player": "bruno"}, expect=201)
    api.post(staff, f"{url}entrants/", {"player": "olga", "name": "Olga the Great"},
             expect=201)
    api.post(staff, f"{url}entrants/", {"bot": "random"}, expect=201)
    api.post(staff, f"{url}entrants/", {"player": "alice"}, expect={400, 409})
    api.post(staff, f"{url}entrants/", {"player": "alice", "bot": "random"}, expect=400)
    api.post(olga, f"{url}entrants/", {"player": "olga"}, expect=403)
    api.post(staff, f"{url}seed/", {"method": "hand", "order": ["e1", "e2"]}, expect=400)
    api.post(staff, f"{url}seed/", {"method": "hand", "order": ["e1", "e2", "e3", "e4"],
                                    "expected_seq": 0}, expect=409)
    api.post(staff, f"{url}seed/", {"method": "hand", "order": ["e1", "e3", "e2", "e4"]},
             expect=200)
    api.post(staff, f"{url}seed/", {"method": "rating"}, expect=200)
    api.get(alice, url)
    api.post(staff, f"{url}start/", {}, expect=200)
    api.get(alice, url)
    bracket = api.get(alice, f"{url}bracket/").json()
    api.get(alice, f"{url}standings/")
    api.get(alice, f"{url}records/")
    live = [p for p in bracket if p["match"] and p["match_status"] == "active"]
    for p in live[:1]:
        keys = [s["entrant"] for s in p["slots"]]
        api.get(alice, f"/api/matches/{p['match']}/")
        api.post(alice, f"/api/matches/{p['match']}/resign/", {}, expect=409)  # event_match
        api.post(staff, f"{url}seat-to-bot/", {"pairing": p["pairing"], "entrant": keys[0],
                                               "bot": "random"}, expect=200)
    for p in live[1:2]:
        keys = [s["entrant"] for s in p["slots"]]
        api.post(staff, f"{url}forfeit/", {"pairing": p["pairing"], "entrant": keys[0]},
                 expect=200)
        api.post(staff, f"{url}forfeit/", {"pairing": p["pairing"], "entrant": keys[0]},
                 expect=409)
    api.post(staff, f"{url}forfeit/", {"pairing": "nope", "entrant": "e1"}, expect={400, 404})
    api.post(staff, f"{url}seat-to-bot/", {"pairing": "nope", "entrant": "e1"},
             expect={400, 404})
    for tail in ("", "bracket/", "standings/", "records/"):
        api.get(olga, f"{url}{tail}")
    api.post(staff, f"{url}entrants/e3/withdraw/", {}, expect=200)
    api.post(staff, f"{url}entrants/e99/withdraw/", {}, expect=404)
    api.get(olga, f"{url}bracket/")

    # -- a Swiss that holds its rounds: pairings by hand, a release.
    sw = api.post(staff, "/api/events/", {**base, "name": "Swiss", "format": "swiss",
                                          "format_options": {"rounds": 3},
                                          "hold_rounds": True}, expect=201).json()
    url = f"/api/events/{sw['id']}/"
    for bot in ["random", "heuristic", "random", "heuristic"]:
        api.post(staff, f"{url}entrants/", {"bot": bot}, expect=201)
    api.post(staff, f"{url}start/", {}, expect=200)
    api.post(staff, f"{url}pairings/", {"pairings": [["e1", "e2"], ["e3", "e4"]]},
             expect={200, 409})
    api.post(staff, f"{url}pairings/", {"pairings": [["e1", "e9"]]}, expect={400, 409})
    api.post(staff, f"{url}release/", {}, expect={200, 409})
    api.post(staff, f"{url}release/", {}, expect={200, 409})
    for tail in ("", "bracket/", "standings/", "records/"):
        api.get(olga, f"{url}{tail}")
    exercise_open_entry(api, c, base)

    # -- more formats, bots only (each plays out when it starts).
    for fmt, game, n, options in [
            ("double_elimination", "super_showdown", 4, {}),
            ("multistage", "super_showdown", 4, {"groups": 2, "playoff_size": 2})]:
        made = api.post(staff, "/api/events/", {"game": game, "name": fmt, "format": fmt,
                                                "format_options": options},
                        expect=201)
        if made.status_code != 201:
            continue
        url = f"/api/events/{made.json()['id']}/"
        for i in range(n):
            api.post(staff, f"{url}entrants/", {"bot": "random", "name": f"R{i}"}, expect=201)
        api.post(staff, f"{url}start/", {}, expect=200)
        for tail in ("", "bracket/", "standings/", "records/"):
            api.get(olga, f"{url}{tail}")
    # Heats of a game of three that hold their rounds: a withdrawal leaves the final with
    # two, which is settled by seed, with no match.
    url = a_held_finalist_withdrawn(api, staff, olga, {
        "game": "ultimate_showdown", "name": "Heats", "format": "heats",
        "format_options": {"pod_size": 3, "min_pod_size": 3, "advance": 1}}, "random", 9)
    api.post(staff, f"{url}release/", {}, expect={200, 409})
    for tail in ("", "bracket/", "standings/", "records/"):
        api.get(olga, f"{url}{tail}")
    # A knockout that holds its rounds: a finalist withdraws, the other has a walkover.
    url = a_held_finalist_withdrawn(api, staff, olga, {
        "game": "super_showdown", "name": "Held cup", "format": "single_elimination"},
        "heuristic", 4)
    for tail in ("", "bracket/", "standings/", "records/"):
        api.get(olga, f"{url}{tail}")
    # A knockout whose matches end level at a short round limit: drawn, played again
    # ("replay 1"...), and after the last replay decided by seed.
    drawn = api.post(staff, "/api/events/", {
        "game": "royal_rumble", "name": "Draws", "format": "single_elimination",
        "match_options": {"round_limit": 1}}, expect=201).json()
    url = f"/api/events/{drawn['id']}/"
    for i in range(4):
        api.post(staff, f"{url}entrants/", {"bot": "random", "name": f"D{i}"}, expect=201)
    api.post(staff, f"{url}start/", {}, expect=200)
    for tail in ("", "bracket/", "standings/", "records/"):
        api.get(olga, f"{url}{tail}")
    api.post(staff, "/api/events/", {"game": "super_showdown", "name": "x",
                                     "format": "nope"}, expect=400)
    api.post(olga, "/api/events/", {"game": "super_showdown", "name": "x",
                                    "format": "round_robin"}, expect=403)
    api.post(staff, "/api/events/", {"game": "super_showdown", "name": "x",
                                     "format": "round_robin", "season": 999999}, expect=400)

    # -- The Supershow with picks (a Competitor the entrant brings).
    ss = api.post(staff, "/api/events/", {"game": "supershow", "name": "Picks",
                                          "format": "round_robin"}, expect=201).json()
    url = f"/api/events/{ss['id']}/"
    entrant = api.post(staff, f"{url}entrants/", {
        "player": "alice", "picks": {"competitors": "velvet_vendetta"}}, expect=201).json()
    blues = api.post(staff, f"{url}entrants/", {"team": "Blues"}, expect=201).json()["key"]
    api.post(staff, f"{url}entrants/", {"bot": "random"}, expect=201)
    key = entrant["key"]
    api.post(staff, f"{url}entrants/{blues}/player/", {"player": "olga"}, expect=200)
    api.post(staff, f"{url}entrants/{blues}/player/", {"player": "alice"},
             expect=400)  # not_a_member
    api.post(staff, f"{url}entrants/{key}/player/", {"player": "alice"},
             expect=409)  # not_a_team
    api.post(olga, f"{url}entrants/{blues}/player/", {"player": "olga"},
             expect=403)  # a member, not its owner
    api.post(staff, f"{url}entrants/e99/player/", {"player": "olga"}, expect=404)
    api.post(alice, f"{url}entrants/{key}/picks/", {"picks": {"competitors": "kid_kaboom"}},
             expect=200)
    api.post(alice, f"{url}entrants/{key}/picks/", {"picks": {"competitors": "nobody"}},
             expect=400)
    api.post(olga, f"{url}entrants/{key}/picks/", {"picks": {}}, expect=403)
    api.post(alice, f"{url}entrants/e99/picks/", {"picks": {}}, expect=404)
    api.post(alice, f"{url}entrants/{key}/picks/", {"picks": None}, expect=200)
    api.get(bruno, url)
    api.get(alice, f"{url}records/")
    # A constructed deck brought by an entrant: "hidden" to all but its people.
    from engine.games.supershow.cards import CATALOG

    def deck(owner: str, donor: str) -> list[str]:
        own, lent = CATALOG.competitors[owner], CATALOG.competitors[donor]
        return [card.key for card in lent.deck[:27]] + [card.key for card in own.deck[27:]]

    decked = api.post(staff, "/api/events/", {"game": "supershow", "name": "Decks",
                                              "format": "round_robin"}, expect=201).json()
    url = f"/api/events/{decked['id']}/"
    api.post(staff, f"{url}entrants/", {"player": "alice"}, expect=201)
    api.post(alice, f"{url}entrants/e1/picks/", {"picks": {
        "competitors": "velvet_vendetta", "decks": deck("velvet_vendetta", "kid_kaboom")}},
        expect=200)
    api.post(staff, f"{url}entrants/", {"bot": "random"}, expect=201)
    api.post(staff, f"{url}start/", {}, expect=200)
    for who in (alice, bruno, staff):
        for tail in ("", "bracket/", "records/", "standings/"):
            api.get(who, f"{url}{tail}")
    bracket = api.get(alice, f"{url}bracket/").json()
    for p in bracket[:1]:
        if p["match"]:
            api.get(bruno, f"/api/matches/{p['match']}/")
            api.get(bruno, f"/api/matches/{p['match']}/state/")
            api.get(bruno, f"/api/matches/{p['match']}/events/")
            api.get(alice, f"/api/matches/{p['match']}/state/", {"seat": 0})
    # An Event whose own options deal the decks (secret match options).
    dealt = api.post(staff, "/api/events/", {
        "game": "supershow", "name": "Dealt decks", "format": "round_robin",
        "match_options": {"competitors": ["ox_valdane", "mira_quickstep"],
                          "decks": [deck("ox_valdane", "mira_quickstep"), None]}},
        expect=201).json()
    api.get(bruno, f"/api/events/{dealt['id']}/")
    api.get(staff, f"/api/events/{dealt['id']}/")
    api.get(bruno, "/api/events/", {"game": "supershow"})
    # A match of people with a secret deck option, read by each seat and a spectator.
    secret = api.post(alice, "/api/matches/", {"game": "supershow", "options": {
        "competitors": ["ox_valdane", "mira_quickstep"],
        "decks": [deck("ox_valdane", "mira_quickstep"), None]},
        "seats": [{"player": "alice"}, {"bot": "random"}]}, expect=201).json()
    api.get(bruno, f"/api/matches/{secret['id']}/")
    api.get(bruno, "/api/matches/", {"game": "supershow"})

    # -- Superstar Showdown Events: a preset between two bots (played out), a composed
    #    one between a team and a bot (running), one without sides (a draft).
    show = api.post(staff, "/api/events/showdown/", {
        "preset": "full_card", "sides": [{"bot": "random"}, {"bot": "random"}],
        "match_options": {"round_limit": 6}}, expect=201).json()
    url = f"/api/events/{show['id']}/"
    for tail in ("", "bracket/", "standings/", "records/", "ranking-points/"):
        api.get(olga, f"{url}{tail}")
    composed = api.post(staff, "/api/events/showdown/", {
        "name": "Composed", "matches": [{"match": None, "stipulation": None},
                                        {"match": None, "stipulation": None}],
        "superstars_per_team": 2, "sides": [{"team": "Reds"}, {"bot": "random"}]},
        expect=201).json()
    api.get(alice, f"/api/events/{composed['id']}/ranking-points/")
    api.get(alice, f"/api/events/{composed['id']}/bracket/")
    card = {"preset": "full_card", "idempotency_key": "card-1"}
    made = api.post(staff, "/api/events/showdown/", card, expect=201).json()
    assert api.post(staff, "/api/events/showdown/", card, expect=201).json()["id"] == made["id"]
    api.post(staff, "/api/events/showdown/", {**card, "idempotency_key": "bots-night"},
             expect=409)  # key_reused: the key made a Super Showdown Event
    api.post(staff, "/api/events/showdown/", {"preset": "nope"}, expect=400)
    api.post(staff, "/api/events/showdown/", {"preset": "full_card", "matches": [{}]},
             expect=400)
    api.post(staff, "/api/events/showdown/", {"preset": "full_card", "sides": [None]},
             expect=400)
    api.post(staff, "/api/events/showdown/", {"preset": "full_card", "season": 999999},
             expect={400, 404})
    api.post(olga, "/api/events/showdown/", {"preset": "full_card"}, expect=403)

    # -- lists and their filters
    api.get(olga, "/api/events/")
    api.get(olga, "/api/events/", {"season": sid, "status": "finished"})
    api.get(olga, "/api/events/", {"game": "supershow", "status": "draft"})
    api.get(olga, "/api/events/", {"status": "bogus"}, expect=400)
    api.get(olga, "/api/events/", {"season": "x"}, expect=400)
    api.get(olga, "/api/events/", {"page": 50}, expect=404)
    api.get(olga, "/api/events/999999/", expect=404)
    for tail in ("bracket/", "standings/", "records/", "ranking-points/"):
        api.get(olga, f"/api/events/999999/{tail}", expect=404)
    api.post(staff, "/api/events/999999/start/", {}, expect=404)


def exercise_open_entry(api: Conformance, c: dict[str, APIClient],
                        base: dict[str, Any]) -> None:
    """Players enter an Event with open entry themselves and leave it; an organizer
    closes entry, and opens it again."""
    alice, bruno, olga, staff, anon = c["alice"], c["bruno"], c["olga"], c["staff"], c["anon"]
    made = api.post(staff, "/api/events/", {**base, "name": "Open night", "format": "swiss",
                                            "open_entry": True}, expect=201).json()
    url = f"/api/events/{made['id']}/"
    api.get(alice, "/api/events/", {"open_entry": True})
    api.get(alice, "/api/events/", {"open_entry": "maybe"}, expect=400)
    api.post(alice, f"{url}enter/", {}, expect=201)
    api.post(alice, f"{url}enter/", {}, expect=409)  # entrant_twice
    api.post(bruno, f"{url}enter/", {"picks": {"competitors": "x"}}, expect=400)  # no_picks
    api.post(bruno, f"{url}enter/", {"expected_seq": 0}, expect=409)  # stale_seq
    api.post(anon, f"{url}enter/", {}, expect=401)
    api.post(olga, "/api/events/999999/enter/", {}, expect=404)
    api.post(bruno, f"{url}leave/", {}, expect=404)  # not_entered
    api.post(anon, f"{url}leave/", {}, expect=401)
    api.post(bruno, f"{url}leave/", {"expected_seq": "x"}, expect=400)
    api.post(alice, f"{url}leave/", {}, expect=200)
    api.post(alice, f"{url}open-entry/", {"open_entry": False}, expect=403)
    api.post(anon, f"{url}open-entry/", {"open_entry": False}, expect=401)
    api.post(staff, f"{url}open-entry/", {}, expect=400)
    api.post(staff, "/api/events/999999/open-entry/", {"open_entry": False}, expect=404)
    api.post(staff, f"{url}open-entry/", {"open_entry": False}, expect=200)
    api.post(staff, f"{url}details/", {"starts_at": "2037-12-10T19:30:00+01:00",
                                       "notes": "Back room."}, expect=200)
    api.post(staff, f"{url}details/", {"notes": "x" * 1001}, expect=400)
    api.post(alice, f"{url}details/", {"notes": "Mine."}, expect=403)
    api.post(staff, f"{url}details/", {"notes": "Front room.", "expected_seq": 0}, expect=409)
    api.post(staff, f"{url}settings/", {"format_options": {"rounds": 2},
                                        "match_options": {}, "turn_deadline_minutes": 30,
                                        "deadline_policy": "forfeit"}, expect=200)
    api.post(staff, f"{url}settings/", {"turn_deadline_minutes": 0}, expect=400)
    api.post(staff, f"{url}settings/", {"format_options": None, "match_options": None,
                                        "turn_deadline_minutes": None}, expect=200)
    api.post(staff, f"{url}settings/", {"format": 3}, expect=400)
    api.post(alice, f"{url}settings/", {"format": "swiss"}, expect=403)
    api.post(anon, f"{url}settings/", {"format": "swiss"}, expect=401)
    api.post(staff, "/api/events/999999/settings/", {}, expect=404)
    api.post(staff, f"{url}settings/", {"format": "swiss", "expected_seq": 0}, expect=409)
    api.post(bruno, f"{url}enter/", {}, expect=409)  # entry_closed
    api.post(staff, f"{url}open-entry/", {"open_entry": True, "expected_seq": 0},
             expect=409)  # stale_seq
    api.post(staff, f"{url}open-entry/", {"open_entry": True}, expect=200)
    api.post(bruno, f"{url}enter/", {}, expect=201)
    api.get(olga, url)
    api.get(olga, f"{url}records/")


def a_held_finalist_withdrawn(api: Conformance, staff: APIClient, olga: APIClient,
                              body: dict[str, Any], bot: str, n: int) -> str:
    """An Event of `n` bots that holds its rounds, started, the first entrant of its held
    round withdrawn; its URL."""
    made = api.post(staff, "/api/events/", {**body, "hold_rounds": True}, expect=201).json()
    url = f"/api/events/{made['id']}/"
    for i in range(n):
        api.post(staff, f"{url}entrants/", {"bot": bot, "name": f"{bot[0].upper()}{i}"},
                 expect=201)
    api.post(staff, f"{url}start/", {}, expect=200)
    held = [p for p in api.get(olga, f"{url}bracket/").json() if p["held"]]
    finalists = [s["entrant"] for p in held for s in p["slots"] if s["entrant"]]
    if finalists:
        api.post(staff, f"{url}entrants/{finalists[0]}/withdraw/", {}, expect=200)
    return url


def exercise_players(api: Conformance, c: dict[str, APIClient]) -> None:
    alice, olga = c["alice"], c["olga"]
    players = api.get(olga, "/api/players/").json()["results"]
    api.get(olga, "/api/players/", {"search": "ali"})
    api.get(olga, "/api/players/", {"page": 50}, expect=404)
    api.get(olga, "/api/players/999999/", expect=404)
    for row in players:
        pid = row["id"]
        api.get(olga, f"/api/players/{pid}/")
        api.get(olga, f"/api/players/{pid}/matches/")
        api.get(olga, f"/api/players/{pid}/ratings/")
        api.get(olga, f"/api/players/{pid}/ratings/history/")
    alice_id = next(p["id"] for p in players if p["username"] == "alice")
    url = f"/api/players/{alice_id}/"
    api.get(alice, f"{url}matches/", {"game": "super_showdown", "result": "loss"})
    api.get(alice, f"{url}matches/", {"opponent": "bruno", "result": "win"})
    api.get(alice, f"{url}matches/", {"season": 1})
    api.get(alice, f"{url}matches/", {"result": "bogus"}, expect=400)
    api.get(alice, f"{url}matches/", {"season": 0}, expect=400)
    api.get(alice, f"{url}ratings/history/", {"game": "super_showdown"})
    api.get(alice, "/api/players/999999/matches/", expect=404)
    api.get(alice, "/api/players/999999/ratings/", expect=404)
    api.get(alice, "/api/players/999999/ratings/history/", expect=404)
    # A player's data with something in it (the account closed in exercise_auth had
    # none): alice's matches, ratings and entries, olga's entry in a team and her teams.
    for who in (alice, olga):
        data = api.get(who, "/api/auth/me/data/").json()
        assert data["entries"] and (data["matches"] or data["teams"]), data
    # ratings tables
    api.get(olga, "/api/ratings/")
    api.get(olga, "/api/ratings/", {"game": "super_showdown", "search": "ali"})
    api.get(olga, "/api/ratings/", {"game": "chess"}, expect=400)
    api.get(olga, "/api/ratings/", {"page": 999}, expect=404)
    # scores by round
    api.get(olga, "/api/round-scores/")
    api.get(olga, "/api/round-scores/", {"game": "ultimate_showdown"})
    api.get(olga, "/api/round-scores/", {"match": 1, "player": alice_id})
    api.get(olga, "/api/round-scores/", {"match": "x"}, expect=400)
    api.get(olga, "/api/round-scores/", {"page": 999}, expect=404)


def exercise_simulations(api: Conformance, c: dict[str, APIClient]) -> None:
    staff, olga, alice = c["staff"], c["olga"], c["alice"]
    first = {"game": "super_showdown", "bots": ["random", "heuristic"], "matches": 4,
             "logs": True, "chunk": 2, "seed": 7, "idempotency_key": "logged-1"}
    job = api.post(staff, "/api/simulations/", first, expect=201).json()
    assert api.post(staff, "/api/simulations/", first, expect=201).json()["id"] == job["id"]
    api.post(staff, "/api/simulations/", {**first, "bots": ["random", "random"]},
             expect=409)  # key_reused
    balance = api.post(staff, "/api/simulations/", {
        "game": "royal_rumble", "bots": ["random", "random", "random"], "matches": 3,
        "balance": True}, expect=201).json()
    plain = api.post(staff, "/api/simulations/", {
        "game": "ultimate_showdown", "bots": ["random"] * 3, "matches": 2}, expect=201).json()
    api.post(staff, "/api/simulations/", {"game": "nope", "bots": ["random"], "matches": 1},
             expect=400)
    api.post(staff, "/api/simulations/", {"game": "super_showdown", "bots": ["random"],
                                          "matches": 1}, expect=400)
    api.post(olga, "/api/simulations/", {"game": "super_showdown",
                                         "bots": ["random", "random"], "matches": 1},
             expect=403)
    api.get(staff, "/api/simulations/")
    api.get(olga, "/api/simulations/", expect=403)
    api.get(staff, "/api/simulations/", {"page": 99}, expect=404)
    for made in (job, balance, plain):
        jid = made["id"]
        api.get(staff, f"/api/simulations/{jid}/")
        api.get(staff, f"/api/simulations/{jid}/progress/")
    api.get(olga, f"/api/simulations/{job['id']}/", expect=403)
    api.get(staff, "/api/simulations/999999/", expect=404)
    api.get(staff, "/api/simulations/999999/progress/", expect=404)
    api.get(staff, f"/api/simulations/{job['id']}/logs/")
    api.get(staff, f"/api/simulations/{job['id']}/logs/", HTTP_ACCEPT="application/x-ndjson")
    api.get(staff, f"/api/simulations/{plain['id']}/logs/", expect=404)
    api.get(staff, f"/api/simulations/{plain['id']}/logs/", expect=404,
            HTTP_ACCEPT="application/x-ndjson")
    api.post(staff, f"/api/simulations/{job['id']}/cancel/", expect=409)
    api.post(staff, f"/api/simulations/{job['id']}/resume/", expect={200, 409})
    api.post(staff, "/api/simulations/999999/cancel/", expect=404)
    api.post(staff, "/api/simulations/999999/resume/", expect=404)
    # Jobs still queued (no worker took their chunks): read, resumed, cancelled.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("league.simulation.enqueue", lambda *args: None)
        queued = [api.post(staff, "/api/simulations/", {
            "game": game, "bots": ["random"] * n, "matches": 1000, "balance": balance},
            expect=201).json() for game, n, balance in [
                ("super_showdown", 2, False), ("supershow", 2, True),
                ("ultimate_showdown", 3, True)]]
        api.get(staff, "/api/simulations/")
        for made in queued:
            api.get(staff, f"/api/simulations/{made['id']}/")
            api.get(staff, f"/api/simulations/{made['id']}/progress/")
            api.get(staff, f"/api/simulations/{made['id']}/logs/", expect=404)
        api.post(staff, f"/api/simulations/{queued[0]['id']}/resume/", expect=200)
        api.post(staff, f"/api/simulations/{queued[0]['id']}/cancel/", expect=200)
        api.post(staff, f"/api/simulations/{queued[0]['id']}/resume/", expect=409)
        api.post(staff, f"/api/simulations/{queued[0]['id']}/cancel/", expect=409)
        api.post(alice, f"/api/simulations/{queued[1]['id']}/cancel/", expect=403)
        api.get(staff, f"/api/simulations/{queued[0]['id']}/")
        api.get(staff, f"/api/simulations/{queued[0]['id']}/progress/")
    api.get(alice, "/api/simulations/", expect=403)


def exercise_generic_errors(api: Conformance, c: dict[str, APIClient],
                            users: dict[str, Any]) -> None:
    """What any operation of its kind may answer: 401, 413, 415, an unreadable body, an
    id past any row, a signed-in browser session without its CSRF token."""
    staff, anon, alice = c["staff"], c["anon"], c["alice"]
    huge = "99999999999999999999"  # digits, as the path pattern takes, past a 64-bit id
    for method, template in [(m, t) for m, t, _, _ in api.routes if "{id}" in t]:
        url = template.replace("{id}", huge).replace("{key}", "e1")
        params = {"at": 1} if template.endswith("/replay/") else None
        api.call(staff, method, url, {} if method == "post" else params, expect=404)
    # A browser session (cookieAuth) that posts without the CSRF token.
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(users["alice"])
    match = api.post(alice, "/api/matches/", {"game": "royal_rumble", "seats": [
        {"player": "alice"}, {"open": True}]}, expect=201).json()
    api.post(browser, "/api/matches/", {"game": "super_showdown", "seats": [
        {"player": "alice"}, {"bot": "random"}]}, expect=403)
    api.post(browser, f"/api/matches/{match['id']}/join/", expect=403)
    api.post(browser, f"/api/matches/{match['id']}/resign/", {}, expect=403)
    # Numbers the schema lets through (no maximum documented) but past any stored one.
    big = 2**63
    mid = match["id"]
    api.get(alice, f"/api/matches/{mid}/events/", {"after": big}, expect={200, 400})
    api.get(alice, f"/api/matches/{mid}/replay/", {"at": big}, expect=400)
    api.get(alice, f"/api/matches/{mid}/state/", {"seat": big}, expect={400, 403})
    api.post(alice, f"/api/matches/{mid}/resign/", {"seat": big}, expect={400, 403})
    api.post(alice, f"/api/matches/{mid}/actions/", {"seat": big, "action": {},
                                                     "expected_seq": big}, expect={400, 409})
    api.post(staff, "/api/events/", {"game": "super_showdown", "name": "Big",
                                     "format": "round_robin", "turn_deadline_minutes": big},
             expect=400)
    api.post(staff, "/api/simulations/", {"game": "super_showdown", "bots": ["random"] * 2,
                                          "matches": big, "seed": big, "chunk": big},
             expect=400)
    api.post(staff, "/api/events/1/start/", {"expected_seq": big}, expect=400)
    for method, url in [("get", "/api/events/"), ("get", "/api/players/"),
                        ("get", "/api/seasons/1/"), ("post", "/api/teams/"),
                        ("get", "/api/simulations/"), ("post", "/api/matches/1/join/")]:
        api.call(anon, method, url, expect=401)
    for url in ["/api/matches/", "/api/events/", "/api/teams/", "/api/seasons/"]:
        response = staff.generic("POST", url, "<x/>", content_type="application/xml")
        api.check("post", url, response, "<x/>")
        response = staff.generic("POST", url, "{not json", content_type="application/json")
        api.check("post", url, response, "{not json")
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=100):
        response = staff.generic("POST", "/api/teams/", json.dumps(
            {"name": "x" * 200, "members": ["alice"]}), content_type="application/json")
        api.check("post", "/api/teams/", response, "(a body over the limit)")


def exercise_documented_nulls(api: Conformance, c: dict[str, APIClient]) -> None:
    """Bodies with every field the request schema documents as nullable sent as null, as a
    generated client sends a field it leaves unset: each is a request the schema allows."""
    alice, staff = c["alice"], c["staff"]
    made = api.post(alice, "/api/matches/", {
        "game": "super_showdown", "options": None, "idempotency_key": None,
        "seats": [{"player": "alice"}, {"bot": "random"}]}, expect=201).json()
    state = state_of(api, alice, made["id"], 0)
    if state["legal_actions"]:
        api.post(alice, f"/api/matches/{made['id']}/actions/", {
            "seat": 0, "action": state["legal_actions"][0], "expected_seq": None,
            "idempotency_key": None}, expect=201)
    api.post(alice, f"/api/matches/{made['id']}/resign/", {"seat": None}, expect=200)
    season = api.post(staff, "/api/seasons/", {
        "name": "Nulls", "game": "royal_rumble", "starts_on": None, "ends_on": None,
        "scoring": None}, expect=201).json()
    event = api.post(staff, "/api/events/", {
        "name": "Nulls", "game": "royal_rumble", "format": "single_elimination",
        "season": season.get("id"), "turn_deadline_minutes": None}, expect=201).json()
    url = f"/api/events/{event.get('id')}/"
    for who in ({"player": "alice"}, {"player": "bruno"}, {"bot": "random"},
                {"bot": "heuristic"}):
        api.post(staff, f"{url}entrants/", {"player": None, "team": None, "bot": None,
                                            "name": None, "picks": None,
                                            "expected_seq": None, **who}, expect=201)
    api.post(staff, f"{url}seed/", {"method": "random", "order": None, "expected_seq": None},
             expect=200)
    api.post(staff, f"{url}start/", {"expected_seq": None}, expect=200)
    bracket = api.get(staff, f"{url}bracket/").json()
    people = [(p, s["entrant"]) for p in bracket if p["match_status"] == "active"
              for s in p["slots"] if s["name"] in ("alice", "bruno")]
    for p, key in people[:1]:
        api.post(staff, f"{url}seat-to-bot/", {"pairing": p["pairing"], "entrant": key,
                                               "bot": None, "expected_seq": None},
                 expect=200)
    api.post(staff, f"{url}release/", {"expected_seq": None}, expect=409)
    api.post(staff, "/api/events/showdown/", {
        "preset": "full_card", "season": None, "sides": None, "matches": None,
        "superstars_per_team": None, "turn_deadline_minutes": None}, expect=201)
    api.post(staff, "/api/simulations/", {"game": "royal_rumble", "bots": ["random"] * 2,
                                          "matches": 1, "chunk": None, "seed": None},
             expect=201)
    # Bodies a schema marks optional, left out.
    for tail in ("start/", "release/", "entrants/e1/withdraw/"):
        api.post(staff, f"{url}{tail}", expect={200, 409})
    api.post(staff, "/api/events/showdown/", expect=400)


def exercise_every_operation_generically(api: Conformance, c: dict[str, APIClient]) -> None:
    """Every operation of the schema, on a real object of its path, asked as nobody, with a
    token that is not valid, by an outsider, and (with a body) with bodies the parsers
    refuse: a form body where JSON is wanted, malformed JSON, a body over the size limit."""
    from league.models import Event, Season, SimulationJob, Team
    from league.models import Player as LeaguePlayer
    from matches.models import Match

    ids = {"matches": Match.objects.filter(status="active").order_by("-id").first(),
           "events": Event.objects.filter(status="running").order_by("-id").first(),
           "seasons": Season.objects.order_by("-id").first(),
           "teams": Team.objects.order_by("-id").first(),
           "players": LeaguePlayer.objects.order_by("-id").first(),
           "simulations": SimulationJob.objects.filter(logs=True).order_by("-id").first()}
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    for method, template, _, operation in api.routes:
        collection = template.split("/")[2]
        row = ids.get(collection)
        url = template.replace("{id}", str(row.pk if row else 1)).replace("{key}", "e1")
        params = {"at": 1} if template.endswith("/replay/") else None
        open_to_all = {} in operation.get("security", [{}])
        for who in (c["anon"], bad):
            if method == "get":
                api.get(who, url, params, expect=None if open_to_all else 401)
            else:
                api.call(who, method, url, {}, expect=None if open_to_all else 401)
        if method == "get":
            api.get(c["olga"], url, params, expect=None)
            if "Paginated" in json.dumps(operation["responses"].get("200", {})):
                api.get(c["olga"], url, {"page": 9999}, expect={403, 404})
            continue
        if method != "delete":  # the one delete revokes the caller's token (exercise_auth)
            api.call(c["olga"], method, url, {}, expect=None)
        if "requestBody" not in operation:
            continue
        client = c["staff"]
        verb = method.upper()
        for content, body in [("text/plain", "hello"), ("application/json", "{not json")]:
            response = client.generic(verb, url, body, content_type=content)
            api.check(method, url, response, f"({content}) {body}")
            if response.status_code not in (400, 403, 415):
                api.drift.append(f"{verb} {url} {content}: got {response.status_code}")
        with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=64):
            response = client.generic(verb, url, json.dumps({"padding": "x" * 200}),
                                      content_type="application/json")
            api.check(method, url, response, "(a body over the size limit)")


def exercise_shapes_seen_filled(api: Conformance, c: dict[str, APIClient]) -> None:
    """Fields the other scenarios only ever saw null or empty, filled: a live Event
    match's turn deadline, a result with the seats a forfeit put out while the others
    played on, a season with an end and a team in its table, scores by round of a
    person's seat, a simulation with options, and a list's second page."""
    alice, bruno, olga, staff = c["alice"], c["bruno"], c["olga"], c["staff"]
    # A running Event's match waiting for people: its state carries the turn deadline.
    season = api.post(staff, "/api/seasons/", {
        "name": "Winter", "game": "super_showdown", "starts_on": "2026-12-01",
        "ends_on": "2027-02-28"}, expect=201).json()
    timed = api.post(staff, "/api/events/", {
        "name": "Timed", "game": "super_showdown", "format": "round_robin",
        "season": season["id"], "turn_deadline_minutes": 30}, expect=201).json()
    url = f"/api/events/{timed['id']}/"
    api.post(staff, f"{url}entrants/", {"player": "alice"}, expect=201)
    api.post(staff, f"{url}entrants/", {"player": "bruno"}, expect=201)
    team = api.post(staff, "/api/teams/", {"name": "Winter Birds", "members": ["olga"]},
                    expect=201).json()
    api.post(staff, f"{url}entrants/", {"team": team["name"]}, expect=201)
    api.post(staff, f"{url}start/", {}, expect=200)
    for p in api.get(olga, f"{url}bracket/").json():
        if p["match"] and p["match_status"] == "active":
            for who in (alice, bruno, olga):
                api.get(who, f"/api/matches/{p['match']}/state/")
            entrant = p["slots"][0]["entrant"]
            api.post(staff, f"{url}forfeit/", {"pairing": p["pairing"], "entrant": entrant},
                     expect=200)
    api.get(olga, f"/api/seasons/{season['id']}/")
    api.get(olga, f"/api/seasons/{season['id']}/standings/")
    # A Royal Rumble of three: alice resigns after a move, out, and the bots play it out.
    rumble = api.post(alice, "/api/matches/", {"game": "royal_rumble", "seats": [
        {"player": "alice"}, {"bot": "random"}, {"bot": "random"}]}, expect=201).json()
    play_a_few(api, alice, rumble["id"], 0, 1)
    api.post(alice, f"/api/matches/{rumble['id']}/resign/", {}, expect=200)
    api.get(olga, f"/api/matches/{rumble['id']}/")
    api.get(olga, f"/api/matches/{rumble['id']}/state/")
    players = api.get(olga, "/api/players/", {"search": "alice"}).json()["results"]
    api.get(olga, f"/api/players/{players[0]['id']}/matches/", {"game": "royal_rumble"})
    # Ultimate Showdown with a person, played until a round is scored.
    ultimate = api.post(alice, "/api/matches/", {"game": "ultimate_showdown", "seats": [
        {"player": "alice"}, {"bot": "random"}, {"bot": "random"}]}, expect=201).json()
    play_a_few(api, alice, ultimate["id"], 0, 40)
    api.get(olga, "/api/round-scores/", {"match": ultimate["id"]})
    api.post(staff, "/api/simulations/", {"game": "royal_rumble", "bots": ["random"] * 2,
                                          "matches": 1, "options": {"round_limit": 5}},
             expect=201)
    api.get(staff, "/api/simulations/")
    if api.get(olga, "/api/matches/").json()["next"]:  # (a page's `previous` filled)
        api.get(olga, "/api/matches/", {"page": 2})


def exercise_rules_changed(api: Conformance, c: dict[str, APIClient], revise: Any) -> None:
    """Matches recorded under rules this site no longer replays (409 rules_changed)."""
    alice, olga = c["alice"], c["olga"]
    old = [m for m in api.get(alice, "/api/matches/", {
        "game": "super_showdown", "player": "alice"}).json()["results"]
           if any(seat["player"] == "alice" for seat in m["seats"])]
    revise("super_showdown")
    for match in old[:2]:
        mid = match["id"]
        api.get(olga, f"/api/matches/{mid}/")
        api.get(olga, f"/api/matches/{mid}/state/", expect=409)
        api.get(olga, f"/api/matches/{mid}/events/", expect=409)
        api.get(olga, f"/api/matches/{mid}/replay/", {"at": 1}, expect=409)
        seat = next(s["index"] for s in match["seats"] if s["player"] == "alice")
        api.post(alice, f"/api/matches/{mid}/actions/", {"seat": seat, "action": {}},
                 expect=409)
        api.post(alice, f"/api/matches/{mid}/resign/", {}, expect={200, 409})
    api.get(olga, "/api/matches/", {"game": "super_showdown"})
    players = api.get(olga, "/api/players/", {"search": "alice"}).json()["results"]
    api.get(olga, f"/api/players/{players[0]['id']}/matches/")


@pytest.mark.django_db(transaction=True)
def test_every_answer_is_the_one_the_schema_documents(
        api: Conformance, anon_api: APIClient, player_api: APIClient,
        player2_api: APIClient, outsider_api: APIClient, organizer_api: APIClient,
        player: Any, organizer: Any, revise_rules: Any) -> None:
    clients = {"anon": anon_api, "alice": player_api, "bruno": player2_api,
               "olga": outsider_api, "staff": organizer_api}
    users = {"alice": player, "staff": organizer}
    steps = [lambda: exercise_auth(api, APIClient()), lambda: exercise_games(api, anon_api),
             lambda: exercise_matches(api, clients), lambda: exercise_league(api, clients),
             lambda: exercise_players(api, clients),
             lambda: exercise_simulations(api, clients),
             lambda: exercise_generic_errors(api, clients, users),
             lambda: exercise_documented_nulls(api, clients),
             lambda: exercise_every_operation_generically(api, clients),
             lambda: exercise_shapes_seen_filled(api, clients),
             lambda: exercise_rules_changed(api, clients, revise_rules)]
    for step in steps:
        try:
            step()
        except Exception:  # a scenario that broke still leaves the others to run
            api.drift.append("a scenario step broke:\n" + traceback.format_exc(limit=3))
    print(api.report())
    print("\n".join(api.statuses()))
    assert not api.mismatches, api.report()
    assert not api.uncovered(), api.report()
    assert not [d for d in api.drift if "broke" in d], api.report()


def test_the_checker_catches_what_it_is_for(api: Conformance) -> None:
    """The checker itself: a wrong type, a null where none is allowed, a field missing,
    an undocumented field, an undocumented status and a documented header not sent are
    each a mismatch."""

    class Fake:
        def __init__(self, status: int, body: Any) -> None:
            self.status_code, self.content, self.streaming = status, json.dumps(body).encode(), \
                False

        def get(self, name: str) -> str | None:
            return {"Content-Type": "application/json", "ETag": '"1"'}.get(name)

    seat = {"index": 0, "player": None, "bot": "random", "invited": None,
            "stood_in_for": None, "label": "random", "awaited": False}
    api.check("post", "/api/matches/1/join/", Fake(200, seat), None)
    assert not api.mismatches
    api.check("post", "/api/matches/1/join/", Fake(200, {**seat, "index": "0"}), None)
    api.check("post", "/api/matches/1/join/", Fake(200, {**seat, "bot": None}), None)
    api.check("post", "/api/matches/1/join/", Fake(200, {**seat, "extra": 1}), None)
    api.check("post", "/api/matches/1/join/", Fake(200, {k: v for k, v in seat.items()
                                                         if k != "label"}), None)
    api.check("post", "/api/matches/1/join/", Fake(418, {"code": "x", "detail": "y"}), None)
    api.check("post", "/api/matches/1/join/", Fake(404, {"detail": "y"}), None)
    api.check("post", "/api/matches/1/join/", Fake(200, {**seat, "index": 0.0}), None)
    api.check("post", "/api/matches/1/actions/", Fake(201, {"seq": 3}), None)
    team = {"id": 1, "name": "Reds", "members": [], "created_by": None,
            "created_at": "2026-12-04T22:27:22.698557Z"}
    api.check("get", "/api/teams/1/", Fake(200, team), None)
    api.check("get", "/api/teams/1/", Fake(200, {**team, "created_at": "2026-12-04"}), None)
    api.check("post", "/api/teams/", Fake(201, team), None)  # no Location
    assert len(api.mismatches) == 9, api.report()


@pytest.mark.django_db
def test_the_schema_states_the_limits_of_names_and_notes(api: Conformance,
                                                         organizer_api: APIClient) -> None:
    """A blank name and notes past their length, which the views refuse by their own
    codes (bad_name, bad_notes), are what the schema forbids; and what it forbids, the
    views refuse."""
    schemas = api.schema["components"]["schemas"]
    for body in ("LeagueEventCreate", "SeasonCreate"):
        assert schemas[body]["properties"]["name"] | {"description": None} == {
            "type": "string", "minLength": 1, "maxLength": 100, "pattern": "\\S",
            "description": None}
    for body in ("LeagueEventCreate", "EventDetails"):
        assert schemas[body]["properties"]["notes"]["maxLength"] == NOTES_LENGTH
    event = {"name": "Night", "game": "super_showdown", "format": "round_robin"}
    for sent, code in [({"name": ""}, "bad_name"), ({"name": " \t"}, "bad_name"),
                       ({"notes": "x" * (NOTES_LENGTH + 1)}, "bad_notes")]:
        body = {**event, **sent}
        assert api.request_errors("post", "/api/events/", body, {}), body
        answer = organizer_api.post("/api/events/", body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (400, code)
    body = {**event, "notes": "x" * NOTES_LENGTH}
    assert not api.request_errors("post", "/api/events/", body, {})
    assert organizer_api.post("/api/events/", body, format="json").status_code == 201


@pytest.mark.django_db
def test_the_schema_states_the_limits_of_a_team_name(
        api: Conformance, organizer_api: APIClient, player: Any) -> None:
    """A team's name, as an Event's: 1-64 characters, not all blank; what the schema
    forbids, the view refuses (blank: bad_name, the service's), and what it allows, the
    view takes."""
    name = api.schema["components"]["schemas"]["TeamCreate"]["properties"]["name"]
    assert name | {"description": None} == {
        "type": "string", "minLength": 1, "maxLength": 64, "pattern": "\\S",
        "description": None}
    for sent, code in [("", "bad_name"), (" \t", "bad_name"), ("x" * 65, "invalid")]:
        body = {"name": sent, "members": ["alice"]}
        assert api.request_errors("post", "/api/teams/", body, {}), body
        answer = organizer_api.post("/api/teams/", body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (400, code)
    body = {"name": " " + "x" * 62 + " ", "members": ["alice"]}
    assert not api.request_errors("post", "/api/teams/", body, {})
    answer = organizer_api.post("/api/teams/", body, format="json")
    assert answer.status_code == 201, answer.content


# Display names the schema's pattern forbids: blank, or a control or an invisible
# character inside (a tab, a bell, a right-to-left override, a zero-width space).
HIDDEN_NAMES = [" ", "Ann\tLee", "Ann\u0007", "Ann\u202eeeL", "\u200bAnn", "Ann\u200b"]
# ...and some it allows: letters of any script, spaces at the ends (cut), emoji joined.
SHOWN_NAMES = ["Zoë Ray", "  Ann Lee  ", "\U0001F469\u200d\U0001F680 Ace", "Мира"]


@pytest.mark.django_db
def test_the_schema_states_the_pattern_of_a_display_name(
        api: Conformance, player_api: APIClient, anon_api: APIClient) -> None:
    """What the pattern forbids, renaming refuses (bad_display_name, the service's), and
    what it allows, renaming takes; a sign-up takes a blank one too (the username)."""
    schemas = api.schema["components"]["schemas"]
    for body in ("Account", "PatchedAccount"):
        assert "pattern" in schemas[body]["properties"]["display_name"], body
    for sent in HIDDEN_NAMES:
        body = {"display_name": sent}
        assert api.request_errors("patch", "/api/auth/me/", body, {}), body
        answer = player_api.patch("/api/auth/me/", body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_display_name"), sent
    for sent in SHOWN_NAMES:
        body = {"display_name": sent}
        assert not api.request_errors("patch", "/api/auth/me/", body, {}), body
        answer = player_api.patch("/api/auth/me/", body, format="json")
        assert answer.status_code == 200, (sent, answer.content)
        assert answer.json()["display_name"] == sent.strip()
    signup = {"username": "newcomer", "password": "a long enough passphrase 9"}
    for sent, status in [("Ann\u202eeeL", 400), ("  ", 201)]:
        body = {**signup, "display_name": sent}
        assert bool(api.request_errors("post", "/api/auth/register/", body, {})) \
            == (status == 400), body
        assert anon_api.post("/api/auth/register/", body, format="json").status_code == status
