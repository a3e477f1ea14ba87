"""The permission matrix of rounds and draws: every staff page and every writing page and endpoint,
for every role — anonymous public, a user with no role, a player of the tournament, juez, mesa de
control, organizer, another tournament's organizer, superuser, and the pairs' private links (issue 32:
the terminal of the player's pair, another pair's terminal). DRAWS_MANAGE (organizer and mesa de
control) prepares, publishes and cancels; the juez witnesses a draw but may not make it; only the
organizer redraws (DRAWS_REDRAW). The public pages are everyone's; a pair's terminal, as its players,
makes no draw."""

from collections.abc import Callable
from typing import Any

import pytest

from tests.torneo.matrix import Case, check_case, client_for
from tests.world import EVERYONE, ORGANIZER, ROLES, STAFF_PAIRS, World
from torneo.models import Draw, Match, Round
from torneo.services.registrations import pair_check_in
from torneo.services.rounds import draw_publish, live_draw, round_prepare

pytestmark = pytest.mark.django_db

DRAWS_MANAGE = STAFF_PAIRS  # organizer, mesa de control (and superusers)
DRAWS_REDRAW = ORGANIZER

# The pairs' private links as two more roles (tests/conftest.py, ``terminal_role``): "terminal", the
# phone of the player's pair, may do exactly what the player may; "other_terminal", another pair's
# phone, what anyone may.
MATRIX_ROLES = [*ROLES, "terminal", "other_terminal"]
EVERYONE = EVERYONE | {"terminal", "other_terminal"}


def checked_in(w: World) -> None:
    for pair in (w.own_pair, w.other_pair):
        pair_check_in(pair=pair)


def prepared(w: World) -> None:
    checked_in(w)
    round_prepare(tournament=w.tournament, by=w.users["organizer"])


def published(w: World) -> None:
    prepared(w)
    round_ = Round.objects.get(tournament=w.tournament, number=1)
    draw_publish(draw=live_draw(round_), public_value="3 3", witness=w.users["juez"], by=w.users["organizer"])


def publish_data(w: World) -> dict[str, Any]:
    draw = Draw.objects.get(round__tournament=w.tournament)
    return {"public_value": "4 1", "witness": w.users["juez"].pk, "commitment": draw.commitment}


def slug(w: World) -> str:
    return w.tournament.slug


# (case, state to set up before the request)
CASES: list[tuple[Case, Callable[[World], None]]] = [
    # --- staff pages ---
    (Case("rounds (staff)", "get", lambda w: f"/torneos/{slug(w)}/gestion/rondas/", DRAWS_MANAGE), prepared),
    (Case("round (staff)", "get", lambda w: f"/torneos/{slug(w)}/gestion/rondas/1/", DRAWS_MANAGE), prepared),
    (Case("prepare", "post", lambda w: f"/torneos/{slug(w)}/gestion/rondas/preparar/", DRAWS_MANAGE), checked_in),
    (
        Case(
            "publish draw",
            "post",
            lambda w: f"/torneos/{slug(w)}/gestion/rondas/1/publicar/",
            DRAWS_MANAGE,
            publish_data,
        ),
        prepared,
    ),
    (Case("cancel", "post", lambda w: f"/torneos/{slug(w)}/gestion/rondas/1/anular/", DRAWS_MANAGE), prepared),
    (
        Case(
            "redraw",
            "post",
            lambda w: f"/torneos/{slug(w)}/gestion/rondas/1/repetir-sorteo/",
            DRAWS_REDRAW,
            lambda w: {"reason": "Mal contadas las presencias"},
        ),
        published,
    ),
    # --- public pages ---
    (Case("rounds (public)", "get", lambda w: f"/torneos/{slug(w)}/rondas/", EVERYONE), published),
    (Case("round (public)", "get", lambda w: f"/torneos/{slug(w)}/rondas/1/", EVERYONE), published),
    (Case("projector", "get", lambda w: f"/torneos/{slug(w)}/rondas/1/proyector/", EVERYONE), published),
    (Case("wall sheet", "get", lambda w: f"/torneos/{slug(w)}/rondas/1/cartel/", EVERYONE), published),
    (Case("draw input", "get", lambda w: f"/torneos/{slug(w)}/rondas/1/sorteo.json", EVERYONE), published),
    # --- API ---
    (Case("api rounds", "get", lambda w: f"/api/v1/tournaments/{slug(w)}/rounds/", EVERYONE, api=True), published),
    (Case("api round", "get", lambda w: f"/api/v1/tournaments/{slug(w)}/rounds/1/", EVERYONE, api=True), published),
    (
        Case("api prepare", "post", lambda w: f"/api/v1/tournaments/{slug(w)}/rounds/prepare/", DRAWS_MANAGE, api=True),
        checked_in,
    ),
    (
        Case(
            "api publish",
            "post",
            lambda w: f"/api/v1/tournaments/{slug(w)}/rounds/1/publish/",
            DRAWS_MANAGE,
            lambda w: {"public_value": "5 2", "witness": w.users["juez"].get_username()},
            api=True,
        ),
        prepared,
    ),
    (
        Case("api cancel", "post", lambda w: f"/api/v1/tournaments/{slug(w)}/rounds/1/cancel/", DRAWS_MANAGE, api=True),
        prepared,
    ),
    (
        Case(
            "api redraw",
            "post",
            lambda w: f"/api/v1/tournaments/{slug(w)}/rounds/1/redraw/",
            DRAWS_REDRAW,
            lambda w: {"reason": "Error de la mesa"},
            api=True,
        ),
        published,
    ),
]


