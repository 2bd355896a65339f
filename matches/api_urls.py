"""API routes, mounted at /api/ by config.urls."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from matches import api_views

router = DefaultRouter(trailing_slash=True)
router.register("matches", api_views.MatchViewSet, basename="match")

urlpatterns = [
    path("auth/register/", api_views.RegisterView.as_view(), name="api-register"),
    path("auth/token/", api_views.TokenView.as_view(), name="api-token"),
    path("games/", api_views.GamesView.as_view(), name="api-games"),
    path("", include(router.urls)),
]
