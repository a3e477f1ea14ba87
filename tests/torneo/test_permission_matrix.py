"""The permission matrix: every view and endpoint that writes (or shows private data), for every
role — anonymous public, a user with no role, a player of the tournament, juez, mesa de control,
organizer, the organizer of another tournament, and a superuser; and the pairs' private links (issue
32): the terminal of the player's pair, and the terminal of another pair. Enforced on the server."""

from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import player_data
from tests.torneo.matrix import Case, check_case, client_for
from tests.world import CREATORS, EVERYONE, ORGANIZER, ROLES, STAFF_PAIRS, VIEWERS_PRIVATE, World
from torneo.models import Pair, PairTerminal, Session
from torneo.services.self_check_in import venue_code

pytestmark = pytest.mark.django_db

# The pairs' private links as two more roles (tests/conftest.py, ``terminal_role``): "terminal", the
# phone of the player's pair, may do exactly what the player may; "other_terminal", another pair's
# phone, what anyone may.
MATRIX_ROLES = [*ROLES, "terminal", "other_terminal"]
EVERYONE = EVERYONE | {"terminal", "other_terminal"}
OWN_PAIR = {"player", "terminal"}  # the player's pair: its players and its terminal
ANY_PAIR = OWN_PAIR | {"other_terminal"}  # each for its own pair (the request names none)


def pair_post(n: int) -> dict[str, str]:
    a, b = player_data(100 + n), player_data(200 + n)
    return {
        "p1_first_name": a.first_name,
        "p1_last_name": a.last_name,
        "p2_first_name": b.first_name,
        "p2_last_name": b.last_name,
    }


def pair_json(n: int) -> dict[str, Any]:
    a, b = player_data(300 + n), player_data(400 + n)
    return {
        "players": [
            {"first_name": a.first_name, "last_name": a.last_name},
            {"first_name": b.first_name, "last_name": b.last_name},
        ]
    }


def csv_upload() -> SimpleUploadedFile:
    body = "nombre_1;apellidos_1;nombre_2;apellidos_2\nLuz;Campos Vera;Gil;Moya Paz\n"
    return SimpleUploadedFile("parejas.csv", body.encode(), content_type="text/csv")


def slug(w: World) -> str:
    return w.tournament.slug


def venue_code_now(w: World) -> dict[str, str]:
    """The venue's code of these minutes, with self check-in open (no jornada to wait for)."""
    Session.objects.filter(tournament=w.tournament).delete()
    return {"codigo": venue_code(w.tournament)}


