"""The rounds API: list and detail with the draw's verification data (AMM 5.5), the mesa de
control's acts (prepare, publish before a juez, cancel) and the organizer's redraw; bad input is a
400 with a Spanish message; every format runs a 100+ pair tournament through it."""

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from scoring.services.results import result_submit
from tests.factories import UserFactory, grant
from tests.torneo.simulation import Simulation, new_tournament
from tests.torneo.test_round_views import command_output, finish_round, publish_next
from torneo.draws import allocate_liguillas, derive_seed
from torneo.models import Draw, Match, Pair, Round, Tournament
from torneo.services.registrations import pair_withdraw
from torneo.services.rounds import live_draw, round_prepare

pytestmark = pytest.mark.django_db


def api(sim: Simulation, user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def base(sim: Simulation) -> str:
    return f"/api/v1/tournaments/{sim.tournament.slug}/rounds/"


def test_list_and_detail_with_matches_exentas_and_results():
    sim = new_tournament(9, seed=2)
    round_ = publish_next(sim)
    match = round_.matches.exclude(pair_b=None).select_related("pair_a").order_by("table_number").first()
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=2)
    listed = api(sim).get(base(sim)).json()
    assert listed == [
        {
            "number": 1,
            "kind": "draw",
            "phase": "main",
            "status": "published",
            "is_final": False,
            "session": None,
            "published_at": listed[0]["published_at"],
            "tables": 4,
            "byes": 1,
            "pending": 3,
            "url": f"/torneos/{sim.tournament.slug}/rondas/1/",
        }
    ]
    detail = api(sim).get(base(sim) + "1/").json()
    assert len(detail["matches"]) == 5 and detail["tables"] == 4 and detail["byes"] == 1
    first = detail["matches"][0]
    assert first["table"] == match.table_number and first["pair_a"]["number"] == match.pair_a.number
    assert first["outcome"] == "played" and (first["games_a"], first["games_b"]) == (3, 2)
    assert first["winner"] == match.pair_a.number
    assert {p["last_name"] for p in first["pair_a"]["players"]} == {
        m.player.last_name for m in match.pair_a.ordered_members()
    }
    [bye] = [m for m in detail["matches"] if m["pair_b"] is None]
    assert bye["table"] is None and bye["outcome"] == "bye"


def test_before_the_draw_only_the_commitment_and_the_pairs_never_the_secret_amm_5_5():
    sim = new_tournament(6, seed=2, checked_in=5)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    draw = live_draw(round_)
    response = api(sim).get(base(sim) + "1/")
    assert draw.secret not in response.content.decode()
    data = response.json()["draw"]
    assert data["commitment"] == draw.commitment and data["status"] == "committed"
    assert data["secret"] is None and data["seed"] is None and data["inputs"] == []
    assert data["pairs_to_draw"] == [{"label": "", "title": "", "pairs": [1, 2, 3, 4, 5]}]


def test_prepare_and_publish_by_api_then_verify_with_the_command_amm_5_5():
    sim = new_tournament(13, seed=4)
    client = api(sim, sim.organizer)
    response = client.post(base(sim) + "prepare/", {}, format="json")
    assert response.status_code == 201
    commitment = response.json()["draw"]["commitment"]
    response = client.post(
        base(sim) + "1/publish/",
        {"public_value": "6 6 1", "witness": sim.juez.get_username(), "commitment": commitment},
        format="json",
    )
    assert response.status_code == 200, response.json()
    draw = response.json()["draw"]
    assert draw["status"] == "published" and draw["public_value"] == "6 6 1"
    assert draw["witness"] == "juez del torneo"  # a name (this juez has none), never the username
    assert draw["seed"] == derive_seed(draw["secret"], "6 6 1")
    [pool] = draw["inputs"]
    assert pool["command"] == "python -m torneo.draws < sorteo-ronda-1.json"
    out = command_output(pool["input"])
    assert out["verified"] is True
    listed = {
        frozenset((m["pair_a"]["number"], m["pair_b"]["number"])) for m in response.json()["matches"] if m["pair_b"]
    }
    assert {frozenset(m) for m in out["matches"]} == listed
    assert api(sim).get(pool["download_url"]).status_code == 200


