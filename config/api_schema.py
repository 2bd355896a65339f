"""OpenAPI post-processing: what every operation shares but no view states itself."""

from __future__ import annotations

from typing import Any

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
