from django.urls import path

from circuits import views

app_name = "circuits"

urlpatterns = [
    path("", views.circuit_list, name="list"),
    path("nuevo/", views.circuit_new, name="new"),
    path("<slug:slug>/", views.circuit_detail, name="detail"),
    path("<slug:slug>/clasificacion/", views.circuit_download, name="download"),
    path("<slug:slug>/jugadores/<str:person>/", views.circuit_player, name="player"),
    path("<slug:slug>/gestion/", views.circuit_manage, name="manage"),
    path("<slug:slug>/gestion/torneos/", views.circuit_tournament_add_view, name="tournament_add"),
    path("<slug:slug>/gestion/personas/", views.person_link_view, name="person_link"),
    path(
        "<slug:slug>/gestion/torneos/<int:tournament_id>/quitar/",
        views.circuit_tournament_remove_view,
        name="tournament_remove",
    ),
]
