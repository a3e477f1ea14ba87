"""Results, standings, bracket and classification: public pages under resultados/, clasificacion/
and cuadro/; the mesa de control's pages under gestion/resultados/ (included under torneos/<slug>/)."""

from django.urls import path

from scoring.views import entry, public

urlpatterns = [
    # Public
    path("resultados/", public.results, name="results"),
    path("resultados/resultados.csv", public.results_csv, name="results_csv"),
    path("resultados/ronda-<int:number>.csv", public.results_csv, name="results_round_csv"),
    path("clasificacion/", public.standings, name="standings"),
    path("clasificacion/clasificacion.csv", public.standings_csv, name="standings_csv"),
    path("clasificacion/final/", public.classification, name="classification"),
    path("clasificacion/final.csv", public.classification_csv, name="classification_csv"),
    path("cuadro/", public.bracket, name="bracket"),
    # A second person, or a player of the losing pair from a phone (AMM 3.16)
    path("resultados/acta/<int:submission_id>/confirmar/", entry.result_confirm_view, name="result_confirm"),
    path("resultados/acta/<int:submission_id>/rechazar/", entry.result_reject_view, name="result_reject"),
    # Mesa de control
    path("gestion/resultados/", entry.results_entry, name="results_entry"),
    path("gestion/resultados/mesa.json", entry.results_lookup, name="results_lookup"),
    path("gestion/resultados/estado.json", entry.results_status, name="results_status"),
    path("gestion/resultados/confirmar/", entry.results_queue, name="results_queue"),
    path("gestion/resultados/partida/<int:match_id>/", entry.result_history, name="result_history"),
]
