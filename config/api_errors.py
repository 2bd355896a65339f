"""Every API error is `{code, detail}` so clients can branch on the code."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
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
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and "code" in data and "detail" in data:
        return response
    codes = getattr(exc, "get_codes", lambda: None)()
    if isinstance(data, dict) and set(data) == {"detail"}:
        code = codes.get("detail") if isinstance(codes, dict) else codes
        response.data = {"code": str(code or "error"), "detail": data["detail"]}
    else:
        response.data = {"code": "invalid", "detail": data}
    return response
