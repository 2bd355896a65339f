"""A post the CSRF check refuses says why on the site's own page, and an htmx one reloads
the page it came from when that mends it.

The usual cause is a page older than the session's token: the player signed in again
(perhaps in another tab) since it was loaded, which gives the session a new one. htmx swaps
no 403, so a move posted from such a page did nothing and said nothing. Its answer now
reloads the page (`HX-Refresh`), which comes back with a fresh token and says, once, that
nothing was done; a plain form's answer is the 403 page with the same words. A post
refused for where it came from (its Origin or Referer: an address the site does not
trust, as a proxy or DJANGO_CSRF_TRUSTED_ORIGINS set wrong gives) is not mended by a
reload: its 403 page says so, with the check's reason.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import REASON_BAD_ORIGIN, REASON_NO_REFERER
from django.shortcuts import render

REFUSED = ("Nothing was done: the page was older than your sign-in (you signed in or out "
           "since, perhaps in another tab), or your browser sent no cookie. Reload the "
           "page and try again.")
RELOADED = ("Nothing was done: the page was older than your sign-in (you signed in or out "
            "since, perhaps in another tab). It is reloaded now: try again.")
ELSEWHERE = ("Nothing was done: the site does not take posts from the address this page "
             "was sent from ({reason}). Open the site at its own address; if that is where "
             "you are, tell its staff.")
# Where the post came from, as the check's reasons begin (django.middleware.csrf).
ADDRESS_REASONS = (REASON_BAD_ORIGIN.split(" - ")[0], REASON_NO_REFERER.split(" - ")[0])


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """settings.CSRF_FAILURE_VIEW."""
    if reason.startswith(ADDRESS_REASONS):
        return render(request, "403.html", {"exception": ELSEWHERE.format(reason=reason)},
                      status=403)
    if request.headers.get("HX-Request") == "true":
        messages.error(request, RELOADED)
        response = HttpResponse(status=403)
        response["HX-Refresh"] = "true"
        return response
    return render(request, "403.html", {"exception": REFUSED}, status=403)
