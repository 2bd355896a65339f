"""Top-level URLs: pages, the API under /api/, the schema and the admin."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.api_root import ApiRoot


def icon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which a browser asks for where a page names no icon (an answer of the
    API as JSON, the admin's pages): the site's own icon (not a permanent redirect: in
    production its name carries its content's hash)."""
    return redirect(static("favicon.svg"))


urlpatterns = [
    path("favicon.ico", icon, name="favicon"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Its script and styles from files, none inline: the Content-Security-Policy allows none.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(
        url_name="api-schema", template_name="api/swagger_ui.html"), name="api-docs"),
    path("api/", ApiRoot.as_view(), name="api-root"),
    path("api/", include("matches.api_urls")),
    path("api/", include("league.api_urls")),
    path("league/", include("league.urls")),
    path("", include("matches.urls")),
]

handler400 = "config.api_errors.bad_request"
handler404 = "config.api_errors.not_found"
handler500 = "config.api_errors.server_error"
