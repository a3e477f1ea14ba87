"""API v1 routes of rounds and draws (included under /api/v1/)."""

from rest_framework.routers import SimpleRouter

from torneo.api.rounds import RoundViewSet

router = SimpleRouter()
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/rounds", RoundViewSet, basename="round")

urlpatterns = router.urls
