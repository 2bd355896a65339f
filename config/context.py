"""Template context shared by every page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, Any]:
    """Whether sign-up is open, for the navigation bar."""
    return {"SIGNUP_OPEN": settings.SIGNUP_OPEN}