def test_publish_with_the_juez_id_and_with_a_session():
    sim = new_tournament(4, seed=1)
    session = sim.tournament.sessions.create(name="Mañana", starts_at="2026-12-12T10:00:00+01:00")
    client = api(sim, sim.organizer)
    assert (
        client.post(base(sim) + "prepare/", {"session": session.pk}, format="json").json()["session"]["name"]
        == "Mañana"
    )
    response = client.post(base(sim) + "1/publish/", {"public_value": "3", "witness": sim.juez.pk}, format="json")
    assert response.status_code == 200 and Draw.objects.get().witness == sim.juez


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"witness": "JUEZ"}, "public_value", "Escribe el valor público obtenido en la sala"),
        ({"public_value": "   ", "witness": "JUEZ"}, "public_value", "Escribe el valor público obtenido en la sala"),
        ({"public_value": "x" * 201, "witness": "JUEZ"}, "public_value", "demasiado largo"),
        ({"public_value": "12"}, "witness", "Indica el juez presente en el sorteo (AMM 5.5)."),
        ({"public_value": "12", "witness": "ORGANIZER"}, "witness", "Indica el juez presente en el sorteo (AMM 5.5)."),
        ({"public_value": "12", "witness": "nadie"}, "witness", "Indica el juez presente en el sorteo (AMM 5.5)."),
        ({"public_value": "12", "witness": "JUEZ", "commitment": "0" * 64}, "commitment", "ha cambiado"),
    ],
)
def test_bad_publish_input_is_a_400_in_spanish_and_nothing_is_drawn_amm_5_5(body, field, message):
    sim = new_tournament(6, seed=1)
    round_prepare(tournament=sim.tournament, by=sim.organizer)
    names = {"JUEZ": sim.juez.get_username(), "ORGANIZER": sim.organizer.get_username()}
    body = {k: names.get(v, v) for k, v in body.items()}
    response = api(sim, sim.organizer).post(base(sim) + "1/publish/", body, format="json")
    assert response.status_code == 400
    assert any(message in m for m in response.json()[field]), response.json()
    assert Draw.objects.get().status == Draw.Status.COMMITTED and not Match.objects.exists()


def test_no_juez_in_the_tournament_amm_5_5():
    sim = new_tournament(6, seed=1)
    sim.tournament.roles.filter(role="juez").delete()
    round_prepare(tournament=sim.tournament, by=sim.organizer)
    response = api(sim, sim.organizer).post(
        base(sim) + "1/publish/", {"public_value": "1", "witness": sim.juez.pk}, format="json"
    )
    assert response.status_code == 400 and response.json()["witness"] == [
        "Indica el juez presente en el sorteo (AMM 5.5)."
    ]


