"""URL configuration: public pages, staff pages under /torneos/<slug>/gestion/, the API, admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from torneo.ratelimit import limit_login
from torneo.views import manage, public

tournament_patterns = [
    path("", public.tournament_detail, name="tournament_detail"),
    path("parejas/", public.tournament_pairs, name="tournament_pairs"),
    path("inscripcion/", public.public_registration, name="public_registration"),
    path("parejas/<int:number>/retirar/", public.pair_withdraw_view, name="pair_withdraw"),
    path("gestion/", manage.dashboard, name="manage_dashboard"),
    path("gestion/editar/", manage.tournament_edit, name="manage_edit"),
    path("gestion/jornadas/", manage.sessions, name="manage_sessions"),
    path("gestion/jornadas/<int:pk>/borrar/", manage.session_remove, name="manage_session_remove"),
    path("gestion/funciones/", manage.roles, name="manage_roles"),
    path("gestion/funciones/<int:pk>/quitar/", manage.role_remove, name="manage_role_remove"),
    path("gestion/parejas/", manage.pairs, name="manage_pairs"),
    path("gestion/parejas/nueva/", manage.pair_new, name="manage_pair_new"),
    path("gestion/parejas/<int:number>/", manage.pair_edit, name="manage_pair_edit"),
    path("gestion/parejas/<int:number>/presencia/", manage.pair_check_in_view, name="manage_pair_check_in"),
    path("gestion/parejas/<int:number>/retirar/", manage.pair_withdraw_staff, name="manage_pair_withdraw"),
    path(
        "gestion/parejas/<int:number>/borrar-datos/<int:position>/",
        manage.player_erase_view,
        name="manage_player_erase",
    ),
    path("gestion/importar/", manage.pairs_import, name="manage_pairs_import"),
    path("gestion/exportar.csv", manage.pairs_export, name="manage_pairs_export"),
    path("live.json", public.tournament_live, name="tournament_live"),
    # Rounds and draws (torneo/urls_rounds.py), results and standings (scoring/urls.py), the
    # players' view and recorded hands (scoring/urls_players.py).
    path("", include("torneo.urls_rounds")),
    path("", include("scoring.urls")),
    path("", include("scoring.urls_players")),
]

urlpatterns = [
    path("", public.home, name="home"),
    path("torneos/<slug:slug>/", include(tournament_patterns)),
    path("gestion/", manage.my_tournaments, name="my_tournaments"),
    path("gestion/nuevo/", manage.tournament_new, name="tournament_new"),
    # Both login forms refuse password guessing (torneo/ratelimit.py).
    path("cuenta/entrar/", limit_login(auth_views.LoginView.as_view()), name="login"),
    path("cuenta/salir/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("torneo.api.urls")),
    path("admin/login/", limit_login(admin.site.login)),  # before admin.site.urls, which has its own
    path("admin/", admin.site.urls),
]
