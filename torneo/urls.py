"""URL configuration: public pages, staff pages under /torneos/<slug>/gestion/, the API, admin.

Each app's pages have their namespace: ``torneo:`` (tournaments, registrations, rounds) and
``scoring:`` (results, standings, the players' view, recorded hands); the API's routes are named
by DRF's routers (``result-list``, ``api_standings``…). ``reverse("torneo:manage_pairs", …)``."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from torneo.ratelimit import limit_login
from torneo.views import (
    accounts,
    announcements,
    audit,
    email_notices,
    offline,
    projector,
    registrations,
    rounds,
    terminals,
    tournaments,
)
from torneo.views.health import health_view
from torneo.views.language import language_set

tournament_patterns = [
    path("", tournaments.tournament_detail, name="tournament_detail"),
    path("parejas/", registrations.tournament_pairs, name="tournament_pairs"),
    path("inscripcion/", registrations.public_registration, name="public_registration"),
    path("parejas/<int:number>/retirar/", registrations.pair_withdraw_view, name="pair_withdraw"),
    path("gestion/", tournaments.dashboard, name="manage_dashboard"),
    path("gestion/editar/", tournaments.tournament_edit, name="manage_edit"),
    path("gestion/jornadas/", tournaments.sessions, name="manage_sessions"),
    path("gestion/jornadas/<int:pk>/borrar/", tournaments.session_remove, name="manage_session_remove"),
    path("gestion/funciones/", tournaments.roles, name="manage_roles"),
    path("gestion/funciones/<int:pk>/quitar/", tournaments.role_remove, name="manage_role_remove"),
    path("gestion/parejas/", registrations.pairs, name="manage_pairs"),
    path("gestion/parejas/nueva/", registrations.pair_new, name="manage_pair_new"),
    path("gestion/parejas/<int:number>/", registrations.pair_edit, name="manage_pair_edit"),
    path("gestion/parejas/<int:number>/presencia/", registrations.pair_check_in_view, name="manage_pair_check_in"),
    path("gestion/parejas/<int:number>/retirar/", registrations.pair_withdraw_staff, name="manage_pair_withdraw"),
    path(
        "gestion/parejas/<int:number>/borrar-datos/<int:position>/",
        registrations.player_erase_view,
        name="manage_player_erase",
    ),
    path("gestion/cambios/", audit.audit_log, name="manage_audit"),
    path("gestion/cambios.csv", audit.audit_export, name="manage_audit_export"),
    path("gestion/importar/", registrations.pairs_import, name="manage_pairs_import"),
    path("gestion/importar/ejemplo/", registrations.pairs_import_example, name="manage_pairs_import_example"),
    path("gestion/exportar.csv", registrations.pairs_export, name="manage_pairs_export"),
    path("live.json", tournaments.tournament_live, name="tournament_live"),
    # Accounts without the admin (torneo/services/accounts.py): codes, invitations, password links.
    path("gestion/parejas/<int:number>/cuentas/", accounts.pair_accounts, name="manage_pair_accounts"),
    path("gestion/cuentas/", accounts.manage_accounts, name="manage_accounts"),
    path("gestion/cuentas/invitaciones/<int:pk>/anular/", accounts.invitation_revoke, name="manage_invitation_revoke"),
    path("gestion/cuentas/<int:user_id>/contrasena/", accounts.password_reset_issue, name="manage_password_reset"),
    # The pairs' private links (torneo/services/terminals.py): the mesa issues them; a phone opens one.
    path("gestion/parejas/<int:number>/tarjeta/", terminals.pair_terminal_issue, name="manage_pair_terminal"),
    path("tarjeta/<str:token>/", terminals.pair_terminal, name="pair_terminal"),
    # Self check-in with the venue's code (torneo/services/self_check_in.py): the screen, the pair's phone
    path("gestion/presencia/codigo/", terminals.venue_code, name="manage_venue_code"),
    path("presente/", terminals.self_check_in, name="self_check_in"),
    # The notices by e-mail (torneo/services/email_notices.py): a pair's players ask for them.
    path("parejas/<int:number>/avisos-correo/", email_notices.email_subscribe, name="email_subscribe"),
    path("cuenta/", accounts.claim, name="account_claim"),
    path("cuenta/elegir/", accounts.claim_finish, name="account_claim_finish"),
    path("cuenta/invitacion/<str:token>/", accounts.invitation_accept, name="account_invitation"),
    path("cuenta/contrasena/<str:token>/", accounts.password_reset_use, name="account_password_reset"),
    # Rounds and draws: public pages under rondas/, staff pages under gestion/rondas/.
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
    # The hall's screen (issue 34): the draw, the clocks, the standings and the announcements in turn.
    path("proyector/", projector.projector, name="projector"),
    path("gestion/avisos/", announcements.announcements, name="manage_announcements"),
    path("gestion/avisos/<int:pk>/borrar/", announcements.announcement_remove, name="manage_announcement_remove"),
]

# The tournament app's pages, namespace "torneo".
torneo_patterns = [
    path("", tournaments.home, name="home"),
    path("torneos/<slug:slug>/", include(tournament_patterns)),
    path("gestion/", tournaments.my_tournaments, name="my_tournaments"),
    path("gestion/nuevo/", tournaments.tournament_new, name="tournament_new"),
]

urlpatterns = [
    path("", include((torneo_patterns, "torneo"))),
    # Results and standings, the players' view and recorded hands (scoring/urls.py, "scoring").
    path("torneos/<slug:slug>/", include("scoring.urls")),
    path("torneos/<slug:slug>/", include("referees.urls")),
    # Circuits: a season's ranking over several tournaments (circuits/urls.py, "circuits").
    path("circuitos/", include("circuits.urls")),
    # The open record of a tournament, signed, and the site's public key (records/).
    path("", include("records.urls")),
    # Both login forms refuse password guessing (torneo/ratelimit.py).
    path("cuenta/entrar/", limit_login(auth_views.LoginView.as_view()), name="login"),
    path("cuenta/salir/", auth_views.LogoutView.as_view(), name="logout"),
    path("cuenta/contrasena/", accounts.password_change, name="password_change"),
    # The language form of every page, without a token (torneo/views/language.py says why).
    path("i18n/setlang/", language_set, name="set_language"),
    path("api/v1/", include("torneo.api.urls")),
    # The site's health (database, broker, beat) for the venue's laptop and a load balancer.
    path("salud/", health_view, name="health"),
    # When the venue's Wi-Fi fails (issue 33): the service worker, from the root so that its scope is
    # every page, and the page it shows for a page never opened on that phone (torneo/views/offline.py).
    path("sw.js", offline.service_worker, name="service_worker"),
    path("sin-conexion/", offline.offline_page, name="offline"),
    path("avisos/confirmar/<str:token>/", email_notices.email_confirm, name="email_confirm"),
    path("avisos/baja/<str:token>/", email_notices.email_unsubscribe, name="email_unsubscribe"),
    path("admin/login/", limit_login(admin.site.login)),  # before admin.site.urls, which has its own
    path("admin/", admin.site.urls),
]
