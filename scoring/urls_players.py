"""The players' view and recorded hands, under /torneos/<slug>/ (public pages; writes checked on
the server): find yourself, the pair page, a match's recorded hands, the staff's index of tables."""

from django.urls import path

from scoring import views_hands, views_players

urlpatterns = [
    path("jugadores/", views_players.find_player, name="find_player"),
    path("parejas/<int:number>/ficha/", views_players.pair_page, name="pair_page"),
    path("partidas/<int:match_id>/manos/", views_hands.match_hands, name="hands_match"),
    path("partidas/<int:match_id>/manos/<int:hand_id>/", views_hands.hand_detail, name="hand_detail"),
    path("partidas/<int:match_id>/manos/<int:hand_id>/borrar/", views_hands.hand_delete_view, name="hand_delete"),
    path("manos/", views_hands.hands_index, name="hands_index"),
]
