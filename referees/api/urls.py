"""API v1 routes of the jueces: incidents, sanctions and suplentes (included under /api/v1/)."""

from rest_framework.routers import SimpleRouter

from referees.api.incidents import IncidentViewSet
from referees.api.sanctions import SanctionViewSet
from referees.api.substitutes import SubstitutionViewSet

router = SimpleRouter()
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/incidents", IncidentViewSet, basename="incident")
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/sanctions", SanctionViewSet, basename="sanction")
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/substitutions", SubstitutionViewSet, basename="substitution")

urlpatterns = [*router.urls]
