"""The juez's pages (AMM chapter V), included under torneos/<slug>/: the juez's desk and an
incident under gestion/juez/, the log of incidents and sanctions under gestion/incidencias/, and
the players' report from a partida (5.3). The API (referees/api/) has its own routes."""

from django.urls import path

from referees import views

app_name = "referees"

urlpatterns = [
    path("gestion/juez/", views.juez_desk, name="juez_desk"),
    path("gestion/juez/incidencia/<int:incident_id>/", views.incident_detail, name="incident_detail"),
    # A table's call answered «voy» (issue 32): the table sees that a juez is on the way
    path("gestion/juez/incidencia/<int:incident_id>/voy/", views.incident_answer_view, name="incident_answer"),
    path("gestion/juez/suplentes/", views.substitutes, name="substitutes"),
    path(
        "gestion/juez/suplentes/<int:substitution_id>/anular/", views.substitute_cancel_view, name="substitute_cancel"
    ),
    path("gestion/incidencias/", views.incident_log, name="incident_log"),
    # The same rows: CSV, or ?formato=excel (';', for Spanish Excel) or ?formato=xlsx (torneo.sheets.download).
    path("gestion/incidencias.csv", views.incident_log_csv, name="incident_log_csv"),
    path("partida/<int:match_id>/avisar-al-juez/", views.report, name="report"),
]
