"""API routes, mounted at /api/ by config.urls."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from matches import api_views

# SimpleRouter: the API root at /api/ is config.api_root, listing both routers' lists.
router = SimpleRouter(trailing_slash=True)
router.register("matches", api_views.MatchViewSet, basename="match")

urlpatterns = [
    path("auth/register/", api_views.RegisterView.as_view(), name="api-register"),
    path("auth/token/", api_views.TokenView.as_view(), name="api-token"),
    path("auth/me/", api_views.AccountView.as_view(), name="api-account"),
    path("auth/me/close/", api_views.CloseAccountView.as_view(), name="api-close-account"),
    path("auth/me/data/", api_views.AccountDataView.as_view(), name="api-account-data"),
    path("auth/password/", api_views.PasswordView.as_view(), name="api-password"),
    path("auth/password/reset/", api_views.PasswordResetView.as_view(),
         name="api-password-reset"),
    path("games/", api_views.GamesView.as_view(), name="api-games"),
    path("", include(router.urls)),
]
