"""API routes of the players' view and recorded hands, under /api/v1/."""

from django.urls import path

from scoring.api import hands, players

urlpatterns = [
    path("tournaments/<slug:tournament_slug>/players/", players.PlayerFindView.as_view(), name="api_find_player"),
    path(
        "tournaments/<slug:tournament_slug>/pairs/<int:number>/overview/",
        players.PairOverviewView.as_view(),
        name="api_pair_overview",
    ),
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
]
