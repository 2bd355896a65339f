"""Every API read takes the query parameters its operation documents in the schema, and
`format`, and no other: one it does not take is 400 `unknown_parameter`, naming it,
where it was left unread. A list's filter misspelt (`?stauts=active`) answered the whole
list as if it had filtered it, and a single object's read (`/state/?seet=1`) answered as
if the parameter had been read.

An operation's parameters are those the schema gives it: its handler's
`@extend_schema(parameters=...)` (each serializer's fields and each query
OpenApiParameter) and, for a paginated list, its pages' (`page`, `page_size`). The
schema's own views (the schema and its docs) document themselves and are left alone.
Checked as the renderer is chosen (config.api_negotiation), for every view at once.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.settings import api_settings

from config.api_strict import UnknownParameter
from engine.protocol import quoted

READS = ("GET", "HEAD")


def _schema(request: Request, view: Any) -> Any:
    """The schema of the view's operation for `request`, as the schema's generator reads
    it: its handler's `@extend_schema` (drf-spectacular keeps it where DRF's @action keeps
    its own arguments), else the default."""
    # (imported here: it imports DRF's views, which read the negotiation's settings)
    from drf_spectacular.openapi import AutoSchema

    handler = getattr(view, getattr(view, "action", None) or request.method.lower(), None)
    documented = getattr(handler, "kwargs", {}).get("schema") or AutoSchema
    schema = documented()
    schema.view, schema.method, schema.path = view, "GET", request.path
    return schema


def taken(request: Request, view: Any) -> set[str]:
    """The query parameters the view's read takes: `format`, and those its operation
    documents."""
    schema = _schema(request, view)
    names = {api_settings.URL_FORMAT_OVERRIDE}
    for parameter in schema.get_override_parameters():
        if isinstance(parameter, OpenApiParameter):
            if parameter.location == OpenApiParameter.QUERY:
                names.add(parameter.name)
        else:
            serializer = parameter() if isinstance(parameter, type) else parameter
            names.update(name for name, field in serializer.fields.items()
                         if not field.read_only)
    names.update(parameter["name"] for parameter in schema._get_pagination_parameters())
    return {name for name in names if name}


def refuse_unknown(request: Request, view: Any) -> None:
    """UnknownParameter naming the query parameters the view's read does not take."""
    if request.method not in READS or view is None or not request.query_params \
            or type(view).__module__.startswith("drf_spectacular."):
        return
    known = taken(request, view)
    unknown = [name for name in request.query_params if name not in known]
    if unknown:
        schema = _schema(request, view)
        paginated = bool(schema._get_pagination_parameters())
        named = ", ".join(quoted(name) for name in unknown)
        raise UnknownParameter(f"This {'list' if paginated else 'read'} takes no parameter "
                               f"{named}: it takes {', '.join(sorted(known))}.")
