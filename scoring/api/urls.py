"""API v1 routes for results, standings, classification and bracket, the players' view, recorded
hands, the juez's rulings on them, the match clocks and the printables (included under /api/v1/)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from scoring.api import hands, players, printables, rulings
from scoring.api.clocks import ClockViewSet
from scoring.api.results import ResultViewSet, SubmissionViewSet
from scoring.api.standings import StandingsViewSet

router = SimpleRouter()
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/results", ResultViewSet, basename="result")
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/submissions", SubmissionViewSet, basename="submission")
router.register(r"tournaments/(?P<tournament_slug>[-\w]+)/clocks", ClockViewSet, basename="clock")

_standings = StandingsViewSet.as_view({"get": "standings"})
_classification = StandingsViewSet.as_view({"get": "classification"})
_bracket = StandingsViewSet.as_view({"get": "bracket"})

urlpatterns = [
    *router.urls,
    path("tournaments/<str:tournament_slug>/standings/", _standings, name="api_standings"),
    path("tournaments/<str:tournament_slug>/classification/", _classification, name="api_classification"),
    path("tournaments/<str:tournament_slug>/bracket/", _bracket, name="api_bracket"),
    # The players' view
    path("tournaments/<slug:tournament_slug>/players/", players.PlayerFindView.as_view(), name="api_find_player"),
    path(
        "tournaments/<slug:tournament_slug>/pairs/<int:number>/overview/",
        players.PairOverviewView.as_view(),
        name="api_pair_overview",
    ),
    # Recorded hands
    path(
        "tournaments/<slug:tournament_slug>/matches/<int:match_id>/hands/",
        hands.MatchHandsView.as_view(),
        name="api_match_hands",
    ),
    path(
        "tournaments/<slug:tournament_slug>/matches/<int:match_id>/hands/<int:hand_id>/",
        hands.HandView.as_view(),
        name="api_hand",
    ),
    # The juez's rulings on a recorded hand (AMM chapter IV)
    path(
        "tournaments/<slug:tournament_slug>/matches/<int:match_id>/hands/<int:hand_id>/rulings/",
        rulings.HandRulingsView.as_view(),
        name="api_hand_rulings",
    ),
    path(
        "tournaments/<slug:tournament_slug>/matches/<int:match_id>/hands/<int:hand_id>/rulings/preview/",
        rulings.HandRulingPreviewView.as_view(),
        name="api_hand_ruling_preview",
    ),
    path(
        "tournaments/<slug:tournament_slug>/matches/<int:match_id>/hands/<int:hand_id>/rulings/<int:pk>/withdraw/",
        rulings.HandRulingWithdrawView.as_view(),
        name="api_hand_ruling_withdraw",
    ),
    # Printables: a round's actas, the draw for the wall, the standings (PDF, prepared by a worker)
    path("tournaments/<slug:tournament_slug>/printables/", printables.PrintablesView.as_view(), name="api_printables"),
    path(
        "tournaments/<slug:tournament_slug>/printables/<int:pk>/",
        printables.PrintableView.as_view(),
        name="api_printable",
    ),
    path(
        "tournaments/<slug:tournament_slug>/printables/<int:pk>/pdf/",
        printables.PrintablePdfView.as_view(),
        name="api_printable_pdf",
    ),
]
