"""Every API error is `{code, detail}` so clients can branch on the code: those a DRF view
raises (`exception_handler`), and those Django answers itself under `/api/` (a path that
resolves to nothing, a request it will not read, a crash: `handler400/404/500`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig, TooManyFieldsSent
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, with a `code` added to every error body."""
    # DRF turns Django's own exceptions into its own; read the codes from those.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response({"code": "too_large",
                         "detail": f"The request body is over {limit} bytes."}, status=413)
    elif isinstance(exc, TooManyFieldsSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        return Response({"code": "too_many_fields",
                         "detail": f"The request has over {limit} fields."}, status=400)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and "code" in data and "detail" in data:
        return response
    codes = getattr(exc, "get_codes", lambda: None)()
    if isinstance(data, dict) and set(data) == {"detail"}:
        code = codes.get("detail") if isinstance(codes, dict) else codes
        # The sentence as plain text: the schema's YAML renderer writes DRF's own message
        # type as an object, `{string, code}`, where JSON writes the sentence.
        response.data = {"code": str(code or "error"), "detail": str(data["detail"])}
    else:
        response.data = {"code": "invalid", "detail": data}
    return response


# -- errors Django answers before (or instead of) a DRF view ----------------------------

def _api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400 (a request Django refuses to read: too many fields, a bad host...)."""
    if _api(request):
        return JsonResponse({"code": "bad_request",
                             "detail": "The request could not be read."}, status=400)
    return defaults.bad_request(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 for a path nothing answers (e.g. `/api/matches/abc/`)."""
    if _api(request):
        return JsonResponse({"code": "not_found",
                             "detail": "No such API path; the schema is at /api/schema/."},
                            status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: the API's clients get the same {code, detail} shape as every other error."""
    if _api(request):
        return JsonResponse({"code": "server_error",
                             "detail": "Something went wrong on our side."}, status=500)
    return defaults.server_error(request)
