"""Rounds and draws (included under torneos/<slug>/): public pages under rondas/, staff pages under
gestion/rondas/."""

from django.urls import path

from torneo.views import rounds

urlpatterns = [
    path("rondas/", rounds.rounds_list, name="rounds_list"),
    path("rondas/<int:number>/", rounds.round_detail, name="round_detail"),
    path("rondas/<int:number>/proyector/", rounds.round_projector, name="round_projector"),
    path("rondas/<int:number>/cartel/", rounds.round_wall, name="round_wall"),
    path("rondas/<int:number>/sorteo.json", rounds.draw_input, name="draw_input"),
    path("gestion/rondas/", rounds.manage_rounds, name="manage_rounds"),
    path("gestion/rondas/preparar/", rounds.manage_round_prepare, name="manage_round_prepare"),
    path("gestion/rondas/<int:number>/", rounds.manage_round, name="manage_round"),
    path("gestion/rondas/<int:number>/publicar/", rounds.manage_round_publish, name="manage_round_publish"),
    path("gestion/rondas/<int:number>/anular/", rounds.manage_round_cancel, name="manage_round_cancel"),
    path("gestion/rondas/<int:number>/repetir-sorteo/", rounds.manage_round_redraw, name="manage_round_redraw"),
]
