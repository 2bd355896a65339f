"""The Content-Security-Policy every answer carries (settings.CONTENT_SECURITY_POLICY).

The pages load scripts, styles, images and fonts from this site alone, send forms and
requests to it alone, embed no plugin and may not be framed (connect, image, form and
frame sources are this site's), and a `<base>` cannot redirect their relative links.

Scripts run from this site's files alone (script-src 'self'): no inline `<script>`, no
event-handler attribute (onsubmit=...), no `javascript:` URL, no eval or Function(): a
script injected into a page's markup does not run. Styles likewise come from this site's
files alone (style-src 'self'): no `<style>` element or style="" attribute applies, which
also keeps injected markup from restyling a page. What the pages did inline is in
static files instead:

- static/js/league.js asks a form's `data-confirm` question (the resign and withdraw
  forms) and holds the poll of a section marked `data-guard-edits` while a form in it is
  busy, on htmx:confirm, where a trigger filter ("every 2s [leagueIdle(this)]") made
  htmx eval code; static/js/play.js gives focus back after a swap of the play page.
- templates/base.html's htmx-config turns off htmx's eval, the scripts an answer would
  bring, and the `<style>` htmx would add (site.css has its indicator rules).
- Bars are `<progress>` and `<meter>` elements; the one size known only at run time (a
  bracket diagram's min-width, in data-min-width) is set by league.js as a style
  property, which the policy allows (it blocks style attributes in markup, not a
  script of the site's setting a style).
- The admin runs on Django's static scripts and data attributes. /api/docs/ serves its
  own script from a file (SpectacularSwaggerSplitView, templates/api/swagger_ui.html),
  and the browsable API's template leaves out its inline `<style>`
  (templates/rest_framework/api.html). Its page of a view with extra actions
  (/api/events/) still floats the "Extra Actions" menu right by a style attribute: the
  browser leaves that out (the menu sits left) and notes it in its console.

tests/markup.py finds what the policy would block; the tests run it on every template
and on the main pages. A view that needs another policy sets the header itself: the
middleware leaves an answer that carries one as it is. With DEBUG on, the error pages
Django draws itself (a traceback, a 404 listing the URL patterns) style and script
themselves inline: they go without the policy, which would leave them bare.
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
        if policy and HEADER not in response and not _debug_page(response):
            response[HEADER] = policy
        return response


def _debug_page(response: HttpResponse) -> bool:
    """Django's technical 404 or 500 page, which it answers in place of the site's with
    DEBUG on (never in production)."""
    return (settings.DEBUG and response.status_code in (404, 500)
            and response.get("Content-Type", "").startswith("text/html"))