def test_service_errors_come_back_as_400_with_their_message_and_code():
    sim = new_tournament(6, seed=1)
    client = api(sim, sim.organizer)
    client.post(base(sim) + "prepare/", {}, format="json")
    pair_withdraw(pair=Pair.objects.filter(tournament=sim.tournament).first())
    response = client.post(base(sim) + "1/publish/", {"public_value": "1", "witness": sim.juez.pk}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "stale_commitment"
    assert "han cambiado desde que se publicó el compromiso" in response.json()["detail"]
    # Prepared but unpublished: no second round.
    response = client.post(base(sim) + "prepare/", {}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "unpublished"


def test_publishing_twice_is_refused():
    sim = new_tournament(6, seed=1)
    publish_next(sim)
    response = api(sim, sim.organizer).post(
        base(sim) + "1/publish/", {"public_value": "9", "witness": sim.juez.pk}, format="json"
    )
    assert response.status_code == 400 and response.json() == {
        "detail": "Este sorteo ya está publicado o anulado.",
        "code": "not_committed",
    }


def test_prepare_refused_while_results_are_missing_and_with_a_foreign_session():
    sim = new_tournament(8, seed=1, format=Tournament.Format.CEROS, max_losses=2)
    publish_next(sim)
    client = api(sim, sim.organizer)
    response = client.post(base(sim) + "prepare/", {}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "pending_results"
    other = new_tournament(2).tournament.sessions.create(name="Otra", starts_at="2026-12-12T10:00:00+01:00")
    response = client.post(base(sim) + "prepare/", {"session": other.pk}, format="json")
    assert response.status_code == 400 and response.json() == {"session": ["La jornada no pertenece a este torneo."]}
    response = client.post(base(sim) + "prepare/", {"session": "mañana"}, format="json")
    assert response.status_code == 400 and response.json() == {"session": ["La jornada debe ser un número (su id)."]}


def test_cancel_a_prepared_round_not_a_published_one():
    sim = new_tournament(6, seed=1)
    client = api(sim, sim.organizer)
    client.post(base(sim) + "prepare/", {}, format="json")
    assert client.post(base(sim) + "1/cancel/").status_code == 204 and not Round.objects.exists()
    publish_next(sim)
    response = client.post(base(sim) + "1/cancel/")
    assert response.status_code == 400 and response.json()["code"] == "published"


def test_redraw_needs_a_reason_and_keeps_the_old_draw_with_it_amm_5_5():
    sim = new_tournament(7, seed=3)
    round_ = publish_next(sim, public_value="primero")
    old = live_draw(round_)
    client = api(sim, sim.organizer)
    for body in ({}, {"reason": "  "}):
        response = client.post(base(sim) + "1/redraw/", body, format="json")
        assert response.status_code == 400
        assert response.json() == {"reason": ["Un nuevo sorteo necesita un motivo, que queda registrado."]}
    response = client.post(base(sim) + "1/redraw/", {"reason": "Error en las presencias"}, format="json")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "prepared" and data["matches"] == [] and data["draw"]["status"] == "committed"
    [superseded] = data["superseded_draws"]
    assert superseded["reason"] == "Error en las presencias" and superseded["secret"] == old.secret
    assert command_output(superseded["inputs"][0]["input"])["verified"] is True
    response = client.post(base(sim) + "1/publish/", {"public_value": "segundo", "witness": sim.juez.pk}, format="json")
    assert response.status_code == 200 and response.json()["draw"]["public_value"] == "segundo"
    # A control may prepare and publish, but not redraw.
    control = grant(UserFactory(), sim.tournament, "control")
    response = api(sim, control).post(base(sim) + "1/redraw/", {"reason": "otra"}, format="json")
    assert response.status_code == 403


def test_the_round_detail_takes_the_same_queries_for_16_and_120_pairs(django_assert_num_queries):
    for pairs in (16, 120):
        sim = new_tournament(pairs, seed=pairs)
        finish_round(sim, publish_next(sim))
        cache.clear()
        # tournament, rounds, draws, matches, the pairs with their players
        with django_assert_num_queries(5):
            assert api(sim).get(base(sim) + "1/").status_code == 200
        with django_assert_num_queries(2):
            assert api(sim).get(base(sim)).status_code == 200


def test_the_schema_documents_the_rounds_endpoints():
    response = APIClient().get("/api/v1/schema/")
    schema = response.content.decode()
    for path in (
        "/rounds/",
        "/rounds/{number}/",
        "/rounds/prepare/",
        "/rounds/{number}/publish/",
        "/rounds/{number}/redraw/",
    ):
        assert f"/api/v1/tournaments/{{tournament_slug}}{path}:" in schema, path


# --- every format, 100+ pairs, through the API ----------------------------------------------------


FORMATS = {
    "a tres ceros": {"format": Tournament.Format.CEROS, "max_losses": 3, "same_losses": True},
    "repesca": {"format": Tournament.Format.REPESCA, "max_losses": 1, "repesca_until_round": 2, "pool_b_max_losses": 2},
    "repesca con reenganche": {
        "format": Tournament.Format.REPESCA,
        "max_losses": 1,
        "repesca_until_round": 1,
        "pool_b_max_losses": 2,
        "repesca_reentry_round": 3,
    },
    "suizo": {"format": Tournament.Format.SWISS, "swiss_rounds": 7},
    "liguillas y cuadro": {"format": Tournament.Format.LIGUILLAS, "group_count": 16, "group_qualifiers": 2},
    "eliminatoria con rondas finales": {
        "format": Tournament.Format.CEROS,
        "max_losses": 1,
        "final_phase_from_round": 4,
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("name", FORMATS)
def test_a_100_pair_tournament_runs_through_the_api_in_every_format_amm_5_5_5_6_5_7(name):
    """Prepare and publish every round by API (results through the results service) until the
    format says the tournament is decided; every draw verified from its published values."""
    sim = new_tournament(103, seed=len(name), **FORMATS[name])
    client = api(sim, sim.organizer)
    met: dict[frozenset[int], int] = {}
    for number in range(1, 40):
        response = client.post(base(sim) + "prepare/", {}, format="json")
        if response.status_code == 400:
            assert response.json()["code"] == "decided", response.json()
            break
        assert response.status_code == 201, response.json()
        body = {"public_value": f"{number}-{name}", "witness": sim.juez.get_username()}
        if response.json()["kind"] != "draw":
            body = {}
        response = client.post(base(sim) + f"{number}/publish/", body, format="json")
        assert response.status_code == 200, response.json()
        data = api(sim).get(base(sim) + f"{number}/").json()
        # AMM 5.5: every pool of every drawn round recomputes from the published values.
        if data["kind"] == "draw":
            assert data["draw"]["inputs"]
            for pool in data["draw"]["inputs"]:
                if pool["label"] == "liguillas":  # the page's command runs this (see test_round_views)
                    d = pool["input"]
                    groups = allocate_liguillas(d["pairs"], group_count=d["group_count"], seed=d["seed"])
                    assert [list(g) for g in groups] == d["expect"]
                    continue
                out = command_output(pool["input"])
                assert out["verified"] is True
                had = pool["input"]["byes"]
                if out["bye"] is not None:  # AMM 5.6: the exenta to a pair with the fewest so far
                    assert had.count(out["bye"]) == min(had.count(p) for p in pool["input"]["pairs"])
                if len(pool["input"]["pairs"]) >= 8 and name != "eliminatoria con rondas finales":
                    assert out["rematches"] == 0  # AMM 5.7
        # Every pair once per round.
        seen = [p for m in data["matches"] for p in (m["pair_a"]["number"], m["pair_b"] and m["pair_b"]["number"]) if p]
        assert len(seen) == len(set(seen))
        for m in data["matches"]:
            if m["pair_b"]:
                key = frozenset((m["pair_a"]["number"], m["pair_b"]["number"]))
                met[key] = met.get(key, 0) + 1
        finish_round(sim, Round.objects.get(tournament=sim.tournament, number=number))
    else:
        raise AssertionError("the tournament never ended")
    assert Round.objects.filter(tournament=sim.tournament).count() >= 4
    if name == "suizo":
        assert max(met.values()) == 1  # seven rounds, 103 pairs: never the same match twice (AMM 5.7)
