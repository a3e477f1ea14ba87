"""Results, standings, bracket and classification: public pages under resultados/, clasificacion/
and cuadro/; the mesa de control's pages under gestion/resultados/. The players' view and recorded
hands (public pages; writes checked on the server): find yourself, the pair page, a match's
recorded hands, the juez's rulings on them (AMM chapter IV), the staff's index of tables. The
clocks: the public wall under relojes/, each table's page (its players tap the juegos), the juez's
dashboard under gestion/relojes/. All included under torneos/<slug>/. The pages' scripts read and
write JSON through the API (scoring/api/urls.py), never through these pages."""

from django.urls import path

from scoring.views import clocks, hands, players, printing, results, rulings, standings
from torneo.sheets import with_formats

app_name = "scoring"

urlpatterns = [
    # Public
    path("resultados/", results.results, name="results"),
    # Every export: CSV, or ?formato=excel (';', for Spanish Excel) or ?formato=xlsx (torneo.sheets).
    path("resultados/resultados.csv", with_formats(results.results_csv), name="results_csv"),
    path("resultados/ronda-<int:number>.csv", with_formats(results.results_csv), name="results_round_csv"),
    path("clasificacion/", standings.standings, name="standings"),
    path("clasificacion/clasificacion.csv", standings.standings_csv, name="standings_csv"),
    path("clasificacion/final/", standings.classification, name="classification"),
    path("clasificacion/final.csv", standings.classification_csv, name="classification_csv"),
    path("cuadro/", standings.bracket, name="bracket"),
    # A second person, or a player of the losing pair from a phone (AMM 3.16)
    path("resultados/acta/<int:submission_id>/confirmar/", results.result_confirm_view, name="result_confirm"),
    path("resultados/acta/<int:submission_id>/rechazar/", results.result_reject_view, name="result_reject"),
    # A pair reports its table's result from its phone (issue 32); the other pair confirms it
    path("partidas/<int:match_id>/anotar/", results.result_report_view, name="result_report"),
    # Mesa de control
    path("gestion/resultados/", results.results_entry, name="results_entry"),
    path("gestion/resultados/confirmar/", results.results_queue, name="results_queue"),
    path("gestion/resultados/partida/<int:match_id>/", results.result_history, name="result_history"),
    # The acta of a partida to print (AMM 3.16), a PDF
    path("gestion/actas/partida-<int:match_id>.pdf", printing.acta_pdf, name="acta_pdf"),
    # Printables: a round's actas prepared by a worker with its progress, blank actas
    path("gestion/imprimir/", printing.printables, name="printables"),
    path("gestion/imprimir/actas-en-blanco.pdf", printing.blank_actas_pdf, name="blank_actas_pdf"),
    # The tarjetas de pareja with their private links (issue 32): a POST, it issues the links
    path("gestion/imprimir/tarjetas-de-pareja.pdf", printing.pair_cards_pdf, name="pair_cards_pdf"),
    path("gestion/imprimir/<int:job_id>/", printing.printable_job, name="printable_job"),
    path("gestion/imprimir/<int:job_id>/estado.json", printing.printable_job_state, name="printable_job_state"),
    path("gestion/imprimir/<int:job_id>/documento.pdf", printing.printable_job_pdf, name="printable_job_pdf"),
    # The players' view
    path("jugadores/", players.find_player, name="find_player"),
    path("parejas/<int:number>/ficha/", players.pair_page, name="pair_page"),
    # Recorded hands
    path("partidas/<int:match_id>/manos/", hands.match_hands, name="hands_match"),
    path("partidas/<int:match_id>/manos/<int:hand_id>/", hands.hand_detail, name="hand_detail"),
    path("partidas/<int:match_id>/manos/<int:hand_id>/borrar/", hands.hand_delete_view, name="hand_delete"),
    # The juez's ruling on a hand (AMM chapter IV): the facts, the engine's answer, confirm or withdraw
    path("partidas/<int:match_id>/manos/<int:hand_id>/fallo/", rulings.hand_ruling, name="hand_ruling"),
    path(
        "partidas/<int:match_id>/manos/<int:hand_id>/fallo/<int:ruling_id>/retirar/",
        rulings.hand_ruling_withdraw_view,
        name="hand_ruling_withdraw",
    ),
    path("manos/", hands.hands_index, name="hands_index"),
    # The match clocks (AMM chapter VI): the public wall and each table's page; the juez's dashboard
    path("relojes/", clocks.clock_wall, name="clock_wall"),
    path("relojes/mesa/<int:match_id>/", clocks.clock_table, name="clock_table"),
    path("gestion/relojes/", clocks.clocks_manage, name="clocks_manage"),
]
