"""Suplentes through the API (AMM 5.8): the jueces and the organizer authorise and withdraw them,
every limit refused with its article unless force majeure with a reason; the public reads who plays
for whom, never the document nor the reason; the staff read everything. Bad input is a Spanish 400
keyed by field."""

import datetime
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from referees.models import Substitution
from scoring.services import clocks as clock_svc
from tests.factories import TournamentFactory, UserFactory, grant
from tests.referees import client_for, link
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db

DOCUMENT = "12345678Z"
REASON = "El titular, indispuesto"
PUBLIC_FIELDS = {"id", "round", "table", "match", "pair", "replaced", "name"}
STAFF_FIELDS = PUBLIC_FIELDS | {"status", "id_document", "force_majeure", "reason", "authorised_by", "authorised_at"}


@dataclass
class Room:
    tournament: Tournament
    round: Round
    matches: list[Match]
    users: dict[str, Any]

    def client(self, role: str) -> APIClient:
        return client_for(self.users.get(role))

    def url(self, path: str = "") -> str:
        return f"/api/v1/tournaments/{self.tournament.slug}/substitutions/{path}"


@pytest.fixture
def room() -> Room:
    """An 8-pair tournament, round 1 published (its clocks not started), and a user in every role:
    organizer, juez, mesa de control, a player of table 1, anonymous."""
    sim = new_tournament(8, seed=45, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    matches = playing(round_)
    users = {
        "organizer": sim.organizer,
        "juez": sim.juez,
        "mesa": grant(UserFactory(username="mesa-suplentes"), sim.tournament, "control"),
        "player": link(UserFactory(username="jugador-suplentes"), matches[0].pair_a),
    }
    return Room(sim.tournament, round_, matches, users)


def authorise(room: Room, role: str = "juez", **body: Any) -> Any:
    data = {
        "match": room.matches[0].pk,
        "pair": "A",
        "replaced": 1,
        "first_name": "Íñigo",
        "last_name": "Arrieta Sanz",
        **body,
    }
    return room.client(role).post(room.url(), data, format="json")


def cancel(room: Room, pk: int, role: str = "juez", **body: Any) -> Any:
    return room.client(role).post(room.url(f"{pk}/cancel/"), body, format="json")


def listed(room: Room, role: str | None = None, **params: Any) -> list[dict[str, Any]]:
    response = room.client(role).get(room.url(), params)
    assert response.status_code == 200, response.content[:300]
    assert response["Cache-Control"] == "no-store"
    rows: list[dict[str, Any]] = response.json()
    return rows


def refused(response: Any, field: str) -> str:
    assert response.status_code == 400, response.content[:300]
    errors = response.json()
    assert field in errors, errors
    return " ".join(errors[field])


# --- authorise and list ---------------------------------------------------------------------------


def test_the_juez_authorises_a_suplente_and_the_public_sees_the_name_never_the_document_amm_5_8(room):
    match = room.matches[0]
    replaced = match.pair_a.ordered_members()[0].player
    response = authorise(room, id_document="12.345.678-z", reason=REASON)
    assert response.status_code == 201, response.json()
    staff = response.json()
    assert set(staff) == STAFF_FIELDS
    assert (staff["round"], staff["table"], staff["match"]) == (1, match.table_number, match.pk)
    assert (staff["pair"], staff["replaced"], staff["name"]) == (
        match.pair_a.number,
        replaced.full_name,
        "Íñigo Arrieta Sanz",
    )
    assert (staff["status"], staff["id_document"], staff["force_majeure"]) == ("active", DOCUMENT, False)
    assert staff["reason"] == REASON and staff["authorised_by"] == room.users["juez"].username
    assert Substitution.objects.get(pk=staff["id"]).replaced == replaced

    # The public (anonymous, a player, any user): the name and the place, nothing private.
    for role in (None, "player"):
        rows = listed(room, role)
        assert [set(row) for row in rows] == [PUBLIC_FIELDS], role
        assert rows[0] == {key: staff[key] for key in PUBLIC_FIELDS}
        assert DOCUMENT not in str(rows) and REASON not in str(rows)
    # The staff, the mesa de control included: everything.
    for role in ("organizer", "juez", "mesa"):
        assert listed(room, role) == [staff], role
    assert listed(room, round=1) == listed(room) and listed(room, round=2) == []
    response = client_for().get(room.url(), {"round": "x"})
    assert response.status_code == 400 and list(response.json()) == ["round"]


def test_a_cancelled_suplencia_is_listed_only_for_the_staff_amm_5_8(room):
    first = authorise(room).json()
    second = authorise(room, pair="B", replaced=2, first_name="Otra", last_name="Suplente Distinta").json()
    assert cancel(room, first["id"]).status_code == 200
    assert [row["id"] for row in listed(room)] == [second["id"]]
    staff = {row["id"]: row["status"] for row in listed(room, "mesa")}
    assert staff == {first["id"]: "cancelled", second["id"]: "active"}


def test_a_new_suplente_for_the_same_place_replaces_the_earlier_one_amm_5_8(room):
    first = authorise(room).json()
    second = authorise(room, first_name="Otra", last_name="Suplente Distinta")
    assert second.status_code == 201, second.json()
    assert Substitution.objects.get(pk=first["id"]).status == Substitution.Status.CANCELLED
    assert [row["name"] for row in listed(room)] == ["Otra Suplente Distinta"]


def test_only_the_jueces_and_the_organizer_authorise_and_withdraw_amm_5_8(room):
    for role in ("mesa", "player", "anonymous"):
        response = authorise(room, role)
        assert response.status_code == 403, (role, response.content[:200])
        assert "detail" in response.json()
    assert not Substitution.objects.exists()
    made = authorise(room, "organizer")
    assert made.status_code == 201, made.json()
    pk = made.json()["id"]
    for role in ("mesa", "player", "anonymous"):
        assert cancel(room, pk, role).status_code == 403, role
    assert Substitution.objects.get(pk=pk).status == Substitution.Status.ACTIVE
    assert cancel(room, pk, "organizer").status_code == 200


def test_a_draft_tournament_s_suplentes_are_not_found():
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    juez = grant(UserFactory(), draft, "juez")
    url = f"/api/v1/tournaments/{draft.slug}/substitutions/"
    assert client_for().get(url).status_code == 404
    assert client_for(UserFactory()).get(url).status_code == 404
    assert client_for(juez).get(url).status_code == 200


# --- the limits of AMM 5.8 ------------------------------------------------------------------------


def test_a_registered_player_cannot_be_a_suplente_amm_5_8_b(room):
    registered = room.matches[1].pair_a.ordered_members()[0].player
    response = authorise(room, first_name=registered.first_name, last_name=registered.last_name)
    message = refused(response, "first_name")
    assert "5.8.b" in message and "inscrita" in message
    assert list(response.json()) == ["first_name"]
    assert not Substitution.objects.exists()


def test_a_suplente_of_one_pair_cannot_be_one_of_another_amm_5_8_c(room):
    assert authorise(room, id_document=DOCUMENT).status_code == 201
    response = authorise(room, match=room.matches[1].pk, id_document=DOCUMENT)
    assert "5.8.c" in refused(response, "first_name")


def test_no_suplentes_in_a_final_round_amm_5_8_d(room):
    Round.objects.filter(pk=room.round.pk).update(is_final=True)
    assert "5.8.d" in refused(authorise(room), "first_name")
    assert not Substitution.objects.exists()


def test_force_majeure_goes_beyond_a_limit_with_a_reason_on_record_amm_5_8(room):
    Round.objects.filter(pk=room.round.pk).update(is_final=True)
    assert "fuerza mayor" in refused(authorise(room, force_majeure=True), "reason")
    response = authorise(room, force_majeure=True, reason=REASON)
    assert response.status_code == 201, response.json()
    assert (response.json()["force_majeure"], response.json()["reason"]) == (True, REASON)
    assert listed(room)[0]["name"] == "Íñigo Arrieta Sanz"


def test_several_limits_broken_are_all_named_at_once_amm_5_8(room):
    Round.objects.filter(pk=room.round.pk).update(is_final=True)
    registered = room.matches[1].pair_b.ordered_members()[1].player
    response = authorise(room, first_name=registered.first_name, last_name=registered.last_name)
    assert refused(response, "first_name")
    named = response.json()["first_name"]
    assert len(named) == 2 and any("5.8.b" in m for m in named) and any("5.8.d" in m for m in named)


# --- withdrawing a suplente (AMM 5.8.a) -----------------------------------------------------------


def test_a_suplente_is_withdrawn_freely_before_the_partida_begins_amm_5_8_a(room):
    pk = authorise(room).json()["id"]
    response = cancel(room, pk)
    assert response.status_code == 200, response.json()
    assert set(response.json()) == STAFF_FIELDS and response.json()["status"] == "cancelled"
    assert Substitution.objects.get(pk=pk).status == Substitution.Status.CANCELLED
    # Already cancelled: a Spanish 400, not a 500.
    again = cancel(room, pk)
    assert again.status_code == 400 and "anulada" in again.json()["detail"]


def test_once_the_partida_began_the_suplente_finishes_it_amm_5_8_a(room):
    pk = authorise(room).json()["id"]
    clock_svc.clocks_start_round(round=room.round, by=room.users["juez"], at=datetime.datetime.now(datetime.UTC))
    response = cancel(room, pk, reason="Se ha recuperado el titular")
    assert "5.8.a" in refused(response, "reason")
    assert list(response.json()) == ["reason"]
    assert Substitution.objects.get(pk=pk).status == Substitution.Status.ACTIVE
    # Nor another suplente in that place.
    assert "5.8.a" in refused(authorise(room, first_name="Otra", last_name="Suplente Distinta"), "first_name")
    # Force majeure, with its reason: withdrawn, the reason on record.
    response = cancel(room, pk, force_majeure=True, reason="Indispuesto: ambulancia")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "cancelled" and "ambulancia" in response.json()["reason"]


# --- bad input ------------------------------------------------------------------------------------


def test_bad_input_is_a_spanish_400_keyed_by_field_and_writes_nothing(room):
    match, other_table = room.matches[0], room.matches[1]
    foreign = new_tournament(2, seed=5)
    foreign_match = playing(publish_next_round(foreign))[0]
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"match": foreign_match.pk}, "match", "en este torneo"),
        ({"match": "x"}, "match", "no es válido"),
        ({"match": 10**30}, "match", "no es válido"),
        ({"match": None}, "match", "Indica la partida"),
        ({"pair": "Z"}, "pair", "Indica la pareja"),
        ({"pair": ""}, "pair", "Indica la pareja"),
        ({"pair": "999"}, "pair", "No hay ninguna pareja 999"),
        ({"pair": str(other_table.pair_a.number)}, "pair", "no juega esa partida"),
        ({"replaced": 4}, "replaced", "1, el primero"),
        ({"replaced": 3}, "replaced", "La pareja no tiene ese jugador"),
        ({"replaced": 0}, "replaced", "1, el primero"),
        ({"replaced": "uno"}, "replaced", "1, el primero"),
        ({"replaced": None}, "replaced", "1, el primero"),
        ({"first_name": ""}, "first_name", "Escribe el nombre"),
        ({"first_name": None}, "first_name", "Escribe el nombre"),
        ({"first_name": "x" * 101}, "first_name", "demasiado largo"),
        ({"last_name": "   "}, "last_name", "Escribe los apellidos"),
        ({"last_name": ["Arrieta"]}, "last_name", "Escribe los apellidos"),
        ({"id_document": "12345678A"}, "id_document", "DNI"),
        ({"id_document": "x" * 51}, "id_document", "entre 5 y 20"),
        ({"force_majeure": "quizá"}, "force_majeure", "true o false"),
        ({"reason": {"a": 1}}, "reason", "texto"),
        ({"reason": "x" * 1001}, "reason", "demasiado largo"),
    ]
    for change, field, words in cases:
        response = authorise(room, **change)
        assert response.status_code == 400, (change, response.content[:300])
        errors = response.json()
        assert list(errors) == [field], (change, errors)
        assert words in errors[field][0], (change, errors)
    juez = room.client("juez")
    for missing in ("match", "pair", "replaced", "first_name", "last_name"):
        data = {"match": match.pk, "pair": "A", "replaced": 1, "first_name": "Íñigo", "last_name": "Arrieta Sanz"}
        del data[missing]
        response = juez.post(room.url(), data, format="json")
        assert response.status_code == 400 and list(response.json()) == [missing], (missing, response.json())
    response = juez.post(room.url(), [], format="json")
    assert response.status_code == 400
    assert not Substitution.objects.exists()

    pk = authorise(room).json()["id"]
    for body, field in (({"force_majeure": "x"}, "force_majeure"), ({"reason": "x" * 1001}, "reason")):
        response = cancel(room, pk, **body)
        assert response.status_code == 400 and list(response.json()) == [field], (body, response.json())
    for missing in ("999999", "abc", str(10**30)):
        assert juez.post(room.url(f"{missing}/cancel/"), {}, format="json").status_code == 404
    assert Substitution.objects.get(pk=pk).status == Substitution.Status.ACTIVE


# --- the schema -----------------------------------------------------------------------------------


def test_the_schema_documents_the_substitution_endpoints_amm_5_8():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    base = "/api/v1/tournaments/{tournament_slug}/substitutions"
    assert {"get", "post"} <= set(paths[f"{base}/"])
    assert "post" in paths[f"{base}/{{id}}/cancel/"]
    for path in (f"{base}/", f"{base}/{{id}}/cancel/"):
        assert "application/json" in paths[path]["post"]["requestBody"]["content"], path
    assert "5.8.b" in paths[f"{base}/"]["post"]["description"]
    assert "5.8.a" in paths[f"{base}/{{id}}/cancel/"]["post"]["description"]
    assert "200" in paths[f"{base}/{{id}}/cancel/"]["post"]["responses"]
    components = schema["components"]["schemas"]
    request = components["SubstitutionAuthoriseRequest"]
    assert set(request["required"]) == {"match", "pair", "replaced", "first_name", "last_name"}
    assert "1" in request["properties"]["replaced"]["description"]
    assert set(components["Substitution"]["properties"]) == PUBLIC_FIELDS
    assert set(components["SubstitutionStaff"]["properties"]) == STAFF_FIELDS
