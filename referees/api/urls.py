"""API v1 routes of the jueces: incidents and sanctions (included under /api/v1/)."""

from rest_framework.routers import SimpleRouter

from referees.api.incidents import IncidentViewSet
from referees.api.sanctions import SanctionViewSet

router = SimpleRouter()
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/incidents", IncidentViewSet, basename="incident")
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/sanctions", SanctionViewSet, basename="sanction")

urlpatterns = [*router.urls]