CASES = [
    # --- pages (forms) ---
    Case(
        "new tournament",
        "post",
        lambda w: "/gestion/nuevo/",
        CREATORS,
        lambda w: {
            "name": "Nuevo",
            "start_date": "2027-01-09",
            "end_date": "2027-01-09",
            "rule_set": "amm",
            "games_to_win": 3,
            "points_per_game": 40,
            "entry_fee": "0",
            "status": "draft",
            "listed": "on",
        },
    ),
    Case("dashboard", "get", lambda w: f"/torneos/{slug(w)}/gestion/", VIEWERS_PRIVATE),
    Case(
        "edit tournament",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/editar/",
        ORGANIZER,
        lambda w: {
            "name": "Editado",
            "start_date": "2026-12-12",
            "end_date": "2026-12-13",
            "rule_set": "amm",
            "games_to_win": 4,
            "points_per_game": 40,
            "entry_fee": "10",
            "status": "open",
        },
    ),
    Case(
        "add session",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/jornadas/",
        ORGANIZER,
        lambda w: {"name": "J2", "starts_at": "2026-12-13T10:00", "courtesy_minutes": 10},
    ),
    Case(
        "delete session",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/jornadas/{w.session.pk}/borrar/",
        ORGANIZER,
    ),
    Case(
        "grant role",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/funciones/",
        ORGANIZER,
        lambda w: {"username": "outsider", "role": "juez"},
    ),
    Case(
        "revoke role",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/funciones/{w.juez_role.pk}/quitar/",
        ORGANIZER,
    ),
    Case("pairs list (private)", "get", lambda w: f"/torneos/{slug(w)}/gestion/parejas/", STAFF_PAIRS),
    Case(
        "register pair (mesa)",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/parejas/nueva/",
        STAFF_PAIRS,
        lambda w: pair_post(1),
    ),
    Case(
        "edit pair",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/parejas/{w.other_pair.number}/",
        STAFF_PAIRS,
        lambda w: {**pair_post(2), "version": w.other_pair.version},
    ),
    Case(
        "check in",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/parejas/{w.other_pair.number}/presencia/",
        STAFF_PAIRS,
        lambda w: {"present": "1"},
    ),
    Case(
        "withdraw (mesa)",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/parejas/{w.other_pair.number}/retirar/",
        STAFF_PAIRS,
    ),
    Case(
        "import csv",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/importar/",
        STAFF_PAIRS,
        lambda w: {"file": csv_upload()},
        fmt="multipart",
    ),
    Case("export csv", "get", lambda w: f"/torneos/{slug(w)}/gestion/exportar.csv", STAFF_PAIRS),
    Case(
        "withdraw own pair",
        "post",
        lambda w: f"/torneos/{slug(w)}/parejas/{w.own_pair.number}/retirar/",
        STAFF_PAIRS | {"player"},  # never through the pair's card (torneo.permissions.can_withdraw)
    ),
    Case(
        "withdraw someone else's pair",
        "post",
        lambda w: f"/torneos/{slug(w)}/parejas/{w.other_pair.number}/retirar/",
        STAFF_PAIRS,
    ),
    # Self check-in with the venue's code: each pair's own (its players, its terminal), not the mesa's.
    Case("self check-in", "post", lambda w: f"/torneos/{slug(w)}/presente/", ANY_PAIR, venue_code_now),
    Case(
        "public registration",
        "post",
        lambda w: f"/torneos/{slug(w)}/inscripcion/",
        EVERYONE,
        lambda w: pair_post(3),
    ),
    # --- API ---
    Case(
        "api create tournament",
        "post",
        lambda w: "/api/v1/tournaments/",
        CREATORS,
        lambda w: {"name": "API", "start_date": "2027-02-06", "end_date": "2027-02-06"},
        api=True,
    ),
    Case(
        "api edit tournament",
        "patch",
        lambda w: f"/api/v1/tournaments/{slug(w)}/",
        ORGANIZER,
        lambda w: {"venue": "Otro sitio"},
        api=True,
    ),
    Case(
        "api register pair (mesa)",
        "post",
        lambda w: f"/api/v1/tournaments/{slug(w)}/pairs/",
        STAFF_PAIRS,
        lambda w: pair_json(1),
        api=True,
    ),
    Case(
        "api edit pair",
        "put",
        lambda w: f"/api/v1/tournaments/{slug(w)}/pairs/{w.other_pair.number}/",
        STAFF_PAIRS,
        lambda w: pair_json(2),
        api=True,
    ),
    Case(
        "api check in",
        "post",
        lambda w: f"/api/v1/tournaments/{slug(w)}/pairs/{w.other_pair.number}/check-in/",
        STAFF_PAIRS,
        api=True,
    ),
    Case(
        "api undo check in",
        "delete",
        lambda w: f"/api/v1/tournaments/{slug(w)}/pairs/{w.other_pair.number}/check-in/",
        STAFF_PAIRS,
        api=True,
    ),
    Case(
        "api withdraw own pair",
        "post",
        lambda w: f"/api/v1/tournaments/{slug(w)}/pairs/{w.own_pair.number}/withdraw/",
        STAFF_PAIRS | {"player"},
        api=True,
    ),
    Case(
        "api withdraw other pair",
        "post",
        lambda w: f"/api/v1/tournaments/{slug(w)}/pairs/{w.other_pair.number}/withdraw/",
        STAFF_PAIRS,
        api=True,
    ),
    Case(
        "api import csv",
        "post",
        lambda w: f"/api/v1/tournaments/{slug(w)}/pairs/import/",
        STAFF_PAIRS,
        lambda w: {"file": csv_upload()},
        api=True,
        fmt="multipart",
    ),
    Case(
        "api self check-in",
        "post",
        lambda w: f"/api/v1/tournaments/{slug(w)}/self-check-in/",
        ANY_PAIR,
        venue_code_now,
        api=True,
    ),
    Case(
        "api public registration",
        "post",
        lambda w: f"/api/v1/tournaments/{slug(w)}/registrations/",
        EVERYONE,
        lambda w: pair_json(3),
        api=True,
    ),
    Case(
        "erase a player's personal data (RGPD)",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/parejas/{w.other_pair.number}/borrar-datos/1/",
        ORGANIZER,
    ),
    Case(
        "api erase a player's personal data (RGPD)",
        "post",
        lambda w: f"/api/v1/players/{w.other_pair.members.get(position=1).player_id}/erase-personal-data/",
        ORGANIZER,
        api=True,
    ),
]