@pytest.mark.parametrize("role", MATRIX_ROLES)
@pytest.mark.parametrize(("case", "setup"), CASES, ids=[c.name for c, _ in CASES])
def test_permission_matrix_rounds(
    world: World, terminal_role: Callable[[str], None], case: Case, setup: Callable[[World], None], role: str
) -> None:
    terminal_role(role)
    setup(world)
    check_case(world, case, role)


def test_the_juez_witnesses_the_draw_but_may_not_prepare_or_publish_it_amm_5_5(world: World) -> None:
    checked_in(world)
    for api in (False, True):
        client = client_for(world, "juez", api)
        prefix = f"/api/v1/tournaments/{slug(world)}/rounds/" if api else f"/torneos/{slug(world)}/gestion/rondas/"
        assert client.post(prefix + ("prepare/" if api else "preparar/")).status_code == 403
    assert not Round.objects.exists()
    prepared(world)
    draw = Draw.objects.get()
    web = client_for(world, "juez", api=False)
    assert web.post(f"/torneos/{slug(world)}/gestion/rondas/1/publicar/", publish_data(world)).status_code == 403
    api_client = client_for(world, "juez", api=True)
    body = {"public_value": "1", "witness": world.users["juez"].pk}
    assert (
        api_client.post(f"/api/v1/tournaments/{slug(world)}/rounds/1/publish/", body, format="json").status_code == 403
    )
    draw.refresh_from_db()
    assert draw.status == Draw.Status.COMMITTED and not Match.objects.exists()


def test_denied_redraws_change_nothing(world: World) -> None:
    published(world)
    draw = Draw.objects.get()
    for role in ("control", "juez", "player", "other_organizer"):
        client_for(world, role, api=False).post(
            f"/torneos/{slug(world)}/gestion/rondas/1/repetir-sorteo/", {"reason": "x"}
        )
        client_for(world, role, api=True).post(
            f"/api/v1/tournaments/{slug(world)}/rounds/1/redraw/", {"reason": "x"}, format="json"
        )
    draw.refresh_from_db()
    assert draw.status == Draw.Status.PUBLISHED and Draw.objects.count() == 1 and Match.objects.count() == 1


def test_a_draft_tournament_hides_its_rounds_from_everyone_but_its_staff(world: World) -> None:
    published(world)
    world.tournament.status = "draft"
    world.tournament.save()
    for role in ROLES:
        for api, path in (
            (False, f"/torneos/{slug(world)}/rondas/1/"),
            (True, f"/api/v1/tournaments/{slug(world)}/rounds/1/"),
        ):
            status = client_for(world, role, api).get(path).status_code
            assert (status == 200) == (role in {"juez", "control", "organizer", "superuser"}), (role, path, status)
