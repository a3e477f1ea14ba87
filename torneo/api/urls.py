"""API v1 routes, the OpenAPI schema and its documentation pages (assets served locally)."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import SimpleRouter

from torneo.api import views

router = SimpleRouter()
router.register("tournaments", views.TournamentViewSet, basename="tournament")
router.register("players", views.PlayerViewSet, basename="player")
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/pairs", views.PairViewSet, basename="pair")
router.register(
    r"tournaments/(?P<tournament_slug>[-\w]+)/registrations",
    views.RegistrationViewSet,
    basename="registration",
)

urlpatterns = [
    path("auth/token/", views.TokenView.as_view(), name="api_token"),
    path("schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api_schema"), name="api_docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api_schema"), name="api_redoc"),
    *router.urls,
    path("", include("torneo.api.urls_rounds")),
    path("", include("scoring.api.urls")),
    path("", include("scoring.api.urls_players")),
]
