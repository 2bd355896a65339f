"""League API routes, mounted at /api/ by config.urls (beside matches.api_urls)."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from league import api_views

# SimpleRouter: the API root at /api/ is config.api_root.
router = SimpleRouter(trailing_slash=True)
router.register("seasons", api_views.SeasonViewSet, basename="season")
router.register("events", api_views.EventViewSet, basename="league-event")
router.register("players", api_views.PlayerViewSet, basename="player")
router.register("teams", api_views.TeamViewSet, basename="team")
router.register("ratings", api_views.RatingViewSet, basename="rating")
router.register("round-scores", api_views.RoundScoreViewSet, basename="round-score")
router.register("simulations", api_views.SimulationViewSet, basename="simulation")

urlpatterns = [
    path("", include(router.urls)),
]
