"""The Content-Security-Policy every answer carries (settings.CONTENT_SECURITY_POLICY).

The pages load scripts, styles, images and fonts from this site alone, send forms and
requests to it alone, embed no plugin and may not be framed. Inline scripts and styles
stay allowed: the play page and the forms' confirmations have some, and htmx evaluates
its trigger filters ("every 2s [leagueIdle(this)]"), hence 'unsafe-eval'. So the policy
does not stop an injected inline script from running; it stops it from loading more from
elsewhere or sending what it read away (connect, image, form and frame sources are this
site's), and a `<base>` from redirecting the page's relative links.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and HEADER not in response:
            response[HEADER] = policy
        return response
