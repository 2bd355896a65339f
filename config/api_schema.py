"""OpenAPI post-processing: what every operation shares but no view states itself."""

from __future__ import annotations

from typing import Any

from config.api_json import LARGEST_INT

ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}


def document_401(result: dict[str, Any], generator: Any, request: Any, public: bool
                 ) -> dict[str, Any]:
    """Every operation that needs a signed-in caller may answer 401 `not_authenticated`."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            security = operation.get("security") or []
            if security and {} not in security:
                operation["responses"].setdefault("401", {
                    "content": ERROR, "description": "Not signed in (not_authenticated)."})
    return result


def document_common_errors(result: dict[str, Any], generator: Any, request: Any,
                           public: bool) -> dict[str, Any]:
    """The answers any operation of its kind may give, where its view states none: 400 for
    a query string or body that cannot be read (or a `format` given twice; a read's, a
    parameter it does not take), 404 for a page past a list's last, 413 and 415 for a body
    too big or not JSON, 401 for a token that is not valid (where a token is read at all),
    403 for a session's write without its CSRF token, 406 for a format it does not answer
    in."""
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            responses = operation["responses"]
            security = operation.get("security") or []
            ok = responses.get("200", {}).get("content", {}).get("application/json", {})
            paginated = "Paginated" in str(ok.get("schema", {}).get("$ref", ""))
            queried = any(p.get("in") == "query" for p in operation.get("parameters", []))
            if queried or "requestBody" in operation:
                responses.setdefault("400", {
                    "content": ERROR,
                    "description": "A parameter or the body cannot be read (its code says "
                                   "which: invalid, its detail naming each bad field or "
                                   "query parameter; repeated_parameter for a parameter "
                                   "of one value given more than once; too_many_fields "
                                   "past 1,000 fields)."})
            responses.setdefault("400", {
                "content": ERROR,
                "description": "A `format` query parameter given more than once "
                               "(repeated_parameter)."})
            if method == "get":
                refused = responses["400"]
                refused["description"] = " ".join(filter(None, [
                    refused.get("description", ""), "A query parameter other than those "
                                                    "listed here and `format` "
                                                    "(unknown_parameter)."]))
            if paginated:
                past = responses.setdefault("404", {"content": ERROR, "description": ""})
                past["description"] = " ".join(filter(None, [
                    past["description"], "A page past the last (page_out_of_range)."]))
            responses.setdefault("406", {
                "content": ERROR,
                "description": "A `format` query parameter, or an Accept header, asking "
                               "for a format this operation does not answer in "
                               "(not_acceptable)."})
            if "requestBody" in operation:
                responses.setdefault("413", {
                    "content": ERROR, "description": "The body is too large (too_large)."})
                responses.setdefault("415", {
                    "content": ERROR,
                    "description": "The body is not JSON (unsupported_media_type)."})
            if any(security):
                responses.setdefault("401", {
                    "content": ERROR,
                    "description": "A token that is not valid (authentication_failed)."})
            if method in UNSAFE and {"cookieAuth": []} in security:
                forbidden = responses.setdefault("403", {"content": ERROR, "description": ""})
                forbidden["description"] = " ".join(filter(None, [
                    forbidden["description"], "A signed-in session's request without its "
                                              "CSRF token (permission_denied)."]))
    return result


UNSAFE = {"post", "put", "patch", "delete"}


def bound_integers(result: dict[str, Any], generator: Any, request: Any, public: bool
                   ) -> dict[str, Any]:
    """Every integer the API reads or writes is within 64 bits, as `api_json.loads` reads
    a body (past it: 400 parse_error): an integer schema states the bounds it lacks."""
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "integer":
                node.setdefault("maximum", LARGEST_INT)
                node.setdefault("minimum", -LARGEST_INT)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(result)
    return result


# The reads that carry no ETag (config.api_etags): one kept by no cache, and one streamed
# as it is read (a simulation's logs), whose bytes are not all there to digest.
NO_ETAG_READS = {"/api/auth/me/data/", "/api/simulations/{id}/logs/"}


def document_conditional_gets(result: dict[str, Any], generator: Any, request: Any,
                              public: bool) -> dict[str, Any]:
    """Every read answers with an ETag, and a request naming it in If-None-Match, while the
    answer is the same, is 304 with no body (config.api_etags), but NO_ETAG_READS."""
    for path, operations in result.get("paths", {}).items():
        operation = operations.get("get")
        if operation is None or path in NO_ETAG_READS:
            continue
        operation.setdefault("parameters", []).append({
            "in": "header", "name": "If-None-Match", "required": False,
            "schema": {"type": "string"},
            "description": "The ETag of the answer last read: 304 with no body while the "
                           "answer is still the same."})
        etag = {"schema": {"type": "string"}, "required": True,
                "description": "The version of this answer as its asker reads it (one "
                               "asker's ETag never matches another's)."}
        for status, response in operation["responses"].items():
            if status.startswith("2"):
                response.setdefault("headers", {})["ETag"] = etag
        operation["responses"]["304"] = {
            "description": "Not modified: the answer is still the one If-None-Match names.",
            "headers": {"ETag": etag}}
    return result