@pytest.mark.parametrize("role", MATRIX_ROLES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_permission_matrix(world: World, terminal_role: Callable[[str], None], case: Case, role: str) -> None:
    terminal_role(role)
    check_case(world, case, role)


@pytest.mark.parametrize("api", [False, True], ids=["page", "api"])
def test_self_check_in_checks_in_the_terminals_own_pair_only(
    world: World, terminal_role: Callable[[str], None], api: bool
) -> None:
    """The request names no pair: another pair's terminal checks in its own pair, never the player's."""
    url = f"/api/v1/tournaments/{slug(world)}/self-check-in/" if api else f"/torneos/{slug(world)}/presente/"
    kwargs = {"format": "json"} if api else {}

    def checked_in() -> set[int]:
        return set(
            Pair.objects.filter(tournament=world.tournament, checked_in_at__isnull=False).values_list("pk", flat=True)
        )

    expected: set[int] = set()
    for role in ("other_terminal", "terminal"):
        terminal_role(role)
        answer = client_for(world, role, api).post(url, venue_code_now(world), **kwargs)
        assert answer.status_code in (200, 302), (role, answer.status_code)
        expected.add(PairTerminal.objects.get(user=world.users[role]).pair_id)
        assert checked_in() == expected, role
    assert world.own_pair.pk in expected and world.other_pair.pk not in expected


def test_denied_writes_change_nothing(world: World) -> None:
    client = client_for(world, "juez", api=False)
    client.post(f"/torneos/{world.tournament.slug}/gestion/parejas/nueva/", pair_post(9))
    client.post(f"/torneos/{world.tournament.slug}/gestion/parejas/{world.other_pair.number}/retirar/")
    assert Pair.objects.filter(tournament=world.tournament).count() == 2
    world.other_pair.refresh_from_db()
    assert world.other_pair.status == Pair.Status.CONFIRMED


def test_players_api_only_shows_players_of_your_tournaments(world: World) -> None:
    for role, expected in (("outsider", 0), ("player", 0), ("control", 4), ("superuser", 4)):
        response = client_for(world, role, api=True).get("/api/v1/players/")
        assert response.status_code == 200
        assert response.json()["count"] == expected, role
    assert client_for(world, "anonymous", api=True).get("/api/v1/players/").status_code in (401, 403)


def test_private_contact_data_only_for_staff(world: World) -> None:
    url = f"/api/v1/tournaments/{world.tournament.slug}/pairs/{world.own_pair.number}/"
    public = client_for(world, "anonymous", api=True).get(url).json()
    assert set(public["players"][0]) == {"first_name", "last_name", "club"}
    staff = client_for(world, "juez", api=True).get(url).json()
    assert "phone" in staff["players"][0] and "email" in staff["players"][0]


def test_draft_tournaments_are_invisible_to_the_public(world: World) -> None:
    world.tournament.status = "draft"
    world.tournament.save()
    for url in (f"/torneos/{world.tournament.slug}/", f"/api/v1/tournaments/{world.tournament.slug}/"):
        assert Client().get(url).status_code == 404
        assert client_for(world, "outsider", api=False).get(url).status_code == 404
        assert client_for(world, "juez", api=False).get(url).status_code == 200
