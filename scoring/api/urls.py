"""API v1 routes for results, standings, classification and bracket (included under /api/v1/)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from scoring.api.results import ResultViewSet, SubmissionViewSet
from scoring.api.standings import StandingsViewSet

router = SimpleRouter()
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/results", ResultViewSet, basename="result")
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/submissions", SubmissionViewSet, basename="submission")

_standings = StandingsViewSet.as_view({"get": "standings"})
_classification = StandingsViewSet.as_view({"get": "classification"})
_bracket = StandingsViewSet.as_view({"get": "bracket"})

urlpatterns = [
    *router.urls,
    path("tournaments/<str:tournament_slug>/standings/", _standings, name="api_standings"),
    path("tournaments/<str:tournament_slug>/classification/", _classification, name="api_classification"),
    path("tournaments/<str:tournament_slug>/bracket/", _bracket, name="api_bracket"),
]
