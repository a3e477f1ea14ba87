"""API v1 routes, their root (``/api/v1/``: the list of every endpoint), the OpenAPI schema and its
documentation pages (assets served locally)."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import SimpleRouter

from torneo.api.access import TokenView
from torneo.api.push import PushKeyView, PushSubscriptionsView
from torneo.api.registrations import PairViewSet, PlayerViewSet, RegistrationViewSet
from torneo.api.root import ROOT_NAME, ApiRootView
from torneo.api.rounds import RoundViewSet
from torneo.api.tournaments import TournamentViewSet

router = SimpleRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("players", PlayerViewSet, basename="player")
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/pairs", PairViewSet, basename="pair")
router.register(
    r"tournaments/(?P<tournament_slug>[-\w]+)/registrations",
    RegistrationViewSet,
    basename="registration",
)
# Rounds and draws.
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/rounds", RoundViewSet, basename="round")

urlpatterns = [
    path("", ApiRootView.as_view(), name=ROOT_NAME),
    path("auth/token/", TokenView.as_view(), name="api_token"),
    path("push/key/", PushKeyView.as_view(), name="push_key"),
    path("push/subscriptions/", PushSubscriptionsView.as_view(), name="push_subscriptions"),
    path("schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api_schema"), name="api_docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api_schema"), name="api_redoc"),
    *router.urls,
    path("", include("scoring.api.urls")),
    path("", include("referees.api.urls")),
]
